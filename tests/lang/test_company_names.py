"""A company's legal suffix is no word to search for (alphasearch/lang/questions.py ``clean_question``,
``name_suffixes`` of data/questions.json): "How much cash did FedEx Corporation's operations generate" ranked the
cover page first, the one page that prints "Corporation" beside the name, and the answer fell back."""
from __future__ import annotations

from alphasearch.lang.questions import clean_question


def test_the_legal_suffix_of_a_name_is_left_out():
    assert clean_question("How much cash did FedEx Corporation's operations generate in 2023?") == \
        "How much cash did FedEx's operations generate in 2023?"
    assert clean_question("What was Apple Inc.'s revenue?") == "What was Apple's revenue?"
    assert clean_question("Did Best Buy Co., Inc. pay dividends?") == "Did Best Buy pay dividends?"
    assert clean_question("What was 3M Company capex in 2018?") == "What was 3M capex in 2018?"


def test_the_word_is_kept_where_it_names_no_company():
    assert clean_question("Which company had the most employees?") == "Which company had the most employees?"
    assert clean_question("What did The Company report as revenue?") == "What did The Company report as revenue?"
    assert clean_question("How many corporation tax filings were made?") == "How many corporation tax filings were made?"
    # a suffix inside another entity's name, or before more of it, tells one entity from another
    for kept in ("What was Boston Properties Limited Partnership's net income in 2015?",
                 "What was AES's Parent Company Liquidity?", "What were McDonald's Company operated sales?",
                 "Who owns Aetna Life Insurance Company?", "In 2022, Company revenue rose by how much?"):
        assert clean_question(kept) == kept
