"""Visitors of one server (issue 31): conversations, chats and saved searches belong to the visitor that made
them; folders and documents are shared, and a reader may not change them; an answer whose folder is deleted
while it is searched writes nothing, and ``health`` stays OK under a rename/delete race."""
from __future__ import annotations

import threading

import pytest

from alphasearch.config import Settings, resolve_role
from alphasearch.errors import ConfigError, FolderGoneError, NotYoursError, ReadOnlyError
from alphasearch.library import Library
from alphasearch.pipeline import Engine
from folder_helpers import build_library, topic_pdfs

A, B = "browser:aaaa", "browser:bbbb"
QUESTION = "How long should bread dough rise?"


def test_a_conversation_opens_only_for_its_owner(data_dir):
    lib = Library(data_dir)
    lib.add_turns("app-x", [("user", "q", None), ("assistant", "a", {"n": 1})], owner=A)
    assert [t.text for t in lib.history("app-x", owner=A)] == ["q", "a"]
    for call in (lambda: lib.history("app-x", owner=B), lambda: lib.clear_history("app-x", owner=B),
                 lambda: lib.add_turn("app-x", "user", "mine now?", owner=B)):
        with pytest.raises(NotYoursError) as err:
            call()
        assert str(err.value) == "This conversation belongs to another visitor; start a new one."
    assert len(lib.history("app-x", owner=A)) == 2  # B changed nothing
    assert lib.conversations(owner=A) == ["app-x"] and lib.conversations(owner=B) == []
    lib.add_turn("cli-1", "user", "from the command line")  # no owner: the operator's
    with pytest.raises(NotYoursError):
        lib.history("cli-1", owner=A)
    lib.add_turns("single-y", [], owner=B)  # claimed with no turn yet
    assert lib.owns("single-y", B) and not lib.owns("single-y", A) and not lib.owns("app-new", A)
    assert lib.clear_history("app-x", owner=A) == 2


def test_saved_searches_are_listed_only_for_their_owner(data_dir):
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    build_library(engine.library, ("Kitchen",))
    engine.ask_folder(QUESTION, folder="Kitchen", owner=A)
    assert engine.library.load_trace("Kitchen", owner=A)["question"] == QUESTION
    assert engine.library.load_trace("Kitchen", owner=B) is None
    assert engine.library.load_trace("Kitchen") is None  # nor the operator's shared copy
    engine.library.delete_folder("Kitchen")
    assert list(engine.library.trace_dir.iterdir()) == []


def test_a_reader_may_ask_but_not_change_the_library(data_dir):
    build_library(Library(data_dir), ("Kitchen",))
    reader = Engine(Settings(data_dir=data_dir, engine="offline", visitor_role="reader"))
    lib = reader.library
    bread = topic_pdfs()["Kitchen"]["bread-baking.pdf"]
    for change in (lambda: lib.create_folder("Mine"), lambda: lib.rename_folder("Kitchen", "K"),
                   lambda: lib.delete_folder("Kitchen"), lambda: lib.add("Kitchen", "b2.pdf", bread),
                   lambda: lib.remove("Kitchen", "bread-baking.pdf"), lambda: lib.repair(),
                   lambda: lib.set_facts("Kitchen", "bread-baking.pdf", year=2020)):
        with pytest.raises(ReadOnlyError) as err:
            change()
        assert str(err.value).count(".") == 1 and "editor" in str(err.value)
    assert "dough" in reader.ask_folder(QUESTION, folder="Kitchen", owner=A).text.lower()
    assert [f.name for f in lib.folders()] == ["Kitchen"] and len(lib.documents("Kitchen")) == len(topic_pdfs()["Kitchen"])
    with pytest.raises(ConfigError):
        Settings(visitor_role="admin")
    with pytest.raises(ConfigError):
        Settings(visitor_role="reader").replace(visitor_role="editor")  # never from a session


def test_the_role_defaults_by_the_address_the_server_listens_on():
    assert [resolve_role("", a) for a in ("127.0.0.1", "localhost", "::1", "[::1]")] == ["editor"] * 4
    assert [resolve_role("", a) for a in ("", "0.0.0.0", "10.0.0.7", "::")] == ["reader"] * 4
    assert resolve_role("editor", "0.0.0.0") == "editor" and resolve_role("reader", "127.0.0.1") == "reader"


def test_an_answer_finishing_after_its_folder_is_deleted_writes_nothing(data_dir, monkeypatch):
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    build_library(engine.library, ("Kitchen",))
    from alphasearch.folder import search

    real = search.FolderSearch.search_documents

    def slow(self, *args, **kwargs):  # the folder is deleted while its documents are searched
        out = real(self, *args, **kwargs)
        Library(data_dir).delete_folder("Kitchen")
        return out

    monkeypatch.setattr(search.FolderSearch, "search_documents", slow)
    answer = engine.ask_folder(QUESTION, folder="Kitchen", conversation="app-z", owner=A)
    assert answer.text and "nothing was saved" in answer.extra["not_saved"]
    assert list(engine.library.trace_dir.iterdir()) == []
    assert engine.library.history("app-z", owner=A) == []
    assert engine.library.health().ok
    with pytest.raises(FolderGoneError):
        engine.library.add_turn("app-z", "user", "late", folder="0" * 32)


def test_health_stays_ok_under_a_rename_and_delete_race(data_dir):
    """Questions answered while other threads rename, delete and re-create their folder (the attack left 47
    orphan traces after 40 s and health not OK): afterwards nothing is orphaned."""
    engine = Engine(Settings(data_dir=data_dir, engine="offline", iterations=4))
    bread = topic_pdfs()["Kitchen"]["bread-baking.pdf"]
    engine.library.create_folder("Kitchen")
    engine.library.add("Kitchen", "bread.pdf", bread)
    stop = threading.Event()
    failures: list[BaseException] = []
    answered = [0]

    def ask(owner: str) -> None:
        while not stop.is_set():
            try:
                engine.ask_folder(QUESTION, conversation=f"app-{owner[-4:]}", owner=owner)
                answered[0] += 1
            except Exception as exc:  # the folder may be gone or renamed mid-question: that is expected
                if not isinstance(exc, (LookupError, ValueError)) and "folder" not in str(exc).lower() \
                        and "library" not in str(exc).lower() and "document" not in str(exc).lower():
                    failures.append(exc)

    def churn() -> None:
        lib = Library(data_dir)
        i = 0
        while not stop.is_set():
            i += 1
            try:
                lib.rename_folder(lib.folders()[0].folder_id, f"Kitchen {i}")
                lib.delete_folder(lib.folders()[0].folder_id)
                lib.create_folder("Kitchen")
                lib.add("Kitchen", "bread.pdf", bread)
            except Exception:  # a question's write may hold the catalog a moment
                pass

    threads = [threading.Thread(target=ask, args=(o,)) for o in (A, B)] + [threading.Thread(target=churn)]
    for t in threads:
        t.start()
    stop.wait(12)
    stop.set()
    for t in threads:
        t.join(60)
    report = engine.library.health()
    assert report.ok, report.issues
    assert not failures, failures[:3]
    folder_ids = {f.folder_id for f in engine.library.folders()}
    assert all(p.name.startswith("latest") or p.stem.split("-")[0] in folder_ids
               for p in engine.library.trace_dir.iterdir())
