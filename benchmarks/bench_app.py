"""App benchmark: upload → ready for a 100-page PDF (offline), and the tree
visualizer for a ~300-node search tree.

    python benchmarks/bench_app.py [--repeat 3]

Prints the machine and, for each figure, the median of ``--repeat`` runs:
- upload to ready: a Streamlit script run (AppTest) that receives the uploaded
  bytes, indexes them with progress and draws the document card, next to the
  engine's own ``index_bytes`` on the same bytes (the floor), each on an empty
  data directory;
- tree visualizer: building the view-model (replay + graph elements) at the last
  iteration and at the middle one, and a full script run of the page (graph,
  charts, table) with that search as the latest one.
Never part of the test run's pass/fail.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from alphasearch.search.mcts import search  # noqa: E402
from alphasearch.models import Section  # noqa: E402


def machine() -> str:
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown CPU"
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"


def median_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        times.append(fn())
    return statistics.median(times)


def wide_tree(children: int = 12, grandchildren: int = 25) -> Section:
    """A root, ``children`` chapters of ``grandchildren`` sections each (1 + 12 + 300 = 313 nodes)."""
    kids = []
    page = 1
    for i in range(children):
        leaves = []
        first = page
        for j in range(grandchildren):
            leaves.append(Section(f"n{i}.{j}", f"Chapter {i + 1} section {j + 1}", (page, page)))
            page += 1
        kids.append(Section(f"n{i}", f"Chapter {i + 1}", (first, page - 1), children=tuple(leaves)))
    return Section("root", "A wide report", (1, page - 1), children=tuple(kids))


class NoisyScorer:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def score(self, question, sections):
        return [self.rng.random() for _ in sections]


def big_trace():
    root = wide_tree()
    trace = search(root, "benchmark question", NoisyScorer(), iterations=400, rng=random.Random(0),
                   confidence_threshold=2.0)
    return trace


def bench_upload(repeat: int) -> None:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from alphasearch.config import Settings
    from alphasearch.pipeline import Engine
    from app_helpers import APP, long_pdf

    data = long_pdf(100)

    def engine_only() -> float:
        with tempfile.TemporaryDirectory() as d:
            eng = Engine(Settings(data_dir=Path(d), engine="offline"))
            t = time.perf_counter()
            eng.index_bytes(data, "long.pdf")
            return time.perf_counter() - t

    def through_app() -> float:
        with tempfile.TemporaryDirectory() as d:
            os.environ["ALPHASEARCH_DATA_DIR"] = d
            os.environ["ALPHASEARCH_ENGINE"] = "offline"
            st.cache_resource.clear()
            st.cache_data.clear()
            at = AppTest.from_file(str(APP), default_timeout=300)
            at.run()
            at.file_uploader[0].set_value(("long.pdf", data, "application/pdf"))
            t = time.perf_counter()
            at.run()
            elapsed = time.perf_counter() - t
            assert not at.exception and at.session_state["single_doc"].page_count == 100
            return elapsed

    engine_only()  # warm up imports and the embedding model
    floor = median_of(engine_only, repeat)
    app = median_of(through_app, repeat)
    print(f"upload → ready, 100-page PDF ({len(data) / 1024:.0f} KB), offline, empty data dir:")
    print(f"  engine.index_bytes        {floor:6.2f} s   ({100 / floor:6.0f} pages/s)  [floor]")
    print(f"  app script run (AppTest)  {app:6.2f} s   ({app / floor:4.2f}x the floor)")


def bench_tree(repeat: int) -> None:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from app_helpers import APP
    from pages._common import SearchRecord
    from pages._replay import replay_figure

    t = time.perf_counter()
    trace = big_trace()
    built = time.perf_counter() - t
    nodes = len(trace.nodes())
    T = len(trace.steps)

    def view_model() -> float:
        t0 = time.perf_counter()
        replay_figure(trace)
        return time.perf_counter() - t0

    figure = median_of(view_model, repeat)

    def page_run() -> float:
        with tempfile.TemporaryDirectory() as d:
            os.environ["ALPHASEARCH_DATA_DIR"] = d
            st.cache_resource.clear()
            at = AppTest.from_file(str(APP), default_timeout=120)
            at.run()
            at.session_state["searches"] = [SearchRecord("benchmark question", "Benchmark", {"Document tree": trace})]
            at.switch_page("pages/tree.py")
            t0 = time.perf_counter()
            at.run()
            elapsed = time.perf_counter() - t0
            assert not at.exception, at.exception
            return elapsed

    page = median_of(page_run, repeat)
    print(f"tree visualizer, {nodes} nodes, {T} iterations (search itself: {built:.2f} s):")
    print(f"  replay figure, {T + 1} frames   {figure * 1000:7.1f} ms")
    print(f"  whole page script run      {page * 1000:7.1f} ms  (graph + 3 charts + table; the browser's own "
          "drawing of the graph is extra)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"machine: {machine()}")
    bench_upload(args.repeat)
    bench_tree(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
