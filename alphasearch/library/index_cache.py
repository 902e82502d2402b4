"""Document indexes keyed by the PDF's content hash (``<dir>/indexes/<sha256>.json``)."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import StoreError
from ..models import INDEX_VERSION, DocumentIndex
from .files import atomic_write_json
from .names import is_sha


class IndexCache:
    """Document indexes keyed by the PDF's content hash: ``<data_dir>/indexes/<sha256>.json``."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "indexes"

    def path(self, doc_id: str, engine: str = "offline") -> Path:
        if not is_sha(doc_id):
            raise StoreError(f"Invalid document id {doc_id!r}.")
        suffix = "" if engine == "offline" else "." + "".join(ch if ch.isalnum() else "_" for ch in engine)
        return self.dir / f"{doc_id}{suffix}.json"

    def get(self, doc_id: str, engine: str = "offline") -> DocumentIndex | None:
        """The stored index, or None when missing, unreadable or from another index version."""
        p = self.path(doc_id, engine)
        try:
            raw = json.loads(p.read_text("utf-8"))
            if raw.get("version") != INDEX_VERSION:
                return None
            return DocumentIndex.from_dict(raw)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, index: DocumentIndex, engine: str = "offline") -> Path:
        p = self.path(index.doc_id, engine)
        atomic_write_json(p, index.to_dict())
        return p
