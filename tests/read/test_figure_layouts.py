"""The direct figure answer on statements laid out in ways filings vary (the traits of
benchmarks/figure_robustness.py): the column header, footnote marks, change columns. Each
statement is generated here with PyMuPDF."""
from __future__ import annotations

import pytest

from pdf_factory import layout_statement_pdf

ROWS = [("Total revenues", ("$ 88,737", "$ 82,382", "$ 77,934")),
        ("Cost of revenues", ("59,830", "47,853", "52,152")),
        ("Operating income", ("18,323", "27,340", "17,814")),
        ("Net income (loss)", ("$ (6,590)", "$ 16,274", "$ 10,059"))]


def _direct(engine, data: bytes, question: str) -> str:
    doc = engine.index_bytes(data, "statement.pdf")
    return engine.ask_document(doc, question).extra.get("direct_answer", "")


@pytest.mark.parametrize("headers", [
    [["52 Weeks Ended", "", ""], ["Dec. 31, 2022", "Dec. 25, 2021", "Dec. 26, 2020"]],
    [["Year Ended", "Year Ended", "Year Ended"], ["Sept. 30, 2022", "Sept. 30, 2021", "Sept. 30, 2020"]],
])
def test_abbreviated_months_head_the_year_columns(engine, headers):
    data = layout_statement_pdf(headers, ROWS)
    assert _direct(engine, data, "What was net income for fiscal 2021?").startswith("Net income (loss), 2021: $16,274 million")
    assert _direct(engine, data, "What was operating income in 2020?").startswith("Operating income, 2020: $17,814 million")


PLAIN = [["2022", "2021", "2020"]]


@pytest.mark.parametrize("label", ["Total revenues¹", "Total revenues⁽¹⁾", "Revenues, net²"])
def test_a_superscript_footnote_mark_is_no_part_of_the_label(engine, label):
    data = layout_statement_pdf(PLAIN, [(label, ROWS[0][1]), *ROWS[1:]])
    name = label.rstrip("¹²⁽⁾")
    assert _direct(engine, data, "What were total revenues in 2021?") == f"{name}, 2021: $82,382 million — p. 2"


@pytest.mark.parametrize("label", ["Total revenues^1", "Total revenues^12"])
def test_a_raised_footnote_mark_after_the_label_is_no_figure(engine, label):
    data = layout_statement_pdf(PLAIN, [(label, ROWS[0][1]), *ROWS[1:]])
    assert _direct(engine, data, "What were total revenues in 2020?") == "Total revenues, 2020: $77,934 million — p. 2"
    assert _direct(engine, data, "What were total revenues?") == "Total revenues, 2022: $88,737 million — p. 2"


def test_a_note_column_between_the_label_and_the_figures_is_no_figure(engine):
    rows = [(label, (note, *cells)) for (label, cells), note in zip(ROWS, ("4", "", "", "9"))]
    data = layout_statement_pdf([["Note", "2022", "2021", "2020"]], rows)
    assert _direct(engine, data, "What was net income in 2021?") == "Net income (loss), 2021: $16,274 million — p. 2"


def test_not_meaningful_change_cells_keep_the_years_in_their_columns(engine):
    """A "% Change" column between the years; a change that means nothing (a loss, a zero) printed "n/m"."""
    rows = [("Total revenues", ("$ 88,737", "7.7%", "$ 82,382", "5.7%", "$ 77,934")),
            ("Impairment charges", ("—", "n/m", "773", "n/m", "—")),
            ("Net income (loss)", ("$ (6,590)", "n/m", "$ 16,274", "61.8%", "$ 10,059")),
            ("Purchases of property and equipment", ("(1,327)", "N/M", "(1,615)", "n.m.", "(1,696)"))]
    data = layout_statement_pdf([["2022", "% Change", "2021", "% Change", "2020"]], rows)
    assert _direct(engine, data, "What was net income in fiscal 2021?") == "Net income (loss), 2021: $16,274 million — p. 2"
    assert _direct(engine, data, "What were the impairment charges in 2021?") == "Impairment charges, 2021: $773 million — p. 2"
    assert _direct(engine, data, "What was capital expenditure in 2020?").startswith(
        "Purchases of property and equipment, 2020: -$1,696 million")


@pytest.mark.parametrize("asked", ["FY21", "FY'21", "fy 21"])
def test_a_short_fiscal_year_in_the_question_picks_its_column(engine, asked):
    data = layout_statement_pdf(PLAIN, ROWS)
    assert _direct(engine, data, f"What was operating income in {asked}?") == "Operating income, 2021: $27,340 million — p. 2"


def test_a_short_fiscal_year_makes_a_figure_question_of_any_row(engine):
    """A row no lexicon group names ("Impairment charges"): the year asked, "FY21", makes the question one for
    its figure, as "in 2021" does."""
    rows = [*ROWS, ("Impairment charges", ("—", "773", "—"))]
    data = layout_statement_pdf(PLAIN, rows)
    for asked in ("2021", "FY21"):
        assert _direct(engine, data, f"What were the impairment charges in {asked}?") == \
            "Impairment charges, 2021: $773 million — p. 2"


def test_a_bare_total_under_a_section_heading_is_the_sections_total(engine):
    rows = [("Revenues:", ()), ("Products", ("$ 61,020", "$ 57,113", "$ 52,600")),
            ("Services", ("27,717", "25,269", "25,334")), ("Total", ("88,737", "82,382", "77,934")),
            ("Operating expenses:", ()), ("Cost of revenues", ("59,830", "47,853", "52,152")),
            ("Selling and administrative", ("10,584", "7,189", "7,968")), ("Total", ("70,414", "55,042", "60,120")),
            ("Operating income", ("18,323", "27,340", "17,814"))]
    data = layout_statement_pdf(PLAIN, rows)
    assert _direct(engine, data, "What were total revenues in 2021?") == "Total revenues, 2021: $82,382 million — p. 2"
    assert _direct(engine, data, "What were total operating expenses in 2020?") == \
        "Total operating expenses, 2020: $60,120 million — p. 2"


@pytest.mark.parametrize("header", ["2022 % Change 2021 % Change 2020", "2022 Change 2021 Change 2020"])
def test_a_one_line_header_with_change_columns_between_the_years(engine, header):
    rows = [("Total revenues", ("$ 88,737 7.7% $ 82,382 5.7% $ 77,934",)),
            ("Net income (loss)", ("$ (6,590) n/m $ 16,274 61.8% $ 10,059",)),
            ("Operating income", ("18,323 -33.0% 27,340 53.5% 17,814",))]
    data = layout_statement_pdf([[header]], rows)
    assert _direct(engine, data, "What was net income in 2021?") == "Net income (loss), 2021: $16,274 million — p. 2"
    assert _direct(engine, data, "What were total revenues in 2020?") == "Total revenues, 2020: $77,934 million — p. 2"
    assert _direct(engine, data, "What was operating income in FY21?") == "Operating income, 2021: $27,340 million — p. 2"


@pytest.mark.parametrize("restated", ["{} (Restated)", "{} (Adjusted)", "{} Restated"])
def test_restated_years_head_their_columns(engine, restated):
    data = layout_statement_pdf([["2022", restated.format("2021"), restated.format("2020")]], ROWS)
    assert _direct(engine, data, "What was operating income in fiscal 2021?") == \
        "Operating income, 2021: $27,340 million — p. 2"


@pytest.mark.parametrize("under, stated", [("£m", "£82,382 million"), ("$000", "$82,382 thousand"),
                                           ("US$m", "$82,382 million"), ("€bn", "€82,382 billion")])
def test_a_unit_printed_under_each_year_is_the_tables_unit(engine, under, stated):
    rows = [(label, tuple(c.replace("$ ", "") for c in cells)) for label, cells in ROWS]
    data = layout_statement_pdf([["2022", "2021", "2020"], [under] * 3], rows, unit="")
    assert _direct(engine, data, "What were total revenues in 2021?") == f"Total revenues, 2021: {stated} — p. 2"


def test_one_year_heads_a_table_of_one_column(engine):
    rows = [(label, cells[:1]) for label, cells in ROWS]
    data = layout_statement_pdf([["Year Ended"], ["December 31, 2022"]], rows)
    assert _direct(engine, data, "What were total revenues in 2022?") == "Total revenues, 2022: $88,737 million — p. 2"
    # no column for 2021: the row may be quoted, but 2022's figure is not stated as the answer
    assert ": $88,737" not in _direct(engine, data, "What were total revenues in 2021?")


@pytest.mark.parametrize("heading", ["Net sales:^1", "Net sales: (2)", "Net sales:²"])
def test_a_footnote_mark_on_a_heading_of_rows_is_no_figure(engine, heading):
    rows = [(heading, ()), ("Products", ("$ 61,020", "$ 57,113", "$ 52,600")),
            ("Services", ("27,717", "25,269", "25,334")), ("Total net sales", ("88,737", "82,382", "77,934")),
            ("Cost of sales", ("59,830", "47,853", "52,152"))]
    data = layout_statement_pdf(PLAIN, rows)
    assert _direct(engine, data, "What were the company's net sales?") == "Total net sales, 2022: $88,737 million — p. 2"


def test_a_lone_year_below_a_table_does_not_take_its_header():
    """A year alone on a line (a chart's axis, a caption) under a table of three years: the rows after it keep the
    table's columns."""
    from alphasearch.read.tables import parse_rows
    text = "\n".join(["2022", "2021", "2020", "Total revenues", "88,737", "82,382", "77,934", "2022",
                      "Operating income", "18,323", "27,340", "17,814"])
    assert [r.columns for r in parse_rows(text)] == [("2022", "2021", "2020")] * 2


# --- layouts of the held-out set (benchmarks/figure_robustness.py --held-out) --------------------------------
BALANCE = [("Cash and cash equivalents", ("$ 5,934", "$ 3,373")), ("Total assets", ("$ 68,299", "$ 65,115")),
           ("Total liabilities", ("30,650", "31,820"))]


def test_a_statement_continued_on_the_next_page_keeps_its_columns_and_unit(engine):
    """The rows after "Operating income" printed on the next page under no column header: they are read
    under the header and unit of the page before (its title says "(continued)" but need not)."""
    rows, more = ROWS[:3], [("Net income (loss)", ("$ (6,590)", "$ 16,274", "$ 10,059")),
                            ("Diluted earnings (loss) per share", ("$ (2.01)", "$ 4.87", "$ 3.02"))]
    data = layout_statement_pdf(PLAIN, rows, continued=more)
    assert _direct(engine, data, "What was net income in FY2021?") == "Net income (loss), 2021: $16,274 million — p. 3"
    assert _direct(engine, data, "What were the diluted earnings per share in 2020?").startswith(
        "Diluted earnings (loss) per share, 2020: $3.02")


def test_a_trailing_minus_is_a_negative_figure(engine):
    """Negatives printed with the minus after the figure ("6,590-"), as some reporting systems print them."""
    rows = [("Total revenues", ("$ 88,737", "$ 82,382", "$ 77,934")),
            ("Net income (loss)", ("$ 6,590-", "$ 16,274", "$ 10,059")),
            ("Diluted earnings (loss) per share", ("$ 2.01-", "$ 4.87", "$ 3.02"))]
    data = layout_statement_pdf(PLAIN, rows)
    assert _direct(engine, data, "What was net income in 2021?") == "Net income (loss), 2021: $16,274 million — p. 2"
    assert _direct(engine, data, "What was net income in 2022?").startswith("Net income (loss), 2022: -$6,590 million")
    assert _direct(engine, data, "What were the diluted earnings per share in 2022?").startswith(
        "Diluted earnings (loss) per share, 2022: -$2.01")


QUARTER = [["Three Months Ended March 31,", ""], ["2022", "2021"]]
QUARTER_ROWS = [("Total revenues", ("$ 19,264", "$ 17,950")), ("Operating income", ("3,861", "3,402")),
                ("Net income (loss)", ("$ 1,204", "$ (1,822)"))]


def test_a_quarters_column_answers_a_quarter_and_no_full_year(engine):
    """A 10-Q's statement holds quarters only: a question about the quarter is answered from its column; one
    naming the full year (or a fiscal year) is not answered with a quarter's figure."""
    data = layout_statement_pdf(QUARTER, QUARTER_ROWS, title="Condensed Consolidated Statements of Operations")
    assert _direct(engine, data, "What were total revenues in the first quarter of 2022?") == \
        "Total revenues, 2022: $19,264 million — p. 2"
    for asked in ("for the full year 2022", "in fiscal year 2022", "for the twelve months ended December 31, 2022"):
        assert "$19,264" not in _direct(engine, data, f"What were total revenues {asked}?")


def test_thousands_apart_by_spaces_are_one_figure(engine):
    """Figures whose thousands are set apart by spaces ("88 737", "(6 590)"), as many European reports print
    them, are read whole; a row of small figures keeps its cells."""
    rows = [("Total revenues", ("88 737", "82 382", "77 934")), ("Number of stores", ("150", "210", "305")),
            ("Operating income", ("18 323", "27 340", "17 814")),
            ("Net income (loss)", ("(6 590)", "16 274", "1 010 059"))]
    data = layout_statement_pdf(PLAIN, rows, unit="(In thousands of euros)")
    assert _direct(engine, data, "What were total revenues in 2021?") == "Total revenues, 2021: €82,382 thousand — p. 2"
    assert _direct(engine, data, "What was net income in 2022?").startswith("Net income (loss), 2022: -€6,590 thousand")
    assert _direct(engine, data, "What was net income in 2020?").startswith("Net income (loss), 2020: €1,010,059 thousand")
    stores = _direct(engine, data, "What was the number of stores in 2021?")
    assert stores.startswith("Number of stores, 2021: ") and stores.endswith("210 — p. 2"), stores


@pytest.mark.parametrize("top", [("December 31,", "December 31,"), ("March 31,", "December 31,")])
def test_header_words_written_between_the_years_keep_one_header(engine, top):
    """Each column's header cells written top to bottom ("December 31,", "2022", then "December 31,", "2021"):
    the words between the years do not close the header."""
    data = layout_statement_pdf([list(top), ["2022", "2021"]], BALANCE, by_column=True, unit="(In millions)",
                                title="Consolidated Balance Sheets")
    assert _direct(engine, data, "What were total assets as of December 31, 2021?") == \
        "Total assets, 2021: $65,115 million — p. 2"


def test_share_of_revenue_columns_after_each_year_are_no_years(engine):
    """A "% of revenue" column after each year, its header on two lines written with its year's."""
    rows = [("Total revenues", ("$ 74,533", "100.0%", "$ 70,453", "100.0%", "$ 64,695", "100.0%")),
            ("Cost of revenues", ("44,239", "59.4%", "41,018", "58.2%", "38,017", "58.8%")),
            ("Net income (loss)", ("$ 10,232", "13.7%", "$ (9,441)", "(13.4)%", "$ 9,541", "14.7%"))]
    headers = [["", "% of", "", "% of", "", "% of"], ["2022", "revenue", "2021", "revenue", "2020", "revenue"]]
    data = layout_statement_pdf(headers, rows, by_column=True)
    assert _direct(engine, data, "What were total revenues in 2021?") == "Total revenues, 2021: $70,453 million — p. 2"
    assert _direct(engine, data, "What was the company's 2020 cost of revenues?") == \
        "Cost of revenues, 2020: $38,017 million — p. 2"
