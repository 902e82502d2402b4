"""A table's column headers and in-table captions, set in bold at the text's size, are no sections: told by where
they sit on the page (:mod:`alphasearch.index.cells`), on filings written with PyMuPDF at chosen places; nor is a
bold line whose words run on into the plain line under it (:func:`alphasearch.index.lines.runs_on`); and the one
section a filing's page opens is its largest title."""
from __future__ import annotations

import pymupdf

from alphasearch import pdf
from alphasearch.index import cells, indexer

WIDTH, HEIGHT = 612, 792
PROSE = ("Kestrel Valve designs industrial valves for water utilities and chemical plants, and its demand depends",
         "on municipal budgets and on the capital spending of refiners; our backlog covers about nine months of",
         "production at the Tulsa plant, and we expect shipments to grow as new orders from utilities arrive.")


def _filing(table_page: list[tuple[float, float, str, bool]]) -> bytes:
    """A small 10-K: Items 1, 1A, 2 and 7, each over three lines of text; Item 7's page goes on with
    ``table_page``'s lines (x, y, text, bold), all in 10 pt."""
    doc = pymupdf.open()
    for item in ("Item 1. Business", "Item 1A. Risk Factors", "Item 2. Properties", "Item 7. Management's Discussion"):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.insert_text((50, 60), item, fontname="hebo", fontsize=12)
        for k, line in enumerate(PROSE):
            page.insert_text((50, 90 + 14 * k), line, fontname="helv", fontsize=10)
        if item.startswith("Item 7."):
            for x, y, text, bold in table_page:
                page.insert_text((x, y), text, fontname="hebo" if bold else "helv", fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def _titles(data: bytes) -> list[str]:
    return [n.title for n in indexer.build_index(data, "kestrel-10k.pdf").root.walk()]


def _rows(y: float, labels: tuple[str, ...] = ("North America", "Europe", "Greater China")) -> list:
    """Rows of figures from height ``y``: a label at the left, two figures in columns at the right."""
    out = []
    for k, label in enumerate(labels):
        out += [(57, y + 14 * k, label, False), (420, y + 14 * k, f"{2_000 + 137 * k:,}", False),
                (500, y + 14 * k, f"{1_800 + 91 * k:,}", False)]
    return out


def test_lines_keep_where_they_start():
    data = _filing([(300, 200, "Right Column", False)])
    page = pdf.read_pdf(data, "kestrel-10k.pdf").pages[3]
    line = next(ln for ln in page.lines if ln.text == "Right Column")
    assert abs(line.left - 300) < 1 and 180 < line.top < 200 and page.width == WIDTH


def test_a_column_header_far_right_of_the_text_is_no_section():
    """Nike's "FOR THE TRAILING FOUR" / "QUARTERS ENDED" over a column of figures at the right of the page."""
    data = _filing([(50, 160, "Return on invested capital is computed as follows for the two years:", False),
                    (430, 190, "FOR THE TRAILING FOUR", True), (447, 202, "QUARTERS ENDED", True),
                    *_rows(220)])
    titles = _titles(data)
    assert not any(t.startswith("FOR THE TRAILING") for t in titles), titles


def test_a_row_of_column_headers_is_no_section():
    """Nike's "PERIOD", at the text's edge, beside "TOTAL NUMBER OF SHARES PURCHASED" and "AVERAGE PRICE": a header
    row, no section."""
    data = _filing([(50, 160, "The following table summarises the repurchases made during the quarter:", False),
                    (50, 190, "PERIOD OF PURCHASE", True), (250, 190, "SHARES PURCHASED", True),
                    (400, 190, "AVERAGE PRICE", True),
                    (50, 204, "March 1 to March 31, 2023", False), (300, 204, "4,118,427", False),
                    (450, 204, "120.04", False)])
    titles = _titles(data)
    assert "PERIOD OF PURCHASE" not in titles, titles


def test_a_caption_between_rows_of_figures_is_no_section():
    """Nike's segment table: "REVENUES" in bold at the table's left, rows of figures right above and below it."""
    data = _filing([(50, 160, "The following table presents the segments' results for the fiscal years:", False),
                    (57, 190, "(Dollars in millions)", False), (420, 190, "2023", True), (500, 190, "2022", True),
                    (55, 204, "REVENUES", True), *_rows(218),
                    (55, 262, "EARNINGS BEFORE INTEREST AND TAXES", True), *_rows(276)])
    titles = _titles(data)
    assert "REVENUES" not in titles and not any(t.startswith("EARNINGS BEFORE") for t in titles), titles


def test_titles_at_the_edge_or_centred_stay_sections():
    """A title at the text's edge over its text, and one centred on the page (Adobe's "COMPETITION"), are sections."""
    centred = "COMPETITION"
    x = (WIDTH - pymupdf.get_text_length(centred, fontname="hebo", fontsize=10)) / 2
    data = _filing([(50, 160, "Results of Operations", True), *[(50, 176 + 14 * k, t, False) for k, t in
                                                                enumerate(PROSE)],
                    (x, 240, centred, True), *[(50, 256 + 14 * k, t, False) for k, t in enumerate(PROSE)]])
    page = pdf.read_pdf(data, "kestrel-10k.pdf").pages[3]
    body = 10.0
    for title in ("Results of Operations", centred):
        i = next(k for k, ln in enumerate(page.lines) if ln.text == title)
        assert not cells.table_cell(page.lines, i, body, page.width), title
    assert "Results of Operations" in _titles(data)


def test_pieces_of_one_line_are_no_header_row():
    """A line the PDF writes in two pieces (a word in another run), side by side: no row of column headers."""
    lines = [pdf.Line("Results of", 10.0, True, 50.0, 100.0), pdf.Line("Operations", 10.0, True, 97.0, 100.0)]
    assert not cells.table_cell(lines, 0, 10.0, WIDTH)


def test_a_column_header_is_no_section_where_sizes_alone_give_the_headings():
    """A guide without numbered headings (its sections by font size and weight): on a page without a large title, a
    bold column header far right of the text, over a column of figures, is no section; the bold title at the text's
    edge under it is the page's."""
    doc = pymupdf.open()
    for title in ("Orchard Care", "Harvest", "Cider Making", "Finances", ""):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        if title:
            page.insert_text((50, 60), title, fontname="hebo", fontsize=18)
        else:  # the table goes on from the page before, over the next section
            page.insert_text((430, 60), "AMOUNT RECEIVED", fontname="hebo", fontsize=10)
            for x, y, text, bold in _rows(76):
                page.insert_text((x, y), text, fontname="helv", fontsize=10)
            page.insert_text((50, 130), "Membership Fees", fontname="hebo", fontsize=10)
        for k, line in enumerate(PROSE):
            page.insert_text((50, 150 + 14 * k), line, fontname="helv", fontsize=10)
    data = doc.tobytes()
    doc.close()
    titles = _titles(data)
    assert "Membership Fees" in titles and "AMOUNT RECEIVED" not in titles, titles


def test_a_bold_term_whose_definition_runs_on_is_no_section():
    """A glossary sets its term and the start of its definition in bold, the rest plain on the next line (JPMorgan's
    "Net charge-off/(recovery) rate: represents net charge-" / "offs …"): the line runs on, it is no title."""
    data = _filing([(50, 160, "Net charge-off rate: represents net charge-", True),
                    (50, 174, "offs divided by the average retained loans held in the portfolio over the period.", False),
                    *[(50, 190 + 14 * k, t, False) for k, t in enumerate(PROSE)]])
    titles = _titles(data)
    assert not any(t.startswith("Net charge-off") for t in titles), titles


def test_a_filings_page_opens_its_largest_title():
    """A filing's page opens one section of its own: the largest title on it (Nike's "FOREIGN CURRENCY EXPOSURES AND
    HEDGING PRACTICES" in 18 pt after "CORPORATE" in 14 pt, the last segment's section going on from the page
    before)."""
    doc = pymupdf.open()
    for item in ("Item 1. Business", "Item 1A. Risk Factors", "Item 2. Properties", "Item 7. Management's Discussion"):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.insert_text((50, 60), item, fontname="hebo", fontsize=12)
        for k, line in enumerate(PROSE):
            page.insert_text((50, 90 + 14 * k), line, fontname="helv", fontsize=10)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((50, 60), "CORPORATE", fontname="hebo", fontsize=14)
    for k, line in enumerate(PROSE):
        page.insert_text((50, 90 + 14 * k), line, fontname="helv", fontsize=10)
    page.insert_text((50, 160), "FOREIGN CURRENCY EXPOSURES", fontname="hebo", fontsize=18)
    for k, line in enumerate(PROSE):
        page.insert_text((50, 190 + 14 * k), line, fontname="helv", fontsize=10)
    data = doc.tobytes()
    doc.close()
    assert "FOREIGN CURRENCY EXPOSURES" in _titles(data)


def test_a_column_header_a_little_off_the_middle_is_no_centred_title():
    """Lockheed's "Incurred but Not Yet" / "Recognized in" / "FAS Expense" heads a column just right of the page's
    middle: centred over its column, not on the page."""
    data = _filing([(50, 160, "The following table presents the amounts for our pension plans (in millions):", False),
                    (281, 190, "Incurred but Not Yet", True), (296, 200, "Recognized in", True),
                    (298, 210, "FAS Expense", True), *_rows(240)])
    titles = _titles(data)
    assert not any(t.startswith("Incurred but") for t in titles), titles
