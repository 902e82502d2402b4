"""Files of the formats other than PDF, built by the tests (never downloaded): Word, PowerPoint, EPUB, XPS, MOBI,
FB2, SVG, PNG, and hostile ones of each (a ZIP bomb, XML entities, a 30,000 x 30,000 image, remote references)."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

import pymupdf

FILLER = "Filler sentence about the business and its many segments. " * 8


# --- builders --------------------------------------------------------------------------------------
def docx_bytes() -> bytes:
    import docx

    d = docx.Document()
    d.add_heading("Revenue Overview", 1)
    d.add_paragraph("Revenue grew 12 percent on stronger demand.")
    table = d.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Year", (0, 1): "Revenue", (1, 0): "2024", (1, 1): "1,234"}.items():
        table.cell(r, c).text = text
    for _ in range(8):
        d.add_paragraph(FILLER)
    d.add_heading("Risk Factors", 1)
    d.add_paragraph("Competition is intense in every market.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def png_bytes(text: str = "Scanned invoice 4711", width: int = 400, height: int = 120) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((20, 60), text, fontsize=24)
    return page.get_pixmap().tobytes("png")


def pptx_bytes() -> bytes:
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)
    for title in ("Strategy", "Results", "Outlook"):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = f"{title} body point\nSecond point"
    deck.slides[1].shapes.add_picture(io.BytesIO(png_bytes("Chart text")), Inches(1), Inches(5))
    table = deck.slides[2].shapes.add_table(2, 2, Inches(1), Inches(5), Inches(4), Inches(1)).table
    for (r, c), text in {(0, 0): "Measure", (0, 1): "2025", (1, 0): "Sales growth guidance", (1, 1): "7%"}.items():
        table.cell(r, c).text = text
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def zip_bytes(members: dict[str, bytes | str], *, stored_first: str | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        if stored_first:
            z.writestr(zipfile.ZipInfo(stored_first), members[stored_first], zipfile.ZIP_STORED)
        for name, data in members.items():
            if name != stored_first:
                z.writestr(name, data)
    return out.getvalue()


def epub_bytes() -> bytes:
    chapter = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
               '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">'
               '<head><title>{0}</title></head><body><h1>{0}</h1><p>{1}</p></body></html>')
    return zip_bytes({
        "mimetype": "application/epub+zip",
        "META-INF/container.xml": '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                                  'opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
                                  'media-type="application/oebps-package+xml"/></rootfiles></container>',
        "OEBPS/content.opf": '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
                             'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
                             '<dc:identifier id="id">book-1</dc:identifier><dc:title>Annual Letter</dc:title>'
                             '<dc:language>en</dc:language></metadata><manifest>'
                             '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
                             '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
                             '<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>'
                             '<item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest>'
                             '<spine toc="ncx"><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
        "OEBPS/nav.xhtml": '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.'
                           'idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Letter to '
                           'Shareholders</a></li><li><a href="c2.xhtml">Capital Allocation</a></li></ol></nav>'
                           '</body></html>',
        "OEBPS/toc.ncx": '<?xml version="1.0"?><!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" '
                         '"http://www.daisy.org/z3986/2005/ncx-2005-1.dtd"><ncx xmlns="http://www.daisy.org/z3986/'
                         '2005/ncx/" version="2005-1"><head/><docTitle><text>Annual Letter</text></docTitle><navMap>'
                         '<navPoint id="n1" playOrder="1"><navLabel><text>Letter to Shareholders</text></navLabel>'
                         '<content src="c1.xhtml"/></navPoint><navPoint id="n2" playOrder="2"><navLabel><text>'
                         'Capital Allocation</text></navLabel><content src="c2.xhtml"/></navPoint></navMap></ncx>',
        "OEBPS/c1.xhtml": chapter.format("Letter to Shareholders", "Dear owners, the year went well."),
        "OEBPS/c2.xhtml": chapter.format("Capital Allocation", "We bought back shares worth 9 billion."),
    }, stored_first="mimetype")


def xps_bytes(page: str | None = None) -> bytes:
    page = page or ('<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" Width="816" Height="1056" '
                    'xml:lang="en"><Glyphs OriginX="96" OriginY="200" FontRenderingEmSize="24" '
                    'FontUri="/Resources/font.cff" UnicodeString="Fixed layout statement" Fill="#FF000000"/>'
                    '</FixedPage>')
    return zip_bytes({
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                               '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                               'relationships+xml"/><Default Extension="fpage" ContentType="application/vnd.ms-'
                               'package.xps-fixedpage+xml"/></Types>',
        "_rels/.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                       '<Relationship Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" '
                       'Target="/FixedDocSeq.fdseq" Id="R0"/></Relationships>',
        "FixedDocSeq.fdseq": '<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06">'
                             '<DocumentReference Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>',
        "Documents/1/FixedDoc.fdoc": '<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06">'
                                     '<PageContent Source="/Documents/1/Pages/1.fpage"/></FixedDocument>',
        "Documents/1/Pages/1.fpage": page,
        "Resources/font.cff": pymupdf.Font("helv").buffer,
    })


def mobi_bytes() -> bytes:
    """A PalmDB book: a header record (PalmDOC + MOBI headers) and one uncompressed text record."""
    text = b"<html><body><h1>Mobi Chapter</h1><p>Mobi body text.</p></body></html>"
    header = b"book".ljust(32, b"\0") + bytes(28) + b"BOOKMOBI" + struct.pack(">IIH", 0, 0, 2)
    first = len(header) + 16 + 2
    record0 = struct.pack(">HHIHHHH", 1, 0, len(text), 1, 4096, 0, 0) + b"MOBI" + struct.pack(">IIII", 232, 2, 65001, 1)
    record0 += bytes(232 - 20)
    return header + struct.pack(">IIII", first, 0, first + len(record0), 2) + b"\0\0" + record0 + text


FB2 = ('<?xml version="1.0" encoding="utf-8"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0">'
       '<description><title-info><book-title>Memo</book-title></title-info></description><body>'
       '<section><title><p>First Part</p></title><p>Alpha text.</p></section>'
       '<section><title><p>Second Part</p></title><p>Beta text.</p></section></body></FictionBook>').encode()
SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">'
       b'<text x="10" y="50" font-size="20">Org chart label</text></svg>')


def huge_png(side: int = 30_000) -> bytes:
    """A real side x side 1-bit PNG: ~110 KB of zlib-compressed zero rows."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    packer, rows = zlib.compressobj(1), b"\0" * (1 + side // 8) * 1000
    idat = b"".join(packer.compress(rows) for _ in range(side // 1000)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def docx_bomb() -> bytes:
    """A .docx whose document.xml unpacks to 300 MB of zeros (about 0.3 MB packed)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(300):
                member.write(bytes(1 << 20))  # 300 MB of zeros
    return out.getvalue()


def with_member(data: bytes, name: str, body: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = {m: z.read(m) for m in z.namelist()}
    members[name] = body
    return zip_bytes(members)


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
          + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r>'
          '<w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>')


def laughs_docx() -> bytes:
    """A real .docx whose document.xml declares the billion laughs."""
    return with_member(docx_bytes(), "word/document.xml", LAUGHS.encode())


def entity_svg() -> bytes:
    """An SVG whose text is an external entity reading /etc/passwd."""
    return b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + SVG.replace(
        b"Org chart label", b"&x;")


def entity_xps() -> bytes:
    """An XPS whose page declares an entity."""
    return xps_bytes('<?xml version="1.0"?><!DOCTYPE FixedPage [<!ENTITY big "boom">]><FixedPage xmlns="http://'
                     'schemas.microsoft.com/xps/2005/06" Width="816" Height="1056"/>')


def remote_html(base: str = "http://127.0.0.1:9") -> bytes:
    """A web page whose heading and text stay and whose every resource points at ``base``."""
    return (f'<html><head><link rel="stylesheet" href="{base}/s.css"><style>@import url("{base}/i.css");'
            f'body {{ background: url({base}/bg.png) }}</style><script>fetch("{base}/js")</script></head>'
            f'<body><h1>Market Update</h1><p>Prices rose sharply.</p><img src="{base}/x.png">'
            f'<iframe src="{base}/frame"></iframe></body></html>').encode()
