"""Several processes and threads on one library: concurrent adds, SIGKILL mid-add, queries during changes."""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path


from alphasearch.config import Settings
from alphasearch.pdf import TextBlock, write_pdf
from alphasearch.pipeline import Engine
from alphasearch.library import Library
from folder_helpers import build_library, topic_pdfs

REPO = Path(__file__).resolve().parents[2]


def numbered_pdf(i: int, pages: int = 3) -> bytes:
    """A small distinct PDF per ``i``."""
    return write_pdf([[TextBlock(f"Field report {i}", 18, True),
                       f"Survey {i} counted {i * 7 + p} herons along the river on page {p + 1}."] for p in range(pages)])


def _run(script: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), *args], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


ADDER = """
    import json, sys, time
    from pathlib import Path
    from alphasearch.library import Library
    data_dir, start, *files = sys.argv[1:]
    lib = Library(data_dir)
    while time.time() < float(start):
        time.sleep(0.001)
    results = lib.add_many("Shared", [(Path(f).name, Path(f)) for f in files])
    print(json.dumps([r.status for r in results]))
"""


def test_two_processes_adding_to_one_folder_at_once(data_dir, tmp_path):
    Library(data_dir).create_folder("Shared")
    files = []
    for i in range(6):
        p = tmp_path / f"report-{i}.pdf"
        p.write_bytes(numbered_pdf(i))
        files.append(str(p))
    start = str(time.time() + 2.0)  # both start together, after their imports
    procs = [_run(ADDER, str(data_dir), start, *files[:3]), _run(ADDER, str(data_dir), start, *files[3:])]
    outs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outs):
        assert proc.returncode == 0, err
        assert json.loads(out) == ["indexed"] * 3
    lib = Library(data_dir)
    assert sorted(d.name for d in lib.documents("Shared")) == [f"report-{i}.pdf" for i in range(6)]
    assert lib.health(deep=True).ok
    for rec in lib.documents("Shared"):
        assert lib.load_index(rec).page_count == 3


def test_two_processes_adding_the_same_name_leave_one_consistent_row(data_dir, tmp_path):
    Library(data_dir).create_folder("Shared")
    a, b = tmp_path / "a" / "same.pdf", tmp_path / "b" / "same.pdf"
    for p, i in ((a, 1), (b, 2)):
        p.parent.mkdir()
        p.write_bytes(numbered_pdf(i))
    start = str(time.time() + 2.0)
    procs = [_run(ADDER, str(data_dir), start, str(a)), _run(ADDER, str(data_dir), start, str(b))]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out)[0] in ("indexed", "replaced")
    lib = Library(data_dir)
    docs = lib.documents("Shared")
    assert [d.name for d in docs] == ["same.pdf"]
    assert lib.health(deep=True).ok  # the loser's files were purged, nothing orphaned
    assert len(list(lib.pdf_dir.iterdir())) == 1


SLOW_ADDER = """
    import sys, time
    from pathlib import Path
    from alphasearch.library import Library
    from alphasearch.library.documents import default_build
    data_dir, marker, pdf = sys.argv[1:]
    real = default_build(None)
    def build(data, name, progress=None):
        index = real(data, name, progress)
        Path(marker).write_text("indexing")   # the PDF file is written, the index and row are not
        time.sleep(60)
        return index
    Library(data_dir, build=build).add("Shared", "victim.pdf", Path(pdf))
"""


def test_sigkill_in_the_middle_of_an_add(data_dir, tmp_path):
    lib = Library(data_dir)
    lib.create_folder("Shared")
    lib.add("Shared", "keep.pdf", numbered_pdf(1))
    marker, pdf = tmp_path / "marker", tmp_path / "victim.pdf"
    pdf.write_bytes(numbered_pdf(2))
    proc = _run(SLOW_ADDER, str(data_dir), str(marker), str(pdf))
    deadline = time.time() + 60
    while not marker.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert marker.exists(), proc.stderr.read() if proc.poll() is not None else "child never reached the index step"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)

    after = Library(data_dir)  # the previous state is readable
    assert [d.name for d in after.documents("Shared")] == ["keep.pdf"]
    assert after.load_index(after.document("Shared", "keep.pdf")).page_count == 3
    report = after.health()
    assert [i.kind for i in report.issues] == ["orphan_file"]  # the victim's PDF, no row
    fixed = after.repair()
    assert fixed.after.ok and any("interrupted" in a for a in fixed.actions)
    assert after.add("Shared", "victim.pdf", pdf).status == "indexed"
    assert after.health(deep=True).ok


KILLABLE_LOOP = """
    import sys
    from alphasearch.pdf import TextBlock, write_pdf
    from alphasearch.library import Library
    data_dir, first = sys.argv[1], int(sys.argv[2])
    lib = Library(data_dir)
    i = first
    while True:
        pages = [[TextBlock(f"Loop report {i}", 18, True), f"Entry {i} page {p} counts {i * 3 + p} owls."]
                 for p in range(12)]
        lib.add("Shared", f"loop-{i % 5}.pdf", write_pdf(pages))   # new documents and replacements
        if i % 4 == 0:
            lib.remove("Shared", f"loop-{i % 5}.pdf")
        i += 1
"""


def test_random_sigkills_never_leave_an_unreadable_library(data_dir):
    Library(data_dir).create_folder("Shared")
    rng = random.Random(7)
    for round_ in range(4):
        proc = _run(KILLABLE_LOOP, str(data_dir), str(round_ * 1000))
        time.sleep(2.0 + rng.random() * 1.5)  # imports take ~1.5 s; then adds run back to back
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        lib = Library(data_dir)
        for rec in lib.documents("Shared"):  # every row that exists is fully usable
            assert lib.load_index(rec).page_count == 12
            assert lib.pdf_bytes(rec).startswith(b"%PDF")
        assert lib.repair().after.ok
    assert Library(data_dir).health(deep=True).ok


def test_threads_query_while_another_adds_and_removes(data_dir):
    engine = Engine(Settings(data_dir=data_dir, engine="offline", workers=2))
    build_library(engine.library, ("Astronomy", "Kitchen"))
    extra = topic_pdfs()["Finance"]["annual-report-2024.pdf"]
    known = {"planets.pdf", "telescopes.pdf", "bread-baking.pdf", "soups-and-stews.pdf", "extra.pdf"}
    errors: list[BaseException] = []
    answers: list = []
    stop = threading.Event()

    def query(i: int) -> None:
        questions = ["Which moon has lakes of liquid methane?", "How long does the chicken stock simmer?",
                     "What was the quarterly dividend per share?"]
        try:
            n = 0
            while not stop.is_set():
                a = engine.ask_folder(questions[(i + n) % 3], seed=n)
                answers.append(a)
                n += 1
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            errors.append(exc)

    def mutate() -> None:
        try:
            while not stop.is_set():
                engine.library.add("Astronomy", "extra.pdf", extra)
                engine.library.remove("Astronomy", "extra.pdf")
                engine.library.add_turn("log", "user", "mutation")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=query, args=(i,)) for i in range(4)] + [threading.Thread(target=mutate)]
    for t in threads:
        t.start()
    time.sleep(6)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert len(answers) >= 8
    for a in answers:
        assert {d for d, _ in a.doc_pages} <= known and {c.doc for c in a.citations} <= known
    methane = [a for a in answers if "methane" in a.folder_trace.question]
    assert methane and all(a.citations and a.citations[0].doc == "planets.pdf" for a in methane)
    assert engine.library.health().ok


MID_TRANSACTION = """
    import sys, time
    from pathlib import Path
    from alphasearch.library import Library
    data_dir, marker = sys.argv[1:]
    lib = Library(data_dir)
    with lib._db(write=True) as con:   # a catalog write, killed before its commit
        con.execute("INSERT INTO folders(id, name, name_key, created) VALUES (?, 'Ghost', 'ghost', 0)", ("f" * 32,))
        con.execute("DELETE FROM documents")
        Path(marker).write_text("in transaction")
        time.sleep(60)
"""


def test_sigkill_during_a_catalog_write_rolls_it_back(data_dir, tmp_path):
    lib = Library(data_dir)
    lib.create_folder("Shared")
    lib.add("Shared", "keep.pdf", numbered_pdf(3))
    marker = tmp_path / "marker"
    proc = _run(MID_TRANSACTION, str(data_dir), str(marker))
    deadline = time.time() + 60
    while not marker.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert marker.exists(), proc.stderr.read() if proc.poll() is not None else "child never wrote"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    after = Library(data_dir, timeout=5)
    assert [f.name for f in after.folders()] == ["Shared"]          # the half-done write is gone
    assert [d.name for d in after.documents("Shared")] == ["keep.pdf"]
    started = time.perf_counter()
    after.create_folder("Next")                                     # and no lock was left behind
    assert time.perf_counter() - started < 2
    assert after.health().ok


def test_a_visitors_folder_add_runs_one_file_at_a_time_and_says_where_the_next_waits(data_dir):
    """In the app a folder add is a visitor's (turns.py): its files take one index worker at a time, and the
    caller's own thread is told, while the first is read, that the second is next in line (the Folders page
    draws only what its own thread is told)."""
    from alphasearch.index import turns
    from pdf_factory import scanned

    lib = Library(data_dir, settings=Settings(data_dir=data_dir))
    lib.create_folder("Scans")
    items = [(f"scan-{i}.pdf", scanned(numbered_pdf(i, pages=4))) for i in range(2)]  # OCR: seconds per file
    me = threading.get_ident()
    said: list[str] = []
    with turns.visiting("browser:a"):
        results = lib.add_many("Scans", items, workers=2,
                               progress=lambda m, f: said.append(m) if threading.get_ident() == me else None)
    assert [r.status for r in results] == ["indexed", "indexed"]
    waited = [m for m in said if re.fullmatch(r"scan-[01]\.pdf: waiting for an index worker: next in line", m)]
    assert waited, said
    # once that file has its worker, the screen says what it does, not still that it waits
    name = waited[0].split(":")[0]
    after = said[said.index(waited[0]):]
    assert any(m.startswith(name + ":") and turns.WAITING not in m for m in after), said
    # the command line (no visitor) indexes both at once: nobody waits
    lib.create_folder("Cli")
    said.clear()
    lib.add_many("Cli", [(f"cli-{i}.pdf", scanned(numbered_pdf(10 + i, pages=4))) for i in range(2)], workers=2,
                 progress=lambda m, f: said.append(m))
    assert not [m for m in said if turns.WAITING in m]
