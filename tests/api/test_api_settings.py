"""The API with settings a test picks (uvicorn in a thread over its own engine): a client that goes away
mid-stream stops the search (counted at a local model server: no further judge calls); the operator's
model key never reaches an endpoint a request names (and the model's draft streams as events); the per-token rate limit; questions answered while
a folder add runs as a job."""
from __future__ import annotations

import time

import httpx
import pytest

from api_helpers import AUTH, TOKEN, api_thread, assert_error, events, wait_job
from folder_helpers import topic_pdfs
from llm_server import FakeLLMServer
from alphasearch.api.access import WINDOW, RateLimiter
from alphasearch.config import Settings
from alphasearch.library.sample import SAMPLE_NAME, sample_pdf_bytes

SAMPLE = sample_pdf_bytes()
OPERATOR_KEY = "operator-key-9c8b7a6d5e4f"
QUESTION = "What was the total revenue in 2025?"
PAUSE = 0.6  # seconds each model call takes in the disconnect test
UNANSWERED = "Which xylophone suppliers does the company name?"  # no section scores well: the search reads on


def model_settings(model: FakeLLMServer, data_dir, **more) -> Settings:
    return Settings.from_env({"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": model.url, "ALPHASEARCH_ENGINE": "openai",
                              "ALPHASEARCH_MAX_RETRIES": "0", "ALPHASEARCH_GAP_ROUNDS": "0",
                              "ALPHASEARCH_DATA_DIR": str(data_dir)}, api_token=TOKEN, **more)


def upload(client: httpx.Client, data: bytes = SAMPLE, name: str = SAMPLE_NAME) -> str:
    r = client.post("/v1/documents", files={"file": (name, data, "application/pdf")})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def judge_calls(model: FakeLLMServer) -> int:
    return model.kinds().count("score")


@pytest.fixture
def model():
    m = FakeLLMServer(slow_seconds=PAUSE).start()
    try:
        yield m
    finally:
        m.stop()


def test_a_client_that_goes_away_mid_stream_stops_the_search(model, tmp_path):
    body = {"question": UNANSWERED, "iterations": 40}
    with api_thread(model_settings(model, tmp_path / "full")) as url, \
            httpx.Client(base_url=url, headers=AUTH, timeout=120) as client:
        doc = upload(client)
        before = judge_calls(model)
        with client.stream("POST", f"/v1/documents/{doc}/query", json=body,
                           headers={"Accept": "text/event-stream"}) as r:
            full = list(events(r))
        whole_search = judge_calls(model) - before  # what the search asks of the model when it runs to the end
    assert full[-1][0] == "answer" and whole_search >= 4

    model.reset()
    with api_thread(model_settings(model, tmp_path / "left")) as url, \
            httpx.Client(base_url=url, headers=AUTH, timeout=120) as client:
        doc = upload(client)  # a new data directory: nothing cached, every judgement asks the model
        model.mode = "slow"
        before = judge_calls(model)
        with client.stream("POST", f"/v1/documents/{doc}/query", json=body,
                           headers={"Accept": "text/event-stream"}) as r:
            first = next(events(r))
        at_leaving = judge_calls(model)  # the client has gone: the response is closed
        time.sleep(PAUSE * 5)
        after = judge_calls(model)
        assert first[0] == "progress"
        assert after - at_leaving <= 1  # at most the call in flight when the client left
        assert after - before < whole_search  # the search did not run on to its end
        assert "answer" not in model.kinds()  # and no answer was written
        assert client.get("/v1/health").status_code == 200


def test_the_operator_key_never_reaches_an_endpoint_a_request_names(tmp_path):
    operator, other = FakeLLMServer().start(), FakeLLMServer().start()
    try:
        with api_thread(model_settings(operator, tmp_path)) as url, \
                httpx.Client(base_url=url, headers=AUTH, timeout=120) as client:
            doc = upload(client)
            query = f"/v1/documents/{doc}/query"
            for field in ("base_url", "endpoint", "api_key", "settings"):
                value = {"base_url": other.url} if field == "settings" else other.url
                assert_error(client.post(query, json={"question": QUESTION, field: value}), 422,
                             "not a field this request takes")
                assert_error(client.post("/v1/ask", json={"question": QUESTION, field: value}), 422)
            answer = client.post(query, json={"question": QUESTION},
                                 headers={"OpenAI-Base-URL": other.url, "X-Base-URL": other.url}).json()
            assert "412.6" in answer["answer"]
            with client.stream("POST", query, json={"question": "What was the total revenue in 2025, in euros?"},
                               headers={"Accept": "text/event-stream"}) as r:
                streamed = list(events(r))
        names = [n for n, _ in streamed]  # the model's draft streams in between the search and the answer
        assert names[0] == "progress" and "draft" in names and names[-1] == "answer"
        assert names.index("draft") > max(i for i, n in enumerate(names) if n == "progress")
        assert "412.6" in "".join(d["text"] for n, d in streamed if n == "draft")
        assert other.count == 0
        assert operator.count > 0
        assert {r["headers"].get("authorization") for r in operator.requests} == {f"Bearer {OPERATOR_KEY}"}
    finally:
        operator.stop()
        other.stop()


def test_the_rate_limit_is_per_token_and_says_when_to_come_back(tmp_path):
    settings = Settings(data_dir=tmp_path, engine="offline", api_token=TOKEN, api_rate_limit=5)
    with api_thread(settings) as url, httpx.Client(base_url=url, headers=AUTH, timeout=30) as client:
        assert [client.get("/v1/folders").status_code for _ in range(5)] == [200] * 5
        r = client.get("/v1/folders")
        assert_error(r, 429, "the limit is 5 a minute")
        assert 1 <= int(r.headers["Retry-After"]) <= WINDOW
        assert client.get("/v1/health").status_code == 200  # health is not counted
    limiter = RateLimiter(2)
    assert [limiter.retry_after("a", now=t) for t in (0, 1, 2)] == [0, 0, 58]
    assert limiter.retry_after("b", now=2) == 0  # another token has its own allowance
    assert limiter.retry_after("a", now=60.5) == 0  # the window moved on


def test_questions_are_answered_while_a_folder_add_runs(tmp_path, big_pdf_200):
    settings = Settings(data_dir=tmp_path, engine="offline", api_token=TOKEN, api_jobs=1)
    with api_thread(settings) as url, httpx.Client(base_url=url, headers=AUTH, timeout=120) as client:
        doc = upload(client)
        client.post("/v1/folders", json={"name": "Big"})
        files = [("file", (f"big-{i}.pdf", big_pdf_200 + b"\n%" + str(i).encode(), "application/pdf"))
                 for i in range(3)]
        job = client.post("/v1/folders/Big/documents", files=files).json()["job"]
        started = time.monotonic()
        answer = client.post(f"/v1/documents/{doc}/query", json={"question": QUESTION})
        answered_in = time.monotonic() - started
        status = client.get(f"/v1/jobs/{job}").json()
        assert answer.status_code == 200 and "412.6" in answer.json()["answer"]
        assert status["status"] in ("queued", "running"), status  # the add was still going on
        done = wait_job(client, job, timeout=300)
        assert done["status"] == "done" and [r["status"] for r in done["result"]] == ["indexed"] * 3
        assert answered_in < done["finished"] - done["created"]
        second = client.post("/v1/folders/Big/documents", files=files[:1]).json()["job"]
        assert wait_job(client, second)["result"][0]["status"] == "unchanged"
    assert topic_pdfs()  # (the folder helpers import cleanly here too)
