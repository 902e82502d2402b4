"""An uploaded PDF's bytes are kept on disk, never in the session (issue 31: four 100 MB uploads took the
server from 104 MB to 941 MB RSS), and one session's uploads have a quota."""
from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from app_helpers import APP


def start(data_dir, monkeypatch, **env: str) -> AppTest:
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("ALPHASEARCH_ENGINE", "offline")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    return at


@pytest.fixture(autouse=True)
def clear_caches():
    yield
    st.cache_resource.clear()
    st.cache_data.clear()


def test_no_pdf_bytes_are_held_in_the_session_and_previews_read_them_from_disk(data_dir, monkeypatch):
    at = start(data_dir, monkeypatch)
    next(b for b in at.button if "Try the sample" in str(b.label)).click().run()
    assert not at.exception and "single_doc" in at.session_state
    held = [k for k in at.session_state if isinstance(at.session_state[k], (bytes, bytearray))]
    assert held == [] and at.session_state["single_sha"] == at.session_state["single_doc"].doc_id
    at.chat_input(key="single_question").set_value("What was the total revenue in 2025?").run()
    assert not at.exception and at.image  # the cited page, drawn from the kept file
    assert at.session_state["uploaded_bytes"] > 0


def test_a_session_beyond_its_upload_quota_is_refused_in_one_sentence(data_dir, monkeypatch):
    at = start(data_dir, monkeypatch, ALPHASEARCH_MAX_SESSION_UPLOADS_MB="0")
    next(b for b in at.button if "Try the sample" in str(b.label)).click().run()
    assert not at.exception and "single_doc" not in at.session_state
    message = " ".join(e.value for e in at.error).replace("\\", "")
    assert "the limit is 0 MB per session" in message
