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
