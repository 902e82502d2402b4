"""Two visitors of one server in two browser contexts (issue 31): B never sees A's conversation, chat or saved
search, and cannot open A's URLs; A's reload keeps A's own. A reader has no button that changes the library."""
from __future__ import annotations

import re
import time

import pytest

from alphasearch.library import Library
from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes
from app_helpers import long_pdf, streamlit_server, topic_pdf
from folder_helpers import build_library
from pdf_factory import scanned
from test_browser import WAIT, ask, browser, go, open_tab, session, shot, upload, wait_idle  # noqa: F401  (fixture)

pytestmark = pytest.mark.timeout(600)
QUESTION = "How long should bread dough rise?"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("visitors-data")
    build_library(Library(root), ("Kitchen",))
    return root


def test_visitors_see_only_their_own_conversations_chats_and_searches(browser, data_dir):
    with streamlit_server(data_dir) as url, session(browser, url) as a, session(browser, url) as b:
        go(a, "Folder query", "Folder query")
        ask(a, QUESTION)
        a.get_by_text(re.compile(r"Folder: Kitchen \(routing confidence")).first.wait_for(timeout=WAIT)
        wait_idle(a)
        a_query = a.url
        assert "c=app-" in a_query
        go(a, "Single PDF", "Ask a PDF")
        upload(a, [(SAMPLE_NAME, sample_pdf_bytes())])
        a.get_by_text(re.compile(r"is ready: 9 pages")).wait_for(timeout=WAIT)
        ask(a, "What was the total revenue in 2025?")
        a.get_by_text(re.compile(r"412\.6")).first.wait_for(timeout=WAIT)
        wait_idle(a)
        a_single = a.url
        assert "chat=single-" in a_single and "doc=" in a_single

        # B, in a fresh browser: a new conversation, none of A's
        go(b, "Folder query", "Folder query")
        wait_idle(b)
        assert b.get_by_text(QUESTION).count() == 0 and "c=app-" in b.url and b.url != a_query
        # A's URLs open nothing of A's for B
        b.goto(a_query)
        b.get_by_text(re.compile("belongs to another visitor")).first.wait_for(timeout=WAIT)
        wait_idle(b)
        assert b.get_by_text(QUESTION).count() == 0 and b.get_by_text(re.compile(r"Folder: Kitchen")).count() == 0
        shot(b, "visitors_b_on_a_query_url")
        b.goto(a_single)
        b.get_by_text(re.compile("belong to another visitor")).first.wait_for(timeout=WAIT)
        wait_idle(b)
        assert b.get_by_text(re.compile(r"412\.6")).count() == 0 and b.get_by_text("What was the total").count() == 0
        go(b, "Tree visualizer", "Tree visualizer")
        wait_idle(b)
        assert b.get_by_text(re.compile("Saved · Kitchen")).count() == 0 and b.get_by_text(QUESTION).count() == 0
        shot(b, "visitors_b_tree")

        # A's reload (the same browser) keeps A's conversation and chat
        a.goto(a_query)
        a.get_by_text(QUESTION).first.wait_for(timeout=WAIT)
        go(a, "Tree visualizer", "Tree visualizer")
        wait_idle(a)
        # both of A's searches were saved for A: the newest (the single PDF's) is shown, the folder's is listed
        a.get_by_text("What was the total revenue in 2025?").first.wait_for(timeout=WAIT)  # "Question: …"
        a.get_by_test_id("stSelectbox").first.click()
        a.get_by_text(re.compile("Saved · Kitchen")).first.wait_for(timeout=WAIT)
        shot(a, "visitors_a_tree")
        a.keyboard.press("Escape")
        a.goto(a_single)
        a.get_by_text(re.compile(r"412\.6")).first.wait_for(timeout=WAIT)


def test_a_reader_has_no_button_that_changes_the_library(browser, data_dir):
    with streamlit_server(data_dir, env={"ALPHASEARCH_VISITOR_ROLE": "reader"}) as url, session(browser, url) as r:
        go(r, "Folders", "Folders")
        r.get_by_text(re.compile("lets visitors ask and browse")).first.wait_for(timeout=WAIT)
        wait_idle(r)
        for label in ("Create folder", "Remove", "Repair"):
            assert r.get_by_role("button", name=re.compile(label)).count() == 0, label
        for tab in ("Add PDFs", "Rename / delete"):
            assert r.get_by_role("tab", name=tab).count() == 0, tab
        assert r.get_by_text(re.compile("Delete folder")).count() == 0
        shot(r, "visitors_reader_folders")
    assert [f.name for f in Library(data_dir).folders()] == ["Kitchen"]


def ready_after(pg, name: str, data: bytes) -> float:
    """Seconds from uploading ``name`` on the Single PDF screen until it is ready."""
    began = time.monotonic()
    upload(pg, [(name, data)])
    pg.get_by_text(re.compile(re.escape(name.removesuffix(".pdf")) + r".*is ready")).first.wait_for(timeout=WAIT)
    return time.monotonic() - began


def test_a_visitors_folder_add_holds_one_index_worker_and_shows_where_its_next_file_waits(browser, tmp_path):
    """A adds two scanned files (OCR: many seconds each) to a folder: they take one index worker at a time and
    A's screen says the second waits next in line; B's one-page upload meanwhile takes the other worker and is
    ready about as fast as alone (before, A's files took both workers and B's waited for one of them)."""
    root = tmp_path / "data"
    build_library(Library(root), ("Kitchen",))
    scans = [(f"scan-{i}.pdf", scanned(long_pdf(24 + i))) for i in range(2)]
    with streamlit_server(root) as url, session(browser, url) as a, session(browser, url) as b:
        go(b, "Single PDF", "Ask a PDF")
        alone = ready_after(b, "alone.pdf", topic_pdf("hr", 0))
        go(a, "Folders", "Folders")
        open_tab(a, "Add PDFs")
        upload(a, scans)
        open_tab(a, "Add PDFs")
        a.get_by_role("button").filter(has_text="Add 2 files to Kitchen").click()
        a.get_by_text(re.compile(r"scan-[01]\.pdf: waiting for an index worker: next in line")).first.wait_for(
            timeout=WAIT)
        shot(a, "visitors_a_second_file_in_line")
        meanwhile = ready_after(b, "meanwhile.pdf", topic_pdf("hr", 1))
        assert a.get_by_text("Last upload").count() == 0  # A's add still runs: B did not wait for it to end
        a.get_by_text("Last upload").wait_for(timeout=WAIT)
        wait_idle(a)
        assert a.get_by_text("rejected").count() == 0
        shot(a, "visitors_a_folder_added")
        assert meanwhile < alone + 8.0, (alone, meanwhile)
