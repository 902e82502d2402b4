"""alphasearch.pdf: every validation path, text and spans, rendering, snippet rectangles."""
from __future__ import annotations

import random
import struct
import time
import zlib

import pymupdf
import pytest

import pdf_factory
from alphasearch import errors, pdf
from alphasearch.pdf import TextBlock

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC
    return struct.unpack(">II", data[16:24])


def one_line(exc: BaseException, *must_contain: str) -> str:
    """The message is one sentence on one line, naming what the user needs."""
    msg = str(exc)
    assert msg and "\n" not in msg and msg.endswith("."), msg
    assert "Traceback" not in msg
    for part in must_contain:
        assert part in msg, (part, msg)
    return msg


# --- files on disk ---------------------------------------------------------------------
def test_missing_file(tmp_path):
    with pytest.raises(errors.FileMissingError) as ei:
        pdf.load_bytes(tmp_path / "nope.pdf")
    one_line(ei.value, "nope.pdf")


def test_directory_is_not_a_file(tmp_path):
    folder = tmp_path / "looks-like.pdf"
    folder.mkdir()
    with pytest.raises(errors.NotAFileError) as ei:
        pdf.load_bytes(folder)
    one_line(ei.value, "looks-like.pdf", "not a file")


@pytest.mark.parametrize("name", ["report.xlsx", "report.pdf.exe", "report"])
def test_wrong_extension(tmp_path, outline_pdf, name):
    path = tmp_path / name
    path.write_bytes(outline_pdf)
    with pytest.raises(errors.WrongExtensionError) as ei:
        pdf.load_bytes(path)
    one_line(ei.value, name)


def test_uppercase_extension_is_fine(tmp_path, outline_pdf):
    path = tmp_path / "REPORT.PDF"
    path.write_bytes(outline_pdf)
    assert pdf.load_bytes(path) == outline_pdf


def test_file_size_limit(tmp_path, outline_pdf):
    path = tmp_path / "big.pdf"
    path.write_bytes(outline_pdf + b"\0" * (1024 * 1024))
    with pytest.raises(errors.FileTooLargeError) as ei:
        pdf.load_bytes(path, max_file_mb=1)
    one_line(ei.value, "big.pdf", "limit is 1 MB")
    with pytest.raises(errors.FileTooLargeError):
        pdf.check_size(outline_pdf + b"\0" * (1024 * 1024), "big.pdf", max_file_mb=1)
    pdf.check_size(outline_pdf, "small.pdf", max_file_mb=1)  # under the limit: no error


# --- bytes that are not a usable PDF --------------------------------------------------------
def test_empty_bytes(empty_pdf):
    with pytest.raises(errors.EmptyFileError) as ei:
        pdf.read_pdf(empty_pdf, "empty.pdf")
    one_line(ei.value, "empty.pdf", "0 bytes")


@pytest.mark.parametrize("data", [
    b"Quarterly notes\nrevenue was up\n" * 20,
    PNG_MAGIC + b"\x00\x00\x00\rIHDR" + bytes(200),
    bytes(random.Random(3).randrange(256) for _ in range(5000)),
    b"<html><body>a web page saved as .pdf</body></html>" + b" " * 2000 + b"%PDF-1.7",
], ids=["text", "png", "random", "html"])
def test_bad_magic(data):
    with pytest.raises(errors.NotAPDFError) as ei:
        pdf.read_pdf(data, "renamed.pdf")
    one_line(ei.value, "renamed.pdf", "not a PDF")


def test_truncated(truncated_pdf):
    with pytest.raises(errors.CorruptPDFError) as ei:
        pdf.read_pdf(truncated_pdf, "cut.pdf")
    one_line(ei.value, "cut.pdf", "corrupt")


def test_pdf_header_then_garbage():
    with pytest.raises(errors.CorruptPDFError):
        pdf.read_pdf(b"%PDF-1.4\n" + b"garbage " * 100, "junk.pdf")


def test_password_protected_is_rejected(encrypted_pdf):
    with pytest.raises(errors.EncryptedPDFError) as ei:
        pdf.read_pdf(encrypted_pdf, "locked.pdf")
    one_line(ei.value, "locked.pdf", "password")


def test_owner_password_only_is_accepted(owner_only_pdf, outline_pdf):
    content = pdf.read_pdf(owner_only_pdf, "owner.pdf")
    plain = pdf.read_pdf(outline_pdf)
    assert content.page_count == 7
    assert [p.text for p in content.pages] == [p.text for p in plain.pages]
    assert content.toc == plain.toc


def test_zero_pages(zero_pages_pdf):
    with pytest.raises(errors.NoPagesError) as ei:
        pdf.read_pdf(zero_pages_pdf, "hollow.pdf")
    one_line(ei.value, "hollow.pdf", "no pages")


def test_page_limit_and_warning(flat_pdf):
    with pytest.raises(errors.TooManyPagesError) as ei:
        pdf.read_pdf(flat_pdf, "long.pdf", max_pages=4)
    one_line(ei.value, "long.pdf", "5 pages", "limit is 4")
    content = pdf.read_pdf(flat_pdf, "long.pdf", max_pages=5, warn_pages=3)
    assert content.page_count == 5
    assert content.warnings == ["long.pdf has 5 pages; indexing will take a while."]
    assert pdf.read_pdf(flat_pdf, warn_pages=5).warnings == []


def test_every_pdf_error_is_a_single_sentence(tmp_path, empty_pdf, truncated_pdf, encrypted_pdf, zero_pages_pdf):
    caught = []
    for data in (empty_pdf, b"not a pdf", truncated_pdf, encrypted_pdf, zero_pages_pdf):
        with pytest.raises(errors.PDFError) as ei:
            pdf.read_pdf(data, "x.pdf")
        caught.append(type(ei.value))
        one_line(ei.value, "x.pdf")
    assert caught == [errors.EmptyFileError, errors.NotAPDFError, errors.CorruptPDFError,
                      errors.EncryptedPDFError, errors.NoPagesError]


def test_decompression_bombs_are_refused():
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.flate_bomb_pdf(300), "bomb.pdf")
    one_line(ei.value, "bomb.pdf", "more than 256 MB", "decompression bomb")
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.image_bomb_pdf(21000), "poster.pdf")
    one_line(ei.value, "poster.pdf", "21,000 x 21,000 pixels", "400 megapixel limit")


def test_a_filter_chain_held_by_reference_is_decoded_and_counted():
    """The chain is read from the stream's object as MuPDF reads it: through the reference, with the
    abbreviated names spelled out; a bomb behind it is refused, a small stream behind it counted."""
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.referenced_filter_bomb_pdf(300), "chain.pdf")
    one_line(ei.value, "chain.pdf", "more than 256 MB", "decompression bomb")
    doc = pdf.open_pdf(pdf_factory.referenced_filter_bomb_pdf(1))
    try:
        assert pdf.streams.stream_filters(doc, 5) == ["/ASCIIHexDecode", "/FlateDecode"]
        assert pdf.streams.check_streams(doc)[5] >= 2**20
    finally:
        doc.close()


def test_values_held_by_reference_are_followed_as_mupdf_follows_them():
    """A filter name inside the array and an image's width and height may each be a reference:
    MuPDF follows them when it decodes, so the check does too."""
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.referenced_names_bomb_pdf(300), "names.pdf")
    one_line(ei.value, "names.pdf", "more than 256 MB", "decompression bomb")
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.referenced_size_image_bomb_pdf(), "sized.pdf")
    one_line(ei.value, "sized.pdf", "21,000 x 21,000 pixels", "400 megapixel limit")
    assert pdf.read_pdf(pdf_factory.referenced_names_bomb_pdf(1), "small.pdf").pages[0].text.startswith("By reference")


def test_annotation_appearances_held_by_reference_are_costed():
    """An annotation's /AP /N may be a reference to a dictionary of states, each a form MuPDF draws."""
    content = pdf.read_pdf(pdf_factory.annotation_fanout_pdf(states=True), "states.pdf")
    assert content.pages[0].text == ""
    assert any("nested forms" in w for w in content.warnings)


def test_page_contents_inflated_in_place_read_to_the_same_text(monkeypatch):
    """Content streams whose size the page budget must know are inflated in the in-memory document, so MuPDF
    reads their bytes without inflating them again: the same lines and warnings as when MuPDF inflates them.
    An encrypted file's streams are left as they are."""
    pages = [[f"Line {i}.{j}: sales of region {j * 7 % 13} rose {j % 9}.{i} percent." for j in range(60)]
             for i in range(3)]
    data = pdf_factory.make_pdf(pages)  # ~30 Flate streams per page, each of at most ~137 KB
    monkeypatch.setattr(pdf.budget, "MAX_PAGE_CONTENT_MB", 1)  # too much for the bound: the budget inflates them
    for blob, inflated in ((data, True), (pdf.encrypt_pdf(data, user_password=""), False)):
        doc = pdf.open_pdf(blob)
        try:
            budget = pdf.budget._PageBudget(doc, pdf.streams.check_streams(doc))
            assert [budget.check(i) for i in range(doc.page_count)] == ["", "", ""]
            plain = [x for x in range(1, doc.xref_length()) if doc.xref_is_stream(x)
                     and doc.xref_get_key(x, "Filter")[0] == "null"]
            assert (len(plain) >= 60) is inflated
        finally:
            doc.close()
        read = pdf.read_pdf(blob)
        assert "sales of region" in read.pages[2].text
        monkeypatch.setattr(pdf.budget, "INFLATED_HELD_MB", 0)  # MuPDF inflates every stream
        assert pdf.read_pdf(blob) == read
        monkeypatch.setattr(pdf.budget, "INFLATED_HELD_MB", 64)


def test_bomb_limits_are_adjustable_and_normal_streams_pass(monkeypatch):
    content = pdf.read_pdf(pdf_factory.flate_bomb_pdf(20), "big-but-fine.pdf")  # 20 MB: under the limits
    assert content.pages[0].text == "A harmless looking page"
    monkeypatch.setattr(pdf.streams, "MAX_STREAM_MB", 10)
    with pytest.raises(errors.DecompressionBombError):
        pdf.read_pdf(pdf_factory.flate_bomb_pdf(20))
    monkeypatch.setattr(pdf.streams, "MAX_STREAM_MB", 256)
    monkeypatch.setattr(pdf.streams, "MAX_INFLATED_MB", 15)
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory.flate_bomb_pdf(20))
    assert "more than 15 MB" in str(ei.value)


def test_flate_streams_that_cannot_breach_a_limit_are_inflated_only_when_needed(monkeypatch):
    """Flate output is at most 1032 times its input: a stream whose most possible size fits the limits is
    counted by that bound, and inflated only when the file's total needs its real size or when its size is
    asked; the verdicts are those of inflating every stream."""
    data = pdf_factory.make_pdf([[f"Page {i} holds a paragraph about apples, pears and cider. " * 20] for i in range(6)])
    doc = pdf.open_pdf(data)
    try:
        sizes = pdf.streams.check_streams(doc)
        assert sizes.bounds and not any(x in sizes for x in sizes.bounds)  # nothing inflated yet
        inflated = {x: pdf.streams._inflated_size(doc.xref_stream_raw(x), 10**9) for x in sizes.bounds}
        assert sum(inflated.values()) < 2**20 < sum(sizes.bounds.values())  # the bounds alone would breach 1 MB
        assert all(sizes.most(x) == sizes.bounds[x] >= inflated[x] for x in inflated)
        monkeypatch.setattr(pdf.streams, "MAX_INFLATED_MB", 1)
        sizes = pdf.streams.check_streams(doc)  # the real sizes fit: accepted, the largest streams inflated to see it
        assert 0 < len(sizes) and all(sizes[x] == inflated[x] for x in sizes)
        assert all(sizes.size(doc, x) == inflated[x] for x in inflated)
        monkeypatch.setattr(pdf.streams, "MAX_INFLATED_MB", 0)
        with pytest.raises(errors.DecompressionBombError) as ei:
            pdf.streams.check_streams(doc, "tiny.pdf")
        one_line(ei.value, "tiny.pdf", "more than 0 MB", "decompression bomb")
    finally:
        doc.close()


def test_object_count_limit(monkeypatch, flat_pdf):
    monkeypatch.setattr(pdf.streams, "MAX_OBJECTS", 5)
    with pytest.raises(errors.FileTooLargeError) as ei:
        pdf.read_pdf(flat_pdf, "many.pdf")
    one_line(ei.value, "many.pdf", "PDF objects; the limit is 5")


def test_inflated_size_counts_without_holding_everything():
    import zlib

    raw = zlib.compress(b"\0" * (50 * 2**20))
    assert pdf.streams._inflated_size(raw, 10**12) == 50 * 2**20
    assert 8 * 2**20 < pdf.streams._inflated_size(raw, 8 * 2**20) <= 12 * 2**20  # stops soon after the cap
    assert pdf.streams._inflated_size(b"not zlib at all", 100) == 0



def test_lzw_ascii85_and_runlength_are_decoded_at_mupdfs_speed():
    """The app checks a stored PDF's streams and page budget before each preview, outside the worker: an LZW page
    stream of 20 MB of text (24 MB on disk) took 6.3 s to count and 10 s to preview when decoded in Python
    (3.3 MB/s; ASCII85 and RunLength ~10 MB/s). MuPDF's own filters count it in a fraction of a second, to the
    bytes MuPDF reads, and bombs behind them are still refused."""
    import base64

    data = pdf_factory.lzw_pdf(20)
    start = time.process_time()  # CPU seconds of this process: the same on a busy machine
    doc = pdf.open_pdf(data)
    try:
        assert pdf.streams.check_streams(doc)[5] == len(doc.xref_stream(5)) == 20 * 2**20 // 1600 * 1600
    finally:
        doc.close()
    assert time.process_time() - start < 1.5
    assert pdf.read_pdf(pdf_factory.lzw_pdf(0.1)).pages[0].text.startswith("Revenue grew in every region")
    head = b"BT /F1 12 Tf 72 720 Td (Runs) Tj ET\n"  # a literal run, then 300 MB of spaces in runs of 128
    runs = bytes([len(head) - 1]) + head + bytes([129, 32]) * (300 * 2**20 // 128) + b"\x80"
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(pdf_factory._one_page_pdf(pdf_factory._stream(base64.a85encode(runs) + b"~>",
                                                                   b"[/A85 /RL]")), "runs.pdf")
    one_line(ei.value, "runs.pdf", "more than 256 MB", "decompression bomb")

# --- damaged pages and outlines -----------------------------------------------------------------
def test_damaged_page_is_kept_with_a_warning():
    content = pdf.read_pdf(pdf_factory.corrupt_page_pdf(), "damaged.pdf")
    assert content.page_count == 3
    assert "apples" in content.pages[0].text and "cider" in content.pages[2].text
    assert content.pages[1].text == ""
    assert content.warnings == ["1 page(s) are damaged and some of their text may be missing: 2."]


def test_spaces_drawn_as_their_own_spans_still_separate_words():
    """A space in another font than its words is a span of its own; the words must not run
    together ("Graph-basedmodelswere…"), and the line keeps its size and weight."""
    page = pdf.read_pdf(pdf_factory.spaced_fonts_pdf(), "spaced.pdf").pages[0]
    assert page.text.splitlines() == ["Related Work", "Graph-based models were compared with rules & tables"]
    heading, body = page.lines
    assert (heading.size, heading.bold) == (16.0, True) and (body.size, body.bold) == (11.0, False)


def test_font_sizes_as_mupdf_may_print_them():
    assert [pdf.document._points(x) for x in ("9.2", "12", "1e-05", "-11.0", ".", "")] == [9.2, 12.0, 1e-05, 11.0, 0.0, 0.0]
    line = '<p style="top:1pt"><span style="font-family:Tiny,serif;font-size:1e-05pt;color:#000000">tiny</span></p>'
    style, text = pdf.document._SPAN.findall(line)[0]
    assert (pdf.document._span_style(style)[0], text) == (1e-05, "tiny")


def test_unreadable_page_is_skipped_not_fatal(monkeypatch, flat_pdf):
    real = pdf.document._page_lines

    def flaky(page):
        if page.number == 1:  # 0-based: the second page
            raise RuntimeError("simulated MuPDF failure")
        return real(page)

    monkeypatch.setattr(pdf.document, "_page_lines", flaky)
    content = pdf.read_pdf(flat_pdf, "flaky.pdf")
    assert content.page_count == 5 and content.pages[1].text == "" and content.pages[2].text
    assert "Page 2 could not be read and was skipped." in content.warnings

    monkeypatch.setattr(pdf.document, "_page_lines", lambda page: (_ for _ in ()).throw(RuntimeError("all broken")))
    content = pdf.read_pdf(flat_pdf, "broken.pdf")
    assert content.page_count == 5 and all(p.text == "" for p in content.pages)
    assert content.warnings == ["5 pages could not be read and were skipped: 1, 2, 3, 4, 5."]


def test_outline_thousands_deep_is_capped():
    content = pdf.read_pdf(pdf_factory.deep_outline_pdf(3000), "deep.pdf")
    assert len(content.toc) == pdf.MAX_OUTLINE_DEPTH
    assert [lvl for lvl, _, _ in content.toc] == list(range(1, pdf.MAX_OUTLINE_DEPTH + 1))
    assert all(1 <= page <= 5 for _, _, page in content.toc)
    assert any("nested more than" in w for w in content.warnings)


def test_outline_entry_count_is_capped(monkeypatch, make_pdf):
    data = make_pdf([["a"], ["b"], ["c"]], toc=[(1, f"Entry {i}", 1 + i % 3) for i in range(50)])
    monkeypatch.setattr(pdf.document, "MAX_OUTLINE_ENTRIES", 20)
    content = pdf.read_pdf(data)
    assert len(content.toc) == 20 and content.toc[0] == (1, "Entry 0", 1)
    assert "The outline has more than 20 entries; the rest were ignored." in content.warnings


def test_outline_pointing_nowhere_is_dropped_safely():
    content = pdf.read_pdf(pdf_factory.bad_outline_pdf(), "ghost.pdf")
    assert content.page_count == 4
    assert all(1 <= page <= 4 for _, _, page in content.toc)
    assert "Chapter 3" in content.pages[2].text


def test_outline_is_read_in_order(outline_pdf):
    toc = pdf.read_pdf(outline_pdf).toc
    assert toc == [(1, "Introduction", 2), (1, "Membership", 3), (1, "Orchard Care", 4), (1, "Harvest", 5),
                   (1, "Cider Making", 6), (1, "Finances", 7)]


def test_page_text_cap(monkeypatch, flat_pdf):
    monkeypatch.setattr(pdf.document, "MAX_PAGE_CHARS", 120)
    content = pdf.read_pdf(flat_pdf)
    assert all(len(p.text) <= 120 for p in content.pages)
    assert content.warnings == ["5 page(s) hold more than 120 characters; the rest was ignored: 1, 2, 3, 4, 5."]


# --- text, spans, metadata -----------------------------------------------------------------------
def test_lines_carry_size_and_bold(headings_pdf):
    lines = pdf.read_pdf(headings_pdf).pages[0].lines
    assert lines[0] == pdf.Line("Introduction", 20.0, True)
    assert lines[1].size == 11.0 and not lines[1].bold
    assert pdf.Line("Notes", 15.0, True) in lines


def test_text_per_page_and_hash(outline_pdf):
    content = pdf.read_pdf(outline_pdf, "h.pdf")
    assert content.sha256 == pdf.content_hash(outline_pdf) and len(content.sha256) == 64
    assert [p.number for p in content.pages] == list(range(1, 8))
    assert content.pages[2].text.startswith("Membership\nMembership costs 45 euros a year.")
    assert content.title == "Riverside Orchard Cooperative Handbook"


def test_progress_callback_counts_pages(flat_pdf):
    seen = []
    pdf.read_pdf(flat_pdf, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 5) for i in range(1, 6)]


def test_control_characters_are_removed(make_pdf):
    data = make_pdf([["Revenue\x07 rose\x1b[31m sharply"]])
    text = pdf.read_pdf(data).pages[0].text
    assert "\x07" not in text and "\x1b" not in text and "Revenue" in text and "sharply" in text


def test_page_html_is_pymupdfs_html_cleaned(make_pdf):
    """_page_html reads MuPDF's HTML output as bytes where that gives the same text: the text of
    TextPage.extractHTML (which reads backslash escapes such as '\\u0041'), cleaned, on pages of plain
    ASCII, control characters, backslashes and characters outside ASCII."""
    data = make_pdf([["Plain ASCII prose about revenue."], ["Revenue\x07 rose\x1b[31m sharply\x7f."],
                     ["A path C:\\u0041 and C:\\new\\table, escaped \\U0001F600."], ["Café £3 – “quoted” ‘x’."]])
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        for page in doc:
            expected = pdf.document._clean(page.get_textpage(flags=pdf.document._TEXT_FLAGS).extractHTML())
            assert pdf.document._page_html(page) == expected
    finally:
        doc.close()


def test_html_and_script_stay_plain_text():
    text = pdf.read_pdf(pdf_factory.html_js_pdf()).pages[0].text
    assert "<script>alert('owned')</script>" in text  # verbatim characters, not interpreted or stripped
    assert "&lt;not markup&gt;" in text


def test_pages_without_text_layer():
    content = pdf.read_pdf(pdf_factory.image_only_pdf(3), "scan.pdf")
    assert content.page_count == 3 and all(p.text == "" and p.lines == [] for p in content.pages)


def test_page_count(sample_pdf):
    assert pdf.page_count(sample_pdf) == 9


# --- rendering and snippets -----------------------------------------------------------------------
def test_render_page_png(sample_pdf):
    png = pdf.render_page_png(sample_pdf, 4, zoom=1.0)
    assert png_size(png) == (595, 842)
    bigger = pdf.render_page_png(sample_pdf, 4, zoom=2.0)
    assert png_size(bigger) == (1190, 1684)


def _yellow_pixels(png: bytes) -> int:
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for r, g, b in img.getdata() if r > 200 and g > 170 and b < 120)


def test_several_passages_of_a_page_are_highlighted_together(sample_pdf):
    first, second = "Total revenue in 2025 was EUR 412.6 million", "Gross margin improved to 44.8 percent"
    one = _yellow_pixels(pdf.render_page_png(sample_pdf, 4, zoom=1.0, highlight=first))
    other = _yellow_pixels(pdf.render_page_png(sample_pdf, 4, zoom=1.0, highlight=[second]))
    both = _yellow_pixels(pdf.render_page_png(sample_pdf, 4, zoom=1.0, highlight=(first, second)))
    assert one > 0 and other > 0 and both >= one + other - 50


def test_render_highlight_changes_the_image(sample_pdf):
    plain = pdf.render_page_png(sample_pdf, 4, zoom=1.0)
    marked = pdf.render_page_png(sample_pdf, 4, zoom=1.0, highlight="Total revenue in 2025 was EUR 412.6 million")
    assert png_size(marked) == png_size(plain) and marked != plain
    missing = pdf.render_page_png(sample_pdf, 4, zoom=1.0, highlight="words that are not on the page at all")
    assert missing == plain


def test_render_absurd_dimensions_stays_bounded():
    data = pdf_factory.huge_page_pdf()
    png = pdf.render_page_png(data, 1, zoom=3.0, highlight="lighthouse maintenance")
    w, h = png_size(png)
    assert w * h <= pdf.MAX_RENDER_PIXELS * 1.01 and w > 1000


def test_render_missing_page(sample_pdf):
    with pytest.raises(errors.NotFoundError) as ei:
        pdf.render_page_png(sample_pdf, 10)
    one_line(ei.value, "Page 10", "9 pages")


def test_snippet_rects(sample_pdf):
    rects = pdf.snippet_rects(sample_pdf, 4, "Total revenue in 2025 was EUR 412.6 million")
    assert len(rects) >= 1
    for x0, y0, x1, y1 in rects:
        assert 0 <= x0 < x1 <= 595 and 0 <= y0 < y1 <= 842
    assert pdf.snippet_rects(sample_pdf, 4, "a sentence that appears nowhere in it") == []
    assert pdf.snippet_rects(sample_pdf, 99, "Total revenue") == []
    assert pdf.snippet_rects(sample_pdf, 4, "   ") == []


def test_snippet_spanning_lines_is_found_piecewise(make_pdf):
    long = ("The committee approved the new irrigation schedule for the northern orchards after a long "
            "debate about water rights and the cost of pumping during the driest summer months.")
    data = make_pdf([[TextBlock(long, 11)]])
    normalised = " ".join(long.split()) + " …"
    rects = pdf.snippet_rects(data, 1, normalised)
    assert len(rects) >= 2  # the sentence wraps over lines; its pieces are found on each


def test_write_and_encrypt_round_trip(make_pdf):
    data = make_pdf([["Hello"]], title="T")
    assert pdf.read_pdf(data).title == "T"
    locked = pdf.encrypt_pdf(data)
    with pytest.raises(errors.EncryptedPDFError):
        pdf.read_pdf(locked)


def test_threads_reading_and_rendering_at_once_get_the_same_results(outline_pdf, sample_pdf):
    """Warnings of a damaged page are never attributed to another thread's document."""
    import threading

    docs = [pdf_factory.corrupt_page_pdf(), outline_pdf, pdf_factory.headings_pdf()]
    expected = [(tuple(p.text for p in c.pages), tuple(c.warnings), tuple(c.toc)) for c in map(pdf.read_pdf, docs)]
    png = pdf.render_page_png(sample_pdf, 4, highlight="Total revenue")
    problems: list[str] = []

    def work(k: int) -> None:
        for i in range(12):
            j = (k + i) % len(docs)
            c = pdf.read_pdf(docs[j])
            if (tuple(p.text for p in c.pages), tuple(c.warnings), tuple(c.toc)) != expected[j]:
                problems.append(f"thread {k}: document {j} read differently")
            if pdf.render_page_png(sample_pdf, 4, highlight="Total revenue") != png:
                problems.append(f"thread {k}: render differs")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []


def test_characters_outside_ascii_read_back(make_pdf):
    """MuPDF's HTML output writes every non-ASCII character as an entity ("&#x2019;") and
    every "&" as "&amp;"; the lines hold the characters themselves."""
    text = pdf.read_pdf(make_pdf([["Café prices: 20 °C ± 2, £3 © AT&T <b>"]])).pages[0].text
    assert text == "Café prices: 20 °C ± 2, £3 © AT&T <b>"


def test_entities_read_as_clean_text():
    """A span's entities read as html.unescape reads them, cleaned as the page around them is: a
    control character (form feed, carriage return) is dropped, an invalid one is U+FFFD."""
    read = lambda s: pdf.document._ENTITY.sub(pdf.document._unescape, s)  # noqa: E731
    assert read("a&#xc;b&#xd;c&#x9;d") == "abc\td"
    assert read("&#x2019;&#x93;&#xd800;&#x0;&amp;&lt;&#x1;") == "\u2019\u201c\ufffd\ufffd&<"


def test_no_break_spaces_read_like_every_other_entity():
    """_entities replaces '&#xa0;' in C and reads the rest one entity at a time: the same text as
    reading every entity alike, even where an escaped '&' is followed by what looks like one."""
    for span in ["&#xa0;&#xa0;&#xa0;", "a&#xa0;b&#x2019;c&#xa0;", "&amp;#xa0;&#xa0;", "x&#xa0", "&#xa0;&lt;&#xc;"]:
        assert pdf.document._entities(span) == pdf.document._ENTITY.sub(pdf.document._unescape, span), span
    assert pdf.document._entities("Net&#xa0;sales&amp;#xa0;") == "Net\xa0sales&#xa0;"


def test_page_images_are_those_pymupdf_lists_also_inside_forms():
    """_page_images reads (xref, pixels) of the images pymupdf's get_images lists, in its order:
    images drawn on the page and images inside a Form XObject the page draws (show_pdf_page)."""
    data = pdf_factory.picture_pdf([["One"], ["Two"]], [([1], 300, 200), ([1, 2], 160, 160)])
    src = pymupdf.open(stream=data, filetype="pdf")
    doc = pymupdf.open()
    page = doc.new_page()
    page.show_pdf_page(pymupdf.Rect(0, 0, 300, 400), src, 0)  # page 1 of the source as a form
    page.insert_image(pymupdf.Rect(300, 400, 400, 500), pixmap=pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False))
    doc.new_page()  # no resources at all
    for d in (src, doc):
        for p in d:
            expected = [(im[0], im[2] * im[3]) for im in p.get_images()]
            assert pdf.document._page_images(p) == expected
    assert sorted(pixels for _, pixels in pdf.document._page_images(doc[0])) == [1200, 160 * 160, 300 * 200]
    assert pdf.document._page_images(doc[1]) == []


@pytest.mark.parametrize("via", ["pattern", "softmask", "type3", "inherited"])
def test_streams_run_besides_forms_are_costed_and_small_ones_pass(via):
    """Patterns' cells, soft masks' groups, Type3 glyph procedures and forms drawing with their caller's
    resources can all draw forms: seven levels of ten are skipped, two levels are read."""
    content = pdf.read_pdf(pdf_factory.cell_fanout_pdf(via), f"{via}.pdf")
    assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.cell_fanout_pdf(via, levels=2), f"{via}-small.pdf")
    assert small.pages[0].text.startswith(f"A page drawing through a {via}.") and not small.warnings


@pytest.mark.parametrize("via", ["pattern", "softmask"])
def test_cells_run_by_the_fills_of_forms_that_inherit_them_are_costed(via):
    """A form draws with the colour and the soft mask it inherits, so each fill inside it runs the
    page's pattern cell or mask group again, though the form's own resources hold no cell: 1,000 fills
    through forms of the page's, each running a cell that draws 1,000 words, are skipped; 10 x 10 is read."""
    content = pdf.read_pdf(pdf_factory.cell_fanout_pdf(via, levels=4, painters=4), f"{via}.pdf")
    assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.cell_fanout_pdf(via, levels=2, painters=2), f"{via}-small.pdf")
    assert small.pages[0].text.startswith(f"A page drawing through a {via}.") and not small.warnings
    assert small.pages[0].text.count("leaf") == 100


@pytest.mark.parametrize("via, size, uses, small, small_uses", [
    ("shading", 10_000, 4, 100, 10), ("separation", 100_000, 10_000, 1000, 10_000), ("devicen", 28, 2, 8, 20)])
def test_functions_mupdf_evaluates_are_costed_and_small_ones_pass(via, size, uses, small, small_uses):
    """Function-based shadings are sampled when they load, a Separation or DeviceN colour space's tint
    transform runs for each text shown in a new colour: a costly function used often enough is skipped
    with the warning, smaller ones used as often (or more) are read."""
    content = pdf.read_pdf(pdf_factory.function_pdf(via, size, uses), f"{via}.pdf")
    assert content.pages[0].text == "" and any("functions beyond the limits" in w for w in content.warnings)
    read = pdf.read_pdf(pdf_factory.function_pdf(via, small, small_uses), f"{via}-small.pdf")
    assert read.pages[0].text.startswith(f"A page evaluating a function through a {via}.") and not read.warnings


@pytest.mark.parametrize("operands", [b" 0 ", b" %c\n", b" /Y ", b"()", b"<>", b" [1] ", b"\x00"])
def test_forms_drawn_with_other_operands_before_do_are_costed(operands):
    """MuPDF draws the first name among Do's operands, whatever follows it (numbers, strings, arrays,
    names, comments; NUL is white space): seven levels of ten drawn so are skipped, three are read."""
    content = pdf.read_pdf(pdf_factory.form_fanout_pdf(operands=operands), "operands.pdf")
    assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.form_fanout_pdf(levels=3, operands=operands), "operands-small.pdf")
    assert small.pages[0].text.count("leaf") == 100 and not small.warnings


def test_a_name_and_its_do_in_two_content_streams_are_costed():
    """A page's instructions in two streams, '... q /X' and '0 Do Q': MuPDF reads them as one with white
    space between, so it draws /X (the budget read '/X0')."""
    content = pdf.read_pdf(pdf_factory.form_fanout_pdf(operands=b"0 ", split=True), "split.pdf")
    assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.form_fanout_pdf(levels=3, operands=b"0 ", split=True), "split-small.pdf")
    assert small.pages[0].text.count("leaf") == 100 and not small.warnings


def test_an_annotation_listed_many_times_is_drawn_each_time():
    """MuPDF draws every entry of /Annots, the same annotation again for each: 1,000 entries of forms 3
    levels deep (a million words) and more than MAX_ANNOTATIONS entries of one word are skipped; 1,000
    entries of one word are read."""
    for data in (pdf_factory.annotation_fanout_pdf(levels=3, copies=1000),
                 pdf_factory.annotation_fanout_pdf(levels=1, copies=pdf.budget.MAX_ANNOTATIONS + 1)):
        content = pdf.read_pdf(data, "copies.pdf")
        assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.annotation_fanout_pdf(levels=1, copies=1000), "copies-small.pdf")
    assert small.pages[0].text.count("leaf") == 1000 and not small.warnings


def test_a_soft_masks_group_runs_the_pattern_it_inherits_for_each_of_its_fills():
    """The mask's group paints with the page's pattern colour: 1,000 fills in it, each running a cell of
    1,000 words, are skipped; 10 x 10 (and the page's own fill, 10 more) are read."""
    content = pdf.read_pdf(pdf_factory.masked_pattern_pdf(), "masked.pdf")
    assert content.pages[0].text == "" and any("nested forms" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.masked_pattern_pdf(levels=2, painters=2), "masked-small.pdf")
    assert small.pages[0].text.count("leaf") == 110 and not small.warnings


def test_pages_sharing_resources_list_their_images_once(monkeypatch):
    """Pages inheriting one resource dictionary written in place (here the page tree's root) list its
    images once per document, not once per page, and each page still gets the whole list."""
    calls = []
    scan = pdf.document._scan_images
    monkeypatch.setattr(pdf.document, "_scan_images", lambda res, found, tracer: (calls.append(1), scan(res, found, tracer))
                        if not tracer else scan(res, found, tracer))
    data = pdf_factory.shared_images_pdf(pages=50, images=30)
    content = pdf.read_pdf(data, "shared.pdf")
    assert len(calls) == 1 and all(p.text == "Pages sharing their resources." for p in content.pages)
    doc = pymupdf.open(stream=data, filetype="pdf")
    listed: dict = {}
    assert all(len(pdf.document._page_images(page, listed)) == 30 == len(page.get_images()) for page in doc)


@pytest.mark.parametrize("dictionary", [
    b"/W %d /H %d /BPC 8 /CS /RGB", b"/Width %d /Height %d /BitsPerComponent 8 /ColorSpace /DeviceRGB",
    b"/W %d.0 /H %d /BPC 1 /CS /G", b"/W %d /H %d /IM true /D [1 0]",
    b"/W %d /H %d /BPC 2 /CS [/I /RGB 1 <000000FFFFFF>]",
    b"/W %d %%c\n/H %d /CS /CMYK"])
def test_inline_images_are_costed_by_the_pixels_mupdf_decodes(dictionary):
    """MuPDF decodes an inline image (BI ... ID ... EI) into its pixels as it reads the page: ten declaring
    10,000 x 10,000 pixels of 1 KB of Flate data (1-4 bytes each once decoded, ~1-3 GB; 1.3 s and 450 MB
    before) skip the page at once with the warning, whichever way the dictionary is written; ten of
    500 x 500 (at most 10 MB) are read."""
    start = time.process_time()
    content = pdf.read_pdf(pdf_factory.inline_images_pdf(10, 10_000, dictionary), "inline.pdf")
    assert time.process_time() - start < 1.0
    assert content.pages[0].text == "" and any("inline images" in w for w in content.warnings)
    small = pdf.read_pdf(pdf_factory.inline_images_pdf(10, 500, dictionary), "inline-small.pdf")
    assert small.pages[0].text == "A page of inline images." and not small.warnings


def test_inline_images_in_forms_and_named_colour_spaces_are_costed():
    """An inline image inside a form counts each time the form is drawn, and a colour space named in the
    resources counts its components: 100 drawings of a form showing one 1,000 x 1,000 RGB image (300 MB),
    and one 3,000 x 3,000 image in a 16-colorant DeviceN space (144 MB; 36 MB were it 4), are skipped; 10
    drawings are read."""
    data = zlib.compress(bytes(1024))
    image = b"BI /W %d /H %d /CS /%s /F /Fl ID " + data + b" EI"
    form = b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Length %d >>\nstream\n%s\nendstream"
    text = b"BT /F1 12 Tf 72 760 Td (Images through a form.) Tj ET "

    def page(draws: int) -> bytes:
        body = image % (1000, 1000, b"RGB")
        return pdf_factory._one_page_pdf(pdf_factory._stream(zlib.compress(text + b"q /X Do Q " * draws)),
                                         [form % (len(body), body)], b"/XObject << /X 6 0 R >>")

    space = b"[/DeviceN [%s] /DeviceCMYK 6 0 R]" % b" ".join(b"/C%d" % i for i in range(16))
    devicen = pdf_factory._one_page_pdf(
        pdf_factory._stream(zlib.compress(text + image % (3000, 3000, b"Spot"))),
        [b"<< /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 0 0 1] /N 1 >>"],
        b"/ColorSpace << /Spot %s >>" % space)
    for blob in (page(100), devicen):
        content = pdf.read_pdf(blob, "forms.pdf")
        assert content.pages[0].text == "" and any("inline images" in w for w in content.warnings)
    assert pdf.read_pdf(page(10), "forms-small.pdf").pages[0].text.startswith("Images through a form.")


def test_pages_together_beyond_the_document_budget_are_refused_before_any_is_read(monkeypatch):
    """300 pages drawing one 3.5 MB content stream (60 KB on disk): each page is within its budget, but
    MuPDF would interpret ~900 MB (100 such pages took 18-38 s before). The document is refused with one
    sentence before any page is read; a smaller document passes, and the limit is a module constant."""
    start = time.process_time()
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.read_pdf(pdf_factory.shared_content_pdf(300, 4), "shared.pdf")
    assert time.process_time() - start < 2.0
    one_line(ei.value, "shared.pdf", "more than 768 MB", "it was refused")
    data = pdf_factory.shared_content_pdf(3, 1)
    assert len(pdf.read_pdf(data, "three.pdf").pages) == 3
    monkeypatch.setattr(pdf.budget, "MAX_DOCUMENT_CONTENT_MB", 1)
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.read_pdf(data, "three.pdf")
    one_line(ei.value, "three.pdf", "more than 1 MB", "page 2 reached the limit")


def test_an_inline_jpeg_counts_the_size_its_own_header_declares():
    """A progressive JPEG is decoded whole before its first line, whatever size the image's dictionary
    declares: ten inline images declared 10 x 10, each a progressive JPEG of 8,000 x 8,000 grey pixels
    (0.2 MB of content each; 16,000 x 16,000 took 3 s and 400 MB), skip the page at once; ten of 1,000 x
    1,000 are read."""
    import io

    from PIL import Image

    def page(side: int) -> bytes:
        out = io.BytesIO()
        Image.new("L", (side, side), 128).save(out, "JPEG", progressive=True, quality=50)
        return pdf_factory.inline_images_pdf(10, 10, b"/W 10 /H 10 /CS /G", data=out.getvalue(), filters=b"/DCT")

    data = page(8000)
    start = time.process_time()
    content = pdf.read_pdf(data, "jpeg.pdf")
    assert time.process_time() - start < 1.0
    assert content.pages[0].text == "" and any("inline images" in w for w in content.warnings)
    small = pdf.read_pdf(page(1000), "jpeg-small.pdf")
    assert small.pages[0].text == "A page of inline images." and not small.warnings


def test_pages_the_budget_skips_count_what_it_read_of_them(monkeypatch):
    """The budget reads every page's instructions, a skipped page's too: 20 pages drawing one 3.5 MB stream
    whose lines draw forms 7 levels deep are each skipped, and the budget read the stream 20 times (0.1-0.4 s
    each: 200 such pages, 50 KB on disk, took 19 s; 5,000 would outlast the worker's 120 s). What it reads
    counts against the document's limit (8 MB here), so the file is refused at the third page instead."""
    data = pdf_factory.shared_content_pdf(20, 4, forms=7)
    content = pdf.read_pdf(data, "skipped.pdf")
    assert all(p.text == "" for p in content.pages) and any("nested forms" in w for w in content.warnings)
    monkeypatch.setattr(pdf.budget, "MAX_DOCUMENT_CONTENT_MB", 8)
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.read_pdf(data, "skipped.pdf")
    one_line(ei.value, "skipped.pdf", "more than 8 MB", "page 3 reached the limit")


def test_pages_are_rendered_within_the_page_budget(monkeypatch):
    """The app renders and searches stored pages outside the worker: a page the page budget skips (forms 7
    levels deep, a million words: ~5 s to draw) is not drawn, nor a page whose images exceed
    MAX_RENDER_MEGAPIXELS (ten images of 15,000 x 15,000 took 8 s); each raises TooComplexError at once,
    which the preview shows as one sentence. A page within the budgets renders as before."""
    start = time.process_time()
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.render_page_png(pdf_factory.form_fanout_pdf(), 1)
    one_line(ei.value, "Page 1 draws more than", "it is not shown")
    assert pdf.snippet_rects(pdf_factory.form_fanout_pdf(levels=2), 1, "leaf")
    with pytest.raises(errors.TooComplexError):
        pdf.snippet_rects(pdf_factory.form_fanout_pdf(), 1, "leaf")
    monkeypatch.setattr(pdf.render, "MAX_RENDER_MEGAPIXELS", 100)
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.render_page_png(pdf_factory.image_bomb_pdf(side=11_000), 1)
    one_line(ei.value, "121 megapixels", "100 megapixel limit", "it is not shown")
    assert time.process_time() - start < 2.0
    assert pdf.render_page_png(pdf_factory.form_fanout_pdf(levels=2), 1).startswith(b"\x89PNG")



@pytest.mark.parametrize("via", ["pattern", "annotation", "softmask", "type3"])
def test_images_drawn_besides_the_pages_forms_count_for_rendering(via, monkeypatch):
    """Rendering decodes the images of every content stream it runs: a tiling pattern's cell, an annotation's
    appearance, a soft mask's group, a Type3 glyph procedure. Ten images of 15,000 x 15,000 drawn through any of
    them took ~5 s to preview (2.2 MB on disk): their pixels count towards MAX_RENDER_MEGAPIXELS like those
    of the page's own forms. The same page with a small image renders, and the text is read as before."""
    monkeypatch.setattr(pdf.render, "MAX_RENDER_MEGAPIXELS", 100)
    data = pdf_factory.images_via_pdf(via, images=2, side=8_000)
    start = time.process_time()
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.render_page_png(data, 1)
    one_line(ei.value, "Page 1 holds images of 128 megapixels", "100 megapixel limit", "it is not shown")
    assert time.process_time() - start < 1.0
    assert pdf.snippet_rects(data, 1, "drawing images")
    assert pdf.read_pdf(data).pages[0].text.startswith("A page drawing images through a")
    assert pdf.render_page_png(pdf_factory.images_via_pdf(via, images=1, side=1_000), 1).startswith(PNG_MAGIC)


def test_the_page_budget_bounds_its_own_reading():
    """The app judges a stored page before each preview, outside the worker. A page whose one "Do" names 40
    forms of 4 MB each (0.3 MB on disk; MuPDF draws the first, the budget judges every one) took ~10 s to judge
    (400 such forms: 105 s): beyond budget.MAX_READ_MB decoded the page is skipped. A page listing one 4 MB
    stream 100 times held 400 MB to judge; its instructions are now read no further than the 4 MB kept. Two such
    forms of 1 MB are read as before."""
    import tracemalloc

    start = time.process_time()
    with pytest.raises(errors.TooComplexError) as ei:
        pdf.render_page_png(pdf_factory.named_forms_pdf(40, 4), 1)
    one_line(ei.value, "Page 1 draws more than", "it is not shown")
    assert time.process_time() - start < 4.0
    assert pdf.read_pdf(pdf_factory.named_forms_pdf(2, 1)).pages[0].text == "A page naming many forms."
    data = pdf_factory.repeated_contents_pdf(100, 4000)
    doc = pdf.open_pdf(data)
    try:
        pages_budget = pdf.budget._PageBudget(doc, pdf.streams.check_streams(doc))
        tracemalloc.start()
        assert pages_budget.check(0) == "cut"
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        doc.close()
    assert peak < 40 * 2**20, peak / 2**20
    assert pdf.render_page_png(data, 1).startswith(PNG_MAGIC)

def test_an_inline_jbig2_image_counts_the_page_its_data_declares():
    """A JBIG2 decoder allocates the page its page information segment declares, whatever the image's
    dictionary says: an inline image declared 10 x 10 whose data declares a 60,000 x 60,000 page (703 bytes
    on disk; 430 MB before) skips the page at once; a page of 1,000 x 1,000 is read."""
    import struct

    def page(side: int) -> bytes:
        info = struct.pack(">IBBBI", 0, 48, 0, 1, 19) + struct.pack(">IIIIBH", side, side, 0, 0, 0, 0)
        data = info + struct.pack(">IBBBI", 1, 49, 0, 1, 0)  # page information, end of page
        return pdf_factory.inline_images_pdf(10, 10, b"/W 10 /H 10 /IM true", data=data, filters=b"/JBIG2Decode")

    content = pdf.read_pdf(page(60_000), "jbig2.pdf")
    assert content.pages[0].text == "" and any("inline images" in w for w in content.warnings)
    small = pdf.read_pdf(page(1000), "jbig2-small.pdf")
    assert small.pages[0].text == "A page of inline images." and not any("inline images" in w for w in small.warnings)


def test_a_font_whose_ligatures_print_as_icelandic_letters_is_read_as_english(make_pdf):
    """Costco's earnings releases print "fi" as "ð" and "fl" as "Ý" ("the ðrst quarter of ðscal 2023", "inÝation"):
    such a page is read with its ligatures mended, so "first quarter" and "fiscal 2023" are found; an Icelandic page
    keeps its letters."""
    broken = pdf.read_pdf(make_pdf(["Costco reported its ðrst quarter of ðscal 2023 and inÝation eased.",
                                    "Net income for the ðscal year was $6.3 billion."]), "release.pdf")
    assert broken.pages[0].text.startswith("Costco reported its first quarter of fiscal 2023 and inflation eased.")
    assert "fiscal year" in broken.pages[1].text
    icelandic = pdf.read_pdf(make_pdf(["Við fórum á ðann fund með þeim í gær."]), "saga.pdf")
    assert "ðann" in icelandic.pages[0].text and "fiann" not in icelandic.pages[0].text
