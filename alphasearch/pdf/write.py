"""Writing PDFs: the generated sample, test and benchmark documents (text blocks with a size and weight, an outline),
and an encrypted copy.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
import pymupdf  # noqa: E402


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
