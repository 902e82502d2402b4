"""The disk cache around the LLM: keys, hits, what is (not) stored, stats/clear, the CLI."""
from __future__ import annotations

import json
import threading

import pytest

from alphasearch.cli.main import main
from alphasearch.llm.cache import CachedLLM, LLMCache, request_key
from alphasearch.errors import LLMUnavailableError
from alphasearch.llm.client import ChatRequest, OpenAIChat, image_part, text_message
from llm_server import llm_server  # noqa: F401  (fixture)

KEY = "sk-test-cache-9f8e7d6c5b4a"


def req(text: str = "JSON please", model: str = "gpt-4o-mini", **kw) -> ChatRequest:
    return ChatRequest(model=model, messages=(text_message("user", text),), **kw)


def cached(server, data_dir, key: str = KEY) -> CachedLLM:
    inner = OpenAIChat(api_key=key, base_url=server.url, timeout=2, max_retries=0)
    return CachedLLM(inner, LLMCache.for_data_dir(data_dir))


def test_key_covers_model_messages_params_and_image_bytes():
    base = request_key(req())
    assert base == request_key(req())
    assert base != request_key(req(model="gpt-4o"))
    assert base != request_key(req("other text"))
    assert base != request_key(req(max_tokens=5))
    assert base != request_key(req(temperature=0.5))
    assert base != request_key(req(), endpoint="http://other/v1")
    img1 = ChatRequest("m", ({"role": "user", "content": [image_part(b"\x89PNG one")]},))
    img2 = ChatRequest("m", ({"role": "user", "content": [image_part(b"\x89PNG two")]},))
    assert request_key(img1) != request_key(img2)


def test_second_identical_call_makes_no_request_and_is_a_hit(llm_server, data_dir):
    llm = cached(llm_server, data_dir)
    first = llm.complete(req())
    second = llm.complete(req())
    assert llm_server.count == 1
    assert not first.cached and second.cached
    assert second.text == first.text and second.prompt_tokens == first.prompt_tokens
    # a new process (new objects) on the same data dir hits too
    assert cached(llm_server, data_dir).complete(req()).cached and llm_server.count == 1


def test_the_api_key_is_not_part_of_the_key_nor_stored(llm_server, data_dir):
    """The API key is neither part of a cache key nor anywhere in the data directory."""
    cached(llm_server, data_dir, key=KEY).complete(req())
    hit = cached(llm_server, data_dir, key="sk-a-different-key-000").complete(req())
    assert hit.cached and llm_server.count == 1
    for path in data_dir.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


def test_failures_are_not_cached(llm_server, data_dir):
    """Failed calls are not cached: the next call asks again."""
    llm = cached(llm_server, data_dir)
    llm_server.mode = "http500"
    with pytest.raises(LLMUnavailableError):
        llm.complete(req())
    llm_server.mode = "ok"
    assert not llm.complete(req()).cached
    assert llm_server.count == 2


def test_threads_share_the_cache(llm_server, data_dir):
    """Four threads share one cache: all hits, one request."""
    llm = cached(llm_server, data_dir)
    llm.complete(req("warm"))
    results = []

    def worker():
        for _ in range(5):
            results.append(llm.complete(req("warm")).cached)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 20 and llm_server.count == 1


def test_stats_and_clear(llm_server, data_dir):
    llm = cached(llm_server, data_dir)
    llm.complete(req("a"))
    llm.complete(req("b"))
    stats = llm.cache.stats()
    assert stats["entries"] == 2 and stats["bytes"] > 0 and stats["directory"].startswith(str(data_dir))
    assert llm.cache.clear() == 2 and llm.cache.stats()["entries"] == 0
    assert not llm.complete(req("a")).cached


def test_cli_cache_stats_and_clear(llm_server, data_dir, capsys):
    cached(llm_server, data_dir).complete(req())
    assert main(["--data-dir", str(data_dir), "cache", "stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["entries"] == 1
    assert main(["--data-dir", str(data_dir), "cache", "clear"]) == 0
    assert "Removed 1 cached model reply" in capsys.readouterr().out
    assert main(["--data-dir", str(data_dir), "cache", "stats"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == 0
