"""Indexing the eval PDFs into a folder: one process, N local worker processes, and a local Ray cluster.

Each run adds every PDF of ../shared/eval/pdfs to a folder of a fresh library (``Library.add_paths``),
so nothing is reused: in one worker process (``workers=1``), in ``--workers`` worker processes (the
PDF-parsing workers of alphasearch/index/isolation.py, started once and reused), and as
Ray tasks on a local Ray cluster with ``--workers`` CPUs (its start-up, paid once per
``folder add --cluster local``, is reported apart from the indexing). Results go to
benchmarks/results/bench_cluster.md (and .json).

    python benchmarks/bench_cluster.py [--eval-dir ../shared/eval] [--workers 2] [--limit N] [--no-ray]

The eval set is read in place (CC BY-NC; never copied). Exits 0 with a note when it is absent.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import eval_dir_or_none, machine_line, say_absent  # noqa: E402

from alphasearch.index import cluster  # noqa: E402
from alphasearch.config import Settings  # noqa: E402
from alphasearch.library import Library  # noqa: E402

RESULTS = HERE / "results"


def add(paths: list[Path], **kwargs) -> tuple[float, int, int]:
    """(seconds, documents indexed, pages) of one ``add_paths`` into a fresh library."""
    with tempfile.TemporaryDirectory(prefix="alphasearch-bench-") as tmp:
        lib = Library(Path(tmp), settings=Settings(data_dir=Path(tmp), engine="offline"))
        lib.create_folder("eval")
        t = time.perf_counter()
        results = lib.add_paths("eval", paths, **kwargs)
        seconds = time.perf_counter() - t
    ok = [r for r in results if r.status == "indexed"]
    return seconds, len(ok), sum(r.record.pages for r in ok if r.record)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    p.add_argument("--limit", type=int, default=0, help="only the first N PDFs")
    p.add_argument("--no-ray", action="store_true", help="skip the Ray cluster runs")
    args = p.parse_args(argv)
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    paths = sorted((eval_dir / "pdfs").glob("*.pdf"))[: args.limit or None]
    for path in paths:  # warm the file cache so the first run does not pay for the disk
        path.read_bytes()
    rows = []
    s1, n1, pages = add(paths, workers=1)
    rows.append({"run": "1 worker process", "seconds": s1, "documents": n1})
    s2, n2, _ = add(paths, workers=args.workers)
    rows.append({"run": f"{args.workers} worker processes", "seconds": s2, "documents": n2})
    if not args.no_ray:
        t = time.perf_counter()
        with cluster.connect("local", args.workers):
            start = time.perf_counter() - t
            s3, n3, _ = add(paths, cluster="local", workers=args.workers)
        rows.append({"run": f"local Ray cluster, {args.workers} CPUs (indexing)", "seconds": s3, "documents": n3})
        rows.append({"run": f"local Ray cluster, {args.workers} CPUs (with its start-up, {start:.1f} s)",
                     "seconds": s3 + start, "documents": n3})
    for r in rows:
        r["speedup"] = round(s1 / r["seconds"], 2)
        r["pages_per_s"] = round(pages / r["seconds"], 1)
        r["seconds"] = round(r["seconds"], 1)
    out = {"machine": machine_line(), "pdfs": len(paths), "pages": pages, "rows": rows,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_cluster.json").write_text(json.dumps(out, indent=1))
    lines = [f"# Indexing {len(paths)} eval PDFs ({pages:,} pages) into a folder (benchmarks/bench_cluster.py)", "",
             f"{out['machine']}; {out['date']}; one run, each into a fresh library.", "",
             "| run | seconds | documents indexed | pages/s | speed-up vs 1 worker |", "|---|---|---|---|---|"]
    lines += [f"| {r['run']} | {r['seconds']} | {r['documents']} | {r['pages_per_s']} | {r['speedup']}× |"
              for r in rows]
    (RESULTS / "bench_cluster.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
