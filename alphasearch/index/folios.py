"""The page numbers a document prints: a line holding only a number ("17", "Page 4 of 9", "- 3 -") at a page's top or
bottom, or a running header or footer line that begins or ends with it ("Annual Report 2023 | 17") when the same
words frame a growing number on other pages. The page ranker reads them for "on page 19", the cross-reference index
of a 10-K maps its printed pages to the PDF's by them. Pure text: no index, no retrieval library.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

_LABEL_LINE = re.compile(r"^\s*(?:page\s+)?[(\-–—]?\s*(\d{1,4})\s*[)\-–—]?(?:\s*(?:/|of)\s*\d{1,4})?\s*$",
                         re.IGNORECASE)
# a running header/footer line with the page number at its start or its end, apart from the words
# by two spaces or a bar ("16  Graduate Studies", "Annual Report | 17", "Version 1.3 17")
_LEAD_NUMBER = re.compile(r"^(?P<n>\d{1,3})(?:\s*[|•·]\s*|\s{2,}|\s+(?=[^\W\d_]))(?P<words>\S.{0,80})$")
_TRAIL_NUMBER = re.compile(r"^(?P<words>.{0,80}\S)(?:\s*[|•·]\s*|\s+)(?P<n>\d{1,3})$")
# the words next to the number make it something else: "Note 12", "Item 7", "$ 245", "12 %", "No. 3"
NOT_PAGE_BEFORE = re.compile(r"(?:\b(?:notes?|items?|chapters?|sections?|parts?|tables?|fig(?:ure)?s?|appendix|"
                              r"steps?|exhibits?|schedules?|articles?|no|nr|rule|phase|level|class|q[1-4]|fy)\.?|"
                              r"[$€£%#:,.+\-/(])$", re.IGNORECASE)
NOT_PAGE_AFTER = re.compile(r"^(?:[$€£%#:,.+\-/)]|(?:percent|million|billion|thousand|months?|years?|days?)\b)",
                             re.IGNORECASE)


EDGE_CHARS = 120  # a page number's line is short: a longer one is passed over unread (a hostile PDF's run of
# spaces made the anchored patterns below quadratic: 24 s for a line of 40,000)


def _edge_lines(text: str) -> list[str]:
    """The last three then the first three non-empty lines (each once): where a printed page number sits. Lines
    longer than ``EDGE_CHARS`` stand in their place as empty strings, which no pattern matches."""
    lines = [ln.strip() if len(ln.strip()) <= EDGE_CHARS else "" for ln in text.splitlines() if ln.strip()]
    last, first = range(len(lines) - 1, max(-1, len(lines) - 4), -1), range(min(3, len(lines)))
    return [lines[i] for i in dict.fromkeys([*last, *first])]


def page_label(text: str) -> int | None:
    """The printed page number: a line holding only a number ("17", "Page 4 of 9", "(1)",
    "- 3 -") among the first or last three lines."""
    for ln in _edge_lines(text):
        m = _LABEL_LINE.match(ln)
        if m:
            return int(m.group(1))
    return None


def _running_parts(line: str) -> list[tuple[str, int]]:
    """(the words, the number) of a header/footer line that begins or ends with a page number:
    "Annual Report 2023 | 17" -> ("annual report 2023", 17), "16  Graduate Studies" -> ("graduate
    studies", 16). A word like "Note" or "Item" before the number makes it a heading, not a page."""
    out = []
    for rx, beside in ((_LEAD_NUMBER, NOT_PAGE_AFTER), (_TRAIL_NUMBER, NOT_PAGE_BEFORE)):
        m = rx.match(line)
        if m and re.search(r"[^\W\d_]", m.group("words")) and not beside.search(m.group("words")):
            out.append((" ".join(m.group("words").lower().split()), int(m.group("n"))))
    return out


def grows(by_page: dict[int, list[int]]) -> bool:
    """Page numbers (``by_page``: page index -> the numbers a line prints there): page after page they grow by at
    most two per page (a spread holds two), with the odd exception (numbering restarting in an appendix), on three
    pages at least; a table's "Total 512" on many pages does not."""
    pages = sorted(by_page)
    steps = [0 < min(by_page[b]) - max(by_page[a]) and max(by_page[b]) - max(by_page[a]) <= 2 * (b - a)
             for a, b in zip(pages, pages[1:])]
    return len(pages) >= 3 and sum(steps) >= 0.8 * len(steps)


def page_labels(texts: Sequence[str]) -> list[tuple[int, ...]]:
    """The printed page numbers of every page of a document (a spread of two printed pages has
    two): a line of only a number (:func:`page_label`), or a running header/footer line that
    begins or ends with the number ("Graduate Studies & Professional Learning  17",
    "17 | Annual Report") when the same words frame a number on at least two other pages — a
    table row or heading ending in a number does not recur that way."""
    parts = [[p for ln in _edge_lines(t) for p in _running_parts(ln)] for t in texts]
    seen: dict[str, dict[int, list[int]]] = {}  # words -> page index -> the numbers they frame there
    for i, ps in enumerate(parts):
        for words, n in ps:
            seen.setdefault(words, {}).setdefault(i, []).append(n)

    running = {words for words, by_page in seen.items() if grows(by_page)}
    out = []
    for text, ps in zip(texts, parts):
        labels = [n for words, n in ps if words in running]
        alone = page_label(text)
        if alone is not None:
            labels.insert(0, alone)
        out.append(tuple(dict.fromkeys(labels)))
    return out


def page_offset(labels: Sequence[Sequence[int]], *, agreeing: int = 0) -> int | None:
    """The offset (PDF page - printed page number) most pages agree on, of ``labels`` (:func:`page_labels`), or None
    when no page prints a number; with ``agreeing``, also None unless that many pages at least, and half of those
    that print a number, agree on it."""
    offsets = Counter(i + 1 - n for i, ns in enumerate(labels) for n in ns)
    if not offsets:
        return None
    offset, count = offsets.most_common(1)[0]
    if agreeing and (count < agreeing or 2 * count < sum(1 for ns in labels if ns)):
        return None
    return offset
