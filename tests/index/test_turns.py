"""Index workers shared fairly between visitors (issue 31, fair workers): one running job per visitor, first
come first served, a waiting caller told its place; callers with no visitor (the CLI) use every worker."""
from __future__ import annotations

import contextlib
import threading
import time

import pytest

import pdf_factory
from alphasearch.index import isolation, turns

SLOW = 4.0  # seconds a slow job sleeps in its worker (the margins below stand a loaded machine)


@contextlib.contextmanager
def warm_pool(size: int):
    """A pool of ``size`` workers, all started (a worker's start-up is not what is measured)."""
    p = isolation.WorkerPool(size, seconds=30, memory_mb=1024)
    started = [threading.Thread(target=p.run, args=(time.sleep, 0.5), kwargs={"name": f"warm{i}", "owner": ""})
               for i in range(size)]
    for t in started:
        t.start()
    for t in started:
        t.join()
    try:
        yield p
    finally:
        p.close()


@pytest.fixture
def pool():
    with warm_pool(2) as p:
        yield p


def _job(p, owner: str, seconds: float, log: list, label: str, told: list | None = None):
    """A job of ``owner`` in a thread: a sleep, or (``told``: recording what its progress is told while it
    waits) indexing a small PDF, for a call with progress relays it to the function."""
    def go():
        asked = time.perf_counter()
        with turns.visiting(owner):
            if told is None:
                p.run(time.sleep, seconds, name=label)
            else:
                p.run(isolation.index_pdf, pdf_factory.outline_pdf(), label, isolation.IndexOptions(), name=label,
                      progress=lambda stage, _: told.append((label, stage)) if stage.startswith(turns.WAITING) else 0)
        log.append((label, asked, time.perf_counter()))
    t = threading.Thread(target=go)
    t.start()
    return t


def test_a_visitors_many_files_hold_one_worker_and_anothers_file_takes_the_next(pool):
    log: list = []
    jobs = [_job(pool, "browser:a", SLOW, log, f"a{i}") for i in range(3)]
    time.sleep(0.3)  # A's three files are in line before B's one
    jobs.append(_job(pool, "browser:b", 0.1, log, "b"))
    for t in jobs:
        t.join()
    took = {label: end - asked for label, asked, end in log}
    # B was served by the second worker at once, not after one of A's files (SLOW seconds)
    assert took["b"] < 2.0, took
    # A's files ran one after another: the last ended about three slow jobs after the first started
    assert sorted(took[f"a{i}"] for i in range(3))[-1] >= 3 * SLOW - 0.2, took


def test_without_a_visitor_every_worker_is_used_at_once():
    with warm_pool(3) as p:
        log: list = []
        began = time.perf_counter()
        for t in [_job(p, "", SLOW, log, f"cli{i}") for i in range(3)]:
            t.join()
        # all three started together: none waited for a wake-up that did not come (the line's 1 s recheck)
        assert time.perf_counter() - began < SLOW + 1.5, log


def test_a_waiting_visitor_is_told_its_place_as_the_line_moves():
    with warm_pool(1) as p:
        log: list = []
        told: list = []
        first = _job(p, "browser:x", SLOW, log, "x")
        time.sleep(0.3)
        second = _job(p, "browser:y", 0, log, "y", told)
        time.sleep(0.3)
        third = _job(p, "browser:z", 0, log, "z", told)
        for t in (first, second, third):
            t.join()
        assert [s for who, s in told if who == "y"] == ["waiting for an index worker: next in line"]
        z_told = [s for who, s in told if who == "z"]  # "next" only if it still waited once y had started
        assert z_told in (["waiting for an index worker: 2nd in line"],
                          ["waiting for an index worker: 2nd in line", "waiting for an index worker: next in line"])
        assert [label for label, _, _ in sorted(log, key=lambda r: r[2])] == ["x", "y", "z"]  # in order of asking


def test_a_visitors_own_second_file_waits_for_their_first_and_says_so(pool):
    log: list = []
    told: list = []
    first = _job(pool, "browser:a", SLOW, log, "a1")
    time.sleep(0.3)
    second = _job(pool, "browser:a", 0, log, "a2", told)  # a worker is free, but A already runs a job
    first.join()
    second.join()
    assert told == [("a2", "waiting for an index worker: next in line")]
    ends = {label: end for label, _, end in log}
    assert ends["a2"] > ends["a1"]


def test_a_caller_that_gives_up_leaves_the_line(pool):
    log: list = []
    busy = [_job(pool, "", SLOW, log, f"busy{i}") for i in range(2)]
    time.sleep(0.3)

    def impatient(stage, _):
        raise KeyboardInterrupt  # a stopped run: the waiting caller goes away

    with turns.visiting("browser:q"), pytest.raises(KeyboardInterrupt):
        pool.run(time.sleep, 0.1, name="q", progress=impatient)
    late = _job(pool, "browser:r", 0.1, log, "r")
    for t in busy + [late]:
        t.join()
    assert "r" in {label for label, _, _ in log}  # the one behind was not stuck behind a ghost


def test_place_text_reads():
    assert [turns.place_text(n) for n in (1, 2, 3, 4, 11, 12, 21, 22)] == [
        f"waiting for an index worker: {w}" for w in ("next in line", "2nd in line", "3rd in line", "4th in line",
                                                      "11th in line", "12th in line", "21st in line", "22nd in line")]


def test_a_visitors_several_waiting_files_count_once_in_anothers_place():
    with warm_pool(1) as p:
        log: list = []
        told: list = []
        jobs = [_job(p, "browser:x", SLOW, log, "x")]
        time.sleep(0.3)
        jobs += [_job(p, "browser:y", 0.1, log, f"y{i}") for i in range(2)]
        time.sleep(0.3)
        jobs.append(_job(p, "browser:z", 0, log, "z", told))
        for t in jobs:
            t.join()
        # only one of y's two files can start before z (y runs one at a time): z is 2nd, not 3rd
        assert told[0] == ("z", "waiting for an index worker: 2nd in line"), told


def test_a_cancelled_caller_leaves_the_line_at_once():
    with warm_pool(1) as p:
        log: list = []
        busy = _job(p, "", SLOW, log, "busy")
        time.sleep(0.3)
        stop = threading.Event()
        threading.Timer(0.5, stop.set).start()
        began = time.perf_counter()
        with pytest.raises(turns.Cancelled):
            p.run(time.sleep, 0.1, name="late", owner="browser:c", cancel=stop)
        assert time.perf_counter() - began < 0.5 + turns.WAIT_SECONDS + 1.5
        busy.join()


def test_a_call_made_from_inside_a_visitors_running_job_is_not_held_back_by_it(pool):
    """A progress callback of a visitor's job that itself needs a worker (same visitor, same thread) gets the
    free one instead of waiting for the job it runs inside (which waits for the callback: a deadlock)."""
    inner: list = []

    def on_progress(stage, _):
        if not inner:
            inner.append(pool.run(time.sleep, 0.1, name="inner") is None)

    done = threading.Event()

    def outer():
        with turns.visiting("browser:n"):
            pool.run(isolation.index_pdf, pdf_factory.outline_pdf(), "n.pdf", isolation.IndexOptions(), name="n.pdf",
                     progress=on_progress)
        done.set()

    threading.Thread(target=outer, daemon=True).start()
    assert done.wait(30) and inner == [True]
