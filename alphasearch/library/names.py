"""Folder and file names a user types: validation, comparison keys; content hashes and ids."""
from __future__ import annotations

import hashlib
import unicodedata
import urllib.parse

from ..errors import InvalidNameError, StoreError


MAX_NAME = 200


_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10)),
             "conin$", "conout$"}


_BIDI = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}


_HEX = frozenset("0123456789abcdef")


def validate_name(name: object, kind: str = "folder") -> str:
    """The display name, its invisible format characters removed (:func:`invisible_removed`), NFC-normalised
    and stripped, or :class:`InvalidNameError`.

    Any reasonable Unicode (accents, CJK, emoji, spaces) is fine. Refused: empty or
    whitespace-only names, more than 200 characters, NUL and other control or
    bidirectional-override characters, ``/`` and ``\\``, ``.``/``..``, absolute or
    drive paths, reserved device names (CON, NUL, COM1, …, also with an extension)
    and percent-encoded forms of any of these (``%2e%2e%2f``).
    """
    what = "folder name" if kind == "folder" else "file name"
    if not isinstance(name, str):
        raise InvalidNameError(f"The {what} must be text.")
    if "\x00" in name:
        raise InvalidNameError(f"The {what} contains a NUL byte; choose a name without control characters.")
    if any(ch in _BIDI for ch in name):
        raise InvalidNameError(f"The {what} contains control characters; choose a plain name.")
    text = unicodedata.normalize("NFC", invisible_removed(name)).strip()
    if not text:
        raise InvalidNameError(f"The {what} is empty; type a name with at least one visible character.")
    if len(text) > MAX_NAME:
        raise InvalidNameError(f"The {what} has {len(text)} characters; the limit is {MAX_NAME}.")
    forms = [text]
    decoded = text
    for _ in range(3):  # %252e%252e → %2e%2e → ..
        nxt = urllib.parse.unquote(decoded)
        if nxt == decoded:
            break
        forms.append(nxt)
        decoded = nxt
    for form in forms:
        if any(unicodedata.category(ch) == "Cc" or ch in _BIDI for ch in form):
            raise InvalidNameError(f"The {what} contains control characters; choose a plain name.")
        if "/" in form or "\\" in form:
            raise InvalidNameError(f"The {what} {shown(text)} contains a slash; names cannot contain / or \\.")
        if form.strip(". ") == "" or form.startswith(".."):
            raise InvalidNameError(f"The {what} {shown(text)} is not allowed; names cannot be made of dots.")
        if len(form) >= 2 and form[1] == ":" and form[0].isascii() and form[0].isalpha():
            raise InvalidNameError(f"The {what} {shown(text)} looks like a drive path; choose a plain name.")
        stem = form.split(".")[0].strip().lower()
        if stem in _RESERVED:
            raise InvalidNameError(f"The {what} {shown(text)} is a reserved device name; choose another name.")
    return text


def shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def invisible_removed(text: str) -> str:
    """``text`` without its format characters (Unicode category Cf: zero-width spaces and joiners, direction
    marks, the byte order mark, soft hyphens), which print as nothing: "Re\u200bports" is "Reports"."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def name_key(name: str) -> str:
    """Case-, compatibility- and invisible-character-insensitive key: two names with the same key clash
    ("Reports", "REPORTS", "Re\u200bports", full-width "Ｒｅｐｏｒｔｓ"). NFKC, case folding, NFKC again (case
    folding can leave text not in NFKC), format characters removed."""
    text = unicodedata.normalize("NFKC", invisible_removed(name))
    return invisible_removed(unicodedata.normalize("NFKC", text.casefold()))


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()  # = pdf.content_hash


def is_sha(text: str) -> bool:
    return len(text) == 64 and set(text) <= _HEX


def check_sha(sha: str) -> None:
    if not is_sha(sha):
        raise StoreError(f"Invalid document hash {sha!r}.")


def check_folder_id(folder_id: str) -> None:
    if len(folder_id) != 32 or not set(folder_id) <= _HEX:
        raise StoreError(f"Invalid folder id {folder_id!r}.")
