"""Document facts: who a document is about, which period it covers, what kind it is, its title.

Read offline from an index's first pages and its metadata title, with the patterns
of ``data/facts.json`` (no rule here knows a company or a file name). A question is
read with the same data: the organisations, years, quarters and kinds it names. Then
:func:`match` says, for each document, which of the named facts it has — the
``facts`` signal of Phase 0 and Phase 1 (:mod:`alphasearch.folder.router`).

Pure functions on text; no I/O apart from reading the pattern file once.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..lang import domain
from ..models import DocumentIndex

FIELDS = ("org", "year", "quarter", "period_end", "kind", "title")  # what a user may edit
FACTS_VERSION = 5  # bump when the extraction changes: stored facts are then read again (user edits kept)
FIRST_PAGES = 3
FORMS = ("10-K", "10-Q", "8-K", "20-F")  # the kinds that are SEC forms, named on their cover page
# how much each fact named by a question counts in the facts signal (units: share of the named facts)
# (a company named is more telling than a year: many documents share a year, few a company)
COMPONENT_WEIGHTS = {"org": 1.5, "year": 1.0, "kind": 0.75, "quarter": 0.5, "latest": 2.0, "ended": 2.0}
OTHER_NAME_FIT = 0.75  # year fit of an off-calendar fiscal year asked about by the calendar year it mostly lies in


@lru_cache(maxsize=1)
def patterns() -> dict[str, Any]:
    return domain.load("facts")


@lru_cache(maxsize=512)
def _re(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(pattern, flags)


@dataclass(frozen=True)
class DocFacts:
    """What a document is. ``year``: the fiscal year it covers (the year its period ends,
    or the year the document itself names for a fiscal year ending early in the next
    one); ``quarter`` 1-4; ``period_end`` an ISO date; ``kind`` one of ``facts.json``'s
    kinds or what the user typed; ``edited``: the fields a user set (kept when the
    facts are read again). ``landscape``: the share of its pages that are slide-shaped
    (wider than tall); ``pictures``: the mean share of a page covered by images (both
    from the PDF, :func:`alphasearch.pdf.page_layout`; None until read)."""

    org: str = ""
    year: int | None = None
    quarter: int | None = None
    period_end: str = ""
    kind: str = ""
    title: str = ""
    tickers: tuple[str, ...] = ()
    edited: tuple[str, ...] = ()
    landscape: float | None = None
    pictures: float | None = None

    def label(self) -> str:
        """A short name: "3M Company · 10-K · FY2018" (empty when nothing is known)."""
        period = ""
        if self.year:
            period = f"Q{self.quarter} FY{self.year}" if self.quarter else f"FY{self.year}"
        return " · ".join(x for x in (self.org, self.kind, period) if x)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tickers"], d["edited"] = list(self.tickers), list(self.edited)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DocFacts:
        def share(v: Any) -> float | None:
            try:
                return None if v is None else min(1.0, max(0.0, float(v)))
            except (TypeError, ValueError):
                return None

        def num(v: Any) -> int | None:
            try:
                return int(v) if v not in (None, "") else None
            except (TypeError, ValueError):
                return None

        return cls(org=str(d.get("org") or ""), year=num(d.get("year")), quarter=num(d.get("quarter")),
                   period_end=str(d.get("period_end") or ""), kind=str(d.get("kind") or ""),
                   title=str(d.get("title") or ""), tickers=tuple(map(str, d.get("tickers") or ())),
                   edited=tuple(f for f in d.get("edited") or () if f in FIELDS),
                   landscape=share(d.get("landscape")), pictures=share(d.get("pictures")))

    def edit(self, **changes: Any) -> DocFacts:
        """These facts with the user's ``changes`` (field → value; '' or None clears it).
        Raises ValueError for an unknown field or a year/quarter out of range."""
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise ValueError(f"Unknown fact {sorted(unknown)[0]!r}; choose one of {', '.join(FIELDS)}.")
        clean: dict[str, Any] = {}
        for k, v in changes.items():
            if k in ("year", "quarter"):
                try:
                    v = None if v in (None, "") else int(v)
                except (TypeError, ValueError):
                    raise ValueError(f"The {k} must be a whole number, e.g. {2018 if k == 'year' else 2}.") from None
                lo, hi = (1900, 2100) if k == "year" else (1, 4)
                if v is not None and not lo <= v <= hi:
                    raise ValueError(f"The {k} must be between {lo} and {hi}.")
            else:
                v = " ".join(str(v or "").split())[:200]
            clean[k] = v
        return replace(self, **clean, edited=tuple(sorted(set(self.edited) | set(clean))))

    def with_layout(self, layout: tuple[float, float]) -> DocFacts:
        """These facts with the page layout read from the PDF: (landscape share, picture share)."""
        return replace(self, landscape=float(layout[0]), pictures=float(layout[1]))

    def slides(self) -> bool:
        """Mostly slide-shaped pages and no other kind known: taken for ``layout.landscape_kind``."""
        return not self.kind and (self.landscape or 0.0) >= float(patterns()["layout"]["landscape_share"])

    def merged(self, user: DocFacts) -> DocFacts:
        """These (extracted) facts with the fields the user edited in ``user`` on top."""
        return replace(self, **{f: getattr(user, f) for f in user.edited}, edited=user.edited)


# --- reading a document ---------------------------------------------------------------------
_SPACE = re.compile(r"\s+")
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")


def extract(index: DocumentIndex, pages: int = FIRST_PAGES) -> DocFacts:
    """The facts of an indexed document, from its metadata title and first ``pages`` pages, or from its SEC cover
    page and the pages after it when the first pages print none and a later page is one (:func:`cover_page`)."""
    meta = index.root.title if index.root.title and index.root.title != "Document" else ""
    start = cover_page([p.text for p in index.pages[:patterns()["cover"]["pages"]]], pages)
    texts = [p.text for p in index.pages[start:start + pages]]
    headings = list(index.pages[start].headings) if index.pages else []
    return extract_text(texts, meta_title=meta, headings=headings)


def cover_page(texts: Sequence[str], first: int = FIRST_PAGES) -> int:
    """Where a filing's facts are printed (0-based): 0, unless none of the ``first`` pages is an SEC cover page
    (``cover`` of data/facts.json) and one of the next pages is: an annual report that opens with a letter and
    photographs before its Form 10-K ("2022 ANNUAL REPORT ON FORM 10-K", the cover on page 7)."""
    cover = patterns()["cover"]
    rx = _re(cover["re"], 0)  # case matters: the cover sets the Commission's name in capitals
    found = [i for i, text in enumerate(texts[:cover["pages"]]) if rx.search(text)]
    return found[0] if found and found[0] >= first else 0


def extract_text(texts: Sequence[str], *, meta_title: str = "", headings: Sequence[str] = ()) -> DocFacts:
    """The facts of a document given its first pages' texts (1 string per page), its
    metadata title and its first page's heading lines."""
    p = patterns()
    flat = _SPACE.sub(" ", " \n ".join(texts))
    head = f"{meta_title} \n {flat}"
    kind = _kind(head, p["kinds"])
    end, period_kind = _period(texts, p["periods"]["patterns"])
    year = end[0] if end else None
    fiscal = [int(m.group("year")) for m in _re(p["periods"]["fiscal_year"]).finditer(head[:6000])]
    if end and end[1] == 1 and end[2] <= 7:  # a 52/53-week year ending in early January belongs to the year before
        year = end[0] - 1
    elif end and (end[1] <= 6 or period_kind == "quarter"):  # the document may name its fiscal year itself
        named = [y for y in fiscal if y in (end[0], end[0] + 1)]
        if named:
            year = Counter(named).most_common(1)[0][0]
    if year is None and fiscal:
        year = Counter(fiscal[:5]).most_common(1)[0][0]
    opening = f"{meta_title} \n " + " ".join([ln for ln in texts[0].splitlines() if ln.strip()][:4]) if texts else \
        meta_title
    if year is None and kind in ("earnings release", "annual report", *FORMS):
        found = _YEAR.findall(opening)
        year = int(found[0]) if found else None
    quarter = None
    if kind in ("10-Q", "earnings release") or period_kind == "quarter":
        m = _re(p["periods"]["quarter"]).search(f"{meta_title} \n {flat[:800]}")
        if m:
            quarter = (["first", "second", "third", "fourth"].index(m.group("word").lower()) + 1 if m.group("word")
                       else int(m.group("q1") or m.group("q2")))
    lines = [ln.strip() for t in texts[:2] for ln in t.splitlines() if ln.strip()]
    return DocFacts(org=_org(lines, meta_title, p["organisation"]), year=year, quarter=quarter,
                    period_end="%04d-%02d-%02d" % end if end else "", kind=kind,
                    title=_title(meta_title, headings, lines, p["titles"]["junk"]),
                    tickers=_tickers(lines, meta_title, p["organisation"]["not_tickers"]))


def names_form(title: str) -> bool:
    """Whether a (metadata) title names an SEC form: "Form 10-K for Pepsico INC", "LMT Q4 2022 10K"."""
    return _kind(title, patterns()["kinds"]) in FORMS


def _kind(text: str, kinds: dict[str, list[str]]) -> str:
    best: tuple[int, int, str] | None = None
    for order, (kind, pats) in enumerate((k, v) for k, v in kinds.items() if not k.startswith("_")):
        for pat in pats:
            flags = 0 if pat.startswith("(?:^|\\s)") else re.IGNORECASE  # bare form names: upper case only
            m = _re(pat, flags).search(text[:20000])
            if m and (best is None or (m.start(), order) < best[:2]):
                best = (m.start(), order, kind)
    return best[2] if best else ""


def _period(texts: Sequence[str], pats: list[dict[str, str]]) -> tuple[tuple[int, int, int] | None, str]:
    for text in texts:
        flat = _SPACE.sub(" ", text)
        for pat in pats:
            m = _re(pat["re"]).search(flat)
            if m:
                d = parse_date(m.group("date"))
                if d:
                    return d, pat["kind"]
    return None, ""


def parse_date(text: str) -> tuple[int, int, int] | None:
    """The first date in ``text`` as (year, month, day); day 0 when only a month is given."""
    months = patterns()["months"]
    mon = "(" + "|".join(m[:3] + r"[a-z]*\.?" for m in months) + ")"
    t = text.lower()
    for rx, order in ((mon + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", "mdy"),
                      (r"(\d{1,2})(?:st|nd|rd|th)?\s+" + mon + r",?\s+(\d{4})", "dmy"),
                      (r"(\d{4})-(\d{2})-(\d{2})", "ymd"), (r"(\d{1,2})/(\d{1,2})/(\d{4})", "MDY"),
                      (mon + r",?\s+(\d{4})", "my")):
        m = _re(rx).search(t)
        if not m:
            continue
        g = m.groups()
        try:
            if order == "mdy":
                y, mo, d = int(g[2]), _month(g[0], months), int(g[1])
            elif order == "dmy":
                y, mo, d = int(g[2]), _month(g[1], months), int(g[0])
            elif order == "ymd":
                y, mo, d = int(g[0]), int(g[1]), int(g[2])
            elif order == "MDY":
                y, mo, d = int(g[2]), int(g[0]), int(g[1])
            else:
                y, mo, d = int(g[1]), _month(g[0], months), 0
        except ValueError:
            continue
        if 1900 <= y <= 2100 and 1 <= mo <= 12 and 0 <= d <= 31:
            return y, mo, d
    return None


def _month(word: str, months: list[str]) -> int:
    return next(i + 1 for i, m in enumerate(months) if m.startswith(word.rstrip(".")[:3]))


def _org(lines: list[str], meta_title: str, p: dict[str, Any]) -> str:
    def ok(line: str) -> bool:
        return 1 < len(line) <= 80 and not any(_re(x).search(line) for x in p["not_names"])

    for i, line in enumerate(lines[:120]):
        if any(_re(x).search(line) for x in p["above"]):
            for prev in reversed(lines[max(0, i - 3):i]):
                if ok(prev):
                    return _tidy(prev)
    for pat in p["title"]:
        m = _re(pat).search(meta_title)
        if m and ok(m.group("org")):
            return _tidy(m.group("org"))
    for i, line in enumerate(lines[:60]):
        if any(_re(x).search(line) for x in p["after"]) and i + 1 < len(lines) and ok(lines[i + 1]) \
                and _has_suffix(lines[i + 1], p["suffixes"]):
            return _tidy(lines[i + 1])
    for line in lines[:3]:
        m = _re(p["headline"], 0).search(line)
        if m and ok(m.group("org")):
            return _tidy(m.group("org"))
    for line in lines[:40]:
        if ok(line) and len(line.split()) <= 6 and _has_suffix(line, p["suffixes"]) and line[:1].isupper():
            return _tidy(line)
    return ""


def _has_suffix(line: str, suffixes: list[str]) -> bool:
    words = line.lower().replace(",", " ").split()
    return bool(words) and words[-1] in suffixes and len(words) >= 2


def _tidy(name: str) -> str:
    name = " ".join(name.split()).strip(" ,;:")
    return name.title() if name.isupper() and len(name) > 4 else name


def _title(meta: str, headings: Sequence[str], lines: list[str], junk: list[str]) -> str:
    if meta and len(meta) >= 4 and not any(_re(x).search(meta.strip()) for x in junk):
        return " ".join(meta.split())[:150]
    for h in list(headings) + lines[:5]:
        h = " ".join(h.split())
        if sum(c.isalpha() for c in h) >= 4:
            return h[:150]
    return ""


def _tickers(lines: list[str], meta_title: str, not_tickers: list[str]) -> tuple[str, ...]:
    """Trading symbols: upper-case words under "Trading Symbol" on a filing's cover, an upper-case
    word of the metadata title ("ADBE 10K FY15"), or "(NYSE: XYZ)" in a press release."""
    out: list[str] = []
    for i, line in enumerate(lines[:150]):
        if _re(r"^trading\s+symbol").search(line):
            out += [nxt for nxt in lines[i + 1:i + 16] if re.fullmatch(r"[A-Z]{2,5}", nxt)]
            break
    out += re.findall(r"\b[A-Z]{2,5}\b", meta_title)
    out += re.findall(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE American)\s*:\s*([A-Z]{2,5})\)", " ".join(lines[:60]))
    return tuple(dict.fromkeys(t for t in out if t not in not_tickers))[:3]


# --- reading a question ---------------------------------------------------------------------
@dataclass(frozen=True)
class QuestionFacts:
    """The facts a question names: ``years`` (fiscal years, or any year it mentions),
    ``quarter`` 1-4, ``kinds``; ``demonstrative``: it says "this paper", "the report"…,
    so it assumes one document; ``pictures``: it asks what pages show (an image, a colour, the
    cover). Organisations are matched per document (:func:`org_named`)."""

    text: str
    years: tuple[int, ...] = ()
    quarter: int | None = None
    kinds: tuple[str, ...] = ()
    demonstrative: bool = False
    words: tuple[str, ...] = field(default=(), repr=False)
    pictures: bool = False


def _norm_words(text: str) -> list[str]:
    text = re.sub(r"['’]s\b", "", text.lower())
    return re.sub(r"[^a-z0-9]+", " ", text).split()


def read_question(question: str) -> QuestionFacts:
    p = patterns()
    q = question.lower()
    years: list[int] = []
    for m in _re(p["question"]["fiscal_year"]).finditer(q):
        y = int(m.group("year"))
        years.append(y + 2000 if y < 100 else y)
    years += [int(m.group("year")) for m in _re(p["question"]["year"]).finditer(q)]
    quarter = None
    m = _re(p["periods"]["quarter"]).search(question)
    if m:
        quarter = (["first", "second", "third", "fourth"].index(m.group("word").lower()) + 1 if m.group("word")
                   else int(m.group("q1") or m.group("q2")))
    padded = " " + " ".join(re.sub(r"[^a-z0-9-]+", " ", q).split()) + " "
    kinds = tuple(k for k, ws in p["kind_words"].items() if not k.startswith("_")
                  and any(f" {w} " in padded for w in ws))
    return QuestionFacts(question, tuple(dict.fromkeys(years)), quarter, kinds,
                         bool(_re(p["question"]["demonstrative"]).search(q)), tuple(_norm_words(question)),
                         bool(_re(p["question"]["pictures"]).search(q)))


def org_words(org: str) -> list[str]:
    """The words that name an organisation: its name without legal suffixes ("Inc.", "Corporation")."""
    return list(_org_words(org))


@lru_cache(maxsize=65536)  # a folder question matches every document's organisation: normalise each once
def _org_words(org: str) -> tuple[str, ...]:
    suffixes = {s.rstrip(".") for s in patterns()["organisation"]["suffixes"]}
    words = [w for w in _norm_words(org.replace("&", " and ")) if w not in suffixes]
    while words and words[-1] == "and":
        words.pop()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return tuple(words)


def org_named(q: QuestionFacts, facts: DocFacts) -> bool:
    """Whether the question names the document's organisation (its words in order, the words
    or its first ones run together — "Walmart" for "Wal-Mart Stores" —, a trading symbol in capitals, or the
    initials of a name of three words or more in capitals)."""
    for t in facts.tickers:  # in capitals ("ADBE"), or with at least two ("JnJ" for JNJ)
        if re.search(rf"\b{re.escape(t)}\b", q.text) or any(
                w.upper() == t and sum(c.isupper() for c in w) >= 2 for w in re.findall(r"\w+", q.text)):
            return True
    words = org_words(facts.org)
    if not words:
        return False
    qw = list(q.words)
    n = len(words)
    if any(qw[i:i + n] == words for i in range(len(qw) - n + 1)):
        return True
    if any(len(j) >= 5 and j in qw for j in ("".join(words[:k]) for k in range(n, 1, -1))):
        return True
    if n >= 3 and re.search(r"\b" + "".join(w[0] for w in words).upper() + r"\b", q.text):
        return True  # its initials in capitals: "AMD" for Advanced Micro Devices, "IBM"
    first = words[0]  # "Lockheed" for Lockheed Martin Corporation; "General" only when written as a name
    if n < 2 or len(first) < 5:
        return False
    if first in patterns()["organisation"]["generic_words"]:
        return bool(re.search(rf"\b{re.escape(first.capitalize())}\b", q.text))
    return first in qw


def fiscal_years(f: DocFacts) -> set[int]:
    """The years a question may call the document's fiscal year: the year it names (only that one
    when a user set it); for a fiscal year ending in the first half of a calendar year, the
    calendar year it ends in too (companies and analysts name such years either way); for a
    quarterly report, the years in which its fiscal year may end (0-9 months after the quarter)."""
    out = {f.year} if f.year else set()
    if not f.period_end or "year" in f.edited:
        return out
    y, m, d = int(f.period_end[:4]), int(f.period_end[5:7]), int(f.period_end[8:10])
    if f.kind == "10-Q":
        out |= {y, y + 1} if m >= 4 else {y}
    elif f.kind != "8-K" and m <= 6 and not (m == 1 and d <= 7) and f.year in (y, y - 1):
        out |= {y, y - 1}
    return out


@dataclass(frozen=True)
class FactMatch:
    """How well each document's facts fit a question. ``scores``: per document in [0, 1]
    (the weighted share of the named facts it has; 0 everywhere when the question names
    none that any document has); ``named``: the facts the question names that some
    document has; ``matched``: per document, the named facts it has."""

    scores: tuple[float, ...]
    named: tuple[str, ...]
    matched: tuple[tuple[str, ...], ...]
    note: str = ""  # how the question's period was read, when that was a choice (index/periods.py)

    @property
    def any(self) -> bool:
        return bool(self.named)


def match(question: str | QuestionFacts, docs: Sequence[DocFacts | None]) -> FactMatch:
    """Which of the facts the question names each document has (:func:`components`, weighed by
    ``COMPONENT_WEIGHTS``). The folder search reads periods further (:func:`alphasearch.index.periods.match`)."""
    q = read_question(question) if isinstance(question, str) else question
    return combine(components(q, docs), len(docs))


def components(q: QuestionFacts, docs: Sequence[DocFacts | None]) -> dict[str, list[float]]:
    """Per fact the question names that some document has, its fit per document in [0, 1]. A year fits
    in grades: the year the document calls its own 1, the other name of an off-calendar fiscal year
    ``OTHER_NAME_FIT``, a quarterly report for a question naming no quarter ½, a later filing that
    restates it ½; the year counts when some document holds it, and the best fit there is counts in full."""
    per: dict[str, list[float]] = {}
    orgs = [1.0 if f is not None and org_named(q, f) else 0.0 for f in docs]
    if any(orgs):
        per["org"] = orgs
    if q.years:
        top = max(q.years)

        quarterly = set(patterns()["periods"]["quarter_only_kinds"])

        def year_fit(f: DocFacts | None) -> float:
            if f is None or f.year is None:
                return 0.0
            if top in fiscal_years(f):
                if f.kind in quarterly:  # a year without a quarter is a whole year: a quarter holds part of it
                    return 1.0 if q.quarter else 0.5
                # the year the document calls its own fits best; the other name of an off-calendar year less
                return 1.0 if top == f.year else OTHER_NAME_FIT
            # a filing of the next two years restates the year asked about; one named year among several
            return 0.5 if f.year in q.years or top < f.year <= top + 2 else 0.0

        ys = [year_fit(f) for f in docs]
        if any(f is not None and f.year is not None and top in fiscal_years(f) for f in docs):
            best = max(ys)  # the best fit there is counts in full
            per["year"] = [y / best for y in ys]
    if q.kinds:
        slides = patterns()["layout"]["landscape_kind"] in q.kinds  # a deck without a text layer has no kind
        ks = [1.0 if f is not None and (f.kind in q.kinds or (slides and f.slides())) else 0.0 for f in docs]
        if any(ks):
            per["kind"] = ks
    if q.quarter:
        # a document whose quarter is unknown (a 10-Q of a non-calendar fiscal year) neither fits nor misfits
        qs = [0.0 if f is None or (f.quarter and f.quarter != q.quarter) else 1.0 if f.quarter else 0.5
              for f in docs]
        if any(x == 1.0 for x in qs):
            per["quarter"] = qs
    return per


def combine(per: dict[str, list[float]], n: int, note: str = "") -> FactMatch:
    """The :class:`FactMatch` of ``n`` documents from the fits of :func:`components`."""
    named = tuple(per)
    total = sum(COMPONENT_WEIGHTS[c] for c in named)
    scores = tuple(sum(COMPONENT_WEIGHTS[c] * per[c][i] for c in named) / total if total else 0.0
                   for i in range(n))
    matched = tuple(tuple(c for c in named if per[c][i] >= 1.0) for i in range(n))
    return FactMatch(scores, named, matched, note)


def picture_fit(question: str | QuestionFacts, docs: Sequence[DocFacts | None]) -> tuple[float, ...] | None:
    """For a question about what pages show, per document in [0, 1]: how much its pages carry
    pictures (1 from ``layout.picture_share`` of a page's area on average); None when the question
    asks no such thing or no document has pictures."""
    q = read_question(question) if isinstance(question, str) else question
    if not q.pictures:
        return None
    full = float(patterns()["layout"]["picture_share"])
    fit = tuple(min(1.0, (f.pictures or 0.0) / full) if f is not None else 0.0 for f in docs)
    return fit if any(fit) else None


__all__ = ["DocFacts", "FactMatch", "QuestionFacts", "FACTS_VERSION", "FIELDS", "combine", "components", "extract",
           "extract_text", "match",
           "org_named", "org_words", "parse_date", "picture_fit", "read_question"]
