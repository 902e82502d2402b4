"""The outline benchmark's reading of an outline (benchmarks/tree_quality.py)."""
import sys
from pathlib import Path
from types import SimpleNamespace as E

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from tree_quality import Start, compare, norm, outline_starts  # noqa: E402


def test_an_outline_under_one_title_entry_starts_below_it():
    """Apple's guide puts "Congratulations, …" over every chapter: that entry is the document's title, as the tree's
    root is, and the chapters are the top level; an outline with two top entries keeps its levels."""
    titled = [E(level=1, title="Congratulations", page=1), E(level=2, title="Ready, Set Up, Go", page=7),
              E(level=3, title="Welcome", page=8), E(level=2, title="Problem, Meet Solution", page=40)]
    assert outline_starts(titled) == [Start("Ready, Set Up, Go", 7, 1), Start("Welcome", 8, 2),
                                      Start("Problem, Meet Solution", 40, 1)]
    two = [E(level=1, title="Part I", page=3), E(level=2, title="Item 1. Business", page=3),
           E(level=1, title="Part II", page=20)]
    assert [s.level for s in outline_starts(two)] == [1, 2, 1]
    tree = [Start("Ready, Set Up, Go", 7, 1), Start("Welcome", 8, 2), Start("Problem, Meet Solution", 40, 1)]
    got = compare(outline_starts(titled), tree)
    assert got["matched"] == 3 and got["level_same"] == 3


def test_a_title_matches_its_outline_entry_with_or_without_its_section_number():
    """The tree keeps the number a page prints ("4.4.21 GHM", "Chapter 18: LOG ANALYSIS"); an outline may leave it
    out ("GHM"): the same section. Numbers that are words of the title stay ("2023 Annual Report", "Item 7.")."""
    assert norm("4.4.21 GHM") == norm("GHM") == "ghm"
    assert norm("Chapter 18: LOG ANALYSIS") == norm("Log Analysis")
    assert norm("B.3 NLI") == norm("NLI") and norm("A.1. Setup") == "setup"  # an appendix's section number
    assert norm("A Simple Baseline") == "a simple baseline" and norm("Appendix B") == "appendix b"
    assert norm("2023 Annual Report") == "2023 annual report" and norm("Item 7. MD&A") == "item 7 md a"
    got = compare([Start("GHM", 20, 3), Start("ATSS", 20, 3)], [Start("4.4.21 GHM", 20, 3), Start("4.4.27 ATSS", 20, 3)])
    assert got["matched"] == 2
