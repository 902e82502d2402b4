"""Do the offline trees match the documents? Section starts and levels against PDF outlines.

On the eval PDFs whose outline the indexer trusts (enough entries, in page order, titles
found on their pages), the tree is built with the outline hidden, from the page layout
alone, and compared with the outline:

- a *section start* is a tree node that claims a heading: every node but the root, the
  grouping nodes, the page splits, "(introduction)" leaves and "Front matter";
- start F1 (title): a start matches an outline entry when it begins on the same page or the
  next/previous one and their titles agree (normalised to lower-case letters and digits, a leading
  section number left out: "4.4.21 GHM" is the outline's "GHM", "Chapter 18: Log Analysis" its "Log
  Analysis", an appendix's "B.3 NLI" its "NLI"; difflib ratio ≥ 0.7, or one is a prefix of the other of ≥ 8 characters); one-to-one,
  best title first; precision over the tree's starts, recall over the outline's entries;
- start F1 (page): the same on the sets of start pages alone (exact page);
- level agreement, over the matched pairs: the share whose heading depth (1 + the number
  of ancestors that are section starts) equals the outline level (shifted so the top
  level is 1; an outline whose first entry is its only one at the top level, every other entry
  below it, puts the document's title there, as the tree's root is: that entry is left out and
  the level below it is the top, "Congratulations, you and your MacBook Air …" over every
  chapter of Apple's guide); also over the documents whose outline has more than one level alone (a flat
  outline, "Part I", "Item 1. Business", "General" side by side, has no levels to agree with);
  and the share of consecutive matched pairs whose relation (deeper, same,
  shallower) agrees.

*Before* is the indexer of a git revision (``--baseline-rev``, the one before the layout
work), loaded from git in this process (``--no-baseline``: after only); *after* is the working
tree's; both on the same content in the same run. ``--dir`` adds another folder of PDFs (a
``pdfs/`` folder with a ``docs.jsonl`` beside it, like the eval set); the figures are also given
per document kind (``KINDS``: the ``doc_type`` of ``docs.jsonl`` folded into filing, financial,
paper, report, manual, brochure).

    python benchmarks/tree_quality.py [--eval-dir ../shared/eval] [--dir ../shared/eval-more] [--baseline-rev REV] [--json out.json]

Exits 0 with a note when the eval set is absent. Never part of the test run.
"""
from __future__ import annotations

import argparse
import difflib
import json
import importlib.util
import re
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, REPO, eval_dir_or_none, machine_line, report, say_absent  # noqa: E402

from alphasearch.index import indexer
from alphasearch import pdf  # noqa: E402
from alphasearch.models import Section  # noqa: E402

BASELINE_REV = "54a2189"  # main before the layout-based trees (issue 12 item 1)
SYNTHETIC = ("group", "split", "root")
# Modules the baseline indexer imports (relative to the package) that moved when the package was laid out by stage.
MOVED = {".text": ".lang.text", ".domain": ".lang.domain", ".indexing.headings": ".index.headings",
         ".indexing.summaries": ".index.summaries", ".indexing.title": ".index.title", ".indexing": ".index",
         ".facts": ".index.facts", ".scorers": ".search.scorers"}


KINDS = {"10k": "filing", "10q": "filing", "8k": "filing", "earnings": "financial", "financial report": "financial",
         "academic paper": "paper", "research report / introduction": "report",
         "administration/industry file": "report", "guidebook": "manual", "tutorial/workshop": "manual",
         "brochure": "brochure"}


def doc_kinds(folder: Path) -> dict[str, str]:
    """Each PDF's kind from the folder's ``docs.jsonl`` (``doc_type`` folded by ``KINDS``)."""
    path = folder / "docs.jsonl"
    if not path.is_file():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["doc"]: KINDS.get(str(r.get("doc_type", "")).lower(), "other") for r in rows}


@dataclass(frozen=True)
class Start:
    title: str
    page: int
    level: int


NUMBERING = re.compile(r"^(?:chapter\s+)?(?:\d{1,3}|[A-Z](?=\.\d))(?:\.\d{1,3})*\.?:?\s+(?=\S)", re.IGNORECASE)


def norm(title: str) -> str:
    """``title`` in lower-case words, without a leading section number ("4.4.21 GHM", "Chapter 18: Log
    Analysis"): an outline may print the number or leave it out, and either way it is the same section."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", NUMBERING.sub("", title.strip(), count=1).lower()).split())


def same_title(a: str, b: str) -> float:
    """Similarity in [0, 1] of two normalised titles (1.0 for a long shared prefix)."""
    if not a or not b:
        return 0.0
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 8 and long_.startswith(short):
        return 1.0
    return difflib.SequenceMatcher(None, a, b).ratio()


def tree_starts(root: Section) -> list[Start]:
    out: list[Start] = []

    def walk(node: Section, depth: int) -> None:
        for child in node.children:
            real = not (child.source in SYNTHETIC or child.title.endswith("(introduction)")
                        or child.title == "Front matter")
            if real:
                out.append(Start(child.title, child.pages[0], depth + 1))
            walk(child, depth + 1 if real else depth)

    walk(root, 0)
    return out


def outline_starts(entries) -> list[Start]:
    top = min(e.level for e in entries)
    if len(entries) > 1 and entries[0].level == top and all(e.level > top for e in entries[1:]):
        entries, top = entries[1:], top + 1  # the document's title over all of it: the tree's root
    return [Start(e.title, e.page, e.level - top + 1) for e in entries]


def compare(gold: list[Start], pred: list[Start]) -> dict:
    pairs = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if abs(g.page - p.page) <= 1:
                sim = same_title(norm(g.title), norm(p.title))
                if sim >= 0.7:
                    pairs.append((sim, -abs(g.page - p.page), gi, pi))
    used_g, used_p, matched = set(), set(), []
    for sim, _, gi, pi in sorted(pairs, reverse=True):
        if gi not in used_g and pi not in used_p:
            used_g.add(gi)
            used_p.add(pi)
            matched.append((gi, pi))
    matched.sort()
    gp, pp = {g.page for g in gold}, {p.page for p in pred}
    level_same = sum(gold[g].level == pred[p].level for g, p in matched)
    rel = [(_sign(gold[b[0]].level - gold[a[0]].level), _sign(pred[b[1]].level - pred[a[1]].level))
           for a, b in zip(matched, matched[1:])]
    levelled = len({g.level for g in gold}) > 1  # a flat outline has no levels to agree with
    return {"gold": len(gold), "pred": len(pred), "matched": len(matched),
            "pages_gold": len(gp), "pages_pred": len(pp), "pages_matched": len(gp & pp),
            "level_same": level_same, "relations": len(rel), "relations_same": sum(a == b for a, b in rel),
            "levelled_matched": len(matched) if levelled else 0, "levelled_same": level_same if levelled else 0}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def f1(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def load_baseline(rev: str):
    """The indexer module as it was at git revision ``rev`` (its imports resolve in today's package)."""
    src = subprocess.run(["git", "show", f"{rev}:alphasearch/indexer.py"], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout
    for before, now in MOVED.items():  # the package was laid out by stage since: the same modules, new homes
        src = re.sub(rf"^(\s*from ){re.escape(before)}( import )", rf"\g<1>{now}\g<2>", src, flags=re.MULTILINE)
    name = "alphasearch._indexer_baseline"
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "alphasearch"
    sys.modules[name] = mod
    exec(compile(src, f"{rev}:alphasearch/indexer.py", "exec"), mod.__dict__)
    return mod


def build(mod, content: pdf.PdfContent) -> Section:
    if hasattr(mod, "section_tree"):
        return mod.section_tree(content)[0]
    return mod.build_tree(content, mod.detect_headings(content))[0]  # the baseline's API


def totals(rows: list[dict], key: str) -> dict:
    s = {k: sum(r[key][k] for r in rows) for k in rows[0][key]}
    p, r, f = f1(s["matched"], s["pred"], s["gold"])
    pp, pr, pf = f1(s["pages_matched"], s["pages_pred"], s["pages_gold"])
    return {**s, "precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3),
            "page_precision": round(pp, 3), "page_recall": round(pr, 3), "page_f1": round(pf, 3),
            "level_agreement": round(s["level_same"] / s["matched"], 3) if s["matched"] else 0.0,
            "level_agreement_levelled": round(s["levelled_same"] / s["levelled_matched"], 3)
            if s.get("levelled_matched") else 0.0,
            "relation_agreement": round(s["relations_same"] / s["relations"], 3) if s["relations"] else 0.0,
            "macro_f1": round(sum(f1(r_[key]["matched"], r_[key]["pred"], r_[key]["gold"])[2]
                                  for r_ in rows) / len(rows), 3)}


def run(args: argparse.Namespace) -> int:
    eval_dir = eval_dir_or_none(args.eval_dir)
    if eval_dir is None:
        return say_absent(args.eval_dir)
    print(machine_line())
    baseline = None if args.no_baseline else load_baseline(args.baseline_rev)
    folders = [eval_dir] + [Path(d) for d in args.dir if (Path(d) / "pdfs").is_dir()]
    for d in args.dir:
        if not (Path(d) / "pdfs").is_dir():
            print(f"{d}: no pdfs/ folder there; left out")
    rows = []
    for folder in folders:
        rows += folder_rows(folder, baseline)
    labels = ["after"] if baseline is None else ["before", "after"]
    kinds = sorted({r["kind"] for r in rows})
    result = {"baseline_rev": None if baseline is None else args.baseline_rev, "folders": [f.name for f in folders],
              "documents": len(rows), "rows": rows, **{label: totals(rows, label) for label in labels},
              "kinds": {k: {label: totals([r for r in rows if r["kind"] == k], label) for label in labels}
                        | {"documents": sum(r["kind"] == k for r in rows)} for k in kinds}}
    return report(result, lambda r: print_result(r, labels), args.json)


def folder_rows(folder: Path, baseline) -> list[dict]:
    """One row per PDF of ``folder`` whose outline the indexer trusts: its trees' figures."""
    kinds = doc_kinds(folder)
    rows = []
    for path in sorted((folder / "pdfs").glob("*.pdf")):
        content = pdf.read_pdf(path.read_bytes(), path.name)
        entries = indexer.trusted_outline(content)
        if len(entries) < 3:
            continue
        gold = outline_starts(entries)
        hidden = replace(content, toc=[])
        row = {"doc": path.name, "folder": folder.name, "kind": kinds.get(path.name, "other"),
               "pages": content.page_count, "outline": len(gold)}
        for label, mod in (("before", baseline), ("after", indexer)):
            if mod is None:
                continue
            t = time.perf_counter()
            root = build(mod, hidden)
            row[label] = compare(gold, tree_starts(root))
            row[label + "_seconds"] = round(time.perf_counter() - t, 2)
        rows.append(row)
    return rows


def _row_f1_level(stats: dict) -> tuple[float, float]:
    return (f1(stats["matched"], stats["pred"], stats["gold"])[2],
            stats["level_same"] / stats["matched"] if stats["matched"] else 0.0)


def print_result(r: dict, labels: list[str]) -> None:
    print(f"{r['documents']} PDFs with a trusted outline ({', '.join(r['folders'])}); trees built with the outline "
          f"hidden; " + (f"before = indexer at {r['baseline_rev']}, " if "before" in labels else "") + "after = this tree\n")
    print(f"{'document':42} {'kind':>9} {'pages':>5} {'outline':>7} | "
          + " ".join(f"{'F1 ' + lb:>9} {'level ' + lb:>12}" for lb in labels))
    for row in r["rows"]:
        cells = " ".join(f"{a:>9.3f} {b:>12.3f}" for a, b in (_row_f1_level(row[lb]) for lb in labels))
        print(f"{row['doc'][:42]:42} {row['kind']:>9} {row['pages']:>5} {row['outline']:>7} | {cells}")
    print()
    for kind, k in r["kinds"].items():
        print(f"{kind:10} {k['documents']:>3} docs | " + "; ".join(
            f"{lb}: F1 {k[lb]['f1']:.3f}, level {k[lb]['level_agreement']:.3f}" for lb in labels))
    print()
    for label in labels:
        t = r[label]
        print(f"{label:6} start F1 (title) {t['f1']:.3f} (P {t['precision']:.3f}, R {t['recall']:.3f}; "
              f"{t['matched']} of {t['gold']} outline entries, {t['pred']} tree starts; macro F1 {t['macro_f1']:.3f}); "
              f"start F1 (page) {t['page_f1']:.3f}; level agreement {t['level_agreement']:.3f} "
              f"({t['level_agreement_levelled']:.3f} over outlines with levels), "
              f"relation agreement {t['relation_agreement']:.3f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eval-dir", default=None, help="eval set folder (default ../shared/eval)")
    p.add_argument("--dir", action="append", default=[], help="another folder of PDFs (pdfs/ and docs.jsonl)")
    p.add_argument("--baseline-rev", default=BASELINE_REV, help="git revision of the 'before' indexer")
    p.add_argument("--no-baseline", action="store_true", help="build with this tree's indexer only")
    p.add_argument("--json", default=str(OUT / "tree_quality.json"), help="write the figures here")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
