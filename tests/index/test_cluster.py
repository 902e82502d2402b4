"""Distributed indexing on a real local Ray cluster of 2 workers (alphasearch/index/cluster.py).

One cluster for the whole module (Ray takes several seconds to start); the last test
checks that shutting it down leaves no Ray process behind.
"""
from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

from alphasearch.index import cluster
from alphasearch.cli.main import main
from alphasearch.config import Settings
from alphasearch.pdf import TextBlock
from alphasearch.pipeline import Engine
from alphasearch.library import Library
from pdf_factory import make_pdf

_PLACES = ("Aldermoor Brisenvik Corrowdale Dunholt Elverstone Farnsley Glimmerby Hartwick Islingrove Jessamine "
           "Kestrelford Lowmarsh Merrowgate Norbeck Ottershaw Pellingham Quarrendon Rushmere Saltcombe Thornbury "
           "Ulverbrook Vennicombe Wrexford").split()
_WORDS = ("harbour ferry budget school clinic library depot tram bridge park water waste housing "
          "permit audit staff grant tender energy heating road cycle lane noise flood archive").split()


def _report(k: int, pages: int = 30) -> bytes:
    """A distinct report: filler pages, chapter headings, and on page 7 one fact naming report ``k``."""
    rng = random.Random(k)
    body = []
    for i in range(pages):
        blocks: list = [TextBlock(f"Chapter {i // 5 + 1}: {rng.choice(_WORDS).title()}", 18, True)] if i % 5 == 0 else []
        blocks += [" ".join(rng.choice(_WORDS) for _ in range(60)) + "." for _ in range(3)]
        if i == 6:
            blocks.append(f"The {_PLACES[k]} observatory counted {1000 + 37 * k} meteors during the Perseids.")
        body.append(blocks)
    return make_pdf(body, title=f"Report {k}")


def _descendants(root: int) -> set[int]:
    """Every live process below ``root`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - out
        out |= frontier
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_an_address_nobody_answers_is_one_clear_error(tmp_path, capsys):
    """Before the module's cluster starts: Ray alone would retry connecting for minutes."""
    (tmp_path / "a.pdf").write_bytes(_report(1, pages=5))
    started = time.monotonic()
    code = main(["folder", "add", "F", str(tmp_path / "a.pdf"), "--create", "--cluster", "127.0.0.1:9",
                 "--data-dir", str(tmp_path / "data")])
    assert code == 2 and time.monotonic() - started < 30
    err = capsys.readouterr().err
    assert "error: Nothing answers at 127.0.0.1:9" in err and "ray start --head" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray cluster with 2 worker CPUs, started through the code under test."""
    with cluster.connect("local", workers=2) as ray:
        assert ray.cluster_resources().get("CPU") == 2
        yield ray
    # ray.shutdown() ran on leaving the block: test_no_ray_process_left checks the processes


_started: set[int] = set()  # Ray processes seen while the cluster ran


def test_worker_killed_mid_run_every_document_lands_once(ray_cluster, tmp_path):
    n = 10
    src = tmp_path / "pdfs"
    src.mkdir()
    for k in range(n):
        (src / f"report-{k:02d}.pdf").write_bytes(_report(k))
    lib = Library(tmp_path / "data", settings=Settings(data_dir=tmp_path / "data", engine="offline"))
    lib.create_folder("Archive")
    killed: list[tuple[int, str]] = []

    def kill_one_running_task() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            for pid in sorted(_descendants(os.getpid())):
                title = _cmdline(pid)
                if title.startswith(f"ray::{cluster.TASK_NAME}"):
                    os.kill(pid, signal.SIGKILL)  # the worker dies while indexing a file
                    killed.append((pid, title))
                    return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_one_running_task)
    killer.start()
    results = lib.add_paths("Archive", sorted(src.iterdir()), cluster="local", workers=2)
    killer.join()
    _started.update(_descendants(os.getpid()))

    assert killed, "no Ray worker was seen running an indexing task"
    assert not _alive(killed[0][0])
    assert [r.status for r in results] == ["indexed"] * n, [(r.name, r.reason) for r in results]
    docs = lib.documents("Archive")
    assert sorted(d.name for d in docs) == [f"report-{k:02d}.pdf" for k in range(n)]  # each exactly once
    assert len({d.sha256 for d in docs}) == n
    assert len(list(lib.indexes.dir.glob("*.json"))) == n
    assert not [p for p in lib.root.rglob("*") if p.name.endswith(".tmp")]
    assert lib.health(deep=True).ok
    # every index landed under its own name, with the page ranker built on the worker
    for d in docs:
        k = int(d.name[7:9])
        assert f"{_PLACES[k]} observatory counted {1000 + 37 * k}" in lib.load_index(d).pages[6].text
    rankers = [p for p in (tmp_path / "data" / "rankers").iterdir() if p.is_dir()]
    assert sorted(p.name[:64] for p in rankers) == sorted(d.sha256 for d in docs)
    assert all((p / "ranker.json").is_file() and (p / "body").is_dir() for p in rankers)
    engine = Engine(Settings(data_dir=tmp_path / "data", engine="offline"))  # loads the saved ranker
    doc = lib.load_index(next(d for d in docs if d.name == "report-04.pdf"))
    answer = engine.ask_document(doc, "How many meteors did the Elverstone observatory count?")
    assert "1148" in answer.text and answer.pages[0] == 7


def test_cli_cluster_add_rejects_a_bad_file_and_skips_unchanged(ray_cluster, tmp_path, capsys):
    src = tmp_path / "pdfs"
    src.mkdir()
    for k in (20, 21, 22):
        (src / f"r{k}.pdf").write_bytes(_report(k, pages=8))
    (src / "broken.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    data = tmp_path / "data"
    code = main(["folder", "add", "Reports", str(src), "--create", "--cluster", "local", "--json",
                 "--data-dir", str(data)])
    out = capsys.readouterr().out
    import json

    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 1  # one file rejected
    assert rows["broken.pdf"]["status"] == "rejected" and "broken.pdf" in rows["broken.pdf"]["reason"]
    assert all(rows[f"r{k}.pdf"]["status"] == "indexed" for k in (20, 21, 22))
    os.remove(src / "broken.pdf")
    assert main(["folder", "add", "Reports", str(src), "--cluster", "local", "--json", "--data-dir", str(data)]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in again] == ["unchanged"] * 3
    _started.update(_descendants(os.getpid()))


def test_no_ray_process_left(ray_cluster):
    """Runs last: shut the module's cluster down and check every Ray process is gone."""
    ray_procs = {p for p in _started | _descendants(os.getpid()) if "ray" in _cmdline(p)}
    assert ray_procs, "the cluster's processes were not found"
    ray_cluster.shutdown()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(p) for p in ray_procs):
        time.sleep(0.2)
    assert not [(p, _cmdline(p)) for p in ray_procs if _alive(p)]
