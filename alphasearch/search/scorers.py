"""Scorers judge how likely a section holds the answer: one float in [0, 1] each.

Offline scorers are bound to one :class:`DocumentIndex` (they index its pages
once) and cache per-question page scores, so scoring many sections of one
question costs one retrieval. Pick one by name with :func:`make_scorer`.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from ..index.ranker import PageRanker
from ..lang.embeddings import embed
from ..lang.questions import clean_question
from ..lang.text import terms
from ..models import DocumentIndex, Section


@runtime_checkable
class Scorer(Protocol):
    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        """One score in [0, 1] per section: how likely it holds the answer."""
        ...


# --- scorers ------------------------------------------------------------------------------
def _aggregate(page_scores: np.ndarray, section: Section) -> float:
    """A section holds the answer if its best page does; breadth adds a little."""
    vals = page_scores[section.pages[0] - 1: section.pages[1]]
    if vals.size == 0:
        return 0.0
    best = float(vals.max())
    top2 = float(np.sort(vals)[-2]) if vals.size > 1 else best
    return min(1.0, 0.85 * best + 0.15 * top2)


class LexicalScorer:
    """BM25 page evidence aggregated to the section (the offline simulation)."""

    def __init__(self, doc: DocumentIndex, ranker: PageRanker | None = None):
        self.doc = doc
        self.ranker = ranker or PageRanker(doc)

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        pages = self.ranker.scores(question)
        return [_aggregate(pages, s) for s in sections]


class EmbeddingScorer:
    """Cosine similarity of the question to the section's title and summary, mapped to [0, 1]."""

    def __init__(self, doc: DocumentIndex):
        self.doc = doc
        self._vecs: dict[str, np.ndarray] = {}

    def _section_vecs(self, sections: Sequence[Section]) -> np.ndarray:
        missing = [s for s in sections if s.node_id not in self._vecs]
        if missing:
            for s, v in zip(missing, embed([f"{s.title}. {s.summary}" for s in missing])):
                self._vecs[s.node_id] = v
        return np.stack([self._vecs[s.node_id] for s in sections])

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        if not sections:
            return []
        q = embed([clean_question(question)])[0]
        sims = self._section_vecs(sections) @ q
        return [float(min(1.0, max(0.0, (s - 0.05) / 0.6))) for s in sims]


class TitleScorer:
    """Cheap prior: how many question terms the section's title and summary share."""

    def __init__(self, doc: DocumentIndex):
        self.doc = doc

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        q = set(terms(clean_question(question)))
        if not q:
            return [0.0] * len(sections)
        out = []
        for s in sections:
            t = set(terms(s.title)) | set(terms(s.summary))
            out.append(len(q & t) / math.sqrt(len(q) * max(1, len(t))) if t else 0.0)
        top = max(out, default=0.0)
        return [min(1.0, v * 2.0) for v in out] if top else out


class HybridScorer:
    """The default offline simulation: page-level BM25 evidence, the section's own
    title/summary match, and static-embedding similarity, weighted and clipped to [0, 1].

    The title/summary weight is 0.3 (was 0.15): the page evidence is the page
    ranker's own, so a section's title is what the search knows that a flat
    ranking does not. On the development set (276 questions) the default search's
    hit@1 went 0.616 -> 0.623 (flat reading at equal pages read: 0.612), the same
    for weights 0.25-0.35, up on both halves of the documents by one question each.
    The embedding weight defaults to 0: on the development set it changed no
    hit@3 while loading wordllama cost ~0.5 s on a cold query. A weight of 0
    never loads the model.

    ``rewordings(question)``: the question reworded in the document's own words (the
    engine passes :func:`alphasearch.search.expansion.neighbour_queries`); a section also earns
    ``REWORDING_WEIGHT`` times the best page evidence of a rewording, so a section whose
    pages say "cars" is judged for a question about "vehicles". The page ranking itself
    does not merge them (that cost page hit@k on the dev set, see expansion.py); the
    section judge is where the search knows more than the ranker. On the development set
    (276 questions) the default search's hit@1 went 0.634 -> 0.641 (flat reading at equal
    pages read: 0.623), up on both halves of the documents (+0.014/+0.007 -> +0.021/+0.015
    over flat reading) and on six other splits, hit@3/hit@5 unchanged; the same for
    weights 0.25-0.75."""

    REWORDING_WEIGHT = 0.3
    weighs_page_scores = True  # its score holds the page ranker's evidence (the search mixes in no more of it)

    def __init__(self, doc: DocumentIndex, weights: tuple[float, float, float] = (0.7, 0.3, 0.0),
                 ranker: PageRanker | None = None, rewordings: Callable[[str], Sequence[str]] | None = None):
        self.doc = doc
        self.lexical = LexicalScorer(doc, ranker)
        self.titles = TitleScorer(doc)
        self.embedding = EmbeddingScorer(doc)
        self.weights = weights
        self.rewordings = rewordings
        self._reworded: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def _rewordings_of(self, question: str) -> tuple[str, ...]:
        if self.rewordings is None:
            return ()
        with self._lock:
            hit = self._reworded.get(question)
        if hit is None:
            hit = tuple(self.rewordings(question))
            with self._lock:
                if len(self._reworded) > 256:
                    self._reworded.clear()
                self._reworded[question] = hit
        return hit

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        lex = self.lexical.score(question, sections)
        tit = self.titles.score(question, sections)
        a, b, c = self.weights
        emb = self.embedding.score(question, sections) if c else [0.0] * len(sections)
        reworded = [self.lexical.score(q, sections) for q in self._rewordings_of(question)]
        more = [max(col) for col in zip(*reworded)] if reworded else [0.0] * len(sections)
        w = self.REWORDING_WEIGHT
        return [min(1.0, max(0.0, a * x + b * y + c * z + w * r)) for x, y, z, r in zip(lex, tit, emb, more)]


class PriorScorer:
    """The cheap prior for PUCT: title/summary terms mixed with the static-embedding similarity
    of the question to the section's title and summary (``embedding_weight``, ``EMBEDDING_WEIGHT``).

    The terms alone give 0 to every section that words the question differently ("guarantee"
    against "Warranty terms"); the embedding ranks those siblings by meaning, and PUCT's P only
    breaks near-ties between judged siblings (the engine's c is 0.2), so the prior decides which
    of two sections the search reads first when their judged values are about equal. On the
    development set (276 questions) the default search's hit@1/3/5 went 0.750/0.862/0.895 ->
    0.754/0.866/0.899 (flat reading at equal pages read unchanged, 0.721/0.855/0.902; hit@1 gap
    +0.029 -> +0.033, halves by document +0.035/+0.022 -> +0.042/+0.022, 30 other splits mean
    +0.029 -> +0.032, 10th percentile +0.017 -> +0.018), 3.18 -> 3.12 pages read a question;
    the same with weight 0.3. That is one question (two sections judged alike, their best pages
    tied; the embedding sends the search to the one holding the evidence): a small gain, no loss.
    (Those flat figures order flat's reads by the deep read alone; ranked as the search ranks its
    reads, flat reading reaches 0.732/0.870/0.902 and the hit@1 gap is +0.022.)
    The model is loaded anyway: the engine's rewordings (expansion.neighbour_queries) embed the
    document's vocabulary."""

    EMBEDDING_WEIGHT = 0.5

    def __init__(self, doc: DocumentIndex, embedding_weight: float | None = None):
        self.titles = TitleScorer(doc)
        self.embedding = EmbeddingScorer(doc)
        self.embedding_weight = self.EMBEDDING_WEIGHT if embedding_weight is None else embedding_weight

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        tit = self.titles.score(question, sections)
        w = self.embedding_weight
        if not w:
            return tit
        emb = self.embedding.score(question, sections)
        return [min(1.0, (1 - w) * x + w * y) for x, y in zip(tit, emb)]


SCORERS = {
    "hybrid": HybridScorer,
    "lexical": LexicalScorer,
    "embedding": EmbeddingScorer,
    "title": TitleScorer,
    "prior": PriorScorer,
}


def make_scorer(name: str, doc: DocumentIndex) -> Scorer:
    try:
        cls = SCORERS[name]
    except KeyError:
        raise ValueError(f"Unknown scorer {name!r}; choose one of {', '.join(SCORERS)}.") from None
    return cls(doc)


__all__ = ["Scorer", "LexicalScorer", "EmbeddingScorer", "TitleScorer", "HybridScorer", "PriorScorer", "SCORERS",
           "make_scorer"]
