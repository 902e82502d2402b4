"""The names a question uses that the document never prints.

A question about Boeing's tweets put to a deck about Germanwings, about "American Japanese" put to a survey that
never mentions Japanese Americans, or about Florida's counties put to one that names none, cannot be answered from
that document: whatever it would quote is about someone else. A name here is a capitalised word of the question's
first sentence (not its first word, not one of the ``form_words`` of ``data/questions.json``: "Page", "Section"),
four letters or more with a lower-case letter after the first (so not a ticker or an acronym, which a filing may
print in another form: "JnJ", "GLW"). The document prints it when one of its words (or of its file's name) is the
name (accents and case aside, "'s" and a plural aside) or begins with it ("Program" in "Programme"), or, for a name
of seven letters or more, a word one letter away ("Activsion", "Germanwigns"), or a word the name starts with that
is most of it ("Liabilitiesfor"): a question's typo is no other name.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from functools import lru_cache

from ..lang import domain
from ..models import DocumentIndex

_NAME = re.compile(r"^[\"'`(“‘]*([A-Z][\w&.'’-]*)")
_WORD = re.compile(r"[a-z0-9]+")
MIN_LETTERS = 4  # shorter capitalised words are tickers, initials and abbreviations more often than names
TYPO_LETTERS = 7  # a name this long may be one letter away from the word the document prints
GLUED = 0.7  # a document word the name starts with, this much of its length: two words written as one
_CACHE_DOCS = 8
_words_cache: OrderedDict[tuple[str, int], frozenset[str]] = OrderedDict()
_lock = threading.Lock()


def plain(text: str) -> str:
    """``text`` in lower case without accents ("México" → "mexico")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _form_words() -> frozenset[str]:
    return frozenset(domain.load("questions")["form_words"])


def names_asked(question: str) -> list[str]:
    """The names of ``question``'s first sentence (module docstring), in order, each once."""
    first = re.split(r"(?<=[?.!])\s", question.strip(), maxsplit=1)[0]
    out: list[str] = []
    for i, token in enumerate(first.split()):
        m = _NAME.match(token)
        if not m or i == 0:
            continue
        name = re.sub(r"['’]s$", "", m.group(1).rstrip(".,;:?!)\"'’”"))
        if (len(name) >= MIN_LETTERS and re.search(r"[a-z]", name[1:]) and name.isalnum()
                and plain(name) not in _form_words() and name not in out):
            out.append(name)
    return out


def _document_words(doc: DocumentIndex) -> frozenset[str]:
    key = (doc.doc_id, doc.page_count)
    with _lock:
        if key in _words_cache:
            _words_cache.move_to_end(key)
            return _words_cache[key]
    words = frozenset(w for text in (doc.name, *(page.text for page in doc.pages)) for w in _WORD.findall(plain(text)))
    with _lock:
        _words_cache[key] = words
        while len(_words_cache) > _CACHE_DOCS:
            _words_cache.popitem(last=False)
    return words


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


def printed(name: str, words: frozenset[str]) -> bool:
    """Whether the document whose ``words`` these are prints ``name`` (module docstring)."""
    low = plain(name)
    if low in words or low + "s" in words or (low.endswith("s") and low[:-1] in words):
        return True
    if len(low) > MIN_LETTERS and any(w.startswith(low) for w in words):  # "Program" in "Programme", "Russia" in
        return True  # "Russians"
    if len(low) < TYPO_LETTERS:
        return False
    return any(_one_away(low, w) for w in words if abs(len(w) - len(low)) <= 1 and w[:1] == low[:1]) or any(
        low[:k] in words for k in range(int(len(low) * GLUED + 0.999), len(low)))


def names_unmentioned(doc: DocumentIndex, question: str) -> list[str]:
    """The names ``question`` uses that no page of ``doc`` prints."""
    names = names_asked(question)
    if not names:
        return []
    words = _document_words(doc)
    return [n for n in names if not printed(n, words)]
