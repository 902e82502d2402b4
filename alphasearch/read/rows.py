"""The table row and column that state a figure asked: rows of the pages read (table-of-contents and
other non-items left out), the column of the year and kind of period asked, a printed change; a
:class:`Figure` with its unit, period and page, and the :class:`Direct` line built from it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ..index import facts
from ..lang.text import terms
from ..models import DocumentIndex
from .contents import contents_page
from .items import norm_text, lexicon, owners_clause, row_score, whole_terms
from .meaning import Asked, match, named_with_heading, row_context
from .prose import prose_rows
from .tables import CHANGE, Cell, TableRow, continued, parse_rows, without_period_words

_ORG: dict[str, frozenset[str]] = {}
_LABELS: dict[str, frozenset[str]] = {}

# "Diluted Net Income Per Share1": a note's mark after a word in lower case; "CET1", "HER2" and "Tier 1" are names
_FOOTNOTE_MARK = re.compile(r"\b([A-Za-z]*[a-z]{2})\d(?=\s*$|\s*\()")
_CONNECTIVES = frozenset({"and", "of", "the", "for", "de"})  # no letter of a name's initials ("Bank of America")
UNDATED_TABLE = 0.5  # a row of a table whose columns are words, for a question naming a year not printed near it
NEAR_LINES = 20  # the lines above a row where its table's caption and header may name the year
TOTAL = "total"  # the term by which a statement names the whole of a line item
MIN_ROW_SCORE = 0.5  # below this no row answers the question
OTHER_ENTITY = 0.5  # a row of another entity's statements (the parent company alone) weighs this much
PROSE_WEIGHT = 0.9  # a figure a sentence states for a year ranks just below a table row matching as well
STRONG_ROW = 0.8  # a row matching this well (label and period) is taken from further down the ranking
YEAR_RE = re.compile(r"\b(?:FY\s?'?)?((?:19[89]|20[0-4])\d)\b", re.IGNORECASE)
CHANGE_WORDS = re.compile(r"\b(change[sd]?|growth|grow|grew|increase[sd]?|decrease[sd]?|decline[sd]?|cagr|"
                     r"year[- ]over[- ]year|yoy)\b", re.IGNORECASE)
DEFINED = re.compile(r"(?:defined as|calculated as|computed as|is defined as|formula|\bdefine [^.?;:]{1,60}? as)"
                      r"\s*:?\s*(?P<expr>[^?.;]+)", re.IGNORECASE)
UNIT_WORD = {"thousands": "thousand", "millions": "million", "billions": "billion"}


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
    fit: float = 1.0  # how well the row's label and context mean what is asked (meaning.match; 1: not measured)
    heading: str = ""  # the heading that names the item with the label ("Earnings per share––diluted"), shown with it
    per_share: bool = False  # the label, or the heading it sits under as a part, says the figure is per share

    @property
    def value(self) -> float:
        return float(self.cell.value or 0.0)

    def amount(self) -> str:
        """"$66,608 million", "-$1,577 million", "12.5%"."""
        if self.cell.percent:
            return f"{self.value:g}%"
        number = self.cell.text.strip("()$€£-−% ")
        sign = "-" if self.value < 0 else ""
        unit = f" {UNIT_WORD[self.unit]}" if self.unit in UNIT_WORD else ""
        return f"{sign}{self.currency}{number}{unit}"

    def line(self) -> str:
        period = f", {self.period}" if self.period else ""
        printed = f" (printed {self.cell.text})" if "(" in self.cell.text else ""
        under = f" ({self.heading})" if self.heading else ""
        return f"{self.label}{under}{period}: {self.amount()}{printed} — p. {self.page}"


@dataclass(frozen=True)
class Direct:
    """The direct answer line and the figures it rests on (empty for a sentence answer).
    ``kind``: "figure", "change", "ratio", "comparison" (:mod:`alphasearch.answer.compare`), "count" (the document's
    own tables or figures, a procedure's steps: :mod:`alphasearch.answer.objects`, :mod:`alphasearch.answer.steps`) or
    "sentence"; ``score`` in [0, 1]: how well the rows matched the question (the weakest figure's row score)."""

    text: str
    figures: tuple[Figure, ...] = ()
    kind: str = "figure"
    score: float = 0.0

    @property
    def fit(self) -> float:
        """How well the rows mean what is asked (the weakest figure's :attr:`Figure.fit`; 1 without figures)."""
        return min((f.fit for f in self.figures), default=1.0)

    def to_dict(self) -> dict:
        return {"text": self.text, "kind": self.kind, "score": round(self.score, 4), "fit": round(self.fit, 4),
                "figures": [{"label": f.label, "period": f.period, "value": f.value, "printed": f.cell.text,
                             "unit": f.unit, "currency": f.currency, "page": f.page} for f in self.figures]}


def table_rows(doc: DocumentIndex, pages: Sequence[int]) -> list[tuple[int, int, TableRow]]:
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
    best, buy; none when it names none), and the names analysts give it that are no word of the document's row
    labels: its tickers, and the initials of a name of three words or more ("AMD" for Advanced Micro Devices;
    not "COST", Costco's ticker, a word of "Cost of sales"), read once per document."""
    got = _ORG.get(doc.doc_id)
    if got is None:
        found = facts.extract(doc)
        words = facts.org_words(found.org) if found.org else []
        named = [w for w in words if w not in _CONNECTIVES]
        short = [*found.tickers, *(["".join(w[0] for w in named)] if len(named) >= 3 else [])]
        got = frozenset(terms(" ".join(words)))
        got |= frozenset(t for t in terms(" ".join(short)) if t not in label_terms(doc))
        if len(_ORG) >= 64:
            _ORG.clear()
        _ORG[doc.doc_id] = got
    return got


@lru_cache(maxsize=256)
def page_rows(text: str) -> tuple[TableRow, ...]:
    """The table rows and the rows sentences state of a page's text (read once for the lookups,
    computations and changes of one question, and for the next questions of the same pages); none on a
    table of contents (:func:`contents.contents_page`)."""
    if contents_page(text):  # its numbers are page numbers
        return ()
    rows = parse_rows(text)
    labels = [r.label for r in rows]
    lines = text.split("\n")

    def near(line: int) -> frozenset[str]:  # a table's caption and header: "… by segment for fiscal 2022"
        return frozenset(YEAR_RE.findall("\n".join(lines[max(0, line - NEAR_LINES):line + 1])))

    return tuple([replace(r, label=_FOOTNOTE_MARK.sub(r"\1", r.label), context=row_context(text, r.line, labels),
                          near_years=near(r.line)) for r in rows] + prose_rows(text))


def label_terms(doc: DocumentIndex) -> frozenset[str]:
    """The terms of every table row's label and context in ``doc`` (read once per document)."""
    got = _LABELS.get(doc.doc_id)
    if got is None:
        got = frozenset(t for p in doc.pages for r in page_rows(p.text) for t in terms(f"{r.label} {r.context}"))
        if len(_LABELS) >= 16:
            _LABELS.clear()
        _LABELS[doc.doc_id] = got
    return got


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


_FINE = re.compile(r"(?<![\d.,])(?:0\.\d{3,}|\d+\.\d{4,})(?![\d.,])")  # "1.234" may be 1,234 in Europe


@lru_cache(maxsize=None)
def _named_total(group: str) -> bool:
    """Every name of ``group`` is a total ("total liabilities"; not revenue, whose total is printed "Net operating
    revenues" as often as "Total revenues")."""
    return all(TOTAL in terms(p) for p in lexicon()["groups"][group])


def unitless(named: str, cell_text: str) -> bool:
    """A figure that takes no table's unit: its row's name (its label, or the label with the heading it sits under)
    says it is a per-share figure, a rate or a count ("Earnings per share:" / "Diluted"), or it is printed to four
    decimals, or below 1 to three ("$0.1580", a dividend per share): no table's millions."""
    return _says(named, lexicon()["unitless"]) or bool(_FINE.search(cell_text))


def _says(named: str, phrases: Sequence[str]) -> bool:
    norm = norm_text(named.replace("(", " ").replace(")", " "))  # "Dividends (per share — $1.60 …)"
    return any(norm_text(u) in norm for u in phrases)


def pick(rows, groups: Sequence[str], q_terms: set[str], years: Sequence[str],
          rank_penalty: float = 0.05, period: str = "", strict: bool = False,
          org: frozenset[str] = frozenset(), want: Asked | None = None) -> list[tuple[float, Figure]]:
    """Candidate figures best first: (score, figure) for each row with a value in a wanted column
    (the year asked, of the kind of period asked: a full year unless a quarter… is named). ``strict``:
    only figures that can be stated as the answer: no line that is not a line item
    (:func:`not_line_item`), no cell printing a number the question itself states. ``org``: the
    terms of the document's organisation; without a line item of the lexicon, a row whose label
    shares only those with the question ("Best Buy Co., Inc." for "… acquisitions that Best Buy
    has done") does not match. ``want``: the question's key terms (:func:`meaning.asked`): a row is then
    also scored by what its label and context mean (:func:`meaning.match`), which can carry a row whose label
    holds the item's words apart, and which each figure keeps as its ``fit``."""
    out = []
    for rank, page, row in rows:
        if strict and not_line_item(row.text):  # "Page 5 of 15", "Example 1", "21st July, 2006"
            continue
        named = row.caption or row.label  # a row headed by a year names what its table lists
        if org and not groups and set(terms(named)) & q_terms <= org:
            continue
        s = row_score(without_period_words(named) if row.prose else named, groups, q_terms,
                      negates=want is not None and want.negates)
        meant, under = 1.0, ""
        if want is not None:  # the lexicon's evidence beside what the label and its context mean
            meant, covered = match(without_period_words(named) if row.prose else named, row.context, want)
            if groups and _named_total(groups[0]) and meant < covered and TOTAL not in terms(named):
                continue  # an item only ever named as a total ("total liabilities"): a label saying more than the
                # item, and no total, is a part ("Other liabilities", "Lease liability")
            # the meaning can carry a row the lexicon scores low ("Diluted" under "Earnings per share"); a label
            # the lexicon reads as another line item ("Deferred revenue") keeps only half of it
            # …unless the label and its heading name the item asked together ("Net income attributable to …" under
            # "Earnings per share––diluted:"): then the meaning decides
            if groups and s <= 0 and named_with_heading(named, row.context, want):
                s, under = meant, row.context.rsplit("\n", 1)[-1].rstrip(" :")
            elif groups:
                s = max(s, meant) if s > 0 else 0.5 * meant
        s *= PROSE_WEIGHT if row.prose else 1.0  # "quarterly cash dividend": the period is the column's, not the item
        if another_entity(row.context, q_terms):  # the parent company's own schedule: not the company's figure
            s *= OTHER_ENTITY
        if s < MIN_ROW_SCORE:
            continue
        heads = zip(row.columns or ("",) * len(row.cells), row.kinds or ("",) * len(row.cells), row.cells)
        # a number the question itself prints ("… in 2006?") is a key of the row, not what it answers
        cells = [(col, fit, c) for col, kind, c in heads if c.value is not None
                 and not (strict and _printed(c.text) in q_terms) and (fit := period_fit(kind, period))]
        if not cells:
            continue
        if row.columns and not any(YEAR_RE.fullmatch(col) or col == CHANGE for col, _, _ in cells):
            # columns named by words ("MMLU Physics"): the one sharing most words with the question
            overlap = [len(set(terms(col)) & q_terms) for col, _, _ in cells]
            col, fit, cell = cells[max(range(len(cells)), key=lambda k: (overlap[k], -k))]
            s *= 1.0 if max(overlap) else 0.8
            if years and not any(y in row.near_years for y in years):  # a year asked that neither the row nor
                s *= UNDATED_TABLE  # the lines above it print: a table of another kind (square feet by site)
            if want is not None:  # the column's name is part of what the figure means ("MMLU Chemistry")
                meant = max(meant, match(named, f"{row.context} {col}", want)[0])
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
        # a per-share row may name its unit in the heading it sits under ("Earnings per share:" / "Diluted")
        heading = row.context.rsplit("\n", 1)[-1] if "\n" in row.context else ""
        unit = "" if unitless(row.label + " " + heading, cell.text) else row.unit
        # …or the heading its rows are the parts of ("Earnings per share––diluted:", not one naming several measures),
        # for a figure with cents: the share counts under "Weighted-average shares used to compute net income per
        # share:" are no per-share figures
        per_share = _says(row.label, lexicon()["asks"]["per_share"]) or (
            heading.endswith(":") and "." in cell.text and _says(heading, lexicon()["asks"]["per_share"]))
        held = len(set(terms(named)) & q_terms)  # ties: the row meaning more, then holding more of the question's words
        # …the company's own figure before the consolidated one ("Net income attributable to CVS Health" before
        # "Net income"), unless the question names whose it is
        mine = bool(owners_clause(named, org)) and not q_terms & whole_terms()
        figure = Figure(named, col, cell, unit, row.currency, page, row.text, s, meant, under, per_share)
        out.append((s - rank_penalty * rank, (round(meant, 6), mine, held), figure))
    out.sort(key=lambda sf: (-sf[0], -sf[1][0], -sf[1][1], -sf[1][2]))
    return [(score, fig) for score, _, fig in out]


def _printed(cell: str) -> str:
    """A cell's figure as a question's term reads it ("4,500" is "4500"), but never a year ("2,021" is no 2021)."""
    bare = cell.strip("()$€£-−%+ ")
    joined = bare.replace(",", "")
    return bare if YEAR_RE.fullmatch(joined) and "," in bare else joined


def another_entity(context: str, q_terms: set[str]) -> bool:
    """A row's context (its page's title) names the statements of another entity than the company a question
    means: the parent company's own ("Schedule I Condensed Financial Information of Parent"), where the question
    does not ask for it (``other_entity`` of the lexicon). A filing prints the consolidated figures first; the
    parent's are smaller and come at the end, where a search for the line item may rank them first."""
    words = lexicon()["other_entity"]
    return (any(norm_text(t) in norm_text(context) for t in words["titles"])
            and not q_terms & {t for w in words["asked"] for t in terms(w)})


def fmt(x: float, decimals: int = 2) -> str:
    return f"{x:,.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{x:,.0f}"


def printed_change(rows, groups, q_terms, year: str, period: str, percent: bool) -> Direct | None:
    """The change a table prints for ``year`` (the "% Change" or "$ Change" column after the year's
    column, in the same kind of period), from the best matching row; None when none is printed."""
    best = None
    for score, fig in pick(rows, groups, q_terms, [year], period=period):
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
