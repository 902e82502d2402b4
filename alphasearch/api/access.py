"""Who may ask: the bearer token (``Settings.api_token``) and the per-token rate limit
(``Settings.api_rate_limit`` requests a minute)."""
from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import deque

from fastapi import HTTPException, Request

WINDOW = 60.0  # seconds of the rate limit's window


class RateLimiter:
    """At most ``limit`` requests in any ``WINDOW`` seconds per key (0: no limit). Thread-safe."""

    def __init__(self, limit: int):
        self.limit = limit
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str, now: float | None = None) -> float:
        """0 when this request is allowed (and counted), else the seconds until one is."""
        if not self.limit:
            return 0.0
        now = time.monotonic() if now is None else now
        with self._lock:
            seen = self._seen.setdefault(key, deque())
            while seen and now - seen[0] >= WINDOW:
                seen.popleft()
            if len(seen) >= self.limit:
                return max(0.1, WINDOW - (now - seen[0]))
            seen.append(now)
            return 0.0


def bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def check_access(request: Request) -> None:
    """The dependency of every resource but health: the token when the server has one, then the rate limit."""
    service = request.app.state.service
    expected = service.settings.api_token
    token = bearer(request)
    if expected:
        if not token:
            raise HTTPException(401, "This server needs a token: send the header 'Authorization: Bearer <token>'.",
                                headers={"WWW-Authenticate": "Bearer"})
        if not hmac.compare_digest(token.encode(), expected.encode()):
            raise HTTPException(401, "The token is wrong; use the one the server's ALPHASEARCH_API_TOKEN holds.",
                                headers={"WWW-Authenticate": "Bearer"})
    key = "token:" + token if expected else "client:" + (request.client.host if request.client else "?")
    request.state.caller = "api:" + hashlib.sha256(key.encode()).hexdigest()[:16]  # never the token itself
    wait = service.limiter.retry_after(key)
    if wait:
        raise HTTPException(429, f"Too many requests: the limit is {service.limiter.limit} a minute; "
                                 f"try again in {wait:.0f} s.", headers={"Retry-After": str(int(wait + 0.999))})


def caller(request: Request) -> str:
    """Who sends ``request`` (set by :func:`check_access`), by its token when the server has one, else by its
    address. Its indexing jobs are one visitor's (index/turns.py): the server has one token, so the API's
    callers together index one file at a time and leave the other workers to the app's visitors."""
    return str(getattr(request.state, "caller", "") or "")
