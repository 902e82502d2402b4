"""The period a question asks of a company's filings, and which filings cover it.

A filing's facts (:mod:`alphasearch.index.facts`) carry the period it covers as the filing states it: its end date,
the fiscal year and the fiscal quarter. This module adds the calendar quarter that period ends in and reads a
question's period the same way: a fiscal or calendar quarter ("Q1 2023", "the second quarter of fiscal 2023"), a
period named by its end date ("the quarter ended March 31, 2023"), "the latest / most recent 10-Q", and whether
it asks a series ("over time", "the last four quarters"). The words are data (``data/asked_periods.json``).

Apple's fiscal Q1 2023 ended on December 31, 2022, which is calendar Q4 2022: when a question's quarter read as
fiscal and read as calendar points at different filings of the folder, the fiscal reading (the filing's own name
for its quarter) counts fully and the calendar one less, and :func:`quarter_note` says which was used.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from ..lang.domain import load
from .facts import DocFacts, FactMatch, combine, components, org_named, parse_date, patterns, read_question

CALENDAR_FIT = 0.5  # a filing whose period ends in the calendar quarter asked, but whose fiscal quarter differs
QUARTERLY_KINDS = ("10-Q", "earnings release")
ANNUAL_Q4_FIT = 0.25  # an annual report for its fiscal fourth quarter: below a quarterly report of the calendar one


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    d = load("asked_periods")
    return {k: (re.compile(v, re.IGNORECASE) if isinstance(v, str) and not k.startswith("_") else v)
            for k, v in d.items()}


@dataclass(frozen=True)
class Asked:
    """The period words of a question. ``latest``: it asks the newest filing; ``ended``: the end date it names
    (year, month, day); ``reading``: "fiscal" or "calendar" when it says which, else ""; ``trend``: it asks a
    figure across periods; ``last_n``: how many periods it asks ("the last four quarters") and of which unit."""

    latest: bool = False
    ended: tuple[int, int, int] | None = None
    reading: str = ""
    trend: bool = False
    last_n: tuple[int, str] | None = None


def asked(question: str) -> Asked:
    """The period words of ``question`` (:class:`Asked`)."""
    w = _words()
    q = " ".join(question.split())
    latest = bool(w["latest"].search(w["not_latest"].sub(" ", q)))
    ended = None
    m = w["ended"].search(q)
    if m:
        ended = parse_date(m.group("date") or m.group("asof"))
    reading = "calendar" if w["calendar"].search(q) else "fiscal" if w["fiscal"].search(q) else ""
    last_n = None
    m = w["last_n"].search(q)
    if m:
        n = m.group("n").lower()
        last_n = (int(n) if n.isdigit() else int(w["numbers"].get(n, 0)), m.group("unit").lower().rstrip("s"))
    trend = bool(w["trend"].search(q)) or last_n is not None
    return Asked(latest and not trend, ended, reading, trend, last_n)


def names_period(question: str) -> bool:
    """Whether the question asks one period (a year, a quarter, an end date, the latest filing), not a series."""
    a = asked(question)
    q = read_question(question)
    return not a.trend and bool(q.years or q.quarter or a.latest or a.ended)


def end_date(f: DocFacts | None) -> dt.date | None:
    """The end of the period a filing covers, or None when its facts do not say."""
    if f is None or not f.period_end:
        return None
    try:
        return dt.date.fromisoformat(f.period_end)
    except ValueError:
        return None


def calendar_quarter(f: DocFacts | None) -> tuple[int, int] | None:
    """(year, quarter) of the calendar quarter a quarterly filing's period ends in. A 52/53-week quarter ends
    up to a week after the calendar quarter it mostly lies in (Apple's "quarter ended April 1, 2023" is
    calendar Q1 2023), so the date is taken ten days earlier."""
    end = end_date(f)
    if end is None or f is None or f.kind not in QUARTERLY_KINDS:
        return None
    day = end - dt.timedelta(days=10)
    return day.year, (day.month - 1) // 3 + 1


def sort_key(f: DocFacts | None) -> tuple:
    """Oldest first: by the period's end date, else by fiscal year and quarter (unknown periods first)."""
    end = end_date(f)
    if end is not None:
        return (1, end.toordinal(), 0)
    if f is not None and f.year:
        return (0, f.year * 10 + (f.quarter or 5), 0)
    return (-1, 0, 0)


def latest_fit(docs: Sequence[DocFacts | None], among: Sequence[bool], kinds: Sequence[str]) -> list[float] | None:
    """1 for the newest filing among the documents ``among`` marks (the company named, when it is), of the
    kinds asked when some document is of one; 0 for the others; None when no document has a period."""
    keep = [bool(a) and f is not None and (not kinds or f.kind in kinds) for f, a in zip(docs, among)]
    if not any(keep):
        keep = [bool(a) and f is not None for f, a in zip(docs, among)]
    keys = [sort_key(f) if k else None for f, k in zip(docs, keep)]
    known = [k for k in keys if k is not None and k[0] >= 0]
    if not known:
        return None
    top = max(known)
    return [1.0 if k == top else 0.0 for k in keys]


def ended_fit(docs: Sequence[DocFacts | None], ended: tuple[int, int, int]) -> list[float] | None:
    """1 for a filing whose period ends on the date asked (within a week: 52/53-week periods), else 0; None
    when no filing does."""
    want = dt.date(*ended)
    fits = [1.0 if (e := end_date(f)) is not None and abs((e - want).days) <= 7 else 0.0 for f in docs]
    return fits if any(fits) else None


def quarter_fit(docs: Sequence[DocFacts | None], quarter: int, year: int | None, reading: str
                ) -> tuple[list[float], str]:
    """Per document, how well it is the quarter asked: its fiscal quarter (1), the calendar quarter it ends in
    (``CALENDAR_FIT``; 1 when the question says "calendar"), unknown (½), an annual report for its year's fourth
    quarter (``ANNUAL_Q4_FIT``), another quarter (0); and which reading decided ("fiscal", "calendar" or "" when both agree or
    only one applies)."""
    fiscal, calendar = [], []
    for f in docs:
        fq = f.quarter if f is not None else None
        if fq is None and end_date(f) is not None and f.kind not in QUARTERLY_KINDS:  # an annual report holds its
            # fourth quarter within the year, rarely printed on its own
            fiscal.append(ANNUAL_Q4_FIT if quarter == 4 and (year is None or f.year == year) else 0.0)
        else:
            fiscal.append(1.0 if fq == quarter and (year is None or f.year == year) else 0.5 if fq is None else 0.0)
        cq = calendar_quarter(f)
        calendar.append(1.0 if cq is not None and cq[1] == quarter and (year is None or cq[0] == year) else 0.0)
    if reading == "calendar":
        return [c if c or end_date(f) else 0.5 for f, c in zip(docs, calendar)], "calendar"
    if reading == "fiscal":
        return fiscal, "fiscal"
    fits = [max(f, CALENDAR_FIT * c) for f, c in zip(fiscal, calendar)]
    by_fiscal = {i for i, x in enumerate(fiscal) if x == 1.0}
    by_calendar = {i for i, x in enumerate(calendar) if x == 1.0}
    used = ""
    if by_fiscal and by_calendar and by_fiscal != by_calendar:
        used = "fiscal"
    elif by_calendar and not by_fiscal:
        used = "calendar"
    return fits, used


def quarter_note(quarter: int, year: int | None, used: str, docs: Sequence[DocFacts | None]) -> str:
    """One sentence saying how "Q{quarter} {year}" was read when fiscal and calendar readings differ."""
    if not used:
        return ""
    name = f"Q{quarter} {year}" if year else f"Q{quarter}"
    fiscal = [f for f in docs if f is not None and f.quarter == quarter and (year is None or f.year == year)]
    calendar = [f for f in docs if (cq := calendar_quarter(f)) is not None and cq[1] == quarter
                and (year is None or cq[0] == year)]
    if used == "fiscal" and fiscal:
        other = [f for f in calendar if f not in fiscal]
        tail = (f"; the calendar quarter {name} is the quarter ended {_day(other[0])}" if other else "")
        return f"{name} read as the fiscal quarter (the quarter ended {_day(fiscal[0])}){tail}."
    if used == "calendar" and calendar:
        c = calendar[0]
        own = f", the company's fiscal Q{c.quarter} {c.year}" if c.quarter and c.year else ""
        return f"{name} read as the calendar quarter: the quarter ended {_day(c)}{own}."
    return ""


def match(question: str, docs: Sequence[DocFacts | None]) -> FactMatch:
    """:func:`alphasearch.index.facts.match` with the question's period read further: "latest" (the newest
    filing of the company named, of the form named), a period named by its end date, and a quarter read as
    fiscal or calendar (the note says which when the two readings point at different filings)."""
    q = read_question(question)
    a = asked(question)
    per = components(q, docs)
    note = ""
    if a.latest and not q.years:
        named = [f is not None and org_named(q, f) for f in docs]
        fit = latest_fit(docs, named if any(named) else [f is not None for f in docs], q.kinds)
        if fit is not None:
            per["latest"] = fit
    if a.ended is not None:
        fit = ended_fit(docs, a.ended)
        if fit is not None:
            per["ended"] = fit
    elif q.quarter:
        fits, used = quarter_fit(docs, q.quarter, max(q.years) if q.years else None, a.reading)
        if max(fits, default=0.0) >= CALENDAR_FIT and len(set(fits)) > 1:
            top = max(fits)
            per["quarter"] = [x / top for x in fits]  # the best reading there is counts in full
            note = quarter_note(q.quarter, max(q.years) if q.years else None, used, docs)
    return combine(per, len(docs), note)


def restate(question: str, f: DocFacts) -> str:
    """``question`` asked of the filing ``f`` that is the period it names: its period words ("Q1 2023", "the
    latest 10-Q", "fiscal 2023", "the quarter ended …") replaced by the filing's own period as its tables print it
    ("for the three months ended December 31, 2022"), so its columns are read by their dates."""
    end = end_date(f)
    if end is None:
        return question
    p = patterns()
    text = question
    for pat in (_words()["ended"], re.compile(p["periods"]["quarter"], re.IGNORECASE),
                re.compile(p["question"]["fiscal_year"], re.IGNORECASE), re.compile(p["question"]["year"]),
                _words()["latest"]):
        text = pat.sub(" ", text)
    text = re.sub(r"(?:\b(?:in|for|of|during|at|from|the|as)\s*)+([?.!]*)\s*$", r"\1", " ".join(text.split()))
    text = re.sub(r"\s+([?.!,])", r"\1", text).rstrip("?.! ")
    span = "the three months" if f.kind in QUARTERLY_KINDS else "the year"
    return f"{text} for {span} ended {end:%B} {end.day}, {end.year}?"


def not_held(question: str, fm: FactMatch, docs: Sequence[DocFacts | None]) -> str:
    """When the question names a year no filing of the folder covers: one sentence naming the periods it holds
    ("" otherwise)."""
    q = read_question(question)
    if not q.years or "year" in fm.named:
        return ""
    held = sorted({(sort_key(f), label(f)) for f in docs if f is not None and f.year})
    if not held:
        return ""
    names = [name for _, name in held]
    shown = names if len(names) <= 12 else names[:5] + ["…"] + names[-5:]
    return (f"No filing in the folder covers {max(q.years)}; it holds {', '.join(shown)}.")


def label(f: DocFacts) -> str:
    """A filing's period as analysts write it: "Q1 FY2023" for a quarterly report, "FY2023" for a year."""
    if f.kind in QUARTERLY_KINDS and f.quarter:
        return f"Q{f.quarter} FY{f.year}"
    return f"FY{f.year}" if f.year else (f.period_end or "?")


def _day(f: DocFacts) -> str:
    end = end_date(f)
    return f"{end:%B} {end.day}, {end.year}" if end else "an unknown date"


__all__ = ["Asked", "CALENDAR_FIT", "asked", "calendar_quarter", "end_date", "ended_fit", "label", "latest_fit", "match",
           "names_period", "not_held", "quarter_fit", "restate", "quarter_note", "sort_key"]
