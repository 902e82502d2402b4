"""Files that are not PDFs, in a real browser (issue 36): a slide deck uploaded on *Single PDF* becomes one page
per slide, its tree is its slides, a question cites the slide and the citation opens it; a scan is read by
OCR and the card says so; a Word zip bomb ends in one sentence; a folder takes a Word file and a PNG beside
its PDFs. Screenshots: ``test-artifacts/screenshots/26_slides_answer.png``, ``27_scan_card.png``,
``28_folder_formats.png``."""
from __future__ import annotations

import re

import pytest

import format_factory
import pdf_factory
from alphasearch.pdf import ocr
from test_browser import WAIT, add_folder, ask, browser, go, page, server, shot, upload, wait_idle  # noqa: F401

pytestmark = pytest.mark.timeout(600)


def test_a_slide_deck_is_asked_like_a_pdf_and_its_citation_opens_the_slide(page):
    upload(page, [("deck.pptx", format_factory.pptx_bytes())])
    page.get_by_text(re.compile(r"deck\.pptx is ready: 3 pages")).wait_for(timeout=WAIT)
    tree = page.get_by_test_id("stExpander").filter(has_text="Section tree").first
    tree.locator("summary").click()
    tree.get_by_text("Slide 3: Outlook (p. 3)").wait_for(timeout=WAIT)
    items = [li.inner_text() for li in tree.locator("li").all()]
    assert items == ["Slide 1: Strategy (p. 1)", "Slide 2: Results (p. 2)", "Slide 3: Outlook (p. 3)"], items
    ask(page, "What is the sales growth guidance for 2025?")
    page.get_by_text(re.compile(r"sections scored")).first.wait_for(timeout=WAIT)
    cite = page.get_by_test_id("stExpander").filter(has_text="[1]").first
    assert "Slide 3: Outlook" in cite.inner_text()
    cite.click()
    img = cite.get_by_test_id("stImage").locator("img")
    img.wait_for(timeout=WAIT)
    shot(page, "26_slides_answer")
    cite.get_by_text(re.compile(r"deck\.pptx — p\. 3, cited passages? highlighted")).wait_for(timeout=WAIT)
    page.get_by_text(re.compile(r"Direct answer: .*7%")).first.wait_for(timeout=WAIT)


def test_a_scan_is_read_by_ocr_and_a_zip_bomb_is_one_sentence(page):
    if not ocr.available():
        pytest.skip("Tesseract is not installed (apt-get install tesseract-ocr).")
    upload(page, [("handbook-scan.pdf", pdf_factory.scanned(pdf_factory.headings_pdf()))])
    page.get_by_text(re.compile(r"handbook-scan\.pdf is ready")).wait_for(timeout=WAIT)
    caption = page.get_by_text(re.compile(r"Read by OCR: \d+ of \d+ pages"))
    caption.first.wait_for(timeout=WAIT)
    shot(page, "27_scan_card")
    ask(page, "How many litres of juice does the cider press process per day?")
    page.get_by_text("600").first.wait_for(timeout=WAIT)

    page.get_by_role("button", name="Reset").click()
    wait_idle(page)
    upload(page, [("bomb.docx", format_factory.docx_bomb())])
    error = page.get_by_text(re.compile(r"bomb\.docx .*200 MB"))
    error.first.wait_for(timeout=WAIT)
    assert "\n" not in error.first.inner_text().strip() and page.get_by_text("Traceback").count() == 0


def test_a_folder_takes_word_files_and_pictures_beside_pdfs(page):
    add_folder(page, "Board", [("review.docx", format_factory.docx_bytes()),
                               ("invoice.png", format_factory.png_bytes("Scanned invoice 4711")),
                               ("handbook.pdf", pdf_factory.outline_pdf())])
    assert page.get_by_text("rejected").count() == 0 and page.get_by_text("Traceback").count() == 0
    page.get_by_role("tab", name="Documents").click()
    wait_idle(page)
    assert page.get_by_test_id("stMetric").filter(has_text="Documents").first.inner_text().split()[-1] == "3"
    shot(page, "28_folder_formats")
    go(page, "Folder query", "Folder query")
    ask(page, "Which risk does the company name about competition?")
    page.get_by_text(re.compile("Competition is intense")).first.wait_for(timeout=WAIT)
