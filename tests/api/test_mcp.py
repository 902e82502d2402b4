"""``python -m alphasearch mcp`` driven over stdio by the ``mcp`` SDK's own client: the tools it lists, a
question to a folder with its page citations, one document asked, a cited page read, and an unknown
folder answered with the tool's one-line error."""
from __future__ import annotations

import json
import os
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from app_helpers import ROOT
from folder_helpers import build_library
from alphasearch.config import Settings
from alphasearch.pipeline import Engine

TOOLS = {"list_folders", "list_documents", "ask_folder", "ask_document", "read_page"}


def payload(result) -> object:
    """A tool's JSON result (its structured content, else its text)."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if set(content) == {"result"} else content
    return json.loads(result.content[0].text)


async def session_calls(data_dir) -> dict:
    env = {**os.environ, "ALPHASEARCH_DATA_DIR": str(data_dir), "ALPHASEARCH_ENGINE": "offline",
           "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    params = StdioServerParameters(command=sys.executable, args=["-m", "alphasearch", "mcp"], env=env, cwd=str(ROOT))
    out = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = {t.name: t for t in (await session.list_tools()).tools}
        out["folders"] = payload(await session.call_tool("list_folders", {}))
        out["documents"] = payload(await session.call_tool("list_documents", {"folder": "Astronomy"}))
        out["ask"] = payload(await session.call_tool("ask_folder", {
            "question": "How wide is the mirror in the Kestrel Observatory dome?"}))
        cite = out["ask"]["citations"][0]
        out["page"] = payload(await session.call_tool("read_page", {
            "folder": out["ask"]["folder"], "document": cite["doc"], "page": cite["pages"][0]}))
        out["one"] = payload(await session.call_tool("ask_document", {
            "folder": "Kitchen", "document": "soups-and-stews.pdf", "question": "How long does the chicken stock simmer?"}))
        out["unknown"] = await session.call_tool("list_documents", {"folder": "Nowhere"})
    return out


@pytest.mark.timeout(300)
def test_an_assistant_lists_the_tools_asks_a_folder_and_reads_the_cited_page(data_dir):
    build_library(Engine(Settings(data_dir=data_dir, engine="offline")).library, ("Astronomy", "Kitchen"))
    out = anyio.run(session_calls, data_dir)
    assert set(out["tools"]) == TOOLS
    assert "question" in out["tools"]["ask_folder"].input_schema["properties"]
    assert sorted(f["name"] for f in out["folders"]) == ["Astronomy", "Kitchen"]
    assert sorted(d["name"] for d in out["documents"]) == ["planets.pdf", "telescopes.pdf"]

    ask = out["ask"]
    assert ask["folder"] == "Astronomy" and "61 centimetres" in ask["answer"] and not ask["fallback"]
    cite = ask["citations"][0]
    assert cite["doc"] == "telescopes.pdf" and cite["pages"][0] >= 1 and cite["snippet"]
    assert out["page"]["document"] == "telescopes.pdf" and "Kestrel Observatory" in out["page"]["text"]
    assert "four hours" in out["one"]["answer"] and out["one"]["citations"][0]["doc"] == "soups-and-stews.pdf"

    unknown = out["unknown"]
    assert unknown.is_error and "Nowhere" in unknown.content[0].text and "Traceback" not in unknown.content[0].text
