"""The judge-budget study's flat-reading baseline (benchmarks/judge_budget.py, a simulation):
the page ranker's top N pages judged by the simulated judge, confirmed pages first."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from judge_budget import SimulatedJudge, flat_read_order  # noqa: E402

from alphasearch.models import Section  # noqa: E402


def tree() -> Section:
    return Section("R", "Root", (1, 6), children=(Section("A", "Alpha", (1, 3)), Section("B", "Beta", (4, 6))))


def test_flat_reading_confirms_only_the_pages_it_reads():
    scores = np.array([0.1, 0.9, 0.2, 1.0, 0.3, 0.8], dtype=np.float32)  # ranker order: 4, 2, 6, 5, 3, 1
    judge = SimulatedJudge([6], sigma=0.0, seed=0, qid="q")
    assert flat_read_order(tree(), "q", judge, scores, 2)[:3] == [4, 2, 6]  # evidence on page 6, ranked 3rd: not read
    assert judge.calls == 2
    judge = SimulatedJudge([6], sigma=0.0, seed=0, qid="q")
    assert flat_read_order(tree(), "q", judge, scores, 3)[:3] == [6, 4, 2]  # read and confirmed: first
    assert judge.calls == 3
    assert flat_read_order(tree(), "q", SimulatedJudge([6], 0.0, 0, "q"), scores, 0) == [4, 2, 6, 5, 3, 1]


def test_an_informed_judge_blends_the_page_ranker_with_the_evidence():
    scores = np.array([0.1, 0.9, 0.2, 1.0, 0.3, 0.8], dtype=np.float32)
    root = tree()
    alpha, beta = root.children
    ranker_only = SimulatedJudge([2], sigma=0.0, seed=0, qid="q", kind="informed:0", page_scores=scores)
    assert ranker_only.score("q", [alpha, beta]) == pytest.approx([0.9, 1.0])  # the ranker's best page below each
    half = SimulatedJudge([2], sigma=0.0, seed=0, qid="q", kind="informed:0.5", page_scores=scores)
    assert half.score("q", [alpha, beta]) == pytest.approx([0.95, 0.5])  # evidence on page 2, under Alpha
    assert SimulatedJudge([2], 0.0, 0, "q", "uniform").score("q", [alpha, beta]) == [1.0, 0.0]
    for bad in ("informed", "informed:2", "uniform:0.5", "oracle"):
        with pytest.raises(ValueError):
            SimulatedJudge([2], 0.0, 0, "q", bad, scores)
