"""The domain knowledge kept as data: the JSON files of ``alphasearch/data/`` (no other I/O).

``lexicon.json`` (analysts' names for line items, ratios, formulas, the words of stated changes),
``periods.json`` (kinds of reporting period), ``facts.json`` (cover-page patterns),
``headings.json`` (numbered heading patterns); ``confidence.json``, which the calibration
benchmark rewrites, is read by :mod:`alphasearch.calibration`.
Each file is read once per process; callers must not change what they get.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


@lru_cache(maxsize=None)
def load(name: str) -> Any:
    """The parsed ``data/<name>.json`` (cached: one read per process)."""
    return json.loads((DATA_DIR / f"{name}.json").read_text("utf-8"))
