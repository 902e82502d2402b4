"""Distributed indexing on a Ray cluster (optional: ``pip install -r requirements-ray.txt``).

The driver (the process running ``folder add … --cluster ADDRESS``) sends each new
PDF's bytes to the cluster as one Ray task running :func:`index_file`, the same
top-level per-file indexing function a local worker runs. A task whose worker dies
(killed, out of memory, node lost) is retried by Ray up to ``max_retries`` times; a
file that is not a usable PDF fails at once with its :class:`~alphasearch.errors.PDFError`
(no retry: it would fail again). Results (the index with its page term counts, and the
saved page ranker's files) come back to the driver, which alone writes the library: each
document is committed once, atomically, by :meth:`alphasearch.library.Library.add_many`.

``address``: ``"local"`` starts a private Ray cluster on this machine with ``workers``
CPUs (default: all) for the run (and stops it afterwards); anything else (``"auto"``, ``"HOST:6379"``,
``"ray://HOST:10001"``) connects to a running cluster, shipping this package's code to
its workers (``runtime_env`` ``py_modules``); the workers need the core requirements
installed. A process already connected to Ray (``ray.is_initialized()``) reuses that
connection. Nothing here imports Ray until a cluster is asked for.
"""
from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AlphaSearchError

Progress = Callable[[str, float], None]  # (message, fraction of the batch done in [0, 1])
MAX_RETRIES = 3  # attempts after the first when a worker dies
TASK_NAME = "index_file"  # Ray names the worker process ``ray::index_file`` while it runs one


class ClusterError(AlphaSearchError):
    """Ray is missing, the cluster cannot be reached, or a file's workers kept dying."""


@dataclass(frozen=True)
class IndexedFile:
    """What a worker sends back for one PDF: ``indexed`` is the
    :class:`~alphasearch.index.isolation.IndexedPdf` (index and page term counts) of the per-file
    function every local worker runs; ``ranker`` maps each file of the saved
    :class:`~alphasearch.index.ranker.PageRanker` directory (path relative to it, '/'-separated) to its bytes."""

    indexed: Any
    ranker: dict[str, bytes]


def index_file(data: bytes, name: str, limits: dict[str, Any]) -> IndexedFile:
    """Index one PDF and build its page ranker (plain and picklable: runs in any Ray worker).

    The PDF is parsed by :func:`alphasearch.index.isolation.index_pdf` in a child process of the Ray
    worker with the same time and memory limits as on one machine, so a hostile file fails
    alone (UnsafePDFError, not retried) instead of killing the Ray worker. ``limits``:
    ``max_pages``, ``warn_pages``, ``max_leaf_pages``, ``parse_seconds``, ``parse_memory_mb``, ``ocr``,
    ``ocr_seconds``."""
    from types import SimpleNamespace

    from . import isolation
    from .ranker import PageRanker

    options = isolation.IndexOptions(**{k: limits[k] for k in ("max_pages", "warn_pages", "max_leaf_pages", "ocr",
                                                               "ocr_seconds") if k in limits}, layout=True)
    bounds = SimpleNamespace(parse_seconds=limits.get("parse_seconds", 120.0),
                             parse_memory_mb=limits.get("parse_memory_mb", 2048))
    indexed = isolation.shared_pool(bounds, size=1).run(isolation.index_pdf, data, name, options, name=name,
                                                        extra_seconds=options.extra_seconds)
    with tempfile.TemporaryDirectory(prefix="alphasearch-ranker-") as tmp:
        root = Path(tmp) / "ranker"
        PageRanker(indexed.index).save(root)
        files = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    return IndexedFile(indexed, files)


def _ray():
    try:
        import ray
    except ImportError:
        raise ClusterError("Ray is not installed; install it with "
                           "`pip install -r requirements-ray.txt` to index on a cluster.") from None
    return ray


@contextmanager
def connect(address: str, workers: int | None = None) -> Iterator[Any]:
    """The ``ray`` module, connected to the cluster at ``address`` for the ``with`` block
    (see the module doc). Raises ClusterError when it cannot connect."""
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    kwargs: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    if address == "local":
        kwargs.update(address="local", num_cpus=max(1, int(workers or os.cpu_count() or 1)))
    else:
        _check_reachable(address)
        kwargs.update(address=address, runtime_env={"py_modules": [str(Path(__file__).resolve().parent.parent)]})
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        raise ClusterError(f"Cannot connect to the Ray cluster at {address!r} ({str(exc).splitlines()[0][:200]}); "
                           f"start it with `ray start --head` or check the address.") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``HOST:PORT`` nobody listens on (Ray itself keeps retrying for minutes)."""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and other forms: left to Ray
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ClusterError(f"Nothing answers at {address} ({exc.strerror or exc}); start the cluster with "
                           f"`ray start --head` there, or check the address.") from None


def index_on_cluster(todo: dict[str, tuple[str, bytes]], *, address: str, workers: int | None = None,
                     limits: dict[str, Any] | None = None, progress: Progress | None = None,
                     max_retries: int = MAX_RETRIES) -> dict[str, IndexedFile | BaseException]:
    """Index ``todo`` (content hash → (name, PDF bytes)) as Ray tasks; returns content
    hash → IndexedFile, or the exception that file raised (PDFError for a bad file,
    ClusterError when its worker died on every attempt). At most twice the cluster's
    CPUs are in flight, so the driver never holds every result at once."""
    report = progress or (lambda message, fraction: None)
    out: dict[str, IndexedFile | BaseException] = {}
    if not todo:
        return out
    with connect(address, workers) as ray:
        task = ray.remote(max_retries=max_retries, retry_exceptions=False)(index_file).options(name=TASK_NAME)
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        window = max(2, 2 * cpus)
        queue = list(todo.items())
        running: dict[Any, str] = {}
        started = time.perf_counter()
        report(f"indexing {len(todo)} PDFs on a Ray cluster with {cpus} CPUs", 0.0)
        while queue or running:
            while queue and len(running) < window:
                sha, (name, data) = queue.pop(0)
                running[task.remote(data, name, dict(limits or {}))] = sha
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                sha = running.pop(ref)
                out[sha] = _result(ray, ref, todo[sha][0], max_retries)
                what = "failed" if isinstance(out[sha], BaseException) else "indexed"
                report(f"{todo[sha][0]}: {what} on the cluster ({len(out)}/{len(todo)}, "
                       f"{time.perf_counter() - started:.0f} s)", 0.9 * len(out) / len(todo))
    return out


def _result(ray: Any, ref: Any, name: str, max_retries: int) -> IndexedFile | BaseException:
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:  # the function raised: PDFError and friends
        cause = getattr(exc, "cause", None)
        return cause if isinstance(cause, BaseException) else exc
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError, ray.exceptions.OutOfMemoryError,
            ray.exceptions.TaskUnschedulableError, ray.exceptions.RayError) as exc:
        return ClusterError(f"{name} was not indexed: its Ray worker died {max_retries + 1} times "
                            f"({type(exc).__name__}); check the cluster's memory and logs, then add it again.")
