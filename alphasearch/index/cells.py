"""A table's cell told by where it sits on its page, not by its words: a filing sets its tables' column headers
("BALANCE SHEET LOCATION", "FOR THE TRAILING FOUR" / "QUARTERS ENDED") and the captions inside them ("REVENUES"
over "North America $ 21,608") in bold at the size of its text, so their style alone reads as a heading's.

A section's title starts at a left edge of the page's text (where its lines of text start; a manual's titles may
stand left of it) or is centred on the page, and stands alone at its height. A table's cell is none of these:

- it starts well right of the text's edge (:data:`INDENT` of the page's width) and is not centred on the page;
- it shares its height with two other cells of its header row (words, or a column's year): lines in its style,
  apart (not pieces of one line that the PDF wrote apart; not, as the line is, at an edge of the text or left of
  it: the titles of two columns' sections);
- or it stands between rows of figures of its table (a label under its start, figures to the right), one right
  above it and one right below it (:data:`ROW_REACH` lines of its size): a caption of the rows under it.

Only lines set at about the size of the text are asked (a larger line is a title whatever its place), and only
where the PDF gave their places (OCR's lines have none).
"""
from __future__ import annotations

from collections import Counter

from .. import pdf
from .lines import NUMBER, figures_row

INDENT = 0.15  # of the page's width: a title starts no further right of the text's edge, unless centred
CENTRED = 0.12  # of a line's estimated width (and 1.5 % of the page's): off the page's middle by no more, it is centred
SAME_TOP = 2.0  # points: lines whose tops are this close share a height
EDGE_LINES = 3  # lines of text starting at one place (within EDGE_SLACK) make an edge of the page's text
EDGE_SLACK = 4.0  # points
TEXT_WORDS = 5  # a line of text: this many words at least, in the page's body size, and as wide as a column:
TEXT_WIDTH = 0.35  # this share of the page's width (a table's cells of five words are narrower)
HEADER_CELLS = 3  # cells in a table's header row, at least
PIECE = 0.75  # of the estimated width: a line of the same style starting past this (and an em) is apart
ROW_LABEL = 8  # words before the figures of a row the PDF reads in order: its label
ROW_TOP = 1.0  # points: the cells of a row start this close to its label's top
ROW_INDENT = 3.0  # ems: a row's label starts no further right of a caption inside its table
ROW_REACH = 3.0  # lines (of the line's size, 1.5 times it apart): how far the rows of figures above and below may be
# the width of a character, in ems, by kind: capitals are wider than lower case (Arial: 0.67 and 0.5), a space 0.28
_WIDTHS = {"upper": 0.68, "digit": 0.56, "space": 0.28, "other": 0.52}

_SYMBOLS = frozenset("$€£%")  # printed in a column of their own beside the figures
_last: tuple = (None, [])  # the page's lines last asked about and their text edges (a page's lines are asked in turn)


def estimated_width(text: str, size: float) -> float:
    """About how wide ``text`` set at ``size`` points is (no font metrics: by the kinds of its characters)."""
    upper = sum(map(str.isupper, text))
    digits = sum(map(str.isdigit, text))
    spaces = text.count(" ")
    rest = len(text) - upper - digits - spaces
    return size * (upper * _WIDTHS["upper"] + digits * _WIDTHS["digit"] + spaces * _WIDTHS["space"]
                   + rest * _WIDTHS["other"])


def text_edges(lines: list[pdf.Line], body: float, width: float) -> list[float]:
    """Where the page's lines of text start: each place (to :data:`EDGE_SLACK`) where :data:`EDGE_LINES` lines of
    text start (in the body size, :data:`TEXT_WORDS` words and :data:`TEXT_WIDTH` of the page's ``width`` at least);
    none on a page without text (a page of tables)."""
    lefts = Counter(round(line.left) for line in lines
                    if line.left >= 0 and abs(line.size - body) < 0.6 and len(line.text.split()) >= TEXT_WORDS
                    and estimated_width(line.text, line.size) >= TEXT_WIDTH * width)
    edges = []
    for left in sorted(lefts):
        near = sum(n for x, n in lefts.items() if abs(x - left) <= EDGE_SLACK)
        if near >= EDGE_LINES and not any(abs(e - left) <= EDGE_SLACK for e in edges):
            edges.append(float(left))
    return edges


def table_cell(lines: list[pdf.Line], i: int, body: float, width: float) -> bool:
    """Line ``i`` of a page ``width`` points wide, whose text is set in ``body`` points, is a table's cell (see the
    module): a column header or a caption inside the table, no section's title."""
    line = lines[i]
    if line.left < 0 or line.top < 0 or width <= 0 or line.size >= body + 1.0:
        return False
    global _last
    seen, edges = _last  # one read of the pair: another thread may replace it
    if seen is not lines:
        edges = text_edges(lines, body, width)
        _last = (lines, edges)
    return _apart(line, edges, lines, width) or _in_header_row(line, edges, lines) or _between_rows(line, lines)


def _at_edge(left: float, edges: list[float]) -> bool:
    return any(abs(left - e) <= EDGE_SLACK for e in edges)


def _apart(line: pdf.Line, edges: list[float], lines: list[pdf.Line], width: float) -> bool:
    """Well right of the text's edge at or left of it (the page's leftmost line's, on a page without text) and not
    centred on the page."""
    left_of = [e for e in edges if e <= line.left + EDGE_SLACK] or [min(ln.left for ln in lines if ln.left >= 0)]
    if line.left - max(left_of) <= INDENT * width:
        return False
    w = estimated_width(line.text, line.size)
    return abs(line.left + w / 2 - width / 2) > CENTRED * w + 0.015 * width


def _in_header_row(line: pdf.Line, edges: list[float], lines: list[pdf.Line]) -> bool:
    """Two other lines in its style (words, or figures: a column's year) share its height, each apart from the line
    before it: a row of three cells at least (a page's title at the left and the company's name at the right are
    two), not both at edges of the text (two columns' titles; a title may also stand left of the text)."""
    edge = _at_edge(line.left, edges) or bool(edges) and line.left < edges[0]  # at an edge, or left of the text
    row = [other for other in lines if abs(other.top - line.top) <= SAME_TOP and other.bold == line.bold
           and abs(other.size - line.size) <= 0.5 and not (other is not line and edge and _at_edge(other.left, edges))]
    row.sort(key=lambda other: other.left)
    cells = 1
    for first, second in zip(row, row[1:]):
        if first.left + PIECE * estimated_width(first.text, first.size) + first.size < second.left:
            cells += 1  # a gap past where the first ends: no piece of its line
    return cells >= HEADER_CELLS


def _between_rows(line: pdf.Line, lines: list[pdf.Line]) -> bool:
    """A row of figures of the line's table starts within :data:`ROW_REACH` lines above the line, and another below
    it: a height (to :data:`ROW_TOP`) where a label of :data:`ROW_LABEL` words at most starts under the line's start
    (to :data:`ROW_INDENT` ems right of it) and two lines right of it hold figures only (a table's cells), or a line
    ends in two figures after such a label (a row the PDF reads in order), not in a sentence's full stop."""
    reach = ROW_REACH * 1.5 * line.size
    cells: list[tuple[float, int]] = []  # (top, figures)
    labels: list[float] = []
    for other in lines:
        if other is line or abs(other.top - line.top) > reach + SAME_TOP or other.left < line.left - EDGE_SLACK:
            continue
        text = other.text.rstrip()
        words = [w for w in text.split() if w not in _SYMBOLS]
        label = other.left <= line.left + ROW_INDENT * line.size
        if words and all(NUMBER.match(w) for w in words):
            cells.append((other.top, 1))
        elif label and figures_row(text) and not text.endswith(".") and len(words) <= ROW_LABEL + 2:
            cells.append((other.top, 2))
            labels.append(other.top)
        elif label and len(words) <= ROW_LABEL:
            labels.append(other.top)
    above = below = False
    for top, _ in cells:
        if sum(n for t, n in cells if abs(t - top) <= ROW_TOP) < 2 or not any(abs(t - top) <= ROW_TOP for t in labels):
            continue
        above = above or line.top - reach <= top < line.top - SAME_TOP
        below = below or line.top + SAME_TOP < top <= line.top + reach
    return above and below
