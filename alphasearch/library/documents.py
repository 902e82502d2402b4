"""Library methods for documents: add (incrementally by content hash, in worker processes or on
a Ray cluster), replace, remove and purge, read their indexes, page term counts and facts."""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable
from concurrent.futures import wait as wait_futures
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import catalog as sql
from ..index import facts as doc_facts
from ..errors import (
    AlphaSearchError, FileTooLargeError, InvalidFactError, InvalidNameError, NotFoundError, PDFError,
    StoreError,
)
from ..models import DocumentIndex
from ..index.pageindex import PageTerms
from .catalog import json_dict, pid_alive, record_of_row
from .files import atomic_write_bytes, code_fingerprint
from .names import MAX_NAME, check_sha, name_key, sha256_of, shown, validate_name
from .records import AddResult, BuildIndex, DocumentRecord, Progress
from .saved import RankerStore


def default_build(settings: Any) -> BuildIndex:
    def build(data: bytes, name: str, progress: Progress | None = None) -> DocumentIndex:
        from ..index import isolation  # untrusted bytes: parsed in a worker process with the settings' limits

        options = isolation.IndexOptions.from_settings(settings)
        return isolation.shared_pool(settings).run(isolation.index_pdf, data, name, options, name=name,
                                                   progress=progress, extra_seconds=options.extra_seconds).index

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
    from ..lang.text import terms

    seen: set[str] = set()
    for p in index.pages:
        seen.update(terms(p.text))
    return " ".join(sorted(seen))


LAYOUT_UPGRADE_SECONDS = 3.0  # a facts() call reads stored PDFs' missing page layouts for this long at most
HEARTBEAT_SECONDS = 0.5  # while a worker indexes a file, progress is told again from the caller's thread this often

# share of one file's progress bar per indexer stage
STAGES = {"converting": (0.0, 0.05), "validating": (0.0, 0.05), "reading pages": (0.05, 0.6),
          "reading scanned pages (OCR)": (0.6, 0.8), "building the tree": (0.8, 0.9),
          "summaries": (0.9, 1.0), "unchanged": (1.0, 1.0), "index reused": (1.0, 1.0)}


class DocumentMethods:
    """Documents: add, replace, remove, read (part of :class:`~alphasearch.library.Library`)."""

    def documents(self, folder: str | None = None) -> list[DocumentRecord]:
        """Documents of one folder (or of the whole library), by name."""
        with self._db() as con:
            if folder is None:
                rows = con.execute(sql.SELECT_DOCUMENTS_RECORDS).fetchall()
            else:
                fid = self._folder_row(con, folder)["id"]
                rows = con.execute(sql.SELECT_DOCUMENTS_RECORDS_BY_FOLDER_ID,
                                   (fid,)).fetchall()
        return [record_of_row(r) for r in rows]

    def document(self, folder: str, name: str) -> DocumentRecord:
        with self._db() as con:
            fid = self._folder_row(con, folder)["id"]
            row = con.execute(sql.SELECT_DOCUMENTS_BY_FOLDER_ID_NAME_KEY,
                              (fid, name_key(str(name).strip()))).fetchone()
        if row is None:
            raise NotFoundError(f"The folder has no document named {shown(str(name))}.")
        return record_of_row(row)

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
        :mod:`alphasearch.index.cluster`), their saved page rankers coming back too; only this
        process writes the library. Raises :class:`~alphasearch.index.cluster.ClusterError`
        when the cluster cannot be reached.
        """
        self._may_change()
        items = list(items)
        fid = self.folder(folder).folder_id
        user_report = progress or (lambda message, fraction: None)
        shown = [0.0]
        said = ["starting"]  # the latest message, from whichever thread

        def report(message: str, fraction: float) -> None:
            shown[0] = max(shown[0], min(1.0, fraction))
            said[0] = message
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
        stop = threading.Event()
        prebuilt, threads = self._prebuild(fid, jobs, workers, report, cluster, rankers, stop) if jobs else ({}, None)
        n = max(1, len(items))
        try:
            for i, name, data, started in jobs:
                done = [0.0]  # this file's fraction so far: never goes back

                def sub(stage: str, frac: float, _i=i, _name=name, _done=done) -> None:
                    lo, hi = STAGES.get(stage, (_done[0], 1.0))
                    _done[0] = max(_done[0], lo + (hi - lo) * max(0.0, min(1.0, frac)))
                    report(f"{_name}: {stage}", min(1.0, (_i + _done[0]) / n))

                built = prebuilt.get(sha256_of(data))
                while hasattr(built, "done") and not built.done():  # a worker's file: say, from this thread,
                    wait_futures([built], timeout=HEARTBEAT_SECONDS)  # what the workers' threads said meanwhile
                    user_report(said[0], shown[0])                     # (a file waiting in line says its place)
                try:
                    result = self._add_one(fid, name, data, sub, replace_existing, built)
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
            stop.set()  # a stopped run: its files waiting in line leave it; the running one ends
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
                  rankers: dict[str, dict[str, bytes]] | None = None,
                  stop: threading.Event | None = None) -> tuple[dict[str, Any], Any]:
        """Start indexing the batch's new PDFs in ``workers`` local worker processes at once
        (isolation.py) or on a Ray cluster (default indexer only). Returns content hash →
        a Future of an IndexedPdf, a DocumentIndex or the exception it raised (a cluster's
        saved rankers go into ``rankers``; set, ``stop`` takes the files still waiting for a worker out of
        the line), and the thread pool feeding the local workers
        (None with a cluster; the caller shuts it down)."""
        if self.build is not self._default_build:  # a custom indexer (LLM, tests) runs in this process
            return {}, None
        with self._db() as con:
            stored = {(r[0], r[1]) for r in con.execute(sql.SELECT_DOCUMENTS_NAME_KEY_SHA256_BY_FOLDER_ID,
                                                         (fid,))}
        todo: dict[str, tuple[str, bytes]] = {}
        for _, name, data, _ in jobs:
            sha = sha256_of(data)
            if (name_key(name), sha) in stored or sha in todo or self.index_path(sha).exists():
                continue
            todo[sha] = (name, data)
        if not todo:
            return {}, None
        if cluster:
            from ..index.cluster import IndexedFile, index_on_cluster

            from concurrent.futures import Future

            limits = {}
            if self.settings is not None:
                limits = dict(max_pages=self.settings.max_pages, warn_pages=self.settings.warn_pages,
                              max_leaf_pages=self.settings.max_leaf_pages, parse_seconds=self.settings.parse_seconds,
                              parse_memory_mb=self.settings.parse_memory_mb, ocr=self.settings.ocr,
                              ocr_seconds=self.settings.ocr_seconds)
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

        from ..index import isolation, turns

        workers = max(1, min(int(workers or getattr(self.settings, "index_workers", 0) or os.cpu_count() or 1),
                             len(todo)))
        procs = isolation.shared_pool(self.settings, size=workers)
        options = replace(isolation.IndexOptions.from_settings(self.settings), layout=True)
        if len(todo) > 1:
            report(f"indexing {len(todo)} PDFs in {workers} worker process(es)", 0.0)
        threads = ThreadPoolExecutor(workers, thread_name_prefix="alphasearch-index")
        # Largest files first (their size stands in for their work): a big file started last would
        # leave one worker busy while the others idle at the end of the batch.
        biggest_first = sorted(todo.items(), key=lambda kv: len(kv[1][1]), reverse=True)
        owner = turns.visitor()  # the caller's visitor: their files take one worker at a time (turns.py)

        def told(name: str) -> Progress:
            """A file's place while it waits for a worker, then once the stage it starts with (the rest of its
            stages would hide another file's place on a one-line display)."""
            waited = [False]

            def tell(stage: str, _: float) -> None:
                if stage.startswith(turns.WAITING) or waited[0]:
                    waited[0] = stage.startswith(turns.WAITING)
                    report(f"{name}: {stage}", 0.0)
            return tell

        futures = {sha: threads.submit(procs.run, isolation.index_pdf, data, name, options, name=name,
                                       extra_seconds=options.extra_seconds, owner=owner, progress=told(name),
                                       cancel=stop)
                   for sha, (name, data) in biggest_first}
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
        self._may_change()
        rec = self.document(folder, name)
        with self._db(write=True) as con:
            con.execute(sql.DELETE_DOCUMENTS_BY_ID, (rec.record_id,))
            self._bump(con)
        self._drop_trace(rec.folder_id)
        self._purge_unreferenced(rec.sha256)
        return rec

    def _read_source(self, source: bytes | Path | str, name: str) -> bytes:
        from .. import pdf

        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            if len(data) > self.max_file_mb * 1024 * 1024:
                raise FileTooLargeError(
                    f"{name} is {len(data) / 2**20:.0f} MB; the limit is {self.max_file_mb} MB.")
        else:
            data = pdf.load_bytes(source, max_file_mb=self.max_file_mb)
        from ..index import isolation

        data = isolation.as_pdf(data, name, self.settings)  # another format: converted to PDF in a worker
        pdf.check_header(data, name)  # empty or not a PDF: said at once, without starting a worker
        return data

    def _add_one(self, fid: str, name: str, data: bytes, progress: Progress, replace_existing: bool,
                 prebuilt: Any = None) -> AddResult:
        sha = sha256_of(data)
        key = name_key(name)
        with self._db() as con:
            old = con.execute(sql.SELECT_DOCUMENTS_BY_FOLDER_ID_NAME_KEY, (fid, key)).fetchone()
            twin = con.execute(sql.SELECT_DOCUMENTS_NAME_BY_FOLDER_ID_SHA256_NAME_KEY,
                               (fid, sha, key)).fetchone()
        if old is not None and old["sha256"] == sha and self.pdf_path(sha).exists() and \
                self._index_problem(sha) is None:
            progress("unchanged", 1.0)
            return AddResult(name, "unchanged", "Same content as the stored copy; skipped.", record_of_row(old))
        if twin is not None:
            return AddResult(name, "duplicate", f"{name} has the same content as {twin['name']}, already in this folder.")
        if old is not None and old["sha256"] != sha and not replace_existing:
            return AddResult(name, "duplicate", f"A different {name} is already in this folder.")
        if isinstance(prebuilt, BaseException):
            raise prebuilt
        page_terms = layout = None
        if hasattr(prebuilt, "result"):  # a Future of a local worker's IndexedPdf (see _prebuild)
            built = prebuilt.result()  # raises what indexing raised (PDFError: the file is rejected)
            prebuilt, page_terms, layout = built.index, built.page_terms, built.layout
        token = uuid.uuid4().hex
        with self._db(write=True) as con:
            con.execute(sql.INSERT_PENDING,
                        (token, sha, os.getpid(), time.time()))
        committed = False
        try:
            pdf_file = self.pdf_path(sha)
            if not pdf_file.exists() or pdf_file.stat().st_size != len(data):
                atomic_write_bytes(pdf_file, data)
            index = self.indexes.get(sha)
            if index is None or index.doc_id != sha or self._ocr_outdated(index):
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
            if layout is None:
                layout = self._layout(data, name)
            auto = json.dumps(self.read_facts(index).with_layout(layout).to_dict(), ensure_ascii=False)
            with self._db(write=True) as con:
                if con.execute(sql.SELECT_FOLDERS_EXISTS_BY_ID, (fid,)).fetchone() is None:
                    raise NotFoundError("The folder was deleted while the file was being added.")
                # the row this commit replaces, read under the write lock (another process may have
                # added the same name since we looked)
                prev = con.execute(sql.SELECT_DOCUMENTS_SHA256_BY_FOLDER_ID_NAME_KEY,
                                   (fid, key)).fetchone()
                con.execute(sql.DELETE_DOCUMENTS_BY_FOLDER_ID_NAME_KEY, (fid, key))
                con.execute(
                    sql.INSERT_DOCUMENTS,
                    (rec.record_id, fid, name, key, sha, rec.pages, rec.size_bytes, rec.summary, rec.profile,
                     rec.index_version, rec.added, vocab))
                con.execute(sql.FACTS_PUT, (rec.record_id, auto, "{}", doc_facts.FACTS_VERSION))
                con.execute(sql.DELETE_PENDING_BY_TOKEN, (token,))
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
                con.execute(sql.DELETE_PENDING_BY_TOKEN, (token,))
        except StoreError:
            pass

    def _live_pending(self, con: sqlite3.Connection) -> set[str]:
        live = set()
        for row in con.execute(sql.SELECT_PENDING_TOKEN_SHA256).fetchall():
            if pid_alive(row["pid"]):
                live.add(row["sha256"])
        return live

    def _purge_unreferenced(self, sha: str) -> bool:
        """Delete the PDF and index files of ``sha`` if no row and no live add
        uses them. Decided and done while holding the catalog's write lock."""
        with self._db(write=True) as con:
            if con.execute(sql.SELECT_DOCUMENTS_EXISTS_BY_SHA256, (sha,)).fetchone():
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
            rows = con.execute(sql.SELECT_DOCUMENTS).fetchall()
        return [(record_of_row(r), r["vocab"]) for r in rows]

    def _layout(self, data: bytes, name: str) -> tuple[float, float]:
        """The PDF's page layout for its facts (:func:`alphasearch.pdf.page_layout`), read in a worker
        like the index; (0, 0) when it cannot be read (the layout is a hint, never a reason to refuse)."""
        from ..index import isolation

        try:
            return isolation.shared_pool(self.settings).run(isolation.pdf_layout, data, name, name=name)
        except AlphaSearchError:
            return 0.0, 0.0

    def facts(self, folder: str | None = None) -> dict[str, doc_facts.DocFacts]:
        """Document id → its facts (as read from the document, with the user's edits on top),
        for one folder or the whole library. Facts missing or read by an older
        ``FACTS_VERSION`` (e.g. a library from before facts) are read now from the index; page
        layouts not read yet (a library from before layouts) are read for
        ``LAYOUT_UPGRADE_SECONDS`` a call, the rest on later calls, so a large library's first
        folder question does not wait for every PDF."""
        with self._db() as con:
            if folder is None:
                rows = con.execute(sql.FACTS_SQL).fetchall()
            else:
                fid = self._folder_row(con, folder)["id"]
                rows = con.execute(sql.FACTS_SQL_BY_FOLDER_ID, (fid,)).fetchall()
        out: dict[str, doc_facts.DocFacts] = {}
        fresh: list[tuple[str, str]] = []
        layout_until = time.monotonic() + LAYOUT_UPGRADE_SECONDS
        for r in rows:
            stored = (doc_facts.DocFacts.from_dict(json_dict(r["auto"]))
                      if r["auto"] is not None and r["version"] == doc_facts.FACTS_VERSION else None)
            auto = stored
            if stored is None or (stored.landscape is None and time.monotonic() < layout_until):
                try:
                    rec = self._record_of(r["id"])
                    auto = stored or doc_facts.extract(self.load_index(rec))
                    if time.monotonic() < layout_until and self.pdf_path(rec.sha256).exists():
                        auto = auto.with_layout(self._layout(self.pdf_path(rec.sha256).read_bytes(), rec.name))
                except (AlphaSearchError, NotFoundError, OSError):
                    auto = stored or doc_facts.DocFacts()  # a lost index: no facts until a repair
                if auto != stored:
                    fresh.append((r["id"], json.dumps(auto.to_dict(), ensure_ascii=False)))
            out[r["id"]] = auto.merged(doc_facts.DocFacts.from_dict(json_dict(r["user"] or "{}")))
        if fresh:
            with self._db(write=True) as con:
                for doc_id, auto_json in fresh:
                    if con.execute(sql.SELECT_DOCUMENTS_EXISTS_BY_ID, (doc_id,)).fetchone():
                        con.execute(sql.FACTS_PUT, (doc_id, auto_json, "{}", doc_facts.FACTS_VERSION))
        return out

    def set_facts(self, folder: str, name: str, **changes: Any) -> doc_facts.DocFacts:
        """Correct a document's facts (field → value; '' clears it); kept until the document is
        replaced. Raises :class:`InvalidFactError` for an unknown field or a bad year/quarter."""
        self._may_change()
        rec = self.document(folder, name)
        current = self.facts(rec.folder_id)[rec.record_id]
        try:
            edited = current.edit(**changes)
        except ValueError as exc:
            raise InvalidFactError(str(exc)) from None
        user = {f: getattr(edited, f) for f in edited.edited} | {"edited": list(edited.edited)}
        with self._db(write=True) as con:
            con.execute(sql.UPDATE_FACTS_USER_BY_DOCUMENT_ID,
                        (json.dumps(user, ensure_ascii=False), rec.record_id))
            self._bump(con)
        return edited

    def _record_of(self, doc_id: str) -> DocumentRecord:
        with self._db() as con:
            row = con.execute(sql.SELECT_DOCUMENTS_BY_ID, (doc_id,)).fetchone()
        if row is None:
            raise NotFoundError("The document was removed meanwhile.")
        return record_of_row(row)

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
            if index is not None and index.doc_id == rec.sha256 and not self._ocr_outdated(index):
                return index
            try:
                data = self.pdf_path(rec.sha256).read_bytes()
            except OSError:
                raise StoreError(f"The index and the PDF of {rec.name} are missing; run a library repair.") from None
            if sha256_of(data) != rec.sha256:
                raise StoreError(f"The stored PDF of {rec.name} is damaged; run a library repair.")
            try:
                index = self.build(data, rec.name, None)
            except PDFError as exc:
                raise StoreError(f"{rec.name} could not be indexed again ({exc}); run a library repair.") from exc
            index = replace(index, doc_id=rec.sha256)
            self.indexes.put(index)
            profile, vocab = routing_profile(replace(index, name=rec.name)), vocabulary(index)
            with self._db(write=True) as con:
                con.execute(sql.UPDATE_DOCUMENTS_INDEX_VERSION_BY_SHA256,
                            (index.version, index.page_count, index.summary, profile, vocab, rec.sha256))
                self._bump(con)
            return index

    def page_terms(self, rec: DocumentRecord) -> PageTerms:
        """The document's page term counts (:class:`~alphasearch.index.pageindex.PageTerms`), saved
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
        check_sha(sha)
        # named by the tokenizer's code and the format's version: counts stay valid while the tokenizer does
        return self.page_terms_dir / f"{sha}-{code_fingerprint('alphasearch.lang.text')}-v{PageTerms.VERSION}.npz"

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
