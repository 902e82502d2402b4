"""A page drawn as a PNG, the question's passages highlighted, and where a passage sits on its page. A page is
judged by the page budget before MuPDF draws it; one holding more images than ``MAX_RENDER_MEGAPIXELS`` (counting
those drawn through patterns, soft masks, Type3 fonts and annotations) is refused, an absurdly large one scaled down.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
import pymupdf  # noqa: E402
from .. import errors  # noqa: E402
from . import budget, ocr, streams  # noqa: E402  (read at call time: tests lower their limits)
from .document import content_hash, open_pdf
MAX_RENDER_PIXELS = 4_000_000  # a page of absurd dimensions is rendered scaled down
MAX_RENDER_MEGAPIXELS = 400  # images a page to render holds (MuPDF decodes each at its own size: ~0.6 s per 225)


def snippet_rects(data: bytes, page: int, snippet: str) -> list[tuple[float, float, float, float]]:
    """Rectangles (PDF points) where ``snippet`` appears on 1-based ``page``.

    Searches the whole snippet first, then its sentences/short pieces, so a
    snippet that spans lines or was normalised still highlights something.
    """
    doc = open_pdf(data, max_pages=10**9)
    try:
        if not 1 <= page <= doc.page_count:
            return []
        pg = _bounded_page(doc, data, page)
        return [tuple(r) for r in _find(pg, snippet)]
    finally:
        doc.close()


def _find(pg: pymupdf.Page, snippet: str) -> list[pymupdf.Rect]:
    snippet = " ".join(snippet.split()).strip(" .…")
    if not snippet:
        return []
    hits = pg.search_for(snippet[:200])
    if hits:
        return hits
    words = snippet.split()
    found: list[pymupdf.Rect] = []
    for start in range(0, len(words), 6):
        piece = " ".join(words[start:start + 6])
        if len(piece) >= 12:
            found.extend(pg.search_for(piece))
    return found


def _found_by_ocr(pg: pymupdf.Page, passages: Sequence[str]) -> list[pymupdf.Rect]:
    """Where the passages sit on a scanned page (no text layer), by OCR of the page as indexing read it; none
    when OCR fails (the page is then shown without its highlight)."""
    try:
        if len(pg.get_text().strip()) >= ocr.MIN_TEXT_CHARS or not ocr.available():
            return []
        made = ocr.page_words(pg)
    except Exception:
        return []
    if made is None:
        return []
    try:
        # OCR read the page as it is shown (rotated); a highlight is placed in the page's own coordinates
        scale = pg.rect.width / max(made[0].rect.width, 1e-6)  # 1: OCR's page has the page's size
        return [r * scale * pg.derotation_matrix
                for passage in passages if passage for r in _find(made[0], passage)]
    except Exception:
        return []
    finally:
        made.close()


def _bounded_page(doc: pymupdf.Document, data: bytes, page: int) -> pymupdf.Page:
    """1-based ``page`` of ``doc`` (opened from ``data``) once the page budget has passed it (cut to its
    limit if need be): the app renders and searches stored pages outside the worker, so a page skipped
    when the text was read (forms drawing forms...) raises TooComplexError instead of running unbounded."""
    pages_budget = budget._PageBudget(doc, streams._checked_streams(doc, content_hash(data), "document.pdf"))
    if pages_budget.check(page - 1) in ("skipped", "over"):
        raise errors.TooComplexError(f"Page {page} draws more than the PDF reader may interpret "
                                     f"({budget.MAX_PAGE_CONTENT_MB} MB); it is not shown.")
    return doc[page - 1]


def render_page_png(data: bytes, page: int, *, zoom: float = 1.5, highlight: str | Sequence[str] = "") -> bytes:
    """PNG of 1-based ``page``; ``highlight`` text (one passage or several) is marked in translucent yellow."""
    doc = open_pdf(data, max_pages=10**9)
    try:
        if not 1 <= page <= doc.page_count:
            raise errors.NotFoundError(f"Page {page} does not exist; the document has {doc.page_count} pages.")
        pg = _bounded_page(doc, data, page)
        pixels = budget.image_pixels(doc, page - 1)  # through its forms, patterns, soft masks, fonts, annotations
        if pixels > MAX_RENDER_MEGAPIXELS * 10**6:
            held = f"{pixels / 10**6:,.0f}" if pixels < math.inf else "more than"
            raise errors.TooComplexError(f"Page {page} holds images of {held} megapixels, beyond the "
                                         f"{MAX_RENDER_MEGAPIXELS} megapixel limit for showing a page; it is not shown.")
        rect = pg.rect
        area = max(rect.width * rect.height, 1.0)
        zoom = min(zoom, math.sqrt(MAX_RENDER_PIXELS / area))
        pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        passages = [highlight] if isinstance(highlight, str) else list(highlight)
        if any(passages):
            rects = [r for passage in passages if passage for r in _find(pg, passage)] or _found_by_ocr(pg, passages)
            if rects:
                # Paint the highlight on the pixmap so the PDF itself is untouched.
                shape_doc = pymupdf.open()
                shape_doc.insert_pdf(doc, from_page=page - 1, to_page=page - 1)
                p2 = shape_doc[0]
                for r in rects:
                    annot = p2.add_highlight_annot(r)
                    annot.set_colors(stroke=(1, 0.85, 0))
                    annot.update()
                pix = p2.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
                shape_doc.close()
        return pix.tobytes("png")
    finally:
        doc.close()
