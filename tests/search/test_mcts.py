"""The search on literal trees with fake scorers: every iteration judges something new,
exhaustion, page expansion, max backup, the stopping rule, selection values, replay,
seeded determinism, and the reference system's MCTS."""
from __future__ import annotations

import math
import random

import pytest

from alphasearch.search.baselines import distinct_judged, mcts_reference
from alphasearch.search.mcts import (
    PRIOR_MIX, judged_nothing_share, page_node, pages_read, replay, search, select_child, selection_value,
)
from alphasearch.models import SearchNode, SearchTrace, Section


def tree() -> Section:
    a = Section("A", "Alpha", (1, 2), children=(Section("A1", "Alpha one", (1, 1)), Section("A2", "Alpha two", (2, 2))))
    return Section("R", "Root", (1, 4), children=(a, Section("B", "Beta", (3, 4))))


class Fixed:
    """Scores by node id; records every call."""

    def __init__(self, values: dict[str, float]):
        self.values = values
        self.calls: list[list[str]] = []

    def score(self, question, sections):
        self.calls.append([s.node_id for s in sections])
        return [self.values[s.node_id] for s in sections]


class Pages:
    """A reader: page nodes of a leaf, prior and deep read by page number."""

    def __init__(self, reads: dict[int, float], priors: dict[int, float] | None = None):
        self.reads, self.priors = reads, priors or {}
        self.calls: list[list[str]] = []

    def pages_of(self, question, section):
        return [page_node(section, p, f"text of page {p}") for p in section.page_numbers]

    def prior(self, question, pages):
        return [self.priors.get(p.pages[0], 0.5) for p in pages]

    def score(self, question, pages):
        self.calls.append([p.node_id for p in pages])
        return [self.reads[p.pages[0]] for p in pages]


REWARDS = {"A": 0.8, "B": 0.3, "A1": 0.1, "A2": 0.9}
PRIORS = {"A": 0.6, "B": 0.4, "A1": 0.2, "A2": 0.9}


def stats(trace: SearchTrace) -> dict[str, tuple[int, float]]:
    return {n.section.node_id: (n.visits, round(n.q, 9)) for n in trace.root.walk()}


def test_siblings_are_judged_together_and_every_iteration_judges_something_new():
    scorer = Fixed(REWARDS)
    trace = search(tree(), "q", scorer, prior=Fixed(PRIORS), iterations=10, rule="puct", rng=random.Random(0),
                   confident_leaves=0)
    assert scorer.calls == [["A", "B"], ["A1", "A2"]]  # the chosen child with its siblings, in tree order
    assert [st.judged for st in trace.steps] == [("A", "B"), ("A1", "A2")]
    assert [st.rewards for st in trace.steps] == [(0.8, 0.3), (0.1, 0.9)]
    assert [st.path for st in trace.steps] == [("R", "A"), ("R", "A", "A2")]
    # nothing left to judge after two iterations: the tree is exhausted and the search stops
    assert trace.stop_reason == "exhausted" and trace.nodes_scored == 4
    assert judged_nothing_share([trace]) == 0.0
    # max backup: A is worth its best child (0.9), not the mean of its visits
    assert stats(trace) == {"R": (2, 0.9), "A": (2, 0.9), "A1": (1, 0.1), "A2": (1, 0.9), "B": (1, 0.3)}
    assert [s.node_id for s in trace.best] == ["A2", "B", "A1"]


def test_on_step_sees_each_step_as_it_ends_and_an_exception_from_it_stops_the_search():
    seen = []
    trace = search(tree(), "q", Fixed(REWARDS), prior=Fixed(PRIORS), iterations=10, rng=random.Random(0),
                   confident_leaves=0, on_step=seen.append)
    assert seen == list(trace.steps) and len(seen) == 2

    class Gone(Exception):
        pass

    def stop(step):
        raise Gone

    scorer = Fixed(REWARDS)
    with pytest.raises(Gone):
        search(tree(), "q", scorer, prior=Fixed(PRIORS), iterations=10, rng=random.Random(0), confident_leaves=0,
               on_step=stop)
    assert scorer.calls == [["A", "B"]]  # the first iteration's judgement, nothing after it


def test_one_node_per_iteration_without_batching_and_exhausted_subtrees_are_skipped():
    scorer = Fixed(REWARDS)
    trace = search(tree(), "q", scorer, prior=Fixed(PRIORS), iterations=10, rule="puct", c=1.0,
                   batch_siblings=False, rng=random.Random(0), confident_leaves=0)
    judged = [st.judged for st in trace.steps]
    assert sorted(j for (j,) in judged) == ["A", "A1", "A2", "B"] and len(judged) == 4
    assert judged[0] == ("A",)  # higher prior, same first-play value
    # once A's subtree is exhausted only B is left: no iteration revisits a finished node
    assert trace.stop_reason == "exhausted" and judged_nothing_share([trace]) == 0.0


def test_a_leaf_expands_into_its_pages_read_best_prior_first():
    leafy = Section("R", "Root", (1, 6), children=(Section("A", "Alpha", (1, 3)), Section("B", "Beta", (4, 6))))
    reader = Pages({1: 0.1, 2: 0.3, 3: 0.2, 4: 0.4, 5: 0.1, 6: 0.2}, priors={2: 0.9, 3: 0.6, 4: 0.7})
    trace = search(leafy, "q", Fixed({"A": 0.7, "B": 0.4}), reader=reader, iterations=3, rng=random.Random(0))
    assert [st.judged for st in trace.steps] == [("A", "B"), ("A/p2",), ("A/p3",)]
    assert reader.calls == [["A/p2"], ["A/p3"]]  # one page per iteration: each read is one deep read
    assert trace.steps[1].expanded == ("A/p1", "A/p2", "A/p3")
    nodes = {n.section.node_id: n for n in trace.root.walk()}
    assert nodes["A/p2"].section.pages == (2, 2) and nodes["A/p2"].section.summary == "text of page 2"
    assert nodes["A/p2"].prior == 0.9 and nodes["A/p2"].parent_id == "A"
    # A keeps its own 0.7 while page 1 is unread; the pages read are listed best first
    assert nodes["A"].q == pytest.approx(0.7) and pages_read(trace) == [(2, 0.3), (3, 0.2)]
    assert trace.stop_reason == ""  # the iteration budget ran out


def test_a_section_read_to_the_end_is_worth_its_best_page():
    leafy = Section("R", "Root", (1, 4), children=(Section("A", "Alpha", (1, 2)), Section("B", "Beta", (3, 4))))
    reader = Pages({1: 0.1, 2: 0.2, 3: 0.6, 4: 0.3}, priors={1: 0.9})
    trace = search(leafy, "q", Fixed({"A": 0.9, "B": 0.5}), reader=reader, iterations=20, rng=random.Random(0))
    nodes = {n.section.node_id: n for n in trace.root.walk()}
    # A promised 0.9 but its pages read 0.1 and 0.2: A drops to 0.2 and the search moves to B
    assert nodes["A"].q == pytest.approx(0.2) and nodes["B"].q == pytest.approx(0.6)
    assert [st.judged[0] for st in trace.steps[1:3]] == ["A/p1", "A/p2"]
    assert trace.stop_reason == "exhausted" and len(trace.steps) == 5 and judged_nothing_share([trace]) == 0.0


def test_evidence_already_read_does_not_pull_the_search_back_into_its_branch():
    """P's best evidence (P1: 0.9) is judged and exhausted; what is left under P (P2: 0.3) is
    worth less than S (0.65). The search selects by the evidence still open, so it turns to S
    before digging into P2; P keeps 0.9 as its value (the ranking's best evidence)."""
    p = Section("P", "P", (1, 3), children=(Section("P1", "P one", (1, 1)),
                                            Section("P2", "P two", (2, 3), children=(Section("Q1", "Q one", (2, 2)),
                                                                                      Section("Q2", "Q two", (3, 3))))))
    s = Section("S", "S", (4, 5), children=(Section("S1", "S one", (4, 4)), Section("S2", "S two", (5, 5))))
    root = Section("R", "Root", (1, 5), children=(p, s))
    scores = Fixed({"P": 0.7, "S": 0.65, "P1": 0.9, "P2": 0.3, "Q1": 0.2, "Q2": 0.1, "S1": 0.6, "S2": 0.5})
    trace = search(root, "q", scores, iterations=20, confident_leaves=0, rng=random.Random(0))
    assert [st.judged for st in trace.steps] == [("P", "S"), ("P1", "P2"), ("S1", "S2"), ("Q1", "Q2")]
    assert trace.stop_reason == "exhausted"
    nodes = {n.section.node_id: n for n in trace.root.walk()}
    assert nodes["P"].q == pytest.approx(0.9) and nodes["S"].q == pytest.approx(0.6)
    assert trace.best[0].node_id == "P1"


def test_a_branch_whose_best_page_was_read_yields_to_a_sibling_with_unread_promise():
    """Pages: A's best page reads 0.7 (below the stop threshold) and A's other section A2 promises
    0.3; B was judged 0.65 and is unread. The search reads B's page next, not A2's pages."""
    a = Section("A", "Alpha", (1, 3), children=(Section("A1", "A one", (1, 1)), Section("A2", "A two", (2, 3))))
    root = Section("R", "Root", (1, 4), children=(a, Section("B", "Beta", (4, 4))))
    reader = Pages({1: 0.7, 2: 0.2, 3: 0.1, 4: 0.9})
    trace = search(root, "q", Fixed({"A": 0.8, "B": 0.65, "A1": 0.75, "A2": 0.3}), reader=reader, iterations=20,
                   confidence_threshold=0.85, rng=random.Random(0))
    assert [st.judged for st in trace.steps] == [("A", "B"), ("A1", "A2"), ("A1/p1",), ("B/p4",)]
    assert trace.stop_reason == "confident" and pages_read(trace) == [(4, 0.9), (1, 0.7)]


def test_the_default_goes_down_the_best_judged_branch_then_the_runner_up():
    """With the engine's c, the judges' values lead, not the cheap prior: the search reads the
    best-judged section first (as greedy descent would), and its runner-up once those pages read low."""
    from alphasearch.config import Settings

    leafy = Section("R", "Root", (1, 3), children=(Section("A", "Alpha", (1, 2)), Section("B", "Beta", (3, 3))))
    reader = Pages({1: 0.1, 2: 0.2, 3: 0.9}, priors={1: 0.6, 2: 0.4})
    args = dict(prior=Fixed({"A": 0.1, "B": 0.9}), reader=reader, iterations=20, rng=random.Random(0))
    trace = search(leafy, "q", Fixed({"A": 0.8, "B": 0.7}), c=Settings().exploration, **args)
    assert [st.judged for st in trace.steps] == [("A", "B"), ("A/p1",), ("A/p2",), ("B/p3",)]
    assert trace.stop_reason == "confident" and pages_read(trace)[0] == (3, 0.9)
    # with c = 1.41 (the former default) the prior (B: 0.9) outweighs the judges' 0.8 against 0.7
    old = search(leafy, "q", Fixed({"A": 0.8, "B": 0.7}), c=1.41, **args)
    assert [st.judged for st in old.steps][:2] == [("A", "B"), ("B/p3",)]


def test_the_best_page_score_below_a_section_steers_the_search_not_its_value():
    """A judge's 0.6 against 0.5: B's page 3 is the page ranker's best (prior 1.0), A's best 0.2. The promise
    0.7·0.6 + 0.3·0.2 = 0.48 against 0.7·0.5 + 0.3·1.0 = 0.65 sends the search to B's page first; Q stays
    the judge's. A judge that already weighs the page scores (the offline HybridScorer), or page_weight 0, goes to A."""
    leafy = Section("R", "Root", (1, 4), children=(Section("A", "Alpha", (1, 2)), Section("B", "Beta", (3, 4))))
    reader = Pages({1: 0.1, 2: 0.1, 3: 0.9, 4: 0.1}, priors={1: 0.2, 2: 0.1, 3: 1.0, 4: 0.1})
    args = dict(reader=reader, iterations=20, rng=random.Random(0))
    trace = search(leafy, "q", Fixed({"A": 0.6, "B": 0.5}), **args)
    assert [st.judged for st in trace.steps] == [("A", "B"), ("B/p3",)] and trace.stop_reason == "confident"
    nodes = {n.section.node_id: n for n in trace.root.walk()}
    assert nodes["A"].q == pytest.approx(0.6) and nodes["B"].q == pytest.approx(0.9)

    class Weighing(Fixed):
        weighs_page_scores = True

    for judge, weight in ((Weighing({"A": 0.6, "B": 0.5}), 0.3), (Fixed({"A": 0.6, "B": 0.5}), 0.0)):
        plain = search(leafy, "q", judge, page_weight=weight, **args)
        assert [st.judged for st in plain.steps][:2] == [("A", "B"), ("A/p1",)]


def test_the_search_stops_once_a_page_read_is_confident():
    leafy = Section("R", "Root", (1, 4), children=(Section("A", "Alpha", (1, 2)), Section("B", "Beta", (3, 4))))
    reader = Pages({1: 0.2, 2: 0.9, 3: 0.9, 4: 0.9}, priors={1: 0.9, 2: 0.1})
    trace = search(leafy, "q", Fixed({"A": 0.8, "B": 0.1}), reader=reader, iterations=20,
                   confidence_threshold=0.85, rng=random.Random(0))
    assert [st.judged for st in trace.steps] == [("A", "B"), ("A/p1",), ("A/p2",)]
    assert trace.stop_reason == "confident" and trace.stopped_early
    # two confident pages asked for: it goes on to B's pages
    two = search(leafy, "q", Fixed({"A": 0.8, "B": 0.1}), reader=reader, iterations=20, confidence_threshold=0.85,
                 confident_leaves=2, rng=random.Random(0))
    assert two.stop_reason == "confident" and len(two.steps) == 4 and two.steps[-1].judged[0].startswith("B/p")
    # without pages, a confident leaf section stops it
    leaves = search(tree(), "q", Fixed(REWARDS), iterations=20, confidence_threshold=0.85, rng=random.Random(0))
    assert leaves.stop_reason == "confident" and leaves.steps[-1].judged == ("A1", "A2")


def test_puct_visits_a_child_the_prior_scores_zero():
    """The prior can be wrong: a child it scores 0 is still judged (first play, the uniform mix)."""
    root = Section("R", "R", (1, 3), children=tuple(Section(i, i, (n, n)) for n, i in enumerate("ABC", 1)))
    rewards, priors = {"A": 0.1, "B": 0.1, "C": 1.0}, {"A": 0.5, "B": 0.5, "C": 0.0}
    mixed = search(root, "q", Fixed(rewards), prior=Fixed(priors), iterations=25, rule="puct",
                   batch_siblings=False, confidence_threshold=2.0)
    assert mixed.prior_mix == PRIOR_MIX
    assert stats(mixed)["C"][0] >= 1 and mixed.best[0].node_id == "C"


def test_selection_values_directly():
    child = SearchNode(Section("x", "x", (1, 1)), prior=0.5, visits=2, total_reward=1.0, reward=0.5)
    assert selection_value(child, 8, 0.25, 2.0, "ucb1") == pytest.approx(0.5 + 2.0 * math.sqrt(math.log(8) / 2))
    assert selection_value(child, 9, 0.25, 2.0, "puct") == pytest.approx(0.5 + 2.0 * 0.25 * 3 / 3)
    child.value = 0.9  # max backup: the value replaces the mean
    assert selection_value(child, 9, 0.25, 2.0, "puct") == pytest.approx(0.9 + 2.0 * 0.25 * 3 / 3)
    fresh = SearchNode(Section("y", "y", (1, 1)), prior=0.7)
    assert selection_value(fresh, 4, 0.5, 1.0, "ucb1") == math.inf
    assert selection_value(fresh, 4, 0.5, 1.0, "puct", fpu=0.6) == pytest.approx(0.6 + 0.5 * 2 / 1)
    with pytest.raises(ValueError, match="ucb1, puct"):
        selection_value(child, 1, 1.0, 1.0, "greedy")


def test_ties_broken_by_prior_then_seeded_rng():
    parent = SearchNode(Section("p", "p", (1, 2)))
    parent.children = [SearchNode(Section(i, i, (1, 1)), prior=0.5) for i in ("a", "b", "c")]
    picks = {select_child(parent, 1.0, "ucb1", random.Random(s))[0].section.node_id for s in range(20)}
    assert picks == {"a", "b", "c"}  # a fair random tie-break …
    again = [select_child(parent, 1.0, "ucb1", random.Random(7))[0].section.node_id for _ in range(3)]
    assert len(set(again)) == 1  # … that a seed fixes
    parent.children[1].prior = 0.6
    assert select_child(parent, 1.0, "ucb1", random.Random(0))[0].section.node_id == "b"
    assert select_child(parent, 1.0, "ucb1", random.Random(0), skip={"b"})[0].section.node_id in {"a", "c"}


def test_seeded_search_is_reproducible_and_replayable():
    chapters = tuple(Section(f"S{i}", f"S{i}", (2 * i - 1, 2 * i)) for i in range(1, 7))
    root = Section("R", "Root", (1, 12), children=chapters)
    scorer = Fixed({f"S{i}": (i % 5) / 5 for i in range(1, 7)})
    reader = Pages({p: (p % 7) / 7 for p in range(1, 13)})
    a = search(root, "q", scorer, reader=reader, iterations=9, rule="ucb1", rng=random.Random(3))
    b = search(root, "q", scorer, reader=reader, iterations=9, rule="ucb1", rng=random.Random(3))
    assert a.to_dict() == b.to_dict()
    assert replay(a, len(a.steps)) == {n.section.node_id: (n.visits, pytest.approx(n.q)) for n in a.root.walk()}
    assert replay(a, 0) == {"R": (0, 0.0)}
    assert replay(a, 1)["R"] == (1, pytest.approx(max(a.steps[0].rewards)))
    # the trace survives a JSON round trip with its statistics and the judged ids
    back = SearchTrace.from_dict(a.to_dict())
    assert stats(back) == {k: (v, pytest.approx(w, abs=1e-6)) for k, (v, w) in stats(a).items()}
    assert [s.judged for s in back.steps] == [s.judged for s in a.steps] and back.backup == "max"
    assert all(st.judged for st in a.steps)


def test_rewards_clipped_and_single_node_tree_judges_the_root():
    trace = search(tree(), "q", Fixed({"A": 1.7, "B": -0.2, "A1": 0.5, "A2": 0.5}), iterations=10,
                   confidence_threshold=2.0)
    rewards = {n.section.node_id: n.reward for n in trace.root.walk() if n.reward is not None}
    assert rewards["A"] == 1.0 and rewards["B"] == 0.0
    scorer = Fixed({"R": 0.4})
    only = search(Section("R", "Only", (1, 1)), "q", scorer, iterations=3, rng=random.Random(0))
    assert [s.judged for s in only.steps] == [("R",)] and only.nodes_scored == 1 and only.stop_reason == "exhausted"


def test_unknown_rule_rejected():
    with pytest.raises(ValueError, match="ucb1, puct"):
        search(tree(), "q", Fixed(REWARDS), rule="random")


# --- the reference system's MCTS ------------------------------------------------------------------
def test_reference_mcts_rejudges_revisited_leaves_and_backs_up_the_mean():
    scorer = Fixed(REWARDS)
    trace = mcts_reference(tree(), "q", scorer, iterations=6, rng=random.Random(0))
    # first the root's children (random order), then UCB1 picks A (0.8), which has unvisited children
    assert sorted(c[0] for c in scorer.calls[:2]) == ["A", "B"] and scorer.calls[2][0] in ("A1", "A2")
    assert len(scorer.calls) == 6 == trace.nodes_scored  # one call per iteration, revisits included
    assert distinct_judged(trace) == len({c[0] for c in scorer.calls}) < 6  # … fewer distinct nodes
    root = trace.root
    assert root.visits == 6 and root.q == pytest.approx(sum(st.reward for st in trace.steps) / 6)
    assert trace.backup == "mean" and trace.rule == "reference"
    assert replay(trace, 6) == {n.section.node_id: (n.visits, pytest.approx(n.q)) for n in root.walk()}


def test_reference_mcts_stops_when_three_leaves_are_confident():
    flat = Section("R", "R", (1, 4), children=tuple(Section(f"L{i}", f"L{i}", (i, i)) for i in range(1, 5)))
    trace = mcts_reference(flat, "q", Fixed({f"L{i}": 0.9 for i in range(1, 5)}), iterations=25)
    assert trace.stop_reason == "confident" and len(trace.steps) < 25
    assert sum(1 for n in trace.root.children if n.visits >= 3 and n.q >= 0.7) >= 3


def test_idle_iterations_count_steps_that_judged_nothing_new():
    from alphasearch.search.mcts import idle_iterations
    from alphasearch.models import SearchStep

    steps = (SearchStep(1, ("R", "A"), 0.5, judged=("A", "B")), SearchStep(2, ("R", "A"), 0.5, judged=("A",)),
             SearchStep(3, ("R", "C"), 0.1, judged=("C",)), SearchStep(4, ("R",), 0.0))
    trace = SearchTrace(root=SearchNode(Section("R", "R", (1, 1))), steps=steps, best=())
    assert idle_iterations(trace) == 2 and judged_nothing_share([trace, trace]) == 0.5
