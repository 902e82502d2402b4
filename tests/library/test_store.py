"""The library on disk: names, folders, incremental adds, purge, health/repair, failed writes, chat, traces."""
from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path

import pytest

import alphasearch.library as store
from alphasearch.errors import AlreadyExistsError, InvalidNameError, NotFoundError, StoreError
from alphasearch.models import INDEX_VERSION
from alphasearch.pdf import content_hash
from alphasearch.library import IndexCache, Library, atomic_write_bytes, validate_name
from folder_helpers import topic_pdfs, tree_files

BREAD = topic_pdfs()["Kitchen"]["bread-baking.pdf"]
SOUP = topic_pdfs()["Kitchen"]["soups-and-stews.pdf"]
PLANETS = topic_pdfs()["Astronomy"]["planets.pdf"]

HOSTILE = [
    "", "   ", "\t\n", "..", ".", "...", "../etc", "..\\windows", "a/b", "a\\b", "/etc/passwd", "\\\\server\\share",
    "C:\\Windows", "C:evil", "nul\x00byte", "bell\x07", "line\nbreak", "x" * 201, "y" * 300, "CON", "nul", "Com1",
    "LPT9.pdf", "con.txt", "%2e%2e%2f", "%2e%2e", "..%2fetc", "a%2fb", "%252e%252e%252f", "%5c", "evil\u202etxt.pdf",
]
FINE = ["Annual reports", "Rapports annuels — été", "年度报告", "📊 Charts & graphs", "Q3: results (draft)",
        "report.v2.pdf", "100% done", "x" * 200, "  padded  "]


@pytest.fixture
def lib(data_dir) -> Library:
    return Library(data_dir)


# --- names ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_refused_with_a_sentence(name):
    with pytest.raises(InvalidNameError) as err:
        validate_name(name)
    msg = str(err.value)
    assert msg.endswith(".") and "\n" not in msg and len(msg) < 200


@pytest.mark.parametrize("name", FINE)
def test_reasonable_unicode_names_are_accepted(name):
    assert validate_name(name) == name.strip()


def test_hostile_names_write_nothing_outside_the_data_dir(tmp_path, data_dir):
    lib = Library(data_dir)
    lib.create_folder("ok")
    outside_before = tree_files(tmp_path) - {f"data/{p}" for p in tree_files(data_dir)}
    for name in HOSTILE:
        with pytest.raises(InvalidNameError):
            lib.create_folder(name)
        result = lib.add("ok", name, BREAD)
        assert result.status == "rejected" and result.reason
        with pytest.raises(InvalidNameError):
            lib.rename_folder("ok", name)
    outside_after = tree_files(tmp_path) - {f"data/{p}" for p in tree_files(data_dir)}
    assert outside_after == outside_before
    assert lib.documents("ok") == []
    assert [f.name for f in lib.folders()] == ["ok"]
    # files on disk are named by content hash / id, never by user text
    lib.add("ok", "📊 ../../weird name.pdf".replace("/", "_"), BREAD)
    for rel in tree_files(data_dir):
        assert "weird" not in rel and "📊" not in rel


# --- folders --------------------------------------------------------------------------------
def test_folder_lifecycle(lib):
    a = lib.create_folder("Reports 📊")
    assert lib.folder("reports 📊").folder_id == a.folder_id  # case-insensitive lookup
    with pytest.raises(AlreadyExistsError):
        lib.create_folder("REPORTS 📊")
    lib.create_folder("Other")
    with pytest.raises(AlreadyExistsError):
        lib.rename_folder("Other", "reports 📊")
    renamed = lib.rename_folder("Reports 📊", "Filings")
    assert renamed.folder_id == a.folder_id and renamed.name == "Filings"
    assert [f.name for f in lib.folders()] == ["Filings", "Other"]
    lib.add("Filings", "bread.pdf", BREAD)
    info = lib.folder("Filings")
    assert (info.documents, info.pages, info.size_bytes) == (1, 4, len(BREAD))
    lib.delete_folder("Filings")
    with pytest.raises(NotFoundError):
        lib.folder("Filings")
    assert [f.name for f in lib.folders()] == ["Other"]
    assert not any(lib.pdf_dir.iterdir()) and not any(lib.indexes.dir.iterdir())


def test_unknown_folder_is_a_clear_error(lib):
    with pytest.raises(NotFoundError, match="no folder named 'nope'"):
        lib.add("nope", "a.pdf", BREAD)


# --- adds -------------------------------------------------------------------------------------
def test_incremental_add_by_content_hash(lib):
    lib.create_folder("K")
    seen: list[tuple[str, float]] = []
    first = lib.add_many("K", [("bread.pdf", BREAD), ("soup.pdf", SOUP)], progress=lambda m, f: seen.append((m, f)))
    assert [r.status for r in first] == ["indexed", "indexed"]
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and all(0 <= f <= 1 for f in fractions)

    again = lib.add_many("K", [("bread.pdf", BREAD), ("soup.pdf", SOUP)])
    assert [r.status for r in again] == ["unchanged", "unchanged"]
    assert all(r.seconds < 1.0 for r in again)

    changed = lib.add("K", "bread.pdf", PLANETS)  # new bytes under the same name
    assert changed.status == "replaced"
    assert lib.document("K", "bread.pdf").sha256 == content_hash(PLANETS)
    old_sha = first[0].record.sha256
    assert not lib.pdf_path(old_sha).exists() and not lib.index_path(old_sha).exists()  # old files purged
    assert "Jupiter" in lib.load_index(lib.document("K", "bread.pdf")).page(2).text

    dup = lib.add("K", "copy-of-soup.pdf", SOUP)
    assert dup.status == "duplicate" and "soup.pdf" in dup.reason
    twice = lib.add_many("K", [("new.pdf", BREAD), ("NEW.pdf", BREAD)])
    assert [r.status for r in twice] == ["indexed", "duplicate"]
    bad = lib.add("K", "notes.pdf", b"just some text, not a PDF")
    assert bad.status == "rejected" and "not a PDF" in bad.reason
    assert sorted(d.name for d in lib.documents("K")) == ["bread.pdf", "new.pdf", "soup.pdf"]
    assert lib.health().ok


def test_add_from_paths_and_replace_document(lib, write_pdf_file):
    lib.create_folder("K")
    p = write_pdf_file(BREAD, "bread.pdf")
    assert [r.status for r in lib.add_paths("K", [p])] == ["indexed"]
    assert lib.replace_document("K", "bread.pdf", SOUP).status == "replaced"
    with pytest.raises(NotFoundError):
        lib.replace_document("K", "missing.pdf", SOUP)
    missing = lib.add_paths("K", [p.parent / "nothing.pdf"])
    assert missing[0].status == "rejected"


def test_same_pdf_in_two_folders_survives_removal_from_one(lib):
    lib.create_folder("A")
    lib.create_folder("B")
    lib.add("A", "bread.pdf", BREAD)
    rec = lib.add("B", "bread copy.pdf", BREAD).record
    lib.remove("A", "bread.pdf")
    assert lib.pdf_path(rec.sha256).exists() and lib.load_index(rec).name == "bread copy.pdf"
    lib.remove("B", "bread copy.pdf")
    assert not lib.pdf_path(rec.sha256).exists() and not lib.index_path(rec.sha256).exists()
    assert lib.health().ok


def test_remove_purges_files_row_and_saved_trace(lib):
    lib.create_folder("K")
    rec = lib.add("K", "bread.pdf", BREAD).record
    lib.add("K", "soup.pdf", SOUP)
    lib.save_trace(rec.folder_id, {"question": "q", "chosen": ["bread.pdf"]})
    assert lib.load_trace("K") is not None and lib.load_trace() is not None
    lib.remove("K", "bread.pdf")
    with pytest.raises(NotFoundError):
        lib.document("K", "bread.pdf")
    assert not lib.pdf_path(rec.sha256).exists() and not lib.index_path(rec.sha256).exists()
    assert lib.load_trace("K") is None and lib.load_trace() is None
    assert rec.sha256 not in " ".join(tree_files(lib.root))
    assert all(r.sha256 != rec.sha256 for r, _ in lib.routing_rows())


# --- failed writes -------------------------------------------------------------------------
def test_full_disk_leaves_no_half_index_or_row(lib, monkeypatch):
    lib.create_folder("K")
    lib.add("K", "soup.pdf", SOUP)
    before = tree_files(lib.root)
    real_fsync = os.fsync
    calls = {"n": 0}

    def full_disk(fd):
        calls["n"] += 1
        if calls["n"] == 2:  # the PDF is written; the index write fails
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full_disk)
    result = lib.add("K", "bread.pdf", BREAD)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert result.status == "rejected" and "No space left on device" in result.reason
    assert [d.name for d in lib.documents("K")] == ["soup.pdf"]
    assert {f for f in tree_files(lib.root) if not f.startswith("catalog")} == \
        {f for f in before if not f.startswith("catalog")}
    assert lib.health().ok


def test_failed_catalog_write_rolls_back_and_removes_files(lib, monkeypatch):
    lib.create_folder("K")

    def boom(con):
        raise RuntimeError("simulated crash inside the catalog transaction")

    monkeypatch.setattr(Library, "_bump", staticmethod(boom))
    with pytest.raises(RuntimeError):
        lib.add("K", "bread.pdf", BREAD)
    monkeypatch.undo()
    assert lib.documents("K") == []
    assert not any(lib.pdf_dir.iterdir()) and not any(lib.indexes.dir.iterdir())
    assert lib.health().ok
    assert lib.add("K", "bread.pdf", BREAD).status == "indexed"


def test_atomic_write_keeps_old_file_when_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "f.json"
    atomic_write_bytes(target, b"old")
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error")))
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


# --- health and repair -----------------------------------------------------------------------
def test_health_detects_and_repair_fixes_every_kind(lib):
    lib.create_folder("K")
    recs = {n: lib.add("K", n, d).record for n, d in
            [("bread.pdf", BREAD), ("soup.pdf", SOUP), ("planets.pdf", PLANETS)]}
    lib.create_folder("T")
    tele = lib.add("T", "tele.pdf", topic_pdfs()["Astronomy"]["telescopes.pdf"]).record
    fin = lib.add("T", "fin.pdf", topic_pdfs()["Finance"]["annual-report-2024.pdf"]).record
    assert lib.health().ok

    lib.index_path(recs["bread.pdf"].sha256).unlink()                                   # index missing
    lib.index_path(recs["soup.pdf"].sha256).write_text("{not json")                      # unreadable
    raw = json.loads(lib.index_path(recs["planets.pdf"].sha256).read_text())
    raw["version"] = INDEX_VERSION - 1
    lib.index_path(recs["planets.pdf"].sha256).write_text(json.dumps(raw))                # old version
    raw = json.loads(lib.index_path(tele.sha256).read_text())
    raw["doc_id"] = "0" * 64
    lib.index_path(tele.sha256).write_text(json.dumps(raw))                               # stale hash
    lib.pdf_path(fin.sha256).unlink()                                                     # PDF missing
    (lib.pdf_dir / ("f" * 64 + ".pdf")).write_bytes(b"%PDF-orphan")                       # orphan file
    (lib.indexes.dir / f".{'e' * 64}.json.abc.tmp").write_bytes(b"{half")                 # interrupted write

    report = lib.health()
    kinds = sorted(i.kind for i in report.issues)
    assert kinds == sorted(["index_missing", "index_unreadable", "index_old_version", "index_stale", "pdf_missing",
                            "orphan_file", "temp_file"])
    assert "bread.pdf in K: its index is missing." in report.text()

    fixed = lib.repair()
    assert fixed.after.ok, fixed.text()
    assert any("re-indexed bread.pdf" in a for a in fixed.actions)
    assert any("removed fin.pdf" in a for a in fixed.actions)
    assert sorted(d.name for d in lib.documents("K")) == ["bread.pdf", "planets.pdf", "soup.pdf"]
    assert [d.name for d in lib.documents("T")] == ["tele.pdf"]
    for rec in lib.documents():
        assert lib.load_index(rec).page_count == 4


def test_row_without_files_is_removed_by_repair(lib):
    lib.create_folder("K")
    rec = lib.add("K", "bread.pdf", BREAD).record
    lib.pdf_path(rec.sha256).unlink()
    lib.index_path(rec.sha256).unlink()
    assert [i.kind for i in lib.health().issues] == ["row_without_files"]
    with pytest.raises(StoreError, match="repair"):
        lib.load_index(Library(lib.data_dir).document("K", "bread.pdf"))
    assert lib.repair().after.ok
    assert lib.documents("K") == []


def test_index_cache_shared_layout_still_works(data_dir, sample_pdf):
    from alphasearch.index import indexer

    idx = indexer.build_index(sample_pdf, "s.pdf")
    cache = IndexCache(data_dir)
    path = cache.put(idx)
    assert path == data_dir / "indexes" / f"{idx.doc_id}.json"
    assert cache.get(idx.doc_id).page_count == idx.page_count


# --- chat and traces ------------------------------------------------------------------------------
def test_chat_history_survives_restart_and_clears(data_dir):
    lib = Library(data_dir)
    f = lib.create_folder("K")
    lib.add_turn("c1", "user", "How long does the stew braise?", folder=f.folder_id)
    lib.add_turn("c1", "assistant", "Three hours. [p. 4]", folder=f.folder_id, meta={"confidence": 0.8})
    lib.add_turn("c2", "user", "other chat")
    again = Library(data_dir)  # a restart
    turns = again.history("c1")
    assert [(t.role, t.text, t.folder_id) for t in turns] == [
        ("user", "How long does the stew braise?", f.folder_id), ("assistant", "Three hours. [p. 4]", f.folder_id)]
    assert turns[1].meta == {"confidence": 0.8}
    assert set(again.conversations()) == {"c1", "c2"}
    assert again.clear_history("c1") == 2
    assert again.history("c1") == [] and len(again.history("c2")) == 1
    with pytest.raises(ValueError):
        again.add_turn("c1", "system", "x")


def test_saved_traces_reject_ids_that_are_not_ids(lib):
    with pytest.raises(StoreError):
        lib.save_trace("../../escape", {"x": 1})
    assert not (lib.data_dir.parent / "escape.json").exists()


def test_catalog_is_in_wal_mode(lib):
    import sqlite3

    con = sqlite3.connect(lib.db_path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
    assert isinstance(lib.db_path, Path) and lib.db_path.parent == lib.root


def test_a_batch_is_indexed_in_worker_processes(lib):
    lib.create_folder("K")
    pdfs = topic_pdfs()
    items = [(name, data) for docs in pdfs.values() for name, data in docs.items()]  # 6 new PDFs
    seen: list[float] = []
    in_process: list[str] = []
    real = lib.build

    def counting(data, name, progress=None):
        in_process.append(name)
        return real(data, name, progress)

    lib.build = lib._default_build = counting  # still "the default indexer", but we see in-process calls
    results = lib.add_many("K", items + [("junk.pdf", b"%PDF-1.4 truncated")], workers=2,
                           progress=lambda m, f: seen.append(f))
    assert [r.status for r in results] == ["indexed"] * 6 + ["rejected"]
    assert in_process == []  # every index came from a worker process
    assert seen == sorted(seen) and seen[-1] == 1.0
    for rec in lib.documents("K"):
        index = lib.load_index(rec)
        assert index.page_count == 4 and index.doc_id == rec.sha256 and index.name == rec.name
    assert lib.health(deep=True).ok
    again = lib.add_many("K", items, workers=2)
    assert {r.status for r in again} == {"unchanged"}


def test_old_index_version_is_rebuilt_on_read_and_not_skipped_as_unchanged(lib):
    lib.create_folder("K")
    rec = lib.add("K", "bread.pdf", BREAD).record
    raw = json.loads(lib.index_path(rec.sha256).read_text())
    raw["version"] = INDEX_VERSION - 1
    lib.index_path(rec.sha256).write_text(json.dumps(raw))
    fresh = Library(lib.data_dir)  # no in-memory copy
    assert [i.kind for i in fresh.health().issues] == ["index_old_version"]
    again = fresh.add("K", "bread.pdf", BREAD)  # same bytes, but the stored index is outdated
    assert again.status == "replaced"
    assert fresh.health().ok
    raw["version"] = INDEX_VERSION - 1
    fresh.index_path(rec.sha256).write_text(json.dumps(raw))
    index = Library(lib.data_dir).load_index(rec)
    assert index.version == INDEX_VERSION and index.doc_id == rec.sha256
    assert Library(lib.data_dir).health().ok


def test_a_damaged_catalog_is_a_clear_error(data_dir):
    Library(data_dir).create_folder("K")
    (data_dir / "library" / "catalog.sqlite3").write_bytes(b"this is not a database" * 100)
    for name in ("catalog.sqlite3-wal", "catalog.sqlite3-shm"):
        (data_dir / "library" / name).unlink(missing_ok=True)
    with pytest.raises(StoreError, match="damaged"):
        Library(data_dir).folders()


def test_saved_indexes_survive_a_full_disk_and_damage(tmp_path):
    store_ = store.SavedIndexes(tmp_path / "saved", keep=2)
    built = []

    def build():
        built.append(1)
        return {"pages": 3}

    def save(value, d):
        d.mkdir(parents=True)
        (d / "v.json").write_text(json.dumps(value))

    def full_disk(value, d):
        d.mkdir(parents=True)
        raise OSError(errno.ENOSPC, "No space left on device")

    def load(d):
        return json.loads((d / "v.json").read_text())

    assert store_.get("k1", load, build, full_disk) == {"pages": 3}  # answered anyway, nothing half-written
    assert [p.name for p in (tmp_path / "saved").iterdir()] == []
    assert store_.get("k1", load, build, save) == {"pages": 3} and len(built) == 2
    assert store_.get("k1", load, build, save) == {"pages": 3} and len(built) == 2  # loaded, not built
    (tmp_path / "saved" / "k1" / "v.json").write_text("{damaged")
    assert store_.get("k1", load, build, save) == {"pages": 3} and len(built) == 3  # rebuilt and saved again
    for key in ("k2", "k3"):
        store_.get(key, load, build, save)
    assert len(list((tmp_path / "saved").iterdir())) == 2  # at most ``keep``


def test_a_document_search_is_stored_and_read_back_newest_first_and_kept_apart_from_folders(lib, monkeypatch):
    from alphasearch.library import traces

    monkeypatch.setattr(traces, "KEEP_DOCUMENT_TRACES", 2)
    for k, sha in enumerate(("a1" * 32, "b2" * 32, "c3" * 32)):
        lib.save_document_trace(sha, {"question": f"q{k}", "doc": f"d{k}.pdf", "trace": {}})
        time.sleep(0.02)  # distinct modification times
    assert [d["question"] for _, d in lib.document_traces()] == ["q2", "q1"]  # the oldest beyond 2 is gone
    assert lib.load_trace() is None  # not a folder's search
    assert not [i for i in lib.health().issues if i.kind == "orphan_trace"]
    with pytest.raises(ValueError):
        lib.save_document_trace("../escape", {})


def test_a_document_search_is_seen_only_by_the_visitor_who_asked_it(lib):
    sha = "d4" * 32
    lib.save_document_trace(sha, {"question": "alice's question", "doc": "a.pdf", "trace": {}}, owner="alice")
    lib.save_document_trace(sha, {"question": "bob's question", "doc": "a.pdf", "trace": {}}, owner="bob")
    assert [d["question"] for _, d in lib.document_traces(owner="alice")] == ["alice's question"]
    assert [d["question"] for _, d in lib.document_traces(owner="bob")] == ["bob's question"]
    assert lib.document_traces(owner="carol") == [] and lib.document_traces() == []
    assert not [i for i in lib.health().issues if i.kind == "orphan_trace"]
