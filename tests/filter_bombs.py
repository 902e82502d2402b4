"""Decompression bombs behind each filter MuPDF decodes, for the stream checks' tests and the hostile corpus.

``filter_bomb_pdf(name)`` is one page whose content stream decodes, through MuPDF's filter ``name``, to
~``decoded_mb`` MB. A lossless filter carries a Flate bomb behind it (``[/Name /FlateDecode]``); the image
codecs decode on their own: a JPEG, a fax page or a JBIG2 page declaring a huge picture in a few bytes.
``jpx_image_bomb_pdf`` is an image whose dictionary declares 10 x 10 pixels while its JPEG 2000 codestream,
whose size MuPDF decodes, declares far more.
"""
from __future__ import annotations

import base64
import binascii
import functools
import io
import struct

import pymupdf

from pdf_factory import _deflate_repeated, _one_page_pdf

HEAD = b"BT /F1 12 Tf 72 720 Td (A page behind %s) Tj ET\n"


def _flate(name: str, decoded_mb: int) -> bytes:
    return _deflate_repeated(HEAD % name.encode(), b" ", decoded_mb * 2**20)


def _lzw(data: bytes) -> bytes:
    """``data`` as LZW with early change, 9-bit literal codes only (a clear code before every 200)."""
    bits = []
    for i in range(0, len(data), 200):
        bits.append(format(256, "09b") + "".join(format(b, "09b") for b in data[i:i + 200]))
    bits.append(format(257, "09b"))
    text = "".join(bits)
    text += "0" * (-len(text) % 8)
    return int(text, 2).to_bytes(len(text) // 8, "big")


def _run_length(data: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(data), 128):
        chunk = data[i:i + 128]
        out += bytes([len(chunk) - 1]) + chunk
    return bytes(out + b"\x80")


@functools.cache
def _brotli(decoded_mb: int) -> bytes:
    """Brotli data of ``decoded_mb`` MB of a text line and spaces, by MuPDF's own encoder (~0.1 s, ~60 KB)."""
    m = pymupdf.mupdf
    data = HEAD % b"Brotli" + b" " * (decoded_mb * 2**20)
    pointer, size = m.fz_new_brotli_data_from_buffer(m.fz_new_buffer_from_copied_data(data), m.FZ_BROTLI_BEST_SPEED)
    return m.raw_to_python_bytes(pointer, size)


def _jpeg(width: int, height: int) -> bytes:
    """A grey 8 x 8 baseline JPEG whose frame header then declares ``width`` x ``height``: its data ends after
    the first block, and the decoder fills the rest of the picture."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (8, 8), 200).save(out, "JPEG", quality=50)
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def _jbig2(width: int, height: int) -> bytes:
    """An embedded JBIG2 stream: one page information segment declaring ``width`` x ``height`` pixels and the
    end of the page; the decoder hands on the whole (blank) page."""
    info = struct.pack(">IIIIBH", width, height, 0, 0, 0, 0)
    page = struct.pack(">IBBBI", 0, 48, 0, 1, len(info)) + info
    return page + struct.pack(">IBBBI", 1, 49, 0, 1, 0)


# name → (the stream's /Filter and /DecodeParms, its raw bytes), for ~decoded_mb MB decoded
_BUILDERS = {
    "FlateDecode": lambda mb: (b"/FlateDecode", _flate("Flate", mb)),
    "LZWDecode": lambda mb: (b"[/LZWDecode /FlateDecode]", _lzw(_flate("LZW", mb))),
    "ASCII85Decode": lambda mb: (b"[/ASCII85Decode /FlateDecode]", base64.a85encode(_flate("ASCII85", mb)) + b"~>"),
    "ASCIIHexDecode": lambda mb: (b"[/ASCIIHexDecode /FlateDecode]", binascii.hexlify(_flate("ASCIIHex", mb)) + b">"),
    "RunLengthDecode": lambda mb: (b"[/RunLengthDecode /FlateDecode]", _run_length(_flate("RunLength", mb))),
    "CCITTFaxDecode": lambda mb: (b"/CCITTFaxDecode /DecodeParms << /K -1 /Columns 65536 >>",
                                  b"\xff" * (mb * 2**20 // 8192 // 8 + 1)),  # each 1 bit: a white row of 8 KB
    "DCTDecode": lambda mb: (b"/DCTDecode", _jpeg(65000, mb * 2**20 // 65000 + 8)),
    "JBIG2Decode": lambda mb: (b"/JBIG2Decode", _jbig2(65536, mb * 2**20 // 8192 + 1)),
    "JPXDecode": lambda mb: (b"/JPXDecode", _jpx(4000, 4000)),
    "BrotliDecode": lambda mb: (b"/BrotliDecode", _brotli(mb)),
    "Crypt": lambda mb: (b"[/Crypt /FlateDecode] /DecodeParms [<< /Type /CryptFilterDecodeParms /Name /Identity >> null]",
                         _flate("Crypt", mb)),
}
FILTERS = tuple(_BUILDERS)  # every filter MuPDF 1.28 decodes in a PDF stream


def filter_bomb_pdf(name: str, decoded_mb: int = 300) -> bytes:
    """One page whose content stream decodes through filter ``name`` to ~``decoded_mb`` MB."""
    filters, raw = _BUILDERS[name](decoded_mb)
    return _one_page_pdf(b"<< /Length %d /Filter %s >>\nstream\n" % (len(raw), filters) + raw + b"\nendstream")


def _jpx(width: int, height: int) -> bytes:
    """A JPEG 2000 codestream of an 8 x 8 grey picture whose size header (SIZ) then declares ``width`` x
    ``height``."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (8, 8), 200).save(out, "JPEG2000", no_jp2=True)
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\x51")
    data[at + 6:at + 14] = struct.pack(">II", width, height)
    data[at + 22:at + 30] = struct.pack(">II", width, height)  # one tile
    return bytes(data)


def jpx_image_bomb_pdf(side: int = 30_000) -> bytes:
    """A page drawing an image whose dictionary declares 10 x 10 pixels, its JPEG 2000 codestream ``side`` x
    ``side``: MuPDF decodes the codestream's size."""
    data = _jpx(side, side)
    image = (b"<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /BitsPerComponent 8 /ColorSpace /DeviceGray "
             b"/Filter /JPXDecode /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    content = b"q 500 0 0 700 50 50 cm /Im1 Do Q BT /F1 12 Tf 72 720 Td (A JPEG 2000 poster) Tj ET"
    return _one_page_pdf(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream", [image],
                         b"/XObject << /Im1 6 0 R >>")
