"""PDF → section tree.

Sources, in order of trust: the PDF outline (when it looks right), numbered
headings with styled lines nested below them (:mod:`.indexing.headings`), headings
from font size and bold lines alone, and pages grouped by topic (cut where neighbouring
pages share the fewest key terms). The root carries the document's title
(:mod:`.indexing.title`); summaries come from :mod:`.indexing.summaries`.
Leaves cover every page (sections that start on the same page share it); no leaf
spans more than ``max_leaf_pages`` pages; no node has more than ``MAX_FANOUT``
children, and a grouping node says what it holds ("Notes 1–9"). Pages are 1-based
and ranges inclusive.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import pdf
from ..models import DocumentIndex, Page, Section
from .grouping import around_flat, group_title, grouped, heading_label, page_span, stays_flat
from .crossref import with_contents_items, with_index_items
from .filing import statements_at_the_back
from .headings import UNNUMBERED_PER_PAGE, Entry, Layout, heading_like, not_a_heading, numbered_entries
from .title import document_title
from .summaries import PageTerms, document_summary, summarise
from ..lang.text import normalise, shorten

Progress = Callable[[str, float], None]  # (stage, fraction done in [0, 1])
MAX_FANOUT = 8
_MIN_OUTLINE = 3
TITLE_CHARS = 160  # a section title kept whole up to this ("Item 5. Market for Registrant’s … Securities")


def build_index(data: bytes, name: str, **options) -> DocumentIndex:
    """Read the PDF and build its section tree with extractive summaries (``options``: those of :func:`build`)."""
    return build(data, name, **options)[0]


def build(
    data: bytes,
    name: str,
    *,
    max_pages: int = 5000,
    warn_pages: int = 1000,
    max_leaf_pages: int = 8,
    progress: Progress | None = None,
    search_terms: bool = True,
    ocr: bool = False,
    ocr_seconds: float = 300.0,
) -> tuple[DocumentIndex, PageTerms]:
    """:func:`build_index`, and the word statistics of the pages it read (each page tokenised once;
    ``search_terms``: with each page's search-term counts, ``PageTerms.search``)."""
    report = progress or (lambda stage, frac: None)
    report("validating", 0.0)
    content = pdf.read_pdf(data, name, max_pages=max_pages, warn_pages=warn_pages,
                           progress=lambda i, n: report("reading pages", i / n), ocr=ocr, ocr_seconds=ocr_seconds,
                           ocr_progress=lambda i, n: report(pdf.ocr.STAGE, i / n))
    report("building the tree", 0.0)
    root, source, pages, stats = section_tree(content, max_leaf_pages=max_leaf_pages, name=name,
                                              search_terms=search_terms)
    report("summaries", 0.0)
    root = summarise(root, pages, stats)
    warnings = list(content.warnings)
    if not any(p.text.strip() for p in pages):
        warnings.append(f"{name} has no text layer; only page images are available.")
    report("summaries", 1.0)
    index = DocumentIndex(
        doc_id=content.sha256,
        name=name,
        page_count=content.page_count,
        root=root,
        pages=tuple(pages),
        summary=document_summary(root, pages, root.title, stats),
        engine="offline",
        tree_source=source,
        warnings=tuple(warnings),
        ocr=content.ocr,
        ocr_pages=tuple(content.ocr_pages),
    )
    return index, stats


def section_tree(content: pdf.PdfContent, *, max_leaf_pages: int = 8, name: str = "document.pdf",
                 search_terms: bool = False) -> tuple[Section, str, list[Page], PageTerms]:
    """The section tree of read PDF content (without summaries), where it came from
    ("outline", "headings" or "topics"), the pages with their heading lines, and their word
    statistics (``search_terms``: as :meth:`PageTerms.of`). The root carries the document's
    title (:func:`document_title`)."""
    layout = Layout.of(content)
    pages = detect_headings(content, layout)
    stats = PageTerms.of(pages, search=search_terms)
    title = document_title(content, pages, layout, name)
    root, source = build_tree(content, pages, layout, stats, max_leaf_pages=max_leaf_pages, title=title)
    return root, source, pages, stats


# --- headings ---------------------------------------------------------------
def detect_headings(content: pdf.PdfContent, layout: Layout) -> list[Page]:
    """Pages with their heading lines: larger than body text or bold, short, and
    not running headers (text repeated on ≥ 20 % of pages)."""
    running = layout.running
    toc_titles: dict[int, list[str]] = {}
    for _, title, page in content.toc:
        toc_titles.setdefault(page, []).append(title)
    out = []
    for page, norm in zip(content.pages, layout.norm):
        body = layout.body_of(page.number)
        larger, bold_from = body + 1.0, body - 0.5  # Layout.styled, read in the loop over every line
        heads = []
        for line, key in zip(page.lines, norm):
            size = line.size
            if (size >= larger or (line.bold and size >= bold_from)) and heading_like(line.text):
                if key not in running:
                    heads.append(line.text)
        for title in toc_titles.get(page.number, ()):
            if title not in heads:
                heads.append(title)
        out.append(Page(page.number, page.text, tuple(heads[:12]), page.pictures))
    return out


def heading_entries(content: pdf.PdfContent, layout: Layout) -> list[Entry]:
    """Section starts from font sizes: the largest heading on a page opens a
    section at a level given by its size rank (at most three levels)."""
    body, running = layout.body, layout.running
    n = content.page_count
    candidates: list[tuple[int, float, bool, str]] = []
    for page, norm in zip(content.pages, layout.norm):
        last = -2  # the line of the page's last candidate
        for i, (line, key) in enumerate(zip(page.lines[:40], norm)):
            big = line.size >= body + 1.0
            if (big or (line.bold and abs(line.size - body) < 0.6)) and heading_like(line.text):
                if key not in running:
                    held = candidates[-1] if candidates and last == i - 1 else None
                    joined = f"{held[3]} {line.text}" if held else ""
                    if held and big and held[1:3] == (line.size, line.bold) and heading_like(joined):
                        candidates[-1] = (*held[:3], joined)  # a large title wrapped: "Cleaning" / "your" / "refrigerator"
                    else:
                        candidates.append((page.number, line.size, line.bold, line.text))
                    last = i
    if not candidates:
        return []
    sizes = sorted({round(c[1]) for c in candidates if c[1] >= body + 1.0}, reverse=True)
    # Sizes used only once or twice in a long document are titles/decoration, not levels.
    usage = Counter(round(c[1]) for c in candidates)
    levels = [s for s in sizes if usage[s] >= 2 or n <= 3][:2]
    entries: list[Entry] = []
    for number, size, bold, text in candidates:
        if round(size) in levels:
            level = levels.index(round(size)) + 1
        elif bold and abs(size - body) < 0.6:
            level = len(levels) + 1
        else:
            continue
        entries.append(Entry(level, text, number))
    # one entry per page: the highest-level (smallest number) first heading, titled by the
    # page's first heading that is not repeated on other pages ("Consolidated Balance Sheets"
    # rather than the company name above it on every statement page)
    pages_of: dict[str, set[int]] = {}
    for number, _, _, text in candidates:
        pages_of.setdefault(normalise(text), set()).add(number)
    best: dict[int, Entry] = {}
    for e in entries:
        if e.page not in best or e.level < best[e.page].level:
            best[e.page] = e
    for number, e in best.items():
        if len(pages_of.get(normalise(e.title), ())) >= 3:
            distinct = next((text for p, _, _, text in candidates
                             if p == number and len(pages_of[normalise(text)]) < 3 and len(text.split()) >= 2), None)
            if distinct:
                best[number] = Entry(e.level, distinct, number)
    on_page: dict[int, list[Entry]] = {}
    for e in entries:
        on_page.setdefault(e.page, []).append(e)
    out = []
    for number in sorted(best):  # the page's first section, then the further ones it opens (a manual's page)
        out += [best[number], *_more_on_page(on_page[number], best[number], len(levels))]
    # bold body-size lines are only a level of their own where they are not on every page
    if len(out) > 0.9 * n and n > 12:
        out = [e for e in out if e.level <= len(levels)] or out
    return out


def _more_on_page(on_page: Sequence[Entry], best: Entry, sized: int) -> list[Entry]:
    """The further sections ``best``'s page opens after its first (``on_page``: the page's entries in order):
    headings set in a heading size (a level of the first ``sized``) no higher than ``best``, one per title,
    :data:`UNNUMBERED_PER_PAGE` in all."""
    first = next((i for i, e in enumerate(on_page) if e.level == best.level), len(on_page))
    seen, out = {normalise(best.title)}, []
    for e in on_page[first + 1:]:
        if best.level <= e.level <= sized and normalise(e.title) not in seen and len(out) < UNNUMBERED_PER_PAGE - 1:
            seen.add(normalise(e.title))
            out.append(e)
    return out


# --- outline trust ----------------------------------------------------------------
def trusted_outline(content: pdf.PdfContent) -> list[Entry]:
    """The outline's entries when they look right, else [].

    Trust needs enough entries, pages mostly in order, and titles mostly found
    in the text of their page (or the next one); the outline of a document AlphaSearch converted from another
    format is its headings or slides, trusted from one entry on."""
    toc = [Entry(lvl, title, page) for lvl, title, page in content.toc]
    if content.converted and toc:
        return [Entry(min(e.level, 4), e.title, e.page) for e in toc]
    if len(toc) < _MIN_OUTLINE or len(toc) > 4 * content.page_count + 20:
        return []
    in_order = sum(1 for a, b in zip(toc, toc[1:]) if b.page >= a.page) / max(1, len(toc) - 1)
    if in_order < 0.8:
        return []
    found = 0
    for e in toc:
        wanted = normalise(e.title)[:40]
        near = " ".join(normalise(content.pages[p - 1].text) for p in (e.page, e.page + 1)
                        if 1 <= p <= content.page_count)
        if wanted and wanted in near:
            found += 1
    if found < 0.5 * len(toc):
        return []
    # keep entries monotonic in pages; cap depth at 4
    out, last = [], 0
    for e in toc:
        if e.page >= last:
            out.append(Entry(min(e.level, 4), e.title, e.page))
            last = e.page
    return out


# --- tree construction -------------------------------------------------------------
@dataclass
class _Node:
    title: str
    start: int
    end: int
    level: int
    source: str
    children: list["_Node"]


def build_tree(content: pdf.PdfContent, pages: Sequence[Page], layout: Layout, stats: PageTerms, *,
               max_leaf_pages: int = 8, title: str = "") -> tuple[Section, str]:
    n = content.page_count
    entries, source = trusted_outline(content), "outline"
    if not entries or len({e.level for e in entries}) == 1:
        numbered = numbered_entries(content, layout)
        # a flat outline ("Part I", "Item 1. Business", "General" side by side) of a document whose
        # pages number their headings in levels: the pages' tree is the deeper one
        if not entries or len({e.level for e in numbered}) > 1:
            entries, source = statements_at_the_back(numbered), "headings"
    if not entries:
        entries, source = heading_entries(content, layout), "headings"
        if len(entries) < 2 or (n > 6 and len(entries) < 3):
            entries, source = [], "topics"
    if entries:
        # a 10-K printing no Item headings, its Items on a cross-reference index page: Items above the headings
        texts = [p.text for p in content.pages]
        # a 10-Q whose Items stand only on its contents page, each over the page it starts on: Items at their pages
        entries = with_index_items(with_contents_items(entries, texts), texts)
        tops = _from_entries(entries, n)
    else:
        tops = [_Node(_group_title(pages, a, b), a, b, 1, "topics", [])
                for a, b in topic_groups(stats, 1, n, max_leaf_pages)]
    root = _Node(title or content.title or "Document", 1, n, 0, "root", tops)
    _split_large(root, pages, stats, max_leaf_pages)
    _limit_fanout(root)
    counter = iter(range(10**9))
    return _freeze(root, counter), source


def _from_entries(entries: Sequence[Entry], n: int) -> list[_Node]:
    """Nest entries by level; a node ends where the next node of the same or a
    higher level starts (or on the page its last sub-entry starts, if later: sections
    sharing a page overlap on it); pages before a node's first child become an intro leaf."""
    nodes: list[_Node] = []
    stack: list[_Node] = []
    for i, e in enumerate(entries):
        end = n
        for j in range(i + 1, len(entries)):
            if entries[j].level <= e.level:
                end = max(e.page, entries[j].page - 1, *(d.page for d in entries[i + 1:j]))
                break
        node = _Node(shorten(e.title, TITLE_CHARS), e.page, end, e.level, "", [])
        while stack and stack[-1].level >= e.level:
            stack.pop()
        (stack[-1].children if stack else nodes).append(node)
        stack.append(node)
    if nodes and nodes[0].start > 1:
        nodes.insert(0, _Node("Front matter", 1, nodes[0].start - 1, 1, "", []))
    _fill_gaps(nodes, 1, n)
    return nodes


def _fill_gaps(nodes: list[_Node], start: int, end: int) -> None:
    """Make children cover [start, end]: add intro/gap leaves, clamp starts and ends
    into the parent's range (an outline child can start after its parent ends)."""
    for node in nodes:
        node.start = min(max(node.start, start), end)
        node.end = min(max(node.end, node.start), end)
        if node.children:
            _fill_gaps(node.children, node.start, node.end)
            first = node.children[0]
            if first.start > node.start:
                node.children.insert(0, _Node(node.title + " (introduction)", node.start, first.start - 1,
                                              node.level + 1, "", []))
    # gaps between siblings
    i = 0
    while i < len(nodes) - 1:
        a, b = nodes[i], nodes[i + 1]
        if b.start > a.end + 1:
            a.end = b.start - 1
        i += 1
    if nodes and nodes[-1].end < end:
        nodes[-1].end = end


def topic_groups(stats: PageTerms, start: int, end: int, max_size: int) -> list[tuple[int, int]]:
    """Split pages [start, end] into runs of related pages: cut where neighbouring
    pages share the fewest key terms (:meth:`PageTerms.neighbours`), keeping runs of 2..max_size pages.

    Key terms rather than static embeddings of the pages' first 2,000 characters: on the 11 eval
    PDFs whose outline has 2+ levels, their trees built from the top level alone, 0.75 of the cuts
    fell on a page where a deeper outline entry starts against 0.60 (128/170 vs 109/181; cuts in the
    middle: 0.45), in ~1/20 of the time."""
    count = end - start + 1
    if count <= max_size:
        return [(start, end)]
    sims = stats.neighbours(start, end)  # sims[i]: page start+i vs start+i+1
    target = max(2, min(max_size, round(math.sqrt(count)) + 1, max_size))
    return _cut(sims, start, start, end, min(max_size, target + 1))


def _cut(sims: list[float], first: int, a: int, b: int, size: int) -> list[tuple[int, int]]:
    """Pages [a, b] cut where neighbours are least alike (``sims[k - first]``: page k vs k + 1) into
    runs of at most ``size`` pages. A function of its own, not a closure: a closure that calls itself
    is a reference cycle, left for the garbage collector."""
    if b - a + 1 <= size:
        return [(a, b)]
    lo, hi = a + 1, b - 1  # cut after page k: [a..k], [k+1..b]
    candidates = range(lo, hi + 1) if hi >= lo else range(a, b)
    k = min(candidates, key=lambda k: (sims[k - first], abs((k - a) - (b - a) / 2)))
    return _cut(sims, first, a, k, size) + _cut(sims, first, k + 1, b, size)


def _group_title(pages: Sequence[Page], a: int, b: int) -> str:
    for p in range(a, b + 1):
        if pages[p - 1].headings:
            return shorten(pages[p - 1].headings[0], 70)
    for p in range(a, b + 1):
        for line in pages[p - 1].text.splitlines():
            if len(line.split()) >= 2 and sum(ch.isalpha() for ch in line) >= 6:
                return shorten(line, 70)
    return f"Pages {a}–{b}" if a != b else f"Page {a}"


def _split_large(node: _Node, pages: Sequence[Page], stats: PageTerms, max_leaf: int) -> None:
    for child in node.children:
        _split_large(child, pages, stats, max_leaf)
    if not node.children and node.end - node.start + 1 > max_leaf:
        groups = topic_groups(stats, node.start, node.end, max_leaf)
        if len(groups) > 1:
            node.children = [_Node(_split_title(pages, a, b, node.title) if a != node.start else
                                   f"{heading_label(node.title)} · {page_span(a, b)}", a, b, node.level + 1, "split", [])
                             for a, b in groups]


TITLE_WORDS = 10


def _split_title(pages: Sequence[Page], a: int, b: int, parent: str) -> str:
    """A page split's title: the first heading on its pages that reads as a title (a capital first,
    not a sentence or a table's header), else its parent's label and pages ("Item 7 · pages 22–29")."""
    for p in range(a, b + 1):
        for head in pages[p - 1].headings:
            words = head.split()
            if head[:1].isupper() and not head.rstrip().endswith((".", ",", ";", ":")) and ";" not in head and \
                    2 <= len(words) <= TITLE_WORDS and len(head) <= 70 and not not_a_heading(head) and not head.isupper():
                return head
    return f"{heading_label(parent)} · {page_span(a, b)}"


def _limit_fanout(node: _Node) -> None:
    def group(run: list[_Node]) -> _Node:
        return _Node(group_title([c.title for c in run], run[0].start, run[-1].end, node.title if node.level else ""),
                     run[0].start, run[-1].end, node.level + 1, "group", run)

    if len(node.children) > MAX_FANOUT and not stays_flat([c.title for c in node.children]):
        around = around_flat(node.children, [c.title for c in node.children], group)
        if len(around) <= MAX_FANOUT:
            node.children = around
    while len(node.children) > MAX_FANOUT and not stays_flat([c.title for c in node.children]):
        node.children = grouped(node.children, MAX_FANOUT, group)
    for child in node.children:
        _limit_fanout(child)


def _freeze(node: _Node, counter) -> Section:
    node_id = f"{next(counter):04d}"
    kids = tuple(_freeze(c, counter) for c in node.children)
    return Section(node_id=node_id, title=node.title, pages=(node.start, node.end), children=kids,
                   level=node.level, source=node.source)
