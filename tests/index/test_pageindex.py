"""A folder's page index from per-document term counts (alphasearch/index/pageindex.py) and Phase 1 at scale."""
from __future__ import annotations

import random
from collections import Counter

import bm25s
import numpy as np
import pytest

from alphasearch.folder import search as folder_mod
from alphasearch.config import Settings
from alphasearch.index.pageindex import PageTerms, PassageIndex, PooledPassages
from alphasearch.pipeline import Engine
from alphasearch.lang.text import terms
from folder_helpers import build_library, topic_pdf

_WORDS = ("river bridge budget school clinic harbour ferry tram depot grant audit staff permit road flood "
          "archive energy heating water waste housing park noise lane cycle").split()


def _pages(rng: random.Random, n: int) -> list[str]:
    return ["" if rng.random() < 0.1 else " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 80)))
            for _ in range(n)]


def test_page_scores_equal_bm25s_over_the_same_pages():
    rng = random.Random(3)
    docs = [_pages(rng, rng.randint(1, 12)) for _ in range(15)] + [[]]
    index = PassageIndex.build(docs)
    corpus = [terms(t) for texts in docs for t in texts if terms(t)]
    reference = bm25s.BM25()
    reference.index(corpus, show_progress=False)
    for question in ("budget of the harbour ferry", "flood", "clinic staff permit audit", "zebra"):
        q = list(dict.fromkeys(terms(question)))
        expected = reference.get_scores(q) if any(t in index.vocab for t in q) else np.zeros(len(corpus))
        pages, scores = index.page_scores(q)
        got = np.zeros(len(corpus), np.float32)
        got[pages] = scores
        assert np.allclose(got, expected, atol=1e-5), question
    assert index.page_doc.size == len(corpus) and index.best("zebra").tolist() == [0.0] * len(docs)


def test_page_terms_survive_bytes_and_refuse_damage():
    pt = PageTerms.from_texts(["Ferry fares rose.", "", "The ferry depot flooded twice."])
    back = PageTerms.from_bytes(pt.to_bytes())
    assert back.vocab == pt.vocab and back.pages == 3 and back.count.tolist() == pt.count.tolist()
    texts = ["Ferry fares rose.", "", "The ferry depot flooded twice."]
    got = {(int(p), back.vocab[t]): int(c) for p, t, c in zip(back.page, back.term, back.count)}
    assert got == {(p, t): c for p, text in enumerate(texts) for t, c in Counter(terms(text)).items()}
    assert sum(1 for p, _ in got if p == 0) == 3 and not [k for k in got if k[0] == 1]
    with pytest.raises(ValueError):
        PageTerms.from_bytes(pt.to_bytes()[:40])


def test_a_folder_that_grows_counts_only_the_new_documents_pages(data_dir, monkeypatch):
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    build_library(engine.library, ("Astronomy", "Kitchen"))
    for rec in engine.library.documents():  # counted once each, when it was added (by the indexing worker)
        assert engine.library.page_terms(rec).pages == rec.pages
    counted: list[int] = []
    real = PageTerms.from_texts.__func__

    def spy(cls, texts):
        counted.append(len(texts))
        return real(cls, texts)

    monkeypatch.setattr(PageTerms, "from_texts", classmethod(spy))
    q = "Which moon has lakes of liquid methane?"
    assert engine.ask_folder(q, folder="Astronomy").doc_pages[0] == ("planets.pdf", 3)
    engine.library.add("Astronomy", "comets.pdf", topic_pdf("Comets", [
        ("Tails", "A comet's ion tail points away from the Sun."),
        ("Halley", "Halley's comet returns every 76 years; the Vesper Society logged its 1986 passage.")]))
    a = engine.ask_folder("How often does Halley's comet return?", folder="Astronomy")
    assert a.extra["documents"][0] == "comets.pdf" and a.doc_pages[0] == ("comets.pdf", 3)
    assert counted == []  # no question read a page: the folder's page index was assembled from saved counts
    # a damaged saved count is counted again, not trusted
    rec = engine.library.document("Astronomy", "planets.pdf")
    saved = next(engine.library.page_terms_dir.glob(f"{rec.sha256}-*.npz"))
    saved.write_bytes(b"PK\x03\x04 damaged")
    assert engine.library.page_terms(rec).pages == 4 and counted == [4]
    engine.library.remove("Astronomy", "planets.pdf")
    assert not list(engine.library.page_terms_dir.glob(f"{rec.sha256}-*"))  # purged with the document


def test_phase_1_searches_a_shortlist_of_a_big_folder_and_still_finds_the_page(data_dir, monkeypatch):
    engine = Engine(Settings(data_dir=data_dir, engine="offline"))
    build_library(engine.library, ("Astronomy", "Kitchen", "Finance"))
    for name in ("bread-baking.pdf", "annual-report-2024.pdf", "annual-report-2023.pdf", "soups-and-stews.pdf"):
        rec = engine.library.document("Kitchen" if "report" not in name else "Finance", name)
        engine.library.add("Astronomy", f"misc {name}", engine.library.pdf_bytes(rec))  # 6 documents now
    monkeypatch.setattr(folder_mod, "SHORTLIST", 3)
    a = engine.ask_folder("Which moon has lakes of liquid methane?", folder="Astronomy")
    assert len(a.trace.root.children) == 3  # the search saw the 3 best documents by score, not all 6
    assert a.extra["documents"][0] == "planets.pdf" and a.doc_pages[0] == ("planets.pdf", 3)
    assert set(a.folder_trace.doc_scores) == {c.section.title for c in a.trace.root.children}


def test_pooled_folder_indexes_score_like_one_index_over_all_their_pages():
    """Phase 0 reads every folder's page index at once, with the idf and average page length of
    all their pages: the same scores as one index over every page (folders of short and long pages)."""
    rng = random.Random(5)
    folders = [[_pages(rng, rng.randint(1, 8)) for _ in range(n)] for n in (9, 2, 4)]
    folders[1] = [[" ".join(rng.choice(_WORDS) for _ in range(3)) for _ in range(4)] for _ in range(2)]
    pooled = PooledPassages([(PassageIndex.build(docs), len(docs)) for docs in folders])
    one = PassageIndex.build([d for docs in folders for d in docs])
    for question in ("budget of the harbour ferry", "flood", "clinic staff permit audit", "zebra"):
        assert np.allclose(pooled.best(question), one.best(question), atol=1e-5), question
    # a folder without its index scores 0 and keeps the others' positions
    partial = PooledPassages([(None, 9), (PassageIndex.build(folders[1]), 2), (PassageIndex.build(folders[2]), 4)])
    got = partial.best("flood budget")
    assert got.shape == (15,) and not got[:9].any() and got[9:].max() == pytest.approx(1.0)
