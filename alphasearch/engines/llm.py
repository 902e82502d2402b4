"""The "openai" engine (:class:`LLMEngine`), behind the same interface as the offline one
(:class:`alphasearch.engines.offline.DocEngine`).

Indexing: the offline (structural) index first, then model-written titles and
summaries (:mod:`alphasearch.index.llm_tree`), stored next to it under the index
model's name. Questions: the search judges sections with the LLM scorer (the
offline prior orders the children, siblings are judged in one call, the
offline scorer takes over on failure) and reads pages with one call each, then
a synthesized answer from the chosen pages, or the extractive answer when the
model fails. Then the knowledge-gap rounds (:mod:`alphasearch.answer.gaps`): the model
names what the answer is missing, the document is searched again for it and the
question answered again from the pages of every round (``SearchTrace.rounds``).
Every failure after the SDK's retries degrades, never crashes: ``Answer.degraded``
says why.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

import numpy as np

from ..answer.written import LLMAnswer, llm_answer, llm_structure
from ..llm.cache import CachedLLM, LLMCache
from ..index import facts as doc_facts
from .offline import Build, Judges, OfflineEngine, OnText, Progress, ReadFacts
from ..errors import AlphaSearchError, LLMError
from ..llm.client import LLM, Meter, OpenAIChat, load_prices
from ..answer.gaps import missing_items
from ..folder.llm_facts import fill_facts
from ..index.llm_tree import build_llm_index
from ..search.llm_queries import sub_queries as llm_sub_queries
from ..models import Answer, DocumentIndex, GapRound, SearchTrace, Usage
from ..search.reading import PageReader
from ..llm.streaming import Notice

READ_PAGES = 4  # pages the answer model reads
ROUND_PAGES = 2  # pages a knowledge-gap round adds to them
_VISION_DOCS = 4  # PDFs kept in memory for vision answers


def make_llm(settings) -> LLM:
    """The cached OpenAI-compatible client for these settings (raises
    MissingAPIKeyError, saying how to set a key, when neither key nor base URL is set)."""
    return CachedLLM(OpenAIChat.from_settings(settings), LLMCache.for_data_dir(settings.data_dir))


def index_tag(settings) -> str:
    return f"llm:{settings.index_model}"


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


class LLMEngine:
    """The "openai" engine. ``llm``: a ready client (default: :func:`make_llm` on first use).
    Thread-safe; remembers why LLM indexing fell back per document and recent PDF
    bytes for vision answers."""

    name = "openai"

    def __init__(self, offline: OfflineEngine, llm: LLM | None = None):
        self.offline = offline
        self.settings = offline.settings
        self._llm = llm
        self._notes: dict[str, str] = {}
        self._pdf_bytes: OrderedDict[str, bytes] = OrderedDict()
        self._prices: dict | None = None
        self.index_usage = Usage()  # model usage of the most recent indexing run
        self._lock = threading.Lock()

    def client(self) -> LLM:
        with self._lock:
            if self._llm is None:
                self._llm = make_llm(self.settings)
            return self._llm

    def prices(self) -> dict:
        if self._prices is None:
            self._prices = load_prices(self.settings.data_dir)
        return self._prices

    def _remember_bytes(self, doc_id: str, data: bytes) -> None:
        with self._lock:
            self._pdf_bytes[doc_id] = data
            self._pdf_bytes.move_to_end(doc_id)
            while len(self._pdf_bytes) > _VISION_DOCS:
                self._pdf_bytes.popitem(last=False)

    def index(self, data: bytes, name: str, *, progress: Progress | None = None, force: bool = False) -> DocumentIndex:
        """The LLM index of these PDF bytes: loaded when stored, else built (and
        stored unless the model could not be reached). Falls back to the offline
        index; the reason is kept for the next answer's ``degraded``."""
        s = self.settings
        offline = self.offline.index(data, name, progress=progress, force=force)
        if s.vision:
            self._remember_bytes(offline.doc_id, data)
        tag = index_tag(s)
        if not force:
            cached = self.offline.indexes.get(offline.doc_id, tag)
            if cached is not None and (cached.ocr, cached.ocr_pages) != (offline.ocr, offline.ocr_pages):
                cached = None  # built on pages OCR read otherwise (the setting changed): built again
            if cached is not None:
                with self._lock:
                    self._notes.pop(offline.doc_id, None)
                    self.index_usage = Usage()  # loaded: no model call
                return cached if cached.name == name else replace(cached, name=name)
        result = build_llm_index(offline, self.client(), model=s.index_model, meter=Meter(self.prices()),
                                 pdf_bytes=data if s.vision else None, vision=s.vision,
                                 max_leaf_pages=s.max_leaf_pages, workers=s.workers, progress=progress)
        with self._lock:
            self.index_usage = result.usage
            if result.degraded:
                self._notes[offline.doc_id] = result.degraded
            else:
                self._notes.pop(offline.doc_id, None)
        if result.complete and result.index.tree_source == "llm":
            self.offline.indexes.put(result.index, tag)
        return result.index

    def library_build(self) -> Build | None:
        """The folder library's builder: the LLM index (or the structural one where the model fails)."""
        def build(data: bytes, name: str, progress: Progress | None = None) -> DocumentIndex:
            return self.index(data, name, progress=progress)

        return build

    def library_facts(self) -> ReadFacts | None:
        """The folder library's facts reader: the offline facts, with the fields they leave empty
        filled by the index model (the offline ones when the model fails)."""
        def read(index: DocumentIndex) -> doc_facts.DocFacts:
            offline = doc_facts.extract(index)
            if offline.org and offline.year and offline.kind and offline.title:
                return offline  # nothing to fill: no call
            try:
                return fill_facts(index, offline, self.client(), Meter(self.prices()),
                                  model=self.settings.index_model)
            except AlphaSearchError:
                return offline

        return read

    def judges(self, doc: DocumentIndex, question: str) -> Judges:
        """The LLM scorer judges sections (siblings in one call) and reads pages (one call each)."""
        from ..search.llm_judge import LLMScorer

        tools = self.offline.tools(doc)
        meter = Meter(self.prices())
        scorer = LLMScorer(doc, self.client(), model=self.settings.search_model, fallback=tools.scorer, meter=meter,
                           ranker=tools.ranker)
        reader = PageReader(doc, tools.ranker, judge=scorer)
        return Judges(scorer, tools.prior, reader, {"meter": meter, "scorer": scorer})

    def answer(self, doc: DocumentIndex, question: str, trace: SearchTrace, judges: Judges,
               on_text: OnText | None = None) -> Answer:
        """A synthesized, cited answer (or the extractive one, with ``degraded`` set, when the model fails,
        its stream breaks off or the reader cancels it). ``on_text``: the draft as the model writes it."""
        s = self.settings
        meter, scorer = judges.state["meter"], judges.state["scorer"]
        page_scores = self.offline.tools(doc).ranker.scores(question)
        ranked = self.offline.ranked_pages(doc, question, trace)
        read = pages_to_read(trace, page_scores, ranked)
        extra: dict = {}
        if s.llm_sub_queries:  # the model writes sub-queries; each one's best page not read yet is read too
            try:
                subs, by = llm_sub_queries(doc, question, self.client(), meter, model=s.search_model)
            except Exception:  # anything unexpected: the answer goes on without them
                subs, by = [], ""
            if subs:
                scores = self.offline.tools(doc).ranker.scores
                for q in subs:
                    best = np.asarray(scores(q))
                    page = int(np.argmax(best)) + 1 if best.size and best.max() > 0 else 0
                    if page and page not in read:
                        read = read + [page]
                extra.update(sub_queries=subs, sub_queries_by=by)
        with self._lock:
            reasons = [r for r in (self._notes.get(doc.doc_id, ""), scorer.degraded) if r]
            pdf_bytes = self._pdf_bytes.get(doc.doc_id)
        try:
            res = llm_answer(doc, question, read, self.client(), model=s.answer_model, meter=meter, read=len(read),
                             pdf_bytes=pdf_bytes, vision=s.vision, on_text=on_text)
            res, trace = self._fill_gaps(doc, question, trace, judges, res, reasons, pdf_bytes=pdf_bytes,
                                         on_text=on_text)
            text, confidence, fallback, citations = res.text, res.confidence, res.fallback, res.citations
            pages = list(res.read) + [p for p in ranked if p not in res.read]
            extra["dropped_citations"] = res.dropped_citations
            structured = llm_structure(doc, question, res, self.offline.tools(doc).ranker.df)
            extra["structured"] = structured
            if structured["direct"]:
                extra["direct_answer"] = structured["direct"]["text"]
            if res.dropped_pages:
                listed = ", ".join(map(str, res.dropped_pages[:10])) + (" …" if len(res.dropped_pages) > 10 else "")
                reasons.append(f"The model cited page(s) {listed} it was not shown; those citations were removed "
                               "and the confidence lowered.")
        except Exception as exc:  # LLMError after retries, or anything unexpected: never crash a query
            ex = self.offline.extract(doc, question, ranked)
            text, confidence, fallback, citations, pages = ex.text, ex.confidence, ex.fallback, ex.citations, ranked
            extra.update(ex.extra())
            why = str(exc) if isinstance(exc, LLMError) else f"an unexpected error ({type(exc).__name__})."
            reasons.append(f"The answer was extracted without the model: {why}")
        if trace is not None and extra.get("sub_queries"):
            trace = replace(trace, sub_queries=tuple(extra["sub_queries"]))
        return Answer(text=text, confidence=confidence, fallback=fallback, citations=citations, pages=pages,
                      trace=trace, usage=meter.usage, degraded=" ".join(reasons), doc=doc.name, extra=extra)

    def _fill_gaps(self, doc: DocumentIndex, question: str, trace: SearchTrace, judges: Judges, first: LLMAnswer,
                   reasons: list[str], *, pdf_bytes: bytes | None, on_text: OnText | None) -> tuple[LLMAnswer, SearchTrace]:
        """The knowledge-gap rounds (at most ``settings.gap_rounds``): the model names what the
        answer so far is missing; the same document is searched again for the first item, its
        best pages not shown before (at most :data:`ROUND_PAGES`) join the pages read, and the
        question is answered again from all of them. Stops when nothing is missing or a round
        finds no new page. Returns the last answer and ``trace`` with every round; a model
        failure in a round, or a round's answer that finds nothing where the one before found
        an answer, keeps the answer so far (the reason added to ``reasons``)."""
        s = self.settings
        meter = judges.state["meter"]
        res, rounds, shown = first, [], list(first.read)
        try:
            for _ in range(s.gap_rounds if judges.search is not None else 0):
                missing = missing_items(question, res.text, self.client(), meter, model=s.search_model)
                if not missing:
                    break
                query = missing[0]
                if on_text is not None:
                    on_text(Notice(f"Searching the document again for: {query}"))
                found = judges.search(query)
                new = [p for p in self.offline.ranked_pages(doc, query, found) if p not in shown][:ROUND_PAGES]
                rounds.append(GapRound(query, found, tuple(new), tuple(missing)))
                if not new:
                    break
                shown += new
                again = llm_answer(doc, question, shown, self.client(), model=s.answer_model, meter=meter,
                                   read=len(shown), pdf_bytes=pdf_bytes, vision=s.vision, on_text=on_text)
                if again.fallback and not res.fallback:  # more pages muddled it: the answer found before stands
                    reasons.append("The answer after the search for what was missing found nothing; the answer "
                                   "written before it is kept.")
                    break
                res = again
        except LLMError as exc:
            reasons.append(f"The search for what the answer was missing stopped ({exc}); the answer is the one "
                           "written before it.")
        return res, replace(trace, rounds=tuple(rounds))


# --- for callers that hold a pipeline Engine ------------------------------------------------------
def engine_llm(engine) -> LLM:
    """The model client of an Engine running the "openai" engine (built on first use)."""
    backend = engine.backend
    return backend.client() if isinstance(backend, LLMEngine) else make_llm(engine.settings)


def last_index_usage(engine) -> Usage:
    """Model usage of the most recent LLM indexing run of this Engine."""
    return getattr(engine.backend, "index_usage", None) or Usage()


__all__ = ["LLMEngine", "make_llm", "pages_to_read", "last_index_usage", "engine_llm", "index_tag", "READ_PAGES"]
