"""Whether a page is a table of contents: its lines name sections and end in the page they start on
("Item 3. Legal Proceedings 20"). Such a number is a page number, never a figure, so the row readers skip
these pages. The words are data (``lexicon.json``'s ``contents_pages``)."""
from __future__ import annotations

import re
from functools import lru_cache

from .items import lexicon

ENTRY_CHARS = 300  # a contents entry is one short line; a longer one is none (and the pattern is quadratic in it)
_ENTRY = re.compile(r"^(?P<label>.*[A-Za-z].*?)[\s.·…_-]+(?P<page>\d{1,3})$")


@lru_cache(maxsize=1)
def _words() -> tuple[re.Pattern[str], re.Pattern[str], int]:
    d = lexicon()["contents_pages"]
    return re.compile(d["title"], re.IGNORECASE), re.compile(d["entry_starts"], re.IGNORECASE), int(d["entries"])


@lru_cache(maxsize=512)
def contents_page(text: str) -> bool:
    """At least ``entries`` lines that end in a page number rising down the page (a line holding one number
    only), and either a contents title on the page or most such lines starting like a filing's sections
    ("Item 7.", "Part II", "Note 4")."""
    title, starts, need = _words()
    pages: list[int] = []
    headed = 0
    for line in text.splitlines():
        line = " ".join(line.split())
        m = _ENTRY.match(line) if len(line) <= ENTRY_CHARS else None
        if not m or re.search(r"\d", starts.sub("", m.group("label"), count=1)):
            continue  # no entry, or a row of figures ("Services 610 580 540")
        pages.append(int(m.group("page")))
        headed += bool(starts.match(line))
    if len(pages) < need:
        return False
    rising = sum(b >= a for a, b in zip(pages, pages[1:])) / (len(pages) - 1)
    return rising >= 0.8 and (bool(title.search(text)) or headed >= 0.5 * len(pages))


__all__ = ["contents_page"]
