"""Page previews shared fairly between the visitors of one server.

Previews are drawn in the preview pool (:func:`.isolation.preview_pool`: ``PREVIEW_WORKERS`` worker
processes, each preview within ``isolation.PREVIEW_SECONDS``). One visitor runs one preview at a time (their
others wait for it), so a visitor whose pages are slow to draw holds one worker, never all of them: another
visitor's ordinary page is drawn meanwhile (one worker for everyone made it wait 33.5 s instead of 0.04 s). A
page that could not be drawn is remembered, so asking for it again fails at once instead of drawing again.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from ..errors import PDFError
from . import isolation

REMEMBERED_FAILURES = 1024  # pages that could not be drawn, kept (oldest forgotten first)

_lock = threading.Lock()
_failed: OrderedDict[tuple[str, int, float], PDFError] = OrderedDict()  # (sha256, page, time limit)
_running: dict[str, tuple[threading.Lock, int]] = {}  # owner → (their lock, callers holding or awaiting it)


def preview(data: bytes, page: int, highlight: tuple[str, ...] = (), zoom: float = 1.5, *, owner: str = "") -> bytes:
    """PNG of 1-based ``page`` of ``data`` with ``highlight`` passages marked, drawn in the preview pool as
    ``owner``'s one running preview. Raises the page's error (a :class:`PDFError`: too complex, too slow) again
    at once when it failed before."""
    key = (hashlib.sha256(data).hexdigest(), int(page), float(isolation.PREVIEW_SECONDS))  # a longer limit tries again
    with _lock:
        known = _failed.get(key)
    if known is not None:
        raise type(known)(str(known))
    own = _enter(owner)
    try:
        with own:
            with _lock:  # failed while this caller waited for the owner's previous preview
                known = _failed.get(key)
            if known is not None:
                raise type(known)(str(known))
            return isolation.preview_pool().run(isolation.render_preview, data, page, tuple(highlight), zoom,
                                                name=f"Page {page}")
    except PDFError as exc:
        with _lock:
            _failed[key] = exc
            while len(_failed) > REMEMBERED_FAILURES:
                _failed.popitem(last=False)
        raise
    finally:
        _leave(owner)


def _enter(owner: str) -> threading.Lock:
    with _lock:
        own, users = _running.get(owner) or (threading.Lock(), 0)
        _running[owner] = (own, users + 1)
    return own


def _leave(owner: str) -> None:
    with _lock:
        own, users = _running[owner]
        if users <= 1:
            del _running[owner]
        else:
            _running[owner] = (own, users - 1)
