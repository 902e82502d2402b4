"""A disk cache around any LLM (``diskcache``): a repeated call costs nothing.

Key: sha256 of the endpoint, model, messages (image bytes included, as they are
part of the messages) and parameters. Value: the reply text, model and token
counts. The API key is never part of either. Only usable replies are stored;
failures (timeouts, HTTP errors, refusals) are not, so they are retried next time.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from collections.abc import Callable
from typing import Any

import diskcache

from .client import LLM, ChatRequest, Completion, respond

CACHE_DIRNAME = "llm_cache"


def request_key(request: ChatRequest, endpoint: str = "") -> str:
    """Hex sha256 of everything that determines the reply."""
    payload = {"endpoint": endpoint, **request.fingerprint()}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMCache:
    """Replies on disk under ``<data_dir>/llm_cache`` (thread- and process-safe)."""

    def __init__(self, directory: Path | str, *, size_limit: int = 2 * 2**30):
        self.directory = Path(directory)
        self._cache = diskcache.Cache(str(self.directory), size_limit=size_limit)

    @classmethod
    def for_data_dir(cls, data_dir: Path | str) -> "LLMCache":
        return cls(Path(data_dir) / CACHE_DIRNAME)

    def get(self, key: str) -> dict[str, Any] | None:
        raw = self._cache.get(key)
        if not isinstance(raw, (bytes, str)):
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) and isinstance(value.get("text"), str) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        self._cache.set(key, json.dumps(value, ensure_ascii=False).encode("utf-8"))

    def stats(self) -> dict[str, Any]:
        """Entries, bytes on disk and the directory."""
        return {"entries": len(self._cache), "bytes": int(self._cache.volume()), "directory": str(self.directory)}

    def clear(self) -> int:
        """Remove every entry; returns how many were removed."""
        return int(self._cache.clear())

    def close(self) -> None:
        self._cache.close()


class CachedLLM:
    """Wraps any :class:`~alphasearch.llm.client.LLM`; a cache hit returns the stored
    reply with ``cached=True`` and makes no request."""

    def __init__(self, inner: LLM, cache: LLMCache):
        self.inner = inner
        self.cache = cache
        self.endpoint = getattr(inner, "endpoint", "")

    def __repr__(self) -> str:
        return f"CachedLLM({self.inner!r}, {self.cache.directory})"

    def complete(self, request: ChatRequest) -> Completion:
        return self.stream(request, None)

    def stream(self, request: ChatRequest, on_text: Callable[[str], None] | None) -> Completion:
        """The reply, streamed to ``on_text`` when given (a cache hit replays it in one piece).
        Streamed and whole replies share one key; only a stream that finished is stored."""
        key = request_key(request, self.endpoint)
        hit = self.cache.get(key)
        if hit is not None:
            if on_text is not None:
                on_text(hit["text"])
            return Completion(text=hit["text"], model=str(hit.get("model", request.model)),
                              prompt_tokens=int(hit.get("prompt_tokens", 0)),
                              completion_tokens=int(hit.get("completion_tokens", 0)), cached=True)
        completion = respond(self.inner, request, on_text)  # raises on a failed or broken stream: nothing stored
        self.cache.set(key, {"text": completion.text, "model": completion.model,
                             "prompt_tokens": completion.prompt_tokens,
                             "completion_tokens": completion.completion_tokens})
        return completion


__all__ = ["LLMCache", "CachedLLM", "request_key", "CACHE_DIRNAME"]
