"""Text for pages that have none, and for pictures that hold text the page's text layer does not: MuPDF's own
OCR through Tesseract (``Pixmap.pdfocr_tobytes``), offline.

A page is read by OCR when its text layer holds fewer than ``MIN_TEXT_CHARS`` characters (a scan), and the
pictures of a page that has text are read when they are large (``MIN_PICTURE_SHARE`` of the page: a slide
pasted as an image, a scanned table, a chart's labels); the words OCR finds there that the text layer already
holds are dropped. Pages are drawn at ``DPI`` (fewer dots when the page is huge: ``MAX_PIXELS``) into
a Tesseract-made one-page PDF whose text MuPDF reads like any other; a dense image-only page takes several
seconds (5.6-7.2 s per page on the scan benchmark's 10 documents, a 2-core machine under load: RESULTS.md).
Tesseract is found once per process (:func:`available`); without it nothing here runs and the caller says so.
"""
from __future__ import annotations

import math
import os
import shutil
from collections import Counter
from functools import lru_cache

import pymupdf

DPI = 200  # dots per inch a page is drawn at for Tesseract (200 reads a 150-dpi scan's codes and small print
# better than 150 did: "TX16", not "TXIG"; about 10% slower)
MAX_PIXELS = 12_000_000  # a page drawn for OCR holds at most this many pixels (a poster-sized page gets fewer dpi)
MIN_TEXT_CHARS = 20  # a page with fewer characters of text than this is read whole by OCR
MIN_PICTURE_SHARE = 0.2  # a picture covering this share of a page with text is read by OCR
MIN_PICTURE_PIXELS = 200 * 200  # smaller pictures hold no text worth reading (icons, logos, bullets)
STAGE = "reading scanned pages (OCR)"  # the progress stage while OCR reads a file's pages
SIZE_TOLERANCE = 0.2  # an OCR line sized within this share of the page's body size is body text
MISSING = ("Scanned pages were skipped: Tesseract OCR is not installed "
           "(on Debian or Ubuntu: sudo apt-get install tesseract-ocr).")


@lru_cache(maxsize=1)
def tessdata() -> str | None:
    """Tesseract's language data folder, or None when Tesseract or its English data is not installed."""
    if not shutil.which("tesseract") and not os.environ.get("TESSDATA_PREFIX"):
        return None
    try:
        folder = pymupdf.get_tessdata()
    except Exception:
        return None
    return folder if folder and os.path.isfile(os.path.join(folder, "eng.traineddata")) else None


def available() -> bool:
    return tessdata() is not None


def page_words(page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> pymupdf.Document | None:
    """A one-page PDF holding the OCR text of ``page`` (or of ``clip`` on it), in the page's own font
    sizes, or None when Tesseract is missing. The caller reads its page like any other, then closes it."""
    folder = tessdata()
    if folder is None:
        return None
    area = clip if clip is not None else page.rect
    dpi = min(DPI, 72 * math.sqrt(MAX_PIXELS / max(area.width * area.height, 1.0)))
    pix = page.get_pixmap(dpi=max(int(dpi), 30), clip=area, alpha=False)  # RGB: MuPDF OCRs no gray pixmap
    return pymupdf.open(stream=pix.pdfocr_tobytes(compress=True, language="eng", tessdata=folder))


def picture_clips(page: pymupdf.Page, xrefs: list[int]) -> list[pymupdf.Rect]:
    """Where the page draws its large pictures (``xrefs``), merged where they overlap."""
    page_area = max(page.rect.width * page.rect.height, 1.0)
    boxes: list[pymupdf.Rect] = []
    for xref in xrefs:
        try:
            rects = page.get_image_rects(xref)
        except Exception:
            continue
        for r in rects:
            r = r & page.rect
            if not r.is_empty and r.width * r.height >= MIN_PICTURE_SHARE * page_area:
                boxes.append(pymupdf.Rect(r))
    merged: list[pymupdf.Rect] = []
    for b in sorted(boxes, key=lambda r: (r.y0, r.x0)):
        for m in merged:
            if m.intersects(b):
                m |= b
                break
        else:
            merged.append(b)
    return merged


def line_sizes(blocks: list[dict]) -> list[tuple[str, float]]:
    """(text, size) of each line of OCR's text ("dict" blocks). Tesseract sizes each word on its own, a
    word of body text anywhere from 10 to 14 pt: a line's size is its words' median, and a size within
    ``SIZE_TOLERANCE`` of the page's most common one is that one, so body lines read as one size and only
    clearly larger lines (titles) stand out."""
    lines: list[tuple[str, list[float]]] = []
    for block in blocks:
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            text = " ".join(" ".join(s["text"] for s in line["spans"]).split())
            if spans and text:
                lines.append((text, sorted(s["size"] for s in spans)))
    if not lines:
        return []
    sizes = [(text, sizes[len(sizes) // 2]) for text, sizes in lines]
    body = Counter(round(size) for _, size in sizes).most_common(1)[0][0]
    return [(text, float(body if abs(size - body) <= SIZE_TOLERANCE * body else round(size)))
            for text, size in sizes]


def printed_text(ocr_text: str) -> bool:
    """Whether a line OCR read on a scanned page is text, not a drawing read as letters (a circle as "OO",
    a rule as "|"): a word of three letters or digits, or a number."""
    words = [w for w in map(_bare, ocr_text.split()) if w]
    return any(len(w) >= 3 or w.isdigit() for w in words)


def new_words(ocr_text: str, page_text: str) -> bool:
    """Whether an OCR line read in a picture is text, not a photo's texture read as letters ("ee A | i":
    most of its characters letters or digits, one word of three), and brings words the page's text does
    not hold (at least half of its words new; words compared by their letters and digits)."""
    words = [w for w in map(_bare, ocr_text.split()) if w]
    printed = "".join(ocr_text.split())
    if not words or sum(c.isalnum() for c in printed) < 0.7 * len(printed) or not any(len(w) >= 3 for w in words):
        return False
    held = set(map(_bare, page_text.split()))
    fresh = sum(w not in held for w in words)
    return fresh * 2 >= len(words)


def _bare(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalnum())
