"""The direct answer to a question that asks for a figure: the matching table row
and column of the pages read, stated in one line with its unit, period and page
("Total revenues, 2022: $66,608 million — p. 55").

A row matches the question by the line item it names, with the analysts'
synonyms of ``data/lexicon.json`` (revenue ~ net sales ~ total revenues); the
column is the year asked (the latest one when none is); the unit comes from the
table header. Where the question defines a simple computation — a change
between two years, a ratio the lexicon names (operating margin = operating
income / revenue), or "A / B", "A - B", "A divided by B" — and every figure is
found, the line shows the arithmetic, each figure with its page. A change asked of a
line item that no table gives is the percentage a sentence states for it ("worldwide
sales increased 1.3%"), rather than the item's level.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from . import domain, facts
from .models import DocumentIndex
from .prose import change_rows, prose_rows
from .tables import (CHANGE, Cell, TableRow, continued, parse_rows, period_asked, scale, without_period_words,
                     years_named)
from .text import terms

MIN_ROW_SCORE = 0.5  # below this no row answers the question
LATER_ITEM = 0.75  # a row naming only a line item the question names after the first one (a qualifier)
PROSE_WEIGHT = 0.9  # a figure a sentence states for a year ranks just below a table row matching as well
STRONG_ROW = 0.8  # a row matching this well (label and period) is taken from further down the ranking
_YEAR = re.compile(r"\b(?:FY\s?'?)?((?:19[89]|20[0-4])\d)\b", re.IGNORECASE)
_CHANGE = re.compile(r"\b(change[sd]?|growth|grow|grew|increase[sd]?|decrease[sd]?|decline[sd]?|cagr|"
                     r"year[- ]over[- ]year|yoy)\b", re.IGNORECASE)
_DEFINED = re.compile(r"(?:defined as|calculated as|computed as|is defined as|formula|\bdefine [^.?;:]{1,60}? as)"
                      r"\s*:?\s*(?P<expr>[^?.;]+)", re.IGNORECASE)
_UNIT_WORD = {"thousands": "thousand", "millions": "million", "billions": "billion"}


def phrase_use(doc: DocumentIndex) -> Callable[[str], int]:
    """``used(phrase)``: how many of ``doc``'s pages hold ``phrase`` (case and spacing aside)."""
    texts = _normed(tuple(p.text for p in doc.pages))

    def used(phrase: str) -> int:
        p = _norm(phrase)
        return sum(p in t for t in texts)

    return used


@lru_cache(maxsize=8)
def _normed(texts: tuple[str, ...]) -> tuple[str, ...]:  # the pages of the last few documents asked
    return tuple(_norm(t) for t in texts)


@lru_cache(maxsize=1)
def lexicon() -> dict:
    """The synonym lexicon (``data/lexicon.json``): groups, neutral words, named ratios."""
    return domain.load("lexicon")


@lru_cache(maxsize=1)
def _group_phrases() -> tuple[tuple[str, str], ...]:
    """(group, normalised phrase) of every line-item name of the lexicon, normalised once; a name of
    several words also in the singular ("return on asset", "total liability": questions write them so)."""
    out = []
    for group, phrases in lexicon()["groups"].items():
        for phrase in phrases:
            norm = _norm(phrase)
            out.append((group, norm))
            if len(norm.split()) > 1 and (one := _singulars(norm)) != norm:
                out.append((group, one))
    return tuple(dict.fromkeys(out))


def _singulars(norm: str) -> str:
    """A normalised text with each word in the singular."""
    return " " + " ".join(_singular(w) for w in norm.split()) + " "


def _says(text: str, name: str) -> bool:
    """``text`` names ``name`` (a lexicon name), case, spacing and a plural aside."""
    norm, want = _norm(text), _norm(name)
    return want in norm or _singulars(want) in _singulars(norm)


def _singular(word: str) -> str:
    """"liabilities" -> "liability", "assets" -> "asset"; "gross", "basis", "bonus" stay."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _norm(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9&'/()%]+", " ", text.lower().replace("’", "'")).split()) + " "


def concepts(text: str) -> list[str]:
    """Lexicon groups named in ``text``, in the order they first appear (longest phrase first
    where phrases overlap: "net sales" is revenue even though "sales" alone is too); none from the
    name of a statement or of a measure the lexicon lists as no line item ("days sales outstanding")."""
    norm = _norm(text)
    lex = lexicon()  # "the cash flow statement" is where to look, and the "cash conversion cycle" is no cash
    for name in (*lex.get("statements", ()), *lex.get("measures", ())):
        norm = norm.replace(_norm(name), " " * (len(_norm(name)) - 1) + " ")
    found: list[tuple[int, int, str]] = []
    for group, p in _group_phrases():
        at = norm.find(p)
        if at >= 0:
            found.append((at, -len(p), group))
    found.sort()
    taken: list[tuple[int, int]] = []
    out: list[str] = []
    for at, neg_len, group in found:
        end = at - neg_len
        if any(a < end and at < b for a, b in taken):
            continue
        taken.append((at, end))
        if group not in out:
            out.append(group)
    return out


def sub_queries(question: str, limit: int = 4, used: Callable[[str], int] | None = None) -> list[str]:
    """Query expansion for a figure question: other names of the line items it asks for (the
    lexicon's synonyms it does not use, and the operands of a ratio it names), each with the
    question's years, e.g. "purchases of property, plant and equipment 2018". ``used(phrase)``:
    how many pages of the document hold the phrase; the names the document uses most come
    first (a filing that says "net sales" is searched for "net sales", not "revenue")."""
    lex = lexicon()
    years = " ".join(years_named(question))
    norm = _norm(question)
    asked = set(terms(question))
    groups = concepts(question) + [g.removeprefix(_AVERAGE) for name, ops in lex["ratios"].items()
                                   if _says(question, name) for g in ops]

    def new(phrase: str) -> bool:  # a name the question does not already use (in any inflection)
        return _norm(phrase) not in norm and len(phrase) > 4 and not set(terms(phrase)) <= asked

    out: list[str] = []
    seen: set[frozenset[str]] = set()

    def add(phrase: str) -> None:  # once per wording ("capital expenditure" ~ "capital expenditures")
        key = frozenset(terms(phrase))
        if key not in seen:
            seen.add(key)
            out.append(f"{phrase} {years}".strip())

    def names(group: str) -> list[str]:  # the group's new names, those the document uses most first
        phrases = [p for p in lex["groups"][group] if new(p)]
        return sorted(phrases, key=lambda p: -used(p)) if used else phrases

    for group in dict.fromkeys(groups):  # one other name per line item first
        phrase = next(iter(names(group)), None)
        if phrase:
            add(phrase)
    for group in dict.fromkeys(groups):  # then further names, while there is room
        for phrase in names(group):
            add(phrase)
    return out[:limit]


@lru_cache(maxsize=1)
def _neutral() -> frozenset[str]:
    return frozenset(t for w in lexicon()["neutral"] for t in terms(w))


@lru_cache(maxsize=4096)
def _names_another_item(norm: str, groups: tuple[str, ...]) -> bool:
    """The longest lexicon phrase in the (normalised) label belongs to a line item not in ``groups``."""
    asked = other = 0
    for group, p in _group_phrases():
        if len(p) > max(asked, other) and p in norm:
            if group in groups:
                asked = len(p)
            else:
                other = len(p)
    return other > asked


def row_score(label: str, groups: Sequence[str], question_terms: set[str]) -> float:
    """How well a row label names what is asked, in [0, 1]: the share of a synonym's words the
    label holds (1 when it holds the whole phrase) times the share of the label's own words that
    belong to the question or the synonyms (so "Cost of sales" is a poor "sales"); each further
    line item the question names counts LATER_ITEM times the one before. Without a line item of the
    lexicon: the share of the label's words (a remark in brackets aside) in the question, times how
    many of the question's words it holds (two suffice). A label whose longest phrase of the
    lexicon belongs to a line item not asked for scores 0."""
    lab = set(terms(label)) - _neutral()
    if not lab:
        return 0.0
    norm = _norm(label)
    if groups and _names_another_item(norm, tuple(groups)):
        return 0.0  # "Cost of sales" is not "sales", "Deferred revenue" not "revenue"
    best = 0.0
    for rank, group in enumerate(groups):  # the line item named first is the one asked for
        phrases, words = _group_terms(group)
        precision = len(lab & (question_terms | words)) / len(lab)
        for phrase, want in phrases:
            if phrase in norm:
                recall = 1.0
            else:
                recall = len(want & lab) / len(want) * 0.8 if want else 0.0
            best = max(best, recall * precision * LATER_ITEM ** rank)
    if not groups:
        asked = question_terms - _neutral()
        own = set(terms(_ASIDE.sub(" ", label))) - _neutral() or lab  # "PaLM-2L + Step-Back (ours)": not "ours"
        if asked:
            hit = len(own & asked)
            best = (hit / len(own)) * min(1.0, hit / min(2, len(asked)))
    return best


@lru_cache(maxsize=None)
def _group_terms(group: str) -> tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]:
    """A lexicon group's phrases, each normalised with the terms a label must hold (the neutral
    words aside, unless that leaves none), and the terms of all its phrases."""
    phrases = lexicon()["groups"][group]
    return (tuple((_norm(p), frozenset(set(terms(p)) - _neutral() or terms(p))) for p in phrases),
            frozenset(t for p in phrases for t in terms(p)))


_ASIDE = re.compile(r"\([^()]*\)")


@dataclass(frozen=True)
class Figure:
    """One figure read from a table: ``value`` in the table's unit (``unit``), ``period`` the
    column header ("2022", "" when unknown), ``page`` 1-based."""

    label: str
    period: str
    cell: Cell
    unit: str
    currency: str
    page: int
    row: str  # the row as printed (the citation's snippet)
    score: float

    @property
    def value(self) -> float:
        return float(self.cell.value or 0.0)

    def amount(self) -> str:
        """"$66,608 million", "-$1,577 million", "12.5%"."""
        if self.cell.percent:
            return f"{self.value:g}%"
        number = self.cell.text.strip("()$€£-−% ")
        sign = "-" if self.value < 0 else ""
        unit = f" {_UNIT_WORD[self.unit]}" if self.unit in _UNIT_WORD else ""
        return f"{sign}{self.currency}{number}{unit}"

    def line(self) -> str:
        period = f", {self.period}" if self.period else ""
        printed = f" (printed {self.cell.text})" if "(" in self.cell.text else ""
        return f"{self.label}{period}: {self.amount()}{printed} — p. {self.page}"


@dataclass(frozen=True)
class Direct:
    """The direct answer line and the figures it rests on (empty for a sentence answer).
    ``kind``: "figure", "change", "ratio", "comparison" (:mod:`alphasearch.compare`) or "sentence";
    ``score`` in [0, 1]: how well the
    rows matched the question (the weakest figure's row score)."""

    text: str
    figures: tuple[Figure, ...] = ()
    kind: str = "figure"
    score: float = 0.0

    def to_dict(self) -> dict:
        return {"text": self.text, "kind": self.kind, "score": round(self.score, 4),
                "figures": [{"label": f.label, "period": f.period, "value": f.value, "printed": f.cell.text,
                             "unit": f.unit, "currency": f.currency, "page": f.page} for f in self.figures]}


def _rows(doc: DocumentIndex, pages: Sequence[int]) -> list[tuple[int, int, TableRow]]:
    """The rows of ``pages`` (rank, page, row); a table continued from the page before keeps its columns
    (:func:`tables.continued`)."""
    out = []
    for rank, page in enumerate(pages):
        if 1 <= page <= doc.page_count:
            rows = list(page_rows(doc.page(page).text))
            if page > 1 and rows and not rows[0].columns:
                rows = continued(rows, list(page_rows(doc.page(page - 1).text)))
            out.extend((rank, page, r) for r in rows)
    return out


def org_terms(doc: DocumentIndex) -> frozenset[str]:
    """The terms of the organisation a document is by (:func:`facts.extract`: "Best Buy Co., Inc." →
    best, buy; none when it names none), read once per document."""
    got = _ORG.get(doc.doc_id)
    if got is None:
        org = facts.extract(doc).org
        got = frozenset(terms(" ".join(facts.org_words(org)))) if org else frozenset()
        if len(_ORG) >= 64:
            _ORG.clear()
        _ORG[doc.doc_id] = got
    return got


_ORG: dict[str, frozenset[str]] = {}


@lru_cache(maxsize=256)
def page_rows(text: str) -> tuple[TableRow, ...]:
    """The table rows and the rows sentences state of a page's text (read once for the lookups,
    computations and changes of one question, and for the next questions of the same pages)."""
    return tuple(parse_rows(text) + prose_rows(text))


@lru_cache(maxsize=1)
def _not_items() -> tuple[re.Pattern, ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in lexicon().get("not_line_items", ()))


def not_line_item(line: str) -> bool:
    """The printed line is no table row whatever numbers it holds: a page footer ("Page 5 of 15"),
    a numbered heading ("Example 1"), a date ("21st July, 2006"), by the lexicon's ``not_line_items``."""
    line = " ".join(line.split())
    return any(p.search(line) for p in _not_items())


def period_fit(kind: str, asked: str) -> float:
    """How well a column of period ``kind`` ("quarter", "year", "" unknown) answers a question
    asking for ``asked`` ("" when it names no period: a full year is then the natural reading); 0 when
    both are known and differ (a quarter's figure is no answer for the full year asked, nor the reverse)."""
    if asked:
        return 1.0 if kind == asked else 0.9 if not kind else 0.0
    return 1.0 if kind in ("", "year") else 0.85


def _pick(rows, groups: Sequence[str], q_terms: set[str], years: Sequence[str],
          rank_penalty: float = 0.05, period: str = "", strict: bool = False,
          org: frozenset[str] = frozenset()) -> list[tuple[float, Figure]]:
    """Candidate figures best first: (score, figure) for each row with a value in a wanted column
    (the year asked, of the kind of period asked: a full year unless a quarter… is named). ``strict``:
    only figures that can be stated as the answer: no line that is not a line item
    (:func:`not_line_item`), no cell printing a number the question itself states. ``org``: the
    terms of the document's organisation; without a line item of the lexicon, a row whose label
    shares only those with the question ("Best Buy Co., Inc." for "… acquisitions that Best Buy
    has done") does not match."""
    out = []
    for rank, page, row in rows:
        if strict and not_line_item(row.text):  # "Page 5 of 15", "Example 1", "21st July, 2006"
            continue
        named = row.caption or row.label  # a row headed by a year names what its table lists
        if org and not groups and set(terms(named)) & q_terms <= org:
            continue
        s = row_score(without_period_words(named) if row.prose else named, groups, q_terms)
        s *= PROSE_WEIGHT if row.prose else 1.0  # "quarterly cash dividend": the period is the column's, not the item
        if s < MIN_ROW_SCORE:
            continue
        heads = zip(row.columns or ("",) * len(row.cells), row.kinds or ("",) * len(row.cells), row.cells)
        # a number the question itself prints ("… in 2006?") is a key of the row, not what it answers
        cells = [(col, fit, c) for col, kind, c in heads if c.value is not None
                 and not (strict and c.text.strip("()$€£-−%+ ") in q_terms) and (fit := period_fit(kind, period))]
        if not cells:
            continue
        if row.columns and not any(_YEAR.fullmatch(col) or col == CHANGE for col, _, _ in cells):
            # columns named by words ("MMLU Physics"): the one sharing most words with the question
            overlap = [len(set(terms(col)) & q_terms) for col, _, _ in cells]
            col, fit, cell = cells[max(range(len(cells)), key=lambda k: (overlap[k], -k))]
            s *= 1.0 if max(overlap) else 0.8
        elif years and row.columns:
            chosen = [(col, fit, c) for col, fit, c in cells if col in years]
            if not chosen:
                continue
            col, fit, cell = max(chosen, key=lambda cc: cc[1])  # the first of the best fitting kind
        elif years:
            (col, fit, cell), col = cells[0], ""
            s *= 0.8  # the column cannot be checked against the year asked
        elif row.columns and any(col.isdigit() for col, _, _ in cells):
            col, fit, cell = max(((col, fit, c) for col, fit, c in cells if col.isdigit()), key=lambda cc: (cc[1], cc[0]))
        else:
            col, fit, cell = cells[0]
        s *= fit
        unit = "" if any(_norm(u) in _norm(row.label) for u in lexicon()["unitless"]) else row.unit
        held = 0 if groups else len(set(terms(named)) & q_terms)  # ties: the label holding more of the question
        out.append((s - rank_penalty * rank, held, Figure(named, col, cell, unit, row.currency, page, row.text, s)))
    out.sort(key=lambda sf: (-sf[0], -sf[1]))
    return [(score, fig) for score, _, fig in out]


def _fmt(x: float, decimals: int = 2) -> str:
    return f"{x:,.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{x:,.0f}"


def figure_answer(doc: DocumentIndex, question: str, pages: Sequence[int], *, read: int = 3,
                  further: Sequence[int] = ()) -> Direct | None:
    """The direct answer for a figure question, or None when no table row of the first
    ``read`` pages (``read`` + 2 for computations, whose figures may sit on different
    statements) matches well enough. When none of them matches well (a row of another line
    item, or a quarter's column for a year asked), the ``further`` pages (the next ones of the
    ranking) are read too, and a row there that matches a line item of the lexicon well answers
    instead (a row matching only the question's own words, e.g. the company's name, does not).
    A row or cell that is no figure to state is passed over (``strict`` in :func:`_pick`): a page
    footer, a date, a number the question itself prints. The confidence's figure parts read the
    same answer, so it is looked up once."""
    question = " ".join(question.split())  # a run of spaces made the margin pattern backtrack (15 s for 2,000)
    years = years_named(question)  # "FY22" asks for 2022
    q_terms = set(terms(question))
    computed = _computation(doc, question, pages[:read + 2], years, q_terms)
    if computed is not None and not (computed.kind == "change" and computed.score < STRONG_ROW):
        return computed
    groups = concepts(question)
    if groups and _CHANGE.search(question) and "cagr" not in question.lower():
        # a change of a line item asked: the one a sentence states (a row matching only the question's own
        # words, "Against a forecast GDP", is too loose a reading of a sentence), unless a table's row
        # names the item better ("Total Pharmaceutical Sales" is a poorer "sales" than "worldwide sales")
        stated = _stated_change(doc, pages[:read], groups, q_terms, years, period_asked(question))
        if stated is not None and (computed is None or stated.score > computed.score):
            return stated
    if computed is not None:
        return computed
    rows = _rows(doc, pages[:read])
    wanted = years[-1:] if len(years) == 1 else years
    found = _pick(rows, groups, q_terms, wanted, period=period_asked(question), strict=True, org=org_terms(doc))
    if further and groups and (not found or found[0][1].score < STRONG_ROW):
        more = [f for _, f in _pick(_rows(doc, [p for p in further if p not in pages[:read]]), groups, q_terms,
                                    wanted, period=period_asked(question), strict=True)]
        if more and more[0].score >= STRONG_ROW:
            found = [(more[0].score, more[0])]
    if not found:
        return None
    score, fig = found[0]
    return Direct(fig.line(), (fig,), "figure", fig.score)


def asks_line_item(question: str) -> bool:
    """The question asks for one line item's figure as printed (a row of a table answers it): it
    names a line item of the lexicon and asks for no computation (a ratio, a defined formula,
    "A / B") and no change between periods."""
    return bool(concepts(question)) and not _operands(question)[0] and not _CHANGE.search(question)


def _stated_change(doc, pages, groups, q_terms, years, period) -> Direct | None:
    """The change a sentence of ``pages`` states for the line item asked, as a percentage ("worldwide
    sales increased 1.3%"), in the later year asked; None when no sentence names the item well."""
    rows = [(rank, page, r) for rank, page in enumerate(pages) if 1 <= page <= doc.page_count
            for r in change_rows(doc.page(page).text)]
    found = _pick(rows, groups, q_terms, sorted(years)[-1:], period=period, strict=True)
    if not found:
        return None
    # ties: the clause naming more of the question's own words ("adjusted EPS" before "diluted EPS")
    fig = max(found, key=lambda sf: (round(sf[0], 6), len(set(terms(sf[1].label)) & q_terms)))[1]
    fig = replace(fig, period=f"{fig.period} change" if fig.period else "change")
    return Direct(fig.line(), (fig,), "change", fig.score)


def _computation(doc, question, pages, years, q_terms) -> Direct | None:
    rows = None
    low = question.lower()
    # 1. a change between two years of one line item (one year named: from the year before; a
    # "% Change" column printed beside it first)
    if len(years) == 1 and _CHANGE.search(question) and "cagr" not in low:
        rows = _rows(doc, pages)
        printed = _printed_change(rows, concepts(question), q_terms, years[0], period_asked(question),
                                  bool(re.search(r"%|percent|rate|growth|grow|grew", low)))
        if printed is not None:
            return printed
        years = [str(int(years[0]) - 1), years[0]]
    if len(years) >= 2 and _CHANGE.search(question):
        rows = _rows(doc, pages)
        groups = concepts(question)
        a, b = sorted(years[:2])
        period = period_asked(question)  # "the fourth quarter of 2023 compared with 2022": the quarters' columns
        first = [f for _, f in _pick(rows, groups, q_terms, [a], period=period) if f.period == a]
        second = [f for _, f in _pick(rows, groups, q_terms, [b], period=period) if f.period == b]
        pairs = [(f_a, f_b) for f_b in second for f_a in first if f_a.page == f_b.page and f_a.row == f_b.row]
        # a year printed in another table (a balance sheet shows two years): the same line item, read as well
        pairs += [(f_a, f_b) for f_b in second[:1] for f_a in first[:1] if min(f_a.score, f_b.score) >= STRONG_ROW
                  and _norm(f_a.label) == _norm(f_b.label) and f_a.unit == f_b.unit]
        for f_a, f_b in pairs:
            if not f_a.value:
                continue
            diff = f_b.value - f_a.value
            n_years = int(b) - int(a)
            ratio = f_b.value / f_a.value
            if ("cagr" in low or "compound" in low) and ratio > 0 and n_years > 0:  # else no compound rate exists
                rate = (ratio ** (1 / n_years) - 1) * 100
                what = f"CAGR {a}–{b}: ({_fmt(f_b.value)} / {_fmt(f_a.value)})^(1/{n_years}) - 1 = {rate:.1f}%"
            else:
                pct = diff / abs(f_a.value) * 100
                what = (f"change {a}→{b}: {_fmt(f_b.value)} - {_operand(f_a.value)} = {_fmt(diff)}"
                        f" ({pct:+.1f}%)")
            pages_cited = f"p. {f_b.page}" if f_a.page == f_b.page else f"pp. {f_a.page}, {f_b.page}"
            text = f"{f_b.label}: {what} — {a}: {f_a.amount()}, {b}: {f_b.amount()} ({pages_cited})"
            return Direct(text, (f_a, f_b), "change", min(f_a.score, f_b.score))
    # 2. a ratio the question defines, one the lexicon names, or "A to B ratio"
    operands, percent, name = _operands(question)
    if len(operands) < 2:
        return None
    rows = rows if rows is not None else _rows(doc, pages)
    if name and any(_norm(name) in _norm(r.label) for _, _, r in rows):
        return None  # the ratio is printed: the figure lookup reads its row
    span = _YEARS_AVERAGE.search(question)
    if span and len(years) >= 2:  # "the FY2019 - FY2021 3 year average operating margin": one ratio per year
        a, b = min(map(int, years)), max(map(int, years))
        each = [_ratio(rows, operands, str(y), low, percent) for y in range(a, b + 1)]
        if any(e is None for e in each) or not 2 <= len(each) <= 10:
            return None
        mean = sum(e[0] for e in each) / len(each)
        figures = tuple(f for e in each for f in e[1])
        text = (f"average {a}–{b} of " + ", ".join(f"{y}: {e[2]} = {_shown(e[0], percent, e[1], operands)}"
                                               for y, e in zip(range(a, b + 1), each))
                + f" → {_shown(mean, percent, figures, operands, decimals_asked(question))} — {_cites(figures)}")
        return Direct(text, figures, "ratio", min(f.score for f in figures))
    year = sorted(years)[-1] if years else ""
    got = _ratio(rows, operands, year, low, percent, between=len(years) >= 2)
    if got is None:
        return None
    value, figures, shown = got
    text = f"{shown} = {_shown(value, percent, figures, operands, decimals_asked(question))} — {_cites(figures)}"
    return Direct(text, figures, "ratio", min(f.score for f in figures))


def _printed_change(rows, groups, q_terms, year: str, period: str, percent: bool) -> Direct | None:
    """The change a table prints for ``year`` (the "% Change" or "$ Change" column after the year's
    column, in the same kind of period), from the best matching row; None when none is printed."""
    best = None
    for score, fig in _pick(rows, groups, q_terms, [year], period=period):
        row = next(r for _, p, r in rows if p == fig.page and r.text == fig.row and (r.caption or r.label) == fig.label)
        at = next((k for k, (c, cell) in enumerate(zip(row.columns, row.cells)) if c == year and cell is fig.cell), None)
        if at is None:
            continue
        kind = row.kinds[at] if row.kinds else ""
        after = [(k, row.cells[k]) for k in range(at + 1, len(row.cells)) if row.columns[k] == CHANGE
                 and (not row.kinds or row.kinds[k] == kind) and row.cells[k].value is not None]
        if not after:
            continue
        k, cell = next(((k, c) for k, c in after if c.percent), after[0]) if percent else after[0]
        pair = _compared(row.columns, k)
        if pair and pair[1] != year:  # "2022 2021 % Change": the change is 2022's, not 2021's
            continue
        prev = pair[0] if pair else str(int(year) - 1)
        got = replace(fig, period=f"{prev}→{year} change", cell=cell)
        if best is None or score > best[0]:
            best = (score, got)
        break
    if best is None:
        return None
    return Direct(best[1].line(), (best[1],), "change", best[1].score)


def _compared(columns: Sequence[str], k: int) -> tuple[str, str] | None:
    """(earlier, later) year the change column ``k`` compares: the two year columns before it since
    the last change column ("2022 2021 % Change"), else the one before and the one after it
    ("2022 % Change 2021 % Change 2020"); None when fewer than two years are beside it."""
    start = max((j + 1 for j in range(k) if columns[j] == CHANGE), default=0)
    years = [c for c in columns[start:k] if c.isdigit()][-2:]
    if len(years) < 2:
        years += [c for c in columns[k + 1:] if c.isdigit()][:1]
    return (min(years), max(years)) if len(years) == 2 and years[0] != years[1] else None


_YEARS_AVERAGE = re.compile(r"\b(?:\d{1,2}|two|three|four|five)[- ]year average\b", re.IGNORECASE)
_TO_RATIO = (re.compile(r"\bratio of (?P<a>.+?) to (?P<b>.+?)(?:$|[?,;.]| for | in | of | at )", re.IGNORECASE),
             re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?) to (?P<b>[\w&'’,. -]{1,80}?) ratio\b", re.IGNORECASE),
             re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?) as an? (?:%|percent|percentage|share) of (?P<b>[\w&'’,. -]+)",
                        re.IGNORECASE))
_MARGIN = re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?)\s*(?:%|percent|percentage)?\s*margins?\b", re.IGNORECASE)
_AVERAGE = "average "


def _operands(question: str) -> tuple[list[tuple[str, list[str]]], bool | str, str]:
    """The figures a question asks to combine (a definition in the question, a ratio the lexicon
    names, "X % margin" = X / revenue, "A to B ratio"): [(operator before, [lexicon group])], whether the
    result is a percentage (True: the question or the ratio's name, a margin, says so; "name": a
    rate, shown both ways), and the lexicon's name of the ratio ("" when the question defines it
    or says "A to B ratio"). A group written "average X" in the lexicon is X averaged over the
    year asked and the one before."""
    lex = lexicon()
    low = question.lower()
    percent = bool(re.search(r"\b(percent|percentage|in %|as a %)", low))
    m = _DEFINED.search(question)
    if m:
        operands = _expression(m.group("expr"))
        if len(operands) >= 2:
            term = _defined_term(question, m)
            asked = _expression(question[:m.start()].split("?")[0], {term: operands} if term else {})
            if len(asked) > len(operands):
                return asked, percent, ""  # "EBITDA less capex", EBITDA defined as a sum: its terms, then "- capex"
            return operands, percent, ""
    formulas = {name: _expression(text) for name, text in lex.get("formulas", {}).items()}
    asked = _expression(question.split("?")[0], {n: ops for n, ops in formulas.items() if ops and n not in lex["groups"]})
    if asked:  # "EBITDA less capex", "free cash flow minus dividends"
        return asked, percent, ""
    for name in sorted(lex["ratios"], key=len, reverse=True):  # "return on average equity" before "return on equity"
        if _says(question, name):
            num, den = lex["ratios"][name]
            rate = "rate" in name or name in lex.get("rates", ())  # shown both ways: "0.05 (5.1%)"
            return [("", [num]), ("/", [den])], percent or "margin" in name or ("name" if rate else False), name
    for name in sorted(formulas, key=len, reverse=True):  # "free cash flow" = operating cash flow - capex
        if formulas[name] and name not in lex["groups"] and _norm(name) in _norm(question):  # (a group's own rows first)
            return formulas[name], percent, name
    for m in _MARGIN.finditer(question):  # "operating income % margin": a line item over revenue
        a = [g for g in concepts(m.group("a")) if g != "revenue"]
        if a:
            return [("", [a[-1]]), ("/", ["revenue"])], True, ""
    for pattern in _TO_RATIO:
        for m in pattern.finditer(question):
            a, b = concepts(m.group("a")), concepts(m.group("b"))
            if a and b:
                return [("", [a[-1]]), ("/", [b[0]])], percent or "%" in m.group(0) or "percent" in m.group(0), ""
    return [], percent, ""


@lru_cache(maxsize=1)
def _operators() -> tuple[re.Pattern[str], dict[str, str]]:
    """The lexicon's ``operators``: a pattern splitting "A divided by B - C" at its operators (a word
    or sign between spaces), and each operator's operation ("divided by" -> "/")."""
    ops = {w.lower(): op for op, words in lexicon()["operators"].items() for w in words}
    return re.compile(rf"\s({domain.alternation(ops)})\s", re.IGNORECASE), ops
MAX_OPERANDS = 6  # a question writing out more terms than this is not read as one computation


def _expression(text: str, defined: dict[str, list] | None = None) -> list[tuple[str, list[str]]]:
    """The operands of "A + B - C" (operators as words or signs) as [(operator before, [lexicon group])];
    empty unless every part names a line item. A part naming a ``defined`` term (the question's own
    definition, first operand only: the terms are read left to right) stands for its operands."""
    split, ops = _operators()
    parts = split.split(text)
    if not 3 <= len(parts) <= 2 * MAX_OPERANDS - 1:  # a name alone ("working capital ratio") is none
        return []
    operands: list[tuple[str, list[str]]] = []
    op = ""
    for k, part in enumerate(parts):
        if k % 2:
            op = ops.get(part.lower(), part)
            continue
        part = part.strip().strip("()[]")  # "(cash from operations - capex)"
        term = next((t for t in defined or {} if _norm(t) in _norm(part)), None)
        if term is not None and k == 0:
            operands.extend(defined[term])
            continue
        g = concepts(part)
        if not g:
            return []
        average = bool(re.search(r"\baverage\b", part, re.IGNORECASE))
        operands.append((op, [(_AVERAGE if average else "") + g[0]]))
    return operands if len(operands) >= 2 else []


_TERM_BEFORE = re.compile(r"(?P<term>[\w&'’ -]{2,60}?)\s*,?\s*(?:is |are |being )?(?:defined|calculated|computed) as\s*:?\s*$",
                          re.IGNORECASE)


def _defined_term(question: str, m: re.Match) -> str:
    """The name a question defines ("Define unadjusted EBITDA as …" → "unadjusted EBITDA";
    "… where EBITDA is defined as …" → "EBITDA"), "" when none can be read."""
    head = question[m.start():m.start("expr")]
    d = re.match(r"\s*define (?P<term>.+?) as\b", head, re.IGNORECASE)
    if d:
        return d.group("term").strip()
    b = _TERM_BEFORE.search(question[max(0, m.start() - 60):m.start("expr")].split(".")[-1])
    if not b:
        return ""
    words = b.group("term").split()
    return " ".join(w for w in words[-3:] if w.lower() not in ("where", "and", "with", "the", "is"))


def _ratio(rows, operands, year: str, low: str, percent: bool, between: bool = False):
    """(value, figures, arithmetic shown) of ``operands`` in the ``year`` column, or None when a
    figure is missing. An operand of an "average X" group, or the divisor of a question asking
    for an average between two years (``between``), is averaged with the year before."""
    figures: list[Figure] = []
    values: list[float] = []
    shown: list[str] = []
    base = ""  # the unit of the first figure: the others are scaled to it
    wanted = [year] if year else []
    period = period_asked(low)  # a quarter's ratio from the quarter's columns
    for k, (op, groups) in enumerate(operands):
        group = groups[0]
        average = group.startswith(_AVERAGE)
        group = group[len(_AVERAGE):] if average else group
        average = average or (between and "average" in low and op == "/" and k == len(operands) - 1)
        best = _pick(rows, [group], set(), wanted, period=period)
        formula = _expression(lexicon().get("formulas", {}).get(group, ""))
        if not best and formula and not average and formula != operands:  # EBITDA printed nowhere: OI + D&A
            sub = _ratio(rows, formula, year, low, percent)
            if sub is None:
                return None
            base = base if figures else sub[1][0].unit
            figures.extend(sub[1])
            to_base = _rescale(sub[1][0].unit, base) if all(o in ("-", "+") for o, _ in formula[1:]) else 1.0
            values.append(sub[0] * to_base)
            sub_text = sub[2] if to_base == 1.0 else _fmt(sub[0] * to_base)
            shown.append((f" {op} " if op else "") + (f"({sub_text})" if len(operands) > 1 else sub_text))
            continue
        if not best:
            return None
        fig = best[0][1]
        base = base if figures else fig.unit
        to_base = _rescale(fig.unit, base)  # "$1.2 billion" beside a statement in millions: 1,200
        signed = group in lexicon()["signed"]  # a loss stays a loss; an outflow counts as spent
        sign = (lambda v: v * to_base) if signed else (lambda v: abs(v) * to_base)
        value = sign(fig.value)
        text = _fmt(value)
        if average:
            prev = str(int(fig.period or year) - 1) if (fig.period or year).isdigit() else ""
            other = next((f for _, f in _pick(rows, [group], set(), [prev], period=period) if f.row == fig.row), None)
            if other is not None:
                value = (sign(fig.value) + sign(other.value)) / 2
                text = f"avg({_fmt(sign(other.value))}, {_fmt(sign(fig.value))})"
                figures.append(other)
        figures.append(fig)
        values.append(value)
        if op == "/" and any(o in ("-", "+") for o, _ in operands[1:k]):  # read left to right: "(a - b) / c"
            shown = ["(" + "".join(shown) + ")"]
        shown.append((f" {op} " + (f"({text})" if value < 0 else text)) if op else text)  # "-300 - (-500)"
    result = values[0]
    for (op, _), v in zip(operands[1:], values[1:]):
        if op == "/":
            if v == 0:
                return None
            result /= v
        elif op == "-":
            result -= v
        elif op == "+":
            result += v
        else:
            return None
    return result, tuple(figures), "".join(shown)


def _operand(x: float) -> str:
    """A figure written after an operator: a negative one in brackets ("- (-500)")."""
    return f"({_fmt(x)})" if x < 0 else _fmt(x)


def _rescale(unit: str, base: str) -> float:
    """The factor that turns an amount in ``unit`` into ``base`` ("billions" into "millions": 1000);
    1 when either is unknown."""
    return scale(unit) / scale(base) if unit and base else 1.0


def _shown(result: float, percent: bool | str, figures, operands, decimals: int | None = None) -> str:
    """The result as the question asks for it: an amount in the figures' unit for sums and
    differences; a percentage when the question asks for one (``percent`` True; one decimal
    unless ``decimals``; a margin always); a ratio that is a rate by its name ("effective tax
    rate", ``percent`` "name") as both "0.202 (20.2%)"; else a number (two decimals unless ``decimals``)."""
    if all(op in ("-", "+") for op, _ in operands[1:]):
        unit = figures[0].unit
        sign = "-" if result < 0 else ""  # "-$1,561 million", not "$-1,561 million"
        return f"{sign}{figures[0].currency}{_fmt(abs(result))}" + (f" {_UNIT_WORD[unit]}" if unit in _UNIT_WORD else "")
    if percent is True:
        return f"{result * 100:.{1 if decimals is None else decimals}f}%"
    plain = f"{result:,.{2 if decimals is None else decimals}f}"
    return f"{plain} ({result * 100:.1f}%)" if percent == "name" else plain


_DECIMALS = re.compile(r"\b(one|two|three|four|[1-4]) decimals?\b", re.IGNORECASE)


def decimals_asked(question: str) -> int | None:
    """The rounding a question asks for ("round to three decimal places" → 3), None when none."""
    m = _DECIMALS.search(question)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else ("one", "two", "three", "four").index(word) + 1


def _cites(figures) -> str:
    return "; ".join(dict.fromkeys(f"{f.label}{', ' + f.period if f.period else ''}: {f.amount()} (p. {f.page})"
                                   for f in figures))
