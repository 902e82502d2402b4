"""benchmarks/compare_results.py: lines paired by their words, figures compared, a moved figure listed."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from compare_results import compare, markdown  # noqa: E402


def test_a_moved_figure_and_a_new_line_are_listed_and_equal_ones_counted():
    old = ["# Results", "| mcts_puct | 0.754 | 0.866 |", "| flat | 0.736 | 0.870 |", "query median 43.7 ms"]
    new = ["# Results", "| mcts_puct | 0.754 | 0.866 |", "| flat | 0.736 | 0.871 |", "query median 223.5 ms",
           "a new section: 5 rows"]
    equal, differ = compare(old, new)
    assert equal == 1
    assert differ == [("| flat | 0.736 | 0.870 |", "| flat | 0.736 | 0.871 |"),
                      ("query median 43.7 ms", "query median 223.5 ms"), ("", "a new section: 5 rows")]
    md = markdown("a.md", "b.md", equal, differ)
    assert "1 lines with figures are equal; 3 differ" in md and "\\| flat \\| 0.736 \\| 0.871 \\|" in md
