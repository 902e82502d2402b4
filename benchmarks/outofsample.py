"""The out-of-sample steps of ``make_results.py`` and their RESULTS.md section: the dev set's answers beside a
document-disjoint validation set (``benchmarks/eval_more.py``), the wording set (``benchmarks/wording_eval.py``)
and the statement battery (``benchmarks/statement_battery.py``). Each step runs only when its data is there
(they are licensed and live outside the repository); the section says which were absent.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from common import OUT, REPO

DEFAULT_MORE = REPO.parent / "shared" / "eval-more"
DEFAULT_WORDINGS = REPO.parent / "shared" / "wordings" / "wordings.jsonl"
DEFAULT_BATTERY = REPO / "benchmarks" / "battery"  # the gold is ours (public filings); the PDFs are not kept here


def run_steps(step: Callable, eval_dir: Path, results: Path, more: Path | None, wordings: Path | None,
              battery: Path | None, pdfs: Path | None) -> dict:
    """Run each out-of-sample benchmark whose data is present (``step(name, cmd, log)``: make_results' runner);
    the dev set's figures come from the eval's own rows (``results``). Returns their figures by name."""
    py = sys.executable
    out: dict = {}
    if results.is_file():
        step("answers on the dev set", [py, "benchmarks/eval_more.py", "--eval-dir", str(eval_dir), "--rows",
                                        str(results), "--out", str(OUT / "eval_dev.json")], OUT / "eval_dev.log")
        out["dev"] = OUT / "eval_dev.json"
    if more is not None and (more / "questions.jsonl").is_file():
        step("answers on the validation set", [py, "benchmarks/eval_more.py", "--eval-dir", str(more)],
             OUT / "eval_more.log")
        out["more"] = OUT / "eval_more.json"
    if wordings is not None and wordings.is_file():
        step("the wording set", [py, "benchmarks/wording_eval.py", "--wordings", str(wordings), "--eval-dir",
                                 str(eval_dir)] + (["--original-rows", str(results)] if results.is_file() else []),
             OUT / "wording_eval.log")
        out["wordings"] = OUT / "wording_eval.json"
    if battery is not None and (battery / "gold.jsonl").is_file():
        step("the statement battery", [py, "benchmarks/statement_battery.py", "--gold", str(battery)]
             + (["--pdfs", str(pdfs)] if pdfs else []), OUT / "statement_battery.log")
        out["battery"] = OUT / "statement_battery.json"
        step("the battery's filings as one folder", [py, "benchmarks/filing_periods.py", "--gold", str(battery)]
             + (["--pdfs", str(pdfs)] if pdfs else []), OUT / "filing_periods.log")
        out["filings"] = OUT / "filing_periods.json"
    return {k: json.loads(p.read_text()) for k, p in out.items() if p.is_file()}


def _f(x) -> str:
    return "–" if x is None else f"{x:.3f}"


def section(figures: dict, md_table: Callable) -> str:
    """The RESULTS.md section of :func:`run_steps`' figures (absent ones said so)."""
    lines = ["## Out of sample: unseen documents, other wordings, a statement battery", ""]
    rows = []
    for name, key in (("dev (../shared/eval)", "dev"), ("validation (eval-more)", "more")):
        for group, s in figures.get(key, {}).get("groups", {}).items():
            rows.append([name, group, str(s["n"]), _f(s["hit1"]), _f(s["hit3"]), str(s["printed"]), _f(s["carries"]),
                         _f(s["wrong"]), _f(s["answer_carries"]),
                         f"{_f(s['fallback_not_answerable'])} (n {s['not_answerable']})" if s["not_answerable"] else "–"])
    if rows:
        lines += ["`benchmarks/eval_more.py`, the default search, offline. printed: answerable questions whose gold "
                  "figure is printed on an evidence page; carries / wrong: the direct answer holds it / states other "
                  "figures instead; text: the answer text holds it; fallback on the questions the document does not "
                  "answer.", "",
                  md_table(["set", "questions", "n", "hit@1", "hit@3", "printed", "carries", "wrong", "text",
                            "fallback, not answerable"], rows), ""]
    words = figures.get("wordings")
    if words:
        rows = [[style, str(s["wording"]["printed"]), _f(s["wording"]["carries"]), _f(s["original"]["carries"]),
                 _f(s["ratio"]), _f(s["wording"]["wrong"]), _f(s["original"]["wrong"])] for style, s in words.items()]
        lines += ["`benchmarks/wording_eval.py`: the dev set's figure questions in hand-written other wordings, the "
                  "same gold.", "", md_table(["style", "printed", "carries", "original carries", "ratio", "wrong",
                                               "original wrong"], rows), ""]
    battery = figures.get("battery")
    if battery:
        rows = [[item, str(s["n"]), _f(s["carries"]), _f(s["wrong"]), _f(s["none"])]
                for item, s in battery["items"].items()]
        lines += [f"`benchmarks/statement_battery.py`: {battery['questions']} plain analyst questions on "
                  f"{battery['documents']} annual reports, gold read off the statements by hand.", "",
                  md_table(["item", "n", "carries", "wrong figure", "no figure"], rows), ""]
    folder = figures.get("filings")
    if folder:
        rows = [[kind, str(folder[kind]["n"]), _f(folder[kind]["first_doc_right"]), _f(folder[kind]["carries"]),
                 _f(folder[kind]["wrong"])] for kind in ("period", "latest") if kind in folder]
        t = folder.get("trend")
        lines += [f"`benchmarks/filing_periods.py`: the battery's {folder['filings']} filings in one folder, asked for a "
                  "year, for the latest report and for a trend (median "
                  f"{folder['median_s']} s a question).", "",
                  md_table(["question", "n", "first document cited right", "carries", "wrong figure"], rows), ""]
        if t:
            lines += [f"Trend questions: {t['n']}, answered as a series {_f(t['answered_as_series'])}; of their "
                      f"{t['periods']} periods the series has the gold figure for {_f(t['periods_right'])}; periods "
                      f"missing without a row saying so: {t['periods_missing_without_row']}.", ""]
    missing = [name for name, key in (("validation set", "more"), ("wording set", "wordings"),
                                      ("statement battery", "battery")) if key not in figures]
    if missing:
        lines += [f"Not measured in this run (data absent): {', '.join(missing)}.", ""]
    return "\n".join(lines)
