"""What OCR buys: scanned copies of eval documents next to their born-digital originals, and the validation
set's questions about figures, charts, slides and layout with OCR on next to off, in one run.

    python benchmarks/ocr_effect.py                     # both parts; ../shared/eval and ../shared/eval-more
    python benchmarks/ocr_effect.py --part scans        # only the scanned copies
    python benchmarks/ocr_effect.py --part eval-more --eval-more PATH
    python benchmarks/ocr_effect.py --table-from benchmarks/out/ocr_effect.json   # the kept table of a run's figures

Scans: each page of ``SCAN_DOCS`` (10 documents of ../shared/eval, 5 financial) drawn at ``--dpi`` (200; run it again
with 150 and both are kept: the issue asks for 150-200 dpi, an office scanner's default is 200-300) in grey and
rebuilt as an image-only PDF (in benchmarks/out/, never in the repository: the set's licence), then indexed
and asked the set's questions with the default search: page hit@1 / hit@3, and on the questions whose gold
figure is printed on an evidence page of the original, the share whose direct answer carries it ("carries")
or states another figure ("wrong"), for the scan and for the original; OCR seconds per page (indexing time of
the scan less that of the original, per page) and the indexing worker's peak memory.

Eval-more: every document indexed with OCR off and with OCR on (own index folders), indexing seconds per page,
then the default search on every question: hit@1 / hit@3 and the answer figures per group (``eval_more.group_of``:
"other" are the questions about figures, charts, slides and layout), OCR off and on side by side.

Needs Tesseract (``apt-get install tesseract-ocr``); says so and exits 0 without it or without the sets.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DEFAULT_EVAL, OUT, answer_shares, eval_dir_or_none, git_commit, machine, offline_engine, read_jsonl, run_rows,
    shares_line, write_json,
)
from eval_more import DEFAULT_MORE, group_of  # noqa: E402

COMMITTED = Path(__file__).resolve().parent / "results"  # small outputs kept in the repository

SCAN_DOCS = (  # smallest documents with the most questions, five of them financial
    "ULTABEAUTY_2023Q4_EARNINGS.pdf", "AMCOR_2023Q4_EARNINGS.pdf", "BESTBUY_2024Q2_10Q.pdf",
    "afe620b9beac86c1027b96d31d396407.pdf", "f86d073b0d735ac873a65d906ba82758.pdf",
    "2310.07609v1.pdf", "936c0e2c2e6c8e0c07c51bfaf7fd0a83.pdf", "e79deb02a0c0e87511080836c5d4347b.pdf",
    "8dfc21ec151fb9d3578fc32d5c4e5df9.pdf", "c31e6580d0175ab3f9d99d1ff0bfa000.pdf",
)


def scan_copy(data: bytes, dpi: int) -> bytes:
    """Each page drawn at ``dpi`` in grey (JPEG, as a scanner's PDF holds it), rebuilt without a text layer."""
    import pymupdf

    src = pymupdf.open(stream=data, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=pix.tobytes("jpeg", jpg_quality=80))
    made = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return made


def index_all(pdf_dir: Path, names: list[str], data_dir: Path, *, ocr: bool, reuse: bool = False) -> dict[str, dict]:
    """Index each PDF (fresh: ``force``) with OCR on or off: seconds, pages, the worker's peak MB, pages OCR read.
    ``reuse``: the measures of an earlier run (``data_dir/indexing.json``) and its indexes, when there."""
    from alphasearch.errors import AlphaSearchError
    from alphasearch.index import isolation

    saved = data_dir / "indexing.json"
    if reuse and saved.is_file():
        return json.loads(saved.read_text())
    engine = offline_engine(data_dir, ocr=ocr)
    pool = isolation.shared_pool(engine.settings)
    out: dict[str, dict] = {}
    for k, name in enumerate(names, 1):
        started = time.perf_counter()
        try:
            doc = engine.index_file(pdf_dir / name, force=True)
        except AlphaSearchError as exc:
            out[name] = {"error": str(exc)}
            print(f"  [{k}/{len(names)}] {name}: {exc}", file=sys.stderr)
            continue
        measure = pool.last_measure()
        out[name] = {"seconds": round(time.perf_counter() - started, 2), "pages": doc.page_count,
                     "peak_mb": round(measure.peak_mb, 1) if measure else None, "ocr_pages": len(doc.ocr_pages)}
        print(f"  [{k}/{len(names)}] {name}: {out[name]}", file=sys.stderr)
    saved.write_text(json.dumps(out, indent=1))
    return out


def carried(rows: list[dict], questions: dict[str, dict], printed: set[str]) -> dict:
    """Of the questions in ``printed`` (gold figure printed on an evidence page of the original): the share whose
    direct answer carries the gold figure, and the share stating other figures only."""
    from alphasearch.answer.written import without_citations
    from alphasearch.read.figures import carries, gold_figures, states_other

    part = [r for r in rows if r["id"] in printed]
    if not part:
        return {"printed": 0, "carries": None, "wrong": None}
    gold = {r["id"]: gold_figures(questions[r["id"]]["answer"]) for r in part}
    hit = sum(carries(without_citations(r.get("direct_answer", "")), gold[r["id"]]) for r in part)
    wrong = sum(states_other(without_citations(r.get("direct_answer", "")), gold[r["id"]]) for r in part)
    return {"printed": len(part), "carries": round(hit / len(part), 4), "wrong": round(wrong / len(part), 4)}


def scans(eval_dir: Path, dpi: int, work: Path, reuse: bool = False) -> dict:
    questions = [q for q in read_jsonl(eval_dir / "questions.jsonl") if q["doc"] in SCAN_DOCS]
    by_id = {q["id"]: q for q in questions}
    sets = {}
    for kind in ("original", "scan"):
        folder = work / kind
        (folder / "pdfs").mkdir(parents=True, exist_ok=True)
        with open(folder / "questions.jsonl", "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(q) + "\n" for q in questions)
        sets[kind] = folder
    for name in SCAN_DOCS:
        data = (eval_dir / "pdfs" / name).read_bytes()
        (sets["original"] / "pdfs" / name).write_bytes(data)
        target = sets["scan"] / "pdfs" / name
        if not target.is_file():
            target.write_bytes(scan_copy(data, dpi))
    result: dict = {"dpi": dpi, "documents": len(SCAN_DOCS), "questions": len(questions)}
    rows: dict[str, list[dict]] = {}
    for kind, folder in sets.items():
        print(f"{kind}: indexing {len(SCAN_DOCS)} documents", file=sys.stderr)
        result[kind] = {"indexing": index_all(folder / "pdfs", list(SCAN_DOCS), work / f"engine-{kind}", ocr=True,
                                              reuse=reuse)}
        rows[kind] = run_rows(folder, work / f"{kind}.rows.jsonl", data_dir=work / f"engine-{kind}")
    printed = {r["id"] for r in rows["original"] if r.get("gold_printed")}
    for kind in sets:
        shares = answer_shares(rows[kind], by_id)
        result[kind].update(hit1=shares["hit1"], hit3=shares["hit3"], n=shares["n"],
                            **carried(rows[kind], by_id, printed))
    per_page = []
    for name in SCAN_DOCS:
        a, b = result["original"]["indexing"].get(name, {}), result["scan"]["indexing"].get(name, {})
        if "seconds" in a and "seconds" in b:
            per_page.append((b["seconds"] - a["seconds"]) / max(1, b["pages"]))
    result["ocr_seconds_per_page"] = round(statistics.median(per_page), 2) if per_page else None
    result["peak_mb"] = {kind: max((d.get("peak_mb") or 0) for d in result[kind]["indexing"].values())
                         for kind in sets}
    return result


def eval_more(more_dir: Path, work: Path, reuse: bool = False) -> dict:
    questions = {q["id"]: q for q in read_jsonl(more_dir / "questions.jsonl")}
    names = sorted({q["doc"] for q in questions.values()})
    result: dict = {"documents": len(names)}
    for label, on in (("ocr_off", False), ("ocr_on", True)):
        data_dir = work / f"engine-{label}"
        print(f"eval-more, {label}: indexing {len(names)} documents", file=sys.stderr)
        indexing = index_all(more_dir / "pdfs", names, data_dir, ocr=on, reuse=reuse)
        done = [d for d in indexing.values() if "seconds" in d]
        rows = run_rows(more_dir, work / f"{label}.rows.jsonl", data_dir=data_dir, ocr=on)
        groups = {"all": answer_shares(rows, questions)}
        for name in sorted({group_of(q) for q in questions.values()}):
            part = [r for r in rows if group_of(questions[r["id"]]) == name]
            if part:
                groups[name] = answer_shares(part, questions)
        result[label] = {"groups": groups, "pages": sum(d["pages"] for d in done),
                         "seconds_per_page": round(sum(d["seconds"] for d in done)
                                                   / max(1, sum(d["pages"] for d in done)), 3),
                         "ocr_pages": sum(d["ocr_pages"] for d in done),
                         "peak_mb": max((d.get("peak_mb") or 0) for d in done) if done else None}
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--part", choices=("scans", "eval-more", "both"), default="both")
    p.add_argument("--eval-dir", default=str(DEFAULT_EVAL), help="the dev set whose documents are scanned")
    p.add_argument("--eval-more", default=str(DEFAULT_MORE), help="the validation set (eval-more)")
    p.add_argument("--dpi", type=int, default=200, help="dots per inch of the scans (150-200)")
    p.add_argument("--out", default=str(OUT / "ocr_effect.json"))
    p.add_argument("--reuse", action="store_true", help="reuse the indexes and indexing measures of an earlier run")
    p.add_argument("--table-from", default=None, help="only write the kept figures and table from this --out file")
    args = p.parse_args(argv)
    if args.table_from:
        return keep(json.loads(Path(args.table_from).read_text()))
    from alphasearch.pdf import ocr

    if not ocr.available():
        print(ocr.MISSING + " Nothing measured.")
        return 0
    result: dict = {"machine": machine()}
    run = f"{git_commit()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}" + (
        " (rows again on the indexes of an earlier run: --reuse)" if args.reuse else "")
    if args.part in ("scans", "both"):
        eval_dir = eval_dir_or_none(args.eval_dir)
        if eval_dir is None:
            print(f"No eval set at {args.eval_dir}; the scans part is skipped.")
        else:
            result["scans"] = {**scans(eval_dir, args.dpi, OUT / f"ocr_scans-{args.dpi}dpi", args.reuse), "run": run}
            s = result["scans"]
            for kind in ("original", "scan"):
                r = s[kind]
                print(f"{kind:9} hit@1 {r['hit1']}  hit@3 {r['hit3']}  carries {r['carries']}  wrong {r['wrong']}"
                      f"  (n {r['n']}, printed {r['printed']})")
            print(f"OCR {s['ocr_seconds_per_page']} s per page (median over documents); peak MB {s['peak_mb']}")
    if args.part in ("eval-more", "both"):
        more = eval_dir_or_none(args.eval_more)
        if more is None:
            print(f"No validation set at {args.eval_more}; the eval-more part is skipped.")
        else:
            result["eval_more"] = {**eval_more(more, OUT / "ocr_eval_more", args.reuse), "run": run}
            for label in ("ocr_off", "ocr_on"):
                r = result["eval_more"][label]
                print(f"{label}: {r['seconds_per_page']} s per page indexing, {r['ocr_pages']} pages read by OCR")
                for name, g in r["groups"].items():
                    print("  " + shares_line(name, g))
    write_json(args.out, result)
    return keep(result)


def keep(result: dict) -> int:
    """Each part's latest figures into benchmarks/results/ocr_effect.json and the table RESULTS.md shows."""
    committed = COMMITTED / "ocr_effect.json"
    kept = json.loads(committed.read_text()) if committed.is_file() else {}
    by_dpi = kept.get("scans") or {}
    if "dpi" in by_dpi:  # one run's figures, as kept before scans of several resolutions were
        by_dpi = {str(by_dpi["dpi"]): by_dpi}
    runs = result.get("scans") or {}
    for run in [runs] if "dpi" in runs else runs.values():  # one run's figures, or a kept file's (--table-from)
        by_dpi[str(run["dpi"])] = run
    kept.update({k: v for k, v in result.items() if k == "eval_more"}, machine=result["machine"])
    if by_dpi:
        kept["scans"] = dict(sorted(by_dpi.items(), key=lambda kv: int(kv[0])))
    write_json(committed, kept)
    (COMMITTED / "ocr_effect.md").write_text(markdown(kept), encoding="utf-8")
    return 0


def markdown(kept: dict) -> str:
    """The section of RESULTS.md: scans next to their originals, eval-more with OCR off and on."""
    out = ["# Scanned pages and OCR (`benchmarks/ocr_effect.py`)", ""]
    for s in (kept.get("scans") or {}).values():
        out += [f"{s['documents']} documents of ../shared/eval (5 financial), each page drawn at {s['dpi']} dpi "
                "in grey "
                f"and rebuilt as an image-only PDF; {s['questions']} questions, the default search. \"carries\" and "
                f"\"wrong\": of the {s['original']['printed']} questions whose gold figure is printed on an evidence "
                "page of the original, the direct answer carries it / states another figure.", "",
                "| | hit@1 | hit@3 | carries | wrong | peak MB (worker) |", "|---|---|---|---|---|---|"]
        for kind in ("original", "scan"):
            r = s[kind]
            out.append(f"| {kind} | {r['hit1']} | {r['hit3']} | {r['carries']} | {r['wrong']} | {s['peak_mb'][kind]} |")
        o, c = s["original"], s["scan"]
        out += ["", f"Scan less original: hit@3 {c['hit3'] - o['hit3']:+.4f} (goal: within 0.05), carries "
                f"{c['carries'] - o['carries']:+.4f} (goal: within 0.10). OCR: {s['ocr_seconds_per_page']} s per page "
                "(median over the documents of the scan's indexing time less the original's, per page; on a 2-core "
                "machine shared with other runs)." + (f" Run at {s['run']}." if s.get("run") else ""), ""]
    m = kept.get("eval_more")
    if m:
        out += [f"../shared/eval-more ({m['documents']} documents), every document indexed with OCR off and on; the "
                "default search on every question. \"other\": questions about figures, charts, slides and layout.", "",
                "| group | OCR | n | hit@1 | hit@3 | carries | wrong | fallback | fallback on the not answerable |",
                "|---|---|---|---|---|---|---|---|---|"]
        for group in m["ocr_off"]["groups"]:
            for label in ("ocr_off", "ocr_on"):
                g = m[label]["groups"][group]
                na = g.get("fallback_not_answerable")
                out.append(f"| {group} | {label[4:]} | {g['n']} | {g['hit1']} | {g['hit3']} | {g['carries']} | "
                           f"{g['wrong']} | {g['fallback']} | {'–' if na is None else na} "
                           f"({g.get('not_answerable', 0)}) |")
        out += ["", "Indexing: " + "; ".join(f"OCR {label[4:]} {m[label]['seconds_per_page']} s per page, "
                                            f"{m[label]['ocr_pages']} pages read by OCR"
                                            for label in ("ocr_off", "ocr_on"))
                + (f". Run at {m['run']}." if m.get("run") else ""), ""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
