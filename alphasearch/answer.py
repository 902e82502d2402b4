"""Deep read and answer: rank the pages the search points at, then answer from them.

Offline the answer is extractive: the best supporting sentences verbatim, each
cited with document, section and page. Below the confidence threshold the
answer is the fixed fallback and has no citations.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .models import FALLBACK_ANSWER, Citation, DocumentIndex, SearchTrace, Section
from .mcts import ranked_frontier
from .scorers import PageRanker, clean_question, wants_number
from .text import sentences, shorten, terms

_NUM = re.compile(r"\d[\d,.]*")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_MONTH = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
_PROPER = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")


def rank_pages(doc: DocumentIndex, trace: SearchTrace | None, page_scores: np.ndarray, *, k: int = 10) -> list[int]:
    """1-based pages best first: each page's own evidence blended with the Q of
    the best searched section that contains it; at least ``k`` pages where the
    document has them."""
    n = doc.page_count
    section_q = np.zeros(n, dtype=np.float32)
    if trace is not None:
        for node in ranked_frontier(trace.root):
            a, b = node.section.pages
            section_q[a - 1:b] = np.maximum(section_q[a - 1:b], node.q)
    top = float(section_q.max()) if n else 0.0
    if top > 0:
        section_q = section_q / top
    combined = 0.8 * page_scores + 0.2 * section_q
    order = np.lexsort((np.arange(n), -combined))
    return [int(i) + 1 for i in order[:max(k, 5)]]


def section_of(root: Section, page: int) -> Section:
    """The deepest section whose range contains ``page``."""
    node = root
    while True:
        nxt = next((c for c in node.children if c.pages[0] <= page <= c.pages[1]), None)
        if nxt is None:
            return node
        node = nxt


@dataclass(frozen=True)
class Extract:
    text: str
    confidence: float
    fallback: bool
    citations: list[Citation]


def extractive_answer(
    doc: DocumentIndex,
    question: str,
    pages: Sequence[int],
    df: Mapping[str, int],
    *,
    threshold: float = 0.35,
    read: int = 3,
    max_sentences: int = 3,
) -> Extract:
    """Quote the sentences of the top ``read`` pages that best cover the question.

    Confidence in [0, 1]: the share of the question's idf-weighted terms found in
    the best sentence and its neighbours, raised when the kind of answer asked
    for (a figure, a date, a name) is present.
    """
    q_terms = list(dict.fromkeys(terms(clean_question(question))))
    if not q_terms or not pages:
        return Extract(FALLBACK_ANSWER, 0.0, True, [])
    idf = _idf(doc, q_terms, df)
    total = sum(idf.values())
    kind = answer_kind(question)
    candidates: list[tuple[float, float, int, int, str]] = []  # score, coverage, rank, page, sentence
    for rank, page in enumerate(pages[:read]):
        sents = sentences(doc.page(page).text)
        sent_terms = [set(terms(s)) for s in sents]
        for i, s in enumerate(sents):
            if len(s) < 12 or len(s) > 600:
                continue
            window = sent_terms[i] | (sent_terms[i - 1] if i else set()) | (
                sent_terms[i + 1] if i + 1 < len(sents) else set())
            own = sum(idf[t] for t in q_terms if t in sent_terms[i]) / total
            near = sum(idf[t] for t in q_terms if t in window) / total
            coverage = 0.7 * own + 0.3 * near
            bonus = 0.15 if _has_kind(s, kind) else 0.0
            score = coverage + bonus - 0.03 * rank
            candidates.append((score, coverage, rank, page, s))
    if not candidates:
        return Extract(FALLBACK_ANSWER, 0.0, True, [])
    candidates.sort(key=lambda c: (-c[0], c[2]))
    best_score, best_cov = candidates[0][0], candidates[0][1]
    confidence = max(0.0, min(1.0, 0.85 * best_cov + (0.15 if _has_kind(candidates[0][4], kind) else 0.0)))
    if confidence < threshold:
        return Extract(FALLBACK_ANSWER, round(confidence, 4), True, [])
    chosen: list[tuple[float, float, int, int, str]] = []
    for cand in candidates:
        if len(chosen) >= max_sentences or cand[0] < 0.6 * best_score:
            break
        if all(cand[4] != c[4] for c in chosen):
            chosen.append(cand)
    chosen.sort(key=lambda c: (c[2], c[3]))
    citations = [Citation(doc=doc.name, section=section_of(doc.root, page).title, pages=(page, page),
                          snippet=shorten(s, 300), doc_id=doc.doc_id) for _, _, _, page, s in chosen]
    text = " ".join(f"{shorten(s, 400)} [p. {page}]" for _, _, _, page, s in chosen)
    return Extract(text, round(confidence, 4), False, citations)


def answer_kind(question: str) -> str:
    q = question.lower()
    if re.search(r"\b(when|what year|which year|what date|which date)\b", q):
        return "date"
    if re.search(r"\b(who|whom|whose|which company|name of)\b", q):
        return "name"
    if wants_number(question) or re.search(r"\b(how (much|many|long|old)|number of|percentage)\b", q):
        return "number"
    return "text"


def _has_kind(sentence: str, kind: str) -> bool:
    if kind == "number":
        return bool(_NUM.search(sentence))
    if kind == "date":
        return bool(_YEAR.search(sentence) or _MONTH.search(sentence))
    if kind == "name":
        return bool(_PROPER.search(sentence))
    return False


def _idf(doc: DocumentIndex, q_terms: Sequence[str], df: Mapping[str, int]) -> dict[str, float]:
    n = doc.page_count
    # A term the document never uses weighs the most: the answer cannot be here.
    return {t: math.log(1 + n / (df.get(t, 0) + 0.5)) for t in q_terms}
