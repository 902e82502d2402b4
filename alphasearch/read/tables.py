"""Table rows read back from a page's text lines (no I/O but reading ``data/periods.json``).

PDF text extraction gives a financial statement as one line per cell, row by
row: "Net sales", "$", "34,229 $", "35,355 $", "32,184". This module puts the
rows back together: a label (the last text line before the figures; a line
starting in lower case continues the one above; a bare "Total" totals the heading
above its rows, "Revenues:") with its figures, the column
header above them (the years or dates of the nearest header run), the kind of
period of each column ("Three Months Ended June 30, 2023" is a quarter, words of
``data/periods.json``) and the unit ("in millions" from the nearest line naming
one, or "£m", "$000" printed under each year). "(1,577)" and "1,577-" are -1577; a dash is an
empty cell; a footnote mark "(1)" that leaves one figure more than the header has columns is not a
figure. On a page that groups no figure by commas, thousands set apart by spaces ("88 737") are
read whole when that gives the row as many figures as its header has years; "(in thousands of euros)"
is in €. A table continued from the page before under no header of its own keeps that page's
columns (:func:`continued`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..lang import domain

_VALUE = re.compile(r"^(?P<neg>\()?[-−]?(?P<cur>[$€£])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                    r"(?P<pct>%)?(?(neg)\))$")
_DASH = {"—", "–", "-", "−", "— ", "n/a", "N/A", "nm", "NM", "n/m", "N/M", "n.m.", "N.M.", "n.a.", "N.A."}  # no figure; "n/m": not meaningful
_CURRENCY = {"$", "€", "£", "US$", "USD", "EUR", "GBP"}
_YEAR = re.compile(r"\b(?:FY\s?)?((?:19[89]|20[0-4])\d)\b")
_HEADER_CHARS = 60  # a header line is short; a longer line is prose
# "… as follows (in millions):", "… summary operating results (dollars in millions, except per share amounts):"
_UNIT_ASIDE = re.compile(r"\((?:(?:u\.?s\.? )?(?:dollars|amounts|euros|usd|\$) ?)?(?:in )?(?:thousands|millions|billions)\b"
                         r"[^()]{0,40}(?:\)|$)", re.IGNORECASE)  # or wrapped at the line's end
_TITLE_WORDS = re.compile(r"\b(?:and|for|the|ended)\b", re.IGNORECASE)  # a title's years: "For the Years Ended …, 2023 and 2022"
_UNIT = re.compile(r"\b(thousand|million|billion)(s?)\b", re.IGNORECASE)
# the unit word alone in lower case ends a label wrapped over lines ("Shares issued: 1.8 billion and 1.8" / "billion")
_WRAPPED_UNIT = re.compile(r"(?:thousand|million|billion)s?")
_COLUMN_UNIT = re.compile(r"^(?P<cur>US\$|[$€£]|USD|EUR|GBP)\s?'?(?P<scale>000|m|mn|bn)$", re.IGNORECASE)  # "£m", "$000"
_SCALE_WORD = {"000": "thousands", "m": "millions", "mn": "millions", "bn": "billions"}
_SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£"}
_CURRENCY_WORDS = (("$", r"\b(?:dollars|usd)\b"), ("€", r"\b(?:euros?|eur)\b"), ("£", r"\b(?:pounds sterling|gbp)\b"))
_HEADER_WORDS = re.compile(r"^(?:fiscal|year|years|ended|ending|as|of|at|for|the|three|six|nine|twelve|months|"
                           r"quarter|q[1-4]|fy|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|"
                           r"oct\w*|nov\w*|dec\w*|\d{1,2},?|restated|adjusted|recast|revised|actual|and|weeks|week|period|"
                           r"\(?unaudited\)?)$",
                           re.IGNORECASE)


@dataclass(frozen=True)
class Cell:
    text: str  # as printed, e.g. "(1,577)"
    value: float | None  # -1577.0; None for a dash
    percent: bool = False


@dataclass(frozen=True)
class TableRow:
    """One row of a table on a page. ``columns``: the header label of each cell
    (a year, e.g. "2022", or ``CHANGE`` under "% Change" / "2022 vs. 2021"), empty when the
    header could not be aligned with the cells; ``unit``: "thousands", "millions", "billions" or ""; ``currency``: the
    symbol printed on the row or in the unit line ("" when none); ``text``: the
    row's lines joined with spaces, as printed."""

    label: str
    cells: tuple[Cell, ...]
    columns: tuple[str, ...]
    unit: str
    currency: str
    text: str
    line: int  # index of the row's first label line in the page's lines
    kinds: tuple[str, ...] = ()  # the period kind of each column ("quarter", "year", … or ""), as ``columns``
    caption: str = ""  # a row headed by a year: what its table lists ("Expected future amortization expense")
    prose: bool = False  # read from a sentence ("… was $4.9 billion, $6.4 billion and $8.8 billion for 2015, 2016 and 2017")
    context: str = ""  # what the row sits in: the page's title lines and the heading above it (rows.page_rows)
    near_years: frozenset[str] = frozenset()  # the years printed on its line and the lines just above (rows.page_rows)

    def cell_for(self, year: str) -> Cell | None:
        """The first cell under the column ``year``; None when no column has it."""
        for col, cell in zip(self.columns, self.cells):
            if col == year:
                return cell
        return None


@lru_cache(maxsize=1)
def _period_patterns() -> tuple[tuple[str, re.Pattern], ...]:
    kinds = domain.load("periods")["kinds"]
    return tuple((kind, re.compile(rf"(?<![a-z0-9])(?:{domain.alternation(phrases)})(?![a-z])"))
                 for kind, phrases in kinds.items())


def period_kinds(text: str) -> list[str]:
    """The kinds of period ``text`` names, in the order it names them ("Three Months Ended …
    Nine Months Ended" → ["quarter", "nine months"]); overlapping phrases count once."""
    low = text.lower()
    found = sorted((m.start(), m.end(), kind) for kind, pat in _period_patterns() for m in pat.finditer(low))
    out: list[str] = []
    end = -1
    for start, stop, kind in found:
        if start >= end:
            out.append(kind)
            end = stop
    return out


def without_period_words(text: str) -> str:
    """``text`` without the period words of ``data/periods.json`` ("Quarterly cash dividend" → "cash dividend")."""
    low = text.lower()
    for _, pat in _period_patterns():
        low = pat.sub(" ", low)
    return " ".join(low.split())


def period_asked(question: str) -> str:
    """The kind of period a question asks for: the shortest it names ("Q2 of FY2024" is a
    quarter), "" when it names none."""
    named = set(period_kinds(question))
    return next((k for k, _ in _period_patterns() if k in named), "")


def parse_number(token: str) -> Cell | None:
    """A printed figure as a :class:`Cell` ("(1,577)" → -1577, "12.5%" → 12.5); None if not one."""
    t = token.strip()
    if t in _DASH:
        return Cell(t, None)
    m = _VALUE.match(t)
    if not m and t[:1] and t[:1] in "$€£" and (inner := parse_number(t[1:])) is not None and inner.value is not None:
        return Cell(t, inner.value, inner.percent)  # "$(1,204)"
    if not m and t.startswith("(") and t.endswith(")%") and (inner := parse_number(t[:-1])) is not None:
        return Cell(t, inner.value, True) if inner.value is not None else None  # "(4.4)%"
    if not m and t.endswith(("-", "−")) and (inner := parse_number(t[:-1])) is not None and inner.value \
            and inner.value > 0 and not inner.percent:
        return Cell(t, -inner.value)  # "1,577-": a trailing minus
    if not m:
        return None
    value = float(m.group("num").replace(",", ""))
    if m.group("neg") or t.startswith(("-", "−")):
        value = -value
    return Cell(t, value, bool(m.group("pct")))


_SUPERSCRIPT_MARK = re.compile(r"(?:(?<=[A-Za-z]{3})|(?<=\))|(?<=^)|(?<=\s))[¹²³⁴⁵⁶⁷⁸⁹⁰⁽⁾]+(?=[\s.,:;]|$)")


_BRACKETED_GROUPS = re.compile(r"(\([$€£]?\d{1,3})((?: \d{3})+\))")  # "(1 577)": one negative figure
_SPACED_CLOSE = re.compile(r"(\([$€£]?\d[\d,]*(?:\.\d+)?)\s+\)")  # "(623 )": a negative, its bracket set apart
_COMMA_GROUPED = re.compile(r"\d,\d{3}(?!\d)")
_GROUP = re.compile(r"\d{3}(?:\.\d+)?")  # "577" after "1": the next three digits of a figure
_GROUPED = re.compile(r"[-−]?[$€£]?\d{1,3}(?:,\d{3})*")  # a whole number a group of three may continue


def _space_groups(cells: list[Cell]) -> list[Cell]:
    """Cells read with their thousands set apart by spaces ("88 737" read as 88 and 737): each group of
    exactly three digits joined to the whole number before it ("88,737")."""
    out: list[Cell] = []
    for c in cells:
        if out and out[-1].value is not None and not out[-1].percent and _GROUP.fullmatch(c.text) \
                and _GROUPED.fullmatch(out[-1].text):
            joined = parse_number(f"{out[-1].text},{c.text}")
            if joined is not None:
                out[-1] = joined
                continue
        out.append(c)
    return out


def _split_cells(line: str) -> tuple[str, list[Cell], str]:
    """(label part, trailing figures, currency seen) of one line: "Total revenue 5,854 4,795" →
    ("Total revenue", [5854, 4795], ""); a line of figures only has an empty label part. A footnote mark
    printed in superscript after a word ("Revenues¹", "Net sales⁽²⁾") is no part of the label
    (a unit's "m²" stays); a negative printed with a space before its closing bracket ("(623 )") is one figure."""
    line = _SPACED_CLOSE.sub(r"\1)", _SUPERSCRIPT_MARK.sub("", line))  # "(623 )": Oracle's negatives
    tokens = _BRACKETED_GROUPS.sub(lambda m: m.group(1) + m.group(2).replace(" ", ","), line).split()
    cells: list[Cell] = []
    currency = ""
    k = len(tokens)
    while k > 0:
        tok = tokens[k - 1]
        if tok in _CURRENCY:
            currency = currency or tok[-1] if tok in ("$", "€", "£") else currency or tok
            k -= 1
            continue
        if tok == "%" and k > 1 and (joined := parse_number(tokens[k - 2] + "%")) is not None and joined.percent:
            tok = tokens[k - 2] + "%"  # "6.9 %": the sign printed apart from its figure
            k -= 1
        if tok.endswith("$") and len(tok) > 1 and parse_number(tok[:-1]):  # "34,229$"
            tok = tok[:-1]
            currency = currency or "$"
        cell = parse_number(tok)
        if cell is None:
            break
        if "$" in cell.text:
            currency = currency or "$"
        cells.append(cell)
        k -= 1
    label = _without_leaders(" ".join(tokens[:k]))
    if label.endswith(("$", "€", "£")):  # "…noncontrolling interests$"
        currency = currency or label[-1]
        label = _without_leaders(label[:-1].rstrip())
    return label, cells[::-1], currency


def _without_leaders(label: str) -> str:
    """The label without the dot leaders that run to its figures ("Net cash provided ......")."""
    kept = label.rstrip(" .…_")
    tail = label[len(kept):]
    return kept if tail.count(".") + tail.count("…") + tail.count("_") >= 3 else label


CHANGE = "change"  # the header of a column of changes between the years beside it
_SHORT_FY = re.compile(r"\bFY\s?'?(\d{2})\b", re.IGNORECASE)  # "FY22", "FY '22": fiscal 2022


def _long_fy(text: str) -> str:
    """``text`` with each short fiscal year written out: "FY22", "FY '22" → "FY2022"."""
    return _SHORT_FY.sub(lambda m: f"FY20{m.group(1)}", text)


def years_named(text: str) -> list[str]:
    """The years ``text`` names, once each in order: "2022", "FY2022", "FY22", "FY '22" → "2022"."""
    return list(dict.fromkeys(_YEAR.findall(_long_fy(text))))


def _change_column() -> re.Pattern[str]:
    """A column header of changes: "2022 vs. 2021", "% Change", "Increase/(Decrease)" (lexicon's ``change_columns``)."""
    kinds = domain.load("lexicon")["change_columns"]
    between = domain.alternation(kinds["comparisons"], spaces_optional=True)
    prefix, word = domain.alternation(kinds["prefixes"]), domain.alternation(kinds["words"], spaces_optional=True)
    return re.compile(rf"^[$%(]*\s*(?:(?:19|20)\d\d\s*(?:{between})\s*(?:19|20)\d\d|(?:{prefix})?\s*(?:{word}))[\s%)]*$",
                      re.IGNORECASE)


_CHANGE_COLUMN = _change_column()


def change_column(line: str) -> bool:
    """``line`` heads a column of changes between years ("Percent Change", "% Change", "2022 vs. 2021")."""
    return bool(_CHANGE_COLUMN.match(line))


def _header_years(line: str) -> list[str] | None:
    """The years of a column-header line ("2022", "February 2, 2019", "Dec. 31, 2022", "2017 2018 2019",
    "Fiscal 2021", "FY22"), with ``CHANGE`` for a change column printed after a year on the same line
    ("2022 % Change 2021" → 2022, CHANGE, 2021), or None when the line is not a header line."""
    line = _long_fy(line)
    if len(line) > _HEADER_CHARS or not _YEAR.search(line):
        return None
    parts = _YEAR.split(line)  # text, year, text, year, …, text
    out: list[str] = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(part)
        elif out and part.strip() and _CHANGE_COLUMN.match(part.strip()):
            out.append(CHANGE)
        elif not all(_HEADER_WORDS.match(w.strip("().")) for w in part.replace(",", " ").split()):
            return None  # "Dec. 31, 2022", "2021 (As Restated)": header words; anything else is no header
    return out


_PAGE_NUMBER = re.compile(r"\d{1,4}")


def parse_rows(text: str) -> list[TableRow]:
    """Every row of figures on a page (see the module docstring), top to bottom."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    rows: list[TableRow] = []
    header: list[tuple[str, str]] = []  # (year, period kind) of each column
    run: list[tuple[str, str]] = []  # the same, of the header run being read
    run_lines, titled = 0, False  # the lines the run was read from; its first names its years in a sentence
    context: list[str] = []  # lines since the last row that are neither figures nor header (period words)
    unit, unit_currency = "", ""
    label_lines: list[tuple[int, str]] = []
    caption = ""  # what a table whose years are rows lists (the text above its first year)
    in_year_rows = False  # the last row was headed by a year
    words: tuple[str, ...] = ()  # the column names of a table headed by words, not years ("MMLU Physics")
    as_of = ""  # the year such a schedule is as of ("… as of December 31, 2017 is as follows"): its total's column
    section = ""  # the heading of the rows below it ("Revenues:"): what a bare "Total" row totals
    last = max((k for k, line in enumerate(lines) if line), default=-1)
    spaced = not _COMMA_GROUPED.search(text)  # a page printing "1,577" never sets thousands apart by spaces
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line:
            i += 1
            continue
        if run and _CHANGE_COLUMN.match(line):  # "% Change", "2022 vs. 2021": a column without a year of its own
            run.append((CHANGE, ""))
            i += 1
            continue
        if _YEAR.search(line) and _CHANGE_COLUMN.match(line):  # "2022 vs. 2021" above the header: not a row
            i += 1
            continue
        years = _header_years(line)
        if run and years is None and _inside_header(lines, i):  # "December 31," over the next year, "% of"
            context.append(line)
            if line.lstrip().startswith("(") and (stated := _unit_stated(line)):  # "(in millions)" above the years
                unit, unit_currency = stated
            i += 1
            continue
        if years is not None and len(years) == 1 and not run and _year_row(lines, i, in_year_rows):
            # a year that heads a row, not a column ("2019", "$", "337"): a table whose years are rows
            if not caption:
                caption, as_of = _caption([t for _, t in label_lines]), _as_of_year([t for _, t in label_lines])
            cells, currency, j = _more_cells(lines, i + 1, [], "")
            rows.append(TableRow(label=years[0], cells=tuple(cells), columns=(years[0],) + ("",) * (len(cells) - 1),
                                 unit=unit, currency=currency or unit_currency, text=" ".join(lines[i:j]), line=i,
                                 kinds=("",) * len(cells), caption=caption))
            label_lines, context, in_year_rows = [], [], True
            i = j
            continue
        if years is not None:
            words = ()
            if titled and run_lines == 1 and len(years) == 1 and years[0] in {y for y, _ in run}:
                run = []  # the years a title names in words ("For the Years Ended May 31, 2023, 2022 and 2021"),
                # then the column header's own, one per line: the header's ("2022 2021" twice is two column groups)
            if not run:
                titled, run_lines = len(years) >= 2 and bool(_TITLE_WORDS.search(line)), 0
            run_lines += 1
            kind = next(iter(period_kinds(line)), "")
            run.extend((y, "" if y == CHANGE else kind) for y in years)
            i += 1
            continue
        if run:
            if len(run) >= 2 or not header:  # one year heads a table of one column, not the next tables of a page
                header = _period_columns(run, context[-6:])
            run, section = [], ""
        if all(_COLUMN_UNIT.match(w) for w in line.split()):  # "£m", "$000" under each year: the unit
            m = _COLUMN_UNIT.match(line.split()[0])
            unit = _SCALE_WORD[m.group("scale").lower()]
            unit_currency = _SYMBOL.get(m.group("cur").upper(), m.group("cur")[-1])
            i += 1
            continue
        if (m := _UNIT.search(line)) and (line.lstrip().startswith("(") or len(line) <= (80 if m.group(2) else 30)
                                          or _UNIT_ASIDE.search(line)) and not _WRAPPED_UNIT.fullmatch(line):
            unit, unit_currency = _unit_stated(line)  # "($ million)" and "(in millions)"; a singular on a short line
        label, cells, currency = _split_cells(line)
        start = i
        # figures continue on the following lines ("$", "34,229 $", "35,355 $", …)
        cells, currency, j = _more_cells(lines, i + 1, cells, currency)
        if label and cells and all(_MARK.match(c.text) for c in cells) and len(header) != len(cells):
            cells = []  # "Best Buy Stores, L.P. (1)": a name with its footnote mark, no figure
        elif label.endswith(":") and len(cells) == 1 and _NOTE.match(cells[0].text) and len(header) != 1:
            cells = []  # "Net sales: 1": a heading of rows with a raised footnote mark
        if label and j == last + 1 > i + 1 and len(cells) == 1 and _PAGE_NUMBER.fullmatch(lines[last]) \
                and label.endswith((".", "!", "?", ":")):
            cells = []  # a sentence, then the page's number on the last line: a footer, not its figure
        if not cells:
            if label:
                label_lines.append((i, label))
                if (m := _SECTION.match(label)) is not None:
                    section = m.group(1)
                if len(label) <= _HEADER_CHARS:  # a column's period words, not a sentence of prose above the table
                    context.append(label)
            i = j  # the lines up to j held a currency sign at most: nothing to read again (linear on a page of "$" lines)
            continue
        if not label:  # figures under a label printed on the line above
            if not label_lines or label_lines[-1][0] != i - 1:
                i = j
                continue
            start, label = label_lines.pop()
        while label[:1].islower() and label_lines and label_lines[-1][0] == start - 1:  # a continued label
            start, above = label_lines.pop()
            label = f"{above} {label}"
        if in_year_rows and as_of:  # "Thereafter 1,998 $ 3,362" / "Total 3,362": the schedule's total
            width = len(rows[-1].cells)
            total = cells[width:2 * width] if not _TOTAL.match(label) else cells[:width]
            if len(total) == width:
                rows.append(TableRow(label="Total", cells=tuple(total), columns=(as_of,) + ("",) * (width - 1),
                                     unit=unit, currency=currency or unit_currency, text=" ".join(lines[start:j]),
                                     line=start, kinds=("",) * width, caption=f"Total {caption[:1].lower()}{caption[1:]}"))
                cells = cells[:width] if not _TOTAL.match(label) else []
            if not cells:
                label_lines, context, caption, in_year_rows = [], [], "", False
                i = j
                continue
        if section and _BARE_TOTAL.match(label):  # "Total" under "Revenues:" is "Total revenues"
            label, section = f"Total {section[:1].lower()}{section[1:]}", ""
        above = [t for _, t in label_lines]
        label_lines, context, caption, in_year_rows = [], [], "", False
        cells, aligned = _align(header, cells)
        if header and not aligned and spaced and len(grouped := _space_groups(cells)) == len(header):
            cells, aligned = _align(header, grouped)  # "88 737 82 382" on a page that groups no figure by commas
        if not header and (names := _word_header(above, cells, words)):  # "Method | MMLU Physics | MMLU Chemistry"
            words = names
            cells = _without_spreads(cells, len(names))
            aligned = tuple((n, "") for n in names)
        rows.append(TableRow(label=label.rstrip(" :"), cells=tuple(cells), columns=tuple(y for y, _ in aligned),
                             unit=unit, currency=currency or unit_currency, text=" ".join(lines[start:j]),
                             line=start, kinds=tuple(k for _, k in aligned)))
        i = j
    return _shared_currency(rows)


def _unit_stated(line: str) -> tuple[str, str] | None:
    """(the unit, its currency) a unit line states ("($ in millions)" → millions, $), None without a unit word."""
    m = _UNIT.search(line)
    if m is None:
        return None
    currency = next((c for c in ("$", "€", "£") if c in line), "") or next(
        (c for c, words in _CURRENCY_WORDS if re.search(words, line, re.IGNORECASE)), "")
    return m.group(1).lower() + "s", currency


def continued(rows: list[TableRow], before: list[TableRow]) -> list[TableRow]:
    """A page's ``rows`` with a table continued from the page before (whose rows are ``before``): the rows
    above the page's first column header that have none take the columns, period kinds, unit and currency
    of the last table row of the page before, when they hold as many figures as it has columns (a
    statement running onto the next page prints its header on the first page only)."""
    from dataclasses import replace

    last = next((r for r in reversed(before) if r.columns and not r.prose and not r.caption), None)
    if last is None:
        return rows
    out = []
    for k, r in enumerate(rows):
        if r.columns:  # the page's own header from here on
            return out + rows[k:]
        if not r.prose and len(r.cells) == len(last.columns):
            r = replace(r, columns=last.columns, kinds=last.kinds, unit=r.unit or last.unit,
                        currency=r.currency or last.currency)
        out.append(r)
    return out


def _more_cells(lines: list[str], j: int, cells: list[Cell], currency: str) -> tuple[list[Cell], str, int]:
    """``cells`` with the figures of the lines from ``j`` on that hold figures only; (cells,
    currency, the first line after them)."""
    cells = list(cells)  # extended in place: a run of many figure lines stays linear
    while j < len(lines) and _header_years(lines[j]) is None:
        more_label, more, cur = _split_cells(lines[j])
        if more_label or not (more or cur):
            break
        cells.extend(more)
        currency = currency or cur
        j += 1
    return cells, currency, j


_INSIDE_HEADER_CHARS = 32  # a header cell's words ("December 31,", "% of", "revenue"), not a row's label


def _inside_header(lines: list[str], i: int) -> bool:
    """Line ``i``, read while a column header's years are being read, is header text between them (each
    column's cells written top to bottom: "December 31," over the next year; "% of" / "revenue" over a share
    column): another year line follows within three lines, with no figure and no long line before it."""
    for j in range(i, min(i + 4, len(lines))):
        line = lines[j]
        if not line:
            continue
        if j > i and _header_years(line) is not None:
            return True
        if len(line) > _INSIDE_HEADER_CHARS or _split_cells(line)[1]:
            return False
    return False


def _figures_follow(lines: list[str], j: int) -> bool:
    """The lines from ``j`` start with figures (a "$" line may come first), not a label or a year."""
    cells, _, _ = _more_cells(lines, j, [], "")
    return bool(cells) and all(c.value is not None for c in cells[:1])


def _year_row(lines: list[str], i: int, continued: bool) -> bool:
    """Line ``i`` (one year) heads a row: figures follow it, and it continues a table of year
    rows or the next year heads a row too (a lone year over a figure is a chart's axis)."""
    if not _figures_follow(lines, i + 1):
        return False
    if continued:
        return True
    _, _, j = _more_cells(lines, i + 1, [], "")
    while j < len(lines) and not lines[j]:
        j += 1
    return j < len(lines) and (y := _header_years(lines[j])) is not None and len(y) == 1 and _figures_follow(lines, j + 1)


_AS_FOLLOWS = re.compile(r"\s*(?:\([^)]*\)|\b(?:is|are|were|was) as follows|\bconsists? of the following|"
                         r"\bthe following)\s*:?\s*$", re.IGNORECASE)


_AS_OF = re.compile(r"\s*,?\s*\b(?:as of|at|for the (?:fiscal )?years? ended|ended|on)?\s*"
                    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? (?:19|20)\d\d\b.*$",
                    re.IGNORECASE)


CAPTION_CHARS = 400  # what a table of year rows lists is named in a sentence above it: a longer one is prose, no
# caption (and _AS_FOLLOWS is quadratic in it: a hostile line of 80,000 "(" over a table took 21 s)


def _caption(texts: list[str]) -> str:
    """What a year-rows table lists, from the text lines above it: the last sentence, without
    header words ("Year Ended December 31,"), "(in millions)" or "is as follows:"; none when that sentence is
    longer than ``CAPTION_CHARS``."""
    kept = [t for t in texts if not all(_HEADER_WORDS.match(w) for w in t.replace(",", " ").split())
            and (len(t) > CAPTION_CHARS or _clean_caption(t))]  # not "Year Ended December 31," nor "(in millions):"
    text = kept[-1] if kept else ""
    for above in reversed(kept[:-1]):  # a sentence that runs over lines
        if not text[:1].islower() or len(text) > CAPTION_CHARS:
            break
        text = f"{above} {text}"
    last = re.split(r"(?<=[a-z0-9)])\s?\.\s+(?=[A-Z])", text)[-1]
    return _clean_caption(last) if len(last) <= CAPTION_CHARS else ""


_TOTAL = re.compile(r"^total\b", re.IGNORECASE)
_SECTION = re.compile(r"^([A-Z][\w ,&'()/-]{2,48}):$")  # "Revenues:", "Operating expenses:": a heading of rows
_BARE_TOTAL = re.compile(r"^total:?$", re.IGNORECASE)


def _as_of_year(texts: list[str]) -> str:
    """The year of the date a schedule is as of ("… as of December 31, 2017 is as follows"), "" when none."""
    m = _AS_OF.search(" ".join(texts[-3:]))
    return y.group(0) if m and (y := _YEAR.search(m.group(0))) else ""


def _clean_caption(text: str) -> str:
    while (cut := _AS_FOLLOWS.sub("", text)) != text:
        text = cut
    return _AS_OF.sub("", text).strip(" :,")


_WORD_COLUMN = re.compile(r"^[A-Za-z][\w&%/().,' +-]{0,39}$")


def _without_spreads(cells: list[Cell], n: int) -> list[Cell]:
    """A row's values without the spreads printed after each ("66.4% (0.8%)"), when that leaves ``n``."""
    if len(cells) == 2 * n and all(c.text.startswith("(") for c in cells[1::2]) \
            and not any(c.text.startswith("(") for c in cells[::2]):
        return cells[::2]
    return cells


def _word_header(above: list[str], cells: list[Cell], current: tuple[str, ...]) -> tuple[str, ...]:
    """The column names of a table headed by words: the last short lines above its first row, one per
    value (a spread after each value not counted); the names read before for the next rows of the
    same width; () for a table headed by years (only a page without a year header has word
    headers: a statement's section lines, "ASSETS", "Current assets:", are no column names)."""
    if current and len(_without_spreads(cells, len(current))) == len(current):
        return current
    for n in (len(cells), len(cells) // 2):
        if n < 2 or len(above) < n + 1 or len(_without_spreads(cells, n)) != n:
            continue
        names = above[-n:]
        if all(_WORD_COLUMN.match(t) and not t.isupper() and not _YEAR.search(t) for t in names) \
                and len(set(names)) == n:
            return tuple(names)
    return ()


def _shared_currency(rows: list[TableRow]) -> list[TableRow]:
    """A table prints its currency on a few rows only ("$" beside the first and the total
    rows): give it to every row under the same header and unit."""
    from dataclasses import replace

    def table(r: TableRow) -> tuple:  # rows of one table: one header (or one caption, for year rows) and unit
        return (r.caption, r.unit) if r.caption else (r.columns, r.unit)

    seen: dict[tuple, str] = {}
    for r in rows:
        if r.currency:
            seen.setdefault(table(r), r.currency)
    return [r if r.currency or table(r) not in seen else replace(r, currency=seen[table(r)]) for r in rows]


def _period_columns(run: list[tuple[str, str]], above: list[str]) -> list[tuple[str, str]]:
    """The header run's columns with their period kinds: a header line's own period words
    ("Three Months Ended June 30, 2023"), else those printed above the run, one kind for all
    columns or, when several are named ("Three Months Ended", "Six Months Ended" over 2023 2022
    2023 2022), one per equal group of columns in order."""
    if all(kind for _, kind in run):
        return run
    named = period_kinds(" ".join(above))
    if len(named) == 1:
        return [(y, kind or named[0]) for y, kind in run]
    if len(named) > 1 and len(run) % len(named) == 0:
        size = len(run) // len(named)
        return [(y, kind or named[k // size]) for k, (y, kind) in enumerate(run)]
    return run


_FOOTNOTE = re.compile(r"^\(\d\)$")
_MARK = re.compile(r"^\(\d{1,2}\)$")  # "(1)", "(12)" after a name: a footnote mark when no column is its own
_NOTE = re.compile(r"^\d{1,2}$")  # a bare number first of one cell too many: a footnote mark or a note's number


def _align(header: list[tuple[str, str]], cells: list[Cell]) -> tuple[list[Cell], tuple[tuple[str, str], ...]]:
    """The row's cells and the header entry of each: one per cell when the counts agree;
    percentage cells interleaved with the figures get none (""); a footnote mark "(1)", or a bare
    number of one or two digits first (a raised mark, a note's number), that leaves one cell more
    than the header has columns is dropped. No entries when the
    counts cannot be made to agree."""
    if not header:
        return cells, ()
    if len(header) != len(cells):
        marks = [c for c in cells if _FOOTNOTE.match(c.text)]
        if len(marks) == 1 and len(cells) == len(header) + 1:
            cells = [c for c in cells if c is not marks[0]]
        elif len(cells) == len(header) + 1 and _NOTE.match(cells[0].text) \
                and not all(_NOTE.match(c.text) for c in cells[1:]):
            cells = cells[1:]  # "Total revenues 1 88,737 82,382": a raised footnote mark or a note's number
    if len(header) == len(cells):
        return cells, tuple(header)
    plain = [c for c in cells if not c.percent]
    if len(plain) == len(header):
        it = iter(header)
        return cells, tuple(("", "") if c.percent else next(it) for c in cells)
    return cells, ()


def scale(unit: str) -> float:
    return {"thousands": 1e3, "millions": 1e6, "billions": 1e9}.get(unit, 1.0)
