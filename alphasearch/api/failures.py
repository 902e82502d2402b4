"""Every failure as one JSON line a person can act on, ``{"error": "..."}``, with its status; never a
traceback (unexpected errors go to the server's log, the client gets a sentence)."""
from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import errors
from ..folder.router import EmptyFolderError, EmptyLibraryError

log = logging.getLogger("alphasearch.api")

# First match wins: the most specific types first.
STATUS: tuple[tuple[type[errors.AlphaSearchError], int], ...] = (
    (errors.NotFoundError, 404),
    (errors.FileTooLargeError, 413),
    (errors.QuestionTooLongError, 413),
    (errors.AlreadyExistsError, 409),
    (EmptyFolderError, 409),
    (EmptyLibraryError, 409),
    (errors.LLMError, 502),
    (errors.PDFError, 422),
    (errors.InvalidNameError, 422),
    (errors.InvalidFactError, 422),
    (errors.ConfigError, 422),
    (errors.StoreError, 503),
    (errors.AlphaSearchError, 422),
)


def status_of(exc: errors.AlphaSearchError) -> int:
    return next(code for kind, code in STATUS if isinstance(exc, kind))


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _validation_message(exc: RequestValidationError) -> str:
    first = (exc.errors() or [{}])[0]
    if first.get("type") == "json_invalid":
        return "The request body is not valid JSON; send an object such as {\"question\": \"...\"}."
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
    if first.get("type") == "missing":
        return f"{where} is missing from the request."
    if first.get("type") == "extra_forbidden":
        return f"{where} is not a field this request takes."
    return f"{where}: {first.get('msg', 'invalid value')}."


def install(app: FastAPI) -> None:
    """Route every error the app can meet to its one-line JSON answer."""

    @app.exception_handler(errors.AlphaSearchError)
    async def engine_error(request: Request, exc: errors.AlphaSearchError) -> JSONResponse:
        return error(status_of(exc), str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = f"No such resource: {request.url.path[:200]}; the API's paths are listed at /docs."
        return error(exc.status_code, message, getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, _validation_message(exc))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error(500, f"The server failed on this request ({type(exc).__name__}); its log has the details.")
