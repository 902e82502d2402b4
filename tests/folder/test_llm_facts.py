"""With a model, the index model fills the document facts the offline reader left empty (through the real
openai client against the local OpenAI-compatible test server); when the model fails, the offline facts stand."""
from __future__ import annotations

import json

from alphasearch.config import Settings
from alphasearch.pipeline import Engine
from llm_server import llm_server, user_text  # noqa: F401  (fixture)
from pdf_factory import filings_folder

KEY = "sk-facts-test-4d1e"


def facts_reply(kind: str, body: dict) -> str | None:
    system = body["messages"][0]["content"]
    if "document facts reader" not in system:
        return None  # indexing, summaries: the fake model's usual replies
    return json.dumps({"org": "Alpine Glacier Institute", "year": 2021, "quarter": None, "kind": "report",
                       "title": "A title the model made up"})


def engine_on(server, data_dir) -> Engine:
    return Engine(Settings(data_dir=data_dir, engine="openai", base_url=server.url, api_key=KEY, max_retries=0,
                           request_timeout=2.0))


def test_the_model_fills_only_what_the_offline_reader_left_empty(llm_server, tmp_path):
    llm_server.responder = facts_reply
    lib = engine_on(llm_server, tmp_path).library
    lib.create_folder("F")
    lib.add_many("F", [("paper.pdf", filings_folder()["paper.pdf"]), ("filing-a.pdf", filings_folder()["filing-a.pdf"])])
    got = {d.name: lib.facts("F")[d.record_id] for d in lib.documents("F")}
    paper = got["paper.pdf"]
    assert (paper.org, paper.year) == ("Alpine Glacier Institute", 2021)  # empty offline: filled
    assert (paper.kind, paper.title) == ("paper", "Measuring Glacier Melt with Low-Cost Seismometers")  # kept
    asks = [r for r in llm_server.requests if "document facts reader" in r["body"]["messages"][0]["content"]]
    assert len(asks) == 1  # the filing's facts were complete: no call for it
    assert "<<<DOCUMENT" in user_text(asks[0]["body"]) and "Glacier" in user_text(asks[0]["body"])
    filing = got["filing-a.pdf"]
    assert (filing.org, filing.kind, filing.year) == ("Harrow Instruments Corporation", "10-K", 2018)


def test_when_the_model_fails_the_offline_facts_stand(llm_server, tmp_path):
    llm_server.mode = "http500"
    lib = engine_on(llm_server, tmp_path).library
    lib.create_folder("F")
    [r] = lib.add_many("F", [("paper.pdf", filings_folder()["paper.pdf"])])
    assert r.status == "indexed"
    [paper] = lib.facts("F").values()
    assert (paper.kind, paper.org, paper.year) == ("paper", "", None)
