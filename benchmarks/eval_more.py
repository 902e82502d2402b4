"""Answers on a document-disjoint validation set (``../shared/eval-more``: 53 PDFs, 413 questions, 102 not
answerable, none of its documents in ``../shared/eval``), text-only questions and the others apart.

    python benchmarks/eval_more.py                         # ../shared/eval-more, the default search
    python benchmarks/eval_more.py --eval-dir ../shared/eval --out benchmarks/out/eval_dev.json   # the dev set, beside it
    python benchmarks/eval_more.py --rows rows.jsonl       # figures of an earlier run (``eval --out``)

Per group (all answerable questions; ``text_only`` true / false; FinanceBench, which has no such field):
hit@1/3, the share of questions whose gold figure is printed on an evidence page whose direct answer carries
it ("carries") or states other figures instead ("wrong"), the answer text carrying it, and the fallback rate on
the answerable and on the not-answerable questions. The set is read in place (its licence keeps it out of this
repository); when it is absent the script says so and exits 0.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, REPO, answer_shares, eval_dir_or_none, read_jsonl, run_rows, shares_line, write_json  # noqa: E402

DEFAULT_MORE = REPO.parent / "shared" / "eval-more"
DEFAULT_METHOD = "mcts_puct"


def group_of(q: dict) -> str:
    """"text-only", "other" (figures, charts, slides, layout) or "financebench" (no ``text_only`` field)."""
    if "text_only" not in q:
        return "financebench"
    return "text-only" if q["text_only"] else "other"


def figures(rows: list[dict], questions: dict[str, dict]) -> dict:
    """:func:`common.answer_shares` on every question and on each group of :func:`group_of`."""
    rows = [r for r in rows if r["id"] in questions]
    out = {"all": answer_shares(rows, questions)}
    for name in sorted({group_of(q) for q in questions.values()}):
        part = [r for r in rows if group_of(questions[r["id"]]) == name]
        if part:
            out[name] = answer_shares(part, questions)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None, help=f"the set (default {DEFAULT_MORE})")
    p.add_argument("--rows", default=None, help="summarise these result rows instead of running the search")
    p.add_argument("--limit", type=int, default=None, help="only the first N questions")
    p.add_argument("--data-dir", default=None, help="where the engine keeps its indexes (default benchmarks/out/engine)")
    p.add_argument("--out", default=str(OUT / "eval_more.json"))
    p.add_argument("--no-ocr", action="store_true", help="index without OCR (an A/B of the reader in minutes, "
                                                          "not the default engine's figures)")
    args = p.parse_args(argv)
    where = Path(args.eval_dir) if args.eval_dir else DEFAULT_MORE
    eval_dir = eval_dir_or_none(where)
    if eval_dir is None:
        print(f"No labelled set at {where} (questions.jsonl and pdfs/); nothing to measure. Pass --eval-dir.")
        return 0
    questions = {q["id"]: q for q in read_jsonl(eval_dir / "questions.jsonl")}
    rows = read_jsonl(Path(args.rows)) if args.rows else run_rows(
        eval_dir, Path(args.out).with_suffix(".rows.jsonl"), limit=args.limit, data_dir=args.data_dir,
        ocr=not args.no_ocr)
    rows = [r for r in rows if r.get("method", DEFAULT_METHOD) == DEFAULT_METHOD]  # an eval run may hold several
    result = {"set": eval_dir.name, "groups": figures(rows, questions)}
    for name, s in result["groups"].items():
        print(shares_line(name, s))
    write_json(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
