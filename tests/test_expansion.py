"""Query expansion (the lexicon has no "vehicles" ~ "cars") by embedding neighbours (alphasearch/expansion.py) on generated PDFs."""
from __future__ import annotations

import json

from alphasearch.answer import expanded_pages
from alphasearch.expansion import neighbour_queries, vocabulary


def _doc(engine, make_pdf):
    return engine.index_bytes(make_pdf([
        ["Harbour Logistics annual review", "Harbour Logistics moves containers between the northern ports.",
         "The board met eleven times during the year to review the port contracts."],
        ["Operations", "Cranes at the northern ports handled more containers than in any previous year.",
         "Fuel prices rose and the fleet of trucks was renewed with electric models."],
        ["Depots", "At the end of the year Harbour Logistics had 312 cars across its depots.",
         "The cars are shared by the depot managers and serviced every spring."],
        ["Outlook", "The company expects container volumes to keep growing next year.",
         "New contracts with two shipping lines begin in the spring."],
    ]), "harbour.pdf")


def test_a_word_the_document_does_not_use_is_reworded_with_its_nearest_document_word(engine, make_pdf):
    doc = _doc(engine, make_pdf)
    question = "How many vehicles did Harbour Logistics have?"
    subs = neighbour_queries(doc, question)
    assert subs and "cars" in subs[0].lower() and "vehicles" not in subs[0].lower()
    ranker = engine.tools(doc).ranker
    assert float(ranker.scores(question)[2]) < 1.0  # the question alone does not put the depots page first
    assert expanded_pages(question, ranker.scores, more=subs)[0] == 3  # the reworded question does
    vocab, _, vecs = vocabulary(doc)
    assert vocabulary(doc)[2] is vecs and len(vocab) == vecs.shape[0]  # computed once per document


def test_words_the_document_uses_are_not_expanded(engine, make_pdf):
    doc = _doc(engine, make_pdf)
    assert neighbour_queries(doc, "How many cars did Harbour Logistics have?") == []


def test_the_sub_queries_appear_in_the_json_answer(engine, make_pdf):
    doc = _doc(engine, make_pdf)
    answer = engine.ask_document(doc, "How many vehicles did Harbour Logistics have?")
    d = json.loads(json.dumps(answer.to_dict()))
    assert any("cars" in q.lower() for q in d["sub_queries"])
    assert "312" in answer.text
