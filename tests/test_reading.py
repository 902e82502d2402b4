"""Pages the search reads, in the final ranking: the offline deep read's evidence on the
page ranker's scale, and a marginal read that does not jump ahead of a better unread page
(a model's reads still do)."""
from __future__ import annotations

import random

import pytest

from alphasearch.config import Settings
from alphasearch.engines import OfflineEngine
from alphasearch.mcts import page_node, pages_read, search
from alphasearch.models import DocumentIndex, Page, Section
from alphasearch.reading import DEEP_READ_WEIGHTS, PageReader, passage_coverage
from alphasearch.scorers import PageRanker

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
