"""Folder questions: Phase 0 (route), Phase 1 (MCTS over documents), Phase 2 (parallel search, merge).

Used through :meth:`alphasearch.pipeline.Engine.ask_folder`; kept apart so the
single-document pipeline stays small. Never prints, never touches Streamlit.
"""
from __future__ import annotations

import hashlib
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Protocol

import numpy as np

from ..index import facts as doc_facts
from ..index import periods
from . import series
from ..read.direct import figure_answer
from ..config import MAX_QUESTION_CHARS, Settings
from ..errors import AlphaSearchError, FolderGoneError, NotFoundError, SearchStopped
from ..search.mcts import ranked_frontier, search
from ..models import INDEX_VERSION, Answer, Citation, FolderTrace, SearchStep, SearchTrace, Usage
from ..index.pageindex import PageTerms
from .router import (
    PRIOR_WEIGHTS, DocProfile, DocumentScorer, DocumentSignals, EmptyFolderError, FolderProfile,
    PassageIndex, Router, Routing, document_tree, forget_embeddings, looks_like_followup,
    profiles_from_library,
)
from ..library import ChatTurn, DocumentRecord, Library, code_fingerprint

FOLDER_FALLBACK = "I could not find enough evidence in this folder."
AMBIGUITY_MARGIN = 0.1  # another document whose facts fit as well and whose score is this close may be meant too
MAX_ALTERNATIVES = 3
PAGE_DECAY = 0.9  # a document's i-th page counts PAGE_DECAY**i of its document's weight
SHORTLIST = 100  # Phase 1's MCTS searches at most this many documents of a folder, the best by score
OnStep = Callable[[str, SearchStep], None]  # (label, step): see Engine.ask_document


class FolderHost(Protocol):
    """What a folder question needs of the engine that asks it (:class:`alphasearch.pipeline.Engine`
    is one): its settings, library, router, a cache with its lock, and the single-document search.
    A protocol, so this module never imports the pipeline (which imports it)."""

    settings: Settings
    router: Router
    _folder_cache: dict[str, object]
    _lock: threading.Lock

    @property
    def library(self) -> Library: ...

    def ask_document(self, doc: Any, question: str, *, iterations: int | None = None, seed: int | None = None,
                     rule: str | None = None, on_step: OnStep | None = None) -> Answer: ...


class FolderSearch:
    """One folder question on an engine (a short-lived helper; the engine holds the caches)."""

    def __init__(self, engine: FolderHost):
        self.engine = engine
        self.settings = engine.settings
        self.library = engine.library

    # --- cached views of the library -------------------------------------------------------
    def profiles(self) -> list[FolderProfile]:
        """Routing profiles of every folder, rebuilt only when the catalog changes."""
        rev = self.library.revision()
        cache = self.engine._folder_cache
        with self.engine._lock:
            hit = cache.get("profiles")
        if hit is not None and hit[0] == rev:
            return hit[1]
        profiles = profiles_from_library(self.library)
        forget_embeddings({d.key for p in profiles for d in p.documents})  # deleted documents leave no trace
        with self.engine._lock:
            cache["profiles"] = (rev, profiles)
            for key in [k for k in cache if k.startswith(("signals:", "records:")) and cache[k][0] != rev]:
                del cache[key]
        return profiles

    def records(self, folder_id: str) -> dict[str, DocumentRecord]:
        """The folder's documents by content hash (read once per catalog revision)."""
        rev = self.library.revision()
        key = f"records:{folder_id}"
        with self.engine._lock:
            hit = self.engine._folder_cache.get(key)
        if hit is not None and hit[0] == rev:
            return dict(hit[1])
        records = {r.sha256: r for r in self.library.documents(folder_id)}
        with self.engine._lock:
            self.engine._folder_cache[key] = (rev, records)
        return dict(records)

    def signals(self, fp: FolderProfile, records: dict[str, DocumentRecord]) -> DocumentSignals:
        """Phase 1 signals of the folder's documents (cached per catalog revision), with one page
        index over them all, saved in the library for the next process."""
        rev = self.library.revision()
        key = f"signals:{fp.folder_id}"
        with self.engine._lock:
            hit = self.engine._folder_cache.get(key)
        if hit is not None and hit[0] == rev and hit[1].docs == list(fp.documents):
            return hit[1]
        keys = [d.key for d in fp.documents]
        passages = self.library.passages.get(
            "p-" + hashlib.sha256("\n".join([code_fingerprint("alphasearch.folder.router", "alphasearch.lang.text", "alphasearch.index.pageindex"),
                                             str(INDEX_VERSION), *keys]).encode()).hexdigest()[:24],
            load=lambda p: PassageIndex.load(p, len(keys)),
            build=lambda: PassageIndex.assemble([self._page_terms(records[k]) for k in keys]),
            save=lambda index, p: index.save(p, keys))
        built = DocumentSignals(fp.documents, passages, facts_weight=self.settings.facts_weight)
        with self.engine._lock:
            self.engine._folder_cache[key] = (rev, built)
        return built

    def page_indexes(self, profiles: Sequence[FolderProfile]) -> dict[str, PassageIndex]:
        """folder_id → the page index over the folder's documents (Phase 1's, built or loaded once
        per catalog revision), for Phase 0's passage signal; a folder whose catalog rows and
        profile disagree (changed meanwhile) goes without. Cached per catalog revision."""
        rev = self.library.revision()
        with self.engine._lock:
            hit = self.engine._folder_cache.get("page_indexes")
        if hit is not None and hit[0] == rev and hit[1][0] == [p.documents for p in profiles]:
            return hit[1][1]
        out: dict[str, PassageIndex] = {}
        for fp in profiles:
            records = self.records(fp.folder_id) if fp.documents else {}
            if not records or any(d.key not in records for d in fp.documents):
                continue
            index = self.signals(fp, records).passages
            if index is not None:
                out[fp.folder_id] = index
        with self.engine._lock:
            self.engine._folder_cache["page_indexes"] = (rev, ([p.documents for p in profiles], out))
        return out

    def _page_terms(self, rec: DocumentRecord) -> PageTerms | None:
        try:
            return self.library.page_terms(rec)
        except AlphaSearchError:  # a lost index: the document competes on its profile alone
            return None

    # --- the three phases ---------------------------------------------------------------------
    def route(self, question: str, folder: str | None, history: Sequence[ChatTurn]) -> tuple[Routing, FolderProfile]:
        profiles = self.profiles()
        if folder is not None:
            info = self.library.folder(folder)
            fp = next((p for p in profiles if p.folder_id == info.folder_id), None)
            if fp is None:  # created after the profiles were read
                fp = FolderProfile(info.folder_id, info.name, ())
            routing = Routing(info.folder_id, info.name, 1.0, {info.name: 1.0}, False, "chosen by the user", "user")
        else:
            routing = self.engine.router.route(question, profiles, history, passages=self.page_indexes(profiles))
            fp = next(p for p in profiles if p.folder_id == routing.folder_id)
        if not fp.documents:
            raise EmptyFolderError(f"The folder {fp.name!r} has no documents yet; add PDFs to it first.")
        return routing, fp

    def choose_documents(self, question: str, fp: FolderProfile, records: dict[str, DocumentRecord], k: int,
                         iterations: int, rng: random.Random, on_step: OnStep | None = None
                         ) -> tuple[SearchTrace, list[str], dict[str, float], dict[str, dict[str, Any]], list[str]]:
        """Phase 1: MCTS over the document tree (of the best ``SHORTLIST`` documents by score in a
        bigger folder). Returns the trace, the chosen content hashes (best first), the searched
        documents' scores in [0, 1], why each was scored so (content hash →
        facts matched, facts score, content score, score, label) and the alternatives: other
        documents the question may mean about as well as the best one (content hashes)."""
        docs = [d for d in fp.documents if d.key in records]
        signals = self.signals(FolderProfile(fp.folder_id, fp.name, tuple(docs)), records)
        every = signals.scores(question)  # one array over the folder: postings of the question's terms, no pages
        pos = {d.key: i for i, d in enumerate(docs)}
        cand = docs
        if len(docs) > SHORTLIST:  # the search runs over the best SHORTLIST documents by score
            keep = np.sort(np.argsort(-every, kind="stable")[:SHORTLIST])
            cand = [docs[i] for i in keep]
        root = document_tree(cand, [records[d.key].pages for d in cand], label=fp.name)
        scorer = DocumentScorer(signals)
        trace = search(root, question, scorer, prior=DocumentScorer(signals, PRIOR_WEIGHTS, passage=0.0),
                       iterations=max(iterations, min(len(cand), 50)), c=self.settings.exploration,
                       rule=self.settings.rule, rng=rng, confidence_threshold=self.settings.confidence_threshold,
                       confident_leaves=k, top=max(k, 5), label="documents",
                       on_step=None if on_step is None else (lambda step: on_step("documents", step)))
        all_scores = {d.key: float(every[i]) for i, d in enumerate(docs)}
        scores = {d.key: all_scores[d.key] for d in cand}
        chosen = [n.section.node_id for n in ranked_frontier(trace.root) if n.section.node_id in scores][:k]
        for key in sorted(scores, key=lambda x: -scores[x]):  # unvisited documents, by score
            if len(chosen) >= min(k, len(docs)):
                break
            if key not in chosen:
                chosen.append(key)
        fm, content = signals.facts(question), signals.content(question)
        if not (signals.facts_weight > 0 and fm.any):
            fm = doc_facts.FactMatch((0.0,) * len(docs), (), ((),) * len(docs))
        why = {d.key: {"facts": list(fm.matched[pos[d.key]]), "facts_score": round(fm.scores[pos[d.key]], 4),
                       "content": round(float(content[pos[d.key]]), 4), "score": round(scores[d.key], 4),
                       "label": d.facts.label() if d.facts else ""} for d in cand}
        content_of = {d.key: float(content[pos[d.key]]) for d in docs}
        return trace, chosen, scores, why, [key for key in alternatives(question, docs, fm, content_of, chosen)
                                            if key in scores]

    def search_documents(self, question: str, recs: list[DocumentRecord], iterations: int | None,
                         seed: int | None, on_step: OnStep | None = None, questions: dict[str, str] | None = None
                         ) -> tuple[dict[str, Answer], dict[str, str]]:
        """Phase 2: each document's section tree searched in a bounded thread pool;
        a document still running ``doc_time_limit`` seconds after it started is
        abandoned (reported in ``skipped``). A search stopped by ``on_step`` stops the question.
        ``questions``: document name → the question asked of it instead (a series asks each filing its period)."""
        s = self.settings
        limit = float(s.doc_time_limit)
        answers: dict[str, Answer] = {}
        skipped: dict[str, str] = {}
        started: dict[str, float] = {}
        lock = threading.Lock()

        def run(rec: DocumentRecord) -> Answer:
            with lock:
                started[rec.record_id] = time.monotonic()
            doc = self.library.load_index(rec)
            asked = (questions or {}).get(rec.name, question)
            return self.engine.ask_document(doc, asked, iterations=iterations, seed=seed, on_step=on_step)

        pool = ThreadPoolExecutor(max_workers=max(1, min(int(s.workers), len(recs))), thread_name_prefix="alphasearch-doc")
        try:
            futures: dict[Future, DocumentRecord] = {pool.submit(run, r): r for r in recs}
            pending = set(futures)
            while pending:
                now = time.monotonic()
                with lock:
                    deadlines = [started[futures[f].record_id] + limit for f in pending
                                 if futures[f].record_id in started]
                timeout = max(0.01, min(deadlines) - now) if deadlines else limit
                done, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                for f in done:
                    rec = futures[f]
                    try:
                        answers[rec.name] = f.result()
                    except SearchStopped:
                        raise
                    except AlphaSearchError as exc:
                        skipped[rec.name] = str(exc)
                    except Exception as exc:  # one broken document must not sink the folder answer
                        skipped[rec.name] = f"search failed ({type(exc).__name__}: {exc})"
                now = time.monotonic()
                for f in list(pending):
                    rec = futures[f]
                    with lock:
                        t0 = started.get(rec.record_id)
                    if t0 is not None and now - t0 >= limit:
                        skipped[rec.name] = f"no result within the {limit:g} s time limit"
                        f.cancel()
                        pending.discard(f)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        return answers, skipped

    def _figure_on(self, by_name: dict[str, DocumentRecord]) -> series.Read:
        """Reads the figure a question asks off one page of a document of the folder (no search: the page is
        known), for a series' restated periods."""
        def read(name: str, question: str, page: int) -> dict[str, Any] | None:
            try:
                doc = self.library.load_index(by_name[name])
            except (AlphaSearchError, KeyError):
                return None
            found = figure_answer(doc, question, [page], read=1)
            if found is None or not found.figures:
                return None
            return found.to_dict()["figures"][0]
        return read

    # --- the whole question ------------------------------------------------------------------
    def ask(self, question: str, *, folder: str | None = None, history: Sequence[ChatTurn] | None = None,
            conversation: str | None = None, top_k: int | None = None, iterations: int | None = None,
            seed: int | None = None, save_trace: bool = True, documents: Sequence[str] | None = None,
            on_step: OnStep | None = None, owner: str | None = None) -> Answer:
        """``documents``: search only these (names in the folder), e.g. an alternative the user picked.
        ``owner``: the visitor the conversation and the saved search belong to (None: the operator)."""
        s = self.settings
        t0 = time.perf_counter()
        if history is None:
            history = self.library.history(conversation, limit=20, owner=owner) if conversation else []
        routing, fp = self.route(question, folder, history)
        t1 = time.perf_counter()
        records = self.records(fp.folder_id)
        if records and {d.key for d in fp.documents} != set(records):  # changed since the profiles were read
            fp = next((p for p in self.profiles() if p.folder_id == fp.folder_id), fp)
        if not records:
            raise EmptyFolderError(f"The folder {fp.name!r} has no documents yet; add PDFs to it first.")
        if documents:
            wanted = {str(n).strip().casefold() for n in documents}
            records = {key: r for key, r in records.items() if r.name.casefold() in wanted}
            if not records:
                raise NotFoundError(f"The folder {fp.name!r} has none of the documents "
                                    f"{', '.join(map(str, documents))}; pick one from its document table.")
        k = max(1, int(top_k or s.top_k_docs))
        rng = random.Random(s.seed if seed is None else seed)
        query = contextual_question(question, history) if routing.followup else question
        doc_trace, chosen, doc_scores, why, others = self.choose_documents(query, fp, records, k,
                                                                            iterations or s.iterations, rng, on_step)
        t2 = time.perf_counter()
        facts_of = [(records[d.key].name, d.facts) for d in fp.documents if d.key in records]
        plan = series.plan(query, facts_of) if s.facts_weight > 0 else None
        if plan is not None and plan.names:  # a trend: every period's filing answers its own period's figure
            by_name = {r.name: r for r in records.values()}
            chosen_recs = [by_name[n] for n in plan.names]
            asked = {n: series.period_question(plan.words, f) for docs in plan.groups.values() for n, f in docs}
            answers, skipped = self.search_documents(query, chosen_recs, iterations, seed, on_step, questions=asked)
            t3 = time.perf_counter()
            answer = series.answer(query, plan, answers, skipped, read=self._figure_on(by_name),
                                   ids={r.name: r.sha256 for r in chosen_recs})
            others = []
        else:
            held = FolderProfile(fp.folder_id, fp.name, tuple(d for d in fp.documents if d.key in records))
            fm = self.signals(held, records).facts(query) if s.facts_weight > 0 else None  # Phase 1's, remembered
            prefer = period_filings(fm, facts_of)
            chosen_recs = [records[key] for key in chosen]
            unsearched = sorted(prefer - {r.name for r in chosen_recs})
            if unsearched and len(prefer) <= k:  # the filing of the period asked is always read
                by_name = {r.name: r for r in records.values()}
                chosen_recs += [by_name[n] for n in unsearched]
            own = {}  # a named quarter, end date or "latest": each filing of that period is asked its own dates
            if fm is not None and {"quarter", "latest", "ended"} & set(fm.named):
                own = {n: periods.restate(query, f) for n, f in facts_of if n in prefer and f is not None}
            answers, skipped = self.search_documents(query, chosen_recs, iterations, seed, on_step, questions=own)
            t3 = time.perf_counter()
            single = fm is not None and periods.names_period(query)
            answer = merge(query, chosen_recs, doc_scores, answers, threshold=s.answer_threshold, prefer=prefer,
                           single=single)
            note = "" if fm is None else fm.note or periods.not_held(query, fm, [f for _, f in facts_of])
            if note and not fm.note and not answer.fallback and answer.doc:
                note += f" The answer above is read from {answer.doc}, a filing of another period."
            if note:
                answer.text += "\n\n" + note
                answer.extra["period_note"] = note
        names = [r.name for r in chosen_recs]
        also = [{"doc": records[key].name, "label": why[key]["label"]} for key in others]
        if also:
            answer.text += "\n\nAlso found in: " + "; ".join(
                a["doc"] + (f" ({a['label']})" if a["label"] else "") for a in also) + "."
            answer.extra["also_found_in"] = also
        answer.trace = doc_trace
        answer.seconds = time.perf_counter() - t0
        answer.extra.update({"folder": fp.name, "folder_confidence": round(routing.confidence, 4), "documents": names,
                             "routing": routing.to_dict()})
        if query != question:
            answer.extra["searched_for"] = query
        reasons = [f"{n}: {why}" for n, why in skipped.items()] + ([answer.degraded] if answer.degraded else [])
        answer.degraded = "; ".join(reasons)
        answer.folder_trace = FolderTrace(
            question=question, routing=routing.to_dict(), documents=doc_trace, chosen=names,
            per_document={n: a.trace for n, a in answers.items() if a.trace is not None}, skipped=skipped,
            doc_scores={records[key].name: v for key, v in doc_scores.items() if key in records},
            why={records[key].name: w for key, w in why.items()}, alternatives=[a["doc"] for a in also],
            seconds={"routing": t1 - t0, "documents": t2 - t1, "search": t3 - t2, "total": time.perf_counter() - t0})
        if save_trace:
            try:
                self.library.save_trace(fp.folder_id, {"question": question, "answer": answer.text,
                                                       "folder": fp.name,
                                                       "folder_trace": answer.folder_trace.to_dict()}, owner=owner)
            except (OSError, AlphaSearchError):
                pass  # the visualizer's copy is a convenience (none when the folder is gone); the answer stands
        if conversation:
            try:
                self.library.add_turns(conversation, [
                    ("user", question, None),
                    ("assistant", answer.text, {"confidence": round(answer.confidence, 4), "documents": names,
                                                "citations": [c.to_dict() for c in answer.citations]})],
                    folder=fp.folder_id, owner=owner)
            except FolderGoneError as exc:  # deleted while searched: the answer stands, nothing is kept
                answer.extra["not_saved"] = str(exc)
        return answer


def alternatives(question: str, docs: Sequence[DocProfile], fm: doc_facts.FactMatch, content: dict[str, float],
                 chosen: Sequence[str]) -> list[str]:
    """Other documents a question may mean about as well as the best chosen one: when it names
    facts (a company without a year) or assumes one document ("this paper"), those whose named
    facts fit as well as the best one's and whose content score is within ``AMBIGUITY_MARGIN``
    of its (the content, not the score the facts lead: with the facts equal, only the content
    can say the question fits them about equally) — content hashes, best first, at most
    ``MAX_ALTERNATIVES``."""
    if not chosen or not (fm.any or doc_facts.read_question(question).demonstrative):
        return []
    pos = {d.key: i for i, d in enumerate(docs)}
    best = chosen[0]
    near = [d.key for d in docs if d.key != best and abs(fm.scores[pos[d.key]] - fm.scores[pos[best]]) < 1e-6
            and content[d.key] >= content[best] - AMBIGUITY_MARGIN]
    return sorted(near, key=lambda key: -content[key])[:MAX_ALTERNATIVES]


def contextual_question(question: str, history: Sequence[ChatTurn]) -> str:
    """An elliptic follow-up ("and the year before?") searched together with the
    conversation's previous question; any other question is searched as asked."""
    if not looks_like_followup(question):
        return question
    previous = next((t.text for t in reversed(list(history)) if t.role == "user"), "")
    previous = previous[:max(0, MAX_QUESTION_CHARS - len(question) - 1)]  # together within the engine's limit
    return f"{previous} {question}".strip() if previous else question


def period_filings(fm: doc_facts.FactMatch | None, facts_of: Sequence[tuple[str, Any]]) -> frozenset[str]:
    """The documents that are the period a question names (its year, quarter, end date or "latest" all fit, and
    the company when it names one), by name; empty when it names no period."""
    if fm is None:
        return frozenset()
    asked = {"quarter", "latest", "ended"} & set(fm.named) or {"year"} & set(fm.named)  # the most specific
    if not asked:
        return frozenset()
    asked |= {"org"} & set(fm.named)  # the period of the company named, not another company's
    return frozenset(name for (name, _), got in zip(facts_of, fm.matched) if asked <= set(got))


def merge(question: str, recs: list[DocumentRecord], doc_scores: dict[str, float], answers: dict[str, Answer], *,
          threshold: float = 0.35, prefer: frozenset[str] = frozenset(), single: bool = False) -> Answer:
    """One answer from the per-document answers.

    Each document gets weight ½·(Phase 1 score / best Phase 1 score) + ½·(its
    answer's confidence); its i-th ranked page scores weight · PAGE_DECAY^i (0.9), and
    ``doc_pages`` lists (document, page) by that score. The text and citations
    come from the best-weighted document with a confident answer, plus any other
    document whose answer is nearly as confident. ``prefer``: the filings of the period the
    question names: one of them answers when it can; a figure read from another filing (a
    later one's comparative column) comes first only when none can, and then says so. ``single``: the
    question names one period, so one filing answers it (the others are not quoted beside it).
    """
    best_score = max((doc_scores.get(r.sha256, 0.0) for r in recs), default=0.0) or 1.0
    weights: dict[str, float] = {}
    for r in recs:
        a = answers.get(r.name)
        if a is None:
            continue
        weights[r.name] = 0.5 * doc_scores.get(r.sha256, 0.0) / best_score + 0.5 * a.confidence
    ranked_pages: list[tuple[bool, float, int, str, int]] = []  # the period's filings first
    for order, (name, w) in enumerate(sorted(weights.items(), key=lambda kv: (kv[0] not in prefer, -kv[1]))):
        for i, page in enumerate(answers[name].pages):
            ranked_pages.append((name not in prefer, w * PAGE_DECAY ** i, -order, name, page))
    ranked_pages.sort(key=lambda t: (t[0], -t[1], -t[2]))
    doc_pages = [(name, page) for _, _, _, name, page in ranked_pages]
    usage = Usage()
    for a in answers.values():
        usage.add(a.usage)
    degraded = "; ".join(f"{n}: {a.degraded}" for n, a in answers.items() if a.degraded)
    good = sorted(((n, a) for n, a in answers.items() if not a.fallback),
                  key=lambda na: (na[0] not in prefer, -weights[na[0]]))
    if not good:
        conf = max((a.confidence for a in answers.values()), default=0.0)
        return Answer(text=FOLDER_FALLBACK, confidence=conf, fallback=True, citations=[], pages=[],
                      doc_pages=doc_pages, usage=usage, degraded=degraded)
    top_name, top = good[0]
    parts = [(top_name, top)] + [(n, a) for n, a in good[1:3] if not single
                                 and a.confidence >= max(threshold, 0.9 * top.confidence)]
    texts, citations, seen = [], [], set()
    for name, a in parts:
        said = _PAGE_REF.sub("", a.text).split()
        if tuple(said) in seen:  # near-identical documents: say it once, cite the first
            continue
        seen.add(tuple(said))
        texts.append(_name_pages(a.text, name))
        citations.extend(c if c.doc else Citation(name, c.section, c.pages, c.snippet, c.doc_id) for c in a.citations)
    extra = {key: top.extra[key] for key in ("confidence_parts", "direct_answer") if key in top.extra}
    if prefer and top_name not in prefer:
        other = (f"Not found in the filing of the period asked ({', '.join(sorted(prefer))}); read from "
                 f"{top_name}.")
        texts.insert(0, other)
        extra["period_source"] = other
    if top.extra.get("structured"):  # the chosen document's structured answer, the document named
        extra["structured"] = {**top.extra["structured"], "doc": top_name}
    return Answer(text="\n\n".join(texts), confidence=top.confidence, fallback=False, citations=citations, pages=[],
                  doc_pages=doc_pages, usage=usage, doc=top_name, degraded=degraded, extra=extra)


_PAGE_REF = re.compile(r"\[(p{1,2}\.\s*[\d–\-, ]+)\]")


def _name_pages(text: str, doc: str) -> str:
    """``[p. 4]`` → ``[doc, p. 4]`` so a folder answer says which document each page is from."""
    return _PAGE_REF.sub(lambda m: f"[{doc}, {m.group(1)}]", text)


def answer_json(answer: Answer, *, trace: bool = True) -> dict[str, Any]:
    """The JSON object of an answer, as ``query --json`` and ``ask --json`` print it and the HTTP API
    sends it (``Answer.to_dict`` plus a folder answer's folder trace); ``trace=False``: without the
    search traces (``trace`` is then None and there is no ``folder_trace``)."""
    out = answer.to_dict()
    if not trace:
        out["trace"] = None
    elif answer.folder_trace is not None:
        out["folder_trace"] = answer.folder_trace.to_dict()
    return out
