"""Library methods for saved searches: the tree visualizer's latest trace per folder, and the latest
single-document searches (``traces/documents/<sha256>.json``, one per document, the newest ``KEEP_DOCUMENT_TRACES``
kept), so a reload or a restart reopens them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .files import atomic_write_json
from .names import check_folder_id

KEEP_DOCUMENT_TRACES = 30


class TraceMethods:
    """Saved folder searches (part of :class:`~alphasearch.library.Library`)."""

    def save_trace(self, folder_id: str, data: dict[str, Any]) -> Path:
        """Store the latest folder search (JSON-ready dict) for the tree visualizer."""
        check_folder_id(folder_id)
        p = self.trace_dir / f"{folder_id}.json"
        atomic_write_json(p, data)
        atomic_write_json(self.trace_dir / "latest.json", {"folder_id": folder_id, **data})
        return p

    def load_trace(self, folder: str | None = None) -> dict[str, Any] | None:
        """The latest saved folder search of ``folder`` (or of any folder), or None."""
        p = self.trace_dir / ("latest.json" if folder is None else f"{self.folder(folder).folder_id}.json")
        try:
            return json.loads(p.read_text("utf-8"))
        except (OSError, ValueError):
            return None

    def save_document_trace(self, doc_id: str, data: dict[str, Any]) -> Path:
        """Store a document's latest search (JSON-ready dict: question, doc, trace); the oldest beyond
        ``KEEP_DOCUMENT_TRACES`` go."""
        if not doc_id.isalnum():
            raise ValueError(f"not a document id: {doc_id!r}")
        folder = self.trace_dir / "documents"
        folder.mkdir(parents=True, exist_ok=True)
        p = folder / f"{doc_id}.json"
        atomic_write_json(p, data)
        for old in sorted(folder.glob("*.json"), key=lambda q: q.stat().st_mtime)[:-KEEP_DOCUMENT_TRACES]:
            old.unlink(missing_ok=True)
        return p

    def document_traces(self) -> list[tuple[float, dict[str, Any]]]:
        """The saved single-document searches as (time saved, data), newest first; unreadable ones skipped."""
        out = []
        for p in (self.trace_dir / "documents").glob("*.json"):
            try:
                out.append((p.stat().st_mtime, json.loads(p.read_text("utf-8"))))
            except (OSError, ValueError):
                continue
        return sorted(out, key=lambda x: -x[0])

    def _drop_trace(self, folder_id: str) -> None:
        for p in (self.trace_dir / f"{folder_id}.json",):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
        latest = self.trace_dir / "latest.json"
        try:
            if json.loads(latest.read_text("utf-8")).get("folder_id") == folder_id:
                latest.unlink()
        except (OSError, ValueError, AttributeError):
            pass
