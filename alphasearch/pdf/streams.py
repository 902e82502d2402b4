"""What a PDF's streams decode to, counted in bounded memory before MuPDF interprets anything.

Decompression bombs: every stream is decoded through its whole filter chain, counted chunk by chunk and
never held whole; a file whose streams expand beyond these limits is refused (:func:`check_streams`). Flate,
LZW, ASCIIHex, ASCII85 and RunLength chains are decoded here; a chain with any other filter MuPDF knows
(Brotli, Crypt, and the image codecs CCITT, DCT and JBIG2 on a stream that is not an image) is decoded by
MuPDF's own decoder of the stream object, so no filter MuPDF decodes goes uncounted. Images are judged by
their declared size: the dictionary's, and a JPEG 2000 codestream's own (which MuPDF decodes). Part of
:mod:`alphasearch.pdf`, the only package that imports pymupdf.
"""
from __future__ import annotations

import binascii
import heapq
import zlib

import pymupdf

from .. import errors
from .codecs import declared_pixels

MAX_STREAM_MB = 256  # one stream (page content, form, font…) once decoded
MAX_INFLATED_MB = 2048  # all streams of the file together
MAX_IMAGE_MEGAPIXELS = 400  # one image (a 600 dpi A4 scan is 35 megapixels)
MAX_OBJECTS = 2_000_000  # PDF objects in one file (a 500-page annual report has ~35,000)

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
            size = self[xref] = _stream_size(pdf_document(doc), xref, ["/FlateDecode"], MAX_STREAM_MB * 2**20 + 1)
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
    return _decoded_size(raw, filters, cap, raw_doc, xref)


def check_streams(doc: pymupdf.Document, name: str = "document.pdf") -> StreamSizes:
    """Raise DecompressionBombError when a stream or image expands beyond the module limits.

    Every stream is decoded through its filter chain chunk by chunk and counted, never held in
    memory (a chain with a filter this module does not decode, by MuPDF's own decoder); images are
    judged by their declared size. Returns xref → decoded bytes of the streams that were counted
    (a stream MuPDF cannot read is left for MuPDF and the worker's limits). A Flate stream too small to breach a
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
    raw_doc = pdf_document(doc)
    for xref in range(1, objects + 1):
        try:
            if not m.pdf_obj_num_is_stream(raw_doc, xref):
                continue
            obj = m.pdf_load_object(raw_doc, xref)
            if _is_name(m.pdf_dict_getp(obj, "Subtype"), "Image"):
                w, h = (int_value(m.pdf_dict_getp(obj, k)) for k in ("Width", "Height"))
                _check_image(name, w, h)
                pixels = _codec_pixels(raw_doc, xref, filter_chain(obj))
                if pixels > MAX_IMAGE_MEGAPIXELS * 10**6:  # a codec decodes the picture its own data declares
                    raise errors.DecompressionBombError(
                        f"{name} contains an image whose data declares {pixels / 10**6:,.0f} megapixels, beyond the "
                        f"{MAX_IMAGE_MEGAPIXELS} megapixel limit; it was refused.")
                continue
            filters = filter_chain(obj)
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
            size = _decoded_size(raw, filters, per_stream + 1, raw_doc, xref)
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


def _check_image(name: str, w: int | None, h: int | None) -> None:
    if w is not None and h is not None and w * h > MAX_IMAGE_MEGAPIXELS * 10**6:
        raise errors.DecompressionBombError(
            f"{name} contains an image of {w:,} x {h:,} pixels, beyond the "
            f"{MAX_IMAGE_MEGAPIXELS} megapixel limit; it was refused.")


def _codec_pixels(raw_doc, xref: int, filters: list[str]) -> int:
    """Pixels an image's codec allocates by what its own data declares (:func:`.codecs.declared_pixels`)."""
    m = pymupdf.mupdf
    raw = m.fz_buffer_extract_copy(m.pdf_load_raw_stream_number(raw_doc, xref))
    head = decoded_prefix(raw, filters[:-1], 2**16) or b""
    return declared_pixels(filters, head)


def _bomb(name: str, mb: int) -> errors.DecompressionBombError:
    return errors.DecompressionBombError(
        f"{name} contains compressed data that expands to more than {mb:,} MB; it looks like a "
        f"decompression bomb and was refused.")


def pdf_document(doc: pymupdf.Document):
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


# --- decoding filter chains in bounded memory --------------------------------------------------------
_CHUNK = 2**20
_FILTER_NAMES = {"/Fl": "/FlateDecode", "/AHx": "/ASCIIHexDecode", "/A85": "/ASCII85Decode",
                 "/RL": "/RunLengthDecode", "/LZW": "/LZWDecode"}


def stream_filters(doc: pymupdf.Document, xref: int) -> list[str]:
    """The stream's filter chain in order of application, e.g. ["/ASCIIHexDecode", "/FlateDecode"]."""
    return filter_chain(pymupdf.mupdf.pdf_load_object(pdf_document(doc), xref))


def filter_chain(obj) -> list[str]:
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


def int_value(obj) -> int | None:
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


def _decoded_size(raw: bytes, filters: list[str], cap: int, raw_doc=None, xref: int = 0) -> int:
    """Bytes ``raw`` decodes to through ``filters``, counting at most a little past ``cap``. A chain with a
    filter this module does not decode is counted as MuPDF decodes stream ``xref`` of ``raw_doc`` (0 without
    them)."""
    chunks = _decode_chain(raw, filters)
    if chunks is None:
        chunks = _mupdf_object(raw_doc, xref) if raw_doc is not None else ()
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > cap:
            break
    return total


def decoded_prefix(raw: bytes, filters: list[str], limit: int, raw_doc=None, xref: int = 0) -> bytes | None:
    """The first ``limit`` decoded bytes of a stream; for a filter this module does not decode, those MuPDF
    decodes of stream ``xref`` of ``raw_doc`` (None without them)."""
    chunks = _decode_chain(raw, filters)
    if chunks is None:
        if raw_doc is None:
            return None
        chunks = _mupdf_object(raw_doc, xref)
    out = bytearray()
    for chunk in chunks:
        out += chunk[:limit - len(out)]
        if len(out) >= limit:
            break
    return bytes(out)


def _decode_chain(raw: bytes, filters: list[str]):
    """The decoded bytes of ``raw`` through ``filters`` as a generator of chunks, None for a chain holding a
    filter this module does not decode (Brotli, Crypt, an image codec: :func:`_mupdf_object` decodes those).
    A chain holding LZW, ASCII85 or RunLength is decoded by MuPDF's own filters (:func:`_mupdf_chain`);
    Flate and ASCIIHex alone by zlib and binascii."""
    stages = {"/FlateDecode": _flate, "/ASCIIHexDecode": _ascii_hex}
    if not all(f in stages or f in _BYTE_BY_BYTE for f in filters):
        return None
    if _BYTE_BY_BYTE.intersection(filters):
        return _mupdf_chain(raw, filters)
    chunks = (raw[i:i + _CHUNK] for i in range(0, max(len(raw), 1), _CHUNK))
    for f in filters:
        chunks = stages[f](chunks)
    return chunks


def _mupdf_object(raw_doc, xref: int):
    """Stream ``xref`` of ``raw_doc`` decoded by MuPDF exactly as it decodes it to use it (every filter it
    knows, with its parameters and the document's decryption), read chunk by chunk."""
    m = pymupdf.mupdf
    try:
        stream = m.pdf_open_stream_number(raw_doc, xref)
    except Exception:
        return
    yield from _read_chunks(stream)


# decoded byte by byte in Python at 3-10 MB/s (LZW 3.3, ASCII85 and RunLength ~10): a 6 MB LZW page stream
# took 4.7 s to preview in the app, which checks the streams outside the worker. MuPDF's filters: 200-600 MB/s
_BYTE_BY_BYTE = {"/LZWDecode", "/ASCII85Decode", "/RunLengthDecode"}


def _mupdf_chain(raw: bytes, chain: list[str]):
    """``raw`` decoded through ``chain`` by MuPDF's filters (LZW with early change, as PDF's default), read
    chunk by chunk into one buffer; damaged data ends the output where MuPDF stops."""
    m = pymupdf.mupdf
    opened = {"/FlateDecode": lambda s: m.fz_open_flated(s, 15), "/ASCIIHexDecode": m.fz_open_ahxd,
              "/ASCII85Decode": m.fz_open_a85d, "/RunLengthDecode": m.fz_open_rld,
              "/LZWDecode": lambda s: m.fz_open_lzwd(s, 1, 9, 0, 0)}
    stream = m.fz_open_buffer(m.fz_new_buffer_from_copied_data(raw))
    for f in chain:
        stream = opened[f](stream)
    yield from _read_chunks(stream)


def _read_chunks(stream):
    """A MuPDF stream read chunk by chunk into one buffer; damaged data ends the output where MuPDF stops."""
    m = pymupdf.mupdf
    chunk = bytearray(_CHUNK)
    at = m.python_mutable_buffer_data(chunk)
    while True:
        try:
            n = m.fz_read(stream, at, _CHUNK)
        except Exception:  # MuPDF's errors on damaged data
            return
        if not n:
            return
        yield bytes(chunk[:n])


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


def _inflated_size(raw: bytes, cap: int) -> int:
    """Bytes ``raw`` (zlib data) inflates to, counting at most a little past ``cap``."""
    return _decoded_size(raw, ["/FlateDecode"], cap)
