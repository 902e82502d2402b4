"""The hostile input files, one table shared by the tests and ``benchmarks/reliability_table.py``.

Each case is a file an analyst might upload, what the engine must do with it (reject with a
specific error, or accept and handle safely), and the settings that make a limit small enough
to test quickly.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import filter_bombs
import format_factory
import pdf_factory
from alphasearch import errors


@dataclass(frozen=True)
class HostileCase:
    id: str
    description: str
    build: Callable[[], bytes]
    error: type[errors.AlphaSearchError] | None  # None: accepted and handled safely
    message: str = ""  # a fragment the one-line message must contain
    settings: dict = field(default_factory=dict)  # Settings overrides (also passed as ALPHASEARCH_* to the CLI)
    question: str = "What is this document about?"
    warning: str = ""  # a fragment one of the index's warnings must contain
    suffix: str = ".pdf"  # the file's type as its name says (the other formats are converted to PDF first)

    @property
    def filename(self) -> str:
        return "upload" + self.suffix


def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def _too_big() -> bytes:
    return pdf_factory.outline_pdf() + b"\n%" + b"0" * (1024 * 1024 + 10) + b"\n"


CASES: tuple[HostileCase, ...] = (
    HostileCase("zero-bytes", "zero bytes", lambda: b"", errors.EmptyFileError, "empty"),
    HostileCase("text-renamed", "a text file renamed to .pdf",
                lambda: b"Quarterly notes: revenue up, costs down.\n" * 50, errors.NotAPDFError, "not a PDF"),
    HostileCase("png-renamed", "a PNG image renamed to .pdf", _png, errors.NotAPDFError, "not a PDF"),
    HostileCase("random-bytes", "64 KB of random bytes",
                lambda: random.Random(1).randbytes(65536), errors.NotAPDFError, "not a PDF"),
    HostileCase("truncated", "a PDF cut off after 400 bytes", pdf_factory.truncated_pdf,
                errors.CorruptPDFError, "corrupt"),
    HostileCase("header-garbage", "a %PDF- header followed by garbage",
                lambda: b"%PDF-1.7\n" + random.Random(2).randbytes(8000), errors.CorruptPDFError, "corrupt"),
    HostileCase("password", "a password-protected PDF (AES-256 user password)", pdf_factory.encrypted_pdf,
                errors.EncryptedPDFError, "password-protected"),
    HostileCase("owner-only", "an owner-password-only PDF (no password needed to read)",
                pdf_factory.owner_only_pdf, None, question="How much does membership cost?"),
    HostileCase("zero-pages", "a valid PDF claiming 0 pages", pdf_factory.zero_pages_pdf,
                errors.NoPagesError, "no pages"),
    HostileCase("too-many-pages", "more pages than the limit (limit set to 4, file has 5)", pdf_factory.flat_pdf,
                errors.TooManyPagesError, "the limit is 4", settings={"max_pages": 4}),
    HostileCase("too-large", "a file over the size limit (limit set to 1 MB)", _too_big,
                errors.FileTooLargeError, "the limit is 1 MB", settings={"max_file_mb": 1}),
    HostileCase("flate-bomb", "a 0.3 MB page stream that inflates to 300 MB (decompression bomb)",
                pdf_factory.flate_bomb_pdf, errors.DecompressionBombError, "decompression bomb"),
    HostileCase("image-bomb", "a 0.4 MB image of 21,000 x 21,000 pixels", pdf_factory.image_bomb_pdf,
                errors.DecompressionBombError, "megapixel limit"),
    HostileCase("many-pages-warning", "more pages than the warning level (set to 3)", pdf_factory.flat_pdf,
                None, settings={"warn_pages": 3}, warning="indexing will take a while"),
    HostileCase("absurd-page-size", "one page of 14,400 x 14,400 pt", pdf_factory.huge_page_pdf, None,
                question="What is the poster about?"),
    HostileCase("deep-outline", "an outline 3,000 entries deep", pdf_factory.deep_outline_pdf, None,
                warning="nested more than"),
    HostileCase("outline-nowhere", "an outline pointing at pages that do not exist", pdf_factory.bad_outline_pdf,
                None, question="Which chapter is about subject C?"),
    HostileCase("no-text-layer", "pages with no text layer (drawings only, like a scan)",
                pdf_factory.image_only_pdf, None),
    HostileCase("damaged-page", "a page whose content stream is corrupt", pdf_factory.corrupt_page_pdf, None,
                question="What does page three talk about?", warning="damaged"),
    # the security audit's resource bombs (issue 14): each is parsed in a worker process with limits
    HostileCase("outline-100k", "an outline 100,000 bookmarks deep (13 MB; crashed MuPDF inside pymupdf.open)",
                pdf_factory.deep_outline_raw_pdf, errors.OutlineTooDeepError, "nested more than 10,000 levels"),
    HostileCase("hex-flate-bomb", "a 2 MB page stream behind [/ASCIIHexDecode /FlateDecode] decoding to 1 GB",
                pdf_factory.hex_flate_bomb_pdf, errors.DecompressionBombError, "decompression bomb"),
    # filters the decoded-size check did not count while MuPDF decoded them (issue 31)
    HostileCase("brotli-bomb", "a 58 KB page stream behind /BrotliDecode decoding to 300 MB (not counted before)",
                lambda: filter_bombs.filter_bomb_pdf("BrotliDecode"), errors.DecompressionBombError, "decompression bomb"),
    HostileCase("crypt-identity-bomb", "a Flate bomb behind [/Crypt /FlateDecode] with the Identity crypt filter "
                "(not counted before: 1.6 GB peak in a worker)", lambda: filter_bombs.filter_bomb_pdf("Crypt"),
                errors.DecompressionBombError, "decompression bomb"),
    HostileCase("ccitt-content-bomb", "a 5 KB page stream behind /CCITTFaxDecode, 1 bit per 8 KB row, decoding to 300 MB",
                lambda: filter_bombs.filter_bomb_pdf("CCITTFaxDecode"), errors.DecompressionBombError, "decompression bomb"),
    HostileCase("dct-content-bomb", "a 0.9 KB page stream behind /DCTDecode whose JPEG declares 65,000 x 4,850 pixels",
                lambda: filter_bombs.filter_bomb_pdf("DCTDecode"), errors.DecompressionBombError, "decompression bomb"),
    HostileCase("jbig2-content-bomb", "a 0.6 KB page stream behind /JBIG2Decode declaring a 65,536 x 38,400 page",
                lambda: filter_bombs.filter_bomb_pdf("JBIG2Decode"), errors.DecompressionBombError, "decompression bomb"),
    HostileCase("jpx-image-bomb", "an image declared 10 x 10 whose JPEG 2000 codestream declares 30,000 x 30,000",
                filter_bombs.jpx_image_bomb_pdf, errors.DecompressionBombError, "megapixel limit"),
    HostileCase("flate-250mb", "a 1.2 MB Flate page stream of text lines inflating to 250 MB (under the stream limit)",
                pdf_factory.text_flood_pdf, None, warning="only the first 4 MB were read"),
    HostileCase("line-100mb", "one line of text 100 million characters long (0.1 MB on disk)",
                pdf_factory.long_line_pdf, None, warning="only the first 4 MB were read"),
    HostileCase("lzw-5mb", "a page stream of 5 MB of text behind /LZWDecode (5.9 MB on disk; decoded in Python, "
                "a preview took 4.7 s before)", lambda: pdf_factory.lzw_pdf(5), None, warning="only the first 4 MB were read"),
    HostileCase("form-fanout", "Form XObjects 7 levels deep, each drawing the next 10 times (2.5 KB)",
                pdf_factory.form_fanout_pdf, None, warning="nested forms"),
    HostileCase("form-fanout-escaped", "the same forms drawn as '/#58 Do', the name /X written with a #xx escape",
                lambda: pdf_factory.form_fanout_pdf(drawn_as=b"#58"), None, warning="nested forms"),
    HostileCase("form-fanout-operands", "the same forms drawn as '/X 0 Do' (MuPDF draws the first name among the "
                "operands of Do; 2.5 KB)", lambda: pdf_factory.form_fanout_pdf(operands=b" 0 "), None, warning="nested forms"),
    HostileCase("form-fanout-split", "the same forms, the page's instructions two streams: '... q /X' and '0 Do Q'",
                lambda: pdf_factory.form_fanout_pdf(operands=b"0 ", split=True), None, warning="nested forms"),
    HostileCase("annotation-fanout", "the same forms drawn by an annotation's appearance stream (3 KB)",
                pdf_factory.annotation_fanout_pdf, None, warning="nested forms"),
    HostileCase("annotation-copies", "one annotation listed 100,000 times in the page's /Annots (0.6 MB; 1 s before)",
                lambda: pdf_factory.annotation_fanout_pdf(levels=1, copies=100_000), None, warning="nested forms"),
    HostileCase("pattern-fanout", "the same forms drawn by a tiling pattern's cell, the page filling with it",
                lambda: pdf_factory.cell_fanout_pdf("pattern"), None, warning="nested forms"),
    HostileCase("softmask-fanout", "the same forms drawn by a soft mask's group, the page filling under it",
                lambda: pdf_factory.cell_fanout_pdf("softmask"), None, warning="nested forms"),
    HostileCase("type3-fanout", "the same forms drawn by a Type3 font's glyph procedure",
                lambda: pdf_factory.cell_fanout_pdf("type3"), None, warning="nested forms"),
    HostileCase("pattern-fanout-painted", "a tiling pattern's cell drawing forms 4 levels deep, the page filling with it "
                "through forms of its own 4 levels deep (1,000 fills, each running the cell: 10 s before)",
                lambda: pdf_factory.cell_fanout_pdf("pattern", levels=4, painters=4), None, warning="nested forms"),
    HostileCase("softmask-fanout-painted", "the same with a soft mask's group, the page's forms filling under it",
                lambda: pdf_factory.cell_fanout_pdf("softmask", levels=4, painters=4), None, warning="nested forms"),
    HostileCase("masked-pattern", "a page filling once with a pattern under a soft mask whose group fills 1,000 times "
                "through forms, each fill running the pattern's cell of forms 4 levels deep (3 KB; 6.5 s before)",
                pdf_factory.masked_pattern_pdf, None, warning="nested forms"),
    HostileCase("form-fanout-inherited", "forms without resources of their own, naming each other through the page's",
                lambda: pdf_factory.cell_fanout_pdf("inherited"), None, warning="nested forms"),
    HostileCase("shading-function", "4 function-based shadings sampling a PostScript function of 80 KB of code "
                "(1.2 KB on disk; 4.5 s before)", lambda: pdf_factory.function_pdf("shading", 10_000, uses=4), None,
                warning="functions beyond the limits"),
    HostileCase("tint-transform-text", "10,000 words each in a new colour of a Separation colour space whose tint "
                "transform is a PostScript function of 800 KB of code (2.6 KB; 2.3 s before)",
                lambda: pdf_factory.function_pdf("separation", 100_000, uses=10_000), None,
                warning="functions beyond the limits"),
    HostileCase("devicen-28", "text in a DeviceN colour space of 28 colorants, its tint transform a sampled function "
                "(2**28 samples read per colour; 1.2 KB; 3.4 s before)",
                lambda: pdf_factory.function_pdf("devicen", 28, uses=2), None, warning="functions beyond the limits"),
    # the other formats (issue 36): each converted in a worker, nothing fetched, nothing expanded
    HostileCase("docx-zip-bomb", "a Word file whose document.xml unpacks to 300 MB of zeros (0.3 MB packed)",
                format_factory.docx_bomb, errors.DecompressionBombError, "200 MB", suffix=".docx"),
    HostileCase("docx-billion-laughs", "a Word file whose document.xml declares the billion laughs (XML entities)",
                format_factory.laughs_docx, errors.UnsafeFileError, "entities", suffix=".docx"),
    HostileCase("svg-external-entity", "an SVG whose text is an external entity reading /etc/passwd",
                format_factory.entity_svg, errors.UnsafeFileError, "entit", suffix=".svg"),
    HostileCase("xps-entity", "an XPS whose page declares an XML entity", format_factory.entity_xps,
                errors.UnsafeFileError, "entit", suffix=".xps"),
    HostileCase("html-remote", "a web page whose stylesheet, script, images and frame point at a server",
                format_factory.remote_html, None, suffix=".html", question="How did prices move?"),
    HostileCase("png-30000", "a PNG of 30,000 x 30,000 pixels (0.1 MB)", format_factory.huge_png,
                errors.DecompressionBombError, "30,000 x 30,000", suffix=".png"),
    HostileCase("xlsx", "a spreadsheet (a type AlphaSearch does not read)", lambda: b"PK\x03\x04" + bytes(200),
                errors.UnsupportedFormatError, "not a type AlphaSearch reads; it reads PDF, Word (.docx)",
                suffix=".xlsx"),
    HostileCase("inline-images", "10 inline images (BI ... ID ... EI) each declaring 10,000 x 10,000 RGB pixels of "
                "1 KB of Flate data, decoded as MuPDF reads the page (7 KB; 1.3 s and 450 MB before)",
                pdf_factory.inline_images_pdf, None, warning="inline images"),
    HostileCase("pattern-images", "10 images of 15,000 x 15,000 pixels drawn only through a tiling pattern's cell "
                "(2.2 MB): indexed; its preview is refused in the app (5.5 s to render before)",
                lambda: pdf_factory.images_via_pdf("pattern"), None, question="What does the page draw?"),
    HostileCase("named-forms", "a page whose one 'Do' names 40 forms of 4 MB of drawing instructions each (0.3 MB; "
                "MuPDF draws the first, the page budget judged all 40: ~10 s before, in the app before each preview)",
                lambda: pdf_factory.named_forms_pdf(40, 4), None, warning="beyond the limits"),
    HostileCase("tiny-tiles", "a page filling 10 times with a tiling pattern of 0.01-point tiles (1 KB): indexed at "
                "once; drawing it takes ~15 s, so its preview is drawn in a worker and ends after 10 s",
                pdf_factory.tiny_tiles_pdf, None, question="What does the page show?"),
    HostileCase("shared-content", "300 pages drawing one 3.5 MB content stream, each within its own budget (60 KB; "
                "100 such pages took 18-38 s before)", lambda: pdf_factory.shared_content_pdf(300),
                errors.TooComplexError, "more than 768 MB"),
    HostileCase("html-js-text", "text containing HTML and JavaScript", pdf_factory.html_js_pdf, None,
                question="When does the vault code rotate?"),
)

BY_ID = {c.id: c for c in CASES}
