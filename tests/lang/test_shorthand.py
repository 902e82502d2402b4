"""An analyst's shorthand is written out before the question is read (alphasearch/lang/questions.py
``spelled_out``, the words in data/questions.json): "total liabs, $mm" found no row, since no page says "liabs"."""
from __future__ import annotations

import pdf_factory
from alphasearch.lang.questions import spelled_out
from alphasearch.pdf import TextBlock


def test_shorthand_is_written_out_as_whole_words_only():
    assert spelled_out("COST FY21 total liabs, $mm?") == "COST FY21 total liabilities, $ millions?"
    assert spelled_out("AMZN FY17 ETR? LT debt, YE") == "AMZN FY17 effective tax rate? long-term debt, year-end"
    assert spelled_out("adj. EBITDA q/q") == "adjusted EBITDA quarter over quarter"
    assert spelled_out("What is the op-ed about? Is it a stmt-free liability?") == \
        "What is the op-ed about? Is it a stmt-free liability?"  # part of a hyphenated word: as written
    assert spelled_out("WHAT IS THE ST. LOUIS OFFICE'S NI?") == "WHAT IS THE ST. LOUIS OFFICE'S NI?"  # all capitals
    chart = ["Listening time, Avg. weekly hours", "2013 19 2014 25"]
    assert spelled_out("Avg. weekly hours in 2014?", lambda: chart) == "Avg. weekly hours in 2014?"  # as printed


def _balance_sheet() -> bytes:
    prose = "The company designs and sells industrial pumps and valves to customers in North America and Europe."
    sheet = [TextBlock("Acme Pumps Inc.", 12, True), TextBlock("Consolidated Balance Sheets", 12, True),
             "(in millions)", "December 31, 2022 2021",
             "Total current assets 4,210 3,980", "Property and equipment, net 2,115 2,020", "Total assets 9,870 9,410",
             "Accounts payable 1,020 990", "Total current liabilities 2,340 2,210", "Long-term debt 3,150 3,400",
             "Total liabilities 6,015 6,120", "Total shareholders' equity 3,855 3,290",
             "Total liabilities and shareholders' equity 9,870 9,410"]
    return pdf_factory.make_pdf([[TextBlock("Acme Pumps Inc. Annual Report 2022", 18, True), prose], sheet, [prose]])


def test_a_question_in_shorthand_gets_the_row_it_means(engine):
    doc = engine.index_bytes(_balance_sheet(), "acme_2022.pdf")
    answer = engine.ask_document(doc, "Acme FY22 total liabs, $mm?").extra.get("direct_answer", "")
    assert "6,015" in answer, answer
    debt = engine.ask_document(doc, "Acme LT debt at YE 2022?").extra.get("direct_answer", "")
    assert "3,150" in debt, debt


def test_headcount_is_asked_as_the_number_of_employees(engine):
    """"What was X's headcount?" was read as a search for the word: the pages that print it ("an increase in
    headcount") came first and the count was not found; jargon is written out even where the document prints it."""
    assert spelled_out("What was AMD's Headcount in 2020?", lambda: ["an increase in headcount"]) == \
        "What was AMD's number of employees in 2020?"
    # a cause or a cost's, as printed: "how much did personnel costs increase due to higher headcount"
    asked = "How much did personnel costs increase in 2021 due to higher headcount?"
    assert spelled_out(asked, lambda: ["an increase in headcount"]) == asked
    pages = [[TextBlock("Acme Pumps Inc. Annual Report 2022", 18, True), "A letter to our shareholders."],
             ["Results of operations", "Personnel costs rose by $376.0 million, related to an increase in headcount "
              "among our engineering teams."],
             ["Human capital", "As of December 31, 2022, we had approximately 12,600 employees in our global workforce."]]
    doc = engine.index_bytes(pdf_factory.make_pdf(pages), "acme_people.pdf")
    answer = engine.ask_document(doc, "What was Acme's headcount in 2022?")
    assert "12,600" in (answer.extra.get("direct_answer") or ""), answer.text
