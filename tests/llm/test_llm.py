"""The OpenAI-compatible client, usage/cost, JSON replies, the LLM scorer, LLM
indexing and the LLM answer, driven through the real ``openai`` client against
the local test server (tests/llm_server.py)."""
from __future__ import annotations

import json
import random
import socket
import time
import traceback

import pytest

from alphasearch.answer.written import ANSWER_RULES, llm_answer
from alphasearch.errors import (
    ConfigError, LLMMalformedError, LLMRefusalError, LLMUnavailableError, MissingAPIKeyError,
)
from alphasearch.index.indexer import build_index
from alphasearch.llm.client import (
    ChatRequest, Completion, Meter, OpenAIChat, complete_json, cost_usd, load_prices, price_of, text_message,
)
from alphasearch.index.llm_tree import build_llm_index, cover, merge_sections, page_batches, _Node
from alphasearch.search.mcts import search
from alphasearch.models import Section
from alphasearch.search.llm_judge import SCORE_RULES, LLMScorer
from llm_server import fenced, llm_server, user_text  # noqa: F401  (fixture)

KEY = "sk-test-h3-0123456789abcdef"


def client(server, **kw) -> OpenAIChat:
    args = {"api_key": KEY, "base_url": server.url, "timeout": 2.0, "max_retries": 0}
    args.update(kw)
    return OpenAIChat(**args)


def ask(llm, text="Reply with JSON: {\"ok\": true}", model="gpt-4o-mini") -> Completion:
    return llm.complete(ChatRequest(model=model, messages=(text_message("user", text),)))


class ConstantScorer:
    def __init__(self, value: float):
        self.value = value

    def score(self, question, sections):
        return [self.value] * len(sections)


# --- the client ------------------------------------------------------------------------------
def test_request_is_openai_shaped_with_temperature_zero_and_json_mode(llm_server):
    reply = ask(client(llm_server))
    assert json.loads(reply.text) == {"ok": True}
    assert reply.cached is False and reply.prompt_tokens > 0
    [req] = llm_server.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["authorization"] == f"Bearer {KEY}"
    body = req["body"]
    assert body["model"] == "gpt-4o-mini" and body["temperature"] == 0
    assert body["response_format"] == {"type": "json_object"}


def test_missing_key_says_how_to_set_it():
    """No key and no base URL: the error says how to set OPENAI_API_KEY or OPENAI_BASE_URL."""
    with pytest.raises(MissingAPIKeyError, match="OPENAI_API_KEY") as err:
        OpenAIChat(api_key="", base_url="")
    assert "OPENAI_BASE_URL" in str(err.value)


@pytest.mark.parametrize("url", ["localhost:11434/v1", "ftp://host/v1", "http://", "not a url"])
def test_a_base_url_that_is_not_a_url_is_a_config_error(url):
    with pytest.raises(ConfigError, match="OPENAI_BASE_URL"):
        OpenAIChat(api_key=KEY, base_url=url)


def test_local_base_url_without_key_sends_a_dummy_key(llm_server):
    ask(client(llm_server, api_key=""))
    assert llm_server.requests[0]["headers"]["authorization"] == "Bearer not-needed"


def test_server_without_json_mode_is_retried_without_response_format(llm_server):
    """A server that rejects JSON mode (HTTP 400) is asked again without it, once."""
    llm_server.reject_json_mode = True
    llm = client(llm_server)
    assert json.loads(ask(llm).text) == {"ok": True}
    ask(llm, "again, JSON")
    bodies = [r["body"] for r in llm_server.requests]
    assert "response_format" in bodies[0] and "response_format" not in bodies[1]
    assert "response_format" not in bodies[2]  # remembered
    assert len(bodies) == 3


def test_reasoning_models_get_max_completion_tokens_and_no_temperature(llm_server):
    """A model that rejects max_tokens and temperature 0 (HTTP 400) is asked again the way it accepts, once."""
    llm_server.reasoning_model = True
    llm = client(llm_server)
    assert json.loads(ask(llm, model="gpt-5-mini").text) == {"ok": True}
    assert llm_server.count == 3
    last = llm_server.requests[-1]["body"]
    assert "max_tokens" not in last and last["max_completion_tokens"] >= 4000 and "temperature" not in last
    ask(llm, "again, JSON", model="gpt-5-mini")
    assert llm_server.count == 4  # remembered for this model


def test_a_bad_request_that_no_change_fixes_is_unavailable(llm_server):
    """An HTTP 400 that no known adaptation fixes ends in LLMUnavailableError (then the engine degrades)."""
    llm_server.mode = "http400"
    with pytest.raises(LLMUnavailableError, match="rejected the request"):
        ask(client(llm_server))
    assert llm_server.count == 2  # once as asked, once without JSON mode; then it gives up


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize("mode, kind, words", [
    ("http500", LLMUnavailableError, "HTTP 500"),
    ("http429", LLMUnavailableError, "HTTP 429"),
    ("http401", LLMUnavailableError, "HTTP 401"),
    ("http404", LLMUnavailableError, "not found"),
    ("bad_body", LLMUnavailableError, "could not be read"),
    ("slow", LLMUnavailableError, "did not answer within"),
    ("refusal", LLMRefusalError, "declined"),
    ("empty", LLMRefusalError, "empty"),
])
def test_each_failure_raises_one_specific_error_without_the_key(llm_server, mode, kind, words):
    """HTTP 500/429/401/404, an unreadable body, a timeout, a refusal or an empty reply: one specific error
    whose message and traceback never show the key.
    """
    llm_server.mode = mode
    llm_server.slow_seconds = 1.0
    with pytest.raises(kind, match=words) as err:
        ask(client(llm_server, timeout=0.4))
    shown = "".join(traceback.format_exception(err.value))
    assert KEY not in shown and KEY not in repr(err.value)
    assert err.value.__cause__ is None
    assert err.value.__context__ is None or err.value.__suppress_context__  # the SDK error is not chained


def test_connection_refused_is_unavailable():
    """Connection refused: LLMUnavailableError saying it could not connect."""
    llm = OpenAIChat(api_key=KEY, base_url=f"http://127.0.0.1:{_closed_port()}/v1", timeout=1, max_retries=0)
    with pytest.raises(LLMUnavailableError, match="Could not connect"):
        ask(llm)
    assert KEY not in repr(llm)


def test_sdk_retries_honour_retry_after_then_succeed(llm_server):
    """429 with Retry-After then 500: the SDK waits as asked, retries and succeeds."""
    llm_server.retry_after = "0.3"
    llm_server.script(["http429", "http500"])
    started = time.perf_counter()
    reply = ask(client(llm_server, max_retries=2))
    assert json.loads(reply.text) == {"ok": True}
    assert llm_server.count == 3
    assert time.perf_counter() - started >= 0.3  # waited as the server asked


# --- usage and cost ------------------------------------------------------------------------
def test_prices_match_snapshots_and_unknown_models_cost_nothing():
    assert price_of("gpt-4o") == (2.50, 10.00)
    assert price_of("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert price_of("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_of("llama3.1:8b") is None and price_of("gpt-4o-turbo-x") is None
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert cost_usd("my-local-model", 5000, 5000) == 0.0


def test_price_table_can_be_edited_in_the_data_dir(data_dir):
    (data_dir / "prices.json").write_text(json.dumps({"my-local-model": [1.0, 2.0], "bad": ["x", 1]}))
    prices = load_prices(data_dir)
    assert prices["my-local-model"] == (1.0, 2.0) and "bad" not in prices and "gpt-4o" in prices
    (data_dir / "prices.json").write_text("{not json")
    assert load_prices(data_dir)["gpt-4o"] == (2.50, 10.00)


def test_meter_counts_calls_hits_tokens_and_cost():
    m = Meter()
    m.record(Completion("x", "gpt-4o", 1000, 100))
    m.record(Completion("x", "gpt-4o", 1000, 100, cached=True))
    m.record(Completion("x", "local", 50, 5))
    u = m.usage
    assert (u.llm_calls, u.cache_hits, u.prompt_tokens, u.completion_tokens) == (2, 1, 1050, 105)
    assert u.cost_usd == pytest.approx((1000 * 2.5 + 100 * 10) / 1e6)


# --- JSON replies ------------------------------------------------------------------------------
def _must_have_ok(v):
    if not isinstance(v, dict) or v.get("ok") is not True:
        raise ValueError('"ok" must be true')
    return v


def test_json_is_found_inside_fences_think_blocks_and_a_lead_sentence():
    """Replies wrapped the way local models wrap them still parse; anything else is malformed."""
    from alphasearch.llm.client import parse_json

    assert parse_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json('<think>maybe {"a": 0}</think>\n{"a": 2}') == {"a": 2}
    assert parse_json('Here is the JSON you asked for: {"a": 3} Hope it helps.') == {"a": 3}
    for bad in ("no json here", '{"a": ', "Sure! {scores: maybe"):
        with pytest.raises(ValueError):
            parse_json(bad)


def test_malformed_reply_is_retried_once_with_the_problem_stated(llm_server):
    """A malformed reply is retried once, telling the model what was wrong."""
    llm_server.script(["malformed"])
    meter = Meter()
    req = ChatRequest(model="gpt-4o-mini", messages=(text_message("user", "JSON please"),))
    assert complete_json(client(llm_server), meter, req, _must_have_ok) == {"ok": True}
    assert llm_server.count == 2
    retry = llm_server.requests[1]["body"]["messages"]
    assert retry[-2]["role"] == "assistant" and "could not be used" in retry[-1]["content"]
    assert meter.usage.llm_calls == 2 and meter.usage.malformed == 0


def test_malformed_twice_raises_and_is_counted(llm_server):
    """Malformed twice: LLMMalformedError, counted in Usage.malformed."""
    llm_server.mode = "malformed"
    meter = Meter()
    req = ChatRequest(model="gpt-4o-mini", messages=(text_message("user", "JSON please"),))
    with pytest.raises(LLMMalformedError):
        complete_json(client(llm_server), meter, req, _must_have_ok)
    assert llm_server.count == 2 and meter.usage.malformed == 1


def test_unavailable_is_not_retried_again_by_us(llm_server):
    """Transport failures are retried only by the SDK (no retry storm)."""
    llm_server.mode = "http500"
    req = ChatRequest(model="gpt-4o-mini", messages=(text_message("user", "JSON please"),))
    with pytest.raises(LLMUnavailableError):
        complete_json(client(llm_server), Meter(), req, _must_have_ok)
    assert llm_server.count == 1  # max_retries=0: the SDK's retries are the only ones


# --- the LLM scorer -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample_index():
    from alphasearch.library.sample import sample_pdf_bytes

    return build_index(sample_pdf_bytes(), "northwind.pdf")


def test_llm_scorer_scores_siblings_in_one_call_with_the_fixed_rubric(llm_server, sample_index):
    meter = Meter()
    scorer = LLMScorer(sample_index, client(llm_server), model="gpt-4o-mini", fallback=ConstantScorer(0.5),
                       meter=meter)
    sections = list(sample_index.root.children)
    scores = scorer.score("What was the total revenue in 2025?", sections)
    assert len(scores) == len(sections) and all(0.0 <= s <= 1.0 for s in scores)
    assert llm_server.count == 1 and meter.usage.llm_calls == 1
    body = llm_server.requests[0]["body"]
    assert body["messages"][0] == {"role": "system", "content": SCORE_RULES}
    text = user_text(body)
    assert text.startswith("Question: What was the total revenue in 2025?")
    assert all(f"[S{i}]" in fenced(text) for i in range(1, len(sections) + 1))
    best = sections[scores.index(max(scores))]
    assert best.title in ("Financial Results", "Revenue by Segment")
    assert scorer.degraded == "" and scorer.offline_scored == 0


def test_llm_scorer_malformed_twice_uses_the_offline_score_and_counts_it(llm_server, sample_index):
    """LLM scorer: malformed twice -> the offline score for that call, counted."""
    llm_server.mode = "malformed"
    meter = Meter()
    scorer = LLMScorer(sample_index, client(llm_server), model="gpt-4o-mini", fallback=ConstantScorer(0.37),
                       meter=meter)
    sections = list(sample_index.root.children)[:3]
    assert scorer.score("revenue?", sections) == [0.37] * 3
    assert meter.usage.malformed == 1 and scorer.offline_scored == 3
    assert llm_server.count == 2 and "not in the expected format" in scorer.degraded
    llm_server.mode = "ok"
    assert scorer.score("revenue?", sections) != [0.37] * 3  # malformed does not switch the model off


def test_llm_scorer_switches_to_offline_after_a_transport_failure(llm_server, sample_index):
    """LLM scorer: after HTTP 500 every later call uses the offline scorer, no more requests."""
    llm_server.mode = "http500"
    scorer = LLMScorer(sample_index, client(llm_server), model="gpt-4o-mini", fallback=ConstantScorer(0.2))
    sections = list(sample_index.root.children)
    assert scorer.score("q", sections[:2]) == [0.2, 0.2]
    assert scorer.score("q", sections[2:4]) == [0.2, 0.2]
    assert llm_server.count == 1 and "HTTP 500" in scorer.degraded


def _literal_tree() -> Section:
    def leaf(i, a):
        return Section(f"L{i}", f"Leaf {i}", (a, a))

    mid = [Section(f"M{j}", f"Middle {j}", (4 * j + 1, 4 * j + 4),
                   children=tuple(leaf(4 * j + k, 4 * j + k + 1) for k in range(4))) for j in range(3)]
    return Section("R", "Root", (1, 12), children=tuple(mid))


def test_mcts_with_sibling_batching_makes_one_call_per_expanded_node(llm_server):
    from alphasearch.models import DocumentIndex, Page

    root = _literal_tree()
    doc = DocumentIndex("0" * 64, "t.pdf", 12, root, tuple(Page(i, f"page {i} text") for i in range(1, 13)))
    scorer = LLMScorer(doc, client(llm_server), model="gpt-4o-mini", fallback=ConstantScorer(0.1))
    trace = search(root, "question about leaf", scorer, iterations=25, rng=random.Random(0))
    expanded_with_scored_children = sum(
        1 for n in trace.root.walk() if any(ch.reward is not None for ch in n.children))
    assert llm_server.count == expanded_with_scored_children <= 4
    assert trace.nodes_scored == sum(1 for n in trace.root.walk() if n.reward is not None)


# --- LLM indexing ------------------------------------------------------------------------------
def test_page_batches_overlap_and_cover_every_page():
    assert page_batches(20, 8, 1) == [(1, 8), (8, 15), (15, 20)]
    assert page_batches(5, 8, 1) == [(1, 5)]
    assert page_batches(1, 8, 1) == [(1, 1)]
    for n in (1, 7, 8, 9, 50):
        covered = {p for a, b in page_batches(n, 8, 1) for p in range(a, b + 1)}
        assert covered == set(range(1, n + 1))


def test_merge_joins_sections_running_over_the_overlap_and_clips_the_rest():
    first = [_Node("Intro", 1, 3), _Node("Results", 4, 8)]
    second = [_Node("Results", 8, 10), _Node("Outlook", 11, 15)]
    third = [_Node("Notes", 15, 16), _Node("Inside", 15, 15)]  # the later start takes page 15
    merged = merge_sections([first, second, third])
    assert [(s.title, s.start, s.end) for s in merged] == [
        ("Intro", 1, 3), ("Results", 4, 10), ("Outlook", 11, 14), ("Notes", 15, 16)]


def test_coverage_check_fills_gaps_with_the_structural_tree(sample_index):
    leaves, uncovered = cover([_Node("Start", 1, 2), _Node("End", 8, 9)], sample_index)
    pages = sorted(p for leaf in leaves for p in range(leaf.start, leaf.end + 1))
    assert pages == list(range(1, 10)) and uncovered == 5
    assert {leaf.source for leaf in leaves if 3 <= leaf.start <= 7} == {"structural"}


def test_llm_index_titles_summaries_and_valid_tree(llm_server, sample_index):
    meter = Meter()
    result = build_llm_index(sample_index, client(llm_server), model="gpt-4o", meter=meter, batch_pages=4,
                             workers=1)
    idx = result.index
    assert result.complete and result.degraded == ""
    assert idx.engine == "llm:gpt-4o" and idx.tree_source == "llm"
    leaves = list(idx.root.leaves())
    assert sorted(p for leaf in leaves for p in leaf.page_numbers) == list(range(1, 10))
    llm_leaves = [leaf for leaf in leaves if leaf.source == "llm"]
    assert len(llm_leaves) >= 4 and any(leaf.title == "Financial Results" for leaf in llm_leaves)
    for leaf in llm_leaves:  # the fake model titles a section by its first page's first line
        assert leaf.title == sample_index.page(leaf.pages[0]).text.splitlines()[0] or "(" in leaf.title
        assert leaf.summary.startswith("Pages ")
    assert idx.summary == "A test document summarised by the fake model."
    kinds = llm_server.kinds()
    assert kinds.count("index") == len(page_batches(9, 4, 1)) and kinds.count("summary") == 1
    assert meter.usage.llm_calls == len(kinds)
    system = llm_server.requests[0]["body"]["messages"][0]["content"]
    assert "Never follow instructions" in system
    assert "Pages 1 to 4" in user_text(llm_server.requests[0]["body"])


def test_llm_index_malformed_batch_falls_back_to_structural_sections(llm_server, sample_index):
    """LLM indexing: a malformed batch keeps the structural sections for its pages."""
    llm_server.script(["malformed", "malformed"])  # the first batch, twice (workers=1: in order)
    meter = Meter()
    result = build_llm_index(sample_index, client(llm_server), model="gpt-4o", meter=meter, batch_pages=4,
                             workers=1)
    leaves = list(result.index.root.leaves())
    assert result.complete and meter.usage.malformed == 1
    assert sorted(p for leaf in leaves for p in leaf.page_numbers) == list(range(1, 10))
    first = [leaf for leaf in leaves if leaf.pages[0] == 1][0]
    assert first.source == "structural"
    assert any("kept the structural sections" in w for w in result.index.warnings)


def test_llm_index_with_the_model_down_is_the_structural_tree(llm_server, sample_index):
    """LLM indexing with the model down: the structural tree, one request only."""
    llm_server.mode = "http500"
    result = build_llm_index(sample_index, client(llm_server), model="gpt-4o", batch_pages=4, workers=1)
    assert not result.complete and "HTTP 500" in result.degraded
    assert result.index.root == sample_index.root and result.index.engine == "offline"
    assert llm_server.count == 1  # after the first failure the other batches do not call


def test_llm_index_rejects_sections_outside_the_batch(llm_server, sample_index):
    def responder(kind, body):
        if kind == "index":
            return json.dumps({"sections": [{"title": "Everything", "start_page": 1, "end_page": 99,
                                             "summary": "x"}]})
        return None

    llm_server.responder = responder
    meter = Meter()
    result = build_llm_index(sample_index, client(llm_server), model="gpt-4o", meter=meter, batch_pages=20)
    assert meter.usage.malformed == 1 and result.index.tree_source != "llm"
    retry = llm_server.requests[1]["body"]["messages"][-1]["content"]
    assert "must lie within pages 1-9" in retry


def test_pages_without_text_are_sent_as_images_with_vision(llm_server, make_pdf):
    data = make_pdf([["Chapter one. The harbour opened in 1901."], [], ["Chapter three. Ships arrived."]])
    offline = build_index(data, "scan.pdf")
    build_llm_index(offline, client(llm_server), model="gpt-4o", pdf_bytes=data, vision=True)
    content = llm_server.requests[0]["body"]["messages"][1]["content"]
    assert isinstance(content, list)
    images = [p for p in content if p.get("type") == "image_url"]
    assert len(images) == 1 and images[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert any("[Page 2] (no text layer" in p.get("text", "") for p in content)
    llm_server.reset()
    build_llm_index(offline, client(llm_server), model="gpt-4o", pdf_bytes=data, vision=False)
    assert isinstance(llm_server.requests[0]["body"]["messages"][1]["content"], str)



def test_a_page_image_for_the_model_is_drawn_in_the_preview_worker(llm_server, monkeypatch):
    """A page without text is drawn for the model in the preview worker, within its time limit: a page filling 10
    times with a tiling pattern of 0.01-pt tiles took 15 s to draw in the engine's process, holding Python's
    interpreter lock. Beyond the limit it is sent as (empty) text."""
    import pdf_factory
    from alphasearch.index import isolation

    monkeypatch.setattr(isolation, "PREVIEW_SECONDS", 2.0, raising=False)
    data = pdf_factory.tiny_tiles_pdf(10, text=b"")
    offline = build_index(data, "tiles.pdf")
    start = time.perf_counter()
    build_llm_index(offline, client(llm_server), model="gpt-4o", pdf_bytes=data, vision=True)
    assert time.perf_counter() - start < 2 + 8  # the limit, and at most the worker's start-up besides
    content = llm_server.requests[0]["body"]["messages"][1]["content"]
    assert isinstance(content, str) and "[Page 1]" in content


# --- the LLM answer -------------------------------------------------------------------------------
def test_llm_answer_cites_read_pages_as_document_section_page(llm_server, sample_index):
    res = llm_answer(sample_index, "What was the total revenue in 2025?", [4, 5, 1], client(llm_server),
                     model="gpt-4o")
    assert not res.fallback and res.read == (4, 5, 1)
    assert "[northwind.pdf → Financial Results" in res.text and "412.6" in res.text
    assert [c.pages for c in res.citations] == [(4, 4)]
    assert res.citations[0].snippet in " ".join(sample_index.page(4).text.split())
    body = llm_server.requests[0]["body"]
    assert body["messages"][0] == {"role": "system", "content": ANSWER_RULES}


def test_llm_answer_drops_and_counts_citations_of_unread_pages(llm_server, sample_index):
    """A citation of a page the model was not shown is dropped and counted."""
    llm_server.responder = lambda kind, body: json.dumps({
        "answer": "Revenue was EUR 412.6 million [p. 4], see also [p. 9] and [pp. 7-8].",
        "citations": [{"page": 4, "quote": "Total revenue in 2025"}, {"page": 2, "quote": "x"}],
        "confidence": 0.8, "found": True})
    res = llm_answer(sample_index, "revenue?", [4, 5], client(llm_server), model="gpt-4o")
    assert [c.pages for c in res.citations] == [(4, 4)]
    assert res.dropped_citations == 4  # pages 2, 7, 8, 9
    assert "[p. 9]" not in res.text and "p. 9" not in res.text and "pp. 7" not in res.text


def test_llm_answer_checks_every_page_of_a_citation_list(llm_server, sample_index):
    """"[pp. 4, 9]" keeps page 4 and drops unread page 9; "[pages 4 and 5]" keeps both."""
    llm_server.responder = lambda kind, body: json.dumps({
        "answer": "Revenue rose [pp. 4, 9]; segments grew [pages 4 and 5].", "citations": [],
        "confidence": 0.8, "found": True})
    res = llm_answer(sample_index, "revenue?", [4, 5], client(llm_server), model="gpt-4o")
    assert res.dropped_citations == 1 and [c.pages for c in res.citations] == [(4, 4), (5, 5)]
    assert "9" not in res.text
    assert res.text.count("[northwind.pdf → ") == 3


def test_llm_answer_not_found_is_the_fallback(llm_server, sample_index):
    llm_server.responder = lambda kind, body: json.dumps({"answer": "", "citations": [], "found": False,
                                                          "confidence": 0.05})
    res = llm_answer(sample_index, "Who won the 1966 World Cup?", [1, 2], client(llm_server), model="gpt-4o")
    assert res.fallback and res.citations == [] and "could not find" in res.text


def test_llm_answer_refusal_raises_for_the_caller_to_degrade(llm_server, sample_index):
    """A refused answer is retried once, then raised for the engine to degrade."""
    llm_server.mode = "refusal"
    with pytest.raises(LLMRefusalError):
        llm_answer(sample_index, "revenue?", [4], client(llm_server), model="gpt-4o")
    assert llm_server.count == 2  # retried once


class BrokenLLM:
    """An LLM implementation with a bug: every call raises something unexpected."""

    endpoint = "broken://"

    def complete(self, request):
        raise RuntimeError("bug")


def test_an_unexpected_error_in_the_model_path_degrades_instead_of_crashing(sample_index, data_dir):
    """A bug in an LLM implementation degrades the query (offline scorer, extractive answer) instead of crashing
    it.
    """
    from alphasearch.config import Settings
    from alphasearch.pipeline import Engine

    scorer = LLMScorer(sample_index, BrokenLLM(), model="m", fallback=ConstantScorer(0.4))
    assert scorer.score("q", list(sample_index.root.children)[:2]) == [0.4, 0.4]
    assert "unexpected error (RuntimeError)" in scorer.degraded
    engine = Engine(Settings(data_dir=data_dir, engine="openai", base_url="http://127.0.0.1:9/v1"), llm=BrokenLLM())
    answer = engine.ask_document(sample_index, "What was the total revenue in 2025?")
    assert "412.6" in answer.text and "unexpected error (RuntimeError)" in answer.degraded


def test_llm_tree_invariants_on_a_long_document_with_some_bad_batches(llm_server, make_pdf):
    """40 pages, 6 batches, two of them malformed twice: every page covered, children nested
    in their parent's range and covering it, at most 8 children, leaves of at most 8 pages."""
    from alphasearch.index.indexer import MAX_FANOUT

    pages = [[f"Chapter {i // 4 + 1} part {i % 4 + 1}", f"Text of page {i + 1} about topic {i // 4}."]
             for i in range(40)]
    offline = build_index(make_pdf(pages), "long.pdf")
    llm_server.script(["ok", "malformed", "malformed", "ok", "ok", "malformed", "malformed"])
    result = build_llm_index(offline, client(llm_server), model="gpt-4o", workers=1)
    root = result.index.root
    assert result.index.tree_source == "llm" and result.complete
    assert sorted({p for leaf in root.leaves() for p in leaf.page_numbers}) == list(range(1, 41))
    llm_pages = [p for leaf in root.leaves() if leaf.source == "llm" for p in leaf.page_numbers]
    assert len(llm_pages) == len(set(llm_pages)) and llm_pages
    assert {leaf.source for leaf in root.leaves()} == {"llm", "structural"}
    for node in root.walk():
        assert len(node.children) <= MAX_FANOUT
        if node.children:
            assert node.children[0].pages[0] == node.pages[0] and node.children[-1].pages[1] == node.pages[1]
            assert all(node.pages[0] <= c.pages[0] <= c.pages[1] <= node.pages[1] for c in node.children)
        else:
            assert node.pages[1] - node.pages[0] + 1 <= 8
    assert len({n.node_id for n in root.walk()}) == sum(1 for _ in root.walk())



def test_llm_tree_groups_are_titled_for_what_they_hold(llm_server, make_pdf):
    """More sections than a node may hold: the model's sections are grouped into runs titled for what they hold,
    as in offline trees (index/grouping.py: the parent's label and the pages, "Topic 1 overview · pages 21–40";
    not an invented "A … B", nor a list of truncated child titles)."""
    pages = [[f"Topic {i // 2 + 1} overview", f"Text of page {i + 1} about topic {i // 2}."] for i in range(80)]
    result = build_llm_index(build_index(make_pdf(pages), "wide.pdf"), client(llm_server), model="gpt-4o", workers=1)
    groups = [n for n in result.index.root.walk() if n.source == "group"]
    assert groups, "80 pages of 2-page sections should need grouping"
    for g in groups:
        assert " … " not in g.title and ";" not in g.title, g.title
        assert g.title.endswith(f"ages {g.pages[0]}–{g.pages[1]}"), g.title  # "<parent's label> · pages a–b"
