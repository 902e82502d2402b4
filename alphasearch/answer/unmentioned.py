"""The names a question uses that the document never prints.

A question about Boeing's tweets put to a deck about Germanwings, about "American Japanese" put to a survey that
never mentions Japanese Americans, or about Florida's counties put to one that names none, cannot be answered from
that document: whatever it would quote is about someone else. A name here is a capitalised word of the question's
first sentence (not its first word nor one after a colon, not one of the ``form_words`` of ``data/questions.json``:
"Page", "Section", "Describe"), four letters or more with a lower-case letter after the first (so not a ticker or an
acronym, which a filing may print in another form: "JnJ", "GLW"). The document prints it when one of its words (or
of its file's name), accents and case aside, is the name, its plural ("Lufthansas", "Subsidiaries") or begins with
it ("Program" in "Programme", "Corp" in "Corporation"); when the name is a printed place's adjective ("Chinese" for
"China", "Canadian" for "Canada": the ``demonym_endings`` of ``data/questions.json``); when it is printed with a
space or a hyphen inside ("ExxonMobil", "Walmart" as "Wal-Mart"); or, for a question's typo, when a word is one
letter away from a name of seven letters or more ("Activsion", "Germanwigns") or is most of it ("Liabilitiesfor").
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..lang import domain
from ..lang.questions import first_sentence
from ..search.memo import Recent
from ..models import DocumentIndex

_NAME = re.compile(r"^[\"'`(“‘]*([A-Z][\w&.'’-]*)")
_WORD = re.compile(r"[^\W_]+")
MIN_LETTERS = 4  # shorter capitalised words are tickers, initials and abbreviations more often than names
TYPO_LETTERS = 7  # a name this long may be one letter away from the word the document prints
GLUED = 0.7  # a document word the name starts with, this much of its length: two words written as one
STEM_LETTERS = 4  # a place and its adjective share this many first letters at least ("Chin-a", "Chin-ese")
_words: Recent[frozenset[str]] = Recent(8)


def plain(text: str) -> str:
    """``text`` in lower case without accents ("México" → "mexico"; "Mærsk" keeps its "æ")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _data() -> tuple[frozenset[str], tuple[str, ...]]:
    raw = domain.load("questions")
    return frozenset(raw["form_words"]), tuple(raw["demonym_endings"])


def names_asked(question: str) -> list[str]:
    """The names of ``question``'s first sentence (module docstring), in order, each once."""
    out: list[str] = []
    tokens = first_sentence(question).split()
    for i, token in enumerate(tokens):
        m = _NAME.match(token)
        if not m or i == 0 or tokens[i - 1].endswith((":", ";")):
            continue
        name = re.sub(r"['’]s$", "", m.group(1).rstrip(".,;:?!)\"'’”"))
        if (len(name) >= MIN_LETTERS and re.search(r"[a-z]", name[1:]) and name.isalnum()
                and plain(name) not in _data()[0] and name not in out):
            out.append(name)
    return out


def _document_words(doc: DocumentIndex) -> frozenset[str]:
    return _words.get((doc.doc_id, doc.page_count, doc.name), lambda: frozenset(
        w for text in (doc.name, *(page.text for page in doc.pages)) for w in _WORD.findall(plain(text))))


def _one_away(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter put in, left out or changed, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) == len(b):  # one letter changed, or two next to each other swapped ("Germanwigns")
        diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1:]


def _shared_start(a: str, b: str) -> int:
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def printed(name: str, words: frozenset[str]) -> bool:
    """Whether the document whose ``words`` these are prints ``name`` as one word (module docstring)."""
    low = plain(name)
    if low in words or low + "s" in words or (low.endswith("s") and low[:-1] in words) or (
            low.endswith("ies") and low[:-3] + "y" in words):
        return True
    endings = _data()[1]
    for w in words:
        if w[:1] != low[:1]:
            continue
        if w.startswith(low):  # "Program" in "Programme"
            return True
        k = _shared_start(low, w)
        if k >= STEM_LETTERS and len(w) - k <= 1 and low[k:] in endings:  # "Chinese" for "China"
            return True
        if len(low) >= TYPO_LETTERS and (_one_away(low, w) or (k == len(w) and k >= GLUED * len(low))):
            return True  # a typo, or two words written as one ("Liabilitiesfor")
    return False


def _spelled_apart(name: str, words: frozenset[str]) -> bool:
    """The document prints ``name`` as two words ("Exxon Mobil", "Wal-Mart" for "ExxonMobil", "Walmart")."""
    low = plain(name)
    return any(low[:k] in words and low[k:] in words for k in range(2, len(low) - 1))


def names_unmentioned(doc: DocumentIndex, question: str) -> list[str]:
    """The names ``question`` uses that no page of ``doc`` prints."""
    names = names_asked(question)
    if not names:
        return []
    words = _document_words(doc)
    return [n for n in names if not printed(n, words) and not _spelled_apart(n, words)]
