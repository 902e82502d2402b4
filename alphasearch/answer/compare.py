"""Comparison questions answered from one table: the question names its options and asks which
has the most or the least ("Among operating, investing and financing activities, which brought in
the most cash in 2022?", "Which of Cloud or Devices had higher revenue in 2021?").

Each option is matched to a row of the same page whose label holds every word of the option (word
stems compared: "operations" finds "operating activities"), the best of them holding most of the
question's other words; the rows' figures in the year asked (without a year: their first column)
are compared, and the direct answer names the option with the most (or least), with every figure
and its page. The words that ask for a most or a least are data (``superlatives`` in
``data/lexicon.json``). Pure functions over a document's page text; no I/O.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ..lang.text import terms
from ..models import DocumentIndex
from ..read.rows import YEAR_RE, Direct, Figure, table_rows, not_line_item
from ..read.items import lexicon

# the options: after "among", "between" or "which of" up to the clause that asks ("…, which brought in"),
# or after a colon at the end ("Which grew faster: Cloud or Devices?")
_LISTED = re.compile(r"\b(?:among|between|which of|of the (?:two|three|four|five))\s+(?P<opts>[^?:]+?)\s*,?\s*"
                     r"\b(?:which|what|who|has|had|have|is|was|were|are|did|does|do|brought|generated|reported|"
                     r"earned|made|used|spent|lost|paid|grew|rose|fell|increased|decreased|contributed|accounted|"
                     r"recorded|posted|showed|received|saw)\b",
                     re.IGNORECASE)
_AFTER_COLON = re.compile(r":\s*(?P<opts>[^:?]+)\?*\s*$")
_SPLIT = re.compile(r"\s*,\s*(?:and|or)\s+|\s*,\s*|\s+(?:and|or)\s+", re.IGNORECASE)
_COUNT = {2: "two", 3: "three", 4: "four", 5: "five"}
MAX_OPTIONS = 5
MAX_OPTION_WORDS = 5


def direction(question: str) -> tuple[str, bool] | None:
    """("most" or "least", outflow): which the question asks for (its first word of either kind) and
    whether an outflow verb comes just before it ("used the least cash": the figures compare by what
    went out, a negative figure being that much spent); None when it asks for neither."""
    words = lexicon()["superlatives"]
    found = [(m.start(), kind) for kind in ("most", "least") for w in words[kind]
             for m in re.finditer(rf"\b{re.escape(w)}\b", question, re.IGNORECASE)]
    if not found:
        return None
    at, kind = min(found)
    verbs = "|".join(re.escape(w) for w in words["outflow"])
    outflow = re.search(rf"\b(?:{verbs})\b(?:\s+\S+){{0,2}}\s+$", question[:at], re.IGNORECASE) is not None
    return kind, outflow


def options(question: str) -> list[str]:
    """The options a question names (two to ``MAX_OPTIONS``, each of a few words), else []."""
    m = _LISTED.search(question) or _AFTER_COLON.search(question)
    if not m:
        return []
    opts = [o.strip(" .'\"") for o in _SPLIT.split(re.sub(r"^(?:the|either)\s+", "", m.group("opts").strip(), flags=re.I))]
    opts = [o for o in opts if o]
    if not 2 <= len(opts) <= MAX_OPTIONS or any(len(o.split()) > MAX_OPTION_WORDS or not terms(o) for o in opts):
        return []
    return opts


def compared_answer(doc: DocumentIndex, question: str, pages: Sequence[int]) -> Direct | None:
    """The direct answer naming the option with the most (or least) in the year asked, read from
    the first of ``pages`` where a row of every option has a figure in that year; None when the
    question is no comparison of named options or no page holds them all."""
    asked, opts = direction(question), options(question)
    if asked is None or not opts:
        return None
    years = YEAR_RE.findall(question)
    year = years[-1] if years else ""
    q_terms = set(terms(question))
    rows = table_rows(doc, pages)
    for page in dict.fromkeys(p for _, p, _ in rows):
        found = [_row_for(o, [r for _, p, r in rows if p == page], q_terms, year, page) for o in opts]
        if all(found) and len({f.label for f in found}) == len(found) and len({f.unit for f in found}) == 1:
            return _stated(found, *asked, year)
    return None


def _row_for(option: str, rows, q_terms: set[str], year: str, page: int) -> Figure | None:
    """The figure of ``option``: a row holding all its words with a value in the ``year`` column
    (the first value without one), the row holding most of the question's words; ties: the shorter label."""
    own = set(terms(option))
    best, best_key = None, None
    for row in rows:
        label = set(terms(row.label))
        if not own <= label or not_line_item(row.text):
            continue
        if year:
            col, cell = year, row.cell_for(year)
        else:
            col, cell = next(((c, x) for c, x in zip(row.columns or ("",) * len(row.cells), row.cells)
                              if x.value is not None), ("", None))
        if cell is None or cell.value is None:
            continue
        key = (len(label & q_terms), -len(label))
        if best_key is None or key > best_key:
            score = 1.0 if year else 0.8  # without a year asked, the column cannot be checked
            best, best_key = Figure(row.label, col, cell, row.unit, row.currency, page, row.text, score), key
    return best


def _stated(found: list[Figure], most: str, outflow: bool, year: str) -> Direct:
    """"Operating activities: $3,252 million, the most of the three in 2022 (investing: …) — p. 42"."""
    def key(f: Figure) -> float:
        return -f.value if outflow else f.value

    pick = max(found, key=key) if most == "most" else min(found, key=key)
    others = "; ".join(f"{f.label}: {f.amount()}" for f in found if f is not pick)
    n = _COUNT.get(len(found), str(len(found)))
    when = f" in {year}" if year else (f" in {pick.period}" if pick.period else "")
    text = f"{pick.label}: {pick.amount()}, the {most} of the {n}{when} ({others}) — p. {pick.page}"
    return Direct(text, tuple([pick] + [f for f in found if f is not pick]), "comparison", min(f.score for f in found))


__all__ = ["compared_answer", "direction", "options"]
