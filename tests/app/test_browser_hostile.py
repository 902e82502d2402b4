"""The running app survives the uploads that used to take it down (issue 14).

A real ``streamlit run app.py`` (its parse time limit lowered to 3 s of CPU time so an over-long file ends
quickly) gets, in one session, the 100,000-deep outline that killed the server with SIGSEGV
inside ``pymupdf.open`` and a page stream of text that takes longer than the limit; each shows one
sentence, the server process is still alive, and a brand-new session indexes the sample and
answers a question.
"""
from __future__ import annotations

import re
import urllib.request

import pytest

import pdf_factory
from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes
from app_helpers import streamlit_server
from test_browser import WAIT, ask, browser, session, upload, wait_idle  # noqa: F401  (browser: a fixture)

@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    """A server whose parsing limit is 3 s of the worker's CPU time: the deep outline (about 1.2 s of CPU) is
    refused for its depth, not for its time, and the flood (about 9.5 s) overruns the limit, however busy the
    machine is. With a wall-clock limit a full suite's load spikes made the outline overrun it, and the depth
    message never came."""
    data_dir = tmp_path_factory.mktemp("browser-hostile-data")
    limit = 3
    with streamlit_server(data_dir, env={"ALPHASEARCH_PARSE_SECONDS": str(limit)}) as url:
        yield url, limit


def test_the_server_survives_hostile_uploads_and_answers_the_next_session(browser, hostile_server):  # noqa: F811
    """The deep outline and an over-long parse each end as one sentence; the next session still answers."""
    url, limit = hostile_server
    with session(browser, url) as pg:
        upload(pg, [("outline.pdf", pdf_factory.deep_outline_raw_pdf(100_000))])
        pg.get_by_text("outline.pdf has bookmarks nested more than 10,000 levels deep").first.wait_for(timeout=WAIT)
        wait_idle(pg)
        assert pg.get_by_text("Traceback").count() == 0
        upload(pg, [("flood.pdf", pdf_factory.text_flood_pdf(pages=8))])  # about 1.2 s of CPU a page
        pg.get_by_text(f"flood.pdf could not be read safely: parsing took longer than {limit} s").first.wait_for(timeout=WAIT)
        wait_idle(pg)
        assert pg.get_by_text("Traceback").count() == 0
    with urllib.request.urlopen(url + "/_stcore/health", timeout=10) as r:
        assert r.status == 200  # the server process is still the one that started
    with session(browser, url) as pg:  # a new visitor
        upload(pg, [(SAMPLE_NAME, sample_pdf_bytes())])
        pg.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)
        ask(pg, "What was the total revenue in 2025?")
        pg.get_by_text("412.6").first.wait_for(timeout=WAIT)
