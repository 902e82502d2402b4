"""Document facts: read from generated filings and a paper, matched against questions, stored in the
catalog (computed for libraries from before facts), corrected by the user through the library and the CLI."""
from __future__ import annotations

import json
import sqlite3

import pymupdf
import pytest

from alphasearch.index import facts
from alphasearch.errors import InvalidFactError
from alphasearch.library import Library
from cli_helpers import assert_clean_failure, run_cli
from pdf_factory import filings_folder


@pytest.fixture(scope="module")
def folder_lib(tmp_path_factory):
    lib = Library(tmp_path_factory.mktemp("facts"))
    lib.create_folder("Harrow")
    results = lib.add_many("Harrow", list(filings_folder().items()))
    assert [r.status for r in results] == ["indexed"] * 4
    return lib


def by_name(lib: Library, folder: str = "Harrow") -> dict[str, facts.DocFacts]:
    got = lib.facts(folder)
    return {d.name: got[d.record_id] for d in lib.documents(folder)}


def test_facts_are_read_from_the_content_not_the_file_name(folder_lib):
    f = by_name(folder_lib)
    a, b, c, paper = f["filing-a.pdf"], f["filing-b.pdf"], f["filing-c.pdf"], f["paper.pdf"]
    assert (a.org, a.kind, a.year, a.period_end) == ("Harrow Instruments Corporation", "10-K", 2018, "2018-12-31")
    assert (b.kind, b.year) == ("10-K", 2020)
    assert (c.kind, c.year, c.period_end) == ("10-Q", 2020, "2020-06-30")
    assert c.tickers == ("HRW",)
    assert (paper.kind, paper.org, paper.year) == ("paper", "", None)
    assert paper.title == "Measuring Glacier Melt with Low-Cost Seismometers"
    assert a.label() == "Harrow Instruments Corporation · 10-K · FY2018"


@pytest.mark.parametrize("text, expected", [
    ("For the fiscal year ended January 28, 2023", (2023, 1, 28)),
    ("year ended 31st March 2003.", (2003, 3, 31)),
    ("Date of report: May 20, 2022 (May 18, 2022)", (2022, 5, 20)),
    ("period ending 2023-01-28", (2023, 1, 28)),
    ("no date here", None),
])
def test_parse_date(text, expected):
    assert facts.parse_date(text) == expected


def test_a_52_week_year_ending_in_early_january_belongs_to_the_year_before():
    cover = ["FORM 10-K\nFor the fiscal year ended January 1, 2023\nACME FOODS, INC.\n"
             "(Exact name of registrant as specified in its charter)"]
    got = facts.extract_text(cover)
    assert (got.org, got.kind, got.year) == ("Acme Foods, Inc.", "10-K", 2022)


@pytest.mark.parametrize("question, years, kinds, quarter", [
    ("What was FY2018 revenue in the 10-K?", (2018,), ("10-K",), None),
    ("What were quarterly capital expenditures?", (), ("10-Q",), None),
    ("Revenue in fiscal 19 and 2020?", (2019, 2020), (), None),
    ("Q2 2023 sales", (2023,), (), 2),
    ("What does this paper propose?", (), ("paper",), None),
])
def test_read_question(question, years, kinds, quarter):
    q = facts.read_question(question)
    assert (q.years, q.kinds, q.quarter) == (years, kinds, quarter)


def test_match_prefers_the_documents_with_the_facts_the_question_names(folder_lib):
    f = by_name(folder_lib)
    names = ["filing-a.pdf", "filing-b.pdf", "filing-c.pdf", "paper.pdf"]
    docs = [f[n] for n in names]
    m = facts.match("What were Harrow Instruments' FY2018 capital expenditures?", docs)
    assert m.named == ("org", "year")
    assert m.scores[0] == 1.0 and max(m.scores[1:]) < 1.0
    m = facts.match("What were quarterly capital expenditures?", docs)
    assert m.named == ("kind",) and m.scores == (0.0, 0.0, 1.0, 0.0)
    m = facts.match("How many plants were there?", docs)  # names nothing: no preference
    assert not m.any and m.scores == (0.0,) * 4
    m = facts.match("Revenue of Harrow in 1999?", docs)  # a year no document has is not a preference
    assert m.named == ("org",)


@pytest.mark.parametrize("question, org, named", [
    ("What is Walmart's FY2018 DPO?", "Wal-Mart Stores, Inc.", True),
    ("What is 3M's capex?", "3M COMPANY", True),
    ("Lockheed's backlog?", "Lockheed Martin Corporation", True),
    ("What is the general trend in mills?", "General Mills, Inc.", False),
    ("Revenue of Best Buy in FY2023", "Best Buy Co., Inc.", True),
    ("How did the best buy in the sale go?", "Amazon.com, Inc.", False),
    ("what is total liabilities for costco in FY 2021?", "Costco Wholesale Corporation", True),
    ("Is general guidance on mills given?", "General Mills, Inc.", False),
    ("How has AMD's revenue changed from 2019 to 2022?", "Advanced Micro Devices, Inc.", True),
    ("What was amd's revenue?", "Advanced Micro Devices, Inc.", False),  # initials only in capitals
    ("What did GM earn?", "General Mills, Inc.", False),  # two words: initials too ambiguous
    ("IBM's revenue in 2022?", "International Business Machines Corporation", True),
    ("What did the AMD segment report?", "Applied Materials, Inc.", False),
])
def test_org_named(question, org, named):
    assert facts.org_named(facts.read_question(question), facts.DocFacts(org=org)) is named


def test_a_user_correction_is_kept_and_bumps_the_revision(folder_lib):
    rev = folder_lib.revision()
    fixed = folder_lib.set_facts("Harrow", "paper.pdf", year=2021, org="Alpine Institute")
    assert (fixed.year, fixed.org, fixed.edited) == (2021, "Alpine Institute", ("org", "year"))
    assert folder_lib.revision() > rev
    again = by_name(folder_lib)["paper.pdf"]
    assert (again.year, again.org, again.kind) == (2021, "Alpine Institute", "paper")
    folder_lib.set_facts("Harrow", "paper.pdf", year="", org="")  # cleared, still the user's choice
    assert by_name(folder_lib)["paper.pdf"].year is None
    with pytest.raises(InvalidFactError, match="between 1 and 4"):
        folder_lib.set_facts("Harrow", "paper.pdf", quarter=7)
    with pytest.raises(InvalidFactError, match="whole number"):
        folder_lib.set_facts("Harrow", "paper.pdf", year="last year")


def test_a_library_from_before_facts_gets_them(tmp_path):
    lib = Library(tmp_path)
    lib.create_folder("F")
    lib.add("F", "filing-a.pdf", filings_folder()["filing-a.pdf"])
    with sqlite3.connect(lib.db_path) as con:  # what a library written before facts looks like
        con.execute("DROP TABLE facts")
    old = Library(tmp_path)  # opening it creates the table; the facts are read on first use
    got = list(old.facts("F").values())
    assert [(g.kind, g.year) for g in got] == [("10-K", 2018)]
    with sqlite3.connect(lib.db_path) as con:
        stored = con.execute("SELECT auto, version FROM facts").fetchall()
    assert len(stored) == 1 and json.loads(stored[0][0])["year"] == 2018 and stored[0][1] == facts.FACTS_VERSION


def test_removing_a_document_removes_its_facts(tmp_path):
    lib = Library(tmp_path)
    lib.create_folder("F")
    lib.add("F", "paper.pdf", filings_folder()["paper.pdf"])
    lib.remove("F", "paper.pdf")
    with sqlite3.connect(lib.db_path) as con:
        assert con.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 0


def test_cli_shows_and_corrects_facts(tmp_path):
    pdf = tmp_path / "filing-c.pdf"
    pdf.write_bytes(filings_folder()["filing-c.pdf"])
    data = tmp_path / "data"
    assert run_cli("folder", "add", "F", str(pdf), "--create", data_dir=data).returncode == 0
    proc = run_cli("folder", "facts", "F", "--json", data_dir=data)
    assert proc.returncode == 0, proc.stderr
    assert [(r["doc"], r["kind"], r["year"]) for r in json.loads(proc.stdout)] == [("filing-c.pdf", "10-Q", 2020)]
    proc = run_cli("folder", "facts", "F", "filing-c.pdf", "--quarter", "2", data_dir=data)
    assert proc.returncode == 0 and "Q2" in proc.stdout and "edited: quarter" in proc.stdout
    assert_clean_failure(run_cli("folder", "facts", "F", "filing-c.pdf", "--year", "twenty", data_dir=data))
    assert_clean_failure(run_cli("folder", "facts", "F", "--year", "2019", data_dir=data))


def test_trading_symbols_name_the_organisation():
    got = facts.extract_text(["Acme Corp Reports First-Quarter 2023 Results\nPURCHASE, N.Y. - Acme Corp. "
                              "(NASDAQ: ACMQ) today reported results."], meta_title="ACMX Q1 2023 release")
    assert got.tickers == ("ACMX", "ACMQ") and got.kind == "earnings release" and got.quarter == 1
    assert facts.org_named(facts.read_question("What did ACMQ earn?"), got)
    assert facts.org_named(facts.read_question("What did AcmQ earn?"), got)  # two capitals: a symbol
    assert not facts.org_named(facts.read_question("What did acmq earn?"), got)


def test_fiscal_years_of_off_calendar_reports():
    ten_k = facts.DocFacts(kind="10-K", year=2023, period_end="2023-01-28")  # a retailer's year ending in January
    assert facts.fiscal_years(ten_k) == {2022, 2023}
    ten_q = facts.DocFacts(kind="10-Q", year=2022, period_end="2022-12-31")  # Q2 of a year ending in June 2023
    assert facts.fiscal_years(ten_q) == {2022, 2023}
    assert facts.fiscal_years(facts.DocFacts(kind="10-Q", year=2021, period_end="2021-03-31")) == {2021}
    assert facts.fiscal_years(ten_q.edit(year=2023)) == {2023}  # the user's year is the year
    m = facts.match("What was the restructuring liability at the close of Q2 of FY2023?",
                    [ten_q, facts.DocFacts(kind="10-Q", year=2023, quarter=4, period_end="2023-06-30"),
                     facts.DocFacts(kind="10-Q", year=2021, quarter=2, period_end="2021-06-30")])
    assert m.named == ("year", "quarter")
    assert m.scores[0] > m.scores[1] > m.scores[2]  # an unknown quarter is not a wrong one


def test_cli_ask_names_the_other_filings_and_searches_a_picked_one(tmp_path):
    data = tmp_path / "data"
    for name, pdf in filings_folder().items():
        (tmp_path / name).write_bytes(pdf)
    assert run_cli("folder", "add", "H", str(tmp_path), "--create", data_dir=data).returncode == 0
    proc = run_cli("ask", "What were Harrow Instruments' capital expenditures in the annual report?", "--json",
                   data_dir=data)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    others = [x["doc"] for x in out["also_found_in"]]
    assert others and set(others) | {out["documents"][0]} == {"filing-a.pdf", "filing-b.pdf"}
    assert out["folder_trace"]["why"][out["documents"][0]]["facts"] == ["org", "kind"]
    proc = run_cli("ask", "What were capital expenditures?", "--folder", "H", "--document", others[0], "--json",
                   data_dir=data)
    assert proc.returncode == 0 and json.loads(proc.stdout)["documents"] == [others[0]]


def test_the_year_a_document_calls_its_own_fits_best():
    """Fiscal years ending in May: "FY2019" is the 10-K that calls itself fiscal 2019, though the
    FY2020 one (June 2019 - May 2020) also lies mostly in 2019; with only the FY2020 one at hand, it fits."""
    fy19 = facts.DocFacts(org="Mills Inc.", kind="10-K", year=2019, period_end="2019-05-26")
    fy20 = facts.DocFacts(org="Mills Inc.", kind="10-K", year=2020, period_end="2020-05-31")
    m = facts.match("What was the FY2019 cash conversion cycle?", [fy19, fy20])
    assert m.named == ("year",) and m.scores[0] == 1.0 > m.scores[1] > 0.5
    alone = facts.match("What was the FY2019 cash conversion cycle?", [fy20])
    assert alone.named == ("year",) and alone.scores == (1.0,)


def test_a_year_asked_of_a_folder_with_only_a_10q_of_it_still_prefers_that_10q():
    ten_q = facts.DocFacts(org="Harrow", kind="10-Q", year=2020, quarter=2, period_end="2020-06-30")
    old = facts.DocFacts(org="Harrow", kind="10-K", year=2016, period_end="2016-12-31")
    m = facts.match("What were FY2020 net sales?", [ten_q, old])
    assert m.named == ("year",) and m.scores == (1.0, 0.0)
    whole = facts.DocFacts(org="Harrow", kind="10-K", year=2020, period_end="2020-12-31")
    m = facts.match("What were FY2020 net sales?", [ten_q, whole])
    assert m.scores[1] == 1.0 > m.scores[0]


def test_an_earnings_release_says_its_quarter_and_its_end_in_its_opening_sentence():
    """"results for the 13-week fourth quarter ended January 28, 2023", "the third quarter (twelve weeks) and the
    first 36 weeks of fiscal 2023, ended May 7, 2023": the quarter's end is the release's period; a headline with
    "Year-to-Date" still names an earnings release."""
    bby = facts.extract_text(["Best Buy Reports Fourth Quarter Results\nGAAP Diluted EPS of $2.23\nMINNEAPOLIS, "
                              "March 2, 2023 -- Best Buy Co., Inc. (NYSE: BBY) today announced results for the "
                              "13-week fourth\nquarter ended January 28, 2023 (\u201cQ4 FY23\u201d), as compared to "
                              "the 13-week fourth quarter ended January 29, 2022."])
    assert (bby.kind, bby.quarter, bby.period_end, bby.year) == ("earnings release", 4, "2023-01-28", 2023)
    cost = facts.extract_text(["Costco Wholesale Corporation Reports Third Quarter and Year-to-Date Operating "
                               "Results for Fiscal 2023\nISSAQUAH, Wash. -- Costco Wholesale Corporation today "
                               "announced its operating results for the third quarter (twelve weeks) and the first "
                               "36 weeks of fiscal 2023, ended May 7, 2023."])
    assert (cost.kind, cost.quarter, cost.period_end, cost.year) == ("earnings release", 3, "2023-05-07", 2023)
    ten_k = facts.extract_text(["FORM 10-K\nFor the fiscal year ended December 31, 2022\nIn the fourth quarter "
                                "ended December 31, 2022 we sold a plant."])
    assert (ten_k.kind, ten_k.period_end) == ("10-K", "2022-12-31")


def test_an_annual_report_that_wraps_its_10k_is_read_at_the_10ks_cover(tmp_path):
    """AMD's 2022 annual report opens with a title page, a letter and highlights; its Form 10-K cover (company,
    fiscal year ended December 31, 2022) is page 7. The facts come from that cover, not from the letter."""
    from dataclasses import replace as replaced

    from alphasearch.config import Settings
    from alphasearch.pipeline import Engine
    from pdf_factory import filing_pdf, make_pdf

    glossy = make_pdf(["2022 ANNUAL REPORT ON FORM 10-K"] + [
        f"Dear shareholders, revenue grew again this year and our products reached new customers ({i})."
        for i in range(5)])
    wrapped = pymupdf.open(stream=glossy)
    wrapped.insert_pdf(pymupdf.open(stream=filing_pdf("10-K", 2022)))
    doc = Engine(Settings(data_dir=tmp_path, engine="offline", ocr=False)).index_bytes(wrapped.tobytes(), "ar.pdf")
    got = facts.extract(doc)
    assert (got.org, got.year, got.period_end, got.kind) == ("Harrow Instruments Corporation", 2022, "2022-12-31",
                                                               "10-K"), got
    assert facts.cover_page([p.text for p in doc.pages]) == 6
    release = ["Harrow Instruments Reports Fourth Quarter Results", "Net sales rose 4%.",
               "Outlook", "Forward-looking statements: see our reports filed with the Securities and Exchange "
               "Commission, Washington, D.C. 20549."]
    assert facts.cover_page(release) == 0  # a release naming the Commission has no cover: its first page speaks
    first = facts.extract(replaced(doc, pages=doc.pages[6:]))  # the filing alone: its cover is its first page
    assert (first.org, first.period_end) == (got.org, got.period_end)
