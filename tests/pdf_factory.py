"""PDF bytes for tests: every PDF the suite needs is generated here, never downloaded.

Functions are plain (importable as ``from pdf_factory import ...``); ``conftest.py``
wraps them as fixtures. Page numbers are 1-based.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

import pymupdf

from alphasearch.pdf import TextBlock, encrypt_pdf, write_pdf
from alphasearch.library.sample import sample_pdf_bytes

H1 = lambda t: TextBlock(t, 20, True)  # noqa: E731
H2 = lambda t: TextBlock(t, 15, True)  # noqa: E731


def make_pdf(pages, *, toc=(), title: str = "", width: float = 595, height: float = 842) -> bytes:
    """``pages``: a list of pages, each a list of strings or TextBlocks (or one string)."""
    norm = [[p] if isinstance(p, (str, TextBlock)) else list(p) for p in pages]
    return write_pdf(norm, toc=toc, title=title, width=width, height=height)


def picture_pdf(pages, images) -> bytes:
    """Pages of text lines (one list of strings per page, each page with its own resources) with
    images drawn on them: ``images`` is a list of (pages, width, height in pixels); each entry is
    one image (one object in the file) drawn on each of its pages."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=595, height=842)
        for k, line in enumerate(lines):
            page.insert_text((72, 90 + 20 * k), line, fontsize=16 if k == 0 else 11)
    for k, (on, w, h) in enumerate(images):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, w, h), False)
        pix.set_rect(pix.irect, (40 * k % 256, 120, 200))
        xref = 0
        for p in on:
            rect = pymupdf.Rect(300, 500, 300 + w / 2, 500 + h / 2)
            xref = doc[p - 1].insert_image(rect, pixmap=pix) if not xref else doc[p - 1].insert_image(rect, xref=xref)
    out = doc.tobytes()
    doc.close()
    return out


# --- small documents with a known structure --------------------------------------------------
_CHAPTERS = [
    ("Introduction", "This handbook explains how the Riverside cooperative runs its community orchards, "
     "who may join, and how harvests are shared between members."),
    ("Membership", "Membership costs 45 euros a year. Members vote at the annual assembly held every April "
     "and may borrow the cooperative's ladders, presses and crates free of charge."),
    ("Orchard Care", "Apple trees are pruned in February. Pear trees are sprayed with copper in March to "
     "prevent scab, and young trees are watered twice a week during dry summers."),
    ("Harvest", "The harvest starts in late August with early apples. Fruit is weighed at the barn and each "
     "member receives a share proportional to the hours volunteered."),
    ("Cider Making", "The cider press processes 600 litres of juice per day. Juice ferments for six weeks in "
     "oak barrels before bottling in November."),
    ("Finances", "The cooperative's income in 2024 was 18,400 euros, of which 9,900 came from cider sales "
     "and the rest from membership fees and a municipal grant."),
]


def outline_pdf() -> bytes:
    """7 pages: a cover and six chapters, each with a bookmark in the outline."""
    pages = [[TextBlock("Riverside Orchard Cooperative Handbook", 24, True), "Edition 2025."]]
    toc = []
    for i, (title, body) in enumerate(_CHAPTERS):
        pages.append([H1(title), body, body.replace(".", " again.", 1)])
        toc.append((1, title, i + 2))
    return make_pdf(pages, toc=toc, title="Riverside Orchard Cooperative Handbook")


def headings_pdf() -> bytes:
    """6 pages whose chapters are marked only by large bold lines (no outline)."""
    pages = []
    for title, body in _CHAPTERS:
        pages.append([H1(title), body, H2("Notes"), "Questions go to the board secretary by e-mail."])
    return make_pdf(pages)


def flat_pdf() -> bytes:
    """5 pages of body text only: no outline, no headings."""
    return make_pdf([[body, body] for _, body in _CHAPTERS[:5]])


def encrypted_pdf() -> bytes:
    """Needs a user password to open (rejected by the engine)."""
    return encrypt_pdf(outline_pdf(), user_password="secret", owner_password="owner")


def owner_only_pdf() -> bytes:
    """Encrypted with an owner password only: opens without one (accepted)."""
    return encrypt_pdf(outline_pdf(), user_password="", owner_password="owner")


def truncated_pdf() -> bytes:
    """A real PDF cut off early (its page tree and cross-reference table are missing)."""
    data = sample_pdf_bytes()
    return data[: min(400, len(data) // 4)]


def empty_pdf() -> bytes:
    return b""


def zero_pages_pdf() -> bytes:
    """A syntactically valid PDF whose page tree says /Count 0 and has no kids."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    return _raw_pdf(objs)


def _raw_pdf(objs: list[bytes], root: int = 1) -> bytes:
    """Assemble numbered objects into a PDF with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, root, xref)
    return bytes(out)


def corrupt_page_pdf() -> bytes:
    """3 pages; page 2's content stream is garbage deflate data (MuPDF cannot read it)."""
    good = b"BT /F1 12 Tf 72 720 Td (%s) Tj ET"
    s1 = good % b"Page one talks about apples and pears."
    s3 = good % b"Page three talks about cider barrels."
    bad = b"\x78\x9c" + bytes(random.Random(7).randrange(256) for _ in range(300))
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"

    def page(content: int) -> bytes:
        return (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                b"/Resources << /Font << /F1 3 0 R >> >> >>" % content)

    def stream(data: bytes, flate: bool = False) -> bytes:
        filt = b" /Filter /FlateDecode" if flate else b""
        return b"<< /Length %d%s >>\nstream\n" % (len(data), filt) + data + b"\nendstream"

    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 5 0 R 6 0 R] /Count 3 >>",
        font,
        page(7), page(8), page(9),
        stream(zlib.compress(s1), flate=True), stream(bad, flate=True), stream(s3),
    ]
    return _raw_pdf(objs)


def _one_page_pdf(content: bytes, extra_objs: list[bytes] = (), xobjects: bytes = b"") -> bytes:
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
            b"/Resources << /Font << /F1 3 0 R >> " + xobjects + b" >> >>")
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", font,
                     page, content, *extra_objs])


def flate_bomb_pdf(inflated_mb: int = 300) -> bytes:
    """One page whose content stream is ~300 KB of zlib data inflating to ``inflated_mb`` MB."""
    data = _deflate_repeated(b"BT /F1 12 Tf 72 720 Td (A harmless looking page) Tj ET\n", b" ", inflated_mb * 2**20)
    return _one_page_pdf(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")


def image_bomb_pdf(side: int = 21000) -> bytes:
    """One page showing a ``side`` x ``side`` grey image (441 megapixels) stored in ~0.4 MB."""
    img = _deflate_repeated(b"", bytes(side), side * side)
    content = b"q 500 0 0 700 50 50 cm /Im1 Do Q BT /F1 12 Tf 72 720 Td (Poster) Tj ET"
    image = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8 /ColorSpace /DeviceGray "
             b"/Filter /FlateDecode /Length %d >>\nstream\n" % (side, side, len(img)) + img + b"\nendstream")
    return _one_page_pdf(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream", [image],
                         b"/XObject << /Im1 6 0 R >>")


def image_only_pdf(pages: int = 3) -> bytes:
    """Pages with a drawn picture and no text layer at all (like a scan)."""
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(72, 72, 300 + 20 * i, 400), color=(0, 0, 0), fill=(0.6, 0.7, 0.9))
        page.draw_circle(pymupdf.Point(400, 600), 60, color=(1, 0, 0))
    data = doc.tobytes()
    doc.close()
    return data


def _picture(colour: tuple[int, int, int]) -> pymupdf.Pixmap:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 32, 24), 0)
    pix.set_rect(pix.irect, colour)
    return pix


def slide_deck_pdf(pages: int = 4) -> bytes:
    """A 4:3 landscape slide deck (1024 x 768 pt) of pictures with no text layer, as exported from slides."""
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page(width=1024, height=768)
        page.insert_image(pymupdf.Rect(112, 84, 912, 684), pixmap=_picture((40 * i % 255, 120, 200)))
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def picture_brochure_pdf() -> bytes:
    """A portrait brochure: each page a large photo and a one-line caption about a seaside campus."""
    captions = ["Welcome to the Saltmarsh campus by the sea.", "People on the harbour lawn in summer.",
                "The library tower seen from the beach path."]
    doc = pymupdf.open()
    for i, caption in enumerate(captions):
        page = doc.new_page(width=595, height=842)
        page.insert_image(pymupdf.Rect(56, 56, 539, 600), pixmap=_picture((200, 60 * i, 90)))
        page.insert_text(pymupdf.Point(56, 640), caption, fontsize=14)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def huge_page_pdf() -> bytes:
    """One page 14,400 x 14,400 pt (the PDF maximum, 5 m square) with a little text."""
    return make_pdf([["A gigantic poster page about lighthouse maintenance schedules."]], width=14400, height=14400)


def deep_outline_pdf(entries: int = 3000) -> bytes:
    """5 pages with an outline of ``entries`` bookmarks nested one inside the other."""
    data = make_pdf([[f"Page {i + 1} discusses topic number {i + 1} in detail."] for i in range(5)])
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc.set_toc([[lvl, f"Level {lvl}", 1 + (lvl % 5)] for lvl in range(1, entries + 1)])
    out = doc.tobytes()
    doc.close()
    return out


def bad_outline_pdf() -> bytes:
    """4 pages whose outline has entries pointing at a missing page object and at page 58."""
    data = make_pdf([[H1(f"Chapter {i + 1}"), f"Chapter {i + 1} is about subject {c}."]
                     for i, c in enumerate("ABCD")])
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc.set_toc([[1, "Chapter 1", 1], [1, "Chapter 2", 2], [1, "Chapter 3", 3], [2, "Ghost", 4]])
    items = [x for x in range(1, doc.xref_length()) if "/Title" in doc.xref_object(x)]
    doc.xref_set_key(items[2], "A", "<< /S /GoTo /D [ 9999 0 R /XYZ 72 806 0 ] >>")  # no such object
    doc.xref_set_key(items[3], "A", "<< /S /GoTo /D [ 57 /Fit ] >>")  # page index past the end
    out = doc.tobytes()
    doc.close()
    return out


def html_js_pdf() -> bytes:
    """Text that looks like HTML and JavaScript (must stay plain text everywhere)."""
    return make_pdf([[H1("Security notes"),
                      "<script>alert('owned')</script> <img src=x onerror=alert(1)> "
                      "The vault code rotates every Tuesday at 09:00.",
                      "<b>bold?</b> &lt;not markup&gt; javascript:alert(document.cookie)"]])


# --- the 200-page document with one planted fact ------------------------------------------------
@dataclass(frozen=True)
class PlantedFact:
    """Where the fact is (1-based page), how to ask for it, and what the answer contains."""

    page: int
    question: str
    answer_terms: tuple[str, ...]
    unanswerable: str


PLANTED = PlantedFact(
    page=137,
    question="How much did the restoration of the Skarvik Point lighthouse keeper's cottage cost?",
    answer_terms=("2.37 million",),
    unanswerable="What is the recommended dosage of amoxicillin for a child with otitis media?",
)
_FACT = ("The restoration of the Skarvik Point lighthouse keeper's cottage was completed in September 2024 "
         "at a total cost of 2.37 million kronor, paid from the coastal heritage fund.")

_TOPICS = {
    "Water Supply": (["reservoir", "pipeline", "treatment plant", "pumping station", "water main", "aquifer"],
                     ["leakage", "chlorine dosing", "turbidity", "consumption per household", "pressure zones"]),
    "Public Transport": (["tram line", "bus depot", "ferry route", "cycle lane", "park-and-ride site"],
                         ["ridership", "punctuality", "fare revenue", "timetable changes", "fleet electrification"]),
    "Energy": (["district heating network", "solar array", "substation", "wind turbine", "heat pump"],
               ["peak demand", "grid losses", "tariffs", "carbon intensity", "maintenance outages"]),
    "Schools": (["primary school", "secondary school", "sports hall", "library wing", "canteen"],
                ["enrolment", "teacher vacancies", "exam results", "class sizes", "meal costs"]),
    "Health Services": (["clinic", "ambulance station", "elderly care home", "dental centre", "pharmacy"],
                        ["waiting times", "vaccination rates", "staff turnover", "bed occupancy", "patient surveys"]),
    "Housing": (["apartment block", "social housing estate", "student residence", "housing cooperative"],
                ["rent levels", "vacancy rates", "insulation upgrades", "building permits", "tenant complaints"]),
    "Parks and Forests": (["city park", "nature reserve", "allotment garden", "forest trail", "playground"],
                          ["tree planting", "visitor numbers", "bird counts", "storm damage", "mowing contracts"]),
    "Waste and Recycling": (["recycling centre", "landfill cell", "composting site", "collection route"],
                            ["tonnage collected", "sorting quality", "food waste", "hazardous waste", "fees"]),
    "Culture": (["museum", "concert hall", "theatre", "archive", "heritage site"],
                ["ticket sales", "exhibitions", "grants to artists", "restoration works", "opening hours"]),
    "Public Safety": (["fire station", "police post", "coast guard base", "emergency shelter"],
                      ["response times", "incident counts", "drills", "equipment purchases", "volunteer crews"]),
}
_DISTRICTS = ["Norrby", "Eastholm", "Vikstrand", "Kvarnberg", "Lindhagen", "Solgard", "Hamnvik", "Brovalla"]
_TEMPLATES = [
    "In {year} the {dept} office reviewed {n} {obj}s in {district} and reported that {metric} {trend}.",
    "The {obj} in {district} was inspected in {month} {year}; inspectors noted {metric} as the main concern.",
    "Spending on {metric} reached {money} million kronor in {year}, {cmp} the budget approved by the council.",
    "Residents of {district} raised {n} formal comments about the {obj}, most of them concerning {metric}.",
    "A new {obj} opened in {district} in {month} {year}, and early figures on {metric} are {quality}.",
    "The council set a target to improve {metric} by {pct} percent before {year2} across all districts.",
    "Staff at the {obj} in {district} worked {n} overtime shifts during {month}, mainly because of {metric}.",
    "An external audit of the {dept} department found that {metric} data were {quality} and recommended "
    "monthly reporting.",
]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


def _sentence(rng: random.Random, dept: str) -> str:
    objs, metrics = _TOPICS[dept]
    return rng.choice(_TEMPLATES).format(
        year=rng.randint(2015, 2024), year2=rng.randint(2026, 2032), dept=dept.lower(), n=rng.randint(3, 480),
        obj=rng.choice(objs), district=rng.choice(_DISTRICTS), metric=rng.choice(metrics),
        trend=rng.choice(["improved steadily", "worsened slightly", "stayed flat", "varied by season"]),
        month=rng.choice(_MONTHS), money=f"{rng.uniform(0.2, 90):.1f}",
        cmp=rng.choice(["below", "above", "close to"]), pct=rng.randint(2, 40),
        quality=rng.choice(["encouraging", "mixed", "incomplete", "reliable", "disappointing"]))


def big_pdf_200(pages: int = 200, seed: int = 2024) -> bytes:
    """A 200-page municipal report: ten chapters of varied filler, one fact on page 137.

    Chapters follow the topics in order (20 pages each), so page 137 lies in "Culture"
    (pages 121-140), the chapter where a lighthouse restoration plausibly belongs.
    Headings are large bold lines; there is an outline with one entry per chapter.
    """
    rng = random.Random(seed)
    depts = list(_TOPICS)
    per = pages // len(depts)
    body: list[list[TextBlock | str]] = []
    toc = []
    for i in range(pages):
        dept = depts[min(i // per, len(depts) - 1)]
        blocks: list[TextBlock | str] = []
        if i % per == 0:
            blocks.append(H1(dept))
            toc.append((1, dept, i + 1))
        para = [" ".join(_sentence(rng, dept) for _ in range(4)) for _ in range(3)]
        if i + 1 == PLANTED.page:
            para[1] = para[1] + " " + _FACT
        blocks.extend(para)
        body.append(blocks)
    return make_pdf(body, toc=toc, title="Municipal Services Report 2024")


# --- one company's filings and a paper (document facts, folder choice) -------------------------
_FILING_BODY = {
    2018: ("Net sales in fiscal 2018 were 4,210 million dollars and capital expenditures were 312 million dollars.",
           "The company operated 41 plants at the end of 2018."),
    2020: ("Net sales in fiscal 2020 were 5,034 million dollars and capital expenditures were 377 million dollars.",
           "The company operated 45 plants at the end of 2020."),
}


def filing_pdf(form: str, year: int, *, quarter_end: str = "") -> bytes:
    """A cover page the way the SEC lays it out, then two pages of results of Harrow Instruments Corporation.

    ``form``: "10-K" (fiscal year ended December 31, ``year``) or "10-Q" (quarterly period
    ended ``quarter_end``). Sales figures and plant counts differ by year (see ``_FILING_BODY``).
    """
    period = (f"For the fiscal year ended December 31, {year}" if form == "10-K"
              else f"For the quarterly period ended {quarter_end}")
    report = "ANNUAL REPORT" if form == "10-K" else "QUARTERLY REPORT"
    cover = ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", H1(f"FORM {form}"),
             f"{report} PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", period,
             "Commission file number 1-4412", "HARROW INSTRUMENTS CORPORATION",
             "(Exact name of registrant as specified in its charter)", "Delaware", "Trading Symbol(s)", "HRW",
             "New York Stock Exchange"]
    sales, plants = _FILING_BODY.get(year, _FILING_BODY[2020])
    if form == "10-Q":
        sales = (f"Net sales for the quarter were 1,290 million dollars. Quarterly capital expenditures were "
                 f"88 million dollars in the second quarter of {year}.")
    return make_pdf([cover,
                     [H2("Management's Discussion and Analysis"), sales, plants,
                      "Gross margin benefited from pricing and lower freight costs across the instruments segment."],
                     [H2("Risk Factors"), "Demand for laboratory instruments depends on research budgets. "
                      "Supply of precision optics comes from a small number of vendors."]])


def spaced_fonts_pdf(words: str = "Graph-based models were compared with rules & tables") -> bytes:
    """One line whose spaces are drawn in another font than its words (as some LaTeX PDFs are):
    every space is a span of its own. A bold, larger heading line above it."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Related Work", fontname="hebo", fontsize=16)
    x = 72.0
    for i, word in enumerate(words.split()):
        if i:
            page.insert_text((x, 100), " ", fontname="tiro", fontsize=11)
            x += pymupdf.get_text_length(" ", "tiro", 11)
        page.insert_text((x, 100), word, fontname="helv", fontsize=11)
        x += pymupdf.get_text_length(word, "helv", 11)
    data = doc.tobytes()
    doc.close()
    return data


def paper_pdf() -> bytes:
    """A short research paper (title, authors, abstract, introduction) about glacier melt."""
    return make_pdf([[H1("Measuring Glacier Melt with Low-Cost Seismometers"), "Ana Ruiz and Tom Becker",
                      H2("Abstract"), "We show that low-cost seismometers detect meltwater pulses in alpine "
                      "glaciers. Our network of 12 sensors recorded 340 melt events in one summer.",
                      H2("1 Introduction"), "Glacier melt is usually measured with stakes and weather stations."],
                     [H2("2 Method"), "Sensors were buried 30 centimetres deep along the glacier tongue."]],
                    title="Measuring Glacier Melt with Low-Cost Seismometers")


def filings_folder() -> dict[str, bytes]:
    """File name → PDF: two 10-Ks (FY2018, FY2020) and a 10-Q of one company, and a paper.
    The names say nothing of what the files are, so facts must come from their content."""
    return {"filing-a.pdf": filing_pdf("10-K", 2018), "filing-b.pdf": filing_pdf("10-K", 2020),
            "filing-c.pdf": filing_pdf("10-Q", 2020, quarter_end="June 30, 2020"), "paper.pdf": paper_pdf()}


# --- a financial statement laid out as a real table (one text object per cell) ------------------
STATEMENT_ROWS = [
    ("Total revenues", ("66,608", "60,117", "52,004")),
    ("Cost of revenues", ("40,120", "37,003", "33,950")),
    ("Operating income", ("9,954", "8,702", "6,110")),
    ("Net (loss)/earnings", ("(1,204)", "5,310", "4,006")),
    ("Purchases of property, plant and equipment", ("(1,577)", "(1,402)", "(1,250)")),
    ("Diluted earnings per share", ("(0.52)", "2.31", "1.74")),
]


def _statement(doc: pymupdf.Document, title: str, unit: str, rows) -> None:
    """A page of ``doc`` holding a statement: its title, unit line, years 2022, 2021, 2020 as columns and
    ``rows`` of (label, three cells), each cell a separate text object at its column's x position."""
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), title, fontsize=14)
    page.insert_text((72, 100), unit, fontsize=9)
    for x, year in zip((330, 420, 510), ("2022", "2021", "2020")):
        page.insert_text((x, 125), year, fontsize=10)
    y = 150
    for label, cells in rows:
        page.insert_text((72, y), label, fontsize=10)
        for k, (x, cell) in enumerate(zip((330, 420, 510), cells)):
            if k == 0 or label.startswith("Total"):
                page.insert_text((x - 10, y), "$", fontsize=10)
            page.insert_text((x, y), cell, fontsize=10)
        y += 22


CASH_FLOW_ROWS = [
    ("Net income", ("1,419", "2,454", "1,798")),
    ("Net cash provided by operating activities", ("3,252", "1,824", "2,100")),
    ("Net cash used in investing activities", ("(1,372)", "(962)", "(4,788)")),
    ("Net cash used in financing activities", ("(4,297)", "(1,806)", "(876)")),
]


def cash_flow_pdf() -> bytes:
    """2 pages: a cover and a statement of cash flows (``CASH_FLOW_ROWS``, years 2022, 2021, 2020)."""
    doc = pymupdf.open()
    doc.new_page(width=595, height=842).insert_text((72, 90), "Harbor Freight Logistics Inc. Annual Report", fontsize=18)
    _statement(doc, "Consolidated Statements of Cash Flows", "(In millions)", CASH_FLOW_ROWS)
    data = doc.tobytes()
    doc.close()
    return data


def table_pdf() -> bytes:
    """3 pages: a cover letter, a consolidated statement (years 2022, 2021, 2020 as columns,
    "(In millions, except per share amounts)", negatives in parentheses, each cell a separate
    text object at its column's x position, like filings), and a page about employees."""
    doc = pymupdf.open()
    cover = doc.new_page(width=595, height=842)
    cover.insert_text((72, 90), "Harbor Freight Logistics Inc. Annual Report 2022", fontsize=18)
    cover.insert_text((72, 130), "Dear shareholders, this was a year of steady growth in every region.", fontsize=11)
    _statement(doc, "Consolidated Statements of Operations", "(In millions, except per share amounts)", STATEMENT_ROWS)
    people = doc.new_page(width=595, height=842)
    people.insert_text((72, 90), "Our people", fontsize=14)
    people.insert_text((72, 120), "At year end we had 12,450 full-time employees in 14 countries.", fontsize=11)
    data = doc.tobytes()
    doc.close()
    return data


RELEASE_ROWS = [  # (label, (three months 2023, 2022, twelve months 2023, 2022))
    ("Net income attributable to the company", ("181", "109", "1,048", "805")),
    ("Depreciation and amortization", ("144", "145", "577", "579")),
    ("Adjusted EBITDA", ("540", "609", "2,018", "2,090")),
    ("Purchase of property, plant and equipment", ("(154)", "(144)", "(590)", "(623)")),
]


def _cells(page, y: float, label: str, cells, xs) -> None:
    page.insert_text((72, y), label, fontsize=10)
    for x, cell in zip(xs, cells):
        page.insert_text((x, y), cell, fontsize=10)


def cost_rows_pdf() -> bytes:
    """One statement page whose rows name line items near revenue but not revenue itself:
    "Cost of sales", "Deferred revenue" (in millions, 2023 and 2022)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Selected balances (in millions)", fontsize=12)
    xs = (360, 440)
    _cells(page, 110, "", ("2023", "2022"), xs)
    for i, (label, cells) in enumerate((("Cost of sales", ("11,724", "11,909")),
                                        ("Deferred revenue", ("538", "512")),
                                        ("Operating income", ("1,402", "1,120")))):
        _cells(page, 135 + 20 * i, label, cells, xs)
    data = doc.tobytes()
    doc.close()
    return data


RELEASE_STATEMENTS = [  # the full year's statements (page 5): (label, (2023, 2022))
    ("Net sales", ("14,694", "14,544")),
    ("Cost of sales", ("11,724", "11,909")),
    ("Income before income taxes", ("1,335", "1,003")),
    ("Income tax expense", ("(259)", "(193)")),
    ("Net income", ("1,076", "810")),
    ("Inventories", ("1,900", "1,700")),
    ("Accounts payable", ("2,836", "2,248")),
    ("Total shareholders' equity", ("4,100", "3,900")),
]


def earnings_release_pdf() -> bytes:
    """5 pages of an earnings release, each cell a separate text object at its column's x:
    1. a cover; 2. a reconciliation with quarter and full-year columns side by side ("Three
    Months Ended June 30," and "Twelve Months Ended June 30," over 2023 2022 2023 2022, "($
    million)"); 3. the quarter alone ("Three Months Ended June 30, 2023" per column); 4. the full
    year alone ("Fiscal Year Ended June 30, 2023" per column), with accrued liabilities whose
    total carries a footnote mark "(1)" after its figures; 5. the full year's income statement
    and balance sheet (2023, 2022: figures for ratios on average balances)."""
    doc = pymupdf.open()
    doc.new_page(width=595, height=842).insert_text((72, 90), "Tidewater Packaging Fourth Quarter Results",
                                                    fontsize=18)
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Reconciliation of Non-GAAP Measures", fontsize=14)
    page.insert_text((300, 105), "Three Months Ended June 30,", fontsize=9)
    page.insert_text((440, 105), "Twelve Months Ended June 30,", fontsize=9)
    xs = (300, 360, 440, 500)
    for x, year in zip(xs, ("2023", "2022", "2023", "2022")):
        page.insert_text((x, 122), year, fontsize=10)
    page.insert_text((72, 122), "($ million)", fontsize=9)
    for k, (label, cells) in enumerate(RELEASE_ROWS):
        _cells(page, 145 + 22 * k, label, cells, xs)
    for number, (head, pick) in enumerate((("Three Months Ended June 30,", (0, 1)),
                                            ("Fiscal Year Ended June 30,", (2, 3))), start=3):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "Adjusted EBITDA and Free Cash Flow", fontsize=14)
        page.insert_text((72, 100), "(in millions of US dollars)", fontsize=9)
        for x, year in zip((330, 450), ("2023", "2022")):
            page.insert_text((x, 122), f"{head} {year}", fontsize=9)
        for k, (label, cells) in enumerate(RELEASE_ROWS[2:]):
            _cells(page, 145 + 22 * k, label, [cells[i] for i in pick], (330, 450))
        if number == 4:
            page.insert_text((72, 220), "Accrued liabilities", fontsize=12)
            for x, year in zip((330, 450), ("2023", "2022")):
                page.insert_text((x, 240), year, fontsize=10)
            _cells(page, 262, "Compensation and benefits", ("1,472", "1,248"), (330, 450))
            _cells(page, 284, "Total accrued liabilities", ("6,063", "5,184", "(1)"), (330, 450, 530))
            page.insert_text((72, 320), "(1) Includes sales-related reserves.", fontsize=8)
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Consolidated Statement of Income and Balance Sheet", fontsize=14)
    page.insert_text((72, 100), "(in millions)", fontsize=9)
    page.insert_text((330, 110), "Fiscal Year Ended June 30,", fontsize=9)
    for x, year in zip((330, 450), ("2023", "2022")):
        page.insert_text((x, 125), year, fontsize=10)
    for k, (label, cells) in enumerate(RELEASE_STATEMENTS):
        _cells(page, 150 + 22 * k, label, cells, (330, 450))
    data = doc.tobytes()
    doc.close()
    return data


def second_paper_pdf() -> bytes:
    """Another short research paper (marmots counted with thermal drones), for "this paper" among papers."""
    return make_pdf([[H1("Counting Alpine Marmots with Thermal Drones"), "Lea Huber and Marco Rossi",
                      H2("Abstract"), "Thermal cameras on small drones find marmot burrows in high meadows. "
                      "Flights over 9 valleys counted 1,140 marmots.",
                      H2("1 Introduction"), "Marmot colonies are usually counted from the ground at dawn."]],
                    title="Counting Alpine Marmots with Thermal Drones")


# --- resource bombs of the security audit (small on disk, huge once parsed) -----------------------------
def _stream(data: bytes, filters: bytes = b"/FlateDecode") -> bytes:
    return b"<< /Length %d /Filter %s >>\nstream\n" % (len(data), filters) + data + b"\nendstream"


def _deflate_repeated(head: bytes, unit: bytes, total: int, tail: bytes = b"") -> bytes:
    """zlib data of ``head`` + ``unit`` repeated to ~``total`` bytes + ``tail``, built in well under a second:
    one 1 MB block is compressed once (after a full flush it is byte-aligned and self-contained) and repeated."""
    block = unit * max(1, 2**20 // len(unit))
    z = zlib.compressobj(9)
    start = z.compress(head) + z.flush(zlib.Z_FULL_FLUSH)
    once = z.compress(block) + z.flush(zlib.Z_FULL_FLUSH)
    n = max(1, total // len(block))
    end = z.compress(tail) + z.flush(zlib.Z_FULL_FLUSH) + b"\x03\x00"  # an empty final block
    adler = zlib.adler32(head)
    for _ in range(n):
        adler = zlib.adler32(block, adler)
    adler = zlib.adler32(tail, adler)
    return start + once * n + end + adler.to_bytes(4, "big")


def deep_outline_raw_pdf(depth: int = 100_000) -> bytes:
    """One page whose outline is ``depth`` bookmarks each nested inside the previous (MuPDF recurses)."""
    first = 6  # objects 1-5: catalog, pages, font, page, content; outline items from 6
    content = b"BT /F1 12 Tf 72 720 Td (A page with a very deep outline.) Tj ET"
    objs = [b"<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>" % first, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first + 1, first + 1, depth)]
    for k in range(depth):
        me = first + 1 + k
        kids = b"/First %d 0 R /Last %d 0 R /Count 1 " % (me + 1, me + 1) if k + 1 < depth else b""
        objs.append(b"<< /Title (L%d) /Parent %d 0 R %s/Dest [4 0 R /Fit] >>" % (k, me - 1, kids))
    return _raw_pdf(objs)


def hex_flate_bomb_pdf(inflated_mb: int = 1000) -> bytes:
    """A page stream behind ``[/ASCIIHexDecode /FlateDecode]``: ~2 MB on disk, ``inflated_mb`` MB decoded."""
    import binascii

    data = binascii.hexlify(_deflate_repeated(b"BT /F1 12 Tf 72 720 Td (Hex bomb) Tj ET\n", b" ", inflated_mb * 2**20))
    return _one_page_pdf(_stream(data + b">", b"[/ASCIIHexDecode /FlateDecode]"))


def referenced_filter_bomb_pdf(inflated_mb: int = 300) -> bytes:
    """A flate bomb whose filter chain is another object, written abbreviated: ``/Filter 6 0 R`` with
    object 6 ``[/AHx /Fl]`` (MuPDF follows the reference and spells the names out)."""
    import binascii

    data = binascii.hexlify(_deflate_repeated(b"BT /F1 12 Tf 72 720 Td (Referenced) Tj ET\n", b" ", inflated_mb * 2**20))
    return _one_page_pdf(_stream(data + b">", b"6 0 R"), [b"[/AHx /Fl]"])


def referenced_names_bomb_pdf(inflated_mb: int = 300) -> bytes:
    """A flate bomb whose filter array holds its name by reference: ``/Filter [6 0 R]`` with object 6
    ``/FlateDecode`` (MuPDF follows the reference and inflates the stream)."""
    data = _deflate_repeated(b"BT /F1 12 Tf 72 720 Td (By reference) Tj ET\n", b" ", inflated_mb * 2**20)
    return _one_page_pdf(_stream(data, b"[6 0 R]"), [b"/FlateDecode"])


def referenced_size_image_bomb_pdf(side: int = 21000) -> bytes:
    """``image_bomb_pdf`` with the image's size held by reference: ``/Width 7 0 R /Height 8 0 R``."""
    img = _deflate_repeated(b"", bytes(side), side * side)
    content = b"q 500 0 0 700 50 50 cm /Im1 Do Q BT /F1 12 Tf 72 720 Td (Poster) Tj ET"
    image = (b"<< /Type /XObject /Subtype /Image /Width 7 0 R /Height 8 0 R /BitsPerComponent 8 "
             b"/ColorSpace /DeviceGray /Filter /FlateDecode /Length %d >>\nstream\n" % len(img) + img + b"\nendstream")
    return _one_page_pdf(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
                         [image, b"%d" % side, b"%d" % side], b"/XObject << /Im1 6 0 R >>")


def text_flood_pdf(inflated_mb: int = 250, pages: int = 1) -> bytes:
    """``pages`` pages, each one plain Flate content stream of ordinary text lines inflating to
    ``inflated_mb`` MB (several pages make a parse that takes seconds on any machine)."""
    line = b"BT /F1 9 Tf 72 700 Td (" + b"Revenue grew in every region during the year. " * 6 + b") Tj ET\n"
    content = _stream(_deflate_repeated(b"", line, inflated_mb * 2**20))
    if pages == 1:
        return _one_page_pdf(content)
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(pages))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i in range(pages):
        objs += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                 b"/Resources << /Font << /F1 3 0 R >> >> >>" % (5 + 2 * i), content]
    return _raw_pdf(objs)


def shared_content_pdf(pages: int = 100, inflated_mb: int = 4, forms: int = 0) -> bytes:
    """``pages`` pages drawing one Flate content stream of ordinary text lines inflating to ``inflated_mb`` MB:
    each page within its own budget, MuPDF interpreting the stream again for each (~20 KB on disk).
    ``forms``: each line also draws ``form_fanout_pdf``'s forms that many levels deep, so every page is
    skipped, the budget reading the stream again for each."""
    line = b"BT /F1 9 Tf 72 700 Td (" + b"Revenue grew in every region during the year. " * 6 + b") Tj ET\n"
    drawn = b"/XObject << /X 5 0 R >> " if forms else b""
    kids = b" ".join(b"%d 0 R" % (5 + forms + i) for i in range(pages))
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
                     b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                     _stream(_deflate_repeated(b"", line + (b"q /X Do Q\n" if forms else b""),
                                               inflated_mb * 2**20 - 2**20 // 2)),
                     *(_fanout_forms(forms, 10, base=5) if forms else []),
                     *[b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                       b"/Resources << /Font << /F1 3 0 R >> %s>> >>" % drawn] * pages])


def inline_images_pdf(images: int = 10, side: int = 10_000, dictionary: bytes = b"/W %d /H %d /BPC 8 /CS /RGB",
                      data: bytes = b"", filters: bytes = b"/Fl") -> bytes:
    """One page of a line of text and ``images`` inline images (BI <dictionary> ID <data> EI), each declaring
    ``side`` x ``side`` pixels (RGB unless ``dictionary`` says otherwise) of Flate data holding 1 KB of zeros
    (or ``data`` behind ``filters``): MuPDF decodes each into a ``side`` x ``side`` x 3 byte picture as it
    reads the page (~7 KB on disk)."""
    data = data or zlib.compress(bytes(1024))
    head = dictionary % (side, side) if b"%d" in dictionary else dictionary
    image = b"q 100 0 0 100 50 50 cm BI " + head + b" /F " + filters + b" ID " + data + b" EI Q\n"
    return _one_page_pdf(_stream(zlib.compress(b"BT /F1 12 Tf 72 760 Td (A page of inline images.) Tj ET\n"
                                               + image * images)))


def lzw_pdf(decoded_mb: float = 20) -> bytes:
    """One page whose content stream is ``decoded_mb`` MB of text lines behind /LZWDecode, written as 9-bit
    literal codes (a clear code before every 200, so the table never widens the codes): 1.125 bytes on disk
    per byte decoded, the most work per byte for a decoder. One aligned block of 8 x 200 codes, repeated."""
    unit = (b"BT /F1 9 Tf 72 700 Td (Revenue grew in every region during the year.) Tj ET\n" * 30)[:1600]
    bits = "".join(format(256, "09b") + "".join(format(b, "09b") for b in unit[i:i + 200]) for i in range(0, 1600, 200))
    block = int(bits, 2).to_bytes(len(bits) // 8, "big")  # 8 x 201 codes of 9 bits: 1,809 bytes
    data = block * max(1, int(decoded_mb * 2**20) // 1600) + (257 << 7).to_bytes(2, "big")  # EOD, padded
    return _one_page_pdf(_stream(data, b"/LZWDecode"))


def long_line_pdf(chars_mb: int = 100) -> bytes:
    """One text-showing operator holding a single line of ``chars_mb`` million characters."""
    return _one_page_pdf(_stream(_deflate_repeated(b"BT /F1 12 Tf 72 720 Td (", b"A", chars_mb * 2**20, b") Tj ET")))


def _fanout_forms(levels: int, fanout: int, drawn_as: bytes = b"X", base: int = 6,
                  leaf: bytes = b"BT /F1 12 Tf 10 10 Td (leaf) Tj ET", operands: bytes = b" ") -> list[bytes]:
    """Form XObjects ``levels`` deep (objects ``base`` .., form k drawing form k+1 ``fanout`` times as
    ``/<drawn_as><operands>Do``, named ``/X`` in its resources), the last running ``leaf`` (one word
    shown): fanout**levels draws."""
    forms = []
    for k in range(levels):
        if k + 1 < levels:
            body = b"q /%s%sDo Q " % (drawn_as, operands) * fanout
            res = b"/Resources << /XObject << /X %d 0 R >> /Font << /F1 3 0 R >> >>" % (base + k + 1)
        else:
            body = leaf
            res = b"/Resources << /Font << /F1 3 0 R >> >>"
        forms.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] %s /Length %d >>\nstream\n"
                     % (res, len(body)) + body + b"\nendstream")
    return forms


def annotation_fanout_pdf(levels: int = 7, fanout: int = 10, states: bool = False, copies: int = 1) -> bytes:
    """``form_fanout_pdf``'s forms drawn by an annotation's appearance stream (/AP /N) instead of the
    page's instructions: text extraction draws annotations too. ``states``: /N is a reference to a
    dictionary of appearance states (``/N 14 0 R``, object 14 ``<< /On 6 0 R >>``). ``copies``: the
    page's /Annots lists the annotation that many times (MuPDF draws each entry)."""
    base = 6  # forms are objects 6 .. 6+levels-1, the annotation the next one, then the states
    normal = b"%d 0 R" % (base + levels + 1 if states else base)
    annot = b"<< /Type /Annot /Subtype /Stamp /Rect [0 0 612 792] %s/AP << /N %s >> >>" % (
        b"/AS /On " if states else b"", normal)
    content = b"BT /F1 12 Tf 72 760 Td (An annotated page.) Tj ET"
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> /Annots [%s] >>" % (b"%d 0 R " % (base + levels) * copies)[:-1])
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
                     b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", page,
                     b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
                     *_fanout_forms(levels, fanout, base=base), annot,
                     *([b"<< /On %d 0 R >>" % base] if states else [])])


def cell_fanout_pdf(via: str, levels: int = 7, fanout: int = 10, painters: int = 0) -> bytes:
    """``form_fanout_pdf``'s forms run by another content stream MuPDF runs while extracting text:
    ``via`` "pattern" (a tiling pattern's cell, the page filling a rectangle with it), "softmask" (a soft
    mask's group, the page filling under it), "type3" (a Type3 font's glyph procedure, run when the
    font loads) or "inherited" (forms without resources of their own, each naming the next through the
    page's resources, which MuPDF then draws them with). ``painters`` (pattern, softmask): the page fills
    through forms of its own instead, ``painters`` levels each drawing the next ``fanout`` times, the last
    filling the page; they inherit the colour or the mask, so each of their fanout**(painters-1) fills
    runs the cell."""
    def _obj(head: bytes, body: bytes) -> bytes:  # a stream object: its dictionary's head, then the body
        return head + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    base, after = 6, 6 + levels  # forms are objects 6 .. 6+levels-1
    content = b"BT /F1 12 Tf 72 760 Td (A page drawing through a %s.) Tj ET " % via.encode()
    fill, painting = b"0 0 612 792 re f", []
    if painters:  # the painting forms come last: after the pattern, or right after the forms
        first = after + (via == "pattern")
        fill, painting = b"q /Y Do Q", _fanout_forms(painters, fanout, base=first, leaf=b"0 0 612 792 re f")
    if via == "inherited":
        forms = [_obj(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792]",
                         b"q /X%d Do Q " % (k + 1) * fanout if k + 1 < levels else b"BT /F1 12 Tf 10 10 Td (leaf) Tj ET")
                 for k in range(levels)]
        names = b" ".join(b"/X%d %d 0 R" % (k, base + k) for k in range(levels))
        return _one_page_pdf(_obj(b"<<", content + b"q /X0 Do Q"), forms, b"/XObject << %s >>" % names)
    forms = _fanout_forms(levels, fanout, base=base)
    painted = b" /XObject << /Y %d 0 R >>" % first if painters else b""
    if via == "pattern":
        extra = [_obj(b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 612 792] "
                         b"/XStep 612 /YStep 792 /Resources << /XObject << /X 6 0 R >> >>", b"q /X Do Q")]
        return _one_page_pdf(_obj(b"<<", content + b"/Pattern cs /P1 scn " + fill), [*forms, *extra, *painting],
                             b"/Pattern << /P1 %d 0 R >>" % after + painted)
    if via == "softmask":
        return _one_page_pdf(_obj(b"<<", content + b"/G1 gs " + fill), [*forms, *painting],
                             b"/ExtGState << /G1 << /SMask << /S /Luminosity /G 6 0 R >> >> >>" + painted)
    assert via == "type3", via
    extra = [_obj(b"<<", b"1000 0 d0 q /X Do Q"),
             b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
             b"/CharProcs << /a %d 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 "
             b"/LastChar 97 /Widths [1000] /Resources << /XObject << /X 6 0 R >> >> >>" % after]
    return _one_page_pdf(_obj(b"<<", content + b"BT /T3 12 Tf 72 700 Td (a) Tj ET"), [*forms, *extra],
                         b"/Font << /F1 3 0 R /T3 %d 0 R >>" % (after + 1))


def masked_pattern_pdf(levels: int = 4, painters: int = 4, fanout: int = 10) -> bytes:
    """A page filling once with a tiling pattern under a soft mask: the pattern's cell draws
    ``form_fanout_pdf``'s forms ``levels`` deep, the mask's group fills through forms ``painters`` deep.
    The group paints with the colour it inherits, the pattern, so each of its fanout**(painters-1) fills
    runs the cell again."""
    def _obj(head: bytes, body: bytes) -> bytes:
        return head + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    cell_forms = _fanout_forms(levels, fanout, base=6)
    group_forms = _fanout_forms(painters, fanout, base=6 + levels, leaf=b"0 0 612 792 re f")
    pattern, group = 6 + levels + painters, 7 + levels + painters
    extra = [_obj(b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 612 792] /XStep 612 "
                  b"/YStep 792 /Resources << /XObject << /X 6 0 R >> >>", b"q /X Do Q"),
             _obj(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency >> "
                  b"/Resources << /XObject << /X %d 0 R >> >>" % (6 + levels), b"q /X Do Q")]
    content = b"BT /F1 12 Tf 72 760 Td (A pattern under a soft mask.) Tj ET /Pattern cs /P1 scn /G1 gs 0 0 612 792 re f"
    return _one_page_pdf(_obj(b"<<", content), [*cell_forms, *group_forms, *extra],
                         b"/Pattern << /P1 %d 0 R >> /ExtGState << /G1 << /SMask << /S /Luminosity /G %d 0 R >> >> >>"
                         % (pattern, group))


def images_via_pdf(via: str, images: int = 10, side: int = 15_000) -> bytes:
    """One page showing ``images`` grey images of ``side`` x ``side`` pixels (~1 KB of Flate data per million
    pixels) that its own resources do not list: drawn by a content stream rendering runs besides the page's,
    ``via`` "pattern" (a tiling pattern's cell, the page filling with it), "annotation" (an annotation's
    appearance), "softmask" (a soft mask's group) or "type3" (a Type3 font's glyph procedure)."""
    def _obj(head: bytes, body: bytes) -> bytes:
        return head + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    pixels = _deflate_repeated(b"", bytes(side), side * side)
    image = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8 /ColorSpace /DeviceGray "
             b"/Filter /FlateDecode /Length %d >>\nstream\n" % (side, side, len(pixels)) + pixels + b"\nendstream")
    names = b" ".join(b"/Im%d %d 0 R" % (i, 6 + i) for i in range(images))
    draw = b"".join(b"q 500 0 0 700 50 50 cm /Im%d Do Q " % i for i in range(images))
    holder, listed = 6 + images, b"/Resources << /XObject << %s >> >>" % names
    text = b"BT /F1 12 Tf 72 760 Td (A page drawing images through a %s.) Tj ET " % via.encode()
    if via == "pattern":
        cell = _obj(b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 612 792] /XStep 612 "
                    b"/YStep 792 " + listed, draw)
        return _one_page_pdf(_obj(b"<<", text + b"/Pattern cs /P1 scn 0 0 612 792 re f"), [*[image] * images, cell],
                             b"/Pattern << /P1 %d 0 R >>" % holder)
    if via == "annotation":
        form = _obj(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] " + listed, draw)
        page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                b"/Resources << /Font << /F1 3 0 R >> >> /Annots [%d 0 R] >>" % (holder + 1))
        return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
                         b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", page, _obj(b"<<", text),
                         *[image] * images, form,
                         b"<< /Type /Annot /Subtype /Stamp /Rect [0 0 612 792] /AP << /N %d 0 R >> >>" % holder])
    if via == "softmask":
        group = _obj(b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency >> " + listed, draw)
        return _one_page_pdf(_obj(b"<<", text + b"/G1 gs 0 0 612 792 re f"), [*[image] * images, group],
                             b"/ExtGState << /G1 << /SMask << /S /Luminosity /G %d 0 R >> >> >>" % holder)
    assert via == "type3", via
    font = (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
            b"/CharProcs << /a %d 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 "
            b"/LastChar 97 /Widths [1000] %s >>" % (holder, listed))
    return _one_page_pdf(_obj(b"<<", text + b"BT /T3 500 Tf 72 100 Td (a) Tj ET"),
                         [*[image] * images, _obj(b"<<", b"1000 0 d0 " + draw), font],
                         b"/Font << /F1 3 0 R /T3 %d 0 R >>" % (holder + 1))


def named_forms_pdf(forms: int = 40, mb: int = 4) -> bytes:
    """One page whose single "Do" is preceded by the names of ``forms`` forms, each ~``mb`` MB of drawing
    instructions ("q /Y Do Q 0 0 1 1 re f", /Y an empty form) in ~4 KB of Flate data: MuPDF draws the first
    name, the page budget, not knowing which operand a name is, judges every one."""
    body = _deflate_repeated(b"", b"q /Y Do Q 0 0 1 1 re f\n", mb * 2**20 - 100)
    form = (b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Y %d 0 R >> >> "
            b"/Filter /FlateDecode /Length %d >>\nstream\n" % (6 + forms, len(body)) + body + b"\nendstream")
    empty = b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream"
    names = b" ".join(b"/F%d %d 0 R" % (i, 6 + i) for i in range(forms))
    content = (b"BT /F1 12 Tf 72 760 Td (A page naming many forms.) Tj ET q "
               + b" ".join(b"/F%d" % i for i in range(forms)) + b" Do Q")
    return _one_page_pdf(_stream(content, b"[]"), [*[form] * forms, empty], b"/XObject << %s >>" % names)


def repeated_contents_pdf(copies: int = 100, kb: int = 4000) -> bytes:
    """One page whose /Contents lists one Flate stream of ``kb`` KB of text lines ``copies`` times."""
    line = b"BT /F1 9 Tf 72 700 Td (Revenue grew in every region during the year.) Tj ET\n"
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [%s] "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (b"5 0 R " * copies))
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
                     b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", page,
                     _stream(_deflate_repeated(b"", line, kb * 1024))])


def tiny_tiles_pdf(fills: int = 10, step: float = 0.01, text: bytes = b"A page of tiny tiles.") -> bytes:
    """One page of a line of text, then filled ``fills`` times with a tiling pattern whose tiles are ``step``
    points square (~1 KB): MuPDF draws every tile (~1.5 s per fill at 0.01 pt), while reading the text
    costs nothing."""
    cell = (b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 %g %g] /XStep %g /YStep %g "
            b"/Resources << >> /Length 12 >>\nstream\n0 0 1 1 re f\nendstream" % (step, step, step, step))
    content = b"BT /F1 12 Tf 72 760 Td (%s) Tj ET /Pattern cs /P1 scn " % text + b"0 0 612 792 re f " * fills
    return _one_page_pdf(_stream(content, b"[]"), [cell], b"/Pattern << /P1 6 0 R >>")


def shared_images_pdf(pages: int = 1000, images: int = 2000) -> bytes:
    """``pages`` pages inheriting one resource dictionary written in the page tree's root (not an object
    of its own), listing ``images`` 1 x 1 images: a few hundred KB that made every page list them all."""
    image = (b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray "
             b"/Length 1 >>\nstream\n\x00\nendstream")
    names = b" ".join(b"/I%d %d 0 R" % (i, 6 + i) for i in range(images))
    kids = b" ".join(b"%d 0 R" % (6 + images + i) for i in range(pages))
    content = b"BT /F1 12 Tf 72 760 Td (Pages sharing their resources.) Tj ET"
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                     b"<< /Type /Pages /Kids [%s] /Count %d /Resources << /Font << /F1 3 0 R >> /XObject << %s >> >> >>"
                     % (kids, pages, names), b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", b"null",
                     b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream", *[image] * images,
                     *[b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>"] * pages])


def function_pdf(via: str, size: int, uses: int = 1) -> bytes:
    """A page making MuPDF evaluate a costly function while its text is extracted. ``via`` "shading":
    ``uses`` function-based shadings (type 1, sampled on a grid when each loads) of a PostScript
    function of ``size`` "dup pop" pairs; "separation": ``uses`` words shown each in a new colour of a
    Separation colour space with that function as tint transform (each text's colour is converted);
    "devicen": the same in a DeviceN colour space of ``size`` colorants whose tint transform is a sampled
    function (2**size samples read per evaluation, one sample stored). Flate keeps each file ~1-3 KB."""
    def _obj(head: bytes, body: bytes) -> bytes:
        data = zlib.compress(body, 9)
        return head + b" /Filter /FlateDecode /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"

    text = b"BT /F1 12 Tf 72 760 Td (A page evaluating a function through a %s.) Tj ET " % via.encode()
    if via == "shading":
        function = _obj(b"<< /FunctionType 4 /Domain [0 1 0 1] /Range [0 1]", b"{ pop " + b"dup pop " * size + b"}")
        shadings = [b"<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 1 0 1] /Function 6 0 R >>"] * uses
        names = b" ".join(b"/Sh%d %d 0 R" % (i, 7 + i) for i in range(uses))
        return _one_page_pdf(_obj(b"<<", text + b"".join(b"q /Sh%d sh Q " % i for i in range(uses))),
                             [function, *shadings], b"/Shading << %s >>" % names)
    if via == "separation":
        function = _obj(b"<< /FunctionType 4 /Domain [0 1] /Range [0 1]", b"{ " + b"dup pop " * size + b"}")
        space, tint = b"[/Separation /Spot /DeviceGray 6 0 R]", b"%.3f scn"
    else:
        assert via == "devicen", via
        function = _obj(b"<< /FunctionType 0 /Domain [%s] /Range [0 1] /Size [%s] /BitsPerSample 8"
                        % (b"0 1 " * size, b"1 " * size), b"\x80")
        space = b"[/DeviceN [%s] /DeviceGray 6 0 R]" % b" ".join(b"/C%d" % i for i in range(size))
        tint = b"%.3f " * size + b"scn"
    shows = b"".join(tint % ((i % 2 / 2,) * tint.count(b"%")) + b" (x) Tj " for i in range(uses))
    return _one_page_pdf(_obj(b"<<", text + b"/CS0 cs BT /F1 12 Tf 72 700 Td " + shows + b"ET"), [function],
                         b"/ColorSpace << /CS0 %s >>" % space)


def form_fanout_pdf(levels: int = 7, fanout: int = 10, drawn_as: bytes = b"X", operands: bytes = b" ",
                    split: bool = False) -> bytes:
    """Form XObjects ``levels`` deep, each drawing the next ``fanout`` times (fanout**levels text draws),
    named ``/X`` in the resources and drawn as ``/<drawn_as><operands>Do`` (e.g. ``#58``, the same name
    escaped; operands such as " 0 ", " %c<newline>" or " /Y ": MuPDF draws the first name before "Do").
    ``split``: the page's instructions are two streams, the first ending with the name (the forms' are
    written as usual)."""
    content = b"BT /F1 12 Tf 72 760 Td (Forms drawing forms.) Tj ET q /%s%sDo Q" % (drawn_as, operands)
    forms = _fanout_forms(levels, fanout, drawn_as, operands=b" " if split else operands)
    if not split:
        return _one_page_pdf(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
                             forms, b"/XObject << /X 6 0 R >>")
    first, second = content.split(b"/%s" % drawn_as)
    first += b"/" + drawn_as
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [5 0 R %d 0 R] "
            b"/Resources << /Font << /F1 3 0 R >> /XObject << /X 6 0 R >> >> >>" % (6 + levels))
    return _raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
                     b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", page,
                     b"<< /Length %d >>\nstream\n" % len(first) + first + b"\nendstream", *forms,
                     b"<< /Length %d >>\nstream\n" % len(second) + second + b"\nendstream"])

ACCESSION = "0000789570-23-000008"  # an SEC accession number: the kind of metadata title that is no title
_HEADER = "Orchard Machines Corporation | 2022 Form 10-K"


def ten_k_pdf(title: str = ACCESSION) -> bytes:
    """A 12-page 10-K without an outline, its metadata title an accession number (or ``title``): a cover,
    a contents page, PART I (Items 1, 1A, 2) and PART II (Items 7, 8 with Notes 1-3) as bold
    numbered headings, a running header and a page footer on every page, and two tables
    under "Year Ended December 31," column headers."""
    head = TextBlock(_HEADER, 8)
    bold = lambda t: TextBlock(t, 11, True)  # noqa: E731
    prose = {
        "business": "Orchard Machines designs and builds harvesting equipment for fruit growers. Our "
                    "machines pick apples, pears and cherries without bruising the fruit, and we sell "
                    "them through dealers in North America and Europe.",
        "risks": "Demand for our machines depends on harvest prices and on the credit available to "
                 "growers. A poor harvest season can delay orders by a full year.",
        "properties": "We own a plant in Yakima, Washington, where we assemble every machine, and we lease "
                      "a parts warehouse in Rotterdam that serves our European dealers.",
        "mdna": "Revenue grew because dealers ordered more cherry harvesters ahead of the season. Gross "
                "margin improved as steel prices fell during the second half of the year.",
        "note1": "The consolidated financial statements include the accounts of the company and its "
                 "subsidiaries. Intercompany balances were eliminated in consolidation.",
        "note2": "We recognise revenue when a machine is delivered to the dealer and the dealer accepts it. "
                 "Service contracts are recognised over the period they cover.",
        "note3": "Our revolving credit facility allows borrowing of up to 400 million dollars until 2027. "
                 "No amount was drawn on the facility at the end of the year.",
    }
    table = [bold("Year Ended December 31,"), bold("2022 2021 2020"),
             "Harvesters 1,438,823 1,201,554 1,100,320", "Entertainment, retail and other 412,100 389,700 350,210",
             "Total revenue 1,850,923 1,591,254 1,450,530"]
    pages = [
        ["UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", H1("FORM 10-K"),
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
         "For the fiscal year ended December 31, 2022", "ORCHARD MACHINES CORPORATION",
         "(Exact name of registrant as specified in its charter)"],
        [bold("TABLE OF CONTENTS"), "PART I", "Item 1. Business 3", "Item 1A. Risk Factors 4", "Item 2. Properties 5",
         "PART II", "Item 7. Management's Discussion and Analysis 6", "Item 8. Financial Statements 8"],
        [bold("PART I"), bold("Item 1. Business"), prose["business"], prose["business"]],
        [bold("Item 1A. Risk Factors"), prose["risks"], prose["risks"]],
        [bold("Item 2. Properties"), prose["properties"]],
        [bold("PART II"), bold("Item 7. Management's Discussion and Analysis"), prose["mdna"]],
        [bold("Results of Operations"), prose["mdna"], *table],
        [bold("Item 8. Financial Statements and Supplementary Data"), bold("Consolidated Statements of Income"),
         *table],
        [bold("Note 1 - Summary of Significant Accounting Policies"), prose["note1"]],
        [bold("Note 2 - Revenue"), prose["note2"], *table],
        [bold("Note 3 - Debt"), prose["note3"]],
        [prose["note3"]],
    ]
    pages = [[head, *blocks, TextBlock(f"Page {i + 1}", 8)] for i, blocks in enumerate(pages)]
    return make_pdf(pages, title=title)


def layout_statement_pdf(headers, rows, *, unit: str = "(In millions, except per share data)",
                         title: str = "Consolidated Statements of Operations", by_column: bool = False,
                         continued=()) -> bytes:
    """2 pages: a cover and a statement laid out as given, each text object apart and right-aligned at its
    column like filings, written left to right, row by row. ``headers``: the header lines, each a list of one
    text per column ("Dec. 31, 2022"; "" for none); ``rows``: (label, cells), a cell "" for none; a label may
    end in a raised footnote mark given as "Total revenues^1" (the mark a small text object of its own).
    ``by_column``: the header written column by column, each column's lines top to bottom ("December 31,",
    "2022", then the next column's). ``continued``: rows of a third page that continues the statement under
    no column header (its title followed by "(continued)"). Unicode text ("—", "¹") is written with
    Helvetica's glyphs."""
    font = pymupdf.Font("helv")
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((72, 90), "Tidewater Instruments Annual Report", fontsize=18)
    page = doc.new_page(width=612, height=792)

    def text(x: float, y: float, s: str, size: float = 9, right: bool = False) -> None:
        writer = pymupdf.TextWriter(page.rect)
        writer.append((x - font.text_length(s, fontsize=size) if right else x, y), s, font=font, fontsize=size)
        writer.write_text(page)

    text(60, 80, title, 12)
    if unit:
        text(60, 95, unit, 8)
    n = max(len(h) for h in headers) if headers else max(len(c) for _, c in rows)
    xs = [562 - 70 * (n - 1 - k) for k in range(n)]
    y = 115
    cells_at = [(k, c, x) for c, x in enumerate(xs) for k in range(len(headers))] if by_column else \
        [(k, c, x) for k in range(len(headers)) for c, x in enumerate(xs)]
    for k, c, x in cells_at:
        if c < len(headers[k]) and headers[k][c]:
            text(x, y + 11 * k, headers[k][c], 8, right=True)
    y += 11 * len(headers) + 8

    def write(rows, y):
        for label, cells in rows:
            label, _, mark = label.partition("^")
            text(60, y, label)
            if mark:
                text(61 + font.text_length(label, fontsize=9), y - 3, mark, 6)
            for x, s in zip(xs, cells):
                if s:
                    text(x, y, s, right=True)
            y += 15

    write(rows, y)
    if continued:
        page = doc.new_page(width=612, height=792)
        text(60, 80, f"{title} (continued)", 10)
        write(continued, 105)
    data = doc.tobytes()
    doc.close()
    return data


# --- scans: pages that are pictures of text (OCR) --------------------------------------------------
def scanned(data: bytes, dpi: int = 150) -> bytes:
    """``data``'s pages drawn at ``dpi`` and rebuilt as an image-only PDF: a scan, no text layer."""
    src = pymupdf.open(stream=data, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=pix.tobytes("png"))
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data


def picture_of_text_pdf(page_text: str, picture_lines: list[str]) -> bytes:
    """One page of text with a large picture (a pasted slide) whose words are pixels only."""
    slide = pymupdf.open()
    s = slide.new_page(width=480, height=300)
    for k, line in enumerate(picture_lines):
        s.insert_text((30, 60 + 36 * k), line, fontsize=22)
    pix = s.get_pixmap(dpi=200)
    slide.close()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), page_text, fontsize=12)
    page.insert_image(pymupdf.Rect(72, 120, 523, 402), stream=pix.tobytes("png"))
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data
