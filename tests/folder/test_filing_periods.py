"""A company's filings in one folder (issue 33): the period a question names picks its filing, "latest" is the
newest period, a quarter is read as fiscal or calendar and the answer says which, a trend question is answered
with one row per period (a missing period and a restated figure say so), and a table of contents' page numbers
are no figures. Generated filings of a company whose fiscal year ends in September (tests/period_filings.py)."""
from __future__ import annotations

import pytest

import period_filings
from alphasearch.config import Settings
from alphasearch.folder.search import answer_json
from alphasearch.index import periods
from alphasearch.index.facts import DocFacts
from alphasearch.pipeline import Engine


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    e = Engine(Settings(data_dir=tmp_path_factory.mktemp("orchard"), engine="offline"))
    e.library.create_folder("Orchard")
    e.library.add_many("Orchard", list(period_filings.folder().items()))
    return e


def _first_cited(a) -> str:
    return a.doc_pages[0][0]


def test_each_filing_knows_its_period_fiscal_quarter_and_calendar_quarter(engine):
    facts = engine.library.facts("Orchard")
    by_name = {d.name: facts[d.record_id] for d in engine.library.documents("Orchard")}
    q1, q2 = by_name["orchard-q1.pdf"], by_name["orchard-q2.pdf"]
    assert (q1.kind, q1.year, q1.quarter, q1.period_end) == ("10-Q", 2023, 1, "2022-12-31")
    assert periods.calendar_quarter(q1) == (2022, 4) and periods.calendar_quarter(q2) == (2023, 1)
    assert by_name["orchard-d.pdf"].label() == "Orchard Devices Inc. · 10-K · FY2023"


def test_the_latest_10q_is_the_newest_quarter_and_its_figure_is_stated(engine):
    a = engine.ask_folder("What were Orchard Devices' net sales in the latest 10-Q?", folder="Orchard")
    assert _first_cited(a) == "orchard-q3.pdf"
    assert a.extra["direct_answer"].startswith("Net sales") and "81,797" in a.extra["direct_answer"]
    assert "117,154" not in a.text and "94,836" not in a.text  # no other quarter's figure beside it


def test_the_most_recent_annual_report_is_the_newest_10k(engine):
    a = engine.ask_folder("What was research and development in Orchard's most recent annual report?",
                          folder="Orchard")
    assert _first_cited(a) == "orchard-d.pdf" and "29,915" in a.extra["direct_answer"]


def test_a_quarter_is_read_as_fiscal_first_and_the_answer_says_so(engine):
    a = engine.ask_folder("What were Orchard's net sales in Q1 2023?", folder="Orchard")
    assert _first_cited(a) == "orchard-q1.pdf" and "117,154" in a.extra["direct_answer"]
    assert "read as the fiscal quarter (the quarter ended December 31, 2022)" in a.text
    assert "calendar quarter Q1 2023 is the quarter ended April 1, 2023" in a.extra["period_note"]


def test_a_calendar_quarter_asked_as_such_is_the_filing_ending_in_it(engine):
    a = engine.ask_folder("What were Orchard's net sales in calendar Q1 2023?", folder="Orchard")
    assert _first_cited(a) == "orchard-q2.pdf" and "94,836" in a.extra["direct_answer"]
    assert "read as the calendar quarter: the quarter ended April 1, 2023, the company's fiscal Q2 2023" in a.text


def test_a_quarter_only_the_calendar_reading_finds_is_read_so(engine):
    a = engine.ask_folder("What were Orchard's net sales in Q4 2022?", folder="Orchard")
    assert _first_cited(a) == "orchard-q1.pdf" and "117,154" in a.extra["direct_answer"]
    assert "Q4 2022 read as the calendar quarter" in a.text


def test_a_period_named_by_its_end_date(engine):
    a = engine.ask_folder("What was R&D for the quarter ended April 1, 2023?", folder="Orchard")
    assert _first_cited(a) == "orchard-q2.pdf" and "7,457" in a.extra["direct_answer"]


def test_a_year_no_filing_covers_is_read_from_a_later_comparative_column_and_says_so(engine):
    a = engine.ask_folder("What was Orchard's research and development expense in fiscal 2021?", folder="Orchard")
    assert _first_cited(a) == "orchard-c.pdf" and "21,914" in a.extra["direct_answer"]
    assert "6,306" not in a.text  # the quarterly report's 2021 column is another period, not quoted beside it
    note = a.extra["period_note"]
    assert note.startswith("No filing in the folder covers 2021; it holds FY2019, FY2020, FY2022")
    assert "read from orchard-c.pdf, a filing of another period" in note


def test_a_trend_question_gets_one_row_per_period_oldest_first_with_gaps_and_restatements(engine):
    a = engine.ask_folder("How have Orchard's net sales changed over time?", folder="Orchard")
    rows = a.extra["series"]["rows"]
    assert [r["period"] for r in rows] == ["FY2019", "FY2020", "FY2021", "FY2022", "FY2023"]
    assert [r["printed"] for r in rows] == ["260,174", "274,515", "", "394,328", "383,285"]
    assert [r["doc"] for r in rows] == ["orchard-a.pdf", "orchard-b.pdf", "", "orchard-c.pdf", "orchard-d.pdf"]
    assert all(r["page"] == 4 for r in rows if r["doc"])
    assert rows[2]["value"] is None and rows[2]["note"] == "no filing for this year in the folder"
    assert rows[1]["change"] == pytest.approx(14_341) and rows[3]["change"] is None  # never across the gap
    assert rows[4]["change"] == pytest.approx(-11_043) and rows[4]["change_pct"] == pytest.approx(-2.8, abs=0.05)
    assert rows[3]["note"] == "restated as 394,112 in orchard-d.pdf (p. 4)"  # first reported, restatement noted
    assert "| FY2021 | — |  | no filing for this year in the folder |" in a.text
    assert [c.doc for c in a.citations] == ["orchard-a.pdf", "orchard-b.pdf", "orchard-c.pdf", "orchard-d.pdf"]
    assert answer_json(a, trace=False)["series"]["rows"][0]["value"] == 260_174  # the CLI's and the API's JSON


def test_a_series_of_quarters_reads_the_quarterly_reports_and_says_what_is_missing(engine):
    a = engine.ask_folder("Compare Orchard's R&D across the last four quarters", folder="Orchard")
    rows = a.extra["series"]["rows"]
    assert rows[0]["note"] == "the folder holds 3 of the 4 quarters asked"
    assert [(r["period"], r["printed"]) for r in rows[1:]] == [("Q1 FY2023", "7,709"), ("Q2 FY2023", "7,457"),
                                                               ("Q3 FY2023", "7,442")]


def test_a_table_of_contents_line_is_no_figure(engine):
    a = engine.ask_folder("What were Orchard's legal proceedings in fiscal 2023?", folder="Orchard")
    assert "Legal Proceedings, 2023: 20" not in a.text
    assert not (a.extra.get("direct_answer") or "").rstrip().endswith("20 — p. 2")


def test_question_periods_are_read_as_analysts_write_them():
    assert periods.asked("What does the most recent 10-Q say?").latest
    assert not periods.asked("Net sales over the last 3 years").latest
    assert periods.asked("Net sales over the last 3 years").last_n == (3, "year")
    assert periods.asked("How has gross margin changed over time?").trend
    assert periods.asked("Revenue for the quarter ended March 31, 2023").ended == (2023, 3, 31)
    assert periods.asked("Revenue in calendar Q1 2023").reading == "calendar"
    assert not periods.asked("What were current liabilities in FY2022?").trend
    # a range of fiscal years is a series, and its words are not the figure's
    from alphasearch.folder.series import figure_words
    for q in ("Compare Best Buy's capital expenditures from fiscal 2020 to fiscal 2023.",
              "What is the trend in Best Buy's capex over fiscal 2019-2023?",
              "How has Best Buy's capex changed between fiscal year 2019 and fiscal year 2023?"):
        assert periods.asked(q).trend, q
        assert figure_words(q) == ("Best Buy's capex" if "capex" in q else "Best Buy's capital expenditures"), q
    assert not periods.asked("What was capex in fiscal 2020?").trend
    f = DocFacts(org="A", year=2023, quarter=1, period_end="2022-12-31", kind="10-Q")
    assert periods.restate("What were net sales in Q1 2023?", f) == \
        "What were net sales for the three months ended December 31, 2022?"


def test_the_filing_of_the_year_asked_is_the_named_companys_not_another_of_that_year():
    from alphasearch.folder.search import period_filings

    docs = [("bby.pdf", DocFacts(org="Best Buy Co., Inc.", year=2023, period_end="2023-01-28", kind="10-K")),
            ("orcl.pdf", DocFacts(org="Oracle Corporation", year=2023, period_end="2023-05-31", kind="10-K")),
            ("bby-old.pdf", DocFacts(org="Best Buy Co., Inc.", year=2022, period_end="2022-01-29", kind="10-K"))]
    fm = periods.match("How much cash did Best Buy Co., Inc. generate from operating activities in fiscal 2023?",
                       [f for _, f in docs])
    assert period_filings(fm, docs) == {"bby.pdf"}
