"""Headings from what a reader sees: numbering, font size and weight, repetition.

A numbered heading (PART I, Item 7A, Note 9, 2.1, Appendix B — the patterns of
``data/headings.json``) carries its level: the kinds present in a document are
ranked (part above item above note; 2.1 below 2). Larger or bold lines without a
number nest below the numbered levels, at most one per page. Lines repeated on many
pages (running headers and footers), table column headers and units ("Year Ended
December 31,", "(in millions)"), labels of table rows and the entries of a contents
page are not headings. Pages are 1-based.
"""
from __future__ import annotations

import bisect
import itertools
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..lang import domain
from .. import pdf
from ..lang.text import normalise, normalise_lines
from .folios import page_labels, page_offset
from .lines import (FIGURES, RUN_IN, between_rows, capitals_title, figures_row, in_capitals, lead_in, row_label,
                    sentence, statement_title, step, table_header, title_start, without_unit)

MIN_NUMBERED = 3  # fewer numbered headings than this: the document is not organised by numbers
FOLIO_LINES = 3  # the page's own number, printed among its first or last lines in another size or weight than the
# line after it, is no section number ("9" in 7 pt over the title "What's in the Box" in 11 pt at the top of page 9)
FOLIO_PAGES = 3  # pages that print a number must agree on its offset from their index, this many at least
CONTENTS_LINES = 5  # a page with this many numbered headings is a table of contents
LEADER_CHARS = 12
REFS_IN_ORDER = 0.8  # a contents page's page numbers, each under its entry, go up (or stay) this share of the time
_PAGE_REF = re.compile(r"(?:\.{2,}|\s)\s*\d{1,3}$")  # "Item 7. Management's … 45": a contents entry
_BARE_NUMBER = re.compile(r"^(?:\d{1,2}|[A-H])(?:\.\d{1,2}){0,3}\.?$")  # "2.1" with its title on the next line
_SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){1,3}\.?\s+")  # "4.4.21 " before a title
# a changelog's section titled by its release: "v2.16.0 (30/8/2021)", "v1.0rc1 (13/12/2019)", "v0.6rc0(06/02/2019)"
_RELEASE = re.compile(r"^v\d{1,3}(?:\.\d{1,3}){1,3}(?:rc\d{1,2})?\s*(?:\(\d{1,2}/\d{1,2}/\d{4}\))?$")


@dataclass(frozen=True)
class Entry:
    """A section start: ``level`` 1 = top, ``page`` 1-based."""

    level: int
    title: str
    page: int


@dataclass(frozen=True)
class Kind:
    name: str
    rank: int | None  # None: the depth of the number
    styled: bool
    label: str
    plural: str
    regex: re.Pattern[str]
    needs: str = ""
    excludes: tuple[str, ...] = ()  # kinds that do not count where this one does (a filing's footnote markers)
    running: bool = False  # counts even on a line repeated on many pages (its first occurrence)
    flat: bool = False  # siblings of this kind are never grouped


@dataclass(frozen=True)
class Rules:
    kinds: tuple[Kind, ...]
    any_kind: re.Pattern[str]  # every kind's pattern in one: most lines fail it at once
    not_headings: re.Pattern[str]
    running_kind: re.Pattern[str] | None  # the patterns of the kinds that may repeat as running lines
    chapter_label: re.Pattern[str] | None = None  # "CHAPTER" alone, its number in words on the next line
    not_further: re.Pattern[str] = re.compile(r"(?!)")  # a bold line that opens no further section on its page
    spelled: dict[str, int] | None = None  # "one" → 1 … "ninety" → 90: the words of such a number


@lru_cache(maxsize=1)
def rules() -> Rules:
    raw = domain.load("headings")
    kinds = tuple(Kind(k["kind"], None if k["rank"] == "depth" else int(k["rank"]), bool(k["styled"]), k["label"],
                       k["plural"], re.compile(k["pattern"]), k.get("with", ""), tuple(k.get("excludes", ())),
                       bool(k.get("running")), bool(k.get("flat"))) for k in raw["numbered"])
    running = [k for k in kinds if k.running]
    words = raw.get("spelled", {})
    spelled = {w: k for k, w in enumerate(words.get("units", []), 1)}
    spelled.update({w: k for k, w in enumerate(words.get("teens", []), 10)})
    spelled.update({w: 10 * k for k, w in enumerate(words.get("tens", []), 2)})
    return Rules(kinds, re.compile(_one_pattern(kinds)),
                 re.compile("|".join(f"(?:{p})" for p in raw["not_headings"]), re.IGNORECASE),
                 re.compile(_one_pattern(running)) if running else None,
                 chapter_label=re.compile(words["label"], re.IGNORECASE) if words.get("label") else None,
                 spelled=spelled,
                 not_further=re.compile("|".join(f"(?:{p})" for p in raw.get("not_further", ["(?!)"])), re.IGNORECASE))


def spelled_number(text: str) -> int | None:
    """The number ``text`` spells ("TWO" → 2, "TWENTYONE", "Twenty-one" → 21), else None."""
    words, low = rules().spelled or {}, re.sub(r"[\s-]+", "", text.strip().lower())
    if low in words:
        return words[low]
    tens = next((w for w in words if low.startswith(w) and words[w] >= 20 and words[w] % 10 == 0), None)
    rest = low[len(tens):] if tens else ""
    return words[tens] + words[rest] if tens and rest in words and words[rest] < 10 else None


def _one_pattern(kinds) -> str:
    return "|".join(f"(?:{k.regex.pattern.replace('(?P<n>', '(?:')})" for k in kinds)


PART_PAGES = 10  # a page's own body size is the most used over this many pages either side of it
PART_SHARE = 0.2  # a run of pages opening the document, or closing it in larger type, in a body size of its own,
# this share of its pages at least, is a part bound to it (a 10-K before its exhibits)


@dataclass(frozen=True)
class Layout:
    """What heading detection needs about the whole document, computed once:
    the body text size (pt) of the document and of each page's part, each line's normalised text, and the
    running lines (normalised text repeated on ≥ 20 % of pages, at least 3: headers, footers).

    A document bound from parts set in different sizes has a body size per part: Activision's 10-K is set in
    8.7 pt and followed by 190 pages of exhibits in 10.5 pt, so its statements' bold 8.7 pt titles are
    headings of body size in their part, though smaller than the document's most used size. The document's own
    text comes first: a part is the run of pages opening it, or a run closing it set larger than that (exhibits
    bound after a 10-K in 8.7 pt), :data:`PART_SHARE` of its pages at least. Smaller print inside (a 10-Q's
    Notes in 8 pt between 10 pt text) or closing it (a paper's appendix and references in 9 pt) is the
    document's own and keeps its body size."""

    body: float
    norm: tuple[tuple[str, ...], ...]  # per page, per line
    running: frozenset[str]
    parts: tuple[float, ...] = ()  # per page: the body size of the part it sits in

    @classmethod
    def of(cls, content: pdf.PdfContent) -> "Layout":
        sizes: Counter[float] = Counter()
        per_page: list[Counter[float]] = []
        seen: Counter[str] = Counter()
        norm = []
        for page in content.pages:
            here: Counter[float] = Counter()
            for line in page.lines:
                here[line.size] += len(line.text)
            sizes.update(here)
            per_page.append(here)
            texts = tuple(normalise_lines(page.text)) if page.lines else ()  # a page's text: its lines joined
            seen.update(set(texts))
            norm.append(texts)
        n = content.page_count
        running = frozenset(t for t, c in seen.items() if c >= max(3, 0.2 * n))
        body = sizes.most_common(1)[0][0] if sizes else 11.0
        return cls(body, _chapter_titles(content, norm, running, body), running, _part_bodies(per_page, body))

    def body_of(self, page: int) -> float:
        """The body text size of the part page ``page`` (1-based) sits in."""
        return self.parts[page - 1] if 0 < page <= len(self.parts) else self.body

    def repeated(self, key: str) -> bool:
        """The line is a running line, or a chapter's title that runs as one (a document's title is neither)."""
        return key.removesuffix(CHAPTER_TITLE) in self.running

    def styled(self, line: pdf.Line, page: int = 0) -> bool:
        """Larger than body text, or bold at about body size (the body of ``page``'s part, when given)."""
        body = self.body_of(page)
        return line.size >= body + 1.0 or (line.bold and line.size >= body - 0.5)


def _part_bodies(per_page: list[Counter[float]], body: float) -> tuple[float, ...]:
    """Each page's part body size (:class:`Layout`): ``body``, but for the run of pages opening the document, or
    closing it in a larger size than the opening's, whose own size (the most used over :data:`PART_PAGES` pages
    around each) is another."""
    n = len(per_page)
    own = []
    for i in range(n):
        around: Counter[float] = Counter()
        for here in per_page[max(0, i - PART_PAGES):i + PART_PAGES + 1]:
            around.update(here)
        own.append(around.most_common(1)[0][0] if around else body)
    out = [body] * n
    opening = body
    for run in (range(n), range(n - 1, -1, -1)):  # the opening run, then the closing one
        pages = list(itertools.takewhile(lambda i: own[i] == own[run[0]], run)) if n else []
        if not pages or len(pages) < PART_SHARE * n or own[pages[0]] == body:
            continue
        if run.step == 1:
            opening = own[pages[0]]
        elif own[pages[0]] <= opening:
            continue  # smaller print closing the document (an appendix, references) is its own
        for i in pages:
            out[i] = own[i]
    return tuple(out)


TITLE_STEP = 2.0  # points: a running line set this much larger than it usually is heads its chapter
CHAPTER_TITLE = " (title)"  # the suffix of such a line's key
LARGE_TITLE = 1.5  # times the body size: a section's title set this large is a heading whatever repeats it
BANNER_SHARE = 0.5  # a running line set large on more than this share of the pages is a banner, no section's title


def _chapter_titles(content: pdf.PdfContent, norm: list[tuple[str, ...]], running: frozenset[str],
                    body: float) -> tuple[tuple[str, ...], ...]:
    """``norm`` with the chapter titles among the running lines told apart: a manual's chapter name is the small
    running header of its pages and, once, the large title that opens the chapter ("Getting Started", 26 pt on
    its first page, 9 pt above the next ones); that occurrence is a heading, not a header. A report may instead
    repeat a section's title large (:data:`LARGE_TITLE`) atop each of the section's pages ("Is the service safe?",
    26 pt over 11 pt text, on pages 6 and 7): the first page of each run of pages it tops opens the section —
    unless set large on most pages or on runs apart (a masthead on odd pages): a banner. Its key gets a suffix."""
    usual: dict[str, Counter] = {}
    large: dict[str, set[int]] = {}  # the pages where a running line is set in a heading's size
    for page, keys in zip(content.pages, norm):
        for line, key in zip(page.lines, keys):
            if key in running:
                usual.setdefault(key, Counter())[line.size] += 1
                if line.size >= LARGE_TITLE * body:
                    large.setdefault(key, set()).add(page.number)
    common = {key: c.most_common(1)[0][0] for key, c in usual.items()}
    n = len(content.pages)
    banner = {key for key, ps in large.items() if len(ps) > BANNER_SHARE * n or sum(p - 1 not in ps for p in ps) > 1}

    def title(line: pdf.Line, key: str, number: int) -> bool:
        if key not in common:
            return False
        if line.size >= max(common[key] + TITLE_STEP, body + 1.0):
            return True
        # a section's title repeated large atop each of its pages: its first page opens it
        return key in large and key not in banner and number in large[key] and number - 1 not in large[key]

    out = []
    for page, keys in zip(content.pages, norm):
        if any(key in common for key in keys):
            keys = tuple(f"{key}{CHAPTER_TITLE}" if title(line, key, page.number) else key
                         for line, key in zip(page.lines, keys)) + keys[len(page.lines):]
        out.append(keys)
    return tuple(out)


LONG_WORDS, LONG_CHARS = 24, 200  # a numbered title may be longer ("Item 5. Market for Registrant's … Securities")


def heading_like(text: str, numbered: bool = False) -> bool:
    """Short (1-14 words, ≤ 110 characters; ``numbered``: 24 words, 200) and mostly letters."""
    words = text.split()
    if not 1 <= len(words) <= (LONG_WORDS if numbered else 14) or len(text) > (LONG_CHARS if numbered else 110):
        return False
    if numbered:  # the letters of the title after its number ("4.4.21 GHM"), or a release ("32.3 v2.16.0")
        text = _SECTION_NUMBER.sub("", text, count=1)
        if _RELEASE.match(text):
            return True
    letters = sum(map(str.isalpha, text))
    return letters >= 3 and letters >= 0.5 * len(text.replace(" ", ""))


def not_a_heading(text: str) -> bool:
    """A column header, unit, date or 'Total' line (``not_headings`` of the data file)."""
    return bool(rules().not_headings.match(text.strip(" :")))


@dataclass
class _Found:
    page: int
    line: int
    title: str
    kind: Kind | None
    number: str
    rank: int  # numbered: the kind's rank; unnumbered: 1 (larger than body) or 2 (bold)
    emphasis: int  # 2 larger or bold, 1 in capitals, 0 plain
    size: float = 0.0  # the line's font size (points)
    bold: bool = False
    step: bool = False  # a numbered step, no section ("5 Then touch Save."): it counts only to tell a list's page


def numbered_entries(content: pdf.PdfContent, layout: Layout) -> list[Entry]:
    """Section starts of a document organised by numbered headings, [] for any other.

    Each numbered heading counts once (per part for items and notes): its first
    emphasised occurrence outside a contents page, else its first. Unnumbered
    styled lines join below the numbered levels, one per page, after any numbered
    heading on their page."""
    found: list[_Found] = []
    per_page: list[tuple[list[_Found], int]] = []
    running, any_kind, bare_number = layout.running, rules().any_kind.match, _BARE_NUMBER.match
    running_kind = rules().running_kind
    chapter_label = rules().chapter_label  # read once: the loop below visits every line of the document
    chapter = next((k for k in rules().kinds if k.name == "chapter"), None) if chapter_label else None
    offset = page_offset(page_labels([p.text for p in content.pages]), agreeing=FOLIO_PAGES)  # PDF page - printed
    for page, norm in zip(content.pages, layout.norm):
        body = layout.body_of(page.number)
        larger, bold_from = body + 1.0, body - 0.5  # Layout.styled, read in the loop over every line
        on_page: list[_Found] = []
        joined = -1  # a line already read as the title of the numbered line before it
        refs = 0  # numbered lines that end with a page number
        lines = page.lines
        for i, (line, key) in enumerate(zip(lines, norm)):
            if i <= joined:
                continue
            if chapter is not None and i + 2 < len(lines) and chapter_label.match(line.text.strip()):
                number, title = spelled_number(lines[i + 1].text), lines[i + 2].text  # "CHAPTER" on every
                if number and heading_like(title) and not not_a_heading(title):  # chapter's first page: running
                    joined = i + 2  # "CHAPTER" / "TWO" / "INSTALLATION"
                    on_page.append(_Found(page.number, i, f"Chapter {number}: {title}", chapter, str(number),
                                          chapter.rank or 1, 2, lines[i + 2].size, lines[i + 2].bold))
                    continue
            if key and key in running and not (running_kind and running_kind.match(line.text)):
                continue  # ("": a number alone, e.g. "2.1")
            text, size = line.text, line.size
            styled = size >= larger or (line.bold and size >= bold_from)
            if bare_number(text):
                nxt = lines[i + 1] if i + 1 < len(lines) else None
                runs = i + 1 < len(norm) and norm[i + 1] in running  # a page's number over its running header
                runs = runs or (offset is not None and text == str(page.number - offset) and nxt is not None
                                and (abs(size - nxt.size) > 1 or line.bold != nxt.bold)
                                and (i < FOLIO_LINES or i >= len(lines) - FOLIO_LINES))
                if nxt is not None and heading_like(nxt.text) and nxt.text[:1].isupper() and not not_a_heading(nxt.text) \
                        and not runs and not _ranked(nxt.text):  # "3" / "ITEM 1A.": a page number over the next entry
                    text, joined = f"{text} {nxt.text}", i + 1  # "2.1" / "Setup"
                    styled = styled or layout.styled(nxt, page.number) or in_capitals(nxt.text)  # "4.1" / "TASKS"
            if not styled and not any_kind(text):
                continue  # body text: neither emphasised nor numbered
            if not heading_like(text, bool(any_kind(text))) or not_a_heading(text):
                continue
            last = max(i, joined)
            while last + 1 < len(lines) and len(text) < LONG_CHARS and _continues(lines[last], lines[last + 1], body):
                last = joined = last + 1  # a title wrapped over lines
                text = f"{text} {lines[last].text}"
            nxt = lines[last + 1] if last + 1 < len(lines) else None
            hit = _numbered(text, styled)
            if hit is not None and hit[0].rank is None and RUN_IN.search(text, hit[2]):
                continue  # "2. Naively finetuning … is not enough. Despite …": a numbered paragraph, not a title
            if hit is not None:
                kind, number, end = hit
                if end < len(text) and _PAGE_REF.search(text):
                    refs += 1  # a contents entry with its page number
                    continue
                if end >= len(text) - 1 and number and nxt is not None and joined != i + 1:  # "ITEM 7." / "MANAGEMENT'S …"
                    if heading_like(nxt.text) and _numbered(nxt.text, True) is None and not not_a_heading(nxt.text):
                        text, joined = f"{text} {nxt.text}", i + 1
                rank = kind.rank if kind.rank is not None else number.count(".") + 1
                on_page.append(_Found(page.number, i, text, kind, number, rank,
                                      2 if styled else int(line.text.isupper()), line.size, line.bold,
                                      step=kind.rank is None and step(text[end:])))
            elif styled and title_start(text) and not sentence(text) and not RUN_IN.search(text) and not lead_in(text) \
                    and not row_label(lines, i) and not between_rows(lines, i, last, body) \
                    and (statement_title(text) or not table_header(lines, last, text, body)):
                on_page.append(_Found(page.number, i, without_unit(text), None, "", 1 if line.size >= larger else 2,
                                      2, line.size))
        per_page.append((on_page, refs + _page_refs(lines), lines))
    counts = Counter(f.kind.name for on_page, _, _ in per_page for f in on_page if f.kind and not f.step)
    excluded = {x for k in rules().kinds if counts[k.name] >= MIN_NUMBERED for x in k.excludes}
    for on_page, refs, lines in per_page:
        found += [f for f in _outside_contents([f for f in on_page if f.kind is None or f.kind.name not in excluded],
                                               refs, lines) if not f.step]
    counts = Counter(f.kind.name for f in found if f.kind)
    found = [f for f in found if f.kind is None or not f.kind.needs or counts[f.kind.needs] >= MIN_NUMBERED]
    numbered = _in_sequence(_first_of_each([f for f in found if f.kind is not None]))
    if len(numbered) < MIN_NUMBERED:
        return []
    unnumbered = _unnumbered(found, numbered)
    level = _levels(numbered, unnumbered)
    # "Notes to … statements" opens the Notes on its page even when the text order puts it after Note 1 (Adobe)
    note_line: dict[int, float] = {}
    for f in numbered:
        if f.kind.name == "note":
            note_line[f.page] = min(note_line.get(f.page, f.line), f.line)
    def order(f: _Found) -> float:
        return min(f.line, note_line.get(f.page, f.line) - 0.5) if f.kind and f.kind.name == "notes" else f.line
    entries = [(f.page, order(f), Entry(level(f), f.title, f.page)) for f in numbered + unnumbered]
    return [e for _, _, e in sorted(entries, key=lambda t: (t[0], t[1]))]


def _ranked(text: str) -> bool:
    """``text`` opens a heading of a ranked kind (Part, Item, Note, Chapter …): no title for a number above it ("3" /
    "ITEM 1A."), as a section's title may be ("3" / "A Simple Baseline")."""
    hit = _numbered(text, True)
    return hit is not None and hit[0].rank is not None


CHAPTER_STEP = 4.0  # points: an unnumbered heading this much larger than every numbered rank heads them


def _levels(numbered: list[_Found], unnumbered: list[_Found]):
    """A heading's level, by how large it is set: each numbered rank ("1", "1.1"; Part, Item) in order, then
    each size of unnumbered headings used twice or more, larger first (a size used once takes the level of the
    next smaller one); bold lines of body size last. An unnumbered size :data:`CHAPTER_STEP` larger than the
    usual size of every rank of decimal numbers ("1", "1.1") heads them instead: a manual's chapter title over
    its numbered steps. A filing's Parts, Items and Notes are ranked by their kind, whatever their size, and in a
    filing an auditor's report printed after the Notes is at the level of "Notes to …", not inside the last Note."""
    ranks = sorted({f.rank for f in numbered})
    decimal = all(f.kind.rank is None for f in numbered)
    top = max((statistics.median(round(f.size) for f in numbered if f.rank == r) for r in ranks), default=0.0)
    usage = Counter(round(f.size) for f in unnumbered if f.rank == 1)
    sizes = sorted((size for size, k in usage.items() if k >= 2), reverse=True)
    above = [size for size in sizes if decimal and size >= top + CHAPTER_STEP]
    below = [size for size in sizes if size not in above]
    order = [("u", size) for size in above] + [("n", r) for r in ranks] + [("u", size) for size in below]
    at = {key: i + 1 for i, key in enumerate(order)}

    notes = next((k.rank for k in rules().kinds if k.name == "notes"), None)
    filing = ("n", notes) in at and any(f.kind.name == "item" for f in numbered)
    first_note = min(((f.page, f.line) for f in numbered if f.kind.name == "note"), default=None)

    def level(f: _Found) -> int:
        if f.kind is not None:
            return at[("n", f.rank)]
        if filing and first_note and (f.page, f.line) > first_note and _beside_notes().search(f.title):
            return at[("n", notes)]  # the auditor's report printed after the notes: beside them, not in the last
        if f.rank != 1:
            return len(order) + 1
        size = next((s for s in sizes if s <= round(f.size)), sizes[-1] if sizes else None)
        return at[("u", size)] if size is not None else len(ranks) + 1
    return level


@lru_cache(maxsize=1)
def _beside_notes() -> re.Pattern[str]:
    """The headings a filing sets at the level of "Notes to …" (``statements.beside_notes`` of data/headings.json:
    the auditor's report)."""
    return re.compile("|".join(f"(?:{p})" for p in domain.load("headings")["statements"]["beside_notes"]),
                      re.IGNORECASE)


CONTENTS_STYLED = 2  # a contents page's own headings: this many emphasised numbered lines at most


PROSE_REACH = 3  # lines below a numbered heading where its text may start
BULLETS = "•●▪◦‣-–"  # the marks that open a bulleted list's items (followed by a space)
PROSE_WORDS = 10  # a plain line this long, or one that ends a sentence, is text, not a contents entry


def _outside_contents(on_page: list[_Found], refs: int, lines: list[pdf.Line]) -> list[_Found]:
    """A page's headings without its contents entries: on a page of ``CONTENTS_LINES`` numbered lines
    (or lines ending in a page number), only the unnumbered and, when they are few, the emphasised
    numbered ones above its entries (the "Item 8." above an index of statements and notes) stay. A page where text
    follows at least half of its numbered lines is a page of short sections ("Item 13. …" / "The
    information required by this Item is incorporated …", "Item 16. Form 10-K Summary" / "None."), not
    a contents page: all its headings stay."""
    numbered = [f for f in on_page if f.kind is not None]
    if refs + len(numbered) < CONTENTS_LINES:
        if len(numbered) >= MIN_NUMBERED and not any(f.emphasis or _text_follows(lines, f.line) for f in numbered):
            return [f for f in on_page if f.kind is None]  # plain numbered lines with no text under any: a list
        return on_page
    if 2 * sum(_text_follows(lines, f.line) for f in numbered) >= len(numbered) + refs:
        return on_page
    first = min((i for i, _ in _refs_first(lines)), default=len(lines))
    styled = [f for f in numbered if f.emphasis == 2 and f.line < first]  # above the entries, not among them
    keep = styled if len(styled) <= CONTENTS_STYLED and len(styled) < len(numbered) + refs else []
    return [f for f in on_page if f.kind is None or f in keep]


def _page_refs(lines: list[pdf.Line]) -> int:
    """The page numbers a contents page lists each on its own line under its entry ("Business" / "1", "Risk Factors"
    / "8"): the longest run of them that never goes down, counted when it has at least ``2 * CONTENTS_LINES`` and
    holds :data:`REFS_IN_ORDER` of them (J&J's contents gives its Items as bare numbers, so no "Item" line tells it
    from the report). A chart's axis (0, 10, 20 … one under another) is no such run: each number must stand under a
    line of words; nor is a table of stores by state, whose counts go up and down."""
    refs = [int(text) for prev, line in zip(lines, lines[1:])
            if (text := line.text.strip()).isdigit() and len(text) <= 3 and any(c.isalpha() for c in prev.text)]
    return max(_in_order(refs), _in_order([n for _, n in _refs_first(lines)]))


_REF_FIRST = re.compile(r"^(\d{1,3}) +[A-Z][a-z]")  # "8 Welcome": an entry after its page number (Apple's guides)


def _refs_first(lines: list[pdf.Line]) -> list[tuple[int, int]]:
    """(line, page number) of the entries a contents page prints after their page numbers ("8 Welcome", "9 What's in
    the Box"), when :data:`CONTENTS_LINES` numbers or more differ: a list whose every item opens with one glyph read
    as a digit ("6 Refill the hopper", "6 Close the lid") is no contents page."""
    refs = [(i, int(m[1])) for i, line in enumerate(lines) if (m := _REF_FIRST.match(line.text))
            and not figures_row(line.text)]
    numbers, run = [n for _, n in refs], list(range(1, CONTENTS_LINES + 1))  # 1, 2, 3, 4, 5: a ranked list
    ranked = any(numbers[k:k + CONTENTS_LINES] == run for k in range(len(numbers)))
    return refs if len(set(numbers)) >= CONTENTS_LINES and not ranked else []


def _in_order(refs: list[int]) -> int:
    """The longest run of ``refs`` that never goes down, when it has at least ``2 * CONTENTS_LINES`` and holds
    :data:`REFS_IN_ORDER` of them, else 0."""
    if len(refs) < 2 * CONTENTS_LINES:
        return 0
    tails: list[int] = []  # the smallest last number of a non-decreasing run of each length
    for n in refs:
        k = bisect.bisect_right(tails, n)
        if k == len(tails):
            tails.append(n)
        else:
            tails[k] = n
    in_order = len(tails)
    return in_order if in_order >= 2 * CONTENTS_LINES and in_order >= REFS_IN_ORDER * len(refs) else 0


def _leaders(text: str) -> bool:
    """``text`` ends in leader dots ("Business ......"): a contents entry, its page number elsewhere. Read on the
    line's last characters alone (a pattern anchored at the end was quadratic on a line of dots)."""
    return text[-LEADER_CHARS:].replace(" ", "").endswith("....")


def _text_follows(lines: list[pdf.Line], i: int) -> bool:
    """A plain sentence starts within ``PROSE_REACH`` lines below line i (the section's own text). Never
    below a number alone on its line with a plain line under it ("5" above "Same as for Quality 4, but …"):
    a numbered list's or table's rows read so as often as headings do ("E.1" above "METHODOLOGY", in
    capitals, is a heading). A plain line of a narrow column wrapped into the next ("… to generate" /
    "knowledge-aware …") is text too."""
    title = lines[i + 1] if i + 1 < len(lines) else None
    if _BARE_NUMBER.match(lines[i].text.strip()) and not (title and (title.bold or in_capitals(title.text))):
        return False
    reach = lines[i + 1:i + 2 + PROSE_REACH]
    for k, line in enumerate(reach[:PROSE_REACH]):
        text = line.text.strip()
        if line.bold or rules().any_kind.match(text) or text[-1:].isdigit() or _leaders(text):
            continue
        nxt = reach[k + 1].text.strip() if k + 1 < len(reach) else ""
        if len(text.split()) >= PROSE_WORDS:
            return True
        if text.endswith(".") and not (nxt and FIGURES.match(nxt)):  # "Business." over "4": a contents entry's title
            return True
        if 2 * len(text.split()) >= PROSE_WORDS and (text.endswith("-") or nxt[:1].islower()):
            return True  # a paragraph's line wrapped in a narrow column ("… to generate" / "knowledge-aware …")
        if text[:1] in BULLETS and text[1:2] == " " and len(text.split()) >= 3:
            return True  # a bulleted list's item ("• Support QueryInst (#6050)"): text, no contents page has it
    return False


def _numbered(text: str, styled: bool) -> tuple[Kind, str, int] | None:
    r = rules()
    if not r.any_kind.match(text):
        return None
    for kind in r.kinds:
        m = kind.regex.match(text)
        if m:
            if kind.styled and not styled:
                return None
            return kind, m.group("n").upper().replace(" ", ""), m.end()
    return None


_OPEN_END = re.compile(r"(?:[,;:&\-–—]|\b(?i:of|and|the|for|to|in|on|with|or|a|an|by|from))$")


WRAPPED = 75  # a heading line of body size this long that is followed by one in its style was wrapped; a larger
# line holds fewer characters (Nike's 22 pt "ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES" / "ABOUT MARKET
# RISK" over 8.5 pt text: 29 characters fill most of it), and a line in capitals fewer still
CAPITALS = 0.7  # capitals are about 1.4 times as wide as the lower-case letters of body text


def _continues(line: pdf.Line, nxt: pdf.Line, body: float) -> bool:
    """``nxt`` carries on the title of ``line``: same style, and ``line`` stops mid-phrase or
    fills most of a line (:data:`WRAPPED` characters at ``body`` size, fewer as the line is larger or in capitals),
    or is set larger than body text and ``nxt`` goes on in lower case ("Cleaning" / "your refrigerator")."""
    return (abs(line.size - nxt.size) <= 0.2 and line.bold == nxt.bold
            and (bool(_OPEN_END.search(line.text)) or (line.size > body and nxt.text[:1].islower())
                 or len(line.text) >= WRAPPED * min(1.0, body / line.size) * (CAPITALS if line.text.isupper() else 1))
            and heading_like(nxt.text) and _numbered(nxt.text, True) is None and not not_a_heading(nxt.text))


def _first_of_each(numbered: list[_Found]) -> list[_Found]:
    """One heading per number: items and notes are numbered within their part. Of two as emphasised, the one
    set like most of its rank (bold or not) is the heading: a paper's "1 Introduction" in bold, not the
    "1 S-Lab, …" of an affiliation above it."""
    bold = Counter((f.kind.name, f.rank, f.bold) for f in numbered if f.kind is not None)
    chosen: dict[tuple[str, str, str], _Found] = {}
    part = ""
    for f in numbered:
        assert f.kind is not None
        if f.kind.name == "part":
            part = f.number
        key = (f.kind.name, f.number, part if f.kind.name in ("item", "note") else "")
        have = chosen.get(key)
        if have is None or f.emphasis > have.emphasis or (
                f.emphasis == have.emphasis and f.bold != have.bold
                and bold[f.kind.name, f.rank, f.bold] > bold[f.kind.name, f.rank, have.bold]):
            chosen[key] = f
    return sorted(chosen.values(), key=lambda f: (f.page, f.line))


SEQUENCE_REACH = 80  # a section number may follow any of this many numbered lines of its kind before it


def _in_sequence(numbered: list[_Found]) -> list[_Found]:
    """Drop section numbers (1, 2.1, B.2 …) that do not continue the numbering around them: a figure in a table
    ("46" above "Other charges") is not section 46, nor is a page's folio before its running title ("4 Chapter 2.
    Installation"). Per kind, the longest chain of numbers each of which :func:`_follows` the one before it
    (within :data:`SEQUENCE_REACH`) is kept: one stray number taken early does not drop every true one after it,
    as taking each number that follows the last one kept did."""
    keep = {id(f) for f in numbered if f.kind is not None and f.kind.rank is not None}
    by_kind: dict[str, list[tuple[_Found, tuple[int, ...]]]] = {}
    for f in numbered:
        assert f.kind is not None
        if f.kind.rank is None:
            parts = tuple(ord(x) - 64 if x.isalpha() else int(x) for x in f.number.split(".") if x)
            by_kind.setdefault(f.kind.name, []).append((f, parts))
    # "Chapter 24" (printed so, or as "CHAPTER" / "TWENTYFOUR") opens 24.1: a link of the sections' chain where
    # no section is numbered 24 itself (a chapter's opener set as "24 Title" is its own link)
    decimal = by_kind.get("decimal", [])
    tops = {parts for _, parts in decimal if len(parts) == 1}
    links = [(f, (int(f.number),)) for f in numbered if f.kind is not None and f.kind.name == "chapter"
             and f.number.isdigit() and (int(f.number),) not in tops]
    if decimal and links:
        by_kind["decimal"] = sorted(decimal + links, key=lambda item: (item[0].page, item[0].line))
    for items in by_kind.values():
        length = [0] * len(items)  # the longest chain ending at each number (0: none can)
        before = [-1] * len(items)
        for i, (_, cur) in enumerate(items):
            if _follows(None, cur):
                length[i] = 1
            start = max(0, i - SEQUENCE_REACH)
            best = max(length[start:i], default=0) + 1  # no chain through the window is longer than this
            for j in range(i - 1, start - 1, -1):  # nearest first: a chain that follows on stops at its last number
                if length[i] >= best:
                    break
                if length[j] and length[j] + 1 > length[i] and _follows(items[j][1], cur):
                    length[i], before[i] = length[j] + 1, j
        i = max(range(len(items)), key=lambda k: (length[k], -k), default=-1)
        while i >= 0 and length[i]:
            keep.add(id(items[i][0]))
            i = before[i]
    return [f for f in numbered if id(f) in keep]


def _follows(prev: tuple[int, ...] | None, cur: tuple[int, ...]) -> bool:
    """``cur`` can come after ``prev`` in an outline: the next sibling (a step of 1 or 2),
    a first child (.1, or .2 when the first was not read), or the next number of an ancestor; the first must
    start low."""
    if not cur:
        return False
    if prev is None:
        return all(x <= 2 for x in cur)
    for depth in range(min(len(prev), len(cur)), 0, -1):
        if cur[:depth - 1] == prev[:depth - 1] and 1 <= cur[depth - 1] - prev[depth - 1] <= 2 \
                and all(x <= 1 for x in cur[depth:]):
            return True
    return cur[:len(prev)] == prev and len(cur) == len(prev) + 1 and cur[-1] <= 2


REPEATED = 3  # a styled line on this many pages is a label (a company's name above each statement), not a section


UNNUMBERED_PER_PAGE = 4


def _further_title(title: str) -> bool:
    """A bold line of body size after a page's first heading opens a section of its own when it reads as a title:
    not a run-in head ("Models.", "Performance w.r.t label number. Compared with"), a caption or an instruction
    (``not_further`` of ``data/headings.json``: "Figure 2: …", "Settings > Display", "Browse the previews: swipe
    up"), nor a one-word label ("Creamy", "Boiler": a setting's options)."""
    text = title.strip()
    return not (text.endswith((".", ":")) or len(text.split()) < 2 or RUN_IN.search(text)
                or rules().not_further.search(text))


def _repeated_smaller(out: list[_Found], f: _Found, key: str) -> bool:
    """``f`` repeats on the next line, in a smaller heading size, the title just kept (a phone manual's topic "AI
    Voice" in 20 pt over its first task "AI Voice" in 14 pt): it opens the topic's first subsection."""
    last = out[-1] if out else None
    return last is not None and last.page == f.page and last.line == f.line - 1 and f.size < last.size \
        and normalise(last.title) == key


def _unnumbered(found: list[_Found], numbered: list[_Found]) -> list[_Found]:
    """The unnumbered styled lines that open sections below the numbered ones: each title once (not one repeated
    on :data:`REPEATED` pages or more), after any numbered heading on its page; per page and heading style (size
    and weight) up to :data:`UNNUMBERED_PER_PAGE` (a phone manual's page opens a chapter, two topics and six
    tasks), further bold lines of body size only when they read as titles — one in all on a page of a
    document numbered by kinds (a filing, whose Parts, Items and Notes are its sections and whose larger lines
    are table titles)."""
    decimal = all(f.kind.rank is None for f in numbered)
    pages_of: dict[str, set[int]] = {}
    for f in found:
        if f.kind is None:
            pages_of.setdefault(normalise(f.title), set()).add(f.page)
    last_numbered_line = {}
    for f in numbered:
        last_numbered_line[f.page] = max(last_numbered_line.get(f.page, -1), f.line)
    seen: set[str] = set()
    out: list[_Found] = []
    per_page: Counter = Counter()
    if not decimal:  # the one a page of a filing opens: a title in capitals before one in mixed case
        first = {f.page: f for f in reversed(found)}  # …of the size and weight of the page's first title
        found = sorted(found, key=lambda f: (f.page, not (capitals_title(f.title) and f.size == first[f.page].size
                                                          and f.bold == first[f.page].bold)))
    for f in found:
        style = (f.page, round(f.size), f.rank) if decimal else f.page
        if f.kind is not None or per_page[style] >= (UNNUMBERED_PER_PAGE if decimal else 1):
            continue
        if per_page[f.page] and f.rank == 2 and not _further_title(f.title):
            continue
        if f.line < last_numbered_line.get(f.page, -1):
            continue
        key = normalise(f.title)
        if (key in seen and not _repeated_smaller(out, f, key)) or len(pages_of[key]) >= REPEATED:
            continue
        seen.add(key)
        per_page[f.page] += 1
        if decimal:
            per_page[style] += 1
        out.append(f)
    return out


def numbered_heading(title: str) -> tuple[Kind, str] | None:
    """The kind and number of a numbered heading's title ("Note 9 – Debt" → note, "9"), else None."""
    hit = _numbered(" ".join(title.split()), True)
    return (hit[0], hit[1]) if hit else None
