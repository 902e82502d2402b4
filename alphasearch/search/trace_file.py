"""A search trace read back from a JSON file (the tree visualizer's upload, the CLI's ``--trace`` output),
bounded before it is replayed: its bytes, iterations and nodes (``Settings.max_trace_*``)."""
from __future__ import annotations

import json
from typing import Any

from ..errors import TraceFileError
from ..models import SearchTrace


def read_trace(data: bytes, name: str, settings: Any) -> tuple[str, SearchTrace]:
    """(question, trace) of a trace file's bytes, or :class:`TraceFileError` in one sentence: larger than
    ``settings.max_trace_mb``, more than ``max_trace_steps`` iterations or ``max_trace_nodes`` nodes, or not a
    trace at all."""
    if len(data) > settings.max_trace_mb * 2**20:
        raise TraceFileError(f"{name} is {len(data) / 2**20:.1f} MB; a trace may be at most "
                             f"{settings.max_trace_mb:g} MB.")
    try:
        raw = json.loads(data.decode("utf-8"))
        body = raw["trace"] if isinstance(raw, dict) and "trace" in raw else raw
        steps, nodes = len(body["steps"]), len(body["nodes"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError, RecursionError):
        raise TraceFileError(f"{name} is not a search trace saved by AlphaSearch.") from None
    if steps > settings.max_trace_steps or nodes > settings.max_trace_nodes:
        raise TraceFileError(f"{name} holds {steps:,} iterations and {nodes:,} nodes; a trace may hold at most "
                             f"{settings.max_trace_steps:,} iterations and {settings.max_trace_nodes:,} nodes.")
    try:
        trace = SearchTrace.from_dict(body)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise TraceFileError(f"{name} is not a search trace saved by AlphaSearch.") from None
    question = str(raw.get("question") or name) if isinstance(raw, dict) else name
    return question, trace

