"""Rows of a chart or table whose cells MuPDF reads apart, rejoined by where they sit on the page.

A bar chart's text comes out column by column: every bar's number, then every category's name
("46% 41 56 53 … Total White Black Hispanic …"), so no line says "Hispanic 53". The cells of one
row share a height on the page, though. Where at least :data:`MIN_ROWS` rows of the page have a
short label at the left and figures to its right at the same height (within :data:`SAME_TOP`
points) that reading order puts apart, each is written again as one line, left to right
("Hispanic 53 33 11 3"), after the page's text, with the column names above the first such row
when there are (one line each, "A great deal", "A fair amount", …, as a table's word header reads).
A row the text already reads in order (a statement's "Net sales $ 34,229 $ 35,355") is left as it is; a
line of running text beside a figure is no label (longer than :data:`MAX_LABEL_WORDS`, or a
sentence).
"""
from __future__ import annotations

import re
from typing import NamedTuple

SAME_TOP = 2.0  # points: the cells of one row start within this of each other's top
MIN_ROWS = 3  # rows rejoined on a page before any is: one or two are a coincidence of two columns
MAX_LABEL_WORDS = 6
HEADER_GAP = 40.0  # points: column names at most this far above the first row
_MARKER = re.compile(r"^\(?\w{1,2}\)$")  # a footnote's "(a)", "(1)", "b)": no row's name
_FIGURE = re.compile(r"^[-+−–(]?[$€£]?\d[\d,.]*\s*%?\)?\*?$")


class Cell(NamedTuple):
    """A line of the page's text as MuPDF reads it: its top and left (points), text and reading index."""

    top: float
    left: float
    text: str
    order: int


def rejoined(cells: list[Cell]) -> list[tuple[str, int]]:
    """The rows of ``cells`` that reading order takes apart, each as one line with the reading index
    of its first cell (see the module)."""
    rows = [row for row in _by_height(cells) if len(row) >= 2]
    found: list[tuple[float, str, Cell]] = []
    for row in rows:
        got = _figure_row(row)
        if got:
            found.append((row[0].top, *got))
    if len(found) < MIN_ROWS:
        return []
    first = min(top for top, _, _ in found)
    left = min(label.left for _, _, label in found) - SAME_TOP
    above = [[c for c in row if c.left >= left] for row in rows if first - HEADER_GAP <= row[0].top < first - SAME_TOP]
    names = [row for row in above if _names(row)]
    header = [(c.text, c.order) for c in sorted(names[-1], key=lambda c: c.left)] if names else []
    return header + [(line, label.order) for _, line, label in sorted(found)]


def _by_height(cells: list[Cell]) -> list[list[Cell]]:
    """The cells grouped by top: each group's tops within :data:`SAME_TOP` of its first."""
    groups: list[list[Cell]] = []
    for cell in sorted(cells):
        if groups and cell.top - groups[-1][0].top <= SAME_TOP:
            groups[-1].append(cell)
        else:
            groups.append([cell])
    return groups


def _figure_row(row: list[Cell]) -> tuple[str, Cell] | None:
    """("label n1 n2 …", the label) when ``row`` ends in a short label and figures to its right, which
    reading order does not already give together; else None. Cells left of the label (a column of
    running text beside a chart) are not the row's."""
    row = sorted(row, key=lambda c: c.left)
    k = len(row)
    while k and _FIGURE.match(row[k - 1].text):
        k -= 1
    if k == 0 or k == len(row) or not _short(row[k - 1].text):
        return None
    row = row[k - 1:]
    orders = sorted(c.order for c in row)
    if orders[-1] - orders[0] == len(orders) - 1 and row[0].order == orders[0]:
        return None  # read in order already
    return " ".join(c.text for c in row), row[0]


def _names(row: list[Cell]) -> bool:
    """A line of column names: two or more short texts, none a figure."""
    return len(row) >= 2 and all(_short(c.text) for c in row)


def _short(text: str) -> bool:
    """A label ("Hispanic", "30-49"): no figure, no footnote mark, at most :data:`MAX_LABEL_WORDS` words, no
    sentence's full stop."""
    return (not _FIGURE.match(text) and not _MARKER.match(text) and len(text.split()) <= MAX_LABEL_WORDS
            and not text.rstrip().endswith("."))
