"""Real API servers for tests, on free loopback ports: ``python -m alphasearch serve`` in a subprocess,
or uvicorn in a thread over an engine built here (settings a test picks); and readers of their answers."""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from app_helpers import ROOT, free_port, stop_process

TOKEN = "test-token-5f4e3d2c1b"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _wait_healthy(url: str, alive, timeout: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url + "/v1/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if not alive() or time.monotonic() > deadline:
            raise RuntimeError("the API did not start: " + (log.read_text()[-2000:] if log else ""))
        time.sleep(0.2)


@contextlib.contextmanager
def api_process(data_dir: Path, *, env: dict[str, str] | None = None, timeout: float = 60.0) -> Iterator[str]:
    """``python -m alphasearch serve`` on a free loopback port (offline engine, the test token); yields its URL."""
    port = free_port()
    env = {**os.environ, "ALPHASEARCH_DATA_DIR": str(data_dir), "ALPHASEARCH_ENGINE": "offline",
           "ALPHASEARCH_API_TOKEN": TOKEN, "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", **(env or {})}
    log_path = data_dir / "api.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "alphasearch", "serve", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, lambda: proc.poll() is None, timeout, log_path)
            yield url
        finally:
            stop_process(proc)


@contextlib.contextmanager
def api_thread(settings) -> Iterator[str]:
    """uvicorn serving ``create_app(Engine(settings))`` in a thread of this process; yields its URL."""
    import uvicorn

    from alphasearch.api.app import create_app
    from alphasearch.pipeline import Engine

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(Engine(settings)), host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name=f"api-{port}", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, thread.is_alive, 30.0)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def events(response: httpx.Response) -> Iterator[tuple[str, dict]]:
    """Server-sent events as they arrive: (event name, JSON data)."""
    name, data = "message", []
    for line in response.iter_lines():
        if not line:
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def assert_error(r: httpx.Response, status: int, fragment: str = "") -> str:
    """The response is ``status`` with one JSON line ``{"error": ...}`` (no traceback); returns the message."""
    assert r.status_code == status, (r.status_code, r.text[:500])
    assert r.headers["content-type"].startswith("application/json"), r.headers["content-type"]
    body = r.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"].strip()
    assert "\n" not in body["error"] and "Traceback" not in r.text and 'File "' not in r.text
    assert fragment.lower() in body["error"].lower(), body["error"]
    return body["error"]


def wait_job(client: httpx.Client, job: str, timeout: float = 60.0) -> dict:
    """Poll a job until it is done or failed; returns its status object."""
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(f"/v1/jobs/{job}").raise_for_status().json()
        if status["status"] in ("done", "failed") or time.monotonic() > deadline:
            return status
        time.sleep(0.1)


def without_seconds(answer: dict) -> dict:
    """An answer object without its timings (the one thing two runs of the same search differ in)."""
    out = json.loads(json.dumps(answer))
    out.get("stats", {}).pop("seconds", None)
    return out
