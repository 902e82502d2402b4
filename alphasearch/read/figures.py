"""Does an answer carry a figure? Numbers compared with unit scaling (no I/O).

"$0.40 billion", "400" printed in a table "in millions" and "400,000" in
thousands are the same figure: two numbers match when one is the other times
1, 10^3, 10^6 or 10^9, within 0.1 %.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

_NUMBER = re.compile(r"(?<![\w.])-?\(?[$€£]?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?%?")
_YEAR = re.compile(r"^(?:19[89]|20[0-4])\d$")
_SCALES = (1.0, 1e3, 1e6, 1e9)


def numbers(text: str) -> list[float]:
    """The figures in ``text`` (signs dropped; thousands separators read)."""
    out = []
    for m in _NUMBER.finditer(text):
        try:
            out.append(float(m.group(1).replace(",", "")))
        except ValueError:
            continue
    return out


def gold_figures(answer: str) -> list[float]:
    """The figures of a gold answer worth looking for: years and small counts (below 10,
    printed on almost every page) are left out."""
    out = []
    for m in _NUMBER.finditer(answer):
        raw = m.group(1)
        if _YEAR.match(raw):
            continue
        value = float(raw.replace(",", ""))
        if value < 10 and "." not in raw:
            continue
        if value == 0:
            continue
        out.append(value)
    return out


def same_figure(a: float, b: float) -> bool:
    """``a`` and ``b`` are the same figure up to a unit scale and rounding (within 0.1 %:
    a figure in millions rounded from one printed in thousands)."""
    a, b = abs(a), abs(b)
    if a == 0 or b == 0:
        return a == b
    for s in _SCALES:
        for x, y in ((a * s, b), (a, b * s)):
            if abs(x - y) <= 0.001 * max(x, y):
                return True
    return False


def carries(text: str, gold: Iterable[float]) -> bool:
    """True when ``text`` holds one of the ``gold`` figures."""
    found = numbers(text)
    return any(same_figure(g, x) for g in gold for x in found)


def states_other(text: str, gold: Iterable[float]) -> bool:
    """``text`` states a figure worth looking for (:func:`gold_figures`: no year, no small count) and none
    of its figures is one of ``gold``: a wrong figure stated where the right one was printed."""
    gold = list(gold)
    return bool(gold_figures(text)) and not carries(text, gold)
