"""The LLM protocol, one OpenAI-compatible client on the ``openai`` SDK, usage and cost.

Every provider implements one method, ``complete(request) -> Completion``.
:class:`OpenAIChat` talks to OpenAI or any server that speaks its API (Ollama,
vLLM, LM Studio, llama.cpp); wrap it in :class:`alphasearch.llm.cache.CachedLLM`
so repeated calls cost nothing.

Secrets: the API key lives only inside the SDK client object. It is never part
of a :class:`ChatRequest`, a :class:`Completion`, a cache key or value, a log
line or an exception message (errors are rebuilt from the HTTP status alone and
raised ``from None`` so the SDK's own message, which may echo the key, is not
chained).
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable
from urllib.parse import urlsplit

from ..config import DEFAULT_BASE_URL, shown_url
from ..errors import ConfigError, LLMMalformedError, LLMRefusalError, LLMUnavailableError, MissingAPIKeyError
from ..models import Usage

LOCAL_DUMMY_KEY = "not-needed"  # sent to keyless local servers (the SDK insists on some key)

# USD per 1M tokens: (prompt, completion). Edit here, or put a JSON object
# {"model": [prompt, completion], ...} in <data_dir>/prices.json. A dated
# snapshot ("gpt-4o-2024-08-06") takes the price of its longest matching prefix.
# Unknown models (e.g. local ones) cost 0 and are reported by tokens only.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o4-mini": (1.10, 4.40),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
}


# --- requests and replies -------------------------------------------------------------------
@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request. ``messages`` are OpenAI chat messages; a
    message's content may be a list of parts, images as ``data:`` URLs (so the
    image bytes are part of the request and of its cache key)."""

    model: str
    messages: tuple[dict[str, Any], ...]
    temperature: float = 0.0
    max_tokens: int = 1024
    json_mode: bool = True

    def fingerprint(self) -> dict[str, Any]:
        """Everything that determines the reply, JSON-ready (no key, no endpoint secrets)."""
        return {"model": self.model, "messages": list(self.messages), "temperature": self.temperature,
                "max_tokens": self.max_tokens, "json_mode": self.json_mode}


@dataclass(frozen=True)
class Completion:
    """A model reply. Tokens are those the provider billed for the original call;
    ``cached`` is True when the reply came from the disk cache (then it cost nothing)."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False


@runtime_checkable
class LLM(Protocol):
    #: where requests go (a base URL); part of the cache key, never a secret
    endpoint: str

    def complete(self, request: ChatRequest) -> Completion:
        """The model's reply. Raises LLMUnavailableError (timeout, connection,
        HTTP status after retries) or LLMRefusalError (refused or empty reply)."""
        ...


def respond(llm: LLM, request: ChatRequest, on_text: Callable[[str], None] | None = None) -> Completion:
    """``llm.complete(request)``; with ``on_text``, streamed through ``llm.stream(request, on_text)``
    when the client can stream (an LLM may offer ``stream``; one that cannot gets its whole
    reply passed to ``on_text`` at once)."""
    if on_text is None:
        return llm.complete(request)
    stream = getattr(llm, "stream", None)
    if stream is not None:
        return stream(request, on_text)
    completion = llm.complete(request)
    on_text(completion.text)
    return completion


def text_message(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": text}


def image_part(png: bytes) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}}


# --- the OpenAI-compatible client ----------------------------------------------------------------
class _ReaderCancelled(Exception):
    """``on_text`` raised while a reply streamed: the reader went away, the model did not fail."""


class OpenAIChat:
    """Chat completions on the ``openai`` SDK (its own retries with backoff,
    honouring ``Retry-After``). Temperature comes from the request (0 by default)."""

    def __init__(self, *, api_key: str = "", base_url: str = "", timeout: float = 60.0, max_retries: int = 2):
        if not api_key and not base_url:
            raise MissingAPIKeyError(
                "No API key for the LLM engine: set OPENAI_API_KEY (or enter a key in the app), "
                "or set OPENAI_BASE_URL to a local OpenAI-compatible server, or use --engine offline.")
        if base_url:
            parts = urlsplit(base_url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ConfigError(f"The model server address {shown_url(base_url)[:80]!r} is not a URL; set OPENAI_BASE_URL "
                                  "to something like http://localhost:11434/v1.")
        import openai  # imported here so the offline engine never pays for it

        _quiet_transport_logs()
        self.endpoint = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self._adapted: dict[str, frozenset[str]] = {}  # model -> request adaptations it needed (see _adapt)
        self._client = openai.OpenAI(api_key=api_key or LOCAL_DUMMY_KEY, base_url=self.endpoint,
                                     timeout=self.timeout, max_retries=self.max_retries)

    @classmethod
    def from_settings(cls, settings: Any) -> "OpenAIChat":
        return cls(api_key=settings.api_key, base_url=settings.base_url, timeout=settings.request_timeout,
                   max_retries=settings.max_retries)

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIChat(endpoint={shown_url(self.endpoint)!r}, timeout={self.timeout}, max_retries={self.max_retries})"

    def complete(self, request: ChatRequest) -> Completion:
        return self._parse(self._create(request), request.model)

    def stream(self, request: ChatRequest, on_text: Callable[[str], None]) -> Completion:
        """The model's reply, streamed: ``on_text`` gets each piece of text as it arrives
        (server-sent events); the whole reply is returned once the stream has finished.
        The SDK retries the request until the stream starts; a stream that breaks off
        afterwards, or ``on_text`` raising (the reader cancelled), raises LLMUnavailableError
        and the partial reply is dropped."""
        import openai

        stream = self._create(request, stream=True)
        pieces: list[str] = []
        finished, refused, model, usage = "", False, request.model, None
        try:
            for chunk in stream:
                model = str(getattr(chunk, "model", None) or model)
                usage = getattr(chunk, "usage", None) or usage
                for choice in getattr(chunk, "choices", None) or ():
                    delta = getattr(choice, "delta", None)
                    refused = refused or bool(getattr(delta, "refusal", None))
                    piece = getattr(delta, "content", None)
                    if piece:
                        pieces.append(piece)
                        try:
                            on_text(piece)
                        except Exception as exc:  # the reader went away
                            raise _ReaderCancelled(type(exc).__name__) from None
                    finished = getattr(choice, "finish_reason", None) or finished
        except _ReaderCancelled as exc:
            raise LLMUnavailableError(f"The answer stream was cancelled ({exc}).") from None
        except openai.APITimeoutError:
            raise LLMUnavailableError(f"The model's reply stopped for more than {self.timeout:g} s "
                                      "mid-stream.") from None
        except Exception as exc:  # the SDK's errors and the transport's (httpx) mid-stream
            raise LLMUnavailableError(f"The model's reply broke off mid-stream ({type(exc).__name__}).") from None
        finally:
            stream.close()
        if refused or finished == "content_filter":
            raise LLMRefusalError("The model declined to answer.")
        if not finished:
            raise LLMUnavailableError("The model's reply broke off mid-stream.")
        text = "".join(pieces)
        if not text.strip():
            raise LLMRefusalError("The model returned an empty reply.")
        return Completion(text=text, model=model, prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                          completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0))

    def _create(self, request: ChatRequest, *, stream: bool = False) -> Any:
        """The SDK's reply to ``request`` (a Stream with ``stream``), adapted to what the
        model accepts; every SDK failure as LLMUnavailableError."""
        import openai

        flags = set(self._adapted.get(request.model, ()))
        try:
            while True:
                try:
                    return self._client.chat.completions.create(**self._wire(request, flags, stream=stream))
                except openai.BadRequestError as exc:
                    fix = _adapt(exc, request, flags)
                    if fix is None:
                        raise
                    flags.add(fix)
                    self._adapted[request.model] = frozenset(flags)
        except openai.APIStatusError as exc:
            raise LLMUnavailableError(self._status_message(exc.status_code, request.model)) from None
        except openai.APITimeoutError:
            raise LLMUnavailableError(f"The model server did not answer within {self.timeout:g} s "
                                      f"(after {self.max_retries} retries).") from None
        except openai.APIConnectionError:
            raise LLMUnavailableError(f"Could not connect to the model server at {self._host()}.") from None
        except Exception:  # an unparseable body (JSONDecodeError) or any other SDK failure
            raise LLMUnavailableError("The model server sent a reply that could not be read.") from None

    @staticmethod
    def _wire(request: ChatRequest, flags: set[str], *, stream: bool = False) -> dict[str, Any]:
        """The SDK arguments for ``request``, adapted to what the model accepts."""
        kwargs: dict[str, Any] = {"model": request.model, "messages": list(request.messages)}
        if stream:
            kwargs["stream"] = True
            if "no_stream_options" not in flags:  # the token counts arrive in the last chunk
                kwargs["stream_options"] = {"include_usage": True}
        if "no_temperature" not in flags:
            kwargs["temperature"] = request.temperature
        if "max_completion_tokens" in flags:  # reasoning models: their thinking counts against this budget
            kwargs["max_completion_tokens"] = max(4 * request.max_tokens, 4000)
        else:
            kwargs["max_tokens"] = request.max_tokens
        if request.json_mode and "no_json_mode" not in flags:
            kwargs["response_format"] = {"type": "json_object"}
        return kwargs

    def _parse(self, resp: Any, model: str) -> Completion:
        choices = getattr(resp, "choices", None)
        if not choices:
            if isinstance(resp, (str, bytes)) or choices is None:
                raise LLMUnavailableError("The model server sent a reply that could not be read.")
            raise LLMRefusalError("The model returned no reply.")
        choice = choices[0]
        message = getattr(choice, "message", None)
        refusal = getattr(message, "refusal", None)
        if refusal or getattr(choice, "finish_reason", None) == "content_filter":
            raise LLMRefusalError("The model declined to answer.")
        text = getattr(message, "content", None) or ""
        if not text.strip():
            raise LLMRefusalError("The model returned an empty reply.")
        usage = getattr(resp, "usage", None)
        return Completion(text=text, model=str(getattr(resp, "model", None) or model),
                          prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                          completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0))

    def _host(self) -> str:
        parts = urlsplit(self.endpoint)
        return f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"

    def _status_message(self, status: int, model: str) -> str:
        if status == 401:
            return "The model server rejected the API key (HTTP 401); check OPENAI_API_KEY."
        if status == 403:
            return "The API key may not use this model (HTTP 403)."
        if status == 404:
            return (f"The model {model!r} was not found at {self._host()} (HTTP 404); "
                    "check the model names (ALPHASEARCH_*_MODEL) and OPENAI_BASE_URL.")
        if status == 429:
            return f"The model server is rate-limiting requests (HTTP 429), still after {self.max_retries} retries."
        if status >= 500:
            return f"The model server failed (HTTP {status}) after {self.max_retries} retries."
        return f"The model server rejected the request (HTTP {status})."


def _adapt(exc: Any, request: ChatRequest, flags: set[str]) -> str | None:
    """The one change that may make a rejected (HTTP 400) request acceptable, or None.

    Reasoning models reject ``max_tokens`` (they take ``max_completion_tokens``)
    and any temperature but the default; some local servers reject JSON mode
    (the prompts ask for JSON anyway); some reject ``stream_options`` (a streamed
    reply's token counts). Each change is tried at most once.
    """
    said = (str(getattr(exc, "message", "")) + " " + json.dumps(getattr(exc, "body", None), default=str)).lower()
    if "stream_options" in said and "no_stream_options" not in flags:
        return "no_stream_options"
    if "max_tokens" in said and "max_completion_tokens" not in flags:
        return "max_completion_tokens"
    if "temperature" in said and "no_temperature" not in flags:
        return "no_temperature"
    if request.json_mode and "no_json_mode" not in flags:
        return "no_json_mode"
    return None


def _quiet_transport_logs() -> None:
    """Some dependencies call ``logging.basicConfig(level=INFO)`` at import, which
    would print every request URL and retry; keep the HTTP stack at WARNING
    unless the application configured those loggers itself."""
    for name in ("httpx", "httpx2", "httpcore", "openai"):
        log = logging.getLogger(name)
        if log.level == logging.NOTSET:
            log.setLevel(logging.WARNING)


# --- usage and cost ----------------------------------------------------------------------
def load_prices(data_dir: Path | str | None = None) -> dict[str, tuple[float, float]]:
    """:data:`PRICES`, overridden by ``<data_dir>/prices.json`` when that file holds valid entries."""
    prices = dict(PRICES)
    if data_dir is None:
        return prices
    try:
        raw = json.loads((Path(data_dir) / "prices.json").read_text("utf-8"))
    except (OSError, ValueError):
        return prices
    if isinstance(raw, dict):
        for name, pair in raw.items():
            if (isinstance(pair, (list, tuple)) and len(pair) == 2
                    and all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 for x in pair)):
                prices[str(name)] = (float(pair[0]), float(pair[1]))
    return prices


def price_of(model: str, prices: Mapping[str, tuple[float, float]] = PRICES) -> tuple[float, float] | None:
    """(prompt, completion) USD per 1M tokens, or None for an unknown model."""
    if model in prices:
        return prices[model]
    best = max((name for name in prices if model.startswith(name + "-") and model[len(name) + 1:][:1].isdigit()),
               key=len, default=None)
    return prices[best] if best else None


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int,
             prices: Mapping[str, tuple[float, float]] = PRICES) -> float:
    price = price_of(model, prices)
    if price is None:
        return 0.0
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000


class Meter:
    """Thread-safe usage of one query (or one indexing run): model calls, cache
    hits, tokens, estimated cost and malformed replies."""

    def __init__(self, prices: Mapping[str, tuple[float, float]] | None = None):
        self.prices = dict(PRICES if prices is None else prices)
        self._usage = Usage()
        self._lock = threading.Lock()

    def record(self, completion: Completion, requested_model: str = "") -> None:
        with self._lock:
            if completion.cached:
                self._usage.cache_hits += 1
                return
            self._usage.llm_calls += 1
            self._usage.prompt_tokens += completion.prompt_tokens
            self._usage.completion_tokens += completion.completion_tokens
            model = completion.model if price_of(completion.model, self.prices) else requested_model
            self._usage.cost_usd += cost_usd(model or completion.model, completion.prompt_tokens,
                                             completion.completion_tokens, self.prices)

    def count_failed_call(self) -> None:
        """A call that reached the server but gave no usable reply still counts as a call."""
        with self._lock:
            self._usage.llm_calls += 1

    def count_malformed(self) -> None:
        with self._lock:
            self._usage.malformed += 1

    @property
    def usage(self) -> Usage:
        with self._lock:
            return replace(self._usage)


# --- JSON replies, validated, retried once -------------------------------------------------------
T = TypeVar("T")
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)


def parse_json(text: str) -> Any:
    """The JSON value of a reply. Allowed around it: a ```json fence, a leading
    ``<think>…</think>`` block (local reasoning models) and a sentence of prose
    before the object. The shape is checked by the caller. Raises ValueError."""
    text = _THINK.sub("", text)
    m = _FENCE.match(text)
    text = m.group(1) if m else text
    try:
        return json.loads(text)
    except ValueError:
        start = text.find("{")
        if start < 0:
            raise
        value, _ = json.JSONDecoder().raw_decode(text[start:])
        return value


def complete_json(llm: LLM, meter: Meter, request: ChatRequest, validate: Callable[[Any], T], *,
                  on_text: Callable[[str], None] | None = None) -> T:
    """Ask for JSON and return ``validate(value)``.

    ``validate`` raises ValueError naming the problem. A malformed, empty or
    refused reply is retried once, with the problem stated; a second failure
    raises LLMMalformedError (counted in ``meter``) or LLMRefusalError.
    Transport failures (LLMUnavailableError) propagate at once: the SDK has
    already retried them. ``on_text``: the first attempt is streamed to it (see
    :func:`respond`); a retry is not.
    """
    current = request
    last: Exception | None = None
    for attempt in (1, 2):
        try:
            completion = respond(llm, current, on_text if attempt == 1 else None)
        except LLMRefusalError as exc:
            meter.count_failed_call()
            last, reply = exc, ""
        else:
            meter.record(completion, current.model)
            try:
                return validate(parse_json(completion.text))
            except (ValueError, TypeError, KeyError) as exc:
                last, reply = exc, completion.text
        if attempt == 1:
            follow: list[dict[str, Any]] = []
            if reply:
                follow.append(text_message("assistant", reply[:2000]))
            problem = str(last)[:300] if isinstance(last, (ValueError, TypeError, KeyError)) else "it was empty"
            follow.append(text_message("user", f"Your previous reply could not be used: {problem}. "
                                               "Reply again with the JSON object only, in exactly the shape asked."))
            current = replace(request, messages=request.messages + tuple(follow))
    if isinstance(last, LLMRefusalError):
        raise LLMRefusalError(str(last))
    meter.count_malformed()
    raise LLMMalformedError("The model's reply was not in the expected format, even after one retry.")


# --- document text is data: fenced, markers defused ---------------------------------------------
def fence_code(*parts: str) -> str:
    """A code derived from the fenced content itself: stable (so requests are
    cacheable) but not something the document's author can write into it."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "replace"))
        h.update(b"\0")
    return h.hexdigest()[:12]


# the prompts' own markers: a page header "[Page N: …]" / "[Page N]", a citation "[p. N]", a section "[S3]"
_MARKER = re.compile(r"\[(?=\s*(?:pages?\s*\d|pp?\.?\s*\d|s\d+\s*\]))", re.IGNORECASE)


def defuse(text: str) -> str:
    """Document text with fence-like markers and the prompts' page, citation and section
    markers neutralised, so one page cannot pretend to be another (``[Page 9: …]`` in a
    page's text becomes ``⟦Page 9: …]``)."""
    return _MARKER.sub("⟦", text.replace("<<<", "‹‹‹").replace(">>>", "›››"))


# --- small validators shared by the prompts ---------------------------------------------------
def require_dict(value: Any, what: str = "reply") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"the {what} must be a JSON object")
    return value


def short_strings(value: Any, key: str, *, limit: int, max_chars: int) -> list[str]:
    """``value[key]`` as at most ``limit`` distinct, whitespace-normalised strings of at most
    ``max_chars`` (a lone string counts as a list of one; missing or null: empty)."""
    items = require_dict(value).get(key, [])
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise ValueError(f'"{key}" must be a list of short strings')
    clean = [" ".join(i.split())[:max_chars] for i in items]
    return [i for i in dict.fromkeys(clean) if i][:limit]


def require_int(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ValueError(f"{what} must be an integer")


def require_unit(value: Any, what: str) -> float:
    """A number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{what} must be between 0 and 1, not {value}")
    return float(value)


def require_str(value: Any, what: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise ValueError(f"{what} must be a non-empty string")
    return value.strip()


def scrub(text: str, secrets: Sequence[str]) -> str:
    """``text`` with every non-trivial secret replaced by ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 6:
            text = text.replace(secret, "***")
    return text


__all__ = ["short_strings", "LLM", "ChatRequest", "Completion", "OpenAIChat", "Meter", "PRICES", "load_prices", "price_of",
           "cost_usd", "complete_json", "respond", "parse_json", "text_message", "image_part", "fence_code", "defuse",
           "DEFAULT_BASE_URL"]
