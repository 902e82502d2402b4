"""The tree visualizer's Q-over-iterations chart and uploaded traces stay cheap (issue 31): ``q_history`` is one
pass over the steps (it replayed the trace once per iteration: an 800 KB trace took 60 s of server CPU), and a
trace file beyond ``Settings.max_trace_*`` is refused before it is replayed."""
from __future__ import annotations

import json
import random
import time

import pytest

from alphasearch.config import Settings
from alphasearch.errors import TraceFileError
from alphasearch.models import SearchNode, SearchStep, SearchTrace, Section
from alphasearch.search.baselines import mcts_reference
from alphasearch.search.mcts import page_node, q_history, replay, search
from alphasearch.search.trace_file import read_trace


def old_q_history(trace, node_ids):
    """What the app computed before: every iteration replayed from the first."""
    out = {n: [] for n in node_ids}
    for t in range(1, len(trace.steps) + 1):
        stats = replay(trace, t)
        for nid in node_ids:
            visits, q = stats.get(nid, (0, 0.0))
            out[nid].append(q if visits else None)
    return out


class Scores:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def score(self, question, sections):
        return [round(self.rng.random(), 3) for _ in sections]

    def pages_of(self, question, section):
        return [page_node(section, p, f"text of page {p}") for p in section.page_numbers]

    def prior(self, question, pages):
        return [0.5 for _ in pages]


def chapters(n: int, pages: int = 3) -> Section:
    return Section("R", "Root", (1, n * pages), children=tuple(
        Section(f"S{i}", f"S{i}", (i * pages + 1, (i + 1) * pages)) for i in range(n)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_history_is_what_replaying_each_iteration_gives(seed):
    root = chapters(12)
    scorer = Scores(seed)
    traces = [search(root, "q", scorer, reader=scorer, iterations=40, rng=random.Random(seed)),  # max backup
              mcts_reference(root, "q", Scores(seed), iterations=40, rng=random.Random(seed))]  # mean backup
    for trace in traces:
        ids = [n.section.node_id for n in trace.root.walk()]
        assert q_history(trace, ids) == pytest.approx(old_q_history(trace, ids)) or \
            q_history(trace, ids) == old_q_history(trace, ids)


def big_trace(steps: int = 8000, width: int = 400, depth2: int = 20) -> SearchTrace:
    """A max-backup trace of ``steps`` iterations over a root, ``width`` chapters and ``depth2`` sections each,
    every iteration judging one new section."""
    kids = []
    for i in range(width):
        sub = [SearchNode(Section(f"C{i}.{j}", "s", (1, 1)), parent_id=f"C{i}") for j in range(depth2)]
        kids.append(SearchNode(Section(f"C{i}", "c", (1, 1)), parent_id="R", children=sub))
    root = SearchNode(Section("R", "Root", (1, 1)), children=kids)
    rng = random.Random(5)
    out = []
    for t in range(steps):
        i, j = t % width, (t // width) % depth2
        leaf, r = f"C{i}.{j}", round(rng.random(), 4)
        out.append(SearchStep(t + 1, ("R", f"C{i}", leaf), r, (0.5, 0.5), expanded=(f"C{i}", leaf) if not j else (leaf,),
                              judged=(leaf,), rewards=(r,)))
    return SearchTrace(root=root, steps=tuple(out), best=(), backup="max")


def test_an_8000_step_trace_is_refused_on_upload_or_replayed_in_under_2_s():
    trace = big_trace()
    data = json.dumps({"question": "q", "trace": trace.to_dict()}).encode()
    with pytest.raises(TraceFileError) as err:
        read_trace(data, "huge.json", Settings())
    assert "8,000 iterations" in str(err.value) and "at most 5,000" in str(err.value)
    with pytest.raises(TraceFileError, match="a trace may be at most 1 MB"):
        read_trace(data, "huge.json", Settings(max_trace_mb=1))
    with pytest.raises(TraceFileError, match="not a search trace"):
        read_trace(b'{"steps": 3}', "odd.json", Settings())
    question, back = read_trace(data, "huge.json", Settings(max_trace_steps=10_000))  # an operator may allow it
    top = [n.section.node_id for n in back.root.walk()][:12]
    start = time.perf_counter()
    hist = q_history(back, top)
    took = time.perf_counter() - start
    assert len(hist["R"]) == 8000 and hist["R"][-1] == pytest.approx(max(s.reward for s in back.steps))
    short = SearchTrace(root=back.root, steps=back.steps[:800], best=(), backup="max")
    start = time.perf_counter()
    assert old_q_history(short, top) == q_history(short, top)
    old = time.perf_counter() - start
    print(f"q_history: 8,000 steps in {took:.2f} s; the old way took {old:.2f} s for 800")
    assert took < 2.0
