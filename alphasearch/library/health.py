"""Library methods that check every row against its files and every file against the rows, and repair."""
from __future__ import annotations

import json
from pathlib import Path

from . import catalog as sql
from ..errors import NotFoundError, StoreError
from ..models import INDEX_VERSION, DocumentIndex
from .catalog import pid_alive
from .records import HealthReport, Issue, RepairReport


PROBLEM_TEXT = {
    "index_missing": "its index is missing.",
    "index_unreadable": "its index cannot be read.",
    "index_stale": "its index belongs to other content (stale hash).",
    "index_old_version": "its index was built by an older version of AlphaSearch.",
    "index_ocr_outdated": "its index was read with another OCR setting (or before Tesseract was installed).",
}


class HealthMethods:
    """Health check and repair (part of :class:`~alphasearch.library.Library`)."""

    def health(self, *, deep: bool = False) -> HealthReport:
        """Check every row against its files and every file against the rows.
        ``deep`` also re-hashes each PDF (reads every byte)."""
        from .. import pdf

        issues: list[Issue] = []
        with self._db() as con:
            rows = con.execute(sql.SELECT_DOCUMENTS_D_FOLDER_NAME).fetchall()
            live = self._live_pending(con)
            folder_ids = {r[0] for r in con.execute(sql.SELECT_FOLDERS_ID)}
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
                issues.append(Issue(problem, f"{where}: {PROBLEM_TEXT[problem]}", path=str(ipath), **kw))
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
            if not p.name.startswith("latest") and p.suffix == ".json" and p.stem.split("-")[0] not in folder_ids:
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
            index = DocumentIndex.from_dict(raw)
        except (KeyError, TypeError, ValueError, IndexError):
            return "index_unreadable"
        return "index_ocr_outdated" if self._ocr_outdated(index) else None

    def _ocr_outdated(self, index: DocumentIndex) -> bool:
        """Whether ``index`` was read with another OCR setting than the library's (isolation.ocr_outdated)."""
        if getattr(self, "settings", None) is None:
            return False
        from ..index import isolation

        return isolation.ocr_outdated(index, isolation.IndexOptions.from_settings(self.settings))

    def repair(self) -> RepairReport:
        """Fix what :meth:`health` finds: re-index from the stored PDF where the
        index is missing, unreadable, stale or old; drop rows whose PDF is gone
        (they cannot be shown or re-indexed); delete orphan and temporary files."""
        self._may_change()
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
                    con.execute(sql.DELETE_DOCUMENTS_BY_ID, (rec.record_id,))
                    self._bump(con)
                self._drop_trace(rec.folder_id)
                self._purge_unreferenced(rec.sha256)
                actions.append(f"removed {issue.document} from {issue.folder}: its PDF is gone or damaged; add it again.")
            elif issue.kind in ("index_missing", "index_unreadable", "index_stale", "index_old_version",
                                "index_ocr_outdated"):
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
                        con.execute(sql.DELETE_DOCUMENTS_BY_ID, (rec.record_id,))
                        self._bump(con)
                    self._purge_unreferenced(rec.sha256)
                    actions.append(f"removed {rec.name} from {issue.folder}: it could not be re-indexed ({exc}).")
            elif issue.kind in ("orphan_file", "temp_file", "orphan_trace"):
                p = Path(issue.path)
                with self._db(write=True) as con:  # decide under the write lock, like _purge_unreferenced
                    sha = p.name.lstrip(".")[:64]
                    in_use = con.execute(sql.SELECT_DOCUMENTS_EXISTS_BY_SHA256_2, (sha,)).fetchone() or \
                        sha in self._live_pending(con)
                    if issue.kind == "orphan_trace" or not in_use:
                        try:
                            p.unlink()
                            actions.append(f"deleted {p.parent.name}/{p.name} ({issue.kind.replace('_', ' ')}).")
                        except FileNotFoundError:
                            pass
        with self._db(write=True) as con:
            stale = [r["token"] for r in con.execute(sql.SELECT_PENDING_TOKEN_PID).fetchall()
                     if not pid_alive(r["pid"])]
            for t in stale:
                con.execute(sql.DELETE_PENDING_BY_TOKEN, (t,))
        if stale:
            actions.append(f"cleared {len(stale)} interrupted add(s).")
        return RepairReport(actions, self.health())
