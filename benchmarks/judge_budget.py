"""Judge-budget study — a SIMULATION: how many judge calls does each search need?

An LLM judge is expensive per node, so the question is how much page-level
retrieval (hit@3) each search strategy buys per judge call. Here a simulated
judge stands in for the LLM. Two judge models:

- ``uniform``: reward = 1 when the node's page range contains an evidence page
  of the question (from the eval set), else 0, plus Gaussian noise N(0, sigma),
  clipped to [0, 1] — equally reliable on a 2-page leaf and a 200-page chapter;
- ``diluted``: the same, but the signal of an evidence-holding node shrinks with
  its length, 1 × min(1, sqrt(8 / pages)) — a judge reading a long section's
  summary is less sure than one reading a short section's text.

The noise of one node is fixed per (seed, question, node), like a cached LLM
reply, so every method sees the same judge. One call = one node judged.

Methods, on the eval set's real section trees (offline indexer, cached):
MCTS-UCB1 (uniform priors), MCTS-PUCT with the engine's offline prior
(``scorers.PriorScorer``, free: no judge calls), greedy, beam (widths 2, 3, 5)
and exhaustive. The page ranking of a search, the same rule for all
(``baselines.trace_page_order``): each page takes the Q of the deepest visited
section containing it; ties (pages of one section) are ordered by the engine's
offline page scores (the deep read). Reference without any judge: those page
scores alone (``flat offline``).

    python benchmarks/judge_budget.py [--eval-dir ../shared/eval] [--limit N] [--sigmas 0,0.2,0.4]
                                      [--judges uniform,diluted]

Writes benchmarks/out/judge_budget.{json,html,png} and prints the table and the
answer to: does PUCT with the offline prior need fewer judge calls than UCB1 and
greedy for the same hit@3? Exits 0 with a note when the eval set is absent.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, Trees, eval_dir_or_none, load_questions, machine_line, say_absent  # noqa: E402

from alphasearch.baselines import beam, exhaustive, greedy, trace_page_order  # noqa: E402
from alphasearch.config import Settings  # noqa: E402
from alphasearch.mcts import PRIOR_MIX, search  # noqa: E402
from alphasearch.models import Section  # noqa: E402
from alphasearch.scorers import PageRanker, PriorScorer  # noqa: E402

ITERATIONS = (3, 5, 8, 12, 20, 30, 50, 80, 120)
BEAM_WIDTHS = (2, 3, 5)
METHODS = ("puct", "puct_raw", "ucb1", "greedy", "beam", "exhaustive")
JUDGES = {
    "uniform": "reward = 1[node pages contain an evidence page] + N(0, σ), clipped to [0, 1]",
    "diluted": "reward = 1[node pages contain an evidence page] × min(1, sqrt(8 / node pages)) + N(0, σ), "
               "clipped to [0, 1]",
}
DILUTION_PAGES = 8  # the offline indexer's max leaf length


class SimulatedJudge:
    """Reward = signal + N(0, sigma), clipped to [0, 1]; the signal is 1 when the
    node's pages contain an evidence page (``uniform``), scaled by
    min(1, sqrt(8 / pages)) for ``diluted``, else 0.

    Deterministic per (seed, question id, node id); ``calls`` counts nodes judged."""

    batch_siblings = False

    def __init__(self, evidence: Sequence[int], sigma: float, seed: int, qid: str, kind: str = "uniform"):
        if kind not in JUDGES:
            raise ValueError(f"Unknown judge {kind!r}; choose one of {', '.join(JUDGES)}.")
        self.evidence = sorted(set(evidence))
        self.sigma = sigma
        self.kind = kind
        self.key = f"{seed}|{qid}"
        self.calls = 0

    def truth(self, section: Section) -> float:
        a, b = section.pages
        if not any(a <= p <= b for p in self.evidence):
            return 0.0
        if self.kind == "diluted":
            return min(1.0, (DILUTION_PAGES / (b - a + 1)) ** 0.5)
        return 1.0

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        out = []
        for s in sections:
            self.calls += 1
            noise = 0.0
            if self.sigma > 0:
                digest = hashlib.blake2b(f"{self.key}|{s.node_id}|{s.pages}".encode(), digest_size=8).digest()
                noise = random.Random(int.from_bytes(digest, "big")).gauss(0.0, self.sigma)
            out.append(min(1.0, max(0.0, self.truth(s) + noise)))
        return out


def hit(pages: Sequence[int], evidence: Sequence[int], k: int) -> float:
    return 1.0 if set(pages[:k]) & set(evidence) else 0.0


def run(args: argparse.Namespace) -> int:
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line())
    print("SIMULATION: the judge is simulated from the evidence pages, not an LLM.")
    questions = load_questions(eval_dir)
    if args.limit:
        questions = random.Random(args.seed).sample(questions, min(args.limit, len(questions)))
    sigmas = [float(s) for s in args.sigmas.split(",")]
    judges = [j.strip() for j in args.judges.split(",") if j.strip()]
    unknown = [j for j in judges if j not in JUDGES]
    if unknown or not judges:
        raise SystemExit(f"Unknown judge(s) {unknown}; choose from {', '.join(JUDGES)}.")
    configs = [(j, s) for j in judges for s in sigmas]
    settings = Settings()
    trees = Trees(eval_dir)
    started = time.perf_counter()
    # rows[(judge, sigma, method, budget)] -> list of (calls, hit@1, hit@3, hit@5)
    rows: dict[tuple[str, float, str, int], list[tuple[int, float, float, float]]] = defaultdict(list)
    flat: list[tuple[float, float, float, float]] = []  # hit@1, hit@3, hit@5, reciprocal rank (top 20)
    tree_nodes: list[int] = []
    by_doc: dict[str, list] = defaultdict(list)
    for q in questions:
        by_doc[q.doc].append(q)
    for doc_name, qs in sorted(by_doc.items()):
        doc = trees.get(doc_name)
        ranker = PageRanker(doc)
        prior = PriorScorer(doc)
        # puct: the engine's rule (P mixes the prior with a uniform share); puct_raw: P = the
        # normalised prior alone, so a child the prior scores 0 is never visited
        priors = {"puct": (prior, PRIOR_MIX), "puct_raw": (prior, 0.0), "ucb1": (None, PRIOR_MIX)}
        n_nodes = doc.section_count()
        for q in qs:
            tree_nodes.append(n_nodes)
            page_scores = ranker.scores(q.question)
            flat_pages = trace_page_order_flat(page_scores)
            ev = set(q.evidence_pages)
            rr = next((1.0 / i for i, p in enumerate(flat_pages[:20], 1) if p in ev), 0.0)
            flat.append((*(hit(flat_pages, q.evidence_pages, k) for k in (1, 3, 5)), rr))
            for kind, sigma in configs:
                def measure(method: str, budget: int, trace_fn) -> None:
                    judge = SimulatedJudge(q.evidence_pages, sigma, args.seed, q.id, kind)
                    trace = trace_fn(judge)
                    pages = trace_page_order(trace, doc.page_count, page_scores)
                    rows[(kind, sigma, method, budget)].append(
                        (judge.calls, *(hit(pages, q.evidence_pages, k) for k in (1, 3, 5))))

                for it in ITERATIONS:
                    for method, (p, mix) in priors.items():
                        measure(method, it, lambda j, it=it, p=p, mix=mix, method=method: search(
                            doc.root, q.question, j, prior=p, prior_mix=mix, iterations=it, c=settings.exploration,
                            rule="ucb1" if method == "ucb1" else "puct", rng=random.Random(args.seed),
                            confidence_threshold=settings.confidence_threshold))
                measure("greedy", 1, lambda j: greedy(doc.root, q.question, j))
                for w in BEAM_WIDTHS:
                    measure("beam", w, lambda j, w=w: beam(doc.root, q.question, j, width=w))
                measure("exhaustive", 0, lambda j: exhaustive(doc.root, q.question, j))
    seconds = time.perf_counter() - started

    table = []
    order = {c: i for i, c in enumerate(configs)}
    for (kind, sigma, method, budget), vals in sorted(
            rows.items(), key=lambda kv: (order[kv[0][:2]], METHODS.index(kv[0][2]), kv[0][3])):
        table.append({
            "judge": kind, "sigma": sigma, "method": method, "budget": budget,
            "budget_label": _budget_label(method, budget),
            "judge_calls": round(statistics.fmean(v[0] for v in vals), 2),
            "hit@1": round(statistics.fmean(v[1] for v in vals), 4),
            "hit@3": round(statistics.fmean(v[2] for v in vals), 4),
            "hit@5": round(statistics.fmean(v[3] for v in vals), 4),
            "n": len(vals),
        })
    flat_row = {f"hit@{k}": round(statistics.fmean(f[i] for f in flat), 4) for i, k in enumerate((1, 3, 5))}
    flat_row["mrr"] = round(statistics.fmean(f[3] for f in flat), 4)
    verdict = answer(table, configs)
    result = {
        "simulation": True,
        "judges": {j: JUDGES[j] for j in judges},
        "sigmas": sigmas,
        "prior_mix": PRIOR_MIX,
        "machine": machine_line(),
        "questions": len(questions),
        "documents": len(by_doc),
        "mean_tree_nodes": round(statistics.fmean(tree_nodes), 1),
        "iterations": list(ITERATIONS),
        "beam_widths": list(BEAM_WIDTHS),
        "seed": args.seed,
        "seconds": round(seconds, 1),
        "flat_offline": flat_row,
        "rows": table,
        "verdict": verdict,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "judge_budget.json").write_text(json.dumps(result, indent=1))
    print_table(result)
    plot(result, out)
    return 0


def trace_page_order_flat(page_scores) -> list[int]:
    import numpy as np

    order = np.lexsort((np.arange(page_scores.size), -page_scores))
    return [int(i) + 1 for i in order]


def _budget_label(method: str, budget: int) -> str:
    if method in ("puct", "puct_raw", "ucb1"):
        return f"{budget} it"
    if method == "beam":
        return f"w={budget}"
    return ""


def calls_to_reach(rows: list[dict], target: float) -> float | None:
    """Fewest mean judge calls at which a method's hit@3 reaches ``target`` (None if never)."""
    ok = [r["judge_calls"] for r in rows if r["hit@3"] >= target - 1e-9]
    return min(ok) if ok else None


def answer(table: list[dict], configs: Sequence[tuple[str, float]]) -> list[dict]:
    """Per judge and noise level: the calls PUCT and UCB1 need to match greedy's
    hit@3, and hit@3 of PUCT vs UCB1 at the same iteration budgets."""
    out = []
    for kind, sigma in configs:
        at = [r for r in table if r["sigma"] == sigma and r["judge"] == kind]
        by = {m: [r for r in at if r["method"] == m] for m in METHODS}
        g = by["greedy"][0]
        ex = by["exhaustive"][0]
        puct_g, ucb_g = calls_to_reach(by["puct"], g["hit@3"]), calls_to_reach(by["ucb1"], g["hit@3"])
        wins = sum(1 for p, u in zip(by["puct"], by["ucb1"]) if p["hit@3"] > u["hit@3"])
        ties = sum(1 for p, u in zip(by["puct"], by["ucb1"]) if p["hit@3"] == u["hit@3"])
        best_puct = max(by["puct"], key=lambda r: r["hit@3"])
        target = min(best_puct["hit@3"], max(r["hit@3"] for r in by["ucb1"]))
        out.append({
            "judge": kind,
            "sigma": sigma,
            "greedy": {"calls": g["judge_calls"], "hit@3": g["hit@3"]},
            "exhaustive": {"calls": ex["judge_calls"], "hit@3": ex["hit@3"]},
            "puct_calls_to_match_greedy": puct_g,
            "ucb1_calls_to_match_greedy": ucb_g,
            "common_target_hit@3": target,
            "puct_calls_to_common_target": calls_to_reach(by["puct"], target),
            "puct_raw_calls_to_match_greedy": calls_to_reach(by["puct_raw"], g["hit@3"]),
            "puct_raw_calls_to_common_target": calls_to_reach(by["puct_raw"], target),
            "ucb1_calls_to_common_target": calls_to_reach(by["ucb1"], target),
            "puct_beats_ucb1_at_same_iterations": f"{wins} of {len(by['puct'])} ({ties} ties)",
        })
    return out


def _fmt(x: float | None) -> str:
    return "never" if x is None else f"{x:.1f}"


def print_table(result: dict) -> None:
    print(f"\n{result['questions']} questions on {result['documents']} documents; "
          f"mean tree size {result['mean_tree_nodes']} nodes; {result['seconds']} s")
    f = result["flat_offline"]
    print(f"flat offline page scores, 0 judge calls: hit@1 {f['hit@1']:.3f}  hit@3 {f['hit@3']:.3f}  hit@5 {f['hit@5']:.3f}")
    print(f"\n{'judge':<8} {'sigma':>5}  {'method':<10} {'budget':>7} {'calls':>7} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6}")
    for r in result["rows"]:
        print(f"{r['judge']:<8} {r['sigma']:>5.2f}  {r['method']:<10} {r['budget_label']:>7} {r['judge_calls']:>7.1f} "
              f"{r['hit@1']:>6.3f} {r['hit@3']:>6.3f} {r['hit@5']:>6.3f}")
    print("\nDoes PUCT with the offline prior need fewer judge calls than UCB1 and greedy for the same hit@3?")
    for v in result["verdict"]:
        print(f"  {v['judge']} judge, sigma {v['sigma']:.2f}: greedy hit@3 {v['greedy']['hit@3']:.3f} with {v['greedy']['calls']:.1f} calls; "
              f"to match it PUCT needs {_fmt(v['puct_calls_to_match_greedy'])}, UCB1 {_fmt(v['ucb1_calls_to_match_greedy'])} calls. "
              f"To reach hit@3 {v['common_target_hit@3']:.3f}: PUCT {_fmt(v['puct_calls_to_common_target'])}, "
              f"UCB1 {_fmt(v['ucb1_calls_to_common_target'])}, PUCT without the uniform mix "
              f"{_fmt(v['puct_raw_calls_to_common_target'])} calls (to match greedy: "
              f"{_fmt(v['puct_raw_calls_to_match_greedy'])}). PUCT > UCB1 at {v['puct_beats_ucb1_at_same_iterations']}. "
              f"Exhaustive: {v['exhaustive']['hit@3']:.3f} with {v['exhaustive']['calls']:.1f} calls.")


NAMES = {"puct": "MCTS-PUCT (offline prior)", "puct_raw": "MCTS-PUCT (prior alone, no uniform mix)",
         "ucb1": "MCTS-UCB1", "greedy": "greedy", "beam": "beam (w=2,3,5)",
         "exhaustive": "exhaustive"}
COLOURS = {"puct": "#1f77b4", "puct_raw": "#17becf", "ucb1": "#ff7f0e", "greedy": "#2ca02c", "beam": "#9467bd", "exhaustive": "#d62728"}


def plot(result: dict, out: Path) -> None:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    sigmas = result["sigmas"]
    judges = list(result["judges"])
    fig = make_subplots(rows=len(judges), cols=len(sigmas), shared_yaxes=True, shared_xaxes=True,
                        vertical_spacing=0.12, horizontal_spacing=0.04,
                        subplot_titles=[f"{j} judge, σ = {s:g}" for j in judges for s in sigmas])
    for (row, kind), (col, sigma) in ((jr, sc) for jr in enumerate(judges, start=1) for sc in enumerate(sigmas, start=1)):
        for m in METHODS:
            rs = [r for r in result["rows"] if r["sigma"] == sigma and r["method"] == m and r["judge"] == kind]
            fig.add_trace(go.Scatter(
                x=[r["judge_calls"] for r in rs], y=[r["hit@3"] for r in rs], name=NAMES[m],
                mode="lines+markers" if len(rs) > 1 else "markers", legendgroup=m, showlegend=col == 1 and row == 1,
                marker={"color": COLOURS[m], "size": 8}, line={"color": COLOURS[m]},
                text=[r["budget_label"] for r in rs],
                hovertemplate="%{text} calls %{x:.1f} hit@3 %{y:.3f}"), row=row, col=col)
        note = {"annotation_text": "flat offline, 0 calls"} if col == 1 else {}
        fig.add_hline(y=result["flat_offline"]["hit@3"], line_dash="dot", line_color="grey", row=row, col=col, **note)
        fig.update_xaxes(type="log", row=row, col=col,
                         title_text="mean judge calls per question (log)" if row == len(judges) else None)
        if col == 1:
            fig.update_yaxes(title_text="hit@3", row=row, col=col)
    fig.update_layout(title=f"Judge-budget study (SIMULATED judge), {result['questions']} questions",
                      width=330 * len(sigmas) + 140, height=330 * len(judges) + 170, template="plotly_white",
                      legend={"orientation": "h", "y": -0.12}, margin={"t": 80})
    fig.write_html(out / "judge_budget.html", include_plotlyjs="cdn")
    try:
        fig.write_image(out / "judge_budget.png", scale=1)
        print(f"\nplot: {out / 'judge_budget.png'} and {out / 'judge_budget.html'}")
    except Exception as exc:  # kaleido missing or no Chrome: the HTML still exists
        print(f"\nplot: {out / 'judge_budget.html'} (PNG export failed: {exc})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None, help="eval set folder (default ../shared/eval)")
    p.add_argument("--limit", type=int, default=0, help="sample this many questions (0 = all)")
    p.add_argument("--sigmas", default="0,0.2,0.4", help="judge noise levels, comma-separated")
    p.add_argument("--judges", default="uniform,diluted", help=f"judge models, comma-separated: {', '.join(JUDGES)}")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(OUT))
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
