"""Lines a document prints on many of its pages: running headers and footers ("PEW RESEARCH CENTER",
"www.pewresearch.org", a company's name over every page). They are no answer: a quote that starts with
them and runs into a chart's numbers ("PEW RESEARCH CENTER www.pewresearch.org 55 18 43 27") states
nothing. The reader quotes a page's text without them.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..models import DocumentIndex

SHARE, AT_LEAST = 0.2, 3  # a line on this share of the pages, and on this many at least, is a running line
LETTERS = 3  # a running line holds words: a number repeated on many pages (an axis tick, a year) is left alone
EDGE = 3  # lines at the top and at the bottom of a page where a running line is a header or footer


def running_lines(doc: DocumentIndex) -> frozenset[str]:
    """The stripped lines of ``doc`` holding ``LETTERS`` letters that stand on ``SHARE`` of its pages (``AT_LEAST``)."""
    return _running(tuple(p.text for p in doc.pages))


@lru_cache(maxsize=64)
def _running(texts: tuple[str, ...]) -> frozenset[str]:
    seen: Counter[str] = Counter()
    for text in texts:
        seen.update({line.strip() for line in text.split("\n") if sum(c.isalpha() for c in line) >= LETTERS})
    least = max(AT_LEAST, SHARE * len(texts))
    return frozenset(line for line, n in seen.items() if n >= least)


def without_running(doc: DocumentIndex, text: str) -> str:
    """``text`` (a page of ``doc``) without the running lines among its first and last ``EDGE`` lines (where
    headers and footers stand; a statement's "(in millions)" repeated mid-page stays)."""
    running = running_lines(doc)
    lines = text.split("\n")
    if not running:
        return text
    edge = set(range(EDGE)) | set(range(len(lines) - EDGE, len(lines)))
    return "\n".join(line for i, line in enumerate(lines) if i not in edge or line.strip() not in running)
