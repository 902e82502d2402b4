"""Scanned pages and pictures of text read by OCR (Tesseract through MuPDF), on scans the tests make:
PDFs drawn to images and rebuilt without a text layer. Skipped when Tesseract is not installed,
failed when CI=true (``.ci/run`` installs it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pdf_factory
from alphasearch import pdf
from alphasearch.config import Settings
from alphasearch.pdf import ocr
from alphasearch.pipeline import Engine

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def tesseract():
    if not ocr.available():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Tesseract is missing; .ci/run must install tesseract-ocr.")
        pytest.skip("Tesseract is not installed (apt-get install tesseract-ocr); OCR tests skipped.")


@pytest.fixture(scope="module")
def scan() -> bytes:
    return pdf_factory.scanned(pdf_factory.headings_pdf())


def squeeze(text: str) -> str:
    return " ".join(text.lower().split())


def test_a_scan_has_no_text_until_ocr_reads_it(scan):
    off = pdf.read_pdf(scan, "scan.pdf")
    assert off.ocr == "off" and not any(p.text.strip() for p in off.pages)
    on = pdf.read_pdf(scan, "scan.pdf", ocr=True)
    assert on.ocr == "on" and on.ocr_pages == list(range(1, on.page_count + 1))
    text = squeeze(" ".join(p.text for p in on.pages))
    for phrase in ("membership costs 45 euros a year", "the cider press processes 600 litres", "18,400 euros"):
        assert phrase in text
    assert all(p.pictures == 0 for p in on.pages)  # the scan is the page, not a picture on it
    assert not on.warnings


def test_drawings_are_not_read_as_letters():
    """A page of shapes only (a rectangle, a circle OCR reads as "OO") stays without text, and says so."""
    content = pdf.read_pdf(pdf_factory.image_only_pdf(2), "shapes.pdf", ocr=True)
    assert [p.text for p in content.pages] == ["", ""] and content.ocr_pages == []
    assert ocr.printed_text("Revenue 12") and ocr.printed_text("42") and not ocr.printed_text("OO |")


def test_scanned_headings_are_larger_than_their_body(scan):
    on = pdf.read_pdf(scan, "scan.pdf", ocr=True)
    sizes = {line.text: line.size for p in on.pages for line in p.lines}
    body = sizes[next(t for t in sizes if t.startswith("Membership costs"))]
    assert sizes["Membership"] >= 1.5 * body and sizes["Harvest"] >= 1.5 * body


def test_a_picture_of_text_on_a_page_of_text_adds_only_its_new_words():
    data = pdf_factory.picture_of_text_pdf("Quarterly review of the Harbour Bakery.",
                                           ["Harbour Bakery", "Sourdough sales rose 37% in Q3"])
    page = pdf.read_pdf(data, "slide.pdf", ocr=True).pages[0]
    assert page.ocr and "Sourdough sales rose 37% in Q3" in page.text
    assert page.text.count("Harbour Bakery") == 1  # the picture's title repeats the page's words: dropped
    assert pdf.read_pdf(data, "slide.pdf").pages[0].text == "Quarterly review of the Harbour Bakery."


def test_ocr_stops_at_its_time_budget_and_says_which_pages_it_left(scan):
    on = pdf.read_pdf(scan, "scan.pdf", ocr=True, ocr_seconds=0)
    assert on.ocr_pages == []
    assert any(w.startswith("OCR stopped after 0 s") and "pages 1" not in w for w in on.warnings)


def test_a_question_on_a_scan_finds_its_page_and_the_preview_highlights_it(tmp_path, scan):
    engine = Engine(Settings(data_dir=tmp_path, engine="offline"))
    doc = engine.index_bytes(scan, "scan.pdf")
    assert doc.ocr == "on" and doc.ocr_pages == tuple(range(1, doc.page_count + 1))
    assert "Cider Making" in [s.title for s in doc.root.walk()]
    answer = engine.ask_document(doc, "How many litres of juice does the cider press process per day?", seed=1)
    assert "600" in answer.text
    page = answer.citations[0].pages[0]
    assert "600 litres" in doc.page(page).text
    plain = pdf.render_page_png(scan, page)
    marked = pdf.render_page_png(scan, page, highlight="processes 600 litres of juice per day")
    assert marked != plain  # the passage OCR read is painted on the scanned page


def test_an_index_built_without_ocr_is_rebuilt_when_ocr_is_turned_on(tmp_path, scan):
    off = Engine(Settings(data_dir=tmp_path, engine="offline", ocr=False)).index_bytes(scan, "scan.pdf")
    assert off.ocr == "off" and not off.ocr_pages
    assert Engine(Settings(data_dir=tmp_path, engine="offline", ocr=False)).index_bytes(scan, "scan.pdf").ocr == "off"
    on = Engine(Settings(data_dir=tmp_path, engine="offline")).index_bytes(scan, "scan.pdf")
    assert on.ocr == "on" and on.ocr_pages


def test_without_tesseract_scans_are_skipped_with_one_sentence(tmp_path, scan):
    """A Python without Tesseract on its PATH: the scan is indexed without text and says so once."""
    (tmp_path / "scan.pdf").write_bytes(scan)
    env = {k: v for k, v in os.environ.items() if k != "TESSDATA_PREFIX"}
    env["PATH"] = str(Path(sys.executable).parent)  # no /usr/bin: no tesseract
    code = ("import sys; from alphasearch.config import Settings; from alphasearch.pipeline import Engine;"
            "d = Engine(Settings(data_dir=sys.argv[2], engine='offline')).index_file(sys.argv[1]);"
            "print(d.ocr); print('\\n'.join(d.warnings))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "scan.pdf"), str(tmp_path / "data")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "missing"
    assert lines.count(ocr.MISSING) == 1 and "apt-get install tesseract-ocr" in ocr.MISSING


def test_a_folder_document_read_without_ocr_is_repaired_when_ocr_is_on(tmp_path, scan):
    from alphasearch.library import Library

    off = Library(tmp_path, settings=Settings(data_dir=tmp_path, engine="offline", ocr=False))
    off.create_folder("Scans")
    assert off.add("Scans", "scan.pdf", scan).status == "indexed"
    assert not off.load_index(off.document("Scans", "scan.pdf")).ocr_pages and off.health().ok
    on = Library(tmp_path, settings=Settings(data_dir=tmp_path, engine="offline"))
    assert [i.kind for i in on.health().issues] == ["index_ocr_outdated"]
    on.repair()
    assert on.load_index(on.document("Scans", "scan.pdf")).ocr_pages and on.health().ok
