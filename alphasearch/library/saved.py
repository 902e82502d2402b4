"""Search indexes derived from documents, saved as directories (page rankers, folder page indexes)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..models import DocumentIndex
from ..index.ranker import PageRanker
from .files import code_fingerprint
from .names import is_sha


T = TypeVar("T")


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
        if not is_sha(doc_id) or not self.root.is_dir():
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
        if not is_sha(doc.doc_id):
            return None
        shape = [code_fingerprint("alphasearch.index.ranker", "alphasearch.lang.questions", "alphasearch.lang.text",
                                  "alphasearch.lang.glyphs"), doc.version, doc.engine,
                 doc.page_count, [(n.title, list(n.pages)) for n in doc.root.walk()],
                 [list(p.headings) for p in doc.pages], list(doc.ocr_pages)]
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
