"""PDF input and output: the only module that imports pymupdf.

Validation raises the specific errors of :mod:`alphasearch.errors`, each with a
one-line message. Page numbers are 1-based everywhere in this module's API.
"""
from __future__ import annotations

import hashlib
import math
import threading
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import sys

# PyMuPDF 2.0 imports its optional layout analyser (onnxruntime: ~0.6 s CPU and ~55 MB per
# process) and pymupdf4llm (~0.2 s) whenever they are installed. AlphaSearch never calls
# Page.get_layout or to_markdown, so both imports are skipped (pymupdf treats them as absent).
for _optional in ("pymupdf.layout", "pymupdf4llm"):
    sys.modules.setdefault(_optional, None)  # type: ignore[arg-type]
import pymupdf  # noqa: E402

from . import errors  # noqa: E402

pymupdf.no_recommend_layout()
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

Source = "Path | str | bytes"
MAX_RENDER_PIXELS = 4_000_000  # a page of absurd dimensions is rendered scaled down
MAX_OUTLINE_ENTRIES = 10_000  # bookmarks read from an outline; the rest are ignored with a warning
MAX_OUTLINE_DEPTH = 32  # deeper bookmarks are ignored (real outlines rarely exceed 6 levels)
MAX_PAGE_CHARS = 200_000  # text kept per page; a page holding more is cut with a warning
# Decompression bombs: MuPDF streams them in bounded memory, but time grows with the inflated
# size (~10 s per GB), so files whose streams expand beyond these limits are refused up front.
MAX_STREAM_MB = 256  # one Flate stream (page content, form, font…) once inflated
MAX_INFLATED_MB = 2048  # all Flate streams of the file together
MAX_IMAGE_MEGAPIXELS = 400  # one image (a 600 dpi A4 scan is 35 megapixels)
MAX_OBJECTS = 2_000_000  # PDF objects in one file (a 500-page annual report has ~35,000)
_PAGE_LOCK = threading.Lock()  # MuPDF's warning buffer is process-wide: read a page and its warnings together
_CONTROL = {c: None for c in range(32) if c not in (9, 10)} | {0x7F: None}
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP


@dataclass(frozen=True)
class Line:
    """One text line: its text, largest font size (pt) and whether it is bold."""

    text: str
    size: float
    bold: bool


@dataclass
class PageContent:
    number: int  # 1-based
    text: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class PdfContent:
    sha256: str
    page_count: int
    pages: list[PageContent]
    toc: list[tuple[int, str, int]]  # (level, title, 1-based page); invalid entries dropped
    title: str = ""
    warnings: list[str] = field(default_factory=list)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_size(data: bytes, name: str = "document.pdf", *, max_file_mb: int = 500) -> None:
    """Raise FileTooLargeError when ``data`` is larger than ``max_file_mb`` megabytes."""
    if len(data) > max_file_mb * 1024 * 1024:
        raise errors.FileTooLargeError(f"{name} is {len(data) / 2**20:.1f} MB; the limit is {max_file_mb} MB.")


def load_bytes(path: Path | str, *, max_file_mb: int = 500) -> bytes:
    """Read a PDF file after checking path, extension and size."""
    p = Path(path)
    if not p.exists():
        raise errors.FileMissingError(f"No file at {p}.")
    if not p.is_file():
        raise errors.NotAFileError(f"{p} is not a file.")
    if p.suffix.lower() != ".pdf":
        raise errors.WrongExtensionError(f"{p.name} is not a .pdf file.")
    size = p.stat().st_size
    if size > max_file_mb * 1024 * 1024:
        raise errors.FileTooLargeError(f"{p.name} is {size / 2**20:.1f} MB; the limit is {max_file_mb} MB.")
    return p.read_bytes()


def open_pdf(data: bytes, name: str = "document.pdf", *, max_pages: int = 5000) -> pymupdf.Document:
    """Open PDF bytes, raising a specific error for every way they can be unusable."""
    if not data:
        raise errors.EmptyFileError(f"{name} is empty (0 bytes).")
    if b"%PDF-" not in data[:1024]:
        raise errors.NotAPDFError(f"{name} is not a PDF (it does not start with %PDF-).")
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
) -> PdfContent:
    """Text lines (with font size and bold flag) of every page, plus the outline.

    A page that cannot be read is kept with empty text and a warning.
    """
    doc = open_pdf(data, name, max_pages=max_pages)
    warnings: list[str] = []
    try:
        check_streams(doc, name)
        n = doc.page_count
        if n > warn_pages:
            warnings.append(f"{name} has {n:,} pages; indexing will take a while.")
        pages: list[PageContent] = []
        skipped: list[int] = []
        damaged: list[int] = []
        cut: list[int] = []
        for i in range(n):
            with _PAGE_LOCK:  # one page at a time, so other threads can render between pages
                pymupdf.TOOLS.mupdf_warnings(reset=True)
                try:
                    lines = _page_lines(doc[i])
                except Exception:
                    skipped.append(i + 1)
                    lines = []
                page_warnings = pymupdf.TOOLS.mupdf_warnings(reset=True)
            if "error" in page_warnings.lower():
                damaged.append(i + 1)
            lines, was_cut = _cap_lines(lines, MAX_PAGE_CHARS)
            if was_cut:
                cut.append(i + 1)
            pages.append(PageContent(i + 1, "\n".join(line.text for line in lines), lines))
            if progress:
                progress(i + 1, n)
        if skipped:
            warnings.append(f"Page {skipped[0]} could not be read and was skipped." if len(skipped) == 1 else
                            f"{len(skipped)} pages could not be read and were skipped: {_page_list(skipped)}.")
        if damaged:
            warnings.append(f"{len(damaged)} page(s) are damaged and some of their text may be missing: "
                            f"{_page_list(damaged)}.")
        if cut:
            warnings.append(f"{len(cut)} page(s) hold more than {MAX_PAGE_CHARS:,} characters; the rest was "
                            f"ignored: {_page_list(cut)}.")
        toc = _outline(doc, n, warnings)
        try:
            title = _clean(str((doc.metadata or {}).get("title") or "")).strip()
        except Exception:
            title = ""
    finally:
        doc.close()
    return PdfContent(content_hash(data), n, pages, toc, title, warnings)


def check_streams(doc: pymupdf.Document, name: str = "document.pdf") -> None:
    """Raise DecompressionBombError when a stream or image expands beyond the module limits.

    Flate streams are inflated chunk by chunk and counted, never held in memory; images are
    judged by their declared size. Streams MuPDF cannot read are left for it to report.
    """
    per_stream = MAX_STREAM_MB * 2**20
    budget = MAX_INFLATED_MB * 2**20
    total = 0
    objects = doc.xref_length() - 1
    if objects > MAX_OBJECTS:
        raise errors.FileTooLargeError(f"{name} has {objects:,} PDF objects; the limit is {MAX_OBJECTS:,}.")
    for xref in range(1, objects + 1):
        try:
            if not doc.xref_is_stream(xref):
                continue
            if doc.xref_get_key(xref, "Subtype")[1] == "/Image":
                w, h = (doc.xref_get_key(xref, k)[1] for k in ("Width", "Height"))
                if w.isdigit() and h.isdigit() and int(w) * int(h) > MAX_IMAGE_MEGAPIXELS * 10**6:
                    raise errors.DecompressionBombError(
                        f"{name} contains an image of {int(w):,} x {int(h):,} pixels, beyond the "
                        f"{MAX_IMAGE_MEGAPIXELS} megapixel limit; it was refused.")
                continue
            kind, filters = doc.xref_get_key(xref, "Filter")
            if not filters.lstrip("[ ").startswith("/FlateDecode"):
                continue
            raw = doc.xref_stream_raw(xref)
        except errors.DecompressionBombError:
            raise
        except Exception:
            continue
        size = _inflated_size(raw, per_stream + 1)
        total += size
        if size > per_stream or total > budget:
            raise errors.DecompressionBombError(
                f"{name} contains compressed data that expands to more than "
                f"{MAX_STREAM_MB if size > per_stream else MAX_INFLATED_MB:,} MB; it looks like a "
                f"decompression bomb and was refused.")


def _inflated_size(raw: bytes, cap: int) -> int:
    """Bytes ``raw`` (zlib data) inflates to, counting at most a little past ``cap``."""
    inflater = zlib.decompressobj()
    total = 0
    pending = raw
    try:
        while pending and total <= cap:
            out = inflater.decompress(pending, 4 * 2**20)
            total += len(out)
            pending = inflater.unconsumed_tail
            if not out:
                break
    except zlib.error:
        pass  # damaged data: MuPDF decides what it can read
    return total


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


def _clean(text: str) -> str:
    """Drop control characters (keeping tab and newline) and unpaired surrogates."""
    return text.translate(_CONTROL).encode("utf-8", "replace").decode("utf-8")


def _cap_lines(lines: list[Line], limit: int) -> tuple[list[Line], bool]:
    total = 0
    for k, line in enumerate(lines):
        total += len(line.text) + 1
        if total > limit:
            return lines[:k], True
    return lines, False


def _page_lines(page: pymupdf.Page) -> list[Line]:
    out: list[Line] = []
    d = page.get_text("dict", flags=_TEXT_FLAGS, sort=False)
    for block in d.get("blocks", ()):
        for line in block.get("lines", ()):
            spans = [s for s in line.get("spans", ()) if s.get("text", "").strip()]
            if not spans:
                continue
            text = " ".join(_clean("".join(s["text"] for s in spans)).split())
            if not text:
                continue
            size = max(float(s.get("size", 0.0)) for s in spans)
            bold_chars = sum(len(s["text"]) for s in spans if _is_bold(s))
            out.append(Line(text, round(size, 1), bold_chars * 2 >= sum(len(s["text"]) for s in spans)))
    return out


def _is_bold(span: dict) -> bool:
    return bool(span.get("flags", 0) & 16) or "bold" in str(span.get("font", "")).lower()


def page_count(data: bytes, name: str = "document.pdf") -> int:
    doc = open_pdf(data, name, max_pages=10**9)
    try:
        return doc.page_count
    finally:
        doc.close()


def snippet_rects(data: bytes, page: int, snippet: str) -> list[tuple[float, float, float, float]]:
    """Rectangles (PDF points) where ``snippet`` appears on 1-based ``page``.

    Searches the whole snippet first, then its sentences/short pieces, so a
    snippet that spans lines or was normalised still highlights something.
    """
    doc = open_pdf(data, max_pages=10**9)
    try:
        if not 1 <= page <= doc.page_count:
            return []
        pg = doc[page - 1]
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


def render_page_png(data: bytes, page: int, *, zoom: float = 1.5, highlight: str = "") -> bytes:
    """PNG of 1-based ``page``; ``highlight`` text is marked in translucent yellow."""
    doc = open_pdf(data, max_pages=10**9)
    try:
        if not 1 <= page <= doc.page_count:
            raise errors.NotFoundError(f"Page {page} does not exist; the document has {doc.page_count} pages.")
        pg = doc[page - 1]
        rect = pg.rect
        area = max(rect.width * rect.height, 1.0)
        zoom = min(zoom, math.sqrt(MAX_RENDER_PIXELS / area))
        pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        if highlight:
            rects = _find(pg, highlight)
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


# --- writing (sample documents, tests, benchmarks) ------------------------------------
@dataclass(frozen=True)
class TextBlock:
    text: str
    size: float = 11.0
    bold: bool = False


def write_pdf(
    pages: Sequence[Iterable[TextBlock | str]],
    *,
    toc: Sequence[tuple[int, str, int]] = (),
    title: str = "",
    width: float = 595,
    height: float = 842,
) -> bytes:
    """A PDF whose pages hold the given blocks top to bottom (wrapped, Helvetica)."""
    doc = pymupdf.open()
    margin = 56
    for blocks in pages:
        page = doc.new_page(width=width, height=height)
        y = margin
        for block in blocks:
            if isinstance(block, str):
                block = TextBlock(block)
            font = "helv" if not block.bold else "hebo"
            box = pymupdf.Rect(margin, y, width - margin, height - margin)
            rc = page.insert_textbox(box, block.text, fontsize=block.size, fontname=font)
            if rc < 0:
                break  # page full: the rest of the blocks are dropped
            used = box.height - rc
            y += used + block.size * 0.6
    if toc:
        doc.set_toc([list(t) for t in toc])
    if title:
        doc.set_metadata({"title": title})
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def encrypt_pdf(data: bytes, *, user_password: str = "secret", owner_password: str = "owner") -> bytes:
    """The same PDF protected with AES-256 (empty user password = owner-only)."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    out = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_password, owner_pw=owner_password,
                      permissions=int(pymupdf.PDF_PERM_ACCESSIBILITY))
    doc.close()
    return out
