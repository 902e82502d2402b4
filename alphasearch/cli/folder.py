"""CLI commands of folder mode: ``folder create|rename|delete|list|info|add|remove|health|repair`` and ``ask``.

Registered by :mod:`alphasearch.cli.main`; output goes to stdout, one-line errors
(raised as AlphaSearchError) are printed by ``main``.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from .settings import settings_from_args
from ..errors import InvalidFactError, NotFoundError


def _engine(args: argparse.Namespace):
    from ..pipeline import Engine

    return Engine(settings_from_args(args))


def _out(args: argparse.Namespace, obj, text: str) -> None:
    print(json.dumps(obj, ensure_ascii=False) if getattr(args, "json", False) else text)


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def cmd_folder_create(args) -> int:
    f = _engine(args).library.create_folder(args.name)
    _out(args, f.to_dict(), f"created folder {f.name}")
    return 0


def cmd_folder_rename(args) -> int:
    f = _engine(args).library.rename_folder(args.name, args.new_name)
    _out(args, f.to_dict(), f"renamed to {f.name}")
    return 0


def cmd_folder_delete(args) -> int:
    f = _engine(args).library.delete_folder(args.name)
    _out(args, f.to_dict(), f"deleted folder {f.name} and its {f.documents} document(s)")
    return 0


def cmd_folder_list(args) -> int:
    folders = _engine(args).library.folders()
    lines = [f"{f.name}\t{f.documents} document(s)\t{f.pages} pages\t{_mb(f.size_bytes)}" for f in folders]
    _out(args, [f.to_dict() for f in folders], "\n".join(lines) if lines else "no folders yet")
    return 0


def cmd_folder_info(args) -> int:
    lib = _engine(args).library
    f = lib.folder(args.name)
    docs = lib.documents(f.folder_id)
    lines = [f"{f.name}: {f.documents} document(s), {f.pages} pages, {_mb(f.size_bytes)}"]
    lines += [f"  {d.name}\t{d.pages} pages\t{_mb(d.size_bytes)}\t{d.sha256[:12]}" for d in docs]
    _out(args, {**f.to_dict(), "documents": [d.to_dict() for d in docs]}, "\n".join(lines))
    return 0


def cmd_folder_facts(args) -> int:
    """Show a folder's document facts, or correct one document's (``--year 2018 --kind 10-K``)."""
    lib = _engine(args).library
    changes = {f: getattr(args, f) for f in ("org", "year", "quarter", "kind", "title")
               if getattr(args, f) is not None}
    if changes and not args.doc:
        raise InvalidFactError("Name the document whose facts to change: folder facts FOLDER DOC --year 2018.")
    if changes:
        lib.set_facts(args.name, args.doc, **changes)
    facts = lib.facts(args.name)
    docs = [lib.document(args.name, args.doc)] if args.doc else lib.documents(args.name)
    rows = [{"doc": d.name, **facts[d.record_id].to_dict()} for d in docs if d.record_id in facts]
    lines = [f"{r['doc']}\t{r['org'] or '-'}\t{r['kind'] or '-'}\t{r['year'] or '-'}"
             f"{' Q' + str(r['quarter']) if r['quarter'] else ''}\t{r['title'] or '-'}"
             + (f"\t(edited: {', '.join(r['edited'])})" if r["edited"] else "") for r in rows]
    _out(args, rows, "\n".join(lines) if lines else "no documents")
    return 0


def _pdf_paths(items: list[str]) -> list[Path]:
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            from ..pdf.convert import ACCEPTED

            paths.extend(sorted(x for x in p.iterdir() if x.is_file() and x.suffix.lower() in ACCEPTED))
        else:
            paths.append(p)
    return paths


def cmd_folder_add(args) -> int:
    lib = _engine(args).library
    if args.create:
        try:
            lib.folder(args.name)
        except NotFoundError:
            lib.create_folder(args.name)
    paths = _pdf_paths(args.pdfs)

    from .progress import CliProgress

    progress = CliProgress(enabled=not args.json)  # a bar on a terminal, plain lines in a pipe or log
    try:
        results = lib.add_paths(args.name, paths, progress=progress, workers=args.workers, cluster=args.cluster)
    finally:
        progress.close()
    lines = [f"{r.status:9} {r.name}" + (f" — {r.reason}" if r.reason else "") + f" ({r.seconds:.1f}s)"
             for r in results]
    _out(args, [r.to_dict() for r in results], "\n".join(lines) if lines else "no files given")
    from ..pdf import ocr

    if any(ocr.MISSING in r.warnings for r in results):
        print(f"note: {ocr.MISSING}", file=sys.stderr)  # once for the batch, not once a file
    return 0 if all(r.status != "rejected" for r in results) else 1


def cmd_folder_remove(args) -> int:
    lib = _engine(args).library
    removed = [lib.remove(args.name, doc) for doc in args.docs]
    _out(args, [r.to_dict() for r in removed], "\n".join(f"removed {r.name}" for r in removed))
    return 0


def cmd_folder_health(args) -> int:
    lib = _engine(args).library
    report = lib.health(deep=args.deep)
    if args.name:
        name = lib.folder(args.name).name
        report.issues = [i for i in report.issues if i.folder in ("", name)]
    _out(args, report.to_dict(), report.text())
    return 0 if report.ok else 1


def cmd_folder_repair(args) -> int:
    report = _engine(args).library.repair()
    _out(args, {"actions": report.actions, "after": report.after.to_dict()}, report.text())
    return 0 if report.after.ok else 1


def cmd_ask(args) -> int:
    from ..folder.search import answer_json

    engine = _engine(args)
    answer = engine.ask_folder(args.question, folder=args.folder, conversation=args.conversation,
                               top_k=args.top_k, iterations=args.iterations, seed=args.seed, documents=args.document)
    if args.json:
        print(json.dumps(answer_json(answer), ensure_ascii=False))
        return 0
    x = answer.extra
    print(f"folder {x['folder']} (confidence {x['folder_confidence']:.2f}); documents: {', '.join(x['documents'])}\n")
    print(answer.text)
    pages = ", ".join(f"{d} p. {p}" for d, p in answer.doc_pages[:5])
    print(f"\nconfidence {answer.confidence:.2f}; pages read {pages}; {answer.seconds:.2f}s")
    for c in answer.citations:
        print(f"  [{c.doc} → {c.section}, p. {c.pages[0]}] {c.snippet[:120]}")
    if answer.degraded:
        print(f"note: {answer.degraded}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction, add: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``folder …`` and ``ask`` to the CLI's subcommands (``add`` adds the common options)."""
    fp = add("folder", "manage the folder library")
    fsub = fp.add_subparsers(dest="folder_command", required=True)

    def fadd(name: str, help: str, *, json_flag: bool = True) -> argparse.ArgumentParser:
        sp = fsub.add_parser(name, help=help)
        sp.add_argument("--data-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        sp.add_argument("--engine", choices=("auto", "offline", "openai"), default=argparse.SUPPRESS)
        if json_flag:
            sp.add_argument("--json", action="store_true", help="print JSON")
        return sp

    sp = fadd("create", "create a folder")
    sp.add_argument("name")
    sp.set_defaults(func=cmd_folder_create)
    sp = fadd("rename", "rename a folder")
    sp.add_argument("name")
    sp.add_argument("new_name")
    sp.set_defaults(func=cmd_folder_rename)
    sp = fadd("delete", "delete a folder and everything in it")
    sp.add_argument("name")
    sp.set_defaults(func=cmd_folder_delete)
    sp = fadd("list", "list folders")
    sp.set_defaults(func=cmd_folder_list)
    sp = fadd("info", "show a folder's documents")
    sp.add_argument("name")
    sp.set_defaults(func=cmd_folder_info)
    sp = fadd("facts", "show a folder's document facts (organisation, period, kind, title), or correct one's")
    sp.add_argument("name")
    sp.add_argument("doc", nargs="?", default=None)
    sp.add_argument("--org", default=None, help="the organisation the document is about ('' clears it)")
    sp.add_argument("--year", default=None, help="the fiscal year it covers, e.g. 2018 ('' clears it)")
    sp.add_argument("--quarter", default=None, help="1-4 ('' clears it)")
    sp.add_argument("--kind", default=None, help="10-K, 10-Q, 8-K, earnings release, paper, manual, …")
    sp.add_argument("--title", default=None)
    sp.set_defaults(func=cmd_folder_facts)
    sp = fadd("add", "add PDFs (files or directories of PDFs); unchanged files are skipped")
    sp.add_argument("name")
    sp.add_argument("pdfs", nargs="+")
    sp.add_argument("--create", action="store_true", help="create the folder if it does not exist")
    sp.add_argument("--workers", type=int, default=None,
                    help="index new PDFs in this many worker processes (default: one per CPU core; with "
                         "--cluster local: its CPUs, default all)")
    sp.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="index on a Ray cluster: 'local' starts one on this machine, or the address of a "
                         "running one (HOST:6379, ray://HOST:10001, auto); needs requirements-ray.txt")
    sp.set_defaults(func=cmd_folder_add)
    sp = fadd("remove", "remove documents from a folder")
    sp.add_argument("name")
    sp.add_argument("docs", nargs="+")
    sp.set_defaults(func=cmd_folder_remove)
    sp = fadd("health", "check the library for missing, stale or orphan files")
    sp.add_argument("name", nargs="?", default=None)
    sp.add_argument("--deep", action="store_true", help="also re-hash every PDF")
    sp.set_defaults(func=cmd_folder_health)
    sp = fadd("repair", "re-index what can be re-indexed, remove what is orphaned")
    sp.add_argument("name", nargs="?", default=None, help="(the repair covers the whole library)")
    sp.set_defaults(func=cmd_folder_repair)

    sp = add("ask", "ask a question of the library (routed to a folder unless --folder is given)")
    sp.add_argument("question")
    sp.add_argument("--folder", default=None)
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--conversation", default=None, help="keep a chat under this id (follow-ups stay in its folder)")
    sp.add_argument("--top-k", type=int, default=None, help="documents searched in Phase 2")
    sp.add_argument("--document", action="append", default=None,
                    help="search only this document of the folder (repeatable), e.g. one the answer named")
    sp.add_argument("--iterations", type=int, default=None)
    sp.add_argument("--seed", type=int, default=None)
    sp.set_defaults(func=cmd_ask)
