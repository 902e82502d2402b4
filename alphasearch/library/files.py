"""Atomic files: a reader sees the old file or the new one, never half; code fingerprints."""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any


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


@lru_cache(maxsize=None)
def code_fingerprint(*modules: str) -> str:
    """A digest of the source files of ``modules``: a saved index built by other code is not reused."""
    h = hashlib.sha256()
    for name in modules:
        h.update(Path(importlib.import_module(name).__file__).read_bytes())
    return h.hexdigest()[:12]
