"""A small OpenAI-compatible chat server for tests (stdlib ``http.server`` on 127.0.0.1).

By default it plays a deterministic fake model that understands AlphaSearch's
prompts (indexing, document summary, section scoring, answer, gap check) well enough
to give valid, sensible replies. It can be scripted to fail in every way a real
endpoint fails, and it records every request (path, headers, JSON body) so tests
can check what the engine sent and count HTTP requests.

Modes (``server.mode = ...`` for every request, or ``server.script([...])`` for
the next requests in order, then back to ``mode``; ``server.script_streams([...])`` for the
next requests that stream):
``ok``, ``malformed`` (reply content is not JSON), ``empty`` (empty content),
``refusal`` (``message.refusal`` set), ``bad_body`` (HTTP 200, body not JSON),
``http400`` (any request), ``http500``, ``http429`` (with ``Retry-After``), ``http401`` (the body echoes the
key, like some servers do), ``http404`` (model not found), ``slow`` (sleeps
``slow_seconds`` before answering), ``stream_break`` (a streamed reply breaks off
after half its chunks: no final chunk, no ``data: [DONE]``, the connection closed;
a request that does not stream is answered as in ``ok``).

A request with ``"stream": true`` is answered with server-sent events
(``text/event-stream``, chunked): the reply content in pieces of ``stream_piece``
characters, one ``chat.completion.chunk`` each, then the finish reason, the usage (when
``stream_options.include_usage`` asks for it) and ``data: [DONE]``.

``server.responder = fn``: ``fn(kind, body) -> str | None`` replaces the fake
model's reply content (None = default) for requests in ``ok`` mode.
"""
from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import pytest

MODES = ("ok", "malformed", "empty", "refusal", "bad_body", "http400", "http500", "http429", "http401", "http404",
         "slow", "stream_break")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 4}


def request_kind(body: dict) -> str:
    """"index", "summary", "score", "answer", "gap" or "other", from the system prompt."""
    msgs = body.get("messages") or []
    system = _text_of(msgs[0].get("content")) if msgs and msgs[0].get("role") == "system" else ""
    if "section scorer" in system:
        return "score"
    if "answer writer" in system:
        return "answer"
    if "gap finder" in system:
        return "gap"
    if "indexer" in system and "From the titles" in system:
        return "summary"
    if "indexer" in system:
        return "index"
    return "other"


def user_text(body: dict) -> str:
    """The text of the first user message (the one the engine built)."""
    for m in body.get("messages") or []:
        if m.get("role") == "user":
            return _text_of(m.get("content"))
    return ""


def fenced(text: str) -> str:
    """What lies between <<<DOCUMENT code>>> and <<<END DOCUMENT code>>>."""
    m = re.search(r"<<<DOCUMENT (\w+)>>>\n?(.*)<<<END DOCUMENT \1>>>", text, re.DOTALL)
    return m.group(2) if m else ""


# --- the fake model ----------------------------------------------------------------------
def fake_reply(kind: str, body: dict) -> str:
    text = user_text(body)
    if kind == "index":
        m = re.search(r"Pages (\d+) to (\d+)", text)
        a, b = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        pages = dict(re.findall(r"\[Page (\d+)\][^\n]*\n?([^\n]*)", fenced(text)))
        sections = []
        for start in range(a, b + 1, 2):
            end = min(b, start + 1)
            first = (pages.get(str(start)) or f"Page {start}").strip()[:60] or f"Page {start}"
            sections.append({"title": first, "start_page": start, "end_page": end,
                             "summary": f"Pages {start} to {end}, beginning: {first}."})
        return json.dumps({"sections": sections})
    if kind == "summary":
        return json.dumps({"summary": "A test document summarised by the fake model."})
    if kind == "score":
        q = _words(re.search(r"Question: (.*)", text).group(1)) if "Question:" in text else set()
        blocks = re.split(r"\n(?=\[S\d+\])", fenced(text))
        scores = {}
        for block in blocks:
            m = re.match(r"\s*\[(S\d+)\]", block)
            if m:
                overlap = len(q & _words(block)) / max(1, len(q))
                scores[m.group(1)] = round(min(1.0, overlap), 3)
        return json.dumps({"scores": scores})
    if kind == "answer":
        q = _words(re.search(r"Question: (.*)", text).group(1)) if "Question:" in text else set()
        best = (-1, 0, "")
        for m in re.finditer(r"\[Page (\d+)[^\]]*\][^\n]*\n(.*?)(?=\n\[Page \d+|\Z)", fenced(text), re.DOTALL):
            for sent in re.split(r"(?<=[.!?])\s+", " ".join(m.group(2).split())):
                score = len(q & _words(sent))
                if score > best[0]:
                    best = (score, int(m.group(1)), sent)
        if best[0] <= 0:
            return json.dumps({"answer": "", "citations": [], "confidence": 0.1, "found": False})
        return json.dumps({"answer": f"{best[2]} [p. {best[1]}]", "confidence": 0.9, "found": True,
                           "citations": [{"page": best[1], "quote": best[2][:80]}]})
    if kind == "gap":  # the answer is complete (a test's responder names something missing)
        return json.dumps({"missing": []})
    return json.dumps({"ok": True})


# --- the server -----------------------------------------------------------------------------
class FakeLLMServer:
    def __init__(self, *, retry_after: str = "0.05", slow_seconds: float = 2.0):
        self.mode = "ok"
        self.retry_after = retry_after
        self.slow_seconds = slow_seconds
        self.responder: Callable[[str, dict], str | None] | None = None
        self.reject_json_mode = False  # answer HTTP 400 to requests with response_format (like some local servers)
        self.reject_stream_options = False  # answer HTTP 400 to stream_options (like some local servers)
        self.reasoning_model = False  # answer HTTP 400 to max_tokens and to a temperature other than 1 (like o1/gpt-5)
        self.stream_piece = 6  # characters per streamed chunk
        self.requests: list[dict[str, Any]] = []
        self._script: deque[str] = deque()
        self._stream_script: deque[str] = deque()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeLLMServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def script(self, modes: list[str]) -> None:
        """The next len(modes) requests use these modes, in order."""
        for m in modes:
            assert m in MODES, m
        with self._lock:
            self._script.extend(modes)

    def script_streams(self, modes: list[str]) -> None:
        """The next len(modes) requests that stream use these modes, in order (others are unaffected)."""
        for m in modes:
            assert m in MODES, m
        with self._lock:
            self._stream_script.extend(modes)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._script.clear()
            self._stream_script.clear()
        self.mode = "ok"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def kinds(self) -> list[str]:
        with self._lock:
            return [request_kind(r["body"] or {}) for r in self.requests]

    def _next_mode(self, streams: bool = False) -> str:
        with self._lock:
            if streams and self._stream_script:
                return self._stream_script.popleft()
            return self._script.popleft() if self._script else self.mode

    def _record(self, entry: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(entry)


def _handler(server: FakeLLMServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None,
                  content_type: str = "application/json") -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout)

        def _error(self, status: int, message: str, code: str, headers: dict[str, str] | None = None) -> None:
            body = {"error": {"message": message, "type": "invalid_request_error", "code": code}}
            self._send(status, json.dumps(body).encode(), headers)

        def _stream(self, model: str, content: str | None, refusal: str | None, usage: dict, *,
                    include_usage: bool, broken: bool) -> None:
            """The reply as server-sent events; ``broken``: stop after half the chunks and close."""
            base = {"id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion.chunk",
                    "created": int(time.time()), "model": model}
            text = content or ""
            n = max(1, server.stream_piece)
            deltas: list[dict] = [{"role": "assistant", "content": ""}]
            deltas += [{"content": text[i:i + n]} for i in range(0, len(text), n)]
            if refusal:
                deltas.append({"refusal": refusal})
            events = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
            events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            if include_usage:
                events.append({**base, "choices": [], "usage": usage})
            frames = [f"data: {json.dumps(e)}\n\n".encode() for e in events] + [b"data: [DONE]\n\n"]
            if broken:
                frames = frames[:max(2, len(deltas) // 2)]
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for frame in frames:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
                    self.wfile.flush()
                if broken:  # no terminating chunk: the body ends before it is complete
                    self.close_connection = True
                    return
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (cancelled)

        def do_GET(self) -> None:  # /v1/models, for completeness
            self._send(200, json.dumps({"object": "list", "data": [{"id": "fake-model", "object": "model"}]}).encode())

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = None
            server._record({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body, "raw": raw})
            if not self.path.rstrip("/").endswith("/chat/completions") or not isinstance(body, dict):
                self._error(404, f"No route {self.path}", "not_found")
                return
            if server.reject_json_mode and "response_format" in body:
                self._error(400, "response_format is not supported", "invalid_request_error")
                return
            if server.reject_stream_options and "stream_options" in body:
                self._error(400, "Unrecognized request argument supplied: stream_options", "invalid_request_error")
                return
            if server.reasoning_model and "max_tokens" in body:
                self._error(400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                 "Use 'max_completion_tokens' instead.", "unsupported_parameter")
                return
            if server.reasoning_model and body.get("temperature", 1) != 1:
                self._error(400, "Unsupported value: 'temperature' does not support 0 with this model. "
                                 "Only the default (1) value is supported.", "unsupported_value")
                return
            mode = server._next_mode(bool(body.get("stream")))
            model = str(body.get("model", "fake-model"))
            key = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
            if mode == "http400":
                self._error(400, "Invalid request.", "invalid_request_error")
                return
            if mode == "http500":
                self._error(500, "The server had an error while processing your request.", "server_error")
                return
            if mode == "http429":
                self._error(429, "Rate limit reached.", "rate_limit_exceeded", {"Retry-After": server.retry_after})
                return
            if mode == "http401":
                self._error(401, f"Incorrect API key provided: {key}.", "invalid_api_key")
                return
            if mode == "http404":
                self._error(404, f"The model `{model}` does not exist or you do not have access to it.",
                            "model_not_found")
                return
            if mode == "bad_body":
                self._send(200, b"<html>upstream proxy error</html>", content_type="application/json")
                return
            if mode == "slow":
                time.sleep(server.slow_seconds)
            kind = request_kind(body)
            refusal = None
            if mode == "malformed":
                content: str | None = "Sure! Here is what you asked for: {scores: maybe"
            elif mode == "empty":
                content = ""
            elif mode == "refusal":
                content, refusal = None, "I'm sorry, I can't help with that."
            else:
                content = server.responder(kind, body) if server.responder else None
                if content is None:
                    content = fake_reply(kind, body)
            prompt_chars = len(raw)
            usage = {"prompt_tokens": prompt_chars // 4, "completion_tokens": len(content or "") // 4,
                     "total_tokens": prompt_chars // 4 + len(content or "") // 4}
            if body.get("stream"):
                self._stream(model, content, refusal, usage, broken=mode == "stream_break",
                             include_usage=bool((body.get("stream_options") or {}).get("include_usage")))
                return
            reply = {
                "id": f"chatcmpl-{len(server.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content, "refusal": refusal}}],
                "usage": usage,
            }
            self._send(200, json.dumps(reply).encode())

    return Handler


@pytest.fixture
def llm_server():
    """A started :class:`FakeLLMServer`; stopped after the test."""
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


# --- what the LLM engine's tests share --------------------------------------------------------------------
KEY = "sk-test-pipeline-5a4b3c2d1e0f"  # the operator's key in the tests: it must reach the test server only
QUESTION = "What was the total revenue in 2025?"  # the sample report's figure question


def llm_settings(data_dir, server, **kw):
    """Settings for the "openai" engine against the test ``server`` (no retries, a short timeout)."""
    from alphasearch.config import Settings

    values = {"data_dir": data_dir, "engine": "openai", "base_url": server.url, "api_key": KEY, "max_retries": 0,
              "request_timeout": 2.0}
    values.update(kw)
    return Settings(**values)
