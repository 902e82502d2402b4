"""A statement battery: plain analyst questions on the latest annual reports of the companies that
``../shared/eval-more/financebench_filings.txt`` names, one per line item of a gold file read off the
statements by hand — does the direct answer carry the gold figure (up to a unit scale), state a wrong one,
or state none?

    python benchmarks/statement_battery.py --pdfs FILINGS        # benchmarks/battery/gold.jsonl
    python benchmarks/statement_battery.py --gold DIR --pdfs FILINGS --rows rows.jsonl   # an earlier run

The gold lives in the repository (``benchmarks/battery/gold.jsonl``: 36 filings, 360 lines, read off the
statements by hand on 2026-11-28, each value checked to be printed on its page; figures of public SEC
filings). The PDFs do not: restore them as ``../shared/eval-more/README.md`` says (github:patronus-ai/financebench,
the latest two 10-Ks of each company ``financebench_filings.txt`` names) into ``FILINGS`` (default
``../shared/filings``, else ``GOLD/../filings``).

``gold.jsonl``: one line per (doc, item): ``doc`` (the PDF's name without ``.pdf``), ``item`` (one of
:data:`ASKED`), ``value`` (null when the filing prints none), ``unit``, ``year``, ``page``, ``label`` (the
row as printed). The question asked of each is :data:`ASKED`'s, with the company's name (as the document
names itself) and the fiscal year; the questions were written before the reader was changed. The PDFs are
read in place (licensed filings, never copied here); when the gold or the PDFs are absent the script says so
and exits 0.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, offline_engine, read_jsonl, run_rows, write_json  # noqa: E402

ASKED = {  # a plain analyst question per line item: the company's name and a verb between the key words
    "revenue": "What was {co}'s total revenue in fiscal {year}?",
    "net_income": "What was {co}'s net income for fiscal {year}?",
    "total_assets": "What were {co}'s total assets at the end of fiscal {year}?",
    "operating_cash_flow": "How much cash did {co} generate from operating activities in fiscal {year}?",
    "capex": "How much did {co} spend on capital expenditures in fiscal {year}?",
    "long_term_debt": "How much long-term debt did {co} have at the end of fiscal {year}?",
    "diluted_eps": "What were {co}'s diluted earnings per share in fiscal {year}?",
    "employees": "How many people did {co} employ at the end of fiscal {year}?",
    "rd": "How much did {co} spend on research and development in fiscal {year}?",
    "income_tax": "What was {co}'s income tax expense for fiscal {year}?",
}


def load_gold(gold_dir: Path) -> list[dict]:
    """The gold rows with a value (``gold.jsonl``; else ``records.txt``, the same fields separated by '|')."""
    if (gold_dir / "gold.jsonl").is_file():
        rows = read_jsonl(gold_dir / "gold.jsonl")
    else:
        keys = ("doc", "item", "value", "unit", "year", "page", "label")
        lines = [ln for ln in (gold_dir / "records.txt").read_text("utf-8").splitlines() if ln.strip() and ln[0] != "#"]
        rows = [dict(zip(keys, (None if v == "null" else v for v in ln.split("|")))) for ln in lines]
    return [r for r in rows if r.get("value") not in (None, "") and r.get("item") in ASKED]


def company(engine, pdf: Path) -> str:
    """The name the document gives its company (the index's facts), else the file name's first part."""
    from alphasearch.index import facts

    org = facts.extract(engine.index_file(pdf)).org
    return org or pdf.stem.split("_")[0].title()


def questions_of(gold: list[dict], pdfs: Path, engine) -> list[dict]:
    """One labelled question per gold row (the ``questions.jsonl`` format)."""
    names: dict[str, str] = {}
    out = []
    for g in gold:
        doc = g["doc"] if g["doc"].endswith(".pdf") else g["doc"] + ".pdf"
        if not (pdfs / doc).is_file():
            continue
        if doc not in names:
            names[doc] = company(engine, pdfs / doc)
        out.append({"id": f"{g['doc']}:{g['item']}", "doc": doc, "source": "battery", "answer": str(g["value"]),
                    "question": ASKED[g["item"]].format(co=names[doc], year=g["year"]),
                    "evidence_pages": [int(g["page"])] if g.get("page") not in (None, "") else []})
    return out


def score(rows: list[dict], questions: dict[str, dict]) -> dict:
    """Per item and overall: n, and the shares whose direct answer carries the gold figure, states another
    figure (wrong) or states none."""
    from alphasearch.answer.written import without_citations
    from alphasearch.read.figures import carries, gold_figures

    groups: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        q = questions[r["id"]]
        direct = without_citations(r.get("direct_answer", ""))
        gold = gold_figures(q["answer"]) or [abs(float(q["answer"]))]  # "1.9" diluted EPS, "5" people
        verdict = "carries" if carries(direct, gold) else "wrong" if gold_figures(direct) else "none"
        for key in ("all", r["id"].split(":")[-1]):
            groups[key].append(verdict)
    return {k: {"n": len(v), **{x: round(v.count(x) / len(v), 4) for x in ("carries", "wrong", "none")}}
            for k, v in sorted(groups.items(), key=lambda kv: kv[0] != "all")}


DEFAULT_GOLD = Path(__file__).resolve().parent / "battery"
DEFAULT_FILINGS = Path(__file__).resolve().parents[2] / "shared" / "filings"


def battery_paths(gold: str | None, pdfs: str | None) -> tuple[Path, Path] | None:
    """(gold folder, default the repository's; PDF folder, default ../shared/filings, else GOLD/../filings),
    or None after saying what is absent."""
    gold_dir = Path(gold) if gold else DEFAULT_GOLD
    folder = Path(pdfs) if pdfs else DEFAULT_FILINGS if DEFAULT_FILINGS.is_dir() else gold_dir.parent / "filings"
    if not ((gold_dir / "gold.jsonl").is_file() or (gold_dir / "records.txt").is_file()) or not folder.is_dir():
        print(f"No statement battery at {gold_dir} (gold.jsonl) with PDFs in {folder}; nothing to measure.")
        return None
    return gold_dir, folder


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gold", default=None, help=f"folder of gold.jsonl (default {DEFAULT_GOLD.name}/ beside this script)")
    p.add_argument("--pdfs", default=None, help="folder of the filings' PDFs (default ../shared/filings)")
    p.add_argument("--rows", default=None, help="result rows of an earlier run")
    p.add_argument("--data-dir", default=None, help="where the engine keeps its indexes (default benchmarks/out/engine)")
    p.add_argument("--out", default=str(OUT / "statement_battery.json"))
    args = p.parse_args(argv)
    found = battery_paths(args.gold, args.pdfs)
    if found is None:
        return 0
    gold_dir, pdfs = found
    with tempfile.TemporaryDirectory() as tmp:  # a labelled set: pdfs/ (the filings, in place) + questions.jsonl
        root = Path(tmp)
        (root / "pdfs").symlink_to(pdfs.resolve(), target_is_directory=True)
        questions = questions_of(load_gold(gold_dir), pdfs, offline_engine(args.data_dir))
        (root / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions), "utf-8")
        rows = read_jsonl(Path(args.rows)) if args.rows else run_rows(
            root, Path(args.out).with_suffix(".rows.jsonl"), data_dir=args.data_dir)
    by_id = {q["id"]: q for q in questions}
    result = {"documents": len({q["doc"] for q in questions}), "questions": len(questions),
              "items": score([r for r in rows if r["id"] in by_id], by_id)}
    print(f"{result['documents']} filings, {result['questions']} questions")
    for item, s in result["items"].items():
        print(f"{item:<20} n {s['n']:>3}  carries {s['carries']:.3f}  wrong {s['wrong']:.3f}  no figure {s['none']:.3f}")
    write_json(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
