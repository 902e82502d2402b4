"""Lines a document prints on many of its pages: running headers and footers ("PEW RESEARCH CENTER",
"www.pewresearch.org", a company's name over every page, a footer with the page's number). They are no answer: a
quote that starts with them and runs into a chart's numbers ("PEW RESEARCH CENTER www.pewresearch.org 55 18 43 27") states
nothing. The reader quotes a page's text without them.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict

from ..index.folios import NOT_PAGE_AFTER, NOT_PAGE_BEFORE, grows
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
    numbers: dict[str, dict[int, list[int]]] = {}  # a line with a page number: page -> the numbers it prints there
    for i, text in enumerate(texts):
        lines = {line.strip() for line in text.split("\n") if sum(c.isalpha() for c in line) >= LETTERS}
        for shape, number in {_folio(line) for line in lines}:
            seen[shape] += 1
            if number is not None:
                numbers.setdefault(shape, {}).setdefault(i, []).append(number)
    least = max(AT_LEAST, SHARE * len(texts))
    return frozenset(line for line, n in seen.items() if n >= least and (line not in numbers or grows(numbers[line])))


def _page_number(word: str) -> bool:
    return len(word) <= 4 and word.isascii() and word.isdigit()


def _folio(line: str) -> tuple[str, int | None]:
    """The line's words with the page number it begins or ends with written as "#", and that number (None when it
    has none). Words, not a pattern: a line of a hostile PDF may hold any run of spaces."""
    words = line.split()
    if len(words) > 1 and _page_number(words[-1]) and not words[-2][-1].isdigit() and not NOT_PAGE_BEFORE.search(
            words[-2]):  # "Note 12", "Item 7", "$ 245" are no page numbers
        return " ".join([*words[:-1], "#"]), int(words[-1])
    if len(words) > 1 and _page_number(words[0]) and not words[1][0].isdigit() and not NOT_PAGE_AFTER.search(words[1]):
        return " ".join(["#", *words[1:]]), int(words[0])
    return " ".join(words), None


def folio(line: str) -> str:
    """A line as a running line is kept: its words, the page number it begins or ends with written as "#" — a
    footer that numbers its page ("McDonald's Corporation 2022 Annual Report 36") is one running line on every
    page, when its numbers grow page after page. A number joined to others ("Total revenue 3,020") is no page
    number and stays."""
    return _folio(line)[0]


def without_running(text: str, running: frozenset[str]) -> str:
    """``text`` (a page) without the ``running`` lines (:func:`running_lines` of its document) among its first
    and last ``EDGE`` lines (where headers and footers stand; a statement's "(in millions)" repeated mid-page
    stays)."""
    if not running:
        return text
    lines = text.split("\n")
    edge = set(range(EDGE)) | set(range(len(lines) - EDGE, len(lines)))
    return "\n".join(line for i, line in enumerate(lines) if i not in edge or folio(line) not in running)
