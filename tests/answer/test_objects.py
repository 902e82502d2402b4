"""Questions about the document itself: its tables and figures counted by their captions, and pages it has not."""
from __future__ import annotations

import pytest

from alphasearch.answer.objects import captions
from alphasearch.pdf.write import TextBlock

BODY = "The survey covered orchards in three valleys over two seasons, with yields weighed at harvest."


def H(title: str) -> TextBlock:  # a section heading
    return TextBlock(title, 16, True)


def _paper(make_pdf) -> bytes:
    """Six pages: figures 1-2 in the body (and a sentence citing Figure 2 on page 3), references, then an appendix
    with Figure 3 and Table 2; Table 1 on page 2."""
    return make_pdf([
        [H("1 Introduction"), BODY, "Figure 1: Orchards surveyed by valley.", BODY],
        [H("2 Method"), BODY, "Table 1: Yields per tree by season.", "Figure 2 Harvest weights by week.", BODY],
        [H("3 Results"), "Figure 2 shows that yields rose in the second season.", BODY, "Fig. 2 is drawn to scale."],
        [H("References"), "Smith, J. Orchards of the north. 2019."],
        [H("A Field Notes"), BODY, "Figure 3: The northern valley's rows.", "Table 2. Trees counted per row."],
        [H("B Weather"), BODY],
    ])


def test_captions_are_lines_beginning_with_the_label_not_sentences_citing_it():
    text = "Figure 2 shows that yields rose.\nFigure 3: Rows.\nTable 1. Yields\nFigure 12\nsee Figure 4: above"
    assert captions(text, "figure") == [("3", "Figure 3: Rows."), ("12", "Figure 12")]
    assert captions(text, "table") == [("1", "Table 1. Yields")]


@pytest.mark.parametrize("question, count, first", [
    ("How many figures are there in the paper?", "3 figures in the document", "Figure 1, p. 1"),
    ("How many tables are included in the document?", "2 tables in the document", "Table 1, p. 2"),
    ("How many figures are in this paper from Page 2 to Page 4?", "1 figure in pages 2–4", "Figure 2, p. 2"),
    ("How many figures are there in the Appendix? Please write the answer in int format.",
     "1 figure in the appendix", "Figure 3, p. 5"),
    ("What is the number of figures in the paper's Appendix? Answer with an integer.",
     "1 figure in the appendix", "Figure 3, p. 5"),
    ("# of tables in the doc? int", "2 tables in the document", "Table 1, p. 2"),
])
def test_a_count_of_tables_or_figures_is_read_off_their_captions(engine, make_pdf, question, count, first):
    doc = engine.index_bytes(_paper(make_pdf), "orchard-paper.pdf")
    answer = engine.ask_document(doc, question)
    direct = answer.extra["direct_answer"]
    assert direct.startswith(count) and first in direct, direct
    assert not answer.fallback and answer.citations and all(c.snippet.lower().startswith(("fig", "table"))
                                                             for c in answer.citations)


def test_a_count_narrowed_by_other_words_is_not_a_caption_count(engine, make_pdf):
    """"Figures of trains" or "tables that include yields" count what the captions cannot tell."""
    doc = engine.index_bytes(_paper(make_pdf), "orchard-paper.pdf")
    for question in ("How many figures of valleys are there?", "How many tables include yields per tree?"):
        direct = engine.ask_document(doc, question).extra.get("direct_answer") or ""
        assert "counted by their captions" not in direct, (question, direct)


def test_pages_the_document_has_not_are_said_so(engine, make_pdf):
    """A question about pages 100-120 of a six-page paper is no question this document answers: the fallback says
    how many pages it has, with no confidence worth showing."""
    doc = engine.index_bytes(_paper(make_pdf), "orchard-paper.pdf")
    answer = engine.ask_document(doc, "How many figures are in Pages 100-120 of this paper?")
    assert answer.fallback and "It has 6 pages: no page 100." in answer.text
    assert answer.confidence <= 0.05


def _literal(*texts: str):
    from alphasearch.models import DocumentIndex, Page, Section

    n = len(texts)
    return DocumentIndex("c" * 64, "lit.pdf", n, Section("R", "Doc", (1, n)),
                         tuple(Page(i + 1, t) for i, t in enumerate(texts)))


def test_captions_counted_only_when_the_document_numbers_them_all():
    """A filing's lone "Table 2.1", or Figures 3-5 with 1 and 2 set as images, count some of them: no count; numbers
    by chapter ("1.1", "1.2", "2.1") count when each chapter starts at 1; five tables on one page are an exhibit's."""
    from alphasearch.answer.objects import object_count

    q = "How many {} are in the document?"
    assert object_count(_literal("Intro", "Table 2.1: Fleet by region", "End"), q.format("tables")) is None
    gaps = _literal(*[f"Figure {n}: Yields {n}" for n in (3, 4, 5)])
    assert object_count(gaps, q.format("figures")) is None
    chapters = _literal("Figure 1.1: A", "Figure 1.2: B", "Figure 2.1: C")
    assert object_count(chapters, q.format("figures")).count == 3
    exhibit = _literal("Intro", "\n".join(f"Table {n}: Rates {n}" for n in range(1, 6)), "End")
    assert object_count(exhibit, q.format("tables")) is None


def test_a_list_of_figures_is_not_where_they_are():
    """A thesis's list of figures prints every caption: the figures are counted where they stand, once each."""
    from alphasearch.answer.objects import object_count

    listing = "List of Figures\n" + "\n".join(f"Figure {n}: Orchard {n} ........ {n + 2}" for n in range(1, 5))
    doc = _literal("Thesis", listing, "Figure 1: Orchard 1", "Figure 2: Orchard 2", "Figure 3: Orchard 3",
                   "Figure 4: Orchard 4")
    got = object_count(doc, "How many figures are on pages 1-4?")
    assert got.count == 2 and [page for _, page, _ in got.labels] == [3, 4]


def test_pages_named_by_the_numbers_an_excerpt_prints():
    """A 5-page excerpt printing 45-49 in its footers: "pages 45-47" are its first three; "page 100" it has not; a
    margin that "slides 30 basis points" names no slide; "pages 0-3" start at the first page."""
    from alphasearch.answer.objects import object_count, pages_beyond

    excerpt = _literal(*[f"Table {n}: Rates {n}\nSome text of the report.\n{44 + n}" for n in range(1, 6)])
    got = object_count(excerpt, "How many tables are on pages 45-47?")
    assert got is not None and got.count == 3, got
    assert pages_beyond(excerpt, "What does page 47 say?") == []
    assert pages_beyond(excerpt, "What does page 100 say?") == [100]
    assert pages_beyond(excerpt, "Why did the gross margin slide 30 basis points?") == []
    assert pages_beyond(excerpt, "What is on slide 30?") == [30]
    assert object_count(excerpt, "How many tables are on pages 0-3?").count == 3
