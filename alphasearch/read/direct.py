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
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from ..lang import domain
from ..lang.text import terms
from ..models import DocumentIndex
from .items import AVERAGE, norm_text, line_says, concepts, group_terms, lexicon, named_in_words, ratio_named
from .kinds import fits_kind, unit_asked_first
from .meaning import asked
from .prose import change_rows
from .rows import (
    CHANGE_WORDS, DEFINED, UNIT_WORD, STRONG_ROW, Direct, Figure, fmt, pick, printed_change, table_rows,
    label_terms, org_terms,
)
from .tables import period_asked, scale, years_named


def figure_answer(doc: DocumentIndex, question: str, pages: Sequence[int], *, read: int = 3,
                  further: Sequence[int] = ()) -> Direct | None:
    """The direct answer for a figure question, or None when no table row of the first
    ``read`` pages (``read`` + 2 for computations, whose figures may sit on different
    statements) matches well enough. When none of them matches well (a row of another line
    item, or a quarter's column for a year asked), the ``further`` pages (the next ones of the
    ranking) are read too, and a row there that matches a line item of the lexicon well answers
    instead (a row matching only the question's own words, e.g. the company's name, does not).
    A row or cell that is no figure to state is passed over (``strict`` in :func:`pick`): a page
    footer, a date, a number the question itself prints. The confidence's figure parts read the
    same answer, so it is looked up once."""
    question = " ".join(question.split())  # a run of spaces made the margin pattern backtrack (15 s for 2,000)
    years = years_named(question)  # "FY22" asks for 2022
    q_terms = set(terms(question))
    computed = _computation(doc, question, pages[:read + 2], years, q_terms)
    if computed is not None and not (computed.kind == "change" and computed.score < STRONG_ROW):
        return computed
    groups = concepts(question)
    if groups and CHANGE_WORDS.search(question) and "cagr" not in question.lower():
        # a change of a line item asked: the one a sentence states (a row matching only the question's own
        # words, "Against a forecast GDP", is too loose a reading of a sentence), unless a table's row
        # names the item better ("Total Pharmaceutical Sales" is a poorer "sales" than "worldwide sales")
        stated = _stated_change(doc, pages[:read], groups, q_terms, years, period_asked(question))
        if stated is not None and (computed is None or stated.score > computed.score):
            return stated
    if computed is not None:
        return computed
    rows = table_rows(doc, pages[:read])
    if years:
        rows = _dated_rows(rows)
    wanted = years[-1:] if len(years) == 1 else years
    want = asked(question, groups, org_terms(doc), doc, label_terms(doc))
    found = unit_asked_first(question, [(s, f) for s, f in pick(
        rows, groups, q_terms, wanted, period=period_asked(question), strict=True, org=org_terms(doc), want=want)
        if fits_kind(question, f)])
    if further and groups and (not found or found[0][1].score < STRONG_ROW):
        extra = table_rows(doc, [p for p in further if p not in pages[:read]])
        more = [f for _, f in pick(_dated_rows(extra) if years else extra, groups, q_terms,
                                    wanted, period=period_asked(question), strict=True, want=want)
                if fits_kind(question, f) and names_asked_first(f.label, groups)]
        if more and more[0].score >= STRONG_ROW:
            found = [(more[0].score, more[0])]
    found = [sf for sf in found if names_every_item(sf[1].label, groups, question)
             and names_asked_first(sf[1].label, groups)]
    if not found:
        return None
    score, fig = found[0]
    if not fig.unit and not fig.cell.percent:  # the same line's figure where its unit is printed (Costco's EPS note
        fig = next((f for _, f in found if f.unit and f.cell.value == fig.cell.value  # repeats its net income without
                    and norm_text(f.label) == norm_text(fig.label) and f.period == fig.period), fig)  # the millions)
    return Direct(fig.line(), (fig,), "figure", fig.score)


def _dated_rows(rows: list) -> list:
    """``rows`` (rank, page, row) without those whose year cannot be told: a label printed more than once on a page
    with other figures and no year columns (Pfizer's statement of equity: "Net income" in each year's block)."""
    seen: dict[tuple[int, str], set] = {}
    for _, page, r in rows:
        if not r.columns:
            seen.setdefault((page, norm_text(r.label)), set()).add(tuple(c.text for c in r.cells))
    return [(rank, page, r) for rank, page, r in rows
            if r.columns or len(seen.get((page, norm_text(r.label)), ())) < 2]


def names_every_item(label: str, groups: Sequence[str], question: str = "") -> bool:
    """A row's ``label`` names the line item a question names first, when it names two or more: the first is what
    is asked, the next qualify it ("depreciation on property and equipment", "interest expense on long-term debt").
    "Total property and equipment, net" leaves depreciation out, and its figure is the asset, not the expense;
    "Interest expense" names what is asked. When ``question`` asks to combine them (a ratio, a margin: "cash to
    total liabilities ratio", "D&A % margin") no row naming one of them is the answer. A name counts by its own
    words, not the neutral ones ("net sales" does not name net income). A question naming one line item is matched
    by :func:`pick` alone."""
    if len(groups) < 2:
        return True
    held = set(terms(label))

    def names(group: str) -> bool:
        return any(line_says(label, name) or (own and own <= held) for name, own in group_terms(group)[0])

    if _COMBINES.search(question) or _operands(question)[0]:
        return all(names(g) for g in groups)
    return names(groups[0])


def names_asked_first(label: str, groups: Sequence[str]) -> bool:
    """A row's ``label`` that names another line item, by a name of two words or more, before the one asked is that other
    item's figure, the one asked its purpose or its object: "Net income for diluted earnings per share" is net income
    (in millions), "Interest expense on long-term debt" no debt. A label naming no item by a phrase ("Diluted" under
    "Earnings per share:"), the one asked first, or another by one word ("Cash paid for income taxes") is left to
    :func:`pick`."""
    named = concepts(label)
    # a one-word name before the item asked says how it was paid or held ("Cash paid for income taxes"), no item
    return not named or named[0] in groups or not set(named) & set(groups) or not named_in_words(label, named[0])


_COMBINES = re.compile(r"\b(?:ratio|margin|divided by|percentage of|as a (?:%|percent(?:age)?) of)\b", re.IGNORECASE)


def asks_line_item(question: str) -> bool:
    """The question asks for one line item's figure as printed (a row of a table answers it): it
    names a line item of the lexicon and asks for no computation (a ratio, a defined formula,
    "A / B") and no change between periods."""
    return bool(concepts(question)) and not _operands(question)[0] and not CHANGE_WORDS.search(question)


def _stated_change(doc, pages, groups, q_terms, years, period) -> Direct | None:
    """The change a sentence of ``pages`` states for the line item asked, as a percentage ("worldwide
    sales increased 1.3%"), in the later year asked; None when no sentence names the item well."""
    rows = [(rank, page, r) for rank, page in enumerate(pages) if 1 <= page <= doc.page_count
            for r in change_rows(doc.page(page).text)]
    found = pick(rows, groups, q_terms, sorted(years)[-1:], period=period, strict=True)
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
    if len(years) == 1 and CHANGE_WORDS.search(question) and "cagr" not in low:
        rows = table_rows(doc, pages)
        printed = printed_change(rows, concepts(question), q_terms, years[0], period_asked(question),
                                  bool(re.search(r"%|percent|rate|growth|grow|grew", low)))
        if printed is not None:
            return printed
        years = [str(int(years[0]) - 1), years[0]]
    if len(years) >= 2 and CHANGE_WORDS.search(question):
        rows = table_rows(doc, pages)
        groups = concepts(question)
        a, b = sorted(years[:2])
        period = period_asked(question)  # "the fourth quarter of 2023 compared with 2022": the quarters' columns
        first = [f for _, f in pick(rows, groups, q_terms, [a], period=period) if f.period == a]
        second = [f for _, f in pick(rows, groups, q_terms, [b], period=period) if f.period == b]
        pairs = [(f_a, f_b) for f_b in second for f_a in first if f_a.page == f_b.page and f_a.row == f_b.row]
        # a year printed in another table (a balance sheet shows two years): the same line item, read as well
        pairs += [(f_a, f_b) for f_b in second[:1] for f_a in first[:1] if min(f_a.score, f_b.score) >= STRONG_ROW
                  and norm_text(f_a.label) == norm_text(f_b.label) and f_a.unit == f_b.unit]
        for f_a, f_b in pairs:
            if not f_a.value:
                continue
            diff = f_b.value - f_a.value
            n_years = int(b) - int(a)
            ratio = f_b.value / f_a.value
            if ("cagr" in low or "compound" in low) and ratio > 0 and n_years > 0:  # else no compound rate exists
                rate = (ratio ** (1 / n_years) - 1) * 100
                what = f"CAGR {a}–{b}: ({fmt(f_b.value)} / {fmt(f_a.value)})^(1/{n_years}) - 1 = {rate:.1f}%"
            else:
                pct = diff / abs(f_a.value) * 100
                what = (f"change {a}→{b}: {fmt(f_b.value)} - {_operand(f_a.value)} = {fmt(diff)}"
                        f" ({pct:+.1f}%)")
            pages_cited = f"p. {f_b.page}" if f_a.page == f_b.page else f"pp. {f_a.page}, {f_b.page}"
            text = f"{f_b.label}: {what} — {a}: {f_a.amount()}, {b}: {f_b.amount()} ({pages_cited})"
            return Direct(text, (f_a, f_b), "change", min(f_a.score, f_b.score))
    # 2. a ratio the question defines, one the lexicon names, or "A to B ratio"
    operands, percent, name = _operands(question)
    if len(operands) < 2:
        return None
    rows = rows if rows is not None else table_rows(doc, pages)
    if name and any(norm_text(name) in norm_text(r.label) for _, _, r in rows):
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


_YEARS_AVERAGE = re.compile(r"\b(?:\d{1,2}|two|three|four|five)[- ]year average\b", re.IGNORECASE)
_TO_RATIO = (re.compile(r"\bratio of (?P<a>.+?) to (?P<b>.+?)(?:$|[?,;.]| for | in | of | at )", re.IGNORECASE),
             re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?) to (?P<b>[\w&'’,. -]{1,80}?) ratio\b", re.IGNORECASE),
             re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?) as an? (?:%|percent|percentage|share) of (?P<b>[\w&'’,. -]+)",
                        re.IGNORECASE))
_MARGIN = re.compile(r"\b(?P<a>[\w&'’,. -]{1,80}?)\s*(?:%|percent|percentage)?\s*margins?\b", re.IGNORECASE)


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
    m = DEFINED.search(question)
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
    name = ratio_named(question, loose=False)  # by its phrase; by its words in another order last of all
    if name is not None:
        return _named_ratio(name, percent)
    for name in sorted(formulas, key=len, reverse=True):  # "free cash flow" = operating cash flow - capex
        if formulas[name] and name not in lex["groups"] and norm_text(name) in norm_text(question):  # (a group's own rows first)
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
    name = ratio_named(question)  # "the turnover of Nike's payables"
    return _named_ratio(name, percent) if name else ([], percent, "")


def _named_ratio(name: str, percent: bool) -> tuple[list[tuple[str, list[str]]], bool | str, str]:
    """A lexicon ratio's operands, whether it is a percentage, its name (see :func:`_operands`)."""
    lex = lexicon()
    num, den = lex["ratios"][name]
    rate = "rate" in name or name in lex.get("rates", ())  # shown both ways: "0.05 (5.1%)"
    return [("", [num]), ("/", [den])], percent or "margin" in name or ("name" if rate else False), name


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
        term = next((t for t in defined or {} if norm_text(t) in norm_text(part)), None)
        if term is not None and k == 0:
            operands.extend(defined[term])
            continue
        g = concepts(part)
        if not g:
            return []
        average = bool(re.search(r"\baverage\b", part, re.IGNORECASE))
        operands.append((op, [(AVERAGE if average else "") + g[0]]))
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
        average = group.startswith(AVERAGE)
        group = group[len(AVERAGE):] if average else group
        average = average or (between and "average" in low and op == "/" and k == len(operands) - 1)
        best = pick(rows, [group], set(), wanted, period=period)
        formula = _expression(lexicon().get("formulas", {}).get(group, ""))
        if not best and formula and not average and formula != operands:  # EBITDA printed nowhere: OI + D&A
            sub = _ratio(rows, formula, year, low, percent)
            if sub is None:
                return None
            base = base if figures else sub[1][0].unit
            figures.extend(sub[1])
            to_base = _rescale(sub[1][0].unit, base) if all(o in ("-", "+") for o, _ in formula[1:]) else 1.0
            values.append(sub[0] * to_base)
            sub_text = sub[2] if to_base == 1.0 else fmt(sub[0] * to_base)
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
        text = fmt(value)
        if average:
            prev = str(int(fig.period or year) - 1) if (fig.period or year).isdigit() else ""
            other = next((f for _, f in pick(rows, [group], set(), [prev], period=period) if f.row == fig.row), None)
            if other is not None:
                value = (sign(fig.value) + sign(other.value)) / 2
                text = f"avg({fmt(sign(other.value))}, {fmt(sign(fig.value))})"
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
    return f"({fmt(x)})" if x < 0 else fmt(x)


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
        return f"{sign}{figures[0].currency}{fmt(abs(result))}" + (f" {UNIT_WORD[unit]}" if unit in UNIT_WORD else "")
    if percent is True:
        return f"{result * 100:.{1 if decimals is None else decimals}f}%"
    plain = f"{result:,.{2 if decimals is None else decimals}f}"
    return f"{plain} ({result * 100:.1f}%)" if percent == "name" else plain


_DECIMALS = re.compile(r"\b(one|two|three|four|[1-4]) ?(?:decimals?|dp\b|d\.p\.)", re.IGNORECASE)  # "3 dp", "2dp"


def decimals_asked(question: str) -> int | None:
    """The rounding a question asks for ("round to three decimal places", "3 dp" → 3), None when none."""
    m = _DECIMALS.search(question)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else ("one", "two", "three", "four").index(word) + 1


def _cites(figures) -> str:
    return "; ".join(dict.fromkeys(f"{f.label}{', ' + f.period if f.period else ''}: {f.amount()} (p. {f.page})"
                                   for f in figures))
