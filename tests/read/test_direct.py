"""The direct answer: table rows read back from a generated statement (columns, unit,
"(1,577)" negatives), matched with the analysts' synonyms, the column by the year asked,
simple computations with their arithmetic, and the structured answer around it."""
from __future__ import annotations

import pytest

from alphasearch import pdf
from alphasearch.read.items import concepts, row_score
from alphasearch.read.direct import figure_answer
from alphasearch.read.figures import carries, gold_figures, same_figure
from alphasearch.read.tables import parse_number, parse_rows
from alphasearch.lang.questions import spelled_out
from alphasearch.lang.text import terms
from pdf_factory import earnings_release_pdf, table_pdf


@pytest.fixture(scope="module")
def table_bytes() -> bytes:
    return table_pdf()


@pytest.fixture
def doc(engine, table_bytes):
    return engine.index_bytes(table_bytes, "harbor.pdf")


def test_a_currency_sign_alone_is_no_number():
    """OCR reads a table's currency column as a lone "$" (or "$$"): no number, and no endless recursion."""
    assert parse_number("$") is None and parse_number("$$$") is None and parse_number("") is None


def test_parse_number_reads_negatives_dashes_and_percentages():
    assert parse_number("(1,577)").value == -1577
    assert parse_number("$(1,204)").value == -1204
    assert parse_number("12.5%").value == 12.5 and parse_number("12.5%").percent
    assert parse_number("(4.4)%").value == -4.4 and parse_number("(4.4)%").percent
    assert parse_number("—").value is None
    assert parse_number("Note") is None and parse_number("13)") is None


def test_rows_of_a_generated_statement_have_columns_unit_and_signs(table_bytes):
    text = pdf.read_pdf(table_bytes).pages[1].text
    rows = {r.label: r for r in parse_rows(text)}
    assert list(rows) == ["Total revenues", "Cost of revenues", "Operating income", "Net (loss)/earnings",
                          "Purchases of property, plant and equipment", "Diluted earnings per share"]
    capex = rows["Purchases of property, plant and equipment"]
    assert capex.columns == ("2022", "2021", "2020") and capex.unit == "millions" and capex.currency == "$"
    assert [c.value for c in capex.cells] == [-1577, -1402, -1250]
    assert rows["Total revenues"].cell_for("2021").value == 60117


def test_rows_split_one_line_per_cell_and_label_with_figures_on_one_line():
    text = "\n".join(["(in thousands)", "2019", "2018", "Net sales", "$", "34,229 $", "35,355",
                      "Changes in assets and liabilities, excluding the effects of acquisitions",
                      "and divestitures", "793.9", "(7.5)", "Total revenue 5,854,430 4,795,511",
                      "Net cash provided by operating activities................... $ 1,469,502 $ 1,287,482"])
    rows = parse_rows(text)
    assert [(r.label, [c.value for c in r.cells]) for r in rows] == [
        ("Net sales", [34229, 35355]),
        ("Changes in assets and liabilities, excluding the effects of acquisitions and divestitures", [793.9, -7.5]),
        ("Total revenue", [5854430, 4795511]),
        ("Net cash provided by operating activities", [1469502, 1287482])]  # dot leaders are not the label
    assert all(r.columns == ("2019", "2018") and r.unit == "thousands" for r in rows)


def test_synonyms_match_row_labels_and_penalise_other_line_items():
    q = set(terms("What was net income in 2022?"))
    assert concepts("What was net income in 2022?") == ["net income"]
    assert row_score("Net (loss)/earnings", ["net income"], q) == 1.0
    assert row_score("Net earnings", ["net income"], q) == 1.0
    assert row_score("Net income per share", ["net income"], q) < row_score("Net income", ["net income"], q)
    assert concepts("What is the FY2018 capital expenditure?") == ["capital expenditure"]
    assert row_score("Cost of sales", ["revenue"], set()) < row_score("Total net sales", ["revenue"], set())


@pytest.mark.parametrize("question, line", [
    ("What were total revenues in 2022?", "Total revenues, 2022: $66,608 million — p. 2"),
    ("What was net sales in 2021?", "Total revenues, 2021: $60,117 million — p. 2"),
    ("What is the FY2022 capital expenditure?",
     "Purchases of property, plant and equipment, 2022: -$1,577 million (printed (1,577)) — p. 2"),
    ("And what was its net income in 2022?", "Net (loss)/earnings, 2022: -$1,204 million (printed (1,204)) — p. 2"),
    ("What were diluted earnings per share in 2021?", "Diluted earnings per share, 2021: $2.31 — p. 2"),
])
def test_direct_answer_reads_the_row_and_column_asked(engine, doc, question, line):
    answer = engine.ask_document(doc, question)
    assert answer.extra["direct_answer"] == line
    assert answer.text.startswith(line) and not answer.fallback
    assert any(c.pages == (2, 2) and c.snippet in doc.page(2).text for c in answer.citations)


def test_latest_year_when_none_is_asked(doc):
    d = figure_answer(doc, "What were the total revenues?", [2, 1, 3])
    assert d.text == "Total revenues, 2022: $66,608 million — p. 2"


def test_change_between_years_shows_the_arithmetic(doc):
    d = figure_answer(doc, "What was the year-over-year change in total revenues from FY2021 to FY2022?", [2, 1])
    assert d.kind == "change"
    assert d.text.startswith("Total revenues: change 2021→2022: 66,608 - 60,117 = 6,491 (+10.8%)")
    assert [f.period for f in d.figures] == ["2021", "2022"]


def test_named_and_defined_ratios_are_computed_with_both_citations(doc):
    margin = figure_answer(doc, "What was the operating margin in 2022?", [2, 1])
    assert margin.kind == "ratio" and margin.text.startswith("9,954 / 66,608 = 14.9%")
    assert "Operating income, 2022: $9,954 million (p. 2)" in margin.text
    assert "Total revenues, 2022: $66,608 million (p. 2)" in margin.text
    # a name of several words written in the singular is the same line item or ratio
    margin_1 = figure_answer(doc, "What was the operating margins in 2022?", [2, 1])
    assert margin_1.kind == "ratio" and margin_1.text.startswith("9,954 / 66,608 = 14.9%")
    assert concepts("What was the total liability in 2022?") == ["total liabilities"]
    assert figure_answer(doc, "What was the total revenue in 2022?", [2]).text == \
        "Total revenues, 2022: $66,608 million — p. 2"
    fcf = figure_answer(doc, "What is FY2022 free cash flow? It is defined as: operating income - capital "
                             "expenditure.", [2])
    assert fcf.text.startswith("9,954 - 1,577 = $8,377 million")


def test_other_questions_get_their_best_sentence_first(engine, doc):
    answer = engine.ask_document(doc, "How many full-time employees work at the company?")
    assert "12,450 full-time employees" in answer.extra["direct_answer"]
    assert answer.extra["direct_answer"].endswith("— p. 3")


def test_structured_answer_and_a_fallback_that_lists_where_it_looked(engine, doc):
    got = engine.ask_document(doc, "What were total revenues in 2022?").to_dict()["structured"]
    assert got["direct"]["figures"][0]["value"] == 66608 and got["direct"]["pages"] == [2]
    assert got["key_points"] and all("page" in k for k in got["key_points"])
    miss = engine.ask_document(doc, "Which submarine cables did the zeppelin squadron lay near Reykjavik?")
    assert miss.fallback and "direct_answer" not in miss.extra
    looked = miss.extra["structured"]["looked_at"]
    assert looked["pages"] and looked["note"].startswith("Not an answer")
    said = miss.extra["structured"]["not_said"][0]["text"]
    assert said.startswith("The document never uses the words “") and "“zeppelin”" in said


def test_figures_compare_with_unit_scaling():
    assert gold_figures("$5409.00 in FY2019, 3 stores") == [5409.0]
    assert same_figure(0.4, 400) and same_figure(5466, 5466312) and not same_figure(5466, 5480)
    assert carries("Total current liabilities, 2017: $5,466,312 thousand", [5466.0])
    assert not carries("Total revenues, 2022: $66,608 million", [60117.0])


def test_query_expansion_finds_the_row_under_another_name(engine, doc):
    """"capex" is not on the statement page; the lexicon's other names for it are, so the
    expanded sub-queries bring page 2 to the figure lookup when the pages read miss it."""
    from alphasearch.answer.ranking import expanded_pages
    from alphasearch.answer.extractive import extractive_answer
    from alphasearch.read.items import sub_queries

    q = "What was capex in 2021?"
    assert sub_queries(q)[:2] == ["capital expenditure 2021", "purchases of property, plant and equipment 2021"]
    ranker = engine.tools(doc).ranker
    more = expanded_pages(q, ranker.scores)
    assert more[0] == 2
    without = extractive_answer(doc, q, [1, 3], ranker.df)
    assert without.direct is None or "1,402" not in without.direct.text
    ex = extractive_answer(doc, q, [1, 3], ranker.df, more_pages=more)
    assert ex.direct.text == "Purchases of property, plant and equipment, 2021: -$1,402 million (printed (1,402)) — p. 2"


def test_expansion_searches_first_for_the_names_the_document_uses(doc):
    """A ratio's operand is looked for under a name this filing prints: the statement says
    "Total revenues", so a revenue operand is searched as "revenues 2022", not "revenue 2022"."""
    from alphasearch.read.items import phrase_use, sub_queries

    used = phrase_use(doc)
    assert used("Total revenues") == used("revenues") == 1 and used("revenue") == used("net sales") == 0
    q = "Is the company capital-intensive in 2022?"  # capex / revenue (a named ratio of the lexicon)
    assert "revenue 2022" in sub_queries(q) and "revenues 2022" not in sub_queries(q)
    assert "revenues 2022" in sub_queries(q, used=used) and "revenue 2022" not in sub_queries(q, used=used)


def test_expansion_does_not_search_for_the_item_qualified_otherwise():
    """A diluted EPS question is not also searched as "basic earnings per share" (shown to the user as "Also
    searched for"), and a basic one not as diluted; a question naming neither is searched under both names."""
    from alphasearch.read.items import sub_queries

    diluted = sub_queries("What were Acme's diluted earnings per share in fiscal 2021?")
    assert diluted and not any("basic" in q for q in diluted)
    basic = sub_queries("What was basic EPS in 2021?")
    assert "basic earnings per share 2021" in basic and not any("diluted" in q for q in basic)
    either = sub_queries("What was EPS in 2021?", limit=8)
    assert "diluted earnings per share 2021" in either and "basic earnings per share 2021" in either
    # the same words ("stockholders" is "shareholders") and a shortening ("adj." of "adjusted") are no other qualifier
    assert "total stockholders' equity 2022" in sub_queries("What was total shareholders' equity in 2022?")
    assert "adj. ebitda 2022" in sub_queries("What was adjusted EBITDA in 2022?")


def test_a_change_needs_both_year_columns():
    """Figures without a year header cannot be a change between years (no "22.9 - 22.9 = 0")."""
    from alphasearch.models import DocumentIndex, Page, Section

    text = "Income taxes\nEffective tax rate\n22.9%\n20.1%"
    d = DocumentIndex("2" * 64, "t.pdf", 1, Section("R", "Doc", (1, 1)), (Page(1, text),))
    d2 = figure_answer(d, "How much has the effective tax rate changed between FY2021 and FY2022?", [1])
    assert d2 is None or d2.kind != "change"


@pytest.fixture(scope="module")
def release_bytes() -> bytes:
    return earnings_release_pdf()


def test_columns_carry_their_period_kind_and_footnote_marks_are_not_figures(release_bytes):
    pages = pdf.read_pdf(release_bytes).pages
    ebitda = next(r for r in parse_rows(pages[1].text) if r.label == "Adjusted EBITDA")
    assert ebitda.columns == ("2023", "2022", "2023", "2022")
    assert ebitda.kinds == ("quarter", "quarter", "year", "year")
    assert ebitda.unit == "millions" and ebitda.currency == "$"  # "($ million)"
    assert {r.kinds for r in parse_rows(pages[2].text)} == {("quarter", "quarter")}
    accrued = {r.label: r for r in parse_rows(pages[3].text)}["Total accrued liabilities"]
    assert [c.value for c in accrued.cells] == [6063, 5184] and accrued.cell_for("2022").value == 5184
    text = "\n".join(["Three Months Ended", "Six Months Ended", "June 30,", "June 30,", "2023", "2022", "2023",
                      "2022", "Net sales", "10", "9", "21", "18"])
    assert parse_rows(text)[0].kinds == ("quarter", "quarter", "half", "half")


@pytest.mark.parametrize("question, line", [
    ("What was adjusted EBITDA for fiscal year 2023?", "Adjusted EBITDA, 2023: $2,018 million — p. 2"),
    ("What was adjusted EBITDA in 2023?", "Adjusted EBITDA, 2023: $2,018 million — p. 2"),
    ("What was adjusted EBITDA in the fourth quarter of 2023?", "Adjusted EBITDA, 2023: $540 million — p. 2"),
    ("What was Q4 2022 adjusted EBITDA?", "Adjusted EBITDA, 2022: $609 million — p. 2"),
])
def test_the_column_is_the_period_asked(engine, release_bytes, question, line):
    doc = engine.index_bytes(release_bytes, "release.pdf")
    assert figure_answer(doc, question, [2]).text == line


def test_a_quarter_page_read_first_gives_way_to_the_full_year_further_down(engine, release_bytes):
    doc = engine.index_bytes(release_bytes, "release.pdf")
    q = "What was Adjusted EBITDA for FY 2023?"
    assert figure_answer(doc, q, [3, 1]) is None  # only the quarter was read: its figure is no answer for the year
    assert figure_answer(doc, q, [3, 1], further=[4]).text == "Adjusted EBITDA, 2023: $2,018 million — p. 4"
    # a row matching only the question's own words is not taken from further down
    assert figure_answer(doc, "What was Tidewater compensation in 2023?", [1], further=[4]) is None


@pytest.mark.parametrize("question, start", [
    ("What is the FY2023 inventory turnover?", "11,724 / avg(1,700, 1,900) = 6.51"),
    ("What is the FY2023 payables turnover? Round to one decimal place.", "11,724 / avg(2,248, 2,836) = 4.6"),
    # the ratio's words in another order, the company's name between them (the wording set's Nike question was
    # answered "Revenues, 2021: $44,538 million": "turnover" alone named revenue)
    ("What is the turnover of the company's payables in FY2023? Round to one decimal place.",
     "11,724 / avg(2,248, 2,836) = 4.6"),
    ("What was the FY2023 turnover of its inventory?", "11,724 / avg(1,700, 1,900) = 6.51"),
    ("What was the effective tax rate in fiscal 2023? Round to three decimal places.",
     "259 / 1,335 = 0.194 (19.4%)"),
    ("FY2023 effective tax rate, 3 dp", "259 / 1,335 = 0.194 (19.4%)"),  # an analyst's shorthand for the places
    ("What is the after-tax return on average equity for FY2023?", "1,076 / avg(3,900, 4,100) = 0.27"),
    ("What is the FY2023 net income to net sales ratio?", "1,076 / 14,694 = 0.07"),
    ("What is FY2023 gross profit? Define gross profit as net sales less cost of sales.",
     "14,694 - 11,724 = 2,970 million"),
])
def test_ratios_on_average_balances_rates_and_defined_differences(engine, release_bytes, question, start):
    doc = engine.index_bytes(release_bytes, "release.pdf")
    d = figure_answer(doc, question, [5])
    assert d.kind == "ratio" and d.text.startswith(start), d.text
    assert all(f.page == 5 for f in d.figures)


def test_a_multi_year_average_is_the_mean_of_each_years_ratio(doc):
    d = figure_answer(doc, "What is the FY2020 - FY2022 3 year average operating margin?", [2])
    assert d.text.startswith("average 2020–2022 of 2020: 6,110 / 52,004 = 11.7%, 2021: 8,702 / 60,117 = 14.5%, "
                             "2022: 9,954 / 66,608 = 14.9% → 13.7%")
    assert [f.period for f in d.figures] == ["2020", "2020", "2021", "2021", "2022", "2022"]


@pytest.fixture
def home_doc(engine, make_pdf):
    return engine.index_bytes(make_pdf([
        ["Seaview Care Home", "Inspection report",
         "Seaview Care Home is registered to provide accommodation for persons requiring nursing care.",
         "Date of publication: 05/10/2015", "Tel: 01983 873655", "Seaview Care Home, 4 Cliff Road, Ventnor"],
        ["Our services",
         "Seaview Care Home serves residents across the island with a team of carers and nurses.",
         "Every single room at Seaview Care Home has had its own bathroom since 1998.",
         "Residents can bring their own furniture and the home provides 24 single rooms and 6 shared rooms.",
         "The home's garden was redesigned last spring by volunteers from the village."],
        ["Results", "Occupancy rose in 2022 because the new wing opened and two homes nearby closed.",
         "Occupancy", "2022", "2021", "Occupancy rise (points)", "7", "3"],
    ]), "seaview.pdf")


def test_a_phone_question_leads_with_the_telephone_number_not_a_date(engine, home_doc):
    answer = engine.ask_document(home_doc, "What is the telephone number of Seaview Care Home?")
    assert answer.extra["direct_answer"] == "Tel: 01983 873655 — p. 1"


def test_a_how_many_question_leads_with_the_figure_next_to_what_it_counts(home_doc):
    from alphasearch.answer.extractive import extractive_answer

    df = {}
    for p in home_doc.pages:
        for t in set(terms(p.text)):
            df[t] = df.get(t, 0) + 1
    ex = extractive_answer(home_doc, "How many single rooms does Seaview Care Home have?", [2, 1], df)
    assert ex.direct.text.startswith("Residents can bring their own furniture and the home provides 24 single rooms")


def test_a_why_question_leads_with_sentences(engine, home_doc):
    answer = engine.ask_document(home_doc, "Why did occupancy rise in 2022?")
    assert answer.extra["direct_answer"].startswith("Occupancy rose in 2022 because the new wing opened")


def test_a_forms_instruction_to_its_reader_is_not_the_answer(engine, make_pdf):
    doc = engine.index_bytes(make_pdf([[
        "Exhibit 300: Capital Asset Plan",
        "To show how the investment aligns with the reference model, please list the service areas and the "
        "service specifications for test management.",
        "The service specifications for test management are functional testing, load testing and usability "
        "testing by Mercury Interactive.",
        "The plan was approved by the investment review board in March."]]), "exhibit.pdf")
    answer = engine.ask_document(doc, "Name the list of service specifications that comes under test management?")
    assert answer.extra["direct_answer"].startswith("The service specifications for test management are functional")


def test_a_line_items_percent_margin_is_over_revenue(doc):
    d = figure_answer(doc, "What is the FY2020 - FY2022 3 year average unadjusted operating income % margin?", [2])
    assert d.text.startswith("average 2020–2022 of 2020: 6,110 / 52,004 = 11.7%")
    assert "→ 13.7%" in d.text


def test_a_net_loss_keeps_its_sign_in_a_margin_while_capex_counts_as_spent(doc):
    margin = figure_answer(doc, "What was the net profit margin in 2022?", [2])
    assert margin.text.startswith("-1,204 / 66,608 = -1.8%")
    capex = figure_answer(doc, "What is the capital expenditure to revenue ratio in 2022? Round to three decimal places.",
                          [2])
    assert capex.text.startswith("1,577 / 66,608 = 0.024")


def test_a_growth_rate_across_a_sign_change_is_not_shown_as_nan(doc):
    """Net earnings 4,006 (2020) -> (1,204) (2022): no compound rate exists; the change is shown."""
    got = figure_answer(doc, "What was the CAGR of net income from 2020 to 2022?", [2])
    assert got is not None and got.kind == "change"
    assert "nan" not in got.text.lower()
    assert "-5,210" in got.text  # -1,204 - 4,006


@pytest.mark.parametrize("question, start", [
    ("How much did adjusted EBITDA change in the fourth quarter of 2023 compared with 2022?",
     "Adjusted EBITDA: change 2022→2023: 540 - 609 = -69"),
    ("How did adjusted EBITDA change from 2022 to 2023?", "Adjusted EBITDA: change 2022→2023: 2,018 - 2,090 = -72"),
    ("What was the Q4 2023 net income to adjusted EBITDA ratio?", "181 / 540 = 0.34"),
    ("What was the FY2023 net income to adjusted EBITDA ratio?", "1,048 / 2,018 = 0.52"),
])
def test_computations_read_the_columns_of_the_period_asked(engine, release_bytes, question, start):
    """A quarter's change or ratio is computed from the quarter's columns (was the full year's)."""
    doc = engine.index_bytes(release_bytes, "release.pdf")
    d = figure_answer(doc, question, [2])
    assert d.text.startswith(start), d.text


def test_a_long_question_is_read_in_linear_time(doc):
    """The ratio patterns ("A to B ratio", "X margin") bound their operands: a 2,000-character
    question of "a to a to …" took 5 s of one core (lazy operands backtracking), now ~0.1 s."""
    import time

    started = time.process_time()  # CPU seconds of this process: the same on a busy machine
    figure_answer(doc, ("How much is the " + "a to " * 400)[:2000] + "?", [2])
    figure_answer(doc, "Define x as" + " " * 1990 + "?", [2])  # a run of spaces: 15 s in the margin pattern
    assert time.process_time() - started < 1.5



@pytest.mark.parametrize("lines", [["$"] * 20000, ["Revenue"] + ["5"] * 20000, ["2019"] + ["5"] * 20000])
def test_a_hostile_page_is_read_in_linear_time(lines):
    """A page of 20,000 lines of "$" (each line rescanned the rest: ~20 min of one core at the
    page limit of 200,000 characters) or one row of 20,000 figure lines (a copied list per
    line) reads in well under a second."""
    import time

    started = time.process_time()
    parse_rows("\n".join(lines))
    assert time.process_time() - started < 2.0

@pytest.fixture
def cash_doc(engine, make_pdf):
    """A balance sheet and cash-flow statement, one line per label and per cell, like filings."""
    return engine.index_bytes(make_pdf([
        ["Northwind Utilities Annual Report 2022", "We serve 3 million customers."],
        ["Consolidated Balance Sheets and Cash Flows", "(in millions of dollars)", "2022", "2021",
         "Total current assets", "1,250", "1,300", "Inventories", "300", "280",
         "Total current liabilities", "2,811", "2,500", "Net cash provided by operating activities", "3,676", "3,000",
         "Purchases of property and equipment", "(461)", "(400)", "Dividends paid", "(520)", "(480)"],
        ["Consolidated Statements of Income", "(in millions of dollars)", "2022", "2021",
         "Net sales", "20,000", "18,000", "Operating income", "2,500", "2,200",
         "Depreciation and amortization", "700", "650"],
    ]), "northwind.pdf")


@pytest.mark.parametrize("question, start", [
    ("What is Northwind's FY2022 working capital?", "1,250 - 2,811 = -$1,561 million"),
    ("What was the FY2022 free cash flow?", "3,676 - 461 = $3,215 million"),
    ("What is the operating cash flow ratio for FY2022?", "3,676 / 2,811 = 1.31"),
    ("What was free cash flow less dividends in 2021?", "3,000 - 400 - 480 = $2,120 million"),
    ("What was the 2022 working capital ratio?", "1,250 / 2,811 = 0.44"),
    ("What is the quick ratio for FY2022?", "(1,250 - 300) / 2,811 = 0.34"),  # (current assets - inventory) / CL
    ("What was the EBITDA margin in 2022?", "(2,500 + 700) / 20,000 = 16.0%"),  # no EBITDA row: OI + D&A
    ("What was EBITDA less capex in 2022?", "(2,500 + 700) - 461 = $2,739 million"),
])
def test_metrics_the_lexicon_defines_are_computed(cash_doc, question, start):
    """Formulas of ``data/lexicon.json`` (free cash flow, working capital) and an expression the
    question writes out ("A less B") are computed with each figure's citation."""
    d = figure_answer(cash_doc, question, [2, 3])
    assert d is not None and d.kind == "ratio" and d.text.startswith(start), d and d.text


@pytest.mark.parametrize("question, start", [
    ("What is the FY2023 unadjusted EBITDA less capex? Define unadjusted EBITDA as net income + depreciation and "
     "amortization. Answer in USD millions.", "1,048 + 577 - 590 = $1,035 million"),
    ("What was adjusted EBITDA less capex in 2023?", "2,018 - 590 = $1,428 million"),
])
def test_a_defined_term_inside_the_expression_asked_is_replaced_by_its_definition(engine, release_bytes, question,
                                                                                  start):
    doc = engine.index_bytes(release_bytes, "release.pdf")
    d = figure_answer(doc, question, [2])
    assert d.text.startswith(start), d.text


def test_figures_a_sentence_states_for_a_list_of_years_become_rows():
    from alphasearch.read.prose import prose_rows

    text = ("Depreciation expense on property and equipment was $4.9 billion , $6.4 billion , and $8.8 billion which "
            "includes amortization of property and equipment\nacquired under capital leases of $2.7 billion , $3.8 "
            "billion , and $5.4 billion for 2015 , 2016 , and 2017 . As of December 31, 2016 and 2017, our liabilities "
            "for unredeemed gift cards was $2.4 billion and $3.0 billion. During 2022, 2021 and 2020, the quarterly cash "
            "dividend was $0.55, $0.50 and $0.50 per share, respectively. Revenue in 2022 was $5 million.")
    rows = [(r.label, r.columns, [c.value for c in r.cells], r.unit, r.kinds[0]) for r in prose_rows(text)]
    assert rows == [
        ("Depreciation expense on property and equipment", ("2015", "2016", "2017"), [4.9, 6.4, 8.8], "billions", ""),
        ("Which includes amortization of property and equipment acquired under capital leases",
         ("2015", "2016", "2017"), [2.7, 3.8, 5.4], "billions", ""),
        ("Our liabilities for unredeemed gift cards", ("2016", "2017"), [2.4, 3.0], "billions", ""),
        ("Quarterly cash dividend", ("2022", "2021", "2020"), [0.55, 0.5, 0.5], "", "quarter")]


@pytest.fixture
def prose_doc(engine, make_pdf):
    return engine.index_bytes(make_pdf([
        ["Cedar Retail Annual Report 2017", "A letter to our shareholders about a year of growth."],
        ["Property, Dividends and Sales",
         "Depreciation expense on property and equipment was $4.9 billion, $6.4 billion, and $8.8 billion which "
         "includes amortization of property and equipment acquired under capital leases of $2.7 billion, "
         "$3.8 billion, and $5.4 billion for 2015, 2016, and 2017.",
         "During 2017, 2016 and 2015, the quarterly cash dividend was $0.55, $0.50 and $0.45 per share, respectively.",
         "Net sales were $136.0 billion and $177.9 billion in 2016 and 2017.",
         "Consolidated Statements of Cash Flows", "($ in millions)", "Years Ended December 31,", "2017", "2016",
         "Net sales", "177,866", "135,987", "Dividends paid", "(2,907)", "(2,625)"],
    ]), "cedar.pdf")


@pytest.mark.parametrize("question, line", [
    ("What was depreciation expense on property and equipment in 2016?",
     "Depreciation expense on property and equipment, 2016: $6.4 billion — p. 2"),
    ("Did the company pay a dividend in Q2 of FY2017?", "Quarterly cash dividend, 2017: $0.55 — p. 2"),
    ("What were dividends paid in 2017?", "Dividends paid, 2017: -$2,907 million (printed (2,907)) — p. 2"),
    ("What were net sales in 2016?", "Net sales, 2016: $135,987 million — p. 2"),  # the table's row first
])
def test_a_figure_stated_in_a_sentence_answers_when_it_names_the_item_best(prose_doc, question, line):
    assert figure_answer(prose_doc, question, [2]).text == line


def test_change_columns_and_short_fiscal_years_in_headers():
    """"% Change" / "$ Change" / "2022 vs. 2021" head columns without a year of their own; "FY22" is 2022."""
    text = "\n".join(["Q4", "Full Year", "($ in Millions, except EPS)", "2022", "2021", "% Change", "2022", "2021",
                      "% Change", "Reported Sales", "$23,706", "$24,804", "(4.4)%", "$94,943", "$93,775", "1.3%"])
    sales = parse_rows(text)[0]
    assert sales.columns == ("2022", "2021", "change") * 2
    assert sales.kinds == ("quarter",) * 3 + ("year",) * 3
    text = "\n".join(["(in millions)", "2022 vs. 2021", "FY22", "FY21", "$ Change", "Net sales", "100", "90", "10"])
    assert [(r.label, r.columns) for r in parse_rows(text)] == [("Net sales", ("2022", "2021", "change"))]
    text = "\n".join(["(in millions)", "2022 compared with 2021", "2022", "2021", "Increase / (Decrease)",
                      "Net sales", "100", "90", "10"])  # the words of lexicon.json's change_columns, spaced out
    assert [(r.label, r.columns) for r in parse_rows(text)] == [("Net sales", ("2022", "2021", "change"))]


@pytest.fixture
def growth_doc(engine, make_pdf):
    return engine.index_bytes(make_pdf([
        ["Juniper Health Fourth-Quarter Results", "Results for the fourth quarter and the full year 2022."],
        ["OVERALL FINANCIAL RESULTS", "Q4", "Full Year", "($ in Millions, except EPS)", "2022", "2021", "% Change",
         "2022", "2021", "% Change", "Reported Sales", "$23,706", "$24,804", "(4.4)%", "$94,943", "$93,775", "1.3%",
         "Net Earnings", "$3,520", "$4,736", "(25.7)%", "$17,941", "$20,878", "(14.1)%"],
        ["Balance sheet", "(in millions)", "2022", "2021", "Total assets", "187,378", "182,018"],
    ]), "juniper.pdf")


@pytest.mark.parametrize("question, pages, line", [
    ("What was the sales growth in FY2022?", [2], "Reported Sales, 2021→2022 change: 1.3% — p. 2"),
    ("How much did net earnings decline in the fourth quarter of 2022?", [2],
     "Net Earnings, 2021→2022 change: -25.7% (printed (25.7)%) — p. 2"),
    ("How much did total assets grow in 2022?", [3], "Total assets: change 2021→2022: 187,378 - 182,018 = 5,360 (+2.9%)"),
])
def test_a_change_in_one_year_is_the_printed_change_or_computed_from_the_year_before(growth_doc, question, pages, line):
    d = figure_answer(growth_doc, question, pages)
    assert d.kind == "change" and d.text.startswith(line), d.text


def test_a_table_whose_years_are_rows(engine, make_pdf):
    """Lease and amortization schedules list years down the page: each year heads a row, and the
    text above names what the table lists; the total, in the column of the year the schedule is as
    of, follows "Thereafter". A lone year over a figure (a chart's axis) is not a row."""
    page = ["Leases", "Future minimum lease payments under operating leases as of December 31, 2022 are as follows "
            "(in millions):", "Year Ending December 31,", "2023", "$", "1,204", "2024", "1,100", "2025", "950",
            "Thereafter", "3,400", "$", "6,654", "Daily VaR", "Second Quarter", "2023", "85"]
    rows = parse_rows("\n".join(page))
    years = [(r.label, r.cells[0].value, r.currency, r.unit) for r in rows if r.caption]
    assert years == [("2023", 1204, "$", "millions"), ("2024", 1100, "$", "millions"), ("2025", 950, "$", "millions"),
                     ("Total", 6654, "$", "millions")]
    assert {r.caption for r in rows if r.caption} == {"Future minimum lease payments under operating leases",
                                                      "Total future minimum lease payments under operating leases"}
    doc = engine.index_bytes(make_pdf([["Cobalt Freight Annual Report 2022"], page]), "cobalt.pdf")
    d = figure_answer(doc, "What are the future minimum lease payments under operating leases for 2024?", [2])
    assert d.text == "Future minimum lease payments under operating leases, 2024: $1,100 million — p. 2"
    total = figure_answer(doc, "What are the total future minimum lease payments under operating leases as of "
                               "December 31, 2022?", [2])  # the figure after "Thereafter"'s is the schedule's total
    assert total.text == "Total future minimum lease payments under operating leases, 2022: $6,654 million — p. 2"


def test_a_statements_name_is_where_to_look_not_the_line_item():
    assert concepts("Using the cash flow statement, how much cash flow from operating activities was generated in "
                    "FY2020?") == ["operating cash flow"]
    assert concepts("Based on the balance sheet, what were total assets?") == ["total assets"]
    assert concepts("What was cash and cash equivalents in the statement of cash flows?") == ["cash"]


def test_capital_intensity_is_capex_over_revenue_shown_as_a_rate(doc):
    d = figure_answer(doc, "Is Harbor a capital-intensive business based on FY2022 data?", [2])
    assert d.kind == "ratio" and d.text.startswith("1,577 / 66,608 = 0.02 (2.4%)"), d.text



def test_a_table_headed_by_words_reads_the_column_the_question_names(engine, make_pdf):
    """A results table of a paper: columns named by words ("MMLU Physics"), each value followed
    by its spread in brackets; the row holding most of the question's words, the column it names."""
    page = ["Table 1: Average accuracy over 5 runs, standard deviations in parentheses.", "Method", "MMLU Physics",
            "MMLU Chemistry", "PaLM-2L", "66.4% (0.8%)", "70.9% (0.9%)", "PaLM-2L + Step-Back (ours)",
            "73.2% (1.9%)", "81.8% (1.4%)", "GPT-4", "70.3% (2.3%)", "79.9% (1.0%)"]
    rows = parse_rows("\n".join(page))
    assert [(r.label, r.columns, [c.value for c in r.cells]) for r in rows][:2] == [
        ("PaLM-2L", ("MMLU Physics", "MMLU Chemistry"), [66.4, 70.9]),
        ("PaLM-2L + Step-Back (ours)", ("MMLU Physics", "MMLU Chemistry"), [73.2, 81.8])]
    doc = engine.index_bytes(make_pdf([["Take a Step Back: Evoking Reasoning via Abstraction"], page]), "paper.pdf")
    answer = engine.ask_document(doc, "What score did PaLM-2L + Step-Back achieve in MMLU Chemistry?")
    assert answer.extra["direct_answer"] == "PaLM-2L + Step-Back (ours), MMLU Chemistry: 81.8% — p. 2"
    assert figure_answer(doc, "What is the MMLU Physics accuracy of GPT-4?", [2]).text == \
        "GPT-4, MMLU Physics: 70.3% — p. 2"


def test_a_change_between_years_printed_in_two_tables(engine, make_pdf):
    """A balance sheet shows two years: the year before them comes from another table (another
    page); the same line item read as well in both gives the change, citing both pages."""
    doc = engine.index_bytes(make_pdf([
        ["Balance sheet", "(in millions)", "2022", "2021", "Total assets", "187,378", "182,018"],
        ["Five-year summary", "(in millions)", "2020", "2019", "Total assets", "174,894", "157,728"],
    ]), "summary.pdf")
    d = figure_answer(doc, "How did total assets change from 2020 to 2022?", [1, 2])
    assert d.kind == "change" and d.text.startswith("Total assets: change 2020→2022: 187,378 - 174,894 = 12,484"), d.text
    assert d.text.endswith("(pp. 2, 1)")


@pytest.fixture
def mixed_units_doc(engine, make_pdf):
    """Statements in millions, a cash-flow statement in thousands, a sentence in billions."""
    return engine.index_bytes(make_pdf([
        ["Cobalt Freight Annual Report 2022"],
        ["Consolidated Statements of Operations", "(in millions)", "2022", "2021", "Total revenue", "10,000", "9,000",
         "Operating income", "2,000", "1,500", "Depreciation and amortization expense was $1.2 billion, $1.1 billion "
         "and $1.0 billion for 2022, 2021 and 2020, respectively."],
        ["Consolidated Statements of Cash Flows", "(in thousands)", "2022", "2021",
         "Net cash provided by operating activities", "3,100,000", "2,900,000",
         "Purchases of property and equipment", "(500,000)", "(400,000)"]]), "mixed.pdf")


@pytest.mark.parametrize("question, start", [
    ("What is the capital intensity in 2022?", "500,000 / 10,000,000 = 0.05 (5.0%)"),  # was 50.00 (5000.0%)
    ("What is operating income less capex in 2022?", "2,000 - 500 = 1,500 million"),  # was -498,000 million
    ("What is operating income plus depreciation and amortization in 2022?", "2,000 + 1,200 = 3,200 million"),
    ("What was free cash flow in 2022?", "3,100,000 - 500,000 = 2,600,000 thousand"),
])
def test_a_computation_scales_figures_of_other_units_to_the_first(mixed_units_doc, question, start):
    """A figure in thousands or billions is scaled to the unit of the first figure before it is
    added, subtracted or divided (each is still cited as printed)."""
    d = figure_answer(mixed_units_doc, question, [2, 3])
    assert d.text.startswith(start), d.text


@pytest.mark.parametrize("header, question, line", [
    (["2022", "2021", "% Change"], "What was the sales growth in FY2021?", None),  # the printed change is 2022's
    (["2021", "2022", "% Change"], "What was the sales growth in FY2021?", None),
    (["2021", "2022", "% Change"], "What was the sales growth in FY2022?", "Net sales, 2021→2022 change: 4.2%"),
    (["2022", "% Change", "2021", "% Change", "2020"], "What was the sales growth in FY2021?",
     "Net sales, 2020→2021 change: 3.1%"),
])
def test_a_printed_change_belongs_to_the_later_year_it_compares(engine, make_pdf, header, question, line):
    """A "% Change" column compares the two years beside it: it answers a change asked for the
    later one only (asked for 2021 on "2022 2021 % Change", it read 2022's change as 2020→2021)."""
    cells = {"2022": "104", "2021": "100", "2020": "97", "% Change": None}
    changes = iter(["4.2%", "3.1%"])
    row = [cells[h] if cells[h] else next(changes) for h in header]
    doc = engine.index_bytes(make_pdf([["Annual report"], ["(in millions)", *header, "Net sales", *row]]), "g.pdf")
    d = figure_answer(doc, question, [2])
    if line is None:
        assert d is None or "4.2%" not in d.text, d.text  # 2022's change read as 2021's
    else:
        assert d.kind == "change" and d.text.startswith(line), d.text


def test_a_written_out_computation_of_many_terms_is_not_read_as_one(doc):
    """'revenue less revenue less …' (1,000 terms) computed every term at high confidence; more
    than MAX_OPERANDS terms is no computation a question asks for."""
    from alphasearch.read.direct import MAX_OPERANDS

    few = figure_answer(doc, "What was " + "revenue less " * (MAX_OPERANDS - 1) + "revenue in 2022?", [2])
    assert few is not None and few.text.count(" - ") == MAX_OPERANDS - 1, few
    many = figure_answer(doc, "What was " + "revenue less " * 40 + "revenue in 2022?", [2])
    assert many is None or " - " not in many.text


@pytest.fixture
def stated_doc(engine, make_pdf):
    """Results in sentences (percent changes) beside a statement that prints the levels of two years."""
    return engine.index_bytes(make_pdf([
        ["Alder Instruments Fourth Quarter Results"],
        ["Results of Operations",
         "In 2023, worldwide net sales increased 4.2% to $34.2 billion as compared to a decrease of 1.1% in 2022.",
         "2023 Full-Year diluted earnings per share of $6.73 decreasing 13.8% and adjusted EPS of $10.15 increasing "
         "by 3.6%.",
         "Consolidated Statements of Income", "(in millions, except per share amounts)", "2024", "2023",
         "Net sales", "36,100", "34,229", "Operating income", "(1,577)", "2,911", "Diluted earnings per share",
         "7.02", "6.73"],
    ]), "alder.pdf")


@pytest.mark.parametrize("question, line", [
    ("How much did net sales grow in 2023?", "Worldwide net sales, 2023 change: 4.2% — p. 2"),
    ("Did net sales decline in 2022?", "Worldwide net sales, 2022 change: -1.1% — p. 2"),  # the item of the clause before
    ("Is growth in adjusted EPS accelerating in 2023?", "Adjusted EPS, 2023 change: 3.6% — p. 2"),
    ("How did diluted EPS change in FY2023?", "Full-Year diluted earnings per share, 2023 change: -13.8% — p. 2"),
    ("How much did net sales grow in 2024?", "Net sales: change 2023→2024: 36,100 - 34,229 = 1,871"),  # table first
])
def test_a_change_a_sentence_states_answers_a_change_asked(stated_doc, question, line):
    """A change asked of a line item, printed in no table column: the percentage a sentence states
    for that item and year ("net sales increased 4.2%"), not the item's level from the table (it
    read "Net sales, 2023: $34,229 million"); a change both table years give is still computed."""
    d = figure_answer(stated_doc, question, [2])
    assert d.kind == "change" and d.text.startswith(line), d.text


def test_a_change_of_no_line_item_is_not_read_from_a_sentence(engine, make_pdf):
    """Without a line item of the lexicon the question's own words are too loose a match for a clause
    (it answered "Against a forecast GDP, change: 6.7%", the forecast, for the shortfall asked)."""
    doc = engine.index_bytes(make_pdf([["Economic review"], [
        "Against a forecast GDP growth of 6.7% in 2023, the region achieved a GDP growth of 4.3%."]]), "gdp.pdf")
    d = figure_answer(doc, "What was the shortfall in GDP growth in 2023 compared to the forecast?", [2])
    assert d is None or d.kind != "change", d.text


def test_a_why_question_leads_with_the_sentence_that_states_a_cause(engine, make_pdf):
    """'What drove the increase in X' is answered by the sentence giving the cause ('… primarily due
    to …'), not by the one that repeats the question's words (it led with the balances)."""
    doc = engine.index_bytes(make_pdf([
        ["Juniper Beauty Fourth Quarter Fiscal 2022 Results"],
        ["Balance Sheet",
         "Merchandise inventories, net at the end of the fourth quarter of fiscal 2022 totaled $1.6 billion compared "
         "to $1.5 billion at the end of the fourth quarter of fiscal 2021.",
         "The $104.2 million increase was primarily due to the opening of 47 new stores and inventory cost increases.",
         "Cash and cash equivalents at the end of the fourth quarter of fiscal 2022 were $737.9 million."],
    ]), "juniper.pdf")
    answer = engine.ask_document(doc, "What drove the increase in merchandise inventories at the end of fiscal 2022?")
    assert answer.extra["direct_answer"].startswith("The $104.2 million increase was primarily due to the opening"), \
        answer.extra["direct_answer"]


def test_a_sentence_pointing_at_a_table_states_no_cause():
    """'The following table reflects …' describes a table; '… primarily reflecting higher volume' gives a cause."""
    from alphasearch.answer.extractive import states_cause

    assert not states_cause("The following table reflects the changes in merchandise inventories during 2022.")
    assert states_cause("Inventories rose by $104 million, primarily reflecting higher volume.")
    assert states_cause("The increase was driven by new stores.") and not states_cause("Inventories were $1.6 billion.")


def test_a_strong_figure_is_answered_when_every_sentence_scores_below_zero(doc):
    """Sentences on later pages lose a rank penalty; when all of them score below zero and a
    table row still answers the figure, the answer leads with it and quotes the best sentence
    (it once failed: no sentence passed 'score >= 0.6 x best' with a negative best)."""
    from dataclasses import replace

    from alphasearch.answer.extractive import extractive_answer
    from alphasearch.models import Page

    blank_first = replace(doc, pages=(Page(1, ""),) + tuple(doc.pages[1:]))
    df: dict[str, int] = {}
    for p in blank_first.pages:
        for t in set(terms(p.text)):
            df[t] = df.get(t, 0) + 1
    ex = extractive_answer(blank_first, "What were total revenues in 2022?", [1, 2], df, rank_penalty=5.0)
    assert not ex.fallback and ex.text.startswith("Total revenues, 2022: $66,608 million — p. 2")
    assert ex.citations and all(c.pages == (2, 2) for c in ex.citations)


def test_a_row_naming_another_line_item_does_not_answer(engine):
    """"Cost of sales" holds "sales" and "Deferred revenue" holds "revenue", but each names
    another line item (its longest phrase in the lexicon): neither answers a revenue question."""
    from pdf_factory import cost_rows_pdf

    d = engine.index_bytes(cost_rows_pdf(), "balances.pdf")
    assert figure_answer(d, "What was revenue in 2023?", [1]) is None
    assert figure_answer(d, "What were net sales in 2023?", [1]) is None
    assert figure_answer(d, "What was the cost of sales in 2023?", [1]).text == "Cost of sales, 2023: 11,724 million — p. 1"
    assert figure_answer(d, "How much deferred revenue was there in 2022?", [1]).text.startswith("Deferred revenue, 2022: 512")


def test_a_negative_figure_after_an_operator_is_bracketed(doc):
    """Net (loss)/earnings of 2022 is printed "(1,204)": the arithmetic shows "- (-1,204)", not "- -1,204"."""
    d = figure_answer(doc, "What was operating income minus net income in 2022?", [2, 1])
    assert d.text.startswith("9,954 - (-1,204) = $11,158 million — Operating income, 2022: $9,954 million (p. 2)")


def test_a_page_footer_a_numbered_heading_or_a_date_is_not_a_figure(engine, make_pdf):
    from alphasearch.read.rows import not_line_item

    d = engine.index_bytes(make_pdf([
        ["Quarterly report of the water board.", "The board met four times this year.", "Page 1 of 2"],
        ["Meetings held", "15th May, 2006 3 3", "21st July, 2006 3 2",
         "Members present at each meeting are listed above.", "Page 2 of 2"]]), "board.pdf")
    assert figure_answer(d, "How many pages are there?", [1, 2]) is None  # not "Page 1 of: 2"
    met = figure_answer(d, "How many members were present on 21st July, 2006?", [2, 1])
    assert met is not None and met.figures[0].value == 3  # the date's year is not the figure
    for line in ("Page 5 of 15", "page 12", "5 of 15", "Example 1", "Table 3", "21st July, 2006", "July 21, 2006"):
        assert not_line_item(line), line
    for line in ("Total revenues 66,608 60,117", "Employees 12,450", "Page views 1,200,000"):
        assert not not_line_item(line), line


def test_a_footnote_mark_after_a_name_is_no_figure(engine, make_pdf):
    """A list of subsidiaries with footnote marks ("Harbor Stores, L.P. (1)") holds no figure,
    while a store count table's "(1)" (a store closed) stays a figure."""
    data = make_pdf([
        ["Harbor Freight Logistics Inc. Annual Report 2022"],
        ["Exhibit 21.1", "Subsidiaries of the registrant", "Harbor Stores, L.P. (1)", "Harbor Purchasing LLC (2)",
         "Harbor Canada Ltd. (3)", "(1) A Virginia limited partnership. (2) A Minnesota company."],
        ["Store count", "2022", "2021", "Harbor stores", "908", "(1)", "Outlet centers", "20", "18"],
    ])
    pages = pdf.read_pdf(data).pages
    assert not [r for r in parse_rows(pages[1].text) if "Harbor" in r.label]
    stores = {r.label: r for r in parse_rows(pages[2].text)}["Harbor stores"]
    assert [c.value for c in stores.cells] == [908, -1] and stores.columns == ("2022", "2021")
    doc = engine.index_bytes(data, "subsidiaries.pdf")
    assert figure_answer(doc, "What acquisitions did Harbor Stores, L.P. make in 2022?", [2]) is None


def test_the_figure_is_looked_up_once_per_question(engine, doc, monkeypatch):
    """The confidence's figure parts read the direct answer itself: one lookup per figure question."""
    from alphasearch.answer import extractive as answer_module

    calls = []
    real = answer_module.figure_answer
    monkeypatch.setattr(answer_module, "figure_answer", lambda *a, **k: calls.append(1) or real(*a, **k))
    got = engine.ask_document(doc, "What were total revenues in 2022?")
    assert len(calls) == 1 and got.extra["direct_answer"].startswith("Total revenues, 2022: $66,608 million")


def test_a_percent_sign_printed_apart_from_its_figure_is_read_with_it(engine, make_pdf):
    """Filings print "6.9 %" (the sign a separate word): the row keeps its percentages and columns."""
    data = make_pdf([["Harbor Freight Logistics Inc. Annual Report 2022"],
                     ["Analysis of sales", "Sales increase/(decrease) due to:", "2022", "2021", "Volume", "6.9 %",
                      "12.9 %", "Price", "(0.8)", "(0.7)", "Gross margin 42.1 % 40.0 %"]])
    rows = {r.label: r for r in parse_rows(pdf.read_pdf(data).pages[1].text)}
    assert [c.value for c in rows["Volume"].cells] == [6.9, 12.9] and rows["Volume"].cells[0].percent
    assert rows["Gross margin"].columns == ("2022", "2021") and rows["Gross margin"].cell_for("2021").value == 40.0
    doc = engine.index_bytes(data, "margins.pdf")
    assert figure_answer(doc, "What was the gross margin in 2021?", [2]).text == "Gross margin, 2021: 40% — p. 2"


def test_a_row_named_only_by_the_company_answers_no_question(engine, make_pdf):
    """A stock performance table's row "Harbor Freight Logistics Inc." shares only the company's
    name with a question about its acquisitions: no figure answers it, while a row naming what
    is asked still does."""
    doc = engine.index_bytes(make_pdf([
        ["Harbor Freight Logistics Inc.", "Annual Report 2022", "Harbor Freight Logistics Inc. moves freight by sea."],
        ["Comparison of cumulative total return", "2021", "2022", "Harbor Freight Logistics Inc.", "$ 165.74", "$ 139.12",
         "S&P 500", "$ 150.10", "$ 122.85", "Acquisitions completed", "2", "3"],
    ]), "harbor-return.pdf")
    assert figure_answer(doc, "What acquisitions has Harbor Freight Logistics done in 2022?", [2]) is None
    assert figure_answer(doc, "How many acquisitions did Harbor Freight Logistics complete in 2022?", [2]).text \
        .startswith("Acquisitions completed, 2022:")


@pytest.fixture
def sales_growth_doc(engine, make_pdf):
    """A results page: a sentence stating the company's sales growth and a segment table with a
    "% Change" column."""
    return engine.index_bytes(make_pdf([
        ["Harbor Freight Logistics Inc.", "Annual Report 2022"],
        ["Analysis of consolidated sales",
         "In 2022, worldwide sales increased 1.3% to $94.9 billion as compared to an increase of 13.6% in 2021.",
         "Segment sales (in millions)", "2022", "2021", "% Change", "Total Pharmaceutical Sales", "52,563", "52,080",
         "0.9 %", "Total Freight Sales", "27,427", "27,060", "1.4 %"],
    ]), "harbor-growth.pdf")


@pytest.mark.parametrize("question, line", [
    ("Are Harbor's FY2022 financials that of a high growth company?", "Worldwide sales, 2022 change: 1.3% — p. 2"),
    ("What was the growth of pharmaceutical sales in 2022?",
     "Total Pharmaceutical Sales, 2021→2022 change: 0.9% — p. 2"),
])
def test_a_growth_company_is_read_by_its_sales_growth(sales_growth_doc, question, line):
    """"A high growth company" asks for sales growth (data/lexicon.json); the change a sentence states
    for the company's sales wins over a segment's printed change that names the item less well,
    not over a row naming it as asked."""
    assert figure_answer(sales_growth_doc, question, [2]).text == line


def test_a_page_number_under_a_sentence_is_no_figure_of_it(engine, make_pdf):
    """A page ending in a sentence and then its page number ("12") reads no row "… coast.: 12":
    the count the sentence states answers."""
    pages = [[f"Weather notes on shipping lane {name}.", str(k + 1)] for k, name in enumerate("ABCDEFGHIJK")]
    pages.append(["Our offices", "Harbor Freight Logistics runs 14 regional offices across the coast.", "12"])
    assert not parse_rows("\n".join(pages[-1]))
    assert [c.text for c in parse_rows("Stores\nTotal stores\n12")[0].cells] == ["12"]  # a label, then its figure
    doc = engine.index_bytes(make_pdf(pages), "harbor.pdf")
    answer = engine.ask_document(doc, "How many regional offices does Harbor Freight Logistics run?")
    assert "14" in answer.extra["direct_answer"] and ": 12" not in answer.extra["direct_answer"]


def test_a_measure_holding_a_line_items_name_is_not_that_line_item(engine, doc):
    # "days sales outstanding" names sales, "cash conversion cycle" cash: neither is that row's figure
    assert concepts("What is the cash conversion cycle in FY2022?") == []
    assert concepts("What were the days sales outstanding in 2022 and net sales?") == ["revenue"]
    ans = engine.ask_document(doc, "What were the days sales outstanding in 2022?")
    assert "66,608" not in ans.text and "Total revenues, 2022" not in ans.text, ans.text


def test_a_wrong_figure_is_one_stated_where_none_is_the_gold_one():
    from alphasearch.read.figures import states_other

    gold = gold_figures("$2,045 million")
    assert states_other("Cash and cash equivalents, 2022: $4,810 million — p. 1", gold)
    assert not states_other("Net cash provided by operating activities, 2022: $2.045 billion", gold)
    assert not states_other("", gold) and not states_other("In 2022, see page 3.", gold)  # no figure stated


def test_a_ratio_is_named_by_its_words_in_any_order_close_together():
    from alphasearch.read.items import ratio_named

    assert ratio_named("What is Nike's payables turnover?") == "payables turnover"
    assert ratio_named("What is the turnover of Nike's payables in FY2021?") == "payables turnover"
    assert ratio_named("What was the return on Harbor's total assets?") == "return on assets"
    assert ratio_named("What is the fixed asset turnover?") == "fixed asset turnover"
    # the words far apart are two things asked, not the ratio
    assert ratio_named("What is the return of capital to shareholders and the company's total assets?") is None
    assert ratio_named("What was Nike's revenue in 2021?") is None


def test_a_negative_with_a_space_before_its_closing_bracket_is_one_figure(doc):
    """Oracle's statements print negatives as "(623 )": the row "(Provision for) benefit from income taxes" was read
    as no row, and "What was Oracle's income tax expense for fiscal 2023?" answered from a note's sentence on
    interest and penalties ($111 million)."""
    from dataclasses import replace

    from alphasearch.models import Page

    text = ("Harbor Corporation\nConsolidated Statements of Operations\n(in millions)\n2023\n2022\n2021\n"
            "Income before income taxes\n9,126\n7,649\n12,999\n(Provision for) benefit from income taxes\n"
            "(623 ) \xa0\n(932 ) \xa0\n747\nNet income\n8,503\n6,717\n13,746")
    rows = {r.label: r for r in parse_rows(text)}
    assert [c.value for c in rows["(Provision for) benefit from income taxes"].cells] == [-623, -932, 747]
    page = replace(doc, doc_id="literal-spaced-negatives", pages=(Page(1, text),))
    got = figure_answer(page, "What was Harbor's income tax expense for fiscal 2023?", [1])
    assert got is not None and "623" in got.text, got


def test_a_figure_that_reads_like_the_year_asked_is_still_the_answer(doc):
    """A cell is passed over when it prints a number the question prints ("… in 2006?" is a key of the row); with
    "4,500" read as the word "4500", the cell "$2,021" matched the question's year 2021 and was passed over (a
    review's finding)."""
    from dataclasses import replace

    from alphasearch.models import Page

    text = "Harbor Corporation\nConsolidated Statements of Operations\n(in millions)\n2022 2021 2020\n" \
           "Net sales $ 2,210 $ 2,021 $ 2,020\nNet income $ 310 $ 288 $ 251"
    page = replace(doc, doc_id="literal-year-like", pages=(Page(1, text),))
    got = figure_answer(page, "What were Harbor's net sales in 2021?", [1])
    assert got is not None and "2,021" in got.text, got


def test_a_figure_printed_to_four_decimals_is_not_in_the_tables_millions(engine, make_pdf):
    """AES prints its quarterly dividend per share, "$0.1580", in a 10-K whose tables are in millions: a figure
    printed to three decimals or more is no amount in millions (it read "$0.1580 million")."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Power Annual Report 2021", "A letter to our shareholders about a year of growth."],
        ["Dividends", "(in millions, except per share amounts)",
         "The quarterly per-share cash dividends for the last three years are displayed below.",
         "Commencing the fourth quarter of", "2021", "2020", "Cash dividend", "$0.1580", "$0.1505",
         "Revenue", "$11,141", "$9,660"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was the cash dividend in 2021?", [2]).text == "Cash dividend, 2021: $0.1580 — p. 2"
    assert figure_answer(doc, "What was revenue in 2021?", [2]).text == "Revenue, 2021: $11,141 million — p. 2"


def test_dividends_paid_are_the_total_under_any_share_class_not_the_amount_per_share(engine, make_pdf):
    """"How much did X pay in dividends" asks the total paid: the cash flow row names the shares it was paid on
    ("Dividends — common and preferred", Nike; "Dividends paid on AES common stock") and is the answer, not the
    per-share dividend printed elsewhere ("Cash dividend: $0.1580"), which answers a question asking for the
    dividend itself."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Power Annual Report 2021", "A letter to our shareholders about a year of growth."],
        ["Dividends", "The quarterly per-share cash dividends for the last three years are displayed below.",
         "Commencing the fourth quarter of", "2021", "2020", "Cash dividend", "$0.1580", "$0.1505"],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2021", "2020",
         "Cash provided (used) by financing activities:", "Repurchase of common stock", "(4,014)", "(608)",
         "Dividends - common and preferred", "(1,837)", "(1,638)", "Other financing activities", "(151)", "(136)"],
    ]), "birch.pdf")
    assert figure_answer(doc, "How much did Birch pay in dividends in 2021?", [2, 3]).text == \
        "Dividends - common and preferred, 2021: -1,837 million (printed (1,837)) — p. 3"
    assert figure_answer(doc, "What was the quarterly cash dividend in 2021?", [2, 3]).text == \
        "Cash dividend, 2021: $0.1580 — p. 2"


def test_another_line_item_holding_the_words_asked_is_not_their_figure(engine, make_pdf):
    """Pfizer prints no operating income: "Income from continuing operations" holds the words of "income from
    operations" apart and is another line item, and the same words under "Earnings per common share" are a
    per-share figure, no total. Neither is stated for operating income; each answers its own question."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Pharma Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(in millions, except per share data)", "2022", "2021",
         "Revenues", "100,330", "81,288", "Income from continuing operations", "31,401", "22,459",
         "Net income", "31,372", "22,980", "Earnings per common share - basic:",
         "Income from continuing operations attributable to Birch common shareholders", "$5.59", "$4.04"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's operating income in 2022?", [2]) is None
    answer = engine.ask_document(doc, "What was Birch's operating income in 2022?")
    assert answer.extra.get("direct_answer") is None and "31,401" not in answer.text and "5.59" not in answer.text
    assert figure_answer(doc, "What was Birch's income from continuing operations in 2022?", [2]).text == \
        "Income from continuing operations, 2022: $31,401 million — p. 2"


def test_trade_receivables_are_the_accounts_receivable_not_their_allowance(engine, make_pdf):
    """Kraft Heinz's balance sheet prints "Trade receivables (net of allowances …)"; a note prints "Allowances related
    to trade accounts receivable". "Trade" means "accounts" in the item's name, so the balance-sheet row is the
    accounts receivable, and the allowance (which holds the question's words) is not."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Foods Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Balance Sheets", "(in millions)", "2022", "2021", "Cash and cash equivalents", "1,040", "3,445",
         "Trade receivables (net of allowances of $46 and $48)", "2,120", "1,957", "Inventories", "3,651", "2,729"],
        ["Note 5. Receivables", "Allowances related to trade accounts receivable were as follows.", "2022", "2021",
         "Allowances related to trade accounts receivable", "46", "48"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What were Birch's accounts receivable at the end of 2022?", [2, 3]).text == \
        "Trade receivables (net of allowances of $46 and $48), 2022: 2,120 million — p. 2"


def test_cash_used_in_investing_activities_is_that_row_not_the_cash_balance(engine, make_pdf):
    """"How much cash did eBay use in investing activities" named only "cash" in the lexicon and was answered with
    the year-end cash balance; the investing and financing totals are line items of their own, found with the
    company's name and a verb between their words, and printed "provided by/(used in)" (Pfizer)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Pharma Annual Report 2021", "A letter to our shareholders about a year of growth."],
        ["Consolidated Balance Sheets", "(MILLIONS)", "2021", "2020", "Cash and cash equivalents", "1,944", "1,786",
         "Inventories", "8,981", "8,020"],
        ["Consolidated Statements of Cash Flows", "(MILLIONS)", "2021", "2020",
         "Purchases of property, plant and equipment", "(2,711)", "(2,791)", "Other investing activities, net", "(305)",
         "(1,044)", "Net cash provided by/(used in) investing activities", "(22,546)", "(4,271)",
         "Net cash provided by/(used in) financing activities", "(9,816)", "(1,644)"],
    ]), "birch.pdf")
    assert figure_answer(doc, "How much cash did Birch use in investing activities in 2021?", [2, 3]).text == \
        "Net cash provided by/(used in) investing activities, 2021: -22,546 million (printed (22,546)) — p. 3"
    assert figure_answer(doc, "How much cash did Birch use in financing activities in 2021?", [2, 3]).text == \
        "Net cash provided by/(used in) financing activities, 2021: -9,816 million (printed (9,816)) — p. 3"


def test_a_total_asked_is_not_answered_by_a_part_or_by_the_balance_sheets_other_total(engine, make_pdf):
    """Best Buy, FedEx and McDonald's print no "Total liabilities" line: "Total liabilities and equity" is the
    balance sheet's other side, "Other liabilities" and "Lease liability" are parts. None of them is stated."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Balance Sheets", "(in millions)", "2022", "2021", "Accounts payable", "3,862", "3,744",
         "Lease liability", "661", "704", "Other liabilities", "695", "712", "Total equity", "3,020", "3,479",
         "Total liabilities and equity", "17,504", "19,067"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What were Birch's total liabilities at the end of 2022?", [2]) is None
    assert figure_answer(doc, "What were Birch's other liabilities at the end of 2022?", [2]).text == \
        "Other liabilities, 2022: 695 million — p. 2"


def test_the_effective_tax_rate_is_its_row_not_the_statutory_rate(engine, make_pdf):
    """Pfizer's tax note prints "U.S. statutory income tax rate" (21.0%) above "Effective tax rate for income from
    continuing operations" (7.6%): the row starting with the rate asked is its figure, whatever item it is for."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Pharma Annual Report 2021", "A letter to our shareholders about a year of growth."],
        ["B. Tax Rate Reconciliation", "2021", "2020", "U.S. statutory income tax rate", "21.0%", "21.0%",
         "Taxation of non-U.S. operations", "(6.7)", "(9.2)", "Effective tax rate for income from continuing operations",
         "7.6%", "5.3%"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's effective tax rate in 2021?", [2]).text == \
        "Effective tax rate for income from continuing operations, 2021: 7.6% — p. 2"


def test_a_titles_years_then_the_headers_own_years_head_the_columns(engine, make_pdf):
    """Oracle's statements print "For the Years Ended May 31, 2023, 2022 and 2021", then "Year Ended May 31,",
    "(in millions)" and each year on a line of its own: six years were read as the header of three-figure rows, so
    no row had a column or a unit ("Depreciation: $2,526", no year, no millions)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Software Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["CONSOLIDATED STATEMENTS OF CASH FLOWS", "For the Years Ended May 31, 2023, 2022 and 2021",
         "Year Ended May 31,", "(in millions)", "2023", "2022", "2021", "Cash flows from operating activities:",
         "Net income", "$", "8,503", "$", "6,717", "$", "13,746", "Depreciation", "2,526", "1,972", "1,537"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's depreciation in fiscal 2022?", [2]).text == \
        "Depreciation, 2022: $1,972 million — p. 2"


def test_money_spent_on_property_and_equipment_is_the_capital_expenditure(engine, make_pdf):
    """"How much did X spend on property and equipment" was answered with the balance sheet's property and equipment
    (net) on twelve filings of twelve: spending on an asset is its purchases, the cash flow row; the asset's value
    is still what "the value of property and equipment" asks."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Balance Sheets", "(in millions)", "2022", "2021", "Inventories", "8,420", "6,854",
         "Property and equipment, net", "4,791", "4,904"],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2022", "2021",
         "Payments for property and equipment", "(758)", "(695)", "Repurchase of common stock", "(4,014)", "(608)"],
    ]), "birch.pdf")
    for question in ("How much did Birch spend on property and equipment in 2022?",
                     "How much did Birch spend on its property, plant and equipment in 2022?"):
        assert figure_answer(doc, question, [2, 3]).text == \
            "Payments for property and equipment, 2022: -758 million (printed (758)) — p. 3", question
    assert figure_answer(doc, "What was the value of Birch's property and equipment in 2022?", [2, 3]).text == \
        "Property and equipment, net, 2022: 4,791 million — p. 2"


def test_interest_payments_on_debt_are_no_debt(engine, make_pdf):
    """AES's contractual obligations print "Interest payments on long-term debt" ($6,180 million): named first, the
    interest paid is that row's figure, not the non-current debt asked."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Power Annual Report 2021", "A letter to our shareholders about a year of growth."],
        ["Contractual Obligations", "(in millions)", "2021", "Interest payments on long-term debt", "6,180",
         "Purchase obligations", "28,383"],
    ]), "birch.pdf")
    assert figure_answer(doc, "How much non-current debt did Birch carry at the end of 2021?", [2]) is None


def test_a_total_revenue_is_printed_without_the_word_total(engine, make_pdf):
    """Only an item whose every name is a total ("total liabilities") needs a label saying so: Coca-Cola's total
    revenue is its "Net Operating Revenues" row."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Beverages Annual Report 2019", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(In millions)", "2019", "2018", "Net Operating Revenues", "37,266",
         "34,300", "Cost of goods sold", "14,619", "13,067"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's total revenue in fiscal 2019?", [2]).text == \
        "Net Operating Revenues, 2019: 37,266 million — p. 2"


def test_a_unit_word_wrapped_onto_a_line_of_its_own_is_no_unit(engine, make_pdf):
    """Corning's balance sheet wraps "Shares issued: 1.8 billion and 1.8" / "billion" onto two lines: the lone
    "billion" made every row below it billions ("Total equity: $12,275 billion")."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Glass Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Balance Sheets", "(in millions, except share and per share amounts)", "2022", "2021",
         "Total liabilities", "17,224", "17,609", "Shareholders' equity:",
         "Common stock - Par value $0.50 per share; Shares authorized 3.8 billion; Shares issued: 1.8 billion and 1.8",
         "billion", "910", "907", "Total equity", "12,275", "12,545"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's total equity at the end of 2022?", [2]).text == \
        "Total equity, 2022: 12,275 million — p. 2"


def test_net_income_under_the_operating_cash_flow_heading_is_no_operating_income(engine, make_pdf):
    """Nike's cash flow statement prints "Net income" under "Cash provided (used) by operations:": the label and
    its heading hold "income" and "operations" apart, but the heading is the operating cash flow's name, so the
    row is no operating income (Nike prints none)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Apparel Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Cash Flows", "(Dollars in millions)", "2023", "2022",
         "Cash provided (used) by operations:", "Net income", "5,070", "6,046", "Depreciation", "703", "717",
         "Cash provided (used) by operations", "5,841", "5,188"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's operating income in fiscal 2023?", [2]) is None
    assert figure_answer(doc, "How much cash did Birch generate from operations in fiscal 2023?", [2]).text == \
        "Cash provided (used) by operations, 2023: $5,841 million — p. 2"


def test_two_groups_of_the_same_years_keep_their_four_columns(engine, make_pdf):
    """An earnings release prints "Three Months Ended" / "2022 2021" / "Twelve Months Ended" / "2022 2021": the
    second line of years is a second group of columns, not a header replacing a title's years (a review found the
    quarter read as the full year)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Games Fourth Quarter 2022 Results", "A letter to our shareholders about a year of growth."],
        ["Condensed Statements of Operations", "(in millions)", "Three Months Ended December 31,", "2022 2021",
         "Twelve Months Ended December 31,", "2022 2021", "Net revenues $ 2,500 $ 2,300 $ 9,800 $ 8,900",
         "Operating income 700 650 2,500 2,400"],
    ]), "birch.pdf")
    assert "9,800" in figure_answer(doc, "What were Birch's net revenues for the full year 2022?", [2]).text


def test_share_counts_under_a_per_share_heading_are_no_per_share_figures(engine, make_pdf):
    """"Weighted-average shares used to compute net income per share:" heads share counts, not per-share figures: a
    question naming only counts keeps them (a review found Boston Properties' count replaced by another entity's)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Realty Annual Report 2015", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Operations", "(in thousands, except per share data)", "2015", "2014",
         "Net income", "572,606", "433,148", "Weighted-average shares used to compute net income per share:",
         "Weighted average number of common shares outstanding", "153,471", "153,089", "Diluted", "153,901", "153,620"],
    ]), "birch.pdf")
    assert "153,471" in figure_answer(
        doc, "What was Birch's weighted average number of common shares outstanding in 2015?", [2]).text


def test_continuing_operations_before_taxes_is_the_pretax_income(engine, make_pdf):
    """Pfizer prints "Income from continuing operations before provision/(benefit) for taxes on income": a question
    asking the income from continuing operations before taxes gets it, not the after-tax line."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Pharma Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(MILLIONS)", "2022", "2021",
         "Income from continuing operations before provision/(benefit) for taxes on income", "34,729", "24,311",
         "Provision/(benefit) for taxes on income", "3,328", "1,852", "Income from continuing operations", "31,401",
         "22,459"],
    ]), "birch.pdf")
    assert "34,729" in figure_answer(
        doc, "What was Birch's income from continuing operations before taxes in 2022?", [2]).text
    assert "31,401" in figure_answer(doc, "What was Birch's income from continuing operations in 2022?", [2]).text


def test_a_label_naming_the_item_asked_by_another_name_keeps_its_words(engine, make_pdf):
    """"Regular quarterly cash dividends per share" holds "cash dividends", another line item's name, but the words
    of "dividends per share" are not all that name's: the row still answers dividends declared per share (a review
    found Best Buy's $2.80 withheld)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Dividends", "In fiscal 2022 we paid our regular quarterly cash dividend.", "Fiscal Year", "2022", "2021",
         "Regular quarterly cash dividends per share", "$2.80", "$2.20", "Cash dividends declared and paid", "$688",
         "$568"],
    ]), "birch.pdf")
    answer = engine.ask_document(doc, "What were Birch's dividends declared per share in fiscal 2022?")
    assert "2.80" in (answer.extra.get("direct_answer") or ""), answer.text


def test_the_items_name_split_between_a_label_and_its_heading_is_not_anothers(engine, make_pdf):
    """"Diluted" under "Net income per common share:" is the diluted EPS though the page's other lines name "net
    income" and "shares outstanding" whole: another item's names only count when one of them holds the item's whole
    name (the full suite found $2.58 lost to the share count 508)."""
    doc = engine.index_bytes(make_pdf([
        ["Harbor Corporation", "Annual Report 2023"],
        ["Consolidated Statements of Income", "(in millions, except per share amounts)", "2023 2022",
         "Net sales $ 21,400 $ 19,800", "Net income $ 1,310 $ 1,180", "Weighted-average common shares outstanding:",
         "Basic 500 500", "Diluted 508 511", "Net income per common share:", "Basic $ 2.62 $ 2.36",
         "Diluted $ 2.58 $ 2.31"],
    ]), "harbor.pdf")
    assert "2.58" in figure_answer(doc, "What were Harbor's diluted earnings per share in 2023?", [2]).text


def test_cash_the_operations_generated_is_the_operating_cash_flow_not_the_cash_balance(engine, make_pdf):
    """"How much cash did X's operations generate" holds "cash" and "operations" but not the lexicon's "cash from
    operations" (its linking word "from" is missing): every filing was answered with its year-end cash balance. A
    line item's name is found without its linking words, and not from another item's words ("cash" beside
    "operating income" stays the cash)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores, Inc.", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2023", "2022",
         "Cash provided by operating activities", "8,848", "9,832", "Capital expenditures", "(6,174)", "(6,763)",
         "Cash and cash equivalents at end of period", "6,856", "6,897"],
    ]), "birch.pdf")
    assert figure_answer(doc, "How much cash did Birch's operations generate in 2023?", [2]).text == \
        "Cash provided by operating activities, 2023: 8,848 million — p. 2"
    assert concepts("What were the cash balance and the operating income in 2023?") == ["cash", "operating income"]
    assert concepts("How much cash did Birch generate from operations and what was its operating income?") == \
        ["operating cash flow", "operating income"]  # "operations" is not the "operating" of the other item


def test_buying_back_shares_and_earning_name_their_line_items(engine, make_pdf):
    """"How much did X spend buying back its own shares" named no line item, nor did "How much did X earn": both
    fell back. Buying back shares is the repurchases of stock ("Purchase of Company stock"); to earn, with nothing
    after the verb but a period, is the net income (data/questions.json ``phrasings``: "how much revenue did X earn"
    asks the revenue, "how much did X earn from membership fees" the fees)."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores, Inc.", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(in millions)", "2023", "2022", "Net sales", "605,881", "567,762",
         "Consolidated net income", "11,680", "13,673"],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2023", "2022", "Dividends paid", "(6,114)",
         "(6,152)", "Purchase of Company stock", "(9,920)", "(9,787)"],
    ]), "birch.pdf")
    assert figure_answer(doc, "How much did Birch spend buying back its own shares in 2023?", [2, 3]).text == \
        "Purchase of Company stock, 2023: -9,920 million (printed (9,920)) — p. 3"
    assert figure_answer(doc, spelled_out("How much did Birch earn in 2023?"), [2, 3]).text == \
        "Consolidated net income, 2023: 11,680 million — p. 2"
    assert figure_answer(doc, spelled_out("How much revenue did Birch earn in 2023?"), [2, 3]).text == \
        "Net sales, 2023: 605,881 million — p. 2"
    # what the verb earns, when the question says it, is what is asked: no net income
    assert spelled_out("How much did Birch earn from membership fees in 2023?") == \
        "How much did Birch earn from membership fees in 2023?"
    assert spelled_out("How much did Birch earn before taxes in 2023?") == "How much did Birch earn before taxes in 2023?"


def test_a_unit_stated_in_the_sentence_above_a_table_is_its_unit(engine, make_pdf):
    """FedEx introduces its results with "The following table compares summary operating results (dollars in
    millions, except per share amounts):"; the unit was read only as "(in millions)", so "$3,972" lost its
    millions."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Express, Inc.", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["CONSOLIDATED RESULTS", "The following table compares summary operating results (dollars in millions, "
         "except per share amounts):", "2023", "2022", "Consolidated revenue", "90,155", "93,512",
         "Consolidated net income", "3,972", "3,826"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's consolidated net income in 2023?", [2]).text == \
        "Consolidated net income, 2023: $3,972 million — p. 2"


def test_a_change_columns_header_is_no_heading_that_makes_a_row_a_rate(engine, make_pdf):
    """FedEx's capital expenditures table prints "2023", "2022", "Percent Change" over its rows; that header was
    taken for the heading the rows sit under, whose "percent" made "Total capital expenditures" a rate without the
    table's millions."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Express, Inc.", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["CAPITAL RESOURCES", "Capital expenditures by asset category (in millions):", "2023", "2022",
         "Percent Change", "Aircraft and related equipment", "$", "1,684 $", "2,273", "(26 )", "Vehicles and trailers",
         "719", "717", "—", "Total capital expenditures", "$", "6,174 $", "6,763", "(9 )"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What were Birch's total capital expenditures in 2023?", [2]).text == \
        "Total capital expenditures, 2023: $6,174 million — p. 2"


def test_the_same_figure_is_cited_where_its_unit_is_printed(engine, make_pdf):
    """Costco's EPS note repeats "Net income attributable to Costco $5,844" under "(shares in 000's)", with no unit
    for the amount; ranked first, it gave "$5,844". The same line's same figure on the income statement, in
    millions, is the one cited."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Wholesale Corporation", "Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(amounts in millions)", "2022", "2021", "Net sales", "222,730",
         "192,052", "Net income attributable to Birch", "5,844", "5,007"],
        ["Note 9—Net Income per Common Share", "The following table shows the amounts used in computing net income "
         "per share (shares in 000's):", "2022", "2021", "Net income attributable to Birch", "$", "5,844", "$", "5,007",
         "Weighted average basic shares", "443,651", "443,089"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's net income in 2022?", [3, 2]).text == \
        "Net income attributable to Birch, 2022: 5,844 million — p. 2"


def test_profit_book_value_and_dividends_to_shareholders_name_their_items(engine, make_pdf):
    """The third round of analyst wordings: "How much profit did X make" (the net income; not a segment's profit nor
    a margin), "the book value of X's equity" (the shareholders' equity, not "Net bookings"), and "pay
    its shareholders in dividends" (every dividend is paid to shareholders: the word asks nothing the label must
    print) all fell back or named another line."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Stores, Inc.", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Income", "(in millions)", "2023", "2022", "Net bookings", "8,354", "8,700",
         "Gross profit", "21,479", "19,962", "Net income", "5,070", "6,046"],
        ["Consolidated Balance Sheets", "(in millions)", "2023", "2022", "Total assets", "37,531", "40,321",
         "Total shareholders' equity", "14,004", "15,281"],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2023", "2022", "Dividends paid on common stock",
         "(2,012)", "(1,837)"],
    ]), "birch.pdf")
    assert figure_answer(doc, spelled_out("How much profit did Birch make in 2023?"), [2, 3, 4]).text == \
        "Net income, 2023: 5,070 million — p. 2"
    for other in ("What was Birch's Aeronautics profit in 2023?", "How much profit did Birch's Aeronautics segment make?",
                  "How much did Birch's Domestic segment earn in 2023?", "What was Birch's profit from Comirnaty in 2023?",
                  "What was Birch's profit margin in 2023?", "What was Birch's gross profit in 2023?"):
        assert spelled_out(other) == other  # a segment's, a product's profit, a margin, the gross profit
    assert figure_answer(doc, "What was the book value of Birch's equity at the end of 2023?", [2, 3, 4]).text == \
        "Total shareholders' equity, 2023: 14,004 million — p. 3"
    assert figure_answer(doc, "How much did Birch pay its shareholders in dividends during 2023?", [2, 3, 4]).text == \
        "Dividends paid on common stock, 2023: -2,012 million (printed (2,012)) — p. 4"


def test_a_count_is_not_read_from_a_label_whose_counted_word_qualifies_another_thing(engine, make_pdf):
    """FedEx's executive officers table wraps "Executive Vice President — Chief" / "People Officer" / "60": the row
    "People Officer: 60" (an age) answered how many people FedEx employs. The counted thing is a label's head word
    (the last before a bracket or a preposition: "Number of employees", "Employees at year end"); here it is the
    officer."""
    from alphasearch.read.kinds import _counts_item

    doc = engine.index_bytes(make_pdf([
        ["Birch Express Corporation", "Annual Report 2023", "A letter to our shareholders about a year of growth."],
        ["Information About Our Executive Officers", "Name and Office", "Age", "Positions", "Tracy B. Brightman",
         "Executive Vice President — Chief", "People Officer", "60", "Executive Vice President since June 2023.",
         "Mark R. Allen", "Executive Vice President — General", "Counsel and Secretary", "67",
         "General Counsel since 2017."],
    ]), "birch.pdf")
    assert figure_answer(doc, "How many people did Birch employ at the end of 2023?", [2]) is None
    assert figure_answer(doc, "What was Birch's number of employees in 2023?", [2]) is None
    question = "How many people did Birch employ at the end of 2023?"
    assert all(_counts_item(question, label) for label in (
        "Employees", "Number of employees at year end", "Employees (in thousands)", "Total workforce", "Associates",
        "Employees globally", "Employees outside the U.S."))
    assert _counts_item("How many weighted-average shares outstanding did Birch have?",
                        "Weighted-average shares outstanding - basic")
    assert not _counts_item(question, "Employee benefits")


def test_a_label_repeated_without_year_columns_states_no_year_asked(engine, make_pdf):
    """Pfizer's statement of equity prints a block per year, each with its "Net income" row and no year columns:
    the first block's (2020) was stated as 2022's net income. A label printed more than once on a page with other
    figures and no year columns cannot tell its year; the income statement's row, in its year's column, can."""
    doc = engine.index_bytes(make_pdf([
        ["Birch Pharma Inc.", "Annual Report 2022", "A letter to our shareholders about a year of growth."],
        ["Consolidated Statements of Equity", "(millions)", "Balance, January 1, 2020", "63,143", "Net income", "9,159",
         "Balance, December 31, 2020", "63,238", "Net income", "21,979", "Balance, December 31, 2021", "77,201",
         "Net income", "31,372", "Balance, December 31, 2022", "95,661"],
        ["Consolidated Statements of Income", "(millions)", "2022", "2021", "Revenues", "100,330", "81,288",
         "Net income", "31,372", "21,979"],
    ]), "birch.pdf")
    assert figure_answer(doc, "What was Birch's net income in 2022?", [2, 3]).text == \
        "Net income, 2022: 31,372 million — p. 3"
    assert figure_answer(doc, "What was Birch's net income in 2022?", [2]) is None
