"""Library methods for saved folder searches (the tree visualizer's latest trace per folder)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .files import atomic_write_json
from .names import check_folder_id


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
