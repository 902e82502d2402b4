"""Monte Carlo Tree Search over a section tree. Pure: no I/O, randomness passed in.

One iteration: **select** from the root by UCB1 or PUCT down to a node whose
children are not yet expanded; **expand** it (children get priors from the
cheap prior scorer); pick one new child; **simulate** it with the scorer
(reward in [0, 1], cached per node: a node is scored at most once);
**backpropagate** the reward to every node on the path.

Selection values (N = parent visits, n = child visits, P = normalised prior):
- UCB1: Q + c·sqrt(ln N / n); an unvisited child is +inf (ties: higher prior, then rng).
- PUCT: Q + c·P·sqrt(N) / (1 + n); an unvisited child's Q is its raw prior.
  P mixes the normalised prior with a uniform share (``PRIOR_MIX``), as
  AlphaZero mixes noise into its root prior: a child the cheap prior scores 0
  would otherwise never be visited, however wrong the prior is about it.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol

from .models import SearchNode, SearchStep, SearchTrace, Section

RULES = ("ucb1", "puct")
PRIOR_MIX = 0.25  # share of PUCT's P spread evenly over the siblings


class Scorer(Protocol):
    def score(self, question: str, sections: Sequence[Section]) -> list[float]: ...


def selection_value(child: SearchNode, parent_visits: int, prior_share: float, c: float, rule: str) -> float:
    if rule == "ucb1":
        if child.visits == 0:
            return math.inf
        return child.q + c * math.sqrt(math.log(max(parent_visits, 1)) / child.visits)
    if rule == "puct":
        q = child.q if child.visits else child.prior
        return q + c * prior_share * math.sqrt(max(parent_visits, 1)) / (1 + child.visits)
    raise ValueError(f"Unknown selection rule {rule!r}; choose one of {', '.join(RULES)}.")


def prior_shares(node: SearchNode, mix: float = PRIOR_MIX) -> list[float]:
    """PUCT's P of each child: (1 − mix) · prior / Σ priors + mix / number of children."""
    k = len(node.children)
    total = sum(ch.prior for ch in node.children)
    if total <= 0:
        return [1.0 / k] * k
    return [(1.0 - mix) * ch.prior / total + mix / k for ch in node.children]


def select_child(node: SearchNode, c: float, rule: str, rng: random.Random,
                 prior_mix: float = PRIOR_MIX) -> tuple[SearchNode, float]:
    """The child with the highest selection value; ties by prior, then at random."""
    best: list[tuple[float, float, SearchNode]] = []
    for ch, share in zip(node.children, prior_shares(node, prior_mix)):
        value = selection_value(ch, node.visits, share, c, rule)
        best.append((value, ch.prior, ch))
    top_value = max(v for v, _, _ in best)
    tied = [b for b in best if b[0] == top_value]
    top_prior = max(p for _, p, _ in tied)
    tied = [b for b in tied if b[1] == top_prior]
    value, _, chosen = tied[0] if len(tied) == 1 else rng.choice(tied)
    return chosen, value


def search(
    root: Section,
    question: str,
    scorer: Scorer,
    *,
    prior: Scorer | None = None,
    iterations: int = 25,
    c: float = 1.41,
    rule: str = "puct",
    prior_mix: float = PRIOR_MIX,
    rng: random.Random | None = None,
    confidence_threshold: float = 0.75,
    confident_leaves: int = 3,
    min_visits: int = 3,
    top: int = 5,
    label: str = "",
) -> SearchTrace:
    """Run MCTS and return the full trace (statistics of every node + each step).

    Stops early when ``confident_leaves`` section leaves (or all leaves, if
    fewer) have at least ``min_visits`` visits and Q ≥ ``confidence_threshold``.
    """
    if rule not in RULES:
        raise ValueError(f"Unknown selection rule {rule!r}; choose one of {', '.join(RULES)}.")
    rng = rng or random.Random(0)
    tree = SearchNode(section=root, prior=1.0)
    steps: list[SearchStep] = []
    scored = 0
    n_leaves = sum(1 for _ in root.leaves())
    need = min(confident_leaves, n_leaves)
    stopped = False

    def simulate(node: SearchNode, siblings: list[SearchNode]) -> float:
        nonlocal scored
        if node.reward is None:
            batch = [node] + [s for s in siblings if s.reward is None and s is not node] \
                if getattr(scorer, "batch_siblings", False) else [node]
            rewards = scorer.score(question, [b.section for b in batch])
            for b, r in zip(batch, rewards):
                b.reward = min(1.0, max(0.0, float(r)))
            scored += len(batch)
        return node.reward  # type: ignore[return-value]

    for it in range(1, iterations + 1):
        node, path, ucbs, created = tree, [tree], [], []
        while True:
            if node.section.children and not node.expanded:
                created = _expand(node, question, prior)
            if not node.children:
                break
            child, value = select_child(node, c, rule, rng, prior_mix)
            path.append(child)
            ucbs.append(value)
            node = child
            if child.visits == 0:
                break
        if node is tree:  # a tree of one node: simulate the root itself
            siblings: list[SearchNode] = []
        else:
            siblings = path[-2].children
        reward = simulate(node, siblings)
        for n in path:
            n.visits += 1
            n.total_reward += reward
        steps.append(SearchStep(it, tuple(n.section.node_id for n in path), reward, tuple(ucbs),
                                tuple(ch.section.node_id for ch in created)))
        if need and _confident(tree, need, min_visits, confidence_threshold):
            stopped = True
            break

    best = tuple(n.section for n in ranked_frontier(tree)[:top])
    return SearchTrace(root=tree, steps=tuple(steps), best=best, rule=rule, c=c, nodes_scored=scored,
                       stopped_early=stopped, label=label, prior_mix=prior_mix)


def _expand(node: SearchNode, question: str, prior: Scorer | None) -> list[SearchNode]:
    sections = list(node.section.children)
    if prior is not None:
        priors = [min(1.0, max(0.0, float(p))) for p in prior.score(question, sections)]
    else:
        priors = [1.0 / len(sections)] * len(sections)
    node.children = [SearchNode(section=s, parent_id=node.section.node_id, prior=p) for s, p in zip(sections, priors)]
    node.expanded = True
    return node.children


def _confident(tree: SearchNode, need: int, min_visits: int, threshold: float) -> bool:
    good = 0
    for n in tree.walk():
        if n.section.is_leaf and n.visits >= min_visits and n.q >= threshold:
            good += 1
            if good >= need:
                return True
    return False


def ranked_frontier(tree: SearchNode) -> list[SearchNode]:
    """Visited nodes with nothing explored below them (section leaves, or nodes
    not expanded further), best first by Q, then visits, then reward."""
    frontier = [n for n in tree.walk() if n.visits and (not n.children or not any(ch.visits for ch in n.children))]
    return sorted(frontier, key=lambda n: (n.q, n.visits, n.reward or 0.0), reverse=True)


def replay(trace: SearchTrace, t: int) -> dict[str, tuple[int, float]]:
    """(visits, total_reward) of every node that exists after iteration ``t``
    (0 ≤ t ≤ len(steps)), recomputed from the steps alone."""
    stats: dict[str, tuple[int, float]] = {trace.root.section.node_id: (0, 0.0)}
    for step in trace.steps[:t]:
        for node_id in step.expanded:
            stats.setdefault(node_id, (0, 0.0))
        for node_id in step.path:
            v, w = stats.get(node_id, (0, 0.0))
            stats[node_id] = (v + 1, w + step.reward)
    return stats
