"""What a table of year rows lists is named by the sentence above it (alphasearch/read/tables.py), read in time
linear in a hostile line."""
from __future__ import annotations

import time

from alphasearch.read.tables import parse_rows

SCHEDULE = ["2023", "$", "1,204", "2024", "1,100", "2025", "950"]


def _captions(lines: list[str]) -> set[str]:
    return {r.caption for r in parse_rows("\n".join(lines)) if r.label.isdigit()}


def test_a_year_rows_caption_is_the_sentence_above_and_a_hostile_line_above_is_read_in_linear_time():
    """The caption loses a trailing aside ("(in millions):") by a pattern anchored at the line's end, which scans
    from every "(" to the end: a line of 80,000 "(" above a schedule took 21 s. A caption is a sentence; a
    longer line above the table names none."""
    above = "Future minimum lease payments under operating leases are as follows (in millions):"
    assert _captions(["Leases", above, *SCHEDULE]) == {"Future minimum lease payments under operating leases"}
    assert _captions(["Leases", "Payments due", "by year (in millions):", *SCHEDULE]) == {"Payments due by year"}
    started = time.perf_counter()
    hostile = _captions(["Leases", "(" * 80_000 + "x", *SCHEDULE])
    wrapped = _captions(["Leases", "a" + "(" * 80_000, "by year (in millions):", *SCHEDULE])
    assert time.perf_counter() - started < 2.0
    assert hostile == wrapped == {""}
