"""The domain knowledge kept as data: the JSON files of ``alphasearch/data/`` (no other I/O).

``lexicon.json`` (analysts' names for line items, ratios, formulas, the words of stated changes),
``periods.json`` (kinds of reporting period), ``facts.json`` (cover-page patterns),
``headings.json`` (numbered heading patterns), ``ranking.json`` (the page ranker's words); ``confidence.json``, which the calibration
benchmark rewrites, is read by :mod:`alphasearch.answer.calibration`.
Each file is read once per process; callers must not change what they get. :func:`alternation`
turns one of their word lists into a pattern.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def alternation(words, *, spaces_optional: bool = False) -> str:
    """A list of words or phrases as one regular-expression alternation, longest first (so "as of"
    is tried before "as"); with ``spaces_optional`` a space in a phrase matches any white space or none."""
    escaped = (re.escape(w) for w in sorted(words, key=len, reverse=True))
    return "|".join(e.replace(r"\ ", r"\s*") if spaces_optional else e for e in escaped)


@lru_cache(maxsize=None)
def load(name: str) -> Any:
    """The parsed ``data/<name>.json`` (cached: one read per process)."""
    return json.loads((DATA_DIR / f"{name}.json").read_text("utf-8"))
