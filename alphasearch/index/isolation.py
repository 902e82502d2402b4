"""Untrusted PDFs are parsed in long-lived worker processes, each with a memory and a time limit.

A hostile file can crash MuPDF (a 100,000-deep outline overflows its stack), run it out of memory
or keep it busy for minutes. None of that may reach the server: :class:`WorkerPool` runs the
per-file function :func:`index_pdf` in child processes started once (a fresh
interpreter running ``_serve``, never a fork of a threaded server) and reused file
after file. Each child limits its own address space (``RLIMIT_AS``); the parent enforces the
wall-clock limit per file and kills and replaces a child that overruns it, crashes or runs out of
memory. Every such end becomes one :class:`~alphasearch.errors.UnsafePDFError` for that file and
the pool keeps serving. Only the calling process writes the library: a worker returns everything
needed (:class:`IndexedPdf`).

    pool = shared_pool(settings)                 # process-wide, thread-safe, sized to the cores
    done = pool.run(index_pdf, data, "report.pdf", IndexOptions.from_settings(settings),
                    name="report.pdf", progress=callback)
    done.index, done.page_terms                  # DocumentIndex and its pages' search-term counts
"""
from __future__ import annotations

import atexit
import gc
import json
import os
import pickle
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..errors import AlphaSearchError, UnsafePDFError
from ..models import DocumentIndex
from ..pdf.ocr import STAGE as OCR_STAGE  # the progress stage of OCR: the pool then grants the file its OCR time
from .pageindex import PageTerms
from .turns import Line, place_text, visitor

Progress = Callable[[str, float], None]
STACK_MB = 256  # the thread that parses: MuPDF recurses through outlines and nested objects
# glibc gives each thread that allocates its own malloc arena, reserving 64 MB of address space apiece (up to 8
# per core): with the numeric library's threads a worker held 872 MB of its 1,024 MB address-space limit after a
# few files, and starting the next file's 256 MB parse thread failed ("can't start new thread", the worker gone)
# on 1 run in 3 of six files in a row. Two arenas leave it at 676 MB; the numbers computed do not change.
# Tesseract (OCR) runs OpenMP threads: one per worker, for the pool already runs a worker per core.
_WORKER_ENV = {"MALLOC_ARENA_MAX": "2", "OMP_THREAD_LIMIT": "1"}
START_SECONDS = 120.0  # a worker's start-up (imports) before its first file; not part of a file's limit
_GC_THRESHOLDS = (1_000_000, 20, 20)  # the worker's garbage collector: a pass per 1,000,000 more live objects (default 700)
# A worker holding more than this share of its memory limit after a file is replaced by a fresh one: OCR leaves
# memory behind (a worker's resident memory rose from 150 to 590 MB over 10 scanned documents of 173 pages).
RECYCLE_SHARE = 0.4
_POLL = 0.1  # seconds between checks of a running worker (its peak memory, its CPU time, whether it still lives)
# A call's limit is the worker's CPU time, so a file's verdict does not depend on what else the machine runs
# (the same file refused on a busy server and read on a quiet one); a call that waits without computing is
# stopped at this many times the limit in wall-clock time.
WALL_FACTOR = 4.0


# --- the per-file function (also what a distributed runner such as Ray calls) ----------------------
@dataclass(frozen=True)
class IndexOptions:
    """The settings the offline indexer needs; small and picklable."""

    max_pages: int = 5000
    warn_pages: int = 1000
    max_leaf_pages: int = 8
    layout: bool = False  # also read the page layout for the document facts (a folder's documents)
    page_terms: bool = True  # also count each page's search terms (a folder's page index; not a lone document)
    ocr: bool = True  # read pages without text and large pictures by OCR (pdf/ocr.py)
    ocr_seconds: float = 300.0  # OCR's time per file, granted on top of the pool's limit once OCR starts

    @classmethod
    def from_settings(cls, settings: Any) -> "IndexOptions":
        if settings is None:
            return cls()
        return cls(settings.max_pages, settings.warn_pages, settings.max_leaf_pages,
                   ocr=bool(getattr(settings, "ocr", True)), ocr_seconds=float(getattr(settings, "ocr_seconds", 300.0)))

    @property
    def extra_seconds(self) -> float:
        """What the pool grants a file once it reports :data:`OCR_STAGE` (0: OCR off)."""
        return self.ocr_seconds if self.ocr else 0.0


@dataclass(frozen=True)
class IndexedPdf:
    """What indexing one PDF returns to the process that writes the library."""

    index: DocumentIndex
    page_terms: PageTerms | None  # each page's search-term counts (the folder's page index and vocabulary)
    seconds: float = 0.0
    peak_mb: float = 0.0  # the worker's peak resident memory while indexing this file (0: not measured)
    layout: tuple[float, float] | None = None  # pdf.page_layout, when the options asked for it


def index_pdf(data: bytes, name: str, options: IndexOptions = IndexOptions(),
              progress: Progress | None = None) -> IndexedPdf:
    """Index one PDF with the offline indexer: bytes and options in, :class:`IndexedPdf` out.

    A plain top-level function with picklable arguments and result, so it runs the same in
    this process, in a :class:`WorkerPool` worker or on a cluster; it writes nothing.
    Raises the specific :mod:`alphasearch.errors` of the PDF layer.
    """
    from . import indexer

    started = time.perf_counter()
    index, stats = indexer.build(data, name, max_pages=options.max_pages, warn_pages=options.warn_pages,
                                 max_leaf_pages=options.max_leaf_pages, progress=progress,
                                 search_terms=options.page_terms, ocr=options.ocr, ocr_seconds=options.ocr_seconds)
    terms = PageTerms.from_counts(stats.search) if options.page_terms else None
    layout = None
    if options.layout:  # in the same worker job, so a folder's adds read layouts in parallel too
        from .. import pdf

        try:
            layout = pdf.page_layout(data, name)
        except AlphaSearchError:
            layout = (0.0, 0.0)  # a hint, never a reason to refuse the file
    return IndexedPdf(index, terms, time.perf_counter() - started, layout=layout)


def convert_file(data: bytes, name: str, max_pages: int = 5000) -> bytes:
    """Another format's file as PDF bytes (:func:`alphasearch.pdf.convert.to_pdf`), for a worker."""
    from ..pdf import convert

    return convert.to_pdf(data, name, max_pages=max_pages).pdf


def as_pdf(data: bytes, name: str, settings: Any = None, progress: Progress | None = None) -> bytes:
    """The bytes a document is stored and indexed as: a PDF's own, or another accepted format converted to PDF
    in a worker of the shared pool (same limits as parsing). Raises UnsupportedFormatError, in one sentence
    naming the accepted types, for a file of any other type, without starting a worker."""
    from ..pdf import convert

    if convert.is_pdf(name, data):
        return data
    convert.check_type(name)
    if progress:
        progress("converting", 0.0)
    told = None if progress is None else (lambda place: progress(place_text(place), 0.0))  # its place in line
    made = shared_pool(settings).run(convert_file, data, name, int(getattr(settings, "max_pages", 5000)), name=name,
                                     waiting=told)
    if progress:
        progress("converting", 1.0)
    return made


def ocr_outdated(index: DocumentIndex, options: IndexOptions) -> bool:
    """Whether a stored index was read with another OCR setting than ``options`` ask for: built without OCR
    (or without Tesseract, now installed) when OCR is on, or holding OCR's text when it is off."""
    from ..pdf import ocr

    if options.ocr:
        return index.ocr == "off" or (index.ocr == "missing" and ocr.available())
    return bool(index.ocr_pages)


PREVIEW_SECONDS = 10.0  # one page preview; the 74 eval PDFs' pages render and highlight in at most 0.35 s
PREVIEW_WORKERS = 2  # preview worker processes (one visitor runs one preview at a time: previews.py)


def render_preview(data: bytes, page: int, highlight: tuple[str, ...] = (), zoom: float = 1.5) -> bytes:
    """:func:`alphasearch.pdf.render_page_png` of a 1-based page with passages highlighted, for a worker
    (:func:`preview_pool`)."""
    from .. import pdf

    return pdf.render_page_png(data, page, zoom=zoom, highlight=highlight)


def pdf_layout(data: bytes, name: str) -> tuple[float, float]:
    """What a PDF's pages look like (:func:`alphasearch.pdf.page_layout`), for its document facts."""
    from .. import pdf

    return pdf.page_layout(data, name)


# --- the pool -------------------------------------------------------------------------------------------
@dataclass
class Measure:
    """Filled by :meth:`WorkerPool.run` when given: wall time and the worker's peak memory for the job."""

    seconds: float = 0.0
    peak_mb: float = 0.0
    outcome: str = ""


class WorkerPool:
    """Up to ``size`` worker processes, started on first use and kept for the next file.

    ``seconds``: limit per call, in the worker's CPU time (a worker computes on one thread), and
    :data:`WALL_FACTOR` times it in wall-clock time; ``memory_mb``: each worker's address-space limit.
    Thread-safe: :meth:`run` blocks until a worker is free.
    """

    def __init__(self, size: int | None = None, *, seconds: float = 120.0, memory_mb: int = 2048):
        self.size = max(1, int(size or os.cpu_count() or 1))
        self.seconds = float(seconds)
        self.memory_mb = int(memory_mb)
        self._idle: list[_Worker] = []
        self._count = 0
        self._cond = threading.Condition()
        self._closed = False
        self._local = threading.local()
        self._line = Line(self._cond)  # who gets the next free worker: first come, one per visitor (turns.py)

    def grow(self, size: int) -> None:
        """Allow at least ``size`` workers at once."""
        with self._cond:
            if size > self.size:
                self.size = int(size)
                self._cond.notify_all()

    def run(self, fn: Callable[..., Any], *args: Any, name: str, progress: Progress | None = None,
            measure: Measure | None = None, extra_seconds: float = 0.0, owner: str | None = None,
            waiting: Callable[[int], None] | None = None, cancel: threading.Event | None = None) -> Any:
        """``fn(*args)`` in a worker (with ``progress=`` relayed here when given); its result, or the
        exception it raised. Raises :class:`UnsafePDFError` naming ``name`` when the worker
        crashed, ran out of memory or exceeded the time limit (it is then replaced). ``extra_seconds``:
        added to the limit once, when the call reports the stage :data:`OCR_STAGE` (pages read by OCR).
        ``owner``: the visitor whose job this is (default: :func:`.turns.visitor`), who waits in line while
        their other job runs; ``waiting(place)`` (default: ``progress`` told :func:`.turns.place_text`) hears
        the caller's place while it waits; ``cancel``: set, the waiting caller leaves (:class:`.turns.Cancelled`)."""
        measure = measure if measure is not None else Measure()
        self._local.last = measure
        owner = visitor() if owner is None else owner
        if waiting is None and progress is not None:
            waiting = lambda place: progress(place_text(place), 0.0)  # noqa: E731
        worker = self._checkout(owner, waiting, cancel)
        ok = False
        if extra_seconds and progress is None:
            progress = _ignore  # the stage that grants the time comes as progress
        try:
            result = worker.call(fn, args, name=name, progress=progress, seconds=self.seconds, measure=measure,
                                 extra_seconds=extra_seconds)
            ok = True
            return result
        finally:
            self._checkin(worker if ok or (worker.alive() and not worker.busy) else None, owner)

    def last_measure(self) -> Measure | None:
        """The Measure of this thread's latest :meth:`run` (None if none since the last call)."""
        last, self._local.last = getattr(self._local, "last", None), None
        return last

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
        for w in idle:
            w.stop()

    def _checkout(self, owner: str = "", waiting: Callable[[int], None] | None = None,
                  cancel: threading.Event | None = None) -> "_Worker":
        def take() -> "_Worker | str | None":
            if self._closed:
                raise AlphaSearchError("The PDF workers were shut down; restart the program.")
            if self._idle:
                return self._idle.pop()
            if self._count < self.size:
                self._count += 1
                return "start"
            return None

        got = self._line.wait(owner, take, waiting, cancel)
        if not isinstance(got, str):
            return got
        try:
            return _Worker(self.memory_mb)
        except BaseException:
            with self._cond:
                self._count -= 1
                self._line.done(owner)
                self._cond.notify_all()
            raise

    def _checkin(self, worker: "_Worker | None", owner: str = "") -> None:
        with self._cond:
            if worker is not None and not self._closed and worker.alive() and \
                    _peak_mb(worker.proc.pid, b"VmRSS:") < RECYCLE_SHARE * self.memory_mb:
                self._idle.append(worker)
            else:
                self._count -= 1
                if worker is not None:
                    worker.stop()
            self._line.done(owner)
            self._cond.notify_all()


_POOLS: dict[tuple[float, int], WorkerPool] = {}
_POOLS_LOCK = threading.Lock()


def shared_pool(settings: Any = None, size: int | None = None) -> WorkerPool:
    """The process-wide pool for these limits (``settings.parse_seconds``, ``parse_memory_mb``),
    allowing at least ``size`` workers (default: ``settings.index_workers`` or the machine's cores)."""
    seconds = float(getattr(settings, "parse_seconds", 120.0))
    memory = int(getattr(settings, "parse_memory_mb", 2048))
    want = size or getattr(settings, "index_workers", 0) or os.cpu_count() or 1
    with _POOLS_LOCK:
        pool = _POOLS.get((seconds, memory))
        if pool is None:
            pool = _POOLS[(seconds, memory)] = WorkerPool(want, seconds=seconds, memory_mb=memory)
    pool.grow(want)
    return pool


_PREVIEWS: list[WorkerPool] = []


def preview_pool() -> WorkerPool:
    """The process-wide pool of ``PREVIEW_WORKERS`` workers that renders page previews and the page images a model is sent
    (:func:`render_preview`), each within
    ``PREVIEW_SECONDS`` (read at call time). The page budget bounds what reading a page costs, not what drawing
    it costs: a page filling 10 times with a tiling pattern of 0.01-pt tiles (1 KB) took 15.6 s to render, and
    MuPDF holds Python's interpreter lock meanwhile, so a preview rendered in the app's process stopped the
    server for every session. In a worker the app waits without the lock, and an overrun is one error."""
    with _POOLS_LOCK:
        if not _PREVIEWS:
            _PREVIEWS.append(WorkerPool(PREVIEW_WORKERS, seconds=PREVIEW_SECONDS))
        pool = _PREVIEWS[0]
        pool.seconds = float(PREVIEW_SECONDS)
    return pool


@atexit.register
def _close_all() -> None:
    with _POOLS_LOCK:
        pools = list(_POOLS.values()) + _PREVIEWS
    for pool in pools:
        pool.close()


# --- one worker, seen from the parent ----------------------------------------------------------------
class _Worker:
    def __init__(self, memory_mb: int):
        self.memory_mb = memory_mb
        self.busy = False  # a call was sent and its reply not read (e.g. the caller was interrupted)
        ours, theirs = socket.socketpair()
        path = [str(Path(__file__).resolve().parents[2])] + [p for p in sys.path if p]
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
                 "from alphasearch.index.isolation import _serve; _serve(*map(int, sys.argv[2:]))",
                 json.dumps(path), str(theirs.fileno()), str(memory_mb), str(STACK_MB)],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True, env={**os.environ, **_WORKER_ENV})
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        try:
            ready = self.conn.poll(START_SECONDS) and self.conn.recv()
        except (EOFError, OSError):
            ready = None
        if not ready or ready[0] != "ready":
            self.stop()
            raise AlphaSearchError(
                f"The PDF reader could not start within a memory limit of {memory_mb:,} MB; raise "
                f"ALPHASEARCH_PARSE_MEMORY_MB.")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.conn.close()

    def call(self, fn, args, *, name: str, progress: Progress | None, seconds: float,
             measure: Measure | None, extra_seconds: float = 0.0) -> Any:
        measure = measure if measure is not None else Measure()
        started = time.monotonic()
        cpu_start = _cpu_seconds(self.proc.pid)
        peak = 0.0
        try:
            self.conn.send((fn, args, progress is not None))
        except (OSError, pickle.PicklingError):
            self.stop()
            raise
        self.busy = True
        while True:
            wall = time.monotonic() - started
            cpu = _cpu_seconds(self.proc.pid)
            used = cpu - cpu_start if cpu is not None and cpu_start is not None else wall  # no /proc: wall time
            left = seconds * WALL_FACTOR - wall
            if used > seconds or left <= 0:
                self.stop()
                return self._fail(measure, started, peak, name,
                                  f"parsing took longer than {seconds:g} s", "timeout")
            try:
                ready = self.conn.poll(min(left, _POLL))
            except (EOFError, OSError):
                ready = True
            peak = max(peak, _peak_mb(self.proc.pid))
            if not ready:
                if not self.alive():
                    return self._died(measure, started, peak, name)
                continue
            try:
                kind, *payload = self.conn.recv()
            except (EOFError, OSError):
                return self._died(measure, started, peak, name)
            if kind == "progress":
                if extra_seconds and payload[0] == OCR_STAGE:
                    seconds, extra_seconds = seconds + extra_seconds, 0.0
                if progress is not None:
                    progress(*payload)
                continue
            self.busy = False
            measure.seconds = time.monotonic() - started
            measure.peak_mb = max(peak, payload[1])
            if kind == "ok":
                measure.outcome = "ok"
                value = payload[0]
                if isinstance(value, IndexedPdf):
                    value = replace(value, peak_mb=measure.peak_mb)
                return value
            if kind == "memory":
                self.stop()  # a worker that ran out of memory may be left in a bad state
                return self._fail(measure, started, measure.peak_mb, name,
                                  f"it needed more than the {self.memory_mb:,} MB memory limit", "out of memory")
            measure.outcome = "error"
            raise payload[0]

    def _died(self, measure: Measure, started: float, peak: float, name: str):
        try:
            code = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        self.stop()
        if code is not None and code < 0:
            sig = signal.Signals(-code).name
            why = (f"the PDF reader was killed ({sig}), most likely out of memory" if sig == "SIGKILL"
                   else f"the PDF reader crashed ({sig})")
        else:
            why = f"the PDF reader stopped unexpectedly (exit code {code})"
        return self._fail(measure, started, peak, name, why, "crashed")

    @staticmethod
    def _fail(measure: Measure, started: float, peak: float, name: str, why: str, outcome: str):
        measure.seconds = time.monotonic() - started
        measure.peak_mb = peak
        measure.outcome = outcome
        raise UnsafePDFError(f"{name} could not be read safely: {why}.")


def _cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far (user and system, Linux /proc), None when unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return None


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _peak_mb(pid: int, field: bytes = b"VmHWM:") -> float:
    """The process's peak resident memory so far (Linux VmHWM; ``field`` b"VmRSS:": its resident memory now),
    0 when unknown."""
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


# --- one worker, from the inside ------------------------------------------------------------------------
def _serve(fd: int, memory_mb: int, stack_mb: int) -> None:
    """The worker's loop: limit memory, import the indexer once, then run calls until told to stop."""
    limit = memory_mb * 2**20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit if hard == resource.RLIM_INFINITY else min(limit, hard)))
    threading.stack_size(stack_mb * 2**20)
    conn = Connection(fd)
    from . import indexer  # noqa: F401  (start-up paid once: pymupdf, numpy, the text tools)

    # The objects of the start-up (modules, word lists) live as long as the worker: frozen out of the
    # garbage collector's passes, and a job's pass made rarer, for indexing makes ~10 million short-lived
    # objects that reference counting frees and leaves no reference cycles (0 objects in cycles after each
    # of the 74 eval PDFs). The collector counts objects allocated minus freed, so a pass comes only when a
    # job holds 1,000,000 more objects; at 50,000 its 8 passes over the live statistics of the 74 eval PDFs
    # took 0.45 s of 17.8 s (each ~56 ms); the collector is kept, bounding what a cycle could hold.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)
    conn.send(("ready",))
    lock = threading.Lock()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args, wants_progress = job
        _reset_peak()
        box: list[tuple] = []
        last = [0.0]

        def progress(stage: str, fraction: float) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.05 or fraction >= 1.0:
                last[0] = now
                with lock:
                    conn.send(("progress", stage, fraction))

        def work() -> None:
            try:
                value = fn(*args, progress=progress) if wants_progress else fn(*args)
                box.append(("ok", value))
            except MemoryError:
                box.append(("memory", None))
            except BaseException as exc:  # sent back and re-raised in the parent
                box.append(("error", exc))

        thread = threading.Thread(target=work, name="alphasearch-parse")
        try:
            thread.start()
            thread.join()
        except RuntimeError:  # no address space left for its stack: the parent restarts the worker
            box.append(("memory", None))
        kind, value = box[0] if box else ("memory", None)
        peak = _peak_mb(os.getpid())
        with lock:
            try:
                conn.send((kind, value, peak))
            except MemoryError:
                conn.send(("memory", None, peak))
            except Exception as exc:  # a result or exception that cannot be pickled
                conn.send(("error", AlphaSearchError(f"The PDF worker could not return its result ({exc})."), peak))
        del box, value


def _ignore(stage: str, fraction: float) -> None:
    pass


def _reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # resets VmHWM, so each file's peak is its own
    except OSError:
        pass

