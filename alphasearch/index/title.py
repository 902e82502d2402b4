"""A document's title as a reader would give it.

The metadata title when it is one; when it is empty or an identifier (an SEC accession
number such as "0000789570-23-000008", a file or software name — the ``titles.junk``
patterns of ``data/facts.json``), the document's own words: who and what it is
("3M Company · 10-K · FY2022", from :mod:`alphasearch.index.facts`), else the largest
heading of its first page, else the file name. A filing's cover outranks a metadata title
that does not name its form: Nike's 2023 10-K carries the title "Nike 2023 Proxy".
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from . import facts
from .. import pdf
from ..models import Page
from .headings import Layout, heading_like


def is_identifier(title: str) -> bool:
    """Empty, or a code rather than a title (``titles.junk`` of ``data/facts.json``)."""
    title = " ".join(title.split())
    return len(title) < 4 or any(re.search(p, title, re.IGNORECASE) for p in facts.patterns()["titles"]["junk"])


def document_title(content: pdf.PdfContent, pages: Sequence[Page], layout: Layout, name: str) -> str:
    meta = " ".join(content.title.split())
    found = facts.extract_text([p.text for p in pages[:facts.FIRST_PAGES]], meta_title="" if is_identifier(meta) else
                               meta, headings=list(pages[0].headings) if pages else [])  # "CORP Q1 2021": quarter 1
    if not is_identifier(meta) and not (found.org and found.kind in facts.FORMS and not facts.names_form(meta)):
        return meta
    if found.org and found.kind:
        return found.label()
    if content.pages:
        lines = [ln for ln, key in zip(content.pages[0].lines, layout.norm[0])
                 if heading_like(ln.text) and not layout.repeated(key)]
        if lines:
            top = max(ln.size for ln in lines)
            if top >= layout.body + 1.0:
                words = [ln.text for ln in lines if ln.size >= top - 0.5][:2]
                return " ".join(" ".join(words).split())[:150]
    stem = PurePath(name).stem.replace("_", " ").replace("-", " ")
    return " ".join(stem.split()) or "Document"
