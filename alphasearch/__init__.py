"""AlphaSearch: ask questions of PDFs by Monte Carlo Tree Search over their section trees.

The names below are imported on first use (PEP 562), so a process that needs one module (the PDF
worker imports only the indexer) does not import the engine, its scorers and their libraries."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOME = {"Settings": "config", "AlphaSearchError": "errors", "Engine": "pipeline",
         **dict.fromkeys(("Answer", "Citation", "DocumentIndex", "SearchNode", "SearchStep", "SearchTrace", "Section"),
                         "models")}

__all__ = ["Settings", "Engine", "AlphaSearchError", "Answer", "Citation", "DocumentIndex", "SearchNode",
           "SearchStep", "SearchTrace", "Section"]

if TYPE_CHECKING:
    from .config import Settings
    from .errors import AlphaSearchError
    from .models import Answer, Citation, DocumentIndex, SearchNode, SearchStep, SearchTrace, Section
    from .pipeline import Engine


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value
