"""The request-size limit, checked on the declared length before a body is read: JSON bodies at
``api_max_body_kb``, uploads at ``max_file_mb`` per request (each file is checked again as it is read)."""
from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send


class BodyLimit:
    """413 with one JSON line for a body whose Content-Length is over its kind's limit."""

    def __init__(self, app: ASGIApp, *, json_bytes: int, upload_bytes: int, files: int = 100):
        self.app = app
        self.json_bytes = json_bytes
        self.upload_bytes = upload_bytes * files  # a folder add carries many files, each within max_file_mb

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
            multipart = headers.get("content-type", "").startswith("multipart/")
            limit = self.upload_bytes if multipart else self.json_bytes
            try:
                length = int(headers.get("content-length", "0") or 0)
            except ValueError:
                length = 0
            if length > limit:
                kind = "An upload" if multipart else "A request body"
                message = f"{kind} of {length / 1024:,.0f} KB is over the limit of {limit / 1024:,.0f} KB."
                await _refuse(send, 413, message)
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
