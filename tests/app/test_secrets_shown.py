"""Credentials in the endpoint URL are never shown (issue 31): the sidebar's engine line, the Settings field it
pre-fills and the "not allowed" message hold the endpoint without its user, password or key-like parameters."""
from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from app_helpers import APP

SECRETS = ("alice", "hunter2", "sk-query-secret", "tok-9f8e")
ENDPOINT = "http://alice:hunter2@127.0.0.1:9/v1?api_key=sk-query-secret&token=tok-9f8e&region=eu"
SHOWN = "http://127.0.0.1:9/v1?region=eu"


def everything_shown(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.error]
    parts += [i.value for i in at.info] + [t.value or "" for t in at.text_input] + [c.value for c in at.sidebar.code]
    parts += [t.proto.placeholder for t in at.text_input]
    return "\n".join(parts).replace("\\", "").replace("\u2060", "")  # Markdown as the reader sees it


@pytest.fixture
def app(data_dir, monkeypatch):
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("OPENAI_API_KEY", "operator-key-0000")
    monkeypatch.setenv("OPENAI_BASE_URL", ENDPOINT)
    monkeypatch.setenv("ALPHASEARCH_ALLOWED_ENDPOINTS", f"{ENDPOINT},https://bob:pw-77@example.invalid/v1?key=k-55")
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    yield at
    st.cache_resource.clear()
    st.cache_data.clear()


def test_the_sidebar_and_settings_show_the_endpoint_without_credentials(app):
    assert not app.exception
    shown = everything_shown(app)
    assert SHOWN in shown and not any(s in shown for s in SECRETS)
    app.switch_page("pages/settings.py").run()
    field = next(t for t in app.text_input if t.label == "Endpoint (base URL)")
    assert field.value == SHOWN
    next(b for b in app.button if "Apply" in str(b.label)).click().run()  # unchanged: the server's endpoint kept
    assert not app.exception and not app.error
    assert "base_url" not in app.session_state["settings_overrides"]
    field = next(t for t in app.text_input if t.label == "Endpoint (base URL)")
    field.input("https://elsewhere.invalid/v1")
    next(b for b in app.button if "Apply" in str(b.label)).click().run()
    message = "\n".join(e.value for e in app.error).replace("\\", "")
    assert "not allowed" in message and "example.invalid/v1" in message
    shown = everything_shown(app)
    assert not any(s in shown for s in (*SECRETS, "bob", "pw-77", "k-55"))
