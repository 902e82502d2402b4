"""What the library hands out: folders, documents, add results, chat turns, health reports."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..models import DocumentIndex


Progress = Callable[[str, float], None]  # (message, overall fraction done in [0, 1])


BuildIndex = Callable[[bytes, str, "Progress | None"], DocumentIndex]


@dataclass(frozen=True)
class FolderInfo:
    """One folder. ``pages`` and ``size_bytes`` are totals over its documents."""

    folder_id: str
    name: str
    created: float
    documents: int = 0
    pages: int = 0
    size_bytes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.folder_id, "name": self.name, "created": self.created, "documents": self.documents,
                "pages": self.pages, "size_bytes": self.size_bytes}


@dataclass(frozen=True)
class DocumentRecord:
    """One document in one folder. ``sha256`` names its PDF and index files;
    ``summary`` and ``profile`` (title, section titles, key terms) feed routing."""

    record_id: str
    folder_id: str
    name: str
    sha256: str
    pages: int
    size_bytes: int
    summary: str
    profile: str
    index_version: int
    added: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.record_id, "folder_id": self.folder_id, "name": self.name, "sha256": self.sha256,
                "pages": self.pages, "size_bytes": self.size_bytes, "summary": self.summary, "added": self.added}


ADD_STATUSES = ("indexed", "unchanged", "replaced", "duplicate", "rejected")


@dataclass(frozen=True)
class AddResult:
    """What happened to one file: ``indexed`` (new), ``unchanged`` (same bytes
    already there, skipped), ``replaced`` (same name, new bytes, re-indexed),
    ``duplicate`` (same bytes already in the folder under another name, or the
    name twice in one batch; not added) or ``rejected`` (``reason`` says why)."""

    name: str
    status: str
    reason: str = ""
    record: DocumentRecord | None = None
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status in ("indexed", "unchanged", "replaced")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "reason": self.reason, "seconds": round(self.seconds, 3),
                "pages": self.record.pages if self.record else None, "warnings": list(self.warnings)}


@dataclass(frozen=True)
class ChatTurn:
    """One message of a conversation. ``folder`` is the folder id the answer came from."""

    role: str  # "user" or "assistant"
    text: str
    folder_id: str = ""
    created: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)


ISSUE_KINDS = ("pdf_missing", "index_missing", "index_unreadable", "index_stale", "index_old_version",
               "index_ocr_outdated",
               "pdf_changed", "row_without_files", "orphan_file", "temp_file", "orphan_trace")


@dataclass(frozen=True)
class Issue:
    """One inconsistency; ``detail`` is a sentence fit to show a user."""

    kind: str
    detail: str
    folder: str = ""
    document: str = ""
    path: str = ""


@dataclass
class HealthReport:
    issues: list[Issue]
    documents: int
    files: int

    @property
    def ok(self) -> bool:
        return not self.issues

    def text(self) -> str:
        head = f"Checked {self.documents} document(s) and {self.files} file(s): "
        if self.ok:
            return head + "everything is consistent."
        lines = [head + f"{len(self.issues)} problem(s)."]
        lines += [f"- [{i.kind}] {i.detail}" for i in self.issues]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "documents": self.documents, "files": self.files,
                "issues": [{"kind": i.kind, "detail": i.detail, "folder": i.folder, "document": i.document}
                           for i in self.issues]}


@dataclass
class RepairReport:
    actions: list[str]
    after: HealthReport

    def text(self) -> str:
        done = "\n".join(f"- {a}" for a in self.actions) if self.actions else "- nothing to do"
        return f"Repair:\n{done}\nAfterwards: {self.after.text()}"
