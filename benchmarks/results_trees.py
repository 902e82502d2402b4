"""RESULTS.md's sections on section trees: the outline benchmark (``tree_quality.py``: start F1 and level
agreement, overall and per document kind, over the eval set and ``--eval-more`` when restored) and the filing
benchmark (``filing_trees.py`` over ``--filings`` when present). Used by ``make_results.py``."""
from __future__ import annotations

from pathlib import Path


def md_table(head: list[str], rows: list[list[str]]) -> str:
    align = ["---" if i == 0 else "---:" for i in range(len(head))]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def tree_steps(py: str, eval_dir: Path, out: Path, more: Path, filings: Path) -> list[tuple[str, list[str]]]:
    """(name, command) of the tree benchmarks to run: the outline benchmark (with the extra folder when it
    is there) and the filing benchmark when its folder is there; each says so when a folder is absent."""
    extra = [str(more)] if (more / "pdfs").is_dir() else []
    steps = [("tree quality", [py, "benchmarks/tree_quality.py", "--eval-dir", str(eval_dir),
                               *(a for d in extra for a in ("--dir", d)), "--json", str(out / "tree_quality.json")])]
    folder = filings
    if folder.is_dir():
        steps.append(("filing trees", [py, "benchmarks/filing_trees.py", "--filings", str(folder),
                                       "--json", str(out / "filing_trees.json")]))
    else:
        print(f"filing benchmark skipped: no filings folder at {folder} (pass --filings DIR)")
    return steps


def tree_section(tq: dict) -> str:
    labels = [label for label in ("before", "after") if label in tq]
    rows = []
    for label in labels:
        t = tq[label]
        rows.append([f"{label} ({tq['baseline_rev'] if label == 'before' else 'this commit'})",
                     f"{t['f1']:.3f} (P {t['precision']:.3f}, R {t['recall']:.3f})", f"{t['macro_f1']:.3f}",
                     f"{t['page_f1']:.3f}", f"{t['level_agreement']:.3f}",
                     f"{t['level_agreement_levelled']:.3f}" if "level_agreement_levelled" in t else "–",
                     f"{t['relation_agreement']:.3f}",
                     f"{t['matched']} / {t['gold']} / {t['pred']}"])
    kinds = [[kind, str(k["documents"]), *(f"{k[label]['f1']:.3f} / {k[label]['level_agreement']:.3f}"
                                             for label in labels)] for kind, k in tq.get("kinds", {}).items()]
    return "\n".join([
        "## Section trees against PDF outlines",
        "",
        f"{tq['documents']} PDFs whose outline the indexer trusts ({', '.join(tq.get('folders', ['eval']))}); each "
        "tree is built with the outline hidden (page layout alone) and compared with the outline. A start matches an "
        "outline entry on the same page (±1) with a similar title; level agreement: matched starts at the outline's "
        "depth (also over outlines with more than one level alone: a flat outline has no levels to agree with); "
        "relation agreement: consecutive matched starts that go deeper / stay / go up as the outline does "
        "(`benchmarks/tree_quality.py`, which defines each figure).",
        "",
        md_table(["indexer", "start F1 (title)", "macro F1", "start F1 (page)", "level agreement",
                  "level agreement, outlines with levels", "relation agreement", "matched / outline / tree starts"],
                 rows),
        "",
        *(["Per document kind (start F1 / level agreement):", "",
           md_table(["kind", "documents", *labels], kinds), ""] if kinds else []),
    ])


def filing_section(ft: dict) -> str:
    return "\n".join([
        "## Filing trees",
        "",
        f"{ft['reports']} annual reports, trees as the app builds them (`benchmarks/filing_trees.py`, which defines "
        "each figure): the Items a filing prints as headings that are nodes of its tree, the reports whose "
        "consolidated statements sit under Item 8, and grouping or split nodes whose title strings child titles "
        "together.",
        "",
        md_table(["printed Items found as nodes", "reports with statements under Item 8", "made-up group titles"],
                 [[f"{ft['items_found_share']:.3f} ({ft['items_found']} / {ft['items_printed']})",
                   f"{ft['reports_with_statements_under_item8']} of {ft['reports']}", str(ft["made_up_titles"])]]),
        "",
    ])
