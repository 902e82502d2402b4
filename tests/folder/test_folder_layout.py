"""What a document's pages look like is one of its facts: slide-shaped landscape pages make a deck
without a text layer 'the slides', and pictures on its pages make it the place for a question about
what pages show (Phase 0). Generated PDFs: a deck, a photo brochure and a text report in three folders."""
from __future__ import annotations

import json
import sqlite3

import pytest

from alphasearch.index import facts
from alphasearch.config import Settings
from alphasearch.library import Library
from alphasearch.pdf import page_layout
from alphasearch.pipeline import Engine
from folder_helpers import build_library
from pdf_factory import H2, make_pdf, picture_brochure_pdf, slide_deck_pdf


def report_pdf() -> bytes:
    """A portrait text report about a railway's people and its logo (no pictures)."""
    return make_pdf([[H2("Fenwick Rail annual staff report"),
                      "Our people are our strength: 412 people work in the depots and 96 people in the stations."],
                     [H2("Brand"), "The Fenwick Rail logo is a green circle around a white locomotive. "
                      "The staff survey asked how they see the brand."]])


@pytest.fixture(scope="module")
def library_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("layout")
    e = Engine(Settings(data_dir=d, engine="offline"))
    build_library(e.library)  # text folders on other subjects, so Phase 0 has a real choice
    for folder, name, data in (("Training slides", "deck.pdf", slide_deck_pdf()),
                               ("Campus brochure", "campus.pdf", picture_brochure_pdf()),
                               ("Staff reports", "staff.pdf", report_pdf())):
        e.library.create_folder(folder)
        e.library.add_many(folder, [(name, data)])
    return d


@pytest.fixture(scope="module")
def engine(library_dir) -> Engine:
    return Engine(Settings(data_dir=library_dir, engine="offline"))


@pytest.fixture(scope="module")
def without_facts(library_dir) -> Engine:
    return Engine(Settings(data_dir=library_dir, engine="offline", facts_weight=0.0))


def test_page_layout_reads_slide_shape_and_pictures():
    wide, pictures = page_layout(slide_deck_pdf())
    assert wide == 1.0 and pictures > 0.5
    wide, pictures = page_layout(picture_brochure_pdf())
    assert wide == 0.0 and 0.2 < pictures < 0.5
    assert page_layout(report_pdf()) == (0.0, 0.0)


def test_the_layout_is_stored_with_the_facts(engine):
    by_name = {r.name: engine.library.facts()[r.record_id] for r in engine.library.documents()}
    deck, campus, staff = by_name["deck.pdf"], by_name["campus.pdf"], by_name["staff.pdf"]
    assert deck.landscape == 1.0 and deck.kind == "" and deck.slides()
    assert campus.pictures > 0.2 and not campus.slides()
    assert staff.pictures == 0.0 and staff.landscape == 0.0
    assert facts.DocFacts.from_dict(deck.to_dict()) == deck


def test_the_question_says_when_it_asks_what_pages_show():
    asks = facts.read_question
    assert asks("How many people appear on page 3?").pictures
    assert asks("What colour is the car on the front cover?").pictures
    assert asks("How many cats are in the images?").pictures
    assert not asks("Does the policy cover flood damage?").pictures
    assert not asks("How many staff work in the depots?").pictures


def test_a_slide_question_reaches_the_deck_without_a_text_layer(engine):
    a = engine.ask_folder("What is the title of the third slide?")
    assert a.extra["folder"] == "Training slides"
    assert a.extra["documents"] == ["deck.pdf"]


def test_a_question_about_what_pages_show_goes_where_the_pictures_are(engine, without_facts):
    q = "How many people appear on page 2?"  # the staff report says "people" more often than the brochure
    assert without_facts.ask_folder(q, save_trace=False).extra["folder"] == "Staff reports"
    a = engine.ask_folder(q, save_trace=False)
    assert a.extra["folder"] == "Campus brochure"


def test_content_still_leads_a_picture_question_it_answers(engine):
    a = engine.ask_folder("What colour is the Fenwick Rail logo?", save_trace=False)
    assert a.extra["folder"] == "Staff reports"
    assert "green circle" in a.text


def test_a_library_from_before_layout_facts_reads_the_layout_from_its_pdfs(tmp_path):
    lib = Library(tmp_path)
    lib.create_folder("Slides")
    lib.add("Slides", "deck.pdf", slide_deck_pdf())
    with sqlite3.connect(lib.db_path) as con:  # facts stored by the version before the layout
        con.execute("UPDATE facts SET auto = '{}', version = ?", (facts.FACTS_VERSION - 1,))
    got = list(Library(tmp_path).facts("Slides").values())
    assert len(got) == 1 and got[0].landscape == 1.0 and got[0].pictures > 0.5 and got[0].slides()


def test_layouts_missing_from_a_large_library_are_read_a_bounded_while_per_call(tmp_path, monkeypatch):
    from alphasearch.library import documents

    lib = Library(tmp_path)
    lib.create_folder("Slides")
    for i in range(3):
        lib.add("Slides", f"deck-{i}.pdf", slide_deck_pdf(pages=3 + i))
    with sqlite3.connect(lib.db_path) as con:  # facts stored by the version before the layout
        con.execute("UPDATE facts SET auto = '{}', version = ?", (facts.FACTS_VERSION - 1,))
    monkeypatch.setattr(documents, "LAYOUT_UPGRADE_SECONDS", 0.0)  # no time left for any layout
    first = list(Library(tmp_path).facts("Slides").values())
    assert len(first) == 3 and all(f.landscape is None and not f.slides() for f in first)
    monkeypatch.setattr(documents, "LAYOUT_UPGRADE_SECONDS", 60.0)
    later = list(Library(tmp_path).facts("Slides").values())  # the next call reads what is missing
    assert all(f.landscape == 1.0 and f.slides() for f in later)
    with sqlite3.connect(lib.db_path) as con:
        stored = [json.loads(a) for (a,) in con.execute("SELECT auto FROM facts")]
    assert all(s["landscape"] == 1.0 for s in stored)  # and keeps it


def test_a_folder_add_reads_the_layout_in_the_indexing_job(tmp_path, monkeypatch):
    """The layout is read in the same worker job as the index (so adds read layouts in parallel),
    not in a second job the adding loop waits for."""
    from alphasearch.index import isolation
    from alphasearch.library import documents

    def second_job(self, data, name):
        raise AssertionError("the layout was read in a job of its own")

    monkeypatch.setattr(documents.DocumentMethods, "_layout", second_job)
    indexed = isolation.index_pdf(slide_deck_pdf(), "deck.pdf", isolation.IndexOptions(layout=True))
    assert indexed.layout == page_layout(slide_deck_pdf())
    assert isolation.index_pdf(slide_deck_pdf(), "deck.pdf").layout is None  # a single PDF's index does not need it
    lib = Library(tmp_path, settings=Settings(data_dir=tmp_path, engine="offline"))
    lib.create_folder("Decks")
    [result] = lib.add_many("Decks", [("deck.pdf", slide_deck_pdf())], workers=1)
    assert result.status == "indexed", result
    stored = lib.facts()[result.record.record_id]
    assert stored.landscape == 1.0 and stored.pictures > 0.5 and stored.slides()


def test_the_indexing_job_checks_the_streams_once(monkeypatch):
    """Reading the text and then the layout of one PDF decodes its streams once (the check is
    remembered for the same bytes); other bytes are checked again."""
    from alphasearch.index import isolation
    from alphasearch import pdf

    calls = []
    real = pdf.streams.check_streams
    monkeypatch.setattr(pdf.streams, "check_streams", lambda doc, name="": calls.append(name) or real(doc, name))
    monkeypatch.setattr(pdf.streams, "_LAST_CHECKED", ("", {}))
    indexed = isolation.index_pdf(slide_deck_pdf(), "deck.pdf", isolation.IndexOptions(layout=True))
    assert indexed.layout[0] == 1.0 and calls == ["deck.pdf"]
    assert page_layout(picture_brochure_pdf(), "brochure.pdf")[0] == 0.0 and calls == ["deck.pdf", "brochure.pdf"]
