"""Grouping nodes: where a level has too many children, consecutive runs of them go under a node
titled for what it holds: "Notes 1–9" when the run is numbered headings of one kind, else its parent
and pages ("Item 7 · pages 22–29"), never a list of its children's titles. Siblings of a *flat* kind
(PART I–IV, Items 1–16: ``flat`` in ``data/headings.json``) stay at one level. Pages are 1-based.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TypeVar

from .headings import numbered_heading

T = TypeVar("T")
# separators and the words that leave a phrase open ("and", "of"), at the end: written as separators, then words each
# followed by separators, then a word — not as a repeat of separators-and-maybe-a-word, which splits a run of
# separators every way there is (exponential: a 41-character title "Harbor - - … -x …" would take hours)
_OPEN_WORDS = "and|of|the|for|to|in|on|with|or|a|an|by|from"
_OPEN_END = re.compile(rf"[\s,;:–-]+(?:(?i:{_OPEN_WORDS})[\s,;:–-]+)*(?i:{_OPEN_WORDS})?$")
FLAT_MOST = 24  # a flat kind's siblings stay at one level up to this many
LABEL_CHARS = 40
_SYNTHETIC_ENDS = ("(introduction)",)


def grouped(kids: list[T], most: int, make: Callable[[list[T]], T]) -> list[T]:
    """One pass of fan-out limiting: consecutive runs of ``kids`` (about sqrt(len) each, so that
    repeated passes reach ``most`` children) become ``make(run)``; a run of one stays itself."""
    size = max(math.ceil(len(kids) / most), math.ceil(math.sqrt(len(kids))))
    runs = [kids[i:i + size] for i in range(0, len(kids), size)]
    return [run[0] if len(run) == 1 else make(run) for run in runs]


def around_flat(kids: list[T], titles: list[str], make: Callable[[list[T]], T]) -> list[T]:
    """``kids`` (titled ``titles``) with each run of them between headings of a flat kind made ``make(run)`` (a
    run of one stays itself): a 10-Q's cover and contents, then PART I and PART II as the report's own children,
    then its signature and exhibits; ``kids`` unchanged when none is of a flat kind."""
    flat = [bool((hit := numbered_heading(t)) and hit[0].flat) for t in titles]
    if not any(flat):
        return kids
    out: list[T] = []
    run: list[T] = []
    for kid, is_flat in zip(kids, flat):
        if is_flat:
            out += [make(run)] if len(run) > 1 else run
            out.append(kid)
            run = []
        else:
            run.append(kid)
    return out + ([make(run)] if len(run) > 1 else run)


def stays_flat(titles: list[str]) -> bool:
    """Siblings that are one flat kind's numbered headings (an introduction leaf beside them
    aside), and not more than ``FLAT_MOST``: a level of their own, never grouped."""
    real = [t for t in titles if not t.endswith(_SYNTHETIC_ENDS) and t != "Front matter"]
    kinds = {hit[0] for hit in map(numbered_heading, real) if hit}
    hits = [numbered_heading(t) for t in real]
    return (len(titles) <= FLAT_MOST and bool(real) and all(hits) and len(kinds) == 1
            and next(iter(kinds)).flat)


def group_title(titles: list[str], start: int, end: int, parent: str = "") -> str:
    """What a grouping node holds: "Notes 1–9" when every title is a numbered heading of one
    kind, else the parent's label and the pages: "Item 7 · pages 22–29" ("Pages 22–29" without one)."""
    hits = [numbered_heading(t) for t in titles if not t.endswith(_SYNTHETIC_ENDS)]
    if hits and all(hits) and len({h[0].label for h in hits if h}) == 1 and hits[0] and hits[0][1]:
        first, last = hits[0], hits[-1]
        assert first is not None and last is not None
        return f"{first[0].plural} {first[1]}–{last[1]}"
    pages = page_span(start, end)
    label = heading_label(parent)
    return f"{label} · {pages}" if label else pages[:1].upper() + pages[1:]


_SPAN = re.compile(r"(?: · pages? \d+(?:–\d+)?)+$")  # a grouping or split node's pages (:func:`page_span`)


def page_span(start: int, end: int) -> str:
    return f"page {start}" if start == end else f"pages {start}–{end}"


def heading_label(title: str) -> str:
    """A short name for a heading: its kind and number ("Item 7", "Note 12") when numbered, else
    its first words up to ``LABEL_CHARS`` characters (cut at a word, no ellipsis: a name, not a quote); a grouping
    node's own pages left out ("Item 8 · pages 56–94" is "Item 8": its part is "Item 8 · pages 63–73")."""
    words = _SPAN.sub("", " ".join(title.split()).removesuffix(" (introduction)"))
    hit = numbered_heading(words)
    if hit:
        return f"{hit[0].label} {hit[1]}".rstrip()
    if len(words) <= LABEL_CHARS:
        return words
    cut = words[:LABEL_CHARS + 1].rsplit(" ", 1)[0]
    return _OPEN_END.sub("", cut)  # its first words, cut at a word and not on "and" or "of"
