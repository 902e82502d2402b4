"""Do the trees of annual and quarterly reports follow the filing's structure?

For each PDF of ``--filings DIR`` (10-Ks, 10-Qs, annual reports), its section tree is built as the
app builds it (outline when trusted, else the page layout; ``--hide-outline``: the page layout
alone) and checked against what the pages print:

- *printed Items*: the Item numbers (1, 1A, 7A, 9B …) that start a line set as a heading on a page
  that is not a contents page (the line bold, larger than body text or in capitals; a page with 5+
  such lines and fewer sentences (lines of 4+ words ending in a full stop, Item lines aside) than half
  their number is a contents page or a cross-reference index; Items 10–14 printed on one page, each with
  its sentence, are not); *found* when a node of the tree is titled "Item <n>" with that number.
  Share over all reports;
- *statements under Item 8*: nodes titled as a primary financial statement (balance sheets,
  statements of operations / income / comprehensive income / cash flows / equity) or "Notes to …"
  with an ancestor titled "Item 8" (10-K) or "Item 1" of Part I (10-Q), whose first page is not an index of
  the statements (a page printing ``INDEX_LINES`` or more statement titles: Item 8's "see page F-1" page
  lists them all, and a node there holds none of them): per report, and the number of reports with at
  least one;
- *made-up group titles*: grouping or page-split nodes whose title strings child titles together
  ("pp. 22–29: A; B; …"): a ';' or '…' in a synthetic node's title;
- *Items in their Part* (10-Ks): Item nodes with a "PART …" ancestor whose nearest such ancestor is the Part the
  Item's number belongs to (Items 1–4 Part I, 5–9C Part II, 10–14 Part III, 15–16 Part IV); an Item 8 placed
  where statements printed after Item 16 stand counts as out of its Part.

    python benchmarks/filing_trees.py --filings ../shared/filings [--limit N] [--json out.json]

Exits 0 with a note when the folder is absent. Never part of the test run.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, machine_line, report  # noqa: E402

from alphasearch import pdf  # noqa: E402
from alphasearch.index import indexer  # noqa: E402
from alphasearch.index.headings import Layout  # noqa: E402
from alphasearch.models import Section  # noqa: E402

ITEM = re.compile(r"^item\s+(\d{1,2}[abc]?)\b\s*[.:\-–—]?", re.IGNORECASE)
STATEMENT = re.compile(r"(?i)\b(?:balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|"
                       r"comprehensive|cash\s+flows?|(?:changes\s+in\s+)?(?:stockholders|shareholders|share\s*owners)|equity|"
                       r"financial\s+position)|notes\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+)?financial)")
SYNTHETIC = ("group", "split")
CONTENTS = 5
SENTENCE_WORDS = 4  # a line of this many words ending in a full stop ends a sentence
INDEX_LINES = 4  # a page printing this many statement titles lists the statements (an index), holds none


def printed_items(content: pdf.PdfContent) -> set[str]:
    """Item numbers a filing prints as headings (outside its contents pages)."""
    body = Layout.of(content).body
    out: set[str] = set()
    for page in content.pages:
        hits = set()
        for line in page.lines:
            m = ITEM.match(line.text.strip())
            if m and len(line.text) <= 120 and (line.bold or line.size >= body + 1.0 or line.text[:4].isupper()):
                hits.add(m.group(1).upper())
        sentences = sum(1 for line in page.lines if len(line.text.split()) >= SENTENCE_WORDS
                        and line.text.rstrip().endswith(".") and not ITEM.match(line.text))
        if len(hits) < CONTENTS or 2 * sentences >= len(hits):
            out |= hits
    return out


def tree_items(root: Section) -> set[str]:
    return {m.group(1).upper() for node in root.walk() if (m := ITEM.match(node.title.strip()))}


def statement_index(text: str) -> bool:
    """Whether a page's ``text`` lists the statements (``INDEX_LINES`` lines or more naming one)."""
    return sum(1 for line in text.splitlines() if len(line) <= 150 and STATEMENT.search(line)) >= INDEX_LINES


def statements_under_item8(root: Section, quarterly: bool, content: pdf.PdfContent | None = None) -> int:
    """Statement nodes with an 'Item 8' ancestor (a 10-Q: 'Item 1' of Part I); with ``content``, only those
    whose first page is not an index of the statements (:func:`statement_index`)."""
    wanted = "1" if quarterly else "8"
    count = 0
    listing = {p.number for p in content.pages if statement_index(p.text)} if content is not None else set()

    def walk(node: Section, inside: bool) -> None:
        nonlocal count
        for child in node.children:
            m = ITEM.match(child.title.strip())
            here = inside or bool(m and m.group(1).upper() == wanted)
            if inside and STATEMENT.search(child.title) and child.pages[0] not in listing:
                count += 1
            walk(child, here)

    walk(root, False)
    return count


PART_OF = {**dict.fromkeys(("1", "1A", "1B", "1C", "2", "3", "4"), "I"),
           **dict.fromkeys(("5", "6", "7", "7A", "8", "9", "9A", "9B", "9C"), "II"),
           **dict.fromkeys(("10", "11", "12", "13", "14"), "III"), **dict.fromkeys(("15", "16"), "IV")}
PART = re.compile(r"^part\s+(iv|iii|ii|i)\b", re.IGNORECASE)


def items_in_their_part(root: Section) -> tuple[int, int]:
    """(Item nodes under the Part their number belongs to, Item nodes under some Part) of a 10-K's tree."""
    inside = under = 0

    def walk(node: Section, part: str) -> None:
        nonlocal inside, under
        for child in node.children:
            here = (m.group(1).upper() if (m := PART.match(child.title.strip())) else part)
            item = ITEM.match(child.title.strip())
            if item and part and item.group(1).upper() in PART_OF:
                under += 1
                inside += PART_OF[item.group(1).upper()] == part
            walk(child, here)

    walk(root, "")
    return inside, under


def made_up_titles(root: Section) -> int:
    return sum(1 for n in root.walk() if n.source in SYNTHETIC and (";" in n.title or "…" in n.title))


def run(args: argparse.Namespace) -> int:
    folder = Path(args.filings) if args.filings else None
    if folder is None or not folder.is_dir():
        print(f"The filings folder is not at {folder}; nothing to measure. Pass --filings DIR.")
        return 0
    print(machine_line())
    rows = []
    paths = sorted(folder.glob("*.pdf"))[: args.limit or None]
    for path in paths:
        content = pdf.read_pdf(path.read_bytes(), path.name)
        if args.hide_outline:
            content = replace(content, toc=[])
        t = time.perf_counter()
        root, source, _, _ = indexer.section_tree(content)
        printed = printed_items(content)
        in_tree = tree_items(root)
        quarterly = "10Q" in path.name.upper()
        rows.append({"doc": path.name, "pages": content.page_count, "source": source,
                     "printed_items": sorted(printed), "missing_items": sorted(printed - in_tree),
                     "statements_under_item8": statements_under_item8(root, quarterly, content),
                     "made_up_titles": made_up_titles(root), "nodes": sum(1 for _ in root.walk()),
                     "items_in_part": (0, 0) if quarterly else items_in_their_part(root),
                     "seconds": round(time.perf_counter() - t, 2)})
    printed_n = sum(len(r["printed_items"]) for r in rows)
    found_n = printed_n - sum(len(r["missing_items"]) for r in rows)
    result = {"reports": len(rows), "hide_outline": args.hide_outline, "rows": rows,
              "items_found_share": round(found_n / printed_n, 3) if printed_n else 0.0,
              "items_printed": printed_n, "items_found": found_n,
              "reports_with_statements_under_item8": sum(r["statements_under_item8"] > 0 for r in rows),
              "made_up_titles": sum(r["made_up_titles"] for r in rows),
              "items_in_their_part": [sum(r["items_in_part"][0] for r in rows), sum(r["items_in_part"][1] for r in rows)],
              "sources": dict(Counter(r["source"] for r in rows))}
    return report(result, print_result, args.json)


def print_result(r: dict) -> None:
    print(f"{'report':36} {'pages':>5} {'source':>8} {'items':>5} {'missing':24} {'stmts@8':>7} {'made-up':>7}")
    for row in r["rows"]:
        print(f"{row['doc'][:36]:36} {row['pages']:>5} {row['source']:>8} {len(row['printed_items']):>5} "
              f"{','.join(row['missing_items'])[:24]:24} {row['statements_under_item8']:>7} {row['made_up_titles']:>7}")
    print(f"\n{r['reports']} reports: printed Items found as nodes {r['items_found_share']:.3f} "
          f"({r['items_found']}/{r['items_printed']}); statements under Item 8 in "
          f"{r['reports_with_statements_under_item8']} of {r['reports']}; made-up group titles {r['made_up_titles']}; "
          f"Items in their Part {r['items_in_their_part'][0]} of {r['items_in_their_part'][1]}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--filings", default=None, help="folder of annual/quarterly report PDFs")
    p.add_argument("--limit", type=int, default=0, help="only the first N PDFs (by name)")
    p.add_argument("--hide-outline", action="store_true", help="build from the page layout alone")
    p.add_argument("--json", default=str(OUT / "filing_trees.json"), help="write the figures here")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
