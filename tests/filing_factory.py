"""Generated annual and quarterly reports laid out like SEC filings, for the tree tests.

``annual_report_pdf``: a 10-K without an outline: a cover, a contents page, PART I–IV with every
Item (1, 1A, 1B, 1C, 2 … 9C, 10–14 as "incorporated by reference" stubs, 15, 16), a long Item 7,
Item 8 with the primary statements, "Notes to Consolidated Financial Statements" as a running
header over the notes pages and Notes 1–12. The traps real filings hold: a footnote line under a
table ("1 Actuarial (gain)/loss", small type), bold table column headers ("Amount", "Level 1"
above figures), bold row labels, a running header and footer. ``quarterly_report_pdf``: a 10-Q,
Part I Items 1–4 (statements and Notes under Item 1) and Part II Items 1, 1A, 2, 6.
Page numbers are 1-based.
"""
from __future__ import annotations

from alphasearch.pdf import TextBlock, write_pdf

COMPANY = "Kestrel Valve Corporation"
_HEADER = f"{COMPANY} | 2023 Form 10-K"
_Q_HEADER = f"{COMPANY} | Form 10-Q for the quarter ended June 30, 2024"


def bold(text: str, size: float = 11) -> TextBlock:
    return TextBlock(text, size, True)


PROSE = ("Kestrel Valve designs industrial valves for water utilities and chemical plants. Demand depends on "
         "municipal budgets and on capital spending by refiners, and our backlog covers about nine months of "
         "production at the Tulsa plant.")
TABLE = [bold("Year Ended December 31,"), bold("2023 2022 2021"), "Valves 2,410 2,215 1,980",
         "Services 610 580 540", "Total revenue 3,020 2,795 2,520"]
FAIR_VALUE = [bold("Amount"), bold("Level 1"), "Money market funds 412 412", "Treasury bills 220 220",
              bold("1 Actuarial (gain)/loss"), "Shown net of tax in other comprehensive income."]

ITEMS = [  # (part, number, title, pages of body)
    ("I", "1", "Business", 2), ("I", "1A", "Risk Factors", 2), ("I", "1B", "Unresolved Staff Comments", 1),
    ("I", "1C", "Cybersecurity", 1), ("I", "2", "Properties", 1), ("I", "3", "Legal Proceedings", 1),
    ("I", "4", "Mine Safety Disclosures", 1),
    ("II", "5", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of "
                "Equity Securities", 1),
    ("II", "6", "[Reserved]", 1), ("II", "7", "Management's Discussion and Analysis of Financial Condition and "
                                              "Results of Operations", 12),
    ("II", "7A", "Quantitative and Qualitative Disclosures About Market Risk", 1),
    ("II", "8", "Financial Statements and Supplementary Data", 0),
    ("II", "9", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure", 1),
    ("II", "9A", "Controls and Procedures", 1), ("II", "9B", "Other Information", 1),
    ("II", "9C", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections", 1),
    ("III", "10", "Directors, Executive Officers and Corporate Governance", 1),
    ("III", "11", "Executive Compensation", 1),
    ("III", "12", "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters", 1),
    ("III", "13", "Certain Relationships and Related Transactions, and Director Independence", 1),
    ("III", "14", "Principal Accountant Fees and Services", 1),
    ("IV", "15", "Exhibits and Financial Statement Schedules", 1), ("IV", "16", "Form 10-K Summary", 1),
]
STATEMENTS = ["Consolidated Statements of Operations", "Consolidated Balance Sheets",
              "Consolidated Statements of Cash Flows", "Consolidated Statements of Stockholders' Equity"]
NOTES = ["Summary of Significant Accounting Policies", "Revenue", "Inventories", "Property, Plant and Equipment",
         "Goodwill", "Debt", "Leases", "Fair Value Measurements", "Income Taxes", "Pension Plans",
         "Commitments and Contingencies", "Segment Information"]
STUB = ("The information required by this Item is incorporated by reference to our definitive Proxy Statement "
        "for the 2024 Annual Meeting of Stockholders.")
MDNA_TOPICS = ["Overview", "Results of Operations", "Segment Results", "Liquidity and Capital Resources",
               "Critical Accounting Estimates", "Outlook"]


def _item_pages(part: str, number: str, title: str, length: int, new_part: bool) -> list[list]:
    head = ([bold(f"PART {part}", 13)] if new_part else []) + [bold(f"Item {number}. {title}")]
    if number in ("10", "11", "12", "13", "14"):
        return [head + [STUB]]
    if number == "7":
        pages = []
        for k in range(length):
            topic = [bold(MDNA_TOPICS[k // 2])] if k % 2 == 0 else []
            pages.append((head if k == 0 else []) + topic + [PROSE, PROSE] + (TABLE if k % 3 == 1 else []))
        return pages
    return [head + [PROSE]] + [[PROSE, PROSE] for _ in range(length - 1)]


BACK_REFERENCE = "The information required by this Item is included in Part IV, Item 15, beginning on page F-1."


EXHIBIT_PROSE = ("The Participant shall be entitled to the award on the terms set out in this Agreement, subject to "
                 "the Plan, which is incorporated herein by reference, and to the laws of the State of Delaware. ")


def annual_report_pdf(*, stubs_together: bool = False, statements_at_back: bool = False,
                      flat_outline: bool = False, report_after_notes: bool = False, exhibits: int = 0,
                      exhibit_text: int = 4, numbers_below: bool = False, leaders: bool = False,
                      contents_lines: str = "") -> bytes:
    """``stubs_together``: Items 10–14 and 9A–9C share one page, each heading with its sentence (as
    most filings print them); ``statements_at_back``: Item 8 is one sentence referring to the
    statements, printed after Item 16 (eBay, Oracle, Corning); ``flat_outline``: an outline lists
    Parts, Items and Item 1's topics all at level 1 (Nike's 2023 10-K); ``report_after_notes``: the auditor's
    report follows the last Note, set smaller than "NOTES TO …", and the first notes page prints "Note 1." before
    the "Notes to …" heading in its text (Adobe's 2022 10-K); ``exhibits``: that many pages of exhibits follow,
    set larger (13 pt) and holding more text than the report, so the document's most used size is theirs
    (Activision's 10-K, 8.7 pt, before 190 pages of award agreements in 10.5 pt), or as many as a fifth of its
    pages when the report's text is the most used (``exhibit_text``: paragraphs' length, 4 by default);
    ``numbers_below``: the contents page lists "Item 7." with its page number on a line of its own under it, under
    its Part; ``leaders``: the contents page gives each Part in bold and each Item as "ITEM 7." over its title with
    leader dots over its page number (Lockheed Martin's 10-K); ``contents_lines``: the contents page gives each Part
    in bold and each Item on lines of its own: "stops", "Item 1." / "Business." / "3" (Best Buy's); "bare", "1" /
    "Business" / "3", no "Item" at all (J&J's); "dots", "Item 1." / "Business ......" with the page numbers
    elsewhere (Adobe's)."""
    contents = [bold("TABLE OF CONTENTS")] + [f"Item {n}. {t[:40]} {3 + i}" for i, (_, n, t, _) in enumerate(ITEMS)]
    if numbers_below:  # each Item's page number on a line of its own under it, its Part above it
        contents = [TextBlock("TABLE OF CONTENTS", 8, True)] + [
            TextBlock(x, 6) for i, (p, n, t, _) in enumerate(ITEMS)
            for x in ([f"PART {p}"] if i == 0 or ITEMS[i - 1][0] != p else []) + [f"Item {n}.", str(3 + i)]]
    if leaders:
        contents = [bold("Table of Contents", 7), bold("Page", 7)] + [
            x for i, (p, n, t, _) in enumerate(ITEMS)
            for x in ([bold(f"PART {p}")] if i == 0 or ITEMS[i - 1][0] != p else [])
            + [TextBlock(f"ITEM {n}.", 5), TextBlock(f"{t[:50]} " + "." * (80 - len(t[:50])), 5), TextBlock(str(3 + i), 5)]]
    if contents_lines:
        contents = [bold("TABLE OF CONTENTS", 7)] + [
            x for i, (p, n, t, _) in enumerate(ITEMS)
            for x in ([bold(f"PART {p}")] if i == 0 or ITEMS[i - 1][0] != p else [])
            + ([TextBlock(f"Item {n}.", 5), TextBlock(f"{t[:50]} " + "." * 40, 5)] if contents_lines == "dots" else
               [TextBlock(f"Item {n}." if contents_lines == "stops" else n, 5),
                TextBlock(f"{t[:50]}." if contents_lines == "stops" else t[:50], 5), TextBlock(str(3 + i), 5)])]
    pages: list[list] = [
        ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", TextBlock("FORM 10-K", 20, True),
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
         "For the fiscal year ended December 31, 2023", COMPANY.upper()],
        contents,
    ]
    part, toc = "", []
    together = ("9A", "9B", "9C", "10", "11", "12", "13", "14") if stubs_together else ()
    for p, number, title, length in ITEMS:
        if flat_outline:
            toc += [(1, f"PART {p}", len(pages) + 1)] if p != part else []
            toc.append((1, f"Item {number}. {title}", len(pages) + 1))
            toc += [(1, MDNA_TOPICS[k // 2], len(pages) + 1 + k) for k in range(0, length, 2)] if number == "7" else []
        if number == "8":
            pages += [[bold(f"Item 8. {title}"), BACK_REFERENCE]] if statements_at_back else \
                _financial_statements(f"Item 8. {title}", report_after_notes=report_after_notes)
        elif number in together:
            head = ([bold(f"PART {p}", 13)] if p != part else []) + [bold(f"Item {number}. {title}"), STUB]
            if number == together[0] or number == "10":
                pages.append(head)
            else:
                pages[-1] += head
        else:
            pages += _item_pages(p, number, title, length, p != part)
        part = p
    if statements_at_back:
        pages += _financial_statements("Index to Consolidated Financial Statements")
    for k in range(exhibits):
        pages.append(([TextBlock(f"EXHIBIT 10.{k + 1}", 13, True)] if k % 3 == 0 else [])
                     + [TextBlock(EXHIBIT_PROSE * exhibit_text, 13)] * 3)
    pages = [[TextBlock(_HEADER, 8), *blocks, TextBlock(f"{i + 1}", 8)] for i, blocks in enumerate(pages)]
    return write_pdf(pages, title="0000950170-24-000123", toc=toc)


def _financial_statements(item_title: str, notes: list[str] = NOTES, running: str = "Notes to Consolidated "
                          "Financial Statements", report_after_notes: bool = False) -> list[list]:
    report = bold("Report of Independent Registered Public Accounting Firm")
    pages: list[list] = [[bold(item_title)] + ([] if report_after_notes else [report]) + [PROSE]]
    for k, title in enumerate(STATEMENTS):
        pages.append([bold(COMPANY), bold(title), *TABLE])
    for k, title in enumerate(notes, 1):
        body = [PROSE] + (FAIR_VALUE if title == "Fair Value Measurements" else TABLE if k % 2 else [PROSE])
        head = [bold(running, 9), bold(f"Note {k}. {title}")]
        if report_after_notes:
            head = [bold(f"Note {k}. {title}"), bold(running.upper(), 12)] if k == 1 else head[1:]
        pages.append([*head, *body])
    if report_after_notes:
        pages.append([report, PROSE, PROSE])
    return pages


def quarterly_report_pdf(title: str = "0000950170-24-000456") -> bytes:
    pages: list[list] = [
        ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", TextBlock("FORM 10-Q", 20, True),
         "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
         "For the quarterly period ended June 30, 2024", COMPANY.upper()],
    ]
    statements = _financial_statements("Item 1. Financial Statements", NOTES[:6],
                                       "Notes to Condensed Consolidated Financial Statements (Unaudited)")
    statements[0] = [bold("PART I - FINANCIAL INFORMATION", 13), bold("Item 1. Financial Statements"), PROSE]
    pages += statements
    pages += [[bold("Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations"),
               PROSE, *TABLE], [PROSE, PROSE],
              [bold("Item 3. Quantitative and Qualitative Disclosures About Market Risk"), PROSE],
              [bold("Item 4. Controls and Procedures"), PROSE],
              [bold("PART II - OTHER INFORMATION", 13), bold("Item 1. Legal Proceedings"), PROSE],
              [bold("Item 1A. Risk Factors"), PROSE],
              [bold("Item 2. Unregistered Sales of Equity Securities and Use of Proceeds"), PROSE],
              [bold("Item 6. Exhibits"), PROSE]]
    pages = [[TextBlock(_Q_HEADER, 8), *blocks, TextBlock(f"{i + 1}", 8)] for i, blocks in enumerate(pages)]
    return write_pdf(pages, title=title)


CONTENTS_ONLY = [  # (Part, Item, title, entries under it with their printed pages): JPMorgan's 10-Q contents
    ("Part I - Financial information", "1", "Financial Statements.",
     [("Consolidated statements of income (unaudited) for the three months ended June 30, 2024", 5),
      ("Notes to Consolidated Financial Statements (unaudited)", 7)]),
    ("Part I - Financial information", "2", "Management's Discussion and Analysis of Financial Condition and "
     "Results of Operations.", [("Introduction", 2), ("Consolidated Results of Operations", 3)]),
    ("Part I - Financial information", "3", "Quantitative and Qualitative Disclosures About Market Risk.", [("", 11)]),
    ("Part I - Financial information", "4", "Controls and Procedures.", [("", 11)]),
    ("Part II - Other information", "1", "Legal Proceedings.", [("", 11)]),
    ("Part II - Other information", "1A", "Risk Factors.", [("", 12)]),
    ("Part II - Other information", "6", "Exhibits.", [("", 12)]),
]


def contents_only_quarterly_pdf(*, later_items: bool = False, exhibits: bool = False) -> bytes:
    """A 10-Q laid out like JPMorgan's: its contents page lists each Item ("Item 1." on a line, its title on the
    next, then the topics under it, each over its printed page number on a line of its own), and the pages that
    follow print no Item heading: the MD&A's topics (printed pages 2–4) come before the statements (5–10). Pages
    print their number at the bottom, the cover none, so printed page n is the PDF's page n + 1. ``later_items``:
    the last pages print Items 3 and 4 and Part II with its Items as headings (JPMorgan's 2023 10-Q), Items 1 and
    2 stay on the contents page only; ``exhibits``: two exhibits follow, each page headed "Exhibit 31.1" in bold
    over its title."""
    contents: list = [bold("TABLE OF CONTENTS", 9)]
    part = ""
    for p, number, title, entries in CONTENTS_ONLY:
        if p != part:
            contents.append(bold(p, 8))
            part = p
        contents += [TextBlock(f"Item {number}.", 8), TextBlock(title, 8)]
        for entry, page in entries:
            contents += ([TextBlock(entry, 8)] if entry else []) + [TextBlock(str(page), 8)]
    body = {2: [bold("INTRODUCTION", 13), PROSE, PROSE], 3: [bold("CONSOLIDATED RESULTS OF OPERATIONS", 13), PROSE,
                                                             *TABLE],
            4: [PROSE, PROSE], 5: [bold(COMPANY), bold("Consolidated statements of income (unaudited)"), *TABLE],
            6: [bold(COMPANY), bold("Consolidated balance sheets (unaudited)"), *TABLE]}
    for k, title in enumerate(NOTES[:4], 1):
        body[6 + k] = [bold("Notes to Consolidated Financial Statements (unaudited)", 9), bold(f"Note {k} - {title}"),
                       PROSE, *TABLE]
    body[11] = [PROSE, PROSE, PROSE]
    body[12] = [PROSE, "Exhibit 31.1 Certification of the Chief Executive Officer"]
    if later_items:
        body[11] = [x for _, number, title, _ in CONTENTS_ONLY[2:] for x in (
            ([bold("Part II - Other information", 9)] if number == "1" else []) + [bold(f"Item {number}. {title}"), PROSE])
            if number != "6"]
        body[12] = [bold("Item 6. Exhibits."), PROSE, "Exhibit 31.1 Certification of the Chief Executive Officer"]
    cover = ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", TextBlock("FORM 10-Q", 20, True),
             "For the quarterly period ended June 30, 2024", COMPANY.upper()]
    if exhibits:
        body[13] = [bold("Exhibit 31.1"), TextBlock("CERTIFICATION", 13), "I, Jane Doe, certify that:", PROSE]
        body[14] = [bold("Exhibit 32"), bold("CERTIFICATION PURSUANT TO 18 U.S.C. SECTION 1350"), PROSE]
    pages = [[TextBlock(_Q_HEADER, 8), *blocks, TextBlock(str(n), 8)]
             for n, blocks in [(1, contents)] + [(n, body[n]) for n in range(2, max(body) + 1)]]
    return write_pdf([cover] + pages, title="0000019617-24-000456")


CROSS_REFERENCE = [  # (Item, title, printed pages): Items 1B and 9 answered "Not applicable", 10 by reference
    ("1", "Business", "Pages 1-2"), ("1A", "Risk Factors", "Pages 6-7"), ("1B", "Unresolved Staff Comments", None),
    ("7", "Management's Discussion and Analysis of Financial Condition and Results of Operations", "Pages 3-5"),
    ("8", "Financial Statements and Supplementary Data", "Pages 8-12"), ("9", "Changes in and Disagreements with "
     "Accountants on Accounting and Financial Disclosure", None), ("9A", "Controls and Procedures", "Page 13"),
    ("10", "Directors, Executive Officers and Corporate Governance", "(a)"),
    ("15", "Exhibits and Financial Statement Schedules", "Page 14"),
]


def cross_reference_report_pdf() -> bytes:
    """An annual report filed as the 10-K, laid out in the report's own sections (McDonald's, General Electric):
    no Item heading anywhere; a "Form 10-K Cross-Reference Index" on the last page maps each Item to printed
    pages (an Item, its title and its pages on three lines, then on one). The cover is unnumbered, so printed page
    n is PDF page n + 1."""
    sections = [("Business Overview", 2), ("Management's Discussion and Analysis", 3), ("Risk Factors", 2),
                ("Report of Independent Registered Public Accounting Firm", 1)]
    pages: list[list] = [["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", TextBlock("FORM 10-K", 20, True),
                          COMPANY.upper()]]
    for title, length in sections:
        pages += [[TextBlock(title, 14, True), PROSE, PROSE]] + [[PROSE, *TABLE] for _ in range(length - 1)]
    pages += [[TextBlock(title, 14, True), *TABLE] for title in STATEMENTS[:3]]
    pages += [[TextBlock("Notes to Consolidated Financial Statements", 14, True), PROSE, *TABLE]]
    pages += [[TextBlock("Controls and Procedures", 14, True), PROSE], [TextBlock("Exhibits", 14, True), PROSE]]
    index = [TextBlock("Form 10-K Cross-Reference Index", 14, True), "Page reference"]
    for k, (number, title, where) in enumerate(CROSS_REFERENCE):  # the first Items on three lines, the rest on one
        index += [f"Item {number}", title, where or "Not applicable"] if k < 5 else [
            f"Item {number}. {title} {where or 'Not applicable'}"]
    pages.append(index)
    return write_pdf([[*blocks, TextBlock(f"{COMPANY} 2023 Annual Report {i}", 8)] if i else blocks
                      for i, blocks in enumerate(pages)], title="0000950170-24-000456")
