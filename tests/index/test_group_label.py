"""A grouping node is labelled by its parent's first words, not cut on "and" or "of" (alphasearch/index/grouping.py),
in time linear in a hostile outline title."""
from __future__ import annotations

import time

from alphasearch.index.grouping import group_title, heading_label


def test_a_label_is_the_first_words_without_an_open_end_and_a_hostile_title_is_labelled_at_once():
    """The open end (separators, "and", "of" …) was stripped by a repeat of separators-and-maybe-a-word, which tries
    every split of a run of separators: an outline entry "Harbor - - … -x overview" (a run of 24) over 12 entries
    took 18 s to index, and a run of 32 within the 40 characters a label keeps would take hours."""
    assert heading_label("Research and development of the new harbor and of its ships") == \
        "Research and development of the new"
    assert heading_label("Liquidity, capital resources and the outlook for 2024") == "Liquidity, capital resources"
    assert heading_label("Risks") == "Risks"
    started = time.perf_counter()
    label = heading_label("Harbor" + " -" * 12 + "x overview of the year")
    grouped = group_title(["Overview", "Outlook"], 3, 9, "Harbor" + " –," * 7 + "x overview of the year")
    assert time.perf_counter() - started < 2.0
    assert label == "Harbor" + " -" * 12 + "x overview"
    assert grouped == "Harbor" + " –," * 7 + "x overview · pages 3–9"
    assert heading_label("Harbor" + " -" * 16 + "x overview of the year") == "Harbor" + " -" * 16 + "x"


def test_a_part_of_a_grouping_node_is_labelled_by_the_heading_not_by_its_pages_twice():
    """Nike's Item 8 was grouped as "Item 8 · pages 56–94" and its parts titled "Item 8 · pages 56–94 · pages 63–73"."""
    assert heading_label("Item 8 · pages 56–94") == "Item 8"
    assert group_title(["Consolidated Statements of Shareholders' Equity", "Summary of Significant Accounting "
                        "Policies"], 63, 73, "Item 8 · pages 56–94") == "Item 8 · pages 63–73"
    assert heading_label("Pages 22–29") == "Pages 22–29" and heading_label("Results · page 4") == "Results"
