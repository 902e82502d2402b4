"""Lines a document prints on many of its pages: running headers and footers ("PEW RESEARCH CENTER",
"www.pewresearch.org", a company's name over every page). They are no answer: a quote that starts with
them and runs into a chart's numbers ("PEW RESEARCH CENTER www.pewresearch.org 55 18 43 27") states
nothing. The reader quotes a page's text without them.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict

from ..models import DocumentIndex

SHARE, AT_LEAST = 0.2, 3  # a line on this share of the pages, and on this many at least, is a running line
LETTERS = 3  # a running line holds words: a number repeated on many pages (an axis tick, a year) is left alone
KEPT = 32  # documents whose running lines are kept
_kept: OrderedDict[tuple[str, int], frozenset[str]] = OrderedDict()
_lock = threading.Lock()
EDGE = 3  # lines at the top and at the bottom of a page where a running line is a header or footer


def running_lines(doc: DocumentIndex) -> frozenset[str]:
    """The stripped lines of ``doc`` holding ``LETTERS`` letters that stand on ``SHARE`` of its pages (``AT_LEAST``);
    kept for the last ``KEPT`` documents by their id and pages' hash (not their text)."""
    texts = tuple(p.text for p in doc.pages)
    key = (doc.doc_id, hash(texts))
    with _lock:
        found = _kept.get(key)
    if found is None:
        found = _running(texts)
        with _lock:
            _kept[key] = found
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
    return found


def _running(texts: tuple[str, ...]) -> frozenset[str]:
    seen: Counter[str] = Counter()
    for text in texts:
        seen.update({line.strip() for line in text.split("\n") if sum(c.isalpha() for c in line) >= LETTERS})
    least = max(AT_LEAST, SHARE * len(texts))
    return frozenset(line for line, n in seen.items() if n >= least)


def without_running(text: str, running: frozenset[str]) -> str:
    """``text`` (a page) without the ``running`` lines (:func:`running_lines` of its document) among its first
    and last ``EDGE`` lines (where headers and footers stand; a statement's "(in millions)" repeated mid-page
    stays)."""
    if not running:
        return text
    lines = text.split("\n")
    edge = set(range(EDGE)) | set(range(len(lines) - EDGE, len(lines)))
    return "\n".join(line for i, line in enumerate(lines) if i not in edge or line.strip() not in running)
