"""Small text utilities shared by the indexer, scorers and answers (no I/O)."""
from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

# The English stopwords bm25s drops for stopwords="en" (bm25s.stopwords.STOPWORDS_EN; a test keeps them equal,
# so the flat BM25 baseline and the engine's terms drop the same words), written out so that the PDF worker,
# which imports this module, does not import bm25s (numpy, scipy, tqdm: ~0.2 s of its start-up). Kept in this
# file, not in data/: saved page terms and rankers are keyed by this file's source (library.files.code_fingerprint).
ENGLISH_STOPWORDS = ("a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
                     "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
                     "they", "this", "to", "was", "will", "with")
STOPWORDS = frozenset(ENGLISH_STOPWORDS) | frozenset(
    "also may might must would could shall within upon per via etc use used using".split()
    # question and auxiliary words: they carry the question's form, not its topic
    + "how many much what which who whom whose when where why did does do doing done have has had having "
      "were been being can should".split()
)
# a maximal run of 2+ word characters: the matches of r"\b\w\w+\b" (a match always starts where a run
# starts and takes all of it), found ~15% faster without the boundary tests
WORD = re.compile(r"\w{2,}")  # a word: what words() finds (also the page statistics' tokens)
_DIGIT = re.compile(r"\d")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # a thousands separator: "1,234,567"
# a typeset ligature (U+FB00–FB06) that a PDF's text layer keeps as one character, and the letters it stands for
_LIGATURE = re.compile("[\ufb00-\ufb06]")
_SPELT = dict(zip("\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06", ("ff", "fi", "fl", "ffi", "ffl", "st", "st")))
_SYMBOL_BULLET = "\uf0b7"  # the Symbol font's bullet, as a text layer reads it (a private-use character)
# where a sentence ends: white space after . ! ? ; before a capital, digit (not after a numbering word) or
# quote; 2+ newlines; a newline before a capital or bullet. Written to start with its white space (the lookbehind looks back past it), so the
# scan skips to the next white space instead of trying three branches at every character (~1.8x faster)
# a numbering word's abbreviation ends no sentence before its number: "Commission File No. 1-10635", "Fig. 3"
# (capitalised as printed: "the answer is no. 42 stores closed" ends a sentence)
_NUMBERING = ("No", "NO", "Nos", "Fig", "FIG", "Figs", "Vol", "Sec", "Ch", "Tab", "Eq", "Ex", "pp", "p")
_NOT_NUMBERING = "".join(rf"(?<!\b{a}\.\s)" for a in _NUMBERING)
_SENT = re.compile(r"\s(?:(?<=[.!?;]\s)\s*(?=[A-Z(\"'])|(?<=[.!?;]\s)" + _NOT_NUMBERING + r"\s*(?=[0-9])"
                   r"|(?<=\n)\n+|(?<=\n)(?=[A-Z•\-–]))")
# ASCII bytes: a-z and newline kept, every other byte a space (a text's non-ASCII characters are "?" by then)
_LETTERS_AND_NEWLINES = bytes(c if 97 <= c <= 122 or c == 10 else 32 for c in range(256))
_NUMBER = re.compile(r"(?<!\S)\(?[$€£]?\d[\d,.]*%?\)?(?!\S)")  # a whitespace token that is a number


@lru_cache(maxsize=1)
def stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def words(text: str) -> list[str]:
    """The lower-case words of ``text``, a typeset ligature spelt out ("ﬁnal" is "final"), a number written with
    thousands separators one word ("4,500" is "4500", not "500": its first digit alone is too short a word)."""
    low = text.lower()
    if _LIGATURE.search(low):
        low = _LIGATURE.sub(lambda m: _SPELT[m.group()], low)
    if "," in low:
        low = _THOUSANDS.sub("", low)
    return WORD.findall(low)


def printable(text: str) -> str:
    """``text`` with the Symbol font's bullet, read as the private-use character U+F0B7, shown as "•": no Unicode
    font draws it, so a quote showed an empty box. The font's other characters are left as read: the same private
    code is "µ" in Symbol and another sign in Wingdings, and a dose of "50 µg" must not read "50 g"."""
    return text.replace(_SYMBOL_BULLET, "•")


_STEMS: dict[str, str] = {}  # word -> term, shared by every call (a dict lookup beats stemming again)
_STEMS_MAX = 300_000  # words remembered; past this the memo starts afresh


def terms(text: str) -> list[str]:
    """Lower-cased, stop-worded, stemmed tokens (a stem loses a final e: employe ~ employed)."""
    ws = [w for w in words(text) if w not in STOPWORDS]
    return stems(ws)


def stems(ws: list[str]) -> list[str]:
    """The term of each word of ``ws`` (lower-case words, stopwords already left out)."""
    global _STEMS
    memo = _STEMS  # another thread may replace the global; this call keeps one dict throughout
    missing = [w for w in set(ws) if w not in memo]
    if missing:
        if len(memo) + len(missing) > _STEMS_MAX:
            memo = _STEMS = {}
            missing = list(set(ws))
        for w, s in zip(missing, stemmer().stemWords(missing)):
            memo[w] = s[:-1] if len(s) > 4 and s.endswith("e") else s
    return [memo[w] for w in ws]


def sentences(text: str) -> list[str]:
    """Split text into sentences / lines worth quoting (whitespace normalised)."""
    out = []
    for piece in pieces(text):
        s = " ".join(piece.split())
        if len(s) >= 3:
            out.append(s)
    return out


def pieces(text: str) -> list[str]:
    """The pieces :func:`sentences` makes of ``text``, as they stand (whitespace kept, none
    left out): only white space separates them, so together they hold every word of ``text``."""
    return _SENT.split(text)


def numeric_share(text: str, tokens: int | None = None) -> float:
    """Share of whitespace tokens that are numbers (tables and financial statements score high);
    ``tokens``: ``len(text.split())`` when the caller has it."""
    n = len(text.split()) if tokens is None else tokens
    if not n or not _DIGIT.search(text):  # every number holds a digit: most prose has none
        return 0.0
    return len(_NUMBER.findall(text)) / n


def normalise(text: str) -> str:
    """Lower-case letters only, digits dropped: for matching titles and running headers."""
    return " ".join(_letters(text).split())


def normalise_lines(text: str) -> list[str]:
    """:func:`normalise` of each line of ``text``, in one pass over the whole text."""
    return [" ".join(line.split()) for line in _letters(text).split("\n")]


def _letters(text: str) -> str:
    """``text`` lower-cased with every character but a-z and newline made a space (as a pattern
    [^a-z\\n] would, in one C pass over bytes: ~15x faster than the pattern's substitution)."""
    return text.lower().encode("ascii", "replace").translate(_LETTERS_AND_NEWLINES).decode("ascii")


def shorten(text: str, limit: int = 60) -> str:
    """``text`` on one line, :func:`printable`, at most ``limit`` characters: cut at the last word that fits (mid-word
    only when a single word is longer than half the limit), marked with "…"."""
    text = " ".join(printable(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    at = cut.rfind(" ")
    if at >= limit // 2 and text[limit - 1] != " ":
        cut = cut[:at]
    return cut.rstrip(" ,;:–-") + "…"
