"""Extractive summaries of a section tree: a node's best sentences and its key terms.

Every page is tokenised once (:class:`PageTerms`); a node's key-term counts are its
children's counts added up (a leaf adds up its pages), so no section's text is
tokenised again. Pure functions on text; pages are 1-based.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice, repeat

import numpy as np

from ..models import Page, Section
from .headings import not_a_heading
from ..lang.text import STOPWORDS, numeric_share, pieces, shorten, stems, words

_LEADERS = re.compile(r"\.\s?\.\s?\.|_{3,}|…")  # dot leaders of a table of contents, form blanks
_LOWER_WORD = re.compile(r"(?<!\S)[a-z]")
_NOT_LETTER = re.compile(r"[\W\d_]+")
_NUMBERISH = re.compile(r"^[\s$€£(\-–—]*\d")  # a line that starts with a figure
_ROW = re.compile(r"^([A-Za-z][^\d$€£|]{2,60}?)[\s:]*(?:[$€£(]?\s*\d[\d,.]*\)?%?\s*){2,}$")  # "Cost of sales 19,372 18,795"


def is_prose(sentence: str) -> bool:
    """A sentence a person would read as one: 6+ words, 40-400 characters, mostly letters,
    few figures (a table row such as "Entertainment, retail and other 1,438,823 769,688" is
    not), no dot leaders, and at least a few lower-case words (not a run of headings)."""
    if not 40 <= len(sentence) <= 400:
        return False
    tokens = sentence.split()
    if len(tokens) < 6 or len(_LOWER_WORD.findall(sentence)) < max(2, len(tokens) // 4):
        return False
    if _LEADERS.search(sentence) or numeric_share(sentence, len(tokens)) > 0.2:
        return False
    return len(_NOT_LETTER.sub("", sentence)) >= 0.65 * (len(sentence) - len(tokens) + 1)


def row_labels(text: str, k: int) -> list[str]:
    """Up to ``k`` distinct labels of table rows in ``text``: short lettered lines (or line
    starts) followed by a figure, e.g. "Net sales" in "Net sales $ 34,229"."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    found: list[str] = []
    for i, line in enumerate(lines):
        m = _ROW.match(line)
        if m:
            label = m.group(1)
        elif len(line) <= 60 and _NUMBERISH.match(" ".join(lines[i + 1:i + 3])):
            label = line
        else:
            continue
        label = label.strip(" .:,$")
        if not_a_heading(line):
            continue  # a column header ("Year Ended December 31,") or a unit
        if len(label.split()) >= 1 and sum(ch.isalpha() for ch in label) >= 4 and label not in found \
                and not re.search(r"\d", label):
            found.append(label)
            if len(found) == k:
                break
    return found


@dataclass(frozen=True)
class PageTerms:
    """Word statistics of a document's pages, each page tokenised once.

    ``idf``: word -> log(1 + pages / pages using it), for ranking sentences;
    ``counts[i]``: key-term counts of page i + 1 (a key term is the stem of a word of
    4+ letters); ``term_idf``: the same idf for key terms; ``shown``: key term -> the
    word first seen for it; ``sentences[i]``: page i + 1's sentences of prose length (40-400
    characters), each with its words that are not stopwords (whether one is prose, :func:`is_prose`,
    is asked only of the few a summary could quote: :meth:`prose`); ``search[i]``: page
    i + 1's search-term counts, as :func:`alphasearch.lang.text.terms` counts them (the
    folder's page index is built from these; empty when not asked for)."""

    idf: dict[str, float]
    counts: tuple[Counter[str], ...]
    term_idf: dict[str, float]
    shown: dict[str, str]
    sentences: tuple[tuple[tuple[str, list[str]], ...], ...]
    search: tuple[Counter[str], ...] = ()
    _prose: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)  # is_prose, remembered

    def prose(self, sentence: str) -> bool:
        """:func:`is_prose` of ``sentence``, remembered."""
        known = self._prose.get(sentence)
        if known is None:
            known = self._prose[sentence] = is_prose(sentence)
        return known

    @classmethod
    def of(cls, pages: Sequence[Page], *, search: bool = True) -> "PageTerms":
        """The statistics of ``pages``; ``search``: also each page's search-term counts."""
        df: Counter[str] = Counter()
        term_df: Counter[str] = Counter()
        counts: list[Counter[str]] = []
        searched: list[Counter[str]] = []
        shown: dict[str, str] = {}
        sents = []
        term_of: dict[str, str] = {}  # word -> its search term ("" for a stopword)
        key_of: dict[str, str] = {}  # word -> its key term, or "" when it is not a key word
        for page in pages:
            # each sentence tokenised once: its words are the page's words (white space alone
            # separates sentences), and a prose sentence keeps its own (see text.sentences)
            found: list[str] = []
            candidates = []
            for piece in pieces(page.text):
                piece_words = words(piece)
                found += piece_words
                if len(piece) < 40:  # too short for prose however its white space is counted
                    continue
                sentence = " ".join(piece.split())
                if 40 <= len(sentence) <= 400:  # prose length (is_prose)
                    candidates.append((sentence, [w for w in piece_words if w not in STOPWORDS]))
            distinct = dict.fromkeys(found)  # in reading order
            new = [w for w in distinct if w not in term_of]
            if new:
                searchable = [w for w in new if w not in STOPWORDS]
                term_of.update(dict.fromkeys(new, ""))
                term_of.update(zip(searchable, stems(searchable)))
                for word in new:
                    stem = key_of[word] = term_of[word] if len(word) >= 4 and word.isalpha() else ""
                    if stem and stem not in shown:
                        shown[stem] = word
            df.update(distinct.keys())
            # counted in C: each word mapped to its term, then the "" of words that are none dropped
            count = Counter(map(key_of.__getitem__, found))
            count.pop("", None)
            counts.append(count)
            term_df.update(count.keys())
            if search:
                terms_here = Counter(map(term_of.__getitem__, found))
                terms_here.pop("", None)
                searched.append(terms_here)
            sents.append(tuple(candidates))
        n = max(1, len(pages))
        return cls(_idf(df, n), tuple(counts), _idf(term_df, n), shown, tuple(sents), tuple(searched))

    def neighbours(self, start: int, end: int) -> list[float]:
        """How alike each page of ``start``..``end`` - 1 is to the next (1-based): the cosine of their
        key-term vectors, each term weighted (1 + log count) × idf; 0 beside a page without key terms."""
        vectors = []
        for counts in self.counts[start - 1:end]:
            v = {t: (1.0 + math.log(c)) * self.term_idf[t] for t, c in counts.items()}
            vectors.append((v, math.sqrt(sum(x * x for x in v.values()))))
        out = []
        for (a, norm_a), (b, norm_b) in zip(vectors, vectors[1:]):
            if len(a) > len(b):
                a, b = b, a
            dot = sum(x * b.get(t, 0.0) for t, x in a.items())
            out.append(dot / (norm_a * norm_b) if norm_a and norm_b else 0.0)
        return out

    @cached_property
    def _rows(self) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The key-term counts as a pages x terms matrix in compressed rows: (terms, their idf,
        row starts, columns, counts); page i's counts are columns/counts[starts[i]:starts[i + 1]]."""
        terms = tuple(self.term_idf)
        column = {t: i for i, t in enumerate(terms)}
        sizes = [len(c) for c in self.counts]
        columns = np.fromiter((column[t] for c in self.counts for t in c), np.intp, sum(sizes))
        counts = np.fromiter((n for c in self.counts for n in c.values()), np.float64, sum(sizes))
        starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.intp)))
        return terms, np.fromiter(self.term_idf.values(), np.float64, len(terms)), starts, columns, counts

    def page_counts(self, first: int, last: int) -> np.ndarray:
        """The key-term counts of pages ``first``..``last`` (1-based) added up, one entry per term
        (a vector for :meth:`key_terms`; vectors of several ranges add up)."""
        terms, _, starts, columns, counts = self._rows
        a, b = starts[first - 1], starts[last]
        # float even for pages without key terms (numpy counts an empty range in integers, and a node's counts
        # add its children's up in place)
        return np.bincount(columns[a:b], weights=counts[a:b], minlength=len(terms)).astype(np.float64, copy=False)

    def key_terms(self, counts: np.ndarray, k: int) -> list[str]:
        """The ``k`` terms of ``counts`` (:meth:`page_counts`) with the highest count x idf, as words
        (equal scores: the term later in sort order first)."""
        terms, idf, *_ = self._rows
        held = np.flatnonzero(counts)
        scores = counts[held] * idf[held]
        if len(held) > k:  # only terms scoring at least the k-th best score can be among the best
            keep = scores >= np.partition(scores, len(scores) - k)[len(scores) - k]
            held, scores = held[keep], scores[keep]
        best = sorted(zip(scores.tolist(), [terms[i] for i in held]), reverse=True)[:k]
        return [self.shown[t] for _, t in best]


def _idf(df: Counter[str], n: int) -> dict[str, float]:
    """word -> log(1 + n / pages using it), in ``df``'s order: the logarithm taken once per distinct
    count (a few hundred), not per word (~540,000 over the 74 eval PDFs), and the dict made in C."""
    logs = {c: math.log(1 + n / c) for c in set(df.values())}
    return dict(zip(df, map(logs.__getitem__, df.values())))


def summarise(root: Section, pages: Sequence[Page], stats: PageTerms | None = None) -> Section:
    """The tree with extractive summaries: a leaf (or a node of ≤ 3 pages) shows its two most
    informative sentences, a larger node the titles it covers; every node adds its key terms."""
    stats = stats or PageTerms.of(pages)
    return _summarised(root, pages, stats)[0]


def _summarised(node: Section, pages: Sequence[Page], stats: PageTerms) -> tuple[Section, np.ndarray]:
    """:func:`summarise` of ``node``, and its key-term counts (:meth:`PageTerms.page_counts`: a leaf's pages,
    a node's children's added up). A function of its own, not a closure: a closure that calls itself is a
    reference cycle, which kept each document's statistics alive until the garbage collector's next pass."""
    made = [_summarised(c, pages, stats) for c in node.children]
    kids = tuple(k for k, _ in made)
    if made:
        counts = made[0][1].copy()
        for _, c in made[1:]:
            counts += c
    else:
        counts = stats.page_counts(*node.pages)
    parts = []
    if node.is_leaf or len(node.page_numbers) <= 3:
        found = [pair for p in node.page_numbers for pair in stats.sentences[p - 1]]
        best = top_sentences(found, stats.idf, 2, stats.prose)
        if best:
            parts.extend(best)
        else:  # no prose: a table or a figure; say what its rows are
            labels = row_labels("\n".join(pages[p - 1].text for p in node.page_numbers), 6)
            if labels:
                parts.append("Figures for: " + "; ".join(shorten(x, 40) for x in labels) + ".")
    else:
        parts.append("Covers: " + "; ".join(shorten(k.title, 50) for k in kids[:8]) + ".")
    keys = stats.key_terms(counts, 8)
    if keys:
        parts.append("Key terms: " + ", ".join(keys) + ".")
    summary = shorten(" ".join(parts), 600)
    return Section(node.node_id, node.title, node.pages, summary, kids, node.level, node.source), counts


def top_sentences(found: Sequence[tuple[str, list[str]]], idf: dict[str, float], k: int,
                  prose: Callable[[str], bool] | None = None) -> list[str]:
    """The ``k`` sentences (of the first 300, each with its terms) with the most idf
    per √length, in reading order. ``prose``: only sentences it accepts count (asked of the
    best first, so of few when most are prose, and of every one only when there are more than
    300 to choose the first 300 from)."""
    if prose is not None and len(found) > 300:
        found, prose = [pair for pair in found if prose(pair[0])], None
    scored = []
    seen: set[str] = set()
    for i, (s, toks) in enumerate(found[:300]):
        if len(toks) < 4 or s in seen:  # a repeated sentence has the same words and is prose or not alike
            continue
        seen.add(s)
        # fsum is exact, so the score does not depend on the order a set yields its words (which varies with
        # the process's hash seed): equal scores tie alike in every process
        score = math.fsum(map(idf.get, set(toks), repeat(0.0))) / math.sqrt(len(toks))
        scored.append((score, i, s))
    scored.sort(reverse=True)
    best = scored[:k] if prose is None else list(islice((x for x in scored if prose(x[2])), k))
    return [shorten(s, 240) for _, _, s in sorted(best, key=lambda x: x[1])]


def document_summary(root: Section, pages: Sequence[Page], title: str, stats: PageTerms | None = None) -> str:
    """The document in a few lines: title, lead sentences, top-level sections, key terms."""
    stats = stats or PageTerms.of(pages)
    total = stats.page_counts(1, len(stats.counts)) if stats.counts else np.zeros(0)
    heads = "; ".join(shorten(c.title, 50) for c in root.children[:12])
    keys = ", ".join(stats.key_terms(total, 15))
    lead = " ".join(top_sentences([pair for found in stats.sentences[:3] for pair in found], stats.idf, 2, stats.prose))
    return shorten(f"{title}. {lead} Sections: {heads}. Key terms: {keys}.", 1200)
