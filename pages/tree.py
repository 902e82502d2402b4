"""Tree visualizer: the section tree of a search with visit counts and Q-values,
replayable iteration by iteration."""
from __future__ import annotations

import json

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from alphasearch.errors import TraceFileError
from alphasearch.search import mcts
from alphasearch.search.trace_file import read_trace
from pages._common import (SearchRecord, current_settings, inert, md_escape, pages_label, saved_searches, searches,
                           shorten, tree_state, with_rounds)
from pages._replay import replay_figure, section_path

ss = st.session_state
st.title("Tree visualizer")
st.caption("How the Monte Carlo Tree Search found its pages: node size is the visit count N, colour is the "
           "mean reward Q (red 0 → green 1), the blue path is the one chosen in the iteration shown.")

# --- pick a search -------------------------------------------------------------------------------
session_records = list(reversed(searches()))
asked = {r.question for r in session_records}
records: list[SearchRecord] = session_records + [r for r in saved_searches() if r.question not in asked]
with st.expander("Open a saved trace (JSON downloaded from this page or written by the CLI)"):
    upload = st.file_uploader("Trace JSON", type=["json"], key="tree_trace_upload")
    if upload is not None:
        try:  # bounded: its bytes, iterations and nodes (Settings.max_trace_*) before it is replayed
            question, loaded = read_trace(upload.getvalue(), upload.name, current_settings())
            records.insert(0, SearchRecord(question, f"Uploaded · {upload.name}", {"Uploaded trace": loaded}))
        except TraceFileError as exc:
            st.error(inert(exc), icon=":material/error:")

if not records:
    st.info("No search yet. Ask a question on **Single PDF** (the sample report works without a file or key) "
            "or on **Folder query**, then come back here.", icon=":material/info:")
    st.page_link("pages/single_pdf.py", label="Go to Single PDF", icon=":material/description:")
    st.stop()

c_pick, c_phase = st.columns([3, 2])
with c_pick:
    idx = st.selectbox("Search", range(len(records)), format_func=lambda i: records[i].title,
                       key="tree_pick", help="The latest search from any screen is first.")
record = records[idx or 0]
all_phases = with_rounds(record.traces)
with c_phase:
    phase = st.selectbox("Tree", list(all_phases), key=f"tree_phase_{record.when}",
                         help="Folder searches: Phase 1 ranks the documents, Phase 2 searches each chosen "
                              "document's section tree. LLM answers: round 2 on searches again for what the "
                              "first answer was missing.")
trace = all_phases[phase]
T = len(trace.steps)
st.markdown(f"**Question:** {md_escape(record.question)}")
gapped = [(name, t) for name, t in record.traces.items() if t.rounds]
for name, first in gapped:
    lines = [f"1. the question — {len(first.steps)} iterations"]
    for r in first.rounds:
        new = ", ".join(f"p. {p}" for p in r.pages) or "no page not read before"
        lines.append(f"1. {md_escape(r.query)} — {len(r.trace.steps)} iterations; new pages: {new}")
    st.markdown(f"**Search rounds** ({md_escape(name)}; the model named what the first answer was missing, "
                "pick a round under *Tree*):\n" + "\n".join(lines))

sid = f"{record.when}-{phase}"
st.caption("Press **▶ Play** on the graph to replay the search in the browser (2, 3 or 5 iterations a second); "
           "drag its slider to any iteration. Hover a node for its full title, N and Q; click one for its details.")
cited = record.cited.get(phase, ())
if cited:  # above the graph: a large tree puts its end far below
    st.markdown("**Where the answer was read** (purple ring): " + "; ".join(
        f"p. {p}" + (f" — {md_escape(' › '.join(where))}" if (where := section_path(tree_state(trace, T), p)) else "")
        for p in cited) + ".")
    st.caption("The blue path is where the search went in the iteration shown; the deep read then ranks every page "
               "the search reached, so the answer may come from another branch.")
fig, drawn = replay_figure(trace, cited=cited)
with st.container(border=True, key="tree-replay"):
    event = st.plotly_chart(fig, width="stretch", key=f"tree_replay_{sid}", on_select="rerun",
                            selection_mode="points", config={"displayModeBar": False, "scrollZoom": False})
    if drawn < len(tree_state(trace, T)):
        st.caption("A large tree: drawn collapsed to the sections the search visited; “+N unvisited” stands for "
                   "the sections under a node it never visited (all are in the node table).")
picked = [p.get("customdata") for p in (event.selection.points if event and event.selection else [])]
picked = [p for p in picked if isinstance(p, str) and not p.endswith("+")]

t = st.slider("Node details and charts after iteration", 0, max(T, 1), T, key=f"tree_t_{sid}", disabled=T == 0,
              help="The numbers below show the state after iteration t.")
t = min(t, T)

views = tree_state(trace, t)
step = trace.steps[t - 1] if t else None
m1, m2, m3, m4, m5 = st.columns(5)
m1.metric("Details at iteration", f"{t} / {T}")
m2.metric("Reward of iteration t", f"{step.reward:.2f}" if step else "—")
m3.metric("Nodes in tree", len(views))
read_now = sum(1 for x in views if x.page and x.judged)
m4.metric("Nodes judged", trace.nodes_scored, f"{read_now} page{'' if read_now == 1 else 's'} read", delta_color="off")
m5.metric(f"Rule (c = {trace.c:g})", inert(trace.rule.upper()), "stopped early" if trace.stopped_early else None,
          delta_color="off")

pick_key = f"tree_node_{sid}"
if picked and picked[0] != ss.get(f"tree_click_{sid}"):
    ss[f"tree_click_{sid}"] = picked[0]
    ss[pick_key] = picked[0]

# --- node details -------------------------------------------------------------------------------------
by_id = {v.node_id: v for v in views}
ids = [v.node_id for v in views]
if ss.get(pick_key) not in by_id:
    ss[pick_key] = (step.path[-1] if step else ids[0])
nid = st.selectbox("Node (or click one in the graph)", ids, key=pick_key,
                   format_func=lambda i: f"{shorten(by_id[i].title, 60)} · {pages_label(by_id[i].pages)}")
v = by_id[nid]
with st.container(border=True):
    st.markdown(f"**{md_escape(v.title)}** — {pages_label(v.pages)}")
    d1, d2, d3, d4, d5 = st.columns(5)
    d1.metric("Visits N", v.visits)
    d2.metric("Mean reward Q", f"{v.q:.3f}")
    d3.metric("Prior P", f"{v.prior:.3f}")
    d4.metric("Own reward", "—" if v.reward is None else f"{v.reward:.3f}")
    sel = "—" if v.selection is None else ("∞ (unvisited)" if v.selection == float("inf") else f"{v.selection:.3f}")
    d5.metric(f"{inert(trace.rule.upper())} value now", sel,
              help="From this node's N, Q and prior alone. When the search chose a node it also weighed the best evidence not yet exhausted below it and, with a model judge, the best page score in its range: the values it used are listed under “Selection values when chosen”.")
    if v.summary:
        st.markdown(("**Passage:** " if v.page else "**Summary:** ") + md_escape(shorten(v.summary, 600)))
    read = [x for x in views if x.parent == v.node_id and x.page and x.judged]
    if read:
        st.markdown(f"**Pages read under this section** ({len(read)}; the deep read's score, the passage "
                    "that best covers the question):")
        for x in sorted(read, key=lambda x: -(x.reward or 0.0)):
            st.markdown(f"- p. {x.pages[0]} · {x.reward or 0.0:.2f} — " + md_escape(shorten(x.summary, 220) or "—"))
    if v.chosen_values:
        st.caption("Selection values when chosen: " + ", ".join(f"it {i}: {val:.3f}" for i, val in v.chosen_values[-12:]))
    if step:
        path_titles = " → ".join(shorten(by_id[p].title, 30) for p in step.path if p in by_id)
        st.caption(f"Path of iteration {t}: " + md_escape(path_titles))

# --- charts -----------------------------------------------------------------------------------------------
tab_q, tab_n, tab_r, tab_table = st.tabs(["Q over iterations", "Visits per node", "Reward per iteration",
                                          "Node table"], key="tree_tabs")
final = tree_state(trace, T)
top = [x.node_id for x in sorted(final, key=lambda x: -x.visits) if x.parent is not None and x.visits][:6]
titles = {x.node_id: inert(shorten(x.title, 30), "plotly") for x in final}
with tab_q:
    hist = mcts.q_history(trace, top)
    fig = go.Figure()
    for node_id in top:
        fig.add_trace(go.Scatter(x=list(range(1, T + 1)), y=hist[node_id], mode="lines+markers",
                                 name=titles[node_id], connectgaps=False))
    if t:
        fig.add_vline(x=t, line_dash="dot", line_color="#1f4e99")
    fig.update_layout(height=360, margin=dict(l=10, r=10, t=30, b=10), xaxis_title="iteration",
                      yaxis_title="Q", yaxis_range=[0, 1.05], legend_title_text="most visited sections")
    st.plotly_chart(fig, width="stretch", key=f"tree_qchart_{sid}")
with tab_n:
    shown = sorted((x for x in views if x.visits), key=lambda x: -x.visits)[:30]
    fig = go.Figure(go.Bar(x=[x.visits for x in shown],
                           y=[inert(shorten(x.title, 40) + f" ({x.node_id})", "plotly") for x in shown],
                           orientation="h", marker_color=[x.q for x in shown], marker_colorscale="RdYlGn",
                           marker_cmin=0, marker_cmax=1, marker_colorbar_title="Q"))
    fig.update_layout(height=max(300, 24 * len(shown) + 80), margin=dict(l=10, r=10, t=30, b=10),
                      xaxis_title=f"visits after iteration {t}", yaxis_autorange="reversed")
    st.plotly_chart(fig, width="stretch", key=f"tree_nchart_{sid}")
with tab_r:
    rewards = [s.reward for s in trace.steps]
    fig = go.Figure(go.Bar(x=list(range(1, T + 1)), y=rewards,
                           marker_color=["#1f4e99" if i + 1 == t else "#9db4d6" for i in range(T)]))
    fig.update_layout(height=320, margin=dict(l=10, r=10, t=30, b=10), xaxis_title="iteration",
                      yaxis_title="reward", yaxis_range=[0, 1.05])
    st.plotly_chart(fig, width="stretch", key=f"tree_rchart_{sid}")
with tab_table:
    table = pd.DataFrame([{
        "node": x.node_id, "title": x.title, "pages": pages_label(x.pages), "depth": x.depth,
        "visits": x.visits, "q": round(x.q, 4), "prior": round(x.prior, 4),
        "reward": None if x.reward is None else round(x.reward, 4),
        "selection_value": None if x.selection is None else round(x.selection, 4),
        "on_path": x.on_path,
    } for x in views])
    st.dataframe(table, width="stretch", hide_index=True)
    c_csv, c_json = st.columns(2)
    c_csv.download_button("Download node table (CSV)", table.to_csv(index=False).encode("utf-8"),
                          file_name=f"alphasearch-nodes-t{t}.csv", mime="text/csv", icon=":material/download:")
    payload = {"question": record.question, "phase": phase, "trace": trace.to_dict()}
    c_json.download_button("Download trace (JSON)", json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8"),
                           file_name="alphasearch-trace.json", mime="application/json", icon=":material/download:")

