"""benchmarks/reader_ceiling.py: the reader handed the evidence page first, on a generated labelled set."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import reader_ceiling  # noqa: E402

from pdf_factory import table_pdf  # noqa: E402


def test_the_ceiling_counts_what_the_reader_carries_with_the_evidence_page_first(engine, tmp_path):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "harbor.pdf").write_bytes(table_pdf())
    questions = [
        {"id": "q1", "doc": "harbor.pdf", "question": "What were total revenues in 2022?", "answer": "66608",
         "evidence_pages": [2]},
        # the gold figure is not printed on the page named: no reader can carry it, so it is not counted
        {"id": "q2", "doc": "harbor.pdf", "question": "What were total revenues in 2022?", "answer": "123456",
         "evidence_pages": [2]},
        {"id": "q3", "doc": "harbor.pdf", "question": "Who audits Harbor?", "answer": "Not answerable",
         "evidence_pages": []},
        {"id": "q4", "doc": "harbor.pdf", "question": "What colour is the cover?", "answer": "Deep blue",
         "evidence_pages": [1]},  # no figure asked
    ]
    got = reader_ceiling.ceiling(engine, questions, pdfs)
    assert got == {"n": 1, "carries": 1.0, "wrong": 0.0, "none": 0.0, "fallback": 0.0}
