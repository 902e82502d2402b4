"""The "openai" engine's wiring, called by :class:`alphasearch.pipeline.Engine`.

Indexing: the offline (structural) index first, then model-written titles and
summaries (:mod:`alphasearch.llm_index`), stored next to it under the index
model's name. Questions: MCTS with the LLM scorer (the offline prior orders the
children, siblings are scored in one call, the offline scorer takes over on
failure), then a synthesized answer from the chosen pages, or the extractive
answer when the model fails. Every failure after the SDK's retries degrades,
never crashes: ``Answer.degraded`` says why.
"""
from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .answer import extractive_answer, llm_answer, rank_pages
from .cache import CachedLLM, LLMCache
from .errors import LLMError
from .llm import LLM, Meter, OpenAIChat, load_prices
from .llm_index import build_llm_index
from .mcts import search
from .models import Answer, DocumentIndex, SearchTrace, Usage

if TYPE_CHECKING:
    from .pipeline import Engine, Progress

READ_PAGES = 4  # pages the answer model reads
_VISION_DOCS = 4  # PDFs kept in memory for vision answers


def make_llm(settings) -> LLM:
    """The cached OpenAI-compatible client for these settings (raises
    MissingAPIKeyError, saying how to set a key, when neither key nor base URL is set)."""
    return CachedLLM(OpenAIChat.from_settings(settings), LLMCache.for_data_dir(settings.data_dir))


def engine_llm(engine: "Engine") -> LLM:
    with engine._lock:
        if engine._llm is None:
            engine._llm = make_llm(engine.settings)
        return engine._llm


def _prices(engine: "Engine") -> dict:
    prices = getattr(engine, "_llm_prices", None)
    if prices is None:
        prices = load_prices(engine.settings.data_dir)
        engine._llm_prices = prices
    return prices


def _remember_bytes(engine: "Engine", doc_id: str, data: bytes) -> None:
    with engine._lock:
        engine._pdf_bytes[doc_id] = data
        engine._pdf_bytes.move_to_end(doc_id)
        while len(engine._pdf_bytes) > _VISION_DOCS:
            engine._pdf_bytes.popitem(last=False)


def index_tag(settings) -> str:
    return f"llm:{settings.index_model}"


def index_bytes(engine: "Engine", data: bytes, name: str, *, progress: "Progress | None" = None,
                force: bool = False) -> DocumentIndex:
    """The LLM index of these PDF bytes: loaded when stored, else built (and
    stored unless the model could not be reached). Falls back to the offline
    index; the reason is kept for the next answer's ``degraded``."""
    s = engine.settings
    offline = engine.index_bytes(data, name, progress=progress, force=force, engine="offline")
    if s.vision:
        _remember_bytes(engine, offline.doc_id, data)
    tag = index_tag(s)
    if not force:
        cached = engine.indexes.get(offline.doc_id, tag)
        if cached is not None:
            with engine._lock:
                engine._llm_notes.pop(offline.doc_id, None)
                engine._llm_index_usage = Usage()  # loaded: no model call
            return cached if cached.name == name else replace(cached, name=name)
    result = build_llm_index(offline, engine_llm(engine), model=s.index_model, meter=Meter(_prices(engine)),
                             pdf_bytes=data if s.vision else None, vision=s.vision,
                             max_leaf_pages=s.max_leaf_pages, workers=s.workers, progress=progress)
    with engine._lock:
        engine._llm_index_usage = result.usage
        if result.degraded:
            engine._llm_notes[offline.doc_id] = result.degraded
        else:
            engine._llm_notes.pop(offline.doc_id, None)
    if result.complete and result.index.tree_source == "llm":
        engine.indexes.put(result.index, tag)
    return result.index


def library_build(engine: "Engine"):
    """The folder library's index builder for the "openai" engine: the LLM index
    (or the structural one where the model fails), as :meth:`Engine.index_bytes` gives it."""
    def build(data: bytes, name: str, progress: "Progress | None" = None) -> DocumentIndex:
        return index_bytes(engine, data, name, progress=progress)

    return build


def last_index_usage(engine: "Engine") -> Usage:
    """Model usage of the most recent LLM indexing run of this engine."""
    return getattr(engine, "_llm_index_usage", None) or Usage()


def pages_to_read(trace: SearchTrace, page_scores: np.ndarray, ranked: list[int], k: int = READ_PAGES) -> list[int]:
    """1-based pages for the answer model: the best page of each of the best
    sections, interleaved with the overall page ranking, distinct, at most ``k``."""
    picks = []
    for section in trace.best:
        a, b = section.pages
        local = page_scores[a - 1:b]
        picks.append(a + int(np.argmax(local)) if local.size else a)
    out: list[int] = []
    for i in range(max(len(picks), len(ranked))):
        for source in (picks, ranked):
            if i < len(source) and source[i] not in out and len(out) < k:
                out.append(source[i])
    return out


def ask_document(engine: "Engine", doc: DocumentIndex, question: str, *, iterations: int | None = None,
                 seed: int | None = None, rule: str | None = None) -> Answer:
    """MCTS with the LLM scorer, then a synthesized, cited answer (or the
    extractive one, with ``degraded`` set, when the model fails)."""
    from .scorers import LLMScorer

    s = engine.settings
    started = time.perf_counter()
    tools = engine.tools(doc)
    llm = engine_llm(engine)
    meter = Meter(_prices(engine))
    scorer = LLMScorer(doc, llm, model=s.search_model, fallback=tools.scorer, meter=meter, ranker=tools.ranker)
    trace = search(doc.root, question, scorer, prior=tools.prior,
                   iterations=iterations or s.iterations, c=s.exploration, rule=rule or s.rule,
                   rng=random.Random(s.seed if seed is None else seed),
                   confidence_threshold=s.confidence_threshold, label=doc.name)
    page_scores = tools.ranker.scores(question)
    ranked = rank_pages(doc, trace, page_scores)
    read = pages_to_read(trace, page_scores, ranked)
    with engine._lock:
        reasons = [r for r in (engine._llm_notes.get(doc.doc_id, ""), scorer.degraded) if r]
        pdf_bytes = engine._pdf_bytes.get(doc.doc_id)
    extra: dict = {}
    try:
        res = llm_answer(doc, question, read, llm, model=s.answer_model, meter=meter, read=len(read),
                         pdf_bytes=pdf_bytes, vision=s.vision)
        text, confidence, fallback, citations = res.text, res.confidence, res.fallback, res.citations
        pages = list(res.read) + [p for p in ranked if p not in res.read]
        extra["dropped_citations"] = res.dropped_citations
    except Exception as exc:  # LLMError after retries, or anything unexpected: never crash a query
        ex = extractive_answer(doc, question, ranked, tools.ranker.df, threshold=s.answer_threshold,
                                page_scores=tools.ranker.scores(question))
        text, confidence, fallback, citations, pages = ex.text, ex.confidence, ex.fallback, ex.citations, ranked
        extra.update(ex.extra())
        why = str(exc) if isinstance(exc, LLMError) else f"an unexpected error ({type(exc).__name__})."
        reasons.append(f"The answer was extracted without the model: {why}")
    return Answer(text=text, confidence=confidence, fallback=fallback, citations=citations, pages=pages,
                  trace=trace, seconds=time.perf_counter() - started, usage=meter.usage,
                  degraded=" ".join(reasons), doc=doc.name, extra=extra)


__all__ = ["make_llm", "index_bytes", "ask_document", "pages_to_read", "last_index_usage", "library_build",
           "READ_PAGES"]
