"""Figures a sentence states for a list of years, read back as table rows (no I/O).

Filings state many figures in prose rather than tables: "Depreciation expense on property
and equipment was $4.9 billion, $6.4 billion, and $8.8 billion … for 2015, 2016, and 2017";
"During 2022, 2021 and 2020, the quarterly cash dividend was $0.55, $0.50 and $0.50 per share,
respectively." A sentence with one list of two or more years and a run of as many amounts
(each with a currency sign, a unit word or a percent sign) pairs them in order; the words
before the run name the line item. Each run becomes a :class:`~alphasearch.read.tables.TableRow`
(``prose=True``) whose columns are the years, so the direct answer's row matching and column
choice read it like any table row. :func:`change_rows` reads the changes sentences state as a
percentage ("worldwide sales increased 1.3% to $94.9 billion") the same way.
"""
from __future__ import annotations

import re

from ..lang import domain
from ..lang.text import sentences
from .tables import Cell, TableRow, period_kinds

_YEAR = r"(?:19[89]|20[0-4])\d"
_YEARS = re.compile(rf"(?<![\d$.,]){_YEAR}(?:\s*,\s*(?:and\s+)?{_YEAR}|\s*,?\s+and\s+{_YEAR})+(?![\d,]\d)")
_AMOUNT = re.compile(r"(?<![\w.])(?P<neg>\()?(?P<cur>[$€£])\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?"
                     r"(?:\s*(?P<unit>billion|million|thousand)s?\b)?"
                     r"|(?<![\w.$])(?P<num2>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                     r"(?:\s*(?P<unit2>billion|million|thousand)s?\b|\s?(?P<pct>%))", re.IGNORECASE)
_BETWEEN = re.compile(r"^\s*,?\s*(?:and\s+)?$", re.IGNORECASE)  # what separates the amounts of one run
_TRIMMED = domain.load("lexicon")["sentence_labels"]  # words a sentence's line-item name is trimmed of
_LEAD = re.compile(rf"^(?:[\s,;:]|(?:{domain.alternation(_TRIMMED['lead'])})\b)+", re.IGNORECASE)
_TAIL = re.compile(rf"(?:[\s,;:]|\b(?:{domain.alternation(_TRIMMED['tail'])})\b)+$", re.IGNORECASE)
MAX_LABEL_WORDS = 14


def _label(text: str) -> str:
    words = " ".join(text.split()).split()[-MAX_LABEL_WORDS:]
    label = _TAIL.sub("", _LEAD.sub("", " ".join(words)))
    return label[:1].upper() + label[1:]


def prose_rows(text: str) -> list[TableRow]:
    """Rows of the figures the sentences of ``text`` state for a list of years (module docstring)."""
    rows: list[TableRow] = []
    for sent in sentences(text):
        if len(sent) > 1200:
            continue
        years_m = _YEARS.search(sent)
        if not years_m:
            continue
        years = tuple(re.findall(_YEAR, years_m.group(0)))
        if len(set(years)) != len(years):
            continue
        amounts = [m for m in _AMOUNT.finditer(sent) if not (years_m.start() <= m.start() < years_m.end())]
        runs: list[list[re.Match]] = []
        for m in amounts:
            if runs and _BETWEEN.match(sent[runs[-1][-1].end():m.start()]):
                runs[-1].append(m)
            else:
                runs.append([m])
        start = 0
        for run in runs:
            if len(run) == len(years):
                label = _label(sent[start:run[0].start()])
                if years_m.start() >= start and years_m.end() <= run[0].start():  # "During 2022, 2021 and 2020, the …"
                    label = _label(sent[years_m.end():run[0].start()]) or _label(sent[start:years_m.start()])
                unit = next((((m.group("unit") or m.group("unit2") or "").lower() + "s") for m in run
                             if m.group("unit") or m.group("unit2")), "")
                cells = tuple(Cell(_printed(m), _value(m), bool(m.group("pct"))) for m in run)
                currency = next((m.group("cur") for m in run if m.group("cur")), "")
                kind = next(iter(period_kinds(label)), "")
                if label and len(label) >= 4:
                    rows.append(TableRow(label=label, cells=cells, columns=years, unit=unit, currency=currency,
                                         text=sent, line=-1, kinds=(kind,) * len(years), prose=True))
            start = run[-1].end()
    return rows


def _value(m: re.Match) -> float:
    value = float((m.group("num") or m.group("num2")).replace(",", ""))
    return -value if m.group("neg") else value


def _printed(m: re.Match) -> str:
    """The figure as a table would print it: "$8.8" (the unit word goes to the row), "3.0%"."""
    if m.group("num2"):
        return m.group("num2") + ("%" if m.group("pct") else "")
    number = f"{m.group('cur')}{m.group('num')}"
    return f"({number})" if m.group("neg") else number


# --- changes a sentence states ("worldwide sales increased 1.3% to $94.9 billion") ----------------
def _words(kind: str) -> str:  # the lexicon's words for a rise or a fall, as one alternation
    return domain.alternation(domain.load("lexicon")["changes"][kind])


_STATED = re.compile(rf"\b(?:(?P<rise>{_words('rise')})|(?P<fall>{_words('fall')}))\b(?:\s+(?:of|by|was|were|"
                     rf"approximately|about|nearly|almost|over|some|an|a))*\s*(?P<num>\d{{1,3}}(?:\.\d+)?)\s?%",
                     re.IGNORECASE)
_CLAUSE = re.compile(r";|\s(?:and|while|whereas|but|as compared (?:to|with)|compared (?:to|with)|versus|vs\.?)\s",
                     re.IGNORECASE)
_FIRST_AMOUNT = re.compile(r"\s*(?:\b(?:of|at|to|was|were|totaled|totalled|reached)\b\s*)?[$€£]?\s?\d[\d,.]*\s*"
                           r"(?:billion|million|thousand)?.*$", re.IGNORECASE)


def change_rows(text: str) -> list[TableRow]:
    """Rows of the changes the sentences of ``text`` state as a percentage ("worldwide sales
    increased 1.3% to $94.9 billion", "adjusted EPS of $10.15 increasing by 3.6%", "a decrease of
    0.6% in 2022"): one row per clause, one cell (a fall is negative), labelled by the words
    before the change (the amount they state left out; a clause naming no item, "as compared to
    an increase of 13.6% in 2021", takes the item of the clause before), its column the year the
    clause names (else the sentence's first year, else none)."""
    rows: list[TableRow] = []
    for sent in sentences(text):
        if len(sent) > 1200 or "%" not in sent:
            continue
        first_year = re.search(_YEAR, sent)
        label = ""
        for clause in _CLAUSE.split(sent):
            m = _STATED.search(clause)
            if not m:
                continue
            before = re.sub(rf"\b{_YEAR}\b", " ", clause[:m.start()])
            own = _label(re.sub(r"^[^A-Za-z0-9]+|\s+(?:an?|the)\s*$", "", _FIRST_AMOUNT.sub("", before))) \
                if re.search(r"[A-Za-z]{3}", before) else ""
            label = own if len(own) >= 4 else label
            if not label:
                continue
            years = re.findall(_YEAR, clause[:m.start()]) or re.findall(_YEAR, clause[m.end():])
            year = (years[-1] if re.findall(_YEAR, clause[:m.start()]) else years[0]) if years else (
                first_year.group(0) if first_year else "")
            value = float(m.group("num")) * (-1 if m.group("fall") else 1)
            cell = Cell(f"{value:g}%", value, True)
            kind = next(iter(period_kinds(clause)), "")
            rows.append(TableRow(label=label, cells=(cell,), columns=(year,) if year else (), unit="", currency="",
                                 text=sent, line=-1, kinds=(kind,) if year else (), prose=True))
    return rows
