"""Query expansion by embedding neighbours: the question reworded with the nearest words
of the document's own vocabulary (by the static wordllama embeddings), so a page that says
"staff" is found for a question about "employees" without a lexicon entry. The sub-queries'
best pages join the pages the answer's figure lookup reads (answer.expanded_pages).
Merging their page scores into the page ranking (question weight 1, each sub-query 0.5 or
0.25) cost page hit@k on the dev set by one or two questions, so the ranking does not use them.

The vocabulary vectors are computed once per document and kept in a bounded cache.
"""
from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ..lang.text import STOPWORDS, terms, words
from .memo import Recent
from ..models import DocumentIndex
from ..lang.questions import clean_question
from ..lang.embeddings import embed

VOCAB_SIZE = 3000  # the document's most frequent content words kept as neighbour candidates
MIN_WORD = 4  # shorter words (ids, units) are not expanded
NEIGHBOUR_MIN = 0.55  # cosine below which a word has no neighbour in the document
_CACHE_DOCS = 32

_vocab: Recent[tuple[list[str], list[str], np.ndarray]] = Recent(_CACHE_DOCS)


def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if w.isalpha() and len(w) >= MIN_WORD and w not in STOPWORDS]


def vocabulary(doc: DocumentIndex) -> tuple[list[str], list[str], np.ndarray]:
    """The document's content words (most frequent first), their stems and unit vectors;
    cached per document (at most ``_CACHE_DOCS`` documents)."""
    return _vocab.get(doc.doc_id, lambda: _vocabulary(doc))


def _vocabulary(doc: DocumentIndex) -> tuple[list[str], list[str], np.ndarray]:
    counts = Counter(w for p in doc.pages for w in _content_words(p.text.lower()))
    vocab = [w for w, _ in counts.most_common(VOCAB_SIZE)]
    stems = [terms(w)[0] if terms(w) else w for w in vocab]
    vecs = embed(vocab) if vocab else np.zeros((0, 1), dtype=np.float32)
    return vocab, stems, vecs


def neighbour_queries(doc: DocumentIndex, question: str, limit: int = 2) -> list[str]:
    """Up to ``limit`` rewordings of the question: its content words the document does not
    use replaced by their nearest document words (the best neighbour, then the second)."""
    vocab, stems, vecs = vocabulary(doc)
    if not vocab:
        return []
    doc_stems = set(stems)
    asked = _content_words(clean_question(question).lower())
    missing = [w for w in dict.fromkeys(asked) if (terms(w) or [w])[0] not in doc_stems]
    if not missing:
        return []
    sims = embed(missing) @ vecs.T
    asked_stems = {(terms(w) or [w])[0] for w in asked}
    options: dict[str, list[str]] = {}
    for w, row in zip(missing, sims):
        near = [vocab[i] for i in np.argsort(-row)[:8] if row[i] >= NEIGHBOUR_MIN and stems[i] not in asked_stems]
        if near:
            options[w] = near
    out: list[str] = []
    for k in range(limit):
        q = question
        changed = False
        for w, near in options.items():
            if k < len(near):
                q = _replace(q, w, near[k])
                changed = True
        if changed and q not in out:
            out.append(q)
    return out


def _replace(text: str, word: str, by: str) -> str:
    return re.sub(rf"\b{re.escape(word)}\b", by, text, flags=re.IGNORECASE)


def expansion_field(doc: DocumentIndex, question: str) -> dict[str, list[str]]:
    """``{"sub_queries": [...]}`` for an answer's ``extra`` (the lexicon's names of the line
    item, then the embedding rewordings), or ``{}`` when there are none."""
    from ..read.items import phrase_use, sub_queries

    subs = [*sub_queries(question, used=phrase_use(doc)), *neighbour_queries(doc, question)]
    return {"sub_queries": subs} if subs else {}


__all__ = ["expansion_field", "neighbour_queries", "vocabulary"]
