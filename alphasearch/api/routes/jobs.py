"""``/v1/jobs/{job}``: a long piece of work's status (queued, running with progress, done with its
result, failed with the reason)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from ...errors import NotFoundError
from ..access import check_access

router = APIRouter(prefix="/v1/jobs", tags=["jobs"], dependencies=[Depends(check_access)])


@router.get("/{job_id}")
def job(job_id: str, request: Request) -> dict[str, Any]:
    found = request.app.state.service.jobs.get(job_id)
    if found is None:
        raise NotFoundError(f"No job {job_id[:80]!r} (jobs are kept while the server runs).")
    return found.to_dict()
