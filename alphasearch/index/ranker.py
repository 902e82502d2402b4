"""The page ranker of one document, built when it is indexed and saved beside it: BM25 over the pages
plus what a page is (a primary statement by its title line, a printed page number, a caption, a
picture), so a question's figure, page or caption reference raises the right pages.
"""
from __future__ import annotations

import json
import logging
import re
import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np

from ..lang import domain, glyphs
from ..lang.questions import (
    asks_picture, caption_refs, page_refs, positional_refs, query_text, statements_needed, wants_number,
)
from ..lang.text import numeric_share, terms, words
from ..models import DocumentIndex
from .folios import page_label, page_labels

# bm25s sets its logger to DEBUG and wordllama installs a root handler: keep index builds quiet.
logging.getLogger("bm25s").setLevel(logging.WARNING)

# --- financial statements: which ones a question needs, which one a page is ---------------
# A page is a primary statement when its title area (first lines) names one and the page is
# mostly figures; a question needs a statement when it names it or asks for a figure or ratio
# computed from its line items (e.g. inventory turnover needs cost of sales and inventories).
_STATEMENT_TITLE = {
    "income": re.compile(r"statements? of (?:consolidated |condensed )*(?:income|operations|earnings)\b"
                         r"|\bincome statements?\b", re.IGNORECASE),
    "balance": re.compile(r"balance sheets?|statements? of (?:consolidated )?financial (?:position|condition)",
                          re.IGNORECASE),
    "cashflow": re.compile(r"statements? of (?:consolidated )?cash ?flows?|cash ?flows? statements?", re.IGNORECASE),
}
STATEMENT_WEIGHT = 1.0
# A page the question names by number ("on page 17") is, like a page named by position, the page
# asked about: its boost (1.2, was 0.8) puts it above the best text match; the PDF page of that
# number gets half when another page prints the number. On the development set 16 questions name
# a page; with the labels of running footers (:func:`page_labels`) and this weight, 5 more of them
# rank the named page first, 1 fewer (a question counting "page 17" from the second page of a web
# print-out): the labels alone gain 2 (a brochure of two-page spreads), the weight 3 more.
PAGE_REF_WEIGHT = 1.2
# A page named by position (the cover, the last page) is the page asked about: its boost is above the
# best page's normalised text score (1), so it comes first however well another page matches the words.
# On the development set (276 questions) 3 of 4 cover questions ranked another page first with 0.8 (the
# cover has few words); with 1.2 all three rank the cover first, no other ranking moves.
POSITION_WEIGHT = 1.2
# A question about what a picture shows ("the map", "the photo", "the blue bar", "how many pie charts")
# names words a picture does not print: the pages holding pictures of their own (Page.pictures) are
# where to look, unless the question names the page. On the development set (276 questions, 44 with a
# picture word) the page ranking's hit@1/3/5 went 0.667/0.826/0.888 -> 0.685/0.837/0.891 (10 questions
# up, 1 down); weights 0.3-1.0 all gain (0.3/0.5: 0.678/0.837/0.888, 1.0: 0.688/0.841/0.895).
PICTURE_WEIGHT = 0.7
CAPTION_WEIGHT = 0.6


_PARENTHESES = re.compile(r"\([^()]*\)")
# tokens of dots, leaders and currency signs between a statement's label and its figures (". . . . $ 4,835")
_LEADERS = re.compile(r"(?<!\S)[.…·_$]+(?!\S)")
_NOT_BEFORE_TITLE = frozenset("of the on in to by from for within into".split())  # "ANALYSIS OF THE ..."


@lru_cache(maxsize=1)
def _title_tail() -> frozenset[str]:
    return frozenset(domain.load("ranking")["statement_title_tail"])


def _is_title(line: str, m: re.Match[str]) -> bool:
    """Whether ``line``, where ``m`` found a statement's name, is that statement's title: at most
    four capitalised words before the name ("U.S. GAAP Condensed Consolidated", "3M Company"), after
    it only periods, units and parentheses ("as of December 31, 2023", "(Unaudited)", "and
    Comprehensive Loss"), and no sentence end. "Statement of Earnings Location" (a column head),
    "Impact of derivatives on the consolidated balance sheets" or "... recognized on our consolidated
    balance sheets." name a statement without being it."""
    if line.rstrip().endswith((".", ":", ";", ",")):
        return False
    before = line[:m.start()].split()
    if len(before) > 4 or any(w[0].islower() or w.lower() in _NOT_BEFORE_TITLE for w in before):
        return False
    after = words(_PARENTHESES.sub(" ", line[m.end():]))
    return all(w in _title_tail() or w.isdigit() for w in after)


def statement_kind(text: str, numeric: float) -> str:
    """"income", "balance" or "cashflow" when the page is that primary statement (its title is
    one of the first eight lines, :func:`_is_title`, and the page is mostly figures), else "".
    A page with the titles of several statements in its first 30 lines is an index of them."""
    if numeric < 0.12:
        return ""
    first, kinds = "", set()
    for i, line in enumerate(text.splitlines()[:30]):
        for kind, rx in _STATEMENT_TITLE.items():
            m = rx.search(line)
            if m and _is_title(line, m):
                kinds.add(kind)
                first = first or (kind if i < 8 else "")
    return first if len(kinds) == 1 else ""


def _caption_pattern(kind: str, number: str) -> re.Pattern[str]:
    if kind == "figure":
        return re.compile(rf"^\s*fig(?:ure)?\.?\s*{number}\b", re.IGNORECASE | re.MULTILINE)
    if kind == "table":
        return re.compile(rf"^\s*table\s*{number}\b", re.IGNORECASE | re.MULTILINE)
    return re.compile(rf"^\s*appendix\s*{re.escape(number)}\b", re.IGNORECASE | re.MULTILINE)


def names_page(question: str, page: int, page_count: int, text: str,
               labels: Sequence[int] | None = None) -> bool | None:
    """Whether ``page`` (1-based, its ``text``) is a page the question names: by number or
    printed label ("on page 19"; ``labels``: the page's printed numbers from :func:`page_labels`,
    else the number alone on a line of ``text``), by position (the cover, the last page) or by
    the caption it holds ("Figure 3", "Table 2", "Appendix E"); None when the question names none."""
    refs = page_refs(question) + positional_refs(question, page_count)
    captions = caption_refs(question)
    if not refs and not captions:
        return None
    printed = labels if labels is not None else [page_label(text)]
    return page in refs or any(lab in refs for lab in printed) or any(
        _caption_pattern(kind, number).search(text) for kind, number in captions)


# --- lexical page retrieval -----------------------------------------------------------------
class PageRanker:
    """Scores every page of one document for a question.

    BM25 (bm25s) over ~150-word windows of page text (page = its best window),
    plus a BM25 field over the page's headings and the titles of the sections
    containing it (weight 0.6), times a numeric-density prior when the question
    asks for a figure. Then, weighed by the question (:meth:`_boosts`): the primary
    financial statements it needs (``STATEMENT_WEIGHT``), the pages it names by
    number, label or position (``PAGE_REF_WEIGHT``) and the figure/table/appendix
    it names (``CAPTION_WEIGHT``), and for a question about what a picture shows,
    the pages with pictures of their own (``PICTURE_WEIGHT``). Scores are normalised
    to [0, 1] by the document's best page. On the development set (276 questions) these features
    took page hit@3 from 0.62 to 0.78.
    """

    WINDOW = 150
    HEADING_WEIGHT = 0.6

    def __init__(self, doc: DocumentIndex):
        self.doc = doc
        n = doc.page_count
        titles: list[list[str]] = [[] for _ in range(n)]
        for node in doc.root.walk():
            if node is doc.root:
                continue
            for p in node.page_numbers:
                titles[p - 1].append(node.title)
        self.window_page: list[int] = []
        window_tokens: list[list[str]] = []
        self.df: Counter[str] = Counter()  # term -> number of pages using it
        read_by_ocr = set(doc.ocr_pages)
        for page in doc.pages:
            toks = terms(page.text)
            self.df.update(set(toks))
            if not toks:
                continue
            # a scanned page's codes, as OCR may have misread them, count in each of its windows
            codes = glyphs.ocr_codes(page.text) if page.number in read_by_ocr else []
            step = self.WINDOW // 2
            for start in range(0, max(1, len(toks) - step), step):
                window_tokens.append(toks[start:start + self.WINDOW] + codes)
                self.window_page.append(page.number)
        self.window_page_arr = np.asarray(self.window_page, dtype=np.int64)
        self.body = _bm25(window_tokens)
        head_tokens = [terms(" ".join([h for h in p.headings if p.number not in read_by_ocr or _worded(h)]
                                      + titles[p.number - 1])) for p in doc.pages]
        self.heads = _bm25(head_tokens)
        self.numeric = np.asarray([numeric_share(p.text) for p in doc.pages], dtype=np.float32)
        # a statement's share of figures counts no dot leaders (". . . . $ 4,835": each dot a token of its own)
        self.kinds = [statement_kind(p.text, numeric_share(_LEADERS.sub(" ", p.text)) if ". ." in p.text
                                     else float(x)) for p, x in zip(doc.pages, self.numeric)]
        self.labels = [list(lab) for lab in page_labels([p.text for p in doc.pages])]
        self.pictures = np.asarray([p.pictures > 0 for p in doc.pages], dtype=np.float32)
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    # --- saved state: a new process loads the ranker instead of re-tokenising every page ---
    def save(self, directory: Path) -> None:
        """Write the ranker into a new directory: the two bm25s indexes (their own
        ``save`` format) and ``ranker.json`` with the per-page features."""
        directory.mkdir(parents=True)
        for name, bm in (("body", self.body), ("heads", self.heads)):
            if bm is not None:
                bm.save(directory / name, show_progress=False)
        meta = {"pages": self.doc.page_count, "window_page": self.window_page, "df": dict(self.df),
                "numeric": [float(x) for x in self.numeric], "kinds": self.kinds, "labels": self.labels}
        (directory / "ranker.json").write_text(json.dumps(meta, ensure_ascii=False), "utf-8")

    @classmethod
    def load(cls, doc: DocumentIndex, directory: Path) -> PageRanker:
        """A ranker written by :meth:`save` for this document (ValueError if it does not fit)."""
        meta = json.loads((directory / "ranker.json").read_text("utf-8"))
        n = doc.page_count
        if meta["pages"] != n or len(meta["numeric"]) != n or len(meta["kinds"]) != n or len(meta["labels"]) != n:
            raise ValueError("saved ranker does not match the document")
        self = cls.__new__(cls)
        self.doc = doc
        self.window_page = [int(p) for p in meta["window_page"]]
        self.window_page_arr = np.asarray(self.window_page, dtype=np.int64)
        self.df = Counter({str(k): int(v) for k, v in meta["df"].items()})
        self.numeric = np.asarray(meta["numeric"], dtype=np.float32)
        self.kinds = [str(k) for k in meta["kinds"]]
        self.labels = [[int(x) for x in lab] for lab in meta["labels"]]
        self.pictures = np.asarray([p.pictures > 0 for p in doc.pages], dtype=np.float32)
        self.body, self.heads = (bm25s.BM25.load(directory / name, show_progress=False)
                                 if (directory / name).is_dir() else None for name in ("body", "heads"))
        if (self.body is not None and self.body.scores["num_docs"] != len(self.window_page)) or (
                self.heads is not None and self.heads.scores["num_docs"] != n):
            raise ValueError("saved ranker does not match the document")
        self._cache, self._lock = {}, threading.Lock()
        return self

    def scores(self, question: str) -> np.ndarray:
        """Score per page (index 0 = page 1), in [0, 1]."""
        with self._lock:
            hit = self._cache.get(question)
        if hit is not None:
            return hit
        q = terms(query_text(question)) + glyphs.question_codes(question)
        n = self.doc.page_count
        page = np.zeros(n, dtype=np.float32)
        if self.body is not None and q:
            win = self.body.get_scores(q)
            np.maximum.at(page, self.window_page_arr - 1, win)
        if self.heads is not None and q:
            page = page + self.HEADING_WEIGHT * self.heads.get_scores(q)
        if wants_number(question):
            page = page * (1.0 + 2.0 * self.numeric)
        top = float(page.max()) if n else 0.0
        out = page / top if top > 0 else page
        out = out + self._boosts(question)
        top = float(out.max()) if n else 0.0
        out = out / top if top > 0 else out
        with self._lock:
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[question] = out
        return out


    def _boosts(self, question: str) -> np.ndarray:
        """Additive evidence in [0, 1 + …] per page: the statements the question needs,
        and the pages it names (by printed label, or by position when no page has that label)."""
        n = self.doc.page_count
        boost = np.zeros(n, dtype=np.float32)
        needs = statements_needed(question)
        if needs:
            for i, kind in enumerate(self.kinds):
                if kind in needs:
                    boost[i] += STATEMENT_WEIGHT
        named = page_refs(question)
        for ref in named:
            labelled = [i for i, lab in enumerate(self.labels) if ref in lab]
            for i in labelled:
                boost[i] += PAGE_REF_WEIGHT
            if 1 <= ref <= n:
                boost[ref - 1] += PAGE_REF_WEIGHT * (0.5 if labelled else 1.0)
        positions = positional_refs(question, n)
        for p in positions:
            boost[p - 1] += POSITION_WEIGHT
        if not named and not positions and asks_picture(question):
            boost += PICTURE_WEIGHT * self.pictures
        for kind, number in caption_refs(question):
            rx = _caption_pattern(kind, number)
            hits = [i for i, page in enumerate(self.doc.pages) if rx.search(page.text)]
            for i in hits[:1] if kind != "appendix" else hits[:3]:
                boost[i] += CAPTION_WEIGHT
        return boost


def _worded(heading: str) -> bool:
    """Whether a heading OCR found holds two words (of two letters or more). OCR knows no bold and sizes each
    word on its own, so a lone word it sizes large is as often a table's column header ("Year"), a row label
    ("Receivables") or a logo's letters ("GODFREY", "INDIA") as a title: on a page OCR read, such a heading
    does not count in the ranker's heading evidence (the tree keeps it). On 10 eval documents scanned at
    200 dpi, page hit@3 0.846 -> 0.877 with this (0.908 on the originals); at 150 dpi 0.815 either way."""
    return len(_WORDED.findall(heading)) >= 2


_WORDED = re.compile(r"[A-Za-z]{2,}")


def _bm25(token_lists: list[list[str]]) -> bm25s.BM25 | None:
    if not any(token_lists):
        return None
    retriever = bm25s.BM25()
    retriever.index([t or [""] for t in token_lists], show_progress=False)
    return retriever
