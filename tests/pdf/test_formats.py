"""Other formats in, PDF out (pdf/convert.py, pdf/sanitize.py): every file is built here, converted, and the PDF
read back: its outline follows the headings or slides, a heading's body is on the page its entry points to, the
bytes are the same every time; hostile files are refused with their error's one sentence, fast."""
from __future__ import annotations

import base64
import io
import socket
import time
import zipfile

import pymupdf
import pytest

from alphasearch import errors
from alphasearch.pdf import convert, sanitize
from format_factory import (
    FB2, FILLER, LAUGHS, SVG, docx_bomb, docx_bytes, epub_bytes, huge_png, mobi_bytes, png_bytes, pptx_bytes, with_member,
    xps_bytes, zip_bytes,
)

SENTENCE = ("AlphaSearch reads PDF, Word (.docx), PowerPoint (.pptx), HTML, Markdown, plain text, EPUB, MOBI, FB2, "
            "XPS, CBZ, SVG and images (PNG, JPEG, TIFF, BMP, GIF).")


# --- helpers ---------------------------------------------------------------------------------------
def converted(data: bytes, name: str, **kw) -> tuple[convert.Converted, pymupdf.Document]:
    result = convert.to_pdf(data, name, **kw)
    again = convert.to_pdf(data, name, **kw)
    assert result.pdf == again.pdf, "the same input must give byte-identical PDFs"
    doc = pymupdf.open("pdf", result.pdf)
    assert doc.page_count == result.pages
    return result, doc


def assert_under_headings(doc: pymupdf.Document, expected: list[tuple[int, str, int, str]]) -> None:
    """The outline is exactly ``expected`` (level, title, page) and each entry's heading (a slide's title) and
    body text are on its page."""
    assert doc.get_toc() == [[lvl, title, page] for lvl, title, page, _ in expected]
    for _, title, page, body in expected:
        text = " ".join(doc[page - 1].get_text().split())
        assert title.removeprefix(f"Slide {page}: ") in text and body in text, (title, page, text[:300])


def refused(error: type[Exception], data: bytes, name: str, *words: str, seconds: float = 5.0, **kw) -> str:
    start = time.monotonic()
    with pytest.raises(error) as caught:
        convert.to_pdf(data, name, **kw)
    assert time.monotonic() - start < seconds
    message = str(caught.value)
    assert name in message and "\n" not in message and "Traceback" not in message and message.endswith(".")
    for word in words:
        assert word in message, message
    return message


# --- the table of types --------------------------------------------------------------------------
def test_accepted_types_come_from_the_data_file():
    assert convert.ACCEPTED[".pdf"] == "pdf" and convert.ACCEPTED[".docx"] == "docx"
    assert convert.ACCEPTED[".jpeg"] == convert.ACCEPTED[".tif"] == "image"
    assert convert.accepted_sentence() == SENTENCE
    assert convert.check_type("Q3 deck.PPTX") == "pptx" and convert.check_type("dir/book.epub") == "epub"


@pytest.mark.parametrize("name", ["notes.xlsx", "a.exe", "README", "archive.zip"])
def test_unsupported_types_name_the_accepted_ones(name):
    with pytest.raises(errors.UnsupportedFormatError) as caught:
        convert.check_type(name)
    listed = SENTENCE.removeprefix("AlphaSearch reads ")
    assert str(caught.value) == f"{name} is not a type AlphaSearch reads; it reads {listed}"
    with pytest.raises(errors.UnsupportedFormatError):
        convert.to_pdf(b"data", name)


def test_is_pdf_by_name_or_by_content():
    assert convert.is_pdf("report.PDF", b"")
    assert convert.is_pdf("report.docx", b"%PDF-1.7\n...")
    assert not convert.is_pdf("report.docx", b"PK\x03\x04")
    with pytest.raises(ValueError):
        convert.to_pdf(b"%PDF-1.7", "report.pdf")


def test_empty_and_mislabelled_files_are_refused():
    refused(errors.EmptyFileError, b"", "blank.docx", "empty")
    refused(errors.CorruptPDFError, b"%PDF-1.7 not an image", "scan.png", "PNG")
    refused(errors.CorruptPDFError, b"just some text", "memo.docx", "Word (.docx)")
    refused(errors.EncryptedPDFError, b"\xd0\xcf\x11\xe0" + bytes(600), "locked.docx", "password")
    refused(errors.CorruptPDFError, zip_bytes({"a.txt": "hello"}), "memo.docx", "Word (.docx)")


# --- formats that convert ------------------------------------------------------------------------
def test_docx_outline_follows_its_headings_and_keeps_the_table():
    result, doc = converted(docx_bytes(), "memo.docx")
    assert result.unit == "page" and doc.page_count == 2 and doc[0].rect == pymupdf.paper_rect("letter")
    assert_under_headings(doc, [(1, "Revenue Overview", 1, "Revenue grew 12 percent"),
                                (1, "Risk Factors", 2, "Competition is intense in every market.")])
    assert "2024 1,234" in " ".join(doc[0].get_text().split())
    assert doc.metadata["title"] == "Revenue Overview" and doc.metadata["creationDate"] == ""


def test_pptx_is_one_landscape_page_per_slide():
    result, doc = converted(pptx_bytes(), "deck.pptx")
    assert result.unit == "slide" and result.pages == 3
    assert doc[0].rect.width > doc[0].rect.height
    assert_under_headings(doc, [(1, "Slide 1: Strategy", 1, "Strategy body point"),
                                (1, "Slide 2: Results", 2, "Results body point Second point"),
                                (1, "Slide 3: Outlook", 3, "Sales growth guidance 7%")])
    assert [len(page.get_images()) for page in doc] == [0, 1, 0]  # the picture is kept, for OCR
    title = doc[0].get_text("dict")["blocks"][0]["lines"][0]["spans"][0]
    assert title["text"] == "Strategy" and title["size"] > 20


def test_html_and_markdown_outlines_follow_their_headings():
    page = ("<html><head><title>Quarterly Note</title></head><body><h1>Summary</h1><p>Margins widened.</p>"
            + f"<p>{FILLER}</p>" * 9 + "<h2>Segment Detail</h2><p>Cloud grew fast."
            "</p><table><tr><th>Segment</th><th>Sales</th></tr><tr><td>Cloud</td><td>42</td></tr></table>"
            "</body></html>")
    _, doc = converted(page.encode(), "note.html")
    assert_under_headings(doc, [(1, "Summary", 1, "Margins widened."), (2, "Segment Detail", 2, "Cloud grew fast.")])
    assert doc.metadata["title"] == "Quarterly Note" and "Cloud 42" in " ".join(doc[1].get_text().split())

    text = ("## Overview\n\nSales rose.\n\n### Detail\n\n| Item | Value |\n|---|---|\n| Sales | 10 |\n\n"
            "## Risks\n\nFX.\n")
    result, doc = converted(text.encode(), "notes.md")
    assert result.unit == "page"
    assert_under_headings(doc, [(1, "Overview", 1, "Sales rose."), (2, "Detail", 1, "Sales 10"),
                                (1, "Risks", 1, "FX.")])


def test_plain_text_keeps_its_lines_and_encoding():
    _, doc = converted("Café results\nline two\n\nNext paragraph".encode("utf-16"), "notes.txt")
    assert doc.get_toc() == [] and doc[0].get_text().split("\n")[:3] == ["Café results", "line two", "Next paragraph"]
    refused(errors.TooManyPagesError, ("line\n\n" * 400).encode(), "long.txt", "2", max_pages=2)


def test_epub_outline_follows_its_chapters():
    result, doc = converted(epub_bytes(), "letter.epub")
    assert result.unit == "page" and doc.metadata["title"] == "Annual Letter"
    assert_under_headings(doc, [(1, "Letter to Shareholders", 1, "Dear owners"),
                                (1, "Capital Allocation", 2, "We bought back shares")])


def test_epub_web_links_are_removed_and_inner_links_kept():
    with zipfile.ZipFile(io.BytesIO(epub_bytes())) as z:
        members = {m: z.read(m) for m in z.namelist()}
    members["OEBPS/c1.xhtml"] = members["OEBPS/c1.xhtml"].replace(
        b"<p>", b'<p><a href="http://127.0.0.1:9/x">web</a> <a href="c2.xhtml">next</a> ')
    _, doc = converted(zip_bytes(members, stored_first="mimetype"), "linked.epub")
    assert [link["kind"] for link in doc[0].get_links()] == [pymupdf.LINK_GOTO]
    assert b"127.0.0.1" not in doc.tobytes(expand=255)


def test_images_are_one_page_scans():
    _, doc = converted(png_bytes(), "scan.png")
    assert doc.page_count == 1 and len(doc[0].get_images()) == 1 and doc[0].get_text() == ""
    jpeg = pymupdf.Pixmap(png_bytes()).tobytes("jpg")
    assert convert.to_pdf(jpeg, "photo.JPG").pages == 1


@pytest.mark.parametrize("name, data, words", [
    ("chart.svg", SVG, "Org chart label"),
    ("memo.fb2", FB2, "First Part Alpha text."),
    ("statement.xps", xps_bytes(), "Fixed layout statement"),
    ("book.mobi", mobi_bytes(), "Mobi Chapter Mobi body text."),
], ids=["svg", "fb2", "xps", "mobi"])
def test_other_formats_mupdf_reads(name, data, words):
    _, doc = converted(data, name)
    assert words in " ".join(doc[0].get_text().split())


def test_cbz_pages_are_its_pictures():
    _, doc = converted(zip_bytes({"001.png": png_bytes("one"), "002.png": png_bytes("two")}), "comic.cbz")
    assert doc.page_count == 2 and all(len(page.get_images()) == 1 for page in doc)


# --- hostile files -------------------------------------------------------------------------------
def test_docx_zip_bombs_are_refused_before_unpacking():
    refused(errors.DecompressionBombError, docx_bomb(), "bomb.docx", "300 MB", "200 MB")
    ratio = zip_bytes({"word/document.xml": bytes(20 << 20)})  # under the total, 1000:1
    refused(errors.DecompressionBombError, ratio, "ratio.docx", "word/document.xml", "100:1")


def test_xml_entities_are_refused_in_every_container():
    message = refused(errors.UnsafeFileError, with_member(docx_bytes(), "word/document.xml", LAUGHS.encode()),
                      "laughs.docx", "word/document.xml", "entities")
    assert message.count(".") >= 1
    evil_svg = b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + SVG.replace(
        b"Org chart label", b"&x;")
    refused(errors.UnsafeFileError, evil_svg, "evil.svg")
    refused(errors.UnsafeFileError, evil_svg.decode().replace('version="1.0"', 'version="1.0" encoding="UTF-16"')
            .encode("utf-16"), "wide.svg")  # UTF-16 with its byte-order mark
    hidden = b'<?xml version="1.0" encoding="UTF-7"?>' + "".join(  # every mark as UTF-7 writes it ("<": "+ADw-")
        c if c.isalnum() or c == " " else "+" + base64.b64encode(c.encode("utf-16-be")).decode().rstrip("=") + "-"
        for c in '<!DOCTYPE svg [<!ENTITY x "y">]>').encode()
    assert hidden.decode("utf-7").endswith("<!ENTITY x \"y\">]>") and b"<!" not in hidden[40:]
    refused(errors.UnsafeFileError, hidden + SVG, "seven.svg", "entities")
    external = b'<?xml version="1.0"?><!DOCTYPE svg SYSTEM "file:///etc/passwd">' + SVG
    refused(errors.UnsafeFileError, external, "dtd.svg", "DTD")
    xps_page = ('<?xml version="1.0"?><!DOCTYPE FixedPage [<!ENTITY big "boom">]><FixedPage xmlns="http://schemas.'
                'microsoft.com/xps/2005/06" Width="816" Height="1056"/>')
    refused(errors.UnsafeFileError, xps_bytes(xps_page), "report.xps", "Documents/1/Pages/1.fpage")
    refused(errors.UnsafeFileError, FB2.replace(b"?>", b'?><!DOCTYPE x [<!ENTITY a "b">]>', 1), "book.fb2")


def test_html_fetches_nothing_and_keeps_no_remote_reference():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    here = f"http://127.0.0.1:{port}"
    page = (f'<html><head><link rel="stylesheet" href="{here}/s.css"><base href="{here}/">'
            f'<meta http-equiv="refresh" content="0; url={here}/r"><style>@import url("{here}/i.css");'
            f'body {{ background: url({here}/bg.png) }} h1 {{ color: #123456 }}</style>'
            f'<script>fetch("{here}/js")</script></head><body><h1 style="background-image: url({here}/h.png)">'
            f'Market Update</h1><p>Prices <a href="{here}/link">rose</a> sharply.</p>'
            f'<img src="{here}/x.png"><img srcset="{here}/y.png 2x"><iframe src="{here}/frame"></iframe>'
            f'<object data="{here}/o.swf"></object><video poster="{here}/p.png"></video>'
            f'<img src="data:image/png;base64,{base64.b64encode(png_bytes()).decode()}"></body></html>')
    try:
        _, doc = converted(page.encode(), "update.html")
        server.settimeout(0.3)
        with pytest.raises(socket.timeout):
            server.accept()  # nothing ever connected
    finally:
        server.close()
    assert doc.get_toc() == [[1, "Market Update", 1]]
    assert " ".join(doc[0].get_text().split()) == "Market Update Prices rose sharply."
    assert [len(p.get_links()) for p in doc] == [0] and len(doc[0].get_images()) == 1  # only the data: image
    expanded = doc.tobytes(expand=255)
    assert b"127.0.0.1" not in expanded and b"/URI" not in expanded


def test_clean_html_rebuilds_only_what_is_safe():
    budget = sanitize.ImageBudget()
    clean, title = sanitize.clean_html(
        '<title>T</title><p onclick="x()" style="color:red;background:u\\72l(http://a)">a<svg><text>b</text></svg>'
        '<script>c</script><a href="javascript:d">e</a></p>' + "<div>" * 100 + "deep", budget)
    assert title == "T" and "onclick" not in clean and "http" not in clean and "javascript" not in clean
    assert ">a<" in clean and ">e</a>" in clean and "<svg" not in clean and ">b<" not in clean and ">c<" not in clean
    assert clean.count("<div>") == sanitize.MAX_HTML_DEPTH and "deep" in clean
    assert sanitize.clean_css('@import "x.css"; p { background: url(http://a/b) } q { color: red }') \
        .split() == ["p", "{", "background:", "none", "}", "q", "{", "color:", "red", "}"]


def test_huge_images_are_refused_alone_and_dropped_inside_documents():
    png = huge_png()
    refused(errors.DecompressionBombError, png, "poster.png", "30,000 x 30,000", "100 megapixels")
    page = f'<h1>Plan</h1><p>Text stays.</p><img src="data:image/png;base64,{base64.b64encode(png).decode()}">'
    start = time.monotonic()
    _, doc = converted(page.encode(), "plan.html")
    assert time.monotonic() - start < 5
    assert len(doc[0].get_images()) == 0 and "Text stays." in doc[0].get_text()
    inside = zip_bytes({"001.png": png_bytes(), "002.png": png})
    refused(errors.DecompressionBombError, inside, "comic.cbz", "002.png", "30,000 x 30,000")
    svg = SVG.replace(b"</svg>", b'<image href="data:image/png;base64,' + base64.b64encode(png) + b'"/></svg>')
    refused(errors.DecompressionBombError, svg, "chart.svg", "holds a picture of 30,000 x 30,000")


def test_multi_frame_tiff_frames_are_each_checked():
    from PIL import Image

    frames = [Image.new("L", (60, 40), 255), Image.new("L", (80, 50), 255)]
    out = io.BytesIO()
    frames[0].save(out, "TIFF", save_all=True, append_images=frames[1:])
    assert sanitize.tiff_frames(out.getvalue(), 10) == [(60, 40), (80, 50)]
    assert convert.to_pdf(out.getvalue(), "fax.tiff").pages == 2
    refused(errors.TooManyPagesError, out.getvalue(), "fax.tif", max_pages=1)


def test_the_review_s_ways_round_the_checks_are_closed():
    """White space before an entity, a TIFF frame listing 65,535 tags, unclosed FB2 pictures, a PNM bomb."""
    hidden = with_member(docx_bytes(), "word/document.xml", b" " * 2000 + LAUGHS.encode())
    refused(errors.UnsafeFileError, hidden, "spaced.docx", "entities")
    tiff = b"II*\0" + (8).to_bytes(4, "little") + (65535).to_bytes(2, "little") + bytes(12 * 65535 + 4)
    refused(errors.CorruptPDFError, tiff, "tags.tif", seconds=2.0)
    start = time.monotonic()
    with pytest.raises(errors.AlphaSearchError):
        convert.to_pdf(FB2.replace(b"</FictionBook>", b"<binary>AAAA" * 20_000 + b"</FictionBook>"), "open.fb2")
    assert time.monotonic() - start < 5
    pnm = b"P4\n10200 10200\n" + bytes(10200 // 8 * 10200)  # 104 megapixels of 1-bit PNM, 13 MB
    svg = SVG.replace(b"</svg>", b'<image href="data:image/x-portable-bitmap;base64,' + base64.b64encode(pnm)
                      + b'"/></svg>')
    refused(errors.DecompressionBombError, svg, "chart.svg", "10,200 x 10,200")
