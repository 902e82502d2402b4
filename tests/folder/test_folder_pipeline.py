"""Engine.ask_folder end to end (route → MCTS over documents → parallel search → merge) and the folder CLI."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from alphasearch.config import Settings
from alphasearch.errors import NotFoundError
from alphasearch.folder.search import answer_json
from alphasearch.models import FolderTrace
from alphasearch.pipeline import Engine
from alphasearch.folder.router import EmptyFolderError, EmptyLibraryError, PassageIndex
from folder_helpers import build_library, topic_pdfs, tree_files

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine(data_dir) -> Engine:
    e = Engine(Settings(data_dir=data_dir, engine="offline"))
    build_library(e.library)
    return e


def test_routed_question_cites_the_right_document_and_page(engine):
    a = engine.ask_folder("Which moon has lakes of liquid methane?")
    assert a.extra["folder"] == "Astronomy" and a.extra["folder_confidence"] > 0.5
    assert a.extra["documents"][0] == "planets.pdf"
    assert set(a.extra["documents"]) == {"planets.pdf", "telescopes.pdf"}  # ≤ K documents: all of them
    assert a.doc_pages[0] == ("planets.pdf", 3)
    assert not a.fallback and "methane" in a.text and "[planets.pdf, p. 3]" in a.text
    assert a.citations and all(c.doc == "planets.pdf" for c in a.citations)
    assert a.citations[0].section == "Saturn" and a.citations[0].pages == (3, 3)
    ft = a.folder_trace
    assert isinstance(ft, FolderTrace) and ft.routing["folder"] == "Astronomy"
    assert ft.documents is a.trace and a.trace.label == "documents"
    assert {c.section.title for c in a.trace.root.children} == {"planets.pdf", "telescopes.pdf"}
    assert set(ft.per_document) == {"planets.pdf", "telescopes.pdf"}
    assert ft.per_document["planets.pdf"].root.section.title  # the document's own section tree
    assert set(ft.seconds) == {"routing", "documents", "search", "total"}
    assert FolderTrace.from_dict(json.loads(json.dumps(ft.to_dict()))).chosen == ft.chosen


def test_json_shape(engine):
    d = json.loads(json.dumps(answer_json(engine.ask_folder("What was the quarterly dividend in fiscal 2024?"))))
    assert d["folder"] == "Finance" and 0 <= d["folder_confidence"] <= 1
    assert d["documents"] and set(d["documents"]) <= {"annual-report-2024.pdf", "annual-report-2023.pdf"}
    assert all(set(p) == {"doc", "page"} for p in d["pages"])
    assert d["pages"][0] == {"doc": "annual-report-2024.pdf", "page": 4}
    assert d["citations"] and all(c["doc"] for c in d["citations"])
    # the chosen document's structured answer comes through, the document named
    assert d["structured"]["doc"] == "annual-report-2024.pdf" and "direct" in d["structured"]
    for key in ("answer", "confidence", "fallback", "trace", "stats", "folder_trace"):
        assert key in d


def test_folder_given_skips_routing_and_unknown_or_empty_folders_are_clear(engine):
    a = engine.ask_folder("Which moon has lakes of liquid methane?", folder="kitchen")
    assert a.extra["folder"] == "Kitchen" and a.extra["routing"]["method"] == "user"
    assert all(d in ("bread-baking.pdf", "soups-and-stews.pdf") for d, _ in a.doc_pages)
    with pytest.raises(NotFoundError):
        engine.ask_folder("x?", folder="Nope")
    engine.library.create_folder("Empty")
    with pytest.raises(EmptyFolderError, match="no documents"):
        engine.ask_folder("x?", folder="Empty")


def test_empty_library_is_a_clear_error(data_dir):
    e = Engine(Settings(data_dir=data_dir, engine="offline"))
    with pytest.raises(EmptyLibraryError, match="no folders"):
        e.ask_folder("What is in here?")


def test_top_k_documents_out_of_more(engine):
    lib = engine.library
    for folder, docs in topic_pdfs().items():
        if folder != "Astronomy":
            for name, data in docs.items():
                lib.add("Astronomy", f"misc {name}", data)  # 6 documents in Astronomy now
    a = engine.ask_folder("Which moon has lakes of liquid methane?", folder="Astronomy", top_k=2)
    assert len(a.extra["documents"]) == 2 and a.extra["documents"][0] == "planets.pdf"
    assert len(a.trace.root.children) == 6
    assert a.doc_pages[0] == ("planets.pdf", 3)


def test_a_new_process_loads_the_folders_page_index_instead_of_reading_every_page(engine, data_dir, monkeypatch):
    q = "At what temperature is the loaf baked in the Dutch oven?"
    first = engine.ask_folder(q, folder="Kitchen")
    assert len(list(engine.library.passages.root.iterdir())) == 1

    def no_rebuild(cls, pages):
        raise AssertionError("the saved page index should have been loaded")

    monkeypatch.setattr(PassageIndex, "assemble", classmethod(no_rebuild))
    again = Engine(engine.settings).ask_folder(q, folder="Kitchen")
    assert (again.text, again.doc_pages) == (first.text, first.doc_pages)


def test_delete_purges_so_no_answer_can_cite_it(engine):
    q = "At what temperature is the loaf baked in the Dutch oven?"
    a = engine.ask_folder(q)
    assert a.extra["folder"] == "Kitchen" and a.citations[0].doc == "bread-baking.pdf"
    rec = engine.library.document("Kitchen", "bread-baking.pdf")
    assert any(p.name.startswith(rec.sha256) for p in engine.rankers.root.iterdir())  # its saved page ranker
    engine.library.remove("Kitchen", "bread-baking.pdf")
    for folder in (None, "Kitchen"):
        b = engine.ask_folder(q, folder=folder)
        assert "bread-baking.pdf" not in json.dumps(answer_json(b))
    saved = engine.library.load_trace("Kitchen")
    assert saved is not None and "bread-baking.pdf" not in json.dumps(saved)
    from alphasearch.folder import router

    assert all(key != rec.sha256 for key, _ in router._emb_cache)  # no cached routing data either
    assert all(d.key != rec.sha256 for d in engine.router._signals[1].docs)
    assert rec.sha256 not in " ".join(tree_files(engine.settings.data_dir))


def test_conversation_is_persisted_and_follow_up_stays(engine, data_dir):
    engine.ask_folder("How long does the chicken stock simmer?", conversation="chat-1")
    restarted = Engine(Settings(data_dir=data_dir, engine="offline"))
    a = restarted.ask_folder("and the beef stew?", conversation="chat-1")
    assert a.extra["folder"] == "Kitchen" and a.extra["routing"]["followup"]
    turns = restarted.library.history("chat-1")
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[-1].meta["documents"] == a.extra["documents"]
    restarted.library.clear_history("chat-1")
    assert restarted.library.history("chat-1") == []


def test_an_elliptic_follow_up_is_searched_with_the_previous_question(engine):
    first = engine.ask_folder("What was the quarterly dividend per share in fiscal 2024?", conversation="c")
    assert first.extra["folder"] == "Finance" and "searched_for" not in first.extra
    a = engine.ask_folder("and the year before?", conversation="c")
    assert a.extra["folder"] == "Finance" and a.extra["routing"]["followup"]
    assert a.extra["searched_for"] == "What was the quarterly dividend per share in fiscal 2024? and the year before?"
    assert not a.fallback and "dividend" in a.text
    assert a.folder_trace.question == "and the year before?"


def test_saved_trace_is_the_latest_search(engine):
    engine.ask_folder("Which moon has lakes of liquid methane?")
    saved = engine.library.load_trace()
    assert saved["folder"] == "Astronomy" and saved["question"].startswith("Which moon")
    ft = FolderTrace.from_dict(saved["folder_trace"])
    assert ft.chosen[0] == "planets.pdf" and "planets.pdf" in ft.per_document


def test_slow_document_is_dropped_at_the_time_limit(data_dir):
    e = Engine(Settings(data_dir=data_dir, engine="offline", doc_time_limit=0.5, workers=2))
    build_library(e.library, ("Astronomy",))
    real = e.ask_document
    release = threading.Event()

    def slow(doc, question, **kw):
        if doc.name == "telescopes.pdf":
            release.wait(10)
        return real(doc, question, **kw)

    e.ask_document = slow
    started = time.perf_counter()
    a = e.ask_folder("Which moon has lakes of liquid methane?")
    took = time.perf_counter() - started
    release.set()
    assert took < 5
    assert a.folder_trace.skipped == {"telescopes.pdf": "no result within the 0.5 s time limit"}
    assert "telescopes.pdf" in a.degraded
    assert a.doc_pages and all(d == "planets.pdf" for d, _ in a.doc_pages)
    assert not a.fallback and a.citations[0].doc == "planets.pdf"


def test_a_lost_document_degrades_instead_of_failing(engine):
    rec = engine.library.document("Astronomy", "telescopes.pdf")
    engine.library.index_path(rec.sha256).unlink()
    engine.library.pdf_path(rec.sha256).unlink()
    a = engine.ask_folder("Which moon has lakes of liquid methane?", folder="Astronomy")
    assert "telescopes.pdf" in a.folder_trace.skipped and "repair" in a.folder_trace.skipped["telescopes.pdf"]
    assert a.citations[0].doc == "planets.pdf"


def test_a_lost_or_outdated_index_is_rebuilt_from_the_stored_pdf(engine):
    planets = engine.library.document("Astronomy", "planets.pdf")
    engine.library.index_path(planets.sha256).unlink()
    a = engine.ask_folder("Which moon has lakes of liquid methane?", folder="Astronomy")
    assert not a.folder_trace.skipped and a.citations[0].doc == "planets.pdf"
    assert engine.library.health().ok


# --- CLI ---------------------------------------------------------------------------------------
def _process(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI as a real process."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "alphasearch", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd=REPO)


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI's ``main`` in this process (same parser, same error handling, no start-up cost)."""
    from alphasearch.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--data-dir", str(data_dir), *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_cli_folder_commands_and_ask_json(data_dir, tmp_path):
    files = tmp_path / "pdfs"
    files.mkdir()
    for name, data in topic_pdfs()["Astronomy"].items():
        (files / name).write_bytes(data)
    assert _cli(data_dir, "folder", "create", "Sky 🔭").returncode == 0
    r = _cli(data_dir, "folder", "add", "sky 🔭", str(files), "--json")
    assert r.returncode == 0, r.stderr
    assert sorted(x["status"] for x in json.loads(r.stdout)) == ["indexed", "indexed"]
    r = _cli(data_dir, "folder", "add", "Sky 🔭", str(files / "planets.pdf"))
    assert r.returncode == 0 and r.stdout.startswith("unchanged")
    r = _cli(data_dir, "folder", "list", "--json")
    assert json.loads(r.stdout)[0]["documents"] == 2
    r = _cli(data_dir, "folder", "info", "Sky 🔭")
    assert "planets.pdf" in r.stdout and "telescopes.pdf" in r.stdout
    r = _process(data_dir, "ask", "Which moon has lakes of liquid methane?", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["folder"] == "Sky 🔭" and d["documents"][0] == "planets.pdf"
    assert d["pages"][0] == {"doc": "planets.pdf", "page": 3} and all(c["doc"] for c in d["citations"])
    r = _cli(data_dir, "ask", "Which moon has lakes of liquid methane?")
    assert r.returncode == 0 and "planets.pdf" in r.stdout and "methane" in r.stdout
    assert _cli(data_dir, "folder", "health").returncode == 0
    assert _cli(data_dir, "folder", "rename", "Sky 🔭", "Space").returncode == 0
    assert _cli(data_dir, "folder", "remove", "Space", "telescopes.pdf").returncode == 0
    assert "telescopes" not in _cli(data_dir, "folder", "info", "Space").stdout
    r = _cli(data_dir, "folder", "repair")
    assert r.returncode == 0 and "everything is consistent" in r.stdout
    assert _cli(data_dir, "folder", "delete", "Space").returncode == 0
    assert "no folders" in _cli(data_dir, "folder", "list").stdout


@pytest.mark.parametrize("args, message", [
    (("ask", "anything?"), "no folders"),
    (("ask", "anything?", "--folder", "Nope"), "no folder named"),
    (("folder", "create", "../../etc"), "slash"),
    (("folder", "create", "CON"), "reserved"),
    (("folder", "delete", "Nope"), "no folder named"),
    (("folder", "remove", "Nope", "a.pdf"), "no folder named"),
])
def test_cli_errors_are_one_line_without_traceback(data_dir, args, message):
    r = (_process if args[0] == "ask" else _cli)(data_dir, *args)
    assert r.returncode != 0
    assert message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_cli_add_reports_a_rejected_file_and_exits_nonzero(data_dir, tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf at all")
    _cli(data_dir, "folder", "create", "F")
    r = _cli(data_dir, "folder", "add", "F", str(bad))
    assert r.returncode == 1 and "rejected" in r.stdout and "not a PDF" in r.stdout
    assert "Traceback" not in r.stderr


def test_merge_keeps_each_documents_degraded_reason_and_says_a_repeated_answer_once():
    from alphasearch.folder.search import merge
    from alphasearch.models import Answer, Citation
    from alphasearch.library import DocumentRecord

    def rec(name: str, sha: str) -> DocumentRecord:
        return DocumentRecord(sha, "f", name, sha, 3, 100, "", "", 3, 0.0)

    text = "Titan has lakes of liquid methane. [p. 3]"
    answers = {
        "a.pdf": Answer(text, 0.8, False, [Citation("", "Saturn", (3, 3), "Titan has lakes")], [3, 1]),
        "b.pdf": Answer(text.replace("p. 3", "p. 4"), 0.8, False, [Citation("", "Saturn", (4, 4), "Titan")], [4],
                        degraded="The search used the offline scorer: timeout"),
    }
    merged = merge("Which moon has methane lakes?", [rec("a.pdf", "1"), rec("b.pdf", "2")], {"1": 1.0, "2": 0.9},
                   answers)
    assert merged.text == "Titan has lakes of liquid methane. [a.pdf, p. 3]"  # said once, by the better document
    assert merged.degraded == "b.pdf: The search used the offline scorer: timeout"
    assert merged.doc_pages[:2] == [("a.pdf", 3), ("b.pdf", 4)]
    answers["a.pdf"].fallback = answers["b.pdf"].fallback = True
    assert "b.pdf: The search used" in merge("q", [rec("a.pdf", "1"), rec("b.pdf", "2")], {"1": 1.0}, answers).degraded


def test_a_brochure_question_reaches_the_brochures_though_the_bigger_filings_folder_has_its_words(data_dir):
    """Six annual reports have "hybrid", "trim" and "wheels" in their headings, on separate pages; the
    brochure answers on one page of thirteen, which its summary does not reach. Phase 0 reads every
    folder's page index, so the page that answers wins (on profiles alone the filings did)."""
    from pdf_factory import H1, H2, make_pdf

    e = Engine(Settings(data_dir=data_dir, engine="offline"))
    e.library.create_folder("Filings")
    e.library.create_folder("Brochures")
    reports = [(f"report-{year}.pdf", make_pdf([
        [H1(f"Kestrel Motors Annual Report {year}"), f"Results of fiscal {year} for shareholders."],
        [H2("Hybrid vehicle segment"),
         f"Hybrid vehicle sales grew {year - 2000} percent; the segment's margin improved."],
        [H2("Cost programme"), "A programme to trim costs closed two plants and renegotiated freight contracts."],
        [H2("Wheels and tyres division"), "The division supplies wheels and tyres to dealers across the region."]]))
        for year in range(2015, 2021)]
    topics = ["Interior comfort", "Heated seats", "Climate control", "Panoramic roof", "Audio system", "Navigation",
              "Safety sense", "Airbags", "Technical data", "Colours", "Warranty", "Dealers"]
    pages = [[H1("The 2024 Sedan"), "Comfort, safety and style for every day."]]
    for topic in topics:
        text = (f"{topic} of the sedan: designed for drivers who value quiet cabins and long journeys."
                if topic != "Technical data" else "The hybrid trim comes with 19-inch bronze wheels.")
        pages.append([H2(topic), text])
    brochure = ("sedan.pdf", make_pdf(pages))
    assert all(r.status == "indexed" for r in e.library.add_many("Filings", reports))
    assert all(r.status == "indexed" for r in e.library.add_many("Brochures", [brochure]))
    a = e.ask_folder("Which wheels come with the hybrid trim?")
    assert a.extra["folder"] == "Brochures" and a.extra["documents"] == ["sedan.pdf"]
    assert a.doc_pages[0] == ("sedan.pdf", 10)
