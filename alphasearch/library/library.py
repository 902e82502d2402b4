"""The Library: folders of PDFs with their indexes, chat history and saved traces.

Layout under ``<data_dir>/library/``::

    catalog.sqlite3          folders, documents, facts, chat turns, pending adds (WAL mode)
    pdfs/<sha256>.pdf        the PDF bytes, shared by every row with that content
    indexes/<sha256>.json    its DocumentIndex (IndexCache layout)
    pageterms/<sha256>-….npz its page term counts (the folder page index is assembled from them)
    passages/<key>/          each folder's saved page index
    traces/<folder_id>.json  the latest folder search, for the tree visualizer

Nothing a user types becomes a path: folders and rows have random hex ids, files are named by
content hash. Order of writes for an add: a ``pending`` row (so no concurrent cleanup removes
files in flight), the PDF file, the index file, then one catalog transaction (the commit point).
A crash before the commit leaves orphan files that ``health()`` reports and ``repair()`` removes;
the previous catalog state is untouched and readable throughout.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import catalog as sql
from ..index import facts as doc_facts
from ..errors import ReadOnlyError, StoreError
from ..models import DocumentIndex
from .catalog import rollback
from .chat import ChatMethods
from .documents import DocumentMethods, default_build
from .folders import FolderMethods
from .health import HealthMethods
from .index_cache import IndexCache
from .names import check_sha
from .records import BuildIndex
from .saved import SavedIndexes
from .traces import TraceMethods


class Library(FolderMethods, DocumentMethods, ChatMethods, TraceMethods, HealthMethods):
    """Folders of PDFs with their indexes, chat history and saved traces.

    Safe for many threads of one process and many processes at once: every
    catalog change is one SQLite transaction (WAL mode, busy timeout), files are
    written atomically and named by content hash. Methods take folder names (or
    ids) and document display names; errors are :mod:`alphasearch.errors` types.
    """

    def __init__(self, data_dir: Path | str, *, settings: Any = None, build: BuildIndex | None = None,
                 timeout: float = 30.0, read_facts: Callable[[DocumentIndex], doc_facts.DocFacts] | None = None):
        self.data_dir = Path(data_dir).expanduser()
        self.root = self.data_dir / "library"
        self.pdf_dir = self.root / "pdfs"
        self.indexes = IndexCache(self.root)  # <root>/indexes/<sha>.json
        self.trace_dir = self.root / "traces"
        self.passages = SavedIndexes(self.root / "passages", keep=32)  # Phase 1 page indexes of folders
        self.page_terms_dir = self.root / "pageterms"  # <sha>-<code fingerprint>.npz: a document's page term counts
        self.db_path = self.root / "catalog.sqlite3"
        self.settings = settings
        # what this library's callers may change (Settings.visitor_role, resolved by the app): a reader nothing
        self.read_only = getattr(settings, "visitor_role", "") == "reader"
        self.max_file_mb = getattr(settings, "max_file_mb", 500)
        self._default_build = default_build(settings)
        self.build = build or self._default_build
        self.read_facts = read_facts or doc_facts.extract  # a new document's facts (a model may fill some)
        self.timeout = timeout
        self._index_cache: dict[str, DocumentIndex] = {}
        self._cache_lock = threading.Lock()
        self._rebuild_locks: dict[str, threading.Lock] = {}
        for d in (self.pdf_dir, self.indexes.dir, self.trace_dir):
            d.mkdir(parents=True, exist_ok=True)
        with self._db() as con:
            con.execute(sql.PRAGMA_JOURNAL_MODE)
            con.executescript(sql.SCHEMA)
            con.execute(sql.INSERT_META)

    @contextmanager
    def _db(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.db_path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"The library catalog at {self.db_path} cannot be opened ({exc}).") from exc
        con.row_factory = sqlite3.Row
        try:
            con.execute(sql.PRAGMA_FOREIGN_KEYS)
            con.execute(sql.PRAGMA_SYNCHRONOUS)  # WAL: safe against crashes; power loss may drop the last commit
            if write:
                con.execute(sql.BEGIN)
            yield con
            if write:
                con.execute(sql.COMMIT)
        except sqlite3.OperationalError as exc:
            rollback(con)
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError("The library is busy with another change; try again in a moment.") from exc
            raise StoreError(f"The library catalog could not be updated ({exc}).") from exc
        except sqlite3.IntegrityError:
            rollback(con)
            raise
        except sqlite3.DatabaseError as exc:  # e.g. "file is not a database"
            rollback(con)
            raise StoreError(f"The library catalog at {self.db_path} is damaged ({exc}); move it aside and add "
                             f"the PDFs again, or restore it from a backup.") from exc
        except BaseException:
            rollback(con)
            raise
        finally:
            con.close()

    def _may_change(self) -> None:
        """Refuse a change of the shared library to a reader (:class:`ReadOnlyError`)."""
        if self.read_only:
            raise ReadOnlyError("This server lets visitors ask and browse only; adding, renaming and deleting "
                                "folders and documents is for editors (ALPHASEARCH_VISITOR_ROLE=editor).")

    @staticmethod
    def _bump(con: sqlite3.Connection) -> None:
        con.execute(sql.UPDATE_META_VALUE)

    def revision(self) -> int:
        """A counter that grows with every catalog change (for caches)."""
        with self._db() as con:
            return int(con.execute(sql.SELECT_META_VALUE).fetchone()[0])

    def pdf_path(self, sha256: str) -> Path:
        check_sha(sha256)
        return self.pdf_dir / f"{sha256}.pdf"

    def index_path(self, sha256: str) -> Path:
        return self.indexes.path(sha256)
