"""Streamed answers through the real ``openai`` client against the local test server (server-sent
events): the draft arrives piece by piece, the finished answer has its citations checked and is
cached (the same question replays from the cache); a stream that breaks off or is cancelled
degrades to the offline answer like any model failure and is not cached."""
from __future__ import annotations

import json
import threading

import pytest

from alphasearch.cli.main import main
from alphasearch.llm.client import ChatRequest, OpenAIChat, text_message
from alphasearch.pipeline import Engine
from alphasearch.library.sample import sample_pdf_bytes
from alphasearch.llm.streaming import Cancelled, FieldText, Streamed
from llm_server import llm_server, request_kind, user_text  # noqa: F401  (fixture)
from llm_server import KEY, QUESTION, llm_settings


@pytest.fixture(scope="module")
def sample_bytes() -> bytes:
    return sample_pdf_bytes()


def answer_requests(server) -> list[dict]:
    return [r["body"] for r in server.requests if request_kind(r["body"]) == "answer"]


def test_field_text_decodes_the_answer_string_piece_by_piece():
    reply = json.dumps({"found": True, "answer": 'Revenue was "€412.6m"\nin 2025 [p. 4].',
                        "citations": [{"page": 4, "quote": "x"}]})
    out: list[str] = []
    reader = FieldText("answer", out.append)
    for ch in reply:  # the worst case: one character per piece, escapes split across pieces
        reader.feed(ch)
    assert "".join(out) == 'Revenue was "€412.6m"\nin 2025 [p. 4].'
    assert len(out) > 10 and all(out)
    quiet: list[str] = []
    FieldText("answer", quiet.append).feed('{"found": false, "citations": []}')
    assert quiet == []


def test_a_full_stream_shows_the_draft_then_the_checked_answer_and_replays_from_the_cache(
        llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()
    pieces: list[str] = []
    answer = engine.ask_document(doc, QUESTION, on_text=pieces.append)
    assert not answer.degraded and not answer.fallback
    draft = "".join(pieces)
    assert len(pieces) > 3 and "412.6" in draft and "[p. " in draft  # the model's own words, as they came
    assert "412.6" in answer.text and "[northwind.pdf → " in answer.text and "[p. " not in answer.text
    bodies = answer_requests(llm_server)
    assert len(bodies) == 1 and bodies[0]["stream"] is True
    assert not any(r["body"].get("stream") for r in llm_server.requests if request_kind(r["body"]) == "score")
    assert answer.usage.completion_tokens > 0  # the usage chunk was read

    llm_server.reset()
    again, replay = Engine(llm_settings(data_dir, llm_server)), []
    answer2 = again.ask_document(again.index_bytes(sample_bytes, "northwind.pdf"), QUESTION, on_text=replay.append)
    assert llm_server.count == 0 and answer2.text == answer.text and answer2.usage.cache_hits > 0
    assert replay == [draft]  # the cached reply replays in one piece
    # a streamed reply and a whole one share the cache: asked without streaming, still no request
    Engine(llm_settings(data_dir, llm_server)).ask_document(doc, QUESTION)
    assert llm_server.count == 0


def test_a_broken_stream_degrades_and_is_not_cached(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.mode = "stream_break"  # requests that do not stream (scoring) are answered as usual
    pieces: list[str] = []
    answer = engine.ask_document(doc, QUESTION, on_text=pieces.append)
    assert pieces and "broke off mid-stream" in answer.degraded and "cancelled" not in answer.degraded
    assert "412.6" in answer.text and not answer.fallback  # the offline answer, as for any model failure
    assert answer.usage.llm_calls >= 1
    llm_server.mode = "ok"
    llm_server.reset()
    answer2 = Engine(llm_settings(data_dir, llm_server)).ask_document(doc, QUESTION, on_text=[].append)
    assert len(answer_requests(llm_server)) == 1  # the partial reply was not cached: asked again
    assert not answer2.degraded and "[northwind.pdf → " in answer2.text


def test_the_sdk_retries_a_stream_that_failed_to_start(llm_server, data_dir, sample_bytes):
    """HTTP 500 / 429 before the first chunk: the openai SDK retries the request, and the stream then
    answers; after the retries are spent the answer degrades with the status."""
    engine = Engine(llm_settings(data_dir, llm_server, max_retries=2))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")
    llm_server.reset()
    llm_server.script_streams(["http500", "http429"])
    answer = engine.ask_document(doc, QUESTION, on_text=[].append)
    assert not answer.degraded and "[northwind.pdf → " in answer.text
    assert len([b for b in answer_requests(llm_server) if b.get("stream")]) == 3  # two failures, then the stream

    llm_server.reset()
    llm_server.script_streams(["http500"] * 3)
    answer = engine.ask_document(doc, "Where did the new factory open?", on_text=[].append)
    assert "HTTP 500" in answer.degraded and len(answer_requests(llm_server)) == 3


def test_a_server_that_rejects_stream_options_is_asked_again_without_them(llm_server):
    llm_server.reject_stream_options = True
    client = OpenAIChat(base_url=llm_server.url, max_retries=0, timeout=2)
    request = ChatRequest(model="local", messages=(text_message("user", "hello"),))
    pieces: list[str] = []
    done = client.stream(request, pieces.append)
    assert "".join(pieces) == done.text == '{"ok": true}' and len(pieces) > 1
    sent = [r["body"] for r in llm_server.requests]
    assert "stream_options" in sent[0] and "stream_options" not in sent[1] and sent[1]["stream"] is True
    client.stream(request, pieces.append)  # remembered for the model: one request
    assert llm_server.count == 3


def test_a_cancelled_stream_degrades_and_is_not_cached(llm_server, data_dir, sample_bytes):
    engine = Engine(llm_settings(data_dir, llm_server))
    doc = engine.index_bytes(sample_bytes, "northwind.pdf")

    def reader_goes_away(piece: str) -> None:
        raise Cancelled("the reader stopped reading")

    answer = engine.ask_document(doc, QUESTION, on_text=reader_goes_away)
    assert "cancelled" in answer.degraded and "412.6" in answer.text
    llm_server.reset()
    engine.ask_document(doc, QUESTION, on_text=[].append)
    assert len(answer_requests(llm_server)) == 1


def test_streamed_call_hands_over_pieces_and_a_reader_that_stops_cancels_it():
    release = threading.Event()

    def writer(on_text):
        on_text("one ")
        on_text("two")
        return "done"

    run = Streamed(writer)
    assert list(run.pieces()) == ["one ", "two"] and run.result == "done"

    def endless(on_text):
        on_text("first")
        release.wait(5)
        while True:
            on_text("more")  # raises Cancelled once the reader has stopped

    run = Streamed(endless)
    pieces = run.pieces()
    assert next(pieces) == "first"
    pieces.close()
    release.set()
    with pytest.raises(Cancelled):
        run.result

    def failing(on_text):
        raise ValueError("bad")

    with pytest.raises(ValueError):
        Streamed(failing).result


def test_cli_query_prints_the_draft_as_it_streams_and_json_prints_one_object(
        llm_server, monkeypatch, capsys, tmp_path, sample_bytes):
    pdf = tmp_path / "northwind.pdf"
    pdf.write_bytes(sample_bytes)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ALPHASEARCH_MAX_RETRIES", "0")
    data = str(tmp_path / "data")
    assert main(["--data-dir", data, "query", str(pdf), QUESTION, "--engine", "openai"]) == 0
    out = capsys.readouterr().out
    first_line = out.splitlines()[0]
    assert "412.6" in first_line and "[p. " in first_line  # the streamed draft, as the model wrote it
    assert "Checked answer" not in out  # the checked answer says the same, only with longer citation labels
    assert "[northwind.pdf → " in out  # the citations listed below it
    streamed = [b for b in answer_requests(llm_server) if b.get("stream")]
    assert len(streamed) == 1

    llm_server.reset()
    llm_server.mode = "stream_break"
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(tmp_path / "data2"))
    assert main(["--data-dir", str(tmp_path / "data2"), "query", str(pdf), QUESTION, "--engine", "openai"]) == 0
    captured = capsys.readouterr()
    assert "Checked answer: " in captured.out and "412.6" in captured.out.split("Checked answer: ")[1]
    assert "broke off mid-stream" in captured.err

    llm_server.reset()
    llm_server.mode = "ok"
    assert main(["--data-dir", str(tmp_path / "data3"), "query", str(pdf), QUESTION, "--engine", "openai",
                 "--json"]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1 and "412.6" in json.loads(out)["answer"]
    assert not any(b.get("stream") for b in answer_requests(llm_server))  # --json: nothing to stream

    llm_server.reset()  # a knowledge-gap round: a line says what is searched for, then the new draft
    llm_server.responder = lambda kind, body: (json.dumps({"missing": [] if "Tampere" in user_text(body)
                                                           else ["renewable electricity in Tampere"]})
                                               if kind == "gap" else None)
    assert main(["--data-dir", str(tmp_path / "data4"), "query", str(pdf), QUESTION, "--engine", "openai"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "412.6" in lines[0] and lines[1] == "(Searching the document again for: renewable electricity in Tampere)"
    assert "412.6" in lines[2] and "Checked answer" not in "\n".join(lines)


def test_cli_prints_a_hostile_model_reply_without_terminal_control(llm_server, monkeypatch, capsys, tmp_path,
                                                                   sample_bytes):
    """Escape sequences in a model's reply (retitle the window, clear the screen, an 8-bit CSI,
    a carriage return) are dropped from what the CLI prints, streamed draft and answer alike."""
    pdf = tmp_path / "northwind.pdf"
    pdf.write_bytes(sample_bytes)
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ALPHASEARCH_MAX_RETRIES", "0")
    hostile = "\x1b]0;pwned\x07\x1b[2J\x9b31m\rRevenue was EUR 412.6 million in 2025 [p. 4]."
    llm_server.responder = lambda kind, body: (json.dumps({
        "answer": hostile, "confidence": 0.9, "found": True,
        "citations": [{"page": 4, "quote": "412.6"}]}) if kind == "answer" else None)
    assert main(["--data-dir", str(tmp_path / "data"), "query", str(pdf), QUESTION, "--engine", "openai"]) == 0
    out = capsys.readouterr().out
    assert "412.6 million" in out and "]0;pwned" in out  # the words are kept; the controls are not
    assert not any(ch in out for ch in "\x1b\x07\x9b\r")
