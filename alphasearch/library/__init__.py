"""The document library as a package: one idea per module (see each module's docstring).

files (atomic writes, code fingerprints) · index_cache · uploads · saved (page rankers, folder page
indexes) · names · records · catalog (schema and every SQL statement) · folders · documents · chat · traces ·
health (check and repair) · library (the Library class that joins them).
"""
from __future__ import annotations

from .documents import routing_profile, vocabulary
from .files import atomic_write_bytes, atomic_write_json, code_fingerprint
from .index_cache import IndexCache
from .library import Library
from .names import MAX_NAME, name_key, validate_name
from .records import (
    ADD_STATUSES, ISSUE_KINDS, AddResult, BuildIndex, ChatTurn, DocumentRecord, FolderInfo, HealthReport,
    Issue, Progress, RepairReport,
)
from .saved import RankerStore, SavedIndexes
from .uploads import UploadStore

__all__ = ["ADD_STATUSES", "ISSUE_KINDS", "MAX_NAME", "AddResult", "BuildIndex", "ChatTurn", "DocumentRecord",
           "FolderInfo", "HealthReport", "IndexCache", "Issue", "Library", "Progress", "RankerStore", "RepairReport",
           "SavedIndexes", "UploadStore", "atomic_write_bytes", "atomic_write_json", "code_fingerprint", "name_key",
           "routing_profile", "validate_name", "vocabulary"]
