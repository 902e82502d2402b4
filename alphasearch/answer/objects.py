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

from ..index.folios import page_labels
from ..lang import domain
from ..lang.questions import page_refs
from ..models import DocumentIndex, Section

_CAPTION = re.compile(r"^\s*(?P<kind>(?i:tables?|figures?|fig\.))\s*(?P<label>(?:[A-Z]\.?)?\d{1,3}(?:\.\d{1,2})?)"
                      r"[a-z]?(?=\s*$|\s*[:|]|\.\s+[A-Z]|\s+[A-Z(])", re.MULTILINE)
_ASKED = re.compile(r"\bhow many (?P<kind>tables|figures)\b", re.IGNORECASE)
_RANGE = re.compile(r"\b(?:from\s+)?(?:pages?|slides?|pp?\.)\s*(\d{1,4})\s*(?:-|–|to|through)\s*"
                    r"(?:(?:pages?|slides?)\s*)?(\d{1,4})\b", re.IGNORECASE)
_APPENDIX_TITLE = re.compile(r"^\s*(?:appendix|appendices|supplementary)\b|^\s*[A-Z](?:\.\d+)*\.?\s+[A-Z]")
_REFERENCES_TITLE = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Counted:
    """``count`` captions of ``kind`` ("table", "figure") on ``pages`` (the scope counted): each one's number, page
    and line."""

    kind: str
    count: int
    labels: tuple[tuple[str, int, str], ...]
    pages: tuple[int, int]
    scope: str  # "the document", "pages 3–10", "the appendix"

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
    out: dict[str, str] = {}
    for m in _CAPTION.finditer(text):
        if m.group("kind").lower().startswith(kind[:3]):
            end = text.find("\n", m.start())
            out.setdefault(m.group("label").upper(), text[m.start():end if end >= 0 else len(text)].strip())
    return list(out.items())


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
    """(first page, last page, its name) of what the question counts in; None when it names a place not read here."""
    m = _RANGE.search(question)
    if m:
        lo, hi = sorted((int(m.group(1)), int(m.group(2))))
        return lo, min(hi, doc.page_count), f"pages {lo}–{hi}"
    if re.search(r"\bappendi(?:x|ces)\b", question, re.IGNORECASE):
        start = _appendix(doc.root)
        return None if start is None else (start, doc.page_count, "the appendix")
    if page_refs(question):
        return None  # one page or a pair: the reader's other means
    return 1, doc.page_count, "the document"


def object_count(doc: DocumentIndex, question: str) -> Counted | None:
    """The count of tables or figures a "how many tables/figures …" question asks, by their captions; None when the
    question narrows what it counts (any word beyond ``objects``), names a place this cannot read, or the document
    prints no caption of that kind at all."""
    m = _ASKED.search(question)
    if m is None:
        return None
    kind = m.group("kind").lower().rstrip("s")
    rest = _RANGE.sub(" ", question[m.end():] + " " + question[:m.start()])
    if any(w.lower() not in _allowed() for w in re.findall(r"[A-Za-z]+", rest)):
        return None
    scope = _scope(doc, question)
    if scope is None or not any(captions(p.text, kind) for p in doc.pages):
        return None
    lo, hi, name = scope
    labels: dict[str, tuple[str, int, str]] = {}
    for page in range(lo, hi + 1):
        for label, line in captions(doc.page(page).text, kind):
            labels.setdefault(label, (label, page, line))
    return Counted(kind, len(labels), tuple(labels.values()), (lo, hi), name)


def pages_beyond(doc: DocumentIndex, question: str) -> list[int]:
    """The page numbers the question names ("pages 100-120", "slide 45") that the document has not: beyond its last
    page, and printed on none of its pages (an excerpt of a longer report prints its own numbers)."""
    named = [p for p in page_refs(question) if p > doc.page_count]
    if not named:
        return []
    printed = {n for labels in page_labels([p.text for p in doc.pages]) for n in labels}
    return [p for p in named if p not in printed]


__all__ = ["Counted", "captions", "object_count", "pages_beyond"]
