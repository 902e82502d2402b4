"""The knowledge-gap loop of the "openai" engine through the real ``openai`` client and the local
test server: the model names what the first answer is missing, the same document is searched
again for it, the final answer reads the pages of every round, and the trace keeps every round;
bounded by ``gap_rounds``, stopped when nothing is missing, and a failing gap check keeps the
first answer."""
from __future__ import annotations

import json
import re

import pytest

from alphasearch.config import Settings
from alphasearch.errors import ConfigError
from alphasearch.models import SearchTrace
from alphasearch.pipeline import Engine
from alphasearch.library.sample import sample_pdf_bytes
from alphasearch.llm.streaming import Notice
from llm_server import llm_server, request_kind, user_text  # noqa: F401  (fixture)
from llm_server import QUESTION, llm_settings

MISSING = "share of renewable electricity at the Tampere factory"  # page 8 of the sample report


@pytest.fixture(scope="module")
def sample_bytes() -> bytes:
    return sample_pdf_bytes()


def shown_pages(body: dict) -> list[int]:
    return [int(p) for p in re.findall(r"\[Page (\d+):", user_text(body))]


def bodies(server, kind: str) -> list[dict]:
    return [r["body"] for r in server.requests if request_kind(r["body"]) == kind]


def name_missing_once(kind, body):
    if kind == "gap":
        first = "Tampere" not in user_text(body)  # the answer so far does not mention it yet
        return json.dumps({"missing": [MISSING, "gross margin"] if first else []})
    return None


def test_a_named_gap_runs_a_second_round_and_the_answer_reads_its_pages(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()
    llm_server.responder = name_missing_once
    pieces: list[str] = []
    answer = engine.ask_document(doc, QUESTION, on_text=pieces.append)
    assert not answer.degraded and "412.6" in answer.text

    answers = bodies(llm_server, "answer")
    assert len(answers) == 2 and len(bodies(llm_server, "gap")) == 1  # gap_rounds = 1: one check, one round
    first, final = shown_pages(answers[0]), shown_pages(answers[1])
    assert 8 not in first and 8 in final and final[:len(first)] == first  # the round's new page joins the others
    rounds = answer.trace.rounds
    assert len(rounds) == 1 and rounds[0].query == MISSING and rounds[0].missing == (MISSING, "gross margin")
    assert 8 in rounds[0].pages and not set(rounds[0].pages) & set(first)  # pages not read before
    assert rounds[0].trace.steps and any(s.judged for s in rounds[0].trace.steps)
    # the round's search judged with the missing item as its question
    assert any("Tampere" in user_text(b) for b in bodies(llm_server, "score"))
    assert answer.pages[:len(final)] == final
    # the stream: the first draft, a notice, the final draft
    notices = [p for p in pieces if isinstance(p, Notice)]
    assert notices == [f"Searching the document again for: {MISSING}"]

    out = answer.to_dict()["trace"]
    assert [r["query"] for r in out["rounds"]] == [MISSING] and 8 in out["rounds"][0]["pages"]
    assert out["rounds"][0]["trace"]["steps"][0]["judged"]
    again = SearchTrace.from_dict(json.loads(json.dumps(out)))
    assert again.rounds[0].query == MISSING and again.rounds[0].pages == rounds[0].pages
    assert len(again.rounds[0].trace.steps) == len(rounds[0].trace.steps)


def test_rounds_are_bounded_and_stop_when_nothing_is_missing(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server, gap_rounds=2))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()
    asked: list[str] = []

    def always_missing(kind, body):
        if kind == "gap":
            asked.append(user_text(body))
            return json.dumps({"missing": [f"{MISSING} {len(asked)}"]})
        return None

    llm_server.responder = always_missing
    answer = engine.ask_document(doc, QUESTION)
    assert len(answer.trace.rounds) == 2  # never more than gap_rounds
    # the fake model's second answer says what its first did, so the second check is the first one word
    # for word: served from the cache
    assert len(asked) == 1 and answer.usage.cache_hits >= 1
    answers = bodies(llm_server, "answer")
    assert len(answers) == 3 and len(shown_pages(answers[2])) == len(shown_pages(answers[0])) + 4

    llm_server.reset()
    llm_server.responder = None  # the fake model says nothing is missing
    answer = engine.ask_document(doc, "Where did the new factory open?")
    assert answer.trace.rounds == () and len(bodies(llm_server, "gap")) == 1
    assert len(bodies(llm_server, "answer")) == 1

    llm_server.reset()
    off = Engine(llm_settings(data_dir, llm_server, gap_rounds=0))
    answer = off.ask_document(off.index_bytes(sample_bytes, "northwind.pdf"), "Who founded the company?")
    assert bodies(llm_server, "gap") == [] and answer.trace.rounds == ()
    with pytest.raises(ConfigError, match="gap_rounds"):
        Settings(data_dir=data_dir, gap_rounds=3)


def test_a_failing_gap_check_keeps_the_first_answer(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()

    def gap_fails(kind, body):
        return "not json at all" if kind == "gap" else None

    llm_server.responder = gap_fails
    answer = engine.ask_document(doc, QUESTION)
    assert "412.6" in answer.text and "[northwind.pdf → " in answer.text  # the model's first answer stands
    assert "missing stopped" in answer.degraded and answer.trace.rounds == ()
    assert len(bodies(llm_server, "gap")) == 2  # a malformed reply is asked again once, as every JSON reply


def test_a_round_whose_answer_finds_nothing_keeps_the_first_answer(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()

    def muddled_by_more_pages(kind, body):
        if kind == "gap":
            return json.dumps({"missing": [MISSING]})
        if kind == "answer" and 8 in shown_pages(body):
            return json.dumps({"answer": "", "citations": [], "confidence": 0.1, "found": False})
        return None

    llm_server.responder = muddled_by_more_pages
    answer = engine.ask_document(doc, QUESTION)
    assert len(bodies(llm_server, "answer")) == 2 and len(answer.trace.rounds) == 1
    assert not answer.fallback and "412.6" in answer.text and 8 not in answer.pages[:4]
    assert "answer written before it is kept" in answer.degraded


def test_the_offline_engine_has_no_gap_loop(data_dir, sample_bytes):
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    answer = engine.ask_document(engine.index_bytes(sample_bytes, "northwind.pdf"), QUESTION)
    assert answer.trace.rounds == () and answer.to_dict()["trace"]["rounds"] == []
