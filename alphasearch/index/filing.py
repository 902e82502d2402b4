"""Where a 10-K prints its financial statements at the back, they still belong to Item 8.

Many filings print Item 8 as one sentence ("The information required by this item is included in
Item 15") and the statements after the last Items, as pages F-1 … F-n. Nested by level alone, the
balance sheet and the notes then fall under "Item 15. Exhibits" or "Item 16. Form 10-K Summary". This
module gives that block its own node at Item level, titled for what it holds (``statements`` in
``data/headings.json``): "Item 8 — Financial statements (printed after Item 16)". Filings whose Item 8
holds its statements, and documents without Items, are left as they are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..lang import domain
from .headings import Entry, numbered_heading
from .lines import statement_pattern


@dataclass(frozen=True)
class _Rules:
    opens: re.Pattern[str]
    statement: re.Pattern[str]
    reach: int
    item: str
    title: str


@lru_cache(maxsize=1)
def _rules() -> _Rules:
    raw = domain.load("headings")["statements"]
    statement = statement_pattern()
    return _Rules(re.compile("|".join(f"(?:{p})" for p in raw["opens"]) + f"|{statement.pattern}", re.IGNORECASE),
                  statement, int(raw["reach"]), str(raw["item"]), raw["title"])


def _item(entry: Entry) -> str | None:
    hit = numbered_heading(entry.title)
    return hit[1] if hit and hit[0].name == "item" else None


def statements_at_the_back(entries: list[Entry]) -> list[Entry]:
    """``entries`` with an Item-level entry opening the statements printed after later Items, when
    Item 8 holds none of them; else ``entries`` unchanged."""
    r = _rules()
    numbers = [_item(e) for e in entries]  # each entry's Item number, None for others
    items = [i for i, n in enumerate(numbers) if n is not None]
    eight = next((i for i in items if numbers[i] == r.item), None)
    after = [i for i in items if eight is not None and i > eight]
    if eight is None or not after:
        return entries
    if any(r.statement.match(e.title) for e in entries[eight + 1:after[0]]):
        return entries  # Item 8 holds its statements
    for k in range(after[0] + 1, len(entries)):
        if numbers[k] is not None or not r.opens.match(entries[k].title):
            continue
        for m in range(k, len(entries)):
            if numbers[m] is not None or entries[m].page - entries[k].page > r.reach:
                break
            if r.statement.match(entries[m].title):
                label = f"Item {numbers[max(i for i in items if i < k)]}"
                node = Entry(entries[eight].level, r.title.format(after=label), entries[k].page)
                return [*entries[:k], node, *entries[k:]]
    return entries
