"""Generated periodic filings of one company whose fiscal year ends in late September (as Apple's does), for
the folder tests of periods, "latest" and trends: each has a cover page stating its period the SEC's way, and a
statement of operations with a comparative column, laid out as a real table (one text object per cell).

``ANNUAL``: fiscal year → (period end, net sales, research and development); the folder lacks FY2021.
``QUARTERS``: (fiscal year, quarter) → (period end, net sales, R&D, the prior year's quarter's net sales).
Fiscal Q1 2023 ended on December 31, 2022 (calendar Q4 2022); fiscal Q2 2023 on April 1, 2023 (calendar Q1).
The FY2023 annual report restates FY2022's net sales (394,112; first reported 394,328).
"""
from __future__ import annotations

import pymupdf

COMPANY = "Orchard Devices Inc."
ANNUAL = {2019: ("September 28, 2019", "260,174", "16,217"), 2020: ("September 26, 2020", "274,515", "18,752"),
          2022: ("September 24, 2022", "394,328", "26,251"), 2023: ("September 30, 2023", "383,285", "29,915")}
PRIOR_ANNUAL = {2019: ("September 29, 2018", "265,595", "14,236"), 2020: ("September 28, 2019", "260,174", "16,217"),
                2022: ("September 25, 2021", "365,817", "21,914"), 2023: ("September 24, 2022", "394,112", "26,251")}
QUARTERS = {(2023, 1): ("December 31, 2022", "117,154", "7,709", "123,945"),
            (2023, 2): ("April 1, 2023", "94,836", "7,457", "97,278"),
            (2023, 3): ("July 1, 2023", "81,797", "7,442", "82,959")}
PRIOR_QUARTER_END = {(2023, 1): "December 25, 2021", (2023, 2): "March 26, 2022", (2023, 3): "June 25, 2022"}
CONTENTS = [("Item 1. Business", 3), ("Item 1A. Risk Factors", 5), ("Item 2. Properties", 17),
            ("Item 3. Legal Proceedings", 20), ("Item 5. Market for Registrant's Common Equity", 21),
            ("Item 7. Management's Discussion and Analysis", 22), ("Item 8. Financial Statements", 28)]
WORDS = ["first", "second", "third", "fourth"]


def _page(doc: pymupdf.Document, lines: list[str], *, size: float = 11) -> pymupdf.Page:
    page = doc.new_page(width=612, height=792)
    y = 72
    for line in lines:
        page.insert_text((72, y), line, fontsize=size)
        y += size * 1.8
    return page


def _cover(doc: pymupdf.Document, form: str, period: str, fiscal_line: str) -> None:
    report = "ANNUAL REPORT" if form == "10-K" else "QUARTERLY REPORT"
    _page(doc, ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", f"FORM {form}",
                f"{report} PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", period,
                fiscal_line, "Commission File Number: 001-36743", COMPANY.upper(),
                "(Exact name of registrant as specified in its charter)", "California", "Trading symbol: ORCD"])


def _statement(doc: pymupdf.Document, head: str, ends: tuple[str, str], rows: list[tuple[str, str, str]]) -> None:
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), COMPANY, fontsize=12)
    page.insert_text((72, 100), "CONSOLIDATED STATEMENTS OF OPERATIONS", fontsize=12)
    page.insert_text((72, 118), "(In millions, except per-share amounts)", fontsize=9)
    page.insert_text((330, 140), head, fontsize=9)
    for x, end in zip((330, 450), ends):
        page.insert_text((x, 156), end, fontsize=9)
    y = 180
    for label, now, before in rows:
        page.insert_text((72, y), label, fontsize=10)
        page.insert_text((330, y), now, fontsize=10)
        page.insert_text((450, y), before, fontsize=10)
        y += 22


def annual_report(year: int) -> bytes:
    """The 10-K of fiscal ``year``: cover, table of contents, MD&A prose, statement of operations (this year and
    the year before)."""
    end, sales, rnd = ANNUAL[year]
    prior_end, prior_sales, prior_rnd = PRIOR_ANNUAL[year]
    doc = pymupdf.open()
    _cover(doc, "10-K", f"For the fiscal year ended {end}", f"Fiscal {year} annual report")
    _page(doc, ["TABLE OF CONTENTS"] + [f"{title} {page}" for title, page in CONTENTS])
    _page(doc, ["Item 7. Management's Discussion and Analysis",
                f"Fiscal {year} brought new products in every category; demand for tablets was mixed.",
                "The Company's fiscal year is the 52- or 53-week period that ends on the last Saturday of September."])
    _statement(doc, "Years ended", (end, prior_end), [("Net sales", sales, prior_sales),
                                                      ("Research and development", rnd, prior_rnd),
                                                      ("Operating income", "114,301", "119,437")])
    data = doc.tobytes()
    doc.close()
    return data


def quarterly_report(year: int, quarter: int) -> bytes:
    """The 10-Q of fiscal ``year``'s ``quarter``: cover, statement of operations (the quarter and the same
    quarter a year before)."""
    end, sales, rnd, prior_sales = QUARTERS[(year, quarter)]
    doc = pymupdf.open()
    _cover(doc, "10-Q", f"For the quarterly period ended {end}",
           f"Report for the {WORDS[quarter - 1]} quarter of fiscal {year}")
    _statement(doc, "Three Months Ended", (end, PRIOR_QUARTER_END[(year, quarter)]),
               [("Net sales", sales, prior_sales), ("Research and development", rnd, "6,306"),
                ("Operating income", "36,016", "41,488")])
    data = doc.tobytes()
    doc.close()
    return data


def folder() -> dict[str, bytes]:
    """File name → PDF; the names say nothing of the periods, so they must be read from the filings."""
    out = {f"orchard-{chr(ord('a') + i)}.pdf": annual_report(y) for i, y in enumerate(sorted(ANNUAL))}
    out.update({f"orchard-q{i}.pdf": quarterly_report(y, q) for i, (y, q) in enumerate(sorted(QUARTERS), 1)})
    return out
