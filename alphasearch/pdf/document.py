"""PDF input and output: the only package that imports pymupdf.

Validation raises the specific errors of :mod:`alphasearch.errors`, each with a
one-line message. Page numbers are 1-based everywhere in this package's API. Before MuPDF
interprets a page, :mod:`.streams` bounds what the file's streams decode to and :mod:`.budget`
what the page would make MuPDF interpret; their limits are read at call time.
"""
from __future__ import annotations

import hashlib
import html
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

import sys

# PyMuPDF 2.0 imports its optional layout analyser (onnxruntime: ~0.6 s CPU and ~55 MB per
# process) and pymupdf4llm (~0.2 s) whenever they are installed. AlphaSearch never calls
# Page.get_layout or to_markdown, so both imports are skipped (pymupdf treats them as absent).
for _optional in ("pymupdf.layout", "pymupdf4llm"):
    sys.modules.setdefault(_optional, None)  # type: ignore[arg-type]
import pymupdf  # noqa: E402

from .. import errors  # noqa: E402
# their limits are read at call time: tests lower them
from . import budget, convert, grid, ocr as ocr_reader, streams  # noqa: E402

pymupdf.no_recommend_layout()
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

Source = "Path | str | bytes"
MAX_OUTLINE_ENTRIES = 10_000  # bookmarks read from an outline; the rest are ignored with a warning
MAX_OUTLINE_DEPTH = 32  # deeper bookmarks are ignored (real outlines rarely exceed 6 levels)
# MuPDF loads outlines recursively inside pymupdf.open: ~50,000 levels overflow an 8 MB thread stack
# and kill the process. Workers parse with a large stack (isolation.py) and refuse deeper files, so the
# server, which opens stored PDFs to render pages, never meets one.
MAX_SAFE_OUTLINE_DEPTH = 10_000
MAX_PAGE_CHARS = 200_000  # text kept per page; a page holding more is cut with a warning
# the limits on streams (decompression bombs) and on what a page makes MuPDF interpret: streams.py, budget.py
_PAGE_LOCK = threading.Lock()  # MuPDF's warning buffer is process-wide: read a page and its warnings together
_CONTROL = {c: None for c in range(32) if c not in (9, 10)} | {0x7F: None}
_CONTROL_BYTES = bytes(_CONTROL)  # the same characters as bytes
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP


class Line(NamedTuple):
    """One text line: its text, largest font size (pt) and whether it is bold (a tuple: a
    document makes ~100,000 of them, and a frozen dataclass took 3.5x as long to make)."""

    text: str
    size: float
    bold: bool


_new_line = partial(tuple.__new__, Line)  # Line((text, size, bold)) made in C: ~500,000 lines over the 74 eval PDFs
_TEXT_OF = itemgetter(0)  # a Line's text


@dataclass
class PageContent:
    number: int  # 1-based
    text: str
    lines: list[Line] = field(default_factory=list)
    pictures: int = 0  # the pictures of its own the page holds (:func:`_pictures`)
    ocr: bool = False  # some of its text was read by OCR (a scanned page, or a picture's text)


@dataclass
class PdfContent:
    sha256: str
    page_count: int
    pages: list[PageContent]
    toc: list[tuple[int, str, int]]  # (level, title, 1-based page); invalid entries dropped
    title: str = ""
    warnings: list[str] = field(default_factory=list)
    ocr: str = "off"  # "on": pages without text were read by OCR; "missing": they were not (no Tesseract)
    converted: bool = False  # made by AlphaSearch from another format (:mod:`.convert`): its outline is the headings

    @property
    def ocr_pages(self) -> list[int]:
        return [p.number for p in self.pages if p.ocr]


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_size(data: bytes, name: str = "document.pdf", *, max_file_mb: int = 500) -> None:
    """Raise FileTooLargeError when ``data`` is larger than ``max_file_mb`` megabytes."""
    if len(data) > max_file_mb * 1024 * 1024:
        raise errors.FileTooLargeError(f"{name} is {len(data) / 2**20:.1f} MB; the limit is {max_file_mb} MB.")


def load_bytes(path: Path | str, *, max_file_mb: int = 500) -> bytes:
    """Read a document's file after checking path, type (:data:`.convert.ACCEPTED`) and size."""
    p = Path(path)
    if not p.exists():
        raise errors.FileMissingError(f"No file at {p}.")
    if not p.is_file():
        raise errors.NotAFileError(f"{p} is not a file.")
    if p.suffix.lower() not in convert.ACCEPTED:
        raise errors.WrongExtensionError(convert.refused_type(p.name))
    size = p.stat().st_size
    if size > max_file_mb * 1024 * 1024:
        raise errors.FileTooLargeError(f"{p.name} is {size / 2**20:.1f} MB; the limit is {max_file_mb} MB.")
    return p.read_bytes()


def check_header(data: bytes, name: str = "document.pdf") -> None:
    """Raise EmptyFileError or NotAPDFError without parsing anything (safe in any process)."""
    if not data:
        raise errors.EmptyFileError(f"{name} is empty (0 bytes).")
    if b"%PDF-" not in data[:1024]:
        raise errors.NotAPDFError(f"{name} is not a PDF (it does not start with %PDF-).")


def open_pdf(data: bytes, name: str = "document.pdf", *, max_pages: int = 5000) -> pymupdf.Document:
    """Open PDF bytes, raising a specific error for every way they can be unusable."""
    check_header(data, name)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        raise errors.CorruptPDFError(f"{name} is corrupt or truncated and cannot be opened.") from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise errors.EncryptedPDFError(f"{name} is password-protected; remove the password and upload it again.")
    try:
        count = doc.page_count
    except Exception as exc:
        doc.close()
        raise errors.CorruptPDFError(f"{name} is corrupt: its page tree cannot be read.") from exc
    if count <= 0:
        doc.close()
        raise errors.NoPagesError(f"{name} has no pages.")
    if count > max_pages:
        doc.close()
        raise errors.TooManyPagesError(f"{name} has {count:,} pages; the limit is {max_pages:,}.")
    return doc


def read_pdf(
    data: bytes,
    name: str = "document.pdf",
    *,
    max_pages: int = 5000,
    warn_pages: int = 1000,
    progress: Callable[[int, int], None] | None = None,
    ocr: bool = False,
    ocr_seconds: float = 300.0,
    ocr_progress: Callable[[int, int], None] | None = None,
) -> PdfContent:
    """Text lines (with font size and bold flag) of every page, plus the outline.

    A page that cannot be read is kept with empty text and a warning. ``ocr``: pages without text, and the
    large pictures of pages with text, are read by OCR (:mod:`.ocr`) for at most ``ocr_seconds`` in all
    (``ocr_progress(i, n)`` after each); when Tesseract is missing the content says so (``PdfContent.ocr``).
    """
    doc = open_pdf(data, name, max_pages=max_pages)
    warnings: list[str] = []
    try:
        check_outline_depth(doc, name)
        digest = content_hash(data)
        pages_budget = budget._PageBudget(doc, streams._checked_streams(doc, digest, name))
        n = doc.page_count
        if n > warn_pages:
            warnings.append(f"{name} has {n:,} pages; indexing will take a while.")
        pages: list[PageContent] = []
        skipped: list[int] = []
        damaged: list[int] = []
        cut: list[int] = []
        heavy: list[int] = []
        too_complex: list[int] = []
        images: list[list[tuple[int, int]]] = []  # per page: (xref, pixels) of the images it holds
        listed: dict[tuple[str, int], list[tuple[int, int]]] = {}  # resource dictionary → its images
        verdicts = _check_pages(pages_budget, n, name)  # all before MuPDF reads any: a document too much is refused now
        for i in range(n):
            verdict, page_warnings = verdicts[i]
            with _PAGE_LOCK:  # one page at a time, so other threads can render between pages
                pymupdf.TOOLS.mupdf_warnings(reset=True)
                try:
                    if verdict is None:
                        raise ValueError("the page budget could not read the page")
                    if verdict == "skipped":
                        too_complex.append(i + 1)
                        lines = []
                    else:
                        heavy += [i + 1] if verdict == "cut" else []
                        page = doc[i]
                        lines = _page_lines(page)
                        images.append(_page_images(page, listed))
                except Exception:
                    skipped.append(i + 1)
                    lines = []
                page_warnings += pymupdf.TOOLS.mupdf_warnings(reset=True)
            if "error" in page_warnings.lower():
                damaged.append(i + 1)
            lines, was_cut = _cap_lines(lines, MAX_PAGE_CHARS)
            lines = _mended_ligatures(lines)  # on the capped lines: a hostile page's text is read once, bounded
            if was_cut:
                cut.append(i + 1)
            pages.append(PageContent(i + 1, "\n".join(map(_TEXT_OF, lines)), lines))
            if len(images) < len(pages):
                images.append([])
            if progress:
                progress(i + 1, n)
        owned = _pictures(images)
        for page, xrefs in zip(pages, owned):
            page.pictures = len(xrefs)
        ocr_state = "off"
        if ocr:
            ocr_state = _read_by_ocr(doc, pages, owned, verdicts, ocr_seconds, warnings, ocr_progress)
        if skipped:
            warnings.append(f"Page {skipped[0]} could not be read and was skipped." if len(skipped) == 1 else
                            f"{len(skipped)} pages could not be read and were skipped: {_page_list(skipped)}.")
        if damaged:
            warnings.append(f"{len(damaged)} page(s) are damaged and some of their text may be missing: "
                            f"{_page_list(damaged)}.")
        if heavy:
            warnings.append(f"{len(heavy)} page(s) hold more than {budget.MAX_PAGE_CONTENT_MB} MB of drawing instructions; "
                            f"only the first {budget.MAX_PAGE_CONTENT_MB} MB were read: {_page_list(heavy)}.")
        if too_complex:
            warnings.append(f"{len(too_complex)} page(s) draw nested forms or inline images, or evaluate functions "
                            f"beyond the limits ({budget.MAX_FORM_DEPTH} levels, "
                            f"{budget.MAX_PAGE_CONTENT_MB} MB per page) and were skipped: {_page_list(too_complex)}.")
        if cut:
            warnings.append(f"{len(cut)} page(s) hold more than {MAX_PAGE_CHARS:,} characters; the rest was "
                            f"ignored: {_page_list(cut)}.")
        toc = _outline(doc, n, warnings)
        try:
            title = _clean(str((doc.metadata or {}).get("title") or "")).strip()
            converted = (doc.metadata or {}).get("producer") == convert.CONVERTED_BY
        except Exception:
            title, converted = "", False
    finally:
        doc.close()
    return PdfContent(digest, n, pages, toc, title, warnings, ocr_state, converted)


def _check_pages(pages_budget: budget._PageBudget, n: int, name: str) -> list[tuple[str | None, str]]:
    """(verdict of the page budget, None when it could not read the page; MuPDF's warnings meanwhile) of
    each page. Raises TooComplexError as soon as the pages together exceed ``budget.MAX_DOCUMENT_CONTENT_MB``."""
    verdicts: list[tuple[str | None, str]] = []
    for i in range(n):
        with _PAGE_LOCK:
            pymupdf.TOOLS.mupdf_warnings(reset=True)
            try:
                verdict = pages_budget.check(i)
            except Exception:
                verdict = None
            verdicts.append((verdict, pymupdf.TOOLS.mupdf_warnings(reset=True)))
        if verdict == "over":
            raise errors.TooComplexError(
                f"{name} makes the PDF reader interpret more than {budget.MAX_DOCUMENT_CONTENT_MB:,} MB of drawing "
                f"instructions, forms and images over its pages (page {i + 1} reached the limit); it was refused.")
    return verdicts


def check_outline_depth(doc: pymupdf.Document, name: str = "document.pdf", *, visit: int = 200_000) -> None:
    """Raise OutlineTooDeepError when bookmarks nest deeper than ``MAX_SAFE_OUTLINE_DEPTH`` (walked
    without recursion, at most ``visit`` entries)."""
    try:
        doc.init_doc()
        stack = [(doc.outline, 1)]
    except Exception:
        return  # an unreadable outline is ignored later with a warning
    seen = 0
    while stack and seen < visit:
        item, level = stack.pop()
        if not _alive(item):
            continue
        seen += 1
        if level > MAX_SAFE_OUTLINE_DEPTH:
            raise errors.OutlineTooDeepError(
                f"{name} has bookmarks nested more than {MAX_SAFE_OUTLINE_DEPTH:,} levels deep, which "
                f"could crash the PDF reader; it was refused.")
        try:
            stack += [(item.next, level), (item.down, level + 1)]
        except Exception:
            continue


def _outline(doc: pymupdf.Document, n: int, warnings: list[str]) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of the bookmarks, walked without recursion.

    Entries pointing outside the document or without a title are dropped; at most
    ``MAX_OUTLINE_ENTRIES`` entries and ``MAX_OUTLINE_DEPTH`` levels are read.
    """
    try:
        doc.init_doc()
        first = doc.outline
    except Exception:
        warnings.append("The outline could not be read and was ignored.")
        return []
    toc: list[tuple[int, str, int]] = []
    stack = [(first, 1)]
    seen = 0
    too_deep = False
    try:
        while stack:
            item, level = stack.pop()
            if not _alive(item):  # pymupdf wraps a missing item in an empty object; touching it crashes
                continue
            seen += 1
            if seen > MAX_OUTLINE_ENTRIES:
                warnings.append(f"The outline has more than {MAX_OUTLINE_ENTRIES:,} entries; the rest were ignored.")
                break
            stack.append((item.next, level))
            down = item.down
            if level < MAX_OUTLINE_DEPTH:
                stack.append((down, level + 1))
            elif _alive(down):
                too_deep = True
            title = " ".join(_clean(item.title or "").split())
            page = _outline_page(doc, item)
            if title and 1 <= page <= n:
                toc.append((level, title[:300], page))
    except Exception:
        warnings.append("Part of the outline could not be read and was ignored.")
    if too_deep:
        warnings.append(f"The outline is nested more than {MAX_OUTLINE_DEPTH} levels deep; deeper entries were ignored.")
    return toc


def _alive(item: object) -> bool:
    return bool(item) and bool(getattr(getattr(item, "this", None), "m_internal", None))


def _outline_page(doc: pymupdf.Document, item: object) -> int:
    """1-based page an internal bookmark points at, or 0 (external, missing or unresolvable)."""
    if item.is_external or not item.uri:  # type: ignore[attr-defined]
        return 0
    page = item.page  # type: ignore[attr-defined]
    if page == -1:
        page = doc.resolve_link(item.uri)[0]  # type: ignore[attr-defined]
    return page + 1 if isinstance(page, int) else 0


def _page_list(pages: list[int], shown: int = 10) -> str:
    return ", ".join(map(str, pages[:shown])) + (" …" if len(pages) > shown else "")


# A font whose ligatures map to Icelandic letters prints "ðrst quarter of ðscal 2023" and "inÝation" for "first quarter
# of fiscal 2023" and "inflation" (Costco's earnings releases). A page holding those letters but never "fi" nor "fl",
# and none of the other letters that stand beside "ð" in Icelandic or Faroese, is English with broken ligatures.
_LIGATURES = {"ð": "fi", "Ý": "fl"}
_ICELANDIC = frozenset("þÞæÆáÁíÍúÚýóÓöÖøØ")


def _mended_ligatures(lines: list[Line]) -> list[Line]:
    """``lines`` with "ð" read as "fi" and "Ý" as "fl" when the page is English set in a font whose ligatures
    map to those letters."""
    text = "".join(line.text for line in lines)
    if not any(c in text for c in _LIGATURES) or "fi" in text or "fl" in text or not _ICELANDIC.isdisjoint(text):
        return lines
    table = str.maketrans(_LIGATURES)
    return [line._replace(text=line.text.translate(table)) for line in lines]


def _clean(text: str) -> str:
    """Drop control characters (keeping tab and newline) and unpaired surrogates."""
    return text.translate(_CONTROL).encode("utf-8", "replace").decode("utf-8")


def _cap_lines(lines: list[Line], limit: int) -> tuple[list[Line], bool]:
    if sum(map(len, map(_TEXT_OF, lines))) + len(lines) <= limit:  # most pages: summed in C
        return lines, False
    total = 0
    for k, line in enumerate(lines):
        total += len(line.text) + 1
        if total > limit:
            return lines[:k], True
    return lines, False


# MuPDF's HTML text output holds one "<p ...>" per line and, inside it, one span per run of one font:
# its style tags (<b>, <i>, <tt>, <sup> …, read as "b><i><"), font family and font size, and its text
# (HTML-escaped, never holding "<"). A page is cut at each "<p " into its lines (most hold a single
# span), and a span's style is read once per distinct style on the page and remembered.
_AT = re.compile(r'style="top:([-\d.]+)pt;left:([-\d.]+)pt')  # a <p>'s place on the page
_SPAN = re.compile(r'<((?:[a-z]+><)*span style="font-family:[^;"]*;font-size:[-+.\deE]+pt)[^"]*">([^<]*)</span>')
_STYLE = re.compile(r'((?:[a-z]+><)*)span style="font-family:([^;"]*);font-size:([-+.\deE]+)pt')
_ENTITY = re.compile(r"&[^;&<]*;?")  # MuPDF escapes every "&" of the text, so each "&" starts an entity
_ENTITIES: dict[str, str] = {}  # entity -> its text (html.unescape of the entity alone, cleaned)
_STYLES: dict[str, tuple[float, float, bool]] = {}  # a span's style -> (points, points rounded to 0.1, bold)


def _page_lines(page: pymupdf.Page) -> list[Line]:
    """The page's text lines: size = the largest span's, bold when half the characters are.

    Read from MuPDF's HTML output of the page (one ``<p>`` per line, one ``<span>`` per run of
    one font), which carries what the lines need at a fraction of the cost of building the
    ``"dict"`` output's Python objects. Spans of white space count for the text (they separate
    words) but not for size or boldness."""
    out: list[Line] = []
    cells: list[grid.Cell] = []  # where each line sits: rows a chart's text reads apart are rejoined
    html_text = _page_html(page)
    spans_of = _SPAN.findall
    at = _AT.match
    for chunk in html_text.split("<p ")[1:]:
        spans = spans_of(chunk)
        place = at(chunk)
        if len(spans) == 1:  # most lines: the line is its one span
            style, text = spans[0]
            if "&" in text:
                text = _entities(text)
            joined = " ".join(text.split())
            if joined:
                _, rounded, heavy = _STYLES.get(style) or _span_style(style)
                if place:
                    cells.append(grid.Cell(float(place[1]), float(place[2]), joined, len(out)))
                out.append(_new_line((joined, rounded, heavy)))
            continue
        texts: list[str] = []
        size, bold, total = 0.0, 0, 0
        for style, text in spans:
            if "&" in text:
                text = _entities(text)
            texts.append(text)
            if not text or text.isspace():
                continue
            n = len(text)
            total += n
            points, _, heavy = _STYLES.get(style) or _span_style(style)
            if points > size:
                size = points
            if heavy:
                bold += n
        if total:
            joined = " ".join("".join(texts).split())
            if joined:
                if place:
                    cells.append(grid.Cell(float(place[1]), float(place[2]), joined, len(out)))
                out.append(_new_line((joined, round(size, 1), bold * 2 >= total)))
    for text, first in grid.rejoined(cells):
        out.append(_new_line((text, out[first].size, False)))
    return out


def _page_html(page: pymupdf.Page) -> str:
    """MuPDF's HTML of the page's text as ``TextPage.extractHTML`` gives it, cleaned (:func:`_clean`).
    MuPDF writes every character outside ASCII as an entity, so the output is ASCII and, without a
    backslash (which pymupdf's raw-unicode-escape decoding reads), its text is its bytes: their control
    characters are dropped as bytes (a third of the time of decoding and cleaning the text, 0.22 s over
    the 74 eval PDFs' 117 MB of HTML)."""
    m = pymupdf.mupdf
    buffer = m.fz_new_buffer(1024)
    out = m.FzOutput(buffer)
    m.fz_print_stext_page_as_html(out, page.get_textpage(flags=_TEXT_FLAGS).this, 0)
    out.fz_close_output()
    raw = m.fz_buffer_extract_copy(buffer)
    if raw.isascii() and b"\\" not in raw:
        return raw.translate(None, _CONTROL_BYTES).decode("ascii")
    return _clean(raw.decode("raw_unicode_escape", errors="replace"))  # as TextPage.extractHTML decodes it


PICTURE_MIN_PIXELS = 150 * 150  # a smaller image is an icon, a bullet or a rule
PICTURE_MAX_SHARE = 0.3  # an image on more of the pages (and on more than two) is a logo or background


def _page_images(page: pymupdf.Page, listed: dict | None = None) -> list[tuple[int, int]]:
    """(xref, width x height in pixels) of each image the page's resources hold: read from the
    page's resource list, not by running its drawing instructions. The images ``page.get_images()``
    lists, in its order and with its warnings, read with the MuPDF calls its resource walk makes but
    only those the two figures need (it also reads each image's colour spaces, filter and name and
    escapes them: 0.28 of the 0.8 s the 74 eval PDFs' pages took). ``listed``: resource dictionary →
    its images, filled and read across the pages of one document (pages sharing resources: 1,000
    pages of 2,000 shared images took 19 s to list one page at a time)."""
    try:
        m = pymupdf.mupdf
        pageref = m.pdf_lookup_page_obj(streams.pdf_document(page.parent), page.number)
        resources = m.pdf_dict_get_inheritable(pageref, m.PDF_ENUM_NAME_Resources)
        key = ("obj", m.pdf_to_num(resources)) if m.pdf_is_indirect(resources) else ("in", budget._holder(pageref))
        if listed is not None and key[1] and key in listed:
            return listed[key]
        found: list[tuple[int, int]] = []
        if resources.m_internal:
            _scan_images(resources, found, [])
        if listed is not None and key[1]:
            listed[key] = found
        return found
    except Exception:
        return []


def _scan_images(resources, found: list[tuple[int, int]], tracer: list[int]) -> None:
    """pymupdf's JM_scan_resources for images (its JM_gather_images keeping xref, width and height),
    into the Form XObjects' resources, with its guard against cycles."""
    m = pymupdf.mupdf
    if m.pdf_mark_obj(resources):
        m.fz_warn("Circular dependencies! Consider page cleaning.")
        return
    try:
        xobjects = m.pdf_dict_get(resources, m.PDF_ENUM_NAME_XObject)
        n = m.pdf_dict_len(xobjects)
        for i in range(n):
            image = m.pdf_dict_get_val(xobjects, i)
            if not m.pdf_is_dict(image):
                m.fz_warn(f"'{m.pdf_to_name(m.pdf_dict_get_key(xobjects, i))}' is no image dict "
                          f"({m.pdf_to_num(image)} 0 R)")
                continue
            if not m.pdf_name_eq(m.pdf_dict_get(image, m.PDF_ENUM_NAME_Subtype), m.PDF_ENUM_NAME_Image):
                continue
            width = m.pdf_to_int(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_Width, m.PDF_ENUM_NAME_W))
            height = m.pdf_to_int(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_Height, m.PDF_ENUM_NAME_H))
            found.append((m.pdf_to_num(image), width * height))
        for i in range(n):
            obj = m.pdf_dict_get_val(xobjects, i)
            xref = m.pdf_to_num(obj) if m.pdf_is_stream(obj) else 0
            inner = m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Resources)
            if inner.m_internal:
                if xref in tracer:
                    m.fz_warn("Circular dependencies! Consider page cleaning.")
                    return
                tracer.append(xref)
                _scan_images(inner, found, tracer)
    finally:
        m.pdf_unmark_obj(resources)


def _pictures(images: Sequence[Sequence[tuple[int, int]]]) -> list[list[int]]:
    """For each page, the pictures of its own it holds (xrefs): images of at least
    ``PICTURE_MIN_PIXELS`` that at most ``PICTURE_MAX_SHARE`` of the pages (or two) hold, so a
    logo or background repeated on every page is no picture."""
    uses = Counter(x for page in images for x in {x for x, _ in page})
    most = max(2.0, PICTURE_MAX_SHARE * len(images))
    return [sorted({x for x, pixels in page if pixels >= PICTURE_MIN_PIXELS and uses[x] <= most}) for page in images]


def _read_by_ocr(doc: pymupdf.Document, pages: list[PageContent], owned: list[list[int]],
                 verdicts: list[tuple[str | None, str]], seconds: float, warnings: list[str],
                 progress: Callable[[int, int], None] | None) -> str:
    """OCR's text for the pages without text and the large pictures of pages with text (:mod:`.ocr`),
    within ``seconds``; "on", or "missing" when Tesseract is not installed. A scanned page's own image
    is the page, not a picture of it: its ``pictures`` count drops to 0. A nearly empty page keeps its own
    lines ("Part II" on a divider page), OCR's new ones after them."""
    readable = [p for p in pages if verdicts[p.number - 1][0] not in (None, "skipped")]
    whole = {p.number for p in readable if len(p.text.strip()) < ocr_reader.MIN_TEXT_CHARS}
    scans = [p for p in readable if p.number in whole]
    pictured = [p for p in readable if p.number not in whole and owned[p.number - 1]]
    if not scans and not pictured:
        return "on"
    if not ocr_reader.available():
        if scans:
            warnings.append(ocr_reader.MISSING)
        return "missing"
    started = time.perf_counter()
    late: list[int] = []
    failed: list[int] = []
    if progress:
        progress(0, len(scans) + len(pictured))  # before the first page: the pool grants OCR's time now
    for k, page in enumerate(scans + pictured):
        if time.perf_counter() - started > seconds:
            late.append(page.number)
            continue
        with _PAGE_LOCK:
            try:
                lines = _ocr_lines(doc[page.number - 1], page, owned[page.number - 1], whole=page.number in whole)
            except Exception:
                failed.append(page.number)
                lines = []
        if lines:
            page.lines = list(page.lines) + lines
            page.lines, _ = _cap_lines(page.lines, MAX_PAGE_CHARS)
            page.text = "\n".join(map(_TEXT_OF, page.lines))
            page.ocr = True
        if page.number in whole:
            page.pictures = 0
        if progress:
            progress(k + 1, len(scans) + len(pictured))
    if late:
        warnings.append(f"OCR stopped after {seconds:.0f} s; {len(late)} page(s) with scanned text were not read: "
                        f"{_page_list(late)}.")
    if failed:
        warnings.append(f"OCR could not read {len(failed)} page(s): {_page_list(failed)}.")
    return "on"


def _ocr_lines(page: pymupdf.Page, content: PageContent, xrefs: list[int], *, whole: bool) -> list[Line]:
    """The lines OCR reads on the whole page (``whole``) or in its large pictures (only lines bringing
    words the page's text lacks), sized by :func:`ocr.line_sizes`; OCR knows no bold."""
    clips = [None] if whole else ocr_reader.picture_clips(page, xrefs)
    out: list[Line] = []
    for clip in clips:
        made = ocr_reader.page_words(page, clip)
        if made is None:
            return []
        try:
            lines = ocr_reader.line_sizes(made[0].get_text("dict", flags=_TEXT_FLAGS)["blocks"])
        finally:
            made.close()
        out += [_new_line((_clean(text), size, False)) for text, size in lines
                if (whole and not content.text.strip() and ocr_reader.printed_text(text))
                or ocr_reader.new_words(text, content.text)]
    return out


def _span_style(style: str) -> tuple[float, float, bool]:
    """(font size in points, the same rounded to 0.1, bold) of a span's style as :data:`_SPAN` reads it:
    bold from a <b> tag or a font family named bold."""
    tags, family, printed = _STYLE.match(style).groups()
    points = _points(printed)
    read = (points, round(points, 1), "<b>" in "<" + tags or "bold" in family.lower())
    if len(_STYLES) < 10_000:
        _STYLES[style] = read
    return read


def _entities(text: str) -> str:
    """A span's text with its HTML entities read. Most entities on real pages are no-break spaces
    ("&#xa0;": 588,584 of the 672,237 in the 74 eval PDFs, in runs of them), replaced in C; each
    '&' starts an entity, so what is left is read one entity at a time, as before."""
    text = text.replace("&#xa0;", "\xa0")
    return _ENTITY.sub(_unescape, text) if "&" in text else text


def _unescape(match: re.Match) -> str:
    """The text of one HTML entity, as ``html.unescape`` reads it and :func:`_clean` cleans it, so a span
    of the cleaned page needs no cleaning after its entities are read (cleaning them took 0.31 of the
    1.54 s the 74 eval PDFs' lines took to read). Remembered: a page repeats a few."""
    entity = match.group(0)
    text = _ENTITIES.get(entity)
    if text is None:
        text = _clean(html.unescape(entity))
        if len(_ENTITIES) < 10_000:
            _ENTITIES[entity] = text
    return text


def _points(printed: str) -> float:
    """A font size as MuPDF prints it ("9.2", "1e-05"); 0 when it is not a number."""
    try:
        return abs(float(printed))
    except ValueError:
        return 0.0


SLIDE_ASPECT = 1.25  # width / height from which a page is slide-shaped (4:3 is 1.33, 16:9 is 1.78)


def page_layout(data: bytes, name: str = "document.pdf", *, sample: int = 30) -> tuple[float, float]:
    """(share of slide-shaped landscape pages, mean share of a page's area covered by images), over
    up to ``sample`` pages spread through the document (pages beyond the content limits are left out)."""
    doc = open_pdf(data, name, max_pages=10**9)
    try:
        pages_budget = budget._PageBudget(doc, streams._checked_streams(doc, content_hash(data), name))
        n = doc.page_count
        m = min(n, sample)
        wide = pictures = seen = 0.0
        for i in sorted({round(k * (n - 1) / max(1, m - 1)) for k in range(m)}):
            with _PAGE_LOCK:
                try:
                    if pages_budget.check(i) in ("skipped", "over"):
                        continue
                    page = doc[i]
                    rect = page.rect
                    boxes = [pymupdf.Rect(info["bbox"]) & rect for info in page.get_image_info()]
                except Exception:
                    continue
            area = max(rect.width * rect.height, 1.0)
            seen += 1
            wide += rect.width >= SLIDE_ASPECT * rect.height
            pictures += min(1.0, sum(b.width * b.height for b in boxes if not b.is_empty) / area)
        return (round(wide / seen, 3), round(pictures / seen, 3)) if seen else (0.0, 0.0)
    finally:
        doc.close()


def page_count(data: bytes, name: str = "document.pdf") -> int:
    doc = open_pdf(data, name, max_pages=10**9)
    try:
        return doc.page_count
    finally:
        doc.close()
