"""benchmarks/ab_table.py: the before → after table of a battery's and a labelled set's answer figures."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ab_table  # noqa: E402


def test_the_table_puts_each_groups_figures_before_and_after(tmp_path):
    battery = {"items": {"all": {"n": 345, "carries": 0.7478, "wrong": 0.1594, "none": 0.0928}}}
    after = {"items": {"all": {"n": 345, "carries": 0.9014, "wrong": 0.0696, "none": 0.029}}}
    labelled = {"groups": {"text-only": {"n": 99, "hit1": 0.4747, "hit3": 0.6162, "carries": 0.3, "wrong": 0.3,
                                         "answer_carries": 0.35, "fallback": 0.48, "fallback_not_answerable": None}}}
    files = {}
    for name, data in (("b", battery), ("a", after), ("l", labelled)):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(data))
    out = tmp_path / "ab.md"
    ab_table.main(["--pair", "battery", str(files["b"]), str(files["a"]), "--pair", "eval-more", str(files["l"]),
                   str(files["l"]), "--out", str(out), "--note", "OCR off on both sides"])
    text = out.read_text()
    assert "| battery | all | 345 | 0.748 → 0.901 | 0.159 → 0.070 | 0.093 → 0.029 |" in text
    assert "| eval-more | text-only | 99 | 0.475 → 0.475 | 0.616 → 0.616 |" in text and "– → –" in text
    assert text.rstrip().endswith("- OCR off on both sides")
