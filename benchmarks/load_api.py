"""Load test of the HTTP API: concurrent clients ask a folder of the eval PDFs while a folder add job runs.

    python benchmarks/load_api.py [--queries 200] [--clients 8] [--docs 10] [--add 20] [--eval-dir ../shared/eval]
                                  [--md benchmarks/results/load_api.md]

Starts ``python -m alphasearch serve`` on a free loopback port over a fresh data directory, adds ``--docs``
eval PDFs to a folder (a job, waited for), measures ``--single`` questions from one client, then starts
a job adding ``--add`` more eval PDFs to another folder and fires ``--queries`` questions (routed to the
first folder by name) from ``--clients`` concurrent clients meanwhile. Prints p50 / p95 latency and
errors next to the single client's p95 (goal: 0 errors; p95 under 3x the single client's), and writes
them as a table to ``--md`` (make_results puts that table into RESULTS.md). Without the
eval set it says so and exits 0. Exit status 1 when any request failed. Sends traffic to 127.0.0.1 only.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import REPO, eval_dir_or_none, load_questions, machine_line, say_absent  # noqa: E402

TOKEN = "load-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data_dir: Path, jobs: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "ALPHASEARCH_DATA_DIR": str(data_dir), "ALPHASEARCH_ENGINE": "offline",
           "ALPHASEARCH_API_TOKEN": TOKEN, "ALPHASEARCH_API_RATE_LIMIT": "0", "ALPHASEARCH_API_JOBS": str(jobs),
           "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    log = open(data_dir / "server.log", "wb")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen([sys.executable, "-m", "alphasearch", "serve", "--port", str(port)], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(url + "/v1/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("the server did not start; see " + str(data_dir / "server.log"))


def add_job(client: httpx.Client, folder: str, paths: list[Path]) -> str:
    client.post("/v1/folders", json={"name": folder})
    files = [("file", (p.name, p.read_bytes(), "application/pdf")) for p in paths]
    r = client.post(f"/v1/folders/{folder}/documents", files=files, timeout=600)
    r.raise_for_status()
    return r.json()["job"]


def job_status(client: httpx.Client, job: str) -> dict:
    return client.get(f"/v1/jobs/{job}").json()


def wait(client: httpx.Client, job: str) -> dict:
    while (status := job_status(client, job))["status"] not in ("done", "failed"):
        time.sleep(0.5)
    return status


def p95(values: list[float]) -> float:
    v = sorted(values)
    return v[int(0.95 * (len(v) - 1))] if v else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--docs", type=int, default=10, help="eval PDFs in the folder the questions go to")
    ap.add_argument("--add", type=int, default=20, help="eval PDFs the concurrent add job indexes")
    ap.add_argument("--single", type=int, default=20, help="questions asked by one client first (its p95)")
    ap.add_argument("--eval-dir", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--md", default=None, help="write the figures as a markdown table here "
                    "(benchmarks/results/load_api.md is the one RESULTS.md shows)")
    args = ap.parse_args()
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line(), flush=True)
    questions = load_questions(eval_dir)
    rng = random.Random(args.seed)
    names = sorted({q.doc for q in questions})
    rng.shuffle(names)
    asked, adding = names[:args.docs], names[args.docs:args.docs + args.add]
    pool = [q.question for q in questions if q.doc in set(asked)]
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp), jobs=1)
        try:
            with httpx.Client(base_url=url, headers=AUTH, timeout=300) as client:
                t = time.perf_counter()
                setup = wait(client, add_job(client, "Eval", [eval_dir / "pdfs" / n for n in asked]))
                print(f"folder 'Eval': {len(asked)} eval PDFs ({setup['status']}) in {time.perf_counter() - t:.0f}s; "
                      f"{len(pool)} questions", flush=True)

                def ask(c: httpx.Client, question: str) -> tuple[float, str]:
                    t0 = time.perf_counter()
                    try:
                        r = c.post("/v1/ask", json={"question": question, "folder": "Eval"})
                        error = "" if r.status_code == 200 else f"{r.status_code}: {r.text[:120]}"
                    except httpx.HTTPError as exc:
                        error = f"{type(exc).__name__}: {exc}"
                    return time.perf_counter() - t0, error

                single = [ask(client, rng.choice(pool))[0] for _ in range(args.single)]
                print(f"single client: {len(single)} questions, p50 {statistics.median(single):.3f}s, "
                      f"p95 {p95(single):.3f}s", flush=True)

                job = add_job(client, "Incoming", [eval_dir / "pdfs" / n for n in adding])
                todo = [rng.choice(pool) for _ in range(args.queries)]
                latencies: list[float] = []
                errors: list[str] = []
                lock = threading.Lock()

                def worker() -> None:
                    with httpx.Client(base_url=url, headers=AUTH, timeout=300) as c:
                        while True:
                            with lock:
                                if not todo:
                                    return
                                question = todo.pop()
                            seconds, error = ask(c, question)
                            with lock:
                                latencies.append(seconds)
                                if error:
                                    errors.append(error)

                started = time.perf_counter()
                threads = [threading.Thread(target=worker) for _ in range(args.clients)]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                elapsed = time.perf_counter() - started
                during = job_status(client, job)
                final = wait(client, job)
                indexed = sum(r["status"] == "indexed" for r in final["result"] or [])
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    ratio = p95(latencies) / p95(single) if single else float("nan")
    print(f"\n{len(latencies)} questions from {args.clients} concurrent clients in {elapsed:.1f}s "
          f"({len(latencies) / elapsed:.2f}/s) while a job added {len(adding)} PDFs "
          f"(job {during['status']} at {during['progress']['fraction']:.0%} when the questions ended; "
          f"{final['status']}, {indexed} indexed)")
    print(f"  latency p50 {statistics.median(latencies):.3f}s, p95 {p95(latencies):.3f}s; single client p95 "
          f"{p95(single):.3f}s; ratio {ratio:.2f} (goal < 3)")
    print(f"  errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    if args.md:
        figures = {"queries": len(latencies), "clients": args.clients, "docs": len(asked), "add": len(adding),
                   "elapsed": elapsed, "p50": statistics.median(latencies), "p95": p95(latencies),
                   "single_p50": statistics.median(single), "single_p95": p95(single), "ratio": ratio,
                   "errors": len(errors), "job_during": f"{during['status']} at {during['progress']['fraction']:.0%}",
                   "job_final": f"{final['status']}, {indexed} of {len(adding)} indexed"}
        write_md(Path(args.md), figures)
    return 1 if errors else 0


def markdown(f: dict) -> str:
    """The load run's figures as the RESULTS.md section."""
    return "\n".join([
        "# The HTTP API under load (`benchmarks/load_api.py`)", "",
        f"{machine_line()}", "",
        f"{f['queries']} questions routed to a folder of {f['docs']} eval PDFs, from {f['clients']} concurrent "
        f"clients, while a job added {f['add']} more eval PDFs to another folder (offline engine, one server "
        f"process). The single client asked first, alone.", "",
        "| | p50 s | p95 s | errors |", "|---|---|---|---|",
        f"| one client | {f['single_p50']:.3f} | {f['single_p95']:.3f} | |",
        f"| {f['clients']} clients | {f['p50']:.3f} | {f['p95']:.3f} | {f['errors']} |", "",
        f"p95 ratio to one client: **{f['ratio']:.2f}** (goal < 3); {f['queries'] / f['elapsed']:.2f} "
        f"questions/s over {f['elapsed']:.0f} s; the add job was {f['job_during']} when the questions ended, "
        f"then {f['job_final']}.", ""])


def write_md(path: Path, figures: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(markdown(figures), encoding="utf-8")
    tmp.replace(path)


if __name__ == "__main__":
    sys.exit(main())
