"""``/v1/documents``: upload a PDF (indexed as a job; the document itself when ready within
``api_wait_seconds``), its card, its section tree, a page as PNG, questions to it; delete."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from ...config import check_question
from ...library.names import sha256_of
from ...pdf import convert
from ..access import caller, check_access
from ..schemas import Question
from ..service import Service, card
from ..streaming import stream, wants_events
from .uploads import read_upload

HIGHLIGHT = Query("", max_length=2000, description="a passage to mark, e.g. a citation's snippet")
router = APIRouter(prefix="/v1/documents", tags=["documents"], dependencies=[Depends(check_access)])


def service(request: Request) -> Service:
    return request.app.state.service


@router.post("", status_code=201, responses={202: {"description": "still indexing: poll the job"}})
async def upload(request: Request, file: UploadFile = File(...)) -> JSONResponse:
    """Upload one PDF (multipart field ``file``). 201 ``{"id", "name", "pages", "job"}`` when indexed within
    ``api_wait_seconds``, else 202 with ``pages`` null (and ``id`` null for a file converted to PDF, whose id is
    its PDF's): poll ``GET /v1/jobs/{job}``."""
    svc = service(request)
    name, data = await read_upload(file, svc.settings.max_file_mb)
    job = svc.jobs.submit("document", lambda progress: _summary(svc.index_upload(data, name, progress)),
                          owner=caller(request))
    # another format's id is its converted PDF's, known when the job ends: the job's result carries it
    doc_id = await run_in_threadpool(sha256_of, data) if convert.is_pdf(name, data) else None
    if not await run_in_threadpool(job.wait, svc.settings.api_wait_seconds):
        return JSONResponse({"id": doc_id, "name": name, "pages": None, "job": job.id}, status_code=202)
    if job.exception is not None:
        raise job.exception
    return JSONResponse({**job.result, "job": job.id}, status_code=201)


def _summary(doc) -> dict[str, Any]:
    return {"id": doc.doc_id, "name": doc.name, "pages": doc.page_count, "warnings": list(doc.warnings)}


@router.get("/{doc_id}")
def get_document(doc_id: str, request: Request) -> dict[str, Any]:
    """The document's card: pages, sections, facts, warnings and its top-level sections."""
    return card(service(request).document(doc_id))


@router.delete("/{doc_id}")
def delete_document(doc_id: str, request: Request) -> dict[str, Any]:
    service(request).delete(doc_id)
    return {"deleted": doc_id}


@router.get("/{doc_id}/tree")
def tree(doc_id: str, request: Request) -> dict[str, Any]:
    """The section tree: ``{"id", "title", "pages": [first, last], "summary", "level", "children"}``, pages 1-based."""
    return service(request).document(doc_id).root.to_dict()


@router.get("/{doc_id}/pages/{page}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}})
def page_png(doc_id: str, page: int, request: Request, highlight: str = HIGHLIGHT) -> Response:
    """A page (1-based) as PNG with the passage highlighted, drawn in the preview worker."""
    return Response(service(request).page_png(doc_id, page, highlight), media_type="image/png")


@router.post("/{doc_id}/query")
async def query(doc_id: str, body: Question, request: Request,
                trace: bool = Query(False, description="add the search trace")) -> Any:
    """The answer object of ``query --json``; with ``Accept: text/event-stream`` as events."""
    svc = service(request)
    check_question(body.question)
    await run_in_threadpool(svc.document, doc_id)  # 404 before any stream starts

    def work(on_step=None, on_text=None) -> dict[str, Any]:
        return svc.query(doc_id, body.question, trace=trace, iterations=body.iterations, seed=body.seed,
                         on_step=on_step, on_text=on_text)

    if wants_events(request):
        return stream(work)
    return await run_in_threadpool(work)
