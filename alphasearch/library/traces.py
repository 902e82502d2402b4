"""Library methods for saved searches, each visible only to the visitor who asked it.

``traces/<folder_id>.json`` is the latest search of a folder asked without an owner (the command line);
``traces/<folder_id>-<owner hash>.json`` one visitor's, listed only for that visitor. A search that finishes
after its folder was deleted leaves no file. Single-document searches live in
``traces/documents/<owner hash or _>/<sha256>.json`` (one per document and owner, the newest
``KEEP_DOCUMENT_TRACES`` of an owner kept), so a reload or a restart reopens them.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from . import catalog as sql
from ..errors import FolderGoneError
from .chat import owner_id
from .files import atomic_write_json
from .names import check_folder_id

KEEP_DOCUMENT_TRACES = 30


class TraceMethods:
    """Saved folder searches (part of :class:`~alphasearch.library.Library`)."""

    def _trace_names(self, folder_id: str, owner: str | None) -> tuple[str, str]:
        tail = "" if owner is None else f"-{owner_id(owner)}"
        return f"{folder_id}{tail}.json", f"latest{tail}.json"

    def save_trace(self, folder_id: str, data: dict[str, Any], *, owner: str | None = None) -> Path:
        """Store the latest folder search (JSON-ready dict) of ``owner`` (None: the operator's) for the tree
        visualizer. :class:`FolderGoneError` when the folder is gone: nothing is left written."""
        check_folder_id(folder_id)
        data = {**data, "when": time.time()}
        name, latest = self._trace_names(folder_id, owner)
        written = self.trace_dir / name
        # under the catalog's write lock: a folder deleted before is seen here and nothing is written; one deleted
        # after waits for this write and then removes these files itself (delete_folder drops its traces)
        with self._db(write=True) as con:
            if not con.execute(sql.SELECT_FOLDERS_EXISTS_BY_ID, (folder_id,)).fetchone():
                raise FolderGoneError("The folder was deleted while the answer was searched; nothing was saved.")
            atomic_write_json(written, data)
            atomic_write_json(self.trace_dir / latest, {"folder_id": folder_id, **data})
        return written

    def load_trace(self, folder: str | None = None, *, owner: str | None = None) -> dict[str, Any] | None:
        """The latest saved folder search of ``folder`` (or of any folder) by ``owner``, or None."""
        name, latest = self._trace_names(self.folder(folder).folder_id if folder is not None else "", owner)
        p = self.trace_dir / (latest if folder is None else name)
        try:
            return json.loads(p.read_text("utf-8"))
        except (OSError, ValueError):
            return None

    def _document_trace_dir(self, owner: str | None) -> Path:
        return self.trace_dir / "documents" / ("_" if owner is None else owner_id(owner))

    def save_document_trace(self, doc_id: str, data: dict[str, Any], *, owner: str | None = None) -> Path:
        """Store ``owner``'s latest search of a document (JSON-ready dict: question, doc, trace); that owner's
        oldest beyond ``KEEP_DOCUMENT_TRACES`` go."""
        if not doc_id.isalnum():
            raise ValueError(f"not a document id: {doc_id!r}")
        folder = self._document_trace_dir(owner)
        folder.mkdir(parents=True, exist_ok=True)
        p = folder / f"{doc_id}.json"
        atomic_write_json(p, data)
        for old in sorted(folder.glob("*.json"), key=lambda q: q.stat().st_mtime)[:-KEEP_DOCUMENT_TRACES]:
            old.unlink(missing_ok=True)
        return p

    def document_traces(self, *, owner: str | None = None) -> list[tuple[float, dict[str, Any]]]:
        """``owner``'s saved single-document searches as (time saved, data), newest first; unreadable ones
        skipped."""
        out = []
        for p in self._document_trace_dir(owner).glob("*.json"):
            try:
                out.append((p.stat().st_mtime, json.loads(p.read_text("utf-8"))))
            except (OSError, ValueError):
                continue
        return sorted(out, key=lambda x: -x[0])

    def _drop_trace(self, folder_id: str) -> None:
        """Remove every owner's saved search of ``folder_id`` and the latest-search files naming it."""
        for p in self.trace_dir.glob(f"{folder_id}*.json"):
            p.unlink(missing_ok=True)
        for latest in self.trace_dir.glob("latest*.json"):
            try:
                if json.loads(latest.read_text("utf-8")).get("folder_id") == folder_id:
                    latest.unlink()
            except (OSError, ValueError, AttributeError):
                pass
