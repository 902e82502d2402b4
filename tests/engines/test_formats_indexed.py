"""Documents that are not PDFs, through the engine's doors (a lone document and a folder): each file is built
here, converted to PDF in a worker, indexed; its tree follows the document's own headings or slides, a question
finds the right part, and the cited page opens (drawn from the stored PDF)."""
from __future__ import annotations

import pytest

import format_factory
from alphasearch import pdf
from alphasearch.config import Settings
from alphasearch.pdf import ocr
from alphasearch.pipeline import Engine

HTML = ("<html><head><title>Harbour Notes</title></head><body><h1>Ferry Timetable</h1>"
        "<p>The first ferry leaves the harbour at 6:40 every weekday.</p>" + f"<p>{format_factory.FILLER}</p>" * 9
        + "<h1>Fish Market</h1><p>The fish market sells mackerel and cod on Saturdays from 7 to 11.</p>"
        "</body></html>").encode()

CASES = [  # name, bytes, titles the tree must hold, question, words of the cited page, section the citation names
    ("review.docx", format_factory.docx_bytes, ["Revenue Overview", "Risk Factors"],
     "Which risk does the company name about competition?", "Competition is intense", "Risk Factors"),
    ("deck.pptx", format_factory.pptx_bytes, ["Slide 1: Strategy", "Slide 2: Results", "Slide 3: Outlook"],
     "What is the sales growth guidance for 2025?", "Sales growth guidance", "Slide 3: Outlook"),
    ("notes.html", lambda: HTML, ["Ferry Timetable", "Fish Market"],
     "When does the fish market sell mackerel?", "mackerel and cod", "Fish Market"),
    ("letter.epub", format_factory.epub_bytes, ["Letter to Shareholders", "Capital Allocation"],
     "How much were the share buybacks worth?", "bought back shares", "Capital Allocation"),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    return Engine(Settings(data_dir=tmp_path_factory.mktemp("formats"), engine="offline"))


@pytest.mark.parametrize("name,build,titles,question,words,section", CASES, ids=[c[0] for c in CASES])
def test_a_document_follows_its_headings_and_its_citation_opens(engine, name, build, titles, question, words,
                                                                section):
    data = build()
    doc = engine.index_bytes(data, name)
    assert doc.name == name and doc.tree_source == "outline"
    assert [s.title for s in doc.root.walk()][1:] == titles
    answer = engine.ask_document(doc, question, seed=1)
    assert not answer.fallback, answer.text
    cited = answer.citations[0]
    assert cited.section == section and words in doc.page(cited.pages[0]).text
    stored = engine.as_pdf(data, name)  # what the app and the API keep and draw pages from
    assert pdf.content_hash(stored) == doc.doc_id
    png = pdf.render_page_png(stored, cited.pages[0], highlight=words)
    assert png.startswith(b"\x89PNG")


def test_a_picture_is_a_one_page_scan_read_by_ocr(engine):
    if not ocr.available():
        pytest.skip("Tesseract is not installed (apt-get install tesseract-ocr).")
    doc = engine.index_bytes(format_factory.png_bytes("Scanned invoice 4711"), "invoice.png")
    assert doc.page_count == 1 and doc.ocr_pages == (1,)
    assert "invoice 4711" in doc.page(1).text.lower()
    answer = engine.ask_document(doc, "What is the invoice number?", seed=1)
    assert "4711" in answer.text and answer.citations[0].pages[0] == 1


def test_a_folder_takes_slides_and_word_files_beside_pdfs(tmp_path):
    engine = Engine(Settings(data_dir=tmp_path, engine="offline"))
    lib = engine.library
    lib.create_folder("Board")
    results = [lib.add("Board", name, build()) for name, build, *_ in CASES[:2]]
    assert [r.status for r in results] == ["indexed", "indexed"]
    for name, *_ in CASES[:2]:
        record = lib.document("Board", name)
        stored = lib.pdf_path(record.sha256).read_bytes()
        assert stored.startswith(b"%PDF-") and lib.load_index(record).name == name
    again = lib.add("Board", "deck.pptx", format_factory.pptx_bytes())
    assert again.status == "unchanged"  # the conversion gives the same bytes every time
    answer = engine.ask_folder("What is the sales growth guidance for 2025?", folder="Board")
    assert answer.citations and answer.citations[0].doc == "deck.pptx"
