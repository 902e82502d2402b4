"""Files under the data directory: atomic writes, the index cache and the folder library (SQLite catalog)."""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import sqlite3
import tempfile
import threading
import time
import unicodedata
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from . import facts as doc_facts
from .errors import (AlphaSearchError, AlreadyExistsError, FileTooLargeError, InvalidFactError, InvalidNameError,
                     NotFoundError, PDFError, StoreError)
from .models import INDEX_VERSION, DocumentIndex
from .pageindex import PageTerms
from .scorers import PageRanker

T = TypeVar("T")


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
        if not _is_sha(doc_id):
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


@lru_cache(maxsize=None)
class UploadStore:
    """PDFs asked about outside the library (the app's Single PDF), kept by content hash so a
    page reload finds the document again: ``<data_dir>/uploads/<sha256>.pdf``."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "uploads"

    def put(self, data: bytes) -> str:
        """Keep ``data`` (written atomically, once per content); returns its sha256."""
        sha = _sha(data)
        path = self.dir / f"{sha}.pdf"
        if not path.exists():
            atomic_write_bytes(path, data)
        return sha

    def get(self, sha: str) -> bytes | None:
        """The kept bytes, or None when ``sha`` is not a kept PDF (or not a sha256 at all)."""
        if not _is_sha(sha):
            return None
        try:
            data = (self.dir / f"{sha}.pdf").read_bytes()
        except OSError:
            return None
        return data if _sha(data) == sha else None


def code_fingerprint(*modules: str) -> str:
    """A digest of the source files of ``modules``: a saved index built by other code is not reused."""
    h = hashlib.sha256()
    for name in modules:
        h.update(Path(importlib.import_module(name).__file__).read_bytes())
    return h.hexdigest()[:12]


class SavedIndexes:
    """Search indexes derived from documents, saved as directories ``<root>/<key>/`` so a
    new process loads them instead of tokenising every page again. A directory is
    written whole under a temporary name and renamed into place, so a reader finds a
    complete one or none; a damaged one is rebuilt, a failed save costs only speed."""

    def __init__(self, root: Path, keep: int = 0):
        self.root = Path(root)
        self.keep = keep  # > 0: at most this many, the least recently written go first

    def get(self, key: str, load: Callable[[Path], T], build: Callable[[], T], save: Callable[[T, Path], None]) -> T:
        final = self.root / key
        if final.is_dir():
            try:
                return load(final)
            except Exception:  # noqa: BLE001 - any damage (truncated arrays, bad JSON): rebuilt below
                shutil.rmtree(final, ignore_errors=True)
        value = build()
        tmp = self.root / f".{key}.{uuid.uuid4().hex}.tmp"
        try:
            save(value, tmp)
            os.rename(tmp, final)  # atomic; fails if another process saved it first
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
        if self.keep:
            try:
                entries = sorted((p for p in self.root.iterdir() if not p.name.startswith(".")),
                                 key=lambda p: p.stat().st_mtime)
            except OSError:  # no directory (the save failed) or an entry removed meanwhile: prune next time
                entries = []
            for old in entries[:-self.keep]:
                shutil.rmtree(old, ignore_errors=True)
        return value

    def purge(self, doc_id: str) -> None:
        """Delete every saved index built from the document ``doc_id`` (named by its
        content hash, or listing it in its ``docs.json``)."""
        if not _is_sha(doc_id) or not self.root.is_dir():
            return
        for p in self.root.iterdir():
            try:
                uses = p.name.startswith(doc_id) or doc_id in json.loads((p / "docs.json").read_text("utf-8"))
            except (OSError, ValueError):
                uses = False
            if uses:
                shutil.rmtree(p, ignore_errors=True)


class RankerStore(SavedIndexes):
    """Saved page rankers (:meth:`PageRanker.save`): ``<data_dir>/rankers/<sha256>-<fingerprint>/``.
    The fingerprint covers what the ranker is built from besides the page text (the
    section titles and page ranges, the page headings, the index version, the code of
    the scorers and the tokenizer), so an index rebuilt with another tree gets its own."""

    def __init__(self, data_dir: Path):
        super().__init__(Path(data_dir) / "rankers")

    def key(self, doc: DocumentIndex) -> str | None:
        if not _is_sha(doc.doc_id):
            return None
        shape = [code_fingerprint("alphasearch.scorers", "alphasearch.text"), doc.version, doc.engine,
                 doc.page_count, [(n.title, list(n.pages)) for n in doc.root.walk()],
                 [list(p.headings) for p in doc.pages]]
        return f"{doc.doc_id}-{hashlib.sha256(json.dumps(shape, ensure_ascii=False).encode()).hexdigest()[:16]}"

    def ranker(self, doc: DocumentIndex) -> PageRanker:
        """The saved ranker of ``doc``, or a new one (then saved)."""
        key = self.key(doc)
        if key is None:
            return PageRanker(doc)
        return self.get(key, lambda p: PageRanker.load(doc, p), lambda: PageRanker(doc), PageRanker.save)

    def put_files(self, doc: DocumentIndex, files: dict[str, bytes]) -> bool:
        """Store a ranker that was built and saved elsewhere (e.g. on a cluster worker), given
        as relative path → bytes. False when the key is unusable or the entry already exists."""
        key = self.key(doc)
        if key is None or (self.root / key).is_dir():
            return False

        def save(value: dict[str, bytes], tmp: Path) -> None:
            for rel, data in value.items():
                target = (tmp / rel).resolve()
                if tmp.resolve() not in target.parents:
                    raise OSError(f"ranker file {rel!r} lies outside its directory")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)

        self.get(key, lambda p: None, lambda: files, save)
        return (self.root / key).is_dir()


# =====================================================================================
# The library: folders of documents, a SQLite catalog, files named by content hash.
# =====================================================================================
#
# Layout under ``<data_dir>/library/``:
#   catalog.sqlite3          folders, documents, chat turns, pending adds (WAL mode)
#   pdfs/<sha256>.pdf        the PDF bytes, shared by every row with that content
#   indexes/<sha256>.json    its DocumentIndex (IndexCache layout)
#   traces/<folder_id>.json  the latest folder search, for the tree visualizer
#
# Nothing a user types becomes a path: folders and rows have random hex ids,
# files are named by content hash. Order of writes for an add: a ``pending`` row
# (so no concurrent cleanup removes files in flight), the PDF file, the index
# file, then one catalog transaction (the commit point). A crash before the
# commit leaves orphan files that ``health()`` reports and ``repair()`` removes;
# the previous catalog state is untouched and readable throughout.


MAX_NAME = 200
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10)),
             "conin$", "conout$"}
_BIDI = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}
_HEX = frozenset("0123456789abcdef")

Progress = Callable[[str, float], None]  # (message, overall fraction done in [0, 1])
BuildIndex = Callable[[bytes, str, "Progress | None"], DocumentIndex]


def validate_name(name: object, kind: str = "folder") -> str:
    """The display name, NFC-normalised and stripped, or :class:`InvalidNameError`.

    Any reasonable Unicode (accents, CJK, emoji, spaces) is fine. Refused: empty or
    whitespace-only names, more than 200 characters, NUL and other control or
    bidirectional-override characters, ``/`` and ``\\``, ``.``/``..``, absolute or
    drive paths, reserved device names (CON, NUL, COM1, …, also with an extension)
    and percent-encoded forms of any of these (``%2e%2e%2f``).
    """
    what = "folder name" if kind == "folder" else "file name"
    if not isinstance(name, str):
        raise InvalidNameError(f"The {what} must be text.")
    if "\x00" in name:
        raise InvalidNameError(f"The {what} contains a NUL byte; choose a name without control characters.")
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise InvalidNameError(f"The {what} is empty; type a name with at least one visible character.")
    if len(text) > MAX_NAME:
        raise InvalidNameError(f"The {what} has {len(text)} characters; the limit is {MAX_NAME}.")
    forms = [text]
    decoded = text
    for _ in range(3):  # %252e%252e → %2e%2e → ..
        nxt = urllib.parse.unquote(decoded)
        if nxt == decoded:
            break
        forms.append(nxt)
        decoded = nxt
    for form in forms:
        if any(unicodedata.category(ch) == "Cc" or ch in _BIDI for ch in form):
            raise InvalidNameError(f"The {what} contains control characters; choose a plain name.")
        if "/" in form or "\\" in form:
            raise InvalidNameError(f"The {what} {_show(text)} contains a slash; names cannot contain / or \\.")
        if form.strip(". ") == "" or form.startswith(".."):
            raise InvalidNameError(f"The {what} {_show(text)} is not allowed; names cannot be made of dots.")
        if len(form) >= 2 and form[1] == ":" and form[0].isascii() and form[0].isalpha():
            raise InvalidNameError(f"The {what} {_show(text)} looks like a drive path; choose a plain name.")
        stem = form.split(".")[0].strip().lower()
        if stem in _RESERVED:
            raise InvalidNameError(f"The {what} {_show(text)} is a reserved device name; choose another name.")
    return text


def _show(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def name_key(name: str) -> str:
    """Case- and normalisation-insensitive key: two names with the same key clash."""
    return unicodedata.normalize("NFC", name).casefold()


# --- records ---------------------------------------------------------------------------
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


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folders (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
    name TEXT NOT NULL, name_key TEXT NOT NULL, sha256 TEXT NOT NULL,
    pages INTEGER NOT NULL, size_bytes INTEGER NOT NULL, summary TEXT NOT NULL, profile TEXT NOT NULL,
    index_version INTEGER NOT NULL, added REAL NOT NULL, vocab TEXT NOT NULL DEFAULT '',
    UNIQUE (folder_id, name_key));
CREATE INDEX IF NOT EXISTS documents_sha ON documents(sha256);
CREATE TABLE IF NOT EXISTS pending (token TEXT PRIMARY KEY, sha256 TEXT NOT NULL, pid INTEGER NOT NULL,
    started REAL NOT NULL);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, conversation TEXT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL,
    folder_id TEXT NOT NULL DEFAULT '', meta TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_conversation ON chat(conversation, id);
CREATE TABLE IF NOT EXISTS facts (
    document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    auto TEXT NOT NULL, user TEXT NOT NULL DEFAULT '{}', version INTEGER NOT NULL);
"""
# document facts (alphasearch.facts): ``auto`` as read from the document, ``user`` the fields a user set
_FACTS_SQL = ("SELECT d.id, d.sha256, d.name, f.auto, f.user, f.version FROM documents d "
              "LEFT JOIN facts f ON f.document_id = d.id")
_FACTS_PUT = ("INSERT INTO facts(document_id, auto, user, version) VALUES (?,?,?,?) ON CONFLICT(document_id) "
              "DO UPDATE SET auto=excluded.auto, version=excluded.version")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    # a zombie (killed child not yet reaped) is dead for our purposes
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().split(b")")[-1].split()[0] != b"Z"
    except OSError:
        return True


def _default_build(settings: Any) -> BuildIndex:
    def build(data: bytes, name: str, progress: Progress | None = None) -> DocumentIndex:
        from . import isolation  # untrusted bytes: parsed in a worker process with the settings' limits

        return isolation.shared_pool(settings).run(isolation.index_pdf, data, name,
                                                   isolation.IndexOptions.from_settings(settings),
                                                   name=name, progress=progress).index

    return build


def routing_profile(index: DocumentIndex, limit: int = 4000) -> str:
    """Text that says what a document is about, for folder routing and document
    choice: its name, summary, section titles and most frequent heading lines."""
    titles = [s.title for s in index.root.walk() if s is not index.root][:150]
    heads: list[str] = []
    for p in index.pages[:400]:
        heads.extend(p.headings[:3])
    stem = os.path.splitext(index.name)[0].replace("_", " ").replace("-", " ")
    text = f"{stem}. {index.summary} " + "; ".join(titles) + ". " + "; ".join(dict.fromkeys(heads))
    return text[:limit]


def vocabulary(index: DocumentIndex) -> str:
    """Every distinct search term (stemmed, stop-worded) of the document, space-separated."""
    from .text import terms

    seen: set[str] = set()
    for p in index.pages:
        seen.update(terms(p.text))
    return " ".join(sorted(seen))


class Library:
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
        self.max_file_mb = getattr(settings, "max_file_mb", 500)
        self._default_build = _default_build(settings)
        self.build = build or self._default_build
        self.read_facts = read_facts or doc_facts.extract  # a new document's facts (a model may fill some)
        self.timeout = timeout
        self._index_cache: dict[str, DocumentIndex] = {}
        self._cache_lock = threading.Lock()
        self._rebuild_locks: dict[str, threading.Lock] = {}
        for d in (self.pdf_dir, self.indexes.dir, self.trace_dir):
            d.mkdir(parents=True, exist_ok=True)
        with self._db() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.executescript(_SCHEMA)
            con.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('revision', '0')")

    # --- database plumbing -------------------------------------------------------------
    @contextmanager
    def _db(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.db_path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"The library catalog at {self.db_path} cannot be opened ({exc}).") from exc
        con.row_factory = sqlite3.Row
        try:
            con.execute("PRAGMA foreign_keys=ON")
            con.execute("PRAGMA synchronous=NORMAL")  # WAL: safe against crashes; power loss may drop the last commit
            if write:
                con.execute("BEGIN IMMEDIATE")
            yield con
            if write:
                con.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _rollback(con)
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError("The library is busy with another change; try again in a moment.") from exc
            raise StoreError(f"The library catalog could not be updated ({exc}).") from exc
        except sqlite3.IntegrityError:
            _rollback(con)
            raise
        except sqlite3.DatabaseError as exc:  # e.g. "file is not a database"
            _rollback(con)
            raise StoreError(f"The library catalog at {self.db_path} is damaged ({exc}); move it aside and add "
                             f"the PDFs again, or restore it from a backup.") from exc
        except BaseException:
            _rollback(con)
            raise
        finally:
            con.close()

    @staticmethod
    def _bump(con: sqlite3.Connection) -> None:
        con.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'")

    def revision(self) -> int:
        """A counter that grows with every catalog change (for caches)."""
        with self._db() as con:
            return int(con.execute("SELECT value FROM meta WHERE key='revision'").fetchone()[0])

    def pdf_path(self, sha256: str) -> Path:
        _check_sha(sha256)
        return self.pdf_dir / f"{sha256}.pdf"

    def index_path(self, sha256: str) -> Path:
        return self.indexes.path(sha256)

    # --- folders ------------------------------------------------------------------------
    def create_folder(self, name: str) -> FolderInfo:
        """A new empty folder; :class:`AlreadyExistsError` if the name is taken (case-insensitive)."""
        name = validate_name(name, "folder")
        fid = uuid.uuid4().hex
        with self._db(write=True) as con:
            try:
                con.execute("INSERT INTO folders(id, name, name_key, created) VALUES (?,?,?,?)",
                            (fid, name, name_key(name), time.time()))
            except sqlite3.IntegrityError:
                raise AlreadyExistsError(f"A folder named {_show(name)} already exists.") from None
            self._bump(con)
        return self.folder(fid)

    def rename_folder(self, folder: str, new_name: str) -> FolderInfo:
        new_name = validate_name(new_name, "folder")
        with self._db(write=True) as con:
            row = self._folder_row(con, folder)
            try:
                con.execute("UPDATE folders SET name=?, name_key=? WHERE id=?", (new_name, name_key(new_name), row["id"]))
            except sqlite3.IntegrityError:
                raise AlreadyExistsError(f"A folder named {_show(new_name)} already exists.") from None
            self._bump(con)
        return self.folder(row["id"])

    def delete_folder(self, folder: str) -> FolderInfo:
        """Delete a folder, its documents (and their files unless another folder
        holds the same PDF), its chat turns and its saved trace."""
        info = self.folder(folder)
        with self._db(write=True) as con:
            shas = [r[0] for r in con.execute("SELECT sha256 FROM documents WHERE folder_id=?", (info.folder_id,))]
            con.execute("DELETE FROM folders WHERE id=?", (info.folder_id,))
            con.execute("DELETE FROM chat WHERE folder_id=?", (info.folder_id,))
            self._bump(con)
        self._drop_trace(info.folder_id)
        for sha in set(shas):
            self._purge_unreferenced(sha)
        return info

    def folders(self) -> list[FolderInfo]:
        """Every folder, by name."""
        with self._db() as con:
            rows = con.execute(
                "SELECT f.id, f.name, f.created, COUNT(d.id), COALESCE(SUM(d.pages),0), COALESCE(SUM(d.size_bytes),0) "
                "FROM folders f LEFT JOIN documents d ON d.folder_id = f.id GROUP BY f.id ORDER BY f.name_key").fetchall()
        return [FolderInfo(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def folder(self, folder: str) -> FolderInfo:
        """A folder by name (case-insensitive) or id; :class:`NotFoundError` otherwise."""
        with self._db() as con:
            row = self._folder_row(con, folder)
            r = con.execute("SELECT COUNT(id), COALESCE(SUM(pages),0), COALESCE(SUM(size_bytes),0) FROM documents "
                            "WHERE folder_id=?", (row["id"],)).fetchone()
        return FolderInfo(row["id"], row["name"], row["created"], r[0], r[1], r[2])

    def _folder_row(self, con: sqlite3.Connection, folder: str) -> sqlite3.Row:
        if isinstance(folder, FolderInfo):
            folder = folder.folder_id
        if not isinstance(folder, str):
            raise NotFoundError("No such folder.")
        row = con.execute("SELECT * FROM folders WHERE name_key=?",
                          (name_key(unicodedata.normalize("NFC", folder).strip()),)).fetchone()
        if row is None:
            row = con.execute("SELECT * FROM folders WHERE id=?", (folder,)).fetchone()
        if row is None:
            raise NotFoundError(f"There is no folder named {_show(folder)}; "
                                f"create it first or pick one from the folder list.")
        return row

    # --- documents ----------------------------------------------------------------------
    def documents(self, folder: str | None = None) -> list[DocumentRecord]:
        """Documents of one folder (or of the whole library), by name."""
        with self._db() as con:
            if folder is None:
                rows = con.execute(f"SELECT {_RECORD_COLUMNS} FROM documents ORDER BY folder_id, name_key").fetchall()
            else:
                fid = self._folder_row(con, folder)["id"]
                rows = con.execute(f"SELECT {_RECORD_COLUMNS} FROM documents WHERE folder_id=? ORDER BY name_key",
                                   (fid,)).fetchall()
        return [_record(r) for r in rows]

    def document(self, folder: str, name: str) -> DocumentRecord:
        with self._db() as con:
            fid = self._folder_row(con, folder)["id"]
            row = con.execute("SELECT * FROM documents WHERE folder_id=? AND name_key=?",
                              (fid, name_key(str(name).strip()))).fetchone()
        if row is None:
            raise NotFoundError(f"The folder has no document named {_show(str(name))}.")
        return _record(row)

    def add(self, folder: str, name: str, data: bytes | Path | str, *, progress: Progress | None = None,
            replace_existing: bool = True) -> AddResult:
        """Add one PDF (bytes or a path). See :meth:`add_many`."""
        return self.add_many(folder, [(name, data)], progress=progress, replace_existing=replace_existing)[0]

    def add_paths(self, folder: str, paths: Iterable[Path | str], *, progress: Progress | None = None,
                  workers: int | None = None, cluster: str | None = None) -> list[AddResult]:
        """Add PDF files from disk, each under its file name (see :meth:`add_many`)."""
        return self.add_many(folder, [(Path(p).name, Path(p)) for p in paths], progress=progress, workers=workers,
                             cluster=cluster)

    def add_many(self, folder: str, items: Iterable[tuple[str, bytes | Path | str]], *,
                 progress: Progress | None = None, replace_existing: bool = True,
                 workers: int | None = None, cluster: str | None = None) -> list[AddResult]:
        """Add several PDFs, incrementally by content hash; one result per item.

        Same name and same bytes → ``unchanged`` (skipped at once); same name, new
        bytes → re-indexed and ``replaced`` (only if ``replace_existing``, else
        ``duplicate``); bytes already in the folder under another name, or a name
        given twice in the batch → ``duplicate``; a bad name or a file that is not
        a usable PDF → ``rejected`` with the reason. Never raises for one bad file;
        raises :class:`NotFoundError` when the folder does not exist.
        ``progress(message, fraction)`` reports overall progress in [0, 1] (never
        decreasing). New PDFs are parsed and indexed in worker processes with the settings'
        time and memory limits (isolation.py), ``workers`` of them at once (default
        ``settings.index_workers``, else one per CPU core); a custom ``build`` runs in this
        process. ``cluster``: index the new PDFs as Ray
        tasks on that cluster (``"local"``: a local one with ``workers`` CPUs; see
        :mod:`alphasearch.cluster`), their saved page rankers coming back too; only this
        process writes the library. Raises :class:`~alphasearch.cluster.ClusterError`
        when the cluster cannot be reached.
        """
        items = list(items)
        fid = self.folder(folder).folder_id
        user_report = progress or (lambda message, fraction: None)
        shown = [0.0]

        def report(message: str, fraction: float) -> None:
            shown[0] = max(shown[0], min(1.0, fraction))
            user_report(message, shown[0])

        results: list[AddResult | None] = [None] * len(items)
        jobs: list[tuple[int, str, bytes, float]] = []  # (position, name, data, started)
        seen: set[str] = set()
        for i, (raw_name, source) in enumerate(items):
            started = time.perf_counter()
            try:
                name = validate_name(raw_name, "file")
            except InvalidNameError as exc:
                results[i] = AddResult(str(raw_name)[:MAX_NAME], "rejected", str(exc))
                continue
            if name_key(name) in seen:
                results[i] = AddResult(name, "duplicate", f"{name} appears twice in this batch; the first was used.")
                continue
            seen.add(name_key(name))
            try:
                jobs.append((i, name, self._read_source(source, name), started))
            except PDFError as exc:
                results[i] = AddResult(name, "rejected", str(exc))
            except OSError as exc:
                results[i] = AddResult(name, "rejected", f"{name} could not be read ({exc.strerror or exc}).")
        rankers: dict[str, dict[str, bytes]] = {}  # content hash → saved ranker files built elsewhere
        prebuilt, threads = self._prebuild(fid, jobs, workers, report, cluster, rankers) if jobs else ({}, None)
        n = max(1, len(items))
        try:
            for i, name, data, started in jobs:
                done = [0.0]  # this file's fraction so far: never goes back

                def sub(stage: str, frac: float, _i=i, _name=name, _done=done) -> None:
                    lo, hi = _STAGES.get(stage, (_done[0], 1.0))
                    _done[0] = max(_done[0], lo + (hi - lo) * max(0.0, min(1.0, frac)))
                    report(f"{_name}: {stage}", min(1.0, (_i + _done[0]) / n))

                try:
                    result = self._add_one(fid, name, data, sub, replace_existing, prebuilt.get(_sha(data)))
                except PDFError as exc:
                    result = AddResult(name, "rejected", str(exc))
                except OSError as exc:  # e.g. a full disk: nothing half-written is kept (see _add_one)
                    result = AddResult(name, "rejected", f"{name} could not be stored ({exc.strerror or exc}); "
                                                         f"free some disk space and add it again.")
                if result.ok and result.record is not None and result.record.sha256 in rankers:
                    self._store_ranker(result.record, rankers.pop(result.record.sha256))
                results[i] = replace(result, seconds=time.perf_counter() - started)
                report(f"{name}: {result.status}", (i + 1) / n)
        finally:
            if threads is not None:
                threads.shutdown(cancel_futures=True)
        report("done", 1.0)
        return [r for r in results if r is not None]

    def _store_ranker(self, rec: DocumentRecord, files: dict[str, bytes]) -> None:
        """Save a page ranker built by a cluster worker (a cache: a failure costs only speed)."""
        try:
            RankerStore(self.data_dir).put_files(self.load_index(rec), files)
        except (OSError, StoreError):
            pass

    def _prebuild(self, fid: str, jobs: list[tuple[int, str, bytes, float]], workers: int | None,
                  report: Progress, cluster: str | None = None,
                  rankers: dict[str, dict[str, bytes]] | None = None) -> tuple[dict[str, Any], Any]:
        """Start indexing the batch's new PDFs in ``workers`` local worker processes at once
        (isolation.py) or on a Ray cluster (default indexer only). Returns content hash →
        a Future of an IndexedPdf, a DocumentIndex or the exception it raised (a cluster's
        saved rankers go into ``rankers``), and the thread pool feeding the local workers
        (None with a cluster; the caller shuts it down)."""
        if self.build is not self._default_build:  # a custom indexer (LLM, tests) runs in this process
            return {}, None
        with self._db() as con:
            stored = {(r[0], r[1]) for r in con.execute("SELECT name_key, sha256 FROM documents WHERE folder_id=?",
                                                         (fid,))}
        todo: dict[str, tuple[str, bytes]] = {}
        for _, name, data, _ in jobs:
            sha = _sha(data)
            if (name_key(name), sha) in stored or sha in todo or self.index_path(sha).exists():
                continue
            todo[sha] = (name, data)
        if not todo:
            return {}, None
        if cluster:
            from .cluster import IndexedFile, index_on_cluster

            from concurrent.futures import Future

            limits = {}
            if self.settings is not None:
                limits = dict(max_pages=self.settings.max_pages, warn_pages=self.settings.warn_pages,
                              max_leaf_pages=self.settings.max_leaf_pages, parse_seconds=self.settings.parse_seconds,
                              parse_memory_mb=self.settings.parse_memory_mb)
            built: dict[str, Any] = {}
            for sha, res in index_on_cluster(todo, address=cluster, workers=workers, limits=limits,
                                             progress=report).items():
                if isinstance(res, IndexedFile):
                    built[sha] = Future()
                    built[sha].set_result(res.indexed)  # as a local worker's result (see _add_one)
                    if rankers is not None:
                        rankers[sha] = res.ranker
                else:
                    built[sha] = res
            return built, None
        from concurrent.futures import ThreadPoolExecutor

        from . import isolation

        workers = max(1, min(int(workers or getattr(self.settings, "index_workers", 0) or os.cpu_count() or 1),
                             len(todo)))
        procs = isolation.shared_pool(self.settings, size=workers)
        options = isolation.IndexOptions.from_settings(self.settings)
        if len(todo) > 1:
            report(f"indexing {len(todo)} PDFs in {workers} worker process(es)", 0.0)
        threads = ThreadPoolExecutor(workers, thread_name_prefix="alphasearch-index")
        futures = {sha: threads.submit(procs.run, isolation.index_pdf, data, name, options, name=name)
                   for sha, (name, data) in todo.items()}
        return futures, threads

    def replace_document(self, folder: str, name: str, data: bytes | Path | str, *,
                         progress: Progress | None = None) -> AddResult:
        """Replace an existing document's PDF (must exist), re-indexing it."""
        self.document(folder, name)
        return self.add(folder, name, data, progress=progress, replace_existing=True)

    def remove(self, folder: str, name: str) -> DocumentRecord:
        """Remove a document and purge everything derived from it: catalog row,
        PDF and index files (unless another folder holds the same bytes), the
        folder's saved trace and cached routing data."""
        rec = self.document(folder, name)
        with self._db(write=True) as con:
            con.execute("DELETE FROM documents WHERE id=?", (rec.record_id,))
            self._bump(con)
        self._drop_trace(rec.folder_id)
        self._purge_unreferenced(rec.sha256)
        return rec

    def _read_source(self, source: bytes | Path | str, name: str) -> bytes:
        from . import pdf

        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            if len(data) > self.max_file_mb * 1024 * 1024:
                raise FileTooLargeError(
                    f"{name} is {len(data) / 2**20:.0f} MB; the limit is {self.max_file_mb} MB.")
        else:
            data = pdf.load_bytes(source, max_file_mb=self.max_file_mb)
        pdf.check_header(data, name)  # empty or not a PDF: said at once, without starting a worker
        return data

    def _add_one(self, fid: str, name: str, data: bytes, progress: Progress, replace_existing: bool,
                 prebuilt: Any = None) -> AddResult:
        sha = _sha(data)
        key = name_key(name)
        with self._db() as con:
            old = con.execute("SELECT * FROM documents WHERE folder_id=? AND name_key=?", (fid, key)).fetchone()
            twin = con.execute("SELECT name FROM documents WHERE folder_id=? AND sha256=? AND name_key<>?",
                               (fid, sha, key)).fetchone()
        if old is not None and old["sha256"] == sha and self.pdf_path(sha).exists() and \
                self._index_problem(sha) is None:
            progress("unchanged", 1.0)
            return AddResult(name, "unchanged", "Same content as the stored copy; skipped.", _record(old))
        if twin is not None:
            return AddResult(name, "duplicate", f"{name} has the same content as {twin['name']}, already in this folder.")
        if old is not None and old["sha256"] != sha and not replace_existing:
            return AddResult(name, "duplicate", f"A different {name} is already in this folder.")
        if isinstance(prebuilt, BaseException):
            raise prebuilt
        page_terms = None
        if hasattr(prebuilt, "result"):  # a Future of a local worker's IndexedPdf (see _prebuild)
            built = prebuilt.result()  # raises what indexing raised (PDFError: the file is rejected)
            prebuilt, page_terms = built.index, built.page_terms
        token = uuid.uuid4().hex
        with self._db(write=True) as con:
            con.execute("INSERT INTO pending(token, sha256, pid, started) VALUES (?,?,?,?)",
                        (token, sha, os.getpid(), time.time()))
        committed = False
        try:
            pdf_file = self.pdf_path(sha)
            if not pdf_file.exists() or pdf_file.stat().st_size != len(data):
                atomic_write_bytes(pdf_file, data)
            index = self.indexes.get(sha)
            if index is None or index.doc_id != sha:
                index = prebuilt if isinstance(prebuilt, DocumentIndex) else self.build(data, name, progress)
                if index.doc_id != sha:
                    index = replace(index, doc_id=sha)
                self.indexes.put(index)
            else:
                progress("index reused", 1.0)
            rec = DocumentRecord(uuid.uuid4().hex, fid, name, sha, index.page_count, len(data), index.summary,
                                 routing_profile(replace(index, name=name)), index.version, time.time())
            if page_terms is None or index is not prebuilt:
                page_terms = PageTerms.from_texts([p.text for p in index.pages])  # pages tokenised once, here
            vocab = " ".join(sorted(page_terms.vocab))  # = vocabulary(index)
            self._save_page_terms(sha, page_terms)
            auto = json.dumps(self.read_facts(index).to_dict(), ensure_ascii=False)
            with self._db(write=True) as con:
                if con.execute("SELECT 1 FROM folders WHERE id=?", (fid,)).fetchone() is None:
                    raise NotFoundError("The folder was deleted while the file was being added.")
                # the row this commit replaces, read under the write lock (another process may have
                # added the same name since we looked)
                prev = con.execute("SELECT sha256 FROM documents WHERE folder_id=? AND name_key=?",
                                   (fid, key)).fetchone()
                con.execute("DELETE FROM documents WHERE folder_id=? AND name_key=?", (fid, key))
                con.execute(
                    "INSERT INTO documents(id, folder_id, name, name_key, sha256, pages, size_bytes, summary, profile, "
                    "index_version, added, vocab) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (rec.record_id, fid, name, key, sha, rec.pages, rec.size_bytes, rec.summary, rec.profile,
                     rec.index_version, rec.added, vocab))
                con.execute(_FACTS_PUT, (rec.record_id, auto, "{}", doc_facts.FACTS_VERSION))
                con.execute("DELETE FROM pending WHERE token=?", (token,))
                self._bump(con)
            committed = True
        finally:
            if not committed:
                self._clear_pending(token)
                self._purge_unreferenced(sha)
        if prev is not None:
            self._drop_trace(fid)
            if prev["sha256"] != sha:
                self._purge_unreferenced(prev["sha256"])
        status = "replaced" if prev is not None else "indexed"
        return AddResult(name, status, "", rec, warnings=tuple(index.warnings))

    def _clear_pending(self, token: str) -> None:
        try:
            with self._db(write=True) as con:
                con.execute("DELETE FROM pending WHERE token=?", (token,))
        except StoreError:
            pass

    def _live_pending(self, con: sqlite3.Connection) -> set[str]:
        live = set()
        for row in con.execute("SELECT token, sha256, pid FROM pending").fetchall():
            if _pid_alive(row["pid"]):
                live.add(row["sha256"])
        return live

    def _purge_unreferenced(self, sha: str) -> bool:
        """Delete the PDF and index files of ``sha`` if no row and no live add
        uses them. Decided and done while holding the catalog's write lock."""
        with self._db(write=True) as con:
            if con.execute("SELECT 1 FROM documents WHERE sha256=? LIMIT 1", (sha,)).fetchone():
                return False
            if sha in self._live_pending(con):
                return False
            for p in (self.pdf_path(sha), self.index_path(sha)):
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass
            RankerStore(self.data_dir).purge(sha)
            self.passages.purge(sha)
            for p in self.page_terms_dir.glob(f"{sha}-*.npz"):
                p.unlink(missing_ok=True)
        with self._cache_lock:
            self._index_cache.pop(sha, None)
        return True

    def routing_rows(self) -> list[tuple[DocumentRecord, str]]:
        """Every document with its vocabulary (space-separated terms), for routing."""
        with self._db() as con:
            rows = con.execute("SELECT * FROM documents ORDER BY folder_id, name_key").fetchall()
        return [(_record(r), r["vocab"]) for r in rows]

    # --- document facts ------------------------------------------------------------------
    def facts(self, folder: str | None = None) -> dict[str, doc_facts.DocFacts]:
        """Document id → its facts (as read from the document, with the user's edits on top),
        for one folder or the whole library. Facts missing or read by an older
        ``FACTS_VERSION`` (e.g. a library from before facts) are read now from the index."""
        with self._db() as con:
            if folder is None:
                rows = con.execute(_FACTS_SQL).fetchall()
            else:
                fid = self._folder_row(con, folder)["id"]
                rows = con.execute(_FACTS_SQL + " WHERE d.folder_id=?", (fid,)).fetchall()
        out: dict[str, doc_facts.DocFacts] = {}
        fresh: list[tuple[str, str]] = []
        for r in rows:
            if r["auto"] is not None and r["version"] == doc_facts.FACTS_VERSION:
                auto = doc_facts.DocFacts.from_dict(_loads(r["auto"]))
            else:
                try:
                    auto = doc_facts.extract(self.load_index(self._record_of(r["id"])))
                except (AlphaSearchError, NotFoundError):
                    auto = doc_facts.DocFacts()  # a lost index: no facts until a repair
                fresh.append((r["id"], json.dumps(auto.to_dict(), ensure_ascii=False)))
            out[r["id"]] = auto.merged(doc_facts.DocFacts.from_dict(_loads(r["user"] or "{}")))
        if fresh:
            with self._db(write=True) as con:
                for doc_id, auto_json in fresh:
                    if con.execute("SELECT 1 FROM documents WHERE id=?", (doc_id,)).fetchone():
                        con.execute(_FACTS_PUT, (doc_id, auto_json, "{}", doc_facts.FACTS_VERSION))
        return out

    def set_facts(self, folder: str, name: str, **changes: Any) -> doc_facts.DocFacts:
        """Correct a document's facts (field → value; '' clears it); kept until the document is
        replaced. Raises :class:`InvalidFactError` for an unknown field or a bad year/quarter."""
        rec = self.document(folder, name)
        current = self.facts(rec.folder_id)[rec.record_id]
        try:
            edited = current.edit(**changes)
        except ValueError as exc:
            raise InvalidFactError(str(exc)) from None
        user = {f: getattr(edited, f) for f in edited.edited} | {"edited": list(edited.edited)}
        with self._db(write=True) as con:
            con.execute("UPDATE facts SET user=? WHERE document_id=?", (json.dumps(user, ensure_ascii=False),
                                                                         rec.record_id))
            self._bump(con)
        return edited

    def _record_of(self, doc_id: str) -> DocumentRecord:
        with self._db() as con:
            row = con.execute("SELECT * FROM documents WHERE id=?", (doc_id,)).fetchone()
        if row is None:
            raise NotFoundError("The document was removed meanwhile.")
        return _record(row)

    # --- reading documents -------------------------------------------------------------
    def load_index(self, rec: DocumentRecord) -> DocumentIndex:
        """The document's index (named as in the catalog). An index that is
        missing, unreadable or from an older index version is rebuilt from the
        stored PDF first; :class:`StoreError` if the PDF is gone too (run ``repair``)."""
        with self._cache_lock:
            hit = self._index_cache.get(rec.sha256)
        if hit is None:
            hit = self.indexes.get(rec.sha256)
            if hit is None or hit.doc_id != rec.sha256:
                hit = self._rebuild(rec)
            with self._cache_lock:
                if len(self._index_cache) >= 128:
                    self._index_cache.pop(next(iter(self._index_cache)))
                self._index_cache[rec.sha256] = hit
        return hit if hit.name == rec.name else replace(hit, name=rec.name)

    def _rebuild(self, rec: DocumentRecord) -> DocumentIndex:
        """Index the stored PDF again (one thread per document at a time) and
        refresh its catalog row."""
        with self._cache_lock:
            lock = self._rebuild_locks.setdefault(rec.sha256, threading.Lock())
        with lock:
            index = self.indexes.get(rec.sha256)  # another thread may have just rebuilt it
            if index is not None and index.doc_id == rec.sha256:
                return index
            try:
                data = self.pdf_path(rec.sha256).read_bytes()
            except OSError:
                raise StoreError(f"The index and the PDF of {rec.name} are missing; run a library repair.") from None
            if _sha(data) != rec.sha256:
                raise StoreError(f"The stored PDF of {rec.name} is damaged; run a library repair.")
            try:
                index = self.build(data, rec.name, None)
            except PDFError as exc:
                raise StoreError(f"{rec.name} could not be indexed again ({exc}); run a library repair.") from exc
            index = replace(index, doc_id=rec.sha256)
            self.indexes.put(index)
            profile, vocab = routing_profile(replace(index, name=rec.name)), vocabulary(index)
            with self._db(write=True) as con:
                con.execute("UPDATE documents SET index_version=?, pages=?, summary=?, profile=?, vocab=? "
                            "WHERE sha256=?", (index.version, index.page_count, index.summary, profile, vocab,
                                               rec.sha256))
                self._bump(con)
            return index

    def page_terms(self, rec: DocumentRecord) -> PageTerms:
        """The document's page term counts (:class:`~alphasearch.pageindex.PageTerms`), saved
        when it was added (or counted from its index now, once, and saved) for every folder
        page index; StoreError as :meth:`load_index` when its index is lost."""
        try:
            terms = PageTerms.from_bytes(self._page_terms_path(rec.sha256).read_bytes())
            if terms.pages == rec.pages:
                return terms
        except (OSError, ValueError):
            pass
        terms = PageTerms.from_texts([p.text for p in self.load_index(rec).pages])
        self._save_page_terms(rec.sha256, terms)
        return terms

    def _page_terms_path(self, sha: str) -> Path:
        _check_sha(sha)
        # named by the tokenizer's code and the format's version: counts stay valid while the tokenizer does
        return self.page_terms_dir / f"{sha}-{code_fingerprint('alphasearch.text')}-v{PageTerms.VERSION}.npz"

    def _save_page_terms(self, sha: str, terms: PageTerms) -> None:
        try:
            atomic_write_bytes(self._page_terms_path(sha), terms.to_bytes())
        except OSError:
            pass  # a cache: a failed save costs only speed

    def pdf_bytes(self, rec: DocumentRecord) -> bytes:
        try:
            return self.pdf_path(rec.sha256).read_bytes()
        except OSError as exc:
            raise StoreError(f"The PDF of {rec.name} is missing; run a library repair.") from exc

    # --- chat history --------------------------------------------------------------------
    def add_turn(self, conversation: str, role: str, text: str, *, folder: str = "",
                 meta: dict[str, Any] | None = None) -> None:
        """Append one message to a conversation (persisted). ``folder`` is a folder id or ''."""
        if role not in ("user", "assistant"):
            raise ValueError(f"Unknown role {role!r}; choose user or assistant.")
        with self._db(write=True) as con:
            con.execute("INSERT INTO chat(conversation, role, text, folder_id, meta, created) VALUES (?,?,?,?,?,?)",
                        (str(conversation), role, text, folder or "", json.dumps(meta or {}, ensure_ascii=False),
                         time.time()))

    def history(self, conversation: str, limit: int = 50) -> list[ChatTurn]:
        """The last ``limit`` turns of a conversation, oldest first."""
        with self._db() as con:
            rows = con.execute("SELECT role, text, folder_id, meta, created FROM chat WHERE conversation=? "
                               "ORDER BY id DESC LIMIT ?", (str(conversation), int(limit))).fetchall()
        return [ChatTurn(r["role"], r["text"], r["folder_id"], r["created"], _loads(r["meta"])) for r in reversed(rows)]

    def clear_history(self, conversation: str) -> int:
        """Forget a conversation; returns how many turns were removed."""
        with self._db(write=True) as con:
            return con.execute("DELETE FROM chat WHERE conversation=?", (str(conversation),)).rowcount

    def conversations(self) -> list[str]:
        with self._db() as con:
            return [r[0] for r in con.execute("SELECT conversation FROM chat GROUP BY conversation ORDER BY MAX(id) DESC")]

    # --- saved traces --------------------------------------------------------------------
    def save_trace(self, folder_id: str, data: dict[str, Any]) -> Path:
        """Store the latest folder search (JSON-ready dict) for the tree visualizer."""
        _check_id(folder_id)
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

    # --- health and repair ------------------------------------------------------------
    def health(self, *, deep: bool = False) -> HealthReport:
        """Check every row against its files and every file against the rows.
        ``deep`` also re-hashes each PDF (reads every byte)."""
        from . import pdf

        issues: list[Issue] = []
        with self._db() as con:
            rows = con.execute("SELECT d.*, f.name AS folder_name FROM documents d JOIN folders f ON f.id=d.folder_id "
                               "ORDER BY f.name_key, d.name_key").fetchall()
            live = self._live_pending(con)
            folder_ids = {r[0] for r in con.execute("SELECT id FROM folders")}
        shas = {r["sha256"] for r in rows}
        checked: dict[str, str | None] = {}
        for r in rows:
            where = f"{r['name']} in {r['folder_name']}"
            sha = r["sha256"]
            has_pdf = self.pdf_path(sha).exists()
            ipath = self.index_path(sha)
            kw = dict(folder=r["folder_name"], document=r["name"])
            if not has_pdf and not ipath.exists():
                issues.append(Issue("row_without_files", f"{where}: neither its PDF nor its index is on disk.", **kw))
                continue
            if not has_pdf:
                issues.append(Issue("pdf_missing", f"{where}: its PDF is missing.", path=str(self.pdf_path(sha)), **kw))
            if sha not in checked:
                checked[sha] = self._index_problem(sha)
            problem = checked[sha]
            if problem:
                issues.append(Issue(problem, f"{where}: {_PROBLEM_TEXT[problem]}", path=str(ipath), **kw))
            if deep and has_pdf and pdf.content_hash(self.pdf_path(sha).read_bytes()) != sha:
                issues.append(Issue("pdf_changed", f"{where}: its PDF on disk no longer matches its content hash.", **kw))
        files = 0
        for d, suffix in ((self.pdf_dir, ".pdf"), (self.indexes.dir, ".json")):
            for p in sorted(d.iterdir()):
                files += 1
                if p.name.startswith(".") and p.name.endswith(".tmp"):
                    sha = p.name[1:65]
                    if sha not in live:
                        issues.append(Issue("temp_file", f"{p.name} is a leftover of an interrupted write.", path=str(p)))
                    continue
                stem = p.name[: -len(suffix)] if p.name.endswith(suffix) else ""
                if stem not in shas and stem not in live:
                    issues.append(Issue("orphan_file", f"{d.name}/{p.name} belongs to no document.", path=str(p)))
        for p in sorted(self.trace_dir.iterdir()):
            if p.name != "latest.json" and p.suffix == ".json" and p.stem not in folder_ids:
                issues.append(Issue("orphan_trace", f"traces/{p.name} belongs to no folder.", path=str(p)))
        return HealthReport(issues, len(rows), files)

    def _index_problem(self, sha: str) -> str | None:
        p = self.index_path(sha)
        if not p.exists():
            return "index_missing"
        try:
            raw = json.loads(p.read_text("utf-8"))
            version = raw.get("version")
            doc_id = raw.get("doc_id")
        except (OSError, ValueError, AttributeError):
            return "index_unreadable"
        if version != INDEX_VERSION:
            return "index_old_version"
        if doc_id != sha:
            return "index_stale"
        try:
            DocumentIndex.from_dict(raw)
        except (KeyError, TypeError, ValueError, IndexError):
            return "index_unreadable"
        return None

    def repair(self) -> RepairReport:
        """Fix what :meth:`health` finds: re-index from the stored PDF where the
        index is missing, unreadable, stale or old; drop rows whose PDF is gone
        (they cannot be shown or re-indexed); delete orphan and temporary files."""
        actions: list[str] = []
        report = self.health(deep=True)
        rebuilt: set[str] = set()
        for issue in report.issues:
            if issue.kind in ("row_without_files", "pdf_missing", "pdf_changed"):
                try:
                    rec = self.document(issue.folder, issue.document)
                except NotFoundError:
                    continue
                with self._db(write=True) as con:
                    con.execute("DELETE FROM documents WHERE id=?", (rec.record_id,))
                    self._bump(con)
                self._drop_trace(rec.folder_id)
                self._purge_unreferenced(rec.sha256)
                actions.append(f"removed {issue.document} from {issue.folder}: its PDF is gone or damaged; add it again.")
            elif issue.kind in ("index_missing", "index_unreadable", "index_stale", "index_old_version"):
                try:
                    rec = self.document(issue.folder, issue.document)
                except NotFoundError:
                    continue
                if rec.sha256 in rebuilt:
                    continue
                with self._cache_lock:
                    self._index_cache.pop(rec.sha256, None)
                try:
                    self._rebuild(rec)
                    rebuilt.add(rec.sha256)
                    actions.append(f"re-indexed {rec.name} in {issue.folder} ({issue.kind.replace('_', ' ')}).")
                except (OSError, StoreError) as exc:
                    with self._db(write=True) as con:
                        con.execute("DELETE FROM documents WHERE id=?", (rec.record_id,))
                        self._bump(con)
                    self._purge_unreferenced(rec.sha256)
                    actions.append(f"removed {rec.name} from {issue.folder}: it could not be re-indexed ({exc}).")
            elif issue.kind in ("orphan_file", "temp_file", "orphan_trace"):
                p = Path(issue.path)
                with self._db(write=True) as con:  # decide under the write lock, like _purge_unreferenced
                    sha = p.name.lstrip(".")[:64]
                    in_use = con.execute("SELECT 1 FROM documents WHERE sha256=?", (sha,)).fetchone() or \
                        sha in self._live_pending(con)
                    if issue.kind == "orphan_trace" or not in_use:
                        try:
                            p.unlink()
                            actions.append(f"deleted {p.parent.name}/{p.name} ({issue.kind.replace('_', ' ')}).")
                        except FileNotFoundError:
                            pass
        with self._db(write=True) as con:
            stale = [r["token"] for r in con.execute("SELECT token, pid FROM pending").fetchall()
                     if not _pid_alive(r["pid"])]
            for t in stale:
                con.execute("DELETE FROM pending WHERE token=?", (t,))
        if stale:
            actions.append(f"cleared {len(stale)} interrupted add(s).")
        return RepairReport(actions, self.health())


# share of one file's progress bar per indexer stage
_STAGES = {"validating": (0.0, 0.05), "reading pages": (0.05, 0.8), "building the tree": (0.8, 0.9),
           "summaries": (0.9, 1.0), "unchanged": (1.0, 1.0), "index reused": (1.0, 1.0)}

_PROBLEM_TEXT = {
    "index_missing": "its index is missing.",
    "index_unreadable": "its index cannot be read.",
    "index_stale": "its index belongs to other content (stale hash).",
    "index_old_version": "its index was built by an older version of AlphaSearch.",
}


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()  # = pdf.content_hash


def _rollback(con: sqlite3.Connection) -> None:
    try:
        if con.in_transaction:
            con.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _is_sha(text: str) -> bool:
    return len(text) == 64 and set(text) <= _HEX


def _check_sha(sha: str) -> None:
    if not _is_sha(sha):
        raise StoreError(f"Invalid document hash {sha!r}.")


def _check_id(folder_id: str) -> None:
    if len(folder_id) != 32 or not set(folder_id) <= _HEX:
        raise StoreError(f"Invalid folder id {folder_id!r}.")


def _loads(text: str) -> dict[str, Any]:
    try:
        out = json.loads(text)
        return out if isinstance(out, dict) else {}
    except ValueError:
        return {}


# the columns of a DocumentRecord (not the vocabulary: listing a big folder need not read it)
_RECORD_COLUMNS = "id, folder_id, name, sha256, pages, size_bytes, summary, profile, index_version, added"


def _record(r: sqlite3.Row) -> DocumentRecord:
    return DocumentRecord(r["id"], r["folder_id"], r["name"], r["sha256"], r["pages"], r["size_bytes"], r["summary"],
                          r["profile"], r["index_version"], r["added"])
