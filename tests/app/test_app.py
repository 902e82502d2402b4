"""The Streamlit app through ``streamlit.testing.v1.AppTest``: every screen, real
uploads, real answers, hostile files, and no exception anywhere."""
from __future__ import annotations

import json
import math
import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import hostile_cases
from alphasearch.pdf.convert import ACCEPTED
from app_helpers import APP, hostile_files, topic_pdf
from llm_server import llm_server, request_kind, user_text  # noqa: F401  (fixture)

KEY = "sk-app-test-secret-7f3a9c"


@pytest.fixture
def app(data_dir, monkeypatch):
    """A fresh app on an empty data dir (the shared caches are cleared: they key on settings)."""
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("ALPHASEARCH_ENGINE", "offline")
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    assert not at.exception
    yield at
    st.cache_resource.clear()
    st.cache_data.clear()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def errors(at: AppTest) -> list[str]:
    """The error messages as the reader sees them (names in them are escaped Markdown)."""
    return [plain(e.value) for e in at.error]


def button(at: AppTest, label: str):
    matches = [b for b in at.button if label in str(b.label)]
    assert matches, f"no button {label!r} in {[b.label for b in at.button]}"
    return matches[0]


def plain(text: str) -> str:
    """Escaped Markdown as the reader sees it."""
    return text.replace("\\", "")


def labels(at: AppTest) -> list[str]:
    return [plain(e.label) for e in at.expander]


def texts(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def no_html(at: AppTest) -> None:
    """Nothing on the screen is rendered as HTML."""
    assert not any(m.proto.allow_html for m in at.markdown)
    assert not at.get("html")


def ask(at: AppTest, key: str, question: str) -> None:
    at.chat_input(key=key).set_value(question).run()
    ok(at)


def sample_loaded(at: AppTest) -> AppTest:
    button(at, "Try the sample").click().run()
    ok(at)
    return at


# --- single PDF -------------------------------------------------------------------------------------
def test_sidebar_names_offline_engine_and_data_dir(app, data_dir):
    assert "Offline" in texts(app)
    assert str(data_dir) in [c.value for c in app.sidebar.code]


def test_sample_question_gives_cited_answer_with_page_preview(app):
    sample_loaded(app)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Pages"] == "9" and metrics["Engine"] == "offline"
    ask(app, "single_question", "What was the total revenue in 2025?")
    answer = texts(app)
    assert "412\\.6" in answer  # escaped Markdown: the literal figure
    assert "sections scored" in answer and "LLM call" in answer
    assert "“net sales 2025”" in answer and "Also searched for: " in answer  # the expansion's sub-queries, briefly
    why = [c.proto.help for c in app.caption if "sections scored" in c.value]
    assert why and "closeness in meaning" in why[0] and "page ranker's best" in why[0]  # the confidence explained
    cites = [x for x in labels(app) if x.startswith("[1]")]
    assert cites and "p. " in cites[0]
    images = app.image
    assert images, "each citation shows the cited page as an image"
    assert app.session_state["searches"][-1].traces["Document tree"].steps
    no_html(app)


def test_uploaded_pdf_is_indexed_and_answered(app):
    app.file_uploader[0].set_value(("handbook.pdf", topic_pdf("hr"), "application/pdf")).run()
    ok(app)
    assert any(plain(s.value) == "handbook.pdf" for s in app.subheader)
    ask(app, "single_question", "How many days of paid annual leave do employees get?")
    assert "27 days" in texts(app)
    assert [x for x in labels(app) if "handbook.pdf" in x and "p. 2" in x]



def test_a_chat_of_several_structured_answers_and_fallbacks_renders(app):
    """Each answer's structured box and "looked at" box has its own key: the second figure
    question (or the second fallback) of a chat stopped the page with a duplicate-key error."""
    sample_loaded(app)
    ask(app, "single_question", "What was the total revenue in 2025?")
    ask(app, "single_question", "What was the total revenue in 2024?")
    ask(app, "single_question", "Who won the 1998 football world cup?")
    ask(app, "single_question", "What colour are the bishop's robes in chess?")
    shown = texts(app)
    assert shown.count("**Direct answer:**") == 2 and shown.count("Not an answer") >= 2, shown

def test_an_answer_without_a_direct_line_shows_its_key_points(app):
    """Every line of the page found repeats the question's words: no direct line, but an answer
    (its key points), not a fallback."""
    from alphasearch.pdf import TextBlock
    from pdf_factory import make_pdf

    data = make_pdf([[TextBlock("Care of the machine", 18, True), "Descale the machine every three months."],
                     [TextBlock("Error description", 16, True), "Error description",
                      "Switch the machine off and on again."]])
    app.file_uploader[0].set_value(("machine.pdf", data, "application/pdf")).run()
    ok(app)
    ask(app, "single_question", "What are the error descriptions?")
    shown = texts(app)
    assert "**Key points**" in shown and "**Direct answer:**" not in shown and "Not an answer" not in shown, shown


def test_reset_forgets_document_and_chat(app):
    sample_loaded(app)
    ask(app, "single_question", "Who leads Northwind Robotics?")
    button(app, "Reset").click().run()
    ok(app)
    assert "single_doc" not in app.session_state and not app.session_state["single_chat"]
    assert any("No document yet" in i.value for i in app.info)


@pytest.mark.parametrize("case", hostile_cases.CASES, ids=[c.id for c in hostile_cases.CASES])
def test_hostile_upload_on_single_pdf(case, data_dir, monkeypatch):
    for key, value in case.settings.items():
        monkeypatch.setenv(f"ALPHASEARCH_{key.upper()}", str(value))
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("ALPHASEARCH_ENGINE", "offline")
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    at.file_uploader[0].set_value(("kept.pdf", topic_pdf("hr"), "application/pdf")).run()
    assert at.session_state["single_doc"].name == "kept.pdf"
    at.file_uploader[0].set_value((f"{case.id}{case.suffix}", case.build(), "application/octet-stream")).run()
    if case.suffix not in ACCEPTED:  # Streamlit's uploader takes no other type (the browser refuses it at once)
        assert at.exception  # Streamlit refuses the type itself ("Invalid file extension", redacted on screen)
        assert at.session_state["single_doc"].name == "kept.pdf"
        return
    ok(at)
    if case.error is not None:
        errs = errors(at)
        assert len(errs) == 1 and case.message.lower() in errs[0].lower(), errs
        assert "Traceback" not in errs[0] and errs[0].count(". ") == 0  # one sentence
        assert at.session_state["single_doc"].name == "kept.pdf"  # the loaded document is kept
        at.run()  # the reason stays on screen while the file is in the uploader
        assert errors(at) == errs
    else:
        assert not errors(at), errors(at)
        assert at.session_state["single_doc"].name == f"{case.id}{case.suffix}"
        ask(at, "single_question", case.question)
        assert not errors(at)
        no_html(at)
    st.cache_resource.clear()


def test_document_text_is_shown_as_text_never_html(app):
    app.file_uploader[0].set_value(("notes.pdf", hostile_cases.BY_ID["html-js-text"].build(), "application/pdf")).run()
    ask(app, "single_question", "When does the vault code rotate?")
    body = texts(app)
    assert "Tuesday" in body
    assert "<script>" not in body and "\\<script\\>" in body  # escaped, so shown literally
    no_html(app)


# --- tree visualizer --------------------------------------------------------------------------------------
def test_tree_visualizer_without_search_says_what_to_do(app):
    app.switch_page("pages/tree.py").run()
    ok(app)
    assert any("No search yet" in i.value for i in app.info)


def test_tree_visualizer_replays_the_latest_search(app):
    sample_loaded(app)
    ask(app, "single_question", "What was the total revenue in 2025?")
    trace = app.session_state["searches"][-1].traces["Document tree"]
    T = len(trace.steps)
    app.switch_page("pages/tree.py").run()
    ok(app)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Details at iteration"] == f"{T} / {T}"
    root_visits = trace.root.visits
    app.slider[0].set_value(1).run()
    ok(app)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Details at iteration"] == f"1 / {T}"
    assert metrics["Reward of iteration t"] == f"{trace.steps[0].reward:.2f}"
    assert int(metrics["Visits N"]) <= 1 < root_visits
    table = app.dataframe[-1].value
    assert set(table.columns) >= {"node", "visits", "q", "prior", "selection_value"}
    assert table["visits"].iloc[0] == 1  # the root after one iteration
    assert len(app.get("download_button")) == 2


def test_tree_visualizer_node_picker_shows_its_numbers(app):
    sample_loaded(app)
    ask(app, "single_question", "Where did the new factory open?")
    app.switch_page("pages/tree.py").run()
    picker = next(s for s in app.selectbox if s.label.startswith("Node"))
    root_id = app.session_state["searches"][-1].traces["Document tree"].root.section.node_id
    picker.set_value(root_id).run()
    ok(app)
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["PUCT value now"] == "—"  # the root has no selection value
    assert int(metrics["Visits N"]) == app.session_state["searches"][-1].traces["Document tree"].root.visits


# --- folders, folder query ---------------------------------------------------------------------------------
def make_three_folders(at: AppTest) -> None:
    at.switch_page("pages/folders.py").run()
    ok(at)
    for name, topic in (("Finance", "finance"), ("Science", "science"), ("HR", "hr")):
        at.text_input[0].input(name)
        button(at, "Create folder").click().run()
        ok(at)
        assert not errors(at)
        assert at.session_state["folders_current"]  # the new folder is selected
        at.file_uploader[0].set_value([(f"{topic}-{i}.pdf", topic_pdf(topic, i), "application/pdf")
                                       for i in range(2)]).run()
        button(at, "Add 2 files").click().run()
        ok(at)
        results = at.session_state["folders_results"]
        assert [r[1] for r in results] == ["indexed", "indexed"], results


def test_folders_create_upload_table_rename_remove_delete_and_health(app, data_dir):
    make_three_folders(app)
    table = app.dataframe[0].value
    assert list(table["name"]) == ["hr-0.pdf", "hr-1.pdf"]
    assert {"pages", "sections", "indexed at", "engine", "hash"} <= set(table.columns)
    assert table["sections"].min() >= 1 and set(table["engine"]) == {"offline"}

    # same bytes again: unchanged
    app.file_uploader[0].set_value([("hr-0.pdf", topic_pdf("hr", 0), "application/pdf")]).run()
    button(app, "Add 1 file").click().run()
    assert [r[1] for r in app.session_state["folders_results"]] == ["unchanged"]
    # hostile names and files: rejected with reasons, nothing else lost
    bad = [(n, b, "application/pdf") for n, (b, _) in hostile_files().items()]
    app.file_uploader[0].set_value(bad).run()
    button(app, "Add 5 files").click().run()
    ok(app)
    by_name = {r[0]: r for r in app.session_state["folders_results"]}
    for name, (_, expected) in hostile_files().items():
        if name != "truncated.pdf":  # MuPDF may repair a truncated file; then it is simply indexed
            assert by_name[name][1] == "rejected" and expected in by_name[name][2], by_name[name]
    assert {"hr-0.pdf", "hr-1.pdf"} <= set(app.dataframe[0].value["name"])  # nothing stored was lost
    # hostile file names: refused with a reason, emoji fine
    app.file_uploader[0].set_value([("../../escape.pdf", topic_pdf("finance", 3), "application/pdf"),
                                    ("CON.pdf", topic_pdf("finance", 4), "application/pdf"),
                                    ("réunion 📈.pdf", topic_pdf("science", 5), "application/pdf")]).run()
    button(app, "Add 3 files").click().run()
    ok(app)
    status = {r[0]: r[1] for r in app.session_state["folders_results"]}
    assert status["réunion 📈.pdf"] == "indexed"
    assert [s for n, s in status.items() if n != "réunion 📈.pdf"] == ["rejected", "rejected"]
    assert not any(p.name == "escape.pdf" for p in data_dir.parent.rglob("escape.pdf"))
    # hostile folder names
    for bad_name in ("..", "a/b", "CON", "   ", "%2e%2e%2f"):
        app.text_input[0].input(bad_name)
        button(app, "Create folder").click().run()
        ok(app)
        assert errors(app), bad_name
    assert len(app.selectbox(key="folders_current").options) == 3
    # rename (a hostile name first)
    rename = next(t for t in app.text_input if t.label == "New name")
    rename.input("../etc")
    button(app, "Rename").click().run()
    assert any("slash" in e for e in errors(app))
    rename = next(t for t in app.text_input if t.label == "New name")
    rename.input("People")
    button(app, "Rename").click().run()
    ok(app)
    # remove a document, with confirmation
    button(app, "Remove").click().run()
    button(app, "Yes, remove it").click().run()
    ok(app)
    assert "hr-0.pdf" not in list(app.dataframe[0].value["name"])
    # health check and repair
    button(app, "Run health check").click().run()
    ok(app)
    kind, report = app.session_state["folders_health_report"]
    assert kind == "check" and report.ok
    button(app, "Repair").click().run()
    ok(app)
    # delete asks first; cancel keeps the folder
    button(app, "Delete folder People").click().run()
    button(app, "Cancel").click().run()
    assert [f for f in app.selectbox(key="folders_current").options if f == "People"]
    button(app, "Delete folder People").click().run()
    button(app, "Yes, delete the folder").click().run()
    ok(app)
    assert "People" not in app.selectbox(key="folders_current").options
    assert len(app.selectbox(key="folders_current").options) == 2  # the others are untouched


def test_single_pdf_document_and_chat_survive_a_reload(app):
    """The document's content hash and the chat id go in the URL; a new session (a reload) of the same visitor
    with that URL shows the same document and conversation; the answer is structured. (AppTest has no browser
    cookie: the visitor is the owner token its session keeps, carried into the new session here; a real reload
    keeps the browser's, tests/app/test_browser.py.) Another visitor with the URL sees neither."""
    sample_loaded(app)
    ask(app, "single_question", "What was the total revenue in 2025?")
    assert app.get("container") is not None and "Direct answer" in texts(app)
    doc_id, chat = app.query_params["doc"], app.query_params["chat"]
    doc_id = doc_id[0] if isinstance(doc_id, list) else doc_id
    chat = chat[0] if isinstance(chat, list) else chat
    assert doc_id == app.session_state["single_doc"].doc_id and chat.startswith("single-")

    st.cache_resource.clear()
    st.cache_data.clear()
    other = AppTest.from_file(str(APP), default_timeout=240)
    other.query_params["doc"] = doc_id
    other.query_params["chat"] = chat
    other.run()
    ok(other)
    assert "single_doc" not in other.session_state and "412\\.6" not in texts(other)
    assert any("another visitor" in i.value for i in other.info)
    again = AppTest.from_file(str(APP), default_timeout=240)
    again.query_params["doc"] = doc_id
    again.query_params["chat"] = chat
    again.session_state["visitor_owner"] = app.session_state["visitor_owner"]
    again.run()
    ok(again)
    assert any(plain(s.value) == "northwind-annual-report-2025.pdf" for s in again.subheader)
    body = texts(again)
    assert "What was the total revenue in 2025?" in plain(body) and "412\\.6" in body
    assert "Also searched for" in body
    assert [x for x in labels(again) if x.startswith("[1]")] and again.image  # citations still open their page


def test_folder_query_routes_cites_and_history_survives_restart(app, data_dir):
    make_three_folders(app)
    app.switch_page("pages/query.py").run()
    ok(app)
    ask(app, "query_question", "How many days of paid annual leave do employees get?")
    assert not errors(app)
    body = texts(app)
    assert "Folder\\: HR" in body and "27 days" in body
    assert any("hr-" in x and "Leave" in x for x in labels(app))
    assert app.image
    phases = app.session_state["searches"][-1].traces
    assert "Phase 1 — documents" in phases and any(k.startswith("Phase 2 — hr-") for k in phases)
    # the tree visualizer offers every phase
    app.switch_page("pages/tree.py").run()
    ok(app)
    assert any("Phase 1" in o for s in app.selectbox for o in s.options)

    # a new session of the same visitor on the same data dir (a reload or a server restart) with the
    # conversation's URL sees it; without ?c= a new conversation starts; another visitor's URL does not open it
    conv = app.query_params["c"]
    conv = conv[0] if isinstance(conv, list) else conv
    st.cache_resource.clear()
    st.cache_data.clear()
    fresh = AppTest.from_file(str(APP), default_timeout=240)
    fresh.session_state["visitor_owner"] = app.session_state["visitor_owner"]
    fresh.run()
    fresh.switch_page("pages/query.py").run()
    ok(fresh)
    assert "27 days" not in texts(fresh) and fresh.query_params["c"] != conv
    other = AppTest.from_file(str(APP), default_timeout=240)
    other.query_params["c"] = conv
    other.run()
    other.switch_page("pages/query.py").run()
    ok(other)
    assert "27 days" not in texts(other) and any("another visitor" in i.value for i in other.info)
    again = AppTest.from_file(str(APP), default_timeout=240)
    again.session_state["visitor_owner"] = app.session_state["visitor_owner"]
    again.query_params["c"] = conv
    again.run()
    again.switch_page("pages/query.py").run()
    ok(again)
    assert "27 days" in texts(again)
    button(again, "Clear history").click().run()
    ok(again)
    assert "27 days" not in texts(again)


def test_folder_query_with_empty_library_explains(app):
    app.switch_page("pages/query.py").run()
    ok(app)
    assert any("no documents yet" in i.value for i in app.info)


# --- evaluation, settings ------------------------------------------------------------------------------------
def test_evaluation_view_from_a_results_file(app):
    rows = []
    for i in range(6):
        for method, pages in (("flat_bm25", [3, 1, 2]), ("mcts_puct", [1, 2, 3])):
            rows.append({"id": f"q{i}", "doc": "a.pdf", "source": "s1" if i % 2 else "s2", "method": method,
                         "pages": pages, "evidence_pages": [1], "answer": "x", "confidence": 0.5,
                         "fallback": False, "seconds": 0.1, "llm_calls": 0, "nodes_scored": 4})
    data = ("\n".join(json.dumps(r) for r in rows) + "\nnot json\n").encode()
    app.switch_page("pages/evaluation.py").run()
    app.file_uploader[0].set_value(("results.jsonl", data, "application/json")).run()
    ok(app)
    assert any("1 line(s)" in w.value for w in app.warning)
    table = app.dataframe[0].value
    puct = table[(table["method"] == "mcts_puct") & (table["source"] == "all")].iloc[0]
    bm25 = table[(table["method"] == "flat_bm25") & (table["source"] == "all")].iloc[0]
    assert puct["hit@1"] == 1.0 and bm25["hit@1"] == 0.0 and math.isclose(bm25["MRR"], 0.5)
    misses = next(s for s in app.selectbox if s.label == "Method")
    misses.set_value("flat_bm25").run()
    k = next(s for s in app.selectbox if s.label == "k")
    k.set_value(1).run()
    ok(app)
    miss_table = app.dataframe[-1].value
    assert len(miss_table) == 6 and set(miss_table["expected pages"]) == {"1"}


def test_settings_apply_and_key_stays_in_memory(app, data_dir):
    app.switch_page("pages/settings.py").run()
    next(n for n in app.number_input if n.label == "MCTS iterations").set_value(7)
    next(n for n in app.number_input if n.label == "Knowledge-gap rounds").set_value(2)
    next(t for t in app.text_input if t.label == "API key").input(KEY)
    button(app, "Apply").click().run()
    ok(app)
    assert app.session_state["settings_overrides"]["iterations"] == 7
    assert app.session_state["settings_overrides"]["gap_rounds"] == 2
    assert app.session_state["session_api_key"] == KEY
    assert all(KEY not in t.value for t in app.text_input)  # never shown back
    assert KEY not in texts(app)
    # use the app, then look for the key in every file under the data dir
    app.switch_page("pages/single_pdf.py").run()
    sample_loaded(app)
    ask(app, "single_question", "What was the total revenue in 2025?")
    assert len(app.session_state["searches"][-1].traces["Document tree"].steps) <= 7
    for path in data_dir.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    app.switch_page("pages/settings.py").run()
    button(app, "Forget the session API key").click().run()
    assert "session_api_key" not in app.session_state


def test_every_page_renders_without_exception(app):
    for page in ("pages/single_pdf.py", "pages/folders.py", "pages/query.py", "pages/tree.py",
                 "pages/evaluation.py", "pages/settings.py"):
        app.switch_page(page).run()
        ok(app)
        assert app.title, page


def test_llm_down_gives_a_degraded_answer_with_the_reason(data_dir, monkeypatch):
    """An unreachable model server: indexing and answering fall back, the screen says why."""
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("ALPHASEARCH_ENGINE", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ALPHASEARCH_REQUEST_TIMEOUT", "2")
    monkeypatch.setenv("ALPHASEARCH_MAX_RETRIES", "0")
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    assert "LLM" in texts(at) and KEY not in texts(at)
    sample_loaded(at)
    assert not errors(at)
    ask(at, "single_question", "What was the total revenue in 2025?")
    degraded = [w.value for w in at.warning if w.value.startswith("Degraded answer")]
    assert degraded and "Could not connect" in degraded[0]
    assert "412\\.6" in texts(at)  # still a cited answer, from the offline path
    assert KEY not in texts(at) and all(KEY not in w.value for w in at.warning)
    written = _written_bytes(data_dir)
    assert written and all(KEY.encode() not in data for data in written.values())
    st.cache_resource.clear()


def _written_bytes(root, tries=5):
    """Every file under root and its bytes. SQLite deletes a -wal file when its last connection closes,
    so a file listed may be gone when read: then the whole scan runs again, on what is there now."""
    for _ in range(tries):
        try:
            return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
        except FileNotFoundError:
            time.sleep(0.2)
    raise AssertionError(f"files under {root} kept vanishing while read")


def test_llm_answer_streams_a_gap_round_and_the_visualizer_shows_the_rounds(data_dir, monkeypatch, llm_server):
    """With the model up the answer's draft streams; the model names something missing, a second search
    round runs; the screen shows the finished answer (citations checked, no draft left over) and the tree
    visualizer lists both rounds and draws the second."""
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(data_dir))
    monkeypatch.setenv("ALPHASEARCH_ENGINE", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ALPHASEARCH_MAX_RETRIES", "0")
    missing = "renewable electricity at the Tampere factory"
    llm_server.responder = lambda kind, body: (json.dumps({"missing": [] if "Tampere" in user_text(body) else [missing]})
                                               if kind == "gap" else None)
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    sample_loaded(at)
    ask(at, "single_question", "What was the total revenue in 2025?")
    answers = [b["body"] for b in llm_server.requests if request_kind(b["body"]) == "answer"]
    assert len(answers) == 2 and all(b["stream"] is True for b in answers)
    assert not [w.value for w in at.warning if w.value.startswith("Degraded answer")]
    shown = texts(at)
    assert "412\\.6" in shown and "northwind" in shown and "\\[p\\. " not in shown  # checked, not the draft
    assert "Searching the document again" not in shown  # the draft and its notices are gone

    at.switch_page("pages/tree.py").run()
    ok(at)
    assert "Tampere" in texts(at) and "Search rounds" in texts(at)
    tree = next(s for s in at.selectbox if s.label == "Tree")
    round2 = [o for o in tree.options if "round 2" in o]
    assert len(tree.options) == 2 and round2 and "Tampere" in round2[0]
    tree.set_value(round2[0]).run()
    ok(at)
    T = len(at.session_state["searches"][-1].traces["Document tree"].rounds[0].trace.steps)
    assert {m.label: m.value for m in at.metric}["Details at iteration"] == f"{T} / {T}"
    st.cache_resource.clear()


# --- the visualizer's view-model (pure functions) ------------------------------------------------------
def _trace():
    import random

    from alphasearch.search.mcts import page_node, search
    from alphasearch.models import Section

    leaves = tuple(Section(f"c{i}", f"<b>Chapter</b> {i}", (2 * i + 1, 2 * i + 2)) for i in range(4))
    root = Section("root", "Report", (1, 8), children=leaves)

    class Scorer:
        def score(self, question, sections):
            return [0.9 if s.node_id == "c2" else 0.1 for s in sections]

    class Reader:  # pages 5-6 are in c2; page 6 holds the answer (0.8), every other page 0.2
        def pages_of(self, question, section):
            return [page_node(section, p, f"snippet of page {p}") for p in range(section.pages[0], section.pages[1] + 1)]

        def prior(self, question, pages):
            return [0.5] * len(pages)

        def score(self, question, pages):
            return [0.8 if p.pages[0] == 6 else 0.2 for p in pages]

    return search(root, "q", Scorer(), reader=Reader(), iterations=12, rng=random.Random(0),
                  confidence_threshold=0.75)  # stops once page 6 is read


def test_tree_state_replays_to_the_final_statistics():
    from pages._common import tree_state

    trace = _trace()
    final = {v.node_id: v for v in tree_state(trace, len(trace.steps))}
    for node in trace.nodes():
        v = final[node.section.node_id]
        assert v.visits == node.visits and math.isclose(v.q, node.q, abs_tol=1e-9)
    start = tree_state(trace, 0)
    assert [(v.node_id, v.visits) for v in start] == [("root", 0)]
    one = {v.node_id: v for v in tree_state(trace, 1)}
    # iteration 1 judges the four chapters together (siblings are judged in one batch)
    assert one["root"].visits == 1 and sorted(v.node_id for v in one.values() if v.judged) == ["c0", "c1", "c2", "c3"]
    two = {v.node_id: v for v in tree_state(trace, 2)}  # iteration 2 reads a page of the best chapter
    assert [v.node_id for v in two.values() if v.page and v.judged] == [trace.steps[1].judged[0]]
    assert trace.steps[1].judged[0].startswith("c2/p")
    assert {v.node_id for v in one.values() if v.on_path} == set(trace.steps[0].path)
    assert one["root"].selection is None and all(v.selection is not None for v in one.values() if v.parent)


def test_replay_figure_holds_every_iteration_as_a_frame_on_fixed_axes():
    from alphasearch.search.mcts import q_history
    from pages._common import q_colour, tree_state
    from pages._replay import replay_figure

    trace = _trace()
    T = len(trace.steps)
    fig, drawn = replay_figure(trace)
    assert [f.name for f in fig.frames] == [str(t) for t in range(T + 1)]
    slider = fig.layout.sliders[0]
    assert slider.active == T and [list(s.args[0]) for s in slider.steps] == [[str(t)] for t in range(T + 1)]
    assert [b.label for b in fig.layout.updatemenus[0].buttons][:2] == ["▶ Play", "❚❚ Pause"]
    assert fig.layout.xaxis.fixedrange and fig.layout.yaxis.fixedrange and fig.layout.xaxis.range
    final = {v.node_id: v for v in tree_state(trace, T)}
    assert drawn == len(final)
    nodes = fig.frames[-1].data[1]
    at = dict(zip(nodes.customdata, range(len(nodes.customdata))))
    best = max((v for v in final.values() if v.parent), key=lambda v: v.visits)
    least = min((v for v in final.values() if v.parent), key=lambda v: v.visits)
    assert best.node_id == "c2" and nodes.marker.size[at["c2"]] > nodes.marker.size[at[least.node_id]]
    assert nodes.marker.color[at["c2"]] == q_colour(0.9, best.visits)
    # frame 1: the path of iteration 1 drawn in blue; nodes not yet in the tree grey
    one = fig.frames[1].data
    assert one[0].x and fig.frames[0].data[0].x == ()
    assert fig.frames[0].data[1].marker.color[at["c2"]] == "#c9ced6"
    # hover: pages, full title (markup made inert), N and Q; labels on two lines at most
    hover = nodes.hovertext[at["c2"]]
    assert hover.startswith("pp. 5–6 · &lt;b&gt;Chapter&lt;/b&gt; 2") and "N = " in hover and "Q = 0.90" in hover
    assert all(t.count("<br>") <= 1 for t in fig.frames[-1].data[1].text)
    hist = q_history(trace, ["c2"])["c2"]
    assert len(hist) == T and math.isclose(hist[-1], 0.9)


def test_the_pages_an_answer_cites_are_ringed_on_the_deepest_node_drawn_that_holds_them():
    """The search's path and the answer's page can be in different branches (the deep read ranks every page the
    search reached): a purple ring marks where the answer was read, on the page's node or the drawn section around it."""
    from pages._common import tree_state
    from pages._replay import replay_figure, section_path

    trace = _trace()
    final = {v.node_id: v for v in tree_state(trace, len(trace.steps))}
    page = final["c2"].pages[0]
    fig, _ = replay_figure(trace, cited=(page,))
    rings = fig.data[-1]
    assert rings.marker.symbol == "circle-open" and len(rings.customdata) == 1
    starred = final[rings.customdata[0]]
    assert starred.pages[0] <= page <= starred.pages[1]
    assert all(not (v.pages[0] <= page <= v.pages[1]) or v.depth <= starred.depth for v in final.values())
    assert rings.hovertext[0] == f"The answer cites p. {page}"
    assert section_path(list(final.values()), page)[-1] == " ".join(final["c2"].title.split())
    assert len(replay_figure(trace)[0].data[-1].x) == 0  # nothing cited, no ring


def test_a_large_tree_is_drawn_collapsed_to_its_visited_part():
    from pages._common import tree_state
    from pages._replay import replay_figure

    trace = _trace()
    final = tree_state(trace, len(trace.steps))
    fig, drawn = replay_figure(trace, max_nodes=3)
    labels = list(fig.frames[-1].data[1].text)
    unvisited = [v for v in final if not v.visits]
    ids = set(fig.frames[-1].data[1].customdata)
    assert unvisited and not ids & {v.node_id for v in unvisited} and drawn == len(ids)
    summaries = [t for t in labels if t.endswith("unvisited")]
    assert summaries and sum(int(t[1:].split()[0]) for t in summaries) == len(unvisited)


def test_md_escape_makes_markup_inert():
    from pages._common import md_escape

    for raw in ("<script>alert(1)</script>", "[x](javascript:alert(1))", "![i](http://e/x.png)", ":red[big]",
                "$x^2$", "**bold**"):
        escaped = md_escape(raw)
        assert escaped.replace("\\", "").replace("\u2060", "") == raw  # a word joiner stops automatic links
        assert all(escaped[i - 1] == "\\" for i, ch in enumerate(escaped) if ch in "<>[]()!*$:" and i)
    for raw in ("www.e.x", "_www.e.x", "~www.e.x", "(www.e.x", "*www.e.x", "awww.e.x"):  # no automatic link
        assert "www\u2060\\." in md_escape(raw), raw



def test_folder_query_to_a_chosen_folder(app):
    make_three_folders(app)
    app.switch_page("pages/query.py").run()
    box = app.selectbox(key="query_folder")
    box.select_index(next(i for i, o in enumerate(box.options) if o == "Science")).run()
    ask(app, "query_question", "How much thickness did the glacier lose?")
    body = texts(app)
    assert "Folder\\: Science \\(chosen by you\\)" in body and "38 metres" in body
    assert not errors(app)


def labelled_set(root):
    """A two-question labelled set on the HR handbook under ``root``."""
    (root / "pdfs").mkdir(parents=True)
    (root / "pdfs" / "hr.pdf").write_bytes(topic_pdf("hr"))
    questions = [{"id": "q1", "doc": "hr.pdf", "question": "How many days of paid annual leave?", "evidence_pages": [2]},
                 {"id": "q2", "doc": "hr.pdf", "question": "When must travel expenses be claimed?",
                  "evidence_pages": [4]}]
    (root / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in questions))
    return root


def test_evaluation_runs_on_a_small_labelled_set(app, data_dir, tmp_path):
    eval_dir = labelled_set(data_dir / "labelled")  # labelled sets are read from the data dir (or ../shared/eval)
    app.switch_page("pages/evaluation.py").run()
    next(t for t in app.text_input if t.label == "Labelled set").input(str(eval_dir))
    next(m for m in app.multiselect if m.label == "Methods").set_value(["flat_bm25", "mcts_puct"])
    button(app, "Run").click().run()
    ok(app)
    assert not errors(app)
    table = app.dataframe[0].value
    assert set(table["method"]) == {"flat_bm25", "mcts_puct"} and set(table["n"]) == {2}
    assert table[table["method"] == "mcts_puct"]["hit@3"].iloc[0] == 1.0
    # a labelled set that is not there: one sentence, no exception
    next(t for t in app.text_input if t.label == "Labelled set").input(str(data_dir / "missing"))
    button(app, "Run").click().run()
    ok(app)
    assert any("No labelled set" in e for e in errors(app))


def test_folder_facts_in_the_table_why_and_a_one_click_alternative(app, data_dir):
    from alphasearch.library import Library
    from pdf_factory import filings_folder

    lib = Library(data_dir)
    lib.create_folder("Harrow filings")
    lib.add_many("Harrow filings", list(filings_folder().items()))
    app.switch_page("pages/folders.py").run()
    ok(app)
    table = app.dataframe[0].value
    assert {"organisation", "kind", "year", "quarter", "title"} <= set(table.columns)
    row = table[table["name"] == "filing-a.pdf"].iloc[0]
    assert (row["kind"], int(row["year"])) == ("10-K", 2018)
    # a correction typed into the table, sent the way the browser sends a data_editor edit
    folder_id = lib.folder("Harrow filings").folder_id
    app.session_state[f"folders_facts_{folder_id}"] = {
        "edited_rows": {list(table["name"]).index("paper.pdf"): {"year": 2021, "organisation": "Alpine Institute"}},
        "added_rows": [], "deleted_rows": []}
    app.run()
    ok(app)
    fixed = {d.name: lib.facts("Harrow filings")[d.record_id] for d in lib.documents("Harrow filings")}["paper.pdf"]
    assert (fixed.year, fixed.org, fixed.edited) == (2021, "Alpine Institute", ("org", "year"))
    table = app.dataframe[0].value
    assert int(table[table["name"] == "paper.pdf"].iloc[0]["year"]) == 2021
    app.switch_page("pages/query.py").run()
    ask(app, "query_question", "What were Harrow Instruments' capital expenditures according to the annual report?")
    ok(app)
    body = texts(app)
    assert "Also found in" in body and "Why: " in body and "matches the question" in body
    alts = [b for b in app.button if plain(b.label).startswith("Ask filing-")]
    assert alts, [b.label for b in app.button]
    picked = plain(alts[0].label).split()[1]
    alts[0].click().run()
    ok(app)
    last = app.session_state["searches"][-1].traces
    assert [k for k in last if k.startswith("Phase 2")] == [f"Phase 2 — {picked}"]


def test_node_labels_wrap_on_two_short_lines_and_pages_are_numbered():
    from pages._common import node_label, tree_state

    views = {v.node_id: v for v in tree_state(_trace(), 2)}
    assert node_label(views["c2/p6"]) == "p. 6"
    long = views["c2"].__class__(**{**views["c2"].__dict__, "title": "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS"})
    label = node_label(long)
    assert label.count("\n") == 1 and all(len(line) <= 18 for line in label.split("\n")) and label.endswith("…")


def test_evaluation_screen_reads_labelled_sets_only_from_where_they_belong(app, tmp_path):
    """A visitor cannot point the Evaluation screen at other directories of the server."""
    outside = labelled_set(tmp_path / "elsewhere")
    app.switch_page("pages/evaluation.py").run()
    next(t for t in app.text_input if t.label == "Labelled set").input(str(outside))
    next(m for m in app.multiselect if m.label == "Methods").set_value(["flat_bm25"])
    button(app, "Run").click().run()
    ok(app)
    assert [e for e in errors(app) if "is not inside" in e and "it was not opened" in e]
    assert not list((tmp_path / "data").glob("indexes/*.json"))  # nothing was read from there


def test_a_confidence_short_of_certain_never_shows_as_100_percent():
    from pages._common import percent

    assert [percent(p) for p in (0.9988, 0.996, 0.42, 0.004, 1.0, 0.0)] == ["99%", "99%", "42%", "1%", "100%", "0%"]


@pytest.mark.parametrize("page", ["pages/folders.py", "pages/query.py"])
def test_a_damaged_catalog_is_one_sentence_on_the_folder_screens(app, data_dir, page):
    """A catalog that is not a database: the screen says so in one sentence and stops; no traceback."""
    (data_dir / "library").mkdir(parents=True, exist_ok=True)
    (data_dir / "library" / "catalog.sqlite3").write_bytes(b"this is not a database" * 100)
    app.switch_page(page).run()
    ok(app)
    assert any("is damaged" in e and "move it aside" in e for e in errors(app)), errors(app)


def test_section_tree_expander_is_a_nested_list_by_depth(app):
    """The card's section tree nests each node one level under its parent (a grouping node's children
    too), so Markdown renders a real nested list, never "… - … - …" on one line."""
    import re as _re

    import filing_factory
    from alphasearch.index import indexer

    sample_loaded(app)
    doc = indexer.build_index(filing_factory.annual_report_pdf(), "kestrel-10k.pdf")
    app.session_state["single_doc"] = doc
    app.run()
    ok(app)
    text = next(m.value for m in app.markdown if "PART II" in m.value and "Notes 1–4" in m.value)
    lines = text.splitlines()
    depths = [(len(line) - len(line.lstrip(" "))) // 2 for line in lines]
    assert all(line.lstrip(" ").startswith("- ") for line in lines)
    assert depths[0] == 0 and all(b <= a + 1 for a, b in zip(depths, depths[1:]))  # one level at a time
    note = next(i for i, line in enumerate(lines) if _re.search(r"Note 5\\\\?\. Goodwill", line))
    group = next(i for i, line in enumerate(lines) if "Notes 5–8" in line)
    assert depths[note] == depths[group] + 1 and max(depths) >= 4  # Part › Item 8 › Notes to › Notes 5–8 › Note 5


def test_a_folder_answer_is_laid_out_like_a_single_pdf_answer_with_its_document_named(app):
    """A figure question to a folder: "Direct answer" first, naming the document it was read from, then key
    points, as on Single PDF (the stored turn keeps the layout after a reload)."""
    from pdf_factory import table_pdf

    app.switch_page("pages/folders.py").run()
    app.text_input[0].input("Statements")
    button(app, "Create folder").click().run()
    app.file_uploader[0].set_value([("harbor-statement.pdf", table_pdf(), "application/pdf"),
                                    ("hr-0.pdf", topic_pdf("hr", 0), "application/pdf")]).run()
    button(app, "Add 2 files").click().run()
    ok(app)
    app.switch_page("pages/query.py").run()
    ask(app, "query_question", "What were total revenues in 2022?")
    ok(app)
    body = [m.value for m in app.markdown]
    direct = [m for m in body if m.startswith("**Direct answer")]
    assert direct and "harbor\\-statement\\.pdf" in direct[0] and "66,608" in direct[0], direct
    assert any(m.startswith("**Key points**") for m in body)
