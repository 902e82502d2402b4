"""Hostile files through every engine door: the Python API and the command line.

Each file is either rejected with its specific error type and one clear sentence, or accepted
and handled safely; a document already in the library is never lost, nothing half-written is
left behind, and time and memory stay bounded. (The Streamlit upload door is tested with the app.)
"""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import pdf_factory
from alphasearch import errors, pdf
from alphasearch.config import Settings
from alphasearch.pipeline import Engine
from cli_helpers import Measured, assert_clean_failure, run_cli_measured
from hostile_cases import BY_ID, CASES, HostileCase

# The first CLI test also runs the module's ~30 subprocesses (fixture ``cli_runs``); on a busy
# 2-core machine that alone can take a minute or two, so this module gets a longer per-test limit.
pytestmark = pytest.mark.timeout(1800)  # the module fixture runs ~80 CLI processes: ~1-2 min quiet, 10+ min on a busy machine

ACCEPTED = [c for c in CASES if c.error is None]
REJECTED = [c for c in CASES if c.error is not None]
CLI_PEAK_MB_LIMIT = 1500  # generous: the offline engine with its models stays far below this


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """A data directory that already holds one indexed document (the one that must not be lost)."""
    root = tmp_path_factory.mktemp("library")
    engine = Engine(Settings(data_dir=root, engine="offline"))
    keep = engine.index_bytes(pdf_factory.outline_pdf(), "keep.pdf")
    return root, keep


def _check_library_intact(root: Path, keep, before: dict[str, bytes] | None = None) -> None:
    again = Engine(Settings(data_dir=root, engine="offline")).indexes.get(keep.doc_id)
    assert again is not None and again.to_dict() == keep.to_dict()
    leftovers = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    if before is not None:
        after = files_under(root)
        assert {k: v for k, v in after.items() if k in before} == before  # nothing changed or lost


# --- the engine API ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.id)
def test_engine_rejects(case: HostileCase, library):
    root, keep = library
    before = files_under(root)
    engine = Engine(Settings(data_dir=root, engine="offline", **case.settings))
    with pytest.raises(case.error) as ei:
        engine.index_bytes(case.build(), case.filename)
    assert type(ei.value) is case.error and isinstance(ei.value, errors.PDFError)
    msg = str(ei.value)
    assert "\n" not in msg and msg.endswith(".") and case.filename in msg and case.message in msg
    assert files_under(root) == before  # a rejected upload writes nothing
    _check_library_intact(root, keep, before)


@pytest.mark.parametrize("case", ACCEPTED, ids=lambda c: c.id)
def test_engine_accepts_and_answers_safely(case: HostileCase, library):
    root, keep = library
    before = files_under(root)
    engine = Engine(Settings(data_dir=root, engine="offline", **case.settings))
    data = case.build()
    doc = engine.index_bytes(data, case.filename)
    assert doc.page_count == pdf.page_count(engine.as_pdf(data, case.filename))
    covered = sorted(p for leaf in doc.root.leaves() for p in leaf.page_numbers)
    assert covered == list(range(1, doc.page_count + 1))
    if case.warning:
        assert any(case.warning in w for w in doc.warnings), doc.warnings
    answer = engine.ask_document(doc, case.question)
    assert 0.0 <= answer.confidence <= 1.0
    assert all(1 <= p <= doc.page_count for p in answer.pages)
    assert all(1 <= p <= doc.page_count for c in answer.citations for p in c.pages)
    json.dumps(answer.to_dict())  # serialisable as the CLI and the app need it
    _check_library_intact(root, keep, before)


def test_owner_only_is_read_like_any_other(library):
    root, _ = library
    engine = Engine(Settings(data_dir=root, engine="offline"))
    doc = engine.index_bytes(pdf_factory.owner_only_pdf(), "owner.pdf")
    answer = engine.ask_document(doc, "How much does membership cost per year?")
    assert not answer.fallback and "45 euros" in answer.text


def test_no_text_layer_answers_the_fallback(library):
    root, _ = library
    engine = Engine(Settings(data_dir=root, engine="offline"))
    doc = engine.index_bytes(pdf_factory.image_only_pdf(), "scan.pdf")
    answer = engine.ask_document(doc, "What was the revenue?")
    assert answer.fallback and list(answer.citations) == []


def test_html_and_script_stay_verbatim_text(library):
    root, _ = library
    engine = Engine(Settings(data_dir=root, engine="offline"))
    doc = engine.index_bytes(pdf_factory.html_js_pdf(), "html.pdf")
    assert "<script>alert('owned')</script>" in doc.pages[0].text
    answer = engine.ask_document(doc, "When does the vault code rotate?")
    assert "Tuesday" in answer.text
    # the answer is data: the same characters come back, nothing is interpreted or dropped
    for c in answer.citations:
        assert c.snippet in " ".join(doc.pages[0].text.split())


def test_absurd_page_renders_bounded():
    png = pdf.render_page_png(pdf_factory.huge_page_pdf(), 1, zoom=4.0)
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width * height <= pdf.MAX_RENDER_PIXELS * 1.01


def test_size_limit_applies_to_bytes_and_files(tmp_path, data_dir):
    engine = Engine(Settings(data_dir=data_dir, engine="offline", max_file_mb=1))
    big = BY_ID["too-large"].build()
    with pytest.raises(errors.FileTooLargeError):
        engine.index_bytes(big, "big.pdf")
    path = tmp_path / "big.pdf"
    path.write_bytes(big)
    with pytest.raises(errors.FileTooLargeError):
        engine.index_file(path)


def test_interrupted_index_write_leaves_nothing_half_written(library, monkeypatch):
    """A write that fails midway (e.g. a full disk) leaves the old state and no temp file."""
    import os

    root, keep = library
    before = files_under(root)

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    engine = Engine(Settings(data_dir=root, engine="offline"))
    with pytest.raises(OSError):
        engine.index_bytes(pdf_factory.headings_pdf(), "new.pdf")
    monkeypatch.undo()
    assert files_under(root) == before
    _check_library_intact(root, keep, before)


# --- the folder library (what the app's folder upload and `folder add` use) ----------------------------
@pytest.fixture(scope="module")
def folder_library(tmp_path_factory):
    from alphasearch.library import Library

    root = tmp_path_factory.mktemp("folder-library")
    lib = Library(root, settings=Settings(data_dir=root, engine="offline"))
    lib.create_folder("Reports")
    assert lib.add("Reports", "keep.pdf", pdf_factory.outline_pdf()).status == "indexed"
    return root


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_folder_add_rejects_or_accepts_and_keeps_the_library(case: HostileCase, folder_library):
    from alphasearch.library import Library

    root = folder_library
    lib = Library(root, settings=Settings(data_dir=root, engine="offline", **case.settings))
    name = f"{case.id}{case.suffix}"
    result = lib.add("Reports", name, case.build())
    if case.error is None:
        assert result.ok, result.reason
        assert lib.load_index(lib.document("Reports", name)).page_count >= 1
    else:
        assert result.status == "rejected" and name in result.reason and case.message in result.reason
        assert "\n" not in result.reason
        assert name not in {d.name for d in lib.documents("Reports")}
    keep = lib.document("Reports", "keep.pdf")
    assert lib.load_index(keep).page_count == 7
    assert lib.health(deep=True).ok


# --- the command line ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory) -> dict[tuple[str, str], Measured]:
    """Real subprocesses: ``index`` on every hostile file, ``query --json`` on every accepted one.

    (Rejected files fail in ``index_file`` before any question is read, so their ``query`` is
    checked in-process below, which keeps this module fast on a 2-core machine.)
    """
    root = tmp_path_factory.mktemp("cli")
    data_dir = root / "data"
    jobs = []
    for case in CASES:
        path = root / case.id / case.filename
        path.parent.mkdir()
        path.write_bytes(case.build())
        env = {f"ALPHASEARCH_{k.upper()}": str(v) for k, v in case.settings.items()}
        jobs.append(((case.id, "index"), ("index", str(path)), env))
        if case.error is None:
            jobs.append(((case.id, "query"), ("query", str(path), case.question, "--json"), env))
    # each run gets its own data dir so concurrent runs never share an index file
    with ThreadPoolExecutor(3) as pool:
        futures = {key: pool.submit(run_cli_measured, *args, data_dir=data_dir / key[0] / key[1], env=env)
                   for key, args, env in jobs}
        return {key: f.result() for key, f in futures.items()}


@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.id)
def test_cli_index_rejects_with_one_line(case: HostileCase, cli_runs):
    run = cli_runs[(case.id, "index")]
    line = assert_clean_failure(run, case.filename, case.message)
    assert run.returncode == 2 and run.stdout == ""
    assert line.startswith(f"error: {case.filename}")
    assert run.peak_mb < CLI_PEAK_MB_LIMIT


@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.id)
def test_cli_query_rejects_with_one_line(case: HostileCase, tmp_path, data_dir, capsys, monkeypatch):
    from alphasearch.cli import main as cli

    for key, value in case.settings.items():
        monkeypatch.setenv(f"ALPHASEARCH_{key.upper()}", str(value))
    path = tmp_path / case.filename
    path.write_bytes(case.build())
    code = cli.main(["--data-dir", str(data_dir), "query", str(path), "What is this?", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {case.filename}") and case.message in lines[0]
    assert not (data_dir / "indexes").exists() or not any((data_dir / "indexes").iterdir())


@pytest.mark.parametrize("case", ACCEPTED, ids=lambda c: c.id)
def test_cli_accepts(case: HostileCase, cli_runs):
    index = cli_runs[(case.id, "index")]
    assert index.returncode == 0 and "Traceback" not in index.stderr, index.stderr
    assert index.stdout.startswith(f"{case.filename}: ")
    if case.warning:
        assert case.warning in index.stderr
    query = cli_runs[(case.id, "query")]
    assert query.returncode == 0 and "Traceback" not in query.stderr, query.stderr
    out = json.loads(query.stdout)
    assert 0.0 <= out["confidence"] <= 1.0 and isinstance(out["answer"], str)
    assert max(index.peak_mb, query.peak_mb) < CLI_PEAK_MB_LIMIT


def test_cli_html_answer_is_plain_json_text(cli_runs):
    out = json.loads(cli_runs[("html-js-text", "query")].stdout)
    assert "Tuesday" in out["answer"]
