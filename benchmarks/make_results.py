"""Reproduce every figure of RESULTS.md and write it (nothing in RESULTS.md is typed by hand).

    python benchmarks/make_results.py            # eval + judge-budget study + engine benchmark (~10 min)
    python benchmarks/make_results.py --quick    # a small sample of each, to check the pipeline (~2 min)
    python benchmarks/make_results.py --results benchmarks/out/results.jsonl   # reuse an eval run

Steps (each a separate process, its output kept in benchmarks/out/*.log):
1. ``python -m alphasearch --data-dir <fresh temp dir> eval <eval dir> --methods … --out benchmarks/out/results.jsonl``
   (the page-retrieval eval of every method over the labelled set, indexes built anew);
2. ``benchmarks/judge_budget.py`` (the SIMULATED judge-budget study);
3. ``benchmarks/bench_engine.py`` (indexing, latency, nodes scored, memory);
4. ``benchmarks/tree_quality.py`` (trees built with the outline hidden against the PDF outlines:
   section-start F1 and level agreement overall and per document kind, the indexer before the layout work and now,
   over the eval set and ``--eval-more`` when restored) and ``benchmarks/filing_trees.py`` (Items, statements under
   Item 8 and made-up group titles of the annual reports in ``--filings``, when present; see ``results_trees.py``);
5. ``benchmarks/folder_eval.py`` (folder mode before and after document facts: routing, document@1/@3,
   (document, page) hit@3 beside single-document hit@3);
6. ``benchmarks/figure_robustness.py`` (the direct figure answer on generated statements, one layout trait
   varied at a time and in combinations; seeds 7, 8 and 9 for the spread), and again with ``--held-out``
   (the traits written after the reader was fixed, beside their first measurement,
   ``benchmarks/results/figure_robustness_held_out_before.json``);
7. the out-of-sample benchmarks (``benchmarks/outofsample.py``), each when its data is present: the dev set's
   answers from step 1's rows beside the validation set ``../shared/eval-more`` (``eval_more.py``), the wording
   set (``wording_eval.py --wordings``) and the statement battery (``statement_battery.py --gold``);
8. optional: ``benchmarks/bench_cluster.py`` (``--cluster-bench``) and ``benchmarks/bench_scale.py``
   (``--scale [SIZES]``); RESULTS.md carries their last tables from ``benchmarks/results/`` either way.
   The folder-series dev set (``benchmarks/filing_periods.py --questions … --md
   benchmarks/results/filing_periods_devset.md``; its filings and questions are licensed and stay outside the
   repository) is run by hand; RESULTS.md carries its last table.
Then it writes RESULTS.md and copies the small outputs to ``benchmarks/results/``
(PNG plot and JSON figures; never any text of the eval set, which is CC BY-NC
and stays in ../shared/eval). Exits 0 with a note when the eval set is absent.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DEFAULT_EVAL, OUT, REPO, eval_dir_or_none, git_commit, machine_line, say_absent,
)
import outofsample  # noqa: E402
from results_trees import filing_section, md_table, tree_section, tree_steps  # noqa: E402

METHODS = "flat_bm25,flat_embed,flat_offline,flat_read,exhaustive,greedy,beam,mcts_reference,mcts_ucb1,mcts_puct"
KS = (1, 3, 5)
COMMITTED = REPO / "benchmarks" / "results"
RESULTS_MD = REPO / "RESULTS.md"
FIGURE_SEEDS = (7, 8, 9)
# The judge-budget study again with judges that know a share more than the page ranker (a SIMULATION):
# how much a judge must know beyond the ranker before the tree beats flat reading at equal pages read.
INFORMED_JUDGES = "informed:0,informed:0.1,informed:0.25"
INFORMED_SIGMAS = "0,0.2"
INFORMED_BUDGET = 25  # iterations: the engine's default budget


def step(name: str, cmd: list[str], log: Path) -> float:
    """Run one step, its stdout+stderr to ``log``; returns seconds. Raises on failure."""
    print(f"[{time.strftime('%H:%M:%S')}] {name}: {' '.join(cmd)}", flush=True)
    t = time.perf_counter()
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.run(cmd, cwd=REPO, stdout=fh, stderr=subprocess.STDOUT, check=False)
    seconds = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed (exit {proc.returncode}); see {log}")
    print(f"    done in {seconds:.0f} s (log {log.relative_to(REPO)})", flush=True)
    return seconds


# --- eval rows → tables ----------------------------------------------------------------
def read_rows(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def _hit(pages: list[int], evidence: list[int], k: int) -> float:
    return 1.0 if set(pages[:k]) & set(evidence) else 0.0


def _rr(pages: list[int], evidence: list[int]) -> float:
    ev = set(evidence)
    return next((1.0 / i for i, p in enumerate(pages, 1) if p in ev), 0.0)


def summarise(rows: list[dict]) -> list[dict]:
    """One summary per (method, source) plus (method, "all"), methods in first-seen order."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    rows = [r for r in rows if not r.get("off_topic")]  # questions asked of another source's document
    for r in rows:
        groups[(r["method"], "all")].append(r)
        groups[(r["method"], r.get("source") or "-")].append(r)
    methods = list(dict.fromkeys(r["method"] for r in rows))
    sources = sorted({r.get("source") or "-" for r in rows})
    out = []
    for m in methods:
        for src in ["all"] + sources:
            rs = groups.get((m, src))
            if not rs:
                continue
            out.append({
                "method": m, "source": src, "n": len(rs),
                **{f"hit@{k}": round(statistics.fmean(_hit(r["pages"], r["evidence_pages"], k) for r in rs), 4)
                   for k in KS},
                "mrr": round(statistics.fmean(_rr(r["pages"], r["evidence_pages"]) for r in rs), 4),
                "median_ms": round(1000 * statistics.median(r["seconds"] for r in rs), 1),
                "p95_ms": round(1000 * _p95([r["seconds"] for r in rs]), 1),
                "nodes_scored": round(statistics.fmean(r.get("nodes_scored", 0) for r in rs), 1),
                "pages_read": round(statistics.fmean(r.get("pages_read", 0) for r in rs), 2),
                "judged_nothing": round(sum(r.get("judged_nothing", 0) for r in rs)
                                        / max(1, sum(r.get("iterations", 0) for r in rs)), 4),
                "iterations": round(statistics.fmean(r.get("iterations", 0) for r in rs), 2),
                "llm_calls": round(statistics.fmean(r.get("llm_calls", 0) for r in rs), 2),
                "fallback": round(statistics.fmean(1.0 if r.get("fallback") else 0.0 for r in rs), 3),
                "errors": sum(1 for r in rs if r.get("error")),
                **_confidence(rs),
            })
    return out


def _confidence(rs: list[dict]) -> dict:
    """How well the answer's confidence tells a right first page from a wrong one: hit@1 of the
    answered and of the fallback questions, and the AUROC of confidence for hit@1."""
    right = [r["confidence"] for r in rs if _hit(r["pages"], r["evidence_pages"], 1)]
    wrong = [r["confidence"] for r in rs if not _hit(r["pages"], r["evidence_pages"], 1)]
    answered = [r for r in rs if not r.get("fallback")]
    fell = [r for r in rs if r.get("fallback")]
    pairs = sum((a > b) + 0.5 * (a == b) for a in right for b in wrong)
    return {
        "conf_auroc": round(pairs / (len(right) * len(wrong)), 3) if right and wrong else None,
        "hit1_answered": round(statistics.fmean(_hit(r["pages"], r["evidence_pages"], 1) for r in answered), 3)
        if answered else None,
        "hit1_fallback": round(statistics.fmean(_hit(r["pages"], r["evidence_pages"], 1) for r in fell), 3)
        if fell else None,
    }


def _p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[94]


# --- markdown --------------------------------------------------------------------------------
def eval_section(summary: list[dict], meta: dict, jb: dict | None = None) -> str:
    allrows = [s for s in summary if s["source"] == "all"]
    best_flat = max((s for s in allrows if s["method"].startswith("flat")), key=lambda s: s["hit@3"], default=None)
    head = ["method", "n"] + [f"hit@{k}" for k in KS] + ["MRR", "median ms", "p95 ms", "nodes scored", "pages read",
                                                          "nothing new", "fallback"]
    body = [[s["method"], str(s["n"])] + [f"{s[f'hit@{k}']:.3f}" for k in KS] +
            [f"{s['mrr']:.3f}", f"{s['median_ms']:.1f}", f"{s['p95_ms']:.1f}", f"{s['nodes_scored']:.1f}",
             f"{s.get('pages_read', 0):.1f}",
             f"{s['judged_nothing']:.0%} of {s['iterations']:.1f} it" if s.get("iterations") else "",
             f"{s['fallback']:.0%}"] for s in allrows]
    ref = jb["flat_offline"] if jb and jb.get("questions") == meta["questions"] else None
    if ref:
        body.append(["*engine page scores alone (no tree, no search)*", str(jb["questions"])] +
                    [f"{ref[f'hit@{k}']:.3f}" for k in KS] +
                    [f"{ref['mrr']:.3f}" if "mrr" in ref else "", "", "", "0.0", "", "", ""])
    by_source = [s for s in summary if s["source"] != "all"]
    src_head = ["method", "source", "n"] + [f"hit@{k}" for k in KS] + ["MRR"]
    src_body = [[s["method"], s["source"], str(s["n"])] + [f"{s[f'hit@{k}']:.3f}" for k in KS] + [f"{s['mrr']:.3f}"]
                for s in by_source]
    errors = sum(s["errors"] for s in allrows)
    text = [
        "## 1. Page retrieval on the eval set (offline engine)",
        "",
        f"{meta['questions']} questions on {meta['documents']} PDFs of the development set (`../shared/eval`, "
        "FinanceBench + MMLongBench-Doc, 1-based evidence pages). hit@k: an evidence page is among the first k "
        "pages a method returns; MRR over the first 20 pages. Every method runs on the same section trees and, "
        "for the tree methods, the same scorer; `exhaustive`, `greedy`, `beam` (width 3) and MCTS pass their "
        "trace through the engine's final page ranking; `mcts_puct` (the default) reads pages below the leaf "
        "sections (*pages read*: deep reads per question) and `flat_read` rereads the page ranker's top N pages "
        "with the same deep read, N = the pages the default read on that question (flat reading at equal pages "
        "read). *Nothing new*: share of iterations that judged no node not judged before (of the mean "
        "iterations per question). Times are per question on this machine, "
        "the first question on a document included (it builds the document's scorers).",
        "",
        md_table(head, body),
        "",
    ]
    if best_flat:
        mc = next((s for s in allrows if s["method"] == "mcts_puct"), None)
        if mc:
            diff = mc["hit@3"] - best_flat["hit@3"]
            text += [f"MCTS-PUCT (the default engine) vs the best flat baseline ({best_flat['method']}): "
                     f"hit@3 {mc['hit@3']:.3f} vs {best_flat['hit@3']:.3f} ({diff:+.3f}).", ""]
            fr = next((s for s in allrows if s["method"] == "flat_read"), None)
            if fr:
                text += [f"At equal pages read ({mc.get('pages_read', 0):.1f} a question): the default's hit@1 "
                         f"{mc['hit@1']:.3f} vs flat reading's {fr['hit@1']:.3f} ({mc['hit@1'] - fr['hit@1']:+.3f}; "
                         "the target was +0.03).", ""]
    trees = [s for s in allrows if not s["method"].startswith("flat")]
    if trees and ref:
        lo, hi = min(s["hit@3"] for s in trees), max(s["hit@3"] for s in trees)
        text += [f"The tree searches span hit@3 {lo:.3f}–{hi:.3f}; the engine's own page scores without any tree "
                 f"give {ref['hit@3']:.3f} (last row, computed in the judge-budget run on the same questions), so "
                 f"on this set the search changes hit@3 by {lo - ref['hit@3']:+.3f} to {hi - ref['hit@3']:+.3f}.", ""]
    if errors:
        text += [f"{errors} question(s) could not be run (a PDF failed to index); they count as misses.", ""]
    if len({s["source"] for s in by_source}) > 1:
        text += ["By source:", "", md_table(src_head, src_body), ""]
    conf = [s for s in allrows if s.get("conf_auroc") is not None]
    if conf:
        text += ["Confidence (the extractive answer's, offline): does it tell a right first page from a wrong one? "
                 "Below the answer threshold the engine says it found too little evidence (the fallback).", "",
                 md_table(["method", "answered", "hit@1 answered", "hit@1 fallback", "AUROC of confidence for hit@1"],
                          [[s["method"], f"{1 - s['fallback']:.0%}", f"{s['hit1_answered']:.3f}",
                            f"{s['hit1_fallback']:.3f}" if s["hit1_fallback"] is not None else "–",
                            f"{s['conf_auroc']:.3f}"] for s in conf]), ""]
    return "\n".join(text)


def answers_section(a: dict, summary: list[dict]) -> str:
    """Answer-level figures (benchmarks/answer_eval.py) beside the same run's page hit@k."""
    s, h = a["answers"], a["held_out"]
    pages = next((x for x in summary if x["method"] == a["method"] and x["source"] == "all"), None)
    f = lambda x: "–" if x is None else f"{x:.3f}"  # noqa: E731
    rows = [
        ["questions whose gold figure is printed on an evidence page", str(s["printed"])],
        ["… whose direct answer carries it", f(s.get("direct_carries"))],
        ["… whose answer text carries it", f(s.get("answer_carries"))],
        ["fallback on the labelled (answerable) questions", f"{s['fallback_answerable']:.0%}"],
        ["fallback on the same questions asked of another source's document (off-topic)",
         "–" if s["fallback_off_topic"] is None else f"{s['fallback_off_topic']:.0%}"],
        ["AUROC of the shipped confidence for 'first page right' (all / half 0 / half 1)",
         " / ".join(map(f, [s["auroc_hit1"], *s["auroc_hit1_halves"]]))],
        ["AUROC of the shipped confidence for 'direct answer carries the gold figure' (all / half 0 / half 1)",
         " / ".join(map(f, [s["auroc_figure"], *s["auroc_figure_halves"]]))],
        ["held-out AUROC, 'first page right', weights fitted on the other half (half 0 / half 1)",
         " / ".join(map(f, h["hit1"]))],
        ["held-out AUROC, 'direct answer carries the figure', fitted on the other half (half 0 / half 1)",
         " / ".join(map(f, h["figure"]))],
    ]
    spread = a.get("held_out_splits")
    for key, what in (("hit1", "first page right"), ("figure", "direct answer carries the figure")):
        if spread and spread.get(key):
            x = spread[key]
            rows.append([f"held-out AUROC, '{what}', over {spread['splits']} other splits of the documents, "
                         "each both ways (mean / 10th percentile / least)",
                         f"{x['mean']:.3f} / {x['p10']:.3f} / {x['min']:.3f}"])
    if pages:
        rows.append([f"page hit@1 / hit@3 / hit@5 of {a['method']} in the same run",
                     f"{pages['hit@1']:.3f} / {pages['hit@3']:.3f} / {pages['hit@5']:.3f}"])
    return "\n".join([
        "## Answers, not only pages",
        "",
        f"`{a['method']}`, offline engine. A gold figure is a number of the gold answer (years and integers below "
        "10 left out); it is printed on an evidence page when that page holds the same number up to a unit scale "
        "(thousands, millions, billions; within 0.1 %). The documents are split in two halves by a hash of "
        "their name; held-out AUROC fits the confidence's logistic weights on one half and scores the other.",
        "",
        md_table(["what", "figure"], rows),
        "",
    ])


def informed_section(jb: dict) -> str:
    """The judge-budget study with judges that know a share more than the page ranker: the default
    search against flat reading at equal pages read, at the engine's budget."""
    body = []
    for v in jb["verdict"]:
        f = next((x for x in v.get("vs_flat_read", ()) if x["budget"] == INFORMED_BUDGET), None)
        if f:
            body.append([f"`{v['judge']}`", f"{v['sigma']:g}", f"{f['pages_read']:.1f}", f"{f['default_hit@1']:.3f}",
                         f"{f['flat_read_hit@1']:.3f}", f"{f['gap']:+.3f}",
                         "yes" if v["default_on_frontier"] else "no (" + "; ".join(v["beaten_by"][:1]) + ")"])
    return "\n".join([
        "### How much must a judge know? (SIMULATION)",
        "",
        "**A simulation, not an LLM run.** The same study with judges that blend the offline page ranker "
        "with the evidence: `informed:a` scores a node (1 − a) × the best offline page score in its pages + "
        "a × 1[its pages hold an evidence page] + N(0, σ), clipped to [0, 1]; a = 0 is a judge that knows "
        f"exactly what the ranker knows. At the engine's budget ({INFORMED_BUDGET} iterations), the default "
        "search against flat reading of the ranker's top pages, as many as the search read, judged by the same "
        f"judge ({jb['questions']} questions):",
        "",
        md_table(["judge", "σ", "pages read", "default hit@1", "flat reading hit@1", "gap",
                  "default on the hit@3 frontier (first counter-example)"], body),
        "",
    ])


def judge_section(jb: dict, png: str) -> str:
    sigmas = jb["sigmas"]
    judges = list(jb["judges"])
    cell = {(r["judge"], r["sigma"], r["method"], r["budget"]): r for r in jb["rows"]}
    keys = list(dict.fromkeys((r["method"], r["budget"], r["budget_label"]) for r in jb["rows"]))
    lines = [
        "## 2. Judge-budget study (SIMULATION)",
        "",
        "**This is a simulation, not an LLM run.** A simulated judge stands in for an LLM judging one node per "
        "call. Two judge models: " + "; ".join(f"`{j}`: {d}" for j, d in jb["judges"].items()) + ". "
        "The noise of a node is fixed per (seed, question, node), like a cached reply, so all methods see the "
        "same judge. Each method's page ranking, the same rule for all: pages a search read and confirmed "
        "(judged ≥ 0.75) first, then every page takes the Q of the deepest visited node containing it; pages of "
        "one section are ordered by the engine's offline page scores. "
        "Search budgets are iterations. `default`: the engine's search (PUCT with the offline prior, free; "
        "siblings judged together, one call per node here; leaf sections expand into pages, one call per page "
        "read; max backup; selection mixes a judged node's reward with the best offline page score in its range, "
        "0.7·reward + 0.3·best page, while Q stays the judge's; stops when a page read scores ≥ 0.75 or the tree "
        "is exhausted); `no_pages`: the same without reading pages (and so without the page mix); `one_by_one`: "
        "the same judging one node per iteration (no sibling batch); `ucb1`: the same search with UCB1 and no "
        "prior (it reads pages with the same reader, so it mixes the page scores too); `reference`: the reference "
        "system's MCTS (one node per iteration, mean backup, no cache: a revisited leaf is a new call; calls are "
        "real calls, *distinct* the distinct nodes judged; *requests*: scorer invocations, siblings judged "
        "together counting once, as a batching LLM judge is billed). *Nothing new*: share of iterations that judged no "
        "node not judged before. `flat_read` (a baseline, not a search): the page ranker's top N pages judged "
        "with the same judge, N = the pages `default` read on that question at that budget, ranked by the same rule. "
        f"{jb['questions']} questions on {jb['documents']} PDFs, mean tree {jb['mean_tree_nodes']} nodes; the flat "
        f"offline page ranking with no judge at all: hit@3 {jb['flat_offline']['hit@3']:.3f}.",
        "",
        f"![hit@3 against judge calls]({png})",
        "",
    ]
    for j in judges:
        head = ["method", "budget"] + [f"σ={s:g}: hit@1 / hit@3 (calls, distinct, requests, nothing new)"
                                       for s in sigmas]
        body = []
        for m, b, label in keys:
            row = [m, label or "—"]
            for s in sigmas:
                r = cell.get((j, s, m, b))
                row.append(f"{r['hit@1']:.3f} / {r['hit@3']:.3f} ({r['judge_calls']:.1f}, {r.get('distinct', 0):.1f}, "
                           f"{r.get('requests', 0):.1f}, {r.get('judged_nothing', 0):.0%})" if r else "")
            body.append(row)
        lines += [f"`{j}` judge:", "", md_table(head, body), ""]
    lines += ["**Is the default search on the frontier (no method reaches a higher hit@3 with the same or fewer "
              "calls), and does it beat the reference at equal calls?**", ""]
    for v in jb["verdict"]:
        b = v["default_best"]
        lines.append(
            f"- `{v['judge']}`, σ = {v['sigma']:g}: default best hit@3 {b['hit@3']:.3f} with {b['calls']:.1f} calls "
            f"({b['budget']}); on the frontier: "
            + ("yes" if v["default_on_frontier"] else "no (" + "; ".join(v["beaten_by"][:3]) + ")")
            + f". Against the reference at each of its budgets (its real calls, then its distinct nodes), the "
            f"default's best hit@3 with no more calls is higher in {v['default_wins_vs_reference']} of "
            f"{v['vs_reference_compared']} comparisons (below the root's number of children the default cannot "
            "run, counted as a loss); at equal requests (a sibling batch is one request) in "
            f"{v.get('default_wins_vs_reference_requests', '?')} of {v.get('vs_reference_requests_compared', '?')}. "
            "Iterations that judged nothing new: "
            + ", ".join(f"{m} {x:.1%}" for m, x in v["judged_nothing"].items()) + "."
            + (" hit@1 of the default less flat reading at equal pages read: "
               + ", ".join(f"{f['budget']} it ({f['pages_read']:.1f} pages) {f['gap']:+.3f}" for f in v["vs_flat_read"])
               + "." if v.get("vs_flat_read") else ""))
    lines += ["", jb.get("conclusion", ""), ""]
    return "\n".join(lines)


def bench_section(b: dict) -> str:
    rows = [
        ["raw PyMuPDF text extraction (floor)", f"{b['raw_extract_pages_per_s']:.0f} pages/s", "1.00×"],
        ["AlphaSearch offline indexing (tree + summaries + store)", f"{b['index_pages_per_s']:.0f} pages/s",
         f"{b['index_vs_raw']:.2f}×"],
        ["flat BM25 query, median / p95", f"{b['flat_bm25_median_ms']} / {b['flat_bm25_p95_ms']} ms", "1×"],
        ["engine query (MCTS + deep read + answer), median / p95", f"{b['query_median_ms']} / {b['query_p95_ms']} ms",
         f"{b['query_vs_flat_median']}×"],
        ["engine query, first on a document (builds scorers), median", f"{b['cold_median_ms']} ms", ""],
        ["engine query, warm, median / p95", f"{b['warm_median_ms']} / {b['warm_p95_ms']} ms",
         f"{b['warm_vs_flat_warm_median']}× warm flat"],
        ["nodes scored per query / nodes in the tree (mean)", f"{b['nodes_scored_mean']} / {b['tree_nodes_mean']}",
         f"median share {b['scored_share_median']:.0%}"],
        ["peak memory: process max RSS", f"{b['max_rss_mb']} MB", ""],
        *([["floor of a new process: import the libraries, load the embedding model, median",
            f"{b['cli_floor_median_s']} s", "1×"],
           [f"`python -m alphasearch query` on {b['cli_pdf']} once indexed, new process, median",
            f"{b['cli_repeat_median_s']} s", f"{b['cli_repeat_median_s'] / max(b['cli_floor_median_s'], 1e-9):.2f}× floor"]]
          if "cli_floor_median_s" in b else []),
        [f"peak memory: tracemalloc while indexing the largest PDF ({b['largest_pdf_pages']} pages)",
         f"{b['tracemalloc_peak_mb_index_largest']} MB", ""],
    ]
    return "\n".join([
        "## 3. Engine benchmark",
        "",
        f"{b['documents']} PDFs, {b['pages']} pages, {b['megabytes']} MB, {b['queries']} questions; ratios are to "
        "the baseline measured in the same run. Load average (1 min) "
        f"{b.get('load_1min_before', '?')} before, {b.get('load_1min_after', '?')} after: on a shared 2-core "
        "machine other processes slow every figure, baseline and engine alike.",
        "",
        md_table(["what", "figure", "ratio"], rows),
        "",
    ])


def folder_section(fe: dict) -> str:
    m = fe["meta"]
    rows = []
    for name, g in fe["groups"].items():
        b, a = g["before"], g["after"]
        rows.append([name, str(g["n"])] + [f"{b[k]:.3f} → {a[k]:.3f}" for k in ("routing", "doc1", "doc3", "hit3")]
                    + [f"{g['single_hit3']:.3f}"]
                    + [f"+{g['routing_flips']['gained']} / −{g['routing_flips']['lost']}"
                       if "routing_flips" in g else ""])
    return "\n".join([
        "## 4. Folder questions before and after document facts",
        "",
        f"`benchmarks/folder_eval.py`: {m['questions']} questions asked without naming a folder or a document, "
        f"over {m['pdfs']} PDFs in {len(m['folders'])} folders (" + ", ".join(f"{k}: {v}" for k, v in
                                                                     m["folders"].items()) + "); the same run asks "
        f"each question before (content alone) and after (document facts, weight {m['facts_weight']}), and of the "
        "right PDF alone (single hit@3). doc@1/@3: the right document first / among the "
        f"{m['top_k_docs']} searched; hit@3: an evidence page of the right document among the first 3 (document, "
        "page) pairs. *names org + period*: questions that mention a year and spell out the company. Routing "
        "flips: questions the facts route right that went wrong before (+) and the reverse (−).",
        "",
        md_table(["group", "n", "routing", "doc@1", "doc@3", "hit@3", "single hit@3", "routing flips"], rows),
        "",
    ])


def figures_section(runs: list[dict]) -> str:
    """The figure-robustness runs (one per seed): the share per set, and every trait below 1 in any seed."""
    seeds = [r["seed"] for r in runs]

    def cells(key: str) -> list[str]:
        return [f"{r['shares'][key]['carries']:.3f} / {r['shares'][key]['exact']:.3f}" if key in r["shares"] else "—"
                for r in runs]

    keys = [k for k in runs[0]["shares"] if k == "all" or k.startswith("set:")]
    weak = sorted({k for r in runs for k, v in r["shares"].items()
                   if not (k == "all" or k.startswith("set:")) and v["carries"] < 1})
    rows = [[k.removeprefix("set:"), str(runs[0]["shares"][k]["n"])] + cells(k) for k in keys]
    rows += [[k.replace(":", ": ", 1), str(runs[0]["shares"].get(k, {}).get("n", ""))] + cells(k) for k in weak]
    return "\n".join([
        "## Direct figure answers on generated statement layouts",
        "",
        f"`benchmarks/figure_robustness.py --seed S` for S in {', '.join(map(str, seeds))}: "
        f"{runs[0]['documents']} generated statements, {runs[0]['questions']} figure questions each, through the "
        "real engine. A base layout, each layout trait of real filings varied alone (\"one trait\"), and random "
        "combinations of them (which differ by seed). Cells: carries / exact (the direct answer line holds the "
        "printed figure / states the right amount, sign and unit read). Rows under the sets: every trait, "
        "question or phrasing below 1.000 in some seed. The traits were written by the team that fixed the reader "
        "against them, so this is a regression check, not a measure on unseen documents.",
        "",
        md_table(["set / trait", "n"] + [f"seed {s}" for s in seeds], rows),
        "",
    ])


def held_out_section(runs: list[dict], before: list[dict]) -> str:
    """The held-out figure-robustness runs beside their first measurement (before any reader change for them)."""
    seeds = [r["seed"] for r in runs]
    first = {b["seed"]: b["shares"] for b in before}

    def cell(shares: dict | None, key: str) -> str:
        v = (shares or {}).get(key)
        return f"{v['carries']:.3f} / {v['fallback']:.3f} / {v['wrong']:.3f}" if v else "—"

    keys = [k for k in runs[0]["shares"] if k == "all" or k.startswith("set:") or k == "absent"]
    rows = [[k.removeprefix("set:"), str(runs[0]["shares"][k]["n"])]
            + [cell(first.get(r["seed"]), k) for r in runs] + [cell(r["shares"], k) for r in runs] for k in keys]
    weak = sorted({k for r in runs for k, v in r["shares"].items() if k.startswith("trait:") and v["carries"] < 1})
    rows += [[k.replace(":", ": ", 1), str(runs[0]["shares"][k]["n"])]
             + [cell(first.get(r["seed"]), k) for r in runs] + [cell(r["shares"], k) for r in runs] for k in weak]
    return "\n".join([
        "### Held-out layouts",
        "",
        f"`benchmarks/figure_robustness.py --held-out --seed S`: {runs[0]['documents']} statements, "
        f"{runs[0]['questions']} questions a seed, on layout traits written after the reader was fixed against the "
        "traits above (10-Q quarter and nine-month columns, a quarter beside the year, June year ends, the unit in "
        "the title or on the years' line, trailing minus, space-separated thousands, a Note column, IFRS and "
        "capitalised labels, a statement split over two pages, '% of revenue' columns, statements side by side, "
        "other words in the question), each statement also asked for a period it does not hold (\"absent\": right "
        "when no figure is stated). Cells: carries / fallback / wrong figure stated. \"first\": measured at "
        f"{before[0].get('measured_at', '?') if before else '?'}, the out-of-sample figure; \"now\": after the "
        "reader was fixed against them, so in-sample. Rows under the sets: every trait below 1.000 now.",
        "",
        md_table(["set / trait", "n"] + [f"first, seed {s}" for s in seeds] + [f"now, seed {s}" for s in seeds], rows),
        "",
    ])


def conclusion(jb: dict) -> str:
    """A plain reading of the verdict rows, computed (not typed)."""
    parts = []
    for v in jb["verdict"]:
        front = "on the frontier" if v["default_on_frontier"] else "not on the frontier"
        parts.append(f"`{v['judge']}` σ={v['sigma']:g}: the default search is {front} and beats the reference in "
                     f"{v['default_wins_vs_reference']} of {v['vs_reference_compared']} equal-call comparisons")
    return "In short (a simulation) — " + "; ".join(parts) + "."


def write_results(meta: dict, summary: list[dict] | None, jb: dict | None, bench: dict | None,
                  command: str, folders: dict | None = None, trees: dict | None = None,
                  answers: dict | None = None, figures: list[dict] | None = None,
                  informed: dict | None = None, held_out: list[dict] | None = None,
                  unseen: dict | None = None, filings: dict | None = None) -> None:
    COMMITTED.mkdir(parents=True, exist_ok=True)
    parts = [
        "# AlphaSearch — results",
        "",
        "Generated by `benchmarks/make_results.py`; do not edit by hand. Reproduce every figure with:",
        "",
        "```",
        command,
        "```",
        "",
        "(needs the development set in `../shared/eval`, which is CC BY-NC 4.0 and is never copied into this "
        "repository; small outputs go to `benchmarks/results/`, the rest to `benchmarks/out/`.)",
        "",
        f"- date: {meta['date']}",
        f"- commit: {meta['commit']}",
        f"- {meta['machine']}",
        f"- total time: {meta['seconds']:.0f} s" + (f" (reused from an earlier run: {', '.join(meta['reused'])})"
                                                   if meta.get("reused") else ""),
        "",
    ]
    if summary is not None:
        parts.append(eval_section(summary, meta, jb))
    if answers is not None:
        parts.append(answers_section(answers, summary or []))
    if unseen is not None:
        parts.append(outofsample.section(unseen, md_table))
    if jb is not None:
        jb["conclusion"] = conclusion(jb)
        parts.append(judge_section(jb, "benchmarks/results/judge_budget.png"))
    if informed is not None:
        parts.append(informed_section(informed))
    if bench is not None:
        parts.append(bench_section(bench))
    if trees is not None:
        parts.append(tree_section(trees))
    if filings is not None:
        parts.append(filing_section(filings))
    if folders is not None:
        parts.append(folder_section(folders))
    if figures:
        parts.append(figures_section(figures))
    if held_out:
        before = COMMITTED / "figure_robustness_held_out_before.json"
        parts.append(held_out_section(held_out, json.loads(before.read_text()) if before.is_file() else []))
    # optional steps: their last committed tables
    for name in ("bench_cluster.md", "bench_scale.md", "ocr_effect.md", "load_api.md", "outofsample_ab.md",
                 "layout_check.md", "filing_periods_devset.md"):
        if (COMMITTED / name).is_file():
            text = (COMMITTED / name).read_text(encoding="utf-8").strip()
            parts.append("#" + text if text.startswith("# ") else text)
            parts.append("")
    RESULTS_MD.write_text("\n".join(parts).rstrip() + "\n", encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    py = sys.executable
    quick = ["--limit", "30"] if args.quick else []
    command = "python benchmarks/make_results.py" + (" --quick" if args.quick else "")

    results = Path(args.results) if args.results else OUT / "results.jsonl"
    if not args.results and not args.skip_eval:
        with tempfile.TemporaryDirectory(prefix="alphasearch-eval-") as tmp:
            step("eval", [py, "-m", "alphasearch", "--data-dir", tmp, "eval", str(eval_dir), "--engine", "offline",
                          "--methods", args.methods, "--off-topic", "--out", str(results)] + quick, OUT / "eval.log")
    summary = summarise(read_rows(results)) if results.is_file() else None
    answers = None
    if results.is_file():
        step("answer figures", [py, "benchmarks/answer_eval.py", str(results)], OUT / "answer_eval.log")
        answers = json.loads((OUT / "answer_eval.json").read_text()) if (OUT / "answer_eval.json").is_file() else None

    unseen = None if args.skip_unseen else outofsample.run_steps(
        step, eval_dir, results, Path(args.eval_more), Path(args.wordings), Path(args.battery),
        Path(args.filings) if args.filings else None)
    if not args.skip_judge:
        step("judge-budget study", [py, "benchmarks/judge_budget.py", "--eval-dir", str(eval_dir)] + quick,
             OUT / "judge_budget.log")
        step("judge-budget study, informed judges", [py, "benchmarks/judge_budget.py", "--eval-dir", str(eval_dir),
                                                     "--judges", INFORMED_JUDGES, "--sigmas", INFORMED_SIGMAS,
                                                     "--out", str(OUT / "informed")] + quick,
             OUT / "judge_informed.log")
    if not args.skip_bench:
        lim = ["--limit-docs", "10"] if args.quick else []
        step("engine benchmark", [py, "benchmarks/bench_engine.py", "--eval-dir", str(eval_dir),
                                  "--json", str(OUT / "bench_engine.json")] + lim, OUT / "bench_engine.log")
    if not args.skip_trees:
        filings_dir = Path(args.filings) if args.filings else Path(args.battery).parent / "filings"
        for name, cmd in tree_steps(py, eval_dir, OUT, Path(args.eval_more), filings_dir):
            step(name, cmd, OUT / f"{cmd[1].split('/')[-1].removesuffix('.py')}.log")
    if not args.skip_folders:
        step("folder eval", [py, "benchmarks/folder_eval.py", "--eval-dir", str(eval_dir)]
             + (["--limit", "30"] if args.quick else []), OUT / "folder_eval.log")
    if not args.skip_figures:
        for seed in FIGURE_SEEDS:
            step(f"figure robustness, seed {seed}", [py, "benchmarks/figure_robustness.py", "--seed", str(seed),
                                                      "--out", str(OUT / f"figure_robustness_{seed}.json")],
                 OUT / f"figure_robustness_{seed}.log")
            step(f"figure robustness, held-out traits, seed {seed}",
                 [py, "benchmarks/figure_robustness.py", "--held-out", "--seed", str(seed),
                  "--out", str(OUT / f"figure_robustness_held_out_{seed}.json")], OUT / f"figure_robustness_held_out_{seed}.log")
    if args.cluster_bench:
        step("indexing: processes vs a local Ray cluster", [py, "benchmarks/bench_cluster.py", "--eval-dir",
                                                            str(eval_dir)], OUT / "bench_cluster.log")
    if args.scale:
        step("scale benchmark", [py, "benchmarks/bench_scale.py", "--sizes", args.scale], OUT / "bench_scale.log")
    # a skipped step reuses its last output in benchmarks/out/, when there is one
    jb = json.loads((OUT / "judge_budget.json").read_text()) if (OUT / "judge_budget.json").is_file() else None
    informed_json = OUT / "informed" / "judge_budget.json"
    informed = json.loads(informed_json.read_text()) if informed_json.is_file() else None
    bench = json.loads((OUT / "bench_engine.json").read_text()) if (OUT / "bench_engine.json").is_file() else None
    folders = json.loads((OUT / "folder_eval.json").read_text()) if (OUT / "folder_eval.json").is_file() else None
    trees = json.loads((OUT / "tree_quality.json").read_text()) if (OUT / "tree_quality.json").is_file() else None
    filings = json.loads((OUT / "filing_trees.json").read_text()) if (OUT / "filing_trees.json").is_file() else None
    figures = [json.loads((OUT / f"figure_robustness_{s}.json").read_text()) for s in FIGURE_SEEDS
               if (OUT / f"figure_robustness_{s}.json").is_file()]
    held_out = [json.loads((OUT / f"figure_robustness_held_out_{s}.json").read_text()) for s in FIGURE_SEEDS
                if (OUT / f"figure_robustness_held_out_{s}.json").is_file()]

    rows = [r for r in read_rows(results) if not r.get("off_topic")] if results.is_file() else []
    meta = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
        "machine": machine_line(),
        "seconds": time.perf_counter() - started,
        "questions": len({r["id"] for r in rows}),
        "documents": len({r["doc"] for r in rows}),
        "reused": [name for name, skipped in (("eval", bool(args.results or args.skip_eval)),
                                              ("judge-budget study", args.skip_judge),
                                              ("engine benchmark", args.skip_bench),
                                              ("tree quality", args.skip_trees),
                                              ("folder eval", args.skip_folders),
                                              ("figure robustness", args.skip_figures)) if skipped],
    }
    COMMITTED.mkdir(parents=True, exist_ok=True)
    if summary is not None:
        (COMMITTED / "eval_summary.json").write_text(json.dumps({"meta": meta, "methods": summary}, indent=1))
    for name in ("judge_budget.json", "judge_budget.png", "bench_engine.json", "folder_eval.json",
                 "tree_quality.json", "filing_trees.json", "answer_eval.json"):
        if (OUT / name).is_file():
            shutil.copyfile(OUT / name, COMMITTED / name)
    if figures:
        (COMMITTED / "figure_robustness.json").write_text(json.dumps(figures, indent=1))
    if held_out:
        (COMMITTED / "figure_robustness_held_out.json").write_text(json.dumps(held_out, indent=1))
    if informed is not None:
        shutil.copyfile(informed_json, COMMITTED / "judge_informed.json")
    write_results(meta, summary, jb, bench, command, folders, trees, answers, figures, informed, held_out, unseen,
                  filings)
    print(f"wrote {RESULTS_MD.relative_to(REPO)} and {COMMITTED.relative_to(REPO)}/ in {meta['seconds']:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None, help=f"eval set folder (default {DEFAULT_EVAL})")
    p.add_argument("--methods", default=METHODS, help="methods for the eval CLI")
    p.add_argument("--results", default=None, help="reuse this eval results.jsonl instead of running the eval")
    p.add_argument("--quick", action="store_true", help="small samples, to check the pipeline")
    p.add_argument("--skip-eval", action="store_true", help="reuse benchmarks/out/results.jsonl if present")
    p.add_argument("--skip-judge", action="store_true", help="reuse benchmarks/out/judge_budget.json")
    p.add_argument("--skip-bench", action="store_true", help="reuse benchmarks/out/bench_engine.json")
    p.add_argument("--skip-trees", action="store_true", help="reuse benchmarks/out/tree_quality.json and filing_trees.json")
    p.add_argument("--skip-folders", action="store_true", help="reuse benchmarks/out/folder_eval.json")
    p.add_argument("--skip-figures", action="store_true", help="reuse benchmarks/out/figure_robustness_*.json")
    p.add_argument("--eval-more", default=str(outofsample.DEFAULT_MORE), help="the validation set (eval-more)")
    p.add_argument("--wordings", default=str(outofsample.DEFAULT_WORDINGS), help="the wording set (wordings.jsonl)")
    p.add_argument("--battery", default=str(outofsample.DEFAULT_BATTERY), help="the statement battery (gold.jsonl)")
    p.add_argument("--filings", default=None, help="the 10-K PDFs of the battery and the filing-tree benchmark (default BATTERY/../filings)")
    p.add_argument("--skip-unseen", action="store_true", help="skip the out-of-sample steps")
    p.add_argument("--cluster-bench", action="store_true",
                   help="also time indexing the eval PDFs in 1 process, N processes and a local Ray cluster (~5 min)")
    p.add_argument("--scale", nargs="?", const="100,1000", default=None, metavar="SIZES",
                   help="also run the scale benchmark (default sizes 100,1000, ~10 min; 10000 takes about an hour: "
                        "its last table is kept in benchmarks/results/bench_scale.md)")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
