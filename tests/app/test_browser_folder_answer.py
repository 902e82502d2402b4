"""A folder's answer in a real browser is laid out like a single PDF's: a figure question to a folder shows
"Direct answer" first with the document it was read from named, then key points; a reload keeps the layout.
Screenshot: ``test-artifacts/screenshots/23_folder_direct_answer.png``."""
from __future__ import annotations

import pytest

from app_helpers import topic_pdf
from pdf_factory import table_pdf
from test_browser import WAIT, add_folder, ask, browser, go, page, server, shot, wait_idle  # noqa: F401  (fixtures)

pytestmark = pytest.mark.timeout(300)


def test_a_folder_figure_answer_starts_with_the_direct_answer_naming_its_document(page):
    add_folder(page, "Statements", [("harbor-statement.pdf", table_pdf()), ("hr-0.pdf", topic_pdf("hr", 0))])

    go(page, "Folder query", "Folder query")
    ask(page, "What were total revenues in 2022?")
    box = page.locator("[class*=st-key-structured-answer]").first
    box.wait_for(timeout=WAIT)
    wait_idle(page)
    text = box.inner_text()
    assert text.startswith("Direct answer (harbor-statement.pdf): Total revenues, 2022: $66,608 million"), text
    assert "Key points" in text
    shot(page, "23_folder_direct_answer")
    page.reload()  # the stored turn keeps the layout
    page.locator("[class*=st-key-structured-answer]").first.wait_for(timeout=WAIT)
    assert page.locator("[class*=st-key-structured-answer]").first.inner_text().startswith(
        "Direct answer (harbor-statement.pdf)")
