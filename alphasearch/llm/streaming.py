"""Answers streamed token by token: the text of one field of a JSON reply as it arrives,
and a call run in a thread whose streamed text a reader iterates over.

The answer model replies with a JSON object (``{"answer": "… [p. 4]", "citations": …}``);
:class:`FieldText` turns the reply's pieces into the decoded pieces of its ``answer``
string, so a reader sees prose, not JSON. What streams is a draft: the finished answer
(citations checked against the pages shown, unread pages removed) replaces it.
"""
from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class FieldText:
    """``feed(piece)`` with each piece of a JSON reply; ``emit`` gets the decoded text of
    the string value of ``field`` as it grows (nothing before the field starts, nothing
    after its closing quote)."""

    def __init__(self, field: str, emit: Callable[[str], None]):
        self._start = re.compile(r'"' + re.escape(field) + r'"\s*:\s*"')
        self._emit = emit
        self._buf = ""
        self._pos: int | None = None  # where the string's undecoded rest begins
        self._done = False

    def feed(self, piece: str) -> None:
        if self._done:
            return
        self._buf += piece
        if self._pos is None:
            m = self._start.search(self._buf)
            if m is None:
                return
            self._pos = m.end()
        out: list[str] = []
        i, buf = self._pos, self._buf
        while i < len(buf):
            ch = buf[i]
            if ch == '"':
                self._done = True
                break
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            if i + 1 >= len(buf):
                break  # the escape is split across pieces: wait for the next
            if buf[i + 1] == "u":
                if i + 6 > len(buf):
                    break
                try:
                    out.append(json.loads(f'"{buf[i:i + 6]}"'))
                except ValueError:  # a lone surrogate half: kept out of the draft
                    pass
                i += 6
                continue
            out.append(_ESCAPES.get(buf[i + 1], buf[i + 1]))
            i += 2
        self._pos = i
        if out:
            self._emit("".join(out))


class Notice(str):
    """A line about the work, not part of the answer's text, passed along the same stream (e.g.
    "Searching the document again for: …" before a knowledge-gap round's answer); the draft
    after it starts afresh."""


class Cancelled(Exception):
    """The reader stopped reading a :class:`Streamed` call."""


class Streamed(Generic[T]):
    """``call(on_text)`` run in a thread; iterate :meth:`pieces` for the text it streams,
    then read :attr:`result` (the call's exception is raised there). A reader that stops
    early (closing the iterator) makes the next ``on_text`` raise :class:`Cancelled`, so
    the call's stream is abandoned (and, being unfinished, never cached)."""

    _END = object()

    def __init__(self, call: Callable[[Callable[[str], None]], T]):
        self._queue: queue.Queue = queue.Queue()
        self._cancel = threading.Event()
        self._result: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(call,), daemon=True, name="alphasearch-stream")
        self._thread.start()

    def _on_text(self, piece: str) -> None:
        if self._cancel.is_set():
            raise Cancelled("the reader stopped reading")
        self._queue.put(piece)

    def _run(self, call: Callable[[Callable[[str], None]], T]) -> None:
        try:
            self._result = call(self._on_text)
        except BaseException as exc:  # handed to the reader's thread
            self._error = exc
        finally:
            self._queue.put(self._END)

    def pieces(self) -> Iterator[str]:
        try:
            while True:
                item = self._queue.get()
                if item is self._END:
                    return
                yield item
        finally:
            self._cancel.set()

    @property
    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]


__all__ = ["FieldText", "Streamed", "Cancelled", "Notice"]
