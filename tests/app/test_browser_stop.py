"""Leaving while the search runs (before any answer text streams): a click in the sidebar takes
the visitor to the other page within seconds, not once the search has finished; the spinner
counts the seconds meanwhile. The LLM engine against a local server that answers each judge
call only after a pause, so the search takes far longer than the wait below."""
from __future__ import annotations

import re
import time


from app_helpers import streamlit_server
from llm_server import FakeLLMServer
from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes
from test_browser import WAIT, ask, browser, go, session, upload, wait_idle  # noqa: F401  (browser is a fixture)

PAUSE = 3.0  # seconds a judge call takes once the question is asked


def test_leaving_during_the_search_shows_the_other_page_at_once(browser, tmp_path_factory):
    model = FakeLLMServer(slow_seconds=PAUSE).start()
    env = {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": model.url, "ALPHASEARCH_ENGINE": "openai",
           "ALPHASEARCH_MAX_RETRIES": "0"}
    try:
        with streamlit_server(tmp_path_factory.mktemp("browser-stop"), env=env) as url, session(browser, url) as pg:
            upload(pg, [(SAMPLE_NAME, sample_pdf_bytes())])
            pg.get_by_text(re.compile(r"is ready: 9 pages")).first.wait_for(timeout=WAIT)
            wait_idle(pg)
            model.mode = "slow"
            ask(pg, "What was the total revenue in 2025?")
            spinner = pg.get_by_test_id("stSpinner").first
            spinner.wait_for(timeout=WAIT)
            time.sleep(1.0)
            assert re.search(r"Searching the section tree.*\d+(\.\d+)? seconds", spinner.inner_text(), re.S)
            asked = model.count
            started = time.monotonic()
            go(pg, "Settings", "Settings")
            assert time.monotonic() - started < PAUSE + 2.0, "the page kept running the search"
            assert asked >= 1  # the search was waiting on the model when the visitor left
            assert pg.get_by_role("heading", name="Settings").first.is_visible()
    finally:
        model.stop()
