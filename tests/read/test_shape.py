"""A direct line has the shape of the answer asked (alphasearch/answer/shape.py): one table figure is no list,
no comparison, no name of the segment with the lowest revenue and no count of charts; a sentence stating one
figure is no answer to "when"; a count of shares is not the money a cash-flow row prints; and a figure question
that no line of the pages read answers falls back, the closest passages shown as what was read."""
from __future__ import annotations

from dataclasses import replace

import pytest

from alphasearch.answer.extractive import extractive_answer
from alphasearch.answer.shape import line_fits, shape
from alphasearch.models import Page

SEGMENTS = """Harbor Corporation
Net revenue by segment
(in millions)
2022 2021
Ferries $ 4,210 $ 3,980
Freight $ 2,730 $ 2,515
Corporate $ (473) $ (120)
Total net revenue $ 6,467 $ 6,375"""

SALES = """Sales growth
Sales in the U.S. increased 3.0% in 2022 while international sales decreased 0.6%.
Worldwide sales increased 1.3% in 2022 on a reported basis."""

CASH_FLOWS = """Harbor Corporation
Consolidated Statements of Cash Flows
(in millions)
2022 2021
Net income $ 1,310 $ 1,180
Cash flows from financing activities
Repurchases of common stock (496) (196)
Dividends paid (1,498) (1,479)"""

EQUITY = """Note 9 Equity
Harbor repurchased shares of its common stock during 2022.
Shares repurchased (in thousands) 1,358 643"""

TWEETS = """Social media
Tweets referencing #Harbor had reached nearly 500,000 globally within a day of the incident.
The number of tweets passed 200,000 at 14:04 CET."""


@pytest.fixture
def harbor(doc):
    pages = (Page(1, SEGMENTS), Page(2, SALES), Page(3, CASH_FLOWS), Page(4, EQUITY), Page(5, TWEETS))
    return replace(doc, doc_id="literal-shapes", name="harbor-shapes.pdf", pages=pages)


@pytest.mark.parametrize("question, expected", [
    ("Which of Harbor's business segments had the lowest net revenue in 2022?", "pick"),
    # the superlative after its noun, no "the": the wording set's "… was net revenue smallest" got the total
    ("In which of Harbor's business segments was net revenue smallest in 2022?", "pick"),
    ("How did US sales growth compare to international sales growth in 2022?", "several"),
    ("What were the GDP growth amounts for the first and second quarters respectively?", "several"),
    ("What is the combined percentage of Album Sales % and Song Sales % for the Country genre?", "combined"),
    ("In the slides, how many charts compare the US and Europe?", "things"),
    ("What was Harbor's total net revenue in 2022?", None),
    ("What is the total of Netflix's current liabilities at year end FY2017?", None),
    ("What is the most recent quarterly dividend?", None),
])
def test_the_shape_of_the_answer_asked(question, expected):
    assert shape(question) == expected


def test_one_figure_is_not_the_segment_asked_for(harbor, df_of):
    ex = extractive_answer(harbor, "Which of Harbor's business segments had the lowest net revenue in 2022?", [1],
                           df_of(harbor))
    # before: "Total net revenue, 2022: $6,467 million" was the direct answer; no line here says which is lowest
    assert ex.direct is None, ex.direct.text


def test_a_comparison_is_answered_by_the_sentence_stating_both_figures(harbor, df_of):
    ex = extractive_answer(harbor, "How did Harbor's US sales growth compare to its international sales growth in "
                                   "2022?", [2, 1], df_of(harbor))
    assert ex.direct is not None and "3.0%" in ex.direct.text and "0.6%" in ex.direct.text, ex.direct
    assert line_fits("How did A compare to B?", "sentence", "A rose 3.0% and B fell 0.6%.")
    assert not line_fits("How did A compare to B?", "sentence", "Worldwide sales increased 1.3%.")
    assert not line_fits("How did A compare to B?", "figure", "Sales, 2022: 1.3% — p. 2")
    assert line_fits("How did A change from 2021 to 2022?", "figure", "Sales, 2022: 1.3% — p. 2")
    assert not line_fits("How did A compare to B?", "change", "Sales: change 2021→2022: 1.3%")  # one item's change
    assert line_fits("What is the difference between A's 2021 and 2022 sales?", "change", "Sales: change: 1.3%")


def test_a_count_of_shares_is_not_the_money_spent_on_them(harbor, df_of):
    ex = extractive_answer(harbor, "How many shares did Harbor repurchase in 2022?", [3, 4], df_of(harbor))
    assert "496" not in (ex.direct.text if ex.direct else ""), ex.direct.text
    spent = extractive_answer(harbor, "How much did Harbor spend on repurchases of common stock in 2022?", [3, 4],
                              df_of(harbor))
    assert spent.direct is not None and "496" in spent.direct.text, spent.direct  # the amount is still the amount


def test_when_is_answered_by_a_time_not_by_another_figure(harbor, df_of):
    ex = extractive_answer(harbor, "When did the number of tweets referencing Harbor exceed 200,000?", [5],
                           df_of(harbor))
    assert ex.direct is not None and "14:04" in ex.direct.text, ex.direct  # the time, not the 500,000 reached


def test_a_figure_no_line_states_falls_back_with_what_was_read(harbor, df_of):
    ex = extractive_answer(harbor, "How much did Harbor spend on research and development in 2022?", [1, 3],
                           df_of(harbor))
    assert ex.fallback and ex.direct is None, ex.text
    assert ex.structured["looked_at"]["pages"], ex.structured


ASSETS = """Harbor Corporation
Consolidated Balance Sheets
(in millions)
2022 2021
Total property and equipment, net $ 48,866 $ 29,114
Total assets $ 131,310 $ 83,402"""


def test_a_row_naming_one_of_two_line_items_asked_is_not_stated(doc):
    """'depreciation on property and equipment' names two line items; the balance sheet's 'Total property and
    equipment, net' names one, and its figure is the asset, not the expense (the wording set stated it)."""
    from alphasearch.read.direct import figure_answer

    sheet = replace(doc, doc_id="literal-two-items", pages=(Page(1, ASSETS),))
    got = figure_answer(sheet, "Harbor 2022 depreciation on property and equipment, $ billions?", [1])
    assert got is None or "48,866" not in got.text, got.text
    asked = figure_answer(sheet, "What was Harbor's total property and equipment, net in 2022?", [1])
    assert asked is not None and "48,866" in asked.text, asked  # one line item asked: the row answers


def test_a_change_of_two_years_answers_a_question_asked_versus_the_year_before(harbor, df_of):
    """"… in 2022 versus 2021" is a comparison of two years: the computed change, which shows both, answers it."""
    ex = extractive_answer(harbor, "How much did Harbor's total net revenue increase in 2022 versus 2021?", [1],
                           df_of(harbor))
    assert ex.direct is not None and "6,467" in ex.direct.text and "6,375" in ex.direct.text, ex.direct


def test_figures_with_commas_are_figures_and_a_page_citation_is_none():
    from alphasearch.answer.shape import figures_stated

    assert figures_stated("Gross margin $ 2,100 $ 1,950") == 2  # "1,950" is no year
    assert figures_stated("In 2022 and 2021 the margin held") == 0
    assert figures_stated("Reported sales, change: 1.3% — p. 1") == 1
    assert shape("What interest rate was the highest during 2022?") is None  # asks for the rate
    assert shape("How many maps did the company add?") is None  # a company's count, not the document's charts
    assert shape("Did revenue differ materially from guidance?") is None
    assert not line_fits("In the slides, how many tables are there?", "sentence", "The portfolio is stable at 12.")


def test_a_ratio_of_two_line_items_is_not_answered_by_one_of_them(doc):
    """'cash balance to total liability ratio' combines two line items: when the ratio cannot be computed, neither
    row is stated for it ('Cash and cash equivalents, 2017: $20,522 million' was, for Amazon's 0.198)."""
    from alphasearch.read.direct import figure_answer, names_every_item

    sheet = replace(doc, doc_id="literal-ratio", pages=(Page(1, ASSETS),))
    got = figure_answer(sheet, "What is Harbor's FY2022 property and equipment to total assets ratio?", [1])
    assert got is None or got.kind == "ratio", got.text
    assert not names_every_item("Cash and cash equivalents", ["cash", "total liabilities"],
                                "what is the cash balance to total liability ratio?")
    assert names_every_item("Interest expense", ["interest expense", "long-term debt"],
                            "What was interest expense on long-term debt in 2022?")


MIXED = """Sales growth
Full-year reported sales growth of 1.3% to $94.9 billion was driven by strong commercial execution."""

MEMBERS = """Membership
Our membership counts include active memberships as well as memberships that have not renewed within the 12 months
prior to the reporting date."""


def test_a_comparison_needs_two_figures_of_one_kind(doc, df_of):
    """"growth of 1.3% to $94.9 billion" states one growth and one amount: it compares no US growth with an
    international one (the wording set's JnJ question was answered by it)."""
    from alphasearch.answer.shape import figures_by_kind

    page = replace(doc, doc_id="literal-mixed", pages=(Page(1, MIXED),))
    ex = extractive_answer(page, "How did Harbor's US sales growth stack up against its international sales growth "
                                 "in 2022?", [1], df_of(page))
    assert ex.direct is None or "1.3%" not in ex.direct.text, ex.direct.text
    assert figures_by_kind("growth of 1.3% to $94.9 billion") == {"%": 1, "$": 1}
    assert figures_by_kind("US sales rose 3.0% and international sales fell 0.6 percent") == {"%": 2}
    assert line_fits("How did A compare to B?", "sentence", "A was $5.2 billion and B 4.8 billion.")
    assert not line_fits("How did A compare to B?", "sentence", "A grew 1.3% to $94.9 billion.")
    for both in ("A and B rose 3 and 5 percent, respectively.", "A and B were 5.2 and 4.8 billion, respectively.",
                 "A increased 3.0% while B decreased (0.6)%."):  # a unit printed once, a negative in brackets
        assert line_fits("How did A compare to B?", "sentence", both), both


def test_shares_repurchased_asked_without_how_many_is_no_money_row(harbor, df_of):
    ex = extractive_answer(harbor, "Harbor FY22 shares repurchased?", [3, 4], df_of(harbor))
    assert ex.direct is None or "496" not in ex.direct.text, ex.direct.text
    for money in ("How much was spent on shares repurchased by Harbor in 2022?",
                  "What was the total cost of shares repurchased by Harbor in 2022?"):
        spent = extractive_answer(harbor, money, [3, 4], df_of(harbor))
        assert spent.direct is not None and "496" in spent.direct.text, (money, spent.direct)  # money asked


def test_a_count_is_not_answered_by_a_span_of_time(doc, df_of):
    """"within the 12 months prior" states how long, not how many warehouses (the wording set stated it)."""
    page = replace(doc, doc_id="literal-members", pages=(Page(1, MEMBERS),))
    ex = extractive_answer(page, "How many Harbor memberships have not renewed?", [1], df_of(page))
    assert ex.direct is None or "12" not in ex.direct.text, ex.direct.text
    cycled = replace(doc, doc_id="literal-cycle", pages=(Page(1, "Working capital\nOur cash conversion cycle was 38 "
                                                                 "days, down from 41 days."),))
    cycle = extractive_answer(cycled, "What was Harbor's cash conversion cycle?", [1], df_of(cycled))
    assert cycle.direct is not None and "38 days" in cycle.direct.text, cycle.direct  # a cycle is a span of time
    long = extractive_answer(page, "How many months without renewal do Harbor's membership counts include?", [1],
                             df_of(page))
    assert long.direct is not None and "12 months" in long.direct.text, long.direct  # a span asked: it answers


CHART = """Harbor survey.
Higher-income seniors: go online, smartphone, tablet.
4 55 18 43 27
Source: Harbor survey, 2013."""


def test_a_line_of_figures_alone_names_nothing_and_is_no_answer(doc, df_of):
    """A chart's data run printed without a word ("4 55 18 43 27") was the direct line of a list question: it says
    nothing of what its figures are."""
    page = replace(doc, doc_id="literal-chart", pages=(Page(1, CHART),))
    ex = extractive_answer(page, "Among the higher-income Harbor seniors, what are the percentages of them that go "
                                 "online, have a smartphone and own a tablet, in a list?", [1], df_of(page))
    assert ex.direct is None or "4 55 18" not in ex.direct.text, ex.direct.text
    assert "4 55 18" not in ex.text, ex.text  # nor a quote


REZONING = """Harbor City rezoning.
For the Harbor boroughs we report the percentage of land area rezoned between 2003 and 2007 for all 59 community districts.
The rezonings of 2003-2007 changed the zoning of much of the land area of the Harbor boroughs."""


def test_a_percentage_asked_is_not_answered_by_a_sentence_stating_no_percentage(doc, df_of):
    """"What percentage of land area was rezoned …" had "we report the … percentage change … between 2003 and 2007 for
    all 59 community districts" as its direct line: 59 is a count of districts. A sentence stating the share is the direct line; a count asked
    with "percentage" elsewhere in the question ("how many districts had the highest percentage") is a count."""
    page = replace(doc, doc_id="literal-rezoning", pages=(Page(1, REZONING),))
    asked = "What percentage of land area was rezoned in the Harbor boroughs from 2003-2007?"
    ex = extractive_answer(page, asked, [1], df_of(page))
    assert ex.direct is None or "59" not in ex.direct.text, ex.direct.text
    stated = replace(doc, doc_id="literal-rezoning-stated", pages=(Page(1, REZONING.replace(
        "we report the percentage of land area rezoned between 2003 and 2007 for all 59 community districts",
        "18.4% of the land area was rezoned between 2003 and 2007, in all 59 community districts")),))
    ex = extractive_answer(stated, asked, [1], df_of(stated))
    assert ex.direct is not None and "18.4%" in ex.direct.text, ex.direct
    counted = extractive_answer(page, "How many community districts of the Harbor boroughs had the percentage "
                                      "of land area rezoned reported?", [1], df_of(page))
    assert counted.direct is not None and "59" in counted.direct.text, counted.direct


SHARES = {
    "trust": "Harbor survey of adults.\nTwo-thirds of the 2,000 adults surveyed said they trust local news.",
    "tv": "Harbor survey of adults.\nAbout 1 in 5 adults say they regularly get news on Harbor TV.",
    "margin": "Harbor results.\nGross margin expanded 150 basis points in 2022, driven by pricing.",
    "owners": "Security ownership of Harbor.\nThe Vanguard Group holds 45,200,000 shares of our common stock, more "
              "than 5% of the outstanding shares.\nDirectors and officers as a group hold less than 1% of our shares.",
    "contracts": "Harbor revenue recognition.\nUnder the percentage-of-completion method, revenue on our 35 long-term "
                 "contracts is recognized as costs are incurred.",
    "staff": "Harbor people.\nAt year end 2022 we had 12,000 employees in 14 countries.\nOur workforce is diverse.",
}


@pytest.mark.parametrize("key, question, stated", [
    ("trust", "What percentage of adults trust local news?", "Two-thirds"),  # a share in words
    ("tv", "What percentage of adults regularly get news on Harbor TV?", "1 in 5"),
    ("margin", "By what percentage did gross margin expand in 2022?", "150 basis points"),
    ("owners", "Who owns more than 5% of the outstanding shares?", "Vanguard"),  # a name asked, "5%" qualifies it
    ("contracts", "Which contracts use the percentage-of-completion method?", "35 long-term contracts"),  # a name
])
def test_a_share_in_other_words_answers_a_percentage_and_a_percent_sign_alone_asks_none(doc, df_of, key, question,
                                                                                         stated):
    """The percentage check (a sentence whose figures are counts or amounts does not answer "what percentage")
    passes a share stated without a percent sign, and a question that names a percentage without asking one."""
    page = replace(doc, doc_id=f"literal-shares-{key}", pages=(Page(1, SHARES[key]),))
    ex = extractive_answer(page, question, [1], df_of(page))
    assert ex.direct is not None and stated in ex.direct.text, (question, ex.direct)


def test_what_share_asks_a_percentage_not_the_count_it_is_a_share_of(doc, df_of):
    """"What share of the number of employees are women?" is no count of employees ("12,000 employees")."""
    page = replace(doc, doc_id="literal-shares-staff", pages=(Page(1, SHARES["staff"]),))
    for question in ("What share of the number of employees are women?",
                     "What proportion of the number of employees are women?"):
        ex = extractive_answer(page, question, [1], df_of(page))
        assert ex.direct is None or "12,000" not in ex.direct.text, (question, ex.direct)


BIRTHS = """Harbor births.
Births: 1940-1980 (Baby Boomer Generation in Peak) 4,500
Births peaked at 4,300 thousand in 1957 and again at 4,100 thousand in 1961."""


def test_a_line_repeating_the_figure_the_question_gives_does_not_answer_it(doc, df_of):
    """"How many years have there been more than 4,500 births?" had a chart's title ending on its axis label, "Births:
    1940-1980 … 4,500", as its direct line: the question's own figure, and "4,500" was read as the word "500". A
    line stating a figure of its own still answers, and "4,500" in a question is the page's "4,500"."""
    from alphasearch.lang.text import terms

    assert "4500" in terms("more than 4,500 births") and "500" not in terms("more than 4,500 births")
    page = replace(doc, doc_id="literal-births", pages=(Page(1, BIRTHS.split("\n", 2)[0] + "\n" +
                                                             BIRTHS.split("\n")[1]),))
    ex = extractive_answer(page, "How many years have there been more than 4,500 births (thousands)?", [1],
                           df_of(page))
    assert ex.direct is None or "4,500" not in ex.direct.text, ex.direct.text
    remote = replace(doc, doc_id="literal-remote", pages=(Page(1, "Harbor Model 2100 remote.\nThe Model 2100 "
                                                                 "remote needs two AA batteries, included in the box."),))
    two = extractive_answer(remote, "How many AA batteries does the Harbor Model 2100 remote need?", [1],
                            df_of(remote))
    assert two.direct is not None and "two AA batteries" in two.direct.text, two.direct  # its own figure, in words
    full = replace(doc, doc_id="literal-births-peak", pages=(Page(1, BIRTHS),))
    peak = extractive_answer(full, "How many births were there at the 1957 peak, in thousands?", [1], df_of(full))
    assert peak.direct is not None and "4,300" in peak.direct.text, peak.direct
