"""The offline, extractive answer: the best supporting sentences verbatim, each cited with document,
section and page, led by the direct figure line when a table row answers; below the confidence
threshold, the fixed fallback with no citations. The pages come ranked from :mod:`.ranking`, the
confidence parts from :mod:`.confidence`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from ..lang.questions import asks, clean_question, first_sentence_says, statements_needed, wants_number
from ..lang.text import sentences, shorten, terms
from ..models import FALLBACK_ANSWER, Citation, DocumentIndex
from ..read.contents import contents_page
from ..read.direct import asks_line_item, figure_answer
from ..read.items import concepts, group_terms, ratio_named, lexicon
from ..read.meaning import STATE_FIT, asked, match
from ..read.rows import YEAR_RE as FISCAL_YEAR, Direct, not_line_item, org_terms
from ..read.running import running_lines, without_running
from ..read.tables import years_named  # FISCAL_YEAR's years, and "FY23"
from ..search.reading import page_fit
from . import calibration
from .compare import compared_answer
from .objects import object_count, pages_beyond
from .steps import count_steps
from .counts import NUMBER as _NUM, YEAR as YEAR_RE, count_sentence, counted, counts, flows_unasked
from .confidence import (
    CONFIDENCE_WEIGHTS, LEXICAL_WEIGHTS, closeness_of, question_idf, score_margin, first_page_parts, read_ahead,
    words_ahead,
)
from .ranking import section_of
from .shape import line_fits, not_figures, number_words, states_figure_asked
from .unmentioned import names_unmentioned

UNMENTIONED_CONFIDENCE = 0.05  # a fallback for a year or a name no page prints, or a page the document has not
# a count of the document's tables or figures by their captions (exact when the document numbers them all, which a
# caption-less picture or a caption set as an image escapes), or of a procedure's numbered steps
COUNTED_CONFIDENCE = 0.75
COUNTED_SHOWN = 12  # the captions or steps quoted with a count
INSTRUCTION_PENALTY = 0.3  # a form's instruction to its reader ("please list the …") is not an answer
CONTENTS_PENALTY = 0.3  # a table of contents' line ("Legal Proceedings 20") names a section, it answers nothing
SENTENCE_FIT = 0.75  # share of a line-item question's key terms a sentence stating figures holds to lead as the direct line
# …and of any figure question's (a number or text asked; not a phone number, date or name): below it a sentence's
# figures are about something else ("… conducted June 16 to July 14, 2020, among 1,003 adults" for what share of
# Republicans rate China's response good). The highest that keeps every right sentence of the dev set but one.
SENTENCE_MIN_FIT = 0.25
FURTHER = 5  # pages past those read where the figure lookup looks when they hold no row matching well
NO_FIGURE = " No line of the pages read states the figure asked."
FIGURE_ANSWERS = 0.8  # a figure read from a row matching the question this well is answered even at low confidence
_PHONE = re.compile(r"(?<![\d.,/])\+?\(?\d[\d ().-]{6,}\d(?![\d.,/])")  # "01983 873655", "+1 (212) 555-0100"
_MONTH = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
_FIGURES_ALONE = re.compile(r"(?=[^\d]*\d)[-–—+$€£%()\d\s.,:;/*]+$")  # figures, signs and no word
_TIME = re.compile(r"\b\d{1,2}:\d\d\b")  # "14:04 CET"
_PROPER = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
_UNIT = re.compile(r"\bin (?:(?:EUR|USD|GBP|US\$|\$|€|£)\s*)?(?:thousands|millions|billions)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Extract:
    """An extractive answer. ``direct``: the one-line direct answer (the figure asked for,
    or the best sentence) or None on a fallback; ``structured``: see :func:`structure`."""

    text: str
    confidence: float
    fallback: bool
    citations: list[Citation]
    parts: dict[str, float] = field(default_factory=dict)  # what the confidence is made of, most in [0, 1]
    direct: Direct | None = None
    structured: dict = field(default_factory=dict)

    def extra(self) -> dict:
        """The fields an :class:`~alphasearch.models.Answer` carries in ``extra``."""
        out: dict = {}
        if self.parts:
            out["confidence_parts"] = self.parts
        if self.direct is not None:
            out["direct_answer"] = self.direct.text
        if self.structured:
            out["structured"] = self.structured
        return out


def extractive_answer(
    doc: DocumentIndex,
    question: str,
    pages: Sequence[int],
    df: Mapping[str, int],
    *,
    threshold: float = 0.25,
    read: int = 3,
    max_sentences: int = 3,
    semantic: bool = True,
    rank_penalty: float = 0.03,
    page_scores: np.ndarray | None = None,
    more_pages: Sequence[int] = (),
    rescore: Callable[[str], np.ndarray] | None = None,
    read_evidence: Callable[[int], float] | None = None,
) -> Extract:
    """Quote the sentences of the top ``read`` pages that best cover the question; for a
    figure question, lead with the direct answer read from the matching table row
    (:mod:`alphasearch.read.direct`); for a question comparing options it names ("among A, B and C, which
    had the most …"), with the option that has it and every option's figure (:mod:`alphasearch.answer.compare`);
    for others with the best sentence.

    Confidence in [0, 1]: the chance that the first page is right, from a logistic model
    (``data/confidence.json``, fitted by ``benchmarks/answer_eval.py --fit``) over the parts it
    names, of twenty-one reported: how close in meaning the question is to the pages read and to the
    first page alone (static embeddings), the share of the question's idf-weighted terms in the
    best sentence and its neighbours, the share of those terms the document uses at all, how
    clearly the best page stands out of ``page_scores`` (1 - the runner-up's score; 0.5 without
    scores) and how far the first page's score is ahead of the second page's, whether the first
    page is the page ranker's best (the search and the flat ranker agree), how well a table row
    matches the figure asked (0 when none),
    whether that figure is on the first page and whether the answer is a computation (all three 0
    when the question asks for an explanation, "what drove …": a row is no sign a page explains), whether the
    best sentence is on the first page and how well the first page's best sentence (with its
    neighbours) covers the question, and :func:`first_page_parts` (how robust the ranking is to
    leaving out one word of the question, with ``rescore`` the page ranker; how much text the first
    page has, whether it is a page the question names, whether it misses a year asked, how much of the
    question its opening lines hold and whether it lacks a picture asked about), and ``fit``: the deep
    read's check of the first page (:func:`reading.page_fit`: 1, times 0.7 when a figure is asked and
    the page holds no row nor sentence stating it in the year asked, times 0.85 when it does not print
    a year asked), :func:`read_ahead`: how far the deep read (``read_evidence``) puts the first
    page ahead of the next ones, and :func:`words_ahead`: how much more of the question's rare words
    the first page holds than any of the next ones. Without the model file: the fixed ``CONFIDENCE_WEIGHTS`` of the
    first four. Held-out AUROC on the development set: see ``fitted`` in the model file and
    RESULTS.md. When the fallback model's value (:func:`calibration.gate`: the same target, fitted
    on parts that also tell a document that does not address the question) is below
    ``threshold``, or when the document uses none of the question's terms, the answer is the
    fallback (its confidence at most that value), unless a table row matches the figure asked well (``FIGURE_ANSWERS``). With ``semantic=False`` (no model load) it is
    the sentence coverage, raised when the kind of answer asked for is present.
    A single figure whose row means what is asked less well than ``STATE_FIT`` (:func:`meaning.match` of its
    label and context: ``figure_fit`` in the parts) is not stated: no direct line, the quotes. A line that is not
    the shape of the answer asked (:func:`shape.line_fits`: one figure for a list, a comparison, a sum, the name of
    the one with the most, a count of charts) is no direct line either, nor a sentence answering "when" with a figure
    and no date, nor one stating no share for a percentage asked or only the question's own figures
    (:func:`shape.states_figure_asked`); a number asked left without a direct line is the fallback (``NO_FIGURE``).
    A question naming a year or a name the document never prints (:func:`years_unprinted`,
    :func:`unmentioned.names_unmentioned`: "Boeing" put to a deck about Germanwings) is the fallback, saying so;
    for a name, unless a table row matches the figure asked well.
    ``more_pages``: pages the figure lookup may read after the first ``read`` (query expansion:
    the best pages for other names of the line item, see :func:`expanded_pages`).
    """
    q_terms = list(dict.fromkeys(terms(clean_question(question))))
    if not q_terms or not pages:
        return Extract(FALLBACK_ANSWER, 0.0, True, [], structured=structure(doc, question, pages[:read], [], None, df))
    beyond = pages_beyond(doc, question)
    if beyond:  # "how many figures are on pages 100-120" put to a 49-page paper: nothing there to answer from
        return Extract(f"{FALLBACK_ANSWER} It has {doc.page_count} pages: no page {beyond[0]}.", UNMENTIONED_CONFIDENCE,
                       True, [], structured=structure(doc, question, pages[:read], [], None, df))
    counted = object_count(doc, question)
    if counted is not None:  # "how many figures are in the appendix": their captions
        shown = [(page, line) for _, page, line in counted.labels]
        return _counted_answer(doc, question, counted.line(), shown or [(counted.pages[0], counted.line())],
                               pages[:read], df)
    procedure = count_steps(doc, question)
    if procedure is not None:  # "how many steps are needed to replace the grille": the numbered steps
        return _counted_answer(doc, question, procedure.line(), [(procedure.page, procedure.title),
                                                                 *procedure.lines], pages[:read], df)
    idf = question_idf(doc, q_terms, df)
    total = sum(idf.values())
    kind = answer_kind(question)
    # score, coverage, rank, page, sentence (verbatim: the citation's snippet), what a table row means
    candidates: list[tuple[float, float, int, int, str, str]] = []
    running = running_lines(doc)  # no header nor footer quoted
    for rank, page in enumerate(pages[:read]):
        sents = sentences(without_running(doc.page(page).text, running))
        navigation = CONTENTS_PENALTY if contents_page(doc.page(page).text) else 0.0
        context = [_table_context(sents, i) for i in range(len(sents))]
        sent_terms = [set(terms(s + c)) for s, c in zip(sents, context)]
        for i, s in enumerate(sents):
            if len(s) < 12 or len(s) > 600 or not_line_item(s) or _FIGURES_ALONE.match(s):
                continue  # a page footer is no quote, nor a chart's run of figures without a word ("4 55 18 43 27")
            window = sent_terms[i] | (sent_terms[i - 1] if i else set()) | (
                sent_terms[i + 1] if i + 1 < len(sents) else set())
            own = sum(idf[t] for t in q_terms if t in sent_terms[i]) / total
            near = sum(idf[t] for t in q_terms if t in window) / total
            coverage = 0.7 * own + 0.3 * near
            bonus = 0.15 if _has_kind(s + context[i], kind) else 0.0
            bonus -= INSTRUCTION_PENALTY if _instruction(s) else 0.0
            score = coverage + bonus - navigation - rank_penalty * rank
            candidates.append((score, coverage, rank, page, s, context[i]))
    if not candidates:
        return Extract(FALLBACK_ANSWER, 0.0, True, [], structured=structure(doc, question, pages[:read], [], None, df))
    candidates.sort(key=lambda c: (-c[0], c[2]))
    best_score, best_cov = candidates[0][0], candidates[0][1]
    counting = count_sentence(doc, question, kind, candidates, pages[:read])
    if counting is not None and counting not in candidates:
        candidates.append(counting)
    figure = compared_answer(doc, question, pages[:read])  # "among A, B and C, which had the most …"
    if figure is None and (kind == "number" or wants_figure(question) or asks(question, "measure") or (
            kind == "text" and years_named(question))):
        looked = list(pages[:read]) + [p for p in dict.fromkeys(more_pages) if p not in pages[:read]]
        figure = figure_answer(doc, question, looked, read=len(looked), further=pages[read:read + FURTHER])
    fit = figure.fit if figure is not None else 0.0
    withheld = figure is not None and figure.kind == "figure" and fit < STATE_FIT
    if withheld:  # a row whose label and context leave out the question's key words: no direct line, the quotes
        figure = None
    explain = asks(question, "explanation")  # "what drove …": sentences lead, the figure follows them
    # a table row read for a question asking why or what drove a change is no sign the first page
    # explains it: the figure's parts count for questions that ask for the figure, not the reason
    read_row = None if explain else figure
    # a figure that is not the shape of the answer (one row for a list, a comparison, a name or a count of
    # things: shape.line_fits) is no direct line either: it follows the sentences, as for an explanation
    aside = explain or (figure is not None and not line_fits(question, figure.kind, figure.text))
    if semantic:
        in_doc = sum(idf[t] for t in q_terms if df.get(t, 0)) / total
        parts = {"meaning": closeness_of(doc, question, pages[:read]), "coverage": best_cov, "in_document": in_doc,
                 "margin": score_margin(page_scores), "figure": read_row.score if read_row else 0.0,
                 "agree": 1.0 if candidates[0][3] == pages[0] else 0.0}
        first, second = pages[0], pages[1] if len(pages) > 1 else pages[0]
        scored = page_scores is not None and page_scores.size >= max(first, second)
        parts["top_agree"] = (float(int(np.argmax(page_scores)) + 1 == first) if scored else 0.5)  # 0.5: unknown
        parts["first_meaning"] = closeness_of(doc, question, [first])
        parts["fig_first"] = 1.0 if read_row and read_row.figures and read_row.figures[0].page == first else 0.0
        parts["computed"] = 1.0 if read_row is not None and read_row.kind in ("ratio", "change") else 0.0
        parts["ahead"] = float(page_scores[first - 1] - page_scores[second - 1]) if scored else 0.0
        parts["first_cover"] = max((c[1] for c in candidates if c[3] == first), default=0.0)
        parts.update(first_page_parts(doc, question, first, page_scores, rescore, df=df))
        # the deep read's check of the first page (reading.page_fit): 1, or lower when the page does not
        # print a year asked or holds no row nor sentence with the figure asked in that year
        parts["fit"] = page_fit(doc, question, first, df)[0]
        parts["read_ahead"] = read_ahead(pages, read_evidence)
        parts["words_ahead"] = words_ahead(doc, question, pages, df)
        parts["figure_fit"] = fit  # shown, not used: how well the figure row means what is asked
        calibrated = calibration.predict(parts)
        confidence = calibrated if calibrated is not None else sum(
            w * v for w, v in zip(CONFIDENCE_WEIGHTS, parts.values()))
        answers = calibration.predict(parts, calibration.gate())  # whether to answer: its own model
        answers = confidence if answers is None else answers
    else:
        parts = {"coverage": best_cov, "kind": 1.0 if _has_kind(candidates[0][4], kind) else 0.0}
        confidence = answers = sum(w * v for w, v in zip(LEXICAL_WEIGHTS, parts.values()))
    confidence = max(0.0, min(1.0, confidence))
    parts = {k: round(v, 4) for k, v in parts.items()}
    closest = [(page, s) for _, _, _, page, s, _ in candidates[:3]]
    # a table row names what is asked, or a sentence states the count asked
    strong_figure = (figure is not None and figure.score >= FIGURE_ANSWERS) or counting is not None
    unknown_words = semantic and parts["in_document"] == 0  # the document uses none of the question's terms
    unprinted = years_unprinted(question, df)
    if not unprinted and not strong_figure:  # a name the document never prints: it is about someone else
        unprinted = names_unmentioned(doc, question)
    if unprinted or ((answers < threshold or unknown_words) and not strong_figure):
        # the fallback's confidence is at most the value that made it fall back; a document that never mentions
        # what is asked answers it with no confidence worth showing, however well its pages match the other words
        why = f" It never mentions {' or '.join(unprinted)}." if unprinted else ""
        cap = UNMENTIONED_CONFIDENCE if unprinted else 1.0
        return Extract(FALLBACK_ANSWER + why, round(min(confidence, answers, cap), 4), True, [], parts,
                       structured=structure(doc, question, pages[:read], closest, None, df))
    chosen: list[tuple[float, float, int, int, str, str]] = []
    # a heading that only introduces what follows it ("Earnings per common share––diluted:") is no key point
    stating = [c for c in candidates if not _lead_in(c[4] + c[5])] or candidates
    for cand in stating:
        if len(chosen) >= max_sentences or (chosen and cand[0] < 0.6 * best_score):  # the best always stands
            break
        if all(cand[4] != c[4] for c in chosen):
            chosen.append(cand)
    lead = counting or _lead(question, kind, candidates, best_score)
    if explain and lead is None:  # an explanation is a sentence (5 words or more), not a table row or header;
        # the best of them that states a cause ("… was primarily due to …") first
        said = [c for c in candidates if not c[5] and c[0] >= 0.5 * best_score
                and len(re.findall(r"[A-Za-z]{2,}", c[4])) >= 5]
        lead = next((c for c in said if states_cause(c[4])), said[0] if said else None)
    head = lead or chosen[0]
    if not (figure and not aside) and says_nothing(head[4] + head[5], question):
        # a heading or table header in the question's own words ("Votes Against") or a page footer tells
        # nothing: the next best line that adds something leads; none at all, then no direct line (the
        # key points stay)
        head = next((c for c in candidates if c[0] >= 0.5 * best_score and not says_nothing(c[4] + c[5], question)
                     and not _instruction(c[4])), None)
        lead = head
    if lead is not None and lead not in chosen:
        chosen = [lead] + chosen[:max_sentences - 1]
    if figure is None and head is not None and head is not counting and not _sentence_fits(doc, question, head[4]):
        head = None  # a line item asked and no row states it: a sentence not naming it states no figure of its own
    line = head[4] + head[5] if head is not None else ""
    if head is not None and figure is None and kind == "number" and asks_line_item(question) \
            and not _real_figure(line) and not _ABSENCE.search(line):
        head = None  # a line item's amount asked: a sentence stating no figure answers only by saying there is none
        line = ""  # ("does not anticipate paying dividends"), not by using the item's word ("the liabilities of")
    if head is not None and not (line_fits(question, "sentence", line) and _dated(kind, line)
                                 and not _only_spans(kind, question, line)):
        head = None  # its figures are not the shape of the answer, a "when" answered by a figure without a date,
        # or a count answered by a span of time
    if head is not None and kind == "number" and _COUNT_ASKED.search(question) and not _states_number(line):
        head = None  # a count or a share asked, and the line states no number: a heading ("Vertical Players"), a
        # sentence around it ("how long should dough rise" is answered by "overnight": no count asked)
    if head is not None and kind == "number" and not states_figure_asked(question, line):
        head = None  # a percentage asked and counts or amounts stated ("… for all 59 districts"), or the question's own
    direct = None if withheld else (not aside and figure) or (head is not None and Direct(
        f"{shorten(head[4], 400)}{head[5]} — p. {head[3]}", kind="sentence", score=best_cov)) or None
    if direct is None and kind == "number" and not explain:
        # a figure asked and no line of the pages read states one that fits: say so, with the pages read and the
        # closest passages, rather than quote sentences that state other figures
        return Extract(FALLBACK_ANSWER + NO_FIGURE, round(min(confidence, answers), 4), True, [], parts,
                       structured=structure(doc, question, pages[:read], closest, None, df))
    quoted = direct is not None and direct.kind == "sentence"  # the direct line's sentence first, then by the pages'
    chosen.sort(key=lambda c: (not (quoted and c is head), c[2], c[3]))  # rank: the page it cites is [1]
    citations = [Citation(doc=doc.name, section=section_of(doc.root, page).title, pages=(page, page),
                          snippet=shorten(s, 300), doc_id=doc.doc_id) for _, _, _, page, s, _ in chosen]
    quotes = " ".join(f"{shorten(s, 400)}{ctx} [p. {page}]" for _, _, _, page, s, ctx in chosen)
    if figure is not None:
        cited = {(c.pages[0], c.snippet) for c in citations}
        for f in figure.figures:  # the rows the figure was read from come first
            if (f.page, f.label) not in cited:
                citations.insert(0, Citation(doc=doc.name, section=section_of(doc.root, f.page).title,
                                             pages=(f.page, f.page), snippet=shorten(f.label, 300), doc_id=doc.doc_id))
                cited.add((f.page, f.label))
        text = f"{quotes}\n\n{figure.text}" if aside else f"{figure.text}\n\n{quotes}"
    else:
        text = quotes
    return Extract(text, round(confidence, 4), False, citations, parts, direct,
                   structure(doc, question, pages[:read], [(page, s) for _, _, _, page, s, _ in chosen], direct, df,
                             answered=True))


def _counted_answer(doc: DocumentIndex, question: str, line: str, shown: Sequence[tuple[int, str]],
                    read: Sequence[int], df: Mapping[str, int]) -> Extract:
    """The answer to a question counting the document's own things (:mod:`.objects`: its tables or figures,
    :mod:`.steps`: a procedure's steps): the count (``line``) and the lines it counted (``shown``: page, line), each
    cited on its page."""
    direct = Direct(line, kind="count", score=1.0)
    quoted = list(shown[:COUNTED_SHOWN])
    citations = [Citation(doc=doc.name, section=section_of(doc.root, page).title, pages=(page, page),
                          snippet=shorten(text, 300), doc_id=doc.doc_id) for page, text in quoted]
    quotes = "; ".join(f"{shorten(text, 200)} [p. {page}]" for page, text in quoted)
    more = f" … and {len(shown) - len(quoted)} more." if len(shown) > len(quoted) else ""
    return Extract(f"{line}\n\n{quotes}{more}", COUNTED_CONFIDENCE, False, citations, {}, direct,
                   structure(doc, question, read, quoted, direct, df, answered=True))


def years_unprinted(question: str, df: Mapping[str, int]) -> list[str]:
    """The years the question names ("2024", "FY2024") that no page of the document prints (``df``: the pages
    using each term). A document that never prints the year asked cannot answer for it: a question about
    2024 put to a survey of 2018 is about another document, and whatever it would quote is another year's
    (on ../shared/eval-more, 15 of the 102 questions that are not answerable name such a year, 2 of the 311
    answerable ones: a year given as an example of a format, and a list of years to be found)."""
    if not df:
        return []
    return [y for y in dict.fromkeys(FISCAL_YEAR.findall(question)) if not df.get(y)]


def _sentence_fits(doc: DocumentIndex, question: str, sentence: str) -> bool:
    """Whether ``sentence`` may be the direct line: it states no figure, or it holds enough of the question's key
    terms (:func:`meaning.match`'s coverage) — :data:`SENTENCE_MIN_FIT` for a question asking for a number or a
    text (a phone number, a date or a name is judged by its kind), and :data:`SENTENCE_FIT` of the line item's
    own words for a question asking for an amount a statement prints (:func:`asks_line_item`, and a statement it
    needs or "how much"), a name of the line item standing for its words. "The decrease in working capital …
    was primarily due to $27.8 billion net cash used for …" is no answer to how much was spent on capital
    expenditures, and the item's words must say what the figure is, not the cause it is given (:func:`_stated_for`);
    a "how many" question's counting sentence is judged by :func:`count_sentence`."""
    if not _real_figure(sentence):
        return True
    groups = concepts(question)
    want = asked(question, groups, org_terms(doc), doc)
    if answer_kind(question) in ("number", "text") and want.weights and match(sentence, "", want)[1] < SENTENCE_MIN_FIT:
        return False
    if not asks_line_item(question) or asks(question, "count"):
        return True
    if not statements_needed(question) and not re.search(r"\bhow much\b", question, re.IGNORECASE):
        return True  # not a statement's amount ("the percentage of people who go online")
    # the line item's own words, not the question's verbs ("spend", "pay"): the sentence must name the item
    item = {t: w for t, w in want.weights.items() if any(t in group_terms(g)[1] for g in groups)}
    if item:
        want = replace(want, weights=item)
    return not want.weights or match(_stated_for(sentence), "", want)[1] >= SENTENCE_FIT


def _stated_for(sentence: str) -> str:
    """What ``sentence`` says its first figure is: the sentence up to the first cause given after that figure ("Loss
    on extinguishment of debt was $2.4 billion … due to the early retirement of … debt to reduce interest expense":
    the interest expense is the cause's, not the figure's)."""
    first = next((m for m in _NUM.finditer(sentence) if not YEAR_RE.fullmatch(m.group(0).strip(".,"))), None)
    if first is None:  # "In fiscal 2022, driven by our remodels, capital expenditures were $1.9 billion": a year
        return sentence  # dates the figure, it is none
    low = sentence.lower()
    cuts = [m.start() for cause in lexicon()["causes"]
            if (m := re.compile(rf"\b{re.escape(cause)}\b").search(low, first.end()))]
    return sentence[:min(cuts)] if cuts else sentence


def says_nothing(line: str, question: str) -> bool:
    """``line`` is no direct answer: it only :func:`restates` the question, or it is a page footer, a
    numbered heading or a date alone (:func:`alphasearch.read.rows.not_line_item`)."""
    return restates(line, question) or not_line_item(line)


def restates(line: str, question: str) -> bool:
    """Every word of ``line`` (stopwords aside, stemmed) is one of the question's: a heading or table
    header repeating what is asked ("Error description" for "What are the error descriptions …?")
    answers nothing. Not so when the question offers alternatives (``asks`` "choice": "which of
    the two, A or B"): naming one of them is the answer."""
    own = set(terms(line))
    return bool(own) and own <= set(terms(question)) and not asks(question, "choice")


def wants_figure(question: str) -> bool:
    """The question names a line item of the lexicon (revenue, capital expenditure…) or a ratio."""
    return bool(concepts(question)) or ratio_named(question) is not None


def structure(doc: DocumentIndex, question: str, read: Sequence[int], passages: Sequence[tuple[int, str]],
              direct: Direct | None, df: Mapping[str, int], *, answered: bool | None = None) -> dict:
    """The answer's parts, each with its pages: ``direct`` (the one line, or None on a
    fallback or when no line adds anything to the question), ``key_points`` (the supporting
    sentences), ``not_said`` (what the question asks that the pages read do not contain: a year
    no column or sentence has, a term the document never uses), and ``looked_at`` (the pages
    read and the closest passages; on a fallback these are shown marked as not an answer).
    ``answered``: whether this is an answer, not a fallback (default: it has a direct line)."""
    answered = direct is not None if answered is None else answered
    from ..read.rows import YEAR_RE as YEAR

    texts = {p: doc.page(p).text for p in read if 1 <= p <= doc.page_count}
    together = " ".join(texts.values())
    not_said = []
    for year in dict.fromkeys(YEAR.findall(question)):
        if year not in together:
            not_said.append({"text": f"The pages read do not mention {year}.", "pages": list(texts)})
    missing = [w for w in dict.fromkeys(re.findall(r"[A-Za-z][A-Za-z&'-]{3,}", clean_question(question)))
               if terms(w) and all(not df.get(t, 0) for t in terms(w))]
    if missing:
        words = ", ".join(f"“{w}”" for w in missing[:6])
        not_said.append({"text": f"The document never uses the word{'s' if len(missing) > 1 else ''} {words}.",
                         "pages": []})
    key_points = [{"text": shorten(s, 400), "page": p, "section": section_of(doc.root, p).title}
                  for p, s in passages]
    out = {
        "direct": None if direct is None else {
            **direct.to_dict(), "pages": sorted({f.page for f in direct.figures}) or [key_points[0]["page"]]},
        "key_points": key_points if answered else [],
        "not_said": not_said,
        "looked_at": {"pages": list(texts), "passages": [] if answered else key_points,
                      "note": "" if answered else "Not an answer: the pages read and the passages "
                                                  "closest to the question."},
    }
    return out


def _table_context(sents: Sequence[str], i: int, lookback: int = 30) -> str:
    """For a table row ("Total revenue 5,854,430 4,795,511 4,147,065"), what its
    numbers mean: the years of the column header above it and the unit, as
    " (columns: 2016, 2015, 2014; in thousands)"; "" for anything else.

    The header is the nearest run of lines above the row that contain years
    (one line "… 2022 2021 2020", or one date per line); the unit is the
    nearest "in thousands/millions/billions" above the row."""
    row = sents[i]
    tokens = row.split()
    numbers = [t for t in tokens if _NUM.fullmatch(t.strip("$€£()%"))]
    if len(numbers) < 2 or len(numbers) < 0.3 * len(tokens) or YEAR_RE.search(row):
        return ""
    years: list[str] = []
    unit, in_run, done = "", False, False
    for line in reversed(sents[max(0, i - lookback):i]):
        found = YEAR_RE.findall(line)
        if not done:
            if found:
                years, in_run = found + years, True
            elif in_run:
                done = True
        if not unit and (m := _UNIT.search(line)):
            unit = "in" + m.group(0)[2:]
        if done and unit:
            break
    columns = list(dict.fromkeys(years))
    parts = []
    if len(columns) >= 2 and len(numbers) % len(columns) == 0:
        parts.append("columns: " + ", ".join(columns))
    if unit and parts:
        parts.append(unit)
    return f" ({'; '.join(parts)})" if parts else ""


def states_cause(sentence: str) -> bool:
    """The sentence gives a cause with one of the lexicon's ``causes`` ("due to", "driven by")."""
    from ..read.items import lexicon

    low = " " + " ".join(re.findall(r"[a-z0-9']+", sentence.lower())) + " "
    return any(f" {w} " in low for w in lexicon()["causes"])


LEAD_IN_WORDS = 10  # a line introducing the rows under it is short ("Earnings per common share––diluted:")


def _lead_in(line: str) -> bool:
    """``line`` only introduces what follows it: a short line ending in a colon that states no figure, in digits or in
    words ("We operate in four reportable segments:" states one)."""
    return line.rstrip().endswith(":") and len(line.split()) <= LEAD_IN_WORDS and not _states_number(line)


_COUNT_ASKED = re.compile(r"\bhow many\b|\bnumber of\b|\bpercent(?:age)?\b|%|\bshare of\b|\bproportion\b|\bdifference\b",
                          re.IGNORECASE)


def _states_number(line: str) -> bool:
    """``line`` states a number, in digits or in words ("four reportable segments")."""
    return bool(re.search(r"\d", line)) or any(w.strip(",;:.()").lower() in number_words() for w in line.split())


def _instruction(sentence: str) -> bool:
    """The sentence is addressed to the reader of a form: "please" anywhere, or it starts (or its
    clause after a comma does) with one of the lexicon's ``instructions`` ("List the …")."""
    from ..read.items import lexicon

    low = " ".join(re.findall(r"[a-z0-9']+", sentence.lower()))
    if re.search(r"\bplease\b", low):
        return True
    clauses = [" ".join(re.findall(r"[a-z0-9']+", c.lower())) for c in re.split(r"[,;:]", sentence)]
    return any(c.startswith(w) for c in clauses[:2] for w in lexicon()["instructions"] if w != "please")


def _lead(question: str, kind: str, candidates, best_score: float):
    """The candidate sentence that should lead the answer when the best-covering one does not
    hold what is asked: a telephone number for a phone question (the best scoring sentence
    that has one), the figure next to what a "how many" question counts (among sentences
    scoring at least half the best); None to keep the best."""
    if kind == "phone":  # a sentence naming a telephone first ("Tel: 01983 873655")
        phones = [c for c in candidates if _has_kind(c[4], "phone")]
        return max(phones, key=lambda c: (asks(c[4], "phone"), c[0]), default=None)
    things = counted(question) if kind == "number" else set()
    if things:
        flows = flows_unasked(question)
        return next((c for c in candidates if c[0] >= 0.5 * best_score and counts(c[4], things, flows)), None)
    return None


def answer_kind(question: str) -> str:
    q = question.lower()
    if asks(question, "phone"):
        return "phone"
    if re.search(r"\b(when|what year|which year|what date|which date|dates)\b", q):  # "the incident and report dates"
        return "date"
    if re.search(r"\b(who|whom|whose|which company|name of)\b", q):
        return "name"
    if wants_number(question) or re.search(r"\b(how (much|many|long|old)|number of|count of|percentage)\b", q):
        return "number"
    return "text"


# a sentence saying there is none ("did not declare any dividends", "no dividends were paid"), not one that only
# holds a "not" ("shall not be deemed filed or subject to the liabilities of …")
_ABSENCE = re.compile(r"\b(?:no|none|never|nil)\b|\b(?:did|does|do|has|have|had|is|are|was|were|been)\s+not\b|n['’]t\b",
                      re.IGNORECASE)


def _real_figure(sentence: str) -> bool:
    """A number of ``sentence`` outside web and e-mail addresses and page counters ("2/2"): the
    lexicon's ``not_figures``."""
    return bool(_NUM.search(not_figures().sub(" ", sentence)))


def _dated(kind: str, sentence: str) -> bool:
    """A sentence may answer a "when" question (``kind`` "date") only with a date or a time: one stating a
    figure and neither ("tweets had reached nearly 500,000") answers how many, not when."""
    return kind != "date" or not _real_figure(sentence) or _has_kind(sentence, "date")


def _only_spans(kind: str, question: str, sentence: str) -> bool:
    """For a question asking for a number other than a span of time, ``sentence``'s only figures are spans of time
    ("within the 12 months prior" for a count of warehouses): the lexicon's ``durations``."""
    asks_span = first_sentence_says(question, lexicon()["durations"]["asks"])
    if kind != "number" or not _real_figure(sentence) or asks_span:
        return False
    return not _real_figure(YEAR_RE.sub(" ", _spans().sub(" ", sentence)))


@lru_cache(maxsize=1)
def _spans() -> re.Pattern[str]:
    """A span of time printed: "12 months", "5-year", "3 full years" (the lexicon's ``durations`` units)."""
    unit = rf"(?:{'|'.join(map(re.escape, lexicon()['durations']['units']))})"
    return re.compile(rf"(?<![\d,.])\d[\d,.]*(?:\s|-)*(?:full\s+|fiscal\s+|calendar\s+)?{unit}\b", re.IGNORECASE)


def _has_kind(sentence: str, kind: str) -> bool:
    if kind == "phone":  # 8 digits or more, not a date
        return any(len(re.sub(r"\D", "", m.group(0))) >= 8 and not re.search(r"\d[.-]\d{1,2}[.-]\d", m.group(0))
                   for m in _PHONE.finditer(sentence))
    if kind == "number":
        return _real_figure(sentence)
    if kind == "date":
        return bool(YEAR_RE.search(sentence) or _MONTH.search(sentence) or _TIME.search(sentence))
    if kind == "name":
        return bool(_PROPER.search(sentence))
    return False
