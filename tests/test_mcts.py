"""MCTS on literal trees with a fake scorer: exact selection values, backpropagation,
expansion priors, early stop, replay and seeded determinism."""
from __future__ import annotations

import math
import random

import pytest

from alphasearch.mcts import PRIOR_MIX, replay, search, select_child, selection_value
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


REWARDS = {"A": 0.8, "B": 0.3, "A1": 0.1, "A2": 0.9}
PRIORS = {"A": 0.6, "B": 0.4, "A1": 0.2, "A2": 0.9}


def stats(trace: SearchTrace) -> dict[str, tuple[int, float]]:
    return {n.section.node_id: (n.visits, round(n.total_reward, 9)) for n in trace.root.walk()}


def test_ucb1_exact_trace():
    scorer = Fixed(REWARDS)
    trace = search(tree(), "q", scorer, prior=Fixed(PRIORS), iterations=4, c=1.41, rule="ucb1",
                   rng=random.Random(0))
    c = 1.41
    assert [s.path for s in trace.steps] == [("R", "A"), ("R", "B"), ("R", "A", "A2"), ("R", "A", "A1")]
    # unvisited children are +inf (ties broken by prior: A before B, A2 before A1)
    assert trace.steps[0].ucb == (math.inf,)
    assert trace.steps[1].ucb == (math.inf,)
    assert trace.steps[2].ucb == pytest.approx((0.8 + c * math.sqrt(math.log(2) / 1), math.inf))
    assert trace.steps[3].ucb == pytest.approx((0.85 + c * math.sqrt(math.log(3) / 2), math.inf))
    assert [s.reward for s in trace.steps] == [0.8, 0.3, 0.9, 0.1]
    assert [s.expanded for s in trace.steps] == [("A", "B"), (), ("A1", "A2"), ()]
    assert stats(trace) == {"R": (4, 2.1), "A": (3, 1.8), "A1": (1, 0.1), "A2": (1, 0.9), "B": (1, 0.3)}
    assert trace.nodes_scored == 4 and scorer.calls == [["A"], ["B"], ["A2"], ["A1"]]
    assert not trace.stopped_early
    nodes = {n.section.node_id: n for n in trace.root.walk()}
    assert nodes["A"].q == pytest.approx(0.6) and nodes["A2"].prior == 0.9 and nodes["B"].reward == 0.3
    assert [s.node_id for s in trace.best] == ["A2", "B", "A1"]


def test_puct_exact_trace():
    trace = search(tree(), "q", Fixed(REWARDS), prior=Fixed(PRIORS), iterations=3, c=1.0, rule="puct",
                   rng=random.Random(0))
    m = PRIOR_MIX              # P = (1 − m) · prior / Σ priors + m / siblings
    pa, pb = (1 - m) * 0.6 + m / 2, (1 - m) * 0.4 + m / 2              # among R's children
    p1, p2 = (1 - m) * 0.2 / 1.1 + m / 2, (1 - m) * 0.9 / 1.1 + m / 2  # among A's children
    assert [s.path for s in trace.steps] == [("R", "A"), ("R", "A", "A2"), ("R", "A", "A2")]
    # iteration 1: N = 0 counts as 1; unvisited Q is the raw prior
    assert trace.steps[0].ucb == pytest.approx((0.6 + pa * 1 / 1,))
    # iteration 2: A (Q 0.8, n 1) beats B (0.4 + 0.4); inside A, A2 beats A1
    assert trace.steps[1].ucb == pytest.approx((0.8 + pa * 1 / 2, 0.9 + p2 * 1 / 1))
    assert 0.8 + pa / 2 > 0.4 + pb and 0.9 + p2 > 0.2 + p1
    # iteration 3: N(R) = 2, N(A) = 2; A2 is revisited and its cached reward reused
    assert trace.steps[2].ucb == pytest.approx((0.85 + pa * math.sqrt(2) / 3, 0.9 + p2 * math.sqrt(2) / 2))
    assert stats(trace) == {"R": (3, 2.6), "A": (3, 2.6), "A1": (0, 0.0), "A2": (2, 1.8), "B": (0, 0.0)}
    assert trace.nodes_scored == 2  # A and A2, each once


def test_puct_visits_a_child_the_prior_scores_zero():
    """The prior can be wrong: a child it scores 0 still gets visited once its
    siblings disappoint — unless the uniform mix is switched off."""
    root = Section("R", "R", (1, 3), children=tuple(Section(i, i, (n, n)) for n, i in enumerate("ABC", 1)))
    rewards, priors = {"A": 0.1, "B": 0.1, "C": 1.0}, {"A": 0.5, "B": 0.5, "C": 0.0}
    mixed = search(root, "q", Fixed(rewards), prior=Fixed(priors), iterations=25, rule="puct",
                   confidence_threshold=2.0)
    assert mixed.prior_mix == PRIOR_MIX
    assert stats(mixed)["C"][0] >= 1 and mixed.best[0].node_id == "C"
    raw = search(root, "q", Fixed(rewards), prior=Fixed(priors), iterations=25, rule="puct", prior_mix=0.0,
                 confidence_threshold=2.0)
    assert stats(raw)["C"][0] == 0


def test_selection_values_directly():
    child = SearchNode(Section("x", "x", (1, 1)), prior=0.5, visits=2, total_reward=1.0)
    assert selection_value(child, 8, 0.25, 2.0, "ucb1") == pytest.approx(0.5 + 2.0 * math.sqrt(math.log(8) / 2))
    assert selection_value(child, 9, 0.25, 2.0, "puct") == pytest.approx(0.5 + 2.0 * 0.25 * 3 / 3)
    fresh = SearchNode(Section("y", "y", (1, 1)), prior=0.7)
    assert selection_value(fresh, 4, 0.5, 1.0, "ucb1") == math.inf
    assert selection_value(fresh, 4, 0.5, 1.0, "puct") == pytest.approx(0.7 + 0.5 * 2 / 1)
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


def test_seeded_search_is_reproducible_and_replayable():
    flat = Section("R", "Root", (1, 12), children=tuple(Section(f"S{i}", f"S{i}", (i, i)) for i in range(1, 13)))
    scorer = Fixed({f"S{i}": (i % 5) / 5 for i in range(1, 13)})
    a = search(flat, "q", scorer, iterations=20, rule="ucb1", rng=random.Random(3))
    b = search(flat, "q", scorer, iterations=20, rule="ucb1", rng=random.Random(3))
    assert a.to_dict() == b.to_dict()
    assert replay(a, 20) == {n.section.node_id: (n.visits, pytest.approx(n.total_reward)) for n in a.root.walk()}
    assert replay(a, 0) == {"R": (0, 0.0)}
    assert replay(a, 5)["R"] == (5, pytest.approx(sum(s.reward for s in a.steps[:5])))
    # the trace survives a JSON round trip with its statistics
    back = SearchTrace.from_dict(a.to_dict())
    assert stats(back) == {k: (v, pytest.approx(w, abs=1e-6)) for k, (v, w) in stats(a).items()}


def test_early_stop_when_leaves_are_confident():
    scorer = Fixed({"A": 0.95, "B": 0.95, "A1": 0.95, "A2": 0.95})
    trace = search(tree(), "q", scorer, iterations=50, rule="ucb1", rng=random.Random(0),
                   confidence_threshold=0.9, confident_leaves=2, min_visits=3)
    assert trace.stopped_early and len(trace.steps) < 50
    confident = [n for n in trace.root.walk() if n.section.is_leaf and n.visits >= 3 and n.q >= 0.9]
    assert len(confident) >= 2


def test_no_early_stop_below_threshold_and_rewards_clipped():
    scorer = Fixed({"A": 1.7, "B": -0.2, "A1": 0.5, "A2": 0.5})
    trace = search(tree(), "q", scorer, iterations=10, rule="puct", rng=random.Random(0))
    assert len(trace.steps) == 10 and not trace.stopped_early
    rewards = {n.section.node_id: n.reward for n in trace.root.walk() if n.reward is not None}
    assert rewards["A"] == 1.0 and rewards["B"] == 0.0


def test_single_node_tree_scores_the_root():
    scorer = Fixed({"R": 0.4})
    trace = search(Section("R", "Only", (1, 1)), "q", scorer, iterations=3, rng=random.Random(0))
    assert [s.path for s in trace.steps] == [("R",)] * 3
    assert trace.root.visits == 3 and trace.nodes_scored == 1


def test_unknown_rule_rejected():
    with pytest.raises(ValueError, match="ucb1, puct"):
        search(tree(), "q", Fixed(REWARDS), rule="random")
