"""Wires the pieces: index a PDF (cached by content hash) and answer a question.

The engine doing the work (offline, or "openai") is picked once from the
settings (:func:`make_backend`); both offer the same interface
(:class:`alphasearch.engines.offline.DocEngine`), so there is one search path.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .index import indexer, isolation
from . import pdf
from .config import Settings, check_question
from .engines.offline import DocEngine, DocTools, OfflineEngine, OnText, timed
from .folder.search import FolderSearch
from .engines.llm import LLMEngine
from .search.mcts import search
from .lang.questions import spelled_out
from .models import Answer, DocumentIndex, SearchStep
from .folder.router import OfflineRouter, Router
from .library import Library, UploadStore

Progress = indexer.Progress
OnStep = Callable[[str, SearchStep], None]  # (the searched tree's label: a document's name or "documents", the step)


def make_backend(settings: Settings, *, llm=None) -> DocEngine:
    """The engine these settings ask for ("openai" resolves from ``engine`` = auto when a key is set)."""
    offline = OfflineEngine(settings)
    return LLMEngine(offline, llm) if settings.resolved_engine == "openai" else offline


class Engine:
    """The engine behind the CLI and the app. Thread-safe; holds warm per-document scorers.
    ``llm``: a ready model client for the "openai" engine (default: built on first use)."""

    def __init__(self, settings: Settings | None = None, *, llm=None):
        self.settings = settings or Settings.from_env()
        self.backend: DocEngine = make_backend(self.settings, llm=llm)
        self.offline: OfflineEngine = getattr(self.backend, "offline", self.backend)  # type: ignore[assignment]
        self.indexes = self.offline.indexes
        self.rankers = self.offline.rankers
        self.uploads = UploadStore(self.settings.data_dir, self.settings.max_uploads_mb)  # Single PDF documents, found again after a reload
        self._lock = threading.Lock()
        self._library: Library | None = None
        self.router: Router = OfflineRouter(facts_weight=self.settings.facts_weight)
        self._folder_cache: dict[str, object] = {}

    # --- indexing -----------------------------------------------------------------
    def index_bytes(self, data: bytes, name: str, *, progress: Progress | None = None,
                    force: bool = False) -> DocumentIndex:
        """Index a document's bytes with this engine, or load the stored index of identical bytes (another
        accepted format is converted to PDF first: :meth:`as_pdf`)."""
        return self.backend.index(self.as_pdf(data, name, progress=progress), name, progress=progress, force=force)

    def as_pdf(self, data: bytes, name: str, *, progress: Progress | None = None) -> bytes:
        """The PDF bytes a document is indexed and shown as: a PDF's own; a Word, PowerPoint, HTML, Markdown,
        text, e-book, XPS, SVG or image file converted in a worker (:func:`isolation.as_pdf`)."""
        return isolation.as_pdf(data, name, self.settings, progress)

    def index_file(self, path: Path | str, *, progress: Progress | None = None, force: bool = False) -> DocumentIndex:
        data = pdf.load_bytes(path, max_file_mb=self.settings.max_file_mb)
        return self.index_bytes(data, Path(path).name, progress=progress, force=force)

    def tools(self, doc: DocumentIndex) -> DocTools:
        """The document's offline scorers (page ranker, section scorer, prior, page reader)."""
        return self.offline.tools(doc)

    # --- questions ---------------------------------------------------------------------
    def ask_document(self, doc: DocumentIndex, question: str, *, iterations: int | None = None,
                     seed: int | None = None, rule: str | None = None, on_text: OnText | None = None,
                     on_step: OnStep | None = None) -> Answer:
        """The search over the document's section tree and its pages (the engine's
        judges), then the answer from the pages it points at. ``on_text``: the answer's
        draft text, piece by piece, as the model writes it (the "openai" engine); the
        returned Answer is the finished one, citations checked. ``on_step(label, step)``: each
        search iteration as it ends (every search round's); an exception it raises
        (:class:`~alphasearch.errors.SearchStopped`) ends the question there, nothing more judged. An analyst's
        shorthand is written out first (:func:`~alphasearch.lang.questions.spelled_out`)."""
        s = self.settings
        started = time.perf_counter()
        check_question(question)
        # "total liabs, $mm" is read as "total liabilities, $ millions" (unless the document prints "liabs")
        question = spelled_out(question, lambda: (doc.page(p).text for p in range(1, doc.page_count + 1)))
        judges = self.backend.judges(doc, question)

        def search_for(query: str):
            return search(doc.root, query, judges.scorer, prior=judges.prior, reader=judges.reader,
                          iterations=iterations or s.iterations, c=s.exploration, rule=rule or s.rule,
                          rng=random.Random(s.seed if seed is None else seed),
                          confidence_threshold=s.confidence_threshold, label=doc.name,
                          on_step=None if on_step is None else (lambda step: on_step(doc.name, step)))

        judges.search = search_for
        return timed(self.backend.answer(doc, question, search_for(question), judges, on_text), started)

    # --- folders ---------------------------------------------------------------------------
    @property
    def library(self) -> Library:
        """The folder library under ``settings.data_dir`` (created on first use; thread-safe).
        With the "openai" engine its documents get LLM indexes (offline where the model fails)
        and the model fills the document facts the offline reader leaves empty."""
        with self._lock:
            if self._library is None:
                self._library = Library(self.settings.data_dir, settings=self.settings,
                                        build=self.backend.library_build(), read_facts=self.backend.library_facts())
            return self._library

    def ask_folder(self, question: str, *, folder: str | None = None, history=None, conversation: str | None = None,
                   top_k: int | None = None, iterations: int | None = None, seed: int | None = None,
                   save_trace: bool = True, documents=None, on_step: OnStep | None = None,
                   owner: str | None = None) -> Answer:
        """Answer from a folder of the library.

        Phase 0 routes to a folder (unless ``folder`` names one) using the question
        and the recent chat (``history``: ChatTurns, or those of ``conversation``);
        Phase 1 picks the top ``top_k`` documents (default ``settings.top_k_docs``) by
        MCTS over the folder's document tree; Phase 2 searches them in parallel
        (``settings.workers`` threads, ``settings.doc_time_limit`` seconds each) and
        merges one answer. ``Answer.doc_pages``: ranked (document name, 1-based page);
        every citation names its document; ``Answer.extra`` has ``folder``,
        ``folder_confidence`` in [0, 1] and ``documents``; ``Answer.folder_trace``
        keeps all phases. With ``conversation``, the question and answer are appended
        to that stored chat. ``documents``: search only these documents of the folder
        (names). ``on_step``: as in :meth:`ask_document`, for Phase 1 (label "documents") and each
        document's search in Phase 2. When the question could mean several documents about equally, the answer
        names the others ("Also found in: …"; ``Answer.extra["also_found_in"]``). ``owner``: the app's visitor
        the conversation and the saved search belong to (None: the operator; see library.chat). An answer whose
        folder is deleted while it is searched is returned, and nothing is saved. Raises NotFoundError (no such folder),
        router.EmptyLibraryError / EmptyFolderError (nothing to search).
        """
        check_question(question)
        return FolderSearch(self).ask(question, folder=folder, history=history, conversation=conversation,
                                      top_k=top_k, iterations=iterations, seed=seed, save_trace=save_trace,
                                      documents=documents, on_step=on_step, owner=owner)

