"""Helpers for the app tests: PDFs to upload and a live ``streamlit run`` server."""
from __future__ import annotations

import contextlib
import functools
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from alphasearch.pdf import TextBlock, encrypt_pdf, write_pdf

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"

TOPICS = {
    "finance": ("Harbor Bank Annual Review", [
        ("Lending", "Harbor Bank granted mortgage loans worth 2.4 billion dollars to households in 2024."),
        ("Deposits", "Customer deposits rose to 9.1 billion dollars, led by savings accounts."),
        ("Capital", "The common equity tier one ratio was 14.2 percent at year end."),
    ]),
    "science": ("Glacier Field Study", [
        ("Method", "We drilled twelve ice cores on the Vatna glacier with a thermal drill."),
        ("Findings", "The glacier lost 38 metres of thickness between 1990 and 2024 at the snout."),
        ("Climate", "Summer air temperature at the station rose by 1.6 degrees over three decades."),
    ]),
    "hr": ("Staff Handbook", [
        ("Leave", "Employees receive 27 days of paid annual leave plus public holidays."),
        ("Remote work", "Staff may work remotely up to three days per week with manager approval."),
        ("Expenses", "Travel expenses must be claimed within 30 days through the expense portal."),
    ]),
}


@functools.lru_cache(maxsize=None)
def topic_pdf(topic: str, variant: int = 0) -> bytes:
    """A small PDF with an outline: a title page and one page per section."""
    title, sections = TOPICS[topic]
    pages = [[TextBlock(title, 24, True), f"Edition {variant + 1}. Contents: " + ", ".join(s for s, _ in sections)]]
    toc = []
    for i, (heading, text) in enumerate(sections):
        pages.append([TextBlock(heading, 18, True), text, f"This section of the {title} covers {heading.lower()}."])
        toc.append((1, heading, i + 2))
    return write_pdf(pages, toc=toc, title=title)


def long_pdf(n_pages: int) -> bytes:
    """An ``n_pages`` PDF with chapter headings every 10 pages (for benchmarks)."""
    pages = []
    toc = []
    for i in range(n_pages):
        blocks: list = []
        if i % 10 == 0:
            blocks.append(TextBlock(f"Chapter {i // 10 + 1}: Topic {i // 10 + 1}", 18, True))
            toc.append((1, f"Chapter {i // 10 + 1}: Topic {i // 10 + 1}", i + 1))
        blocks.append(f"Page {i + 1} discusses item {i * 7 % 101} of the inventory, the warehouse in zone "
                      f"{i % 13} and the delivery schedule number {i * 3}. " * 4)
        pages.append(blocks)
    return write_pdf(pages, toc=toc, title=f"Long report {n_pages}")


def hostile_files() -> dict[str, tuple[bytes, str]]:
    """name → (bytes, the start of the error sentence expected)."""
    good = topic_pdf("hr")
    return {
        "empty.pdf": (b"", "empty.pdf is empty"),
        "notes.pdf": (b"just some text, not a pdf\n" * 20, "notes.pdf is not a PDF"),
        "truncated.pdf": (good[: len(good) // 3], "truncated.pdf"),
        "locked.pdf": (encrypt_pdf(good), "locked.pdf is password-protected"),
        "random.pdf": (os.urandom(4096), "random.pdf is not a PDF"),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Ask a server process to stop; kill it when it has not within ``grace`` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextlib.contextmanager
def streamlit_server(data_dir: Path, *, timeout: float = 60.0, env: dict[str, str] | None = None,
                     started: list | None = None) -> Iterator[str]:
    """``streamlit run app.py`` on a free loopback port; yields its URL. ``env`` adds to (or
    replaces) the server's environment: offline engine, no key, no endpoint by default. ``started``: the
    server's process is appended to it."""
    port = free_port()
    env = {**os.environ, "ALPHASEARCH_DATA_DIR": str(data_dir), "ALPHASEARCH_ENGINE": "offline",
           "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", **(env or {})}
    log = open(data_dir / "streamlit.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(APP), "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    if started is not None:
        started.append(proc)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("streamlit did not start: " + (data_dir / "streamlit.log").read_text()[-2000:])
            time.sleep(0.3)
        yield url
    finally:
        stop_process(proc)
        log.close()
