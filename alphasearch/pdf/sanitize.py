"""The defences :mod:`.convert` runs on a file before any parser reads it, and the HTML it lays out.

Each check reads raw bytes and raises a specific error of :mod:`alphasearch.errors` with one sentence
naming the file; none relies on the worker process's time and memory limits (they are the second wall).

- ZIP containers (docx, pptx, xps, epub, cbz): the member count, the summed unpacked size and each large
  member's packing ratio, from the central directory before anything unpacks (:func:`check_zip`); then every
  member is read (``zipfile`` never unpacks past the size a member declares) and checked as markup or image.
- XML and HTML (:func:`check_markup`): no ``<!ENTITY``, no inline DTD, no DTD by SYSTEM identifier and none by
  PUBLIC identifier but the W3C's and NISO's (XHTML, SVG and EPUB 2 files name those; no parser used here
  fetches them). Read as Latin-1, as the byte-order mark or NUL pattern says and as the declared encoding
  says, so UTF-16, UTF-32 and UTF-7 cannot hide a declaration; an unknown encoding or EBCDIC is refused.
- Images: width x height read from the header (:func:`image_size`, nothing decoded); a TIFF's every frame.
  A standalone image over ``MAX_IMAGE_MEGAPIXELS`` is refused, and so is a file MuPDF lays out that holds one
  (EPUB, XPS, CBZ, SVG, FB2, MOBI); in the HTML laid out here (docx, pptx, HTML, Markdown) it is dropped
  (:class:`ImageBudget`, which also bounds the pixels one converted document embeds in all).
- HTML (:func:`clean_html`): parsed by libxml2's HTML parser (``lxml``; the standard library's ``html.parser``
  takes quadratic time on unclosed tags: 300 KB of "<a " ran for minutes) and rebuilt from allowed tags and
  attributes; nothing is left that names a resource outside the file: no script, frame, object, link, base,
  meta, href, srcset or poster, an ``img`` only with a checked ``data:`` image, CSS without ``@import``,
  ``@font-face`` or ``url()``; nesting deeper than ``MAX_HTML_DEPTH`` is flattened, words longer than 64
  letters get break opportunities (:func:`break_long_words`).
Limits are read at call time (tests lower them).
"""
from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import zipfile
import zlib
from io import BytesIO
from urllib.parse import unquote_to_bytes

from lxml import etree
from pymupdf import mupdf

from .. import errors

MAX_UNZIPPED_MB = 200  # summed unpacked size of a ZIP container's members
MAX_ZIP_MEMBERS = 10_000
MAX_ZIP_RATIO = 100  # unpacked : packed, for members unpacking to more than RATIO_FROM_MB
RATIO_FROM_MB = 1
MAX_TIFF_ENTRIES = 1000  # tags one TIFF frame may list (a crafted file listing 65,535 per frame took 15 s to walk)
MAX_IMAGE_MEGAPIXELS = 100  # one image (a 30,000 x 30,000 PNG is 900)
MAX_EMBEDDED_MEGAPIXELS = 1000  # all the images one converted document embeds; later ones are dropped
MAX_HTML_DEPTH = 64  # elements nested deeper lose their tags (their text stays)
_MB = 1024 * 1024


def _shown(text: str, limit: int = 80) -> str:
    """A name taken from inside a file, fit for a one-line message."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- ZIP containers ----------------------------------------------------------------------------
def check_zip(data: bytes, name: str, *, label: str, refuse_images: bool) -> None:
    """Raise unless ``data`` is a ZIP whose members unpack within the limits, whose markup passes
    :func:`check_markup` and whose images are within ``MAX_IMAGE_MEGAPIXELS`` (else DecompressionBombError
    when ``refuse_images``; otherwise the converter drops them)."""
    if data.count(b"PK\x01\x02") > MAX_ZIP_MEMBERS:  # central directory entries, counted before zipfile lists them
        raise errors.DecompressionBombError(f"{name} holds more than {MAX_ZIP_MEMBERS:,} files; the limit is "
                                            f"{MAX_ZIP_MEMBERS:,}.")
    try:
        archive = zipfile.ZipFile(BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise errors.CorruptPDFError(f"{name} is not a valid {label} file (it is not a readable ZIP archive).") from exc
    if len(members) > MAX_ZIP_MEMBERS:
        raise errors.DecompressionBombError(f"{name} holds {len(members):,} files; the limit is {MAX_ZIP_MEMBERS:,}.")
    total = sum(m.file_size for m in members)
    if total > MAX_UNZIPPED_MB * _MB:
        raise errors.DecompressionBombError(
            f"{name} unpacks to {total / _MB:,.0f} MB; the limit is {MAX_UNZIPPED_MB:,} MB.")
    for m in members:
        if m.file_size > RATIO_FROM_MB * _MB and m.file_size > MAX_ZIP_RATIO * max(m.compress_size, 1):
            raise errors.DecompressionBombError(
                f"{name} holds {_shown(m.filename)!r}, which unpacks to {m.file_size / max(m.compress_size, 1):,.0f} "
                f"times its stored size; the limit is {MAX_ZIP_RATIO}:1.")
    for m in members:
        if m.is_dir():
            continue
        try:
            raw = archive.read(m)
        except RuntimeError as exc:  # an encrypted member
            raise errors.EncryptedPDFError(f"{name} is password-protected; remove the password and upload it "
                                           "again.") from exc
        except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError, ValueError, zlib.error) as exc:
            raise errors.CorruptPDFError(f"{name} is corrupt: its part {_shown(m.filename)!r} cannot be "
                                         "unpacked.") from exc
        where = f"{name} ({_shown(m.filename)})"
        if is_image(raw):
            if refuse_images:
                check_image(raw, where, max_frames=None)
        elif is_markup(raw):  # what an XML or HTML parser reads (a binary part is opaque to them)
            check_markup(raw, where)
            if refuse_images:
                check_embedded_images(raw, where)


# --- XML: entities and DTDs --------------------------------------------------------------------
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\0\0", "utf-32-le"), (b"\0\0\xfe\xff", "utf-32-be"),
         (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
         (b"<\0\0\0", "utf-32-le"), (b"\0\0\0<", "utf-32-be"), (b"<\0", "utf-16-le"), (b"\0<", "utf-16-be"))
_EBCDIC = b"\x4c\x6f\xa7\x94"  # "<?xm" in EBCDIC
_DECLARED = re.compile(r"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']""")
_ENTITY = re.compile(r"<!\s*ENTITY", re.I)
_DOCTYPE_AT = re.compile(r"<!\s*DOCTYPE", re.I)
_LITERAL = r"""("[^"]*"|'[^']*')"""
_DOCTYPE = re.compile(  # groups: SYSTEM, its literal; PUBLIC, its two literals; what follows ("[": an inline DTD)
    rf"<!\s*DOCTYPE\s+[^\s\[>]+\s*(?:(SYSTEM)\s*{_LITERAL}|(PUBLIC)\s*{_LITERAL}\s*{_LITERAL}?)?\s*([\[>])", re.I)
_PUBLIC_DTDS = ("-//W3C//DTD ", "-//NISO//DTD ")  # XHTML, SVG, HTML 4; EPUB 2's NCX
_SAFE_SYSTEM = ("about:legacy-compat",)  # HTML5's "<!DOCTYPE html SYSTEM ...>"


def _views(raw: bytes, where: str) -> list[str]:
    """The texts ``raw`` can be read as by an XML or HTML parser."""
    views = [raw.decode("latin-1")]
    used = {"iso8859-1"}
    for mark, codec in _BOMS:
        if raw.startswith(mark):
            views.append(raw.decode(codec, "replace"))
            used.add(codecs.lookup(codec).name)
            break
    if raw.startswith(_EBCDIC):
        raise errors.UnsafeFileError(f"{where} is XML in the EBCDIC encoding, which AlphaSearch does not read.")
    declared = next((m.group(1) for v in views for m in [_DECLARED.search(v[:400])] if m), None)
    if declared:
        try:
            codec = codecs.lookup(declared).name
            if codec not in used:
                views.append(raw.decode(codec, "replace"))
        except LookupError:  # unknown, or not a text encoding ("zlib")
            raise errors.UnsafeFileError(
                f"{where} declares the text encoding {_shown(declared)!r}, which AlphaSearch does not read.") from None
    return views


def is_markup(raw: bytes) -> bool:
    """Whether ``raw`` starts (after a byte-order mark and white space) with "<", in any encoding an XML
    parser detects: what XML and HTML parsers read."""
    try:
        # white space first (ASCII or UTF-16's zero bytes): its 1,024 bytes must not hide what follows
        return any(v.lstrip("\ufeff \t\r\n").startswith("<") for v in _views(raw.lstrip(b" \t\r\n\0")[:1024], ""))
    except errors.UnsafeFileError:  # EBCDIC, or an encoding Python does not know: check_markup says so
        return True


def check_markup(raw: bytes, where: str) -> None:
    """Raise UnsafeFileError when XML or HTML ``raw`` declares an entity, an inline DTD or a DTD by a
    SYSTEM identifier or an unknown PUBLIC identifier (no document AlphaSearch reads needs one)."""
    for text in _views(raw, where):
        if _ENTITY.search(text):
            raise errors.UnsafeFileError(f"{where} declares XML entities, which no real document needs and which can "
                                         "make a parser expand it a billion times, so AlphaSearch does not read it.")
        for at in _DOCTYPE_AT.finditer(text):
            m = _DOCTYPE.match(text, at.start())
            internal = m is None or m.group(6) == "["
            system = m is not None and m.group(1) and m.group(2)[1:-1].strip() not in _SAFE_SYSTEM
            public = m is not None and m.group(3) and not m.group(4)[1:-1].startswith(_PUBLIC_DTDS)
            if internal or system or public:
                raise errors.UnsafeFileError(f"{where} declares a DTD of its own or from elsewhere, which no real "
                                             "document needs and which can make a parser read other files, so "
                                             "AlphaSearch does not read it.")


# --- images ------------------------------------------------------------------------------------
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM", b"II*\0", b"MM\0*",
                b"II+\0", b"MM\0+", b"\0\0\0\x0cjP  ", b"\xff\x4f\xff\x51", b"II\xbc", b"8BPS", b"\x97JB2")


def is_image(head: bytes) -> bool:
    """Whether ``head`` starts like an image file MuPDF decodes (PNM too: "P1" to "P7" and white space)."""
    return head.startswith(_IMAGE_MAGIC) or (head[:1] == b"P" and head[1:2] in b"1234567" and head[2:3].isspace())


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) in pixels an image file's header declares (nothing is decoded); None when MuPDF does
    not read it as an image. (``pymupdf.image_profile`` does the same but fails on every input in PyMuPDF 2.0:
    its ``fz_recognize_image_format`` binding refuses bytes.)"""
    try:
        image = mupdf.fz_new_image_from_buffer(mupdf.fz_new_buffer_from_copied_data(data))
        return image.w(), image.h()
    except Exception:  # MuPDF raises FzErrorFormat and others for data that is not an image it reads
        return None


def tiff_frames(data: bytes, limit: int) -> list[tuple[int, int]]:
    """(width, height) of each frame (IFD) of a TIFF or BigTIFF file, at most ``limit + 1`` of them; (0, 0)
    for a frame that declares no size. Raises CorruptPDFError when the frames loop or leave the file."""
    order = "little" if data[:2] == b"II" else "big"
    big = int.from_bytes(data[2:4], order) == 43
    word, count_size, entry, first = (8, 8, 20, 8) if big else (4, 2, 12, 4)
    offset = int.from_bytes(data[first:first + word], order)
    frames: list[tuple[int, int]] = []
    seen: set[int] = set()
    while offset and len(frames) <= limit:
        if offset in seen or offset + count_size > len(data):
            raise errors.CorruptPDFError("The TIFF image's list of frames is corrupt.")
        seen.add(offset)
        n = int.from_bytes(data[offset:offset + count_size], order)
        base = offset + count_size
        if n > MAX_TIFF_ENTRIES or base + n * entry + word > len(data):  # real frames list a few dozen tags
            raise errors.CorruptPDFError("The TIFF image's list of frames is corrupt.")
        size = {256: 0, 257: 0}
        for i in range(n):
            e = base + i * entry
            tag, kind = int.from_bytes(data[e:e + 2], order), int.from_bytes(data[e + 2:e + 4], order)
            if tag in size:
                value = data[e + 4 + word:e + 4 + 2 * word]
                size[tag] = int.from_bytes(value[:2] if kind == 3 else value[:4] if kind == 4 else value, order)
        frames.append((size[256], size[257]))
        offset = int.from_bytes(data[base + n * entry:base + n * entry + word], order)
    return frames


def check_image(data: bytes, name: str, *, max_frames: int | None, inside: bool = False) -> int:
    """The frames of an image (a TIFF may have many), after checking that each declares at most
    ``MAX_IMAGE_MEGAPIXELS`` (else DecompressionBombError) and that there are at most ``max_frames``
    (else TooManyPagesError). CorruptPDFError when MuPDF cannot read a standalone image (``max_frames`` given);
    one inside a document is let through (MuPDF will not draw it either). ``inside``: the image is one that
    the file ``name`` holds (it is not the file itself)."""
    if data[:4] in (b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"):
        limit = max_frames if max_frames is not None else 10_000
        try:
            frames = tiff_frames(data, limit)
        except errors.CorruptPDFError:
            raise errors.CorruptPDFError(f"{name} is a corrupt TIFF image (its list of frames loops or is "
                                         "cut).") from None
        if len(frames) > limit:
            raise errors.TooManyPagesError(f"{name} has more than {limit:,} frames; the limit is {limit:,}.")
    else:
        frames = [image_size(data) or (0, 0)]
    if image_size(data) is None:  # also a TIFF whose first frame MuPDF cannot read
        if max_frames is None:
            return 0
        raise errors.CorruptPDFError(f"{name} is not an image AlphaSearch can read (it is corrupt or of another "
                                     "type).")
    for width, height in frames:
        if width * height > MAX_IMAGE_MEGAPIXELS * 1_000_000:
            raise errors.DecompressionBombError(
                f"{name} {'holds' if inside else 'is'} a picture of {width:,} x {height:,} pixels "
                f"({width * height / 1e6:,.0f} megapixels); the limit is {MAX_IMAGE_MEGAPIXELS:,} megapixels.")
    return len(frames)


class ImageBudget:
    """The pixels the images embedded in one converted document may hold (``MAX_EMBEDDED_MEGAPIXELS``); an image
    over ``MAX_IMAGE_MEGAPIXELS``, one MuPDF cannot read or one past the budget is dropped, never decoded."""

    def __init__(self) -> None:
        self.pixels_left = MAX_EMBEDDED_MEGAPIXELS * 1_000_000

    def take(self, data: bytes) -> bool:
        """Whether ``data`` may be embedded (its pixels are then spent)."""
        size = image_size(data) if data[:4] not in (b"II*\0", b"MM\0*", b"II+\0", b"MM\0+") else None
        pixels = size[0] * size[1] if size else 0  # TIFF (frames MuPDF would pick among) is never embedded
        if not size or pixels > MAX_IMAGE_MEGAPIXELS * 1_000_000 or pixels > self.pixels_left:
            return False
        self.pixels_left -= pixels
        return True


def _base64(text: str) -> bytes:
    """What a lenient base64 decoder reads from ``text``: other characters skipped, a cut quantum padded."""
    clean = re.sub(r"[^A-Za-z0-9+/]", "", text)
    clean = clean[:-1] if len(clean) % 4 == 1 else clean + "=" * (-len(clean) % 4)
    return base64.b64decode(clean)


def check_embedded_images(raw: bytes, where: str) -> None:
    """DecompressionBombError when a ``data:`` URI in markup ``raw`` (an SVG's, an EPUB chapter's) holds an
    image over ``MAX_IMAGE_MEGAPIXELS`` (MuPDF would decode it). Character references are resolved first and
    any URI is read, base64 or percent-encoded, whatever media type it claims, as MuPDF's readers are lenient."""
    if b"data:" not in raw and b"&#" not in raw:
        return
    for text in _views(raw, where):
        for m in _DATA_URI.finditer(html.unescape(text)):
            params, payload = m.group(1).lower(), m.group(2)
            data = _base64(payload) if "base64" in params else unquote_to_bytes(payload)
            if is_image(data):
                check_image(data, where, max_frames=None, inside=True)


def check_fb2_images(raw: bytes, where: str) -> None:
    """DecompressionBombError when a ``<binary>`` picture of an FB2 book is over ``MAX_IMAGE_MEGAPIXELS``."""
    for text in _views(raw, where)[-1:]:
        for m in _FB2_BINARY.finditer(text):
            data = _base64(html.unescape(m.group(1)) + (m.group(2) or ""))
            if is_image(data):
                check_image(data, where, max_frames=None, inside=True)


def check_mobi_images(data: bytes, name: str) -> None:
    """Check each record of a MOBI (PalmDB) file that holds an image (as :func:`check_image`); CorruptPDFError
    when its records are out of order (MuPDF reads record i from its offset to the next one's)."""
    count = int.from_bytes(data[76:78], "big")
    starts = [int.from_bytes(data[78 + 8 * i:82 + 8 * i], "big") for i in range(count)] + [len(data)]
    if any(b < a for a, b in zip(starts, starts[1:])):
        raise errors.CorruptPDFError(f"{name} is a corrupt MOBI file (its records are out of order).")
    for a, b in zip(starts, starts[1:]):
        if is_image(data[a:a + 16]):
            check_image(data[a:b], name, max_frames=None, inside=True)


# --- HTML --------------------------------------------------------------------------------------
_DATA_URI = re.compile(r"data:([^,\"'<>]{0,200}),([A-Za-z0-9+/=%\s]*)", re.I)
# a picture's base64 text up to the next "<" (or a CDATA section): linear, where "(.*?)</binary>" took 16 s on
# 216 KB of unclosed <binary> tags
_FB2_BINARY = re.compile(r"<(?:[\w.-]+:)?binary\b[^>]*>([^<]*)(?:<!\[CDATA\[([^\]]*)\]\]>)?", re.I)
# dropped with their text (a style's rules and the title are read apart); other tags not kept leave their text
_DROPPED = {"script", "style", "title", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript",
            "template", "svg", "math", "video", "audio", "canvas", "select", "textarea", "button", "noframes"}
_VOID = {"br", "hr", "img", "col", "wbr"}
_KEPT = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "span", "section", "article", "header", "footer", "nav",
         "main", "aside", "figure", "figcaption", "blockquote", "pre", "code", "kbd", "samp", "var", "b", "strong", "i",
         "em", "u", "s", "strike", "del", "ins", "mark", "small", "sub", "sup", "big", "tt", "abbr", "cite", "q", "dfn",
         "time", "address", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "th", "td",
         "caption", "colgroup", "center", "font", "label", "summary", "details", "a"} | _VOID
_ATTRIBUTES = {"class", "style", "colspan", "rowspan", "align", "valign", "width", "height", "alt", "dir", "lang",
               "start", "type", "border", "span", "id", "src", "color", "size", "face"}  # src: img's, data: only
_LONG_WORD = re.compile(r"\S{64}(?=\S)")
_IMAGE_TYPE = {b"\xff\xd8": "jpeg", b"GI": "gif", b"BM": "bmp"}
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.S)
_CSS_AT_RULE = re.compile(r"@(import|font-face|namespace)\b[^;{]*(;|\{[^}]*\}?|$)", re.I)
_CSS_URL = re.compile(r"(url|image-set|src|expression)\s*\([^)]*\)?", re.I)


def clean_css(css: str) -> str:
    """``css`` without what could name a resource: comments go first (they could split a keyword), a
    stylesheet with an escape (``\\75 rl(``) goes whole, then ``@import``, ``@font-face`` and every ``url()``
    (data: too: MuPDF draws no CSS images, so none is checked)."""
    css = _CSS_COMMENT.sub(" ", css)
    if "\\" in css:
        return ""
    css = _CSS_URL.sub("none", _CSS_AT_RULE.sub(" ", css))
    return css.replace("<", " ")


def break_long_words(text: str) -> str:
    """``text`` with a zero-width space after every 64 characters of a longer word: MuPDF lays out a word in
    time quadratic in its length (200,000 letters took 52 s), and a real word is never that long."""
    return _LONG_WORD.sub(lambda m: m.group(0) + "\u200b", text)


def _data_uri_bytes(uri: str) -> bytes | None:
    head, _, payload = uri.partition(",")
    if not head.lower().startswith("data:image/") or not head.lower().endswith(";base64"):
        return None
    try:
        return base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        return None


def _start_tag(tag: str, attributes, budget: ImageBudget) -> str | None:
    """The start tag to write for an element, None to keep only its text."""
    if tag not in _KEPT:
        return None
    kept = []
    for key, value in attributes:
        if not isinstance(key, str) or key.lower() not in _ATTRIBUTES or (key.lower() == "src" and tag != "img"):
            continue
        key = key.lower()
        if key == "style":
            value = clean_css(value).strip()
        elif key == "src":
            data = _data_uri_bytes(value.strip())
            if data is None or not budget.take(data):
                return None
            value = f"data:image/{_IMAGE_TYPE.get(data[:2], 'png')};base64," + base64.b64encode(data).decode()
        if value:
            kept.append(f' {key}="{html.escape(value)}"')
    if tag == "img" and not any(k.startswith(" src=") for k in kept):
        return None
    return f"<{tag}{''.join(kept)}>"


def clean_html(text: str, budget: ImageBudget) -> tuple[str, str]:
    """(the HTML rebuilt from what is safe to lay out, the document's <title>): parsed by libxml2's HTML parser
    (lxml: linear time, no network, entities never declared), walked without recursion; see the module
    docstring for what is kept."""
    parser = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True)
    root = etree.fromstring(text.encode("utf-8", "replace"), parser) if text.strip() else None
    out: list[str] = []
    styles: list[str] = []
    title = ""
    closing: list[str | None] = []  # per open element: the end tag to write, or None
    depth = 0  # elements written and open now
    dropping = 0  # > 0 inside a dropped element
    for event, element in etree.iterwalk(root, events=("start", "end")) if root is not None else ():
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if event == "start":
            if dropping or tag in _DROPPED:
                dropping += 1
                if dropping == 1 and tag == "style":
                    styles.append(clean_css(element.text or ""))
                elif dropping == 1 and tag == "title" and not title:
                    title = " ".join((element.text or "").split())
                continue
            start = _start_tag(tag, element.attrib.items(), budget) if depth < MAX_HTML_DEPTH else None
            if start:
                out.append(start)
            closing.append(f"</{tag}>" if start and tag not in _VOID else None)
            depth += closing[-1] is not None
            if element.text:
                out.append(html.escape(break_long_words(element.text), quote=False))
            continue
        if dropping:
            dropping -= 1
            if dropping:
                continue
        else:
            end = closing.pop()
            if end:
                out.append(end)
                depth -= 1
        if element.tail:
            out.append(html.escape(break_long_words(element.tail), quote=False))
    style = f"<style>{''.join(styles)}</style>" if any(s.strip() for s in styles) else ""
    return f"<html><head>{style}</head><body>{''.join(out)}</body></html>", title
