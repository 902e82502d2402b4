"""How many steps a procedure takes, counted from its numbered lines in a manual the test writes."""
from __future__ import annotations

import pytest

from alphasearch.pdf.write import TextBlock


def H(title: str) -> TextBlock:  # a section heading
    return TextBlock(title, 15, True)


def _manual(make_pdf) -> bytes:
    """A contents page naming the procedures (no steps under it there), then a page with two procedures in "1."
    style, the second with sub-steps in another style, and a page of a procedure whose step numbers stand alone on
    their lines (beside pictures), pairing with Windows 10 only."""
    return make_pdf([
        [H("Contents"), "Safety notes 1", "Replace the filter 2", "Clean the tray 2",
         "Pair with a computer (Windows 10) 3", "Cleaning the outside 4", "Warranty 4"],
        [H("Replacing the filter"), "To replace the filter:", "1. Open the lower door and pull the old filter out.",
         "2. Push the new filter in until it clicks.", "Keep the old filter for recycling.",
         H("Cleaning the tray"), "To clean the tray:", "1. Lift the tray out.", "2. Wash it in warm water:",
         "a) use a soft brush;", "b) rinse it well.", "3. Dry it and put it back."],
        [H("Pairing with a computer (Windows 10)"), "Turn on the headset and hold the power button.", "1",
         "Open the Bluetooth settings of the computer.", "2", "Select the headset in the list of devices.", "3",
         "Page 3"],
    ])


@pytest.mark.parametrize("question, count, title", [
    ("How many steps are needed to replace the filter?", "2 steps", "To replace the filter"),
    ("How many steps does it take to clean the tray? Write the answer in integer format.", "3 steps",
     "To clean the tray"),
    ("How many steps are required for pairing the headset with a computer (Windows 10)?", "3 steps",
     "Pairing with a computer (Windows 10)"),
])
def test_the_steps_of_the_procedure_asked_are_counted(engine, make_pdf, question, count, title):
    """The procedure's line is found past the contents page that names it ("Clean the tray 2", followed there by other
    sections' steps); the steps are its numbered lines in the style of the first, up to the next procedure's "1."
    (whose "3." is no third step of the filter's), sub-steps a), b) and step numbers in another style aside."""
    doc = engine.index_bytes(_manual(make_pdf), "filter-manual.pdf")
    answer = engine.ask_document(doc, question)
    direct = answer.extra["direct_answer"]
    assert direct.startswith(f"{count}: “{title}”"), direct
    assert not answer.fallback and len(answer.citations) == int(count.split()[0]) + 1


def test_a_procedure_for_another_version_is_not_counted(engine, make_pdf):
    """The manual pairs with Windows 10 only: a question about Windows 9.0 gets no count of those steps."""
    doc = engine.index_bytes(_manual(make_pdf), "filter-manual.pdf")
    direct = engine.ask_document(doc, "How many steps are needed to pair the headset with a computer (Windows 9.0)?"
                                 ).extra.get("direct_answer") or ""
    assert "steps:" not in direct, direct


def test_numbers_in_a_table_or_a_single_numbered_line_are_no_steps():
    """A filing's note: "Goodwill impairment test" then a table whose cells stand alone on their lines ("1", "61",
    "2", "(2)"), and a footnote "1 Getting Started" under another title: no steps counted; a title missing a rare
    word of the question ("set up the watch" in a laptop's guide) titles no procedure."""
    from alphasearch.answer.steps import count_steps
    from alphasearch.models import DocumentIndex, Page, Section

    note = "Goodwill impairment test\nSegment\n1\n61\n2\n(2)\nTotal\n59"
    guide = ("Setting up your laptop\nTo set up the laptop:\n1. Open the lid.\n2. Press the power button.\n"
             "Pairing\n1 Getting Started")
    doc = DocumentIndex("d" * 64, "t.pdf", 2, Section("R", "Doc", (1, 2)), (Page(1, note), Page(2, guide)))
    assert count_steps(doc, "How many steps are required for the goodwill impairment test?") is None
    assert count_steps(doc, "How many steps are needed to pair the laptop?") is None
    assert count_steps(doc, "How many steps are needed to set up the watch?") is None
    assert count_steps(doc, "How many steps are needed to set up the laptop?").count == 2
