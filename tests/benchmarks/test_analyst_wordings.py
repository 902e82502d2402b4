"""benchmarks/analyst_wordings.py: each wording's direct line checked against the line item asked, on a generated
filing; absent PDFs are said, not failed."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import analyst_wordings  # noqa: E402

from pdf_factory import make_pdf  # noqa: E402


def test_the_line_stated_is_checked_against_the_item_asked():
    assert analyst_wordings.verdict("investing", "Net cash used in investing activities, 2022: -$4,994 million") == "asked"
    assert analyst_wordings.verdict("investing", "Cash and cash equivalents, 2022: $1,040 million — p. 54") == "other"
    assert analyst_wordings.verdict("capex", "Property and equipment, net, 2022: $4,791 million") == "other"
    assert analyst_wordings.verdict("headcount", "") == "none"


def test_a_generated_filing_is_asked_every_wording(tmp_path, capsys):
    pdfs, gold = tmp_path / "filings", tmp_path / "battery"
    pdfs.mkdir(), gold.mkdir()
    (pdfs / "BIRCH_2022_10K.pdf").write_bytes(make_pdf([
        ["Birch Stores, Inc. Annual Report on Form 10-K for fiscal 2022", "A letter to our shareholders."],
        ["Consolidated Statements of Cash Flows", "(in millions)", "2022", "2021",
         "Payments for property and equipment", "(758)", "(695)", "Net cash used in investing activities", "(1,372)",
         "(1,001)", "Dividends paid", "(688)", "(568)", "Net cash used in financing activities", "(4,297)", "(2,101)",
         "Cash and cash equivalents at end of year", "2,936", "5,494"],
    ]))
    (gold / "gold.jsonl").write_text(json.dumps({"doc": "BIRCH_2022_10K", "item": "revenue", "value": "1",
                                                 "unit": "millions", "year": "2022", "page": 2, "label": "x"}) + "\n")
    out = tmp_path / "aw.json"
    assert analyst_wordings.main(["--gold", str(gold), "--pdfs", str(pdfs), "--data-dir", str(tmp_path / "idx"),
                                  "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["questions"] == len(analyst_wordings.ASKED)
    for item in ("capex", "investing", "financing", "dividends"):
        assert result["items"][item]["asked"] == 1, (item, result["items"][item])
    # the later rounds, each with its own items, on the same filing
    for name, asked, item in (("more", analyst_wordings.ASKED_MORE, "cash_end"),
                              ("third", analyst_wordings.ASKED_THIRD, "capex")):
        assert analyst_wordings.main(["--gold", str(gold), "--pdfs", str(pdfs), "--data-dir", str(tmp_path / "idx"),
                                      "--round", name, "--out", str(out)]) == 0
        result = json.loads(out.read_text())
        assert result["questions"] == len(asked) and set(result["items"]) == {*asked, "all"}
        assert result["items"][item]["asked"] == 1, (name, item, result["items"][item])


def test_without_the_filings_it_says_so(tmp_path, capsys):
    assert analyst_wordings.main(["--gold", str(tmp_path), "--pdfs", str(tmp_path / "none")]) == 0
    assert "nothing to measure" in capsys.readouterr().out
