"""Keys stay with their endpoint (issue 14, item 1): the operator's key from the environment
is only ever sent to the operator's endpoint, and ALPHASEARCH_ALLOWED_ENDPOINTS pins the
endpoints the engine may talk to. Through the real ``openai`` client against two local
OpenAI-compatible servers, and through the real command line. The same attack in a real
browser is in ``tests/test_browser_keys.py``."""
from __future__ import annotations

import pytest

from alphasearch.config import Settings, normalize_endpoint, shown_url
from alphasearch.errors import ConfigError
from alphasearch.pipeline import Engine
from alphasearch.library.sample import sample_pdf_bytes
from cli_helpers import assert_clean_failure, run_cli
from llm_server import FakeLLMServer

OPERATOR_KEY = "operator-key-9c8b7a6d5e4f"
VISITOR_KEY = "visitor-key-1a2b3c4d5e6f"
QUESTION = "What was the total revenue in 2025?"


@pytest.fixture
def servers():
    a, b = FakeLLMServer().start(), FakeLLMServer().start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def keys_seen(server: FakeLLMServer) -> set[str]:
    return {r["headers"].get("authorization", "") for r in server.requests}


def operator_settings(a: FakeLLMServer, data_dir, **env: str) -> Settings:
    return Settings.from_env({"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": a.url,
                              "ALPHASEARCH_DATA_DIR": str(data_dir), "ALPHASEARCH_MAX_RETRIES": "0", **env})


def test_the_operator_key_is_never_sent_to_another_endpoint(servers, data_dir):
    a, b = servers
    operator = operator_settings(a, data_dir)
    with pytest.raises(ConfigError, match="give your own API key"):
        operator.replace(base_url=b.url)  # what the Settings screen asks for when a visitor types endpoint B
    with pytest.raises(ConfigError, match="give your own API key"):
        Settings.from_env({"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": a.url}, base_url=b.url)
    with pytest.raises(ConfigError, match="give your own API key"):  # the SDK's default is another endpoint too
        operator.replace(base_url="")

    visitor = operator.replace(base_url=b.url, api_key=VISITOR_KEY)
    engine = Engine(visitor)
    answer = engine.ask_document(engine.index_bytes(sample_pdf_bytes(), "northwind.pdf"), QUESTION)
    assert "412.6" in answer.text and not answer.degraded
    assert b.count > 0 and keys_seen(b) == {f"Bearer {VISITOR_KEY}"}
    assert a.count == 0
    assert not any(OPERATOR_KEY.encode() in r["raw"] for r in b.requests)

    engine = Engine(operator)  # the operator's own endpoint still gets the operator's key
    engine.ask_document(engine.index_bytes(sample_pdf_bytes(), "northwind.pdf"), QUESTION)
    assert a.count > 0 and keys_seen(a) == {f"Bearer {OPERATOR_KEY}"}


def test_the_offline_engine_may_keep_any_endpoint(servers, data_dir):
    a, b = servers
    s = operator_settings(a, data_dir).replace(engine="offline", base_url=b.url)
    assert s.resolved_engine == "offline"  # nothing is sent anywhere, so nothing to refuse
    with pytest.raises(ConfigError, match="give your own API key"):
        s.replace(engine="openai")


def test_allowed_endpoints_refuse_every_other_endpoint(servers, data_dir):
    a, b = servers
    pinned = operator_settings(a, data_dir, ALPHASEARCH_ALLOWED_ENDPOINTS=f"{a.url}/ , https://example.invalid/v1")
    assert pinned.allowed_endpoints == (f"{a.url}/", "https://example.invalid/v1")
    with pytest.raises(ConfigError, match="is not allowed on this server") as err:
        pinned.replace(base_url=b.url, api_key=VISITOR_KEY)
    assert "\n" not in str(err.value) and VISITOR_KEY not in str(err.value)
    with pytest.raises(ConfigError, match="cannot be changed here"):
        pinned.replace(allowed_endpoints=())
    with pytest.raises(ConfigError, match="cannot be changed here"):
        pinned.replace(key_endpoint=b.url)
    assert b.count == 0


def test_endpoints_compare_in_one_spelling():
    assert normalize_endpoint("") == normalize_endpoint("https://API.openai.com/v1/") == "https://api.openai.com/v1"
    assert normalize_endpoint("http://127.0.0.1:8/v1") != normalize_endpoint("http://127.0.0.1:9/v1")


def test_the_cli_refuses_an_endpoint_that_is_not_allowed(servers, data_dir, tmp_path):
    a, b = servers
    pdf = tmp_path / "northwind.pdf"
    pdf.write_bytes(sample_pdf_bytes())
    proc = run_cli("query", str(pdf), QUESTION, data_dir=data_dir,
                   env={"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": b.url,
                        "ALPHASEARCH_ALLOWED_ENDPOINTS": a.url})
    line = assert_clean_failure(proc, "is not allowed on this server")
    assert OPERATOR_KEY not in line
    assert a.count == 0 and b.count == 0


@pytest.mark.parametrize("url, shown", [
    ("http://user:password@host:8/v1", "http://host:8/v1"),
    ("https://HOST/v1?api_key=k1&model=m&X-Token=t2&sig=s3&password=p4#frag", "https://host/v1?model=m"),
    ("https://[::1]:8080/v1?access_token=a", "https://[::1]:8080/v1"),
    ("", ""),
])
def test_urls_are_shown_without_credentials(url, shown):
    assert shown_url(url) == shown


def test_no_message_or_repr_shows_the_endpoints_credentials(data_dir):
    env = {"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": "http://u1:p1@127.0.0.1:9/v1?key=k1",
           "ALPHASEARCH_ALLOWED_ENDPOINTS": "http://u1:p1@127.0.0.1:9/v1?key=k1,https://u2:p2@b.invalid/v1",
           "ALPHASEARCH_DATA_DIR": str(data_dir)}
    settings = Settings.from_env(env)
    with pytest.raises(ConfigError) as err:
        settings.replace(base_url="https://u3:p3@c.invalid/v1?token=k3", api_key=VISITOR_KEY)
    from alphasearch.llm.client import OpenAIChat

    printed = str(err.value) + repr(settings) + repr(OpenAIChat.from_settings(settings))
    assert "127.0.0.1:9/v1" in printed and "b.invalid/v1" in printed
    assert not any(s in printed for s in ("u1", "p1", "k1", "u2", "p2", "u3", "p3", "k3", OPERATOR_KEY))


def test_the_cli_shows_no_credentials_of_the_endpoint(servers, data_dir, tmp_path):
    a, b = servers
    pdf = tmp_path / "northwind.pdf"
    pdf.write_bytes(sample_pdf_bytes())
    secret_url = b.url.replace("http://", "http://carol:s3cret@") + "?api_key=qk-1"
    proc = run_cli("query", str(pdf), QUESTION, data_dir=data_dir,
                   env={"OPENAI_API_KEY": OPERATOR_KEY, "OPENAI_BASE_URL": secret_url,
                        "ALPHASEARCH_ALLOWED_ENDPOINTS": a.url.replace("http://", "http://dave:pw2@")})
    line = assert_clean_failure(proc, "is not allowed on this server")
    assert not any(s in proc.stdout + proc.stderr for s in ("carol", "s3cret", "qk-1", "dave", "pw2"))
    assert a.count == 0 and b.count == 0
