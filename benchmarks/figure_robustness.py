"""How robust is the direct figure answer to the ways statements are laid out?

Generates small financial statements with PyMuPDF (deterministic by ``--seed``) that vary one
layout trait at a time from a base layout, and a few combinations of traits; each holds figures
the generator knows. Figure questions go through the real engine (``Engine.ask_document`` on
``index_bytes``), and the direct answer is checked two ways:

* **carries**: the direct answer line holds the figure printed for the row and year asked
  (:func:`alphasearch.figures.carries`: numbers compared up to a unit scale, sign aside), the
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

    ALPHASEARCH_DATA_DIR=/tmp/x python benchmarks/figure_robustness.py [--seed 7] [--failures]

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
from alphasearch.figures import carries  # noqa: E402
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
PHRASINGS = ["in {y}", "in FY{y}", "for fiscal {y}", "in fiscal year {y}", "in FY{yy}",
             "for the year ended December 31, {y}"]
YEARS = ("2022", "2021", "2020")
UNIT_LINE = {"millions": "(In millions, except per share data)", "thousands": "(in thousands, except per share data)",
             "billions": "($ in billions, except per share data)", "none": "", "gbp_m": "", "usd_000": ""}
SCALE = {"millions": 1e6, "thousands": 1e3, "billions": 1e9, "none": 1.0, "gbp_m": 1e6, "usd_000": 1e3}
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
    return float(round(dollars / SCALE[unit]))


def _cell_text(dollars: float, unit: str, t: dict, per_share: bool, dollar_sign: bool) -> str:
    if dollars == 0:
        return {"emdash": "—", "hyphen": "-", "digit": "0"}[t["zero"]]
    n = _printed_number(dollars, unit, per_share)
    body = f"{abs(n):,.2f}" if per_share else f"{abs(n):,.1f}" if unit == "billions" else f"{abs(n):,.0f}"
    glued = "$" if dollar_sign and t["dollar"] == "glued" else ""
    if n < 0:
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


def _columns(t: dict, years: list[str], change: bool) -> list[tuple[str, float]]:
    """(year or "%", right edge x) of each column."""
    cols: list[str] = []
    for k, y in enumerate(years):
        if change and k > 0:
            cols.append("%")
        cols.append(y)
    step = 84 if len(cols) > 3 else 80
    right = WIDTH - 50 if len(cols) <= 3 else WIDTH + 130  # five columns: a landscape page (WIDE)
    return [(c, right - step * (len(cols) - 1 - k)) for k, c in enumerate(cols)]


def _header(p: Page, t: dict, cols: list[tuple[str, float]], y: float, as_of: bool) -> float:
    """The column header from ``y``; returns the y of the first row."""
    years = [c for c, _ in cols if c != "%"]
    style = t["header"]
    if as_of and style not in ("one_line",):
        style = "as_of"
    first, last = cols[0][1] - 45, cols[-1][1]
    under = COLUMN_UNIT.get(t["unit"], "")
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


def _rows(p: Page, t: dict, cols: list[tuple[str, float]], items: list[Item], y: float, unit: str) -> float:
    for item in items:
        lines = item.label.split("\n")
        for extra in lines[:-1]:  # a wrapped label: its first lines above the figures
            p.text(60, y, extra)
            y += 11
        label = lines[-1]
        if t["leaders"] == "yes" and item.dollars:  # a heading of rows has no leaders
            room = cols[0][1] - 100 - 66 - FONT.text_length(label, fontsize=9)  # up to the first column's "$"
            label += " " + "." * max(3, int(room / FONT.text_length(".", fontsize=9)))
        p.text(60 if len(lines) == 1 else 66, y, label)
        if item.label.startswith(("Total revenues", "Net sales", "Total net revenue", "Revenues, net", "Revenue")):
            if t["footnote"] == "raised":
                p.text(60 + FONT.text_length(lines[-1], fontsize=9) + 1, y - 3, "1", size=6)
        dollar = item.total or item is items[0]
        if not item.dollars:  # a section's heading ("Revenues:")
            y += 15
            continue
        if t["cells"] == "joined":  # the row as one text object: label and figures apart by spaces
            cells = []
            for k, (c, _) in enumerate(cols):
                if c == "%":
                    a, b = item.dollars.get(cols[k - 1][0]), item.dollars.get(cols[k + 1][0])
                    cells.append("n/m" if not a or not b or a < 0 or b < 0 else f"{(a / b - 1) * 100:.1f}%")
                    continue
                value = item.dollars.get(c)
                sign = "$ " if dollar and t["dollar"] == "separate" and value else ""
                cells.append(sign + _cell_text(value, unit, t, item.per_share, dollar))
            p.text(cols[0][1] - 60, y, "  ".join(cells))
            y += 15
            continue
        for k, (c, x) in enumerate(cols):  # left to right, as a row is printed
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


def build(name: str, t: dict, seed: int) -> Document:
    rng = random.Random(f"{seed}:{name}")
    f = _figures(rng)
    unit = t["unit"]
    if unit in COLUMN_UNIT:  # no "$" on the cells under a column's "£m" or "$000"
        t = {**t, "dollar": "none"}
    years = list(YEARS) if t["order"] == "desc" else list(reversed(YEARS))
    one = t["layout"] == "one_column"
    if one:
        years = ["2022"]
    company = rng.choice(["Harbor Lane Foods", "Northgate Instruments", "Bluewater Logistics", "Cedar Point Media",
                          "Ironwood Materials", "Summit Ridge Health"])
    doc = pymupdf.open()
    cover = Page(doc)
    cover.text(60, 90, f"{company}, Inc.", size=18)
    cover.text(60, 120, "Annual Report 2022", size=12)
    cover.text(60, 150, f"{company} sells its products through distributors and its own stores in North America.")
    cover.text(60, 164, "This report holds the consolidated financial statements for the fiscal year.")

    # page 2: the income statement (and a segment table below it)
    width = WIDE if t["layout"] == "change_column" else WIDTH
    p = Page(doc, width)
    p.text(60, 70, f"{company}, Inc.", size=10)
    p.text(60, 86, "Consolidated Statements of Operations", size=12)
    if UNIT_LINE[unit]:
        p.text(60, 100, UNIT_LINE[unit], size=8)
    cols = _columns(t, years, t["layout"] == "change_column")
    y = _header(p, t, cols, 118, as_of=False)
    wrap = t["wrap"] == "yes"
    net_label = "Net income (loss) attributable to\ncommon shareholders" if wrap else "Net income (loss)"
    if t["revenue_rows"] == "one":
        items = [Item(_revenue_label(t), f["revenue"], total=True)]
    else:  # a section: its heading, its parts, its total ("Total" alone under the heading, or named)
        part = {yy: v * rng.uniform(0.6, 0.8) for yy, v in f["revenue"].items()}
        heading = t["revenue_label"].replace("Total ", "").replace(", net", "").capitalize()
        total = "Total" if t["revenue_rows"] == "bare_total" else _revenue_label(t)
        if not total.startswith("Total"):
            total = f"Total {total[:1].lower()}{total[1:]}"
        items = [Item(f"{heading}:", {}), Item("Products", part, total=True),
                 Item("Services", {yy: f["revenue"][yy] - part[yy] for yy in YEARS}),
                 Item(total, f["revenue"], total=True)]
    items += [
             Item("Cost of revenues", f["cost"]),
             Item("Research and development", f["rnd"]),
             Item("Impairment charges", f["impairment"]),
             Item("Operating income", f["opi"]),
             Item(net_label, f["net"], total=True),
             Item("Diluted earnings (loss) per share", {k: v for k, v in f["eps"].items()}, per_share=True, total=True)]
    y = _rows(p, t, cols, items, y, unit)
    if t["footnote"] in ("paren", "super", "raised"):
        p.text(60, y + 10, ("(1)" if t["footnote"] == "paren" else "1") +
               " Includes revenues from contracts with customers and lease income.", size=7)
        y += 20
    segments = {}
    if t["layout"] == "two_tables":
        share = rng.uniform(0.55, 0.7)
        seg_a = {yy: v * share for yy, v in f["opi"].items()}
        seg_b = {yy: v * (1 - share) * rng.uniform(1.1, 1.4) for yy, v in f["opi"].items()}
        seg_total = {yy: seg_a[yy] + seg_b[yy] for yy in YEARS}
        y += 24
        p.text(60, y, "Segment Information", size=12)
        if UNIT_LINE[unit]:
            p.text(60, y + 14, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
        y = _header(p, t, cols, y + 30, as_of=False)
        _rows(p, t, cols, [Item("Consumer", seg_a, total=True), Item("Enterprise", seg_b),
                           Item("Total segment operating income", seg_total, total=True)], y, unit)
        segments = seg_total

    # page 3: the balance sheet (as of December 31) and the cash flows
    p = Page(doc, width)
    p.text(60, 86, "Consolidated Balance Sheets", size=12)
    if UNIT_LINE[unit]:
        p.text(60, 100, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
    bs_years = years[:2] if not one else years
    bs_cols = _columns(t, bs_years, False)
    y = _header(p, t, bs_cols, 118, as_of=True)
    y = _rows(p, t, bs_cols, [Item("Cash and cash equivalents", f["cash"], total=True),
                              Item("Total assets", f["assets"], total=True),
                              Item("Total liabilities", f["liabilities"])], y, unit)
    p.text(60, y + 30, "Consolidated Statements of Cash Flows", size=12)
    if UNIT_LINE[unit]:
        p.text(60, y + 44, UNIT_LINE[unit].replace(", except per share data", ""), size=8)
    y = _header(p, t, cols, y + 60, as_of=False)
    capex_label = "Purchases of property, plant and\nequipment" if wrap else "Purchases of property and equipment"
    _rows(p, t, cols, [Item("Net cash provided by operating activities", f["ocf"], total=True),
                       Item(capex_label, f["capex"])], y, unit)
    out = Document(name, dict(t), doc.tobytes(garbage=3, deflate=True))
    doc.close()

    def ask(what: str, key: str, year: str, phrasing: str, per_share: bool = False) -> None:
        dollars = f[key][year] if key != "segments" else segments[year]
        printed = _printed_number(dollars, unit, per_share)
        text = what.format(when=phrasing.format(y=year, yy=year[2:]) if phrasing else "").replace("  ", " ")
        out.questions.append(Question(text.replace(" ?", "?"), printed, None if per_share else dollars, per_share, key,
                                      phrasing.replace("{y}", "YYYY").replace("{yy}", "YY") or "no year"))

    k = sum(map(ord, name))
    asked = YEARS if not one else ("2022",)
    ask("What were total revenues {when}?", "revenue", asked[k % len(asked)], PHRASINGS[k % len(PHRASINGS)])
    ask("What were the company's revenues {when}?", "revenue", "2022", "")
    ask("What was net income {when}?", "net", asked[(k + 1) % len(asked)], PHRASINGS[(k + 1) % len(PHRASINGS)])
    ask("What was capital expenditure {when}?", "capex", asked[(k + 2) % len(asked)], PHRASINGS[(k + 2) % len(PHRASINGS)])
    ask("What were total assets {when}?", "assets", bs_years[k % len(bs_years)], "as of December 31, {y}")
    ask("What were the diluted earnings per share {when}?", "eps", asked[(k + 1) % len(asked)],
        PHRASINGS[(k + 3) % len(PHRASINGS)], per_share=True)
    if not one:
        ask("What were the impairment charges {when}?", "impairment", "2021", PHRASINGS[k % len(PHRASINGS)])
    ask("What was operating income {when}?", "opi", asked[(k + 2) % len(asked)], PHRASINGS[(k + 1) % len(PHRASINGS)])
    ask("What was the company's {when} cost of revenues?", "cost", asked[(k + 1) % len(asked)], "{y}")
    return out


def documents(seed: int) -> list[Document]:
    specs = [("base", dict(BASE))]
    for trait, values in VARIANTS.items():
        for v in values:
            specs.append((f"{trait}={v}", {**BASE, trait: v}))
    rng = random.Random(seed)
    for n in range(COMBINATIONS):
        t = {trait: rng.choice([BASE[trait], *values]) for trait, values in VARIANTS.items()}
        specs.append((f"combo{n}", t))
    return [build(name, t, seed) for name, t in specs]


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
    args = ap.parse_args()
    started = time.perf_counter()
    docs = [d for d in documents(args.seed) if args.only in d.name]
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(Settings(data_dir=Path(tmp), engine="offline"))
        by: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
        rows = []
        for d in docs:
            if args.save_pdfs:
                Path(args.save_pdfs).mkdir(parents=True, exist_ok=True)
                (Path(args.save_pdfs) / f"{d.name}.pdf").write_bytes(d.data)
            index = engine.index_bytes(d.data, f"{d.name}.pdf")
            for q in d.questions:
                answer = engine.ask_document(index, q.text, seed=0)
                direct = str(answer.extra.get("direct_answer", ""))
                ok = carries(direct, [q.printed]) if q.printed else False
                ok_exact = ok and exact(direct, q, d.traits["unit"])
                keys = ["all", f"doc:{d.name}", f"question:{q.kind}", f"phrasing:{q.phrasing}"]
                if d.name == "base" or d.name.startswith("combo"):
                    keys.append("set:" + ("base" if d.name == "base" else "combinations"))
                else:
                    keys.append("set:one trait")
                    keys.append(f"trait:{d.name}")
                for key in keys:
                    by[key].append((ok, ok_exact))
                rows.append({"doc": d.name, "question": q.text, "printed": q.printed, "direct": direct,
                             "carries": ok, "exact": ok_exact})
                if args.failures and not ok_exact:
                    print(f"MISS [{d.name}] {q.text} want {q.printed:g}: {direct or '(no direct answer)'}")
    seconds = time.perf_counter() - started

    def share(key: str) -> dict:
        got = by[key]
        return {"n": len(got), "carries": round(sum(a for a, _ in got) / len(got), 3),
                "exact": round(sum(b for _, b in got) / len(got), 3)}

    groups = ["all", "set:base", "set:one trait", "set:combinations"]
    groups += sorted(k for k in by if k.startswith("trait:"))
    groups += sorted(k for k in by if k.startswith("question:"))
    groups += sorted(k for k in by if k.startswith("phrasing:"))
    result = {"seed": args.seed, "documents": len(docs), "questions": len(rows), "seconds": round(seconds, 1),
              "shares": {k: share(k) for k in groups if by[k]}}
    print(f"{len(docs)} documents, {len(rows)} questions, {seconds:.0f} s (seed {args.seed})")
    print(f"{'':34} {'n':>4} {'carries':>8} {'exact':>7}")
    for k, v in result["shares"].items():
        print(f"{k:34} {v['n']:>4} {v['carries']:>8.3f} {v['exact']:>7.3f}")
    if not args.only:
        write_json(args.out, result)


if __name__ == "__main__":
    main()
