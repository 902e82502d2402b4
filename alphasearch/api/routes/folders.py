"""``/v1/folders``: create, list, rename, delete; a folder's documents (add many as a job, remove),
their facts (read and correct), and questions to the folder."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile
from fastapi.responses import JSONResponse

from ...library import Library
from ..access import caller, check_access
from ..schemas import FactChanges, FolderName, FolderQuestion
from .ask import answer
from .documents import HIGHLIGHT
from .uploads import read_upload

router = APIRouter(prefix="/v1/folders", tags=["folders"], dependencies=[Depends(check_access)])


def library(request: Request) -> Library:
    return request.app.state.service.engine.library


@router.get("")
def list_folders(request: Request) -> list[dict[str, Any]]:
    return [f.to_dict() for f in library(request).folders()]


@router.post("", status_code=201)
def create_folder(body: FolderName, request: Request) -> dict[str, Any]:
    return library(request).create_folder(body.name).to_dict()


@router.get("/{name}")
def folder_info(name: str, request: Request) -> dict[str, Any]:
    """The folder with its documents."""
    lib = library(request)
    f = lib.folder(name)
    return {**f.to_dict(), "documents": [d.to_dict() for d in lib.documents(f.folder_id)]}


@router.patch("/{name}")
def rename_folder(name: str, body: FolderName, request: Request) -> dict[str, Any]:
    return library(request).rename_folder(name, body.name).to_dict()


@router.delete("/{name}")
def delete_folder(name: str, request: Request) -> dict[str, Any]:
    return library(request).delete_folder(name).to_dict()


@router.post("/{name}/documents", status_code=202)
async def add_documents(name: str, request: Request, file: list[UploadFile] = File(...)) -> JSONResponse:
    """Add PDFs (several multipart ``file`` fields) as a job: ``{"job"}`` at once; the job's result has one
    entry per file as the app shows them (indexed, unchanged, replaced, duplicate, rejected with the reason)."""
    svc = request.app.state.service
    lib = library(request)
    lib.folder(name)  # 404 now rather than in the job
    items = [await read_upload(f, svc.settings.max_file_mb) for f in file]
    job = svc.jobs.submit("folder-add", lambda progress: [r.to_dict() for r in lib.add_many(name, items,
                                                                                             progress=progress)],
                          owner=caller(request))
    return JSONResponse({"job": job.id, "status": job.status}, status_code=202)


@router.delete("/{name}/documents/{doc}")
def remove_document(name: str, doc: str, request: Request) -> dict[str, Any]:
    return library(request).remove(name, doc).to_dict()


@router.get("/{name}/documents/{doc}/pages/{page}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}})
def page_png(name: str, doc: str, page: int, request: Request, highlight: str = HIGHLIGHT) -> Response:
    """A folder document's page (1-based) as PNG with the passage highlighted: a folder answer's citation
    names its ``doc`` and ``pages``."""
    return Response(request.app.state.service.library_page_png(name, doc, page, highlight), media_type="image/png")


@router.get("/{name}/facts")
def facts(name: str, request: Request) -> list[dict[str, Any]]:
    """Each document's facts: organisation, kind, fiscal year, quarter, title (and which were edited)."""
    lib = library(request)
    found = lib.facts(name)
    return [{"doc": d.name, **found[d.record_id].to_dict()} for d in lib.documents(name) if d.record_id in found]


@router.patch("/{name}/documents/{doc}/facts")
def correct_facts(name: str, doc: str, body: FactChanges, request: Request) -> dict[str, Any]:
    changes = {k: v for k, v in body.model_dump().items() if v is not None}
    return {"doc": doc, **library(request).set_facts(name, doc, **changes).to_dict()}


@router.post("/{name}/ask")
async def ask_folder(name: str, body: FolderQuestion, request: Request,
                     trace: bool = Query(False, description="add the search traces")) -> Any:
    """The answer object of ``ask --json --folder NAME``; with ``Accept: text/event-stream`` as events."""
    return await answer(body.model_copy(update={"folder": name}), request, trace)
