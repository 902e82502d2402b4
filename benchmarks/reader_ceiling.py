"""The reader's ceiling: what the answer carries when the search is perfect. For each question whose gold figure
is printed on an evidence page, the offline engine's reader (``backend.extract``: the extractive answer, its
direct line and its fallback) is handed the pages with the first evidence page first and the page ranker's
order after it, as an oracle judge would rank them. The direct answer's share carrying the gold figure, stating
another one, and falling back, on a labelled set (``--eval-dir``: ../shared/eval or ../shared/eval-more) and on
the statement battery (``--battery``: gold.jsonl, the filings in ``--pdfs``). No search runs, so the figures
are the reader's alone; ``eval_more.py`` and ``statement_battery.py`` give the same figures behind the search.

    python benchmarks/reader_ceiling.py --eval-dir ../shared/eval-more --battery benchmarks/battery --pdfs FILINGS
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, eval_dir_or_none, not_answerable, offline_engine, read_jsonl, write_json  # noqa: E402


def _number(answer: str) -> list[float]:
    """A gold answer that is a bare number ("5"), as the battery's scoring reads it; [] for text."""
    try:
        return [abs(float(answer))]
    except ValueError:
        return []


def ceiling(engine, questions: list[dict], pdfs: Path) -> dict:
    """carries / wrong / none / fallback over the questions whose gold figure an evidence page prints."""
    from alphasearch.answer.written import without_citations
    from alphasearch.read.figures import carries, gold_figures

    docs: dict = {}
    verdicts = []
    for q in questions:
        if not_answerable(q) or not (pdfs / q["doc"]).is_file():
            continue
        doc = docs.get(q["doc"]) or docs.setdefault(q["doc"], engine.index_file(pdfs / q["doc"]))
        gold = gold_figures(str(q["answer"])) or _number(str(q["answer"]))  # a bare "5" (people) too
        evidence = [p for p in q["evidence_pages"] if 1 <= p <= doc.page_count]
        if not gold or not evidence or not carries(" ".join(doc.page(p).text for p in evidence), gold):
            continue  # no figure asked, or not printed where the gold says: no reader can carry it
        ranked = [int(i) + 1 for i in (-engine.backend.tools(doc).ranker.scores(q["question"])).argsort()]
        pages = [evidence[0]] + [p for p in ranked if p != evidence[0]]
        ex = engine.backend.extract(doc, q["question"], pages)
        direct = without_citations(ex.direct.text if ex.direct is not None else "")
        verdicts.append("fallback" if ex.fallback else "carries" if carries(direct, gold)
                        else "wrong" if gold_figures(direct) else "none")
    n = len(verdicts)
    return {"n": n, **{k: round(verdicts.count(k) / n, 4) if n else None
                       for k in ("carries", "wrong", "none", "fallback")}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", action="append", default=[], help="a labelled set (questions.jsonl, pdfs/)")
    p.add_argument("--battery", default=None, help="the statement battery's folder (gold.jsonl)")
    p.add_argument("--pdfs", default=None, help="the battery's filings (default BATTERY/../filings)")
    p.add_argument("--data-dir", default=None, help="where the engine keeps its indexes (default benchmarks/out/engine)")
    p.add_argument("--no-ocr", action="store_true", help="index without OCR")
    p.add_argument("--out", default=str(OUT / "reader_ceiling.json"))
    args = p.parse_args(argv)
    engine = offline_engine(args.data_dir, ocr=not args.no_ocr)
    result = {}
    for where in args.eval_dir:
        eval_dir = eval_dir_or_none(where)
        if eval_dir is None:
            print(f"No labelled set at {where}; skipped.")
            continue
        result[eval_dir.name] = ceiling(engine, read_jsonl(eval_dir / "questions.jsonl"), eval_dir / "pdfs")
    if args.battery:
        from statement_battery import battery_paths, load_gold, questions_of

        found = battery_paths(args.battery, args.pdfs)
        if found is not None:
            gold_dir, pdfs = found
            result["battery"] = ceiling(engine, questions_of(load_gold(gold_dir), pdfs, engine), pdfs)
    for name, s in result.items():
        print(f"{name:<12} n {s['n']:>4}  carries {s['carries']}  wrong {s['wrong']}  none {s['none']}  "
              f"fallback {s['fallback']}")
    write_json(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
