"""Search baselines on small literal trees with a fake scorer: exact expectations."""
from __future__ import annotations

import numpy as np
import pytest

from alphasearch.search.baselines import (
    beam, exhaustive, flat_bm25_pages, flat_embed_pages, greedy, trace_page_order,
)
from alphasearch.search.mcts import replay
from alphasearch.models import DocumentIndex, Page, SearchTrace, Section


def S(node_id: str, a: int, b: int, *children: Section) -> Section:
    return Section(node_id, node_id.upper(), (a, b), children=tuple(children))


#            root (1-12)
#     A (1-4)         B (5-8)          C (9-12)
#   A1 (1-2) A2 (3-4)  B1 (5-6) B2 (7-8)   (C is a leaf)
TREE = S("root", 1, 12,
         S("a", 1, 4, S("a1", 1, 2), S("a2", 3, 4)),
         S("b", 5, 8, S("b1", 5, 6), S("b2", 7, 8)),
         S("c", 9, 12))
SCORES = {"a": 0.6, "b": 0.5, "c": 0.55, "a1": 0.2, "a2": 0.3, "b1": 0.9, "b2": 0.1}


class FakeScorer:
    """Scores from a dict; records every call."""

    def __init__(self, scores: dict[str, float]):
        self.scores = scores
        self.calls: list[list[str]] = []

    def score(self, question, sections):
        self.calls.append([s.node_id for s in sections])
        return [self.scores[s.node_id] for s in sections]


def ids(sections) -> list[str]:
    return [s.node_id for s in sections]


def stats(trace: SearchTrace) -> dict[str, tuple[int, float]]:
    return {n.section.node_id: (n.visits, round(n.total_reward, 6)) for n in trace.root.walk()}


def test_exhaustive_scores_every_node_below_the_root_once():
    scorer = FakeScorer(SCORES)
    trace = exhaustive(TREE, "q", scorer, top=3)
    assert trace.nodes_scored == 7
    assert scorer.calls == [["a", "b", "c"], ["a1", "a2"], ["b1", "b2"]]
    assert ids(trace.best) == ["b1", "c", "a2"]
    assert trace.rule == "exhaustive"
    assert [s.path for s in trace.steps][:4] == [("root", "a"), ("root", "b"), ("root", "c"), ("root", "a", "a1")]
    root = trace.root
    assert root.visits == 7 and root.total_reward == pytest.approx(sum(SCORES.values()))
    assert {n.section.node_id: n.reward for n in root.walk() if n.reward is not None} == SCORES


def test_greedy_follows_the_best_child_to_a_leaf():
    scorer = FakeScorer(SCORES)
    trace = greedy(TREE, "q", scorer, top=4)
    # a (0.6) beats c (0.55) and b (0.5); then a2 (0.3) beats a1 — the b1 (0.9) leaf is never seen
    assert scorer.calls == [["a", "b", "c"], ["a1", "a2"]]
    assert trace.nodes_scored == 5
    assert ids(trace.best) == ["a2", "c", "b", "a1"]
    assert trace.rule == "greedy"
    assert stats(trace)["a"] == (3, round(0.6 + 0.2 + 0.3, 6))
    assert stats(trace)["b"] == (1, 0.5)


def test_beam_keeps_the_best_width_per_level():
    scorer = FakeScorer(SCORES)
    trace = beam(TREE, "q", scorer, width=2, top=3)
    # level 1 keeps a (0.6) and c (0.55, a leaf); level 2: c 0.55 stays, a2 0.3 — b never opened
    assert scorer.calls == [["a", "b", "c"], ["a1", "a2"]]
    assert ids(trace.best) == ["c", "a2", "b"]
    trace3 = beam(TREE, "q", FakeScorer(SCORES), width=3, top=2)
    assert trace3.nodes_scored == 7
    assert ids(trace3.best) == ["b1", "c"]


def test_beam_width_one_is_greedy_and_width_zero_is_refused():
    assert ids(beam(TREE, "q", FakeScorer(SCORES), width=1).best) == ids(greedy(TREE, "q", FakeScorer(SCORES)).best)
    with pytest.raises(ValueError):
        beam(TREE, "q", FakeScorer(SCORES), width=0)


@pytest.mark.parametrize("method", [exhaustive, greedy, beam])
def test_node_statistics_replay_from_the_steps(method):
    trace = method(TREE, "q", FakeScorer(SCORES))
    final = replay(trace, len(trace.steps))
    assert {k: (v, round(q * v, 6)) for k, (v, q) in final.items()} == stats(trace)  # mean backup: Q·N = W
    assert all(st.judged == (st.path[-1],) for st in trace.steps)  # one node judged per step
    # the trace survives a JSON round trip
    again = SearchTrace.from_dict(trace.to_dict())
    assert ids(again.best) == ids(trace.best) and again.nodes_scored == trace.nodes_scored


@pytest.mark.parametrize("method", [exhaustive, greedy, beam])
def test_a_one_node_tree_scores_the_root(method):
    root = Section("root", "Only", (1, 3))
    trace = method(root, "q", FakeScorer({"root": 0.4}))
    assert trace.nodes_scored == 1 and ids(trace.best) == ["root"]
    assert trace.root.visits == 1 and trace.root.q == pytest.approx(0.4)


def test_scores_are_clipped_to_unit_interval():
    trace = exhaustive(TREE, "q", FakeScorer({**SCORES, "b1": 3.0, "a1": -1.0}))
    rewards = {n.section.node_id: n.reward for n in trace.root.walk()}
    assert rewards["b1"] == 1.0 and rewards["a1"] == 0.0


def test_trace_page_order_follows_q_then_page_scores():
    trace = greedy(TREE, "q", FakeScorer(SCORES))  # pages owned by c 0.55, b 0.5, a2 0.3, a1 0.2
    scores = np.zeros(12)
    scores[3] = 1.0  # page 4 beats page 3 inside a2
    scores[10] = 0.5  # page 11 first inside c
    assert trace_page_order(trace, 12, scores) == [11, 9, 10, 12, 5, 6, 7, 8, 4, 3, 1, 2]
    assert trace_page_order(trace, 12)[:5] == [9, 10, 11, 12, 5]


def test_trace_page_order_keeps_a_partly_searched_section_by_its_own_q():
    from alphasearch.search.mcts import search

    # one node judged per iteration (no sibling batch): a (0.6), b (0.5), c (0.55), then a → a1 (0.2).
    # a2 is not judged yet, so a keeps its own 0.6 (max backup) and its pages lead; a1's pages come last
    trace = search(TREE, "q", FakeScorer(SCORES), prior=FakeScorer({**SCORES, "a1": 0.9, "a2": 0.1}), iterations=4,
                   rule="puct", batch_siblings=False, confident_leaves=0)
    assert [st.judged for st in trace.steps] == [("a",), ("c",), ("b",), ("a1",)]
    assert trace_page_order(trace, 12) == [3, 4, 9, 10, 11, 12, 5, 6, 7, 8, 1, 2]


def test_trace_page_order_prefers_the_narrower_section_at_equal_q():
    from alphasearch.search.mcts import search

    # every node scores 1: root, a and a1 all have Q 1; a1's pages come first, then a's, then the rest
    ones = {k: 1.0 for k in SCORES}
    prior = FakeScorer({**{k: 0.1 for k in SCORES}, "a": 0.9, "a1": 0.9})
    trace = search(TREE, "q", FakeScorer(ones), prior=prior, iterations=2, rule="puct", batch_siblings=False,
                   confident_leaves=0)
    assert [s.path for s in trace.steps] == [("root", "a"), ("root", "a", "a1")]
    assert trace_page_order(trace, 12) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert trace_page_order(trace, 12, np.arange(12.0))[:4] == [2, 1, 4, 3]  # a1, then a's page 3-4


def test_trace_page_order_puts_confirmed_pages_first():
    from alphasearch.search.mcts import page_node, search

    class Reader:  # page 10 of leaf c reads 0.8 (≥ the 0.75 confirmation), the others 0.1
        def pages_of(self, question, section):
            return [page_node(section, p) for p in section.page_numbers]

        def prior(self, question, pages):
            return [1.0 if p.pages[0] == 10 else 0.5 for p in pages]

        def score(self, question, pages):
            return [0.8 if p.pages[0] == 10 else 0.1 for p in pages]

    trace = search(TREE, "q", FakeScorer({**SCORES, "c": 0.95}), reader=Reader(), iterations=10)
    assert [sorted(st.judged) for st in trace.steps] == [["a", "b", "c"], ["c/p10"]]  # siblings in one batch
    assert trace.stop_reason == "confident"
    # c keeps its own 0.95 for its unread pages, but the page read and confirmed comes first
    assert trace_page_order(trace, 12) == [10, 9, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8]


def _doc(texts: list[str]) -> DocumentIndex:
    n = len(texts)
    return DocumentIndex(doc_id=f"{abs(hash(tuple(texts))):064d}", name="t.pdf", page_count=n,
                         root=Section("root", "t", (1, n)), pages=tuple(Page(i + 1, t) for i, t in enumerate(texts)))


def test_flat_bm25_ranks_whole_pages():
    doc = _doc([
        "The weather was mild and the harvest was good.",
        "Revenue grew to 5 million dollars; revenue from services doubled.",
        "",
        "The board approved a dividend. Revenue was discussed briefly.",
    ])
    assert flat_bm25_pages(doc, "How much revenue from services?") == [2, 4, 1, 3]
    assert flat_bm25_pages(doc, "revenues", k=2) == [2, 4]  # stemmed: revenues → revenu
    assert flat_bm25_pages(doc, "zebra unicorn") == [1, 2, 3, 4]  # no match: page order


def test_flat_embed_ranks_the_matching_page_first():
    doc = _doc([
        "Quarterly revenue, operating income and net earnings per share of the company.",
        "Cats and dogs are popular pets; kittens and puppies need care.",
        "Installation guide: connect the cable, press the power button.",
    ])
    assert flat_embed_pages(doc, "Which pets do people keep, like cats or dogs?")[0] == 2
    assert flat_embed_pages(doc, "How do I connect the power cable?")[0] == 3
    assert sorted(flat_embed_pages(doc, "anything")) == [1, 2, 3]
