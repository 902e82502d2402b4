"""Questions about the document itself rather than what it says: how many tables or figures it holds (in all, on a
range of pages, in its appendix), counted by their captions; and pages a question names that the document does not
have ("how many figures are on pages 100-120" put to a 49-page paper).

A caption is a line that begins with "Table", "Figure" or "Fig." and its number, and then ends, or goes on with a
colon, a bar, a full stop and a capital, or a capital ("Figure 3: Results", "Table 2. Accuracy", "Figure 12" alone on
its line); a sentence citing one ("Table 3 shows that …") is no caption. Each number counts once. A document that
prints no caption of the kind asked (slides, manuals with unnumbered pictures) is not counted: its pictures may or
may not be what the question calls figures, so the answer is left to the reader's other means.
The words a counting question may hold besides the kind, its place and its format are data
(``data/questions.json``: ``objects``): any other word narrows what is counted ("figures of trains", "tables that
include F1"), which captions cannot tell, so such a question is not counted here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..index.folios import page_labels, page_offset
from ..lang import domain
from ..lang.questions import page_refs
from ..models import DocumentIndex, Section

_CAPTION = re.compile(r"^[ \t]*(?P<kind>(?i:tables?|figures?|fig\.))[ \t]*(?P<label>(?:[A-Z]\.?)?\d{1,3}(?:\.\d{1,2})?)"
                      r"[a-z]?(?P<mark>[ \t]*$|[ \t]*[:|]|\.[ \t]+(?=[A-Z])|[ \t]+(?=[A-Z(]))", re.MULTILINE)
_ASKED = re.compile(r"(?:\bhow many|\bnumber of|#\s*of)\s+(?P<kind>tables|figures)\b", re.IGNORECASE)
_RANGE = re.compile(r"\b(?:from\s+)?(?:pages?|slides?|pp?\.)\s*(\d{1,4})\s*(?:-|–|to|through)\s*"
                    r"(?:(?:pages?|slides?)\s*)?(\d{1,4})\b", re.IGNORECASE)
# pages a question names, "slide" only after a preposition or an article ("on slide 45"; a margin may "slide 30 basis
# points")
_NAMED_PAGES = re.compile(r"\b(?:pages?|pp?\.|(?<=\bin |\bon |\bat |\bof |\bto )slides?|(?<=\bfrom )slides?|(?<=\bthe )slides?)\s*(\d{1,4})"
                          r"(?:\s*(?:and|&|-|–|to|through)\s*(?:(?:pages?|slides?)\s*)?(\d{1,4}))?", re.IGNORECASE)
LIST_AT_LEAST = 4  # a page holding this many captions, each printed again on another page, lists them
_APPENDIX_TITLE = re.compile(r"^\s*(?:appendix|appendices|supplementary)\b|^\s*[A-Z](?:\.\d+)*\.?\s+[A-Z]")
_REFERENCES_TITLE = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Counted:
    """``count`` captions of ``kind`` ("table", "figure") on ``pages`` (the scope counted): each one's number, page
    and line."""

    kind: str
    labels: tuple[tuple[str, int, str], ...]
    pages: tuple[int, int]
    scope: str  # "the document", "pages 3–10", "the appendix"

    @property
    def count(self) -> int:
        return len(self.labels)

    def line(self) -> str:
        """The direct answer: "12 figures in the document (Figure 1, p. 3 … Figure 12, p. 20)"."""
        name = self.kind.capitalize()
        noun = self.kind + ("s" if self.count != 1 else "")
        if not self.labels:
            return f"No {self.kind}s in {self.scope}: none of its pages prints a {self.kind}'s caption."
        first, last = self.labels[0][:2], self.labels[-1][:2]
        span = (f"{name} {first[0]}, p. {first[1]}" if self.count == 1
                else f"{name} {first[0]}, p. {first[1]} … {name} {last[0]}, p. {last[1]}")
        return f"{self.count} {noun} in {self.scope} ({span}), counted by their captions."


@lru_cache(maxsize=1)
def _allowed() -> frozenset[str]:
    return frozenset(domain.load("questions")["objects"])


def captions(text: str, kind: str) -> list[tuple[str, str]]:
    """The captions of ``kind`` ("table" or "figure") that ``text`` prints, in order, each number once: (its number,
    its line)."""
    return [(label, line) for label, line, _ in _captions(text, kind)]


def _captions(text: str, kind: str) -> list[tuple[str, str, bool]]:
    """(number, line, whether it is marked as a caption by a colon or a bar: "Figure 3: …", not "Figure 3 shows …")."""
    out: dict[str, tuple[str, str, bool]] = {}
    for m in _CAPTION.finditer(text):
        if m.group("kind").lower().startswith(kind[:3]):
            end = text.find("\n", m.start())
            label = m.group("label").upper()
            out.setdefault(label, (label, text[m.start():end if end >= 0 else len(text)].strip(),
                                   m.group("mark").strip() in (":", "|")))
    return list(out.values())


def _numbered(labels: list[str]) -> bool:
    """The document numbers its captions in full: within each chapter ("2.1", "2.2") or appendix ("A.1"), and without
    one, from 1 with no number missing ("Table 2.1" alone, or Figures 3-12, count some of them, not all)."""
    runs: dict[str, set[int]] = {}
    for label in labels:
        head, _, last = label.rpartition(".")
        runs.setdefault(head, set()).add(int(last))
    chapters = {int(h) for h in runs if h.isdigit()}
    return all(nums == set(range(1, max(nums) + 1)) for nums in [*runs.values(), *([chapters] if chapters else [])])


def _placed(doc: DocumentIndex, kind: str) -> dict[str, tuple[str, int, str]]:
    """Each caption number of ``kind`` → (number, page, line): a page listing several captions that stand on other
    pages too (a list of figures) is passed over, and a caption marked by its colon wins over a sentence citing it
    at a line's start ("Figure 14. We use …")."""
    per_page = {p.number: _captions(p.text, kind) for p in doc.pages}
    pages_of: dict[str, set[int]] = {}
    for page, found in per_page.items():
        for label, _, _ in found:
            pages_of.setdefault(label, set()).add(page)
    placed: dict[str, tuple[str, int, str, bool]] = {}
    for page, found in per_page.items():
        if len(found) >= LIST_AT_LEAST and all(len(pages_of[label]) > 1 for label, _, _ in found):
            continue  # a list of figures or tables
        for label, line, marked in found:
            if label not in placed or marked and not placed[label][3]:
                placed[label] = (label, page, line, marked)
    return {label: got[:3] for label, got in sorted(placed.items(), key=lambda kv: kv[1][1])}


def _appendix(root: Section) -> int | None:
    """The first page of the appendix: a section titled "Appendix …" or lettered ("A Claim Extraction …") after the
    references."""
    seen_references = False
    for node in root.walk():
        if node is root:
            continue
        if _REFERENCES_TITLE.match(node.title):
            seen_references = True
        elif re.match(r"^\s*(?:appendix|appendices)\b", node.title, re.IGNORECASE) or (
                seen_references and _APPENDIX_TITLE.match(node.title)):
            return node.pages[0]
    return None


def _scope(doc: DocumentIndex, question: str) -> tuple[int, int, str] | None:
    """(first page, last page, its name) of what the question counts in; None when it names a place not read here.
    A range beyond the document's pages is read as the page numbers it prints (an excerpt of a longer report)."""
    m = _RANGE.search(question)
    if m:
        lo, hi = sorted((int(m.group(1)), int(m.group(2))))
        name = f"pages {lo}–{hi}"
        if hi > doc.page_count:
            offset = page_offset(page_labels([p.text for p in doc.pages]), agreeing=2)
            if offset is None or offset == 0:
                return None
            lo, hi = lo + offset, hi + offset
        lo, hi = max(1, lo), min(hi, doc.page_count)
        return (lo, hi, name) if lo <= hi else None
    if re.search(r"\bappendi(?:x|ces)\b", question, re.IGNORECASE):
        start = _appendix(doc.root)
        return None if start is None else (start, doc.page_count, "the appendix")
    if page_refs(question):
        return None  # one page or a pair: the reader's other means
    return 1, doc.page_count, "the document"


def object_count(doc: DocumentIndex, question: str) -> Counted | None:
    """The count of tables or figures a "how many tables/figures …" question asks, by their captions; None when the
    question narrows what it counts (any word beyond ``objects``), names a place this cannot read, or the document
    does not number its captions of that kind in full (:func:`_numbered`), or prints them all on one page (an
    exhibit's, a list's)."""
    m = _ASKED.search(question)
    if m is None:
        return None
    kind = m.group("kind").lower().rstrip("s")
    rest = _RANGE.sub(" ", question[m.end():] + " " + question[:m.start()])
    if any(w.lower() not in _allowed() for w in re.findall(r"[A-Za-z]+", rest)):
        return None
    scope = _scope(doc, question)
    placed = _placed(doc, kind)
    if scope is None or not placed or not _numbered(list(placed)) or (
            len(placed) > 2 and len({page for _, page, _ in placed.values()}) == 1):
        return None
    lo, hi, name = scope
    labels = tuple(got for got in placed.values() if lo <= got[1] <= hi)
    return Counted(kind, labels, (lo, hi), name)


def pages_beyond(doc: DocumentIndex, question: str) -> list[int]:
    """The page numbers the question names ("pages 100-120", "on slide 45") that the document has not: beyond its
    last page, printed on none of its pages, and not where the numbers its pages print would put them (an excerpt
    of a longer report, numbered 38-60, has a page 48 even where its footer is not read)."""
    named = [int(g) for m in _NAMED_PAGES.finditer(question) for g in m.groups() if g]
    named = [p for p in named if p > doc.page_count]
    if not named:
        return []
    labels = page_labels([p.text for p in doc.pages])
    printed = {n for found in labels for n in found}
    offset = page_offset(labels, agreeing=2)
    return [p for p in named if p not in printed and not (offset and 1 <= p + offset <= doc.page_count)]


__all__ = ["Counted", "captions", "object_count", "pages_beyond"]
