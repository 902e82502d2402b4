"""Search baselines over the same section trees and scorers as MCTS.

Tree baselines (:func:`exhaustive`, :func:`greedy`, :func:`beam`) return a
:class:`SearchTrace` like :func:`alphasearch.search.mcts.search`, so the eval, the
visualizer and :func:`alphasearch.answer.ranking.rank_pages` treat them alike:

- every scored node is one :class:`SearchStep` whose ``path`` runs from the root
  to that node and whose ``reward`` is the node's score in [0, 1]; the reward is
  backpropagated along the path (``visits`` += 1, ``total_reward`` += reward), so
  :func:`alphasearch.search.mcts.replay` recomputes the node statistics from the steps;
- a scored node's own score is its ``reward``; ``nodes_scored`` counts scorer
  judgements (one per node, the unit of cost of an LLM judge);
- the root is never scored (it holds every page) unless it is the only node.

Flat baselines (:func:`flat_bm25_pages`, :func:`flat_embed_pages`) ignore the
tree and rank whole pages; they return 1-based page numbers, best first.
"""
from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence

import bm25s
import numpy as np

from ..lang.text import stemmer
from .memo import Recent
from ..models import DocumentIndex, SearchNode, SearchStep, SearchTrace, Section
from .mcts import Scorer, confirmed_first, ranked_frontier

__all__ = ["exhaustive", "greedy", "beam", "mcts_reference", "distinct_judged", "flat_bm25_pages", "flat_embed_pages",
           "TREE_BASELINES", "FLAT_BASELINES", "trace_page_order"]


class _Builder:
    """Grows a SearchNode tree as nodes are scored and records one step per node."""

    def __init__(self, root: Section, question: str, scorer: Scorer):
        self.question = question
        self.scorer = scorer
        self.tree = SearchNode(section=root, prior=1.0)
        self.steps: list[SearchStep] = []
        self.scored = 0
        self.parents: dict[str, SearchNode] = {}

    def path_to(self, node: SearchNode) -> list[SearchNode]:
        path = [node]
        while path[-1].parent_id is not None:
            path.append(self.parents[path[-1].section.node_id])
        return path[::-1]

    def expand(self, node: SearchNode) -> list[SearchNode]:
        """Create ``node``'s children and score them in one scorer call; one step per child."""
        if node.expanded:
            return node.children
        sections = list(node.section.children)
        node.children = [SearchNode(section=s, parent_id=node.section.node_id) for s in sections]
        node.expanded = True
        if not sections:
            return node.children
        for child in node.children:
            self.parents[child.section.node_id] = node
        rewards = self.scorer.score(self.question, sections)
        self.scored += len(sections)
        created = tuple(s.node_id for s in sections)
        for i, (child, r) in enumerate(zip(node.children, rewards)):
            child.reward = min(1.0, max(0.0, float(r)))
            self._record(child, created if i == 0 else ())
        return node.children

    def score_root(self) -> None:
        """A one-node tree: the root itself is the only thing to judge."""
        r = self.scorer.score(self.question, [self.tree.section])[0]
        self.scored += 1
        self.tree.reward = min(1.0, max(0.0, float(r)))
        self._record(self.tree, ())

    def _record(self, node: SearchNode, created: tuple[str, ...]) -> None:
        path = self.path_to(node)
        reward = float(node.reward or 0.0)
        for n in path:
            n.visits += 1
            n.total_reward += reward
        ucb = tuple(float(n.reward or 0.0) for n in path[1:])
        self.steps.append(SearchStep(len(self.steps) + 1, tuple(n.section.node_id for n in path), reward, ucb, created,
                                     (node.section.node_id,), (reward,)))

    def trace(self, rule: str, best: Sequence[SearchNode], top: int, label: str) -> SearchTrace:
        chosen = list(best)
        ids = {n.section.node_id for n in chosen}
        chosen += [n for n in ranked_frontier(self.tree) if n.section.node_id not in ids]
        return SearchTrace(root=self.tree, steps=tuple(self.steps), best=tuple(n.section for n in chosen[:top]),
                           rule=rule, c=0.0, nodes_scored=self.scored, label=label)


def _by_score(nodes: Sequence[SearchNode]) -> list[SearchNode]:
    """Best reward first; ties keep tree order (stable sort)."""
    return sorted(nodes, key=lambda n: -(n.reward or 0.0))


def exhaustive(root: Section, question: str, scorer: Scorer, *, top: int = 5, label: str = "") -> SearchTrace:
    """Score every node below the root (breadth-first, one scorer call per parent).

    ``best``: the ``top`` section leaves by score (ties in tree order)."""
    b = _Builder(root, question, scorer)
    if root.is_leaf:
        b.score_root()
        return b.trace("exhaustive", [b.tree], top, label)
    queue = [b.tree]
    while queue:
        node = queue.pop(0)
        queue.extend(ch for ch in b.expand(node) if ch.section.children)
    leaves = [n for n in b.tree.walk() if n.section.is_leaf]
    return b.trace("exhaustive", _by_score(leaves), top, label)


def greedy(root: Section, question: str, scorer: Scorer, *, top: int = 5, label: str = "") -> SearchTrace:
    """From the root, score the children and always go into the best one, until a leaf.

    ``best``: the leaf reached, then the other scored nodes by score."""
    return beam(root, question, scorer, width=1, top=top, label=label, _rule="greedy")


def beam(root: Section, question: str, scorer: Scorer, *, width: int = 3, top: int = 5, label: str = "",
         _rule: str = "beam") -> SearchTrace:
    """Level by level: score the children of every node in the beam, keep the best ``width``.

    A leaf in the beam stays in it (with its score) while deeper nodes compete
    for the other places; the search ends when the beam holds only leaves.
    ``best``: the final beam by score, then the other scored nodes by score."""
    if width < 1:
        raise ValueError("beam width must be at least 1.")
    b = _Builder(root, question, scorer)
    if root.is_leaf:
        b.score_root()
        return b.trace(_rule, [b.tree], top, label)
    current = [b.tree]
    while any(n.section.children for n in current):
        candidates: list[SearchNode] = []
        for node in current:
            candidates.extend(b.expand(node) if node.section.children else [node])
        current = _by_score(candidates)[:width]
    return b.trace(_rule, _by_score(current), top, label)


CONFIRMED = 0.75  # a page read scoring at least this is confirmed evidence (Settings.confidence_threshold)

TREE_BASELINES: dict[str, Callable[..., SearchTrace]] = {"exhaustive": exhaustive, "greedy": greedy, "beam": beam}


# --- flat page rankings ------------------------------------------------------------------
class _FlatIndex:
    """Whole-page BM25 (English stopwords, Snowball stemmer) and page embeddings of one document."""

    def __init__(self, doc: DocumentIndex):
        self.n = doc.page_count
        self.texts = [p.text for p in doc.pages]
        tokens = bm25s.tokenize(self.texts, stopwords="en", stemmer=stemmer(), show_progress=False)
        self.vocab = tokens.vocab
        self.bm25: bm25s.BM25 | None = None
        if self.vocab:
            self.bm25 = bm25s.BM25()
            self.bm25.index(tokens, show_progress=False)
        self._vecs: np.ndarray | None = None
        self._lock = threading.Lock()

    def bm25_scores(self, question: str) -> np.ndarray:
        if self.bm25 is None:
            return np.zeros(self.n, dtype=np.float32)
        q = bm25s.tokenize([question], stopwords="en", stemmer=stemmer(), return_ids=False,
                           show_progress=False)[0]
        q = [t for t in q if t in self.vocab]
        if not q:
            return np.zeros(self.n, dtype=np.float32)
        return np.asarray(self.bm25.get_scores(q), dtype=np.float32)

    def embed_scores(self, question: str) -> np.ndarray:
        from ..lang.embeddings import embed

        with self._lock:
            if self._vecs is None:
                self._vecs = embed(self.texts) if self.n else np.zeros((0, 1), dtype=np.float32)
            vecs = self._vecs
        if not self.n:
            return np.zeros(0, dtype=np.float32)
        return vecs @ embed([question])[0]


_flat_indexes: Recent[_FlatIndex] = Recent(16)


def _flat(doc: DocumentIndex) -> _FlatIndex:
    return _flat_indexes.get(doc.doc_id + doc.engine, lambda: _FlatIndex(doc))


def ranked(scores: np.ndarray, k: int | None = None) -> list[int]:
    """1-based pages by score (index 0 = page 1), best first, ties by page number; the first ``k``."""
    order = np.lexsort((np.arange(scores.size), -scores))
    pages = [int(i) + 1 for i in order]
    return pages if k is None else pages[:k]


def flat_bm25_pages(doc: DocumentIndex, question: str, *, k: int | None = None) -> list[int]:
    """Every page (or the first ``k``) ranked by BM25 over whole page text; 1-based, best first.

    The question is used as given; pages with equal scores keep page order."""
    return ranked(_flat(doc).bm25_scores(question), k)


def flat_embed_pages(doc: DocumentIndex, question: str, *, k: int | None = None) -> list[int]:
    """Every page (or the first ``k``) ranked by cosine similarity of wordllama
    embeddings of the whole page and the question; 1-based, best first."""
    return ranked(_flat(doc).embed_scores(question), k)


FLAT_BASELINES: dict[str, Callable[..., list[int]]] = {"flat_bm25": flat_bm25_pages, "flat_embed": flat_embed_pages}


def trace_page_order(trace: SearchTrace, page_count: int, page_scores: np.ndarray | None = None,
                     confirmed: float = CONFIRMED) -> list[int]:
    """Pages ranked by the search alone (no blending with page evidence), the same
    rule for every search: each page belongs to the deepest visited node that
    contains it (so pages under an unvisited child keep their parent's standing);
    pages follow their node's Q, then the narrower node (fewer pages: more
    specific evidence), then its visits; within one node (and among
    pages no visited node covers) ``page_scores`` (index 0 = page 1) decide,
    else page order. Pages the search read whose deep read scored ≥ ``confirmed``
    come first (:func:`alphasearch.search.mcts.confirmed_first`). Returns every page
    1..page_count once, 1-based, best first."""
    scores = np.zeros(page_count, dtype=np.float32) if page_scores is None else np.asarray(page_scores)
    visited = sorted((n for n in trace.root.walk() if n.visits),
                     key=lambda n: (-n.q, n.section.pages[1] - n.section.pages[0], -n.visits))
    position = {n.section.node_id: i for i, n in enumerate(visited)}
    rank = np.full(page_count, len(position), dtype=np.int64)
    stack = [trace.root]
    while stack:  # pre-order: a deeper visited node overwrites its ancestors
        node = stack.pop()
        if not node.visits:
            continue
        a, b = max(1, node.section.pages[0]), min(page_count, node.section.pages[1])
        if a <= b:
            rank[a - 1:b] = position[node.section.node_id]
        stack.extend(reversed(node.children))
    order = np.lexsort((np.arange(page_count), -scores, rank))
    return confirmed_first(trace, [int(i) + 1 for i in order], confirmed)


# --- the reference system's MCTS ---------------------------------------------------------------
REFERENCE_C = 1.414


def mcts_reference(root: Section, question: str, scorer: Scorer, *, iterations: int = 25,
                   rng: random.Random | None = None, threshold: float = 0.7, confident_leaves: int = 3,
                   min_visits: int = 3, top: int = 5, label: str = "") -> SearchTrace:
    """The MCTS of the system AlphaSearch grew from, as its public code does it.

    Select from the root, stopping at the first node that has an unvisited child,
    else descending by UCB1 = mean + 1.414·sqrt(ln N_parent / n) (ties: the first
    child); expand one random unvisited child and judge it with one scorer call —
    no cache: a revisited leaf is judged again (``nodes_scored`` counts every call;
    the steps' ``judged`` lists each call's node, so distinct nodes are countable);
    add the reward to the node and every ancestor (mean value); stop after
    ``iterations`` or once ``confident_leaves`` leaves have ≥ ``min_visits`` visits
    and mean ≥ ``threshold``. ``best``: visited nodes by mean·ln(visits + 1), those
    whose page ranges do not overlap an earlier one first."""
    rng = rng or random.Random(0)
    tree = SearchNode(section=root, prior=1.0)
    parents: dict[str, SearchNode] = {}
    steps: list[SearchStep] = []
    calls = 0
    stop = ""
    for it in range(1, iterations + 1):
        node, path, ucbs, created = tree, [tree], [], ()
        while True:
            if node.section.children and not node.expanded:
                node.children = [SearchNode(section=s, parent_id=node.section.node_id) for s in node.section.children]
                node.expanded = True
                created = tuple(s.node_id for s in node.section.children)
                for ch in node.children:
                    parents[ch.section.node_id] = node
            if not node.children:
                break
            fresh = [ch for ch in node.children if ch.visits == 0]
            if fresh:
                node = rng.choice(fresh)
                path.append(node)
                ucbs.append(math.inf)
                break
            values = [ch.q + REFERENCE_C * math.sqrt(math.log(node.visits) / ch.visits) for ch in node.children]
            i = max(range(len(values)), key=lambda k: (values[k], -k))
            node = node.children[i]
            path.append(node)
            ucbs.append(values[i])
        r = min(1.0, max(0.0, float(scorer.score(question, [node.section])[0])))
        calls += 1
        node.reward = r
        for n in path:
            n.visits += 1
            n.total_reward += r
        steps.append(SearchStep(it, tuple(n.section.node_id for n in path), r, tuple(ucbs), created,
                                (node.section.node_id,), (r,)))
        good = [n for n in tree.walk() if n.section.is_leaf and n.visits >= min_visits and n.q >= threshold]
        if len(good) >= confident_leaves:
            stop = "confident"
            break
    visited = sorted((n for n in tree.walk() if n.visits and n is not tree),
                     key=lambda n: -n.q * math.log(n.visits + 1))
    chosen: list[SearchNode] = []
    for n in visited:
        a, b = n.section.pages
        if all(b < c.section.pages[0] or a > c.section.pages[1] for c in chosen):
            chosen.append(n)
    chosen += [n for n in visited if n not in chosen]
    return SearchTrace(root=tree, steps=tuple(steps), best=tuple(n.section for n in chosen[:top]),
                       rule="reference", c=REFERENCE_C, nodes_scored=calls, stopped_early=bool(stop),
                       label=label, stop_reason=stop)


def distinct_judged(trace: SearchTrace) -> int:
    """How many distinct nodes a trace judged (the reference re-judges revisited leaves)."""
    return len({nid for st in trace.steps for nid in st.judged})


TREE_BASELINES["mcts_reference"] = mcts_reference
