"""Pages the search reads, in the final ranking: the offline deep read's evidence on the
page ranker's scale, and a marginal read that does not jump ahead of a better unread page
(a model's reads still do); the read checks the page against the question (the line item
asked, in the year asked) and a page that fails sends the search on to the next one."""
from __future__ import annotations

import random

import pytest

from alphasearch.config import Settings
from alphasearch.engines.offline import OfflineEngine
from alphasearch.search.mcts import page_node, pages_read, search
from alphasearch.models import DocumentIndex, Page, Section
from alphasearch.search.reading import DEEP_READ_WEIGHTS, PageReader, passage_coverage
from alphasearch.index.ranker import PageRanker

QUESTION = "How long does the warranty cover repairs of the pump?"
PAGES = [
    # page 1: every question word, scattered over unrelated sentences (the ranker's best page)
    "The warranty desk is open daily. Pump stations are listed below. Repairs are logged. The warranty "
    "team covers many regions. Pump repairs are scheduled. How long a visit takes depends on the cover.",
    # page 2: fewer of the words, but together in one sentence
    "The warranty covers repairs of the pump for two years.",
    # page 3: nothing relevant
    "Shipping times depend on the carrier and the destination.",
]


def make_doc() -> DocumentIndex:
    root = Section("0000", "Manual", (1, 3), children=tuple(
        Section(f"000{i}", f"Part {i}", (i, i)) for i in range(1, 4)))
    pages = tuple(Page(i + 1, t, ()) for i, t in enumerate(PAGES))
    return DocumentIndex(doc_id="1" * 64, name="manual.pdf", page_count=3, root=root, pages=pages)


class Fixed:
    def __init__(self, values):
        self.values = values

    def score(self, question, sections):
        return [self.values.get(s.node_id, 0.0) for s in sections]


class ReadOnly:
    """A reader that reads only ``page`` (the search's choice is what this test fixes)."""

    def __init__(self, page: int, reward: float):
        self.page, self.reward = page, reward

    def pages_of(self, question, section):
        return [page_node(section, p) for p in section.page_numbers if p == self.page]

    def prior(self, question, pages):
        return [1.0] * len(pages)

    def score(self, question, pages):
        return [self.reward] * len(pages)


def test_read_evidence_is_the_ranker_score_plus_the_weighed_passage_coverage():
    doc = make_doc()
    ranker = PageRanker(doc)
    reader = PageReader(doc, ranker)
    scores = ranker.scores(QUESTION)
    a, b = DEEP_READ_WEIGHTS
    for p in (1, 2, 3):
        cov = reader._passage(QUESTION, p)[0]
        assert reader.read_evidence(QUESTION, p) == pytest.approx(float(scores[p - 1]) + b / a * cov)
        assert reader.deep_read(QUESTION, p) == pytest.approx(min(1.0, a * reader.read_evidence(QUESTION, p)))
    # the page whose sentence holds the question's words gains more from being read
    assert reader.read_evidence(QUESTION, 2) - scores[1] > reader.read_evidence(QUESTION, 1) - scores[0] > 0
    assert passage_coverage(PAGES[2], ["warranty"], {"warranty": 1.0})[0] == 0.0


@pytest.fixture
def engine(tmp_path) -> OfflineEngine:
    return OfflineEngine(Settings(data_dir=tmp_path, engine="offline"))


def test_a_marginal_offline_read_takes_its_place_among_the_unread_pages(engine):
    doc = make_doc()
    scores = engine.tools(doc).ranker.scores(QUESTION)
    reader = engine.tools(doc).reader
    assert int(scores.argmax()) + 1 == 1  # the ranker's best page is page 1
    # the search went to part 3 and read page 3 (a marginal read that still passed the threshold)
    trace = search(doc.root, QUESTION, Fixed({"0003": 0.9, "0001": 0.5, "0002": 0.4}),
                   reader=ReadOnly(3, 0.8), iterations=5, rng=random.Random(0))
    assert [p for p, _ in pages_read(trace)] == [3]
    assert reader.read_evidence(QUESTION, 3) < float(scores[0])
    # a model's read is trusted: the confirmed page leads
    assert engine.ranked_pages(doc, QUESTION, trace)[0] == 3
    # the offline deep read is the ranker's own score and a little more: page 3 goes by what it holds
    offline = engine.ranked_pages(doc, QUESTION, trace, model_reads=False)
    assert offline[0] == 1 and offline.index(3) > offline.index(1)



def test_pages_without_text_are_not_read_offline(engine):
    """Offline, a page without text is no page node: the search spends no read on it, and a
    document whose pages are all without text is searched by its sections alone."""
    doc = make_doc()
    blank = DocumentIndex(doc_id="2" * 64, name="slides.pdf", page_count=3, root=doc.root,
                          pages=(Page(1, PAGES[0], ()), Page(2, "  \n ", ()), Page(3, PAGES[2], ())))
    reader = engine.tools(blank).reader
    whole = Section("x", "All", (1, 3))
    assert [p.pages[0] for p in reader.pages_of(QUESTION, whole)] == [1, 3]
    judged = PageReader(blank, engine.tools(blank).ranker, judge=Fixed({}))  # a judge may see the picture
    assert [p.pages[0] for p in judged.pages_of(QUESTION, whole)] == [1, 2, 3]
    empty = DocumentIndex(doc_id="3" * 64, name="pictures.pdf", page_count=3, root=doc.root,
                          pages=tuple(Page(i, "", ()) for i in (1, 2, 3)))
    tools = engine.tools(empty)
    trace = search(empty.root, QUESTION, tools.scorer, prior=tools.prior, reader=tools.reader, iterations=25,
                   rng=random.Random(0))
    assert pages_read(trace) == [] and trace.stop_reason == "exhausted" and len(trace.steps) == 1


# --- the read checks the page against the question: the figure asked, in the year asked -------------
FIGURE_QUESTION = "What were the purchases of property, plant and equipment in 2022?"


def filing_pages_pdf() -> bytes:
    """3 pages: (1) prose about purchases of property, plant and equipment in 2022, every word of
    the question many times and no table (the page ranker's best page); (2) a table titled with the
    line item whose row gives the figure, columns 2022/2021/2020 (a close second); (3) the same rows for
    2021/2020 only."""
    import pymupdf

    from pdf_factory import STATEMENT_ROWS

    doc = pymupdf.open()
    prose = doc.new_page(width=595, height=842)
    lines = ["Property, plant and equipment in 2022",
             "Our purchases of property, plant and equipment in 2022 focused on plant upgrades.",
             "Purchases of equipment and property were planned with each plant in 2022.",
             "The plant and equipment purchases of 2022 follow our property plan.",
             "We expect purchases of property, plant and equipment to continue.",
             "In 2022 purchases of property, plant and equipment were funded from cash flows."]
    for i, line in enumerate(lines):
        prose.insert_text((72, 90 + 22 * i), line, fontsize=11)
    for years, columns in ((("2022", "2021", "2020"), (0, 1, 2)), (("2021", "2020"), (1, 2))):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), "Selected figures: purchases of property, plant and equipment" if len(years) == 3
                         else "Selected figures",
                         fontsize=14)
        page.insert_text((72, 100), "(In millions)", fontsize=9)
        if len(years) == 3:
            for k, line in enumerate(("Purchases of property, plant and equipment in 2022 were for plants.",
                                      "Property and equipment purchases of 2022 are shown above.")):
                page.insert_text((72, 330 + 22 * k), line, fontsize=10)
        xs = (330, 420, 510)[:len(years)]
        for x, year in zip(xs, years):
            page.insert_text((x, 125), year, fontsize=10)
        for k, (label, cells) in enumerate(STATEMENT_ROWS):
            page.insert_text((72, 150 + 22 * k), label, fontsize=10)
            for x, c in zip(xs, columns):
                page.insert_text((x, 150 + 22 * k), cells[c], fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


@pytest.fixture
def filing(engine):
    return engine.index(filing_pages_pdf(), "filing.pdf")


def test_the_read_runs_the_table_reader_on_the_page_and_checks_the_year(engine, filing):
    from alphasearch.search.reading import FIGURE_FOUND, FIGURE_MISSING, YEAR_MISSING

    reader = engine.tools(filing).reader
    assert reader.fit(FIGURE_QUESTION, 1) == (FIGURE_MISSING, False)  # the words, but no row
    assert reader.fit(FIGURE_QUESTION, 2) == (1.0, True)  # the row, in the year asked
    assert reader.fit(FIGURE_QUESTION, 3) == pytest.approx((FIGURE_MISSING * YEAR_MISSING, False))
    # a sentence stating a figure for the line item in the year asked is the figure too
    from alphasearch.read.items import concepts
    from alphasearch.search.reading import _states_figure

    item = concepts(FIGURE_QUESTION)[0]
    said = "In 2022 purchases of property, plant and equipment were 1,577 million dollars."
    assert _states_figure(said, item, {"2022"})
    assert not _states_figure(said, item, {"2021"}) and not _states_figure(said, "revenue", {"2022"})
    assert not _states_figure("Purchases of property, plant and equipment rose in 2022.", item, {"2022"})
    # no line item asked: only the year is checked; no year either: the read is the blend alone
    assert reader.fit("Which plant upgrades were planned in 2022?", 3) == (YEAR_MISSING, False)
    assert reader.fit("Which plant upgrades were planned?", 1) == (1.0, False)
    # an explanation of a line item is read from sentences: no row is needed
    assert reader.fit("Why did purchases of property, plant and equipment rise in 2022?", 1) == (1.0, False)
    # so is what it is made of, or how it is recorded (the notes say; no row of its total is needed)
    assert reader.fit("What were the components of purchases of property, plant and equipment in 2022?", 1) == \
        (1.0, False)
    a, b = DEEP_READ_WEIGHTS
    scores = engine.tools(filing).ranker.scores(FIGURE_QUESTION)
    assert reader.read_evidence(FIGURE_QUESTION, 2) == pytest.approx(
        float(scores[1]) + b / a * reader._passage(FIGURE_QUESTION, 2)[0] + FIGURE_FOUND)


def test_a_read_that_finds_no_row_sends_the_search_to_the_next_page(engine, filing):
    tools = engine.tools(filing)
    scores = tools.ranker.scores(FIGURE_QUESTION)
    assert int(scores.argmax()) + 1 == 1  # the ranker's best page is the prose
    assert tools.reader.deep_read(FIGURE_QUESTION, 1) < engine.settings.confidence_threshold
    trace = search(filing.root, FIGURE_QUESTION, tools.scorer, prior=tools.prior, reader=tools.reader,
                   iterations=25, confidence_threshold=engine.settings.confidence_threshold, rng=random.Random(0))
    read = [p for p, _ in pages_read(trace)]
    assert read[0] == 2 and 1 in read  # the prose page failed the read; the table page confirmed it
    assert trace.stop_reason == "confident"
    assert engine.ranked_pages(filing, FIGURE_QUESTION, trace, model_reads=False)[0] == 2


def warehouses_pdf() -> bytes:
    """2 pages: (1) prose about the membership warehouses in 2022 with no figure for them; (2) a
    table "Selected operating data" with columns 2022 / 2021 and a row "Membership warehouses"."""
    import pymupdf

    doc = pymupdf.open()
    prose = doc.new_page(width=595, height=842)
    for i, line in enumerate(("Membership warehouses in 2022",
                              "Our membership warehouses in 2022 served members in every region.",
                              "Each of the membership warehouses opened in 2022 follows one design.")):
        prose.insert_text((72, 90 + 22 * i), line, fontsize=11)
    table = doc.new_page(width=595, height=842)
    table.insert_text((72, 80), "Selected operating data", fontsize=14)
    for x, year in ((330, "2022"), (420, "2021")):
        table.insert_text((x, 110), year, fontsize=10)
    for k, (label, cells) in enumerate((("Membership warehouses", ("815", "795")),
                                        ("Paid members (thousands)", ("65,800", "61,700")))):
        table.insert_text((72, 135 + 22 * k), label, fontsize=10)
        for x, cell in zip((330, 420), cells):
            table.insert_text((x, 135 + 22 * k), cell, fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_figure_question_naming_no_line_item_is_checked_on_the_words_it_asks_for(engine):
    """"How many membership warehouses … in 2022?" names no line item of the lexicon: the read
    still runs the table reader on the page, and a page with the words but no row and no sentence
    stating a figure for them in 2022 fails the read."""
    from alphasearch.read.items import concepts
    from alphasearch.search.reading import FIGURE_MISSING

    question = "How many membership warehouses did the company operate in 2022?"
    assert not concepts(question)
    reader = engine.tools(engine.index(warehouses_pdf(), "warehouses.pdf")).reader
    assert reader.fit(question, 1) == (FIGURE_MISSING, False)
    assert reader.fit(question, 2) == (1.0, True)
    # a sentence giving the figure in the year asked is the figure too
    from alphasearch.search.reading import _states_number
    from alphasearch.lang.text import terms

    assert _states_number("In 2022 we operated 815 membership warehouses.", set(terms("warehouses")), {"2022"})
    assert not _states_number("In 2022 we operated membership warehouses.", set(terms("warehouses")), {"2022"})
