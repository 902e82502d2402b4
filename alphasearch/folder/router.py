"""Phase 0 (which folder?) and the document scorer of Phase 1 (which documents?).

Offline, a document is judged for a question by three signals, each in [0, 1]:

- ``coverage``: the idf-weighted share of the question's terms that occur anywhere
  in the document (idf over the documents being compared, so a term every
  document has says little and a company name says a lot);
- ``lexical``: BM25 of the question against the document's routing profile
  (name, summary, section titles, headings), divided by the best document's;
- ``embedding``: static-embedding (wordllama) cosine similarity of the question
  to the document's name and summary, mapped to [0, 1].

In Phase 1, where the documents' page texts are at hand, a fourth signal joins them:

- ``passage``: the best BM25 score of any of the document's pages, with one BM25 index
  over every page of the documents being compared (so scores are comparable across
  documents), divided by the best document's — the evidence that one page answers,
  which a summary or a vocabulary cannot show.

When the question names an organisation, a period or a kind of document that some of the
documents have (:mod:`alphasearch.index.facts`), a fifth signal leads:

- ``facts``: the weighted share of the named facts the document has (FY2018 ≠ FY2020;
  "quarterly" → a 10-Q); a document's score is then ``facts_weight`` (0.7) of it and the
  rest from its content, so a document with every named fact comes before one that lacks
  one, and content orders documents whose facts fit equally.

In Phase 0 the ``passage`` signal is read from every folder's page index at once
(:class:`alphasearch.index.pageindex.PooledPassages`: one idf over all their pages), when the
caller has them, so a folder's documents compete on their best page as in Phase 1 —
a question's few content words ("the car on the cover", "InMails") are found where
they are, whatever the folder's summary says. A folder's score is its best document's
score, plus a little for its runners-up and for a word the question shares with the
folder's name (in proportion to the word's idf over the documents: "report", in nearly
every document, says little). Pure apart from the embedding model and the passage
index's save/load: no network.
"""
from __future__ import annotations

import math
import re
import sys
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import bm25s
import numpy as np

from ..lang import domain
from ..index import facts as doc_facts
from ..index import periods
from ..errors import NotFoundError, StoreError
from ..models import Section
from ..index.pageindex import PassageIndex, PooledPassages
from ..lang.questions import clean_question
from ..lang.embeddings import embed
from ..lang.text import terms

WEIGHTS = (0.5, 0.3, 0.2)  # coverage, lexical, embedding
PRIOR_WEIGHTS = (0.0, 0.6, 0.4)  # the cheap prior for MCTS: profile and summary only
PASSAGE_WEIGHT = 0.5  # share of a document's score from its best page, when page texts are given
FACTS_WEIGHT = 0.7  # share of a document's score from the facts a question names, when it names some
PICTURE_WEIGHT = 0.3  # Phase 0: share of a document's score from its pictures, for a question about what pages show
NAME_BONUS = 0.1  # Phase 0: most a folder's score gains from a word of its name in the question


class EmptyLibraryError(StoreError):
    """There is no folder, or no document in any folder, to route to."""


class EmptyFolderError(StoreError):
    """The chosen folder holds no document."""


@dataclass(frozen=True)
class DocProfile:
    """What routing knows about one document (``key`` = its content hash)."""

    key: str
    name: str
    folder_id: str
    summary: str = ""
    profile: str = ""
    vocab: frozenset[str] = frozenset()
    facts: doc_facts.DocFacts | None = None


@dataclass(frozen=True)
class FolderProfile:
    folder_id: str
    name: str
    documents: tuple[DocProfile, ...]


@dataclass(frozen=True)
class Routing:
    """Phase 0's decision. ``confidence`` in [0, 1]; ``scores``: folder name → score in [0, 1]."""

    folder_id: str
    folder: str
    confidence: float
    scores: dict[str, float]
    followup: bool = False
    reason: str = ""
    method: str = "offline"

    def to_dict(self) -> dict[str, Any]:
        return {"folder_id": self.folder_id, "folder": self.folder, "confidence": round(self.confidence, 4),
                "scores": {k: round(v, 4) for k, v in self.scores.items()}, "followup": self.followup,
                "reason": self.reason, "method": self.method}


class Turn(Protocol):  # store.ChatTurn fits
    role: str
    text: str
    folder_id: str


class Router(Protocol):
    """Picks the folder for a question; an LLM router implements the same method."""

    def route(self, question: str, folders: Sequence[FolderProfile], history: Sequence[Turn] = (),
              passages: Mapping[str, PassageIndex] | None = None) -> Routing: ...


# --- document signals ---------------------------------------------------------------------
class DocumentSignals:
    """Precomputed signals for a fixed set of documents (immutable after build;
    safe to share between threads)."""

    def __init__(self, docs: Sequence[DocProfile], passages: PassageIndex | PooledPassages | None = None,
                 facts_weight: float = FACTS_WEIGHT):
        """``passages``: one page index over the documents (enables the ``passage`` signal);
        ``facts_weight``: share of the score from the facts the question names (0: unused)."""
        self.docs = list(docs)
        self.facts_weight = facts_weight
        n = len(self.docs)
        self.passages = passages
        self.postings: dict[str, list[int]] = {}  # term -> the documents (positions) whose vocabulary has it
        for i, d in enumerate(self.docs):
            for t in d.vocab:
                self.postings.setdefault(t, []).append(i)
        self.df: Counter[str] = Counter({t: len(ds) for t, ds in self.postings.items()})
        profile_tokens = _tokens_cached([(d.key, f"{d.name} {d.profile or d.summary}") for d in self.docs])
        self.bm25 = None
        if n and any(t != [""] for t in profile_tokens):
            self.bm25 = bm25s.BM25()
            self.bm25.index(profile_tokens, show_progress=False)
        self.vectors = _embed_cached([(d.key, f"{_stem(d.name)}. {d.summary}") for d in self.docs]) if n else None
        self._cache: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._facts_cache: dict[str, doc_facts.FactMatch] = {}
        self._lock = threading.Lock()

    def signals(self, question: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(coverage, lexical, embedding) per document, each in [0, 1]."""
        with self._lock:
            hit = self._cache.get(question)
        if hit is not None:
            return hit
        n = len(self.docs)
        q = list(dict.fromkeys(terms(clean_question(question))))
        cov = np.zeros(n, dtype=np.float32)
        lex = np.zeros(n, dtype=np.float32)
        emb = np.zeros(n, dtype=np.float32)
        if n and q:
            idf = {t: math.log(1 + n / (self.df.get(t, 0) + 0.5)) for t in q}
            known = [t for t in q if self.df.get(t, 0)]  # terms no document has cannot tell documents apart
            total = sum(idf[t] for t in known)
            if total > 0:  # through the postings of the question's terms: no pass over every document
                for t in known:
                    cov[self.postings[t]] += idf[t]
                cov /= total
            if self.bm25 is not None:
                raw = np.asarray(self.bm25.get_scores(q), dtype=np.float32)
                top = float(raw.max()) if raw.size else 0.0
                if top > 0:
                    lex = raw / top
        if n and self.vectors is not None:
            qv = embed([clean_question(question) or question])[0]
            emb = np.clip((self.vectors @ qv - 0.05) / 0.6, 0.0, 1.0).astype(np.float32)
        out = (cov, lex, emb)
        with self._lock:
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[question] = out
        return out

    def passage(self, question: str) -> np.ndarray:
        """Best page BM25 per document, divided by the best document's (zeros without pages)."""
        if self.passages is None:
            return np.zeros(len(self.docs), dtype=np.float32)
        return self.passages.best(question)

    def facts(self, question: str) -> doc_facts.FactMatch:
        """Which of the facts the question names each document has, its period read as a company's filings name
        theirs (:func:`alphasearch.index.periods.match`; remembered per question like the other signals: Phase 1
        asks several times)."""
        with self._lock:
            hit = self._facts_cache.get(question)
        if hit is None:
            hit = periods.match(question, [d.facts for d in self.docs])
            with self._lock:
                if len(self._facts_cache) > 256:
                    self._facts_cache.clear()
                self._facts_cache[question] = hit
        return hit

    def content(self, question: str, weights: tuple[float, float, float] = WEIGHTS,
                passage: float = PASSAGE_WEIGHT) -> np.ndarray:
        """The content score per document in [0, 1] (profile signals, then the best page)."""
        cov, lex, emb = self.signals(question)
        a, b, c = weights
        out = a * cov + b * lex + c * emb
        if passage and self.passages is not None and self.passages.has_pages:
            out = (1.0 - passage) * out + passage * self.passage(question)
        return np.clip(out, 0.0, 1.0)

    def scores(self, question: str, weights: tuple[float, float, float] = WEIGHTS,
               passage: float = PASSAGE_WEIGHT, *, routing: bool = False) -> np.ndarray:
        """Per document in [0, 1]: the content score, led by the facts when the question names some.
        ``routing`` (Phase 0): only when it names an organisation or a kind — a year or quarter alone
        is shared by too many documents to say which folder is meant; and a question about what
        pages show (an image, a colour, the cover) takes ``PICTURE_WEIGHT`` of its score from how
        much the document's pages carry pictures (:func:`alphasearch.index.facts.picture_fit`): a question
        without content words to match ("how many cars appear on page 3?") then goes where the
        pictures are rather than where its few words happen to occur."""
        out = self.content(question, weights, passage)
        if self.facts_weight > 0:
            fm = self.facts(question)
            if fm.any and (not routing or {"org", "kind"} & set(fm.named)):
                out = (1.0 - self.facts_weight) * out + self.facts_weight * np.asarray(fm.scores, dtype=np.float32)
            pictures = doc_facts.picture_fit(question, [d.facts for d in self.docs]) if routing else None
            if pictures is not None:
                out = (1.0 - PICTURE_WEIGHT) * out + PICTURE_WEIGHT * np.asarray(pictures, dtype=np.float32)
        return np.clip(out, 0.0, 1.0)


_emb_cache: dict[tuple[str, str], np.ndarray] = {}
_emb_lock = threading.Lock()


def _embed_cached(items: Sequence[tuple[str, str]]) -> np.ndarray:
    """Embeddings of (key, text) pairs, cached by key and text for the process."""
    with _emb_lock:
        missing = [(k, t) for k, t in items if (k, t) not in _emb_cache]
    if missing:
        vecs = embed([t for _, t in missing])
        with _emb_lock:
            for (k, t), v in zip(missing, vecs):
                _emb_cache[(k, t)] = v
    with _emb_lock:
        return np.stack([_emb_cache[(k, t)] for k, t in items])


_tok_cache: dict[tuple[str, str], list[str]] = {}


def _tokens_cached(items: Sequence[tuple[str, str]]) -> list[list[str]]:
    """Search terms of (key, text) pairs (``[""]`` for none), cached like the embeddings: the
    router and every folder's Phase 1 tokenise the same profiles once per process."""
    with _emb_lock:
        missing = [(k, t) for k, t in items if (k, t) not in _tok_cache]
    if missing:
        found = {(k, t): terms(t) or [""] for k, t in missing}
        with _emb_lock:
            _tok_cache.update(found)
    with _emb_lock:
        return [_tok_cache[(k, t)] for k, t in items]


def forget_embeddings(keep: set[str]) -> int:
    """Drop cached summary embeddings and profile terms of documents not in ``keep`` (content hashes),
    e.g. after a delete; returns how many were dropped."""
    with _emb_lock:
        gone = [k for k in _emb_cache if k[0] not in keep]
        for k in gone:
            del _emb_cache[k]
        for k in [k for k in _tok_cache if k[0] not in keep]:
            del _tok_cache[k]
    return len(gone)


def _stem(name: str) -> str:
    base = re.sub(r"\.pdf$", "", name, flags=re.IGNORECASE)
    return re.sub(r"[_\-]+", " ", base)


# --- Phase 1 scorer (documents as sections) ------------------------------------------------
class DocumentScorer:
    """MCTS scorer over a synthetic root whose children are documents
    (``node_id`` = the document's content hash). Reward in [0, 1]."""

    batch_siblings = True  # scoring every document at once costs the same as one

    def __init__(self, signals: DocumentSignals, weights: tuple[float, float, float] = WEIGHTS,
                 passage: float = PASSAGE_WEIGHT):
        self.signals = signals
        self.weights = weights
        self.passage = passage
        self.position = {d.key: i for i, d in enumerate(signals.docs)}

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        s = self.signals.scores(question, self.weights, self.passage)
        return [float(s[self.position[x.node_id]]) if x.node_id in self.position else 0.0 for x in sections]


def document_tree(docs: Sequence[DocProfile], pages: Sequence[int], label: str = "documents") -> Section:
    """The folder's document tree: a root whose children are its documents
    (pages = the whole document, 1-based inclusive; summary = its summary)."""
    children = tuple(Section(node_id=d.key, title=d.name, pages=(1, max(1, p)), summary=d.summary, level=1,
                             source="document") for d, p in zip(docs, pages))
    return Section(node_id="documents", title=label, pages=(1, max([max(1, p) for p in pages], default=1)),
                   summary="", children=children, level=0, source="root")


# --- Phase 0 -----------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _followup() -> re.Pattern[str]:
    words = domain.load("questions")
    return re.compile(rf"^\s*(?:{domain.alternation(words['followup_openers'])})\b|"
                      rf"\b(?:{domain.alternation(words['followup_refs'])})\b", re.IGNORECASE)


def looks_like_followup(question: str) -> bool:
    """Short questions that lean on the conversation ("and the year before?")."""
    q = question.strip()
    content = terms(clean_question(q))
    return len(content) <= 2 or (len(q.split()) <= 10 and bool(_followup().search(q)))


class OfflineRouter:
    """Routes by the best-matching documents of each folder (see module doc).

    A follow-up stays in the folder of the conversation's last answer unless the
    new question alone points at another folder with confidence ≥ ``switch_confidence``
    and a score margin ≥ ``switch_margin`` (stricter for questions that look like follow-ups).
    """

    method = "offline"

    def __init__(self, *, temperature: float = 0.08, switch_confidence: float = 0.8, switch_margin: float = 0.2,
                 facts_weight: float = FACTS_WEIGHT):
        self.temperature = temperature
        self.facts_weight = facts_weight
        self.switch_confidence = switch_confidence
        self.switch_margin = switch_margin
        self._signals: tuple[tuple, DocumentSignals] | None = None
        self._lock = threading.Lock()

    def signals(self, folders: Sequence[FolderProfile],
                passages: Mapping[str, PassageIndex] | None = None) -> DocumentSignals:
        """Signals over every document of ``folders`` (cached until the set changes); ``passages``:
        folder_id → the page index over that folder's documents (in order), for the passage signal."""
        docs = [d for f in folders for d in f.documents]
        parts = [((passages or {}).get(f.folder_id), len(f.documents)) for f in folders]
        key = (tuple((d.key, d.name, d.folder_id, len(d.vocab), d.facts) for d in docs),
               tuple(id(p) for p, _ in parts))
        with self._lock:
            if self._signals is not None and self._signals[0] == key:
                return self._signals[1]
        pooled = PooledPassages(parts) if any(p is not None for p, _ in parts) else None
        built = DocumentSignals(docs, pooled, facts_weight=self.facts_weight)
        with self._lock:
            self._signals = (key, built)
        return built

    def folder_scores(self, question: str, folders: Sequence[FolderProfile],
                      passages: Mapping[str, PassageIndex] | None = None) -> dict[str, float]:
        """folder_id → score in [0, 1]."""
        sig = self.signals(folders, passages)
        doc_scores = sig.scores(question, routing=True)
        q = set(terms(question))
        n = len(sig.docs)
        out: dict[str, float] = {}
        start = 0
        for f in folders:
            vals = np.sort(doc_scores[start:start + len(f.documents)])[::-1]
            start += len(f.documents)
            if vals.size == 0:
                out[f.folder_id] = 0.0
                continue
            runners = float(vals[1:3].mean()) if vals.size > 1 else float(vals[0])
            shared = q & set(terms(f.name))  # the name's word weighs by its idf over the documents
            name_bonus = NAME_BONUS * max((math.log(1 + n / (sig.df.get(t, 0) + 0.5)) / math.log(1 + n / 0.5)
                                           for t in shared), default=0.0)
            out[f.folder_id] = float(min(1.0, 0.85 * vals[0] + 0.15 * runners + name_bonus))
        return out

    def _confidences(self, scores: dict[str, float]) -> dict[str, float]:
        ids = list(scores)
        x = np.asarray([scores[i] for i in ids], dtype=np.float64) / self.temperature
        p = np.exp(x - x.max())
        p = p / p.sum()
        return dict(zip(ids, p.tolist()))

    def route(self, question: str, folders: Sequence[FolderProfile], history: Sequence[Turn] = (),
              passages: Mapping[str, PassageIndex] | None = None) -> Routing:
        """``passages``: folder_id → the page index over that folder's documents (in order), when
        the caller has them (the passage signal; without them documents compete on their profiles)."""
        nonempty = [f for f in folders if f.documents]
        if not folders:
            raise EmptyLibraryError("The library has no folders yet; create a folder and add PDFs first.")
        if not nonempty:
            raise EmptyLibraryError("Every folder is empty; add PDFs to a folder first.")
        by_id = {f.folder_id: f for f in nonempty}
        scores = self.folder_scores(question, nonempty, passages)
        conf = self._confidences(scores)
        best = max(scores, key=lambda i: (scores[i], conf[i]))
        names = {f.folder_id: f.name for f in nonempty}
        named = {names[i]: scores[i] for i in scores}
        last = _last_folder(history)
        if last is None or last not in by_id or last == best:
            followup = last == best and last is not None
            reason = "best match of the question" + (" (same folder as the conversation)" if followup else "")
            return Routing(best, names[best], conf[best], named, followup, reason, self.method)
        elliptic = looks_like_followup(question)
        need_conf = 0.95 if elliptic else self.switch_confidence
        need_margin = 2 * self.switch_margin if elliptic else self.switch_margin
        # two content words or fewer ("and the year before?") never leave the conversation's folder
        enough = not elliptic or (len(set(terms(clean_question(question)))) > 2 and scores[best] >= 0.5)
        if enough and conf[best] >= need_conf and scores[best] - scores[last] >= need_margin:
            return Routing(best, names[best], conf[best], named, False,
                           f"the question points clearly away from {names[last]}", self.method)
        # stay: judge the question in the context of the previous question
        previous = _last_user_text(history)
        ctx_scores = self.folder_scores(f"{question} {previous}".strip(), nonempty, passages) if previous else scores
        ctx_conf = self._confidences(ctx_scores)
        return Routing(last, names[last], max(ctx_conf[last], 0.5), {names[i]: ctx_scores[i] for i in ctx_scores},
                       True, "follow-up: stays in the conversation's folder", self.method)


def _last_folder(history: Sequence[Turn]) -> str | None:
    for turn in reversed(list(history)):
        if getattr(turn, "folder_id", ""):
            return turn.folder_id
    return None


def _last_user_text(history: Sequence[Turn]) -> str:
    for turn in reversed(list(history)):
        if turn.role == "user":
            return turn.text
    return ""


ROUTERS = {"offline": OfflineRouter}


def make_router(name: str = "offline", **kwargs: Any) -> Router:
    try:
        return ROUTERS[name](**kwargs)
    except KeyError:
        raise ValueError(f"Unknown router {name!r}; choose one of {', '.join(ROUTERS)}.") from None


def profiles_from_library(library: Any) -> list[FolderProfile]:
    """FolderProfiles of every folder of a :class:`alphasearch.library.Library`."""
    rows = library.routing_rows()
    facts = library.facts()
    by_folder: dict[str, list[DocProfile]] = {}
    for rec, vocab in rows:
        by_folder.setdefault(rec.folder_id, []).append(
            DocProfile(rec.sha256, rec.name, rec.folder_id, rec.summary, rec.profile,
                       frozenset(sys.intern(t) for t in vocab.split()), facts.get(rec.record_id)))
    return [FolderProfile(f.folder_id, f.name, tuple(by_folder.get(f.folder_id, ()))) for f in library.folders()]


__all__ = ["Router", "OfflineRouter", "forget_embeddings", "Routing", "DocProfile", "FolderProfile", "DocumentSignals",
           "PassageIndex", "PooledPassages", "DocumentScorer", "document_tree", "looks_like_followup", "make_router",
           "profiles_from_library", "EmptyLibraryError", "EmptyFolderError", "NotFoundError"]
