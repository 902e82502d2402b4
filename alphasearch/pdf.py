"""PDF input and output: the only module that imports pymupdf.

Validation raises the specific errors of :mod:`alphasearch.errors`, each with a
one-line message. Page numbers are 1-based everywhere in this module's API.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import heapq
import html
import math
import re
import threading
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
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

from . import errors  # noqa: E402

pymupdf.no_recommend_layout()
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

Source = "Path | str | bytes"
MAX_RENDER_PIXELS = 4_000_000  # a page of absurd dimensions is rendered scaled down
MAX_OUTLINE_ENTRIES = 10_000  # bookmarks read from an outline; the rest are ignored with a warning
MAX_OUTLINE_DEPTH = 32  # deeper bookmarks are ignored (real outlines rarely exceed 6 levels)
# MuPDF loads outlines recursively inside pymupdf.open: ~50,000 levels overflow an 8 MB thread stack
# and kill the process. Workers parse with a large stack (isolation.py) and refuse deeper files, so the
# server, which opens stored PDFs to render pages, never meets one.
MAX_SAFE_OUTLINE_DEPTH = 10_000
MAX_PAGE_CHARS = 200_000  # text kept per page; a page holding more is cut with a warning
# Decompression bombs: every stream is decoded through its whole filter chain (Flate, LZW,
# ASCIIHex, ASCII85, RunLength, in any order), counted chunk by chunk and never held whole; files
# whose streams expand beyond these limits are refused before MuPDF interprets anything.
MAX_STREAM_MB = 256  # one stream (page content, form, font…) once decoded
MAX_INFLATED_MB = 2048  # all streams of the file together
MAX_PAGE_CONTENT_MB = 4  # drawing instructions read per page (text extraction holds ~30 bytes per character)
MAX_FORM_DEPTH = 12  # Form XObjects drawn inside forms drawn inside forms…; deeper pages lose their text
INFLATED_HELD_MB = 64  # page contents held decoded in the in-memory document per file (MuPDF reads them as they are)
MAX_ANNOTATIONS = 10_000  # annotations per page (a page listing more is skipped)
MAX_RESOURCES = 100_000  # forms, patterns, graphics states, fonts or glyphs of one kind in one resource dictionary
MAX_IMAGE_MEGAPIXELS = 400  # one image (a 600 dpi A4 scan is 35 megapixels)
MAX_OBJECTS = 2_000_000  # PDF objects in one file (a 500-page annual report has ~35,000)
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
) -> PdfContent:
    """Text lines (with font size and bold flag) of every page, plus the outline.

    A page that cannot be read is kept with empty text and a warning.
    """
    doc = open_pdf(data, name, max_pages=max_pages)
    warnings: list[str] = []
    try:
        check_outline_depth(doc, name)
        digest = content_hash(data)
        budget = _PageBudget(doc, _checked_streams(doc, digest, name))
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
        for i in range(n):
            with _PAGE_LOCK:  # one page at a time, so other threads can render between pages
                pymupdf.TOOLS.mupdf_warnings(reset=True)
                try:
                    verdict = budget.check(i)
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
                page_warnings = pymupdf.TOOLS.mupdf_warnings(reset=True)
            if "error" in page_warnings.lower():
                damaged.append(i + 1)
            lines, was_cut = _cap_lines(lines, MAX_PAGE_CHARS)
            if was_cut:
                cut.append(i + 1)
            pages.append(PageContent(i + 1, "\n".join(map(_TEXT_OF, lines)), lines))
            if len(images) < len(pages):
                images.append([])
            if progress:
                progress(i + 1, n)
        for page, count in zip(pages, _pictures(images)):
            page.pictures = count
        if skipped:
            warnings.append(f"Page {skipped[0]} could not be read and was skipped." if len(skipped) == 1 else
                            f"{len(skipped)} pages could not be read and were skipped: {_page_list(skipped)}.")
        if damaged:
            warnings.append(f"{len(damaged)} page(s) are damaged and some of their text may be missing: "
                            f"{_page_list(damaged)}.")
        if heavy:
            warnings.append(f"{len(heavy)} page(s) hold more than {MAX_PAGE_CONTENT_MB} MB of drawing instructions; "
                            f"only the first {MAX_PAGE_CONTENT_MB} MB were read: {_page_list(heavy)}.")
        if too_complex:
            warnings.append(f"{len(too_complex)} page(s) draw nested forms or evaluate functions beyond the limits "
                            f"({MAX_FORM_DEPTH} levels, "
                            f"{MAX_PAGE_CONTENT_MB} MB per page) and were skipped: {_page_list(too_complex)}.")
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
    return PdfContent(digest, n, pages, toc, title, warnings)


# Flate output is at most 1032 times its input: a byte of output costs at least one bit (a literal),
# 258 bytes at least two (the longest match: a length code and a distance code of one bit each)
FLATE_MAX_RATIO = 1032


class StreamSizes(dict):
    """xref → decoded bytes of the streams :func:`check_streams` counted. A Flate stream whose
    most possible output (``FLATE_MAX_RATIO`` × its raw bytes) could breach no limit is not decoded
    there: ``bounds`` holds that most possible size, and :meth:`size` decodes it when asked."""

    def __init__(self):
        super().__init__()
        self.bounds: dict[int, int] = {}

    def size(self, doc: pymupdf.Document, xref: int) -> int:
        """The decoded bytes of stream ``xref`` of ``doc`` (the document checked, or one opened from
        the same bytes), 0 for a stream that was not counted."""
        size = self.get(xref)
        if size is None:
            if xref not in self.bounds:
                return 0
            size = self[xref] = _stream_size(_pdf_document(doc), xref, ["/FlateDecode"], MAX_STREAM_MB * 2**20 + 1)
        return size

    def most(self, xref: int) -> int:
        """The decoded bytes of ``xref`` when counted, else the most it can decode to (0: not counted)."""
        size = self.get(xref)
        return self.bounds.get(xref, 0) if size is None else size


def _stream_size(raw_doc, xref: int, filters: list[str], cap: int) -> int:
    """:func:`_decoded_size` of stream ``xref`` (0 when it cannot be read or decoded)."""
    m = pymupdf.mupdf
    try:
        raw = m.fz_buffer_extract_copy(m.pdf_load_raw_stream_number(raw_doc, xref))
    except Exception:
        return 0
    return _decoded_size(raw, filters, cap) or 0


def check_streams(doc: pymupdf.Document, name: str = "document.pdf") -> StreamSizes:
    """Raise DecompressionBombError when a stream or image expands beyond the module limits.

    Every stream is decoded through its filter chain chunk by chunk and counted, never held in
    memory; images are judged by their declared size. Returns xref → decoded bytes of the
    streams that were counted (a stream MuPDF cannot read, or one behind a filter we do not
    decode, is left for MuPDF and the worker's limits). A Flate stream too small to breach a
    limit whatever it holds is decoded only when the file's other streams leave too little room
    for its most possible size, or when its size is asked (:class:`StreamSizes`): the same verdicts,
    without inflating most fonts and small pages twice (MuPDF inflates them to read the text).
    """
    per_stream = MAX_STREAM_MB * 2**20
    budget = MAX_INFLATED_MB * 2**20
    total = 0  # decoded bytes counted, plus the most the streams not yet decoded can hold
    sizes = StreamSizes()
    pending: list[tuple[int, int]] = []  # (-most, xref) of the streams not yet decoded: a heap, the largest first
    objects = doc.xref_length() - 1
    if objects > MAX_OBJECTS:
        raise errors.FileTooLargeError(f"{name} has {objects:,} PDF objects; the limit is {MAX_OBJECTS:,}.")
    # MuPDF's own calls on the PDF document fetched once, instead of Document.xref_is_stream, xref_get_key
    # and xref_stream_raw, which re-fetched the document on each of ~200,000 calls over the 74 eval PDFs and
    # formatted every value they read as text
    m = pymupdf.mupdf
    raw_doc = _pdf_document(doc)
    for xref in range(1, objects + 1):
        try:
            if not m.pdf_obj_num_is_stream(raw_doc, xref):
                continue
            obj = m.pdf_load_object(raw_doc, xref)
            if _is_name(m.pdf_dict_getp(obj, "Subtype"), "Image"):
                w, h = (_int_value(m.pdf_dict_getp(obj, k)) for k in ("Width", "Height"))
                if w is not None and h is not None and w * h > MAX_IMAGE_MEGAPIXELS * 10**6:
                    raise errors.DecompressionBombError(
                        f"{name} contains an image of {w:,} x {h:,} pixels, beyond the "
                        f"{MAX_IMAGE_MEGAPIXELS} megapixel limit; it was refused.")
                continue
            filters = _filter_chain(obj)
            if not filters:
                continue
            raw = m.fz_buffer_extract_copy(m.pdf_load_raw_stream_number(raw_doc, xref))
        except errors.DecompressionBombError:
            raise
        except Exception:
            continue
        most = FLATE_MAX_RATIO * (len(raw) + 1)
        if filters == ["/FlateDecode"] and most <= per_stream:
            sizes.bounds[xref] = most
            heapq.heappush(pending, (-most, xref))
            total += most
        else:
            size = _decoded_size(raw, filters, per_stream + 1)
            if size is None:
                continue
            sizes[xref] = size
            total += size
            if size > per_stream:
                raise _bomb(name, MAX_STREAM_MB)
        while pending and total > budget:  # room needed: the streams that could hold the most, decoded
            most, xref = heapq.heappop(pending)
            sizes[xref] = _stream_size(raw_doc, xref, ["/FlateDecode"], per_stream + 1)
            total += sizes[xref] + most
        if total > budget:
            raise _bomb(name, MAX_INFLATED_MB)
    return sizes


def _bomb(name: str, mb: int) -> errors.DecompressionBombError:
    return errors.DecompressionBombError(
        f"{name} contains compressed data that expands to more than {mb:,} MB; it looks like a "
        f"decompression bomb and was refused.")


def _pdf_document(doc: pymupdf.Document):
    """MuPDF's PDF document behind ``doc`` (as pymupdf's own Document methods fetch it)."""
    this = doc.this
    return this if isinstance(this, pymupdf.mupdf.PdfDocument) else pymupdf.mupdf.PdfDocument(this)


def _is_name(obj, name: str) -> bool:
    """Whether a PDF object is the name ``name`` itself (not a reference to one), as
    ``Document.xref_get_key`` reports it ("/Name")."""
    m = pymupdf.mupdf
    return bool(obj.m_internal) and not m.pdf_is_indirect(obj) and bool(m.pdf_is_name(obj)) and m.pdf_to_name(obj) == name


_LAST_CHECKED: tuple[str, dict[int, int]] = ("", {})  # (sha256 and limits, check_streams result) of the last PDF


def _checked_streams(doc: pymupdf.Document, digest: str, name: str) -> dict[int, int]:
    """:func:`check_streams` of ``doc``, whose bytes hash to ``digest``, remembered for the same
    bytes: a folder's add reads the text and then the page layout of one PDF in the same job, and
    decoding every stream again cost ~3 s over the 74 eval PDFs. A PDF that failed is checked again."""
    global _LAST_CHECKED
    key = f"{digest} {MAX_STREAM_MB} {MAX_INFLATED_MB} {MAX_IMAGE_MEGAPIXELS} {MAX_OBJECTS}"  # under the same limits
    last = _LAST_CHECKED
    if last[0] == key:
        return last[1]
    sizes = check_streams(doc, name)
    _LAST_CHECKED = (key, sizes)
    return sizes


# --- page budgets: what MuPDF would interpret to extract one page's text --------------------------
# MuPDF's lexer: white space is \0 \t \n \f \r and space, delimiters ( ) < > [ ] { } / %; an operator is a
# run of other characters. "Do" draws the first name among its operands, which may be followed by
# numbers, strings, arrays, other names or comments ('/X 0 Do', '/X %c<newline>Do', '/X /Y Do' draw /X)
_DO = re.compile(rb"(?<![^\s\x00()<>\[\]{}])Do(?![^\s\x00()<>\[\]{}/%])")
_NAME_TOKEN = re.compile(rb"/([^\s\x00/<>\[\]()%{}]*)")
# Functions MuPDF evaluates while extracting text: a colour space's tint transform converts the colour of
# each text shown in it, a shading's function is sampled when the shading loads (a function-based
# shading's ~53,000 times, on a grid). Counted in steps of one byte of PostScript code run once (0.3 ns);
# a sampled function reads 2**inputs samples per output (2 ns each: 8 steps). Drawing instructions take
# 12-110 ns per byte (fills to text), so 256 steps count as one byte of them
_FUNCTION_STEPS_PER_BYTE = 256
_SAMPLE_STEPS = 8
_SHADING_SAMPLES = {1: 65536}  # evaluations when a shading loads, by type (the others: 256)
# operators that paint (fill, stroke, shade, show text, draw an XObject or an inline image): each runs the
# current pattern's cell or soft mask's group again
_PAINT = re.compile(rb"(?<![^\s\x00()<>\[\]{}])(?:[fFBbSs]\*?|sh|T[jJ]|'|\"|Do|EI)(?![^\s\x00()<>\[\]{}/%])")


@dataclass(frozen=True)
class _Scope:
    """What a content stream can run, from the resource dictionary it draws with: name → xref of
    its Form XObjects, the cells (tiling patterns' cells, soft masks' groups), what loads once per
    page: the glyph procedures of its Type3 fonts as (stream, font) pairs and its shadings as (key, -1)
    pairs, and ``tint``, the bytes-equivalent of converting a colour of its colour spaces, which each
    painting operation may do for its fill and stroke. ``key`` names the dictionary."""
    key: tuple
    forms: dict[bytes, int]
    cells: tuple[int, ...]
    procs: tuple[tuple[int, int], ...]
    tint: float = 0.0
    masks: tuple[int, ...] = ()  # the cells that are soft masks' groups


class _PageBudget:
    """Bounds text extraction before MuPDF builds the page: a page whose own drawing instructions
    decode to more than ``MAX_PAGE_CONTENT_MB`` is cut to that much (in the in-memory document
    only); a page whose Form XObjects, counted once per drawing, would add more than that or nest
    deeper than ``MAX_FORM_DEPTH`` is skipped. ``sizes``: xref → decoded bytes from check_streams.

    MuPDF runs other content streams too, and any of them may draw forms: an annotation's
    appearance; a tiling pattern's cell and a soft mask's group, again for every painting operation
    while they are the colour or the mask (forms drawn meanwhile inherit them); a Type3 font's glyph
    procedures, once when the font loads. Which painting operation uses which cell is not tracked:
    a stream whose resources hold cells counts every cell once per painting operation it makes, its
    forms' included. A stream without resources of its own draws with its caller's, as MuPDF does.
    Functions run too: a shading's are sampled once per page when it loads, and each painting operation
    may convert its fill and stroke colours through the costliest tint transform of the colour spaces
    its resources hold (counted like a cell: ``_Scope.tint``).
    Read with MuPDF's own calls on the loaded objects (names as MuPDF decodes them, "#xx" escapes
    included)."""

    def __init__(self, doc: pymupdf.Document, sizes: StreamSizes):
        self.doc = doc
        self.sizes = sizes
        self.limit = MAX_PAGE_CONTENT_MB * 2**20
        self._raw = _pdf_document(doc)
        self._costs: dict[tuple, tuple] = {}  # (stream, scope key) → (bytes interpreted, paintings, glyph procedures)
        self._scopes: dict = {}  # indirect resource dictionary, or ("node", page-tree node holding one) → its scope
        self._kinds: dict[int, bool] = {}  # XObject xref → whether it is a form
        self._type3: dict[int, bool] = {}  # font xref → whether it is a Type3 font
        self._steps: dict[int, float] = {}  # function xref → steps of one evaluation
        self._tints: dict[int, float] = {}  # colour space xref → steps of converting one colour
        self._shadings: dict[int, float] = {}  # shading key → bytes-equivalent of sampling its functions
        # content streams inflated in place: not in an encrypted file (its streams are decrypted as read)
        self._inflated: set[int] = set()
        m = pymupdf.mupdf
        self._room = 0 if m.pdf_dict_gets(m.pdf_trailer(self._raw), "Encrypt").m_internal else INFLATED_HELD_MB * 2**20

    def check(self, pno: int) -> str:
        """"" (fine), "cut" (content truncated) or "skipped" (forms beyond the limits)."""
        m = pymupdf.mupdf
        page = m.pdf_lookup_page_obj(self._raw, pno)
        contents = _streams_of(m.pdf_dict_get(page, m.PDF_ENUM_NAME_Contents))
        own = sum(map(self.sizes.most, contents))
        if own > self.limit:  # the most they could hold is too much: how much they hold
            self._inflate(contents)
            own = sum(self.sizes.size(self.doc, x) for x in contents)
        holder = _holder(page)  # pages inheriting one dictionary written in place share its scope
        scope = self._scope(m.pdf_dict_get_inheritable(page, m.PDF_ENUM_NAME_Resources),
                            ("node", holder) if holder else ("page", pno))
        shown = self._appearances(page)  # MuPDF draws them too, each one listed (the same one many times)
        shown = [(n, self._cost(x, 1, scope)) for x, n in Counter(shown).items()] if shown else []
        drawn = sum(n * c for n, (c, _, _) in shown)
        procs = set(scope.procs if scope else ()).union(*(p for _, (_, _, p) in shown))
        if scope and (scope.forms or scope.cells or scope.tint):  # only a page that can draw a form, run a
            # cell or convert colours through a function needs its instructions read
            head = b"\n".join(self._prefix(x, self.limit) for x in contents)[:self.limit]  # MuPDF parts them too
            more, loads = self._drawn(head, scope, 1)
            drawn, procs = drawn + more, procs | loads
        drawn += sum(self._shadings[x] if font == -1 else self._cost(x, 1, scope, font)[0]
                     for x, font in procs)  # each font and shading loads once
        if drawn > self.limit:
            return "skipped"
        if own <= self.limit:
            return ""
        left = self.limit
        for x in contents:  # keep the first MAX_PAGE_CONTENT_MB of the page's instructions
            piece = self._prefix(x, left)
            self.doc.update_stream(x, piece, compress=False)
            left -= len(piece)
        return "cut"

    def _appearances(self, page) -> list[int]:
        """The appearance streams of the page's annotations (/AP /N, one per state), which text
        extraction draws like forms. More than ``MAX_ANNOTATIONS``: one endless appearance (MuPDF loads
        and draws every one, ~4 µs each even when empty; a page listing one annotation 100,000 times took 4 s)."""
        m = pymupdf.mupdf
        annots = m.pdf_dict_get(page, m.PDF_ENUM_NAME_Annots)
        if m.pdf_array_len(annots) > MAX_ANNOTATIONS:
            return [-1]
        found = []
        for i in range(m.pdf_array_len(annots)):
            normal = m.pdf_dict_getp(m.pdf_array_get(annots, i), "AP/N")
            if m.pdf_is_stream(normal):
                found.append(m.pdf_to_num(normal))
            else:  # one appearance per state: << /On 7 0 R /Off 8 0 R >>, maybe held by reference
                states = (m.pdf_dict_get_val(normal, j) for j in range(m.pdf_dict_len(normal)))
                found.extend(m.pdf_to_num(s) for s in states if m.pdf_is_stream(s))
        return found

    def _scope(self, resources, owner: tuple) -> _Scope | None:
        """The :class:`_Scope` of a resource dictionary (None when there is none); ``owner`` names a
        dictionary written in place. Beyond ``MAX_RESOURCES`` entries of one kind: one endless cell."""
        m = pymupdf.mupdf
        if not m.pdf_is_dict(resources):
            return None
        num = m.pdf_to_num(resources) if m.pdf_is_indirect(resources) else 0
        known = num or (owner if owner[0] == "node" else 0)
        if known in self._scopes:
            return self._scopes[known]
        forms: dict[bytes, int] = {}
        cells: list[int] = []
        procs: list[tuple[int, int]] = []
        tint = 0.0
        masks: list[int] = []
        for kind in (m.PDF_ENUM_NAME_XObject, m.PDF_ENUM_NAME_Pattern, m.PDF_ENUM_NAME_ExtGState,
                     m.PDF_ENUM_NAME_Font, m.PDF_ENUM_NAME_ColorSpace, m.PDF_ENUM_NAME_Shading):
            entries = m.pdf_dict_get(resources, kind)
            n = m.pdf_dict_len(entries)
            if n > MAX_RESOURCES:
                cells.append(-1)
                break
            for i in range(n):
                value = m.pdf_dict_get_val(entries, i)
                if kind == m.PDF_ENUM_NAME_XObject:
                    if m.pdf_is_indirect(value) and self._is_form(value):
                        forms[m.pdf_to_name(m.pdf_dict_get_key(entries, i)).encode("utf-8", "surrogateescape")] = (
                            m.pdf_to_num(value))
                elif kind == m.PDF_ENUM_NAME_Pattern:  # a tiling pattern is a stream, a shading pattern a dictionary
                    if m.pdf_is_stream(value):
                        cells.append(m.pdf_to_num(value))
                    else:
                        procs.append(self._shading(m.pdf_dict_get(value, m.PDF_ENUM_NAME_Shading)))
                elif kind == m.PDF_ENUM_NAME_Shading:
                    procs.append(self._shading(value))
                elif kind == m.PDF_ENUM_NAME_ColorSpace:  # a painting converts its fill and stroke colours
                    tint = max(tint, 2 * self._tint_steps(value) / _FUNCTION_STEPS_PER_BYTE)
                elif kind == m.PDF_ENUM_NAME_ExtGState:
                    group = m.pdf_dict_get(m.pdf_dict_get(value, m.PDF_ENUM_NAME_SMask), m.PDF_ENUM_NAME_G)
                    if m.pdf_is_stream(group):
                        cells.append(m.pdf_to_num(group))
                        masks.append(m.pdf_to_num(group))
                elif self._is_type3(value):
                    glyphs = m.pdf_dict_get(value, m.PDF_ENUM_NAME_CharProcs)
                    count = m.pdf_dict_len(glyphs)
                    if count > MAX_RESOURCES:
                        cells.append(-1)
                        break
                    font = m.pdf_to_num(value)
                    procs.extend((m.pdf_to_num(g), font) for g in (m.pdf_dict_get_val(glyphs, j) for j in range(count))
                                 if m.pdf_is_stream(g))
        tint = tint if tint > 1 else 0.0  # cheaper than reading the painting operation itself: counted with it
        scope = _Scope(("obj", num) if num else owner, forms, tuple(cells), tuple(procs), tint, tuple(masks))
        if known:
            self._scopes[known] = scope
        return scope

    def _shading(self, shading) -> tuple[int, int]:
        """The (key, -1) entry of a shading, its cost in ``_shadings``: sampling its functions when it loads."""
        m = pymupdf.mupdf
        key = m.pdf_to_num(shading) if m.pdf_is_indirect(shading) else -len(self._shadings) - 1
        if key not in self._shadings:
            kind = _int_value(m.pdf_dict_get(shading, m.PDF_ENUM_NAME_ShadingType))
            steps = self._function_steps(m.pdf_dict_get(shading, m.PDF_ENUM_NAME_Function))
            self._shadings[key] = _SHADING_SAMPLES.get(kind, 256) * steps / _FUNCTION_STEPS_PER_BYTE
        return key, -1

    def _tint_steps(self, space, depth: int = 0) -> float:
        """Steps of converting one colour of a colour space: its tint transform's (Separation, DeviceN),
        its base's (Indexed, Pattern)."""
        m = pymupdf.mupdf
        if depth > MAX_FORM_DEPTH:
            return math.inf
        if not m.pdf_is_array(space):
            return 0.0
        xref = m.pdf_to_num(space) if m.pdf_is_indirect(space) else 0
        if xref in self._tints:
            return self._tints[xref]
        family = m.pdf_array_get(space, 0)
        steps = 0.0
        if m.pdf_name_eq(family, m.PDF_ENUM_NAME_Separation) or m.pdf_name_eq(family, m.PDF_ENUM_NAME_DeviceN):
            steps = self._function_steps(m.pdf_array_get(space, 3)) + self._tint_steps(m.pdf_array_get(space, 2),
                                                                                      depth + 1)
        elif m.pdf_name_eq(family, m.PDF_ENUM_NAME_Indexed) or m.pdf_name_eq(family, m.PDF_ENUM_NAME_Pattern):
            steps = self._tint_steps(m.pdf_array_get(space, 1), depth + 1)
        if xref:
            self._tints[xref] = steps
        return steps

    def _function_steps(self, function, depth: int = 0) -> float:
        """Steps of one evaluation of a function (or an array of them, one per colour component): a
        PostScript function's code bytes, a sampled function's 2**inputs samples per output, a stitching
        function's parts together."""
        m = pymupdf.mupdf
        if depth > MAX_FORM_DEPTH:
            return math.inf
        if m.pdf_is_array(function):
            return sum(self._function_steps(m.pdf_array_get(function, i), depth + 1)
                       for i in range(m.pdf_array_len(function)))
        if not m.pdf_is_dict(function):
            return 0.0
        xref = m.pdf_to_num(function) if m.pdf_is_indirect(function) else 0
        if xref in self._steps:
            return self._steps[xref]
        if xref:
            self._steps[xref] = math.inf  # a function made of itself
        kind = _int_value(m.pdf_dict_get(function, m.PDF_ENUM_NAME_FunctionType))
        outputs = max(1, m.pdf_array_len(m.pdf_dict_get(function, m.PDF_ENUM_NAME_Range)) // 2)
        if kind == 4:
            steps = float(self.sizes.size(self.doc, xref) or len(self._prefix(xref, self.limit)) if xref else 0)
        elif kind == 0:
            inputs = m.pdf_array_len(m.pdf_dict_get(function, m.PDF_ENUM_NAME_Domain)) // 2
            steps = float(_SAMPLE_STEPS * 2 ** min(inputs, 64) * outputs)
        elif kind == 3:
            steps = self._function_steps(m.pdf_dict_get(function, m.PDF_ENUM_NAME_Functions), depth + 1)
        else:
            steps = float(_SAMPLE_STEPS * outputs)
        if xref:
            self._steps[xref] = steps
        return steps

    def _inflate(self, contents: list[int]) -> None:
        """The page's Flate content streams, whose size the budget needs, decoded in the in-memory document
        (the file is untouched): each that inflates cleanly to at most ``MAX_PAGE_CONTENT_MB`` with no
        decoding parameters, until ``INFLATED_HELD_MB`` are held. MuPDF then reads their bytes instead of
        inflating them again to extract the text (the same bytes, so the same text). A damaged, larger or
        predicted stream is left as it is, its size counted and MuPDF decoding it as before."""
        m = pymupdf.mupdf
        for xref in contents:
            if xref in self._inflated or self._room <= 0:
                continue
            self._inflated.add(xref)
            try:
                obj = m.pdf_load_object(self._raw, xref)
                if _filter_chain(obj) != ["/FlateDecode"] or any(
                        m.pdf_dict_gets(obj, key).m_internal for key in ("DecodeParms", "DP")):
                    continue
                inflater = zlib.decompressobj()
                data = inflater.decompress(m.fz_buffer_extract_copy(m.pdf_load_raw_stream_number(self._raw, xref)),
                                           self.limit + 1)
                if not inflater.eof or len(data) > self.limit:
                    continue
                self.doc.update_stream(xref, data, compress=False)
            except Exception:  # zlib.error and MuPDF's: left for MuPDF
                continue
            self.sizes[xref] = len(data)
            self._room -= len(data)

    def _is_form(self, obj) -> bool:
        m = pymupdf.mupdf
        xref = m.pdf_to_num(obj)
        known = self._kinds.get(xref)
        if known is None:
            known = self._kinds[xref] = bool(m.pdf_is_stream(obj)) and bool(
                m.pdf_name_eq(m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Subtype), m.PDF_ENUM_NAME_Form))
        return known

    def _is_type3(self, font) -> bool:
        m = pymupdf.mupdf
        xref = m.pdf_to_num(font)
        known = self._type3.get(xref) if xref else None
        if known is None:
            known = bool(m.pdf_name_eq(m.pdf_dict_get(font, m.PDF_ENUM_NAME_Subtype), m.PDF_ENUM_NAME_Type3))
            if xref:
                self._type3[xref] = known
        return known

    def _prefix(self, xref: int, limit: int) -> bytes:
        if limit <= 0:
            return b""
        try:
            filters = _filters(self.doc, xref)
            data = _decoded_prefix(self.doc.xref_stream_raw(xref), filters, limit) if filters else None
            if data is None:
                data = self.doc.xref_stream(xref)[:limit]
        except Exception:
            return b""
        return data or b""

    def _drawn(self, content: bytes, scope: _Scope, depth: int) -> tuple[float, set[tuple[int, int]]]:
        """(bytes MuPDF would interpret for what ``content`` runs, drawn with ``scope``: its forms, each
        drawing counted, and per painting operation its cells; the glyph procedures of the Type3 fonts
        it can load, run once each)."""
        forms, paintings, procs = self._forms(content, scope, depth, paint=bool(scope.cells or scope.tint))
        each, loads = self._cells(scope, depth)
        return forms + paintings * each, procs | loads

    def _forms(self, content: bytes, scope: _Scope, depth: int,
               paint: bool = True) -> tuple[float, int, set[tuple[int, int]]]:
        """(bytes interpreted for the forms ``content`` draws, painting operations it makes, its forms'
        included, the glyph procedures its forms can load). A form's paintings are counted whether or
        not its own resources hold cells: a form draws with the colour and soft mask it inherits, so each
        of its paintings runs its caller's cells too. ``paint``: count those of ``content`` itself."""
        total = 0.0
        paintings = len(_PAINT.findall(content)) if paint else 0
        procs = set(scope.procs)
        for names, count in _count_names(content, scope.forms).items():  # each drawing: the costliest it may be
            drawn = [self._cost(scope.forms[n], depth, scope) for n in names]
            total += count * max(c for c, _, _ in drawn)
            paintings += count * max(p for _, p, _ in drawn)
            procs = procs.union(*(p for _, _, p in drawn))
            if total > self.limit:
                break
        return total, paintings, procs

    def _cells(self, scope: _Scope, depth: int) -> tuple[float, frozenset[tuple[int, int]]]:
        """(bytes interpreted per painting operation drawn with ``scope``: its cells, its colours' tint
        transforms; what the cells load). A soft mask's group paints with the colour it inherits, so
        each of its paintings runs the pattern cells again (a pattern's cell does not rerun the mask)."""
        found = [(x, self._cost(x, depth, scope)) for x in scope.cells]
        patterns = sum(c for x, (c, _, _) in found if x not in scope.masks)
        masked = sum(p for x, (_, p, _) in found if x in scope.masks)
        return (scope.tint + sum(c for _, (c, _, _) in found) + masked * patterns,
                frozenset().union(*(p for _, (_, _, p) in found)))

    def _cost(self, xref: int, depth: int, caller: _Scope | None,
              font: int = 0) -> tuple[float, int, frozenset[tuple[int, int]]]:
        """(bytes interpreted, painting operations, glyph procedures it can load) of running the stream
        ``xref`` once: drawn with its own resources, or a glyph procedure's with its ``font``'s, or else
        with the ``caller``'s. A glyph procedure's own Type3 fonts are not followed (each font loads once)."""
        if depth > MAX_FORM_DEPTH or xref < 0:
            return math.inf, 0, frozenset()
        m = pymupdf.mupdf
        try:
            resources = m.pdf_dict_get(m.pdf_load_object(self._raw, font or xref), m.PDF_ENUM_NAME_Resources)
        except Exception:
            resources = m.PdfObj()
        scope = self._scope(resources, ("stream", font or xref)) or caller
        key = (xref, scope.key if scope else None)
        if key in self._costs:
            return self._costs[key]
        self._costs[key] = (math.inf, 0, frozenset())  # a form that draws itself never ends
        body = self._prefix(xref, self.limit)
        if scope is None:
            found = (len(body), len(_PAINT.findall(body)), frozenset())
        else:
            forms, paintings, procs = self._forms(body, scope, depth + 1)
            each, loads = self._cells(scope, depth + 1)
            loads |= procs
            found = (len(body) + forms + paintings * each, paintings,
                     frozenset((x, f) for x, f in loads if f == -1) if font else frozenset(loads))
        self._costs[key] = found
        return found


def _streams_of(contents) -> list[int]:
    """The xrefs of a page's /Contents: one stream or an array of them (maybe held by reference)."""
    m = pymupdf.mupdf
    if m.pdf_is_array(contents):
        return [m.pdf_to_num(c) for c in (m.pdf_array_get(contents, i) for i in range(m.pdf_array_len(contents)))
                if m.pdf_is_indirect(c)]
    return [m.pdf_to_num(contents)] if m.pdf_is_stream(contents) else []


def _count_names(content: bytes, forms: dict[bytes, int]) -> dict[frozenset[bytes], int]:
    """The names of ``forms`` written before each "Do" since the previous one (what it draws is one of
    them, or no form), as MuPDF decodes them: name set → how many drawings."""
    counts: dict[frozenset[bytes], int] = {}
    start = 0
    for m in _DO.finditer(content):
        names = frozenset(n for n in map(_name, set(_NAME_TOKEN.findall(content, start, m.start()))) if n in forms)
        if names:
            counts[names] = counts.get(names, 0) + 1
        start = m.end()
    return counts


_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def _name(written: bytes) -> bytes:
    """A PDF name as MuPDF reads it: "#xx" escapes decoded, so "/#58 Do" in a content stream draws the
    resource MuPDF prints as "/X" (compared as written, the two would not meet and the form go uncounted)."""
    return _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), written) if b"#" in written else written


# --- decoding filter chains in bounded memory --------------------------------------------------------
_CHUNK = 2**20
_FILTER_NAMES = {"/Fl": "/FlateDecode", "/AHx": "/ASCIIHexDecode", "/A85": "/ASCII85Decode",
                 "/RL": "/RunLengthDecode", "/LZW": "/LZWDecode"}
_IMAGE_CODECS = {"/DCTDecode", "/DCT", "/JPXDecode", "/JBIG2Decode", "/CCITTFaxDecode", "/CCF"}


def _filters(doc: pymupdf.Document, xref: int) -> list[str]:
    """The stream's filter chain in order of application, e.g. ["/ASCIIHexDecode", "/FlateDecode"]."""
    return _filter_chain(pymupdf.mupdf.pdf_load_object(_pdf_document(doc), xref))


def _filter_chain(obj) -> list[str]:
    """The filter chain of a loaded stream object: its /Filter name, or the names of its /Filter
    array, each followed through references as MuPDF follows them when it decodes the stream
    (``/Filter [6 0 R]`` with object 6 ``/FlateDecode`` is a Flate stream), abbreviations spelled out."""
    m = pymupdf.mupdf
    value = m.pdf_dict_getp(obj, "Filter")
    if not value.m_internal:
        return []
    value = m.pdf_resolve_indirect_chain(value)
    if m.pdf_is_name(value):
        found = [value]
    elif m.pdf_is_array(value):
        found = [item for item in (m.pdf_resolve_indirect_chain(m.pdf_array_get(value, i))
                                   for i in range(m.pdf_array_len(value))) if m.pdf_is_name(item)]
    else:
        return []
    return [_FILTER_NAMES.get(f"/{n}", f"/{n}") for n in map(m.pdf_to_name, found)]


def _int_value(obj) -> int | None:
    """A PDF object's value when it is a non-negative integer, written in place or held by
    reference (``/Width 7 0 R``: MuPDF follows it when it decodes the image), else None."""
    m = pymupdf.mupdf
    if not obj.m_internal:
        return None
    obj = m.pdf_resolve_indirect_chain(obj)
    if not m.pdf_is_int(obj):
        return None
    value = m.pdf_to_int(obj)
    return value if value >= 0 else None


def _decoded_size(raw: bytes, filters: list[str], cap: int) -> int | None:
    """Bytes ``raw`` decodes to through ``filters``, counting at most a little past ``cap``;
    None when the chain holds a filter this module does not decode (e.g. Crypt)."""
    total = 0
    chunks = _decode_chain(raw, filters)
    if chunks is None:
        return None
    for chunk in chunks:
        total += len(chunk)
        if total > cap:
            break
    return total


def _decoded_prefix(raw: bytes, filters: list[str], limit: int) -> bytes | None:
    """The first ``limit`` decoded bytes of a stream, or None for a filter this module does not decode."""
    chunks = _decode_chain(raw, filters)
    if chunks is None:
        return None
    out = bytearray()
    for chunk in chunks:
        out += chunk[:limit - len(out)]
        if len(out) >= limit:
            break
    return bytes(out)


def _decode_chain(raw: bytes, filters: list[str]):
    stages = {"/FlateDecode": _flate, "/ASCIIHexDecode": _ascii_hex, "/ASCII85Decode": _ascii85,
              "/RunLengthDecode": _run_length, "/LZWDecode": _lzw}
    chunks = (raw[i:i + _CHUNK] for i in range(0, max(len(raw), 1), _CHUNK))
    for f in filters:
        if f in _IMAGE_CODECS:
            break  # an image codec last: its output is bounded by the image's declared size
        if f not in stages:
            return None
        chunks = stages[f](chunks)
    return chunks


def _flate(chunks):
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            pending = chunk
            while pending:
                out = inflater.decompress(pending, _CHUNK)
                pending = inflater.unconsumed_tail
                if out:
                    yield out
                elif inflater.eof:
                    return
                else:
                    break
            if inflater.eof:
                return
    except zlib.error:
        return  # damaged data: MuPDF decides what it can read


def _ascii_hex(chunks):
    carry = b""
    for chunk in chunks:
        end = chunk.find(b">")
        digits = carry + (chunk if end < 0 else chunk[:end]).translate(None, b" \t\r\n\f\0")
        cut = len(digits) - len(digits) % 2
        carry = digits[cut:]
        try:
            yield binascii.unhexlify(digits[:cut])
        except binascii.Error:
            return
        if end >= 0:
            break
    if carry:
        yield b"\0"


def _ascii85(chunks):
    text = bytearray()
    for chunk in chunks:  # ASCII85 at most quadruples ("z"): keep its input, bounded by the caller's cap
        text += chunk
        if b"~>" in chunk or len(text) > MAX_STREAM_MB * 2**20:
            break
    body = bytes(text).split(b"~>")[0].translate(None, b" \t\r\n\f\0")
    if body.startswith(b"<~"):
        body = body[2:]
    start = 0
    while start < len(body):
        end = min(start + _CHUNK, len(body))
        while end < len(body) and (end - start - body.count(b"z", start, end)) % 5:
            end -= 1  # cut between five-character groups
        try:
            yield base64.a85decode(body[start:end])
        except ValueError:
            return
        start = end


def _run_length(chunks):
    data = bytearray()
    out = bytearray()
    for chunk in chunks:
        data += chunk
        i = 0
        while i < len(data):
            n = data[i]
            if n == 128:
                yield bytes(out)
                return
            if n < 128:
                if i + 1 + n + 1 > len(data):
                    break
                out += data[i + 1:i + 2 + n]
                i += 2 + n
            else:
                if i + 1 >= len(data):
                    break
                out += data[i + 1:i + 2] * (257 - n)
                i += 2
            if len(out) >= _CHUNK:
                yield bytes(out)
                out.clear()
        del data[:i]
    yield bytes(out)


def _lzw(chunks):
    """LZW (early change) decoding; the table holds strings, so memory stays bounded (4,096 entries)."""
    table = [bytes([i]) for i in range(256)] + [b"", b""]
    width, buffer, bits, prev = 9, 0, 0, b""
    out = bytearray()
    for chunk in chunks:
        for byte in chunk:
            buffer = (buffer << 8) | byte
            bits += 8
            while bits >= width:
                bits -= width
                code = (buffer >> bits) & ((1 << width) - 1)
                buffer &= (1 << bits) - 1
                if code == 256:
                    table, width, prev = table[:258], 9, b""
                    continue
                if code == 257:
                    yield bytes(out)
                    return
                if code < len(table):
                    entry = table[code]
                elif code == len(table) and prev:
                    entry = prev + prev[:1]
                else:
                    yield bytes(out)
                    return
                if prev and len(table) < 4096:
                    table.append(prev + entry[:1])
                prev = entry
                out += entry
                if len(table) + 1 >= (1 << width) and width < 12:
                    width += 1
            if len(out) >= _CHUNK:
                yield bytes(out)
                out.clear()
    yield bytes(out)


def _inflated_size(raw: bytes, cap: int) -> int:
    """Bytes ``raw`` (zlib data) inflates to, counting at most a little past ``cap``."""
    return _decoded_size(raw, ["/FlateDecode"], cap) or 0


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
    html_text = _page_html(page)
    spans_of = _SPAN.findall
    for chunk in html_text.split("<p ")[1:]:
        spans = spans_of(chunk)
        if len(spans) == 1:  # most lines: the line is its one span
            style, text = spans[0]
            if "&" in text:
                text = _entities(text)
            joined = " ".join(text.split())
            if joined:
                _, rounded, heavy = _STYLES.get(style) or _span_style(style)
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
                out.append(_new_line((joined, round(size, 1), bold * 2 >= total)))
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
        pageref = m.pdf_lookup_page_obj(_pdf_document(page.parent), page.number)
        resources = m.pdf_dict_get_inheritable(pageref, m.PDF_ENUM_NAME_Resources)
        key = ("obj", m.pdf_to_num(resources)) if m.pdf_is_indirect(resources) else ("in", _holder(pageref))
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


def _holder(node) -> int:
    """The object number of the page-tree node whose /Resources a page inherits (itself or an ancestor,
    within 64 levels), 0 when not found."""
    m = pymupdf.mupdf
    for _ in range(64):
        if m.pdf_dict_get(node, m.PDF_ENUM_NAME_Resources).m_internal:
            return m.pdf_to_num(node)
        node = m.pdf_dict_get(node, m.PDF_ENUM_NAME_Parent)
        if not node.m_internal:
            break
    return 0


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


def _pictures(images: Sequence[Sequence[tuple[int, int]]]) -> list[int]:
    """For each page, how many pictures of its own it holds: images of at least
    ``PICTURE_MIN_PIXELS`` that at most ``PICTURE_MAX_SHARE`` of the pages (or two) hold, so a
    logo or background repeated on every page is no picture."""
    uses = Counter(x for page in images for x in {x for x, _ in page})
    most = max(2.0, PICTURE_MAX_SHARE * len(images))
    return [len({x for x, pixels in page if pixels >= PICTURE_MIN_PIXELS and uses[x] <= most}) for page in images]


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
        budget = _PageBudget(doc, _checked_streams(doc, content_hash(data), name))
        n = doc.page_count
        m = min(n, sample)
        wide = pictures = seen = 0.0
        for i in sorted({round(k * (n - 1) / max(1, m - 1)) for k in range(m)}):
            with _PAGE_LOCK:
                try:
                    if budget.check(i) == "skipped":
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


def render_page_png(data: bytes, page: int, *, zoom: float = 1.5, highlight: str | Sequence[str] = "") -> bytes:
    """PNG of 1-based ``page``; ``highlight`` text (one passage or several) is marked in translucent yellow."""
    doc = open_pdf(data, max_pages=10**9)
    try:
        if not 1 <= page <= doc.page_count:
            raise errors.NotFoundError(f"Page {page} does not exist; the document has {doc.page_count} pages.")
        pg = doc[page - 1]
        rect = pg.rect
        area = max(rect.width * rect.height, 1.0)
        zoom = min(zoom, math.sqrt(MAX_RENDER_PIXELS / area))
        pix = pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        passages = [highlight] if isinstance(highlight, str) else list(highlight)
        if any(passages):
            rects = [r for passage in passages if passage for r in _find(pg, passage)]
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
