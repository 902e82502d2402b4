"""Folder mode on the eval PDFs: routing, document@1/@3 and (document, page) hit@3, before and after facts.

Builds three folders from ``../shared/eval`` (read in place, never copied) by
``doc_type`` — financial filings (every 10-K, 10-Q, 8-K and earnings release: a
company's several filings side by side, as an analyst keeps them), research papers
and reports, brochures/guides/manuals — then asks every question of those documents
*without naming a folder or a document*, twice in the same run:

- **before**: Phase 0 and Phase 1 on content alone (``facts_weight=0``, the engine
  before document facts);
- **after**: with document facts (``facts_weight`` of the settings);

and once of the right PDF directly (**single**: the single-document pipeline), and
reports per folder (source), per document kind and for the questions that name
their organisation and period:

- routing: Phase 0 picked the document's folder;
- doc@1 / doc@3: the right document first / among the 3 searched;
- hit@3: an evidence page of the right document among the first 3 ranked
  (document, page) pairs of the folder answer; ``single hit@3`` beside it.

"Names its organisation and period" is decided here, for the report only: the
question mentions a year (2018, FY18, FY 2018) and spells out the company of the
document's file name (the engine never sees file names for this).

    python benchmarks/folder_eval.py [--eval-dir ../shared/eval] [--data-dir DIR] [--financial N] [--limit N]
                                     [--routing-only]

``--routing-only``: Phase 0 alone, before and after (seconds instead of minutes: no document
choice, no search, no single-document run), to study routing.

The library is kept in ``--data-dir`` (default benchmarks/out/folder-eval) so a
second run only asks. Writes ``benchmarks/out/folder_eval.json`` (figures) and
``folder_eval_rows.jsonl`` (per question). Exits 0 with a note when the eval set is absent.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, REPO, eval_dir_or_none, load_questions, machine_line, say_absent  # noqa: E402


def _shown(path) -> str:
    """A path as printed into results: relative to the repository when it lies inside it."""
    p = Path(path).resolve()
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(path)

from alphasearch.config import Settings  # noqa: E402
from alphasearch.errors import NotFoundError  # noqa: E402
from alphasearch.folder.search import FolderSearch  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402

FOLDERS = {
    "Annual reports and filings": {"10k", "10q", "8k", "Earnings", "Financial report"},
    "Research papers": {"Academic paper", "Research report / Introduction"},
    "Brochures and manuals": {"Brochure", "Guidebook", "Tutorial/Workshop", "Administration/Industry file"},
}
NAMED = "names org + period"
_PERIOD = re.compile(r"\b(?:fy\s?'?\d{2}(?:\d{2})?|(?:19|20)\d{2})\b", re.IGNORECASE)


def pick_documents(eval_dir: Path, financial: int | None) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Folder name → document file names, and document → doc_type. Financial filings: all of
    them, or the ``financial`` with the most questions (ties: fewer pages); others: all."""
    docs = [json.loads(line) for line in open(eval_dir / "docs.jsonl", encoding="utf-8") if line.strip()]
    out: dict[str, list[str]] = {}
    for folder, types in FOLDERS.items():
        rows = [d for d in docs if d["doc_type"] in types and d.get("n_questions", 0) > 0]
        if folder.startswith("Annual") and financial:
            rows = sorted(rows, key=lambda d: (-d["n_questions"], d["pages"]))[:financial]
        out[folder] = sorted(d["doc"] for d in rows)
    return out, {d["doc"]: d["doc_type"] for d in docs}


def names_org_and_period(question: str, doc: str) -> bool:
    """The question mentions a year and the company of the file name ("BESTBUY_2023_10K.pdf" → "Best Buy")."""
    company = re.sub(r"[^a-z]", "", doc.split("_")[0].lower())
    return bool(_PERIOD.search(question)) and len(company) >= 2 and company in re.sub(r"[^a-z0-9]", "",
                                                                                      question.lower())


def build_library(engine: Engine, eval_dir: Path, plan: dict[str, list[str]]) -> float:
    lib = engine.library
    started = time.perf_counter()
    for folder, names in plan.items():
        try:
            lib.folder(folder)
        except NotFoundError:
            lib.create_folder(folder)
        keep = set(names)
        for rec in lib.documents(folder):
            if rec.name not in keep:
                lib.remove(folder, rec.name)
        results = lib.add_paths(folder, [eval_dir / "pdfs" / n for n in names])
        counts = Counter(r.status for r in results)
        print(f"  {folder}: {dict(counts)}", flush=True)
        for r in results:
            if r.status == "rejected":
                print(f"    rejected {r.name}: {r.reason}")
    lib.facts()  # document facts of libraries built before them are read here, not during the first question
    return time.perf_counter() - started


def hit(doc_pages, doc: str, evidence, k: int) -> float:
    ev = set(evidence)
    return 1.0 if any(d == doc and p in ev for d, p in doc_pages[:k]) else 0.0


def summarise(rows: list[dict]) -> dict[str, dict]:
    """Group name → n and the mean of every figure, before and after."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups["all"].append(r)
        groups[f"folder: {r['folder']}"].append(r)
        groups[f"kind: {r['kind']}"].append(r)
        if r["named"]:
            groups[NAMED].append(r)

    def mean(key: str, sub: list[dict]) -> float:
        vals = [r[key] for r in sub if key in r]
        return round(sum(vals) / len(vals), 4) if vals else float("nan")

    out = {}
    for name, sub in groups.items():
        out[name] = {"n": len(sub), "single_hit3": mean("single_hit3", sub)}
        for when in ("before", "after"):
            out[name][when] = {m: mean(f"{when}_{m}", sub) for m in ("routing", "doc1", "doc3", "hit3")}
        # the spread of the routing change: questions it sends right that went wrong before, and back
        out[name]["routing_flips"] = {"gained": sum(r["after_routing"] > r["before_routing"] for r in sub),
                                      "lost": sum(r["after_routing"] < r["before_routing"] for r in sub)}
    return out


def print_table(summary: dict[str, dict]) -> None:
    print(f"{'group':42} {'n':>4} | {'routing':>15} {'doc@1':>13} {'doc@3':>13} {'hit@3':>13} | {'single hit@3':>12}"
          f" | {'routing flips':>13}")
    print(f"{'':42} {'':>4} | {'before → after':>15} {'':>13} {'':>13} {'':>13} | {'':>12} | {'+ / -':>13}")
    for name, g in summary.items():
        b, a = g["before"], g["after"]
        cells = " ".join(f"{b[m]:.3f} → {a[m]:.3f}".rjust(w) for m, w in (("routing", 15), ("doc1", 13),
                                                                              ("doc3", 13), ("hit3", 13)))
        flips = f"+{g['routing_flips']['gained']} / -{g['routing_flips']['lost']}"
        print(f"{name[:42]:42} {g['n']:4d} | {cells} | {g['single_hit3']:12.3f} | {flips:>13}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval-dir", default=None)
    ap.add_argument("--data-dir", default=str(OUT / "folder-eval"))
    ap.add_argument("--financial", type=int, default=None, help="only this many financial filings (default: all)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N questions")
    ap.add_argument("--routing-only", action="store_true", help="Phase 0 alone (seconds): routing before and after")
    ap.add_argument("--out", default=None, help="per-question rows (default benchmarks/out/folder_eval_rows.jsonl, "
                    "or folder_routing_rows.jsonl with --routing-only)")
    ap.add_argument("--json", default=None, help="figures (default benchmarks/out/folder_eval.json, or "
                    "folder_routing.json with --routing-only)")
    args = ap.parse_args()
    stem = "folder_routing" if args.routing_only else "folder_eval"
    args.out = args.out or str(OUT / f"{stem}_rows.jsonl")
    args.json = args.json or str(OUT / f"{stem}.json")
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line())
    started = time.perf_counter()
    after = Engine(Settings(data_dir=Path(args.data_dir), engine="offline"))
    before = Engine(Settings(data_dir=Path(args.data_dir), engine="offline", facts_weight=0.0))
    plan, kinds = pick_documents(eval_dir, args.financial)
    folder_of = {doc: folder for folder, docs in plan.items() for doc in docs}
    print(f"Building the library in {_shown(args.data_dir)}: "
          + ", ".join(f"{f} ({len(d)} PDFs)" for f, d in plan.items()), flush=True)
    seconds = build_library(after, eval_dir, plan)
    print(f"  library ready in {seconds:.1f}s", flush=True)
    records = {r.name: r for r in after.library.documents()}
    before_phase0, after_phase0 = FolderSearch(before), FolderSearch(after)
    questions = [q for q in load_questions(eval_dir) if q.doc in folder_of][: args.limit]
    rows = []
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for i, q in enumerate(questions, 1):
            row = {"id": q.id, "doc": q.doc, "folder": folder_of[q.doc], "kind": kinds.get(q.doc, "?"),
                   "named": names_org_and_period(q.question, q.doc)}
            if args.routing_only:
                for when, search in (("before", before_phase0), ("after", after_phase0)):
                    t0 = time.perf_counter()
                    routed = search.route(q.question, None, ())[0].folder
                    row.update({f"{when}_routed": routed, f"{when}_routing": float(routed == folder_of[q.doc]),
                                f"{when}_seconds": round(time.perf_counter() - t0, 3), f"{when}_also": []})
                rows.append(row)
                fh.write(json.dumps(row) + "\n")
                continue
            single = after.ask_document(after.library.load_index(records[q.doc]), q.question)
            row["single_hit3"] = 1.0 if set(single.pages[:3]) & set(q.evidence_pages) else 0.0
            for when, engine in (("before", before), ("after", after)):
                a = engine.ask_folder(q.question, save_trace=False)
                docs = a.extra["documents"]
                row.update({f"{when}_routed": a.extra["folder"], f"{when}_routing": float(a.extra["folder"] ==
                                                                                           folder_of[q.doc]),
                            f"{when}_doc1": float(bool(docs) and docs[0] == q.doc),
                            f"{when}_doc3": float(q.doc in docs[:3]),
                            f"{when}_hit3": hit(a.doc_pages, q.doc, q.evidence_pages, 3),
                            f"{when}_seconds": round(a.seconds, 3),
                            f"{when}_also": [x["doc"] for x in a.extra.get("also_found_in", ())]})
            rows.append(row)
            fh.write(json.dumps(row) + "\n")
            if i % 20 == 0:
                print(f"  {i}/{len(questions)} questions", flush=True)
    if not rows:
        print("no questions")
        return 0
    summary = summarise(rows)
    print(f"\n{len(rows)} questions over {len(folder_of)} PDFs in {len(plan)} folders (offline engine, top_k_docs="
          f"{after.settings.top_k_docs}, facts_weight before 0 → after {after.settings.facts_weight})")
    print_table(summary)
    for when in ("before", "after"):
        secs = [r[f"{when}_seconds"] for r in rows]
        wrong = Counter((r["folder"], r[f"{when}_routed"]) for r in rows if not r[f"{when}_routing"])
        print(f"{when}: latency per routed question median {statistics.median(secs):.2f}s, max {max(secs):.2f}s; "
              f"named several documents for {sum(bool(r[f'{when}_also']) for r in rows)} questions; misroutes: "
              + ("; ".join(f"{a} → {b}: {n}" for (a, b), n in wrong.most_common()) or "none"))
    meta = {"machine": machine_line(), "questions": len(rows), "pdfs": len(folder_of),
            "folders": {f: len(d) for f, d in plan.items()}, "top_k_docs": after.settings.top_k_docs,
            "facts_weight": after.settings.facts_weight, "routing_only": args.routing_only,
            "seconds": round(time.perf_counter() - started, 1)}
    Path(args.json).write_text(json.dumps({"meta": meta, "groups": summary}, indent=1), encoding="utf-8")
    print(f"rows in {_shown(args.out)}; figures in {_shown(args.json)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
