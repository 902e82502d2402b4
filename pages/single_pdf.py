"""Single PDF: upload (or the sample) → indexing with progress → document card → cited chat."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from alphasearch.config import MAX_QUESTION_CHARS
from alphasearch.errors import AlphaSearchError
from alphasearch.index import turns
from alphasearch.pdf.convert import accepted_sentence
from pages._common import (ScriptThreadProgress, SearchRecord, answer_meta, ask_streaming, check_upload_size,
                           answer_pages, current_settings, engine, inert, library, md_escape, pages_label,
                           release_upload, remember_search, render_answer, show_error, stored_answer, UPLOAD_TYPES)
from pages._visitor import new_id, owner

SAMPLE_QUESTIONS = ("What was the total revenue in 2025?", "Where did the new factory open?",
                    "What are the main risks to the business?", "What revenue is expected for 2026?")
STAGES = {  # stage → (start, end) share of the overall bar
    "converting": (0.0, 0.05), "validating": (0.0, 0.05), "reading pages": (0.05, 0.6),
    "reading scanned pages (OCR)": (0.6, 0.8), "building the tree": (0.8, 0.9),
    "summaries": (0.9, 1.0), "loaded from cache": (1.0, 1.0),
}

ss = st.session_state
ss.setdefault("single_chat", [])
ss.setdefault("single_uploader", 0)


def reset() -> None:
    for k in ("single_doc", "single_sha", "single_file_id", "single_pending", "single_error", "single_conv"):
        ss.pop(k, None)
    ss["single_chat"] = []
    ss["single_uploader"] += 1  # a fresh, empty uploader
    for k in ("doc", "chat"):
        st.query_params.pop(k, None)


def remember(doc, data: bytes) -> None:
    """Keep the PDF by content hash and start a stored chat; both ids go in the URL so a reload
    (or a bookmark) finds the document and its conversation again."""
    try:
        ss["single_sha"] = engine().uploads.put(data)
    except OSError as exc:
        show_error(exc, "keeping the PDF for a page reload")
    ss["single_conv"] = new_id("single")
    try:  # the chat is this visitor's from the start: its URL opens the document for nobody else
        library().add_turns(ss["single_conv"], [], owner=owner())
    except AlphaSearchError as exc:
        show_error(exc, "starting the conversation")
    st.query_params["doc"] = doc.doc_id
    st.query_params["chat"] = ss["single_conv"]


def restore() -> None:
    """After a reload: the document and the chat named in the URL, when they are still kept and the chat is
    this visitor's (another visitor's URL opens neither)."""
    sha = str(st.query_params.get("doc") or "")
    conv = "".join(ch for ch in str(st.query_params.get("chat") or "") if ch.isalnum() or ch in "-_")[:64]
    try:
        mine = bool(conv) and library().owns(conv, owner())
    except AlphaSearchError:
        mine = False
    if not mine:
        if sha:
            st.info("That document and its chat belong to another visitor; upload the PDF to ask it yourself.",
                    icon=":material/lock:")
        return
    doc = engine().indexes.get(sha) if sha else None
    if doc is None or engine().uploads.get(sha) is None:
        return
    chat = []
    if conv:
        try:
            turns = library().history(conv, limit=200, owner=owner())
        except AlphaSearchError as exc:
            show_error(exc, "loading the conversation")
            turns = []
        asked = None
        for turn in turns:
            if turn.role == "user":
                asked = turn.text
            elif asked is not None:
                chat.append((asked, stored_answer(turn.text, turn.meta)))
                asked = None
    ss.update(single_doc=doc, single_sha=sha, single_file_id=f"restored-{sha}", single_chat=chat,
              single_conv=conv)


def index(data: bytes, name: str, file_id: str, uploads: Sequence[Any] = ()) -> None:
    """Index the bytes with a live progress bar; on failure say why in one sentence. Streamlit's copies of the
    upload (its upload manager's, and ``uploads``, the uploader's values) are dropped on every way out, a closed
    tab's stopped run too, except while its error is shown."""
    kept = False
    try:
        kept = _index(data, name, file_id)
    finally:
        if not kept:
            release_upload(file_id, uploads=uploads)


def _index(data: bytes, name: str, file_id: str) -> bool:
    """True when the upload is kept: its error stays on screen while the file is there."""
    settings = current_settings()
    shown = inert(name)
    with st.status(f"Indexing {shown}…", expanded=True) as status:
        bar = st.progress(0.0, text="validating")

        def draw(stage: str, fraction: float) -> None:
            a, b = STAGES.get(stage, (0.0, 1.0))
            overall = min(1.0, a + (b - a) * max(0.0, min(1.0, fraction)))
            bar.progress(overall, text=f"{stage} · {overall:.0%}")
            status.update(label=f"Indexing {shown}: {stage}…")

        progress = ScriptThreadProgress(draw)

        try:
            check_upload_size(data, name, settings)
            with turns.visiting(owner()):  # one index worker at a time per visitor, in line (its place shown)
                data = engine().as_pdf(data, name, progress=progress)  # a Word, slide, web or image file: as PDF
                doc = engine().index_bytes(data, name, progress=progress)
        except Exception as exc:
            bar.empty()
            status.update(label=f"{shown} was not indexed", state="error", expanded=True)
            show_error(exc, f"indexing {name}")
            ss["single_file_id"] = file_id  # do not retry the same bad file on every rerun
            ss["single_error"] = (file_id, exc)
            return True
        bar.progress(1.0, text="ready")
        status.update(label=f"{shown} is ready: {doc.page_count} pages, {doc.section_count()} sections",
                      state="complete", expanded=False)
    ss.update(single_doc=doc, single_file_id=file_id, single_chat=[])
    remember(doc, data)  # the bytes are kept on disk, never in the session
    return False


def want_sample() -> None:
    ss["want_sample"] = True


if ss.get("want_sample"):
    reset()  # before the uploader is drawn, so it starts empty
elif "single_doc" not in ss and st.query_params.get("doc"):
    restore()

st.title("Ask a PDF")
st.caption("Upload a PDF, or try the generated sample report. Answers cite the pages they come from.")

upload_key = f"single_upload_{ss['single_uploader']}"  # the uploader's value is also kept under this key
col_up, col_btn = st.columns([3, 1], vertical_alignment="center")
with col_up:
    upload = st.file_uploader("PDF file", type=UPLOAD_TYPES, key=upload_key,
                              help=f"Up to {current_settings().max_file_mb} MB and {current_settings().max_pages:,} pages. "
                                   f"{accepted_sentence()}")
with col_btn:
    st.button("Try the sample", icon=":material/auto_awesome:", width="stretch", key="try_sample",
              on_click=want_sample, help="Index a fictional annual report generated by AlphaSearch.")
    if "single_doc" in ss:
        st.button("Reset", icon=":material/restart_alt:", width="stretch", key="single_reset", on_click=reset,
                  help="Forget this document and the conversation.")

if ss.pop("want_sample", False):
    from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes

    index(sample_pdf_bytes(), SAMPLE_NAME, "sample")
elif upload is not None and ss.get("single_file_id") != upload.file_id:
    index(upload.getvalue(), upload.name, upload.file_id, (upload, ss.get(upload_key)))
elif upload is not None and ss.get("single_error", (None,))[0] == upload.file_id:
    show_error(ss["single_error"][1], f"indexing {upload.name}")  # keep saying why while the file is there
elif upload is not None:  # indexed in an earlier run; this run's value holds the bytes again
    release_upload(upload.file_id, uploads=(upload, ss.get(upload_key)))
upload = None  # the script's globals outlive the run (Streamlit keeps the last run's module): not the file

doc = ss.get("single_doc")
if doc is None:
    st.info("No document yet. Upload a PDF above, or press **Try the sample** to use a fictional annual "
            "report — no file and no key needed.", icon=":material/upload_file:")
    st.stop()

# --- document card ----------------------------------------------------------------------------
with st.container(border=True):
    st.subheader(md_escape(doc.name), anchor=False)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Pages", f"{doc.page_count:,}")
    c2.metric("Sections", f"{doc.section_count():,}")
    c3.metric("Tree from", inert(doc.tree_source or "—"))
    c4.metric("Engine", inert(doc.engine))
    if doc.ocr_pages:
        shown = ", ".join(map(str, doc.ocr_pages[:12])) + (" …" if len(doc.ocr_pages) > 12 else "")
        st.caption(f"Read by OCR: {len(doc.ocr_pages):,} of {doc.page_count:,} pages ({shown}).",
                   help="Scanned pages and pictures of text, read by Tesseract; turn it off in Settings.")
    for w in doc.warnings:
        st.warning(inert(w), icon=":material/error:")
    with st.expander("Section tree"):
        lines = []
        stack = [(child, 0) for child in reversed(doc.root.children)]
        while stack and len(lines) < 300:  # a nested list: each node indented by its depth below the root
            node, depth = stack.pop()
            lines.append("  " * depth + f"- {md_escape(node.title)} ({pages_label(node.pages)})")
            stack += [(child, depth + 1) for child in reversed(node.children)]
        if stack:
            lines.append(f"- … and {doc.section_count() - 1 - len(lines):,} more sections")
        st.markdown("\n".join(lines) if lines else "One section: the whole document.")

# --- chat --------------------------------------------------------------------------------------------
kept = ss.get("single_sha")


def pdf_for(_citation):
    """The PDF's bytes read from the upload store when a preview needs them (never held in the session)."""
    return (lambda: engine().uploads.get(kept) or b"") if kept else None


question = st.chat_input(f"Ask a question about {doc.name}", key="single_question", max_chars=MAX_QUESTION_CHARS) or ss.pop("single_pending", None)
for i, (asked, answer) in enumerate(ss["single_chat"]):
    with st.chat_message("user"):
        st.markdown(md_escape(asked))
    with st.chat_message("assistant", avatar=":material/travel_explore:"):
        render_answer(answer, pdf_for, key=f"single-{i}")

if not ss["single_chat"] and not question and ss.get("single_file_id") == "sample":
    st.caption("Try one of these:")
    pick = st.pills("Example questions", SAMPLE_QUESTIONS, label_visibility="collapsed", key="single_examples")
    if pick:
        ss["single_pending"] = pick
        st.rerun()

if question:
    question = question.strip()[:MAX_QUESTION_CHARS]
    with st.chat_message("user"):
        st.markdown(md_escape(question))
    with st.chat_message("assistant", avatar=":material/travel_explore:"):
        try:
            eng = engine()
            answer = ask_streaming(lambda on_text: eng.ask_document(doc, question, on_text=on_text))
        except Exception as exc:
            show_error(exc, "answering the question")
        else:
            ss["single_chat"].append((question, answer))
            if ss.get("single_conv"):
                try:
                    library().add_turns(ss["single_conv"], [("user", question, None),
                                                            ("assistant", answer.text, answer_meta(answer))],
                                        owner=owner())
                except AlphaSearchError as exc:
                    show_error(exc, "saving the conversation")
            if answer.trace is not None:
                cited = answer_pages(answer)
                remember_search(SearchRecord(question, f"Single PDF · {doc.name}", {"Document tree": answer.trace},
                                             cited={"Document tree": cited}))
                try:  # stored like a folder search: a reload or a restart reopens it in the visualizer
                    library().save_document_trace(doc.doc_id, {"question": question, "doc": doc.name,
                                                               "trace": answer.trace.to_dict(), "cited": list(cited)},
                                                  owner=owner())
                except (AlphaSearchError, OSError, ValueError) as exc:
                    show_error(exc, "saving the search for the tree visualizer")
            render_answer(answer, pdf_for, key=f"single-{len(ss['single_chat']) - 1}")

if ss["single_chat"]:
    if st.button("Open the latest search in the tree visualizer", icon=":material/account_tree:", key="single_to_tree"):
        st.switch_page("pages/tree.py")
