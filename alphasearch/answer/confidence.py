"""The parts of the offline confidence, each in [0, 1], read off the first page and its neighbours:
how close in meaning, whether it is the page the question names, whether it prints the year and the
figure asked, how far the deep read puts it ahead of the next pages; and their plain-words explanation.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ..index.folios import page_labels
from ..index.ranker import names_page
from ..lang.questions import asks_picture, clean_question, page_refs
from ..lang.text import terms
from ..models import DocumentIndex
from ..read.rows import YEAR_RE as FISCAL_YEAR  # "2023", "FY2023", "FY 2023"
from . import calibration

# confidence = weighted closeness in meaning, sentence coverage, terms in the document, best page's margin
CONFIDENCE_WEIGHTS = (0.3, 0.2, 0.3, 0.2)
LEXICAL_WEIGHTS = (0.85, 0.15)
OPENING_LINES = 3  # a page's first lines: its title, read for the "opening" part of the confidence
READ_AHEAD = 9  # the pages after the first that the "read_ahead" part compares it with
WORDS_RIVALS = 9  # the pages after the first that the "words_ahead" part compares it with
ROBUST_WORDS = 30  # at most this many leave-one-word-out rankings for the "robust" part of the confidence


def printed_labels(doc: DocumentIndex, page: int) -> tuple[int, ...]:
    """The printed page numbers of ``page`` (:func:`~alphasearch.index.folios.page_labels`, read with the whole document)."""
    return page_labels([p.text for p in doc.pages])[page - 1] if 1 <= page <= doc.page_count else ()


def first_page_parts(doc: DocumentIndex, question: str, first: int, page_scores: np.ndarray | None = None,
                     rescore: Callable[[str], np.ndarray] | None = None, *,
                     df: Mapping[str, int] | None = None) -> dict[str, float]:
    """Six parts of the confidence, each in [0, 1]. ``robust``: the share of the question's words
    that, left out one at a time, leave the page ranker's best page (of ``page_scores``) its best
    page under ``rescore`` (0.5 when unknown) — a ranking that one word decides is fragile (a
    query-performance signal; it does not compare the ranker with the search, so a page the
    search found and the ranker missed is not marked down for that); ``first_words``: how much
    text the first page has (words / 300, at most 1: on a dense page of tables and text, the
    first page and the row quoted are more often wrong than on a sparse one); ``named_page``: 1
    when the question names a page, figure, table or appendix and the first page is it
    (:func:`~alphasearch.index.ranker.names_page`), else 0; ``year_missing``: 1 when the question asks for a year
    ("2022", "FY2022") that the first page does not print, else 0 (a statement page prints the
    years of its columns: one without the year asked is rarely the page asked for); ``opening``:
    the share of the question's terms (weighted by idf, with ``df`` the pages using each term) in
    the first page's opening lines (``OPENING_LINES``: its title; a page titled with what is asked
    is rarely the wrong one); ``picture_missing``: 1 when the question asks what a picture shows
    (:func:`~alphasearch.lang.questions.asks_picture`: a map, photo, chart, a colour…) and the first page holds no
    picture of its own (``Page.pictures``), else 0 (its words alone cannot show it). Measured on
    held-out documents of the development set: see ``benchmarks/answer_eval.py``."""
    text = doc.page(first).text if 1 <= first <= doc.page_count else ""
    years = dict.fromkeys(FISCAL_YEAR.findall(question))
    out = {"robust": 0.5, "first_words": min(1.0, len(text.split()) / 300),
           "named_page": 1.0 if names_page(question, first, doc.page_count, text, labels=printed_labels(
               doc, first) if page_refs(question) else None) else 0.0,
           "year_missing": 1.0 if years and not all(y in text for y in years) else 0.0,
           "opening": 0.0,
           "picture_missing": 1.0 if asks_picture(question) and 1 <= first <= doc.page_count
           and not doc.page(first).pictures else 0.0}
    q_terms = list(dict.fromkeys(terms(clean_question(question))))
    if q_terms:
        idf = question_idf(doc, q_terms, df or {})
        opening = set(terms("\n".join(text.splitlines()[:OPENING_LINES])))
        out["opening"] = sum(idf[t] for t in q_terms if t in opening) / sum(idf.values())
    if rescore is None or page_scores is None or not page_scores.size or page_scores.max() <= 0:
        return out
    best = int(np.argmax(page_scores))
    words = question.split()
    drop = [i for i, w in enumerate(words) if terms(w)][:ROBUST_WORDS]
    if len(drop) > 1:
        kept = 0
        for i in drop:
            s = rescore(" ".join(words[:i] + words[i + 1:]))
            kept += bool(s.size > best and s.max() > 0 and int(np.argmax(s)) == best)
        out["robust"] = kept / len(drop)
    return out


def read_ahead(pages: Sequence[int], read: Callable[[int], float] | None) -> float:
    """How far the deep read puts the first of ``pages`` ahead of the best of the next ``READ_AHEAD``
    (``read``: what the deep read finds on a page, :meth:`reading.PageReader.read_evidence`, on the
    page ranker's scale, up to about 1.5); negative when one of them reads better, 0 without a
    reader or a second page. A first page that barely beats its neighbours in the read is more
    often the wrong one than one that stands out: alone, this part ranks the right first pages of
    the development set above the wrong ones with AUROC 0.70 (the ranker's own margin: 0.68); see
    ``benchmarks/answer_eval.py`` for what it adds to the confidence."""
    if read is None or len(pages) < 2:
        return 0.0
    return float(read(pages[0]) - max(read(p) for p in pages[1:1 + READ_AHEAD]))


def words_ahead(doc: DocumentIndex, question: str, pages: Sequence[int], df: Mapping[str, int]) -> float:
    """How much more of the question's words the first of ``pages`` holds than the best of the next
    ``WORDS_RIVALS``, in [-1, 1]: a page's share of the question's terms, each weighted by its idf
    squared (``df``: the pages using each term; a rare word tells a page apart, a word every page uses
    does not), printed anywhere on the page; the first page's share less the best rival's. A term the
    document never uses counts in the whole and on no page, so a question the document barely
    addresses leads by little. 0 without a second page or a question term. A first page that
    holds the question's rare words no rival holds is right more often than one a rival matches or
    beats: alone, this part ranks the right first pages of the development set above the wrong ones
    with AUROC 0.63; see ``benchmarks/answer_eval.py`` for what it adds to the confidence."""
    q_terms = list(dict.fromkeys(terms(clean_question(question))))
    rivals = [p for p in pages[1:1 + WORDS_RIVALS] if 1 <= p <= doc.page_count]
    if not q_terms or not rivals or not 1 <= pages[0] <= doc.page_count:
        return 0.0
    weight = {t: w * w for t, w in question_idf(doc, q_terms, df).items()}
    total = sum(weight.values())

    def share(page: int) -> float:
        held = set(terms(doc.page(page).text))
        return sum(w for t, w in weight.items() if t in held) / total

    return share(pages[0]) - max(share(p) for p in rivals)


_PART_NAMES = {"meaning": "closeness in meaning of the best page", "coverage": "question covered by the quote",
               "in_document": "question terms in the document", "margin": "best page ahead of the runner-up",
               "kind": "the kind of answer asked for is present", "figure": "a table row matches the figure asked",
               "agree": "the quote is on the first page", "page_cover": "question terms on the first page",
               "top_agree": "the first page is the page ranker's best",
               "first_meaning": "closeness in meaning of the first page",
               "fig_first": "the figure is read on the first page", "computed": "the answer is a computation",
               "ahead": "the first page's score ahead of the second page's",
               "first_cover": "question covered by the first page's best quote",
               "robust": "the best page stays best leaving out any one question word",
               "first_words": "words on the first page (per 300)",
               "named_page": "the first page is the page, figure or table named",
               "year_missing": "the first page lacks the year asked",
               "opening": "question terms in the first page's opening lines",
               "picture_missing": "a picture is asked and the first page holds none",
               "fit": "the first page prints the year and the figure asked",
               "read_ahead": "the deep read puts the first page ahead of the next ones",
               "words_ahead": "the first page holds more of the question's rare words than the next ones"}


def explain_confidence(parts: Mapping[str, float], threshold: float | None = None) -> str:
    """One readable line: how the confidence is made of its parts (the calibrated logistic
    model's weighted sum when the parts are those it was fitted on, else the fixed weights)."""
    m = calibration.model()
    if m and all(f in parts for f in m["features"]):
        terms_ = " + ".join(f"{w:.2f} × {_PART_NAMES.get(f, f)} {parts[f]:.0%}"
                            for f, w in zip(m["features"], m["weights"]))
        text = (f"the chance the first page is right, from a logistic model (fitted on labelled questions, "
                f"data/confidence.json) of {terms_} {m['bias']:+.2f}")
    else:
        weights = dict(zip(("meaning", "coverage", "in_document", "margin"), CONFIDENCE_WEIGHTS)) \
            if "meaning" in parts else dict(zip(("coverage", "kind"), LEXICAL_WEIGHTS))
        text = " + ".join(f"{weights[k]:.2f} × {_PART_NAMES.get(k, k)} {v:.0%}" for k, v in parts.items()
                          if k in weights)
    gate = m.get("fallback") if m else None
    if threshold is not None and gate and all(f in parts for f in gate["features"]):
        text += (f"; the answer says it found too little evidence below {threshold:.0%} of the fallback model "
                 f"(the same target, fitted on parts that also tell a document that does not address the "
                 f"question; here {calibration.predict(parts, gate):.0%})")
    elif threshold is not None:
        text += f"; below {threshold:.0%} the answer says it found too little evidence"
    return text


def score_margin(page_scores: np.ndarray | None) -> float:
    """How far the best page's score is above the runner-up's, scores divided by the best."""
    if page_scores is None or page_scores.size < 2:
        return 0.5
    second, best = np.partition(page_scores, -2)[-2:]
    return float(1.0 - second / best) if best > 0 else 0.0


def closeness_of(doc: DocumentIndex, question: str, pages: Sequence[int]) -> float:
    """Best cosine similarity of the question to a page's text, mapped from [0.05, 0.40] to [0, 1]."""
    from ..lang.embeddings import embed

    texts = [doc.page(p).text[:3000] for p in pages if doc.page(p).text.strip()]
    if not texts:
        return 0.0
    vecs = embed([clean_question(question)] + texts)
    sim = float((vecs[1:] @ vecs[0]).max())
    return min(1.0, max(0.0, (sim - 0.05) / 0.35))


def question_idf(doc: DocumentIndex, q_terms: Sequence[str], df: Mapping[str, int]) -> dict[str, float]:
    n = doc.page_count
    # A term the document never uses weighs the most: the answer cannot be here.
    return {t: math.log(1 + n / (df.get(t, 0) + 0.5)) for t in q_terms}
