"""A filing's Items placed by the page that lists them: its Form 10-K cross-reference index, or its contents page.

Some annual reports filed as a 10-K (McDonald's, General Electric, Citigroup) follow the report's own sections and
print no "Item 8" heading at all: a "Form 10-K Cross-Reference Index" page maps each Item to the printed pages
that hold it ("Item 8 Financial Statements and Supplementary Data Pages 35-57"). Without it the tree has no Item,
and the statements sit under no Item 8. This module reads that page and gives each Item with a page a section
start at its first page, one level above the document's own headings, which nest under the Item they start in;
an Item the report answers by reference ("Not applicable", "(a)") has no page and no node; the pages before the
first Item (the cover) are the front matter. Some 10-Qs (JPMorgan's) print their Parts and Items only on their
contents page, each Item over the page numbers of the topics it holds: the Items are placed at those pages
(:func:`with_contents_items`). Printed page numbers
are mapped to the PDF's by the page numbers the pages print (:func:`alphasearch.index.folios.page_labels`). The
words are data: ``cross_reference`` of ``data/headings.json``.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..lang import domain
from .headings import Entry, numbered_heading
from .folios import page_labels, page_offset

FRONT = "Front matter"  # the grouping code keeps Items flat beside it (grouping.stays_flat)
MIN_PLACED = 3  # a contents page places this many Items at least, their pages rising, before it moves any
CONTENTS_REACH = 10  # a contents page is among the document's first pages


@lru_cache(maxsize=1)
def _rules() -> tuple[re.Pattern[str], ...]:
    raw = domain.load("headings")["cross_reference"]
    return tuple(re.compile(raw[k], re.IGNORECASE) for k in ("title", "item", "pages", "none", "trailing", "none_after"))


def index_items(texts: Sequence[str]) -> tuple[int, list[tuple[str, str, int]]]:
    """The 1-based page of the cross-reference index of ``texts`` (the pages' text) and (number, title, first printed
    page) of every Item it gives a page; (0, []) when no page is such an index. A title may run over lines and end
    in its pages; a number alone on one of the page's last three lines is the index page's own number, not an
    Item's page."""
    title, item, pages, none, trailing, none_after = _rules()
    for k, text in enumerate(texts, 1):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not any(title.search(ln) for ln in lines[:3]):
            continue
        found: list[tuple[str, str, int]] = []
        current: list = []  # [number, title words]
        for i, ln in enumerate(lines):
            if m := item.match(ln):
                current = [m.group(1).upper(), m.group(2).strip()]
                if none_after.search(current[1]):  # "Item 9 Changes … None" on one line
                    current = []
                elif t := trailing.match(current[1]):  # "Item 8. Financial Statements … 35-57" on one line
                    found.append((current[0], t.group(1).strip(" .…"), int(t.group(2))))
                    current = []
            elif current and (p := pages.match(ln)) and not (ln.isdigit() and i >= len(lines) - 3):
                found.append((current[0], current[1], int(p.group(1))))
                current = []
            elif current and none.match(ln):
                current = []
            elif current and (t := trailing.match(ln)):  # the title's last line ends in its pages
                found.append((current[0], f"{current[1]} {t.group(1).strip(' .…')}".strip(), int(t.group(2))))
                current = []
            elif current:
                current[1] = f"{current[1]} {ln}".strip()
        if len(found) >= 3:
            return k, found
    return 0, []


def with_index_items(entries: list[Entry], texts: Sequence[str]) -> list[Entry]:
    """``entries`` with the Items of the document's cross-reference index (:func:`index_items`) as section starts
    one level above them, when no entry is an Item already (Item lines on the index page itself are read as headings
    and are dropped); else ``entries`` unchanged."""
    printed = [e for e in entries if (hit := numbered_heading(e.title)) and hit[0].name == "item"]
    if len({e.page for e in printed}) > 1:
        return entries  # Items printed as headings (the index page's own lines are on one page)
    page, items = index_items(texts)
    if printed and printed[0].page != page:
        return entries
    entries = [e for e in entries if e not in printed]  # an index line read as a heading is no section
    offset = page_offset(page_labels(texts)) if items else None
    if offset is None:
        return entries
    placed = [(n + offset, f"Item {number}. {title}") for number, title, n in items if 1 <= n + offset <= len(texts)]
    if len(placed) < 3:
        return entries
    starts = [(page, 0, i, Entry(1, name, page)) for i, (page, name) in enumerate(placed)]
    first = min(page for page, _ in placed)
    if any(e.page < first for e in entries):  # the cover and what precedes the first Item: one node, not an Item's
        starts.append((1, -1, 0, Entry(1, FRONT, 1)))
    starts += [(e.page, 1, i, Entry(e.level + 1, e.title, e.page)) for i, e in enumerate(entries)]
    return [entry for *_, entry in sorted(starts, key=lambda s: s[:3])]


def _contents_items(text: str) -> list[tuple[str, str, str, int]]:
    """(Part line, Item number, "Item N. Title", first printed page) of each Item a contents page lists under a
    Part with a page number on a line of its own below it ("Part I – Financial information" / "Item 1." /
    "Financial Statements." / "Consolidated statements of income …" / "79"): the Item's title is its line, or the
    line after it when its line is the number alone. [] unless every Item listed is under a Part, each Part's
    Items in their order (1, 1A, 2 …) and each once: a parts list ("Item 1" / "Hex bolt M6" / "4") is no filing's."""
    item, pages = _rules()[1], _rules()[2]
    out: list[tuple[str, str, str, int]] = []
    part, current = "", None  # current: [number, title]
    for ln in (ln.strip() for ln in text.splitlines()):
        if not ln:
            continue
        if (hit := numbered_heading(ln)) and hit[0].name == "part":
            part, current = ln, None
        elif m := item.match(ln):
            current = [m.group(1).upper(), m.group(2).strip()]
        elif current is not None and ln.isdigit() and (p := pages.match(ln)):
            out.append((part, current[0], f"Item {current[0]}. {current[1]}".strip(), int(p.group(1))))
            current = None
        elif current is not None and not current[1]:
            current[1] = ln
    out = list({(part, n): (part, n, title, page) for part, n, title, page in reversed(out)}.values())[::-1]
    order = [(part, (int(re.match(r"\d+", n).group()), n)) for part, n, _, _ in out]  # each listed once, the first
    in_order = all(a[1] < b[1] for a, b in zip(order, order[1:]) if a[0] == b[0])
    return out if out and all(part for part, _, _, _ in out) and in_order else []


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


def _part_key(title: str) -> int | str:
    """A Part's number as a number: "PART II" and "Part 2" are one Part."""
    number = (numbered_heading(title) or (None, ""))[1].upper()
    return int(number) if number.isdigit() else _ROMAN.get(number, number)


def with_contents_items(entries: list[Entry], texts: Sequence[str]) -> list[Entry]:
    """``entries`` with the Parts and Items a 10-Q's contents page lists placed at the pages it gives them, those the
    document prints nowhere else as headings in their Part (JPMorgan's 10-Q: "Item 1." / "Financial Statements." /
    … / "79", and no "Item 1" heading on page 79). Left on the contents page, Items 1–6 of both Parts started there
    and the whole report hung under "Item 6. Exhibits". The contents page is the first of the first
    ``CONTENTS_REACH`` pages to list ``MIN_PLACED`` Items or more (:func:`_contents_items`); an Item is placed at
    the first page listed under it (one printed as a heading elsewhere stays where it is printed), a Part at the
    earliest of its Items' pages or at its own heading when that is printed within a page of it; printed page
    numbers map to the PDF's by the numbers the pages print; the document's other headings nest under the Items.
    Else ``entries`` unchanged."""
    def kind(e: Entry) -> str:
        hit = numbered_heading(e.title)
        return hit[0].name if hit and hit[0].name in ("part", "item") else ""

    listed: list[tuple[str, str, str, int]] = []
    for page in range(1, min(len(texts), CONTENTS_REACH) + 1):
        listed = _contents_items(texts[page - 1])
        if len(listed) >= MIN_PLACED:
            break
    offset = page_offset(page_labels(texts)) if len(listed) >= MIN_PLACED else None
    if offset is None:
        return entries
    # an Item printed as a heading past the contents page: its first page, by (its Part, its number) when the report
    # prints Part headings (JPMorgan prints Part II's Item 1 as a heading, not Part I's; an Item printed before any
    # Part heading is the first listed Part's), else by its number alone
    parts_printed = any(e.page > page and kind(e) == "part" for e in entries)
    part_now = _part_key(listed[0][0]) if parts_printed else ""
    elsewhere: dict[tuple[int | str, str], int] = {}
    for e in entries:
        if e.page > page and kind(e) == "part" and parts_printed:
            part_now = _part_key(e.title)
        elif e.page > page and kind(e) == "item":
            elsewhere.setdefault((part_now, numbered_heading(e.title)[1]), e.page)
    printed = [elsewhere.get((_part_key(part) if parts_printed else "", number)) for part, number, _, _ in listed]
    if not parts_printed and 2 * sum(at is not None for at in printed) >= len(listed):
        return entries  # a filing that prints most of its Items as headings, under no Part we can read: they stay
    by_part: dict[str, list[tuple[str, int]]] = {}
    starts: dict[str, int] = {}  # each Part's earliest Item, placed or printed
    for (part, number, title, n), at in zip(listed, printed):
        if at is not None:
            starts[part] = min(starts.get(part, at), at)
        elif 1 <= n + offset <= len(texts):
            by_part.setdefault(part, []).append((title, n + offset))
            starts[part] = min(starts.get(part, n + offset), n + offset)
    if not by_part or (not parts_printed and sum(map(len, by_part.values())) < MIN_PLACED):
        return entries  # a filing that prints every Item it lists as a heading: they are where they are
    level = {k: min((e.level for e in entries if kind(e) == k), default=1 + (k == "item")) for k in ("part", "item")}
    level["item"] = max(level["item"], level["part"] + 1)
    body_parts = {numbered_heading(e.title)[1]: e for e in entries if kind(e) == "part" and e.page != page}
    moved: list[Entry] = []
    dropped: set[int] = set()
    for part, items in by_part.items():
        first = starts[part]
        body = body_parts.get(numbered_heading(part)[1])
        if body is None or abs(body.page - first) <= 1:
            moved.append(Entry(level["part"], body.title if body else part, first))  # the Part where it starts
            dropped |= {id(body)} if body else set()
        moved += [Entry(level["item"], title, n) for title, n in items]
    kept = [e for e in entries if not (e.page == page and kind(e)) and id(e) not in dropped]
    def beside(e: Entry) -> bool:  # a Part, an Item, or an exhibit bound after them, which stands beside the Parts
        hit = numbered_heading(e.title)
        return bool(kind(e)) or (hit is not None and hit[0].name == "exhibit" and e.level <= level["part"])

    others = [e.level for e in kept if not beside(e)]
    shift = max(0, level["item"] + 1 - min(others, default=level["item"] + 1))  # the rest nests under the Items
    kept = [e if beside(e) else Entry(e.level + shift, e.title, e.page) for e in kept]
    starts = [(e.page, 0, i, e) for i, e in enumerate(moved)] + [(e.page, 1, i, e) for i, e in enumerate(kept)]
    return [e for *_, e in sorted(starts, key=lambda s: s[:3])]
