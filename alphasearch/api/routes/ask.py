"""``/v1/ask``: a question to the library, routed to a folder (or the one named); ``/v1/conversations``:
a folder chat kept by id, as ``ask --conversation`` keeps it."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool

from ...config import check_question
from ..access import check_access
from ..schemas import FolderQuestion
from ..streaming import stream, wants_events

router = APIRouter(prefix="/v1", tags=["questions"], dependencies=[Depends(check_access)])


async def answer(body: FolderQuestion, request: Request, trace: bool) -> Any:
    svc = request.app.state.service
    check_question(body.question)
    if body.folder is not None:
        await run_in_threadpool(svc.engine.library.folder, body.folder)  # 404 before any stream starts

    def work(on_step=None, on_text=None) -> dict[str, Any]:
        return svc.ask(body.question, folder=body.folder, conversation=body.conversation, documents=body.documents,
                       top_k=body.top_k, iterations=body.iterations, seed=body.seed, trace=trace, on_step=on_step)

    if wants_events(request):
        return stream(work)
    return await run_in_threadpool(work)


@router.post("/ask")
async def ask(body: FolderQuestion, request: Request,
              trace: bool = Query(False, description="add the search traces")) -> Any:
    """The answer object of ``ask --json``: ``folder``, ``folder_confidence``, ``documents``, citations naming
    their documents; with ``Accept: text/event-stream`` as events (progress, then the answer)."""
    return await answer(body, request, trace)


@router.get("/conversations/{conversation}")
def conversation(conversation: str, request: Request) -> list[dict[str, Any]]:
    """The conversation's turns, oldest first."""
    turns = request.app.state.service.engine.library.history(conversation, limit=200)
    return [asdict(t) for t in turns]
