"""benchmarks/ocr_effect.py: scans of each resolution kept side by side, and the table RESULTS.md shows."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ocr_effect  # noqa: E402


def scan_run(dpi: int, hit3: float) -> dict:
    side = {"hit1": 0.6, "hit3": hit3, "carries": 0.25, "wrong": 0.1, "printed": 12, "n": 65}
    return {"dpi": dpi, "documents": 10, "questions": 65, "original": {**side, "hit3": 0.9077}, "scan": side,
            "ocr_seconds_per_page": 5.6, "peak_mb": {"original": 360.0, "scan": 580.0}}


def test_a_scan_run_at_another_resolution_is_kept_beside_the_earlier_one(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr_effect, "COMMITTED", tmp_path)
    (tmp_path / "ocr_effect.json").write_text(json.dumps({"scans": scan_run(150, 0.8154), "machine": "m"}))
    ocr_effect.keep({"scans": scan_run(200, 0.87), "machine": "m"})  # the old single-run form is read too
    kept = json.loads((tmp_path / "ocr_effect.json").read_text())
    assert list(kept["scans"]) == ["150", "200"]
    table = (tmp_path / "ocr_effect.md").read_text()
    assert "drawn at 150 dpi" in table and "drawn at 200 dpi" in table
    assert "| scan | 0.6 | 0.8154 |" in table and "| scan | 0.6 | 0.87 |" in table
    assert "hit@3 -0.0923 (goal: within 0.05)" in table and "hit@3 -0.0377" in table
    ocr_effect.keep({"scans": scan_run(150, 0.83), "machine": "m"})  # a new run at 150 dpi replaces its own
    assert json.loads((tmp_path / "ocr_effect.json").read_text())["scans"]["150"]["scan"]["hit3"] == 0.83
