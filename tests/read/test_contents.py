"""A table of contents is told by its entries (alphasearch/read/contents.py), in time linear in a hostile line."""
from __future__ import annotations

import time

from alphasearch.read.contents import contents_page

CONTENTS = """Table of Contents
Business 3
Risk Factors 9
Properties 21
Legal Proceedings 22
Financial Statements 40"""


def test_a_contents_page_is_told_by_its_rising_entries_and_a_hostile_line_is_read_in_linear_time():
    """The entry pattern ("Risk Factors …… 9") backtracks over a line's dots and spaces: one 80,000-character line
    of " . " took 35 s. A contents entry is a short line; a hostile page printing a long one is read at once."""
    assert contents_page(CONTENTS)
    assert not contents_page(CONTENTS.replace("Table of Contents", "Harbor").replace("40", "2"))
    hostile = "a . " * 20_000 + "x"
    started = time.perf_counter()
    assert not contents_page(hostile + "\n" + hostile)
    assert contents_page(CONTENTS + "\n" + hostile)
    assert time.perf_counter() - started < 2.0
