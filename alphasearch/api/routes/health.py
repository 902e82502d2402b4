"""``/v1/health``: the server is up, which engine it runs, and the library's health check (no token needed)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

router = APIRouter(prefix="/v1", tags=["health"])


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    svc = request.app.state.service
    report = svc.engine.library.health()
    return {"status": "ok", "engine": svc.settings.resolved_engine, "auth": bool(svc.settings.api_token),
            "library": report.to_dict()}
