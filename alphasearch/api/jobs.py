"""Work that takes long (indexing an upload, a folder add) as jobs: a bounded pool of threads runs them,
each with a status a client polls (queued, running with progress, done with its result, failed
with the reason), while the server goes on answering questions."""
from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..errors import AlphaSearchError
from ..index import turns

log = logging.getLogger("alphasearch.api")
KEEP = 1000  # finished jobs remembered (the oldest are forgotten first)
Progress = Callable[[str, float], None]


@dataclass
class Job:
    """One piece of long work. ``progress``: its latest stage and fraction in [0, 1]; ``result``:
    what the work returned (JSON-ready) once ``done``; ``error``: one sentence once ``failed``."""

    id: str
    kind: str
    status: str = "queued"  # queued → running → done | failed
    stage: str = ""
    fraction: float = 0.0
    result: Any = None
    error: str = ""
    exception: BaseException | None = field(default=None, repr=False)
    created: float = field(default_factory=time.time)
    finished: float | None = None
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    def wait(self, seconds: float) -> bool:
        """True when the job has finished (done or failed) within ``seconds``."""
        return self._done.wait(seconds)

    def to_dict(self) -> dict[str, Any]:
        return {"job": self.id, "kind": self.kind, "status": self.status,
                "progress": {"stage": self.stage, "fraction": round(self.fraction, 4)},
                "result": self.result, "error": self.error or None, "created": round(self.created, 3),
                "finished": None if self.finished is None else round(self.finished, 3)}


class Jobs:
    """Jobs run by ``workers`` threads at once; the rest wait queued. Thread-safe."""

    def __init__(self, workers: int):
        self.pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="alphasearch-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, kind: str, work: Callable[[Progress], Any], owner: str = "") -> Job:
        """Queue ``work(progress)``; its return value becomes the job's result. ``owner``: the caller whose
        job it is (:func:`caller`); one caller's files take one index worker at a time (index/turns.py), and
        a file waiting for one says its place in the job's progress."""
        job = Job(id=secrets.token_hex(8), kind=kind)
        with self._lock:
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].finished is None:
                    break
                del self._jobs[oldest]
        self.pool.submit(self._run, job, work, owner)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _run(job: Job, work: Callable[[Progress], Any], owner: str) -> None:
        def progress(stage: str, fraction: float) -> None:
            job.stage, job.fraction = str(stage), max(job.fraction, min(1.0, float(fraction)))

        job.status = "running"
        try:
            with turns.visiting(owner):
                job.result = work(progress)
            job.status, job.fraction = "done", 1.0
        except AlphaSearchError as exc:
            job.status, job.error, job.exception = "failed", str(exc), exc
        except Exception as exc:  # the reason in one line; the traceback only in the server's log
            log.exception("job %s (%s) failed", job.id, job.kind)
            job.status, job.error, job.exception = "failed", f"internal error ({type(exc).__name__}); see the server log", exc
        finally:
            job.finished = time.time()
            job._done.set()
