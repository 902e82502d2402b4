"""How robust is the direct figure answer to the ways statements are laid out?

Generates small financial statements with PyMuPDF (deterministic by ``--seed``) that vary one
layout trait at a time from a base layout, and a few combinations of traits; each holds figures
the generator knows. Figure questions go through the real engine (``Engine.ask_document`` on
``index_bytes``), and the direct answer is checked two ways:

* **carries**: the direct answer line holds the figure printed for the row and year asked
  (:func:`alphasearch.read.figures.carries`: numbers compared up to a unit scale, sign aside), the
  measure the eval's "direct" figure uses;
* **exact**: the figure it states, sign and unit word read, is the right amount (a figure read
  in thousands but stated in millions, or a loss stated as a profit, fails here only).

Traits (base first): year order (descending, ascending); the column header (each year its own
text object; "2022 2021 2020" as one, "% Change" between the years on the same line; "Fiscal
2022"; "FY22"; "Year Ended December 31," over the years; "Year Ended" over "Dec. 31, 2022" per
column; "52 Weeks Ended" over dates; "2021 (As Restated)"); the unit ("(In millions, except per
share data)", "(in thousands)", "($ in billions)", none, "£m" or "$000" under each year); the "$"
sign (its own text object, glued to the figure, absent); negatives ("(1,577)", "-1,577", "(1,577"
with its ")" apart); zero ("—", "-", "0"); a footnote mark on the revenue label ("Net sales (1)",
"Revenue¹", a raised "1" of its own); dot leaders; labels wrapped over two lines; the revenue
label's synonym; revenue as a section ("Revenues:", its parts, its total named or a bare
"Total"); each row one text object; the page (one statement, an income statement and a segment
table on one page, a one-column table, a "% Change" column between the years, on a landscape
page). Questions name the year as "in 2022", "in FY2022", "in FY22", "for fiscal 2022", "in
fiscal year 2022", "for the year ended December 31, 2022", "as of December 31, 2022" (balance
sheet), before the line item ("the company's 2022 cost of revenues"), or not at all (the latest
year is the answer). The traits were written while fixing the reader: a new layout is the test
of it, a score here is not.

``--held-out``: traits written after that, and first measured before any change to the reader for
them (HELD_OUT): a 10-Q's "Three Months Ended March 31," columns and questions about a quarter
("in Q1 2022", "in the first quarter of 2022", "for the three months ended March 31, 2022"); a third
quarter's "Three Months Ended" and "Nine Months Ended" columns side by side; an earnings release's
fourth quarter beside its year (a question naming only the year asks for the year); a balance sheet
at a quarter's end beside the last year end; "Year Ended June 30,"; the unit in the title's line or at
the left of the years' line; millions with a decimal; a trailing minus ("1,577-") and a unicode minus;
thousands apart by spaces ("1 234"); a "Note" column; labels in capitals or in IFRS words ("Profit for
the year", "Cost of sales"); an operating expenses section with its total; the statement running onto
a second page under no column header; a "% of revenue" column after each year; the balance sheet and
the cash flows side by side; the question naming the line item in other words ("net profit",
"diluted EPS"); the year named otherwise ("for FY 2022", "in the 2022 fiscal year"). Each document is
also asked for a period it does not hold ("in 2019"; "for full year 2022" of a quarter): the right
answer states no figure ("absent"; its carries = no direct answer). Besides carries and exact, each
group shows the fallback share (no direct answer) and the wrong share (a figure stated, not the right
amount): a wrong figure stated is worse than a fallback.

    ALPHASEARCH_DATA_DIR=$(mktemp -d) python benchmarks/figure_robustness.py [--seed 7] [--failures] [--held-out]

Prints the share per trait value and overall, and writes benchmarks/out/figure_robustness.json (``make_results.py`` runs three seeds and keeps them in benchmarks/results/).
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.common import write_json  # noqa: E402

from alphasearch.config import Settings  # noqa: E402
from alphasearch.read.figures import carries  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402

BASE = {"order": "desc", "header": "plain", "unit": "millions", "dollar": "separate", "negative": "parens",
        "zero": "emdash", "footnote": "none", "leaders": "no", "wrap": "no", "revenue_label": "Total revenues",
        "revenue_rows": "one", "cells": "apart", "layout": "single"}
VARIANTS = {
    "order": ["asc"],
    "header": ["one_line", "fiscal", "fy_short", "year_ended", "year_ended_each", "weeks", "restated"],
    "unit": ["thousands", "billions", "none", "gbp_m", "usd_000"],
    "dollar": ["glued", "none"],
    "negative": ["minus", "split_paren"],
    "zero": ["hyphen", "digit"],
    "footnote": ["paren", "super", "raised"],
    "leaders": ["yes"],
    "wrap": ["yes"],
    "revenue_label": ["Net sales", "Total net revenue", "Revenues, net", "Revenue"],
    "revenue_rows": ["sections", "bare_total"],
    "cells": ["joined"],
    "layout": ["two_tables", "one_column", "change_column"],
}
COMBINATIONS = 10  # documents drawing every trait at random (besides the base and the one-trait documents)

# Held-out traits (``--held-out``): layouts of real filings, 10-Qs and earnings releases written after the
# reader was fixed against VARIANTS, and measured before any change to the reader for them. Their base
# values (below) leave a document as VARIANTS draws it.
HELD_OUT_BASE = {"period": "annual", "numbers": "comma", "notes": "no", "labels": "us", "opex": "no", "split": "no",
                 "wording": "us", "phrasing": "old", "absent": "no"}
HELD_OUT = {
    "period": ["quarter", "ytd", "q4_year"],  # a 10-Q's quarter; a 10-Q's quarter and nine months; Q4 and the year
    "header": ["fiscal_june"],  # "Year Ended June 30," over the years
    "unit": ["title_thousands", "header_row", "millions_decimal"],
    "negative": ["trailing", "unicode_minus"],  # "1,577-"; "−1,577"
    "numbers": ["space"],  # "1 234 567"
    "notes": ["yes"],  # a "Note" column between the labels and the figures
    "labels": ["caps", "ifrs"],  # "TOTAL REVENUES"; "Revenue", "Cost of sales", "Profit for the year"
    "opex": ["section"],  # "Operating expenses:" its parts, "Total operating expenses"
    "split": ["yes"],  # the statement runs onto the next page, its header only on the first
    "layout": ["pct_revenue", "side_by_side"],  # "% of revenue" after each year; two statements side by side
    "wording": ["synonyms"],  # the question names the line item in other words than the label
    "phrasing": ["held_out"],  # the year named in other ways
}
HELD_OUT_COMBINATIONS = 16
HELD_OUT_PHRASINGS = ["during {y}", "for {y}", "for FY {y}", "in the {y} fiscal year", "for full year {y}",
                      "over fiscal year {y}"]
PERIOD_PHRASINGS = {
    "quarter": ["in the first quarter of {y}", "in Q1 {y}", "for the three months ended March 31, {y}"],
    "ytd": ["in the third quarter of {y}", "in Q3 {y}", "for the three months ended September 30, {y}"],
    "q4_year": ["in the fourth quarter of {y}", "in Q4 {y}", "for the three months ended December 31, {y}"],
    "9M": ["for the nine months ended September 30, {y}", "in the first nine months of {y}"],
}
PERIOD_GROUPS = {  # the column groups of the income statement: (heading, column key prefix)
    "quarter": [("Three Months Ended March 31,", "3M")],
    "ytd": [("Three Months Ended September 30,", "3M"), ("Nine Months Ended September 30,", "9M")],
    "q4_year": [("Three Months Ended December 31,", "3M"), ("Year Ended December 31,", "FY")],
}
IFRS = {"Total revenues": "Revenue", "Cost of revenues": "Cost of sales",
        "Research and development": "Research and development expenses", "Impairment charges": "Impairment losses",
        "Operating income": "Operating profit", "Net income (loss)": "Profit (loss) for the year",
        "Net income (loss) attributable to\ncommon shareholders": "Profit (loss) for the year attributable to\nowners "
        "of the parent", "Diluted earnings (loss) per share": "Diluted earnings per share",
        "Net cash provided by operating activities": "Net cash from operating activities",
        "Purchases of property and equipment": "Purchase of property, plant and equipment",
        "Purchases of property, plant and\nequipment": "Purchase of property, plant and\nequipment",
        "Selling, general and administrative": "Selling and distribution expenses",
        "Total operating expenses": "Total operating expenses", "Operating expenses:": "Operating expenses:"}
NOTES = {"revenue": "4", "cost": "5", "rnd": "5", "impairment": "11", "net": "", "eps": "9", "opi": "",
         "cash": "14", "assets": "", "liabilities": "", "ocf": "", "capex": "12", "sga": "6", "opex": ""}
PHRASINGS = ["in {y}", "in FY{y}", "for fiscal {y}", "in fiscal year {y}", "in FY{yy}",
             "for the year ended December 31, {y}"]
YEARS = ("2022", "2021", "2020")
UNIT_LINE = {"millions": "(In millions, except per share data)", "thousands": "(in thousands, except per share data)",
             "billions": "($ in billions, except per share data)", "none": "", "gbp_m": "", "usd_000": "",
             "title_thousands": "", "header_row": "", "millions_decimal": "(In millions, except per share data)"}
SCALE = {"millions": 1e6, "thousands": 1e3, "billions": 1e9, "none": 1.0, "gbp_m": 1e6, "usd_000": 1e3,
         "title_thousands": 1e3, "header_row": 1e6, "millions_decimal": 1e6}
TITLE_UNIT = {"title_thousands": " (in thousands, except per share data)"}  # the unit in the title's own line
HEADER_UNIT = {"header_row": "(In millions)"}  # the unit at the left of the years' line
COLUMN_UNIT = {"gbp_m": "£m", "usd_000": "$000"}  # the unit printed under each year instead of a unit line
WIDTH, HEIGHT = 612, 792
WIDE = WIDTH + 180  # a page for a table of five columns (landscape)
FONT = pymupdf.Font("helv")  # written through TextWriter: unicode text ("—", "¹") with Helvetica's glyphs


# --- figures ----------------------------------------------------------------------------------
@dataclass
class Item:
    label: str  # as printed (may be wrapped with "\n")
    dollars: dict[str, float]  # year -> amount in dollars (None: zero, printed as the zero style)
    per_share: bool = False
    total: bool = False  # a "$" row
    note: str = ""  # the note number in a "Note" column


def _figures(rng: random.Random) -> dict[str, dict[str, float]]:
    """Amounts in dollars per line item and year: revenue growing, a loss in one year, capex negative."""
    rev = {"2020": rng.uniform(20, 80) * 1e9}
    rev["2021"] = rev["2020"] * rng.uniform(1.05, 1.25)
    rev["2022"] = rev["2021"] * rng.uniform(1.05, 1.25)
    cost = {y: v * rng.uniform(0.55, 0.7) for y, v in rev.items()}
    rnd = {y: v * rng.uniform(0.08, 0.14) for y, v in rev.items()}
    opi = {y: rev[y] - cost[y] - rnd[y] for y in YEARS}
    loss = rng.choice(YEARS)
    net = {y: (-1 if y == loss else 1) * opi[y] * rng.uniform(0.3, 0.6) for y in YEARS}
    eps = {y: net[y] / rng.uniform(1.5, 3.0) / 1e9 for y in YEARS}
    impairment = {y: (rng.uniform(0.2, 0.9) * 1e9 if y == "2021" else 0.0) for y in YEARS}
    capex = {y: -v * rng.uniform(0.04, 0.08) for y, v in rev.items()}
    ocf = {y: abs(opi[y]) * rng.uniform(0.8, 1.1) for y in YEARS}
    assets = {y: rev[y] * rng.uniform(1.2, 1.6) for y in YEARS}
    liabilities = {y: assets[y] * rng.uniform(0.4, 0.7) for y in YEARS}
    cash = {y: assets[y] * rng.uniform(0.05, 0.15) for y in YEARS}
    return {"revenue": rev, "cost": cost, "rnd": rnd, "impairment": impairment, "opi": opi, "net": net,
            "eps": eps, "capex": capex, "ocf": ocf, "assets": assets, "liabilities": liabilities, "cash": cash}


def _printed_number(dollars: float, unit: str, per_share: bool) -> float:
    """The number a statement in ``unit`` prints for an amount (rounded as printed)."""
    if per_share:
        return round(dollars, 2)
    if unit == "billions":
        return round(dollars / 1e9, 1)
    if unit == "millions_decimal":
        return round(dollars / 1e6, 1)
    return float(round(dollars / SCALE[unit]))


def _cell_text(dollars: float, unit: str, t: dict, per_share: bool, dollar_sign: bool) -> str:
    if dollars == 0:
        return {"emdash": "—", "hyphen": "-", "digit": "0"}[t["zero"]]
    n = _printed_number(dollars, unit, per_share)
    body = (f"{abs(n):,.2f}" if per_share else f"{abs(n):,.1f}" if unit in ("billions", "millions_decimal")
            else f"{abs(n):,.0f}")
    if t.get("numbers") == "space":
        body = body.replace(",", " ")
    glued = "$" if dollar_sign and t["dollar"] == "glued" else ""
    if n < 0:
        if t["negative"] == "trailing":
            return f"{glued}{body}-"
        if t["negative"] == "unicode_minus":
            return f"\u2212{glued}{body}"
        return f"{glued}({body})" if t["negative"] != "minus" else f"-{glued}{body}"
    return f"{glued}{body}"


# --- layout -----------------------------------------------------------------------------------
class Page:
    def __init__(self, doc: pymupdf.Document, width: float = WIDTH):
        self.page = doc.new_page(width=width, height=HEIGHT)

    def text(self, x: float, y: float, s: str, size: float = 9, right: bool = False) -> None:
        """One text object at (x, y) (its right end at x when ``right``)."""
        if right:
            x -= FONT.text_length(s, fontsize=size)
        writer = pymupdf.TextWriter(self.page.rect)
        writer.append((x, y), s, font=FONT, fontsize=size)
        writer.write_text(self.page)


def _columns(t: dict, years: list[str], change: bool, right: float | None = None) -> list[tuple[str, float]]:
    """(column key, right edge x) of each column: a key is a year ("2022"), a period's year ("3M:2022"), "%"
    (a change), "%r:<key>" (the share of revenue of the column on its left) or "N" (the note)."""
    cols: list[str] = []
    for k, y in enumerate(years):
        if change and k > 0:
            cols.append("%")
        cols.append(y)
        if t.get("layout") == "pct_revenue":
            cols.append(f"%r:{y}")
    if t.get("notes") == "yes":
        cols.insert(0, "N")
    step = 84 if len(cols) > 3 else 80
    if right is None:
        right = WIDTH - 50 if len(cols) <= 3 else WIDTH + 130  # four columns or more: a landscape page (WIDE)
    gaps = [step if not c.startswith("%r:") else 52 for c in cols[1:]]  # a share of revenue sits close to its year
    xs = [right]
    for g in reversed(gaps):
        xs.insert(0, xs[0] - g)
    return list(zip(cols, xs))


def _year(key: str) -> str:
    return key.split(":")[-1]


def _header_held_out(p: Page, t: dict, cols: list[tuple[str, float]], y: float, style: str, left: float) -> float:
    """The column header of the held-out traits: period groups ("Three Months Ended March 31," over its
    years), a balance sheet at a quarter's end ("March 31," / "December 31," over each year), "Year Ended
    June 30,", a "Note" column, "% of revenue" columns, the unit at the left of the years' line."""
    keys = [c for c, _ in cols if c != "N" and not c.startswith("%")]
    under = COLUMN_UNIT.get(t["unit"], "")
    groups: dict[str, list[float]] = {}
    for c, x in cols:
        if c in keys:
            groups.setdefault(c.split(":")[0] if ":" in c else "", []).append(x)
    heading = {pre: h for h, pre in PERIOD_GROUPS.get(t.get("period"), [])}
    for pre, xs in groups.items():
        if pre in heading:  # a period's heading centred over its columns
            h = heading[pre]
            mid = (min(xs) - 40 + max(xs)) / 2
            p.text(mid - FONT.text_length(h, fontsize=8) / 2, y, h, size=8)
    june = t["header"] == "fiscal_june"
    for c, x in cols:
        if c == "N":
            p.text(x, y + 14, "Note", size=8, right=True)
        elif c.startswith("%r:"):
            p.text(x, y + 6, "% of", size=7, right=True)
            p.text(x, y + 14, "revenue", size=7, right=True)
        elif c.startswith(("Mar:", "Sep:")):  # a balance sheet at a quarter's end
            p.text(x, y + 6, "March 31," if c.startswith("Mar:") else "September 30,", size=7, right=True)
            p.text(x, y + 14, _year(c), size=9, right=True)
        elif style == "as_of" and (":" not in c):
            p.text(x, y + 6, "June 30," if june else "December 31,", size=7, right=True)
            p.text(x, y + 14, c, size=9, right=True)
        else:
            p.text(x, y + 14, _year(c), size=9, right=True)
    if june and style != "as_of" and not heading:
        xs = [x for c, x in cols if c in keys]
        h = "Year Ended June 30,"
        p.text((min(xs) - 40 + max(xs)) / 2 - FONT.text_length(h, fontsize=8) / 2, y, h, size=8)
    if t["unit"] in HEADER_UNIT:
        p.text(left, y + 14, HEADER_UNIT[t["unit"]], size=8)
    if under:
        for c, x in cols:
            if c in keys:
                p.text(x, y + 24, under, size=8, right=True)
    return y + 34


def _header(p: Page, t: dict, cols: list[tuple[str, float]], y: float, as_of: bool, left: float = 60) -> float:
    """The column header from ``y``; returns the y of the first row."""
    years = [c for c, _ in cols if c != "%"]
    style = t["header"]
    if as_of and style not in ("one_line",):
        style = "as_of"
    first, last = cols[0][1] - 45, cols[-1][1]
    under = COLUMN_UNIT.get(t["unit"], "")
    if any(c == "N" or c.startswith("%r:") for c, _ in cols) or ":" in "".join(years) or t["header"] == "fiscal_june" or (
            t["unit"] in HEADER_UNIT):
        return _header_held_out(p, t, cols, y, style, left)
    if style == "one_line":
        p.text(first, y + 14, "   ".join(years) if len(years) == len(cols) else
               "   ".join("% Change" if c == "%" else c for c, _ in cols), size=9)
        if under:
            p.text(first, y + 24, "   ".join(under if c != "%" else "" for c, _ in cols), size=8)
        return y + 34
    above = {"year_ended": "Year Ended December 31,", "weeks": "52 Weeks Ended"}.get(style)
    if above:
        p.text((first + last) / 2 - 50, y, above, size=8)
    top = {"year_ended_each": "Year Ended", "as_of": "December 31,"}.get(style)
    if top:  # a first header line over each year column, written row by row
        for c, x in cols:
            if c != "%":
                p.text(x, y + 6, top, size=7, right=True)
    for c, x in cols:
        if c == "%":
            p.text(x, y + 14, "% Change", size=8, right=True)
        elif style in ("plain", "year_ended", "as_of"):
            p.text(x, y + 14, c, size=9, right=True)
        elif style == "restated":  # the prior years restated, as after a change of accounting
            p.text(x, y + 14, c if c == "2022" else f"{c} (As Restated)", size=7, right=True)
        elif style == "fiscal":
            p.text(x, y + 14, f"Fiscal {c}", size=9, right=True)
        elif style == "fy_short":
            p.text(x, y + 14, f"FY{c[2:]}", size=9, right=True)
        elif style == "year_ended_each":
            p.text(x, y + 14, f"Dec. 31, {c}", size=7, right=True)
        elif style == "weeks":
            day = {"2022": "31", "2021": "25", "2020": "26"}[c]
            p.text(x, y + 14, f"Dec. {day}, {c}", size=7, right=True)
    if under:
        for c, x in cols:
            if c != "%":
                p.text(x, y + 24, under, size=8, right=True)
    return y + 34


def _share_of_revenue(item: Item, key: str, revenue: dict | None) -> str:
    value, total = item.dollars.get(key), (revenue or {}).get(key)
    return "" if value is None or not total or item.per_share else f"{value / total * 100:.1f}%" if value else "—"


def _rows(p: Page, t: dict, cols: list[tuple[str, float]], items: list[Item], y: float, unit: str, left: float = 60,
          revenue: dict | None = None) -> float:
    """The rows from ``y``, their labels at ``left``; ``revenue``: the amounts a "% of revenue" column divides by."""
    for item in items:
        lines = item.label.split("\n")
        for extra in lines[:-1]:  # a wrapped label: its first lines above the figures
            p.text(left, y, extra)
            y += 11
        label = lines[-1]
        if t["leaders"] == "yes" and item.dollars:  # a heading of rows has no leaders
            first = cols[1][1] - 84 if cols[0][0] == "N" else cols[0][1]
            room = first - 100 - (left + 6) - FONT.text_length(label, fontsize=9)  # up to the first column's "$"
            label += " " + "." * max(3, int(room / FONT.text_length(".", fontsize=9)))
        p.text(left if len(lines) == 1 else left + 6, y, label)
        if item.label.startswith(("Total revenues", "Net sales", "Total net revenue", "Revenues, net", "Revenue")):
            if t["footnote"] == "raised":
                p.text(left + FONT.text_length(lines[-1], fontsize=9) + 1, y - 3, "1", size=6)
        dollar = item.total or item is items[0]
        if not item.dollars:  # a section's heading ("Revenues:")
            y += 15
            continue
        if t["cells"] == "joined":  # the row as one text object: label and figures apart by spaces
            cells = []
            for k, (c, _) in enumerate(cols):
                if c == "N" or c.startswith("%r:"):
                    cell = item.note if c == "N" else _share_of_revenue(item, c[3:], revenue)
                    if cell:
                        cells.append(cell)
                    continue
                if c == "%":
                    a, b = item.dollars.get(cols[k - 1][0]), item.dollars.get(cols[k + 1][0])
                    cells.append("n/m" if not a or not b or a < 0 or b < 0 else f"{(a / b - 1) * 100:.1f}%")
                    continue
                value = item.dollars.get(c)
                sign = "$ " if dollar and t["dollar"] == "separate" and value else ""
                cells.append(sign + _cell_text(value, unit, t, item.per_share, dollar))
            p.text(cols[0][1] - 60 if cols[0][0] != "N" else cols[0][1] - 20, y, "  ".join(cells))
            y += 15
            continue
        for k, (c, x) in enumerate(cols):  # left to right, as a row is printed
            if c == "N" or c.startswith("%r:"):
                cell = item.note if c == "N" else _share_of_revenue(item, c[3:], revenue)
                if cell:
                    p.text(x, y, cell, size=8, right=True)
                continue
            if c == "%":  # the change of the year on its left over the one on its right
                a, b = item.dollars.get(cols[k - 1][0]), item.dollars.get(cols[k + 1][0])
                p.text(x, y, "n/m" if not a or not b or a < 0 or b < 0 else f"{(a / b - 1) * 100:.1f}%", size=8,
                       right=True)
                continue
            value = item.dollars.get(c)
            if value is None:
                continue
            if dollar and t["dollar"] == "separate" and value != 0:
                p.text(x - 48, y, "$")
            s = _cell_text(value, unit, t, item.per_share, dollar)
            if t["negative"] == "split_paren" and s.endswith(")"):  # the closing bracket a text object of its own
                p.text(x - FONT.text_length(")", fontsize=9), y, s[:-1], right=True)
                p.text(x - FONT.text_length(")", fontsize=9), y, ")")
            else:
                p.text(x, y, s, right=True)
        y += 15
    return y


@dataclass
class Question:
    text: str
    printed: float  # the figure as printed (in the table's unit)
    dollars: float | None  # the amount (None for per-share)
    per_share: bool
    kind: str  # what the question varies: its phrasing
    phrasing: str


@dataclass
class Document:
    name: str
    traits: dict
    data: bytes = b""
    questions: list[Question] = field(default_factory=list)


def _revenue_label(t: dict) -> str:
    label = t["revenue_label"]
    return label + {"none": "", "paren": " (1)", "super": "¹", "raised": ""}[t["footnote"]]


BALANCE = ("cash", "assets", "liabilities")


def _period_figures(rng: random.Random, f: dict, period: str, order: str) -> tuple[dict, list, list, list]:
    """A 10-Q's or an earnings release's amounts: per line item, per column key ("3M:2022" the quarter,
    "9M:2022" nine months, "FY:2022" the year, "Mar:2022"/"Sep:2022" a balance at a quarter's end), and the
    column keys of the income statement, the balance sheet and the cash flows."""
    pair = ["2022", "2021"] if order == "desc" else ["2021", "2022"]
    share3 = {y: rng.uniform(0.22, 0.28) for y in ("2022", "2021")}
    share9 = {y: rng.uniform(0.72, 0.78) for y in ("2022", "2021")}
    fx = {k: dict(v) for k, v in f.items()}
    for k in f:
        if k in BALANCE:
            fx[k]["Mar:2022"] = f[k]["2021"] * rng.uniform(0.97, 1.06)
            fx[k]["Sep:2022"] = f[k]["2021"] * rng.uniform(1.0, 1.1)
            continue
        for y in ("2022", "2021"):
            wobble = rng.uniform(0.92, 1.08)
            fx[k][f"3M:{y}"] = f[k][y] * share3[y] * wobble
            fx[k][f"9M:{y}"] = f[k][y] * share9[y] * wobble
            fx[k][f"FY:{y}"] = f[k][y]
    groups = [pre for _, pre in PERIOD_GROUPS[period]]
    income = [f"{pre}:{y}" for pre in groups for y in pair]
    end = {"quarter": "Mar:2022", "ytd": "Sep:2022", "q4_year": "2022"}[period]
    balance = [end, "2021"] if order == "desc" else ["2021", end]
    flows = [f"{groups[-1]}:{y}" for y in pair]
    return fx, income, balance, flows


def _label(t: dict):
    """The label as the statement prints it: US GAAP words (as given), IFRS words, or in capitals."""
    def label(s: str) -> str:
        if t["labels"] == "ifrs":
            s = IFRS.get(s, s)
        return s.upper() if t["labels"] == "caps" else s
    return label


WORDING = {  # the question per line item, as the label says it and in other words
    "us": {"revenue": "What were total revenues {when}?", "latest": "What were the company's revenues {when}?",
           "net": "What was net income {when}?", "capex": "What was capital expenditure {when}?",
           "assets": "What were total assets {when}?", "eps": "What were the diluted earnings per share {when}?",
           "impairment": "What were the impairment charges {when}?", "opi": "What was operating income {when}?",
           "cost": "What was the company's {when} cost of revenues?",
           "opex": "What were total operating expenses {when}?", "opex2": "What were operating expenses {when}?"},
    "synonyms": {"revenue": "How much revenue did the company generate {when}?",
                 "latest": "What were the company's sales {when}?", "net": "What was the net profit {when}?",
                 "capex": "How much did the company spend on capital expenditures {when}?",
                 "assets": "How large were the company's total assets {when}?", "eps": "What was diluted EPS {when}?",
                 "impairment": "How much impairment did the company record {when}?",
                 "opi": "What was the operating profit {when}?", "cost": "What was the company's {when} cost of sales?",
                 "opex": "How much were total operating expenses {when}?",
                 "opex2": "What did operating expenses amount to {when}?"},
}


def build(name: str, t: dict, seed: int) -> Document:
    t = {**HELD_OUT_BASE, **t}
    rng = random.Random(f"{seed}:{name}")
    f = _figures(rng)
    unit = t["unit"]
    if unit in COLUMN_UNIT:  # no "$" on the cells under a column's "£m" or "$000"
        t = {**t, "dollar": "none"}
    years = list(YEARS) if t["order"] == "desc" else list(reversed(YEARS))
    one = t["layout"] == "one_column"
    if one:
        years = ["2022"]
    period = t["period"]
    fx, bs_keys, cf_keys = f, None, None  # amounts per column key; the balance sheet's and cash flows' columns
    if period != "annual":
        fx, years, bs_keys, cf_keys = _period_figures(rng, f, period, t["order"])
    L = _label(t)
    ifrs = t["labels"] == "ifrs"

    def title(s: str) -> str:
        s += TITLE_UNIT.get(unit, "") if "Operations" in s or "Income" in s else \
            TITLE_UNIT.get(unit, "").replace(", except per share data", "")
        return s.upper() if t["labels"] == "caps" else s

    def item(label: str, key: str, **kw) -> Item:
        return Item(L(label), fx[key], note=NOTES[key] if t["notes"] == "yes" else "", **kw)

    company = rng.choice(["Harbor Lane Foods", "Northgate Instruments", "Bluewater Logistics", "Cedar Point Media",
                          "Ironwood Materials", "Summit Ridge Health"])
    doc = pymupdf.open()
    cover = Page(doc)
    cover.text(60, 90, f"{company}, Inc.", size=18)
    cover.text(60, 120, {"annual": "Annual Report 2022", "quarter": "Quarterly Report for the Period Ended March 31, "
                         "2022", "ytd": "Quarterly Report for the Period Ended September 30, 2022",
                         "q4_year": "Fourth Quarter and Full Year 2022 Results"}[period], size=12)
    cover.text(60, 150, f"{company} sells its products through distributors and its own stores in North America.")
    cover.text(60, 164, "This report holds the consolidated financial statements for the fiscal year." if period ==
               "annual" else "This report holds the condensed consolidated financial statements (unaudited).")

    # page 2: the income statement (and a segment table below it)
    cols = _columns(t, years, t["layout"] == "change_column")
    width = WIDE if cols[-1][1] > WIDTH - 50 else WIDTH
    p = Page(doc, width)
    p.text(60, 70, f"{company}, Inc.", size=10)
    p.text(60, 86, title("Consolidated Income Statement" if ifrs else "Consolidated Statements of Operations"), size=12)
    if UNIT_LINE[unit]:
        p.text(60, 100, UNIT_LINE[unit], size=8)
    y = _header(p, t, cols, 118, as_of=False)
    wrap = t["wrap"] == "yes"
    net_label = "Net income (loss) attributable to\ncommon shareholders" if wrap else "Net income (loss)"
    revenue_label = L(_revenue_label(t) if not ifrs or t["revenue_label"] != "Total revenues" else "Revenue")
    if t["revenue_rows"] == "one":
        items = [Item(revenue_label, fx["revenue"], total=True, note=NOTES["revenue"] if t["notes"] == "yes" else "")]
    else:  # a section: its heading, its parts, its total ("Total" alone under the heading, or named)
        part = {yy: v * rng.uniform(0.6, 0.8) for yy, v in fx["revenue"].items()}
        heading = t["revenue_label"].replace("Total ", "").replace(", net", "").capitalize()
        total = "Total" if t["revenue_rows"] == "bare_total" else _revenue_label(t)
        if not total.startswith("Total"):
            total = f"Total {total[:1].lower()}{total[1:]}"
        items = [Item(L(f"{heading}:"), {}), Item(L("Products"), part, total=True),
                 Item(L("Services"), {yy: fx["revenue"][yy] - part[yy] for yy in part}),
                 Item(L(total), fx["revenue"], total=True)]
    if t["opex"] == "section":  # the costs below cost of revenues as a section with its total
        sga = {yy: v * rng.uniform(0.1, 0.18) for yy, v in fx["revenue"].items()}
        fx = {**fx, "sga": sga, "opex": {yy: fx["rnd"][yy] + sga[yy] + fx["impairment"][yy] for yy in sga}}
        items += [item("Cost of revenues", "cost"), Item(L("Operating expenses:"), {}),
                  item("Research and development", "rnd"), item("Selling, general and administrative", "sga"),
                  item("Impairment charges", "impairment"), item("Total operating expenses", "opex")]
    else:
        items += [item("Cost of revenues", "cost"), item("Research and development", "rnd"),
                  item("Impairment charges", "impairment")]
    items += [item("Operating income", "opi"), item(net_label, "net", total=True),
              item("Diluted earnings (loss) per share", "eps", per_share=True, total=True)]
    if t["split"] == "yes":  # the rows below operating income on the next page, under no column header
        cut = next(i for i, it in enumerate(items) if it.dollars is fx["opi"]) + 1
        _rows(p, t, cols, items[:cut], y, unit, revenue=fx["revenue"])
        p = Page(doc, width)
        p.text(60, 70, title("Consolidated Income Statement" if ifrs else "Consolidated Statements of Operations")
               + " (continued)", size=10)
        y = _rows(p, t, cols, items[cut:], 96, unit, revenue=fx["revenue"])
    else:
        y = _rows(p, t, cols, items, y, unit, revenue=fx["revenue"])
    if t["footnote"] in ("paren", "super", "raised"):
        p.text(60, y + 10, ("(1)" if t["footnote"] == "paren" else "1") +
               " Includes revenues from contracts with customers and lease income.", size=7)
        y += 20
    segments = {}
    if t["layout"] == "two_tables":
        share = rng.uniform(0.55, 0.7)
        seg_a = {yy: v * share for yy, v in fx["opi"].items()}
        seg_b = {yy: v * (1 - share) * rng.uniform(1.1, 1.4) for yy, v in fx["opi"].items()}
        seg_total = {yy: seg_a[yy] + seg_b[yy] for yy in seg_a}
        y += 24
        p.text(60, y, "Segment Information", size=12)
        if UNIT_LINE[unit]:
            p.text(60, y + 14, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
        y = _header(p, t, cols, y + 30, as_of=False)
        _rows(p, t, cols, [Item(L("Consumer"), seg_a, total=True), Item(L("Enterprise"), seg_b),
                           Item(L("Total segment operating income"), seg_total, total=True)], y, unit)
        segments = seg_total

    # page 3: the balance sheet (as of December 31) and the cash flows (below it, or beside it)
    beside = t["layout"] == "side_by_side"
    p = Page(doc, WIDE if beside else width)
    bs_years = bs_keys or (years[:2] if not one else years)
    cf_years = cf_keys or years
    left = 40 if beside else 60
    p.text(left, 86, title("Consolidated Statement of Financial Position" if ifrs else "Consolidated Balance Sheets"),
           size=12)
    if UNIT_LINE[unit]:
        p.text(left, 100, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
    t_rest = {**t, "layout": "single"} if t["layout"] == "pct_revenue" else t  # a share of revenue on the income only
    bs_cols = _columns(t_rest, bs_years, False, right=330 if beside else None)
    y = _header(p, t, bs_cols, 118, as_of=True, left=left)
    y = _rows(p, t, bs_cols, [item("Cash and cash equivalents", "cash", total=True),
                              item("Total assets", "assets", total=True),
                              item("Total liabilities", "liabilities")], y, unit, left=left)
    cf_title = title("Consolidated Statement of Cash Flows" if ifrs else "Consolidated Statements of Cash Flows")
    if beside:
        left, y = 370, 86
        p.text(left, y, cf_title, size=12)
        if UNIT_LINE[unit]:
            p.text(left, y + 14, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
        cf_cols = _columns(t_rest, cf_years, False, right=WIDE - 40)
        y = _header(p, t, cf_cols, y + 32, as_of=False, left=left)
    else:
        p.text(60, y + 30, cf_title, size=12)
        if UNIT_LINE[unit]:
            p.text(60, y + 44, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
        cf_cols = cols if cf_keys is None and t_rest is t else _columns(t_rest, cf_years, False)
        y = _header(p, t, cf_cols, y + 60, as_of=False)
    capex_label = "Purchases of property, plant and\nequipment" if wrap else "Purchases of property and equipment"
    _rows(p, t, cf_cols, [item("Net cash provided by operating activities", "ocf", total=True),
                          item(capex_label, "capex")], y, unit, left=left, revenue=fx["revenue"])
    out = Document(name, dict(t), doc.tobytes(garbage=3, deflate=True))
    doc.close()

    def ask(what: str, key: str, year: str, phrasing: str, per_share: bool = False) -> None:
        """``year``: the column key asked (a year, or a period's year "3M:2022"); ``key`` None: a figure the
        document does not hold (the right answer states none)."""
        y4 = _year(year)
        text = what.format(when=phrasing.format(y=y4, yy=y4[2:]) if phrasing else "").replace("  ", " ")
        label = phrasing.replace("{y}", "YYYY").replace("{yy}", "YY") or "no year"
        if key is None:
            out.questions.append(Question(text.replace(" ?", "?"), 0.0, None, False, "absent", label))
            return
        dollars = fx[key][year] if key != "segments" else segments[year]
        printed = _printed_number(dollars, unit, per_share)
        out.questions.append(Question(text.replace(" ?", "?"), printed, None if per_share else dollars, per_share, key,
                                      label))

    k = sum(map(ord, name))
    W = WORDING[t["wording"]]
    ph = list(PHRASINGS if t["phrasing"] == "old" else HELD_OUT_PHRASINGS)
    as_of = "as of December 31, {y}"
    if t["header"] == "fiscal_june":
        ph = [x.replace("for the year ended December 31, {y}", "for the fiscal year ended June 30, {y}") for x in ph]
        as_of = "as of June 30, {y}"
    if period == "annual":
        asked = YEARS if not one else ("2022",)
        ask(W["revenue"], "revenue", asked[k % len(asked)], ph[k % len(ph)])
        ask(W["latest"], "revenue", "2022", "")
        ask(W["net"], "net", asked[(k + 1) % len(asked)], ph[(k + 1) % len(ph)])
        ask(W["capex"], "capex", asked[(k + 2) % len(asked)], ph[(k + 2) % len(ph)])
        ask(W["assets"], "assets", bs_years[k % len(bs_years)], as_of)
        ask(W["eps"], "eps", asked[(k + 1) % len(asked)], ph[(k + 3) % len(ph)], per_share=True)
        if not one:
            ask(W["impairment"], "impairment", "2021", ph[k % len(ph)])
        ask(W["opi"], "opi", asked[(k + 2) % len(asked)], ph[(k + 1) % len(ph)])
        ask(W["cost"], "cost", asked[(k + 1) % len(asked)], "{y}")
        absent = "2019"
    else:
        pair = ("2022", "2021")
        q = PERIOD_PHRASINGS[period]
        quarter = {"quarter": "Q1", "ytd": "Q3", "q4_year": "Q4"}[period]
        ask(W["revenue"], "revenue", f"3M:{pair[k % 2]}", q[k % len(q)])
        ask(W["net"], "net", f"3M:{pair[(k + 1) % 2]}", q[(k + 1) % len(q)])
        ask(W["eps"], "eps", f"3M:{pair[k % 2]}", q[(k + 2) % len(q)], per_share=True)
        ask(W["cost"], "cost", f"3M:{pair[(k + 1) % 2]}", quarter + " {y}")
        end = bs_years[k % 2]
        ask(W["assets"], "assets", end, {"Mar": "as of March 31, {y}", "Sep": "as of September 30, {y}"}.get(
            end.split(":")[0], as_of))
        if period == "quarter":
            ask(W["latest"], "revenue", "3M:2022", "")
            ask(W["capex"], "capex", f"3M:{pair[(k + 2) % 2]}", q[(k + 2) % len(q)])
            ask(W["opi"], "opi", f"3M:{pair[k % 2]}", q[(k + 1) % len(q)])
        elif period == "ytd":
            nine = PERIOD_PHRASINGS["9M"]
            ask(W["revenue"], "revenue", f"9M:{pair[(k + 1) % 2]}", nine[k % 2])
            ask(W["net"], "net", f"9M:{pair[k % 2]}", nine[(k + 1) % 2])
            ask(W["capex"], "capex", f"9M:{pair[(k + 2) % 2]}", nine[k % 2])
            ask(W["opi"], "opi", f"9M:{pair[k % 2]}", nine[(k + 1) % 2])
        else:  # the fourth quarter and the year: a question naming only the year asks for the year
            ask(W["revenue"], "revenue", f"FY:{pair[(k + 1) % 2]}", ph[k % len(ph)])
            ask(W["net"], "net", f"FY:{pair[k % 2]}", ph[(k + 1) % len(ph)])
            ask(W["capex"], "capex", f"FY:{pair[(k + 2) % 2]}", ph[(k + 2) % len(ph)])
            ask(W["opi"], "opi", f"3M:{pair[k % 2]}", q[(k + 1) % len(q)])
        absent = {"quarter": "full year 2022", "ytd": "full year 2022", "q4_year": "2020"}[period]
    if t["opex"] == "section":
        ask(W["opex"], "opex", years[k % len(years)], ph[(k + 2) % len(ph)] if period == "annual" else
            PERIOD_PHRASINGS.get(period, ph)[k % 3] if years[k % len(years)].startswith("3M") else
            PERIOD_PHRASINGS["9M"][0] if years[k % len(years)].startswith("9M") else ph[k % len(ph)])
        if period == "annual":
            ask(W["opex2"], "opex", years[(k + 1) % len(years)], ph[(k + 4) % len(ph)])
    if t["absent"] == "yes":  # a period the document does not hold: the right answer states no figure
        ask(W["revenue"].replace("{when}", "for " + absent if "full" in absent else "in " + absent), None, "2022", "")
    return out


def documents(seed: int, held_out: bool = False) -> list[Document]:
    """The base, each trait alone, and combinations; ``held_out``: the held-out traits alone and combined
    (with VARIANTS' traits drawn too), each document also asked for a period it does not hold."""
    if held_out:
        base = {**BASE, **HELD_OUT_BASE, "absent": "yes"}
        specs = [("base", dict(base))]
        for trait, values in HELD_OUT.items():
            for v in values:
                specs.append((f"{trait}={v}", _compatible({**base, trait: v})))
        rng = random.Random(f"held-out:{seed}")
        for n in range(HELD_OUT_COMBINATIONS):
            t = {trait: rng.choice([BASE[trait], *values]) for trait, values in VARIANTS.items()}
            for trait, values in HELD_OUT.items():  # one held-out trait in two drawn from its values
                if rng.random() < 0.5:
                    t[trait] = rng.choice(values)
            specs.append((f"combo{n}", _compatible({**base, **t})))
        return [build(name, t, seed) for name, t in specs]
    specs = [("base", dict(BASE))]
    for trait, values in VARIANTS.items():
        for v in values:
            specs.append((f"{trait}={v}", {**BASE, trait: v}))
    rng = random.Random(seed)
    for n in range(COMBINATIONS):
        t = {trait: rng.choice([BASE[trait], *values]) for trait, values in VARIANTS.items()}
        specs.append((f"combo{n}", t))
    return [build(name, t, seed) for name, t in specs]


def _compatible(t: dict) -> dict:
    """Traits that cannot go together on one page settled: a period's columns make the header (and leave no
    room for change or share columns); two statements side by side leave no room for a note column."""
    t = dict(t)
    if t["period"] != "annual":
        t["header"] = "plain" if t["header"] not in ("one_line",) else t["header"]
        if t["header"] == "one_line":
            t["header"] = "plain"
        if t["layout"] in ("one_column", "change_column") or (t["layout"] == "pct_revenue" and t["period"] != "quarter"):
            t["layout"] = "single"
    if t["header"] == "fiscal_june" or t["notes"] == "yes" or t["layout"] == "pct_revenue" or \
            t["unit"] in HEADER_UNIT:
        if t["header"] not in ("plain", "fiscal_june"):
            t["header"] = "plain"  # the held-out header draws its own year line
    if t["layout"] == "side_by_side":
        t["notes"] = "no"
    if t["layout"] == "pct_revenue" and t["notes"] == "yes":
        t["notes"] = "no"
    if t["cells"] == "joined" and (t["notes"] == "yes" or t["layout"] in ("pct_revenue", "side_by_side")
                                   or t["period"] != "annual"):
        t["cells"] = "apart"
    return t


_STATED = re.compile(r":\s(?P<neg>-)?[$€£]?(?P<num>\d[\d,]*(?:\.\d+)?)(?: (?P<unit>thousand|million|billion))?")


def exact(direct: str, q: Question, unit: str) -> bool:
    """The direct answer states the right amount: sign and unit word read."""
    m = _STATED.search(direct)
    if not m:
        return False
    value = float(m.group("num").replace(",", "")) * (-1 if m.group("neg") else 1)
    if q.per_share:
        return abs(value - q.printed) < 0.006
    value *= {"thousand": 1e3, "million": 1e6, "billion": 1e9}.get(m.group("unit") or "", 1.0)
    want = q.printed * SCALE[unit]
    return abs(value - want) <= 0.001 * abs(want)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--failures", action="store_true", help="print every question whose answer misses")
    ap.add_argument("--only", default="", help="only the documents whose name contains this")
    ap.add_argument("--out", default=str(Path(__file__).parent / "out" / "figure_robustness.json"))
    ap.add_argument("--save-pdfs", default="", help="a folder to write the generated PDFs to")
    ap.add_argument("--held-out", action="store_true",
                    help="the held-out traits (HELD_OUT) instead of VARIANTS; writes figure_robustness_held_out.json")
    args = ap.parse_args()
    if args.held_out and args.out.endswith("figure_robustness.json"):
        args.out = args.out.replace("figure_robustness.json", "figure_robustness_held_out.json")
    started = time.perf_counter()
    docs = [d for d in documents(args.seed, held_out=args.held_out) if args.only in d.name]
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(Settings(data_dir=Path(tmp), engine="offline"))
        by: dict[str, list[tuple[bool, bool, bool]]] = defaultdict(list)  # (carries, exact, stated a figure)
        rows = []
        for d in docs:
            if args.save_pdfs:
                Path(args.save_pdfs).mkdir(parents=True, exist_ok=True)
                (Path(args.save_pdfs) / f"{d.name}.pdf").write_bytes(d.data)
            index = engine.index_bytes(d.data, f"{d.name}.pdf")
            for q in d.questions:
                answer = engine.ask_document(index, q.text, seed=0)
                direct = str(answer.extra.get("direct_answer", ""))
                if q.kind == "absent":  # right: no figure stated
                    by["absent"].append((not direct, not direct, bool(direct)))
                    rows.append({"doc": d.name, "question": q.text, "printed": None, "direct": direct,
                                 "carries": not direct, "exact": not direct})
                    if args.failures and direct:
                        print(f"MISS [{d.name}] {q.text} want no figure: {direct}")
                    continue
                ok = carries(direct, [q.printed]) if q.printed else False
                ok_exact = ok and exact(direct, q, d.traits["unit"])
                keys = ["all", f"doc:{d.name}", f"question:{q.kind}", f"phrasing:{q.phrasing}"]
                if d.name == "base" or d.name.startswith("combo"):
                    keys.append("set:" + ("base" if d.name == "base" else "combinations"))
                else:
                    keys.append("set:one trait")
                    keys.append(f"trait:{d.name}")
                for key in keys:
                    by[key].append((ok, ok_exact, bool(direct)))
                rows.append({"doc": d.name, "question": q.text, "printed": q.printed, "direct": direct,
                             "carries": ok, "exact": ok_exact})
                if args.failures and not ok_exact:
                    print(f"MISS [{d.name}] {q.text} want {q.printed:g}: {direct or '(no direct answer)'}")
    seconds = time.perf_counter() - started

    def share(key: str) -> dict:
        got = by[key]
        return {"n": len(got), "carries": round(sum(a for a, _, _ in got) / len(got), 3),
                "exact": round(sum(b for _, b, _ in got) / len(got), 3),
                "fallback": round(sum(not c for _, _, c in got) / len(got), 3),  # no figure stated
                "wrong": round(sum(c and not b for _, b, c in got) / len(got), 3)}  # a figure stated, not the right one

    groups = ["all", "set:base", "set:one trait", "set:combinations", "absent"]
    groups += sorted(k for k in by if k.startswith("trait:"))
    groups += sorted(k for k in by if k.startswith("question:"))
    groups += sorted(k for k in by if k.startswith("phrasing:"))
    result = {"seed": args.seed, "held_out": args.held_out, "documents": len(docs), "questions": len(rows),
              "seconds": round(seconds, 1), "shares": {k: share(k) for k in groups if by[k]}}
    print(f"{len(docs)} documents, {len(rows)} questions, {seconds:.0f} s (seed {args.seed}"
          f"{', held-out traits' if args.held_out else ''}); absent: a period the document does not hold "
          "(carries = no figure stated)")
    print(f"{'':34} {'n':>4} {'carries':>8} {'exact':>7} {'fallback':>9} {'wrong':>6}")
    for k, v in result["shares"].items():
        print(f"{k:34} {v['n']:>4} {v['carries']:>8.3f} {v['exact']:>7.3f} {v['fallback']:>9.3f} {v['wrong']:>6.3f}")
    if not args.only:
        write_json(args.out, result)


if __name__ == "__main__":
    main()
