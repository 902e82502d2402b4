"""Section trees from generated PDFs: outline, font-size headings, topic groups, splits, fan-out."""
from __future__ import annotations

import pytest

import filing_factory
import pdf_factory
from alphasearch.index import indexer
from alphasearch.index.headings import heading_like
from alphasearch.index.grouping import stays_flat
from alphasearch.models import Section
from alphasearch.pdf import TextBlock

H1 = pdf_factory.H1

TOPICS = {
    "orchard": "Apple trees in the orchard are pruned in winter; pears and plums ripen in the orchard by late "
               "summer, and the harvest of apples fills crates of fruit for cider presses and jam.",
    "railway": "The railway timetable lists locomotives, carriages and platforms; the train to the coast "
               "departs from platform four, and the signal box controls every track and level crossing.",
    "astronomy": "Telescopes observe planets, galaxies and nebulae; the observatory measures starlight, "
                 "comets and the orbit of every moon, and astronomers photograph eclipses at night.",
}


def check_invariants(root: Section, page_count: int, max_leaf: int, *, shared_pages: bool = False) -> None:
    """Leaves cover pages 1..page_count in order without gaps or overlap (``shared_pages``: sections that
    start on one page may share it, no more); children stay inside their parent; no leaf is longer than
    max_leaf pages; fan-out is bounded (but for a flat kind's siblings: Items under a Part)."""
    leaves = list(root.leaves())
    assert leaves[0].pages[0] == 1 and leaves[-1].pages[1] == page_count
    for a, b in zip(leaves, leaves[1:]):
        assert b.pages[0] == a.pages[1] + 1 or (shared_pages and b.pages[0] == a.pages[1]), (a, b)
    for node in root.walk():
        assert node.pages[0] <= node.pages[1]
        assert len(node.children) <= indexer.MAX_FANOUT or stays_flat([c.title for c in node.children])
        for child in node.children:
            assert node.pages[0] <= child.pages[0] and child.pages[1] <= node.pages[1]
    assert all(leaf.pages[1] - leaf.pages[0] + 1 <= max_leaf for leaf in leaves)
    ids = [n.node_id for n in root.walk()]
    assert len(ids) == len(set(ids))


def test_outline_tree(outline_pdf):
    doc = indexer.build_index(outline_pdf, "orchard.pdf")
    assert doc.tree_source == "outline"
    assert [c.title for c in doc.root.children] == ["Front matter", "Introduction", "Membership", "Orchard Care",
                                                    "Harvest", "Cider Making", "Finances"]
    assert doc.root.children[5].pages == (6, 6)
    check_invariants(doc.root, 7, 8)
    assert "600 litres" in doc.root.children[5].summary or "cider" in doc.root.children[5].summary.lower()


def test_untrusted_outline_falls_back_to_headings():
    """Outline entries whose titles are nowhere on their pages are ignored."""
    pages = [[H1(t), body] for t, body in (("Membership", "Fees are 45 euros."), ("Harvest", "Fruit in August."),
                                           ("Finances", "Income was 18,400 euros."), ("Cider", "Six weeks."))]
    toc = [(1, "Quarterly Bananas", 1), (1, "Zebra Logistics", 2), (1, "Moon Mining", 3), (1, "Volcano", 4)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=toc), "lying.pdf")
    assert doc.tree_source == "headings"
    assert [c.title for c in doc.root.children] == ["Membership", "Harvest", "Finances", "Cider"]


def test_font_size_headings_without_outline(headings_pdf):
    doc = indexer.build_index(headings_pdf, "headings.pdf")
    assert doc.tree_source == "headings"
    assert [c.title for c in doc.root.children] == ["Introduction", "Membership", "Orchard Care", "Harvest",
                                                    "Cider Making", "Finances"]
    check_invariants(doc.root, 6, 8)
    # "Notes" repeats on every page: a running header, not a heading
    assert all("Notes" not in p.headings for p in doc.pages)
    assert doc.pages[1].headings[0] == "Membership"


def test_two_heading_levels_nest():
    pages = []
    for chapter in ("Operations", "Finance"):
        pages.append([H1(chapter), "Overview of the chapter with enough words to be body text here."])
        for sub in ("Staffing", "Budget"):
            pages.append([TextBlock(f"{chapter} {sub}", 15, True), f"Details about {sub.lower()} in {chapter}."])
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "nested.pdf")
    assert doc.tree_source == "headings"
    top = doc.root.children
    assert [c.title for c in top] == ["Operations", "Finance"]
    assert [c.title for c in top[1].children] == ["Finance (introduction)", "Finance Staffing", "Finance Budget"]
    assert [c.pages for c in top[1].children] == [(4, 4), (5, 5), (6, 6)]
    check_invariants(doc.root, 6, 8)


def test_flat_text_becomes_topic_groups():
    pages = []
    for topic in ("orchard", "railway", "astronomy"):
        pages += [[TOPICS[topic] + f" Page note {i}."] for i in range(6)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "flat.pdf", max_leaf_pages=8)
    assert doc.tree_source == "topics"
    check_invariants(doc.root, 18, 8)
    starts = {leaf.pages[0] for leaf in doc.root.leaves()}
    assert {7, 13} <= starts  # cuts fall where the topic changes


def test_neighbouring_pages_on_one_topic_are_alike():
    pages = [[TOPICS["orchard"] + " First."], [TOPICS["orchard"] + " Second."], ["12 34"],
             [TOPICS["railway"] + " Third."], [TOPICS["astronomy"]]]
    _, stats = indexer.build(pdf_factory.make_pdf(pages), "topics.pdf")
    same, before_blank, after_blank, across = stats.neighbours(1, 5)[0], *stats.neighbours(2, 5)
    assert same > 0.8  # the same key terms but "first" and "second"
    assert before_blank == after_blank == 0.0  # a page of figures alone has no key terms
    assert 0.0 <= across < 0.2 * same
    assert len(stats.neighbours(1, 5)) == 4 and stats.neighbours(3, 3) == []


def test_short_flat_document_is_one_group(flat_pdf):
    doc = indexer.build_index(flat_pdf, "flat.pdf")
    assert doc.tree_source == "topics"
    check_invariants(doc.root, 5, 8)


def test_long_sections_are_split():
    pages = [[H1("Preface"), "A short preface."]]
    pages += [[TOPICS["orchard"] if i < 10 else TOPICS["railway"]] for i in range(20)]
    toc = [(1, "Preface", 1), (1, "Chapter One", 2), (1, "Appendix", 21)]
    pages[1].insert(0, H1("Chapter One"))
    pages[20].insert(0, H1("Appendix"))
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=toc), "long.pdf", max_leaf_pages=8)
    assert doc.tree_source == "outline"
    chapter = doc.root.children[1]
    assert chapter.title == "Chapter One" and chapter.pages == (2, 20)
    assert len(chapter.children) >= 3 and all(c.source == "split" for c in chapter.children)
    check_invariants(doc.root, 21, 8)


def test_many_sections_are_grouped_to_bounded_fanout():
    titles = [f"Chapter {word}" for word in ("Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu "
                                            "Nu Xi Omicron Pi Rho Sigma Tau Upsilon").split()]
    pages = [[H1(t), f"Body text of {t.lower()} describing its own matters in some detail."] for t in titles]
    toc = [(1, t, i + 1) for i, t in enumerate(titles)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=toc), "wide.pdf")
    assert len(doc.root.children) <= indexer.MAX_FANOUT
    assert len(list(doc.root.leaves())) == 20
    assert any(c.source == "group" for c in doc.root.walk())
    check_invariants(doc.root, 20, 8)


def test_image_only_pages_still_get_a_tree():
    doc = indexer.build_index(pdf_factory.image_only_pdf(3), "scan.pdf")
    check_invariants(doc.root, 3, 8)
    assert any("no text layer" in w for w in doc.warnings)


@pytest.mark.parametrize("max_leaf", [2, 3])
def test_planted_200_pages_respect_leaf_limit(big_pdf_200, max_leaf):
    doc = indexer.build_index(big_pdf_200, "big.pdf", max_leaf_pages=max_leaf)
    check_invariants(doc.root, 200, max_leaf)


def test_outline_child_starting_after_its_parents_next_sibling_page():
    """Alpha (p. 2) has a sub-entry on p. 3, where the next chapter also starts: no
    inverted ranges; Alpha reaches p. 3 and shares it with Gamma."""
    pages = [[H1("Cover Page"), "Cover text."], [H1("Alpha Chapter"), "Alpha text with several words."],
             [H1("Beta Part"), "Beta text.", H1("Gamma Chapter"), "Gamma text."], ["More gamma text."]]
    toc = [(1, "Cover Page", 1), (1, "Alpha Chapter", 2), (2, "Beta Part", 3), (1, "Gamma Chapter", 3)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=toc), "shared-page.pdf")
    assert doc.tree_source == "outline"
    assert [(c.title, c.pages) for c in doc.root.children] == [
        ("Cover Page", (1, 1)), ("Alpha Chapter", (2, 3)), ("Gamma Chapter", (3, 4))]
    assert [(c.title, c.pages) for c in doc.root.children[1].children] == [
        ("Alpha Chapter (introduction)", (2, 2)), ("Beta Part", (3, 3))]
    assert all(n.pages[0] <= n.pages[1] for n in doc.root.walk())
    assert {p for leaf in doc.root.leaves() for p in leaf.page_numbers} == {1, 2, 3, 4}


def test_a_filing_cover_outranks_a_metadata_title_naming_another_document():
    """Nike's 2023 10-K carries the metadata title "Nike 2023 Proxy": the cover's facts title the tree. A metadata
    title that names the form stays (it is the filer's own)."""
    proxy = indexer.build_index(pdf_factory.ten_k_pdf(title="Orchard 2023 Proxy"), "orchard-10k.pdf")
    assert "Proxy" not in proxy.root.title and "10-K" in proxy.root.title
    assert "orchard machines" in proxy.root.title.lower()
    own = indexer.build_index(pdf_factory.ten_k_pdf(title="Orchard Machines Form 10-K 2023"), "orchard-10k.pdf")
    assert own.root.title == "Orchard Machines Form 10-K 2023"
    # JPMorgan's 10-Q is titled "CORP Q1 2021": the cover's title keeps the quarter the metadata names
    quarter = indexer.build_index(filing_factory.quarterly_report_pdf(title="CORP Q2 2024"), "orchard-10q.pdf")
    assert "10-Q" in quarter.root.title and "Q2 FY2024" in quarter.root.title, quarter.root.title


def _all_titles(root: Section) -> list[str]:
    return [n.title for n in root.walk()]


def test_ten_k_without_outline_nests_parts_items_and_notes():
    """A 10-K whose only structure is what a reader sees: bold PART / Item / Note headings,
    a contents page, running header and footer, tables under "Year Ended December 31,"."""
    doc = indexer.build_index(pdf_factory.ten_k_pdf(), "orchard-10k.pdf")
    assert doc.tree_source == "headings"
    root = doc.root
    assert pdf_factory.ACCESSION not in root.title and "orchard machines" in root.title.lower()
    assert "10-K" in root.title and pdf_factory.ACCESSION not in doc.summary
    parts = {c.title: c for c in root.children if c.title.startswith("PART")}
    assert list(parts) == ["PART I", "PART II"]
    assert [c.title for c in parts["PART I"].children] == ["Item 1. Business", "Item 1A. Risk Factors",
                                                           "Item 2. Properties"]
    assert [c.pages for c in parts["PART I"].children] == [(3, 3), (4, 4), (5, 5)]
    items = [c.title for c in parts["PART II"].children]
    assert items == ["Item 7. Management's Discussion and Analysis",
                     "Item 8. Financial Statements and Supplementary Data"]
    item7, item8 = parts["PART II"].children
    assert [c.title for c in item7.children][-1] == "Results of Operations"
    notes = [c for c in item8.children if c.title.startswith("Note")]
    assert [(n.title, n.pages) for n in notes] == [("Note 1 - Summary of Significant Accounting Policies", (9, 9)),
                                                   ("Note 2 - Revenue", (10, 10)), ("Note 3 - Debt", (11, 12))]
    titles = _all_titles(root)
    for not_a_section in ("Year Ended December 31,", pdf_factory._HEADER, "Page 3", "2022 2021 2020", "Total revenue"):
        assert not any(t.startswith(not_a_section) for t in titles), not_a_section
    assert all(n.pages[0] != 2 or n.title in ("Front matter",) or n.source == "group" for n in root.walk()
               if n is not root and n.title.startswith(("Item", "PART")))  # contents entries are not sections
    check_invariants(root, 12, 8)


def test_summaries_quote_sentences_not_table_rows():
    doc = indexer.build_index(pdf_factory.ten_k_pdf(), "orchard-10k.pdf")
    by_title = {n.title: n for n in doc.root.walk()}
    risks = by_title["Item 1A. Risk Factors"].summary
    assert "A poor harvest season can delay orders by a full year." in risks and risks.count("A poor") == 1
    for node in doc.root.walk():
        assert "1,438,823" not in node.summary and "412,100" not in node.summary, node.title
    statements = by_title["Consolidated Statements of Income"]
    assert "Figures for:" in statements.summary and "Harvesters" in statements.summary


def test_grouping_nodes_say_what_they_hold():
    from alphasearch.index.grouping import group_title

    assert group_title(["Note 1 - Basis", "Note 2 - Revenue", "Note 9 - Debt"], 40, 52) == "Notes 1–9"
    assert group_title(["Appendix A Methods", "Appendix B Data"], 30, 33) == "Appendices A–B"
    assert group_title(["Overview", "Liquidity", "Outlook", "Risks"], 12, 18) == "Pages 12–18"


def test_a_summary_asks_whether_a_sentence_is_prose_only_of_its_best():
    from alphasearch.index.summaries import top_sentences

    idf = {f"rare{i}": 5.0 for i in range(20)}
    words = [[f"rare{j}" for j in range(8)], [f"rare{j}" for j in range(8, 14)], [f"rare{j}" for j in range(14, 20)]]
    found = [(f"sentence {i}: " + " ".join(w), w) for i, w in enumerate(words)]
    found += [(f"common words {i} here now", ["common", "words", "here", "now"]) for i in range(3, 40)]
    asked = []

    def prose(s: str) -> bool:
        asked.append(s)
        return not s.startswith("sentence 0")  # the best-scoring one is a table row, say

    assert top_sentences(found, idf, 2) == [found[0][0], found[2][0]]  # every sentence prose: the best two
    assert top_sentences(found, idf, 2, prose) == [found[1][0], found[2][0]]  # in reading order, the row left out
    assert len(asked) == 3  # of the best three only, not all 40


def test_a_summary_quotes_the_same_sentence_under_every_hash_seed():
    # a set yields its words in an order that depends on the process's hash seed, and a float sum in
    # another order can differ in its last bit (0.1 + 0.2 + 0.3 is 0.6000000000000001 one way, 0.6
    # another): two sentences worth exactly the same must tie alike in every process (the later
    # one, as for any tie), or the same PDF gets other summaries in another process
    import os
    from pathlib import Path
    import subprocess
    import sys

    code = ("from alphasearch.index.summaries import top_sentences;"
            "idf = {'alpha': 0.1, 'beta': 0.2, 'gamma': 0.3, 'zero': 0.0, 'six': 0.6};"
            "found = [('alpha beta gamma zero', ['alpha', 'beta', 'gamma', 'zero']),"
            "         ('six zero zero zero', ['six', 'zero', 'zero', 'zero'])];"
            "print(top_sentences(found, idf, 1)[0])")
    root = Path(__file__).resolve().parents[2]
    quoted = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                             cwd=root, capture_output=True, text=True, check=True).stdout.strip()
              for seed in range(12)}
    assert quoted == {"six zero zero zero"}


def test_key_terms_add_up_the_pages_of_each_section():
    """Each node's key terms are the terms of its pages (a node: its children's counts added up) with the
    highest count x idf, the term later in sort order first on equal scores: checked against counting
    every node's pages afresh with Counters."""
    from collections import Counter

    names = list(TOPICS)
    pages = [[H1(f"Part {i + 1}: {names[i % 3].title()}"), TOPICS[names[i % 3]] + " " + TOPICS[names[(i + 1) % 3]][:80]]
             for i in range(14)]
    index, stats = indexer.build(pdf_factory.make_pdf(pages), "parts.pdf", max_leaf_pages=3)

    def expected(node) -> Counter:
        if node.children:
            return sum((expected(c) for c in node.children), Counter())
        return sum((stats.counts[p - 1] for p in node.page_numbers), Counter())

    checked = 0
    for node in index.root.walk():
        counts = expected(node)
        best = sorted(((n * stats.term_idf[t], t) for t, n in counts.items()), reverse=True)[:8]
        assert node.summary.endswith("Key terms: " + ", ".join(stats.shown[t] for _, t in best) + "."), node
        checked += 1
    assert checked > 5 and any(node.children for node in index.root.walk())


def test_five_numbered_sections_on_one_page_with_text_are_sections_a_numbered_list_is_not():
    """A page of short sections ("3" / "Method" in bold, a paragraph under each) is not a contents page
    though it holds five numbered headings; a list of bold numbers each over a plain sentence ("5" /
    "Same as for level 4, but …") stays text."""
    para = ("The method section explains how the measurements were taken, which instruments were used and "
            "how each sample was prepared before the tests began.")
    pages = [[TextBlock("1", 13, True), TextBlock("Introduction", 13, True), para, para]]
    pages.append([x for k, name in enumerate(("Method", "Data", "Results", "Discussion", "Limits"), 2)
                  for x in (TextBlock(str(k), 13, True), TextBlock(name, 13, True), para)])
    pages.append([TextBlock("Quality levels", 12, True), para]
                 + [x for k in range(7, 12)
                    for x in (TextBlock(str(k), 11, True), f"Same as for level {k - 1}, but with stronger wet",
                              "pressing.")])
    pages.append([TextBlock("7", 13, True), TextBlock("Conclusion", 13, True), para])
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "paper.pdf")
    titles = [n.title for n in doc.root.walk() if n is not doc.root]
    for k, name in enumerate(("Method", "Data", "Results", "Discussion", "Limits"), 2):
        assert f"{k} {name}" in titles
    assert "7 Conclusion" in titles  # the list's numbers did not break the sections' numbering
    assert not any("Same as" in t for t in titles), titles
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_a_two_column_paper_keeps_its_numbered_sections_and_not_its_affiliations():
    """A two-column paper sets "3" / "Method" apart on one line and its text in short lines that wrap into the
    next ("… to generate" / "knowledge-aware …"): five numbered headings on a page over such text are sections,
    not a contents page. The affiliations under the title ("1 University of Leeds", set large, not bold) are not
    sections 1 and 2: the bold "1 Introduction" and "2 Task and Data" are. A table's caption is no section."""
    column = ["We build a baseline that enables models to generate", "knowledge-aware attributed answers. Following",
              "the approach of many retrieval augmented gener-", "ation works, we retrieve a set of facts first"]
    pages = [[TextBlock("Towards Verifiable Generation", 16, True), TextBlock("1 University of Leeds", 13),
              TextBlock("2 Institute of Science and Technology", 13), TextBlock("Abstract", 13, True), *column,
              TextBlock("1", 13, True), TextBlock("Introduction", 13, True), *column],
             [TextBlock("2", 13, True), TextBlock("Task and Data", 13, True), *column]]
    page = []
    for k, (name, subs) in enumerate((("Method", ("Retrieval", "Re-ranking")),
                                      ("Evaluation Metrics", ("Text Evaluation",))), 3):
        page += [TextBlock(str(k), 13, True), TextBlock(name, 13, True), *column]
        for j, sub in enumerate(subs, 1):
            page += [TextBlock(f"{k}.{j}", 11, True), TextBlock(sub, 11, True), *column]
    pages += [page, [TextBlock("Table 2: Accuracy of the baselines", 13, True), "Model A 71.2 68.4", *column],
              [TextBlock("5", 13, True), TextBlock("Conclusion", 13, True), *column]]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "paper.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    for title in ("1 Introduction", "2 Task and Data", "3 Method", "3.2 Re-ranking", "4 Evaluation Metrics",
                  "4.1 Text Evaluation", "5 Conclusion"):
        assert title in titles, "; ".join(f"{t} {n.pages}" for t, n in titles.items())
    assert not any("Leeds" in t or "Institute" in t or t.startswith("Table") for t in titles), list(titles)
    assert [c.title for c in titles["3 Method"].children][-2:] == ["3.1 Retrieval", "3.2 Re-ranking"]
    # "2" / "A Simple Baseline": a section's title may begin with a letter that reads as an appendix's number
    pages[1] = [TextBlock("2", 13, True), TextBlock("A Simple Baseline", 13, True), *column]
    titles = [n.title for n in indexer.build_index(pdf_factory.make_pdf(pages), "paper.pdf").root.walk()]
    assert "2 A Simple Baseline" in titles, titles


def test_a_large_title_wrapped_in_a_narrow_column_is_one_title():
    """An appliance manual sets its titles large in a narrow side column, a word or two a line ("Before" / "Using
    Your" / "Refrigerator", "Cleaning" / "your" / "refrigerator"): each is one title; among numbered sections, one
    whose lines go on in lower case."""
    para = ("Remove tape and any inside labels before using the refrigerator. Do not remove the Tech Sheet fastened "
            "under the refrigerator near the floor, and wash the shelves with warm water before you fill them.")
    wrapped = {"Before Using Your Refrigerator": ("Before", "Using Your", "Refrigerator"),
               "Cleaning your refrigerator": ("Cleaning", "your", "refrigerator"),
               "Food Storage Guide": ("Food Storage", "Guide"), "Removing the doors": ("Removing", "the doors")}
    plain = [[TextBlock(line, 24) for line in lines] + [para, para] for lines in wrapped.values()]
    numbered = [[TextBlock(f"{k} {chapter}", 18, True), para, *[TextBlock(line, 15) for line in lines], para]
                for k, (chapter, lines) in enumerate(zip(("Safety", "Setup", "Storage", "Service"), wrapped.values()), 1)]
    lower = {t: lines for t, lines in wrapped.items() if all(x[:1].islower() for x in lines[1:])}
    for pages, want in ((plain, wrapped), (numbered, lower)):  # among numbered sections: a line in lower case
        doc = indexer.build_index(pdf_factory.make_pdf(pages), "manual.pdf")  # carries on the title above it
        titles = [n.title for n in doc.root.walk() if n is not doc.root]
        assert all(t in titles for t in want) and (pages is plain or "3 Storage" in titles), titles
        assert not any(t in titles for lines in want.values() for t in lines), titles


def test_an_opening_paragraph_set_larger_than_the_text_is_no_section():
    """A coffee machine's manual opens each section with a paragraph in larger type ("At Kestrel, safety is one of
    the most essential" / "product features. The effectiveness of the" / …): its first line reads like a title,
    but it runs on into a sentence, so it is text."""
    para = ("Descale the machine every month and replace the water filter when the display asks for it, so that "
            "the brewer and the milk system stay clean.")
    pages = [[TextBlock(f"{k} {name}", 16, True),
              *[TextBlock(x, 13) for x in (f"At Kestrel, {name.lower()} is one of the most essential",
                                           "product features. The effectiveness of the", "safety devices can only be",
                                           "ensured if the points below are observed:")], para, para]
             for k, name in enumerate(("Safety", "Introduction", "Operation", "Care"), 1)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "manual.pdf")
    titles = [n.title for n in doc.root.walk() if n is not doc.root]
    assert "3 Operation" in titles and not any(t.startswith("At Kestrel") for t in titles), titles


def test_subsections_numbered_in_capitals_are_sections_a_numbered_paragraph_is_not():
    """A paper sets "4.1" over "TASKS" in body-size capitals (no bold, no larger size): a subsection. A
    contribution list's bold "2. Naively finetuning is not enough. Despite …" runs on into its sentence:
    not a section."""
    para = ("We consider twenty popular classification datasets covering ethics, commonsense reasoning and "
            "sentiment analysis, and we convert each of them to a binary task.")
    pages = [[TextBlock("1", 13), TextBlock("INTRODUCTION", 13), para,
              TextBlock("2. Naively finetuning on weak labels is not enough. Despite the gains we see", 11, True),
              para]]
    for k, (name, subs) in enumerate((("METHODS", ("SETUP", "MODELS")), ("MAIN RESULTS", ("TASKS", "BASELINES")),
                                      ("DISCUSSION", ("LIMITS", "FUTURE WORK"))), 2):
        page = [TextBlock(str(k), 13), TextBlock(name, 13), para]
        for j, sub in enumerate(subs, 1):
            page += [f"{k}.{j}", sub, para, para]
        pages.append(page)
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "paper.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    assert "3.1 TASKS" in titles and "4.2 FUTURE WORK" in titles, list(titles)
    assert titles["3 MAIN RESULTS"].children and all(c.title.startswith("3.") or "introduction" in c.title
                                                     for c in titles["3 MAIN RESULTS"].children)
    assert not any(t.startswith("2. Naively") for t in titles) and "2 METHODS" in titles, list(titles)
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def _manual() -> bytes:
    """A watch manual: each chapter opens with its name in 26 pt, which then runs small at the top of its other
    pages; a page opens several 20 pt sections; steps are numbered in 15 pt."""
    para = ("Press and hold the Up button until the watch vibrates, then follow the instructions on the screen "
            "to finish the setup in the app on your phone.")
    chapters = {"Getting Started": [["Buttons and screen control", "Wearing the watch"], ["Charging"],
                                    ["Updating the watch", "Restarting the watch"]],
                "Blood Pressure Management": [["Measuring blood pressure", "Reading the results"], ["Precautions"]],
                "Care for Health": [["Measuring SpO2", "Sleep monitoring"], ["Skin temperature"]]}
    pages, step = [], 0
    for chapter, chapter_pages in chapters.items():
        for k, sections in enumerate(chapter_pages):
            page = [TextBlock(chapter, 26, True)] if k == 0 else [TextBlock(chapter, 8)]
            for section in sections:
                step += 1
                page += [TextBlock(section, 20, True), para, TextBlock(f"{step % 3 + 1} Wear your watch", 15), para]
            pages.append(page)
    return pdf_factory.make_pdf(pages)


def test_a_chapter_title_that_runs_as_the_header_heads_its_chapter_and_a_page_opens_several_sections():
    """A chapter's name printed small over every page of the chapter is a running header there, but its large
    occurrence on the chapter's first page is the chapter's title; a manual's page opens several sections."""
    doc = indexer.build_index(_manual(), "watch.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    for chapter in ("Getting Started", "Blood Pressure Management", "Care for Health"):
        assert chapter in titles and titles[chapter] in doc.root.children, [n.title for n in doc.root.children]
    started = [c.title for c in titles["Getting Started"].children]
    assert "Buttons and screen control" in started and "Wearing the watch" in started, started  # one page, two
    assert "Restarting the watch" in started, started
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_a_section_of_blank_pages_first_among_its_siblings_is_summarised():
    """A node adds its children's key-term counts up in place; a first child whose pages hold no words (a blank
    cover) counted in integers and the next child's counts could not be added: indexing the document failed."""
    para = "The pump delivers forty litres a minute at full load and needs service every two thousand hours."
    pages = [[""], [TextBlock("Part A", 16, True), para], [TextBlock("Part B", 16, True), para]]
    toc = [(1, "Everything", 1), (2, "Cover", 1), (2, "Part A", 2), (2, "Part B", 3)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages, toc=toc), "manual.pdf")
    titles = [n.title for n in doc.root.walk()]
    assert "Cover" in titles and "Part B" in titles, titles


def test_a_page_number_over_the_running_header_is_no_numbered_section():
    """A survey report prints its page number, then its publisher's name, at the top of every page: "8" over
    "PEW RESEARCH CENTER" read as a numbered heading made every page a section titled "8 PEW RESEARCH CENTER"."""
    para = ("Most adults say the country can learn from other nations about slowing the outbreak, and the view "
            "is more common among those with a college degree than among those without one.")
    chapters = {1: "Views of China", 4: "Trust in the World Health Organization", 7: "Learning from abroad"}
    pages = [[str(k), "HARBOR RESEARCH CENTER"] + ([TextBlock(chapters[k], 16, True)] if k in chapters else [])
             + [para, para] for k in range(1, 10)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "survey.pdf")
    titles = [n.title for n in doc.root.walk()]
    assert not any("HARBOR RESEARCH CENTER" in t for t in titles), titles
    assert all(t in titles for t in chapters.values()), titles


def _sphinx_manual() -> bytes:
    """A manual laid out as Sphinx/LaTeX prints one: each chapter opens with "CHAPTER" / "TWO" / "INSTALLATION" on
    three lines; sections are numbered "2.1", several to a page, some with short titles ("3.2.2 GHM", whose 3.2.1 is
    not printed); every other
    page ends with its page number before the chapter's running title ("4 Chapter 2. Installation", bold), which
    reads like a numbered section."""
    para = ("Install the package with pip, then check that the command line tool runs and prints its version "
            "before you train a model on your own data.")
    chapters = [("ONE", "PREREQUISITES", ["Supported systems", "Python versions"]),
                ("TWO", "INSTALLATION", ["Prepare environment", "Install the package", "Verify the install"]),
                ("THREE", "MODEL ZOO", ["Mirror sites", "Baselines", "GHM", "ATSS", "Common settings"])]
    pages, printed = [], 0
    for k, (word, title, sections) in enumerate(chapters, 1):
        head = [TextBlock("CHAPTER", 11, True), TextBlock(word, 15, True), TextBlock(title, 15, True)]
        for j in range(0, len(sections), 2):
            printed += 1
            page = (head if j == 0 else []) + [x for s, name in enumerate(sections[j:j + 2], j + 1)
                                                for x in (TextBlock(_number(k, s, name), 13, True), para, para)]
            if printed % 2 == 0:
                page.append(TextBlock(f"{printed} Chapter {k}. {title.title()}", 11, True))
            pages.append(page)
    return pdf_factory.make_pdf(pages)


def _number(chapter: int, section: int, name: str) -> str:
    """Chapter 3's "GHM" and "ATSS" are 3.2.2 and 3.2.3 under "3.2 Baselines", whose 3.2.1 the page never prints."""
    if chapter == 3 and name in ("GHM", "ATSS"):
        return f"3.2.{section - 1} {name}"
    return f"{chapter}.{section - 2 if chapter == 3 and section == 5 else section} {name}"


def test_a_sphinx_manual_keeps_every_numbered_section_and_its_chapters_spelled_in_words():
    """The chapters spelled in words are chapters ("Chapter 2: INSTALLATION"), not "TWO"; a folio before the
    running title ("2 Chapter 1. Prerequisites") taken for section 2 no longer drops the true sections after it
    (the longest run of numbers that follow one another is kept); a short title after its number ("3.2.2 GHM") is
    a heading; a first child numbered .2 follows its parent when the .1 was not read."""
    doc = indexer.build_index(_sphinx_manual(), "mmdet.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    tops = [n.title for n in doc.root.children]
    assert tops == ["Chapter 1: PREREQUISITES", "Chapter 2: INSTALLATION", "Chapter 3: MODEL ZOO"], tops
    for want in ("2.1 Prepare environment", "2.3 Verify the install", "3.2 Baselines", "3.2.2 GHM", "3.2.3 ATSS",
                 "3.3 Common settings"):
        assert want in titles, list(titles)
    assert not any(t in ("ONE", "TWO", "THREE") or "Chapter 1. Prerequisites" in t for t in titles), list(titles)
    assert [c.title for c in titles["Chapter 2: INSTALLATION"].children][:3] == [
        "2.1 Prepare environment", "2.2 Install the package", "2.3 Verify the install"]
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_sections_after_chapters_without_sections_keep_their_numbers():
    """Chapters 3–5 of a manual have no numbered sections: 6.1 does not follow 2.3, but it follows "CHAPTER" /
    "SIX", so chapter 6's sections stay (mmdetection's chapters 20–32 had lost theirs)."""
    para = ("Install the package with pip, then check that the command line tool runs and prints its version "
            "before you train a model on your own data.")
    chapters = [("ONE", "PREREQUISITES", ["Supported systems", "Python versions", "Drivers"]),
                ("TWO", "INSTALLATION", ["Prepare environment", "Install the package", "Verify the install"]),
                ("THREE", "MODEL ZOO", []), ("FOUR", "FAQ", []), ("FIVE", "CONVENTIONS", []),
                ("SIX", "CHANGELOG", ["Highlights", "New features", "Bug fixes"])]
    pages = [[TextBlock("CHAPTER", 11, True), TextBlock(word, 15, True), TextBlock(title, 15, True), para]
             + [x for j, name in enumerate(sections, 1) for x in (TextBlock(f"{k}.{j} {name}", 13, True), para)]
             for k, (word, title, sections) in enumerate(chapters, 1)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "manual.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    assert [c.title for c in titles["Chapter 6: CHANGELOG"].children][-3:] == [
        "6.1 Highlights", "6.2 New features", "6.3 Bug fixes"], list(titles)
    assert "2.3 Verify the install" in titles
    # a chapter set as "2 Use" on its first page, listed as "Chapter 2: Use" on the contents page, is its own link
    contents = [TextBlock("Contents", 20, True)] + [TextBlock(f"Chapter {k}: {name}", 14, True)
                                                    for k, name in enumerate(("Setup", "Use", "Help", "Care"), 1)]
    pages = [contents] + [[TextBlock(f"{k} {name}", 24, True), para, para]
                          for k, name in enumerate(("Setup", "Use", "Help", "Care"), 1)]
    titles = [n.title for n in indexer.build_index(pdf_factory.make_pdf(pages), "guide.pdf").root.walk()]
    assert all(f"{k} {name}" in titles for k, name in enumerate(("Setup", "Use", "Help", "Care"), 1)), titles


def test_a_page_number_over_a_title_is_no_section_number():
    """A guide prints each page's number at its top, over the page's first title ("9" / "What's in the Box" on page
    9): the title is a section under its chapter, not section 9 (which the chapters' numbering then dropped)."""
    para = ("Plug the power adapter into the laptop and a wall outlet, then press the power button briefly to turn "
            "it on and follow the assistant to set up your account.")
    pages = [[TextBlock("1 Setting Up", 20, True), para], [TextBlock("2", 7, True), TextBlock("What's in the Box", 14), para],
             [TextBlock("3", 7, True), TextBlock("Migrating Your Files", 14), para],
             [TextBlock("2 Using Your Laptop", 20, True), para], [TextBlock("5", 7, True), TextBlock("Keyboard Features", 14), para],
             [TextBlock("3 Problems and Solutions", 20, True), para]]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "guide.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    assert [c.title for c in titles["1 Setting Up"].children][-2:] == ["What's in the Box", "Migrating Your Files"], \
        list(titles)
    assert "Keyboard Features" in titles and not any(t[:1].isdigit() and "Box" in t for t in titles), list(titles)


def test_a_page_opens_several_sections_with_bold_titles_of_body_size_but_not_run_in_heads_or_labels():
    """A phone manual numbers its topics and sets its task titles in bold at body size, several to a page ("Use
    Your Knuckle to Take a Screenshot", "Take a Screenshot with a Key Shortcut"). A bold run-in head ("Models."), a caption ("Figure 2: …") and a one-word option label ("Creamy") stay text."""
    para = ("Swipe down from the upper right edge of the screen to display Control Panel, then touch the switch "
            "to turn the feature on or off as you need it.")
    pages = []
    tasks = [("Screenshots", ["Take a Screenshot with a Key Shortcut", "Use Your Knuckle to Take a Screenshot",
                              "Share or Edit a Screenshot"]),
             ("Screen Recording", ["Record with a Key Shortcut", "Record with Your Knuckles", "Stop a Recording"]),
             ("Multi-Window", ["Split the Screen in Two", "Drag Between Two Apps", "Close the Split Screen"])]
    for k, (topic, titles) in enumerate(tasks, 1):
        page = [TextBlock(f"{k} {topic}", 16, True), para]
        for title in titles:
            page += [TextBlock(title, 11, True), para]
        if k == 2:  # once only: a label repeated on three pages is dropped as a running label anyway
            page += [TextBlock("Creamy", 11, True), para, TextBlock("Figure 2: The panel after a swipe", 11, True),
                     TextBlock("Models.", 11, True), para, TextBlock("Settings > Display > Full screen", 11, True),
                     para, TextBlock("Browse the previews: swipe up on the screen", 11, True), para,
                     TextBlock("Performance w.r.t label number. Compared with", 11, True), para]
        pages.append(page)
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "phone.pdf")
    found = [n.title for n in doc.root.walk() if n is not doc.root]
    for _, titles in tasks:
        assert all(t in found for t in titles), found
    assert not any(t in ("Creamy", "Models.") or t.startswith(("Figure 2", "Settings >", "Browse", "Performance"))
                   for t in found), found
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_a_numbered_title_is_judged_by_its_words_after_the_number():
    """"4.4.21 GHM" is a heading (its title is letters); "4.4.21 12" is not (the number of a table row)."""
    assert heading_like("4.4.21 GHM", numbered=True) and heading_like("3.2 YOLOX", numbered=True)
    assert not heading_like("4.4.21 12", numbered=True) and not heading_like("4.4.21 GHM")


def test_a_bold_line_ending_as_a_sentence_or_a_lead_in_opens_no_section():
    """A bold line of body size that ends with a period or a colon is a run-in head ("Advantages.") or the lead-in
    of a list ("To set up your laptop:"), not a section's title, even as the first under its page's heading; a
    title that ends on an abbreviation ("… knife, etc.") still is one, and so is a title in title case that a
    report's style ends with a colon ("Battery Care and Storage:")."""
    para = ("Open the lid and press the power button briefly; the setup assistant starts and asks for your "
            "network, your account and the language you want to use.")
    heads = ("To set up your laptop:", "Advantages.", "Cleaning the Keyboard, Screen, etc.", "Battery Care and Storage:")
    pages = [[TextBlock(f"{k} {topic}", 16, True), para, TextBlock(head, 11, True), para]
             for k, (topic, head) in enumerate(zip(("Getting Started", "Daily Use", "Care", "Power"), heads), 1)]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "laptop.pdf")
    found = [n.title for n in doc.root.walk() if n is not doc.root]
    assert "Cleaning the Keyboard, Screen, etc." in found and "Battery Care and Storage:" in found, found
    assert "To set up your laptop:" not in found and "Advantages." not in found, found


def test_numbered_steps_ending_as_sentences_are_no_sections():
    """A manual numbers its chapters ("2 Camera", bold) and, in figures larger than their text, the steps of its
    tasks ("1 Touch and hold the … icon.", "2 To finish …:"): a step ends as a sentence or a lead-in does, so it
    is no numbered section. Were it one, the steps, more than the chapters and set as most numbers are, would take
    the chapters' numbers and the task titles above them."""
    para = ("You can group similar apps in a folder and name the folder for better management of the apps on "
            "your home screen.")
    pages = []
    for k, (chapter, tasks) in enumerate((("Getting Started", ["Create a Large Folder", "Rename a Folder"]),
                                          ("Camera", ["Take Timed Photos", "Use Audio Control"]),
                                          ("Settings", ["Set the Screen Timeout", "Change the Wallpaper"])), 1):
        for j, task in enumerate(tasks):
            page = [TextBlock(f"{k} {chapter}", 20, True), para] if j == 0 else []
            page += [TextBlock(task, 11, True), para, TextBlock(f"1 Touch and hold the {task.lower()} icon.", 13),
                     TextBlock(f"2 To finish {task.lower()}:", 13), para]
            pages.append(page)
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "phone.pdf")
    found = [n.title for n in doc.root.walk() if n is not doc.root]
    for title in ("1 Getting Started", "2 Camera", "3 Settings", "Create a Large Folder", "Take Timed Photos",
                  "Change the Wallpaper"):
        assert title in found, found
    assert not any(t.startswith(("1 Touch", "2 To finish")) for t in found), found
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_steps_still_mark_a_page_of_numbered_lines_as_a_list():
    """A list of quality levels in bold ("2" / "After pressing, the coffee is brewed immediately.", "5" / "Same as
    for level 4, but with stronger wet" / "pressing."): those that end as sentences are steps, no sections, but
    they still count among the page's numbered lines, so the page reads as a list and its "5" does not take the
    number of the chapter "5 Other settings" after it."""
    para = ("The grinder must be set while the machine is running, and each change takes effect with the next "
            "brewing cycle of the coffee machine.")
    pages = [[TextBlock(f"{k} {name}", 14, True), para, para]
             for k, name in enumerate(("Safety", "Introduction", "Operation"), 1)]
    levels = [TextBlock("Quality levels", 11, True), para]
    for k, text in enumerate(("After pressing, space is provided for the ground", "After pressing, the coffee is "
                              "brewed immediately.", "After pressing, a pre-infusion occurs.",
                              "After pressing and a pre-infusion, wet pressing", "Same as for level 4, but with "
                              "stronger wet", "Same as for level 5, but with stronger and"), 1):
        levels += [TextBlock(str(k), 11, True), text, "coffee to swell." if k == 1 else "pressing."]
    pages.append([TextBlock("4 Software", 14, True), para, *levels])
    pages += [[TextBlock(f"{k} {name}", 14, True), para, para] for k, name in ((5, "Other settings"), (6, "Care"))]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "coffee.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    assert "5 Other settings" in titles and titles["5 Other settings"].pages[0] == 5, list(titles)
    assert not any(t.startswith(("5 Same", "2 After")) for t in titles), list(titles)


def test_a_manual_page_opens_up_to_four_sections_of_each_heading_style():
    """A phone manual's page opens two topics (14 pt, bold) and under them four tasks (bold at body size): six
    sections on one page, each counted against the sections of its own style, not the page's."""
    para = ("Go to Settings, touch the feature you want to change and follow the onscreen instructions; the "
            "change takes effect at once.")
    pages = []
    for k, chapter in enumerate(("Display", "Security", "Storage"), 1):
        page = [TextBlock(f"{k} {chapter}", 18, True), para]
        for topic in ("Adjust the Brightness", "Use Eye Comfort Mode"):
            page += [TextBlock(f"{topic} of the {chapter}", 14, True), para]
            for task in ("Set a Schedule", "Turn the Filter Off"):
                page += [TextBlock(f"{task} for {topic.split()[-1]} on the {chapter}", 11, True), para]
        pages.append(page)
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "phone.pdf")
    found = [n.title for n in doc.root.walk() if n is not doc.root]
    for chapter in ("Display", "Security", "Storage"):
        assert f"Use Eye Comfort Mode of the {chapter}" in found, found
        assert f"Turn the Filter Off for Mode on the {chapter}" in found, found
    check_invariants(doc.root, doc.page_count, 8, shared_pages=True)


def test_a_section_title_repeated_large_atop_each_of_its_pages_opens_it_on_the_first():
    """An inspection report prints each section's title in 26 pt at the top of every one of its pages ("Is the
    service safe?" over pages 1–3): repeated on many pages, it reads as a running line, but a line set this large
    is a title, and the first page of each run of pages it tops opens its section; a banner set as large on more
    than half of the pages (the home's name on every right-hand page and the last) is no section's title."""
    words = ("medicines", "staffing", "training", "records", "meals", "visits", "laundry", "gardens", "activities",
             "complaints", "audits", "premises")
    titles = ("Is the service safe?", "Is the service effective?", "Is the service caring?")
    pages, n = [], 0
    for title, count in zip(titles, (3, 3, 4)):
        for _ in range(count):
            topic = words[n % len(words)]
            banner = [TextBlock("The Limes Care Home", 26)] if n % 2 == 0 or n == 9 else []
            pages.append([*banner, TextBlock(title, 26), f"Inspectors looked at the {topic} of the home on page "
                          f"{n + 1}.", f"People told us the {topic} were managed well and staff knew what to do about "
                          f"{topic}."])
            n += 1
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "report.pdf")
    assert doc.tree_source == "headings"  # not pages grouped by topic, titled by their first lines
    starts = {n.title: n.pages[0] for n in doc.root.walk() if n is not doc.root and n.source not in ("group", "split")}
    assert starts.get("Is the service safe?") == 1 and starts.get("Is the service effective?") == 4 \
        and starts.get("Is the service caring?") == 7, starts
    assert "The Limes Care Home" not in starts, starts


def test_numbered_sections_over_bulleted_lists_are_no_contents_page():
    """A changelog's page sets five numbered headings, each over a bulleted list of short items ("2.2.1 New
    Features" / "- Support QueryInst (#6050)", the writer's font has no "•"): no sentence follows any of them,
    but a bulleted item is a section's text, which no contents page holds, so the page's headings stay."""
    para = ("The toolbox trains and tests detectors on common datasets; each model is configured in one file and "
            "its weights are downloaded when first used.")
    pages = [[TextBlock("1 Introduction", 14, True), para, para],
             [TextBlock("2 Changelog", 14, True), para, TextBlock("2.1 Release Two", 13, True)]
             + [x for k, (name, items) in enumerate((("Highlights", ["Support QueryInst (#6050)"]),
                                                     ("New Features", ["Support infinite sampler (#5996)",
                                                                       "Add a YOLOX config (#6012)"]),
                                                     ("Bug Fixes", ["Fix the mosaic offsets (#5947)"]),
                                                     ("Improvements", ["Speed up the data loader (#5881)"])), 1)
                for x in (TextBlock(f"2.1.{k} {name}", 12, True), *[f"- {item}" for item in items])],
             [TextBlock("3 Usage", 14, True), para, para]]
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "changelog.pdf")
    titles = [n.title for n in doc.root.walk() if n is not doc.root]
    for title in ("2.1.1 Highlights", "2.1.2 New Features", "2.1.3 Bug Fixes", "2.1.4 Improvements", "3 Usage"):
        assert title in titles, titles


def test_a_changelog_section_titled_by_its_release_is_a_section():
    """A manual's changelog numbers a section per release, titled by the release's version and date ("3.1 v2.18.0
    (27/10/2021)", no word in it): it is a section, and its "3.2.1 Highlights" and "3.2.2 Bug Fixes …" nest under
    it."""
    para = ("The toolbox trains and tests detectors on common datasets; each model is configured in one file and "
            "its weights are downloaded when first used.")
    pages = [[TextBlock("1 Introduction", 16, True), para, para], [TextBlock("2 Usage", 16, True), para, para],
             [TextBlock("3 Changelog", 16, True), para]]
    for k, (version, date, first) in enumerate((("v2.18.0", "27/10/2021", "New Features"),
                                                ("v2.17.0", "28/9/2021", "Highlights"),
                                                ("v1.0rc1", "13/12/2019", "Improvements")), 1):
        pages.append([TextBlock(f"3.{k} {version} ({date})", 14, True), TextBlock(f"3.{k}.1 {first}", 12, True),
                      para, TextBlock(f"3.{k}.2 Bug Fixes in {version}", 12, True), para])
    doc = indexer.build_index(pdf_factory.make_pdf(pages), "changelog.pdf")
    titles = {n.title: n for n in doc.root.walk() if n is not doc.root}
    for release in ("3.1 v2.18.0 (27/10/2021)", "3.2 v2.17.0 (28/9/2021)", "3.3 v1.0rc1 (13/12/2019)"):
        assert release in titles, list(titles)
    assert [c.title for c in titles["3.2 v2.17.0 (28/9/2021)"].children] == ["3.2.1 Highlights",
                                                                             "3.2.2 Bug Fixes in v2.17.0"]


def _guide_with_numbers_before_its_contents_entries(bullet_steps: bool = False) -> bytes:
    """Apple's guides: the contents, over two pages, prints each chapter in bold, its sections under it in small
    type, each after its page number ("8 Welcome"); the second page opens with the last of chapter 3's entries and
    holds chapter 4 among its entries; each chapter opens on its page with "Chapter 1: …" in large type.
    ``bullet_steps``: a page of steps, each opened by one glyph read as a digit ("6 Refill the hopper")."""
    para = ("Open the lid, check that the cable is plugged in and wait until the light on the front turns green "
            "before you go on to the next part of this guide.")
    chapters = [(title, [f"{topic} {k}" for k in range(1, 7)]) for title, topic in (
        ("Ready, Set Up, Go", "Setting Up"), ("Life with Your Laptop", "Basic Features"),
        ("Problem, Meet Solution", "Problems"), ("Last, but Not Least", "Safety Information"))]
    contents, pages, page = [], [], 4
    for k, (title, sections) in enumerate(chapters, 1):
        contents.append(TextBlock(f"Chapter {k}: {title}", 11, True))
        pages.append([TextBlock(f"Chapter {k}: {title}", 22, True), para])
        page += 1
        for name in sections:
            contents.append(TextBlock(f"{page} {name}", 8))
            pages.append([TextBlock(name, 14, True), para, para])
            page += 1
    if bullet_steps:
        pages[2] = [*(TextBlock(f"6 {step} the part", 11) for step in ("Open", "Lift", "Clean", "Dry", "Refill",
                                                                         "Replace", "Close", "Lock", "Test", "Wipe")),
                    TextBlock("Chapter 9: Cleaning the Hopper", 22, True), para]
    cut = 2 * 7 + 2  # chapters 1 and 2, chapter 3 and its first entry on the first contents page
    return pdf_factory.make_pdf([[TextBlock("Laptop Essentials", 24, True)], [TextBlock("Contents", 16, True),
                                *contents[:cut]], contents[cut:], *pages])


def test_a_contents_page_that_prints_page_numbers_before_its_entries_opens_no_chapter():
    """The chapters listed in bold on a contents page whose entries follow their page numbers ("8 Welcome") open
    on their own pages, not on the contents pages; a bold line above a page's entries may stay ("Item 8." above an
    index of statements), but not one among them (chapter 4 on the second contents page)."""
    doc = indexer.build_index(_guide_with_numbers_before_its_contents_entries(), "guide.pdf")
    chapters = [(n.title, n.pages[0]) for n in doc.root.walk() if n.title.startswith("Chapter")]
    for k, page in ((2, 11), (3, 18), (4, 25)):
        assert any(t.startswith(f"Chapter {k}:") and p == page for t, p in chapters), chapters
        assert not any(t.startswith(f"Chapter {k}:") and p in (2, 3) for t, p in chapters), chapters


def test_steps_opened_by_one_digit_glyph_are_no_contents_page():
    """A page of steps each opened by the same glyph read as "6" is no contents page: the chapter under them stays."""
    doc = indexer.build_index(_guide_with_numbers_before_its_contents_entries(bullet_steps=True), "guide.pdf")
    assert any(n.title == "Chapter 9: Cleaning the Hopper" for n in doc.root.walk()), [n.title for n in doc.root.walk()]


def _phone_manual() -> bytes:
    """A phone manual: numbered chapters in 26 pt, each topic in 20 pt over its first task of the same name in 14 pt
    ("AI Voice" / "AI Voice"), a further task in 14 pt."""
    para = ("Swipe down from the upper right edge of the screen to open the control panel, then touch the icon to "
            "turn the feature on or off as you need it.")
    pages = []
    for number, (chapter, topics) in enumerate((("Essentials", ["Lock Your Screen", "Take a Screenshot"]),
                                                ("Smart Features", ["AI Voice", "Easy Projection"]),
                                                ("Camera and Gallery", ["Take Photos", "Edit Photos"])), 1):
        for k, topic in enumerate(topics):
            pages.append(([TextBlock(f"{number} {chapter}", 26, True), para] if k == 0 else [])
                         + [TextBlock(topic, 20, True), TextBlock(topic, 14, True), para, para,
                            TextBlock(f"More about {topic}", 14, True), para])
    return pdf_factory.make_pdf(pages)


def test_a_topic_over_its_first_task_of_the_same_name_is_two_sections():
    """A topic's title repeated at once in a smaller heading size is its first task, a section under it: the other
    tasks stay at the level of that first one."""
    doc = indexer.build_index(_phone_manual(), "phone.pdf")
    topic = next(n for n in doc.root.walk() if n.title == "AI Voice" and n.children)
    assert [c.title for c in topic.children] == ["AI Voice", "More about AI Voice"], [c.title for c in topic.children]


# ---- regressions a review of this session's heading rules found (each reproduced on the code before its mend) ----

_P = ("The committee reviewed the proposal in detail and agreed that the budget for the coming year should be "
      "allocated across the programmes in proportion to the number of members they serve.")


def _bold(text: str, size: float = 11) -> TextBlock:
    return TextBlock(text, size, True)


def _starts(pages) -> list[tuple[str, int]]:
    from alphasearch.pdf import write_pdf

    doc = indexer.build_index(write_pdf(pages), "review.pdf")
    return [(n.title, n.pages[0]) for n in doc.root.walk() if n is not doc.root]


def test_numbered_titles_ending_in_a_full_stop_are_sections_not_steps():
    """"1. Scope." in a specification ends like a sentence but is set as a title (title case): a section, with its
    "1.1 …" under it; only a step's words in plain case ("5 Then touch Save.") are a step."""
    pages = [[_bold("Technical Specification", 18), _P]]
    for k, t in enumerate(["Scope.", "Normative References.", "Terms and Definitions.", "Requirements."], 1):
        pages += [[_bold(f"{k}. {t}", 14), _P, _P], [_bold(f"{k}.1 General Provisions for {t[:-1]}", 12), _P, _P]]
    titles = [t for t, _ in _starts(pages)]
    assert "1. Scope." in titles and "4. Requirements." in titles, titles


def test_a_ranked_table_is_no_contents_page():
    """A table ranking institutions "1 Harvard University 97.5 79" … "12 …" prints numbers 1, 2, 3, 4, 5 in order
    before words: a list, not page numbers; the page's "4 Results" and "4.1 Robustness" stay sections."""
    rows = [f"{i} {u} University {99 - i * 1.5:.1f} {80 - i}" for i, u in enumerate(
        "Harvard Stanford Oxford Cambridge Tokyo Zurich Toronto Melbourne Paris Berlin Seoul Delhi".split(), 1)]
    pages = [[_bold("1 Introduction", 14), _P, _P], [_bold("2 Data", 14), _P, _P],
             [_bold("3 Method", 14), _P, _bold("3.1 Scoring", 12), _P],
             [_bold("4 Results", 14), _P, _bold("Table 2: Top institutions by score", 10), *rows,
              _bold("4.1 Robustness", 12), _P], [_bold("5 Conclusion", 14), _P]]
    starts = _starts(pages)
    assert ("4 Results", 4) in starts and ("4.1 Robustness", 4) in starts, starts


def test_a_capitals_line_in_a_smaller_size_does_not_take_the_pages_heading():
    pages = [[_bold(f"Item {n}. {t}", 12), _P] for n, t in (("1", "Business"), ("1A", "Risk Factors"),
                                                           ("2", "Properties"))]
    pages += [[_bold("Item 7. Management's Discussion and Analysis", 12), _P],
              [_bold("Liquidity and Capital Resources", 12), _P, _P, _bold("CASH FLOWS", 11), _P],
              [_bold("Item 8. Financial Statements", 12), _P]]
    titles = [t for t, _ in _starts(pages)]
    assert "Liquidity and Capital Resources" in titles and "CASH FLOWS" not in titles, titles


def test_a_masthead_set_large_on_every_other_page_opens_no_section():
    pages = []
    for p in range(1, 21):
        page = [TextBlock("Riverside Gazette", 18 if p % 2 else 9), _P + " " + str(p), _P]
        if p in (3, 9, 15):
            page.insert(1, _bold(["Local News", "Sport", "Arts and Culture"][p // 6], 16))
        pages.append(page)
    starts = _starts(pages)
    assert [t for t, _ in starts if t == "Riverside Gazette"] == [], starts
    assert ("Local News", 3) in starts and ("Sport", 9) in starts and ("Arts and Culture", 15) in starts, starts
