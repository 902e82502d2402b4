"""Evaluation: hit@k per method from a ``python -m alphasearch eval … --out`` results
file, the judge-budget curves (a simulation) and the misses, each of which can be
re-run and opened in the tree visualizer."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st

from alphasearch.errors import AlphaSearchError
from alphasearch.evaluation.runner import METHODS, EvalSetError, Row, hit_at_k, summarise
from alphasearch.evaluation.runner import run as eval_run
from alphasearch.evaluation.paths import inside, inside_any
from pages._common import SearchRecord, current_settings, engine, inert, md_escape, remember_search, show_error

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
DEFAULT_EVAL = ROOT.parent / "shared" / "eval"
ss = st.session_state

st.title("Evaluation")
st.caption("Which pages each retrieval method finds on a labelled set, side by side.")


@st.cache_data(show_spinner=False, max_entries=8)
def parse_rows(text: str) -> tuple[list[dict], int]:
    """Result rows (dicts) and the number of unreadable lines."""
    rows, bad = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            d["pages"] = [int(p) for p in d.get("pages", [])]
            d["evidence_pages"] = [int(p) for p in d["evidence_pages"]]
            d["id"], d["method"] = str(d["id"]), str(d["method"])
            rows.append(d)
        except (ValueError, KeyError, TypeError):
            bad += 1
    return rows, bad


@st.cache_data(show_spinner=False, max_entries=4)
def question_texts(eval_dir: str) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        qfile = Path(eval_dir) / "questions.jsonl"
        for line in qfile.read_text("utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                out[str(d["id"])] = str(d["question"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return out


def labelled_set(path: str) -> Path:
    """A labelled set typed on this screen, if it lies in the development set's directory or under
    the data directory (a visitor cannot point the screen at other files on the server)."""
    return inside_any([DEFAULT_EVAL, current_settings().data_dir], path.strip(), what="labelled set")


def to_row(d: dict) -> Row:
    return Row(id=d["id"], doc=str(d.get("doc", "")), source=str(d.get("source", "")), method=d["method"],
               pages=d["pages"], evidence_pages=d["evidence_pages"], answer=str(d.get("answer", "")),
               confidence=float(d.get("confidence", 0.0)), fallback=bool(d.get("fallback", False)),
               seconds=float(d.get("seconds", 0.0)), llm_calls=int(d.get("llm_calls", 0)),
               nodes_scored=int(d.get("nodes_scored", 0)))


# --- run a (small) evaluation -----------------------------------------------------------------------
with st.expander("Run an evaluation here (offline methods; the first N questions of a labelled set)"):
    with st.form("eval_run"):
        c_dir, c_n = st.columns([3, 1])
        run_dir = c_dir.text_input("Labelled set", value=str(DEFAULT_EVAL),
                                   help="A directory with pdfs/ and questions.jsonl (1-based evidence_pages), inside "
                                        "../shared/eval or the data directory.")
        run_n = c_n.number_input("Questions", min_value=1, max_value=1000, value=10, step=5)
        run_methods = st.multiselect("Methods", list(METHODS), default=["flat_bm25", "greedy", "mcts_puct"])
        go_run = st.form_submit_button("Run", icon=":material/play_arrow:")
    if go_run:
        runs_dir = current_settings().data_dir / "eval-runs"
        out_path = runs_dir / f"results-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
        with st.status(f"Evaluating {len(run_methods)} method(s) on {int(run_n)} question(s)…",
                       expanded=True) as status:
            line = st.empty()
            bar = st.progress(0.0)
            done = {"rows": 0}
            total = max(1, int(run_n) * max(1, len(run_methods)))

            def on_row(row: Row) -> None:
                done["rows"] += 1
                with out_path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
                bar.progress(min(1.0, done["rows"] / total), text=f"{done['rows']} of {total} results")

            try:
                if not run_methods:
                    raise EvalSetError("Pick at least one method.")
                run_set = labelled_set(run_dir)
                runs_dir.mkdir(parents=True, exist_ok=True)
                eval_run(run_set, engine(), methods=run_methods, limit=int(run_n), on_row=on_row,
                         progress=lambda msg: line.caption(md_escape(msg)))
            except (AlphaSearchError, OSError, ValueError) as exc:
                status.update(label="The evaluation did not finish", state="error")
                show_error(exc, "running the evaluation")
            else:
                status.update(label=f"Done: {done['rows']} results in {out_path}",
                              state="complete", expanded=False)
                ss["eval_file"] = out_path
                ss.pop("eval_upload", None)

# --- load a results file ----------------------------------------------------------------------------
RUNS = current_settings().data_dir / "eval-runs"
candidates = sorted((p for d in (OUT, RUNS) if d.is_dir() for p in d.glob("*.jsonl")),
                    key=lambda p: -p.stat().st_mtime)
c_file, c_up = st.columns(2)
with c_file:
    picked = st.selectbox("Results file (benchmarks/out/ or runs from this screen)", [None] + candidates,
                          key="eval_file",
                          index=1 if candidates else 0, format_func=lambda p: "—" if p is None else p.name,
                          help="The newest first.")
with c_up:
    uploaded = st.file_uploader("…or upload a results.jsonl", type=["jsonl", "json"], key="eval_upload")
text, label = "", ""
if uploaded is not None:
    text, label = uploaded.getvalue().decode("utf-8", errors="replace"), uploaded.name
elif picked is not None:
    try:
        text, label = Path(picked).read_text("utf-8", errors="replace"), Path(picked).name
    except OSError as exc:
        st.error(f"{inert(Path(picked).name)} cannot be read ({exc.strerror}).", icon=":material/error:")

tab_hits, tab_budget, tab_miss = st.tabs(["hit@k per method", "Judge budget (simulation)", "Misses"], key="eval_tabs")

rows: list[dict] = []
if text:
    rows, bad = parse_rows(text)
    if bad:
        st.warning(f"{bad} line(s) of {inert(label)} are not result rows and were ignored.", icon=":material/warning:")
    if not rows:
        st.error(f"{inert(label)} holds no result rows (each line needs id, method, pages and evidence_pages).",
                 icon=":material/error:")

with tab_hits:
    if not rows:
        st.info("No results loaded. Produce them with\n\n"
                "`python -m alphasearch eval ../shared/eval --methods flat_bm25,mcts_puct --out "
                "benchmarks/out/results.jsonl`\n\nthen pick the file above.", icon=":material/info:")
    else:
        summaries = summarise([to_row(d) for d in rows])
        ks = sorted(summaries[0].hits)
        table = pd.DataFrame([{"method": s.method, "source": s.source, "n": s.n,
                               **{f"hit@{k}": round(s.hits[k], 3) for k in ks}, "MRR": round(s.mrr, 3),
                               "median s": round(s.median_seconds, 3), "mean nodes scored": round(s.mean_nodes, 1),
                               "fallback share": round(s.fallbacks, 3)} for s in summaries])
        sources = list(dict.fromkeys(table["source"]))
        source = st.selectbox("Source", sources, key="eval_source") if len(sources) > 1 else sources[0]
        part = table[table["source"] == source]
        long = part.melt(id_vars=["method"], value_vars=[f"hit@{k}" for k in ks], var_name="metric",
                         value_name="share of questions")
        long["method"] = [inert(m, "plotly") for m in long["method"]]  # method names come from the file
        fig = px.bar(long, x="method", y="share of questions", color="metric", barmode="group", text_auto=".2f",
                     range_y=[0, 1.05], title=inert(f"{label}: hit@k per method ({source}, n={int(part['n'].iloc[0])})",
                                                    "plotly"))
        fig.update_layout(height=420, margin=dict(l=10, r=10, t=50, b=10))
        st.plotly_chart(fig, width="stretch", key="eval_hits")
        st.dataframe(table, hide_index=True, width="stretch")

with tab_budget:
    budget_file = OUT / "judge_budget.json"
    try:
        budget = json.loads(budget_file.read_text("utf-8"))
        brows = pd.DataFrame(budget["rows"])
        assert {"sigma", "method", "judge_calls", "hit@3"} <= set(brows.columns)
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        budget = None
    if budget is None:
        st.info("No judge-budget study yet. Run `python benchmarks/judge_budget.py` (it writes "
                "benchmarks/out/judge_budget.json).", icon=":material/info:")
    else:
        st.caption("A **simulation**: a simulated judge rewards a section by whether its pages hold evidence, plus "
                   "noise of the given standard deviation. " + md_escape(str(budget.get("machine", ""))))
        sigmas = sorted(brows["sigma"].unique())
        sigma = st.select_slider("Judge noise (sigma)", sigmas, value=sigmas[0], key="eval_sigma")
        part = brows[brows["sigma"] == sigma].sort_values(["method", "judge_calls"])
        fig = px.line(part, x="judge_calls", y="hit@3", color="method", markers=True, log_x=True,
                      hover_data=[c for c in ("budget_label", "hit@1", "hit@5") if c in part.columns],
                      title=f"hit@3 against judge calls per question (sigma={sigma})")
        flat = budget.get("flat_offline", {}).get("hit@3")
        if flat is not None:
            fig.add_hline(y=flat, line_dash="dot", annotation_text="flat offline ranking (no judge)")
        fig.update_layout(height=440, margin=dict(l=10, r=10, t=50, b=10), yaxis_range=[0, 1.05])
        st.plotly_chart(fig, width="stretch", key="eval_budget")
        verdicts = [v for v in budget.get("verdict", []) if v.get("sigma") == sigma]
        if verdicts:
            with st.expander("Verdict at this noise level"):
                st.json(verdicts[0])

with tab_miss:
    if not rows:
        st.info("Load a results file to see the questions each method missed.", icon=":material/info:")
    else:
        methods = list(dict.fromkeys(d["method"] for d in rows))
        c_m, c_k, c_dir = st.columns([2, 1, 3])
        method = c_m.selectbox("Method", methods, key="eval_miss_method")
        k = c_k.selectbox("k", (1, 3, 5), index=1, key="eval_miss_k")
        eval_dir = c_dir.text_input("Labelled set (for question texts and re-runs)", value=str(DEFAULT_EVAL),
                                    key="eval_dir")
        try:
            set_dir = labelled_set(eval_dir)
        except AlphaSearchError as exc:
            st.error(inert(exc), icon=":material/error:")
            set_dir, texts = None, {}
        else:
            texts = question_texts(str(set_dir))
            if not texts:
                st.caption(f"No labelled set at {md_escape(eval_dir)}: questions are shown by id and cannot be re-run.")
        misses = [d for d in rows if d["method"] == method and not hit_at_k(d["pages"], d["evidence_pages"], k)]
        st.markdown(f"**{len(misses)}** of {sum(d['method'] == method for d in rows)} questions missed at hit@{k}.")
        table = pd.DataFrame([{"question": texts.get(d["id"], "") or d["id"],
                               "expected pages": ", ".join(map(str, d["evidence_pages"])),
                               "returned pages": ", ".join(map(str, d["pages"][:k])), "doc": d.get("doc", ""),
                               "id": d["id"]} for d in misses],
                             columns=["question", "expected pages", "returned pages", "doc", "id"])
        st.caption("Select a row to re-run that search and open it in the tree visualizer.")
        event = st.dataframe(table, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                             key="eval_miss_table",
                             column_config={"question": st.column_config.TextColumn(width="large"),
                                            "expected pages": st.column_config.TextColumn(width="small"),
                                            "returned pages": st.column_config.TextColumn(width="small")})
        chosen = event.selection.rows if event and hasattr(event, "selection") else []
        if chosen and texts and set_dir is not None:
            d = misses[chosen[0]]
            st.markdown(f"Selected: **{md_escape(texts.get(d['id'], d['id']))}** in {md_escape(d.get('doc', ''))}")
            if st.button("Run this search again and open it in the tree visualizer", icon=":material/account_tree:",
                         key="eval_rerun"):
                rule = "ucb1" if "ucb1" in method else "puct"
                try:
                    with st.spinner("Indexing (cached after the first time) and searching…"):
                        eng = engine()
                        doc = eng.index_file(inside(set_dir / "pdfs", str(d.get("doc", "")),
                                                    what="PDF"))
                        answer = eng.ask_document(doc, texts[d["id"]], rule=rule)
                except (AlphaSearchError, OSError) as exc:
                    show_error(exc, "re-running the search")
                else:
                    if answer.trace is not None:
                        remember_search(SearchRecord(texts[d["id"]], f"Evaluation miss · {d['id']} ({rule})",
                                                     {"Document tree": answer.trace}))
                        st.switch_page("pages/tree.py")
