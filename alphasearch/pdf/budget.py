"""Page budgets: what MuPDF would interpret to extract one page's text, bounded before it builds the page.

A page whose own drawing instructions decode to more than ``MAX_PAGE_CONTENT_MB`` is cut to that
much; a page whose forms, cells, glyph procedures, annotations, functions or inline images would make
MuPDF interpret more than that (or nest forms deeper than ``MAX_FORM_DEPTH``) is skipped; a document
whose pages together count more than ``MAX_DOCUMENT_CONTENT_MB`` is too much (:class:`_PageBudget`).
Part of :mod:`alphasearch.pdf`, the only package that imports pymupdf.
"""
from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from dataclasses import dataclass

import pymupdf

from .codecs import jbig2_bytes, jpeg_bytes
from .streams import StreamSizes, decoded_prefix, filter_chain, stream_filters, int_value, pdf_document

MAX_PAGE_CONTENT_MB = 4  # drawing instructions read per page (text extraction holds ~30 bytes per character)
# what the pages of one document together make MuPDF interpret, their budgets summed: a 10-K's pages count
# 0.05-0.15 MB each (at most 29 MB for one of the 74 eval PDFs), so the 5,000 pages a document may have
# (Settings.max_pages) fit; MuPDF takes 12-110 ns per byte, so at most ~85 s, inside the worker's 120 s (100
# pages drawing one 4 MB content stream took 18 s). A document beyond is refused before any page is read
MAX_DOCUMENT_CONTENT_MB = 768
MAX_FORM_DEPTH = 12  # Form XObjects drawn inside forms drawn inside forms…; deeper pages lose their text
INFLATED_HELD_MB = 64  # page contents held decoded in the in-memory document per file (MuPDF reads them as they are)
MAX_ANNOTATIONS = 10_000  # annotations per page (a page listing more is skipped)
MAX_RESOURCES = 100_000  # forms, patterns, graphics states, fonts or glyphs of one kind in one resource dictionary
# what the budget itself decodes and scans to judge one page (its instructions and every stream they run, each
# read once): 0.62 MB at most for a page of the 74 eval PDFs. Scanning form-drawing instructions takes ~0.1 s per
# MB: a page whose one "Do" named 400 forms of 4 MB each took 105 s to judge, in the app before each preview
MAX_READ_MB = 16

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
# Inline images (BI <dictionary> ID <data> EI): MuPDF decodes each as it reads the instructions, into
# width x height x components bytes (1-, 2- and 4-bit samples spread to a byte each, 16-bit ones kept
# at two), ~3 ns per byte whatever the filter (Flate, DCT, 1-bit masks), so 16 bytes of its pixels count
# as one byte of drawing instructions. The operator is "BI" after white space, a delimiter or a number,
# followed by a name or the end of the dictionary (MuPDF's lexer ends a number at a letter: "0BI" is BI);
# "BI" inside an image's data may pass for one, which only counts more. Each dictionary MuPDF's parser
# reads counts _INLINE_DICT bytes besides (reading one took 4.5 µs, 52 µs when it fails)
_IMAGE_BYTES_PER_BYTE = 16
_INLINE_DICT = 512
_UNREADABLE_DICT = 16384
_BI = re.compile(rb"(?<![^\s\x00()<>\[\]{}0-9.+\-])BI(?=(?:[\s\x00]|%[^\r\n]*)*(?:/|ID|>>))")
_BI_FAST = re.compile(rb"BI")
_COMPONENTS = {"DeviceGray": 1, "G": 1, "CalGray": 1, "DeviceRGB": 3, "RGB": 3, "CalRGB": 3, "Lab": 3,
               "DeviceCMYK": 4, "CMYK": 4, "Separation": 1}
_MOST_COMPONENTS = 32  # MuPDF's FZ_MAX_COLORS; a colour space the budget cannot name counts 4


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
    spaces: dict[str, int] | None = None  # colour space name → components of the pixels MuPDF decodes in it


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
    its resources hold (counted like a cell: ``_Scope.tint``). Any of these streams may show inline
    images, which MuPDF decodes as it reads them (:meth:`_inline`). ``spent`` sums what the pages
    checked so far count, each page once per check: beyond ``MAX_DOCUMENT_CONTENT_MB`` a page is "over".
    Read with MuPDF's own calls on the loaded objects (names as MuPDF decodes them, "#xx" escapes
    included)."""

    def __init__(self, doc: pymupdf.Document, sizes: StreamSizes):
        self.doc = doc
        self.sizes = sizes
        self.limit = MAX_PAGE_CONTENT_MB * 2**20
        self._raw = pdf_document(doc)
        self._costs: dict[tuple, tuple] = {}  # (stream, scope key) → (bytes interpreted, paintings, glyph procedures)
        self._scopes: dict = {}  # indirect resource dictionary, or ("node", page-tree node holding one) → its scope
        self._kinds: dict[int, bool] = {}  # XObject xref → whether it is a form
        self._type3: dict[int, bool] = {}  # font xref → whether it is a Type3 font
        self._steps: dict[int, float] = {}  # function xref → steps of one evaluation
        self._tints: dict[int, float] = {}  # colour space xref → steps of converting one colour
        self._shadings: dict[int, float] = {}  # shading key → bytes-equivalent of sampling its functions
        self._dicts: dict[tuple, tuple[float, int]] = {}  # (inline image dictionary, scope key) → (cost, bytes read)
        # content streams inflated in place: not in an encrypted file (its streams are decrypted as read)
        self._inflated: set[int] = set()
        self.spent = 0.0  # what the pages checked so far make MuPDF interpret (each page's budget, summed)
        self._read = 0  # bytes the budget decoded to judge the page being checked
        m = pymupdf.mupdf
        self._room = 0 if m.pdf_dict_gets(m.pdf_trailer(self._raw), "Encrypt").m_internal else INFLATED_HELD_MB * 2**20

    def check(self, pno: int) -> str:
        """"" (fine), "cut" (content truncated), "skipped" (forms beyond the limits) or "over" (this page
        would take the pages checked so far beyond ``MAX_DOCUMENT_CONTENT_MB``: the document is too much)."""
        m = pymupdf.mupdf
        page = m.pdf_lookup_page_obj(self._raw, pno)
        contents = _streams_of(m.pdf_dict_get(page, m.PDF_ENUM_NAME_Contents))
        inflated = self._inflate(contents)  # read by the budget: MuPDF then reads them without inflating them again
        own = sum(map(self.sizes.most, contents))
        if own > self.limit:  # the most they could hold is too much: how much they hold
            own = sum(self.sizes.size(self.doc, x) for x in contents)
        self._read, head = 0, b""
        try:  # beyond MAX_READ_MB read to judge it, the page is skipped
            holder = _holder(page)  # pages inheriting one dictionary written in place share its scope
            scope = self._scope(m.pdf_dict_get_inheritable(page, m.PDF_ENUM_NAME_Resources),
                                ("node", holder) if holder else ("page", pno))
            shown = self._appearances(page)  # MuPDF draws them too, each one listed (the same one many times)
            shown = [(n, self._cost(x, 1, scope)) for x, n in Counter(shown).items()] if shown else []
            drawn = sum(n * c for n, (c, _, _) in shown)
            procs = set(scope.procs if scope else ()).union(*(p for _, (_, _, p) in shown))
            head = self._head(contents, inflated)
            if scope and (scope.forms or scope.cells or scope.tint):  # only a page that can draw a form, run a
                # cell or convert colours through a function needs its painting operations counted
                more, loads = self._drawn(head, scope, 1)
                drawn, procs = drawn + more, procs | loads
            drawn += self._inline(head, scope)
            drawn += sum(self._shadings[x] if font == -1 else self._cost(x, 1, scope, font)[0]
                         for x, font in procs)  # each font and shading loads once
        except _Overread:
            drawn = math.inf
        skipped = drawn > self.limit
        self.spent += len(head) + (0 if skipped else drawn)  # a skipped page's instructions: read by the budget
        if self.spent > MAX_DOCUMENT_CONTENT_MB * 2**20:
            return "over"
        if skipped:
            return "skipped"
        if own <= self.limit:
            return ""
        left = self.limit
        for x in contents:  # keep the first MAX_PAGE_CONTENT_MB of the page's instructions
            piece = self._prefix(x, left)
            self.doc.update_stream(x, piece, compress=False)
            left -= len(piece)
        return "cut"

    def _head(self, contents: list[int], inflated: dict[int, bytes]) -> bytes:
        """The first ``limit`` bytes of the page's instructions, its content streams joined by newlines as MuPDF
        parts them, each read no further than needed (a page listing one 4 MB stream 100 times held 400 MB)."""
        head = bytearray()
        for i, x in enumerate(contents):
            if i:
                head += b"\n"
            left = self.limit - len(head)
            if left <= 0:
                break
            piece = inflated.get(x)
            head += piece[:left] if piece is not None else self._prefix(x, left)
        return bytes(head[:self.limit])

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
        spaces: dict[str, int] = {}
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
                    spaces[m.pdf_to_name(m.pdf_dict_get_key(entries, i))] = self._components(value)
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
        scope = _Scope(("obj", num) if num else owner, forms, tuple(cells), tuple(procs), tint, tuple(masks), spaces)
        if known:
            self._scopes[known] = scope
        return scope

    def _shading(self, shading) -> tuple[int, int]:
        """The (key, -1) entry of a shading, its cost in ``_shadings``: sampling its functions when it loads."""
        m = pymupdf.mupdf
        key = m.pdf_to_num(shading) if m.pdf_is_indirect(shading) else -len(self._shadings) - 1
        if key not in self._shadings:
            kind = int_value(m.pdf_dict_get(shading, m.PDF_ENUM_NAME_ShadingType))
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
        kind = int_value(m.pdf_dict_get(function, m.PDF_ENUM_NAME_FunctionType))
        outputs = max(1, m.pdf_array_len(m.pdf_dict_get(function, m.PDF_ENUM_NAME_Range)) // 2)
        if kind == 4:
            try:
                steps = float(self.sizes.size(self.doc, xref) or len(self._prefix(xref, self.limit)) if xref else 0)
            except _Overread:
                self._steps.pop(xref, None)  # not known: judged again on another page
                raise
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

    def _inline(self, content: bytes, scope: _Scope | None) -> float:
        """Bytes-equivalent of the inline images ``content`` shows: each dictionary read with MuPDF's own
        parser (abbreviations, references and all), its pixels counted (``_IMAGE_BYTES_PER_BYTE``) with
        the colour space named in it or in ``scope``'s resources; a JPEG's or JBIG2 page's own size too
        (:func:`jpeg_bytes`, :func:`jbig2_bytes`). A "BI" that MuPDF's parser cannot read
        counts ``_UNREADABLE_DICT``: reading it is slow, and a real one would end MuPDF's reading."""
        if b"I" not in content or not _BI_FAST.search(content):  # most instructions hold no "I" (found 20x faster)
            return 0.0
        m = pymupdf.mupdf
        stream = lexer = None
        total = 0.0
        read = 0  # bytes MuPDF's parser went through: a dictionary holding "BI"s is read again from each
        for found in _BI.finditer(content):
            start = found.end()
            end = content.find(b"ID", start, start + 4096) + 2  # most dictionaries: a few repeated ones
            key = (content[start:end], scope.key if scope else None) if end > 1 else None
            cost, used, codec = self._dicts.get(key) or (None, 0, None)  # codec: reads the data's own header
            if cost is None:
                if stream is None:
                    stream = m.fz_open_buffer(m.fz_new_buffer_from_copied_data(content))
                    lexer = m.PdfLexbuf(m.PDF_LEXBUF_SMALL)
                m.fz_seek(stream, start, 0)
                try:
                    image = m.pdf_parse_dict(self._raw, stream, lexer)
                    cost = _INLINE_DICT + self._pixels(image, scope) / _IMAGE_BYTES_PER_BYTE
                    chain = m.pdf_dict_geta(image, m.PDF_ENUM_NAME_Filter, m.PDF_ENUM_NAME_F)
                    names = {m.pdf_to_name(f) for f in ([chain] if not m.pdf_is_array(chain) else
                                                        [m.pdf_array_get(chain, i) for i in range(m.pdf_array_len(chain))])}
                    codec = (jpeg_bytes if names & {"DCTDecode", "DCT"} else
                             jbig2_bytes if "JBIG2Decode" in names else None)
                except Exception:
                    cost = _UNREADABLE_DICT
                used = m.fz_tell(stream) - start
                if key and used <= len(key[0]) and len(self._dicts) < MAX_RESOURCES:  # read from those bytes only
                    self._dicts[key] = (cost, used, codec)
            total += cost + (codec(content, start + used) / _IMAGE_BYTES_PER_BYTE if codec else 0)
            read += used
            if read > len(content):
                return math.inf
            if total > self.limit:
                break
        return total

    def _pixels(self, image, scope: _Scope | None) -> int:
        """Bytes of the pixels MuPDF decodes an inline image to, from its dictionary."""
        m = pymupdf.mupdf
        width = max(0, m.pdf_to_int(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_Width, m.PDF_ENUM_NAME_W)))
        height = max(0, m.pdf_to_int(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_Height, m.PDF_ENUM_NAME_H)))
        bits = m.pdf_to_int(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_BitsPerComponent, m.PDF_ENUM_NAME_BPC))
        if m.pdf_to_bool(m.pdf_dict_geta(image, m.PDF_ENUM_NAME_ImageMask, m.PDF_ENUM_NAME_IM)):
            components = 1
        else:
            space = m.pdf_dict_geta(image, m.PDF_ENUM_NAME_ColorSpace, m.PDF_ENUM_NAME_CS)
            named = m.pdf_to_name(space) if m.pdf_is_name(space) else ""  # the resources' first, as MuPDF
            components = scope.spaces.get(named) if named and scope and scope.spaces else None
            if components is None:
                components = self._components(space)
        return width * height * components * (2 if bits > 8 else 1)

    def _components(self, space, depth: int = 0) -> int:
        """Components of the pixels MuPDF decodes in a colour space: an indexed one's index and its
        base's colours (MuPDF expands them), a DeviceN one's colorants, an ICC profile's /N."""
        m = pymupdf.mupdf
        if m.pdf_is_name(space):
            return _COMPONENTS.get(m.pdf_to_name(space), 4)
        if not m.pdf_is_array(space) or depth > MAX_FORM_DEPTH:
            return 4
        family = m.pdf_to_name(m.pdf_array_get(space, 0))
        if family in ("Indexed", "I"):
            return min(_MOST_COMPONENTS, 1 + self._components(m.pdf_array_get(space, 1), depth + 1))
        if family == "DeviceN":
            return min(_MOST_COMPONENTS, max(1, m.pdf_array_len(m.pdf_array_get(space, 1))))
        if family == "ICCBased":
            profile = m.pdf_array_get(space, 1)
            return min(_MOST_COMPONENTS, max(1, m.pdf_to_int(m.pdf_dict_get(profile, m.PDF_ENUM_NAME_N))))
        return _COMPONENTS.get(family, 4)

    def _inflate(self, contents: list[int]) -> dict[int, bytes]:
        """The page's Flate content streams, which the budget reads, decoded in the in-memory document
        (the file is untouched): each that inflates cleanly to at most ``MAX_PAGE_CONTENT_MB`` with no
        decoding parameters, until ``INFLATED_HELD_MB`` are held. MuPDF then reads their bytes instead of
        inflating them again to extract the text (the same bytes, so the same text). A damaged, larger or
        predicted stream is left as it is, its size counted and MuPDF decoding it as before. Returns xref → the
        bytes of those it inflated now."""
        m = pymupdf.mupdf
        done: dict[int, bytes] = {}
        for xref in contents:
            if xref in self._inflated or self._room <= 0:
                continue
            self._inflated.add(xref)
            try:
                obj = m.pdf_load_object(self._raw, xref)
                if filter_chain(obj) != ["/FlateDecode"] or any(
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
            done[xref] = data
            self._room -= len(data)
        return done

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
            filters = stream_filters(self.doc, xref)
            data = decoded_prefix(self.doc.xref_stream_raw(xref), filters, limit, self._raw, xref) if filters else None
            if data is None:
                data = self.doc.xref_stream(xref)[:limit]
        except Exception:
            return b""
        self._read += len(data or b"")
        if self._read > MAX_READ_MB * 2**20:
            raise _Overread
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
        try:
            body = self._prefix(xref, self.limit)
            if scope is None:
                found = (len(body) + self._inline(body, None), len(_PAINT.findall(body)), frozenset())
            else:
                forms, paintings, procs = self._forms(body, scope, depth + 1)
                each, loads = self._cells(scope, depth + 1)
                loads |= procs
                found = (len(body) + self._inline(body, scope) + forms + paintings * each, paintings,
                         frozenset((x, f) for x, f in loads if f == -1) if font else frozenset(loads))
        except _Overread:
            del self._costs[key]  # not known: judged again on another page
            raise
        self._costs[key] = found
        return found


class _Overread(Exception):
    """The page budget read more than ``MAX_READ_MB`` to judge one page."""


def image_pixels(doc: pymupdf.Document, pno: int) -> float:
    """Pixels of the images MuPDF may decode to render page ``pno`` (0-based), each image counted once (MuPDF
    keeps a decoded image for its next drawing): those listed by the page's resources and by those of every
    content stream rendering can run, followed to any depth: forms, tiling patterns' cells, soft masks'
    groups, Type3 fonts and their glyph procedures, the page's annotations' appearances (each state of
    /N, /R and /D); an image's own soft mask or stencil mask counts too. Counting only the page's forms let a
    page show ten images of 15,000 x 15,000 through a pattern's cell or an annotation (~5 s to render each
    time). ``math.inf`` beyond ``MAX_RESOURCES`` streams and dictionaries."""
    m = pymupdf.mupdf
    page = m.pdf_lookup_page_obj(pdf_document(doc), pno)
    pending = [m.pdf_dict_get_inheritable(page, m.PDF_ENUM_NAME_Resources)]
    annots = m.pdf_dict_get(page, m.PDF_ENUM_NAME_Annots)
    for i in range(min(m.pdf_array_len(annots), MAX_ANNOTATIONS + 1)):
        shown = m.pdf_dict_get(m.pdf_array_get(annots, i), m.PDF_ENUM_NAME_AP)
        for j in range(m.pdf_dict_len(shown)):  # /N /R /D: a stream, or a dictionary of states
            look = m.pdf_dict_get_val(shown, j)
            pending += [look] if m.pdf_is_stream(look) else [m.pdf_dict_get_val(look, k)
                                                             for k in range(m.pdf_dict_len(look))]
    seen: set[int] = set()
    images: dict[int, int] = {}
    visits = 0
    while pending:
        obj = pending.pop()
        visits += 1
        num = m.pdf_to_num(obj) if m.pdf_is_indirect(obj) else 0
        if visits > MAX_RESOURCES:
            return math.inf
        if not m.pdf_is_dict(obj):
            continue
        if num:
            if num in seen:
                continue
            seen.add(num)
        if m.pdf_is_stream(obj):  # a content stream, or an image
            if m.pdf_name_eq(m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Subtype), m.PDF_ENUM_NAME_Image):
                width = m.pdf_to_int(m.pdf_dict_geta(obj, m.PDF_ENUM_NAME_Width, m.PDF_ENUM_NAME_W))
                height = m.pdf_to_int(m.pdf_dict_geta(obj, m.PDF_ENUM_NAME_Height, m.PDF_ENUM_NAME_H))
                images[num] = max(0, width) * max(0, height)
                pending += [m.pdf_dict_get(obj, m.PDF_ENUM_NAME_SMask), m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Mask)]
            else:
                pending.append(m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Resources))
            continue
        if m.pdf_dict_get(obj, m.PDF_ENUM_NAME_CharProcs).m_internal:  # a Type3 font
            procs = m.pdf_dict_get(obj, m.PDF_ENUM_NAME_CharProcs)
            pending.append(m.pdf_dict_get(obj, m.PDF_ENUM_NAME_Resources))
            pending += [m.pdf_dict_get_val(procs, k) for k in range(min(m.pdf_dict_len(procs), MAX_RESOURCES + 1))]
            continue
        for kind in (m.PDF_ENUM_NAME_XObject, m.PDF_ENUM_NAME_Pattern, m.PDF_ENUM_NAME_Font):  # a resource dictionary
            entries = m.pdf_dict_get(obj, kind)
            pending += [m.pdf_dict_get_val(entries, k) for k in range(min(m.pdf_dict_len(entries), MAX_RESOURCES + 1))]
        states = m.pdf_dict_get(obj, m.PDF_ENUM_NAME_ExtGState)
        for k in range(min(m.pdf_dict_len(states), MAX_RESOURCES + 1)):
            pending.append(m.pdf_dict_get(m.pdf_dict_get(m.pdf_dict_get_val(states, k), m.PDF_ENUM_NAME_SMask),
                                          m.PDF_ENUM_NAME_G))
    return float(sum(images.values()))


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
    segments = _DO.split(content)[:-1]  # what precedes each "Do"; the text after the last one draws nothing
    for segment, times in Counter(segments).items():  # drawing instructions repeat: each text judged once
        names = frozenset(n for n in map(_name, set(_NAME_TOKEN.findall(segment))) if n in forms)
        if names:
            counts[names] = counts.get(names, 0) + times
    return counts


_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def _name(written: bytes) -> bytes:
    """A PDF name as MuPDF reads it: "#xx" escapes decoded, so "/#58 Do" in a content stream draws the
    resource MuPDF prints as "/X" (compared as written, the two would not meet and the form go uncounted)."""
    return _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), written) if b"#" in written else written


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
