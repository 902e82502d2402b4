"""docs/api.md lists every path and method of the server's OpenAPI schema (written beside it, kept in step)."""
from __future__ import annotations

from pathlib import Path

from alphasearch.api.app import create_app
from alphasearch.pipeline import Engine

DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text("utf-8")


def test_docs_api_lists_every_path_of_the_schema(settings):
    schema = create_app(Engine(settings)).openapi()
    routes = [f"{method.upper()} {path}" for path, ops in schema["paths"].items() for method in ops]
    assert len(routes) >= 20
    missing = [r for r in routes if f"`{r}`" not in DOC]
    assert not missing, missing
