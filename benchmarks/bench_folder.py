"""Folder-mode benchmark on the eval PDFs: query latency by folder size, and the cost of adding a folder.

1. Adding a folder: ``Library.add_paths`` of N PDFs into a fresh library, next to
   indexing the same PDFs one by one with ``Engine.index_file`` (single-document
   mode, no catalog), with the library indexing in this process (the default)
   and in two worker processes (``workers=2``), then the same add again (every file
   unchanged → skipped).
2. Query latency: folders of 5, 20 and all 74 PDFs; eval questions of their
   documents asked with the folder given (Phase 1 + 2) and routed across the three
   folders (Phase 0 + 1 + 2; the folders overlap, so a routed question may be
   answered from a folder of another size). Cold = the folder's first question ever (builds
   and saves the folder's page index and the chosen documents' rankers); restart = the first
   question of a new engine once those are saved; warm = median / p95 of the rest.

    python benchmarks/bench_folder.py [--eval-dir ../shared/eval] [--add-docs 20] [--questions 20] [--json out.json]

Indexes for the latency part are reused from ``benchmarks/out/data`` (shared
with the other benchmarks). Exits 0 with a note when the eval set is absent.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, Trees, eval_dir_or_none, load_questions, machine, machine_line, say_absent  # noqa: E402

from alphasearch.config import Settings  # noqa: E402
from alphasearch.errors import NotFoundError  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402
from alphasearch.library import Library  # noqa: E402


def all_docs(eval_dir: Path) -> list[dict]:
    return [json.loads(line) for line in open(eval_dir / "docs.jsonl", encoding="utf-8") if line.strip()]


def bench_add(eval_dir: Path, names: list[str]) -> dict:
    paths = [eval_dir / "pdfs" / n for n in names]
    pages = sum(d["pages"] for d in all_docs(eval_dir) if d["doc"] in set(names))
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(Settings(data_dir=Path(tmp) / "single", engine="offline"))
        t = time.perf_counter()
        for p in paths:
            engine.index_file(p)
        one_by_one = time.perf_counter() - t
        seq = Library(Path(tmp) / "lib-sequential")
        seq.create_folder("bench")
        t = time.perf_counter()
        results = seq.add_paths("bench", paths)
        add_seq = time.perf_counter() - t
        assert all(r.status == "indexed" for r in results), [(r.name, r.reason) for r in results if not r.ok]
        lib = Library(Path(tmp) / "lib")
        lib.create_folder("bench")
        t = time.perf_counter()
        results = lib.add_paths("bench", paths, workers=2)
        add = time.perf_counter() - t
        assert all(r.status == "indexed" for r in results), [(r.name, r.reason) for r in results if not r.ok]
        t = time.perf_counter()
        again = lib.add_paths("bench", paths)
        unchanged = time.perf_counter() - t
        assert all(r.status == "unchanged" for r in again)
        t = time.perf_counter()
        health = lib.health()
        health_s = time.perf_counter() - t
    return {"docs": len(names), "pages": pages, "index_one_by_one_s": one_by_one, "folder_add_s": add,
            "folder_add_one_process_s": add_seq,
            "add_again_unchanged_s": unchanged, "health_s": health_s, "health_ok": health.ok}


def build_query_library(engine: Engine, eval_dir: Path, sizes: dict[str, list[str]]) -> float:
    trees = Trees(eval_dir)

    def build(data: bytes, name: str, progress=None):  # reuse trees cached by the other benchmarks
        return trees.get(name)

    engine.library.build = build
    t = time.perf_counter()
    for folder, names in sizes.items():
        try:
            engine.library.folder(folder)
        except NotFoundError:
            engine.library.create_folder(folder)
        res = engine.library.add_paths(folder, [eval_dir / "pdfs" / n for n in names])
        bad = [(r.name, r.reason) for r in res if not r.ok]
        if bad:
            print(f"  not added to {folder}: {bad}")
    return time.perf_counter() - t


def latency(engine: Engine, questions: list, folder: str | None) -> dict:
    secs = []
    for q in questions:
        t = time.perf_counter()
        engine.ask_folder(q.question, folder=folder, save_trace=False)
        secs.append(time.perf_counter() - t)
    warm = secs[1:] or secs
    return {"cold_s": secs[0], "warm_median_s": statistics.median(warm),
            "warm_p95_s": sorted(warm)[max(0, int(round(0.95 * len(warm))) - 1)], "n": len(secs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval-dir", default=None)
    ap.add_argument("--data-dir", default=str(OUT / "folder-bench"))
    ap.add_argument("--add-docs", type=int, default=20, help="PDFs in the add-a-folder timing (default 20)")
    ap.add_argument("--questions", type=int, default=20, help="questions per folder size (default 20)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args()
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line(), flush=True)
    rng = random.Random(args.seed)
    docs = all_docs(eval_dir)
    # small documents first for the add timing, so the run stays short; a mix of sizes
    by_pages = sorted(docs, key=lambda d: (d["pages"], d["doc"]))
    add_names = [d["doc"] for d in by_pages[: args.add_docs]]
    print(f"\n1. Adding {len(add_names)} PDFs …", flush=True)
    add = bench_add(eval_dir, add_names)
    print(f"  {add['docs']} PDFs, {add['pages']} pages:\n"
          f"    index one by one (Engine.index_file, no library)   {add['index_one_by_one_s']:6.1f}s\n"
          f"    add as a folder (default: one process)             {add['folder_add_one_process_s']:6.1f}s\n"
          f"    add as a folder, 2 index processes (workers=2)     {add['folder_add_s']:6.1f}s\n"
          f"    add the same folder again (all unchanged)          {add['add_again_unchanged_s']:6.2f}s\n"
          f"    health check afterwards                            {add['health_s']:6.2f}s", flush=True)

    with_q = sorted({q.doc for q in load_questions(eval_dir)})
    shuffled = with_q[:]
    rng.shuffle(shuffled)
    sizes = {"5 PDFs": shuffled[:5], "20 PDFs": shuffled[:20], "74 PDFs": [d["doc"] for d in docs]}
    engine = Engine(Settings(data_dir=Path(args.data_dir), engine="offline"))
    print(f"\n2. Query latency (library in {args.data_dir}) …", flush=True)
    built = build_query_library(engine, eval_dir, sizes)
    print(f"  library ready in {built:.1f}s", flush=True)
    all_q = load_questions(eval_dir)
    rows = []
    for folder, names in sizes.items():
        qs = [q for q in all_q if q.doc in set(names)]
        rng.shuffle(qs)
        qs = qs[: args.questions]
        for saved in (engine.library.passages.root, engine.rankers.root):  # nothing saved: a first question ever
            shutil.rmtree(saved, ignore_errors=True)
        fresh = Engine(Settings(data_dir=Path(args.data_dir), engine="offline"))  # cold caches
        given = latency(fresh, qs, folder)
        routed = latency(fresh, qs, None)
        restarted = Engine(Settings(data_dir=Path(args.data_dir), engine="offline"))  # a restart: indexes saved
        given["restart_s"] = latency(restarted, qs[:1], folder)["cold_s"]
        rows.append((folder, given, routed))
    print("\n  cold: the folder's first question ever (builds and saves its page indexes); restart: the first")
    print("  question of a new process once they are saved; median / p95: the other questions")
    print(f"\n  {'folder':10} {'n':>3}  {'given: cold':>11} {'restart':>8} {'median':>7} {'p95':>6}   "
          f"{'routed: cold':>12} {'median':>7} {'p95':>6}")
    for folder, g, r in rows:
        print(f"  {folder:10} {g['n']:3d}  {g['cold_s']:10.2f}s {g['restart_s']:7.2f}s {g['warm_median_s']:6.2f}s "
              f"{g['warm_p95_s']:5.2f}s   {r['cold_s']:11.2f}s {r['warm_median_s']:6.2f}s {r['warm_p95_s']:5.2f}s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n  peak RSS {rss:.0f} MB")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "add": add, "peak_rss_mb": rss,
                                               "latency": {f: {"given": g, "routed": r} for f, g, r in rows}},
                                              indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
