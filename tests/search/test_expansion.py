"""Query expansion (the lexicon has no "vehicles" ~ "cars") by embedding neighbours (alphasearch/expansion.py) on generated PDFs."""
from __future__ import annotations

import json

from alphasearch.answer.ranking import expanded_pages
from alphasearch.search.expansion import neighbour_queries, vocabulary
from alphasearch.models import SearchTrace
from alphasearch.pipeline import Engine
from alphasearch.library.sample import sample_pdf_bytes
from llm_server import llm_server, user_text  # noqa: F401  (fixture)
from llm_server import QUESTION, llm_settings

import pdf_factory


def _doc(engine, make_pdf):
    return engine.index_bytes(make_pdf_bytes(), "harbour.pdf")


def make_pdf_bytes() -> bytes:
    return pdf_factory.make_pdf([
        ["Harbour Logistics annual review", "Harbour Logistics moves containers between the northern ports.",
         "The board met eleven times during the year to review the port contracts."],
        ["Operations", "Cranes at the northern ports handled more containers than in any previous year.",
         "Fuel prices rose and the fleet of trucks was renewed with electric models."],
        ["Depots", "At the end of the year Harbour Logistics had 312 cars across its depots.",
         "The cars are shared by the depot managers and serviced every spring."],
        ["Outlook", "The company expects container volumes to keep growing next year.",
         "New contracts with two shipping lines begin in the spring."],
    ])


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
    assert d["trace"]["sub_queries"] == d["sub_queries"]  # the trace keeps them too
    assert SearchTrace.from_dict(d["trace"]).sub_queries == tuple(d["sub_queries"])
    assert "312" in answer.text


# --- sub-queries written by the model (LLM engine), through the test server and the real client ---
def _writer_requests(server) -> list[dict]:
    return [r["body"] for r in server.requests if "query writer" in json.dumps(r["body"]["messages"][0])]


def _answer_requests(server) -> list[dict]:
    return [r["body"] for r in server.requests if "answer writer" in json.dumps(r["body"]["messages"][0])]


def test_the_model_writes_sub_queries_and_their_best_pages_are_read(llm_server, data_dir):  # noqa: F811
    engine = Engine(llm_settings(data_dir, llm_server, llm_sub_queries=True, gap_rounds=0))
    doc = engine.index_bytes(sample_pdf_bytes(), "northwind.pdf")
    tampere = next(p.number for p in doc.pages if "Tampere" in p.text)
    llm_server.reset()
    llm_server.responder = lambda kind, body: (json.dumps({"queries": ["Tampere office"]})
                                               if "query writer" in json.dumps(body["messages"][0]) else None)
    answer = engine.ask_document(doc, QUESTION)
    assert answer.extra["sub_queries"] == ["Tampere office"] and answer.extra["sub_queries_by"] == "model"
    assert answer.trace.sub_queries == ("Tampere office",)
    assert len(_writer_requests(llm_server)) == 1 and not answer.degraded
    # the sub-query's page was read (without the sub-queries it is not: checked by hand)
    assert f"[Page {tampere}:" in user_text(_answer_requests(llm_server)[0])
    llm_server.reset()
    engine.ask_document(doc, QUESTION)
    assert _writer_requests(llm_server) == []  # the second time from the cache


def test_a_malformed_reply_falls_back_to_the_offline_sub_queries(llm_server, data_dir):  # noqa: F811
    engine = Engine(llm_settings(data_dir, llm_server, llm_sub_queries=True, gap_rounds=0))
    doc = engine.index_bytes(make_pdf_bytes(), "harbour.pdf")
    llm_server.reset()
    llm_server.responder = lambda kind, body: ("not json at all" if "query writer" in json.dumps(body["messages"][0])
                                               else None)
    answer = engine.ask_document(doc, "How many vehicles did Harbour Logistics have?")
    assert len(_writer_requests(llm_server)) == 2  # asked, retried once, then given up
    assert answer.extra["sub_queries_by"] == "offline" and any("cars" in q for q in answer.extra["sub_queries"])


def test_the_section_judge_counts_the_question_reworded_in_the_documents_words(engine, make_pdf):
    """The document says "cars", the question "vehicles": the section judge also scores the
    rewording, so the depots' section (whose page the rewording finds) gains the most and
    draws level with the review, which the question's other words ("Harbour Logistics") favour."""
    from alphasearch.models import Section
    from alphasearch.search.scorers import HybridScorer

    doc = _doc(engine, make_pdf)
    question = "How many vehicles did Harbour Logistics have?"
    sections = [Section(f"000{p}", title, (p, p)) for p, title in
                enumerate(("Review", "Operations", "Depots", "Outlook"), start=1)]
    ranker = engine.tools(doc).ranker
    plain = HybridScorer(doc, ranker=ranker).score(question, sections)
    reworded = HybridScorer(doc, ranker=ranker, rewordings=lambda q: neighbour_queries(doc, q)).score(question,
                                                                                                       sections)
    gain = [r - p for r, p in zip(reworded, plain)]
    assert max(range(4), key=gain.__getitem__) == 2 and all(0.0 <= v <= 1.0 for v in reworded)
    assert plain[0] - plain[2] > 0.1 and abs(reworded[0] - reworded[2]) < 0.02
    assert engine.tools(doc).scorer.score(question, sections) == reworded  # the engine's judge rewords
    assert HybridScorer(doc, ranker=ranker, rewordings=lambda q: []).score(question, sections) == plain
