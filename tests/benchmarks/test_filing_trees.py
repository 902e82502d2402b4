"""The filing benchmark's measures (benchmarks/filing_trees.py) on generated filings: the Items printed as
headings (not the contents page's), statements found under Item 8, made-up group titles counted."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from filing_trees import items_in_their_part, made_up_titles, printed_items, statements_under_item8, tree_items  # noqa: E402

import filing_factory  # noqa: E402
from alphasearch import pdf  # noqa: E402
from alphasearch.pdf import write_pdf  # noqa: E402
from alphasearch.index import indexer  # noqa: E402
from alphasearch.models import Section  # noqa: E402


def test_a_generated_10k_prints_every_item_and_its_tree_holds_them_with_statements_under_item_8():
    content = pdf.read_pdf(filing_factory.annual_report_pdf(), "kestrel-10k.pdf")
    printed = printed_items(content)
    assert printed == {number for _, number, _, _ in filing_factory.ITEMS}
    root = indexer.section_tree(content)[0]
    assert printed <= tree_items(root)
    assert statements_under_item8(root, quarterly=False) == len(filing_factory.STATEMENTS) + 1  # and "Notes to …"
    assert statements_under_item8(root, quarterly=False, content=content) == len(filing_factory.STATEMENTS) + 1
    assert made_up_titles(root) == 0
    assert items_in_their_part(root) == (len(filing_factory.ITEMS), len(filing_factory.ITEMS))


def test_items_out_of_their_part_are_counted():
    """Items 1 and 5 under PART IV (a contents page's Parts kept): two Items under a Part, none in its own."""
    items = tuple(Section(str(k), f"Item {n}. Title", (k, k)) for k, n in ((2, "1"), (3, "5")))
    root = Section("0", "Report", (1, 3), children=(Section("1", "PART IV", (1, 3), children=items),))
    assert items_in_their_part(root) == (0, 2)


def test_statements_outside_item_8_and_list_titles_are_counted():
    stray = Section("1", "Item 7A. Market Risk", (1, 2), children=(Section("2", "Consolidated Balance Sheets", (2, 2)),))
    listed = Section("3", "pp. 3–4: Overview; Liquidity; …", (3, 4), source="group")
    root = Section("0", "Report", (1, 4), children=(stray, listed))
    assert statements_under_item8(root, quarterly=False) == 0 and made_up_titles(root) == 1


def test_a_statement_node_on_the_page_that_lists_the_statements_holds_none_of_them():
    """Item 8's page lists the statements with their pages ("see page F-1"): a node titled "Notes to …" there
    (Activision's tree) is not the Notes, and counts only without the pages' text."""
    listing = "\n".join(["Item 8. Financial Statements and Supplementary Data"] + [
        f"{t} F-{k}" for k, t in enumerate(filing_factory.STATEMENTS + ["Notes to Consolidated Financial Statements"], 1)])
    content = pdf.read_pdf(write_pdf([[listing], ["Consolidated Balance Sheets", *filing_factory.TABLE[2:]]]), "l.pdf")
    item8 = Section("1", "Item 8. Financial Statements", (1, 1), children=(
        Section("2", "Notes to Consolidated Financial Statements", (1, 1)),))
    root = Section("0", "Report", (1, 2), children=(item8,))
    assert statements_under_item8(root, quarterly=False) == 1
    assert statements_under_item8(root, quarterly=False, content=content) == 0
    on_its_page = Section("1", "Item 8. Financial Statements", (1, 2), children=(
        Section("3", "Consolidated Balance Sheets", (2, 2)),))
    assert statements_under_item8(Section("0", "Report", (1, 2), children=(on_its_page,)), False, content) == 1
