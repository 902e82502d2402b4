"""One interface for the engines behind :class:`alphasearch.pipeline.Engine`: index a PDF,
judge nodes, answer. The offline engine lives here; the "openai" one in
:mod:`alphasearch.engines.llm` (built on this one: it starts from the offline
index and falls back to the offline judges). The pipeline picks one from the
settings once and runs the same search with whichever judges it hands out.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..index import indexer, isolation
from .. import pdf
from ..answer.ranking import expanded_pages, rank_pages
from ..answer.extractive import extractive_answer
from ..read.items import phrase_use
from ..config import Settings
from ..search.expansion import expansion_field, neighbour_queries
from ..index.facts import DocFacts
from ..search.mcts import Reader, Scorer, confirmed_first, pages_read
from ..models import Answer, DocumentIndex, SearchTrace
from ..search.reading import PageReader
from ..search.scorers import HybridScorer, PriorScorer
from ..index.ranker import PageRanker
from ..library import IndexCache, RankerStore

Progress = indexer.Progress
Build = Callable[..., DocumentIndex]  # (data, name, progress) -> DocumentIndex
ReadFacts = Callable[[DocumentIndex], DocFacts]  # an indexed document -> its facts
OnText = Callable[[str], None]  # gets each piece of an answer's draft text as the model writes it


@dataclass
class Judges:
    """What the search of one question uses: ``scorer`` judges sections, ``reader``
    reads pages (its ``score`` is the deep read), ``prior`` orders children for free.
    ``state``: the engine's own per-question state (e.g. the model's usage meter).
    ``search``: set by the pipeline, searches the same document for another query with
    this question's search settings (the knowledge-gap rounds of an engine that has them)."""

    scorer: Scorer
    prior: Scorer
    reader: Reader
    state: dict[str, Any] = field(default_factory=dict)
    search: Callable[[str], SearchTrace] | None = None


class DocEngine(Protocol):
    """What the pipeline needs of an engine."""

    name: str

    def index(self, data: bytes, name: str, *, progress: Progress | None = None, force: bool = False) -> DocumentIndex:
        """The index of these PDF bytes (stored, or built and stored)."""
        ...

    def judges(self, doc: DocumentIndex, question: str) -> Judges:
        """The judges for one question on ``doc``."""
        ...

    def answer(self, doc: DocumentIndex, question: str, trace: SearchTrace, judges: Judges,
               on_text: OnText | None = None) -> Answer:
        """The answer from the pages the search points at (``seconds`` left 0 for the pipeline);
        ``on_text`` gets its draft text as it is written, when the engine writes one piece by piece."""
        ...

    def library_build(self) -> Build | None:
        """How the folder library indexes a document (None: the offline indexer)."""
        ...

    def library_facts(self) -> ReadFacts | None:
        """How the folder library reads a new document's facts (None: the offline patterns)."""
        ...


class DocTools:
    """Per-document offline scorers, built once and reused by every question on it."""

    def __init__(self, doc: DocumentIndex, ranker: PageRanker):
        self.ranker = ranker
        self.scorer = HybridScorer(doc, ranker=ranker, rewordings=lambda q: neighbour_queries(doc, q))
        self.prior = PriorScorer(doc)
        self.reader = PageReader(doc, ranker)


class OfflineEngine:
    """The default engine: the offline indexer, BM25 page evidence as the judge, the
    offline deep read of pages, extractive answers. Thread-safe."""

    name = "offline"

    def __init__(self, settings: Settings):
        self.settings = settings
        self.indexes = IndexCache(settings.data_dir)
        self.rankers = RankerStore(settings.data_dir)
        self._tools: OrderedDict[str, DocTools] = OrderedDict()
        self.lock = threading.Lock()

    def index(self, data: bytes, name: str, *, progress: Progress | None = None, force: bool = False) -> DocumentIndex:
        pdf.check_size(data, name, max_file_mb=self.settings.max_file_mb)
        pdf.check_header(data, name)
        doc_id = pdf.content_hash(data)
        # parsed in a worker process with the settings' time and memory limits (isolation.py)
        # (a lone document needs no page term counts: those are for a folder's page index)
        options = replace(isolation.IndexOptions.from_settings(self.settings), page_terms=False)
        if not force:
            cached = self.indexes.get(doc_id)
            if cached is not None and isolation.ocr_outdated(cached, options):
                cached = None
            if cached is not None:
                if cached.name != name:
                    cached = replace(cached, name=name)
                if progress:
                    progress("loaded from cache", 1.0)
                return cached
        built = isolation.shared_pool(self.settings).run(
            isolation.index_pdf, data, name, options, name=name, progress=progress,
            extra_seconds=options.extra_seconds).index
        self.indexes.put(built)
        return built

    def tools(self, doc: DocumentIndex) -> DocTools:
        key = doc.doc_id + doc.engine
        with self.lock:
            hit = self._tools.get(key)
            if hit is not None:
                self._tools.move_to_end(key)
                return hit
        built = DocTools(doc, self.rankers.ranker(doc))
        with self.lock:
            self._tools[key] = built
            while len(self._tools) > 64:
                self._tools.popitem(last=False)
        return built

    def judges(self, doc: DocumentIndex, question: str) -> Judges:
        tools = self.tools(doc)
        return Judges(tools.scorer, tools.prior, tools.reader)

    def ranked_pages(self, doc: DocumentIndex, question: str, trace: SearchTrace | None, *,
                     model_reads: bool = True) -> list[int]:
        """Pages best first: the page evidence blended with the searched sections' values.

        ``model_reads``: the search's page reads are a model's judgements (the LLM
        engine), so the pages it confirmed by reading them come first. Otherwise the
        reads are the offline deep read, which is mostly the page ranker's own score:
        a page read carries what the read found (:meth:`PageReader.read_evidence`) and
        takes its place among the unread pages, so a marginal read (0.76 from a page
        the ranker scored 0.93) no longer jumps ahead of a page the ranker scored 1.0.
        On the development set (276 questions) the default search's hit@1 went 0.623
        -> 0.630 (flat reading at equal pages read: 0.612), up on both halves."""
        tools = self.tools(doc)
        scores = tools.ranker.scores(question)
        if model_reads or trace is None:
            return confirmed_first(trace, rank_pages(doc, trace, scores), self.settings.confidence_threshold)
        read = scores.copy()
        for page, _ in pages_read(trace):
            read[page - 1] = tools.reader.read_evidence(question, page)
        return rank_pages(doc, trace, read)

    def extract(self, doc: DocumentIndex, question: str, pages: list[int]):
        tools = self.tools(doc)
        ranker = tools.ranker
        return extractive_answer(doc, question, pages, ranker.df, threshold=self.settings.answer_threshold,
                                 page_scores=ranker.scores(question), rescore=ranker.scores,
                                 read_evidence=lambda page: tools.reader.read_evidence(question, page),
                                 more_pages=expanded_pages(question, ranker.scores, used=phrase_use(doc),
                                                           more=neighbour_queries(doc, question)))

    def answer(self, doc: DocumentIndex, question: str, trace: SearchTrace, judges: Judges,
               on_text: OnText | None = None) -> Answer:
        """The extractive answer; it is whole at once, so nothing streams (``on_text`` is not called)."""
        pages = self.ranked_pages(doc, question, trace, model_reads=False)
        ex = self.extract(doc, question, pages)
        expanded = expansion_field(doc, question)
        if trace is not None and expanded:
            trace = replace(trace, sub_queries=tuple(expanded["sub_queries"]))
        return Answer(text=ex.text, confidence=ex.confidence, fallback=ex.fallback, citations=ex.citations,
                      pages=pages, trace=trace, doc=doc.name, extra={**ex.extra(), **expanded})

    def library_build(self) -> Build | None:
        return None

    def library_facts(self) -> ReadFacts | None:
        return None


def timed(answer: Answer, started: float) -> Answer:
    answer.seconds = time.perf_counter() - started
    return answer


__all__ = ["DocEngine", "Judges", "OnText", "OfflineEngine", "DocTools", "Progress", "timed"]
