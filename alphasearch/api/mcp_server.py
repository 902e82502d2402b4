"""``python -m alphasearch mcp``: the library as MCP tools over stdio (the ``mcp`` SDK's MCPServer), so an
AI assistant can list folders and documents, ask a folder or one document, and read a cited page.
Answers carry page citations; an engine error comes back as the tool's one-line error."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from ..config import Settings
from ..errors import AlphaSearchError, NotFoundError
from ..folder.search import answer_json
from ..pipeline import Engine

ANSWER_KEYS = ("answer", "direct_answer", "confidence", "fallback", "citations", "folder", "folder_confidence",
               "documents", "degraded")
PAGE_CHARS = 20_000  # a page's text sent back at most
T = TypeVar("T")


def brief(obj: dict[str, Any]) -> dict[str, Any]:
    """The parts of an answer object an assistant quotes: the answer, its confidence and citations."""
    return {k: obj[k] for k in ANSWER_KEYS if k in obj}


def _tool_errors(fn: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except AlphaSearchError as exc:
            raise ToolError(str(exc)) from exc

    return wrapped


def build(engine: Engine) -> MCPServer:
    """The MCP server over ``engine``'s library."""
    server = MCPServer("AlphaSearch", instructions=(
        "Answers questions from the user's library of PDFs with page citations. list_folders and list_documents "
        "show what is there; ask_folder routes a question to the right folder and documents; ask_document asks "
        "one document; read_page returns a cited page's text. Quote the citations (document, page)."))
    lib = lambda: engine.library  # noqa: E731  (created on first use)

    @server.tool()
    @_tool_errors
    def list_folders() -> list[dict[str, Any]]:
        """The library's folders: name, number of documents and pages."""
        return [{"name": f.name, "documents": f.documents, "pages": f.pages} for f in lib().folders()]

    @server.tool()
    @_tool_errors
    def list_documents(folder: str) -> list[dict[str, Any]]:
        """A folder's documents: name, pages and what their first pages say they are."""
        facts = lib().facts(folder)
        return [{"name": d.name, "pages": d.pages, "about": facts[d.record_id].label() if d.record_id in facts else ""}
                for d in lib().documents(folder)]

    @server.tool()
    @_tool_errors
    def ask_folder(question: str, folder: str | None = None, conversation: str | None = None) -> dict[str, Any]:
        """Ask the library; the question is routed to a folder unless one is named. ``conversation``: an id that
        keeps the chat, so a follow-up stays in the same folder. Returns the answer and its page citations."""
        return brief(answer_json(engine.ask_folder(question, folder=folder, conversation=conversation), trace=False))

    @server.tool()
    @_tool_errors
    def ask_document(folder: str, document: str, question: str) -> dict[str, Any]:
        """Ask one document of a folder (its name as list_documents shows it). Returns the answer and citations."""
        doc = lib().load_index(lib().document(folder, document))
        return brief(answer_json(engine.ask_document(doc, question), trace=False))

    @server.tool()
    @_tool_errors
    def read_page(folder: str, document: str, page: int) -> dict[str, Any]:
        """The text of one page (1-based) of a document, e.g. a page an answer cited."""
        doc = lib().load_index(lib().document(folder, document))
        if not 1 <= page <= doc.page_count:
            raise NotFoundError(f"{doc.name} has pages 1 to {doc.page_count}; there is no page {page}.")
        return {"document": doc.name, "page": page, "text": doc.page(page).text[:PAGE_CHARS]}

    return server


def run(settings: Settings) -> None:
    build(Engine(settings)).run("stdio")
