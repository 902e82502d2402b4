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
     "Cleaning the tray"),
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
