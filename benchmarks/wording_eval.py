"""The figure questions of ``../shared/eval`` in other wordings an analyst would use (a hand-written set:
the company's name between the key words, other verbs, informal, abbreviations, the period first), with
the same gold: does the direct answer carry the figure as often as for the original wording, and how often
does it state a wrong one?

    python benchmarks/wording_eval.py --wordings PATH/wordings.jsonl            # runs both wordings
    python benchmarks/wording_eval.py --wordings W --rows W_ROWS --original-rows DEV_ROWS   # earlier runs

``wordings.jsonl`` has the fields of ``questions.jsonl`` plus ``qid`` (the original question's id),
``original`` and ``style``. Printed per style and overall: on the wordings whose gold figure is printed on
an evidence page, the share whose direct answer carries it, the same share for the original wording of the
same questions, their ratio, and the share stating a wrong figure (a figure, none the gold one). When the
file or the eval set is absent the script says so and exits 0.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import DEFAULT_EVAL, OUT, answer_shares, eval_dir_or_none, read_jsonl, run_rows, write_json  # noqa: E402


def compare(worded: list[dict], original: list[dict], wordings: dict[str, dict], questions: dict[str, dict]) -> dict:
    """Per style and "all": :func:`common.answer_shares` of the wordings and of their original questions
    (each original counted once per wording, so both sides weigh the same questions), and
    ``ratio`` = carries(wordings) / carries(originals)."""
    by_id = {r["id"]: r for r in original if not r.get("off_topic") and r.get("method", "mcts_puct") == "mcts_puct"}
    out = {}
    for style in ["all"] + sorted({w["style"] for w in wordings.values()}):
        mine = [r for r in worded if r["id"] in wordings and (style == "all" or wordings[r["id"]]["style"] == style)
                and wordings[r["id"]]["qid"] in by_id]
        twins = [dict(by_id[wordings[r["id"]]["qid"]], id=r["id"]) for r in mine]  # the original, keyed by the wording
        gold = {r["id"]: dict(questions[wordings[r["id"]]["qid"]], id=r["id"]) for r in mine}
        new, old = answer_shares(mine, gold), answer_shares(twins, gold)
        ratio = new["carries"] / old["carries"] if new["carries"] is not None and old["carries"] else None
        out[style] = {"wording": new, "original": old, "ratio": None if ratio is None else round(ratio, 4)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wordings", required=True, help="the wording set (wordings.jsonl)")
    p.add_argument("--eval-dir", default=None, help=f"the eval set whose PDFs they ask (default {DEFAULT_EVAL})")
    p.add_argument("--rows", default=None, help="result rows of the wordings from an earlier run")
    p.add_argument("--original-rows", default=None, help="result rows of the eval set (the original wordings)")
    p.add_argument("--limit", type=int, default=None, help="only the first N wordings")
    p.add_argument("--data-dir", default=None, help="where the engine keeps its indexes (default benchmarks/out/engine)")
    p.add_argument("--out", default=str(OUT / "wording_eval.json"))
    p.add_argument("--no-ocr", action="store_true", help="index without OCR (an A/B of the reader in minutes, "
                                                          "not the default engine's figures)")
    args = p.parse_args(argv)
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None or not Path(args.wordings).is_file():
        print(f"The wording set ({args.wordings}) or the eval set ({args.eval_dir or DEFAULT_EVAL}) is absent; "
              "nothing to measure.")
        return 0
    wordings = {w["id"]: w for w in read_jsonl(Path(args.wordings))}
    questions = {q["id"]: q for q in read_jsonl(eval_dir / "questions.jsonl")}
    out = Path(args.out)
    worded = read_jsonl(Path(args.rows)) if args.rows else run_rows(
        eval_dir, out.with_suffix(".rows.jsonl"), questions=Path(args.wordings), limit=args.limit, data_dir=args.data_dir,
        ocr=not args.no_ocr)
    if args.original_rows:
        original = read_jsonl(Path(args.original_rows))
    else:  # the original questions of the wordings asked, once each
        wanted = {wordings[r["id"]]["qid"] for r in worded if r["id"] in wordings}
        with tempfile.TemporaryDirectory() as tmp:  # the eval set's text stays out of the repository
            subset = Path(tmp) / "questions.jsonl"
            subset.write_text("".join(json.dumps(q) + "\n" for q in questions.values() if q["id"] in wanted), "utf-8")
            original = run_rows(eval_dir, out.with_suffix(".originals.rows.jsonl"), questions=subset,
                                data_dir=args.data_dir, ocr=not args.no_ocr)
    result = compare(worded, original, wordings, questions)
    for style, s in result.items():
        w, o = s["wording"], s["original"]
        print(f"{style:<12} printed {w['printed']:>4}  carries {w['carries']}  (original {o['carries']}, ratio "
              f"{s['ratio']})  wrong {w['wrong']}  (original {o['wrong']})  hit@3 {w['hit3']} (original {o['hit3']})")
    write_json(out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
