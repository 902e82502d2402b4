"""The folder-series benchmark's scoring (benchmarks/filing_periods.py) on made-up answers: the first cited filing
(a quarter's 10-Q or its earnings release both right when the gold says so), a trend's rows matched to the gold's
periods by year or by quarter and kept to the question's company, a period missing without a row counted."""
import json
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from filing_periods import main, own_rows, period_rows, score  # noqa: E402


def answer(doc: str = "", direct: str = "", rows: list[dict] | None = None):
    return SimpleNamespace(doc_pages=[(doc, 3)] if doc else [], extra={"direct_answer": direct,
                                                                        "series": {"rows": rows or []}})


def test_period_and_latest_first_document_carries_and_wrong():
    qs = [{"kind": "period", "doc": "X_2024Q2_10Q.pdf", "also_right": ["X_2024Q2_EARNINGS.pdf"], "gold": 9583.0},
          {"kind": "period", "doc": "X_2023_10K.pdf", "gold": 1419.0},
          {"kind": "latest", "doc": "X_2023_10K.pdf", "gold": 46298.0}]
    ans = [answer("X_2024Q2_EARNINGS.pdf", "Revenue, Q2 FY2024: $9,583 million"),
           answer("X_2022_10K.pdf", "Net earnings, FY2022: $2,454 million"),
           answer("X_2023_10K.pdf", "")]
    s = score(qs, ans)
    assert s["period"] == {"n": 2, "first_doc_right": 0.5, "carries": 0.5, "wrong": 0.5}
    assert s["latest"] == {"n": 1, "first_doc_right": 1.0, "carries": 0.0, "wrong": 0.0}


def test_trend_rows_matched_by_quarter_and_year_of_the_question_company_only():
    rows = [{"company": "Costco Wholesale", "period": "Q1 FY2023", "end": "2022-11-20", "value": 1364.0,
             "doc": "COSTCO_2023Q1_EARNINGS.pdf"},
            {"company": "Costco Wholesale", "period": "Q2 FY2023", "note": "no filing for this quarter in the folder"},
            {"company": "Costco Wholesale", "period": "Q3 FY2023", "end": "2023-05-07", "value": 1300.0,
             "doc": "COSTCO_2023Q3_EARNINGS.pdf"},
            {"company": "Corning", "period": "Q2 FY2023", "end": "2023-06-30", "value": 281.0,
             "doc": "CORNING_2023Q2_10Q.pdf"}]
    q = {"kind": "trend", "periods": {"Q1 FY2023": 1364.0, "Q2 FY2023": 1.0, "Q3 FY2023": 1302.0},
         "docs": {"Q1 FY2023": "COSTCO_2023Q1_EARNINGS.pdf", "Q3 FY2023": "COSTCO_2023Q3_EARNINGS.pdf"}}
    mine = own_rows(q, rows)
    assert [r["period"] for r in mine] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]  # Corning's row left out
    assert [r["value"] for r in period_rows("Q1 FY2023", mine)] == [1364.0]
    assert period_rows("2023", [{"period": "FY2023", "end": "2023-01-28"}, {"period": "FY2022", "end": "2022-01-29"}]) \
        == [{"period": "FY2023", "end": "2023-01-28"}]
    s = score([q], [answer(rows=rows)])["trend"]
    # Q1 right, Q2 a row that says it is missing (not right, not silent), Q3 a wrong figure (1,300 for 1,302)
    assert s == {"n": 1, "answered_as_series": 1.0, "periods": 3, "periods_right": round(1 / 3, 4),
                 "periods_missing_without_row": 0}
    y = {"kind": "trend", "periods": {"2019": 6731.0, "2020": 9763.0}, "docs": {"2019": "AMD_2019_10K.pdf",
                                                                                 "2020": "AMD_2020_10K.pdf"}}
    only_2020 = [{"company": "AMD", "period": "FY2020", "end": "2020-12-26", "value": 9763.0, "doc": "AMD_2020_10K.pdf"}]
    assert score([y], [answer(rows=only_2020)])["trend"]["periods_missing_without_row"] == 1


def test_a_dev_set_without_its_pdfs_says_so_and_exits_0(tmp_path, capsys):
    qfile = tmp_path / "questions.jsonl"
    qfile.write_text(json.dumps({"id": "a", "folder": "bestbuy", "kind": "latest", "question": "?", "doc": "A.pdf",
                                 "gold": 1.0}) + "\n")
    assert main(["--questions", str(qfile)]) == 0
    assert "nothing to measure" in capsys.readouterr().out
    (tmp_path / "pdfs").mkdir()
    assert main(["--questions", str(qfile), "--out", str(tmp_path / "out.json")]) == 0
    assert "No PDFs for folder(s) ['bestbuy']" in capsys.readouterr().out
