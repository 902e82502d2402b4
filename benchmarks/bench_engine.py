"""Engine benchmark on the eval PDFs: indexing speed, query latency, search effort, memory.

Every figure comes with the machine and a baseline measured in the same run:
- indexing pages/second (PDF bytes → stored section tree, offline) next to raw
  PyMuPDF text extraction of the same PDFs (the floor: ``page.get_text()``);
- query latency of the offline engine (``Engine.ask_document``: MCTS + deep read +
  extractive answer), median and p95, cold (first question on a document, builds
  its scorers) and warm, next to flat BM25 over whole pages;
- nodes scored per query next to nodes in the tree;
- peak memory: process max RSS, and tracemalloc peak while indexing the largest PDF;
- the command line: `query` in a new process on the largest PDF once indexed, next to a
  process that only imports the libraries and loads the embedding model (the floor).

    python benchmarks/bench_engine.py [--eval-dir ../shared/eval] [--limit-docs N] [--limit-questions N] [--cli-repeats N] [--json out.json]

Exits 0 with a note when the eval set is absent. Never part of the test run.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, eval_dir_or_none, load_questions, machine, machine_line, say_absent, write_json  # noqa: E402

import pymupdf  # noqa: E402  (the floor: raw text extraction, measured outside the engine)

from alphasearch.index import indexer  # noqa: E402
from alphasearch.search.baselines import flat_bm25_pages  # noqa: E402
from alphasearch.config import Settings  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402
from alphasearch.lang.embeddings import embed  # noqa: E402


def pick_docs(names: list[str], limit: int) -> list[str]:
    """``limit`` names spread evenly over the sorted list (all when limit is 0)."""
    names = sorted(names)
    if not limit or limit >= len(names):
        return names
    step = len(names) / limit
    return [names[int(i * step)] for i in range(limit)]


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def raw_extract(data: bytes) -> int:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            page.get_text()
        return doc.page_count


_FLOOR = ("import sys; sys.modules.update({'pymupdf.layout': None, 'pymupdf4llm': None}); "  # as alphasearch.pdf
          "from pathlib import Path; import numpy, bm25s, pymupdf, wordllama; "
          "wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True).embed(['x'])")


def cli_latency(pdf_path: Path, question: str, repeats: int) -> dict:
    """Wall time of ``python -m alphasearch query`` in a new process on an indexed PDF (median
    of ``repeats``), next to the floor measured in the same run: a process that only imports the
    engine's libraries and loads the embedding model."""
    def wall(cmd: list[str], env: dict) -> float:
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="alphasearch-cli-") as tmp:
        env = {**os.environ, "ALPHASEARCH_DATA_DIR": tmp, "PYTHONPATH": str(root)}
        query = [sys.executable, "-m", "alphasearch", "query", str(pdf_path), question]
        first = wall(query, env)  # indexes the PDF and saves its ranker
        repeated = [wall(query, env) for _ in range(repeats)]
        floor = [wall([sys.executable, "-c", _FLOOR], env) for _ in range(repeats)]
        bare = [wall([sys.executable, "-c", "pass"], env) for _ in range(repeats)]
    return {"cli_pdf": pdf_path.name, "cli_first_s": round(first, 2),
            "cli_repeat_median_s": round(statistics.median(repeated), 2),
            "cli_floor_median_s": round(statistics.median(floor), 2),
            "cli_bare_python_median_s": round(statistics.median(bare), 2)}


def run(args: argparse.Namespace) -> int:
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line())
    load_before = os.getloadavg()[0]
    print(f"load average (1 min) before the run: {load_before:.2f} — other processes slow every figure")
    questions = load_questions(eval_dir)
    by_doc: dict[str, list] = defaultdict(list)
    for q in questions:
        by_doc[q.doc].append(q)
    docs = pick_docs(list(by_doc), args.limit_docs)
    blobs = {d: (eval_dir / "pdfs" / d).read_bytes() for d in docs}
    total_pages = 0

    # 1. raw extraction (floor), then indexing into a fresh data dir
    t = time.perf_counter()
    for d in docs:
        total_pages += raw_extract(blobs[d])
    raw_s = time.perf_counter() - t

    t = time.perf_counter()
    embed(["warm up"])  # load the static embedding model once, timed apart
    model_load_s = time.perf_counter() - t

    with tempfile.TemporaryDirectory(prefix="alphasearch-bench-") as tmp:
        engine = Engine(Settings(data_dir=Path(tmp), engine="offline"))
        indexes = {}
        per_doc_s = {}
        t = time.perf_counter()
        for d in docs:
            t1 = time.perf_counter()
            indexes[d] = engine.index_bytes(blobs[d], d)
            per_doc_s[d] = time.perf_counter() - t1
        index_s = time.perf_counter() - t

        t = time.perf_counter()
        for d in docs:
            engine.index_bytes(blobs[d], d)
        reload_s = time.perf_counter() - t

        # 2. queries: cold (first on a document) and warm; flat BM25 in the same loop
        cold, warm, flat_cold, flat_warm, nodes_scored, tree_nodes, share = [], [], [], [], [], [], []
        n_q = 0
        for d in docs:
            doc = indexes[d]
            for i, q in enumerate(by_doc[d]):
                if args.limit_questions and n_q >= args.limit_questions:
                    break
                n_q += 1
                t = time.perf_counter()
                ans = engine.ask_document(doc, q.question)
                (cold if i == 0 else warm).append(time.perf_counter() - t)
                t = time.perf_counter()
                flat_bm25_pages(doc, q.question)
                (flat_cold if i == 0 else flat_warm).append(time.perf_counter() - t)
                n_nodes = doc.section_count()
                scored = ans.trace.nodes_scored if ans.trace else 0
                nodes_scored.append(scored)
                tree_nodes.append(n_nodes)
                share.append(scored / n_nodes)

    # 3. memory: tracemalloc while indexing the largest PDF of the sample
    biggest = max(docs, key=lambda d: indexes[d].page_count)
    cli = cli_latency(eval_dir / "pdfs" / biggest, by_doc[biggest][0].question, args.cli_repeats)
    tracemalloc.start()
    indexer.build_index(blobs[biggest], biggest)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB

    allq = cold + warm
    flat = flat_cold + flat_warm
    result = {
        "machine": machine(),
        "load_1min_before": round(load_before, 2),
        "load_1min_after": round(os.getloadavg()[0], 2),
        "documents": len(docs),
        "pages": total_pages,
        "megabytes": round(sum(len(b) for b in blobs.values()) / 2**20, 1),
        "raw_extract_pages_per_s": round(total_pages / raw_s, 1),
        "index_pages_per_s": round(total_pages / index_s, 1),
        "index_vs_raw": round(raw_s / index_s, 3),
        "index_seconds": round(index_s, 2),
        "slowest_index": max(per_doc_s.items(), key=lambda kv: kv[1])[0],
        "slowest_index_seconds": round(max(per_doc_s.values()), 2),
        "reload_seconds": round(reload_s, 2),
        "model_load_seconds": round(model_load_s, 2),
        "queries": len(allq),
        "query_median_ms": round(1000 * statistics.median(allq), 1),
        "query_p95_ms": round(1000 * pct(allq, 95), 1),
        "cold_median_ms": round(1000 * statistics.median(cold), 1) if cold else None,
        "warm_median_ms": round(1000 * statistics.median(warm), 1) if warm else None,
        "warm_p95_ms": round(1000 * pct(warm, 95), 1) if warm else None,
        "flat_bm25_median_ms": round(1000 * statistics.median(flat), 2),
        "flat_bm25_p95_ms": round(1000 * pct(flat, 95), 2),
        "flat_bm25_cold_median_ms": round(1000 * statistics.median(flat_cold), 2) if flat_cold else None,
        "flat_bm25_warm_median_ms": round(1000 * statistics.median(flat_warm), 2) if flat_warm else None,
        "query_vs_flat_median": round(statistics.median(allq) / max(statistics.median(flat), 1e-9), 1),
        "warm_vs_flat_warm_median": round(statistics.median(warm) / max(statistics.median(flat_warm), 1e-9), 1)
        if warm and flat_warm else None,
        "nodes_scored_mean": round(statistics.fmean(nodes_scored), 1),
        "tree_nodes_mean": round(statistics.fmean(tree_nodes), 1),
        "scored_share_median": round(statistics.median(share), 3),
        "tracemalloc_peak_mb_index_largest": round(traced_peak / 2**20, 1),
        "largest_pdf": biggest,
        "largest_pdf_pages": indexes[biggest].page_count,
        "max_rss_mb": round(maxrss_mb, 1),
        **cli,
    }
    print_result(result)
    if args.json:
        write_json(args.json, result)
    return 0


def print_result(r: dict) -> None:
    print(f"{r['documents']} PDFs, {r['pages']} pages, {r['megabytes']} MB; {r['queries']} questions\n")
    print("indexing (offline: read, headings, tree, summaries, store)")
    print(f"  raw PyMuPDF text extraction (floor) {r['raw_extract_pages_per_s']:>8.1f} pages/s")
    print(f"  AlphaSearch index                   {r['index_pages_per_s']:>8.1f} pages/s  "
          f"({r['index_vs_raw']:.2f}× the floor's speed; {r['index_seconds']} s in all, "
          f"slowest {r['slowest_index']} {r['slowest_index_seconds']} s)")
    print(f"  the same PDFs again (index cache hit): {r['reload_seconds']} s; "
          f"embedding model load {r['model_load_seconds']} s (once per process)")
    print("query latency (offline ask_document: MCTS + deep read + answer)")
    print(f"  all   median {r['query_median_ms']} ms, p95 {r['query_p95_ms']} ms")
    print(f"  cold  median {r['cold_median_ms']} ms (first question on a document: builds its scorers)")
    print(f"  warm  median {r['warm_median_ms']} ms, p95 {r['warm_p95_ms']} ms")
    print(f"  flat BM25 over whole pages (baseline): median {r['flat_bm25_median_ms']} ms, p95 {r['flat_bm25_p95_ms']} ms; "
          f"cold {r['flat_bm25_cold_median_ms']} ms, warm {r['flat_bm25_warm_median_ms']} ms")
    print(f"  engine/flat median ratio: all {r['query_vs_flat_median']}×, warm {r['warm_vs_flat_warm_median']}×")
    print(f"search effort: {r['nodes_scored_mean']} nodes scored per query, mean tree {r['tree_nodes_mean']} nodes "
          f"(median share scored {r['scored_share_median']:.0%})")
    print(f"command line, a new process each time: `query` on {r['cli_pdf']} {r['cli_first_s']} s the first time "
          f"(indexes it), then median {r['cli_repeat_median_s']} s; floor (import the libraries, load the "
          f"embedding model) {r['cli_floor_median_s']} s; bare Python {r['cli_bare_python_median_s']} s")
    print(f"memory: max RSS {r['max_rss_mb']} MB; tracemalloc peak indexing {r['largest_pdf']} "
          f"({r['largest_pdf_pages']} pages) {r['tracemalloc_peak_mb_index_largest']} MB")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None, help="eval set folder (default ../shared/eval)")
    p.add_argument("--limit-docs", type=int, default=0, help="this many PDFs spread over the set (0 = all 74)")
    p.add_argument("--limit-questions", type=int, default=0, help="stop after this many questions (0 = all)")
    p.add_argument("--json", default=str(OUT / "bench_engine.json"), help="write the figures here")
    p.add_argument("--cli-repeats", type=int, default=5, help="new-process `query` runs timed (median)")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
