"""Untrusted files in: the only package that imports pymupdf.

Validation raises the specific errors of :mod:`alphasearch.errors`, each with a one-line message; page numbers
are 1-based everywhere in this package's API. :mod:`.document` opens and validates a PDF and reads its pages
(text lines with size and weight, outline, pictures, layout); :mod:`.render` draws a page with passages
highlighted; :mod:`.write` writes PDFs. Before MuPDF interprets a page, :mod:`.streams` bounds what the file's
streams decode to and :mod:`.budget` what the page would make MuPDF interpret; limits are read at call time
from the module that defines them. Hands :class:`PdfContent` (pages of text and lines) to the index stage.
"""
from __future__ import annotations

from . import budget, document, ocr, render, streams, write
from .document import (
    MAX_OUTLINE_DEPTH, MAX_OUTLINE_ENTRIES, MAX_PAGE_CHARS, Line, PageContent, PdfContent, check_header,
    check_outline_depth, check_size, content_hash, load_bytes, open_pdf, page_count, page_layout, read_pdf,
)
from .render import MAX_RENDER_MEGAPIXELS, MAX_RENDER_PIXELS, render_page_png, snippet_rects
from .write import TextBlock, encrypt_pdf, write_pdf

__all__ = ["budget", "document", "ocr", "render", "streams", "write", "MAX_OUTLINE_DEPTH", "MAX_OUTLINE_ENTRIES",
           "MAX_PAGE_CHARS", "Line", "PageContent", "PdfContent", "check_header", "check_outline_depth", "check_size",
           "content_hash", "load_bytes", "open_pdf", "page_count", "page_layout", "read_pdf", "MAX_RENDER_MEGAPIXELS",
           "MAX_RENDER_PIXELS", "render_page_png", "snippet_rects", "TextBlock", "encrypt_pdf", "write_pdf"]
