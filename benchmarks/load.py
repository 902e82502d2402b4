"""Load test: N concurrent query workers on one shared engine (as the Streamlit server holds it) for a while.

Each worker asks folder questions (routed, no folder named) back to back; one
more thread keeps adding and removing a document, as a user managing the
library would. Reports throughput, latency, errors (must be 0) and peak memory.

    python benchmarks/load.py [--workers 8] [--seconds 120] [--eval-dir ../shared/eval | --generated]

With the eval set: three folders of eval PDFs (as ``folder_eval.py``) and their
questions. Without it (or with ``--generated``): generated PDFs on three subjects.
Exit status 1 when any query failed.
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from common import OUT, Trees, eval_dir_or_none, load_questions, machine_line  # noqa: E402

from alphasearch.config import Settings  # noqa: E402
from alphasearch.errors import NotFoundError  # noqa: E402
from alphasearch.pipeline import Engine  # noqa: E402


def generated_library(engine: Engine) -> list[str]:
    from folder_helpers import TOPICS, build_library

    build_library(engine.library)
    questions = []
    for docs in TOPICS.values():
        for chapters in docs.values():
            for head, body in chapters:
                questions.append(f"What does the document say about {head.lower()}?")
                questions.append(body.split(". ")[0].replace(" is ", " is what? ")[:80] + "?")
    return questions


def eval_library(engine: Engine, eval_dir: Path, financial: int) -> list[str]:
    from folder_eval import pick_documents

    trees = Trees(eval_dir)
    plan = pick_documents(eval_dir, financial)
    eval_names = {n for names in plan.values() for n in names}
    default = engine.library.build

    def build(data: bytes, name: str, progress=None):  # eval PDFs: trees cached by the other benchmarks
        return trees.get(name) if name in eval_names else default(data, name, progress)

    engine.library.build = build
    for folder, names in plan.items():
        try:
            engine.library.folder(folder)
        except NotFoundError:
            engine.library.create_folder(folder)
        engine.library.add_paths(folder, [eval_dir / "pdfs" / n for n in names])
    docs = {n for names in plan.values() for n in names}
    return [q.question for q in load_questions(eval_dir) if q.doc in docs]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--eval-dir", default=None)
    ap.add_argument("--generated", action="store_true", help="use generated PDFs even when the eval set is present")
    ap.add_argument("--financial", type=int, default=10)
    ap.add_argument("--data-dir", default=None, help="library location (default: a fresh temporary directory "
                                                     "for --generated, benchmarks/out/load for the eval set)")
    ap.add_argument("--no-mutator", action="store_true", help="no thread adding/removing documents")
    args = ap.parse_args()
    print(machine_line(), flush=True)
    eval_dir = None if args.generated else eval_dir_or_none(args.eval_dir)
    tmp = None
    if args.data_dir:
        data_dir = Path(args.data_dir)
    elif eval_dir is not None:
        data_dir = OUT / "load"
    else:
        tmp = tempfile.TemporaryDirectory()
        data_dir = Path(tmp.name)
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    t = time.perf_counter()
    if eval_dir is not None:
        questions = eval_library(engine, eval_dir, args.financial)
        if not engine.library.health().ok:  # e.g. indexes from an older index version
            print("  " + engine.library.repair().text().splitlines()[-1], flush=True)
        source = f"eval set ({len(engine.library.documents())} PDFs)"
    else:
        questions = generated_library(engine)
        source = "generated PDFs (eval set absent or --generated)"
    print(f"library: {source} in {data_dir}, ready in {time.perf_counter() - t:.1f}s; {len(questions)} questions",
          flush=True)

    from folder_helpers import topic_pdfs

    extra = topic_pdfs()["Finance"]["annual-report-2023.pdf"]
    target = engine.library.folders()[0].name
    latencies: list[float] = []
    errors: list[str] = []
    degraded = [0]  # answers that left a document out (time limit, missing index)
    mutations = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def worker(i: int) -> None:
        rng = random.Random(i)
        while not stop.is_set():
            q = rng.choice(questions)
            t0 = time.perf_counter()
            try:
                answer = engine.ask_folder(q, seed=rng.randrange(1000), save_trace=(i == 0))
            except Exception as exc:  # noqa: BLE001 - counted and reported
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}")
                continue
            with lock:
                latencies.append(time.perf_counter() - t0)
                degraded[0] += bool(answer.degraded)

    def mutator() -> None:
        while not stop.is_set():
            try:
                added = engine.library.add(target, "load-extra.pdf", extra)
                if not added.ok:
                    raise RuntimeError(f"add {added.status}: {added.reason}")
                time.sleep(0.5)
                engine.library.remove(target, "load-extra.pdf")
                time.sleep(0.5)
                mutations[0] += 1
            except Exception as exc:  # noqa: BLE001
                with lock:
                    errors.append(f"mutator {type(exc).__name__}: {exc}")

    tracemalloc.start()
    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(args.workers)]
    if not args.no_mutator:
        threads.append(threading.Thread(target=mutator, daemon=True))
    started = time.perf_counter()
    for th in threads:
        th.start()
    next_report = started + 30
    while time.perf_counter() - started < args.seconds:
        time.sleep(0.5)
        if time.perf_counter() >= next_report:
            print(f"  {time.perf_counter() - started:.0f}s: {len(latencies)} answers, {len(errors)} errors", flush=True)
            next_report += 30
    stop.set()
    for th in threads:
        th.join(timeout=120)
    elapsed = time.perf_counter() - started
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lat = sorted(latencies)
    print(f"\n{args.workers} query workers for {elapsed:.0f}s (+{'no' if args.no_mutator else 'one'} thread adding "
          f"and removing a document: {mutations[0]} add/remove cycles)")
    print(f"  answers: {len(lat)}  throughput: {len(lat) / elapsed:.2f} questions/s")
    if lat:
        print(f"  latency: median {statistics.median(lat):.2f}s, p95 {lat[int(0.95 * (len(lat) - 1))]:.2f}s, "
              f"max {lat[-1]:.2f}s")
    print(f"  errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else "")
          + f"; answers with a document left out: {degraded[0]}")
    print(f"  peak memory: RSS {rss:.0f} MB; Python heap peak {traced_peak / 2**20:.0f} MB (tracemalloc)")
    health = engine.library.health()
    print(f"  library afterwards: {health.text().splitlines()[0]}")
    if tmp is not None:
        tmp.cleanup()
    return 1 if errors or not health.ok else 0


if __name__ == "__main__":
    sys.exit(main())
