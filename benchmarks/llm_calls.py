"""How many model calls does one single-document query make with the LLM engine?

Runs the "openai" engine with default search settings (25 iterations, PUCT,
early stop, sibling batching) against the local OpenAI-compatible test server
(tests/llm_server.py: a deterministic fake model that scores sections by word
overlap and answers from the best sentence), on a fresh disk cache, and counts
the HTTP requests the server received per query, split into search (scoring)
calls, answer calls and knowledge-gap checks (the fake model names no gap, so
there is no second round). Indexing calls are counted separately, per document.

The count depends on the scores the model gives (early stop needs three
confident leaves), so a real model can stop sooner or later than the fake one;
the structure (one call per expanded node, one answer call) is the same.

    python benchmarks/llm_calls.py                 # the sample report + 40 eval questions
    python benchmarks/llm_calls.py --questions 0   # the sample report only
    python benchmarks/llm_calls.py --eval-dir PATH --questions 80 --seed 1
    python benchmarks/llm_calls.py --tree offline  # search the structural tree instead
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, Trees, eval_dir_or_none, load_questions, machine_line

sys.path.insert(0, str(REPO / "tests"))

from llm_server import FakeLLMServer  # noqa: E402

from alphasearch.engines import llm as llm_engine  # noqa: E402
from alphasearch.config import Settings  # noqa: E402
from alphasearch.index.indexer import build_index  # noqa: E402
from alphasearch.llm.client import Meter  # noqa: E402
from alphasearch.index.llm_tree import build_llm_index  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402
from alphasearch.library.sample import sample_pdf_bytes  # noqa: E402

SAMPLE_QUESTIONS = [
    "What was the total revenue in 2025?",
    "Who is the chief executive officer?",
    "How much free cash flow did the company generate?",
    "Which market will the company enter in 2026?",
    "By how much did scope 1 and 2 emissions fall?",
]


def run(args: argparse.Namespace) -> int:
    server = FakeLLMServer().start()
    rows: list[dict] = []
    index_rows: list[tuple[str, int, int]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(data_dir=Path(tmp), engine="openai", base_url=server.url, api_key="",
                                max_retries=0, request_timeout=30)
            engine = Engine(settings)
            work: list[tuple[str, object, str]] = []
            sample = build_index(sample_pdf_bytes(), "northwind-sample.pdf")
            work += [("sample", sample, q) for q in SAMPLE_QUESTIONS]
            eval_dir = eval_dir_or_none(args.eval_dir)
            if args.questions and eval_dir is None:
                print(f"(eval set not found at {args.eval_dir or '../shared/eval'}; sample report only)")
            elif args.questions:
                qs = load_questions(eval_dir)
                random.Random(args.seed).shuffle(qs)
                trees = Trees(eval_dir)
                for q in qs[:args.questions]:
                    work.append(("eval", trees.get(q.doc), q.question))
            llm_docs: dict[str, object] = {}
            for kind, offline, question in work:
                if args.tree == "offline":
                    llm_docs.setdefault(offline.doc_id, offline)
                if offline.doc_id not in llm_docs:
                    before = server.count
                    result = build_llm_index(offline, llm_engine.engine_llm(engine), model=settings.index_model,
                                             meter=Meter(), workers=settings.workers)
                    llm_docs[offline.doc_id] = result.index
                    index_rows.append((offline.name, offline.page_count, server.count - before))
                doc = llm_docs[offline.doc_id]
                before = len(server.requests)
                started = time.perf_counter()
                answer = engine.ask_document(doc, question)
                kinds = server.kinds()[before:]
                rows.append({"set": kind, "pages": doc.page_count, "calls": len(kinds),
                             "score": kinds.count("score"), "answer": kinds.count("answer"), "gap": kinds.count("gap"),
                             "hits": answer.usage.cache_hits, "nodes": answer.trace.nodes_scored,
                             "iterations": len(answer.trace.steps), "early": answer.trace.stopped_early,
                             "seconds": time.perf_counter() - started})
    finally:
        server.stop()

    print(machine_line())
    print(f"model calls per single-document query on the {args.tree} tree (fresh cache, default settings: "
          "25 iterations, PUCT, early stop, sibling batching)")
    for label in ("sample", "eval", "all"):
        sel = [r for r in rows if label == "all" or r["set"] == label]
        if not sel:
            continue
        calls = sorted(r["calls"] for r in sel)
        print(f"  {label:6s} n={len(sel):3d}  calls mean {statistics.mean(calls):.1f}  median "
              f"{statistics.median(calls):.0f}  p90 {calls[int(0.9 * (len(calls) - 1))]}  max {calls[-1]}  | "
              f"search {statistics.mean(r['score'] for r in sel):.1f} + answer "
              f"{statistics.mean(r['answer'] for r in sel):.1f} + gap check "
              f"{statistics.mean(r['gap'] for r in sel):.1f}  | nodes scored "
              f"{statistics.mean(r['nodes'] for r in sel):.1f}  iterations "
              f"{statistics.mean(r['iterations'] for r in sel):.1f}  early stops "
              f"{sum(r['early'] for r in sel)}/{len(sel)}")
    if index_rows:
        pages = sum(p for _, p, _ in index_rows)
        calls = sum(c for _, _, c in index_rows)
        print(f"indexing: {len(index_rows)} documents, {pages} pages, {calls} calls "
              f"({calls / max(1, pages) * 100:.1f} per 100 pages; batches of 8 pages, 1 overlap, + 1 summary)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--eval-dir", default=None)
    p.add_argument("--questions", type=int, default=40, help="eval questions to sample (0: sample report only)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tree", choices=("llm", "offline"), default="llm",
                   help="search the tree the fake model indexed (default) or the structural one")
    return run(p.parse_args())


if __name__ == "__main__":
    sys.exit(main())
