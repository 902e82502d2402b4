"""Phase 0 routing and the Phase 1 document scorer, on literal profiles and generated folders."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from alphasearch.search.mcts import search
from alphasearch.folder.router import (
    DocProfile, DocumentScorer, DocumentSignals, EmptyLibraryError, FolderProfile, OfflineRouter,
    PassageIndex, document_tree, looks_like_followup, make_router, profiles_from_library,
)
from alphasearch.library import ChatTurn, Library
from alphasearch.lang.text import terms
from folder_helpers import build_library


def _doc(key: str, folder: str, name: str, text: str) -> DocProfile:
    from alphasearch.lang.text import terms

    return DocProfile(key=key.ljust(64, "0"), name=name, folder_id=folder, summary=text, profile=text,
                      vocab=frozenset(terms(text)))


KITCHEN = FolderProfile("k", "Kitchen", (
    _doc("a", "k", "bread.pdf", "Sourdough starter, rye flour, kneading dough, proofing, baking loaves in an oven."),
    _doc("b", "k", "soup.pdf", "Chicken stock, lentil soup with cumin, beef stew braised with red wine."),
))
SKY = FolderProfile("s", "Astronomy", (
    _doc("c", "s", "telescopes.pdf", "Refracting telescope lenses, Newtonian reflector mirrors, equatorial mounts."),
    _doc("d", "s", "planets.pdf", "Jupiter's Great Red Spot, Saturn's rings and Titan, Olympus Mons on Mars."),
))
EMPTY = FolderProfile("e", "Empty", ())


@pytest.fixture(scope="module")
def router() -> OfflineRouter:
    return OfflineRouter()


@pytest.mark.parametrize("question, folder", [
    ("How long should the dough proof before baking?", "Kitchen"),
    ("Which spices go into the lentil soup?", "Kitchen"),
    ("What is the Great Red Spot on Jupiter?", "Astronomy"),
    ("How do I collimate the mirrors of a reflector telescope?", "Astronomy"),
])
def test_routes_to_the_folder_on_the_subject(router, question, folder):
    r = router.route(question, [KITCHEN, SKY, EMPTY])
    assert r.folder == folder
    assert 0.5 < r.confidence <= 1.0
    assert set(r.scores) == {"Kitchen", "Astronomy"}  # empty folders are not candidates
    assert all(0.0 <= v <= 1.0 for v in r.scores.values())
    assert r.scores[folder] == max(r.scores.values())


def test_follow_up_stays_in_the_conversation_folder(router):
    history = [ChatTurn("user", "What is the Great Red Spot on Jupiter?", "s"),
               ChatTurn("assistant", "An anticyclonic storm. [p. 2]", "s")]
    for follow_up in ("and the year before?", "What about its moons?", "and the rings?", "How big is it?"):
        r = router.route(follow_up, [KITCHEN, SKY], history)
        assert r.folder == "Astronomy" and r.followup, follow_up


def test_a_two_word_follow_up_never_leaves_even_if_a_word_matches_elsewhere(router):
    history = [ChatTurn("user", "What is the Great Red Spot on Jupiter?", "s"), ChatTurn("assistant", "A storm.", "s")]
    r = router.route("and the soup?", [KITCHEN, SKY], history)  # "soup" is a Kitchen word
    assert r.folder == "Astronomy" and r.followup


def test_a_question_that_clearly_points_elsewhere_switches(router):
    history = [ChatTurn("user", "What is the Great Red Spot on Jupiter?", "s"),
               ChatTurn("assistant", "A storm.", "s")]
    r = router.route("How long do I knead sourdough bread dough before proofing it in the oven?", [KITCHEN, SKY],
                     history)
    assert r.folder == "Kitchen" and not r.followup


def test_empty_library_and_empty_folders_are_clear_errors(router):
    with pytest.raises(EmptyLibraryError, match="no folders"):
        router.route("anything?", [])
    with pytest.raises(EmptyLibraryError, match="empty"):
        router.route("anything?", [EMPTY])


def test_followup_detector():
    assert looks_like_followup("and the year before?")
    assert looks_like_followup("What about 2023?")
    assert not looks_like_followup("What was the revenue of the robotics segment in fiscal 2024?")


def test_make_router_lists_valid_names():
    assert isinstance(make_router("offline"), OfflineRouter)
    with pytest.raises(ValueError, match="offline"):
        make_router("psychic")


def test_document_scorer_ranks_the_right_document_first():
    docs = KITCHEN.documents + SKY.documents
    sig = DocumentSignals(docs)
    root = document_tree(docs, [4, 4, 4, 4])
    assert [c.node_id for c in root.children] == [d.key for d in docs] and root.children[0].pages == (1, 4)
    scorer = DocumentScorer(sig)
    scores = scorer.score("Titan and Saturn's rings", root.children)
    assert max(range(4), key=lambda i: scores[i]) == 3
    assert all(0.0 <= s <= 1.0 for s in scores)
    trace = search(root, "Titan and Saturn's rings", scorer, iterations=10, rng=random.Random(0))
    assert trace.best[0].title == "planets.pdf"


def test_routing_over_a_real_library_of_generated_pdfs(data_dir):
    lib = Library(data_dir)
    build_library(lib)
    profiles = profiles_from_library(lib)
    assert [p.name for p in profiles] == ["Astronomy", "Finance", "Kitchen"]
    assert all(len(p.documents) == 2 and all(d.vocab for d in p.documents) for p in profiles)
    router = OfflineRouter()
    cases = {
        "What was the quarterly dividend per share?": "Finance",
        "How much long-term debt did the company have?": "Finance",
        "Which moon has lakes of liquid methane?": "Astronomy",
        "How wide is the mirror of the observatory?": "Astronomy",
        "At what temperature is the loaf baked?": "Kitchen",
        "How long does the chicken stock simmer?": "Kitchen",
    }
    for question, folder in cases.items():
        assert router.route(question, profiles).folder == folder, question


def test_a_page_that_answers_lifts_its_document_above_look_alike_summaries():
    summary = "Annual report of a regional retailer: results, stores, outlook."
    docs = [_doc("a", "F", "report-a.pdf", summary), _doc("b", "F", "report-b.pdf", summary)]
    pages = [["Store openings and outlook.", "Net sales by region."],
             ["Store openings and outlook.", "The warehouse in Tilburg stores 40,000 pallets of frozen goods."]]
    question = "How many pallets does the Tilburg warehouse hold?"
    without = DocumentSignals(docs).scores(question)
    assert without[0] == pytest.approx(without[1], abs=0.01)  # summaries cannot tell them apart
    sig = DocumentSignals(docs, PassageIndex.build(pages))
    assert list(sig.passage(question)) == [0.0, 1.0]
    assert sig.scores(question)[1] > sig.scores(question)[0] + 0.3
    assert sig.scores(question, passage=0.0)[0] == pytest.approx(without[0])  # the prior leaves pages out


def test_a_saved_passage_index_scores_the_same_and_refuses_other_documents(tmp_path):
    pages = [["Store openings and outlook.", "Net sales by region."],
             ["The warehouse in Tilburg stores 40,000 pallets of frozen goods."], []]
    built = PassageIndex.build(pages)
    built.save(tmp_path / "p", ["a" * 64, "b" * 64, "c" * 64])
    loaded = PassageIndex.load(tmp_path / "p", 3)
    for q in ("How many pallets does the Tilburg warehouse hold?", "net sales by region", "zebra"):
        assert list(loaded.best(q)) == list(built.best(q))
    with pytest.raises(ValueError):
        PassageIndex.load(tmp_path / "p", 1)  # pages of documents that are not there


def test_phase_0_finds_the_folder_whose_page_answers_even_when_a_bigger_folder_sounds_closer():
    """The brochure's summary says little; its page names the wheels of the hybrid trim. The
    filings' summaries share the question's words, and there are more of them."""
    filing = "Annual report: results of the hybrid vehicle segment, trim of costs, wheels and tyres division."
    filings = FolderProfile("f", "Filings", tuple(_doc(k, "f", f"{k}.pdf", filing) for k in "abcd"))
    sedan = ["The 2024 sedan.", "The XSE hybrid trim comes with 19-inch bronze wheels."]
    brochure = _doc("e", "b", "sedan.pdf", sedan[0])
    brochures = FolderProfile("b", "Brochures", (replace(brochure, vocab=frozenset(terms(" ".join(sedan)))),))
    pages = {"f": PassageIndex.build([["Net sales by segment.", "Costs of the tyres division."]] * 4),
             "b": PassageIndex.build([sedan])}
    question = "Which wheels come with the XSE hybrid trim?"
    router = OfflineRouter()
    assert router.route(question, [filings, brochures]).folder == "Filings"  # summaries alone mislead
    routed = router.route(question, [filings, brochures], passages=pages)
    assert routed.folder == "Brochures" and routed.scores["Brochures"] > routed.scores["Filings"]


def test_a_word_of_a_folder_name_counts_by_how_rare_it_is_among_the_documents():
    """"report" names the folder "Annual reports", but every document says it, so it barely
    counts; "archive", in no document, counts in full."""
    text = "Annual report: revenue, segments, outlook and risk factors."
    annual = FolderProfile("a", "Annual reports", tuple(_doc(k, "a", f"{k}.pdf", text) for k in "ab"))
    archive = FolderProfile("r", "Archive", tuple(_doc(k, "r", f"{k}.pdf", text) for k in "cd"))
    router = OfflineRouter()
    same = router.route("What does the report say about revenue?", [annual, archive]).scores
    assert abs(same["Annual reports"] - same["Archive"]) < 0.05  # a word every document has: 0.1 × its idf share
    named = router.route("What does the archive report say about revenue?", [annual, archive])
    assert named.folder == "Archive" and named.scores["Archive"] > named.scores["Annual reports"]
