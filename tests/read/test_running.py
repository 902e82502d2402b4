"""Running headers and footers are not quoted (alphasearch/read/running.py): a survey report prints its
publisher's name and address over every page; on a page of chart figures the header ran into the numbers
and was stated as an answer ("PEW RESEARCH CENTER www.pewresearch.org 55 18 43 27")."""
from __future__ import annotations

import pdf_factory
from alphasearch.answer.extractive import extractive_answer
from alphasearch.index import indexer
from alphasearch.read.running import running_lines, without_running

HEADER = ["HARBOR RESEARCH CENTER", "www.harborresearch.org"]
PROSE = ("Older adults in the survey go online less often than younger adults, and the gap narrows among "
         "those with a college degree.")


def _report() -> bytes:
    pages = []
    for k in range(6):
        body = [PROSE, "(in percent)", "Households that use the internet at home, by region."]
        if k == 3:  # a chart's numbers right under the header, then its caption
            body = ["55", "18", "43", "27", "Higher-income seniors", "(in percent)", PROSE, PROSE]
        pages.append([*HEADER, *body, str(k + 1)])
    return pdf_factory.make_pdf(pages)


def test_a_header_on_every_page_is_running_and_dropped_at_the_page_edge_only():
    doc = indexer.build_index(_report(), "survey.pdf")
    running = running_lines(doc)
    assert set(HEADER) <= running and "(in percent)" in running
    assert not any(line.isdigit() for line in running)  # page numbers and chart ticks are no running line
    page = without_running(doc.page(4).text, running)
    assert "harborresearch" not in page and "HARBOR RESEARCH" not in page
    assert "(in percent)" in page  # a unit under the chart, not at the page's top or bottom edge
    assert "55" in page and "Higher-income seniors" in page


def test_an_answer_does_not_quote_the_running_header(df_of):
    doc = indexer.build_index(_report(), "survey.pdf")
    question = "What percentage of higher-income seniors own a tablet?"
    ex = extractive_answer(doc, question, [4, 1], df_of(doc))
    shown = ex.text + (ex.direct.text if ex.direct else "") + " ".join(
        p["text"] for p in ex.structured["key_points"] + ex.structured["looked_at"]["passages"])
    assert "harborresearch" not in shown and "HARBOR RESEARCH" not in shown, shown  # it was the direct answer
    assert "Higher-income seniors" in shown  # the chart's own caption is quoted (the closest passage: no figure)


def test_a_footer_that_numbers_its_page_is_running_and_not_quoted(df_of):
    """McDonald's 10-K ends every page with "McDonald's Corporation 2022 Annual Report 36": a line of its own
    on each page, it was quoted as one of the passages closest to a question. A line ending in a number that does
    not grow page after page (a table's last row) is not a footer."""
    pages = [[f"Research and development spending rose {k + 2} percent in region {k + 1}.", PROSE,
              f"Total {500 + k % 2}", f"Harbor Corporation 2022 Annual Report {k + 36}"] for k in range(6)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "annual-report.pdf")
    running = running_lines(doc)
    assert "Harbor Corporation 2022 Annual Report #" in running and "Total #" not in running, running
    page = without_running(doc.page(3).text, running)
    assert "Annual Report" not in page and "Total 500" in page and "rose 4 percent" in page, page
    ex = extractive_answer(doc, "What does the annual report say about research and development?", [3, 2],
                           df_of(doc))
    assert "Annual Report 38" not in ex.text + str(ex.structured), ex.text


def test_a_line_of_a_hostile_pdf_with_any_run_of_spaces_is_read_in_linear_time():
    """A page number is found by words, not by a pattern: a pattern anchored at the line's end took 9 s on one line
    of 32,000 spaces (quadratic), and a hostile PDF can print a longer one on every page."""
    import time

    from alphasearch.read.running import _running, folio

    line = "x" + " " * 200_000 + "y"
    started = time.perf_counter()
    assert folio(line) == "x y" and folio("Harbor Annual Report   17") == "Harbor Annual Report #"
    assert folio("Note 12") == "Note 12" and folio("12 percent of adults") == "12 percent of adults"  # no page
    _running((line + "\nHarbor Annual Report 3",) * 20)
    assert time.perf_counter() - started < 2.0


def test_a_printed_page_number_is_read_in_linear_time_on_a_hostile_line():
    """The printed page number's patterns are anchored at both ends of a line: a 40,000-space line took 24 s."""
    import time

    from alphasearch.index.folios import page_label, page_labels

    started = time.perf_counter()
    page_label("1" + " " * 40_000 + "x")
    page_labels(["page" + " " * 40_000 + "x"] * 3)
    assert page_label("body\nPage 4 of 9") == 4
    assert time.perf_counter() - started < 2.0
