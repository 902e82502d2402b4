"""A figure across a company's filings: the series a trend question asks ("How has Apple's net sales changed over
time?", "compare R&D across the last four quarters").

Each filing of the company (or of each company, for several) answers the figure for its own period; the rows
come oldest first, each with the figure, its unit, the filing and page it was read from, and the change from the
row before. A period the folder lacks between two it holds, a fiscal fourth quarter (reported in the annual
report, not a 10-Q) and a figure not found in its filing are rows that say so, never silent gaps.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Sequence

from ..index import periods
from ..index.facts import DocFacts, org_named, read_question
from ..lang.domain import load
from ..models import Answer, Citation

MAX_DOCS = 16  # filings searched for one series (the newest ones)
Read = Callable[[str, str, int], "dict[str, Any] | None"]


@lru_cache(maxsize=1)
def _strip() -> re.Pattern[str]:
    return re.compile(load("asked_periods")["trend_strip"], re.IGNORECASE)


def figure_words(question: str) -> str:
    """The figure a trend question asks, without its trend words: "How has Apple's total net sales changed over
    time?" → "Apple's total net sales"."""
    core = _strip().sub(" ", question)
    core = re.sub(r"[?.!]+\s*$", "", " ".join(core.split())).strip(" ,;:-")
    return core or question


def period_question(words: str, f: DocFacts) -> str:
    """The question one filing answers for its own period: "What was X for the three months ended July 1, 2023?"."""
    end = periods.end_date(f)
    if end is None:
        return f"What was {words} in fiscal {f.year}?" if f.year else f"What was {words}?"
    span = "the three months" if f.kind in periods.QUARTERLY_KINDS else "the year"
    return f"What was {words} for {span} ended {end:%B} {end.day}, {end.year}?"


@dataclass
class Row:
    """One period of a series. ``value`` None: no figure (``note`` says why)."""

    company: str
    period: str
    end: str = ""
    value: float | None = None
    printed: str = ""
    unit: str = ""
    doc: str = ""
    page: int | None = None
    change: float | None = None
    change_pct: float | None = None
    note: str = ""
    doc_id: str = ""  # the filing's content hash (the app opens its page by it)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("company", "period", "end", "value", "printed", "unit", "doc", "page",
                                               "change", "change_pct", "note", "doc_id")}


@dataclass
class Plan:
    """The filings a trend question is answered from: company → [(document name, facts)], oldest first."""

    words: str
    groups: dict[str, list[tuple[str, DocFacts]]] = field(default_factory=dict)
    last_n: tuple[int, str] | None = None

    @property
    def names(self) -> list[str]:
        return [name for docs in self.groups.values() for name, _ in docs]


def plan(question: str, docs: Sequence[tuple[str, DocFacts | None]]) -> Plan | None:
    """The filings a trend question reads (None when it asks no trend or no filing has a period): those of the
    companies it names (every company when it names none), of the form its unit asks ("quarters": quarterly
    reports) when there are such, the newest ``last_n`` when it says how many; at most ``MAX_DOCS``."""
    a = periods.asked(question)
    if not a.trend:
        return None
    q = read_question(question)
    dated = [(n, f) for n, f in docs if f is not None and f.org and periods.end_date(f) is not None]
    named = [(n, f) for n, f in dated if org_named(q, f)]
    pool = named or dated
    unit = a.last_n[1] if a.last_n else ("quarter" if q.quarter or "quarter" in question.lower() else "")
    quarterly = [(n, f) for n, f in pool if f.kind in periods.QUARTERLY_KINDS]
    if unit == "quarter" and quarterly:
        pool = quarterly
    elif q.kinds:
        pool = [(n, f) for n, f in pool if f.kind in q.kinds] or pool
    elif quarterly and len(quarterly) < len(pool):  # annual reports when the folder has both and none is asked
        pool = [(n, f) for n, f in pool if f.kind not in periods.QUARTERLY_KINDS]
    if not pool:
        return None
    groups: dict[str, list[tuple[str, DocFacts]]] = {}
    for n, f in sorted(pool, key=lambda nf: periods.sort_key(nf[1])):
        groups.setdefault(f.org, []).append((n, f))
    keep = a.last_n[0] if a.last_n else MAX_DOCS
    per = max(1, MAX_DOCS // max(1, len(groups)))
    groups = {org: docs_[-min(keep, per):] for org, docs_ in groups.items()}
    return Plan(figure_words(question), groups, a.last_n)


def rows(p: Plan, answers: dict[str, Answer], skipped: dict[str, str]) -> list[Row]:
    """The series' rows from each filing's answer to its own period's question, oldest first per company, with
    rows for the periods between that the folder lacks and the change from the period just before (none across a
    period without a figure)."""
    out: list[Row] = []
    for org, docs in p.groups.items():
        series: list[Row] = []
        prev: DocFacts | None = None
        for name, f in docs:
            series.extend(_gap_rows(org, prev, f))
            series.append(_row(org, name, f, answers.get(name), skipped.get(name)))
            prev = f
        if p.last_n and len(docs) < p.last_n[0]:
            series.insert(0, Row(org, "—", note=f"the folder holds {len(docs)} of the {p.last_n[0]} "
                                                f"{p.last_n[1]}s asked"))
        last: Row | None = None  # the change is from the period just before, never across a gap
        for r in series:
            if last is not None and last.value is not None and r.value is not None and last.unit == r.unit:
                r.change = r.value - last.value
                r.change_pct = (r.change / abs(last.value) * 100.0) if last.value else None
            last = r if r.period != "—" else last
        out.extend(series)
    return out


def _row(org: str, name: str, f: DocFacts, a: Answer | None, skipped: str | None) -> Row:
    end = periods.end_date(f)
    r = Row(org, periods.label(f), end.isoformat() if end else "", doc=name)
    if a is None:
        r.note = f"not searched: {skipped}" if skipped else "not searched"
        return r
    direct = ((a.extra.get("structured") or {}).get("direct") or {}) if not a.fallback else {}
    figures = direct.get("figures") or []
    want = str(end.year) if end else (str(f.year) if f.year else "")
    fig = next((x for x in figures if not want or want in str(x.get("period", ""))), None)
    if fig is None:
        r.note = (f"no figure for {r.period} found in {name}" if not figures else
                  f"{name} prints it for another period ({figures[0].get('period', '?')}) only")
        return r
    unit = str(fig.get("unit", ""))
    r.value, r.printed, r.page = float(fig["value"]), str(fig.get("printed", "")), int(fig["page"])
    r.unit = unit[:-1] if unit in ("thousands", "millions", "billions") else unit  # "394,328 million"
    return r


def _gap_rows(org: str, prev: DocFacts | None, f: DocFacts) -> list[Row]:
    """Rows for the periods between two consecutive filings of a series that the folder lacks."""
    if prev is None or not prev.year or not f.year:
        return []
    if f.kind in periods.QUARTERLY_KINDS and f.quarter and prev.quarter:
        out = []
        y, q = prev.year, prev.quarter
        while True:
            y, q = (y, q + 1) if q < 4 else (y + 1, 1)
            if (y, q) >= (f.year, f.quarter):
                return out
            note = ("reported in the annual report (10-K), not in a quarterly report" if q == 4
                    else "no filing for this quarter in the folder")
            out.append(Row(org, f"Q{q} FY{y}", note=note))
    return [Row(org, f"FY{y}", note="no filing for this year in the folder") for y in range(prev.year + 1, f.year)]


def table(rs: Sequence[Row]) -> str:
    """The series as a Markdown table (period, figure, change, source)."""
    several = len({r.company for r in rs}) > 1
    head = (["Company"] if several else []) + ["Period", "Figure", "Change", "Source"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rs:
        fig = f"{r.printed or _num(r.value)}{' ' + r.unit if r.unit else ''}" if r.value is not None else "—"
        change = "" if r.change is None else f"{'+' if r.change >= 0 else '−'}{_num(abs(r.change))}" + (
            f" ({'+' if (r.change_pct or 0) >= 0 else '−'}{abs(r.change_pct):.1f}%)" if r.change_pct is not None else "")
        src = (f"{r.doc}, p. {r.page}" + (f"; {r.note}" if r.note else "")) if r.page else (r.note or r.doc)
        cells = ([_cell(r.company)] if several else []) + [_cell(r.period), _cell(fig), change, _cell(src)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _num(x: float | None) -> str:
    if x is None:
        return ""
    return f"{x:,.0f}" if abs(x) >= 100 or float(x).is_integer() else f"{x:,.2f}"


def _cell(text: str) -> str:
    return " ".join(str(text).replace("|", "/").split())


def mark_restated(p: Plan, rs: Sequence[Row], read: Read) -> None:
    """A period's figure as first reported stays in its row; when the next filing of the series prints that period
    (its comparative column) with another figure, the row's note says so: "restated as 394,112 in …"."""
    facts_of = {name: f for docs in p.groups.values() for name, f in docs}
    by_doc = {r.doc: r for r in rs if r.doc}
    for docs in p.groups.values():
        for (older, f_old), (newer, _) in zip(docs, docs[1:]):
            first, later = by_doc.get(older), by_doc.get(newer)
            if first is None or first.value is None or later is None or later.page is None:
                continue
            end = periods.end_date(facts_of[older])
            fig = read(newer, period_question(p.words, f_old), later.page)
            if fig is None or end is None or str(end.year) not in str(fig.get("period", "")):
                continue
            value = float(fig["value"])
            if abs(value - first.value) > 1e-9 * max(1.0, abs(value)):
                first.note = f"restated as {fig.get('printed') or _num(value)} in {newer} (p. {later.page})"


def answer(question: str, p: Plan, answers: dict[str, Answer], skipped: dict[str, str],
           read: Read | None = None, ids: dict[str, str] | None = None) -> Answer:
    """The folder answer of a trend question: the table, a one-line summary of the first and last figures, the
    citations of every row, ``extra["series"]`` (the rows as data). ``read``: reads a figure off a filing's page
    (document name, question, page → the figure's dict, or None), to mark restated periods. ``ids``: document
    name → content hash, carried by the rows and citations."""
    rs = rows(p, answers, skipped)
    for r in rs:
        r.doc_id = (ids or {}).get(r.doc, "")
    if read is not None:
        mark_restated(p, rs, read)
    found = [r for r in rs if r.value is not None]
    if not found:
        text = (f"No filing gave a figure for {p.words} for its own period; the filings searched: "
                + "; ".join(f"{r.period} ({r.doc})" for r in rs if r.doc) + ".")
        return Answer(text=text, confidence=0.0, fallback=True, citations=[], pages=[],
                      extra={"series": {"item": p.words, "rows": [r.to_dict() for r in rs]}})
    lines = []
    for org in dict.fromkeys(r.company for r in found):
        mine = [r for r in found if r.company == org]
        first, last = mine[0], mine[-1]
        if first is last:
            lines.append(f"{org}: {first.printed or _num(first.value)} {first.unit} in {first.period} "
                         f"[{first.doc}, p. {first.page}].")
        else:
            lines.append(f"{org}: {p.words} went from {first.printed or _num(first.value)} {first.unit} in "
                         f"{first.period} to {last.printed or _num(last.value)} {last.unit} in {last.period} "
                         f"[{first.doc}, p. {first.page}; {last.doc}, p. {last.page}].")
    text = "\n".join(lines) + "\n\n" + table(rs)
    citations = [Citation(r.doc, r.period, (r.page, r.page), f"{r.period}: {r.printed or _num(r.value)} {r.unit}".strip(),
                          r.doc_id) for r in found if r.page]
    missing = sum(1 for r in rs if r.value is None)
    confidence = round(0.9 * len(found) / max(1, len(found) + missing), 4)
    return Answer(text=text, confidence=confidence, fallback=False, citations=citations, pages=[],
                  doc_pages=[(r.doc, r.page) for r in found if r.page], doc=found[-1].doc,
                  extra={"series": {"item": p.words, "rows": [r.to_dict() for r in rs]},
                         "direct_answer": lines[0]})


__all__ = ["MAX_DOCS", "Plan", "Read", "Row", "answer", "mark_restated", "figure_words", "period_question", "plan", "rows", "table"]
