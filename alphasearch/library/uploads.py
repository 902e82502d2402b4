"""PDFs asked about outside the library, kept by content hash (``<data_dir>/uploads/<sha256>.pdf``)."""
from __future__ import annotations

from pathlib import Path

from .files import atomic_write_bytes
from .names import is_sha, sha256_of


class UploadStore:
    """PDFs asked about outside the library (the app's Single PDF), kept by content hash so a
    page reload finds the document again: ``<data_dir>/uploads/<sha256>.pdf``."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "uploads"

    def put(self, data: bytes, name: str = "") -> str:
        """Keep ``data`` (written atomically, once per content) and, when given, the file name it was
        uploaded under (``<sha256>.name``, the latest); returns its sha256."""
        sha = sha256_of(data)
        path = self.dir / f"{sha}.pdf"
        if not path.exists():
            atomic_write_bytes(path, data)
        if name:
            atomic_write_bytes(self.dir / f"{sha}.name", name.encode("utf-8"))
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
        try:
            data = (self.dir / f"{sha}.pdf").read_bytes()
        except OSError:
            return None
        return data if sha256_of(data) == sha else None
