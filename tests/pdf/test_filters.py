"""Every filter MuPDF decodes is counted before MuPDF interprets a stream (issue 31).

For each filter: a page stream of a few hundred bytes to a few hundred KB decoding to 300 MB behind it is
refused, in a time measured against reading an ordinary 1-page PDF; a small stream behind it is counted at
exactly the bytes MuPDF decodes. Before, ``_decode_chain`` returned None for Brotli and Crypt (the stream was
not counted) and stopped at an image codec (CCITT, DCT, JBIG2 counted as their raw bytes), while MuPDF
decoded all five.
"""
from __future__ import annotations

import time

import pymupdf
import pytest

import pdf_factory
from alphasearch import errors, pdf
from filter_bombs import FILTERS, filter_bomb_pdf, jpx_image_bomb_pdf

# JPX is no stream filter in MuPDF: a content stream behind it is handed on as it is (bounded by its bytes)
BOMBS = [f for f in FILTERS if f != "JPXDecode"]


def _mupdf_decodes(data: bytes, xref: int = 5) -> int:
    """Bytes MuPDF decodes stream ``xref`` of ``data`` to, whole."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        return len(doc.xref_stream(xref) or b"")
    finally:
        doc.close()


@pytest.fixture(scope="module")
def baseline() -> float:
    """Seconds to read an ordinary 1-page PDF, on this machine now."""
    data = pdf_factory.make_pdf([["An ordinary page about revenue and costs."]])
    pdf.read_pdf(data, "warm.pdf")
    start = time.perf_counter()
    pdf.read_pdf(data, "one-page.pdf")
    return time.perf_counter() - start


@pytest.mark.parametrize("name", BOMBS)
def test_a_bomb_behind_each_filter_is_refused(name, baseline):
    data = filter_bomb_pdf(name, 300)
    assert len(data) < 700_000
    start = time.perf_counter()
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(data, f"{name}.pdf")
    took = time.perf_counter() - start
    assert "decompression bomb" in str(ei.value) and str(ei.value).count(".") <= 2
    print(f"{name}: {len(data):,} bytes refused in {took:.2f} s (1-page baseline {baseline:.3f} s)")
    assert took < 30  # counting stops past the 256 MB stream limit: ~0.5-3 s here


@pytest.mark.parametrize("name", FILTERS)
def test_each_filter_is_counted_at_what_mupdf_decodes(name):
    data = filter_bomb_pdf(name, 2)
    doc = pdf.open_pdf(data)
    try:
        counted = pdf.streams.check_streams(doc).size(doc, 5)
    finally:
        doc.close()
    decoded = _mupdf_decodes(data)
    assert counted == decoded
    if name != "JPXDecode":
        assert decoded >= 2 * 2**20
    assert pdf.read_pdf(data, f"{name}.pdf").page_count == 1  # under the limits: read


def test_an_image_is_judged_by_the_size_its_codec_data_declares():
    """MuPDF decodes a JPEG 2000 image at the size its codestream declares, whatever its dictionary says
    (10 x 10 here): 30,000 x 30,000 in 700 bytes is refused; 10,000 x 10,000 passes."""
    doc = pymupdf.open(stream=jpx_image_bomb_pdf(30_000), filetype="pdf")
    try:
        info = doc.extract_image(6)
        assert (info["width"], info["height"]) == (30_000, 30_000)
    finally:
        doc.close()
    with pytest.raises(errors.DecompressionBombError) as ei:
        pdf.read_pdf(jpx_image_bomb_pdf(30_000), "poster.pdf")
    assert "900 megapixels" in str(ei.value) and "400 megapixel limit" in str(ei.value)
    assert pdf.read_pdf(jpx_image_bomb_pdf(10_000), "poster.pdf").pages[0].text == "A JPEG 2000 poster"
