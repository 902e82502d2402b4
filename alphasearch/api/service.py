"""What every request shares: the engine, the job pool, the rate limiter and the uploaded documents
(kept by content hash in the engine's upload store, their indexes in the engine's cache)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..errors import NotFoundError
from ..folder.search import answer_json
from ..index import facts as doc_facts
from ..index import isolation
from ..library.names import is_sha
from ..models import DocumentIndex
from ..pipeline import Engine, OnStep
from .access import RateLimiter
from .jobs import Jobs, Progress

WARM_DOCUMENTS = 16  # indexes of uploaded documents kept in memory


class Service:
    """The engine behind the API with its shared state. Thread-safe."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.settings = engine.settings
        self.jobs = Jobs(self.settings.api_jobs)
        self.limiter = RateLimiter(self.settings.api_rate_limit)
        self._docs: OrderedDict[str, DocumentIndex] = OrderedDict()
        self._lock = threading.Lock()

    # --- uploaded documents -------------------------------------------------------------------
    def index_upload(self, data: bytes, name: str, progress: Progress | None = None) -> DocumentIndex:
        """Index uploaded bytes (another format converted to PDF, then parsed, in worker processes with the
        app's limits) and keep the PDF."""
        data = self.engine.as_pdf(data, name, progress=progress)
        doc = self.engine.index_bytes(data, name, progress=progress)
        self.engine.uploads.put(data, name)
        self._remember(doc)
        return doc

    def document(self, doc_id: str) -> DocumentIndex:
        """An uploaded document's index; NotFoundError for an id that names none."""
        with self._lock:
            hit = self._docs.get(doc_id)
            if hit is not None:
                self._docs.move_to_end(doc_id)
                return hit
        data = self.pdf_bytes(doc_id)
        doc = self.engine.index_bytes(data, self.engine.uploads.name_of(doc_id) or f"{doc_id[:12]}.pdf")
        self._remember(doc)
        return doc

    def pdf_bytes(self, doc_id: str) -> bytes:
        data = self.engine.uploads.get(doc_id) if is_sha(doc_id) else None
        if data is None:
            raise NotFoundError(f"No document with id {doc_id[:80]!r}; upload it with POST /v1/documents.")
        return data

    def delete(self, doc_id: str) -> None:
        if not self.engine.uploads.remove(doc_id):
            raise NotFoundError(f"No document with id {doc_id[:80]!r}.")
        with self._lock:
            self._docs.pop(doc_id, None)

    def _remember(self, doc: DocumentIndex) -> None:
        with self._lock:
            self._docs[doc.doc_id] = doc
            self._docs.move_to_end(doc.doc_id)
            while len(self._docs) > WARM_DOCUMENTS:
                self._docs.popitem(last=False)

    def page_png(self, doc_id: str, page: int, highlight: str = "") -> bytes:
        """An uploaded document's page (1-based) as PNG with ``highlight`` marked."""
        doc = self.document(doc_id)
        return page_png(self.pdf_bytes(doc_id), doc.name, doc.page_count, page, highlight)

    def library_page_png(self, folder: str, name: str, page: int, highlight: str = "") -> bytes:
        """A folder document's page (1-based) as PNG with ``highlight`` marked (a folder answer's citation)."""
        lib = self.engine.library
        rec = lib.document(folder, name)
        return page_png(lib.pdf_bytes(rec), rec.name, rec.pages, page, highlight)

    # --- questions ------------------------------------------------------------------------------
    def query(self, doc_id: str, question: str, *, trace: bool = False, iterations: int | None = None,
              seed: int | None = None, on_step: OnStep | None = None,
              on_text: Callable[[str], None] | None = None) -> dict[str, Any]:
        """The answer object of ``query --json`` for one uploaded document."""
        answer = self.engine.ask_document(self.document(doc_id), question, iterations=iterations, seed=seed,
                                          on_step=on_step, on_text=on_text)
        return answer_json(answer, trace=trace)

    def ask(self, question: str, *, folder: str | None = None, conversation: str | None = None,
            documents: list[str] | None = None, top_k: int | None = None, iterations: int | None = None,
            seed: int | None = None, trace: bool = False, on_step: OnStep | None = None) -> dict[str, Any]:
        """The answer object of ``ask --json``: routed to a folder unless one is named."""
        answer = self.engine.ask_folder(question, folder=folder, conversation=conversation, documents=documents,
                                        top_k=top_k, iterations=iterations, seed=seed, on_step=on_step)
        return answer_json(answer, trace=trace)


def page_png(data: bytes, name: str, pages: int, page: int, highlight: str = "") -> bytes:
    """Page ``page`` (1-based) of a PDF as PNG with ``highlight`` marked, drawn in the app's preview worker
    (its time limit); NotFoundError for a page the document does not have."""
    if not 1 <= page <= pages:
        raise NotFoundError(f"{name} has pages 1 to {pages}; there is no page {page}.")
    return isolation.preview_pool().run(isolation.render_preview, data, page, (highlight,) if highlight else (),
                                        name=f"Page {page}")


def card(doc: DocumentIndex) -> dict[str, Any]:
    """A document's card: pages, sections, where its tree came from, its facts and top-level sections."""
    return {"id": doc.doc_id, "name": doc.name, "pages": doc.page_count, "sections": doc.section_count(),
            "tree_source": doc.tree_source, "engine": doc.engine, "summary": doc.summary,
            "facts": doc_facts.extract(doc).to_dict(), "warnings": list(doc.warnings),
            "outline": [{"id": s.node_id, "title": s.title, "pages": list(s.pages)} for s in doc.root.children]}
