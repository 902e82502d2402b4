"""What a question asks, read from its words: formatting instructions left out, a figure wanted,
the lexicon's asks (a phone number, an explanation), the statements it needs, the pages, figures and
pictures it names.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from . import domain
from .text import STOPWORDS


# --- question analysis ---------------------------------------------------------------------
@lru_cache(maxsize=1)
def _question_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(formatting instructions, cues of a figure question) from data/questions.json."""
    words = domain.load("questions")
    instruction = re.compile("(" + "|".join(words["instructions"]) + ")", re.IGNORECASE)
    numeric = re.compile(r"\b(" + "|".join(words["numeric_patterns"]) + "|" + domain.alternation(words["numeric_words"])
                         + r")\b", re.IGNORECASE)
    return instruction, numeric


@lru_cache(maxsize=1)
def _shorthand() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """(any case, capitals only, the words they stand for) from ``shorthand`` of data/questions.json."""
    words = domain.load("questions")
    table = {k.lower(): v for k, v in words["shorthand"].items()} | dict(words["shorthand_capitals"])

    def pattern(keys, flags=0) -> re.Pattern[str]:
        alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
        return re.compile(rf"(?<![\w&$/'-])(?:{alternatives})(?![\w&/'-])", flags)

    return pattern(words["shorthand"], re.IGNORECASE), pattern(words["shorthand_capitals"]), table


@lru_cache(maxsize=1)
def _jargon() -> tuple[re.Pattern[str], dict[str, str]]:
    """(whole words, any case; the words they stand for) from ``jargon`` of data/questions.json."""
    table = {k.lower(): v for k, v in domain.load("questions")["jargon"].items()}
    return re.compile(rf"\b(?:{domain.alternation(table)})\b", re.IGNORECASE), table


@lru_cache(maxsize=1)
def _phrasings() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, replacement) of ``phrasings`` in data/questions.json, any case."""
    return tuple((re.compile(p, re.IGNORECASE), r) for p, r in domain.load("questions")["phrasings"])


@lru_cache(maxsize=1)
def _part_named() -> re.Pattern[str]:
    """A part of the company named (``phrasings_unless``): its profit is not the company's net income."""
    return re.compile(domain.load("questions")["phrasings_unless"], re.IGNORECASE)


def spelled_out(question: str, pages: Callable[[], Iterable[str]] | None = None) -> str:
    """The question with an analyst's shorthand written out, whole words only ("COST FY21 total liabs, $mm?" →
    "COST FY21 total liabilities, $ millions?"; "LT debt" → "long-term debt", but not in a question written in
    capitals, where "IS" is a word); an analyst's way of asking an item without its name ("how much did X earn" →
    "… earn in net income"); an analyst's jargon even where the document prints it ("headcount" → "number of
    employees"), unless the question asks how much or why (then it is a cause or a cost's, as printed). A short
    form the document prints itself (``pages``: its pages' texts; a
    chart's "Avg. weekly hours") stays as the question wrote it. What the search, the reader and the model
    read; the question shown stays as typed."""
    anycase, capitals, table = _shorthand()
    printed: list[str] = []  # the document's text, read once and only when the question holds shorthand

    def written_out(m: re.Match, case: int) -> str:
        word = m.group(0)
        if pages is not None and not printed:
            printed.append("\n".join(pages()))
        if printed and re.search(rf"(?<!\w){re.escape(word)}(?!\w)", printed[0], case):
            return word
        return table[word.lower() if case else word]

    out = question
    for pattern, replacement in _phrasings():  # "how much did X earn" asks its net income (not a segment's)
        out = out if _part_named().search(question) else pattern.sub(replacement, out)
    if not (asks(question, "explanation") or asks(question, "money")):  # the item asked, not a cause or a cost's
        jargon, plain = _jargon()  # ("how much did personnel costs increase due to higher headcount")
        out = jargon.sub(lambda m: plain[m.group(0).lower()], out)  # "headcount" is "number of employees"
    out = anycase.sub(lambda m: written_out(m, re.IGNORECASE), out)
    if _LOWER_WORD.search(question):  # not a question written in capitals
        out = capitals.sub(lambda m: written_out(m, 0), out)
    return out


_LOWER_WORD = re.compile(r"\b[a-z]{3,}\b")


def clean_question(question: str) -> str:
    """The question without formatting instructions ("Round your answer…") and without the legal suffix of a
    company's name ("FedEx Corporation's" → "FedEx's")."""
    out = _question_patterns()[0].sub(" ", question)
    while (shorter := _name_suffix().sub(_named, out)) != out:  # "Best Buy Co., Inc."
        out = shorter
    return out


def _named(m: re.Match) -> str:  # the name without its suffix; "The Company", "Parent Company" are no name's
    word = m.group(1).lower()
    return m.group(0) if word in STOPWORDS or word in _kept_after() or word.endswith(("'s", "’s")) else m.group(1)


@lru_cache(maxsize=1)
def _kept_after() -> frozenset[str]:
    return frozenset(domain.load("questions")["name_suffix_kept_after"])


@lru_cache(maxsize=1)
def _name_suffix() -> re.Pattern[str]:
    """A legal suffix (``name_suffixes`` of data/questions.json, as written) ending a name: after a capitalised word
    holding a letter, before a possessive, a punctuation mark, the end or a lower-case word."""
    suffixes = "|".join(re.escape(s) for s in sorted(domain.load("questions")["name_suffixes"], key=len, reverse=True))
    return re.compile(rf"(\b[A-Z0-9][\w&.'’-]*[A-Za-z][\w&.'’-]*|\b[A-Z]) *,? +(?:{suffixes})(?![\w&-])"
                      rf"(?=['’]s\b|[,.?;:)!]|\s*$|\s+[a-z])")


@lru_cache(maxsize=1)
def _document_nouns() -> re.Pattern[str]:
    nouns = domain.alternation(domain.load("ranking")["document_nouns"])
    return re.compile(rf"\b(?:this|the|our|these)\s+(?:{nouns})\b", re.IGNORECASE)


def query_text(question: str) -> str:
    """What the page ranker searches for: the question without formatting instructions and without
    the words that name the document itself ("in this report", "the paper", "these slides"), which
    match pages that happen to say "report" or "paper" rather than the pages asked about."""
    return _document_nouns().sub(" ", clean_question(question))


def wants_number(question: str) -> bool:
    return bool(_question_patterns()[1].search(question))


def asks(question: str, what: str) -> bool:
    """The question's first sentence (its main ask: "Does X improve? If not, explain why." asks
    no explanation) uses one of the lexicon's words for ``what`` ("phone", "explanation")."""
    return first_sentence_says(question, domain.load("lexicon")["asks"][what])


def first_sentence(question: str) -> str:
    """The question's first sentence (its main ask; "Please answer in millions." and the like follow it)."""
    return re.split(r"(?<=[?.!])\s", question.strip(), maxsplit=1)[0]


def first_sentence_says(question: str, phrases: Sequence[str]) -> bool:
    """The question's first sentence holds one of ``phrases`` (lower-case words, whole words)."""
    low = " " + " ".join(re.findall(r"[a-z0-9']+", first_sentence(question).lower())) + " "
    return any(f" {w} " in low for w in phrases)
_STATEMENT_NEED = {
    "income": re.compile(
        r"income statement|statements? of (?:income|operations|earnings)|p&l|profit and loss|revenue|\bsales\b|"
        r"top line|net income|net earnings|net profit|earnings per share|\beps\b|operating (?:income|profit|margin)|"
        r"gross (?:margin|profit)|cost of (?:goods|sales|revenue)|\bcogs\b|interest expense|\bebitd?a?\b|"
        r"tax rate|income tax|r&d|research and development|sg&a|selling, general|operating expenses|"
        r"turnover|\bd[sip]o\b|days (?:sales|inventory|payable)|conversion cycle|return on|\bro[aec]e?\b|"
        r"coverage|margin", re.IGNORECASE),
    "balance": re.compile(
        r"balance sheet|statements? of financial (?:position|condition)|assets?\b|liabilit|equity|inventor|"
        r"receivable|payable|working capital|(?:current|quick|cash) ratio|\bdebt|goodwill|pp&?ne?\b|property,? plant|"
        r"fixed asset|capitali[sz]ation|book value|accrued|accrual|cash and (?:cash )?equivalents|capital employed|"
        r"leverage|turnover|\bd[sip]o\b|days (?:sales|inventory|payable)|conversion cycle|return on|\bro[aec]e?\b|"
        r"capital[- ]intensive", re.IGNORECASE),
    "cashflow": re.compile(
        r"cash ?flow|capex|capital expenditure|purchases? of property|dividends? paid|repurchas|buy ?back|"
        r"depreciation|amorti[sz]ation|d&a|\bebitda\b|capital[- ]intensive|cash (?:from|provided by|used in)",
        re.IGNORECASE),
}


@lru_cache(maxsize=1)
def _not_in_statements() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{domain.alternation(domain.load('ranking')['not_in_statements'])})\b", re.IGNORECASE)


def asks_detail(question: str) -> bool:
    """The question's first sentence asks how an item is recorded or what it is made of ("the
    components of cost of sales"; ``detail_asks`` of data/ranking.json), not for its total."""
    return first_sentence_says(question, domain.load("ranking")["detail_asks"])


def statements_needed(question: str) -> frozenset[str]:
    """The statements a question names or whose line items it needs; none when it asks for the
    reasons of a change ("What drove the operating margin change?": the statements give the
    figures, the discussion their causes), for an adjusted, non-GAAP measure (the statements
    do not print one), or how an item is recorded or what it is made of (the notes say;
    ``detail_asks``)."""
    if asks(question, "explanation") or _not_in_statements().search(question) or asks_detail(question):
        return frozenset()
    question = question.replace("_", " ")
    return frozenset(k for k, rx in _STATEMENT_NEED.items() if rx.search(question))


_PAGE_REF = re.compile(r"\b(?:pages?|slides?|pp?\.)\s*\(?\s*(\d{1,4})(?:\s*(?:and|&|-|–|to)\s*(\d{1,4}))?",
                       re.IGNORECASE)
# the cover as a thing ("on the cover", "the cover page"), not the verb ("what does the warranty cover?")
_COVER = re.compile(r"\b(?:(?:the|front) cover\b|cover (?:page|image|photo|picture)s?\b|front page|title page)",
                    re.IGNORECASE)
_LAST = re.compile(r"\b(?:(second|2nd)[- ](?:to[- ])?last|penultimate|last) (?:page|slide)\b"
                   r"|\b(?:page|slide) (?:at|on|in) (?:the )?(?:(second|2nd)[- ](?:to[- ])?last|penultimate|last)\b",
                   re.IGNORECASE)  # "the last page", "the page at the second last"
_FIGURE_REF = re.compile(r"\b(fig(?:ure)?|table)\.?\s*(\d{1,3})\b|\b(first|second|third) (figure|table)\b",
                         re.IGNORECASE)
_APPENDIX_REF = re.compile(r"\bappendix\s+([A-Z\d]{1,2})\b", re.IGNORECASE)
_ORDINAL = {"first": 1, "second": 2, "third": 3}


@lru_cache(maxsize=1)
def _page_words() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    """Pages named in words: ("page three", "pages three and four"), ("the second page",
    "3rd slide"), and the number of each word."""
    data = domain.load("ranking")
    numbers = domain.alternation(data["numbers"])
    spelled = re.compile(rf"\b(?:pages?|slides?)\s+({numbers})\b(?:\s*(?:and|&|-|–|to)\s*({numbers})\b)?",
                         re.IGNORECASE)
    ordinal = re.compile(rf"\b({domain.alternation(data['ordinals'])}|\d{{1,3}}(?:st|nd|rd|th))\s+(?:page|slide)\b",
                         re.IGNORECASE)
    return spelled, ordinal, {**data["numbers"], **data["ordinals"]}


def page_refs(question: str) -> list[int]:
    """Page numbers the question names ("on page 19", "pages 10 and 11", "page three")."""
    out: list[int] = []
    for m in _PAGE_REF.finditer(question):
        out.extend(int(g) for g in m.groups() if g)
    spelled, _, value = _page_words()
    for m in spelled.finditer(question):
        out.extend(value[g.lower()] for g in m.groups() if g)
    return out


def positional_refs(question: str, page_count: int) -> list[int]:
    """Pages named by position: the cover (page 1), the n-th page ("the first page of the
    document", "the 3rd slide": counted from the start, whatever the page prints), the last
    or second-last page."""
    out = []
    if _COVER.search(question):
        out.append(1)
    _, ordinal, value = _page_words()
    for m in ordinal.finditer(question):
        word = m.group(1).lower()
        out.append(value[word] if word in value else int(word[:-2]))
    for m in _LAST.finditer(question):
        out.append(page_count - 1 if m.group(1) or m.group(2) or "penultimate" in m.group(0).lower() else page_count)
    return [p for p in out if 1 <= p <= page_count]


def caption_refs(question: str) -> list[tuple[str, str]]:
    """Captions the question names: ("figure", "1") for "Figure 1" or "the first figure";
    ("appendix", "e") for "Appendix E"."""
    out = []
    for m in _FIGURE_REF.finditer(question):
        if m.group(1):
            kind = "table" if m.group(1).lower() == "table" else "figure"
            out.append((kind, m.group(2)))
        else:
            kind = "table" if m.group(4).lower() == "table" else "figure"
            out.append((kind, str(_ORDINAL[m.group(3).lower()])))
    out.extend(("appendix", m.group(1).lower()) for m in _APPENDIX_REF.finditer(question))
    return out


@lru_cache(maxsize=1)
def _picture_words() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{domain.alternation(domain.load('ranking')['picture_words'])})\b", re.IGNORECASE)


def asks_picture(question: str) -> bool:
    """The question asks what a picture shows or counts pictures (a word of ``picture_words``)."""
    return bool(_picture_words().search(question))
