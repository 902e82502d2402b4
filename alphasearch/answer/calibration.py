"""Confidence as a small logistic model over the answer's parts (no I/O but reading its weights).

The weights live in ``data/confidence.json`` with how they were fitted; they are
fitted by :func:`fit` (``benchmarks/answer_eval.py --fit``) on labelled
questions, the documents split into halves so every reported AUROC is measured
on documents the weights never saw. The file holds two models of the same target
(the first page is right; a question asked of another source's document never is):
the confidence, which ranks the answers of questions a document can answer, and
under ``"fallback"`` the one whose value decides whether to answer at all (:func:`gate`),
which must also tell a document that does not address the question — the parts that
rank answers best are not those that do that best (see ``benchmarks/answer_eval.py``).
Pure functions: AUROC, halves by document, logistic regression (Newton steps with a
small L2 penalty, rows optionally weighted).
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

WEIGHTS_FILE = Path(__file__).parent.parent / "data" / "confidence.json"


@lru_cache(maxsize=1)
def model() -> dict:
    """{"features": [...], "weights": [...], "bias": b, "fitted": "how"}, or {} when absent."""
    try:
        return json.loads(WEIGHTS_FILE.read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def gate() -> dict:
    """The model whose value decides whether to answer (``"fallback"`` in the file; without one,
    the confidence model itself), or {} when there is no model."""
    m = model()
    return m.get("fallback") or m


def predict(parts: Mapping[str, float], m: Mapping | None = None) -> float | None:
    """P(the answer is right) in [0, 1] from the answer's parts; None without a model."""
    m = model() if m is None else m
    if not m:
        return None
    z = m["bias"] + sum(w * float(parts.get(f, 0.0)) for f, w in zip(m["features"], m["weights"]))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(x: np.ndarray, y: np.ndarray, *, l2: float = 1.0, steps: int = 50,
        weights: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Logistic regression weights and bias for features ``x`` (n × d) and labels ``y`` in {0, 1};
    ``weights``: how much each row counts (default 1 each)."""
    n, d = x.shape
    sw = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    a = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0  # the bias is not penalised
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -30, 30)))
        grad = a.T @ (sw * (p - y)) + reg * w
        hess = (a * (sw * p * (1 - p))[:, None]).T @ a + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Probability that a random positive scores above a random negative (ties count half)."""
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    if not pos or not neg:
        return None
    s = np.asarray(scores, dtype=float)
    order = s.argsort(kind="mergesort")
    ranks = np.empty(len(s))
    sorted_s = s[order]
    i = 0
    while i < len(s):  # average ranks over ties
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos_ranks = ranks[np.asarray(labels, dtype=bool)].sum()
    return float((pos_ranks - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def half_of(doc: str, seed: int = 0) -> int:
    """0 or 1: a fixed split of documents into halves (by a hash of the file name); another
    ``seed`` gives another split, to see that a held-out figure is not one lucky split."""
    key = doc if seed == 0 else f"{seed}:{doc}"
    return hashlib.sha256(key.encode("utf-8")).digest()[0] % 2
