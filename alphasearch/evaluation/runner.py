"""Page-retrieval evaluation over a labelled set (hit@k, MRR) and the runner behind ``eval``.

A labelled set is a directory with ``pdfs/`` and ``questions.jsonl``; each row
has ``id``, ``doc`` (a file in ``pdfs/``; a name pointing outside it is refused), ``question``, ``evidence_pages``
(1-based) and optionally ``source``. The metric functions are pure; the
runner indexes each PDF once through the :class:`~alphasearch.pipeline.Engine`
(cached by content hash under its data dir) and runs every method on every
question. Nothing here prints: progress goes to a callback.

Methods (pick by name from :data:`METHODS`):

- ``flat_bm25`` / ``flat_embed``: whole pages ranked by BM25 / static embeddings (no tree);
- ``flat_offline``: whole pages ranked by the engine's own page scores (``PageRanker``:
  BM25 over page windows and headings plus its priors), no tree — what the search adds
  is the difference between this and the tree methods;
- ``flat_read``: the page ranker's top N pages reread by the engine's deep read, N = the
  pages the default search reads on that question (flat reading at equal pages read), ranked
  by what the reads found as the search ranks its own reads;
- ``exhaustive`` / ``greedy`` / ``beam``: tree baselines (beam width 3) with the engine's
  scorer; their trace goes through the same final page ranking as MCTS;
- ``mcts_reference``: the reference system's MCTS (:func:`alphasearch.search.baselines.mcts_reference`:
  UCB1, mean backup, one judged node per iteration, revisited leaves judged again);
- ``mcts_ucb1`` / ``mcts_puct``: the engine's ``ask_document`` with that selection rule
  (``mcts_puct`` is the default engine: the search reads pages below the leaves).

Every method's answer is the extractive answer over its ranked pages (or the
engine's own answer for the MCTS methods).
"""
from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..answer.written import without_citations
from ..answer.calibration import auroc, half_of
from ..errors import AlphaSearchError, ConfigError
from ..read.figures import carries, gold_figures, states_other
from ..models import DocumentIndex
from .paths import inside

DEFAULT_METHODS = ("flat_bm25", "mcts_puct")
DEFAULT_KS = (1, 3, 5)
BEAM_WIDTH = 3
ROW_PAGES = 20  # pages kept per result row (MRR is over these)


class EvalSetError(AlphaSearchError):
    """The labelled set is missing or malformed."""


# --- metrics (pure) -------------------------------------------------------------------------
def hit_at_k(pages: Sequence[int], evidence: Iterable[int], k: int) -> float:
    """1.0 if any evidence page is among the first ``k`` ranked pages, else 0.0."""
    wanted = set(evidence)
    return 1.0 if any(p in wanted for p in list(pages)[:k]) else 0.0


def reciprocal_rank(pages: Sequence[int], evidence: Iterable[int]) -> float:
    """1 / rank of the first evidence page in ``pages`` (1-based rank); 0.0 if none is ranked."""
    wanted = set(evidence)
    for rank, page in enumerate(pages, start=1):
        if page in wanted:
            return 1.0 / rank
    return 0.0


# --- data -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    id: str
    doc: str
    question: str
    evidence_pages: tuple[int, ...]
    source: str = ""
    answer: str = ""


def load_questions(eval_dir: Path | str, *, limit: int | None = None,
                   questions: Path | str | None = None) -> list[Question]:
    """The questions of a labelled set, in file order (the first ``limit`` if given); ``questions``: another
    file of the same format asked of the set's PDFs (other wordings of its questions)."""
    root = Path(eval_dir)
    qfile = Path(questions) if questions else root / "questions.jsonl"
    if not qfile.is_file() or not (root / "pdfs").is_dir():
        raise EvalSetError(f"No labelled set at {root}: it needs pdfs/ and questions.jsonl "
                           "(the development set lives in ../shared/eval and is not part of the repository).")
    out: list[Question] = []
    for lineno, line in enumerate(qfile.read_text("utf-8").splitlines(), start=1):
        if limit is not None and len(out) >= limit:
            break
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            q = Question(id=str(row["id"]), doc=str(row["doc"]), question=str(row["question"]),
                         evidence_pages=tuple(int(p) for p in row["evidence_pages"]),
                         source=str(row.get("source", "")), answer=str(row.get("answer", "")))
        except (ValueError, KeyError, TypeError) as exc:
            raise EvalSetError(f"{qfile.name} line {lineno} is not a valid question row ({exc}).") from exc
        out.append(q)
    return out


# --- results ---------------------------------------------------------------------------------------
@dataclass
class Row:
    """One (question, method) result. ``pages`` ranked best first, 1-based; ``seconds`` wall time."""

    id: str
    doc: str
    source: str
    method: str
    pages: list[int]
    evidence_pages: list[int]
    answer: str
    confidence: float
    fallback: bool
    seconds: float
    llm_calls: int = 0
    nodes_scored: int = 0
    error: str = ""
    pages_read: int = 0  # pages the search deep-read (page nodes judged)
    iterations: int = 0
    judged_nothing: int = 0  # iterations that judged no node not judged before
    direct_answer: str = ""  # the one-line direct answer ("" on a fallback)
    confidence_parts: dict[str, float] = field(default_factory=dict)
    gold_printed: bool = False  # a figure of the gold answer is printed on an evidence page
    direct_carries: bool = False  # … and the direct answer carries it
    answer_carries: bool = False  # … and the answer text carries it
    direct_wrong: bool = False  # … and the direct answer states a figure, none of them the gold one
    off_topic: bool = False  # the question was asked of a document of another source (no answer there)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["confidence"] = round(self.confidence, 4)
        d["seconds"] = round(self.seconds, 4)
        if not self.error:
            d.pop("error")
        return d


@dataclass
class Summary:
    """Metrics of one group of rows (a method, optionally one source)."""

    method: str
    source: str
    n: int
    hits: dict[int, float] = field(default_factory=dict)  # k -> hit@k in [0, 1]
    mrr: float = 0.0
    median_seconds: float = 0.0
    mean_nodes: float = 0.0
    fallbacks: float = 0.0  # share of fallback answers


def summarise(rows: Sequence[Row], ks: Sequence[int] = DEFAULT_KS) -> list[Summary]:
    """Per method (in first-seen order): one summary over all its rows, then one per
    source when the rows come from more than one source."""
    rows = [r for r in rows if not r.off_topic]
    groups: dict[tuple[str, str], list[Row]] = {}
    sources = sorted({r.source or "-" for r in rows})
    for method in dict.fromkeys(r.method for r in rows):
        mine = [r for r in rows if r.method == method]
        groups[(method, "all")] = mine
        if len(sources) > 1:
            for src in sources:
                part = [r for r in mine if (r.source or "-") == src]
                if part:
                    groups[(method, src)] = part
    out = []
    for (method, source), rs in groups.items():
        n = len(rs)
        out.append(Summary(
            method=method, source=source, n=n,
            hits={k: sum(hit_at_k(r.pages, r.evidence_pages, k) for r in rs) / n for k in ks},
            mrr=sum(reciprocal_rank(r.pages, r.evidence_pages) for r in rs) / n,
            median_seconds=statistics.median(r.seconds for r in rs),
            mean_nodes=sum(r.nodes_scored for r in rs) / n,
            fallbacks=sum(r.fallback for r in rs) / n,
        ))
    return out


def format_table(summaries: Sequence[Summary], ks: Sequence[int] = DEFAULT_KS) -> str:
    """A plain-text table, one line per summary."""
    head = f"{'method':<12} {'source':<16} {'n':>4} " + " ".join(f"{'hit@' + str(k):>6}" for k in ks) + \
        f" {'MRR':>6} {'med s':>6} {'nodes':>6}"
    lines = [head]
    for s in summaries:
        lines.append(f"{s.method:<12} {s.source[:16]:<16} {s.n:>4} " + " ".join(f"{s.hits[k]:>6.3f}" for k in ks)
                     + f" {s.mrr:>6.3f} {s.median_seconds:>6.2f} {s.mean_nodes:>6.1f}")
    return "\n".join(lines)


# --- methods ---------------------------------------------------------------------------------------
@dataclass
class Outcome:
    pages: list[int]
    answer: str = ""
    confidence: float = 0.0
    fallback: bool = True
    llm_calls: int = 0
    nodes_scored: int = 0
    pages_read: int = 0
    iterations: int = 0
    judged_nothing: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # the answer's extra fields (direct_answer, parts)


def _search_counts(trace) -> dict[str, int]:
    """Pages read, iterations and iterations that judged nothing new, of one trace."""
    from ..search.mcts import idle_iterations, pages_read

    return {"pages_read": len(pages_read(trace)), "iterations": len(trace.steps),
            "judged_nothing": idle_iterations(trace)}


Method = Callable[..., Outcome]  # (engine, doc, question, *, iterations, seed) -> Outcome


def _extract(engine, doc: DocumentIndex, question: str, pages: list[int], nodes: int = 0) -> Outcome:
    """The offline extractive answer from ``pages``, exactly as the engine answers its own search."""
    ex = engine.offline.extract(doc, question, pages)
    return Outcome(pages, ex.text, ex.confidence, ex.fallback, 0, nodes, extra=ex.extra())


def _flat(name: str) -> Method:
    def run(engine, doc: DocumentIndex, question: str, **_: Any) -> Outcome:
        from ..search.baselines import FLAT_BASELINES

        return _extract(engine, doc, question, FLAT_BASELINES[name](doc, question))

    return run


def _flat_offline(engine, doc: DocumentIndex, question: str, **_: Any) -> Outcome:
    from ..search.baselines import ranked

    return _extract(engine, doc, question, ranked(engine.tools(doc).ranker.scores(question)))


def _tree(name: str) -> Method:
    def run(engine, doc: DocumentIndex, question: str, **_: Any) -> Outcome:
        from ..answer.ranking import rank_pages
        from ..search.baselines import TREE_BASELINES

        tools = engine.tools(doc)
        kwargs = {"width": BEAM_WIDTH} if name == "beam" else {}
        trace = TREE_BASELINES[name](doc.root, question, tools.scorer, label=doc.name, **kwargs)
        pages = rank_pages(doc, trace, tools.ranker.scores(question), k=doc.page_count)
        out = _extract(engine, doc, question, pages, trace.nodes_scored)
        for k, v in _search_counts(trace).items():
            setattr(out, k, v)
        return out

    return run


def _flat_read(engine, doc: DocumentIndex, question: str, *, iterations: int | None = None,
               seed: int | None = None, **_: Any) -> Outcome:
    """The page ranker's top N pages reread by the engine's deep read, N = the pages the default
    search reads on this question, ranked as the search ranks its pages: a page read carries what
    the read found (:meth:`PageReader.read_evidence`, the figure row found in the year asked
    included), the others the ranker's score (:func:`alphasearch.answer.ranking.rank_pages` without a tree)."""
    from ..answer.ranking import rank_pages
    from ..search.baselines import ranked

    tools = engine.tools(doc)
    ans = engine.ask_document(doc, question, iterations=iterations, seed=seed)
    n = _search_counts(ans.trace)["pages_read"] if ans.trace else 0
    scores = tools.ranker.scores(question)
    read = scores.copy()
    for page in ranked(scores)[:n]:
        read[page - 1] = tools.reader.read_evidence(question, page)
    pages = rank_pages(doc, None, read, k=doc.page_count)
    out = _extract(engine, doc, question, pages)
    out.pages_read = n
    return out


def _mcts(rule: str) -> Method:
    def run(engine, doc: DocumentIndex, question: str, *, iterations: int | None = None,
            seed: int | None = None) -> Outcome:
        ans = engine.ask_document(doc, question, iterations=iterations, seed=seed, rule=rule)
        out = Outcome(list(ans.pages), ans.text, ans.confidence, ans.fallback, ans.usage.llm_calls,
                      ans.trace.nodes_scored if ans.trace else 0, extra=ans.extra)
        if ans.trace:
            for k, v in _search_counts(ans.trace).items():
                setattr(out, k, v)
        return out

    return run


METHODS: dict[str, Method] = {
    "flat_bm25": _flat("flat_bm25"),
    "flat_embed": _flat("flat_embed"),
    "flat_offline": _flat_offline,
    "flat_read": _flat_read,
    "exhaustive": _tree("exhaustive"),
    "greedy": _tree("greedy"),
    "beam": _tree("beam"),
    "mcts_reference": _tree("mcts_reference"),
    "mcts_ucb1": _mcts("ucb1"),
    "mcts_puct": _mcts("puct"),
}


def check_methods(names: Sequence[str]) -> list[str]:
    """The method names, validated; an unknown one raises ``ValueError`` listing the valid ones."""
    unknown = [m for m in names if m not in METHODS]
    if unknown or not names:
        raise ValueError(f"Unknown method(s) {', '.join(unknown) or '(none given)'}; "
                         f"choose from {', '.join(METHODS)}.")
    return list(names)


# --- runner ------------------------------------------------------------------------------------------
Progress = Callable[[str], None]


def run(
    eval_dir: Path | str,
    engine,
    *,
    methods: Sequence[str] = DEFAULT_METHODS,
    limit: int | None = None,
    iterations: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    on_row: Callable[[Row], None] | None = None,
    off_topic: bool = False,
    questions_file: Path | str | None = None,
) -> list[Row]:
    """Run every method on every question of the set; returns one :class:`Row` per pair.

    ``engine`` is an :class:`~alphasearch.pipeline.Engine`; indexes are loaded
    from (or built into) its data dir. A document that cannot be indexed gives
    rows with empty ``pages`` and the error message, so one bad PDF does not
    stop the run; a settings problem (:class:`ConfigError`) stops it at once.
    """
    methods = check_methods(methods)
    say = progress or (lambda msg: None)
    questions = load_questions(eval_dir, limit=limit, questions=questions_file)
    pool = load_questions(eval_dir, questions=questions_file) if off_topic and limit is not None else questions  # off-topic documents
    pdf_dir = Path(eval_dir) / "pdfs"
    docs: dict[str, DocumentIndex | str] = {}
    rows: list[Row] = []
    started = time.perf_counter()
    for i, q in enumerate(questions, start=1):
        if q.doc not in docs:
            t = time.perf_counter()
            stages: list[str] = []
            try:
                docs[q.doc] = engine.index_file(inside(pdf_dir, q.doc, what="PDF"),
                                                progress=lambda stage, frac: stages.append(stage))
                if "loaded from cache" not in stages:  # cached indexes load silently
                    say(f"[{i}/{len(questions)}] indexed {q.doc} in {time.perf_counter() - t:.1f}s")
            except ConfigError:
                raise  # a settings problem (e.g. no API key) would fail every document: stop now
            except AlphaSearchError as exc:
                docs[q.doc] = str(exc)
                say(f"[{i}/{len(questions)}] cannot index {q.doc}: {exc}")
        doc = docs[q.doc]
        gold = gold_figures(q.answer)
        printed = not isinstance(doc, str) and bool(gold) and carries(
            " ".join(doc.page(p).text for p in q.evidence_pages if 1 <= p <= doc.page_count), gold)
        targets = [(q.doc, doc, False)]
        if off_topic:
            other = _off_topic_doc(q, pool)
            if other:
                if other not in docs:
                    try:
                        docs[other] = engine.index_file(inside(pdf_dir, other, what="PDF"))
                    except AlphaSearchError as exc:
                        docs[other] = str(exc)
                targets.append((other, docs[other], True))
        for name, target, away in targets:
            for m in methods:
                t = time.perf_counter()
                if isinstance(target, str):
                    out, err = Outcome([]), target
                else:
                    out, err = METHODS[m](engine, target, q.question, iterations=iterations, seed=seed), ""
                direct = str(out.extra.get("direct_answer", ""))
                row = Row(q.id, name, q.source, m, out.pages[:ROW_PAGES], [] if away else list(q.evidence_pages),
                          out.answer, out.confidence, out.fallback, time.perf_counter() - t, out.llm_calls,
                          out.nodes_scored, err, out.pages_read, out.iterations, out.judged_nothing,
                          direct_answer=direct, confidence_parts=dict(out.extra.get("confidence_parts", {})),
                          gold_printed=printed and not away,
                          # a page cited ("— p. 13") is no figure the answer states
                          direct_carries=printed and not away and carries(without_citations(direct), gold),
                          answer_carries=printed and not away and carries(without_citations(out.answer), gold),
                          direct_wrong=printed and not away and states_other(without_citations(direct), gold),
                          off_topic=away)
                rows.append(row)
                if on_row:
                    on_row(row)
        if i % 10 == 0 or i == len(questions):
            say(f"[{i}/{len(questions)}] {time.perf_counter() - started:.0f}s elapsed")
    return rows


def _off_topic_doc(q: Question, questions: Sequence[Question]) -> str:
    """A document of another source for ``q`` (fixed by the question id), or "" when there is none."""
    import hashlib

    others = sorted({o.doc for o in questions if o.source != q.source and o.doc != q.doc})
    if not others:
        return ""
    return others[hashlib.sha256(q.id.encode("utf-8")).digest()[0] % len(others)]


# --- one method against another, split by document ------------------------------------------------
def hit1_gap(rows: Sequence[Row], method: str, baseline: str, *, splits: int = 30) -> dict[str, Any] | None:
    """hit@1 of ``method`` less ``baseline``'s on the questions both answered (off-topic rows left out):
    ``all``; ``halves``, on each half of the documents (:func:`half_of`, the fixed split); and over
    ``splits`` other document splits (seeds 1..splits, both halves of each) their ``mean``, ``p10``
    (the 10th percentile) and ``min`` — so a gap is seen not to rest on a few documents. None when
    the two methods share no question."""
    hits: dict[str, dict[tuple[str, str], float]] = {method: {}, baseline: {}}
    for r in rows:
        if r.method in hits and not r.off_topic:
            hits[r.method][(r.id, r.doc)] = hit_at_k(r.pages, r.evidence_pages, 1)
    both = sorted(set(hits[method]) & set(hits[baseline]))
    if not both:
        return None

    def gap(keys: list[tuple[str, str]]) -> float | None:
        return sum(hits[method][k] - hits[baseline][k] for k in keys) / len(keys) if keys else None

    def halves(seed: int) -> list[float | None]:
        return [gap([k for k in both if half_of(k[1], seed) == h]) for h in (0, 1)]

    others = sorted(g for seed in range(1, splits + 1) for g in halves(seed) if g is not None)
    out: dict[str, Any] = {"method": method, "baseline": baseline, "n": len(both), "all": gap(both),
                           "halves": halves(0), "splits": splits}
    if others:
        out.update(mean=statistics.fmean(others), p10=others[int(0.1 * (len(others) - 1))], min=others[0])
    return out


def format_hit1_gap(g: dict[str, Any]) -> str:
    """One line of :func:`hit1_gap`."""
    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:+.3f}"

    line = (f"hit@1 {g['method']} less {g['baseline']} ({g['n']} questions): {f(g['all'])}; "
            f"halves by document {f(g['halves'][0])} / {f(g['halves'][1])}")
    if "mean" in g:
        line += (f"; {g['splits']} other document splits, both halves: mean {f(g['mean'])}, "
                 f"10th percentile {f(g['p10'])}, lowest {f(g['min'])}")
    return line


# --- answers, not only pages -------------------------------------------------------------------
def answer_summary(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """Per method: the answer-level figures.

    - ``printed``: questions whose gold answer's figure is printed on an evidence page;
      ``direct_carries`` / ``answer_carries``: the share of them whose direct answer /
      answer text carries that figure (numbers compared with unit scaling);
    - ``fallback_answerable`` / ``fallback_off_topic``: the share of fallbacks on the
      labelled questions and on the same questions asked of another source's document;
    - ``auroc_hit1`` / ``auroc_figure``: AUROC of confidence for "the first page is right"
      and for "the direct answer carries the gold figure" (over ``printed``), on all rows
      and on each half of the documents (``*_halves``, split by :func:`half_of`)."""
    out: dict[str, dict[str, Any]] = {}
    for method in dict.fromkeys(r.method for r in rows):
        mine = [r for r in rows if r.method == method and not r.error]
        real = [r for r in mine if not r.off_topic]
        away = [r for r in mine if r.off_topic]
        printed = [r for r in real if r.gold_printed]
        s: dict[str, Any] = {"n": len(real), "printed": len(printed)}
        if printed:
            s["direct_carries"] = sum(r.direct_carries for r in printed) / len(printed)
            s["answer_carries"] = sum(r.answer_carries for r in printed) / len(printed)
            s["direct_wrong"] = sum(r.direct_wrong for r in printed) / len(printed)
        s["fallback_answerable"] = sum(r.fallback for r in real) / len(real) if real else None
        s["fallback_off_topic"] = sum(r.fallback for r in away) / len(away) if away else None
        hit1 = [hit_at_k(r.pages, r.evidence_pages, 1) > 0 for r in real]
        s["auroc_hit1"] = auroc([r.confidence for r in real], hit1)
        s["auroc_figure"] = auroc([r.confidence for r in printed], [r.direct_carries for r in printed])
        s["auroc_hit1_halves"] = [auroc([r.confidence for r, h in zip(real, hit1) if half_of(r.doc) == k],
                                        [h for r, h in zip(real, hit1) if half_of(r.doc) == k]) for k in (0, 1)]
        s["auroc_figure_halves"] = [auroc([r.confidence for r in printed if half_of(r.doc) == k],
                                          [r.direct_carries for r in printed if half_of(r.doc) == k]) for k in (0, 1)]
        out[method] = s
    return out


def format_answer_summary(summary: dict[str, dict[str, Any]]) -> str:
    """A plain-text table of :func:`answer_summary`."""
    def f(x, pct=False):
        return "–" if x is None else (f"{x:.0%}" if pct else f"{x:.3f}")

    lines = [f"{'method':<12} {'printed':>7} {'direct':>7} {'wrong':>7} {'text':>7} {'fb ans':>7} {'fb off':>7} "
             f"{'AUROC p1':>9} {'AUROC fig':>9}"]
    for m, s in summary.items():
        lines.append(f"{m:<12} {s['printed']:>7} {f(s.get('direct_carries')):>7} {f(s.get('direct_wrong')):>7} "
                     f"{f(s.get('answer_carries')):>7} "
                     f"{f(s['fallback_answerable'], True):>7} {f(s['fallback_off_topic'], True):>7} "
                     f"{f(s['auroc_hit1']):>9} {f(s['auroc_figure']):>9}")
    return "\n".join(lines)
