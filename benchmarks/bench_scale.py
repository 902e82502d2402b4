"""Folders of 100, 1,000 and 10,000 documents: indexing throughput, size on disk, memory, latency.

For each size N, a library holds one folder "Archive" with the first N generated reports
(benchmarks/synthetic.py, seed 0: distinct PDFs of 5-50 pages) and a small folder "Other"
(20 reports of seed 1), so Phase 0 routes between folders. Measured:

- ``folder add`` of the N reports (``Library.add_paths``, ``--workers`` processes): documents/s, pages/s;
- the library's size on disk (PDFs, indexes, catalog, saved rankers and page indexes);
- a serving process (a new Python process with one Engine): its resident memory (RSS) after a
  warm-up question, and the latency of warm folder questions routed without naming a folder,
  per phase (Phase 0 routing, Phase 1 document choice, Phase 2 search), p50 and p95, with
  doc@3 (the report holding the planted fact among the 3 documents searched) as a sanity check.

Generated PDFs and built libraries are kept under ``--workdir`` (default benchmarks/out/scale) and
reused by later runs (a library is rebuilt when its document count differs); the results table
is written to benchmarks/results/bench_scale.md (and .json). The 10,000-document size is heavy
(about 130,000 pages to index): build it in chunks, each under a lock file of your choice (so no other
heavy job runs beside it), then measure:

    for i in $(seq 20); do flock "$LOCK" python benchmarks/bench_scale.py --build-only --sizes 10000 --chunk 500; done
    flock "$LOCK" python benchmarks/bench_scale.py --sizes 100,1000,10000

    python benchmarks/bench_scale.py                       # 100 and 1,000
    python benchmarks/bench_scale.py --sizes 100,1000,10000 --workers 2
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import synthetic  # noqa: E402

from alphasearch.config import Settings  # noqa: E402

RESULTS = HERE / "results"
OTHER = 20  # documents of the second folder


def _write_range(args: tuple[str, int, int, int]) -> list[tuple[int, str]]:
    directory, start, stop, seed = args
    out = []
    for i in range(start, stop):
        name = synthetic.file_name(i, seed)
        path = Path(directory) / name
        if not path.exists():
            path.write_bytes(synthetic.report(i, seed).data)
        out.append((i, name))
    return out


def generate(directory: Path, count: int, seed: int, procs: int) -> list[Path]:
    """Reports 0..count-1 in ``directory``, reusing what an earlier run wrote (manifest)."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest = directory / f"manifest-{seed}.json"
    known: dict[str, str] = json.loads(manifest.read_text()) if manifest.exists() else {}
    missing = [i for i in range(count) if str(i) not in known or not (directory / known[str(i)]).exists()]
    if missing:
        t = time.perf_counter()
        chunks = [(str(directory), a, min(a + 200, max(missing) + 1), seed)
                  for a in range(min(missing), max(missing) + 1, 200)]
        with ProcessPoolExecutor(max_workers=procs) as pool:
            for part in pool.map(_write_range, chunks):
                known.update({str(i): name for i, name in part})
        manifest.write_text(json.dumps(known))
        print(f"generated {len(missing)} reports (seed {seed}) in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return [directory / known[str(i)] for i in range(count)]


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build_library(workdir: Path, n: int, workers: int, chunk: int = 0, reuse_from: Path | None = None) -> dict:
    """The library of size n, built (or continued) from where an earlier run stopped; with
    ``chunk`` > 0 at most that many more reports are added by this call, so a long build can
    run as several short jobs. Timing figures add up over the calls."""
    from alphasearch.library import Library

    lib_dir = workdir / f"lib-{n}"
    meta_path = lib_dir / "build.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    if meta.get("documents") == n:
        return {**meta, "reused": True}
    lib = Library(lib_dir, settings=Settings(data_dir=lib_dir, engine="offline"))
    if not meta:
        shutil.rmtree(lib_dir / "library", ignore_errors=True)
        lib = Library(lib_dir, settings=Settings(data_dir=lib_dir, engine="offline"))
        lib.create_folder("Archive")
        lib.create_folder("Other")
        lib.add_paths("Other", generate(workdir / "pdfs-other", OTHER, 1, max(1, workers)), workers=workers)
        meta = {"documents": 0, "pages": 0, "add_seconds": 0.0, "workers": workers}
    done = meta["documents"]
    upto = n if chunk <= 0 else min(n, done + chunk)
    paths = generate(workdir / "pdfs", upto, 0, max(1, workers))[done:upto]
    if reuse_from is not None:  # copy the indexes a bigger library built: no indexing, so no rates either
        for path in paths:
            sha = hashlib.sha256(path.read_bytes()).hexdigest()
            src = reuse_from / "library" / "indexes" / f"{sha}.json"
            if src.exists():
                shutil.copyfile(src, lib.indexes.dir / src.name)
        meta["reused_indexes"] = str(reuse_from.name)
    t = time.perf_counter()
    results = lib.add_paths("Archive", paths, workers=workers)
    seconds = time.perf_counter() - t
    bad = [r for r in results if r.status not in ("indexed", "unchanged")]  # unchanged: an interrupted run's
    if bad:
        raise SystemExit(f"{len(bad)} reports were not indexed, e.g. {bad[0].name}: {bad[0].status} {bad[0].reason}")
    fresh = [r for r in results if r.status == "indexed" and r.record]
    meta["documents"] = upto
    meta["indexed"] = meta.get("indexed", done) + len(fresh)  # the rates count what was timed
    meta["pages"] += sum(r.record.pages for r in results if r.record)
    meta["timed_pages"] = meta.get("timed_pages", meta["pages"] - sum(r.record.pages for r in results if r.record)) \
        + sum(r.record.pages for r in fresh)
    meta["add_seconds"] = round(meta["add_seconds"] + seconds, 1)
    meta["docs_per_s"] = round(meta["indexed"] / meta["add_seconds"], 2)
    meta["pages_per_s"] = round(meta["timed_pages"] / meta["add_seconds"], 1)
    meta["built"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    meta_path.parent.mkdir(parents=True, exist_ok=True)
    meta_path.write_text(json.dumps(meta))
    return {**meta, "reused": False}


def questions(n: int, count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(question, file name holding its answer) for ``count`` reports among the first n."""
    rng = random.Random(seed)
    picks = rng.sample(range(n), min(count, n))
    return [(r.question, r.name) for r in (synthetic.report(i, 0) for i in picks)]


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def serve(lib_dir: Path, n: int, count: int) -> dict:
    """Run in a new process: one Engine on the library, a warm-up question, then ``count`` questions."""
    from alphasearch.pipeline import Engine

    t0 = time.perf_counter()
    engine = Engine(Settings(data_dir=lib_dir, engine="offline"))
    qs = questions(n, count + 1)
    warm_q, _ = qs[0]
    t = time.perf_counter()
    startup = t - t0
    engine.ask_folder(warm_q, save_trace=False)
    cold = time.perf_counter() - t
    rss_warm = _rss_mb()
    phases: dict[str, list[float]] = {"routing": [], "documents": [], "search": [], "total": []}
    hits = routed = 0
    for q, name in qs[1:]:
        a = engine.ask_folder(q, save_trace=False)
        for k in phases:
            phases[k].append(a.folder_trace.seconds[k])
        hits += name in a.extra["documents"]
        routed += a.extra["folder"] == "Archive"
    # one more report added while serving: the next question rebuilds what is keyed by the catalog's revision
    extra = synthetic.report(0, seed=2)
    engine.library.add("Archive", extra.name, extra.data)
    t = time.perf_counter()
    engine.ask_folder(extra.question, save_trace=False)
    after_add = time.perf_counter() - t
    engine.library.remove("Archive", extra.name)
    return {"first_question_s": round(cold, 2), "after_add_s": round(after_add, 2), "startup_s": round(startup, 2),
            "rss_mb": round(rss_warm),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "questions": len(qs) - 1, "doc_at_3": round(hits / max(1, len(qs) - 1), 3),
            "routed_right": round(routed / max(1, len(qs) - 1), 3),
            **{f"{k}_p50": round(statistics.median(v), 4) for k, v in phases.items()},
            **{f"{k}_p95": round(_p95(v), 4) for k, v in phases.items()}}


def _p95(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


def measure(workdir: Path, n: int, workers: int, count: int) -> dict:
    meta = build_library(workdir, n, workers)
    lib_dir = workdir / f"lib-{n}"
    root = lib_dir / "library"
    sizes = {"total": dir_size(lib_dir), "pdfs": dir_size(root / "pdfs"), "indexes": dir_size(root / "indexes"),
             "catalog": sum(p.stat().st_size for p in root.glob("catalog.sqlite3*")),
             "rankers": dir_size(lib_dir / "rankers") if (lib_dir / "rankers").exists() else 0,
             "page_index": dir_size(root / "passages") if (root / "passages").exists() else 0}
    proc = subprocess.run([sys.executable, __file__, "--serve", str(lib_dir), "--n", str(n),
                           "--questions", str(count)], capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"serving process failed:\n{proc.stderr[-3000:]}")
    served = json.loads(proc.stdout.strip().splitlines()[-1])
    sizes_after = dir_size(lib_dir)
    return {**meta, "size_mb": round(sizes["total"] / 2**20, 1),
            "size_parts_mb": {k: round(v / 2**20, 1) for k, v in sizes.items()},
            "size_after_questions_mb": round(sizes_after / 2**20, 1), **served}


def table(rows: list[dict]) -> str:
    head = ["documents", "pages", "add (s)", "docs/s", "pages/s", "disk (MB)", "serving RSS (MB)",
            "first question (s)", "question after an add (s)", "Phase 0 p50/p95 (s)", "Phase 1 p50/p95 (s)", "Phase 2 p50/p95 (s)",
            "question p50/p95 (s)", "doc@3", "measured"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join([
            f"{r['documents']:,}", f"{r['pages']:,}",
            *(("—", "—", "— (indexes copied)") if r.get("reused_indexes") else
              (f"{r['add_seconds']:,.0f}", f"{r['docs_per_s']:.1f}", f"{r['pages_per_s']:.0f}")), f"{r['size_after_questions_mb']:,.0f}", f"{r['rss_mb']:,}",
            f"{r['first_question_s']:.1f}", f"{r.get('after_add_s', float('nan')):.1f}",
            f"{r['routing_p50']:.3f} / {r['routing_p95']:.3f}", f"{r['documents_p50']:.3f} / {r['documents_p95']:.3f}",
            f"{r['search_p50']:.3f} / {r['search_p95']:.3f}", f"{r['total_p50']:.3f} / {r['total_p95']:.3f}",
            f"{r['doc_at_3']:.2f}", r.get("measured", "")]) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000", help="comma-separated folder sizes (add 10000 for the big one)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="folder add processes")
    p.add_argument("--questions", type=int, default=30, help="warm questions per size")
    p.add_argument("--workdir", default=str(HERE / "out" / "scale"), help="generated PDFs and libraries (reused)")
    p.add_argument("--build-only", action="store_true", help="generate and index, measure nothing")
    p.add_argument("--chunk", type=int, default=0, help="with --build-only: add at most this many reports per run")
    p.add_argument("--reuse-indexes", default=None, metavar="LIBDIR",
                   help="with --build-only: copy the indexes from a bigger library built earlier (no rates measured)")
    p.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        print(json.dumps(serve(Path(args.serve), args.n, args.questions)))
        return 0
    workdir = Path(args.workdir)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.build_only:
        for n in sizes:
            print(json.dumps(build_library(workdir, n, args.workers, args.chunk,
                                           Path(args.reuse_indexes) if args.reuse_indexes else None)))
        return 0
    rows = []
    for n in sizes:
        row = measure(workdir, n, args.workers, args.questions)
        row["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print(json.dumps(row), file=sys.stderr)
        rows.append(row)
    RESULTS.mkdir(exist_ok=True)
    previous = {}
    if (RESULTS / "bench_scale.json").exists():
        previous = {r["documents"]: r for r in json.loads((RESULTS / "bench_scale.json").read_text())["rows"]}
    previous.update({r["documents"]: r for r in rows})
    merged = [previous[k] for k in sorted(previous)]
    machine = f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
    (RESULTS / "bench_scale.json").write_text(json.dumps({"machine": machine, "rows": merged}, indent=1))
    text = (f"# Scale benchmark (benchmarks/bench_scale.py)\n\nMachine: {machine}; warm folder questions routed "
            f"over two folders (Archive with N reports, Other with {OTHER}); latencies are medians/p95 of "
            f"{args.questions} questions after one warm-up question. Sizes measured in other runs keep "
            f"their last figures (see *measured*).\n\n{table(merged)}\n")
    (RESULTS / "bench_scale.md").write_text(text)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
