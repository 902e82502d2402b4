"""Plain data types shared by every part of the engine.

Conventions: pages are 1-based and ranges inclusive; rewards, scores, Q-values
and confidences are floats in [0, 1]. Every type here converts to and from
JSON-ready dicts (``to_dict`` / ``from_dict``) so indexes and traces can be
stored and replayed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

INDEX_VERSION = 35  # bump when the offline tree changes so cached indexes are rebuilt


@dataclass(frozen=True)
class Section:
    """A node of a document's section tree.

    ``pages`` is a 1-based inclusive range. The text used for scoring a node is
    the text of the pages in that range, stored once per page in
    :class:`DocumentIndex`; ``headings`` are the heading lines found inside it.
    """

    node_id: str
    title: str
    pages: tuple[int, int]
    summary: str = ""
    children: tuple["Section", ...] = ()
    level: int = 0
    source: str = ""  # "outline", "headings", "topics", "split", "llm", "root", "group"

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def page_numbers(self) -> range:
        return range(self.pages[0], self.pages[1] + 1)

    def walk(self) -> Iterator["Section"]:
        """Pre-order traversal, self first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def leaves(self) -> Iterator["Section"]:
        for node in self.walk():
            if node.is_leaf:
                yield node

    def find(self, node_id: str) -> "Section | None":
        for node in self.walk():
            if node.node_id == node_id:
                return node
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.node_id,
            "title": self.title,
            "pages": list(self.pages),
            "summary": self.summary,
            "level": self.level,
            "source": self.source,
            "children": [c.to_dict() for c in self.children],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Section":
        return cls(
            node_id=str(d["id"]),
            title=str(d["title"]),
            pages=(int(d["pages"][0]), int(d["pages"][1])),
            summary=str(d.get("summary", "")),
            level=int(d.get("level", 0)),
            source=str(d.get("source", "")),
            children=tuple(cls.from_dict(c) for c in d.get("children", ())),
        )


@dataclass(frozen=True)
class Page:
    """One page's text, the heading lines found on it (1-based ``number``) and how many
    pictures of its own it holds (images that are not a logo or background on most pages)."""

    number: int
    text: str
    headings: tuple[str, ...] = ()
    pictures: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "text": self.text, "headings": list(self.headings), "pictures": self.pictures}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Page":
        return cls(int(d["number"]), str(d["text"]), tuple(d.get("headings", ())), int(d.get("pictures", 0)))


@dataclass(frozen=True)
class DocumentIndex:
    """Everything the search needs about one PDF; JSON-serialisable and versioned."""

    doc_id: str  # content hash (sha256 of the PDF bytes)
    name: str  # display file name
    page_count: int
    root: Section
    pages: tuple[Page, ...]
    summary: str = ""  # document-level summary, used for folder routing
    engine: str = "offline"  # who built the tree: "offline" or "llm:<model>"
    tree_source: str = ""  # "outline", "headings", "topics", "llm"
    warnings: tuple[str, ...] = ()
    version: int = INDEX_VERSION
    ocr: str = "off"  # OCR while indexing: "on", "off" (not asked) or "missing" (asked, Tesseract not installed)
    ocr_pages: tuple[int, ...] = ()  # the pages some of whose text OCR read

    def page(self, number: int) -> Page:
        return self.pages[number - 1]

    def text_of(self, section: Section) -> str:
        return "\n".join(self.pages[p - 1].text for p in section.page_numbers)

    def section_count(self) -> int:
        return sum(1 for _ in self.root.walk())

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "doc_id": self.doc_id,
            "name": self.name,
            "page_count": self.page_count,
            "summary": self.summary,
            "engine": self.engine,
            "tree_source": self.tree_source,
            "warnings": list(self.warnings),
            "ocr": self.ocr,
            "ocr_pages": list(self.ocr_pages),
            "root": self.root.to_dict(),
            "pages": [p.to_dict() for p in self.pages],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DocumentIndex":
        return cls(
            doc_id=str(d["doc_id"]),
            name=str(d["name"]),
            page_count=int(d["page_count"]),
            root=Section.from_dict(d["root"]),
            pages=tuple(Page.from_dict(p) for p in d["pages"]),
            summary=str(d.get("summary", "")),
            engine=str(d.get("engine", "offline")),
            tree_source=str(d.get("tree_source", "")),
            warnings=tuple(d.get("warnings", ())),
            version=int(d.get("version", 0)),
            ocr=str(d.get("ocr", "off")),
            ocr_pages=tuple(int(p) for p in d.get("ocr_pages", ())),
        )


# --- search ------------------------------------------------------------------
@dataclass(slots=True)
class SearchNode:
    """Search statistics of one section. ``q`` in [0, 1]: ``value`` (the max backup of
    :func:`alphasearch.search.mcts.search`) when set, else total_reward / visits (mean backup)."""

    section: Section
    parent_id: str | None = None
    prior: float = 0.0
    visits: int = 0
    total_reward: float = 0.0
    reward: float | None = None  # the simulation result for this node, once scored
    children: list["SearchNode"] = field(default_factory=list)
    expanded: bool = False
    value: float | None = None

    @property
    def q(self) -> float:
        if self.value is not None:
            return self.value
        return self.total_reward / self.visits if self.visits else 0.0

    def walk(self) -> Iterator["SearchNode"]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class SearchStep:
    """One MCTS iteration, for replay.

    ``path``: node ids from the root to the simulated node; ``reward`` in [0, 1];
    ``ucb``: the selection value of each chosen child along the path (one fewer
    than ``path``); ``expanded``: ids of nodes created in this iteration;
    ``judged``: ids of the nodes judged (scored) in this iteration, ``rewards`` their
    scores (an iteration that judged nothing learned nothing).
    """

    iteration: int
    path: tuple[str, ...]
    reward: float
    ucb: tuple[float, ...] = ()
    expanded: tuple[str, ...] = ()
    judged: tuple[str, ...] = ()
    rewards: tuple[float, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "iteration": self.iteration,
            "path": list(self.path),
            "reward": round(self.reward, 6),
            "ucb": [round(u, 6) for u in self.ucb],
            "expanded": list(self.expanded),
            "judged": list(self.judged),
            "rewards": [round(r, 6) for r in self.rewards],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SearchStep":
        return cls(int(d["iteration"]), tuple(d["path"]), float(d["reward"]),
                   tuple(float(u) for u in d.get("ucb", ())),
                   tuple(d.get("expanded", ())), tuple(d.get("judged", ())),
                   tuple(float(r) for r in d.get("rewards", ())))


@dataclass(frozen=True)
class SearchTrace:
    """The whole search: final statistics of every node plus one step per iteration.

    Node statistics after iteration t can be recomputed from ``steps[:t]``
    (see :func:`alphasearch.search.mcts.replay`).
    """

    root: SearchNode
    steps: tuple[SearchStep, ...]
    best: tuple[Section, ...]
    rule: str = "puct"
    c: float = 1.41
    nodes_scored: int = 0
    stopped_early: bool = False
    label: str = ""  # e.g. the document name, or "documents" for folder Phase 1
    prior_mix: float = 0.0  # PUCT's uniform share of P (mcts.PRIOR_MIX; 0 in traces saved before it existed)
    backup: str = "mean"  # "max": Q is the best evidence below (mcts.search); "mean": Q = mean reward
    stop_reason: str = ""  # "confident", "exhausted", or "" (the iteration budget ran out)
    rounds: tuple["GapRound", ...] = ()  # the knowledge-gap rounds after the first answer (LLM engine)
    sub_queries: tuple[str, ...] = ()  # the query expansion's sub-queries the answer used (expansion.py)

    def nodes(self) -> list[SearchNode]:
        return list(self.root.walk())

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "rule": self.rule,
            "c": self.c,
            "prior_mix": self.prior_mix,
            "backup": self.backup,
            "stop_reason": self.stop_reason,
            "iterations": len(self.steps),
            "nodes_scored": self.nodes_scored,
            "stopped_early": self.stopped_early,
            "nodes": [
                {
                    "id": n.section.node_id,
                    "parent": n.parent_id,
                    "title": n.section.title,
                    "pages": list(n.section.pages),
                    "summary": n.section.summary,
                    "visits": n.visits,
                    "total_reward": round(n.total_reward, 6),
                    "q": round(n.q, 6),
                    "prior": round(n.prior, 6),
                    "reward": None if n.reward is None else round(n.reward, 6),
                    "source": n.section.source,
                }
                for n in self.root.walk()
            ],
            "steps": [s.to_dict() for s in self.steps],
            "best": [s.node_id for s in self.best],
            "rounds": [r.to_dict() for r in self.rounds],
            "sub_queries": list(self.sub_queries),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SearchTrace":
        by_id: dict[str, SearchNode] = {}
        root: SearchNode | None = None
        for n in d["nodes"]:
            section = Section(str(n["id"]), str(n["title"]), (int(n["pages"][0]), int(n["pages"][1])),
                              str(n.get("summary", "")), source=str(n.get("source", "")))
            node = SearchNode(section=section, parent_id=n.get("parent"), prior=float(n.get("prior", 0.0)),
                              visits=int(n["visits"]), total_reward=float(n.get("total_reward", n["q"] * n["visits"])),
                              reward=n.get("reward"), expanded=True,
                              value=float(n["q"]) if d.get("backup") == "max" and n["visits"] else None)
            by_id[section.node_id] = node
            if node.parent_id is None or node.parent_id not in by_id:
                root = root or node
            if node.parent_id in by_id:
                by_id[node.parent_id].children.append(node)
        if root is None:
            raise ValueError("a trace needs at least one node")
        best = tuple(by_id[i].section for i in d.get("best", ()) if i in by_id)
        return cls(root=root, steps=tuple(SearchStep.from_dict(s) for s in d.get("steps", ())), best=best,
                   rule=str(d.get("rule", "puct")), c=float(d.get("c", 1.41)),
                   nodes_scored=int(d.get("nodes_scored", 0)), stopped_early=bool(d.get("stopped_early", False)),
                   label=str(d.get("label", "")), prior_mix=float(d.get("prior_mix", 0.0)),
                   backup=str(d.get("backup", "mean")), stop_reason=str(d.get("stop_reason", "")),
                   rounds=tuple(GapRound.from_dict(r) for r in d.get("rounds", ())),
                   sub_queries=tuple(str(q) for q in d.get("sub_queries", ())))


@dataclass(frozen=True)
class GapRound:
    """One knowledge-gap round: after an answer the model named ``missing`` (short descriptions of
    what the answer lacked); the search ran again over the same document with ``query`` (the
    first of them) as its question (``trace``), and ``pages`` (1-based, best first) are the pages
    it found that no earlier round had shown the answer model; the next answer read them too."""

    query: str
    trace: SearchTrace
    pages: tuple[int, ...] = ()
    missing: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "missing": list(self.missing), "pages": list(self.pages),
                "trace": self.trace.to_dict()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GapRound":
        return cls(query=str(d["query"]), trace=SearchTrace.from_dict(d["trace"]),
                   pages=tuple(int(p) for p in d.get("pages", ())), missing=tuple(str(m) for m in d.get("missing", ())))


# --- answers -------------------------------------------------------------------
@dataclass(frozen=True)
class Citation:
    doc: str
    section: str
    pages: tuple[int, int]
    snippet: str = ""
    doc_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "section": self.section, "pages": list(self.pages), "snippet": self.snippet}


@dataclass
class Usage:
    """LLM usage for one query; all zero for the offline engine."""

    llm_calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    malformed: int = 0

    def add(self, other: "Usage") -> None:
        self.llm_calls += other.llm_calls
        self.cache_hits += other.cache_hits
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost_usd += other.cost_usd
        self.malformed += other.malformed


FALLBACK_ANSWER = "I could not find enough evidence in this document."


@dataclass
class Answer:
    """The result of one question on one document (or a folder).

    ``pages``: ranked 1-based pages the engine read, best first. For folder
    answers ``doc_pages`` holds ranked (doc name, page) pairs instead.
    """

    text: str
    confidence: float
    fallback: bool
    citations: list[Citation]
    pages: list[int]
    trace: SearchTrace | None = None
    seconds: float = 0.0
    usage: Usage = field(default_factory=Usage)
    degraded: str = ""
    doc: str = ""
    doc_pages: list[tuple[str, int]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    folder_trace: "FolderTrace | None" = None  # folder answers: Phase 0, 1 and 2

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "answer": self.text,
            "confidence": round(self.confidence, 4),
            "fallback": self.fallback,
            "citations": [c.to_dict() for c in self.citations],
            "pages": [{"doc": d, "page": p} for d, p in self.doc_pages] if self.doc_pages else self.pages,
            "trace": self.trace.to_dict() if self.trace else None,
            "stats": {
                "seconds": round(self.seconds, 4),
                "llm_calls": self.usage.llm_calls,
                "cache_hits": self.usage.cache_hits,
                "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens,
                "nodes_scored": self.trace.nodes_scored if self.trace else 0,
                "cost_usd": round(self.usage.cost_usd, 6),
                "malformed": self.usage.malformed,
            },
        }
        if self.degraded:
            out["degraded"] = self.degraded
        out.update(self.extra)
        return out


@dataclass
class FolderTrace:
    """A folder question's three phases, for the app and the saved-trace file.

    ``routing``: Phase 0 (folder, confidence in [0, 1], per-folder scores in [0, 1],
    follow-up flag, reason). ``documents``: Phase 1 MCTS over the folder's document
    tree (root → one child per document; node ids are content hashes).
    ``per_document``: Phase 2, document name → its section-tree trace.
    ``chosen``: document names searched in Phase 2, best first; ``skipped``:
    document name → why it gave no result (e.g. the time limit);
    ``doc_scores``: document name → Phase 1 score in [0, 1]; ``seconds``: phase → seconds;
    ``why``: document name → why it was chosen (``facts``: the named facts it has, ``facts_score``,
    ``content`` and ``score``, each in [0, 1], and ``label``: what its facts say it is);
    ``alternatives``: other documents the question may mean about as well as the best one.
    """

    question: str
    routing: dict[str, Any]
    documents: SearchTrace | None
    chosen: list[str] = field(default_factory=list)
    per_document: dict[str, SearchTrace] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    doc_scores: dict[str, float] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    why: dict[str, dict[str, Any]] = field(default_factory=dict)
    alternatives: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "routing": self.routing,
            "documents": self.documents.to_dict() if self.documents else None,
            "chosen": list(self.chosen),
            "per_document": {k: v.to_dict() for k, v in self.per_document.items()},
            "skipped": dict(self.skipped),
            "doc_scores": {k: round(v, 4) for k, v in self.doc_scores.items()},
            "seconds": {k: round(v, 4) for k, v in self.seconds.items()},
            "why": self.why,
            "alternatives": list(self.alternatives),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "FolderTrace":
        return cls(
            question=str(d.get("question", "")),
            routing=dict(d.get("routing", {})),
            documents=SearchTrace.from_dict(d["documents"]) if d.get("documents") else None,
            chosen=list(d.get("chosen", ())),
            per_document={k: SearchTrace.from_dict(v) for k, v in d.get("per_document", {}).items()},
            skipped=dict(d.get("skipped", {})),
            doc_scores={k: float(v) for k, v in d.get("doc_scores", {}).items()},
            seconds={k: float(v) for k, v in d.get("seconds", {}).items()},
            why={k: dict(v) for k, v in d.get("why", {}).items()},
            alternatives=list(d.get("alternatives", ())),
        )
