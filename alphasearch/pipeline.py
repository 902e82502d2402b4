"""Wires the pieces: index a PDF (cached by content hash) and answer a question."""
from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from pathlib import Path

from . import indexer, llm_engine, pdf
from .answer import extractive_answer, rank_pages
from .config import Settings
from .mcts import search
from .models import Answer, DocumentIndex
from .scorers import HybridScorer, PageRanker, PriorScorer
from .store import IndexCache, Library, RankerStore
from .folder import FolderSearch
from .router import OfflineRouter, Router

Progress = indexer.Progress


class _DocTools:
    """Per-document scorers, built once and reused by every question on it."""

    def __init__(self, doc: DocumentIndex, ranker: PageRanker):
        self.ranker = ranker
        self.scorer = HybridScorer(doc, ranker=ranker)
        self.prior = PriorScorer(doc)


class Engine:
    """The engine behind the CLI and the app. Thread-safe; holds warm per-document scorers."""

    def __init__(self, settings: Settings | None = None, *, llm=None):
        self.settings = settings or Settings.from_env()
        self.indexes = IndexCache(self.settings.data_dir)
        self.rankers = RankerStore(self.settings.data_dir)
        self._tools: OrderedDict[str, _DocTools] = OrderedDict()
        self._lock = threading.Lock()
        # "openai" engine state (llm_engine.py): the cached client, why LLM indexing
        # fell back per doc_id, and recent PDF bytes for vision answers
        self._llm = llm
        self._llm_notes: dict[str, str] = {}
        self._pdf_bytes: OrderedDict[str, bytes] = OrderedDict()
        self._library: Library | None = None
        self.router: Router = OfflineRouter(facts_weight=self.settings.facts_weight)
        self._folder_cache: dict[str, object] = {}

    # --- indexing -----------------------------------------------------------------
    def index_bytes(self, data: bytes, name: str, *, progress: Progress | None = None,
                    force: bool = False, engine: str | None = None) -> DocumentIndex:
        """Index PDF bytes, or load the stored index of identical bytes.
        ``engine``: "offline" or "openai" (default: the settings' resolved engine)."""
        if (engine or self.settings.resolved_engine) == "openai":
            return llm_engine.index_bytes(self, data, name, progress=progress, force=force)
        pdf.check_size(data, name, max_file_mb=self.settings.max_file_mb)
        doc_id = pdf.content_hash(data)
        if not force:
            cached = self.indexes.get(doc_id)
            if cached is not None:
                if cached.name != name:
                    cached = _renamed(cached, name)
                if progress:
                    progress("loaded from cache", 1.0)
                return cached
        s = self.settings
        index = indexer.build_index(data, name, max_pages=s.max_pages, warn_pages=s.warn_pages,
                                    max_leaf_pages=s.max_leaf_pages, progress=progress)
        self.indexes.put(index)
        return index

    def index_file(self, path: Path | str, *, progress: Progress | None = None, force: bool = False) -> DocumentIndex:
        data = pdf.load_bytes(path, max_file_mb=self.settings.max_file_mb)
        return self.index_bytes(data, Path(path).name, progress=progress, force=force)

    def tools(self, doc: DocumentIndex) -> _DocTools:
        key = doc.doc_id + doc.engine
        with self._lock:
            hit = self._tools.get(key)
            if hit is not None:
                self._tools.move_to_end(key)
                return hit
        built = _DocTools(doc, self.rankers.ranker(doc))
        with self._lock:
            self._tools[key] = built
            while len(self._tools) > 64:
                self._tools.popitem(last=False)
        return built

    # --- questions ---------------------------------------------------------------------
    def ask_document(self, doc: DocumentIndex, question: str, *, iterations: int | None = None,
                     seed: int | None = None, rule: str | None = None) -> Answer:
        """MCTS over the document's section tree, deep read, extractive answer
        (the "openai" engine: LLM scorer and a synthesized answer, see llm_engine.py)."""
        if self.settings.resolved_engine == "openai":
            return llm_engine.ask_document(self, doc, question, iterations=iterations, seed=seed, rule=rule)
        s = self.settings
        started = time.perf_counter()
        tools = self.tools(doc)
        trace = search(doc.root, question, tools.scorer, prior=tools.prior,
                       iterations=iterations or s.iterations, c=s.exploration, rule=rule or s.rule,
                       rng=random.Random(s.seed if seed is None else seed),
                       confidence_threshold=s.confidence_threshold, label=doc.name)
        page_scores = tools.ranker.scores(question)
        pages = rank_pages(doc, trace, page_scores)
        extract = extractive_answer(doc, question, pages, tools.ranker.df, threshold=s.answer_threshold,
                                    page_scores=page_scores)
        return Answer(text=extract.text, confidence=extract.confidence, fallback=extract.fallback,
                      citations=extract.citations, pages=pages, trace=trace,
                      seconds=time.perf_counter() - started, doc=doc.name,
                      extra=extract.extra())

    # --- folders ---------------------------------------------------------------------------
    @property
    def library(self) -> Library:
        """The folder library under ``settings.data_dir`` (created on first use; thread-safe).
        With the "openai" engine its documents get LLM indexes (offline where the model fails)."""
        with self._lock:
            if self._library is None:
                build = llm_engine.library_build(self) if self.settings.resolved_engine == "openai" else None
                self._library = Library(self.settings.data_dir, settings=self.settings, build=build)
            return self._library

    def ask_folder(self, question: str, *, folder: str | None = None, history=None, conversation: str | None = None,
                   top_k: int | None = None, iterations: int | None = None, seed: int | None = None,
                   save_trace: bool = True, documents=None) -> Answer:
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
        (names). When the question could mean several documents about equally, the answer
        names the others ("Also found in: …"; ``Answer.extra["also_found_in"]``). Raises NotFoundError (no such folder),
        router.EmptyLibraryError / EmptyFolderError (nothing to search).
        """
        return FolderSearch(self).ask(question, folder=folder, history=history, conversation=conversation,
                                      top_k=top_k, iterations=iterations, seed=seed, save_trace=save_trace,
                                      documents=documents)


def _renamed(index: DocumentIndex, name: str) -> DocumentIndex:
    from dataclasses import replace

    return replace(index, name=name)
