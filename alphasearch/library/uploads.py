"""PDFs asked about outside the library, kept by content hash (``<data_dir>/uploads/<sha256>.pdf``), within a
quota: beyond ``max_mb`` the least recently used are forgotten (they belong to no folder: a folder's PDFs are
the library's own copies)."""
from __future__ import annotations

import os
import threading
from pathlib import Path

from .files import atomic_write_bytes
from .names import is_sha, sha256_of


class UploadStore:
    """PDFs asked about outside the library (the app's Single PDF), kept by content hash so a
    page reload finds the document again: ``<data_dir>/uploads/<sha256>.pdf``, at most ``max_mb`` MB together
    (``Settings.max_uploads_mb``; 0: no limit)."""

    def __init__(self, data_dir: Path, max_mb: float = 0):
        self.dir = Path(data_dir) / "uploads"
        self.max_bytes = int(max_mb * 2**20)
        self._lock = threading.Lock()

    def put(self, data: bytes, name: str = "") -> str:
        """Keep ``data`` (written atomically, once per content) and, when given, the file name it was
        uploaded under (``<sha256>.name``, the latest); returns its sha256. The least recently used others are
        removed while the uploads together exceed the quota."""
        sha = sha256_of(data)
        path = self.dir / f"{sha}.pdf"
        if not path.exists():
            atomic_write_bytes(path, data)
        else:
            path.touch()
        if name:
            atomic_write_bytes(self.dir / f"{sha}.name", name.encode("utf-8"))
        self._evict(keep=path)
        return sha

    def name_of(self, sha: str) -> str:
        """The name ``sha`` was last uploaded under ("" when none was kept)."""
        if not is_sha(sha):
            return ""
        try:
            return (self.dir / f"{sha}.name").read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    def remove(self, sha: str) -> bool:
        """Forget a kept PDF and its name; False when there was none."""
        if not is_sha(sha):
            return False
        found = False
        for suffix in (".pdf", ".name"):
            try:
                (self.dir / f"{sha}{suffix}").unlink()
                found = True
            except FileNotFoundError:
                pass
        return found

    def get(self, sha: str) -> bytes | None:
        """The kept bytes, or None when ``sha`` is not a kept PDF (or not a sha256 at all)."""
        if not is_sha(sha):
            return None
        path = self.dir / f"{sha}.pdf"
        try:
            data = path.read_bytes()
            os.utime(path)  # used: the last to be forgotten
        except OSError:
            return None
        return data if sha256_of(data) == sha else None

    def _evict(self, keep: Path) -> None:
        if not self.max_bytes:
            return
        with self._lock:
            kept = []
            for p in self.dir.glob("*.pdf"):
                try:
                    st = p.stat()
                except OSError:
                    continue
                kept.append((st.st_mtime, st.st_size, p))
            total = sum(size for _, size, _ in kept)
            for _, size, p in sorted(kept):  # the least recently used first
                if total <= self.max_bytes:
                    break
                if p != keep:
                    p.unlink(missing_ok=True)
                    p.with_suffix(".name").unlink(missing_ok=True)
                    total -= size
