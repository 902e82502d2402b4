"""Folder questions over companies' annual reports that name a period, the latest filing or a trend (issue 33),
measured on the statement battery: every filing of it in one folder (several companies, two annual reports each),
gold read off the statements by hand (``gold.jsonl``, see ``statement_battery.py``).

    python benchmarks/filing_periods.py --gold DIR            # DIR/gold.jsonl, PDFs in DIR/../filings
    python benchmarks/filing_periods.py --questions FILE --pdfs DIR   # a hand-written dev set (below)

For each company with two annual reports of different years and each item of :data:`ITEMS`:
- *period*: the battery's own question for each report's year ("What was Nike's total revenue in fiscal 2023?");
  right when the first document the answer cites is that year's report; the direct answer carries the gold figure,
  or states another (wrong);
- *latest*: "… according to its latest annual report?", right when the newer report is cited first and the figure
  is its year's;
- *trend*: "How has X's <item> changed over time?": the share of the two periods whose row in the answer's series
  holds the gold figure, and the periods of the folder missing from the series without a row saying so.
The filings are read in place (licensed, never copied here); when the gold or the PDFs are absent the script says
so and exits 0. Not a hand-written dev set of analysts' questions (the issue asks for one): the battery's gold,
asked three ways.

``--questions FILE``: the hand-written dev set instead, one JSON object a line, each naming its ``folder`` (a
folder of ``--pdfs DIR``, default FILE's folder's ``pdfs/``: DIR/<folder>/*.pdf become one library folder each):
``period`` / ``latest`` questions with ``doc`` (the filing to cite first; ``also_right``: others printing the
same statement, e.g. a quarter's 10-Q and its earnings release), ``gold`` (as printed, in the statement's unit),
``page``, ``item``; ``trend`` questions with ``periods`` ({"2019": value, "Q1 FY2023": value}) and ``docs`` (the
filing of each period, whose company the table's rows must be). Scored as above, per kind.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, git_commit, machine_line, offline_engine, write_json  # noqa: E402
from statement_battery import ASKED, battery_paths, load_gold  # noqa: E402

ITEMS = {"revenue": "total revenue", "net_income": "net income", "total_assets": "total assets",
         "operating_cash_flow": "cash from operations"}


def questions_of(gold: list[dict], names: dict[str, str]) -> list[dict]:
    """The period, latest and trend questions of the companies with two reports of different years."""
    by = defaultdict(dict)  # (company, item) -> year -> gold row
    for g in gold:
        doc = g["doc"] if g["doc"].endswith(".pdf") else g["doc"] + ".pdf"
        if g["item"] in ITEMS and doc in names:
            by[(names[doc], g["item"])][str(g["year"])] = {**g, "doc": doc}
    out = []
    for (co, item), years in sorted(by.items()):
        if len(years) < 2 or len({g["doc"] for g in years.values()}) < 2:
            continue
        ordered = [years[y] for y in sorted(years)]
        for g in ordered:
            out.append({"kind": "period", "question": ASKED[item].format(co=co, year=g["year"]), "doc": g["doc"],
                        "gold": float(g["value"]), "item": item})
        newest = ordered[-1]
        out.append({"kind": "latest", "question": f"What was {co}'s {ITEMS[item]} according to its latest annual "
                    "report?", "doc": newest["doc"], "gold": float(newest["value"]), "item": item})
        out.append({"kind": "trend", "question": f"How has {co}'s {ITEMS[item]} changed over time?", "item": item,
                    "periods": {g["year"]: float(g["value"]) for g in ordered}})
    return out


def first_doc_right(q: dict, a) -> bool:
    """The first document the answer cites is the question's filing (or one of ``also_right``)."""
    return bool(a.doc_pages) and a.doc_pages[0][0] in {q["doc"], *q.get("also_right", ())}


def own_rows(q: dict, rows: list[dict]) -> list[dict]:
    """A trend question's rows of its own company: when the gold names each period's filing (``docs``), the rows
    whose filing has the same name prefix ("AMD_2020_10K.pdf": AMD) and the rows without a filing (gaps) of
    their companies; else every row."""
    prefixes = {d.split("_")[0] for d in (q.get("docs") or {}).values()}
    if not prefixes:
        return rows
    orgs = {r.get("company") for r in rows if str(r.get("doc") or "").split("_")[0] in prefixes}
    return [r for r in rows if str(r.get("doc") or "").split("_")[0] in prefixes
            or (not r.get("doc") and r.get("company") in orgs)]


def period_rows(key: str, rows: list[dict]) -> list[dict]:
    """The rows of one gold period: a quarter ("Q1 FY2023") is the row labelled so; a year ("2019") the rows
    whose label or period end holds it."""
    if key.upper().startswith("Q"):
        norm = key.upper().replace(" ", "")
        return [r for r in rows if str(r.get("period", "")).upper().replace(" ", "") == norm]
    return [r for r in rows if key in str(r.get("period", "")) or key in str(r.get("end", ""))[:4]]


def score(questions: list[dict], answers: list) -> dict:
    from alphasearch.answer.written import without_citations
    from alphasearch.read.figures import carries, gold_figures, same_figure

    out: dict[str, dict] = {}
    for kind in ("period", "latest"):
        qa = [(q, a) for q, a in zip(questions, answers) if q["kind"] == kind]
        if not qa:
            continue
        first = [first_doc_right(q, a) for q, a in qa]
        direct = [without_citations(str(a.extra.get("direct_answer", ""))) for _, a in qa]
        gold = [[abs(q["gold"])] for q, _ in qa]
        out[kind] = {"n": len(qa), "first_doc_right": round(sum(first) / len(qa), 4),
                     "carries": round(sum(carries(d, g) for d, g in zip(direct, gold)) / len(qa), 4),
                     "wrong": round(sum(bool(gold_figures(d)) and not carries(d, g)
                                        for d, g in zip(direct, gold)) / len(qa), 4)}
    trend = [(q, a) for q, a in zip(questions, answers) if q["kind"] == "trend"]
    if trend:
        periods = right = silent = as_table = 0
        for q, a in trend:
            rows = own_rows(q, (a.extra.get("series") or {}).get("rows") or [])
            as_table += bool(rows)
            for key, value in q["periods"].items():
                periods += 1
                mine = period_rows(key, rows)
                if not mine:
                    silent += 1
                elif any(r.get("value") is not None and same_figure(abs(value), abs(float(r["value"])))
                         for r in mine):
                    right += 1
        out["trend"] = {"n": len(trend), "answered_as_series": round(as_table / len(trend), 4),
                        "periods": periods, "periods_right": round(right / periods, 4),
                        "periods_missing_without_row": silent}
    return out


def load_questions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def verdicts(q: dict, a) -> dict:
    """One question's result row (what was cited, said, tabled and whether each is right), to read by hand."""
    from alphasearch.answer.written import without_citations
    from alphasearch.read.figures import carries, gold_figures

    direct = str(a.extra.get("direct_answer", ""))
    series = own_rows(q, (a.extra.get("series") or {}).get("rows") or []) if q["kind"] == "trend" else None
    row = {"id": q.get("id", ""), "folder": q.get("folder", ""), "question": q["question"], "kind": q["kind"],
           "first_doc": a.doc_pages[0][0] if a.doc_pages else "", "direct": direct,
           "series": (a.extra.get("series") or {}).get("rows")}
    if q["kind"] == "trend":
        row["periods"] = {k: [r.get("value") for r in period_rows(k, series)] for k in q["periods"]}
        row["gold"] = q["periods"]
    else:
        text = without_citations(direct)
        row.update(gold=q["gold"], doc=q["doc"], first_doc_right=first_doc_right(q, a),
                   carries=carries(text, [abs(q["gold"])]),
                   wrong=bool(gold_figures(text)) and not carries(text, [abs(q["gold"])]))
    return row


def ask_all(engine, folders: dict[str, list[Path]], questions: list[dict]) -> tuple[list, list[float]]:
    """Every folder added to the engine's library, every question asked in its folder (offline, no trace)."""
    lib = engine.library
    have = {f.name.lower() for f in lib.folders()}
    for name, files in folders.items():
        if name.lower() not in have:  # a kept --data-dir: the folder's unchanged files are skipped at once
            lib.create_folder(name)
        lib.add_many(name, [(f.name, f) for f in files], workers=1)
    answers, seconds = [], []
    for q in questions:
        t = time.perf_counter()
        answers.append(engine.ask_folder(q["question"], folder=q["folder"], save_trace=False))
        seconds.append(time.perf_counter() - t)
    return answers, seconds


def show(result: dict) -> None:
    print(f"{result['filings']} filings in {result.get('folders', 1)} folder(s), {result['questions']} questions, "
          f"median {result['median_s']} s")
    for kind in ("period", "latest"):
        if kind in result:
            s = result[kind]
            print(f"{kind:<7} n {s['n']:>3}  first document right {s['first_doc_right']:.3f}  carries {s['carries']:.3f}"
                  f"  wrong {s['wrong']:.3f}")
    if "trend" in result:
        s = result["trend"]
        print(f"trend   n {s['n']:>3}  as a series {s['answered_as_series']:.3f}  periods right {s['periods_right']:.3f}"
              f" of {s['periods']}  missing without a row {s['periods_missing_without_row']}")


def markdown(result: dict, composition: str) -> str:
    """The figures as the section RESULTS.md shows (``--md``), beside the issue's targets."""
    head = ("# Filings in one folder: the period asked, the latest filing, trends (`benchmarks/filing_periods.py "
            "--questions`)")
    lines = [head, "", composition, "",
             "| kind | n | first cited filing right | direct answer carries the gold | wrong figure stated |",
             "|---|---|---|---|---|"]
    for kind, target in (("period", "≥ 0.95"), ("latest", "≥ 0.95")):
        if kind in result:
            s = result[kind]
            lines.append(f"| {kind} | {s['n']} | {s['first_doc_right']:.3f} (target {target}) | {s['carries']:.3f} "
                         f"(target ≥ 0.85) | {s['wrong']:.3f} (target ≤ 0.05) |")
    if "trend" in result:
        s = result["trend"]
        lines += ["", "| trend questions | answered as a table | periods | periods whose figure is right | "
                  "periods missing without a row |", "|---|---|---|---|---|",
                  f"| {s['n']} | {s['answered_as_series']:.3f} | {s['periods']} | {s['periods_right']:.3f} "
                  f"(target ≥ 0.90) | {s['periods_missing_without_row']} (target 0) |"]
    lines += ["", f"Median time per question {result['median_s']} s (offline engine). Run at "
              f"{result.get('commit', '?')}, {result.get('date', '?')}; {machine_line()}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gold", default=None, help="folder of gold.jsonl (the statement battery)")
    p.add_argument("--questions", default=None, help="a hand-written dev set (JSONL, see the module's doc)")
    p.add_argument("--pdfs", default=None, help="folder of the filings' PDFs (default GOLD/../filings; with "
                                                "--questions, FILE's folder's pdfs/, one subfolder per folder)")
    p.add_argument("--data-dir", default=None, help="where the engine keeps its indexes (default a temporary one)")
    p.add_argument("--md", default=None, help="also write the figures as a markdown section here (with --questions; "
                                              "benchmarks/results/filing_periods_devset.md is the one RESULTS.md shows)")
    p.add_argument("--out", default=None, help="figures as JSON (default benchmarks/out/filing_periods.json, "
                                               "or filing_periods_devset.json with --questions)")
    args = p.parse_args(argv)
    if bool(args.gold) == bool(args.questions):
        p.error("give --gold or --questions")
    if args.questions:
        qfile = Path(args.questions)
        pdfs = Path(args.pdfs) if args.pdfs else qfile.parent / "pdfs"
        if not qfile.is_file() or not pdfs.is_dir():
            print(f"No dev set at {qfile} with PDFs in {pdfs}; nothing to measure.")
            return 0
        questions = load_questions(qfile)
        folders = {name: sorted((pdfs / name).glob("*.pdf")) for name in sorted({q["folder"] for q in questions})}
        if not all(folders.values()):
            print(f"No PDFs for folder(s) {[n for n, f in folders.items() if not f]} under {pdfs}; nothing to measure.")
            return 0
        with tempfile.TemporaryDirectory() as tmp:
            answers, seconds = ask_all(offline_engine(args.data_dir or tmp), folders, questions)
        files = [f for fs in folders.values() for f in fs]
        rows = [verdicts(q, a) for q, a in zip(questions, answers)]
        out = args.out or str(OUT / "filing_periods_devset.json")
    else:
        found = battery_paths(args.gold, args.pdfs)
        if found is None:
            return 0
        gold_dir, pdfs = found
        with tempfile.TemporaryDirectory() as tmp:
            engine = offline_engine(args.data_dir or tmp)
            files = sorted(pdfs.glob("*.pdf"))
            lib = engine.library
            lib.create_folder("Filings")
            lib.add_many("Filings", [(f.name, f) for f in files], workers=1)
            facts = lib.facts("Filings")
            names = {d.name: (facts.get(d.record_id).org if facts.get(d.record_id) else "")
                     or d.name.split("_")[0].title() for d in lib.documents("Filings")}
            questions = [{**q, "folder": "Filings"} for q in questions_of(load_gold(gold_dir), names)]
            answers, seconds = ask_all(engine, {}, questions)
        folders = {"Filings": files}
        rows = [verdicts(q, a) for q, a in zip(questions, answers)]
        out = args.out or str(OUT / "filing_periods.json")
    result = {"filings": len(files), "folders": len(folders), "questions": len(questions), **score(questions, answers),
              "commit": git_commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "median_s": round(sorted(seconds)[len(seconds) // 2], 3) if seconds else None, "rows": rows}
    show(result)
    write_json(out, result)
    if args.md and args.questions:
        kinds = defaultdict(int)
        for q in questions:
            kinds[q["kind"]] += 1
        composition = (f"A dev set written by hand ({len(questions)} questions: "
                       + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + f") over {len(files)} filings in "
                       f"{len(folders)} folders ("
                       + "; ".join(f"{name}: {len(fs)}" for name, fs in folders.items()) + "), gold read off "
                       "the statements; the filings and questions stay outside the repository (licensed).")
        Path(args.md).write_text(markdown(result, composition), encoding="utf-8")
        print(f"markdown: {args.md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
