"""Folders: create, rename, delete; add PDFs with per-file results; the document
table; remove a document; health check and repair."""
from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from alphasearch.errors import AlphaSearchError
from alphasearch.index import turns
from alphasearch.pdf.convert import accepted_sentence
from pages._visitor import owner
from pages._common import (ScriptThreadProgress, current_settings, doc_facts, inert, md_escape, open_library,
                           release_upload, show_error, UPLOAD_TYPES)

EDITABLE = {"organisation": "org", "kind": "kind", "year": "year", "quarter": "quarter", "title": "title"}


def _cell(value):
    """A table cell as a fact value: empty cells and NaN are '', whole floats are ints."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


ss = st.session_state
ss.setdefault("folders_uploader", 0)
STATUS_ICON = {"indexed": "indexed (new)", "unchanged": "unchanged (same bytes, skipped)",
               "replaced": "replaced (re-indexed)", "duplicate": "duplicate (not added)", "rejected": "rejected"}

st.title("Folders")
st.caption("Group PDFs into folders; Folder query routes each question to the right folder and documents.")

lib, folders = open_library()
editor = current_settings().visitor_role == "editor"  # a reader asks and browses: no button that changes the library
if not editor:
    st.info("This server lets visitors ask and browse the folders; adding, renaming and deleting are for editors.",
            icon=":material/visibility:")

for msg in ss.pop("folders_flash", []):
    st.toast(msg, icon=":material/check_circle:")

# --- create ----------------------------------------------------------------------------------------
if editor:
    with st.form("folder_create", clear_on_submit=True, border=True):
        c_name, c_btn = st.columns([4, 1], vertical_alignment="bottom")
        new_name = c_name.text_input("New folder", placeholder="e.g. Annual reports", max_chars=200)
        if c_btn.form_submit_button("Create folder", icon=":material/create_new_folder:", width="stretch"):
            try:
                info = lib.create_folder(new_name)
            except AlphaSearchError as exc:
                show_error(exc, "creating the folder")
            else:
                ss["folders_flash"] = [f"Folder “{inert(info.name)}” created."]
                ss["folders_current"] = info.folder_id
                st.rerun()

if not folders:
    st.info("No folders yet." + (" Create one above, then add PDFs to it." if editor else ""),
            icon=":material/folder_open:")
    st.stop()

# --- pick a folder ------------------------------------------------------------------------------------
ids = [f.folder_id for f in folders]
by_id = {f.folder_id: f for f in folders}
if ss.get("folders_current") not in by_id:
    ss["folders_current"] = ids[0]
c_sel, c_docs, c_pages, c_size = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
fid = c_sel.selectbox("Folder", ids, key="folders_current", format_func=lambda i: by_id[i].name)
folder = by_id[fid]
c_docs.metric("Documents", folder.documents)
c_pages.metric("Pages", f"{folder.pages:,}")
c_size.metric("Size", f"{folder.size_bytes / 2**20:.1f} MB" if folder.size_bytes >= 2**20
              else f"{folder.size_bytes / 1024:.0f} KB")

tabs = st.tabs(["Documents", "Add PDFs", "Rename / delete", "Health"] if editor else ["Documents", "Health"],
               key="folders_tab")
tab_docs, tab_health = tabs[0], tabs[-1]

# --- documents ------------------------------------------------------------------------------------------
with tab_docs:
    try:
        records = lib.documents(fid)
    except AlphaSearchError as exc:
        show_error(exc, "listing the documents")
        records = []
    if not records:
        st.info("This folder is empty. Use **Add PDFs** to upload some.", icon=":material/upload_file:")
    else:
        try:
            facts = lib.facts(fid)
        except AlphaSearchError as exc:
            show_error(exc, "reading the document facts")
            facts = {}
        rows = []
        for r in records:
            sections, engine = doc_facts(r.sha256)
            f = facts.get(r.record_id)
            rows.append({"name": r.name, "organisation": f.org if f else "", "kind": f.kind if f else "",
                         "year": f.year if f else None, "quarter": f.quarter if f else None,
                         "title": f.title if f else "", "pages": r.pages, "sections": sections,
                         "indexed at": dt.datetime.fromtimestamp(r.added).strftime("%Y-%m-%d %H:%M"),
                         "engine": engine, "size (KB)": round(r.size_bytes / 1024, 1), "hash": r.sha256[:12]})
        table = pd.DataFrame(rows)
        st.caption("Organisation, kind, fiscal year, quarter and title were read from each PDF; a question that "
                   "names them goes to the documents that match. Fix a wrong one in the table: it is kept.")
        edited = st.data_editor(
            table, hide_index=True, width="stretch", key=f"folders_facts_{fid}",
            disabled=[c for c in table.columns if c not in EDITABLE or not editor],
            column_config={"hash": st.column_config.TextColumn(help="First 12 hex digits of the SHA-256"),
                           "year": st.column_config.NumberColumn(help="Fiscal year covered", min_value=1900,
                                                                 max_value=2100, step=1, format="%d"),
                           "quarter": st.column_config.NumberColumn(min_value=1, max_value=4, step=1, format="%d"),
                           "organisation": st.column_config.TextColumn(help="Who the document is about"),
                           "kind": st.column_config.TextColumn(help="10-K, 10-Q, 8-K, earnings release, paper, …")})
        changes = {}
        for before, after in zip(table.to_dict("records"), edited.to_dict("records")):
            diff = {EDITABLE[c]: _cell(after[c]) for c in EDITABLE if _cell(after[c]) != _cell(before[c])}
            if diff:
                changes[before["name"]] = diff
        if changes:
            try:
                for name, diff in changes.items():
                    lib.set_facts(fid, name, **diff)
            except AlphaSearchError as exc:
                show_error(exc, "saving the document facts")
            else:
                ss["folders_flash"] = [f"Facts of {name} saved." for name in changes]
                ss.pop(f"folders_facts_{fid}", None)
                st.rerun()
        if editor:
            c_pick, c_rm = st.columns([4, 1], vertical_alignment="bottom")
            victim = c_pick.selectbox("Document to remove", [r.name for r in records], key=f"folders_rm_{fid}")
            if c_rm.button("Remove", icon=":material/delete:", key=f"folders_rm_btn_{fid}", width="stretch"):
                ss["folders_confirm_rm"] = (fid, victim)
            pending = ss.get("folders_confirm_rm")
            if pending and pending[0] == fid:
                st.warning(f"Remove {md_escape(pending[1])} from {md_escape(folder.name)}? Its index is deleted too.",
                           icon=":material/warning:")
                y, n = st.columns(2)
                if y.button("Yes, remove it", type="primary", key="folders_rm_yes"):
                    ss.pop("folders_confirm_rm", None)
                    try:
                        lib.remove(fid, pending[1])
                    except AlphaSearchError as exc:
                        show_error(exc, "removing the document")
                    else:
                        ss["folders_flash"] = [f"Removed {inert(pending[1])}."]
                        st.rerun()
                if n.button("Cancel", key="folders_rm_no"):
                    ss.pop("folders_confirm_rm", None)
                    st.rerun()

# --- add ----------------------------------------------------------------------------------------------------
def add_tab() -> None:
    s = current_settings()
    files = st.file_uploader("PDF files", type=UPLOAD_TYPES, accept_multiple_files=True,
                             key=f"folders_upload_{ss['folders_uploader']}",
                             help=f"Up to {s.max_file_mb} MB and {s.max_pages:,} pages each. Same name and bytes: "
                                  f"skipped; same name, new bytes: replaced. {accepted_sentence()}")
    if files and st.button(f"Add {len(files)} file{'s' if len(files) != 1 else ''} to {inert(folder.name)}",
                           type="primary", icon=":material/library_add:", key="folders_add"):
        with st.status(f"Adding {len(files)} file(s) to {inert(folder.name)}…", expanded=True) as status:
            bar = st.progress(0.0, text="starting")
            line = st.empty()

            def draw(message: str, fraction: float) -> None:
                bar.progress(max(0.0, min(1.0, fraction)), text=f"{fraction:.0%}")
                line.caption(md_escape(message))

            progress = ScriptThreadProgress(draw)

            try:
                with turns.visiting(owner()):  # one index worker at a time per visitor, in line (turns.py)
                    results = lib.add_many(fid, [(f.name, f.getvalue()) for f in files], progress=progress)
            except AlphaSearchError as exc:
                status.update(label="Nothing was added", state="error")
                show_error(exc, "adding the files")
                results = []
            except Exception as exc:  # never a traceback; the library stays as it was
                status.update(label="Nothing was added", state="error")
                show_error(exc, "adding the files")
                results = []
            if results:
                ok = sum(r.ok for r in results)
                status.update(label=f"{ok} of {len(results)} file(s) in {inert(folder.name)}",
                              state="complete" if ok == len(results) else "error", expanded=True)
        if results:
            ss["folders_results"] = [(r.name, r.status, r.reason or "; ".join(r.warnings),
                                      r.record.pages if r.record else None, round(r.seconds, 2)) for r in results]
            for f in files:
                release_upload(f.file_id, f"folders_upload_{ss['folders_uploader']}", uploads=(f,))
            ss["folders_uploader"] += 1
            st.rerun()
    if ss.get("folders_results"):
        st.markdown("**Last upload**")
        st.dataframe(pd.DataFrame(
            [{"file": n, "result": STATUS_ICON.get(stt, stt), "reason": why, "pages": "—" if p is None else str(p),
              "seconds": sec}
             for n, stt, why, p, sec in ss["folders_results"]]), hide_index=True, width="stretch")
        for n, stt, why, _, _ in ss["folders_results"]:
            if stt == "rejected":
                st.error(inert(f"{n}: {why}" if not why.startswith(n) else why), icon=":material/block:")

# --- rename / delete ----------------------------------------------------------------------------------------
def manage_tab() -> None:
    with st.form(f"folder_rename_{fid}", clear_on_submit=True):
        c_new, c_go = st.columns([4, 1], vertical_alignment="bottom")
        renamed = c_new.text_input("New name", placeholder=folder.name, max_chars=200)
        if c_go.form_submit_button("Rename", icon=":material/edit:", width="stretch"):
            try:
                info = lib.rename_folder(fid, renamed)
            except AlphaSearchError as exc:
                show_error(exc, "renaming the folder")
            else:
                ss["folders_flash"] = [f"Renamed to “{inert(info.name)}”."]
                st.rerun()
    st.divider()
    if st.button(f"Delete folder {inert(folder.name)}…", icon=":material/delete_forever:", key=f"folders_del_{fid}"):
        ss["folders_confirm_del"] = fid
    if ss.get("folders_confirm_del") == fid:
        st.warning(f"Delete {md_escape(folder.name)} with its {folder.documents} document(s), their indexes and "
                   "its chat history? This cannot be undone.", icon=":material/warning:")
        y, n = st.columns(2)
        if y.button("Yes, delete the folder", type="primary", key="folders_del_yes"):
            ss.pop("folders_confirm_del", None)
            try:
                lib.delete_folder(fid)
            except AlphaSearchError as exc:
                show_error(exc, "deleting the folder")
            else:
                ss["folders_flash"] = [f"Deleted folder “{inert(folder.name)}”."]
                ss.pop("folders_current", None)
                st.rerun()
        if n.button("Cancel", key="folders_del_no"):
            ss.pop("folders_confirm_del", None)
            st.rerun()

if editor:
    with tabs[1]:
        add_tab()
    with tabs[2]:
        manage_tab()

# --- health ------------------------------------------------------------------------------------------------------
with tab_health:
    st.caption("Checks that every document has its PDF and a readable, current index, and that no stray files "
               "are left behind by an interrupted upload. Repair fixes what it can without losing documents.")
    c_check, c_fix = st.columns(2)
    deep = st.checkbox("Deep check (re-hash every PDF; slower)", key="folders_deep")
    if c_check.button("Run health check", icon=":material/health_and_safety:", key="folders_health"):
        try:
            ss["folders_health_report"] = ("check", lib.health(deep=deep))
        except AlphaSearchError as exc:
            show_error(exc, "checking the library")
    if editor and c_fix.button("Repair", icon=":material/build:", key="folders_repair"):
        try:
            ss["folders_health_report"] = ("repair", lib.repair())
        except AlphaSearchError as exc:
            show_error(exc, "repairing the library")
    kind_report = ss.get("folders_health_report")
    if kind_report:
        kind, report = kind_report
        health = report if kind == "check" else report.after
        if kind == "repair":
            st.markdown("**Repair actions**")
            if report.actions:
                for a in report.actions:
                    st.markdown("- " + md_escape(a))
            else:
                st.markdown("- nothing to do")
        if health.ok:
            st.success(f"Checked {health.documents} document(s) and {health.files} file(s): everything is "
                       "consistent.", icon=":material/verified:")
        else:
            st.warning(f"Checked {health.documents} document(s) and {health.files} file(s): "
                       f"{len(health.issues)} problem(s). Press Repair to fix them.", icon=":material/warning:")
            st.dataframe(pd.DataFrame([{"problem": i.kind.replace("_", " "), "detail": i.detail,
                                        "document": i.document} for i in health.issues]),
                         hide_index=True, width="stretch")
