"""Other formats in, PDF bytes out: the documents analysts receive besides PDFs, made into PDFs the rest of
AlphaSearch reads like any other (issue 36).

The accepted types are data (``data/formats.json``: suffix -> kind and label). Three ways in:

- MuPDF reads it (XPS, EPUB, MOBI, FB2, CBZ, SVG, images): ``convert_to_pdf`` keeps its pages, and its table of
  contents becomes the outline (an EPUB's chapters). Reflowable books are laid out on Letter pages. An image is
  a one-page scan (a TIFF one page per frame) that the OCR step reads.
- Word (.docx via ``mammoth``), HTML, Markdown (``markdown-it-py``, tables on) and plain text become HTML, which
  :func:`.sanitize.clean_html` rebuilds from what is safe, laid out by ``pymupdf.Story`` on Letter pages; the
  outline follows the h1-h6 headings (level, text and the page each lands on).
- PowerPoint (.pptx via ``python-pptx``): one landscape page per slide, its title as a large heading, the other
  text, tables and charts' data below, its pictures as images (for OCR), all shrunk to fit the page; an outline
  entry "Slide N: title" per slide.

:attr:`Converted.unit` says what a 1-based page of the output stands for: "slide" for a deck (page N is slide
N), "page" for every other kind. Reflowed documents get real pages here and their sections come from the
outline, so no kind reports "section".
Before any parser reads a file, :mod:`.sanitize` checks it for its kind and for what its bytes are (MuPDF picks
its reader by content, not by name, so bytes that do not start as the kind's files do are refused): ZIP
bombs, XML entities and DTDs, oversized images; nothing is ever fetched (no archive is given to MuPDF, every
reference outside the file is removed). The output is deterministic: the same bytes give the same PDF bytes
(no dates, no random /ID). Errors are those of :mod:`alphasearch.errors`, one sentence naming the file.
"""
from __future__ import annotations

import base64
import html
import io
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePath

import pymupdf

from .. import errors
from . import sanitize

CONVERTED_BY = "AlphaSearch"  # the producer written into a converted PDF: its outline is the document's headings
MAX_PAGES = 5000  # pages a converted document may have, as for PDFs (Settings.max_pages)
MAX_OUTLINE_ENTRIES = 10_000
_FORMATS = Path(__file__).resolve().parent.parent / "data" / "formats.json"
_LETTER = pymupdf.paper_rect("letter")  # 612 x 792 pt
_MARGIN = 54  # pt, 3/4 inch
_CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.3; }
h1 { font-size: 20pt; } h2 { font-size: 16pt; } h3 { font-size: 13pt; } h4, h5, h6 { font-size: 11pt; }
table { border-collapse: collapse; margin: 6pt 0; }
td, th { border: 0.5pt solid #888888; padding: 2pt 4pt; vertical-align: top; }
pre, code, .plain { font-family: monospace; }
pre, .plain { white-space: pre-wrap; }
"""
_SLIDE_CSS = _CSS + "body { font-size: 16pt; } h1 { font-size: 30pt; margin: 0 0 12pt 0; }"
_EMU_PER_PT = 12700
_CONTROL = {c: None for c in range(32) if c not in (9, 10, 13)} | {0x7F: None}
_FILETYPE = {"xps": "xps", "epub": "epub", "mobi": "mobi", "fb2": "fb2", "cbz": "cbz", "svg": "svg"}


@lru_cache(maxsize=1)
def _formats() -> dict[str, dict[str, str]]:
    return json.loads(_FORMATS.read_text("utf-8"))


ACCEPTED: dict[str, str] = {suffix: entry["kind"] for suffix, entry in _formats().items()}  # ".docx" -> "docx"


@dataclass(frozen=True)
class Converted:
    """A file converted to PDF: ``pdf`` bytes, what a 1-based page of it stands for (``unit``: "page" or "slide")
    and how many pages it has."""

    pdf: bytes
    unit: str
    pages: int


def accepted_sentence() -> str:
    """One sentence naming the accepted types, in the order of ``data/formats.json``."""
    return f"AlphaSearch reads {accepted_types()}."


def refused_type(name: str) -> str:
    """The one sentence that refuses file ``name`` for its type, naming the accepted ones."""
    return f"{name} is not a type AlphaSearch reads; it reads {accepted_types()}."


def accepted_types() -> str:
    """The accepted types as a list in words ("PDF, Word (.docx), … and images (PNG, …)")."""
    labels: dict[str, list[str]] = {}
    for entry in _formats().values():
        kind_labels = labels.setdefault(entry["kind"], [])
        if entry["label"] not in kind_labels:
            kind_labels.append(entry["label"])
    names = [ls[0] if len(ls) == 1 else f"{kind}s ({', '.join(ls)})" for kind, ls in labels.items()]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _suffix(name: str) -> str:
    return PurePath(name.replace("\\", "/")).suffix.lower()


def check_type(name: str) -> str:
    """The kind of file ``name``'s suffix says it is ("pdf", "docx", "image", ...); UnsupportedFormatError when it
    is not one AlphaSearch reads."""
    kind = ACCEPTED.get(_suffix(name))
    if kind is None:
        raise errors.UnsupportedFormatError(refused_type(name))
    return kind


def is_pdf(name: str, data: bytes) -> bool:
    """Whether the file goes the PDF way: its name ends in .pdf (``document.check_header`` then says whether it
    really is one), or its bytes start with ``%PDF-`` whatever its name says (a PDF saved as .docx)."""
    return ACCEPTED.get(_suffix(name)) == "pdf" or data[:5] == b"%PDF-"


def to_pdf(data: bytes, name: str, *, max_pages: int = MAX_PAGES) -> Converted:
    """``data`` (a file of any accepted kind but PDF, named ``name``) as PDF bytes; raises the errors of
    :mod:`alphasearch.errors`: UnsupportedFormatError, EmptyFileError, CorruptPDFError, EncryptedPDFError,
    DecompressionBombError, UnsafeFileError, TooManyPagesError, NoPagesError."""
    kind = check_type(name)
    if kind == "pdf":
        raise ValueError("to_pdf converts other formats; a PDF is read as it is (document.read_pdf)")
    if not data:
        raise errors.EmptyFileError(f"{name} is empty (0 bytes).")
    label = _formats()[_suffix(name)]["label"]
    try:
        return _CONVERTERS[kind](data, name, label, max_pages)
    except (errors.AlphaSearchError, MemoryError):
        raise
    except Exception as exc:  # the parsers raise many types for broken files (and RecursionError for deep ones)
        raise errors.CorruptPDFError(f"{name} could not be converted: it is corrupt, or not really of type {label}.") \
            from exc


# --- the finished PDF ----------------------------------------------------------------------------
def _finish(doc: pymupdf.Document, toc: list[list], title: str, unit: str) -> Converted:
    """Deterministic bytes: fixed metadata (no dates), no /ID, objects renumbered, streams compressed; links
    out of the document (``convert_to_pdf`` copies an EPUB's web links) removed, links within it kept."""
    for page in doc:
        for link in page.get_links():
            if link["kind"] != pymupdf.LINK_GOTO:
                page.delete_link(link)
    doc.set_toc(toc[:MAX_OUTLINE_ENTRIES])
    doc.set_metadata({"title": title[:300], "author": "", "subject": "", "keywords": "", "creator": CONVERTED_BY,
                      "producer": CONVERTED_BY, "creationDate": "", "modDate": "", "trapped": ""})
    pdf = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    pages = doc.page_count
    doc.close()
    return Converted(pdf, unit, pages)


def _outline(headings: list[tuple[int, str, int]]) -> list[list]:
    """(level, title, page) of headings as a valid outline: levels start at 1 and go down one at a time (an h3
    right under an h1 becomes level 2; a document opening with h2 starts at level 1)."""
    toc, open_levels = [], []
    for level, title, page in headings:
        while open_levels and open_levels[-1] >= level:
            open_levels.pop()
        open_levels.append(level)
        toc.append([len(open_levels), title[:300], page])
    return toc


def _too_many(name: str, max_pages: int) -> errors.TooManyPagesError:
    return errors.TooManyPagesError(f"{name} makes more than {max_pages:,} pages; the limit is {max_pages:,}.")


# --- MuPDF reads it --------------------------------------------------------------------------------
def _native(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    kind = ACCEPTED[_suffix(name)]
    frames = None
    if kind in ("xps", "epub", "cbz"):
        if data[:4] != b"PK\x03\x04":
            raise errors.CorruptPDFError(f"{name} is not a valid {label} file (it is not a ZIP archive).")
        sanitize.check_zip(data, name, label=label, refuse_images=True)
    elif kind == "mobi":
        if data[60:68] not in (b"BOOKMOBI", b"TEXtREAd"):
            raise errors.CorruptPDFError(f"{name} is not a valid MOBI file.")
        sanitize.check_mobi_images(data, name)
    elif kind in ("svg", "fb2"):
        if not _decode(data[:4096]).lstrip().startswith("<"):
            raise errors.CorruptPDFError(f"{name} is not a valid {label} file (it is not XML).")
        sanitize.check_markup(data, name)
        sanitize.check_embedded_images(data, name)
        sanitize.check_fb2_images(data, name)
    else:  # an image
        if not sanitize.is_image(data):
            raise errors.CorruptPDFError(f"{name} is not a valid {label} image.")
        frames = sanitize.check_image(data, name, max_frames=max_pages)
    try:
        src = pymupdf.open(stream=data, filetype=_FILETYPE.get(kind, _suffix(name)[1:]))
    except Exception as exc:
        raise errors.CorruptPDFError(f"{name} is corrupt or not really a {label} file, and cannot be opened.") from exc
    try:
        if src.is_pdf:  # MuPDF picks its reader by content: a PDF goes the PDF way, with its own checks
            raise errors.CorruptPDFError(f"{name} is a PDF file named as {label}; rename it to .pdf and "
                                         "upload it again.")
        if src.needs_pass:
            raise errors.EncryptedPDFError(f"{name} is protected; remove the protection and upload it again.")
        if src.is_reflowable:
            src.layout(_LETTER, fontsize=11)
        count = src.page_count
        if frames is not None and count > frames:  # MuPDF found frames the check did not see
            raise errors.CorruptPDFError(f"{name} is a corrupt image (its frames cannot be counted).")
        if count > max_pages:
            raise _too_many(name, max_pages)
        if count <= 0:
            raise errors.NoPagesError(f"{name} has no pages.")
        toc = [[lvl, " ".join(str(t).split()), page] for lvl, t, page, *_ in src.get_toc(simple=True)
               if 1 <= page <= count and str(t).strip()]
        title = str(src.metadata.get("title") or "").strip() or PurePath(name).stem
        doc = pymupdf.open("pdf", src.convert_to_pdf())
    finally:
        src.close()
    return _finish(doc, _outline([(lvl, t, page) for lvl, t, page in toc]), title, "page")


# --- HTML laid out by MuPDF's Story -------------------------------------------------------------
def _decode(raw: bytes) -> str:
    """Text of a file: its byte-order mark's encoding, else UTF-8, else Windows-1252; control characters gone."""
    for mark, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\0\0", "utf-32-le"), (b"\0\0\xfe\xff", "utf-32-be"),
                        (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if raw.startswith(mark):
            return raw[len(mark):].decode(codec, "replace").translate(_CONTROL)
    try:
        return raw.decode("utf-8").translate(_CONTROL)
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace").translate(_CONTROL)


def _story(clean: str, name: str, title: str, max_pages: int) -> Converted:
    """Sanitised HTML laid out on Letter pages; the outline from its headings."""
    story = pymupdf.Story(clean, user_css=_CSS, em=11, archive=None)  # no archive: nothing to load images from
    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    where = _LETTER + (_MARGIN, _MARGIN, -_MARGIN, -_MARGIN)
    pages = 0
    headings: list[tuple[int, str, int]] = []

    def rectfn(rect_num, filled):
        nonlocal pages
        pages += 1
        if pages > max_pages:
            raise _too_many(name, max_pages)
        return _LETTER, where, None

    def positionfn(position):
        text = " ".join((position.text or "").split())
        if position.heading and position.open_close & 1 and text and len(headings) < MAX_OUTLINE_ENTRIES:
            headings.append((position.heading, text, position.page_num))

    story.write(writer, rectfn, positionfn=positionfn)
    writer.close()
    doc = pymupdf.open("pdf", out.getvalue())
    return _finish(doc, _outline(headings), title or (headings[0][1] if headings else PurePath(name).stem), "page")


def _html(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    sanitize.check_markup(data, name)
    clean, title = sanitize.clean_html(_decode(data), sanitize.ImageBudget())
    return _story(clean, name, title, max_pages)


def _markdown(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    from markdown_it import MarkdownIt

    rendered = MarkdownIt("commonmark").enable("table").render(_decode(data))
    clean, _ = sanitize.clean_html(rendered, sanitize.ImageBudget())
    return _story(clean, name, "", max_pages)


def _text(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    paragraphs = re.split(r"\n[ \t]*\n", _decode(data).replace("\r\n", "\n").replace("\r", "\n"))
    body = "".join(f'<p class="plain">{html.escape(sanitize.break_long_words(p.strip(chr(10))))}</p>'
                   for p in paragraphs if p.strip())
    return _story(f"<html><body>{body}</body></html>", name, "", max_pages)


def _office_zip(data: bytes, name: str, label: str) -> None:
    if data[:4] == b"\xd0\xcf\x11\xe0":  # an OLE compound file: how Office stores a password-protected file
        raise errors.EncryptedPDFError(f"{name} is password-protected or in the old binary Office format; "
                                       f"save it as an unprotected {label} file and upload it again.")
    sanitize.check_zip(data, name, label=label, refuse_images=False)  # its pictures are checked as they are placed


def _docx(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    import mammoth

    _office_zip(data, name, label)
    result = mammoth.convert_to_html(io.BytesIO(data), style_map="p[style-name='Title'] => h1:fresh",
                                     external_file_access=False)
    clean, _ = sanitize.clean_html(result.value, sanitize.ImageBudget())
    return _story(clean, name, "", max_pages)


# --- PowerPoint ----------------------------------------------------------------------------------
def _pptx(data: bytes, name: str, label: str, max_pages: int) -> Converted:
    from pptx import Presentation

    _office_zip(data, name, label)
    deck = Presentation(io.BytesIO(data))
    slides = list(deck.slides)
    if len(slides) > max_pages:
        raise _too_many(name, max_pages)
    if not slides:
        raise errors.NoPagesError(f"{name} has no slides.")
    sides = sorted(min(max((side or default) / _EMU_PER_PT, 144), 14_400)  # 2 in to 200 in (PDF's largest page)
                   for side, default in ((deck.slide_width, 12_192_000), (deck.slide_height, 6_858_000)))
    page = pymupdf.Rect(0, 0, sides[1], sides[0])  # landscape
    margin = min(page.width, page.height) / 15
    budget = sanitize.ImageBudget()
    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    toc = []
    for number, slide in enumerate(slides, 1):
        title, body = _slide_html(slide, page.width - 2 * margin)
        clean, _ = sanitize.clean_html(body, budget)
        story = pymupdf.Story(clean, user_css=_SLIDE_CSS, em=16, archive=None)

        def scaled(s: float) -> pymupdf.Rect:
            return pymupdf.Rect(margin * s, margin * s, (page.width - margin) * s, (page.height - margin) * s)

        fit = story.fit(scaled, pmin=1, pmax=16, delta=0.05)
        scale = fit.parameter if fit.big_enough else 16
        if not fit.big_enough:
            story.place(scaled(scale))  # what fits at the smallest type; the rest of the slide is cut
        device = writer.begin_page(page)
        story.draw(device, pymupdf.Matrix(1 / scale, 1 / scale))
        writer.end_page()
        toc.append([1, f"Slide {number}: {title}" if title else f"Slide {number}", number])
    writer.close()
    doc = pymupdf.open("pdf", out.getvalue())
    title = " ".join((deck.core_properties.title or "").split()) or PurePath(name).stem
    return _finish(doc, toc, title, "slide")


def _ordered(shapes) -> list:
    return sorted(shapes, key=lambda s: ((s.top or 0), (s.left or 0)))


def _slide_html(slide, width: float) -> tuple[str, str]:
    """(the slide's title, its content as HTML: the title as <h1>, then the other shapes top to bottom)."""
    title_shape = slide.shapes.title
    title = " ".join(title_shape.text_frame.text.split()) if title_shape is not None else ""
    parts = [f"<h1>{html.escape(title)}</h1>"] if title else []
    skip = title_shape.shape_id if title_shape is not None else None
    for shape in _ordered(slide.shapes):
        if shape.shape_id != skip:
            parts.extend(_shape_html(shape, width, 0))
    return title, "<html><body>" + "".join(parts) + "</body></html>"


def _shape_html(shape, width: float, depth: int) -> list[str]:
    """A shape's content as HTML; nothing for one python-pptx cannot read (a linked picture, a missing part,
    an odd chart): the rest of the slide is kept."""
    try:
        return _shape_parts(shape, width, depth)
    except Exception:
        return []


def _shape_parts(shape, width: float, depth: int) -> list[str]:
    from pptx.shapes.group import GroupShape
    from pptx.shapes.picture import Picture

    if isinstance(shape, GroupShape):
        children = _ordered(shape.shapes) if depth < 16 else []
        return [part for child in children for part in _shape_html(child, width, depth + 1)]
    if isinstance(shape, Picture):
        blob = shape.image.blob
        shown = min((shape.width or 0) / _EMU_PER_PT or width, width)
        uri = "data:image/png;base64," + base64.b64encode(blob).decode()  # the type is checked by its bytes
        return [f'<p><img style="width: {shown:.0f}pt" src="{uri}"></p>']
    if getattr(shape, "has_table", False) and shape.has_table:
        return [_table_html([[(c.text, c.span_width, c.span_height, c.is_spanned) for c in row.cells]
                             for row in shape.table.rows])]
    if getattr(shape, "has_chart", False) and shape.has_chart:
        return _chart_html(shape.chart)
    if shape.has_text_frame:
        out = []
        for paragraph in shape.text_frame.paragraphs:
            text = html.escape(paragraph.text.strip()).replace("\v", "<br>")
            if text:
                out.append(f'<p style="margin-left: {18 * paragraph.level}pt">{text}</p>')
        return out
    return []


def _table_html(rows: list[list[tuple[str, int, int, bool]]]) -> str:
    """Cells as (text, columns spanned, rows spanned, covered by another cell's span)."""
    body = []
    for row in rows:
        cells = "".join(f'<td colspan="{cols}" rowspan="{span}">{html.escape(text).replace(chr(10), "<br>")}</td>'
                        for text, cols, span, covered in row if not covered)
        body.append(f"<tr>{cells}</tr>")
    return f"<table>{''.join(body)}</table>"


def _chart_html(chart) -> list[str]:
    """A chart's title and data as a table (categories down, series across)."""
    title = chart.chart_title.text_frame.text if chart.has_title and chart.chart_title.has_text_frame else ""
    plots = list(chart.plots)
    categories = [str(c) for c in plots[0].categories] if plots else []
    series = [s for plot in plots for s in plot.series]
    rows = [[("", 1, 1, False)] + [(s.name or "", 1, 1, False) for s in series]]
    for i, category in enumerate(categories):
        rows.append([(category, 1, 1, False)] + [
            ("" if i >= len(s.values) or s.values[i] is None else f"{s.values[i]:g}", 1, 1, False) for s in series])
    return ([f"<p><b>{html.escape(title)}</b></p>"] if title else []) + [_table_html(rows)]


_CONVERTERS = {"docx": _docx, "pptx": _pptx, "html": _html, "markdown": _markdown, "text": _text,
               **dict.fromkeys(("xps", "epub", "mobi", "fb2", "cbz", "svg", "image"), _native)}
