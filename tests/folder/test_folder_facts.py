"""Folder questions that name a company, a period or a kind reach the document that has them; a question
that could mean several documents names the others; a follow-up narrows to one (generated filings)."""
from __future__ import annotations

import pytest

from alphasearch.config import Settings
from alphasearch.folder.search import FolderSearch
from alphasearch.pipeline import Engine
from folder_helpers import build_library
from pdf_factory import filings_folder


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    e = Engine(Settings(data_dir=tmp_path_factory.mktemp("filings"), engine="offline"))
    build_library(e.library)  # other folders too, so Phase 0 has a choice
    e.library.create_folder("Harrow filings")
    e.library.add_many("Harrow filings", list(filings_folder().items()))
    return e


def test_the_fiscal_year_picks_the_10k(engine):
    a = engine.ask_folder("What were Harrow Instruments' FY2018 capital expenditures in the 10-K?")
    assert a.extra["folder"] == "Harrow filings"
    assert a.extra["documents"][0] == "filing-a.pdf"
    assert a.doc_pages[0][0] == "filing-a.pdf" and "312 million" in a.text
    why = a.folder_trace.why["filing-a.pdf"]
    assert why["facts"] == ["org", "year", "kind"] and why["facts_score"] == 1.0
    assert why["label"] == "Harrow Instruments Corporation · 10-K · FY2018"
    assert a.folder_trace.why["filing-b.pdf"]["facts_score"] < 1.0
    assert "also_found_in" not in a.extra  # the question says which one


def test_the_same_question_for_2020_picks_the_2020_10k(engine):
    a = engine.ask_folder("What were Harrow Instruments' FY2020 capital expenditures in the 10-K?")
    assert a.extra["documents"][0] == "filing-b.pdf" and "377 million" in a.text


def test_quarterly_reaches_the_10q(engine):
    a = engine.ask_folder("What were Harrow Instruments' quarterly capital expenditures?", folder="Harrow filings")
    assert a.extra["documents"][0] == "filing-c.pdf"
    assert a.folder_trace.why["filing-c.pdf"]["facts"] == ["org", "kind"]


def test_without_facts_the_content_decides_as_before(tmp_path):
    e = Engine(Settings(data_dir=tmp_path, engine="offline", facts_weight=0.0))
    e.library.create_folder("Harrow filings")
    e.library.add_many("Harrow filings", list(filings_folder().items()))
    a = e.ask_folder("What were Harrow Instruments' FY2018 capital expenditures in the 10-K?")
    assert all(w["facts"] == [] for w in a.folder_trace.why.values())


def test_a_company_without_a_year_names_the_other_filings_and_a_follow_up_narrows(engine):
    a = engine.ask_folder("What were Harrow Instruments' capital expenditures according to the annual report?",
                          conversation="c1")
    also = [x["doc"] for x in a.extra["also_found_in"]]
    assert {a.extra["documents"][0], *also} == {"filing-a.pdf", "filing-b.pdf"}
    assert "Also found in: " in a.text and "FY20" in a.text
    assert a.folder_trace.alternatives == also
    b = engine.ask_folder("the 2020 one", conversation="c1")
    assert b.extra["folder"] == "Harrow filings"
    assert b.extra["documents"][0] == "filing-b.pdf" and "377 million" in b.text
    assert "also_found_in" not in b.extra


def test_a_chosen_alternative_is_searched_alone(engine):
    a = engine.ask_folder("What were capital expenditures?", folder="Harrow filings", documents=["FILING-B.pdf"])
    assert a.extra["documents"] == ["filing-b.pdf"] and "377 million" in a.text


def test_this_paper_in_a_folder_of_filings_reaches_the_paper(engine):
    a = engine.ask_folder("How many sensors does this paper use?", folder="Harrow filings")
    assert a.extra["documents"][0] == "paper.pdf"
    assert a.folder_trace.why["paper.pdf"]["facts"] == ["kind"]


def test_a_year_alone_does_not_pull_a_question_into_the_filings_folder(engine):
    profiles = FolderSearch(engine).profiles()  # FY2018 is one of the filings' facts; a year is no company
    routing = engine.router.route("Which mount tracks stars across the night sky, as observed in 2018?", profiles)
    assert routing.folder == "Astronomy"


def test_this_paper_in_a_folder_of_papers_answers_from_one_and_names_the_other(tmp_path):
    from pdf_factory import paper_pdf, second_paper_pdf

    e = Engine(Settings(data_dir=tmp_path, engine="offline"))
    e.library.create_folder("Papers")
    e.library.add_many("Papers", [("glacier.pdf", paper_pdf()), ("marmots.pdf", second_paper_pdf())])
    a = e.ask_folder("Who wrote this paper?")
    also = [x["doc"] for x in a.extra["also_found_in"]]
    assert {a.extra["documents"][0], *also} == {"glacier.pdf", "marmots.pdf"}
    assert "Also found in: " in a.text and "(paper)" in a.text
    b = e.ask_folder("How many marmots did this paper count?")  # the content says which one
    assert b.extra["documents"][0] == "marmots.pdf" and "also_found_in" not in b.extra


def test_a_year_without_a_quarter_prefers_the_annual_report_to_a_10q_of_that_year(engine):
    """FY2020 is a whole year: the 10-K for it fits; the 10-Q of a 2020 quarter holds only part of it,
    so it is neither chosen first nor named as meant equally."""
    a = engine.ask_folder("What were Harrow Instruments' FY2020 net sales?", folder="Harrow filings")
    assert a.extra["documents"][0] == "filing-b.pdf"
    why = a.folder_trace.why
    assert why["filing-b.pdf"]["facts_score"] == 1.0 > why["filing-c.pdf"]["facts_score"]
    assert "filing-c.pdf" not in [x["doc"] for x in a.extra.get("also_found_in", ())]
    q = engine.ask_folder("What were Harrow Instruments' net sales in the second quarter of 2020?",
                          folder="Harrow filings")
    assert q.extra["documents"][0] == "filing-c.pdf" and q.folder_trace.why["filing-c.pdf"]["facts_score"] == 1.0
