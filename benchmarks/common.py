"""Shared helpers for the benchmark scripts: the eval set's location, the machine,
and section trees of the eval PDFs cached on disk.

The eval set (``../shared/eval`` from the repository root, CC BY-NC 4.0) is read
in place and never copied. Trees are cached under ``benchmarks/out/data`` in a
folder named after a hash of the indexing code, so a change to the indexer
rebuilds them instead of reusing stale ones.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from alphasearch.index import indexer
from alphasearch import pdf  # noqa: E402
from alphasearch.models import DocumentIndex  # noqa: E402
from alphasearch.library import IndexCache  # noqa: E402

logging.getLogger().setLevel(logging.WARNING)  # some dependencies log every step at INFO/DEBUG
for _name in ("choreographer", "kaleido", "bm25s", "logistro"):
    logging.getLogger(_name).setLevel(logging.WARNING)

DEFAULT_EVAL = REPO.parent / "shared" / "eval"
OUT = REPO / "benchmarks" / "out"
ABSENT = ("The eval set is not at {path} (expected questions.jsonl and pdfs/ there); "
          "nothing to measure. Pass --eval-dir to point at it.")


def write_json(path: str | Path, result: dict) -> None:
    """Write a benchmark's figures as JSON (its directory made first) and say where."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(result, indent=1))
    print(f"\nfigures: {path}")


def report(result: dict, show, path: str | Path | None) -> int:
    """A benchmark's end: ``show(result)`` prints its table, the figures go to ``path`` as JSON when given; exit 0."""
    show(result)
    if path:
        write_json(path, result)
    return 0


def eval_dir_or_none(path: str | Path | None) -> Path | None:
    """The eval folder when it holds questions.jsonl and pdfs/, else None."""
    p = Path(path) if path else DEFAULT_EVAL
    return p if (p / "questions.jsonl").is_file() and (p / "pdfs").is_dir() else None


def say_absent(path: str | Path | None) -> int:
    print(ABSENT.format(path=Path(path) if path else DEFAULT_EVAL))
    return 0


@dataclass(frozen=True)
class Question:
    id: str
    doc: str
    question: str
    evidence_pages: tuple[int, ...]  # 1-based
    source: str


def load_questions(eval_dir: Path) -> list[Question]:
    out = []
    with open(eval_dir / "questions.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                out.append(Question(r["id"], r["doc"], r["question"], tuple(int(p) for p in r["evidence_pages"]),
                                    r.get("source", "")))
    return out


def machine() -> dict[str, str | int]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        mem_gb = 0
    return {"cpu": model, "cores": os.cpu_count() or 0, "memory_gb": mem_gb,
            "python": platform.python_version(), "platform": platform.platform(terse=True)}


def machine_line() -> str:
    m = machine()
    return f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB, Python {m['python']}, {m['platform']}"


def git_commit() -> str:
    """The repository's commit (short), noting uncommitted engine changes; "unknown" outside a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "alphasearch"], cwd=REPO, capture_output=True,
                               text=True, check=True).stdout.strip()
        return out + (" (with uncommitted engine changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def code_hash() -> str:
    """Hash of the code that shapes a section tree (a change rebuilds the cached trees)."""
    h = hashlib.sha256()
    src = REPO / "alphasearch"
    for path in [src / "lang" / "text.py", src / "models.py"] + sorted((src / "pdf").glob("*.py")) + sorted(
            (src / "index").glob("*.py")) + sorted((src / "data").glob("*.json")):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


class Trees:
    """Section trees of the eval PDFs, built once with the offline indexer and cached."""

    def __init__(self, eval_dir: Path, cache_dir: Path | None = None):
        self.eval_dir = eval_dir
        self.cache = IndexCache(cache_dir or OUT / "data" / code_hash())
        self._mem: dict[str, DocumentIndex] = {}
        self.built_seconds = 0.0

    def get(self, doc_name: str) -> DocumentIndex:
        hit = self._mem.get(doc_name)
        if hit is not None:
            return hit
        import time

        data = (self.eval_dir / "pdfs" / doc_name).read_bytes()
        doc_id = pdf.content_hash(data)
        index = self.cache.get(doc_id)
        if index is None:
            t = time.perf_counter()
            index = indexer.build_index(data, doc_name)
            self.built_seconds += time.perf_counter() - t
            self.cache.put(index)
        self._mem[doc_name] = index
        return index


# --- answers on a labelled set of pdfs/ + questions.jsonl: the figures the out-of-sample benchmarks share ---
def offline_engine(data_dir: str | Path | None = None, *, ocr: bool = True):
    """The offline engine, its indexes kept in ``data_dir`` (default ``benchmarks/out/engine``: indexes
    built once are reused by the next run); ``ocr``: scanned pages and pictures of text read by OCR."""
    from alphasearch.config import Settings
    from alphasearch.pipeline import Engine

    return Engine(Settings(data_dir=Path(data_dir) if data_dir else OUT / "engine", engine="offline", ocr=ocr))


def run_rows(eval_dir: Path, out: Path, *, questions: Path | None = None, limit: int | None = None,
             data_dir: str | Path | None = None, ocr: bool = True) -> list[dict]:
    """The default search (``mcts_puct``) on every question of a labelled set (``questions``: another file
    of questions on its PDFs), one row per question (:class:`alphasearch.evaluation.runner.Row` as a dict),
    written to ``out`` as they come."""
    from alphasearch.evaluation import runner

    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        def keep(row) -> None:
            fh.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
            fh.flush()

        rows = runner.run(eval_dir, offline_engine(data_dir, ocr=ocr), methods=["mcts_puct"], limit=limit,
                          questions_file=questions, on_row=keep, progress=lambda m: print(m, file=sys.stderr))
    return [r.to_dict() for r in rows]


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def not_answerable(q: dict) -> bool:
    """A labelled question the document does not answer (no evidence page; "Not answerable")."""
    return not q.get("evidence_pages") or str(q.get("answer", "")).strip().lower() == "not answerable"


def answer_shares(rows: list[dict], questions: dict[str, dict]) -> dict:
    """The answer figures of a group of result rows (``questions``: the labelled rows by id, for the gold):
    n, hit@1/3 (answerable questions), ``printed`` (gold figure printed on an evidence page), ``carries`` /
    ``answer_carries`` (the direct answer / the answer text carries it), ``wrong`` (the direct answer states
    figures, none the gold one), ``no_figure`` (the rest) and ``fallback`` on the answerable and on the
    not-answerable questions."""
    from alphasearch.answer.written import without_citations
    from alphasearch.evaluation.runner import hit_at_k
    from alphasearch.read.figures import gold_figures, states_other

    real = [r for r in rows if not r.get("off_topic") and not not_answerable(questions[r["id"]])]
    none = [r for r in rows if not r.get("off_topic") and not_answerable(questions[r["id"]])]
    printed = [r for r in real if r.get("gold_printed")]
    wrong = [r for r in printed if states_other(without_citations(r.get("direct_answer", "")),
                                                gold_figures(questions[r["id"]]["answer"]))]

    def share(part: list, of: list) -> float | None:
        return round(len(part) / len(of), 4) if of else None

    return {"n": len(real), "hit1": share([r for r in real if hit_at_k(r["pages"], r["evidence_pages"], 1)], real),
            "hit3": share([r for r in real if hit_at_k(r["pages"], r["evidence_pages"], 3)], real),
            "printed": len(printed), "carries": share([r for r in printed if r.get("direct_carries")], printed),
            "answer_carries": share([r for r in printed if r.get("answer_carries")], printed),
            "wrong": share(wrong, printed),
            "fallback": share([r for r in real if r.get("fallback")], real),
            "not_answerable": len(none), "fallback_not_answerable": share([r for r in none if r.get("fallback")], none)}


def shares_line(name: str, s: dict) -> str:
    """One printed line of :func:`answer_shares`."""
    def f(x) -> str:
        return "–" if x is None else f"{x:.3f}"

    return (f"{name:<28} n {s['n']:>4}  hit@1 {f(s['hit1'])}  hit@3 {f(s['hit3'])}  printed {s['printed']:>4}  "
            f"carries {f(s['carries'])}  wrong {f(s['wrong'])}  text {f(s['answer_carries'])}  "
            f"fallback {f(s['fallback'])}  not answerable {s['not_answerable']:>3} fallback {f(s['fallback_not_answerable'])}")
