"""Command line: ``python -m alphasearch index|inspect|query|eval|demo|folder …|ask …``."""
from __future__ import annotations

import argparse
import json
import sys
import time

from ..errors import AlphaSearchError
from ..models import Section
from .settings import settings_from_args as _settings
from .terminal import Printable


def _print_tree(node: Section, depth: int = 0) -> None:
    a, b = node.pages
    pages = f"p. {a}" if a == b else f"pp. {a}–{b}"
    print(f"{'  ' * depth}{node.node_id}  {node.title}  ({pages})")
    for child in node.children:
        _print_tree(child, depth + 1)


def cmd_index(args: argparse.Namespace) -> int:
    from ..pipeline import Engine

    engine = Engine(_settings(args))
    doc = engine.index_file(args.pdf, force=args.force)
    print(f"{doc.name}: {doc.page_count} pages, {doc.section_count()} sections "
          f"(tree from {doc.tree_source}), id {doc.doc_id[:12]}")
    if doc.ocr_pages:
        print(f"read by OCR: {len(doc.ocr_pages)} of {doc.page_count} pages")
    if engine.settings.resolved_engine == "openai":
        from ..engines.llm import last_index_usage

        u = last_index_usage(engine)
        print(f"model calls {u.llm_calls}, cache hits {u.cache_hits}, "
              f"{u.prompt_tokens + u.completion_tokens} tokens, ~${u.cost_usd:.4f}")
    for w in doc.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    from ..pipeline import Engine

    doc = Engine(_settings(args)).index_file(args.pdf)
    print(f"{doc.name}: {doc.page_count} pages, tree from {doc.tree_source}")
    _print_tree(doc.root)
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    from ..folder.search import answer_json
    from ..pipeline import Engine

    engine = Engine(_settings(args))
    doc = engine.index_file(args.pdf)
    for i, question in enumerate(args.question):
        if args.json:
            answer = engine.ask_document(doc, question, iterations=args.iterations, seed=args.seed)
            print(json.dumps(answer_json(answer), ensure_ascii=False), flush=True)
            continue
        if len(args.question) > 1:
            print(f"{'' if i == 0 else chr(10)}Q: {question}", flush=True)
        draft = _Draft()
        answer = engine.ask_document(doc, question, iterations=args.iterations, seed=args.seed, on_text=draft)
        draft.finish(answer.text)
        _print_structured(answer.extra.get("structured") or {}, answer.fallback)
        print(f"\nconfidence {answer.confidence:.2f}; pages read {', '.join(map(str, answer.pages[:5]))}; "
              f"{answer.seconds:.2f}s")
        for c in answer.citations:
            print(f"  [{c.doc} → {c.section}, p. {c.pages[0]}] {c.snippet[:120]}")
        u = answer.usage
        if u.llm_calls or u.cache_hits:
            print(f"model calls {u.llm_calls}, cache hits {u.cache_hits}, "
                  f"{u.prompt_tokens + u.completion_tokens} tokens, ~${u.cost_usd:.4f}")
        if answer.degraded:
            print(f"notice: {answer.degraded}", file=sys.stderr)
    return 0


class _Draft:
    """Prints an answer's draft as the model writes it (the "openai" engine streams it), then
    the checked answer when it says more than citation labels differently (a citation of a
    page the model was not shown removed, a reply that broke off); nothing streamed: the answer."""

    def __init__(self):
        self.text = ""

    def __call__(self, piece: str) -> None:
        from ..llm.streaming import Notice

        if isinstance(piece, Notice):  # a knowledge-gap round: a new draft follows
            print(("\n" if self.text else "") + f"({piece})", flush=True)
            self.text = ""
            return
        self.text += piece
        print(piece, end="", flush=True)

    def finish(self, answer: str) -> None:
        from ..answer.written import without_citations

        if not self.text:
            print(answer)
            return
        print()
        if without_citations(answer) != without_citations(self.text):
            print(f"Checked answer: {answer}")


def _print_structured(structured: dict, fallback: bool) -> None:
    """What the document did not say; on a fallback, where the engine looked (not an answer)."""
    for m in structured.get("not_said") or []:
        print(f"Not in the document: {m['text']}")
    where = structured.get("looked_at") or {}
    if fallback and where.get("pages"):
        print(f"{where.get('note') or 'Not an answer.'} Pages read: {', '.join(map(str, where['pages']))}.")
        for p in where.get("passages") or []:
            print(f"  [p. {p['page']}] {p['text'][:160]}")


def cmd_demo(args: argparse.Namespace) -> int:
    from ..library.sample import write_sample

    path = write_sample(_settings(args).data_dir)
    print(f"Sample PDF: {path}")
    args.pdf, args.json = str(path), False
    args.question = [args.question or "What was the total revenue in 2025?"]
    print(f"Question: {args.question[0]}\n")
    return cmd_query(args)


def cmd_eval(args: argparse.Namespace) -> int:
    from ..evaluation import runner as evaluation
    from ..pipeline import Engine

    try:
        ks = sorted({int(k) for k in str(args.k).split(",") if k.strip()})
        methods = evaluation.check_methods([m.strip() for m in args.methods.split(",") if m.strip()])
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not ks or min(ks) < 1:
        print("error: --k needs positive integers, e.g. 1,3,5.", file=sys.stderr)
        return 2
    engine = Engine(_settings(args))
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    started = time.perf_counter()

    def on_row(row: "evaluation.Row") -> None:
        if out:
            out.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
            out.flush()

    try:
        rows = evaluation.run(args.dir, engine, methods=methods, limit=args.limit, iterations=args.iterations,
                              seed=args.seed, progress=lambda msg: print(msg, file=sys.stderr, flush=True),
                              on_row=on_row, off_topic=args.off_topic,
                              questions_file=args.questions)
    finally:
        if out:
            out.close()
    questions = len({r.id for r in rows})
    print(f"{questions} questions, {len(methods)} method(s), engine {engine.settings.resolved_engine}, "
          f"{time.perf_counter() - started:.0f}s" + (f"; rows in {args.out}" if args.out else ""))
    print(evaluation.format_table(evaluation.summarise(rows, ks), ks))
    if {"mcts_puct", "flat_read"} <= set(methods):  # the default search against flat reading at equal pages read
        gap = evaluation.hit1_gap(rows, "mcts_puct", "flat_read")
        if gap:
            print(evaluation.format_hit1_gap(gap))
    print("\nAnswers (printed: questions whose gold figure is printed on an evidence page; direct/text: the share "
          "whose direct answer/answer text carries it; fb: fallback rate on answerable/off-topic questions):")
    print(evaluation.format_answer_summary(evaluation.answer_summary(rows)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m alphasearch", description="Ask questions of PDFs with MCTS.")
    p.add_argument("--data-dir", help="where indexes and the library live (default ~/.alphasearch)")
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, help: str):
        sp = sub.add_parser(name, help=help)
        sp.add_argument("--data-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        sp.add_argument("--engine", choices=("auto", "offline", "openai"), default=None)
        return sp

    sp = add("index", "index a PDF (cached by content hash)")
    sp.add_argument("pdf")
    sp.add_argument("--force", action="store_true", help="index again even if cached")
    sp.set_defaults(func=cmd_index)

    sp = add("inspect", "print a PDF's section tree")
    sp.add_argument("pdf")
    sp.set_defaults(func=cmd_inspect)

    sp = add("query", "ask a question of one PDF")
    sp.add_argument("pdf")
    sp.add_argument("question", nargs="+",
                    help="one or more questions; several share one start-up (the PDF and models load once)")
    sp.add_argument("--json", action="store_true", help="print one JSON object per question, one per line")
    sp.add_argument("--iterations", type=int, default=None)
    sp.add_argument("--seed", type=int, default=None)
    sp.set_defaults(func=cmd_query)

    sp = add("eval", "page-retrieval hit@k over a labelled set (pdfs/ + questions.jsonl)")
    sp.add_argument("dir", nargs="?", default="../shared/eval", help="the labelled set (default ../shared/eval)")
    sp.add_argument("--methods", default="flat_bm25,mcts_puct",
                    help="comma list of flat_bm25, flat_embed, flat_offline, flat_read, exhaustive, greedy, beam, "
                         "mcts_reference, mcts_ucb1, mcts_puct")
    sp.add_argument("--k", default="1,3,5", help="comma list of k for hit@k (default 1,3,5)")
    sp.add_argument("--iterations", type=int, default=None)
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--limit", type=int, default=None, help="only the first N questions")
    sp.add_argument("--questions", default=None, metavar="FILE",
                    help="ask the questions of FILE (same format as questions.jsonl) instead, of the set's PDFs")
    sp.add_argument("--out", default=None, help="write one JSON row per (question, method) here")
    sp.add_argument("--off-topic", action="store_true",
                    help="also ask every question of a document of another source (its fallback rate is reported)")
    sp.set_defaults(func=cmd_eval)

    sp = add("demo", "generate the sample PDF and ask it a question")
    sp.add_argument("question", nargs="?", default=None)
    sp.add_argument("--iterations", type=int, default=None)
    sp.add_argument("--seed", type=int, default=None)
    sp.set_defaults(func=cmd_demo)

    from .folder import register as register_folder_commands

    register_folder_commands(sub, add)

    from .llm import register as register_llm_commands

    register_llm_commands(sub, add)

    from .serve import register as register_serve_commands

    register_serve_commands(sub, add)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    stdout = sys.stdout
    sys.stdout = Printable(stdout)  # model and PDF text never reach the terminal as control sequences
    try:
        code = args.func(args)
        sys.stdout.flush()  # inside the try: a closed pipe fails here, not at interpreter exit
        return code
    except AlphaSearchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`… | head`): stop quietly, as the Python docs advise
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        return 141  # 128 + SIGPIPE, like other command-line tools
    finally:
        sys.stdout = stdout
