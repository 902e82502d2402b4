"""Files under the data directory. Every write is atomic (temp file + rename)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import StoreError
from .models import INDEX_VERSION, DocumentIndex


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_json(path: Path, obj: Any) -> None:
    atomic_write_bytes(path, json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


class IndexCache:
    """Document indexes keyed by the PDF's content hash: ``<data_dir>/indexes/<sha256>.json``."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "indexes"

    def path(self, doc_id: str, engine: str = "offline") -> Path:
        if not all(ch in "0123456789abcdef" for ch in doc_id) or len(doc_id) != 64:
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
