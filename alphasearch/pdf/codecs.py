"""What an image codec's own data declares, read from its first bytes: the picture a decoder allocates
whatever the PDF dictionary around it says (a JPEG's frame header, a JBIG2 page information segment, a JPEG
2000 codestream's size header). Used by :mod:`.streams` on image objects and by :mod:`.budget` on inline
images. Part of :mod:`alphasearch.pdf`.
"""
from __future__ import annotations

_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}  # SOFn markers
_JPX_SIZE = b"\xff\x4f\xff\x51"  # a JPEG 2000 codestream's start and its size header (SIZ)


def jpeg_bytes(content: bytes, at: int) -> int:
    """Bytes libjpeg may hold to decode the JPEG data starting at ``at`` (an inline image's, after "ID"):
    the coefficients of the whole image its own header declares, 2 bytes per sample, which a progressive
    or multi-scan JPEG needs before it returns a line, whatever the image's dictionary says (10 inline
    images declared 10 x 10, each a progressive JPEG of 16,000 x 16,000 in 0.8 MB, took 3 s and 400 MB).
    0 when no frame header is found; the most a header can declare after 1,024 segments without one."""
    width, height, components = _jpeg_frame(content, at)
    return 2 * width * height * components


def _jpeg_frame(content: bytes, at: int) -> tuple[int, int, int]:
    """(width, height, components) the frame header of the JPEG data starting at ``at`` declares; zeros when
    none is found; the most a header can declare after 1,024 segments without one."""
    i = content.find(b"\xff\xd8", at, at + 8) + 2
    for _ in range(1024):
        if not 1 < i <= len(content) - 10 or content[i] != 0xFF:
            return 0, 0, 0
        marker = content[i + 1]
        if marker in _JPEG_FRAMES:
            height, width = int.from_bytes(content[i + 5:i + 7], "big"), int.from_bytes(content[i + 7:i + 9], "big")
            return width, height, content[i + 9]
        if marker in (0xD9, 0xDA):  # the end, or a scan before any frame
            return 0, 0, 0
        i += 1 if marker == 0xFF else 2 + int.from_bytes(content[i + 2:i + 4], "big")
    return 65535, 65535, 255


def jbig2_bytes(content: bytes, at: int) -> int:
    """Bytes of the page a JBIG2 decoder allocates for the data starting at ``at`` (an inline image's, after
    "ID", embedded segments without a file header): width x height / 8 of the first page information
    segment, whatever the image's dictionary says (a 703-byte file whose inline image declared 10 x 10 held
    a 60,000 x 60,000 page: 430 MB). 0 when none is found; the most a page can declare after 1,024 segments."""
    i = at + 1
    for _ in range(1024):
        if i + 11 > len(content):
            return 0
        number, flags, referred = int.from_bytes(content[i:i + 4], "big"), content[i + 4], content[i + 5]
        count, i = referred >> 5, i + 6
        if count == 7:  # the long form: a count of 29 bits, then one retention bit per segment
            count = int.from_bytes(content[i - 1:i + 3], "big") & 0x1FFFFFFF
            i += 3 + (count + 8) // 8
        i += count * (1 if number <= 256 else 2 if number <= 65536 else 4) + (4 if flags & 64 else 1)
        length = int.from_bytes(content[i:i + 4], "big")
        i += 4
        if flags & 63 == 48:  # page information: width, height
            return int.from_bytes(content[i:i + 4], "big") * int.from_bytes(content[i + 4:i + 8], "big") // 8
        if length == 0xFFFFFFFF:
            return 0
        i += length
    return 0xFFFFFFFF * 0xFFFFFFFF // 8


def _jpx_pixels(content: bytes) -> int:
    """Pixels of the picture a JPEG 2000 codestream in ``content`` (bare, or inside a JP2 file) declares: its
    SIZ header's image area less its offset, which MuPDF decodes whatever the image's dictionary says. 0 when
    no codestream header is found."""
    at = content.find(_JPX_SIZE)
    if at < 0 or len(content) < at + 24:
        return 0
    x, y, x0, y0 = (int.from_bytes(content[at + 8 + 4 * i:at + 12 + 4 * i], "big") for i in range(4))
    return max(0, x - x0) * max(0, y - y0)


def declared_pixels(filters: list[str], head: bytes) -> int:
    """Pixels the last codec of ``filters`` allocates for an image whose decoded data (up to that codec)
    starts with ``head``: the JPEG's frame, the JBIG2 page, the JPEG 2000 codestream; 0 for other filters
    (their output is what the image's dictionary declares)."""
    codec = filters[-1] if filters else ""
    if codec in ("/DCTDecode", "/DCT"):
        width, height, _ = _jpeg_frame(head, 0)
        return width * height
    if codec == "/JBIG2Decode":
        return jbig2_bytes(b" " + head, 0) * 8  # at + 1: the byte after an inline image's "ID"
    if codec == "/JPXDecode":
        return _jpx_pixels(head)
    return 0
