"""Judge-budget study — a SIMULATION: how many judge calls does each search need?

An LLM judge is expensive per node, so the question is how much page-level
retrieval (hit@3) each search strategy buys per judge call. Here a simulated
judge stands in for the LLM. Two judge models:

- ``uniform``: reward = 1 when the node's page range contains an evidence page
  of the question (from the eval set), else 0, plus Gaussian noise N(0, sigma),
  clipped to [0, 1] — equally reliable on a 2-page leaf and a 200-page chapter;
- ``diluted``: the same, but the signal of an evidence-holding node shrinks with
  its length, 1 × min(1, sqrt(8 / pages)) — a judge reading a long section's
  summary is less sure than one reading a short section's text;
- ``informed:a`` (asked for by name): (1 − a) × the best offline page score in the node's
  pages + a × 1[evidence there] + N(0, sigma) — a judge that knows a share ``a`` more than
  the page ranker (a = 0: what the offline engine's judge knows).

The noise of one node is fixed per (seed, question, node), like a cached LLM
reply, so every method sees the same judge. One call = one node judged;
``requests`` counts scorer invocations, where siblings judged together are one
request (what an LLM judge that batches siblings, like the engine's, is billed).

Methods, on the eval set's real section trees (offline indexer, cached):
``default`` — the engine's search (PUCT with the offline prior, ``scorers.PriorScorer``,
free; siblings judged together; leaf sections expand into pages, each page read is
one judge call on that page; max backup; selection mixes a judged node's reward
with the best offline page score in its range, ``mcts.PAGE_WEIGHT``, Q stays the
judge's; stops when a page read is confident or the tree is exhausted); ``no_pages``
— the same without reading pages (so without the page mix); ``one_by_one``
— the same judging one node per iteration (no sibling batch); ``ucb1`` —
the same search with UCB1 and no prior (reading pages, it mixes the page scores too); ``reference`` — the reference system's
MCTS (``baselines.mcts_reference``: one node per iteration, no cache, so a
revisited leaf costs a call again: ``calls`` counts real calls, ``distinct`` the
distinct nodes judged); greedy, beam (widths 2, 3, 5) and exhaustive. The page ranking of a search, the same rule for all
(``baselines.trace_page_order``): pages a search read and confirmed (judged ≥ 0.75)
first, then each page takes the Q of the deepest visited node containing it;
ties (pages of one section) are ordered by the engine's offline page scores. Reference without any judge: those page
scores alone (``flat offline``).

    python benchmarks/judge_budget.py [--eval-dir ../shared/eval] [--limit N] [--sigmas 0,0.2,0.4]
                                      [--judges uniform,diluted]

Writes benchmarks/out/judge_budget.{json,html,png} and prints the table, the
share of iterations that judged nothing new, and the answer to: is the default
search on the frontier (no method reaches a higher hit@3 with the same or fewer
calls), and does it beat the reference at equal calls? Exits 0 with a note when
the eval set is absent.

It also asks the issue's other question with the simulated judge: does the search beat **flat
reading** at an equal number of pages read? ``flat_read`` (not a rival on the frontier, a
baseline per budget) judges the page ranker's top N pages with the same simulated judge, N = the
pages the default search read on that question at that budget, and ranks them by the same rule
(pages judged ≥ 0.75 first, then the page scores). Offline the judge of a page is the page
ranker's own score, so there the two differ by little (RESULTS.md); a judge that knows more than
the ranker is what the tree can use.
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

from alphasearch.search.baselines import (
    CONFIRMED, beam, distinct_judged, exhaustive, greedy, mcts_reference, trace_page_order,
)  # noqa: E402
from alphasearch.config import Settings  # noqa: E402
from alphasearch.answer.ranking import section_of  # noqa: E402
from alphasearch.search.mcts import PRIOR_MIX, idle_iterations, is_page, page_node, search  # noqa: E402
from alphasearch.search.reading import PageReader  # noqa: E402
from alphasearch.models import Section  # noqa: E402
from alphasearch.index.ranker import PageRanker
from alphasearch.search.scorers import PriorScorer  # noqa: E402

ITERATIONS = (1, 2, 3, 5, 8, 12, 25, 50, 100)
BEAM_WIDTHS = (2, 3, 5)
METHODS = ("default", "no_pages", "one_by_one", "ucb1", "reference", "greedy", "beam", "exhaustive", "flat_read")
SEARCHES = ("default", "no_pages", "one_by_one", "ucb1", "reference")  # budgets are iterations
VARIANTS = ("default", "no_pages", "one_by_one")  # the default and its ablations (not rivals on the frontier)
BASELINES = ("flat_read",)  # the page ranker's top pages judged: a baseline at equal pages read, not a search
JUDGES = {
    "uniform": "reward = 1[node pages contain an evidence page] + N(0, σ), clipped to [0, 1]",
    "diluted": "reward = 1[node pages contain an evidence page] × min(1, sqrt(8 / node pages)) + N(0, σ), "
               "clipped to [0, 1]",
    "informed": "informed:a — reward = (1 − a) × the best offline page score in the node's pages + a × "
                "1[node pages contain an evidence page] + N(0, σ), clipped to [0, 1]: a judge that knows "
                "a share a more than the page ranker (a = 0: the ranker itself)",
}


def judge_kind(name: str) -> tuple[str, float]:
    """("informed", a) for "informed:a" (a in [0, 1]), else (name, 1.0); ValueError for an unknown judge."""
    kind, _, share = name.partition(":")
    if kind not in JUDGES or (share and kind != "informed") or (kind == "informed" and not share):
        raise ValueError(f"Unknown judge {name!r}; choose from uniform, diluted, informed:a (a in [0, 1]).")
    a = float(share) if share else 1.0
    if not 0.0 <= a <= 1.0:
        raise ValueError(f"Judge {name!r}: the share a must be in [0, 1].")
    return kind, a
DILUTION_PAGES = 8  # the offline indexer's max leaf length


class SimulatedJudge:
    """Reward = signal + N(0, sigma), clipped to [0, 1]; the signal is 1 when the
    node's pages contain an evidence page (``uniform``), scaled by
    min(1, sqrt(8 / pages)) for ``diluted``, else 0.

    Deterministic per (seed, question id, node id); ``calls`` counts nodes judged."""

    batch_siblings = False

    def __init__(self, evidence: Sequence[int], sigma: float, seed: int, qid: str, kind: str = "uniform",
                 page_scores: Sequence[float] | None = None):
        self.kind, self.share = judge_kind(kind)
        if self.kind == "informed" and page_scores is None:
            raise ValueError("An informed judge needs the offline page scores.")
        self.page_scores = page_scores
        self.evidence = sorted(set(evidence))
        self.sigma = sigma
        self.key = f"{seed}|{qid}"
        self.calls = 0
        self.requests = 0  # scorer invocations: a batch of siblings is one request (one LLM call)

    def truth(self, section: Section) -> float:
        a, b = section.pages
        if self.kind == "informed":
            known = float(max(self.page_scores[max(0, a - 1):b], default=0.0))
            return (1 - self.share) * known + self.share * float(any(a <= p <= b for p in self.evidence))
        if not any(a <= p <= b for p in self.evidence):
            return 0.0
        if self.kind == "diluted":
            return min(1.0, (DILUTION_PAGES / (b - a + 1)) ** 0.5)
        return 1.0

    def score(self, question: str, sections: Sequence[Section]) -> list[float]:
        out = []
        self.requests += 1
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
    try:
        for j in judges:
            judge_kind(j)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    if not judges:
        raise SystemExit("No judge given; choose from uniform, diluted, informed:a.")
    configs = [(j, s) for j in judges for s in sigmas]
    settings = Settings()
    trees = Trees(eval_dir)
    started = time.perf_counter()
    # rows[(judge, sigma, method, budget)] -> (calls, hit@1, hit@3, hit@5, distinct, iterations, judged nothing)
    rows: dict[tuple[str, float, str, int], list[tuple]] = defaultdict(list)
    flat: list[tuple[float, float, float, float]] = []  # hit@1, hit@3, hit@5, reciprocal rank (top 20)
    tree_nodes: list[int] = []
    by_doc: dict[str, list] = defaultdict(list)
    for q in questions:
        by_doc[q.doc].append(q)
    for doc_name, qs in sorted(by_doc.items()):
        doc = trees.get(doc_name)
        ranker = PageRanker(doc)
        prior = PriorScorer(doc)
        n_nodes = doc.section_count()
        for q in qs:
            tree_nodes.append(n_nodes)
            page_scores = ranker.scores(q.question)
            flat_pages = trace_page_order_flat(page_scores)
            ev = set(q.evidence_pages)
            rr = next((1.0 / i for i, p in enumerate(flat_pages[:20], 1) if p in ev), 0.0)
            flat.append((*(hit(flat_pages, q.evidence_pages, k) for k in (1, 3, 5)), rr))
            for kind, sigma in configs:
                def measure(method: str, budget: int, trace_fn):
                    judge = SimulatedJudge(q.evidence_pages, sigma, args.seed, q.id, kind, page_scores)
                    trace = trace_fn(judge)
                    pages = trace_page_order(trace, doc.page_count, page_scores)
                    rows[(kind, sigma, method, budget)].append(
                        (judge.calls, *(hit(pages, q.evidence_pages, k) for k in (1, 3, 5)),
                         distinct_judged(trace), len(trace.steps), idle_iterations(trace), judge.requests))
                    return trace

                def measure_flat(budget: int, n: int) -> None:
                    judge = SimulatedJudge(q.evidence_pages, sigma, args.seed, q.id, kind, page_scores)
                    pages = flat_read_order(doc.root, q.question, judge, page_scores, n)
                    rows[(kind, sigma, "flat_read", budget)].append(
                        (judge.calls, *(hit(pages, q.evidence_pages, k) for k in (1, 3, 5)), judge.calls, 0, 0,
                         judge.requests))

                def ours(j, it, method):
                    reader = PageReader(doc, ranker, judge=j) if method != "no_pages" else None
                    return search(doc.root, q.question, j, prior=None if method == "ucb1" else prior, reader=reader,
                                  iterations=it, c=settings.exploration, rule="ucb1" if method == "ucb1" else "puct",
                                  rng=random.Random(args.seed), confidence_threshold=settings.confidence_threshold,
                                  batch_siblings=method != "one_by_one")

                for it in ITERATIONS:
                    for method in ("default", "no_pages", "one_by_one", "ucb1"):
                        trace = measure(method, it, lambda j, it=it, method=method: ours(j, it, method))
                        if method == "default":
                            measure_flat(it, sum(1 for n in trace.root.walk() if is_page(n.section) and n.reward is not None))
                    measure("reference", it, lambda j, it=it: mcts_reference(doc.root, q.question, j, iterations=it,
                                                                             rng=random.Random(args.seed)))
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
            "distinct": round(statistics.fmean(v[4] for v in vals), 2),
            "iterations": round(statistics.fmean(v[5] for v in vals), 2),
            "judged_nothing": round(sum(v[6] for v in vals) / max(1, sum(v[5] for v in vals)), 4),
            "requests": round(statistics.fmean(v[7] for v in vals), 2),
            "n": len(vals),
        })
    flat_row = {f"hit@{k}": round(statistics.fmean(f[i] for f in flat), 4) for i, k in enumerate((1, 3, 5))}
    flat_row["mrr"] = round(statistics.fmean(f[3] for f in flat), 4)
    verdict = answer(table, configs)
    result = {
        "simulation": True,
        "judges": {j: JUDGES[judge_kind(j)[0]] for j in judges},
        "sigmas": sigmas,
        "prior_mix": PRIOR_MIX,
        "searches": list(SEARCHES),
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


def flat_read_order(root: Section, question: str, judge: SimulatedJudge, page_scores, n: int,
                    confirmed: float = CONFIRMED) -> list[int]:
    """Flat reading with the judge: the page ranker's top ``n`` pages judged (one call each, as the
    search's page nodes: the same node ids, so the same simulated noise), those judged ≥
    ``confirmed`` first (best first), then every page by its page score."""
    order = trace_page_order_flat(page_scores)
    top = order[:n]
    read = dict(zip(top, judge.score(question, [page_node(section_of(root, p), p) for p in top]))) if top else {}
    first = sorted((p for p, r in read.items() if r >= confirmed), key=lambda p: -read[p])  # stable: ranker order
    confirmed_pages = set(first)
    return first + [p for p in order if p not in confirmed_pages]


def trace_page_order_flat(page_scores) -> list[int]:
    import numpy as np

    order = np.lexsort((np.arange(page_scores.size), -page_scores))
    return [int(i) + 1 for i in order]


def _budget_label(method: str, budget: int) -> str:
    if method in SEARCHES:
        return f"{budget} it"
    if method == "beam":
        return f"w={budget}"
    return ""


def calls_to_reach(rows: list[dict], target: float) -> float | None:
    """Fewest mean judge calls at which a method's hit@3 reaches ``target`` (None if never)."""
    ok = [r["judge_calls"] for r in rows if r["hit@3"] >= target - 1e-9]
    return min(ok) if ok else None


def answer(table: list[dict], configs: Sequence[tuple[str, float]]) -> list[dict]:
    """Per judge and noise level: is the default search on the frontier (no other
    method's budget point has the same or fewer calls and a higher hit@3), and
    how does it fare against the reference at equal calls (the default's best
    hit@3 with at most the reference's calls, real or distinct)?"""
    out = []
    for kind, sigma in configs:
        at = [r for r in table if r["sigma"] == sigma and r["judge"] == kind]
        mine = [r for r in at if r["method"] == "default"]
        others = [r for r in at if r["method"] not in VARIANTS + BASELINES]
        beaten = []
        for d in mine:
            for o in others:
                if o["judge_calls"] <= d["judge_calls"] + 1e-9 and o["hit@3"] > d["hit@3"] + 1e-9:
                    beaten.append(f"{o['method']} {o['budget_label']} ({o['hit@3']:.3f} with {o['judge_calls']:.1f}) "
                                  f"over default {d['budget_label']} ({d['hit@3']:.3f} with {d['judge_calls']:.1f})")
        vs_ref = []
        for r in (x for x in at if x["method"] == "reference"):
            for unit in ("judge_calls", "distinct"):
                ok = [d["hit@3"] for d in mine if d["judge_calls"] <= r[unit] + 1e-9]
                vs_ref.append({"reference": r["budget_label"], "unit": unit, "calls": r[unit],
                               "reference_hit@3": r["hit@3"], "default_hit@3": max(ok) if ok else None})
        by_requests = []  # a batching LLM judge: siblings judged together are one request
        for r in (x for x in at if x["method"] == "reference"):
            ok = [d["hit@3"] for d in mine if d.get("requests", d["judge_calls"]) <= r.get("requests", r["judge_calls"]) + 1e-9]
            by_requests.append((max(ok) if ok else None, r["hit@3"]))
        flat = {r["budget"]: r for r in at if r["method"] == "flat_read"}
        vs_flat = [{"budget": d["budget"], "pages_read": flat[d["budget"]]["judge_calls"], "default_hit@1": d["hit@1"],
                    "flat_read_hit@1": flat[d["budget"]]["hit@1"], "gap": round(d["hit@1"] - flat[d["budget"]]["hit@1"], 4)}
                   for d in mine if d["budget"] in flat]
        best = max(mine, key=lambda r: (r["hit@3"], -r["judge_calls"]))
        out.append({
            "judge": kind, "sigma": sigma,
            "default_on_frontier": not beaten, "beaten_by": beaten,
            "default_best": {"budget": best["budget_label"], "calls": best["judge_calls"], "hit@3": best["hit@3"]},
            "vs_reference": vs_ref,
            "vs_flat_read": vs_flat,
            "default_wins_vs_reference": sum(1 for v in vs_ref if v["default_hit@3"] is not None
                                             and v["default_hit@3"] > v["reference_hit@3"]),
            "vs_reference_compared": len(vs_ref),
            "default_wins_vs_reference_requests": sum(1 for d, r in by_requests if d is not None and d > r),
            "vs_reference_requests_compared": len(by_requests),
            "judged_nothing": {m: round(sum(r["judged_nothing"] * r["iterations"] * r["n"] for r in at if r["method"] == m)
                                        / max(1e-9, sum(r["iterations"] * r["n"] for r in at if r["method"] == m)), 4)
                               for m in SEARCHES},
        })
    return out


def _fmt(x: float | None) -> str:
    return "never" if x is None else f"{x:.3f}"


def print_table(result: dict) -> None:
    print(f"\n{result['questions']} questions on {result['documents']} documents; "
          f"mean tree size {result['mean_tree_nodes']} nodes; {result['seconds']} s")
    f = result["flat_offline"]
    print(f"flat offline page scores, 0 judge calls: hit@1 {f['hit@1']:.3f}  hit@3 {f['hit@3']:.3f}  hit@5 {f['hit@5']:.3f}")
    print(f"\n{'judge':<8} {'sigma':>5}  {'method':<10} {'budget':>7} {'calls':>7} {'dist.':>6} {'req.':>6} {'hit@1':>6} "
          f"{'hit@3':>6} {'hit@5':>6} {'nothing':>7}")
    for r in result["rows"]:
        print(f"{r['judge']:<8} {r['sigma']:>5.2f}  {r['method']:<10} {r['budget_label']:>7} {r['judge_calls']:>7.1f} "
              f"{r['distinct']:>6.1f} {r['requests']:>6.1f} {r['hit@1']:>6.3f} {r['hit@3']:>6.3f} {r['hit@5']:>6.3f} "
              f"{r['judged_nothing']:>7.1%}")
    print("\nIs the default search on the frontier, and does it beat the reference at equal calls?")
    for v in result["verdict"]:
        b = v["default_best"]
        print(f"  {v['judge']} judge, sigma {v['sigma']:.2f}: default best hit@3 {b['hit@3']:.3f} with {b['calls']:.1f} "
              f"calls; on the frontier: {'yes' if v['default_on_frontier'] else 'no — ' + '; '.join(v['beaten_by'][:3])}. "
              f"Beats the reference at {v['default_wins_vs_reference']} of {v['vs_reference_compared']} "
              f"(reference budget, real or distinct calls) comparisons, at {v['default_wins_vs_reference_requests']} "
              f"of {v['vs_reference_requests_compared']} at equal requests. Iterations that judged nothing new: "
              + ", ".join(f"{m} {x:.1%}" for m, x in v["judged_nothing"].items()) + ".")
        if v.get("vs_flat_read"):
            print("    hit@1, default less flat reading at equal pages read (budget: gap): "
                  + ", ".join(f"{f['budget']} it ({f['pages_read']:.1f} pages): {f['gap']:+.3f}" for f in v["vs_flat_read"]))


NAMES = {"default": "default search (PUCT, prior, pages read)", "no_pages": "default without reading pages",
         "one_by_one": "default, one node per iteration",
         "ucb1": "the search with UCB1, no prior", "reference": "reference system's MCTS (real calls)",
         "greedy": "greedy", "beam": "beam (w=2,3,5)", "exhaustive": "exhaustive",
         "flat_read": "flat reading of the ranker's top pages, as many as the default read"}
COLOURS = {"default": "#1f77b4", "no_pages": "#17becf", "one_by_one": "#7f7f7f", "ucb1": "#ff7f0e", "reference": "#8c564b", "greedy": "#2ca02c",
           "beam": "#9467bd", "exhaustive": "#d62728", "flat_read": "#bcbd22"}


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
    p.add_argument("--judges", default="uniform,diluted", help="judge models, comma-separated: uniform, diluted, informed:a (a in [0, 1])")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(OUT))
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
