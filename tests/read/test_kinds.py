"""A figure of the kind asked (alphasearch/read/kinds.py) and a count stated in a sentence wherever the
document states it (count_sentence in alphasearch/answer/counts.py), on literal statement pages: the
diluted share count is no diluted EPS, an amount of money no headcount, neither are 2005's employees nor the
35 million people the ferries carried, and "we employed approximately 12,300 people" on a page the search did
not rank first answers "how many people did Harbor employ"."""
from __future__ import annotations

from dataclasses import replace

import pytest

from alphasearch.answer.extractive import extractive_answer
from alphasearch.models import Page
from alphasearch.read.direct import figure_answer

INCOME = """Harbor Corporation
Consolidated Statements of Income
(in millions, except per share amounts)
2022 2021
Net sales $ 21,400 $ 19,800
Employee benefits $ 640 $ 600
Net income $ 1,310 $ 1,180
Weighted-average common shares outstanding:
Basic 500 500
Diluted 508 511
Net income per common share:
Basic $ 2.62 $ 2.36
Diluted $ 2.58 $ 2.31"""

BALANCE = """Harbor Corporation
Consolidated Balance Sheets
(in millions)
2022 2021
Cash and cash equivalents $ 4,810 $ 3,920
Total assets $ 15,460 $ 14,150"""

PEOPLE = """Human Capital
Our people are the foundation of our business. Each of our 401(k) plans for associates matches contributions
up to 6% of pay. As of December 31, 2022, Harbor employed approximately 12,300 people worldwide, of whom
approximately 4,100 were located in the United States. Of these employees, 38 percent were women.
Harbor was named a 2022 5-Star Employer by a national survey of workplaces."""

OLDER = """Our History
Harbor was founded in 1998. By the end of 2005 we had 2,000 employees in three countries.
In 2022 our ferries carried an estimated 35 million people between the islands."""


@pytest.fixture
def filing(doc):
    pages = (Page(1, INCOME), Page(2, BALANCE), Page(3, OLDER), Page(4, PEOPLE))
    return replace(doc, doc_id="literal-kinds", name="harbor-kinds.pdf", pages=pages)


def test_diluted_eps_is_the_per_share_row_not_the_diluted_share_count(filing):
    got = figure_answer(filing, "What were Harbor's diluted earnings per share in fiscal 2022?", [1, 2])
    assert got is not None and "2.58" in got.text and "508" not in got.text, got.text


@pytest.mark.parametrize("question", [
    "How many people did Harbor employ at the end of fiscal 2022?",
    "How many people did Harbor Corporation employ in 2022?",
])
def test_a_headcount_is_the_sentence_that_counts_people_wherever_it_stands(filing, question, df_of):
    ex = extractive_answer(filing, question, [1, 2, 3], df_of(filing))  # the Human Capital page is not read first
    assert not ex.fallback and ex.direct is not None
    assert "12,300" in ex.direct.text and ex.direct.text.endswith("p. 4"), ex.direct.text
    assert "$640" not in ex.text and "640 million" not in ex.text  # an amount of money is no headcount
    # another year's count, and people counted who are not employed, are read first and passed over


def test_no_count_is_stated_when_no_sentence_counts_what_is_asked(filing, df_of):
    without = replace(filing, doc_id="literal-kinds-none", pages=filing.pages[:2])
    ex = extractive_answer(without, "How many people did Harbor employ at the end of fiscal 2022?", [1, 2],
                           df_of(without))
    assert ex.direct is None or not any(n in ex.direct.text for n in ("640", "500", "508")), ex.direct.text


def test_how_many_percent_asks_for_a_share(filing):
    from alphasearch.read.kinds import fits_kind
    from alphasearch.read.rows import Figure
    from alphasearch.read.tables import Cell

    share = Figure("Women in the workforce", "2022", Cell("38%", 38.0, percent=True), "", "", 4, "Women 38%", 1.0)
    assert fits_kind("How many percent of Harbor's employees were women in 2022?", share)
    assert not fits_kind("How many people did Harbor employ in 2022?", share)


TAXES = """Harbor Corporation
Consolidated Statements of Income
(in millions, except per share amounts)
2022 2021
Effective income tax rate 21.0% 20.5%
Provision for income taxes $ 410 $ 380
Net income for diluted earnings per share $ 1,310 $ 1,180
Earnings per share:
Diluted $ 2.58 $ 2.31"""


def test_an_amount_asked_is_not_the_rate_beside_it_and_eps_is_printed_with_cents(filing):
    taxes = replace(filing, doc_id="literal-taxes", pages=(Page(1, TAXES),))
    got = figure_answer(taxes, "What was Harbor's income tax expense for fiscal 2022?", [1])
    assert got is not None and "410" in got.text and "%" not in got.text, got.text
    assert "21" in figure_answer(taxes, "What was Harbor's effective income tax rate in 2022?", [1]).text
    got = figure_answer(taxes, "What were Harbor's diluted earnings per share in fiscal 2022?", [1])
    assert got is not None and "2.58" in got.text, got.text


def test_a_rate_is_no_answer_to_a_statements_amount():
    from alphasearch.read.kinds import fits_kind
    from alphasearch.read.rows import Figure
    from alphasearch.read.tables import Cell

    rate = Figure("Effective income tax expense rate", "2023", Cell("6.8%", 6.8, percent=True), "", "", 99,
                  "Effective income tax expense rate 6.8%", 0.75)
    assert not fits_kind("What was Oracle's income tax expense for fiscal 2023?", rate)
    assert fits_kind("What was Oracle's effective income tax rate for fiscal 2023?", rate)
    assert fits_kind("What was Oracle's operating margin in fiscal 2023?", rate)


def test_share_counts_eps_under_a_subheading_and_returns_are_of_the_kind_asked():
    """A review's cases: the diluted share count answers "how many diluted shares" (a count a money table prints
    in millions), EPS printed with cents under "Continuing operations:" is per share, and a return on equity is
    a rate."""
    from alphasearch.read.kinds import fits_kind
    from alphasearch.read.rows import Figure
    from alphasearch.read.tables import Cell

    shares = Figure("Diluted", "2023", Cell("15,812", 15812.0), "millions", "$", 1, "Diluted 15,812 16,326", 1.0)
    assert fits_kind("How many diluted shares were outstanding in 2023?", shares)
    assert not fits_kind("What were diluted earnings per share in 2023?", shares)
    eps = Figure("Diluted", "2023", Cell("6.13", 6.13), "millions", "$", 1, "Diluted $ 6.13", 1.0)
    assert fits_kind("What was diluted EPS in 2023?", eps)
    roe = Figure("Return on average equity", "2023", Cell("12.3%", 12.3, percent=True), "", "", 1, "ROE 12.3%", 1.0)
    assert fits_kind("What was the return on equity in 2023?", roe)


def test_a_whole_number_beside_cents_in_a_per_share_row_is_no_eps(filing):
    """An EPS computation table prints income, shares and the per-share amount side by side under each year
    ("DILUTED EARNINGS PER SHARE $ 43 668 $ 0.06"); its columns were unnamed, the first cell was read, and the
    battery stated AES's diluted EPS as $43."""
    table = """Note 27 Earnings per share
Year Ended December 31,
(in millions, except per share data)
2022 2021
Income Shares $ per Share Income Shares $ per Share
BASIC EARNINGS PER SHARE $ 43 665 $ 0.06 $ 302 664 $ 0.46
DILUTED EARNINGS PER SHARE $ 43 668 $ 0.06 $ 302 667 $ 0.45"""
    eps = replace(filing, doc_id="literal-eps-table", pages=(Page(1, table),))
    got = figure_answer(eps, "What were Harbor's diluted earnings per share in fiscal 2022?", [1])
    assert got is None or ("43" not in got.text.split("—")[0] and "668" not in got.text), got.text


PLANS = """Benefit Plans
Harbor sponsors 2 employee benefit plans and 3 employee stock purchase programs for its staff.
The plans are described in Note 12."""


def test_a_noun_that_modifies_another_is_not_what_is_counted(filing, df_of):
    """'2 employee benefit plans' counts plans, not employees: a singular noun after a number above one is a
    modifier of the noun that follows it. 'approximately 12,300 people' (a plural that takes no -s) still counts."""
    from alphasearch.answer.counts import count_of, counted

    employees = counted("How many employees did Harbor have in 2022?")
    assert count_of("Harbor sponsors 2 employee benefit plans for its staff.", employees) is None
    assert count_of("Harbor had 1 employee in 2022.", employees) == 1.0
    assert count_of("Harbor employed 12,300 employees at year end.", employees) == 12_300.0
    assert count_of("We had 900 staff worldwide.", counted("How many people did Harbor employ?")) == 900.0
    miles = counted("How many square miles does Hamilton County cover?")  # a counted phrase of two words
    assert count_of("Hamilton County covers approximately 538 square miles.", miles) == 538.0
    plans = replace(filing, doc_id="literal-kinds-plans", pages=filing.pages[:2] + (Page(3, PLANS),))
    ex = extractive_answer(plans, "How many employees did Harbor have in 2022?", [1, 2], df_of(plans))
    assert ex.direct is None or not any(n in ex.direct.text for n in (" 2 ", " 3 ")), ex.direct.text


LAND = """Land Area Rezoned by Borough, 2003-2007
Borough Land area (sq ft) Share of land area rezoned
The Bronx 980,000,000 18.4%
Brooklyn 1,960,000,000 21.0%"""


def test_a_percentage_asked_is_not_an_amount_nor_a_number_above_100(filing):
    """eval-more's "What percentage of land area was rezoned in the Bronx" was answered "The Bronx: 980,000,000"."""
    land = replace(filing, doc_id="literal-land", pages=(Page(1, LAND),))
    got = figure_answer(land, "What percentage of land area was rezoned in the Bronx from 2003-2007?", [1])
    assert got is None or "980,000,000" not in got.text, got.text
    got = figure_answer(land, "What was the land area of the Bronx in square feet?", [1])
    assert got is not None and "980,000,000" in got.text
    got = figure_answer(filing, "What percentage of net sales was Harbor's net income in 2022?", [1])
    assert got is None or "$" not in got.text.split("=")[0] or "/" in got.text, got.text  # a ratio, not an amount


HIRED = """Human Capital
During 2021, Harbor hired more than 10,000 employees, despite the continuing challenges of the pandemic.
Our recruiting teams attended 400 career fairs."""

WORKFORCE = """Workforce Demographics
As of December 31, 2021, Harbor had a highly skilled workforce made up of approximately 114,000 employees, including
approximately 59,000 engineers and scientists."""


def test_a_headcount_is_not_the_number_hired(doc, df_of):
    """Lockheed Martin's "How many people did it employ at the end of fiscal 2021?" was answered "During 2021, we hired
    more than 10,000 employees" from the page read first; the headcount (114,000) stood on a page not read. A count a
    flow word governs is what changed, not how many there were — unless the question asks what changed."""
    pages = (Page(1, HIRED), Page(2, WORKFORCE))
    page = replace(doc, doc_id="literal-hired", name="harbor-hired.pdf", pages=pages)
    employed = extractive_answer(page, "How many people did Harbor employ at the end of fiscal 2021?", [1],
                                 df_of(page))
    assert employed.direct is not None and "114,000" in employed.direct.text, employed.direct
    hired = extractive_answer(page, "How many people did Harbor hire in 2021?", [1], df_of(page))
    assert hired.direct is not None and "10,000" in hired.direct.text, hired.direct
