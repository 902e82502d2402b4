"""Folder query: a chat over the library. Each question is routed to a folder
(automatically or the one chosen), the best documents are picked, their section
trees searched, and the answer cites document, section and pages. The
conversation is stored in the library, so it survives a reload and a restart."""
from __future__ import annotations

import streamlit as st

from alphasearch.config import MAX_QUESTION_CHARS
from alphasearch.errors import AlphaSearchError, NotYoursError
from alphasearch.models import Citation
from pages._common import (SearchRecord, answer_pages, engine, inert, md_escape, open_library, percent,
                           remember_search, render_answer, searches, shorten, show_error, stored_answer)
from pages._series import render_series
from pages._visitor import new_id, owner

ss = st.session_state
AUTO = "__auto__"
st.title("Folder query")
st.caption("Ask across your folders. AlphaSearch picks the folder, then the documents, then the sections.")

lib, folders = open_library()

if not any(f.documents for f in folders):
    st.info("The library has no documents yet. Create folders and add PDFs on the **Folders** screen first.",
            icon=":material/folder_open:")
    st.page_link("pages/folders.py", label="Go to Folders", icon=":material/folder_open:")
    st.stop()

# --- the conversation: this visitor's, from the URL or this session; else a new one ------------------------
me = owner()
conv = "".join(ch for ch in str(st.query_params.get("c") or ss.get("query_conv") or "")
               if ch.isalnum() or ch in "-_")[:64]
if conv:
    try:
        lib.history(conv, limit=1, owner=me)
    except NotYoursError as exc:
        st.info(inert(f"{exc} A new conversation was started."), icon=":material/lock:")
        conv = ""
if not conv:
    conv = new_id("app")
ss["query_conv"] = conv
if st.query_params.get("c") != conv:
    st.query_params["c"] = conv

names = {f.folder_id: f.name for f in folders}
c_route, c_new, c_clear = st.columns([3, 1, 1], vertical_alignment="bottom")
with c_route:
    target = st.selectbox("Folder", [AUTO] + [f.folder_id for f in folders if f.documents], key="query_folder",
                          format_func=lambda i: "Automatic routing" if i == AUTO else names.get(i, i),
                          help="Automatic: the question (and the conversation so far) decides the folder.")
with c_new:
    if st.button("New conversation", icon=":material/add_comment:", width="stretch", key="query_new"):
        ss["query_conv"] = new_id("app")
        st.query_params["c"] = ss["query_conv"]
        st.rerun()
with c_clear:
    if st.button("Clear history", icon=":material/delete_sweep:", width="stretch", key="query_clear"):
        try:
            lib.clear_history(conv, owner=me)
        except AlphaSearchError as exc:
            show_error(exc, "clearing the conversation")
        else:
            st.rerun()


def pdf_loader(c: Citation):
    """Bytes of the cited document from the library (by content hash)."""
    if not c.doc_id:
        return None
    try:
        path = lib.pdf_path(c.doc_id)
    except AlphaSearchError:
        return None
    return (lambda: path.read_bytes()) if path.exists() else None


def series_view(answer, key: str):
    """Draws a trend answer's table and chart (None for any other answer)."""
    data = answer.extra.get("series")
    if not isinstance(data, dict) or not data.get("rows"):
        return None
    return lambda: render_series(data, pdf_loader, key)


def route_line(meta: dict) -> str:
    if "folder" not in meta:
        return ""
    docs = ", ".join(meta.get("documents", [])) or "none"
    how = "chosen by you" if meta.get("forced") else f"routing confidence {percent(float(meta.get('folder_confidence', 0)))}"
    return md_escape(f"Folder: {meta['folder']} ({how}) · documents: {docs}")


def show_turns() -> int:
    """The conversation so far; returns how many turns it holds."""
    try:
        turns = lib.history(conv, limit=200, owner=me)
    except AlphaSearchError as exc:
        show_error(exc, "loading the conversation")
        return 0
    for i, turn in enumerate(turns):
        if turn.role == "user":
            with st.chat_message("user"):
                st.markdown(md_escape(turn.text))
        else:
            with st.chat_message("assistant", avatar=":material/travel_explore:"):
                shown = stored_answer(turn.text, turn.meta)
                render_answer(shown, pdf_loader, key=f"query-{i}", route=route_line(turn.meta),
                              series=series_view(shown, str(i)))
    return len(turns)


question = st.chat_input("Ask a question about your folders", key="query_question", max_chars=MAX_QUESTION_CHARS)
held = show_turns()
only: list[str] | None = None
picked = ss.pop("query_pick", None)  # one click on "Ask … instead": the same question, that document alone
if picked and not question:
    question, target, only = picked["question"], picked["folder"], [picked["doc"]]

if question:
    question = question.strip()[:MAX_QUESTION_CHARS]
    with st.chat_message("user"):
        st.markdown(md_escape(question))
    with st.chat_message("assistant", avatar=":material/travel_explore:"):
        with st.status("Routing the question to a folder…", expanded=True) as status:
            try:
                history = lib.history(conv, limit=20, owner=me)
                answer = engine().ask_folder(question, folder=None if target == AUTO else target, history=history,
                                             documents=only, owner=me)
            except Exception as exc:
                status.update(label="No answer", state="error")
                show_error(exc, "answering from the library")
                answer = None
            if answer is not None:
                ft = answer.folder_trace
                routing = (ft.routing if ft else answer.extra.get("routing")) or {}
                folder_name = str(answer.extra.get("folder", routing.get("folder", "")))
                conf = float(answer.extra.get("folder_confidence", routing.get("confidence", 0.0)))
                docs = list(answer.extra.get("documents", []))
                st.markdown(md_escape(f"1. Folder: {folder_name}") +
                            (" (chosen by you)" if target != AUTO else f" — confidence {percent(conf)}") +
                            (f" — {md_escape(routing['reason'])}" if routing.get("reason") else ""))
                searched_for = str(answer.extra.get("searched_for") or "")
                if searched_for and searched_for.strip() != question:
                    st.caption("Read as a follow-up: searched for " + md_escape(shorten(searched_for, 200)))
                scores = ft.doc_scores if ft else {}
                why = ft.why if ft else {}
                st.markdown("2\\. Documents: " + md_escape(", ".join(
                    f"{d} ({scores[d]:.2f})" if d in scores else d for d in docs) or "none"))
                reasons = [f"{d}: " + (f"{why[d]['label']}; " if why[d].get("label") else "")
                           + (f"matches the question's {', '.join(why[d]['facts'])}; " if why[d].get("facts") else "")
                           + f"content {why[d].get('content', 0):.2f}" for d in docs if d in why]
                if reasons:
                    st.caption("Why: " + md_escape(" | ".join(reasons)))
                sections: dict[str, list[str]] = {}
                if ft:
                    for d, tr in ft.per_document.items():
                        sections[d] = [s.title for s in tr.best[:3]]
                lines = [f"{d}: " + "; ".join(shorten(t, 50) for t in ts) for d, ts in sections.items()]
                st.markdown("3\\. Sections searched: " + (md_escape(" | ".join(lines)) if lines else "—"))
                if ft and ft.skipped:
                    st.warning("Skipped: " + md_escape("; ".join(f"{k}: {v}" for k, v in ft.skipped.items())),
                               icon=":material/timer_off:")
                status.update(label=f"Answered from {inert(folder_name)} · {len(docs)} document(s)", state="complete",
                              expanded=False)
        if answer is not None:
            nodes = (answer.trace.nodes_scored if answer.trace else 0) + sum(
                t.nodes_scored for t in (ft.per_document.values() if ft else []))
            meta = {"folder": folder_name, "folder_confidence": conf, "forced": target != AUTO, "documents": docs,
                    "sections": sections, "confidence": answer.confidence, "fallback": answer.fallback,
                    "seconds": round(answer.seconds, 3), "llm_calls": answer.usage.llm_calls,
                    "cache_hits": answer.usage.cache_hits, "nodes_scored": nodes, "degraded": answer.degraded,
                    "confidence_parts": answer.extra.get("confidence_parts"),
                    "structured": answer.extra.get("structured"), "sub_queries": answer.extra.get("sub_queries"),
                    "series": answer.extra.get("series"),
                    "period_note": " ".join(x for x in (answer.extra.get("period_source"),
                                                        answer.extra.get("period_note")) if x),
                    "citations": [{**c.to_dict(), "doc_id": c.doc_id} for c in answer.citations]}
            fid = str(routing.get("folder_id", ""))
            try:
                lib.add_turns(conv, [("user", question, None), ("assistant", answer.text, meta)], folder=fid,
                              owner=me)
            except AlphaSearchError as exc:
                show_error(exc, "saving the conversation")
            shown = stored_answer(answer.text, meta)
            # the series keyed by the turn it becomes: a click on its chart reruns the page, which then draws it
            # from the conversation, and the chart keeps the point clicked
            render_answer(shown, pdf_loader, key="query-new", route=route_line(meta),
                          series=series_view(shown, str(held + 1)))
            also = answer.extra.get("also_found_in") or []
            if also:
                st.caption("The question may mean another document too; ask it of one alone:")
                for j, alt in enumerate(also):
                    label = alt["doc"] + (f" ({alt['label']})" if alt.get("label") else "")
                    st.button(f"Ask {inert(label)} instead", key=f"query_alt_{j}", icon=":material/redo:",
                              on_click=ss.__setitem__, args=("query_pick", {"question": question, "folder": folder_name,
                                                                            "doc": alt["doc"]}))
            traces, cited = {}, {}
            if ft and ft.documents is not None:
                traces["Phase 1 — documents"] = ft.documents
            if ft:
                for d, tr in ft.per_document.items():
                    traces[f"Phase 2 — {d}"] = tr
                    cited[f"Phase 2 — {d}"] = answer_pages(answer, d)
            if traces:
                remember_search(SearchRecord(question, f"Folder query · {folder_name}", traces, cited=cited))

if any(r.source.startswith("Folder query") for r in searches()):
    if st.button("Open the latest search in the tree visualizer", icon=":material/account_tree:", key="query_to_tree"):
        st.switch_page("pages/tree.py")
