"""Trees of generated filings: PART I–IV, every Item at one level under its Part, Item 8's statements
and "Notes to …" with its Notes, a 10-Q's two Parts; the traps of real filings are not sections."""
from __future__ import annotations

import re
from functools import partial

import pytest

import filing_factory
import pdf_factory
from alphasearch import pdf
from alphasearch.pdf import TextBlock, write_pdf
from alphasearch.index import indexer
from alphasearch.index.grouping import group_title
from alphasearch.index.crossref import _contents_items, with_contents_items
from alphasearch.index.headings import Entry, Layout, numbered_entries
from test_indexer import check_invariants


def _titles(node) -> list[str]:
    return [c.title for c in node.children]


def _flat(node):
    """Children with grouping nodes looked through."""
    for c in node.children:
        yield from (_flat(c) if c.source == "group" else (c,))


def test_annual_report_parts_items_statements_and_notes():
    doc = indexer.build_index(filing_factory.annual_report_pdf(), "kestrel-10k.pdf")
    root = doc.root
    parts = {c.title: c for c in root.children if c.title.startswith("PART")}
    assert list(parts) == ["PART I", "PART II", "PART III", "PART IV"]
    for part, want in (("PART I", ["1", "1A", "1B", "1C", "2", "3", "4"]),
                       ("PART II", ["5", "6", "7", "7A", "8", "9", "9A", "9B", "9C"]),
                       ("PART III", ["10", "11", "12", "13", "14"]), ("PART IV", ["15", "16"])):
        numbers = [re.match(r"Item (\w+)\.", t).group(1) for t in _titles(parts[part])]
        assert numbers == want, part  # at one level: no grouping node between a Part and its Items
    item5 = parts["PART II"].children[0]
    assert item5.title.startswith("Item 5. Market for Registrant's") and "Purchases of Equity" in item5.title
    assert not item5.children  # the title's second line is not a section of its own
    item8 = next(c for c in parts["PART II"].children if c.title.startswith("Item 8."))
    assert _titles(item8) == ["Report of Independent Registered Public Accounting Firm",
                              *filing_factory.STATEMENTS, "Notes to Consolidated Financial Statements"]
    notes = item8.children[-1]
    assert [n.title for n in _flat(notes)] == [f"Note {k}. {t}" for k, t in enumerate(filing_factory.NOTES, 1)]
    assert _titles(notes) == ["Notes 1–4", "Notes 5–8", "Notes 9–12"]
    stubs = [c for c in parts["PART III"].children]
    assert all(s.pages[0] == s.pages[1] for s in stubs)  # "incorporated by reference": one page each, still nodes
    titles = [n.title for n in root.walk() if n is not root]
    for trap in ("Amount", "Level 1", "1 Actuarial", "Year Ended", "2023 2022 2021", filing_factory.COMPANY,
                 "Valves", "Total revenue", "Shown net of tax"):
        assert not any(t.startswith(trap) for t in titles), trap
    assert not any(";" in n.title or "…" in n.title for n in root.walk() if n.source in ("group", "split"))
    check_invariants(root, doc.page_count, 8)


def test_an_auditors_report_after_the_notes_is_beside_them_and_note_1_is_inside_them():
    """Adobe's 2022 10-K prints the auditor's report after Note 19, in a smaller type than "Notes to …": nested by
    size it was a part of Note 19; and its first notes page gives "NOTE 1." before "NOTES TO …" in its text, which
    left Note 1 outside the notes."""
    root = indexer.build_index(filing_factory.annual_report_pdf(report_after_notes=True), "kestrel-10k.pdf").root
    item8 = next(n for n in root.walk() if n.title.startswith("Item 8."))
    assert _titles(item8) == [f"{item8.title} (introduction)", *filing_factory.STATEMENTS,
                              "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS",
                              "Report of Independent Registered Public Accounting Firm"], _titles(item8)
    notes = item8.children[-2]
    assert [n.title for n in _flat(notes)] == [f"Note {k}. {t}" for k, t in enumerate(filing_factory.NOTES, 1)]


def test_quarterly_report_has_two_parts_with_their_items():
    doc = indexer.build_index(filing_factory.quarterly_report_pdf(), "kestrel-10q.pdf")
    parts = [c for c in doc.root.children if c.title.startswith("PART")]
    assert [p.title for p in parts] == ["PART I - FINANCIAL INFORMATION", "PART II - OTHER INFORMATION"]
    assert [t.split(".")[0] for t in _titles(parts[0])] == ["Item 1", "Item 2", "Item 3", "Item 4"]
    assert [t.split(".")[0] for t in _titles(parts[1])] == ["Item 1", "Item 1A", "Item 2", "Item 6"]
    item1 = parts[0].children[0]
    assert [t for t in _titles(item1) if not t.endswith("(introduction)")] == [
        *filing_factory.STATEMENTS, "Notes to Condensed Consolidated Financial Statements (Unaudited)"]
    assert [n.title for n in item1.children[-1].children] == [
        f"Note {k}. {t}" for k, t in enumerate(filing_factory.NOTES[:6], 1)]
    check_invariants(doc.root, doc.page_count, 8)


def test_a_long_item_is_split_and_grouped_under_titles_that_say_what_they_hold():
    assert group_title(["Overview", "Liquidity", "Outlook", "Risks"], 22, 29,
                       "Item 7. Management's Discussion and Analysis") == "Item 7 · pages 22–29"
    assert group_title(["Overview", "Liquidity"], 4, 4, "") == "Page 4"
    assert group_title(["Notes to X (introduction)", "Note 1. Basis", "Note 9. Debt"], 40, 52, "") == "Notes 1–9"
    long_parent = "Consolidated Results of Operations and Financial Condition of the Segments"
    assert group_title(["A", "B"], 3, 9, long_parent) == "Consolidated Results of Operations · pages 3–9"


def _part(root, name):
    return next(c for c in root.children if c.title == name)


def test_items_printed_together_on_one_page_are_each_a_node():
    """Items 10–14 (and 9A–9C) each a heading and a sentence on one page: five numbered lines, yet not a
    contents page, for text follows each of them."""
    doc = indexer.build_index(filing_factory.annual_report_pdf(stubs_together=True), "kestrel-10k.pdf")
    part3 = _part(doc.root, "PART III")
    assert [t.split(".")[0] for t in _titles(part3)] == ["Item 10", "Item 11", "Item 12", "Item 13", "Item 14"]
    assert len({c.pages for c in part3.children}) == 1  # all on the one page
    part2 = [t.split(".")[0] for t in _titles(_part(doc.root, "PART II"))]
    assert part2[-3:] == ["Item 9A", "Item 9B", "Item 9C"]
    contents = doc.root.children[0]  # the contents page lists every Item with its page: still not a section start
    assert not any(n.title.startswith("Item") and n.pages[0] == 2 for n in doc.root.walk()), contents.title
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_statements_printed_after_the_last_item_get_an_item_8_node():
    """Item 8 is one sentence referring to pages F-1 on; the statements printed after Item 16 are not
    Item 16's ('Form 10-K Summary'): they hang under a node at Item level that says what it holds."""
    doc = indexer.build_index(filing_factory.annual_report_pdf(statements_at_back=True), "kestrel-10k.pdf")
    part2, part4 = _part(doc.root, "PART II"), _part(doc.root, "PART IV")
    stub = next(c for c in part2.children if c.title.startswith("Item 8."))
    assert not stub.children and stub.pages[0] == stub.pages[1]
    assert [t.split(" ")[:2] for t in _titles(part4)][:2] == [["Item", "15."], ["Item", "16."]]
    back = part4.children[-1]
    assert back.title == "Item 8 — Financial statements (printed after Item 16)"
    assert not part4.children[1].children and part4.children[1].pages[1] < back.pages[0]
    held = [n.title for n in _flat(back)]
    assert held[0] == "Index to Consolidated Financial Statements"
    assert [t for t in held if t in filing_factory.STATEMENTS] == filing_factory.STATEMENTS
    notes = next(n for n in _flat(back) if n.title.startswith("Notes to"))
    assert [n.title for n in _flat(notes)] == [f"Note {k}. {t}" for k, t in enumerate(filing_factory.NOTES, 1)]
    check_invariants(doc.root, doc.page_count, 8)
    plain = indexer.build_index(filing_factory.annual_report_pdf(), "kestrel-10k.pdf")
    assert not any("printed after" in n.title for n in plain.root.walk())  # statements inside Item 8: as they are


def test_a_report_bound_before_longer_exhibits_in_larger_type_keeps_its_statements():
    """A 10-K set in 11 pt followed by more pages of exhibits in 13 pt: 13 pt is the document's most used size,
    but the report's bold 11 pt statement titles are headings in their part (each part has its own body size),
    so the statements are nodes under Item 8, and the exhibits' text in 13 pt is no heading."""
    data = filing_factory.annual_report_pdf(statements_at_back=True, exhibits=60)
    content = pdf.read_pdf(data, "kestrel-10k.pdf")
    layout = Layout.of(content)
    assert layout.body == 13.0 and layout.body_of(1) == 11.0 and layout.body_of(content.page_count) == 13.0
    doc = indexer.build_index(data, "kestrel-10k.pdf")
    back = next(n for n in doc.root.walk() if n.title.startswith("Item 8 — Financial statements"))
    assert [n.title for n in _flat(back) if n.title in filing_factory.STATEMENTS] == filing_factory.STATEMENTS
    assert not any(n.title.startswith("The Participant") for n in doc.root.walk())
    check_invariants(doc.root, doc.page_count, 8)


def test_a_flat_outline_gives_way_to_the_numbered_headings_of_its_pages():
    """An outline listing Parts, Items and MD&A topics side by side at level 1 is less than what the pages
    number: the tree nests Items under Parts and statements under Item 8."""
    data = filing_factory.annual_report_pdf(flat_outline=True)
    content = pdf.read_pdf(data, "kestrel-10k.pdf")
    assert len(content.toc) > 20 and {lvl for lvl, _, _ in content.toc} == {1}
    doc = indexer.build_index(data, "kestrel-10k.pdf")
    assert [c.title for c in doc.root.children if c.title.startswith("PART")] == [
        "PART I", "PART II", "PART III", "PART IV"]
    item8 = next(c for c in _part(doc.root, "PART II").children if c.title.startswith("Item 8."))
    assert [t for t in _titles(item8) if t in filing_factory.STATEMENTS] == filing_factory.STATEMENTS
    check_invariants(doc.root, doc.page_count, 8)


def test_a_report_without_item_headings_takes_its_items_from_the_cross_reference_index():
    """McDonald's 10-K prints no "Item 8": its cross-reference index maps Items to printed pages. The Items with a
    page are nodes at the top, each starting on its first page (printed page + the cover), the report's own
    headings under them: the statements under Item 8; Items answered "Not applicable" or by reference are not."""
    doc = indexer.build_index(filing_factory.cross_reference_report_pdf(), "harbor-annual-report.pdf")
    tops = {c.title.split(".")[0]: c for c in doc.root.children}
    assert list(tops) == ["Front matter", "Item 1", "Item 7", "Item 1A", "Item 8", "Item 9A", "Item 15"], list(tops)
    assert tops["Item 8"].title == "Item 8. Financial Statements and Supplementary Data"
    assert tops["Item 8"].pages == (9, 13), tops["Item 8"].pages  # printed 8-12, behind an unnumbered cover
    under8 = [n.title for n in tops["Item 8"].walk()]
    assert all(s in under8 for s in filing_factory.STATEMENTS[:3]), under8
    assert "Notes to Consolidated Financial Statements" in under8
    assert [c.title for c in tops["Item 7"].children] == ["Management's Discussion and Analysis"]
    assert tops["Item 9A"].title == "Item 9A. Controls and Procedures"  # "… Page 13" on one line: its page
    check_invariants(doc.root, doc.page_count, 8)


def test_a_filing_that_prints_its_items_ignores_a_cross_reference_page():
    """Items printed as headings are the tree; a cross-reference page does not add a second set."""
    from alphasearch.index.crossref import with_index_items
    from alphasearch.index.headings import Entry

    entries = [Entry(1, "Item 1. Business", 1), Entry(1, "Item 8. Financial Statements", 2)]
    index = "Form 10-K Cross-Reference Index\nItem 1\nBusiness\nPage 1\nItem 7\nMD&A\nPage 2\nItem 8\nStatements\nPage 2"
    assert with_index_items(entries, ["1", index + "\n2"]) == entries


def test_cross_reference_layouts_titles_over_lines_none_and_the_index_pages_own_number():
    """An index prints an Item's title over two lines ending in its pages, 'None' on the Item's own line, and its
    own page number alone on its last line: none of them is misread. Item lines the heading reader took for
    headings on the index page are no sections."""
    from alphasearch.index.crossref import index_items, with_index_items
    from alphasearch.index.headings import Entry

    index = "\n".join(["Form 10-K Cross-Reference Index", "Item 1. Business 2", "Item 7. Management's Discussion and "
                       "Analysis of Financial", "Condition and Results of Operations 3-4", "Item 9. Changes None",
                       "Item 8. Financial Statements and Supplementary Data", "Pages 5-6", "Item 15. Exhibits", "7"])
    texts = ["cover", *(f"body\n{n}" for n in range(2, 8)), index + "\n8"]
    page, items = index_items(texts)
    assert page == 8 and items == [("1", "Business", 2), ("7", "Management's Discussion and Analysis of Financial "
                                    "Condition and Results of Operations", 3),
                                   ("8", "Financial Statements and Supplementary Data", 5)], items
    misread = [Entry(1, "Section A", 2), Entry(1, "Item 1. Business 2", 8), Entry(1, "Item 9. Changes None", 8)]
    got = with_index_items(misread, texts)
    assert [e.title for e in got if e.level == 1] == ["Item 1. Business", "Item 7. Management's Discussion and "
                                                          "Analysis of Financial Condition and Results of Operations",
                                                          "Item 8. Financial Statements and Supplementary Data"], got
    assert not any(e.page == 8 and e.title.startswith("Item") for e in got), got


def test_an_item_title_set_large_and_wrapped_over_two_lines_is_one_title():
    """Nike sets its Item titles in 22 pt over 8.5 pt text, wrapped after some 50 characters: "ITEM 7A. QUANTITATIVE
    AND QUALITATIVE DISCLOSURES" / "ABOUT MARKET RISK". Long for its size, the first line goes on in the second:
    one node, not a section titled "ABOUT MARKET RISK"."""
    prose = TextBlock(filing_factory.PROSE * 3, 8.5)
    items = [("5", "MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF "
                   "EQUITY SECURITIES"),
             ("7", "MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS"),
             ("7A", "QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK"),
             ("8", "FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA"), ("9", "CHANGES IN AND DISAGREEMENTS WITH ACCOUNTANTS")]
    pages = [[TextBlock("PART II", 30, True)] + [prose] * 4]
    pages += [[TextBlock(f"ITEM {n}. {title}", 20), prose, prose, prose] for n, title in items]
    statement = "CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME"  # over a table, its last line two words
    pages.insert(5, [TextBlock("NIKE, INC.", 30), TextBlock(statement, 20), TextBlock("YEAR ENDED MAY 31,", 8.5, True),
                     *[TextBlock(getattr(row, "text", row), 8.5) for row in filing_factory.TABLE[1:]], prose])
    data = write_pdf(pages)
    content = pdf.read_pdf(data, "n.pdf")
    wrapped = [[ln.text for ln in content.pages[k].lines[:3]] for k in (1, 3, 5)]
    assert len(wrapped[0][2].split()) >= 3 and wrapped[0][2] != prose.text[:10], wrapped  # Item 5 over three lines
    assert wrapped[1][1].startswith(("DISCLOSURES", "ABOUT")) and wrapped[2][2] == "COMPREHENSIVE INCOME", wrapped
    titles = [n.title for n in indexer.build_index(data, "nike-10k.pdf").root.walk()]
    for n, title in items:
        assert f"ITEM {n}. {title}" in titles, titles
    assert statement in titles, titles
    rest = {line for page in wrapped for line in page[1:]}
    assert not any(t in rest or t.startswith(("ABOUT", "DISCLOSURES", "DATA", "EQUITY", "AND ISSUER", "SECURITIES"))
                   for t in titles), titles


@pytest.mark.parametrize("later_items", [False, True])
def test_items_printed_only_on_the_contents_page_start_at_the_pages_it_gives_them(later_items):
    """JPMorgan's 10-Q prints its Items only on its contents page, each over the printed page it starts on. Left
    there, every Item started on page 2 and the whole report hung under "Item 6. Exhibits"; now each Item starts on
    the page its first entry gives (printed page n is the PDF's n + 1), in its Part, and MD&A comes first. When the
    last pages print Part II's Items as headings (``later_items``), its Item 1 is not Part I's: Part I's Items 1
    and 2, printed nowhere else, are still placed."""
    doc = indexer.build_index(filing_factory.contents_only_quarterly_pdf(later_items=later_items), "bank-10q.pdf")
    parts = [n for n in doc.root.children if n.title.startswith("Part")]
    assert [p.title for p in parts] == ["Part I - Financial information", "Part II - Other information"], [
        n.title for n in doc.root.children]
    part1 = [(c.title.split(" ")[1], c.pages[0]) for c in parts[0].children]
    assert part1 == [("2.", 3), ("1.", 6), ("3.", 12), ("4.", 12)], part1
    assert [(c.title.split(" ")[1], c.pages[0]) for c in parts[1].children] == [
        ("1.", 12), ("1A.", 12 if later_items else 13), ("6.", 13)]
    item1 = parts[0].children[1]
    assert any(n.title.startswith("Note 3") for n in item1.walk()), [n.title for n in item1.walk()]
    assert not any(n.title.startswith("Item") and n.pages[0] == 2 for n in doc.root.walk())
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_exhibits_bound_after_a_report_in_larger_type_are_read_by_their_own_body_size():
    """A 10-K in 11 pt closed by fourteen pages of exhibits in 13 pt, the report's size the most used: the
    exhibits' text, larger than the report's, is body text in their part, not a heading on every line."""
    data = filing_factory.annual_report_pdf(exhibits=14, exhibit_text=1)
    layout = Layout.of(pdf.read_pdf(data, "kestrel-10k.pdf"))
    assert layout.body == 11.0 and layout.body_of(layout.parts and len(layout.parts)) == 13.0
    titles = [n.title for n in indexer.build_index(data, "kestrel-10k.pdf").root.walk()]
    assert not any(t.startswith(("The Participant", "the Plan", "Plan,")) for t in titles), titles


def test_a_paper_whose_appendix_closes_it_in_smaller_type_keeps_its_body_size():
    """A paper in 11 pt whose appendix and references close it in 9 pt: the appendix's 11 pt lines (a table's rows,
    an equation) are not headings there; smaller print closing a document is its own, unlike exhibits bound after."""
    para = ("We train the ranker on the filtered candidates and report the mean of five runs with their standard "
            "deviation, using the same prompts for every dataset and every model size.")
    small = TextBlock(para * 3, 9)
    pages = [[TextBlock(f"{k // 5 + 1} {name}", 14, True) if k % 5 == 0 else para, para, para, para, para]
             for k, name in enumerate(("Introduction", "Method", "Experiments", "Analysis", "Related Work",
                                       "Conclusion") * 5)]  # 30 pages, then 12 of appendix and references
    pages += [[TextBlock("Appendix", 14, True) if k == 0 else small, small, TextBlock("Recall at ten is reported for "
               "each run", 11), small, TextBlock("Precision of the filter at each threshold", 11), small]
              for k in range(12)]
    data = pdf_factory.make_pdf(pages)
    layout = Layout.of(pdf.read_pdf(data, "paper.pdf"))
    assert all(b == layout.body for b in layout.parts), layout.parts
    titles = [n.title for n in indexer.build_index(data, "paper.pdf").root.walk()]
    assert not any(t.startswith(("Recall at ten", "Precision of the filter")) for t in titles), titles


def test_a_contents_page_places_no_item_a_report_prints_under_parts_it_names_otherwise():
    """A 10-K's contents page lists its Items under "PART I" … "PART IV"; the report prints every Item as a heading,
    its Parts as "Part 1" … "Part 4", or not at all (only in a running header): no Item is placed a second time."""
    listed = [("I", "1", "Business"), ("I", "1A", "Risk Factors"), ("I", "2", "Properties"), ("II", "5", "Market"),
              ("II", "7", "Management's Discussion"), ("II", "8", "Financial Statements"), ("III", "10", "Directors"),
              ("IV", "15", "Exhibits")]
    contents, part = ["TABLE OF CONTENTS"], ""
    for k, (p, n, t) in enumerate(listed):
        contents += ([f"PART {p}"] if p != part else []) + [f"Item {n}.", t, str(k + 2)]
        part = p
    texts = ["FORM 10-K", "\n".join(contents + ["1"])] + [f"The text of the Item.\n{k}" for k in range(2, 2 + len(listed))]
    items = [Entry(2, f"Item {n}. {t}", k + 3) for k, (_, n, t) in enumerate(listed)]
    assert with_contents_items(items, texts) == items
    arabic, part = [], ""
    for e, (p, _, _) in zip(items, listed):
        arabic += ([Entry(1, f"Part {['I', 'II', 'III', 'IV'].index(p) + 1}", e.page)] if p != part else []) + [e]
        part = p
    assert with_contents_items(arabic, texts) == arabic


def test_a_table_of_counts_under_an_item_is_no_contents_page():
    """A page that lists stores by state ("Alabama" / "5" / "Alaska" / "9" …) holds numbers under lines of words
    as a contents page does, but they fall too often for page numbers: the Items printed on it stay."""
    counts = [5, 9, 3, 14, 20, 8, 25, 31, 2, 40, 44, 1, 52, 60, 7, 71, 80]  # 12 of 17 in a rising run, 5 falling
    table = [x for k, n in enumerate(counts) for x in (TextBlock(f"State {chr(65 + k % 26)}{k}", 7), TextBlock(str(n), 7))]
    pages = [[TextBlock(f"Item {n}. {t}", 12, True), filing_factory.PROSE] for n, t in (("1", "Business"),
                                                                                      ("1A", "Risk Factors"))]
    pages.append([TextBlock("Item 1B. Unresolved Staff Comments", 12, True), "None.",
                  TextBlock("Item 1C. Cybersecurity", 12, True), filing_factory.PROSE,
                  TextBlock("Item 2. Properties", 12, True), "We operate stores in these states:", *table])
    pages += [[TextBlock(f"Item {n}. {t}", 12, True), filing_factory.PROSE] for n, t in (("3", "Legal Proceedings"),
                                                                                       ("4", "Mine Safety Disclosures"))]
    doc = indexer.build_index(write_pdf(pages), "stores-10k.pdf")
    titles = [n.title for n in doc.root.walk()]
    assert {"Item 1B. Unresolved Staff Comments", "Item 1C. Cybersecurity", "Item 2. Properties"} <= set(titles), titles


def test_too_many_top_sections_are_grouped_around_the_parts():
    """JPMorgan's 10-Q outline gives ten top entries: cover, contents, Part I, Part II, the signature and five
    exhibits. Grouped by count, Parts I and II went under "Pages 1–211"; grouped around them, they stay the report's
    own children, between a group of the front pages and one of the signature and exhibits."""
    tops = ["Form 10-Q Cover", "Table of Contents", "Part I – Financial information", "Part II – Other information",
            "Signature", "Exhibit 15", "Exhibit 22", "Exhibit 31.1", "Exhibit 31.2", "Exhibit 32"]
    pages = [[TextBlock(title, 14, True), filing_factory.PROSE] for title in tops]
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=[(1, t, k) for k, t in enumerate(tops, 1)]), "q.pdf")
    assert _titles(doc.root) == ["Pages 1–2", tops[2], tops[3], "Pages 5–10"], _titles(doc.root)
    assert _titles(doc.root.children[-1]) == tops[4:]


@pytest.mark.parametrize("layout", [{"leaders": True}, {"contents_lines": "stops"}, {"contents_lines": "bare"},
                                    {"contents_lines": "dots"}])
def test_a_contents_page_with_leader_dots_gives_no_part_or_item(layout):
    """Lockheed Martin's contents page lists "ITEM 9A." over "Controls and Procedures ......" over "103", its Parts
    in bold: the leader dots end a line with a full stop, but they are no sentence of an Item's text, and "103" is
    a page number, not section 103 titled "ITEM 9B.": the page is a contents page and every Part and Item is the one
    printed in the report. The same for Best Buy's "Item 1." / "Business." / "4" (a title's full stop over a page
    number is no sentence either) and J&J's "1" / "Business" / "1" (no "Item" line: its run of page numbers, each
    under a title, tells the contents page), and Adobe's "Item 1." / "Business ......" (its page numbers in a
    column read apart)."""
    doc = indexer.build_index(filing_factory.annual_report_pdf(**layout), "kestrel-10k.pdf")
    starts = {n.title: n.pages[0] for n in doc.root.walk() if re.match(r"(?i)(part|item)\b", n.title)}
    assert [t for t in starts if t.startswith("PART")] == ["PART I", "PART II", "PART III", "PART IV"], starts
    assert len(starts) == 4 + len(filing_factory.ITEMS) and min(starts.values()) > 2, starts


def test_a_contents_page_moves_no_item_of_a_filing_that_prints_them_nor_a_parts_list():
    """A 10-K whose contents page puts each page number on a line of its own under its Item, and prints every Item
    as a heading: the Items stay where they are printed. An assembly manual's parts list ("Item 1" / "Hex bolt M6"
    / "4") is under no Part and no Item moves."""
    content = pdf.read_pdf(filing_factory.annual_report_pdf(numbers_below=True), "kestrel-10k.pdf")
    texts = [p.text for p in content.pages]
    assert len(_contents_items(texts[1])) == len(filing_factory.ITEMS)  # the page lists every Item, under its Part
    entries = numbered_entries(content, Layout.of(content))
    assert with_contents_items(entries, texts) == entries  # printed as headings: each stays where it is printed
    steps = ("Tighten the bolts in the order shown and check the alignment of the frame before you fit the panels "
             "to it. ") * 3
    parts = [TextBlock("Parts list", 16, True)] + [x for k, (name, qty) in enumerate(
        [("Hex bolt M6", 4), ("Washer", 5), ("Roof panel", 6), ("Door hinge", 2)], 1) for x in (f"Item {k}", name, str(qty))]
    pages = [[TextBlock("Garden Shed", 24, True)], parts] + [
        [TextBlock(chapter, 16, True), steps, steps] for chapter in ("Before you start", "Floor", "Walls", "Roof", "Doors")]
    doc = indexer.build_index(write_pdf([blocks + [TextBlock(str(i + 1), 8)] for i, blocks in enumerate(pages)]), "shed.pdf")
    assert not any(n.title.startswith("Item") for n in doc.root.walk()), [n.title for n in doc.root.walk()]


def test_exhibits_bound_after_a_report_are_sections_beside_its_parts():
    """A filing's exhibits follow its last Item, each headed "EXHIBIT 10.4" in bold on its first page: each is a
    section beside the Parts (not a part of Item 16), grouped under a title that says what they hold; a 10-Q
    whose Items stand on its contents page keeps its exhibits ("Exhibit 31.1" / "CERTIFICATION") beside its Parts
    too, not nested under its Items with the report's own headings."""
    doc = indexer.build_index(filing_factory.annual_report_pdf(exhibits=14, exhibit_text=1), "kestrel-10k.pdf")
    exhibits = [n for n in _flat(doc.root) if n.title.startswith("EXHIBIT")]
    assert [(n.title, n.pages[0]) for n in exhibits] == [(f"EXHIBIT 10.{k}", 55 + k - 1) for k in (1, 4, 7, 10, 13)]
    assert "Exhibits 10.1–10.13" in _titles(doc.root)
    part4 = _part(doc.root, "PART IV")
    assert part4.pages[1] == 54 and not any(n.title.startswith("EXHIBIT") for n in part4.walk())
    doc = indexer.build_index(filing_factory.contents_only_quarterly_pdf(later_items=True, exhibits=True), "q.pdf")
    assert [(t, n.pages[0]) for n in doc.root.children if (t := n.title).startswith("Exhibit")] == [
        ("Exhibit 31.1 CERTIFICATION", 14), ("Exhibit 32 CERTIFICATION PURSUANT TO 18 U.S.C. SECTION 1350", 15)]
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_a_filing_pages_title_in_capitals_opens_its_section_before_a_title_in_mixed_case():
    """Adobe's 10-Ks set their Items' sections in bold capitals ("COMPETITION") and their subsections in bold mixed
    case of the same size ("Other Products and Solutions"); a page of a filing opens one unnumbered section, and when
    a subsection comes first on the page it took the place of the section in capitals."""
    pages = [[TextBlock("Item 1. Business", 12, True), TextBlock("PRODUCTS AND SERVICES", 11, True),
              filing_factory.PROSE]]
    pages.append([filing_factory.PROSE, TextBlock("Other Products and Solutions", 11, True), filing_factory.PROSE,
                  TextBlock("COMPETITION", 11, True), filing_factory.PROSE])
    pages.append([TextBlock("Item 1A. Risk Factors", 12, True), filing_factory.PROSE])
    pages += [[TextBlock(f"Item {n}. {t}", 12, True), filing_factory.PROSE] for n, t in (
        ("1B", "Unresolved Staff Comments"), ("2", "Properties"), ("3", "Legal Proceedings"))]
    titles = [n.title for n in indexer.build_index(write_pdf(pages), "sections-10k.pdf").root.walk()]
    assert "COMPETITION" in titles and "PRODUCTS AND SERVICES" in titles, titles
    assert "Other Products and Solutions" not in titles, titles  # one in all on the page: the section's


def test_a_table_title_heading_a_section_is_named_without_its_unit():
    """Adobe's MD&A heads a section with its table's title, "Revenue (dollars in millions)": the section is "Revenue",
    the unit belongs to the figures."""
    pages = [[TextBlock(f"Item {n}. {t}", 12, True), filing_factory.PROSE] for n, t in (
        ("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"))]
    pages.append([TextBlock("Item 7. Management's Discussion and Analysis", 12, True), filing_factory.PROSE,
                  TextBlock("Revenue (dollars in millions)", 11, True), filing_factory.PROSE])
    titles = [n.title for n in indexer.build_index(write_pdf(pages), "units-10k.pdf").root.walk()]
    assert "Revenue" in titles, titles


def test_column_header_blocks_row_group_labels_and_footnoted_names_are_not_sections():
    """Nike's 10-K sets its tables' column headers in bold capitals of body size, one or two words a line ("BOOK
    VALUE" / "OUTSTANDING" / "AS OF MAY 31," / "(Dollars in millions)" / "2023 2022"), the label of a group of rows
    in bold between rows of figures ("EARNINGS BEFORE INTEREST AND TAXES"), and its directors' names with footnote
    marks ("Timothy Cook(3)(5)"): none opens a section. A page of a filing opens one unnumbered section, so each of
    them took the place of the section printed below it ("CASH FLOW HEDGES", in a larger size, over its text)."""
    b = partial(TextBlock, size=9, bold=True)
    prose = partial(TextBlock, size=9)
    pages = [[TextBlock(f"Item {n}. {t}", 14, True), prose(filing_factory.PROSE)] for n, t in (
        ("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"))]
    pages.append([TextBlock("Item 7. Management's Discussion and Analysis", 14, True), prose(filing_factory.PROSE),
                  prose("Long-term debt comprises the following:"), b("BOOK VALUE"), b("OUTSTANDING"),
                  b("AS OF MAY 31,"), prose("(Dollars in millions)"), b("ORIGINAL PRINCIPAL INTEREST RATE"),
                  b("2023 2022"), prose("Notes due 2027 500 499"), prose("Notes due 2030 1,000 998"),
                  TextBlock("CASH FLOW HEDGES", 12, True), prose(filing_factory.PROSE)])
    pages.append([prose(filing_factory.PROSE), prose("Revenues"), prose("North America 21,608 18,353"),
                  prose("Europe 13,418 12,479"), b("EARNINGS BEFORE INTEREST AND TAXES"),
                  prose("North America 5,454 5,114"), prose("Europe 3,531 3,293"),
                  TextBlock("GEOGRAPHIC INFORMATION", 12, True), prose(filing_factory.PROSE)])
    pages.append([TextBlock("Item 8. Financial Statements and Supplementary Data", 14, True),
                  b("Consolidated Balance Sheets"), b("(In millions)"), b("MAY 31,"), b("2023 2022"),
                  prose("Cash and equivalents 7,441 8,574"), prose("Total assets 37,531 40,321")])
    pages.append([TextBlock("Item 10. Directors, Executive Officers and Corporate Governance", 14, True),
                  b("Timothy Cook(3)(5)"), prose("Chief Executive Officer"), prose("Apple Inc."),
                  b("Alan Graf, Jr.(2)"), prose("Former Executive Vice President"), prose(filing_factory.PROSE)])
    pages.append([prose(filing_factory.PROSE), prose("(Dollars in millions)"), b("2027"), b("2028"), b("THEREAFTER"),
                  prose("Fixed rate debt $ 500 $ 1,000 $ 3,000"), TextBlock("LIQUIDITY", 12, True),
                  prose(filing_factory.PROSE)])
    pages.append([prose(filing_factory.PROSE), b("MAY 31, 2023"), b("DERIVATIVE ASSETS"), b("DERIVATIVE LIABILITIES"),
                  prose("(Dollars in millions)"), *map(b, ("ASSETS AT", "FAIR VALUE", "OTHER", "CURRENT", "ASSETS",
                                                            "OTHER", "LONG-TERM", "ASSETS", "LIABILITIES", "AT FAIR",
                                                            "VALUE", "ACCRUED", "LIABILITIES")),
                  prose("Level 2:"), prose("Foreign exchange forwards and options"), prose("$ 557 $ 493 $ 64"),
                  TextBlock("FAIR VALUE HEDGES", 12, True), prose(filing_factory.PROSE)])
    titles = [n.title for n in indexer.build_index(write_pdf(pages), "tables-10k.pdf").root.walk()]
    for heading in ("CASH FLOW HEDGES", "GEOGRAPHIC INFORMATION", "Consolidated Balance Sheets", "LIQUIDITY",
                    "FAIR VALUE HEDGES"):
        assert heading in titles, (heading, titles)
    for trap in ("BOOK VALUE", "EARNINGS BEFORE", "Timothy Cook", "Alan Graf", "MAY 31", "THEREAFTER",
                 "DERIVATIVE"):
        assert not any(t.startswith(trap) for t in titles), (trap, titles)


def test_a_clause_set_in_bold_is_not_a_section():
    """An agreement bound with a filing sets its defined terms and parties in bold, ending in a comma or semicolon
    ("Permitted Bond Hedge Transaction;", "BNP PARIBAS,"), or half a title whose other half was not read with it
    ("CERTIFICATION PURSUANT TO", "AND INCENTIVE PAYMENTS"): clauses, not titles; the page's section is the title
    below them ("EXHIBIT A": a title may end on a letter)."""
    b = partial(TextBlock, size=9, bold=True)
    prose = partial(TextBlock, size=9)
    pages = [[TextBlock(f"Item {n}. {t}", 14, True), prose(filing_factory.PROSE)] for n, t in (
        ("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"))]
    pages.append([prose(filing_factory.PROSE), b("Permitted Bond Hedge Transaction;"), prose(filing_factory.PROSE),
                  b("DEFINITIONS AND ACCOUNTING TERMS"), prose(filing_factory.PROSE)])
    pages.append([prose(filing_factory.PROSE), b("BNP PARIBAS,"), prose("as Syndication Agent"),
                  b("SIGNATURE PAGES"), prose(filing_factory.PROSE)])
    pages.append([prose(filing_factory.PROSE), b("CERTIFICATION PURSUANT TO"), prose(filing_factory.PROSE),
                  b("AND INCENTIVE PAYMENTS"), prose(filing_factory.PROSE), b("EXHIBIT A"), prose(filing_factory.PROSE)])
    titles = [n.title for n in indexer.build_index(write_pdf(pages), "clauses-10k.pdf").root.walk()]
    for heading in ("DEFINITIONS AND ACCOUNTING TERMS", "SIGNATURE PAGES", "EXHIBIT A"):
        assert heading in titles, (heading, titles)
    for trap in ("Permitted Bond", "BNP PARIBAS", "CERTIFICATION PURSUANT", "AND INCENTIVE"):
        assert not any(t.startswith(trap) for t in titles), (trap, titles)


def test_a_title_over_its_table_stays_a_section():
    """What tells a block of column headers from a title over its table (a review of the rule above): a title over
    one subtitle and the years ("RESULTS OF OPERATIONS" / "Net Sales" / "2021", Costco), a title naming its table's
    unit ("Product Development (in thousands, except for percentages)", Block), a title's lines over the unit in
    their style ("SCHEDULE II" / … / "(Amounts in millions)", Activision), a 10-Q's condensed statement and a form's
    name with a footnote's letter ("Schedule 13D(a)"), a table's title over more column headers than a block is read
    for (PepsiCo's "Issuer Purchases of Common Stock") and a title opening on a word in capitals that is no
    conjunction ("OR Scheduling") are sections; a column header naming the balance sheet ("Balance Sheet" /
    "Location", Nike) is not."""
    b = partial(TextBlock, size=9, bold=True)
    prose = partial(TextBlock, size=9)
    pages = [[TextBlock(f"Item {n}. {t}", 14, True), prose(filing_factory.PROSE)] for n, t in (
        ("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"))]
    pages.append([prose(filing_factory.PROSE), b("RESULTS OF OPERATIONS"), b("Net Sales"), b("2021 2020 2019"),
                  prose("Net sales $ 192,052 $ 163,220 $ 149,351")])
    pages.append([prose(filing_factory.PROSE), b("Product Development (in thousands, except for percentages)"),
                  b("Year Ended December 31,"), b("2015 to 2016"), b("2014 to 2015"), b("2016 2015 2014"),
                  prose("Product development $ 268,537 $ 199,638 $ 144,637")])
    pages.append([b("SCHEDULE II"), b("KESTREL VALVE CORPORATION"), b("VALUATION AND QUALIFYING ACCOUNTS"),
                  b("(Amounts in millions)"), TextBlock("Col. A Description", 7, True),
                  TextBlock("Col. B Balance at Beginning of Period", 7, True), TextBlock("Col. C Additions", 7, True),
                  prose("Allowance for doubtful accounts 12 3 (4) 11")])
    pages.append([TextBlock("Item 1. Financial Statements", 14, True),
                  b("Condensed Consolidated Statements of Cash Flows"), b("(in millions)"), b("Six Months Ended"),
                  b("June 30,"), b("2023 2022"), prose("Net income $ 512 $ 488")])
    pages.append([prose(filing_factory.PROSE), b("Schedule 13D(a)"), prose(filing_factory.PROSE),
                  b("Balance Sheet"), b("Location"), b("Fair Value"), b("Notional"), b("2023 2022"),
                  prose("Prepaid expenses 412 380")])
    pages.append([prose("A summary of our repurchases is set forth in the table below."),
                  b("Issuer Purchases of Common Stock"), *map(b, (
                      "Period", "Total", "Number of", "Shares", "Repurchased", "Average", "Price Paid", "Per Share",
                      "Total Number", "of Shares", "Purchased as", "Part of Publicly", "Announced", "Maximum", "Value",
                      "Remaining")), prose("October 2022 1.2 $ 176.01 $ 8,010")])
    pages.append([prose(filing_factory.PROSE), b("OR Scheduling"), prose(filing_factory.PROSE)])
    titles = [n.title for n in indexer.build_index(write_pdf(pages), "titles-10k.pdf").root.walk()]
    for heading in ("RESULTS OF OPERATIONS", "Product Development", "SCHEDULE II",
                    "Condensed Consolidated Statements of Cash Flows", "Schedule 13D(a)",
                    "Issuer Purchases of Common Stock", "OR Scheduling"):
        assert heading in titles, (heading, titles)
    assert "Balance Sheet" not in titles, titles
