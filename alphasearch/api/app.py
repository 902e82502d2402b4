"""The FastAPI application: the routers, the error handlers and the request-size limit, on one engine."""
from __future__ import annotations

from fastapi import FastAPI

from ..pipeline import Engine
from . import failures
from .limits import BodyLimit
from .routes import ask, documents, folders, health, jobs
from .service import Service

DESCRIPTION = """Ask questions of PDFs and folders of PDFs, answered with page citations by Monte Carlo Tree
Search over each document's section tree. Send `Authorization: Bearer <token>` when the server has a token
(ALPHASEARCH_API_TOKEN). Every error is one JSON line, `{"error": "..."}`. Questions (`/query`, `/ask`)
stream as server-sent events with `Accept: text/event-stream`."""


def create_app(engine: Engine | None = None) -> FastAPI:
    """The application over ``engine`` (default: one from the environment's settings)."""
    engine = engine or Engine()
    service = Service(engine)
    app = FastAPI(title="AlphaSearch", version="1", description=DESCRIPTION)
    app.state.service = service
    for module in (documents, folders, ask, jobs, health):
        app.include_router(module.router)
    failures.install(app)
    app.add_middleware(BodyLimit, json_bytes=engine.settings.api_max_body_kb * 1024,
                       upload_bytes=engine.settings.max_file_mb * 1024 * 1024)
    app.router.add_event_handler("shutdown", service.jobs.close)
    return app
