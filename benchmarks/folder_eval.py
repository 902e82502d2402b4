"""Folder mode on the eval PDFs: routing accuracy and hit@3 of (document, page).

Builds three folders from ``../shared/eval`` (read in place, never copied) by
``doc_type`` — financial filings (10-K/10-Q/earnings), research papers and
reports, brochures/guides/manuals — then asks every question of those documents
*without naming a folder* and reports:

- routing accuracy (Phase 0 picked the document's folder);
- document recall@K (Phase 1 chose the right document among its top K);
- hit@1/3/5 of (document, page): an evidence page of the right document among
  the first k ranked (document, page) pairs of the merged answer;
- the same hit@3 when the folder is given (Phase 0 taken out), for comparison.

    python benchmarks/folder_eval.py [--eval-dir ../shared/eval] [--data-dir DIR] [--financial N] [--limit N]

The library is kept in ``--data-dir`` (default benchmarks/out/folder-eval) so a
second run only asks. Exits 0 with a note when the eval set is absent.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, eval_dir_or_none, load_questions, machine_line, say_absent  # noqa: E402

from alphasearch.config import Settings  # noqa: E402
from alphasearch.errors import NotFoundError  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402

FOLDERS = {
    "Annual reports and filings": {"10k", "10q", "8k", "Earnings", "Financial report"},
    "Research papers": {"Academic paper", "Research report / Introduction"},
    "Brochures and manuals": {"Brochure", "Guidebook", "Tutorial/Workshop", "Administration/Industry file"},
}


def pick_documents(eval_dir: Path, financial: int) -> dict[str, list[str]]:
    """Folder name → document file names. Financial filings: the ``financial``
    documents with the most questions (ties: fewer pages); others: all of them."""
    docs = [json.loads(line) for line in open(eval_dir / "docs.jsonl", encoding="utf-8") if line.strip()]
    out: dict[str, list[str]] = {}
    for folder, types in FOLDERS.items():
        rows = [d for d in docs if d["doc_type"] in types and d.get("n_questions", 0) > 0]
        if folder.startswith("Annual"):
            rows = sorted(rows, key=lambda d: (-d["n_questions"], d["pages"]))[:financial]
        out[folder] = sorted(d["doc"] for d in rows)
    return out


def build_library(engine: Engine, eval_dir: Path, plan: dict[str, list[str]]) -> float:
    lib = engine.library
    started = time.perf_counter()
    for folder, names in plan.items():
        try:
            lib.folder(folder)
        except NotFoundError:
            lib.create_folder(folder)
        results = lib.add_paths(folder, [eval_dir / "pdfs" / n for n in names])
        counts = Counter(r.status for r in results)
        print(f"  {folder}: {dict(counts)}", flush=True)
        for r in results:
            if r.status == "rejected":
                print(f"    rejected {r.name}: {r.reason}")
    return time.perf_counter() - started


def hit(doc_pages, doc: str, evidence, k: int) -> float:
    ev = set(evidence)
    return 1.0 if any(d == doc and p in ev for d, p in doc_pages[:k]) else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval-dir", default=None)
    ap.add_argument("--data-dir", default=str(OUT / "folder-eval"))
    ap.add_argument("--financial", type=int, default=10, help="financial filings to include (default 10)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N questions")
    ap.add_argument("--no-oracle", action="store_true", help="skip the folder-given comparison")
    ap.add_argument("--out", default=str(OUT / "folder_eval_rows.jsonl"))
    args = ap.parse_args()
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line())
    engine = Engine(Settings(data_dir=Path(args.data_dir), engine="offline"))
    plan = pick_documents(eval_dir, args.financial)
    folder_of = {doc: folder for folder, docs in plan.items() for doc in docs}
    print(f"Building the library in {args.data_dir}: "
          + ", ".join(f"{f} ({len(d)} PDFs)" for f, d in plan.items()), flush=True)
    seconds = build_library(engine, eval_dir, plan)
    print(f"  library ready in {seconds:.1f}s", flush=True)
    questions = [q for q in load_questions(eval_dir) if q.doc in folder_of][: args.limit]
    rows = []
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for i, q in enumerate(questions, 1):
            a = engine.ask_folder(q.question, save_trace=False)
            row = {
                "id": q.id, "doc": q.doc, "folder": folder_of[q.doc], "routed": a.extra["folder"],
                "routing_ok": a.extra["folder"] == folder_of[q.doc],
                "confidence": a.extra["folder_confidence"], "documents": a.extra["documents"],
                "doc_ok": q.doc in a.extra["documents"],
                "hit1": hit(a.doc_pages, q.doc, q.evidence_pages, 1),
                "hit3": hit(a.doc_pages, q.doc, q.evidence_pages, 3),
                "hit5": hit(a.doc_pages, q.doc, q.evidence_pages, 5),
                "seconds": round(a.seconds, 3),
            }
            if not args.no_oracle:
                b = engine.ask_folder(q.question, folder=folder_of[q.doc], save_trace=False)
                row["oracle_doc_ok"] = q.doc in b.extra["documents"]
                row["oracle_hit3"] = hit(b.doc_pages, q.doc, q.evidence_pages, 3)
            rows.append(row)
            fh.write(json.dumps(row) + "\n")
            if i % 20 == 0:
                print(f"  {i}/{len(questions)} questions", flush=True)
    if not rows:
        print("no questions")
        return 0

    def mean(key, subset):
        vals = [r[key] for r in subset if key in r]
        return sum(vals) / len(vals) if vals else float("nan")

    groups = defaultdict(list)
    for r in rows:
        groups[r["folder"]].append(r)
    groups["all"] = rows
    print(f"\n{len(rows)} questions over {len(folder_of)} PDFs in {len(plan)} folders (offline engine, top_k_docs="
          f"{engine.settings.top_k_docs})")
    head = f"{'folder':30} {'n':>4} {'routing':>8} {'doc@K':>6} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6} " \
           f"{'hit@3|folder':>12} {'doc@K|folder':>12}"
    print(head)
    for name, sub in groups.items():
        print(f"{name[:30]:30} {len(sub):4d} {mean('routing_ok', sub):8.3f} {mean('doc_ok', sub):6.3f} "
              f"{mean('hit1', sub):6.3f} {mean('hit3', sub):6.3f} {mean('hit5', sub):6.3f} "
              f"{mean('oracle_hit3', sub):12.3f} {mean('oracle_doc_ok', sub):12.3f}")
    secs = [r["seconds"] for r in rows]
    print(f"latency per routed question: median {statistics.median(secs):.2f}s, max {max(secs):.2f}s")
    wrong = Counter((r["folder"], r["routed"]) for r in rows if not r["routing_ok"])
    if wrong:
        print("misroutes (expected → routed): " + "; ".join(f"{a} → {b}: {n}" for (a, b), n in wrong.most_common()))
    print(f"rows in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
