"""Index workers shared fairly between the visitors of one server: a line, first come first served, in which
a visitor holds one worker at a time.

Every call for an index worker (:meth:`.isolation.WorkerPool.run`) takes a ticket in its pool's :class:`Line`,
naming its visitor (:func:`visiting`; "" for the command line and the benchmarks, which may use every
worker). A ticket is served when a worker is free and no ticket ahead of it can be: a ticket whose visitor
already runs a job waits and lets the ones behind it pass. So a visitor adding twenty slow files to a folder
holds one worker while another visitor's one-page upload takes the next (without the line, the first
visitor's files took both workers and the upload waited for them). A waiting caller is told its place in the
line (1: next) as it changes.
"""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
_VISITOR: ContextVar[str] = ContextVar("alphasearch_visitor", default="")
WAITING = "waiting for an index worker"  # the progress stage of a caller in line (then its place)
WAIT_SECONDS = 1.0  # how often a waiting caller looks again (a release wakes it sooner)


@contextmanager
def visiting(owner: str) -> Iterator[None]:
    """Worker calls made in this block (in this thread) are ``owner``'s jobs."""
    token = _VISITOR.set(str(owner or ""))
    try:
        yield
    finally:
        _VISITOR.reset(token)


def visitor() -> str:
    """The visitor of this thread's worker calls ("" outside :func:`visiting`)."""
    return _VISITOR.get()


def place_text(place: int) -> str:
    """What a waiting visitor is told: "waiting for an index worker: 2nd in line"."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{WAITING}: next in line" if place == 1 else f"{WAITING}: {place}{suffix} in line"


class Cancelled(Exception):
    """The caller gave up waiting for a worker (its ``cancel`` event was set)."""


class _Ticket:
    __slots__ = ("owner",)

    def __init__(self, owner: str):
        self.owner = owner


class Line:
    """The order in which callers get a worker. ``cond`` is the pool's condition: its lock guards the workers
    and the line together."""

    def __init__(self, cond: threading.Condition):
        self._cond = cond
        self._line: list[_Ticket] = []
        self._running: Counter[str] = Counter()
        self._held = threading.local()  # jobs this thread holds: a call made inside one is not held back by it

    def wait(self, owner: str, take: Callable[[], T | None], waiting: Callable[[int], None] | None = None,
             cancel: threading.Event | None = None) -> T:
        """Block until ``owner``'s turn and a worker: ``take()`` (called under the lock) returns one, or None
        while none is free. Returns what it took; the caller calls :meth:`done` when the job ends, in this
        thread. ``waiting(place)``: called (without the lock) whenever the caller's place in the line changes;
        ``cancel``: once set, the caller leaves the line (:class:`Cancelled`) within :data:`WAIT_SECONDS`."""
        ticket = _Ticket(owner)
        told = 0
        nested = getattr(self._held, "jobs", 0) > 0  # this thread already runs a job (e.g. from its progress)
        try:
            with self._cond:
                self._line.append(ticket)
            while True:
                if cancel is not None and cancel.is_set():
                    raise Cancelled("stopped while waiting for an index worker")
                with self._cond:
                    place = self._place(ticket)
                    mine = bool(owner and self._running[owner]) and not nested  # the visitor's other job runs
                    got = take() if place == 1 and not mine else None
                    if got is not None:
                        self._line.remove(ticket)
                        if owner:
                            self._running[owner] += 1
                        self._held.jobs = getattr(self._held, "jobs", 0) + 1
                        if self._line:
                            self._cond.notify_all()  # the next in line may start too (another free worker)
                        return got
                    if place == told or waiting is None:
                        self._cond.wait(WAIT_SECONDS)
                        continue
                    told = place
                waiting(told)
        except BaseException:
            with self._cond:
                if ticket in self._line:
                    self._line.remove(ticket)
                self._cond.notify_all()
            raise

    def done(self, owner: str) -> None:
        """``owner``'s job ended (called under the pool's lock, which then notifies all, in the thread that
        waited for it)."""
        self._held.jobs = max(0, getattr(self._held, "jobs", 0) - 1)
        if owner:
            self._running[owner] -= 1
            if self._running[owner] <= 0:
                del self._running[owner]

    def _place(self, ticket: _Ticket) -> int:
        """``ticket``'s place in the line, 1-based: 1 + the tickets ahead of it that could start before it (a
        visitor's first waiting ticket; none of a visitor whose job runs). Place 1 starts as soon as a worker
        is free and its visitor runs no other job."""
        place = 1
        counted: set[str] = set()
        for t in self._line:
            if t is ticket:
                break
            if t.owner and (self._running[t.owner] or t.owner in counted):
                continue
            counted.add(t.owner)
            place += 1
        return place
