"""End to end, offline: a 200-page generated report, one planted fact, one unanswerable question."""
from __future__ import annotations

import json

import pytest

from alphasearch.models import FALLBACK_ANSWER
from cli_helpers import run_cli


@pytest.fixture(scope="module")
def big_doc(big_pdf_200, tmp_path_factory):
    from alphasearch import Engine, Settings

    engine = Engine(Settings(data_dir=tmp_path_factory.mktemp("e2e-data"), engine="offline"))
    progress: list[tuple[str, float]] = []
    doc = engine.index_bytes(big_pdf_200, "municipal-report.pdf", progress=lambda msg, frac: progress.append((msg, frac)))
    return engine, doc, progress


def test_index_covers_every_page(big_doc):
    _, doc, progress = big_doc
    assert doc.page_count == 200
    covered = sorted(p for leaf in doc.root.leaves() for p in leaf.page_numbers)
    assert covered == list(range(1, 201))
    assert doc.root.find(doc.root.node_id) is doc.root
    titles = {s.title for s in doc.root.walk()}
    assert {"Water Supply", "Culture", "Public Safety"} <= titles
    assert progress and all(0.0 <= f <= 1.0 for _, f in progress)


@pytest.mark.parametrize("question", [
    "How much did the restoration of the Skarvik Point lighthouse keeper's cottage cost?",
    "What did it cost to restore the old lighthouse cottage at Skarvik?",
])
def test_finds_the_planted_fact(big_doc, planted_fact, question):
    engine, doc, _ = big_doc
    answer = engine.ask_document(doc, question, seed=1)
    assert not answer.fallback
    assert answer.pages[0] == planted_fact.page
    assert any(planted_fact.page in c.pages for c in answer.citations)
    for term in planted_fact.answer_terms:
        assert term in answer.text
    assert len(answer.pages) >= 5
    # the search did not score the whole tree to get there
    assert answer.trace.nodes_scored < doc.section_count()


def test_unanswerable_question_gets_the_fallback(big_doc, planted_fact):
    engine, doc, _ = big_doc
    answer = engine.ask_document(doc, planted_fact.unanswerable, seed=1)
    assert answer.fallback
    assert answer.text == FALLBACK_ANSWER == "I could not find enough evidence in this document."
    assert list(answer.citations) == []
    assert answer.confidence < engine.settings.answer_threshold


def test_cli_end_to_end_on_a_file(big_pdf_200, planted_fact, write_pdf_file, data_dir):
    path = write_pdf_file(big_pdf_200, "municipal-report.pdf")
    proc = run_cli("query", str(path), planted_fact.question, "--json", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["pages"][0] == planted_fact.page and not out["fallback"]
    assert out["citations"][0]["doc"] == "municipal-report.pdf"
    proc = run_cli("query", str(path), planted_fact.unanswerable, "--json", data_dir=data_dir)
    out = json.loads(proc.stdout)
    assert out["fallback"] is True and out["citations"] == []
    assert out["answer"] == "I could not find enough evidence in this document."
