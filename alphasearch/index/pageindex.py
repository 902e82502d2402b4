"""A folder's page index (Phase 1's ``passage`` signal) assembled from per-document term counts.

Each document's pages are tokenised once, ever: :class:`PageTerms` (the document's distinct
terms and, per page, how often each occurs) is saved beside its index. A folder's
:class:`PassageIndex` is BM25 over every page of its documents (Lucene's variant, as bm25s
computes it: idf = ln(1 + (N - df + 0.5) / (df + 0.5)), term part tf / (tf + k1·(1 - b + b·len/avg)),
k1 = 1.5, b = 0.75; N, df and avg over the pages that have any term), assembled from those counts
with array arithmetic, so a folder that changes re-reads counts, not page texts.

The index is stored as postings: for each term, the pages holding it and their BM25 weights.
A question costs the postings of its own terms (plus one array over the folder's documents),
never a pass over every page.

Phase 0 compares the best pages of documents in different folders: :class:`PooledPassages`
reads several folders' indexes as one — each posting's term count is recovered from its weight
and the page's length, then weighed again with the idf and average page length of all their
pages — so it scores as one index over every page would, and no second index is built.
"""
from __future__ import annotations

import io
import threading
import zipfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..lang.text import terms

K1, B = 1.5, 0.75


@dataclass(frozen=True)
class PageTerms:
    """One document's page term counts: entry ``i`` says term ``vocab[term[i]]`` occurs
    ``count[i]`` times on page ``page[i]`` (0-based); ``pages`` = the document's page count."""

    VERSION = 2  # of the saved format (and of what is counted)

    vocab: tuple[str, ...]
    page: np.ndarray
    term: np.ndarray
    count: np.ndarray
    pages: int

    @classmethod
    def from_texts(cls, texts: Sequence[str]) -> PageTerms:
        return cls.from_counts([Counter(terms(text)) for text in texts])

    @classmethod
    def from_counts(cls, counts: Sequence[Counter[str]]) -> PageTerms:
        """From each page's term counts (as ``Counter(terms(text))`` counts them)."""
        ids: dict[str, int] = {}
        page, term, count = [], [], []
        for p, counted in enumerate(counts):
            for t, c in counted.items():
                page.append(p)
                term.append(ids.setdefault(t, len(ids)))
                count.append(c)
        return cls(tuple(ids), np.asarray(page, np.int32), np.asarray(term, np.int32), np.asarray(count, np.int32),
                   len(counts))

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        np.savez(buf, vocab=np.asarray(self.vocab, dtype=str), page=self.page, term=self.term, count=self.count,
                 pages=np.asarray([self.pages], np.int64))
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> PageTerms:
        """ValueError when the bytes are not a consistent PageTerms."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                vocab, page, term, count, pages = (z["vocab"], z["page"], z["term"], z["count"], int(z["pages"][0]))
        except (OSError, KeyError, IndexError, EOFError, ValueError, zipfile.BadZipFile) as exc:
            raise ValueError(f"unreadable page terms ({exc})") from None
        n = len(page)
        if not (len(term) == len(count) == n) or (n and (term.min() < 0 or term.max() >= len(vocab)
                                                         or page.min() < 0 or page.max() >= pages)):
            raise ValueError("inconsistent page terms")
        return cls(tuple(str(v) for v in vocab), page.astype(np.int32), term.astype(np.int32),
                   count.astype(np.int32), pages)


class _BestPages:
    """``best(question)`` from ``_best_raw(terms)`` (each document's best page score), divided by
    the best document's and remembered per question (Phase 0 and Phase 1 ask several times)."""

    _cache: dict[str, np.ndarray]
    _lock: threading.Lock

    def _best_raw(self, query_terms: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def best(self, question: str) -> np.ndarray:
        """Per document: its best page's BM25 for the question, divided by the best document's."""
        from ..lang.questions import clean_question

        with self._lock:
            hit = self._cache.get(question)
        if hit is not None:
            return hit
        best = self._best_raw(list(dict.fromkeys(terms(clean_question(question)))))
        top = float(best.max()) if best.size else 0.0
        if top > 0:
            best = best / top
        with self._lock:
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[question] = best
        return best


class PassageIndex(_BestPages):
    """BM25 over every page of a list of documents, so page scores are comparable across them.
    ``page_doc[i]``: the document (position in the list) of indexed page ``i``. Thread-safe."""

    def __init__(self, vocab: dict[str, int], indptr: np.ndarray, pages: np.ndarray, weights: np.ndarray,
                 page_doc: np.ndarray, n_docs: int, lengths: np.ndarray):
        """``lengths[i]``: the number of terms on indexed page ``i``."""
        self.vocab, self.indptr, self.pages, self.weights = vocab, indptr, pages, weights
        self.page_doc, self.n_docs, self.lengths = page_doc, n_docs, lengths
        self.avg = float(lengths.mean()) if lengths.size else 0.0
        self._cache: dict[str, np.ndarray] = {}  # question -> best(question): Phase 1 asks once per iteration
        self._lock = threading.Lock()

    @property
    def has_pages(self) -> bool:
        return self.page_doc.size > 0

    @classmethod
    def build(cls, pages: Sequence[Sequence[str]]) -> PassageIndex:
        """From each document's page texts."""
        return cls.assemble([PageTerms.from_texts(texts) for texts in pages])

    @classmethod
    def assemble(cls, docs: Sequence[PageTerms | None]) -> PassageIndex:
        """From each document's page term counts (None: a document without pages to index)."""
        vocab: dict[str, int] = {}
        glob_term, glob_page, counts, page_doc = [], [], [], []
        offset = 0
        for d, pt in enumerate(docs):
            if pt is None or not len(pt.page):
                continue
            remap = np.asarray([vocab.setdefault(t, len(vocab)) for t in pt.vocab], np.int32)
            used = np.unique(pt.page)  # pages with at least one term, in order
            local = np.full(pt.pages, -1, np.int64)
            local[used] = np.arange(len(used)) + offset
            glob_term.append(remap[pt.term])
            glob_page.append(local[pt.page])
            counts.append(pt.count)
            page_doc.append(np.full(len(used), d, np.int32))
            offset += len(used)
        if not offset:
            empty = np.zeros(0, np.int64)
            return cls({}, np.zeros(1, np.int64), empty, np.zeros(0, np.float32), empty, len(docs),
                       np.zeros(0, np.float32))
        term = np.concatenate(glob_term)
        page = np.concatenate(glob_page)
        tf = np.concatenate(counts).astype(np.float32)
        length = np.bincount(page, weights=tf, minlength=offset)
        avg = float(length.mean())
        df = np.bincount(term, minlength=len(vocab)).astype(np.float64)
        idf = np.log(1.0 + (offset - df + 0.5) / (df + 0.5))
        weights = (idf[term] * tf / (tf + K1 * (1 - B + B * length[page] / avg))).astype(np.float32)
        order = np.argsort(term, kind="stable")
        indptr = np.zeros(len(vocab) + 1, np.int64)
        np.cumsum(np.bincount(term, minlength=len(vocab)), out=indptr[1:])
        return cls(vocab, indptr, page[order].astype(np.int32), weights[order], np.concatenate(page_doc), len(docs),
                   length.astype(np.float32))

    @property
    def n_pages(self) -> int:
        """How many pages are indexed (those with any term)."""
        return int(self.page_doc.size)

    def doc_freq(self, term: str) -> int:
        """How many indexed pages hold ``term``."""
        i = self.vocab.get(term)
        return 0 if i is None else int(self.indptr[i + 1] - self.indptr[i])

    def idf(self, term: str) -> float:
        """The term's idf over this index's pages (as in its stored weights)."""
        return _idf(self.n_pages, self.doc_freq(term))

    def page_scores(self, query_terms: Sequence[str], pooled: tuple[dict[str, float], float] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
        """(indexed pages holding any query term, their BM25 scores); each distinct term counts once.
        ``pooled``: (term → idf, average page length) of a bigger set of pages to score with instead."""
        found = sorted({(self.vocab[t], t) for t in query_terms if t in self.vocab})
        if not found:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        spans = [(t, slice(self.indptr[i], self.indptr[i + 1])) for i, t in found]
        pages = np.concatenate([self.pages[span] for _, span in spans])
        if pooled is None:
            weights = np.concatenate([self.weights[span] for _, span in spans])
        else:
            idf, avg = pooled
            parts = []
            for t, span in spans:
                length = self.lengths[self.pages[span]].astype(np.float64)
                x = np.minimum(self.weights[span] / self.idf(t), 1 - 1e-6)  # = tf / (tf + k), k by this page's length
                tf = K1 * (1 - B + B * length / self.avg) * x / (1 - x)  # the count behind the weight
                parts.append(idf[t] * tf / (tf + K1 * (1 - B + B * length / avg)))
            weights = np.concatenate(parts)
        hit, where = np.unique(pages, return_inverse=True)
        return hit, np.bincount(where, weights=weights).astype(np.float32)

    def best_pages(self, query_terms: Sequence[str], pooled: tuple[dict[str, float], float] | None = None
                   ) -> np.ndarray:
        """Per document: its best page's BM25 for the terms (not normalised; see :meth:`page_scores`)."""
        best = np.zeros(self.n_docs, dtype=np.float32)
        pages, scores = self.page_scores(query_terms, pooled)
        if pages.size:
            np.maximum.at(best, self.page_doc[pages], scores)
        return best

    def _best_raw(self, query_terms: Sequence[str]) -> np.ndarray:
        return self.best_pages(query_terms)

    # --- saved state: one .npz (no pickles) and the document list --------------------------
    def save(self, directory: Path, doc_keys: Sequence[str] = ()) -> None:
        import json

        directory.mkdir(parents=True)
        np.savez(directory / "postings.npz", vocab=np.asarray(list(self.vocab), dtype=str), indptr=self.indptr,
                 pages=self.pages, weights=self.weights, page_doc=self.page_doc, lengths=self.lengths)
        (directory / "docs.json").write_text(json.dumps(list(doc_keys)), "utf-8")

    @classmethod
    def load(cls, directory: Path, n_docs: int) -> PassageIndex:
        """ValueError (or OSError) when the saved index is damaged or belongs to other documents."""
        with np.load(directory / "postings.npz", allow_pickle=False) as z:
            vocab, indptr, pages, weights, page_doc, lengths = (z["vocab"], z["indptr"], z["pages"], z["weights"],
                                                                z["page_doc"], z["lengths"])
        if (len(indptr) != len(vocab) + 1 or int(indptr[-1]) != len(pages) or len(pages) != len(weights)
                or (page_doc.size and (page_doc.min() < 0 or page_doc.max() >= n_docs))
                or (pages.size and (pages.min() < 0 or pages.max() >= page_doc.size)) or len(lengths) != page_doc.size):
            raise ValueError("saved passage index does not match the documents")
        return cls({str(t): i for i, t in enumerate(vocab)}, indptr.astype(np.int64), pages.astype(np.int32),
                   weights.astype(np.float32), page_doc.astype(np.int32), n_docs, lengths.astype(np.float32))


def _idf(n_pages: int, df: int) -> float:
    return float(np.log(1.0 + (n_pages - df + 0.5) / (df + 0.5)))


class PooledPassages(_BestPages):
    """Several page indexes (one per folder) read as one over their documents in order: a
    document's best page scored with each term's idf and the average page length over the
    pages of every index, as one index over them all would. ``None`` stands for a folder of
    ``n_docs`` documents without a page index (they score 0). Same ``best`` as a
    :class:`PassageIndex`; a question costs the postings of its terms in each index."""

    def __init__(self, parts: Sequence[tuple[PassageIndex | None, int]]):
        self.parts = [(index if index is not None and index.n_docs == n else None, n) for index, n in parts]
        self.n_docs = sum(n for _, n in self.parts)
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def has_pages(self) -> bool:
        return any(index is not None and index.has_pages for index, _ in self.parts)

    def _best_raw(self, q: Sequence[str]) -> np.ndarray:
        indexes = [index for index, _ in self.parts if index is not None]
        n_pages = sum(index.n_pages for index in indexes)
        idf = {t: _idf(n_pages, sum(index.doc_freq(t) for index in indexes)) for t in q}
        avg = sum(float(index.lengths.sum()) for index in indexes) / n_pages if n_pages else 0.0
        out = []
        for index, n in self.parts:
            if index is None:
                out.append(np.zeros(n, np.float32))
                continue
            out.append(index.best_pages(q, (idf, avg)))
        return np.concatenate(out) if out else np.zeros(0, np.float32)
