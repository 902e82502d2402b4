"""Answers as server-sent events (``Accept: text/event-stream``): ``progress`` for each search
iteration, ``draft`` for the answer's text as the model writes it (the LLM engine), then ``answer``
with the object the plain call returns (or ``error`` with its status and one line). When the client
goes away the search is stopped at its next iteration: nothing more is judged."""
from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

from ..errors import AlphaSearchError, SearchStopped
from ..models import SearchStep
from ..pipeline import OnStep
from .failures import status_of

log = logging.getLogger("alphasearch.api")
MEDIA_TYPE = "text/event-stream"
Work = Callable[[OnStep, Callable[[str], None]], dict[str, Any]]  # (on_step, on_text) -> the answer object


def wants_events(request: Request) -> bool:
    return MEDIA_TYPE in request.headers.get("accept", "")


def event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def progress(label: str, step: SearchStep) -> dict[str, Any]:
    return {"label": label, "iteration": step.iteration, "path": list(step.path), "judged": list(step.judged),
            "reward": round(step.reward, 6)}


def stream(work: Work) -> StreamingResponse:
    """Run ``work`` in a thread and send what it reports as events, the answer object last."""
    return StreamingResponse(_events(work), media_type=MEDIA_TYPE,
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _events(work: Work) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    gone = threading.Event()

    def send(text: str | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, text)

    def on_step(label: str, step: SearchStep) -> None:
        if gone.is_set():
            raise SearchStopped("The client went away; the search stopped.")
        send(event("progress", progress(label, step)))

    def on_text(piece: str) -> None:
        if gone.is_set():
            raise SearchStopped("The client went away; the answer stopped.")
        send(event("draft", {"text": str(piece)}))

    def run() -> None:
        try:
            send(event("answer", work(on_step, on_text)))
        except SearchStopped:
            pass
        except AlphaSearchError as exc:
            send(event("error", {"error": str(exc), "status": status_of(exc)}))
        except Exception as exc:  # the client gets a sentence; the traceback goes to the server's log
            log.exception("streamed answer failed")
            send(event("error", {"error": f"The server failed on this request ({type(exc).__name__}); its log has "
                                          "the details.", "status": 500}))
        finally:
            send(None)

    worker = loop.run_in_executor(None, run)
    try:
        while (text := await queue.get()) is not None:
            yield text
    finally:  # the stream ended, or the client disconnected and the response was cancelled
        gone.set()
    await worker
