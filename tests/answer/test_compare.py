"""Comparison questions: the options a question names, each matched to a row of a generated statement
of cash flows, compared in the year asked; the answer a person reads names the winner and every figure."""
from __future__ import annotations

import pytest

from alphasearch.answer.compare import compared_answer, direction, options
from pdf_factory import cash_flow_pdf

AMONG = "Among operating, investing and financing activities, which brought in the most cash in {}?"


@pytest.fixture
def doc(engine):
    return engine.index_bytes(cash_flow_pdf(), "harbor-cash.pdf")


def test_options_and_direction_are_read_from_the_question():
    assert options(AMONG.format(2022)) == ["operating", "investing", "financing activities"]
    assert options("Which had higher revenue in 2022: Cloud or Devices?") == ["Cloud", "Devices"]
    assert options("Between Cloud and Devices, which segment grew more?") == ["Cloud", "Devices"]
    assert options("What was total revenue in 2022?") == []
    assert direction(AMONG.format(2022)) == ("most", False)
    assert direction("Which of investing or financing activities used the least cash?") == ("least", True)
    assert direction("Which of A or B had the lowest revenue?") == ("least", False)
    assert direction("What was total revenue in 2022?") is None


@pytest.mark.parametrize("year, winner, figure", [("2022", "operating", "$3,252 million"),
                                                  ("2021", "operating", "$1,824 million")])
def test_the_option_with_the_most_in_the_year_asked_leads_with_every_figure(engine, doc, year, winner, figure):
    got = compared_answer(doc, AMONG.format(year), [2])
    assert got is not None and got.kind == "comparison"
    assert got.text.startswith(f"Net cash provided by {winner} activities: {figure}, the most of the three in {year}")
    assert "investing activities: -$" in got.text and "financing activities: -$" in got.text and got.text.endswith("p. 2")
    answer = engine.ask_document(doc, AMONG.format(year))
    assert answer.text.startswith(got.text)  # what the person reads first


def test_least_compares_signed_figures_and_an_outflow_compares_what_went_out(doc):
    lowest = compared_answer(doc, "Which of investing or financing activities had the lowest figure in 2020?", [2])
    assert lowest.text.startswith("Net cash used in investing activities: -$4,788 million, the least of the two")
    spent = compared_answer(doc, "Which of investing or financing activities used the least cash in 2020?", [2])
    assert spent.text.startswith("Net cash used in financing activities: -$876 million, the least of the two")


def test_no_answer_unless_every_option_has_a_row_on_one_page(doc):
    assert compared_answer(doc, "Among operating, investing and lending activities, which brought in the most "
                                "cash in 2022?", [1, 2]) is None
    assert compared_answer(doc, "What was net income in 2022?", [2]) is None
