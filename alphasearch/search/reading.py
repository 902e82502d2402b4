"""Reading pages inside the search: a leaf section's page nodes, their prior and the deep read.

The search (:func:`alphasearch.search.mcts.search`) expands a leaf section into one
node per page. A page node's prior is the page's cheap score (the page
ranker's, free); judging it is the **deep read**: offline, the page ranker's
score of the page blended with how well its best passage covers the question
(:func:`passage_coverage`); with a model, one call of the model judge
(``judge``) on the page's text. Every page node carries a snippet: the page's
sentence that best covers the question, for the visualizer.

The offline read also does what the page ranker cannot afford for every page: it
checks the page against the question (:meth:`PageReader.fit`). For a question asking
one line item's figure ("What is the FY2016 COGS?") it runs the answer's table reader
(:func:`alphasearch.read.direct.figure_answer`) on the page alone: a page with no row naming
the item in the year asked, and no sentence stating a figure for it in that year, reads
``FIGURE_MISSING`` times lower (below the search's confidence threshold, so the search
reads the next candidate); a page with such a row counts ``FIGURE_FOUND`` more in the
final ranking. A page that does not print a year the question asks ("in 2022",
"FY2022") reads ``YEAR_MISSING`` times lower. A question asking for a figure in a year
without naming a line item of the lexicon is checked the same way, a sentence then holding
one of the question's two rarest words. On the development set (276 questions)
the default search's hit@1 went 0.721 -> 0.750 and flat reading at equal pages read
(the ranker's top pages reread with the same read) 0.703 -> 0.721: gap +0.018 -> +0.029,
halves by document +0.035 / +0.022, 30 other splits p10 +0.017; the search reads 3.2
pages a question instead of 1.2. The figure check alone: gap +0.025; the year check
alone: +0.022. (Flat reading then ordered its reads by the deep read alone; ranked as the search
ranks its reads, by :meth:`PageReader.read_evidence` among the unread pages, it reaches 0.732 and
the gap is +0.022: see ``evaluation._flat_read``.)
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..lang.text import sentences, shorten, terms
from ..models import DocumentIndex, Section
from ..read.rows import STRONG_ROW
from ..read.direct import asks_line_item, figure_answer
from ..read.items import concepts
from ..read.figures import numbers
from ..read.tables import years_named
from .mcts import Scorer, page_node
from ..index.ranker import PageRanker
from ..lang.questions import asks, asks_detail, clean_question, wants_number

SNIPPET_CHARS = 220
# The offline deep read: the page ranker's score and the best passage's coverage of the question.
# On 100 development questions an equal mix (0.5, 0.5) read 14 pages a question and lost 0.02
# hit@1 against the ranker's order; (0.8, 0.2) reads ~3 and keeps hit@1 within 0.01 of it.
DEEP_READ_WEIGHTS = (0.8, 0.2)
# The page checked against the question (PageReader.fit): a line item asked and no row of it in the
# year asked on the page; a year asked that the page does not print; a row of the line item found.
FIGURE_MISSING = 0.7
YEAR_MISSING = 0.85
FIGURE_FOUND = 0.5


def _idf(q_terms: Sequence[str], df: Mapping[str, int], pages: int) -> dict[str, float]:
    return {t: math.log(1 + (pages + 1) / (df.get(t, 0) + 1)) for t in q_terms}


def passage_coverage(text: str, q_terms: Sequence[str], idf: Mapping[str, float]) -> tuple[float, str]:
    """(share of the question's idf weight found in the page's best sentence and its
    two neighbours, that sentence) — in [0, 1]; (0, "") for a page without text."""
    total = sum(idf.values())
    sents = sentences(text)
    if not sents or total <= 0:
        return 0.0, ""
    sets = [set(terms(s)) for s in sents]
    best, best_s = 0.0, sents[0]
    for i, s in enumerate(sents):
        window = sets[i] | (sets[i - 1] if i else set()) | (sets[i + 1] if i + 1 < len(sents) else set())
        own = sum(idf[t] for t in q_terms if t in sets[i]) / total
        near = sum(idf[t] for t in q_terms if t in window) / total
        cov = 0.6 * own + 0.4 * near
        if cov > best:
            best, best_s = cov, s
    return best, best_s


def _states(text: str, names, years: set[str]) -> bool:
    """A sentence of ``text`` that ``names(sentence)`` accepts names every year of ``years`` and
    prints a figure that is not a year ("capital expenditures were 377 million dollars in 2020")."""
    return any(names(s) and all(y in s for y in years)
               and any(not (x.is_integer() and 1980 <= x < 2050) for x in numbers(s)) for s in sentences(text))


def _states_figure(text: str, item: str, years: set[str]) -> bool:
    """A sentence of ``text`` names the line item ``item`` (a lexicon group), the years and a figure."""
    return _states(text, lambda s: item in concepts(s), years)


def _states_number(text: str, rare: set[str], years: set[str]) -> bool:
    """A sentence of ``text`` holds one of the ``rare`` words, the years and a figure."""
    return _states(text, lambda s: bool(rare & set(terms(s))), years)


def rarest(question: str, df: Mapping[str, int]) -> set[str]:
    """The question's two rarest words in a document whose pages use each term ``df`` times."""
    q = [t for t in dict.fromkeys(terms(clean_question(question))) if not t.isdigit() and df.get(t, 0)]
    return set(sorted(q, key=lambda t: df[t])[:2])


def page_fit(doc: DocumentIndex, question: str, page: int, df: Mapping[str, int]) -> tuple[float, bool]:
    """:meth:`PageReader.fit` of ``page`` (``df``: the pages using each term), uncached; the answer's
    confidence reads it for the first page (part ``fit``)."""
    text = doc.page(page).text
    factor, found = 1.0, False
    years = set(years_named(question))
    items = concepts(question)
    if not asks(question, "explanation") and not asks_detail(question) and (
            asks_line_item(question) or (years and wants_number(question) and not items)):
        row = figure_answer(doc, question, [page], read=1)
        found = row is not None and row.score >= STRONG_ROW
        stated = _states_figure(text, items[0], years) if items else _states_number(text, rarest(question, df), years)
        if not found and not stated:
            factor = FIGURE_MISSING
    if years and not all(y in text for y in years):
        factor *= YEAR_MISSING
    return factor, found


class PageReader:
    """The :class:`alphasearch.search.mcts.Reader` of one document: page nodes, their prior
    (the page ranker's score) and the deep read (``judge`` when given — a model
    scorer or a simulated judge —, else the offline deep read)."""

    def __init__(self, doc: DocumentIndex, ranker: PageRanker, judge: Scorer | None = None,
                 weights: tuple[float, float] = DEEP_READ_WEIGHTS):
        self.doc = doc
        self.ranker = ranker
        self.judge = judge
        self.weights = weights
        self._passages: dict[tuple[str, int], tuple[float, str]] = {}
        self._fits: dict[tuple[str, int], tuple[float, bool]] = {}

    def _passage(self, question: str, page: int) -> tuple[float, str]:
        key = (question, page)
        hit = self._passages.get(key)
        if hit is None:
            q_terms = list(dict.fromkeys(terms(clean_question(question))))
            idf = _idf(q_terms, self.ranker.df, self.doc.page_count)
            hit = passage_coverage(self.doc.page(page).text, q_terms, idf) if q_terms else (0.0, "")
            if len(self._passages) > 4096:
                self._passages.clear()
            self._passages[key] = hit
        return hit

    def fit(self, question: str, page: int) -> tuple[float, bool]:
        """(factor in (0, 1], figure found) of reading ``page`` for ``question``: the factor is
        ``FIGURE_MISSING`` when the question asks one line item's figure (:func:`direct.asks_line_item`,
        not an explanation of it nor of what it is made of), the table reader finds no row of it in the year asked on this
        page alone (row score below ``rows.STRONG_ROW``) and no sentence states a figure for it in
        the years asked — and likewise when it asks for a figure in a year without naming a line item
        of the lexicon ("how many membership warehouses … in 2022?"), a sentence then holding one of
        the question's two rarest words of the document; times ``YEAR_MISSING`` when the page does not print every year the
        question names. "Found": that row is there."""
        key = (question, page)
        hit = self._fits.get(key)
        if hit is None:
            hit = page_fit(self.doc, question, page, self.ranker.df)
            if len(self._fits) > 4096:
                self._fits.clear()
            self._fits[key] = hit
        return hit

    def pages_of(self, question: str, section: Section) -> list[Section]:
        """The section's pages, one node each. Without a ``judge``, only pages with text: the
        offline deep read of a page without text (a slide that is one picture) reads nothing,
        so the search spends no read on it (it still ranks, by the page ranker's score). A
        judge may see more than the text, so with one every page is a node."""
        a, b = max(1, section.pages[0]), min(self.doc.page_count, section.pages[1])
        return [page_node(section, p, shorten(self._passage(question, p)[1], SNIPPET_CHARS)) for p in range(a, b + 1)
                if self.judge is not None or self.doc.page(p).text.strip()]

    def prior(self, question: str, pages: Sequence[Section]) -> list[float]:
        scores = self.ranker.scores(question)
        return [float(scores[p.pages[0] - 1]) for p in pages]

    def deep_read(self, question: str, page: int) -> float:
        """The offline deep read of one page, in [0, 1]."""
        a, b = self.weights
        blend = a * float(self.ranker.scores(question)[page - 1]) + b * self._passage(question, page)[0]
        return min(1.0, blend * self.fit(question, page)[0])

    def read_evidence(self, question: str, page: int) -> float:
        """What the offline deep read found on one page, on the page ranker's scale: the
        ranker's score plus the passage coverage weighed as the deep read weighs it (so a
        page read ranks against unread pages, which carry the ranker's score alone), times the page's
        :meth:`fit`, plus ``FIGURE_FOUND`` when the read found the line item asked in the year asked."""
        a, b = self.weights
        factor, found = self.fit(question, page)
        seen = float(self.ranker.scores(question)[page - 1]) + (b / a) * self._passage(question, page)[0]
        return seen * factor + (FIGURE_FOUND if found else 0.0)

    def score(self, question: str, pages: Sequence[Section]) -> list[float]:
        if self.judge is not None:
            return self.judge.score(question, pages)
        return [self.deep_read(question, p.pages[0]) for p in pages]


__all__ = ["PageReader", "passage_coverage", "DEEP_READ_WEIGHTS", "SNIPPET_CHARS", "FIGURE_MISSING", "YEAR_MISSING",
           "FIGURE_FOUND", "page_fit"]
