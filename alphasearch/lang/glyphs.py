"""Codes as OCR reads them: Tesseract takes a code's digits for the letters they look like ("AR01" read
"AROI", "TX16" read "TXIG"), so a question naming the code would miss the scanned page that prints it.

A code is a short word of letters and digits. Its *key* is the word in lower case with each letter
OCR confuses with a digit read as that digit (``LETTER_AS_DIGIT``): "AR01", "AROI" and "ARO1" share the key
"~ar01". A question's codes (words holding a letter and a digit) get keys, and so do the codes of a page
read by OCR, where a short upper-case word whose key holds a digit is taken for a code too. The keys are
extra tokens beside the page's terms (prefixed "~", so they never equal a term): the word's own term stays.
A page with a text layer gets none: its codes are printed as they are, and its terms match them.

The table is kept in this file, not in data/: saved rankers are keyed by this file's source
(``library.saved``), so a change here rebuilds them.
"""
from __future__ import annotations

import re

# lower-case letters Tesseract reads where a digit is printed (and the digit each one stands for)
CONFUSED = "oilszbg"
LETTER_AS_DIGIT = str.maketrans(CONFUSED, "0115286")
_WORD = re.compile(r"(?<![\w.,])[A-Za-z0-9]{2,8}(?![\w])")
MAX_OCR_CODE = 6  # an upper-case word read by OCR is taken for a code up to this length ("AROI", not "ARKANSAS")


def key(word: str) -> str | None:
    """The code key of ``word``, or None when the folded word does not hold both a letter and a digit."""
    folded = word.lower().translate(LETTER_AS_DIGIT)
    if any(c.isdigit() for c in folded) and any(c.isalpha() for c in folded):
        return "~" + folded
    return None


def _is_code(word: str) -> bool:
    return any(c.isdigit() for c in word) and any(c.isalpha() for c in word)


def question_codes(text: str) -> list[str]:
    """Keys of the codes a question names ("EPS code AR01" -> ["~ar01"])."""
    return [k for w in _WORD.findall(text) if _is_code(w) and (k := key(w))]


def _capitals(word: str) -> bool:
    """A word in capitals, but for letters OCR may have put for a digit in lower case ("AROl")."""
    return any(c.isupper() for c in word) and all(c.isupper() or c.isdigit() or c in CONFUSED for c in word)


def ocr_codes(text: str) -> list[str]:
    """Keys of the codes on a page OCR read, once each: its words holding a letter and a digit and its short
    words in capitals that fold into a code ("AROI")."""
    out: dict[str, None] = {}
    for w in _WORD.findall(text):
        if _is_code(w) or (len(w) <= MAX_OCR_CODE and _capitals(w)):
            k = key(w)
            if k:
                out[k] = None
    return list(out)
