"""Keys stay with their endpoint, in a real browser (issue 14, item 1): ``streamlit run`` started
with the operator's key and endpoint A; a visitor sets endpoint B (or C) in Settings and asks.
Two (three) local OpenAI-compatible servers record every request's headers."""
from __future__ import annotations

import re

import pytest

from app_helpers import streamlit_server
from llm_server import FakeLLMServer
from test_browser import WAIT, ask, browser, go, session, wait_idle  # noqa: F401  (browser is a fixture)

OPERATOR_KEY = "operator-key-3e2d1c0b9a8f"
VISITOR_KEY = "visitor-key-7f6e5d4c3b2a"
QUESTION = "What was the total revenue in 2025?"



@pytest.fixture(scope="module")
def endpoints():
    """Servers A (the operator's), B (allowed) and C (not allowed)."""
    servers = [FakeLLMServer().start() for _ in range(3)]
    try:
        yield servers
    finally:
        for s in servers:
            s.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory, endpoints):
    a, b, _ = endpoints
    env = {"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": a.url, "ALPHASEARCH_ENGINE": "auto",
           "ALPHASEARCH_ALLOWED_ENDPOINTS": f"{a.url},{b.url}", "ALPHASEARCH_MAX_RETRIES": "0"}
    with streamlit_server(tmp_path_factory.mktemp("browser-keys"), env=env) as url:
        yield url


@pytest.fixture
def page(browser, server, endpoints):
    for s in endpoints:
        s.reset()
    with session(browser, server, height=1800) as pg:
        yield pg


def where(server: FakeLLMServer) -> re.Pattern:
    """The server's address as the sidebar shows it (its port is unique)."""
    return re.compile(re.escape(server.url.rsplit(":", 1)[1]))


def keys_seen(server: FakeLLMServer) -> set[str]:
    return {r["headers"].get("authorization", "") for r in server.requests}


def set_endpoint(pg, url: str, key: str = "") -> None:
    go(pg, "Settings", "Settings")
    pg.get_by_role("textbox", name="Endpoint (base URL)").fill(url)
    if key:
        pg.get_by_role("textbox", name="API key").fill(key)
    pg.get_by_role("button", name="Apply").click()
    wait_idle(pg)


def ask_the_sample(pg) -> None:
    pg.get_by_role("button", name="Try the sample report").click()
    pg.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)
    ask(pg, QUESTION)
    pg.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    wait_idle(pg)


def test_a_visitor_endpoint_never_receives_the_operator_key(page, endpoints):
    a, b, _ = endpoints
    set_endpoint(page, b.url)
    page.get_by_text("give your own API key").first.wait_for(timeout=WAIT)
    assert page.get_by_test_id("stSidebar").get_by_text(where(a)).count() == 1  # still the operator's endpoint
    ask_the_sample(page)
    assert b.count == 0
    assert a.count > 0 and keys_seen(a) == {f"Bearer {OPERATOR_KEY}"}


def test_a_visitor_endpoint_with_the_visitor_key(page, endpoints):
    a, b, _ = endpoints
    set_endpoint(page, b.url, VISITOR_KEY)
    page.get_by_test_id("stSidebar").get_by_text(where(b)).wait_for(timeout=WAIT)
    ask_the_sample(page)
    assert page.get_by_text("412.6").first.is_visible()
    assert any(r["body"].get("stream") for r in b.requests)  # the answer on the page came through a stream
    assert b.count > 0 and keys_seen(b) == {f"Bearer {VISITOR_KEY}"}
    assert not any(OPERATOR_KEY.encode() in r["raw"] for r in b.requests)
    assert VISITOR_KEY not in page.content()


def test_an_endpoint_outside_the_allowlist_is_refused(page, endpoints):
    _, _, c = endpoints
    set_endpoint(page, c.url, VISITOR_KEY)
    page.get_by_text("is not allowed on this server").first.wait_for(timeout=WAIT)
    assert page.get_by_test_id("stAlertContentError").count() == 1
    ask_the_sample(page)
    assert c.count == 0
