"""Answer-level figures from an ``eval --off-topic --out`` results file, and the confidence
calibration (a logistic model over the answer's parts, fitted on halves split by document).

    python -m alphasearch eval ../shared/eval --methods mcts_puct --off-topic --out benchmarks/out/results.jsonl
    python benchmarks/answer_eval.py benchmarks/out/results.jsonl            # figures, held-out AUROC
    python benchmarks/answer_eval.py benchmarks/out/results.jsonl --fit      # also write alphasearch/data/confidence.json

To refit the shipped weights after the search or the answer changes: run the eval above on the
current code (``--methods mcts_puct,flat_read --off-topic``), then ``--fit`` on its rows (the
features default to the shipped model's; ``--features a,b,…`` picks others from PARTS), then run
the eval once more: the parts do not depend on the weights, but which answers fall back does, and
with it the "carries the figure" labels.

Two models of one target (the first page is an evidence page; off-topic questions never): the
confidence (``--features``, off-topic rows counting ``--off-weight``) and the fallback model
(``--fallback-features``, every row counting fully), whose value below the answer threshold makes
the answer fall back. They differ because their jobs differ. The confidence ranks the answers of
questions the document answers (the AUROC below is measured there): the off-topic rows teach it
what a wrong page looks like but at full weight they are half its rows, and it then leans on parts
that tell a document that does not address the question (with the parts shipped, weighing them 0.5
took the held-out AUROC for the first page on the fixed halves from 0.749 / 0.746 to 0.757 /
0.756, mean over 30 other splits 0.729 -> 0.733, 10th percentile 0.656 -> 0.669). The fallback
must separate those documents: held out on the fixed halves, the fallback model lets 23% of
off-topic questions through at 16% fallbacks on answerable ones (threshold 0.25); the confidence
model in its place lets 29% through at 16% (threshold 0.3), and with ``read_ahead`` (how far the
deep read puts the first page ahead of the next nine) added at full weight, 24% at 17%. So the
fallback keeps the parts that tell those documents best, and ``read_ahead`` is the confidence's.

``words_ahead`` (how much more of the question's words, each weighted by its idf squared, the
first page prints than the best of the next nine) is the confidence's too. On rows of 223d878 it
took the held-out AUROC for the first page from 0.745 / 0.734 to 0.770 / 0.765 (30 other splits:
mean 0.716 -> 0.737, 10th percentile 0.646 -> 0.673; better on 60 of the 62 held-out halves);
without ``first_cover`` then (the first page's best sentence, which it makes redundant) 0.787 /
0.761, mean 0.747, p10 0.690. The price is on the other target, "the direct answer carries the
gold figure" (60 questions): 0.875 / 0.838 -> 0.850 / 0.781, mean 0.849 -> 0.807, p10 0.777 ->
0.731 (keeping ``first_cover``: 0.861 / 0.806, mean 0.820). Weighted by idf alone it adds less
(mean 0.740 without ``first_cover``); the first page's share alone, the gap counted over the
question's words the document uses, or the gap in a passage, an opening, the closeness in meaning,
or whether the flat BM25, embedding and sub-query rankings or the search's best sections agree with
the first page add at most +0.005 to the 30-split mean. In the fallback model (fitted on the same
rows, threshold 0.25) it raises the fallbacks on answerable questions from 16% to 18% for 80%
instead of 79% on off-topic ones: ``--keep-fallback`` refits the confidence alone.

Held-out: the documents are split in two halves (``calibration.half_of``); weights fitted on one
half are scored on the other, both ways. ``--fit`` then fits on every row and stores the weights
with how they were fitted. Prints one JSON object; writes benchmarks/out/answer_eval.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from alphasearch.answer import calibration  # noqa: E402
from alphasearch.evaluation.runner import Row, answer_summary, hit_at_k  # noqa: E402

PARTS = ("meaning", "coverage", "in_document", "margin", "figure", "agree", "top_agree", "first_meaning", "fig_first",
         "computed", "ahead", "first_cover", "robust", "first_words", "named_page", "year_missing", "opening",
         "picture_missing", "fit", "read_ahead", "words_ahead")  # every part an answer reports
_SHIPPED = calibration.model()
FEATURES = tuple(_SHIPPED["features"]) if _SHIPPED else PARTS  # by default: the parts the shipped model uses
FALLBACK_FEATURES = tuple(calibration.gate()["features"]) if _SHIPPED else PARTS  # … and its fallback model
OFF_WEIGHT = float(_SHIPPED.get("off_topic_weight", 1.0)) if _SHIPPED else 1.0  # what an off-topic row counts
METHOD = "mcts_puct"


def load(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            rows.append(Row(**{k: v for k, v in d.items() if k in Row.__dataclass_fields__}))
    return rows


def features(rows: list[Row], names: tuple[str, ...]) -> np.ndarray:
    return np.array([[float(r.confidence_parts.get(f, 0.0)) for f in names] for r in rows])


def label(r: Row) -> float:
    """Right: the first page is an evidence page (off-topic questions are never right)."""
    return 0.0 if r.off_topic else hit_at_k(r.pages, r.evidence_pages, 1)


def weights(rows: list[Row], off_weight: float) -> np.ndarray:
    """What each row counts in a fit: ``off_weight`` for an off-topic question, else 1."""
    return np.array([off_weight if r.off_topic else 1.0 for r in rows])


def held_out(rows: list[Row], l2: float, names: tuple[str, ...], seed: int = 0, off_weight: float = 1.0) -> dict:
    """AUROC on each half of the documents (split ``seed``) of weights fitted on the other half."""
    out = {"hit1": [], "figure": [], "weights": []}
    for test in (0, 1):
        train = [r for r in rows if calibration.half_of(r.doc, seed) != test]
        w, b = calibration.fit(features(train, names), np.array([label(r) for r in train]), l2=l2,
                               weights=weights(train, off_weight))
        m = {"features": list(names), "weights": w.tolist(), "bias": b}
        tested = [r for r in rows if calibration.half_of(r.doc, seed) == test and not r.off_topic]
        scores = [calibration.predict(r.confidence_parts, m) for r in tested]
        out["hit1"].append(calibration.auroc(scores, [label(r) > 0 for r in tested]))
        printed = [(s, r) for s, r in zip(scores, tested) if r.gold_printed]
        out["figure"].append(calibration.auroc([s for s, _ in printed], [r.direct_carries for _, r in printed]))
        out["weights"].append([round(x, 3) for x in w.tolist()] + [round(b, 3)])
    return out


def spread(rows: list[Row], l2: float, names: tuple[str, ...], seeds: int, off_weight: float = 1.0) -> dict:
    """Held-out AUROC over ``seeds`` other splits of the documents (seeds 1…N, each both ways):
    mean, 10th percentile and least, for 'first page right' and 'carries the figure'."""
    runs = [held_out(rows, l2, names, seed, off_weight) for seed in range(1, seeds + 1)]
    out: dict = {"splits": seeds}
    for key in ("hit1", "figure"):
        xs = np.array([x for run in runs for x in run[key] if x is not None])
        out[key] = {"mean": round(float(xs.mean()), 3), "p10": round(float(np.percentile(xs, 10)), 3),
                    "min": round(float(xs.min()), 3)} if xs.size else None
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results", help="an eval --off-topic --out results.jsonl")
    p.add_argument("--method", default=METHOD)
    p.add_argument("--l2", type=float, default=0.3, help="L2 penalty of the logistic fit (the shipped model's)")
    p.add_argument("--features", default=",".join(FEATURES),
                   help=f"comma list of confidence parts to use (default: the shipped model's; all: {','.join(PARTS)})")
    p.add_argument("--off-weight", type=float, default=OFF_WEIGHT,
                   help="what an off-topic row counts in the confidence's fit (the shipped model's)")
    p.add_argument("--fallback-features", default=",".join(FALLBACK_FEATURES),
                   help="comma list of confidence parts of the fallback model (default: the shipped one's)")
    p.add_argument("--seeds", type=int, default=30, help="other splits of the documents for the spread (0: none)")
    p.add_argument("--fit", action="store_true", help="write alphasearch/data/confidence.json fitted on every row")
    p.add_argument("--keep-fallback", action="store_true",
                   help="with --fit: keep the shipped fallback model as it is (refit only the confidence)")
    args = p.parse_args(argv)
    names = tuple(f.strip() for f in args.features.split(",") if f.strip())
    gate_names = tuple(f.strip() for f in args.fallback_features.split(",") if f.strip())
    path = Path(args.results)
    if not path.is_file():
        print(f"No results file at {path}; run the eval with --off-topic --out first.")
        return 0
    rows = [r for r in load(path) if r.method == args.method and not r.error]
    if not any(r.confidence_parts for r in rows):
        print("These rows carry no confidence parts (an older eval); nothing to calibrate.")
        return 0
    summary = answer_summary(rows)[args.method]
    report = {"method": args.method, "rows": len(rows), "answers": summary,
              "held_out": held_out(rows, args.l2, names, off_weight=args.off_weight),
              "features": list(names), "l2": args.l2, "off_weight": args.off_weight,
              "fallback_features": list(gate_names)}
    if args.seeds > 0:
        report["held_out_splits"] = spread(rows, args.l2, names, args.seeds, args.off_weight)
    if args.fit:
        labels = np.array([label(r) for r in rows])
        w, b = calibration.fit(features(rows, names), labels, l2=args.l2, weights=weights(rows, args.off_weight))
        gw, gb = calibration.fit(features(rows, gate_names), labels, l2=args.l2)
        on = (f"{len(rows)} answers of {args.method} ({sum(not r.off_topic for r in rows)} labelled questions of "
              f"../shared/eval and as many asked of another source's document), {dt.date.today().isoformat()}")
        model = {
            "features": list(names), "weights": [round(x, 4) for x in w.tolist()], "bias": round(b, 4),
            "off_topic_weight": args.off_weight,
            "target": "the first page returned is an evidence page (off-topic questions: never)",
            "fitted": (f"logistic regression (L2 {args.l2}, off-topic rows counting {args.off_weight}) by "
                       f"benchmarks/answer_eval.py --fit on {on}; held-out AUROC for the first page, fitted on "
                       f"one half of the documents and scored on the other: "
                       + " / ".join(f"{x:.3f}" for x in report["held_out"]["hit1"] if x is not None)
                       + (f" (mean over {args.seeds} other splits, both ways: "
                          f"{report['held_out_splits']['hit1']['mean']:.3f}, 10th percentile "
                          f"{report['held_out_splits']['hit1']['p10']:.3f})" if args.seeds > 0 else "")),
            "fallback": dict(_SHIPPED["fallback"]) if args.keep_fallback and _SHIPPED.get("fallback") else {
                "features": list(gate_names), "weights": [round(x, 4) for x in gw.tolist()], "bias": round(gb, 4),
                "use": "the answer falls back when this model's value is below the answer threshold",
                "fitted": f"logistic regression (L2 {args.l2}, every row counting fully) on {on}",
            },
        }
        calibration.WEIGHTS_FILE.write_text(json.dumps(model, indent=2) + "\n", "utf-8")
        report["written"] = str(calibration.WEIGHTS_FILE.relative_to(REPO))
    out = REPO / "benchmarks" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "answer_eval.json").write_text(json.dumps(report, indent=2), "utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
