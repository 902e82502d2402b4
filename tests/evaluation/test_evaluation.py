"""Evaluation: exact metric values, question loading, and the runner on a tiny generated set."""
from __future__ import annotations

import json

import pytest

import pdf_factory
from alphasearch.evaluation import runner as evaluation
from alphasearch.cli.main import main
from alphasearch.evaluation.runner import EvalSetError, Row, hit_at_k, reciprocal_rank, summarise


def test_hit_at_k_exact():
    assert hit_at_k([4, 2, 9], [9], 1) == 0.0
    assert hit_at_k([4, 2, 9], [9], 2) == 0.0
    assert hit_at_k([4, 2, 9], [9], 3) == 1.0
    assert hit_at_k([4, 2, 9], [2, 7], 2) == 1.0
    assert hit_at_k([], [1], 5) == 0.0


def test_reciprocal_rank_exact():
    assert reciprocal_rank([4, 2, 9], [4]) == 1.0
    assert reciprocal_rank([4, 2, 9], [9, 2]) == 0.5
    assert reciprocal_rank([4, 2, 9], [9]) == pytest.approx(1 / 3)
    assert reciprocal_rank([4, 2, 9], [1]) == 0.0


def _row(method, source, pages, evidence, seconds=1.0, nodes=0, fallback=False):
    return Row("q", "d.pdf", source, method, pages, evidence, "", 0.0, fallback, seconds, 0, nodes)


def test_summarise_exact_values_per_method_and_source():
    rows = [
        _row("a", "s1", [1, 2, 3], [1], seconds=1.0, nodes=4),
        _row("a", "s1", [1, 2, 3], [3], seconds=2.0, nodes=6),
        _row("a", "s2", [5, 6, 7, 8, 9, 10], [10], seconds=9.0, nodes=8, fallback=True),
        _row("b", "s1", [2], [2]),
    ]
    out = {(s.method, s.source): s for s in summarise(rows, (1, 3, 5))}
    a = out[("a", "all")]
    assert a.n == 3
    assert a.hits == {1: pytest.approx(1 / 3), 3: pytest.approx(2 / 3), 5: pytest.approx(2 / 3)}
    assert a.mrr == pytest.approx((1 + 1 / 3 + 1 / 6) / 3)
    assert a.median_seconds == 2.0
    assert a.mean_nodes == 6.0
    assert a.fallbacks == pytest.approx(1 / 3)
    assert out[("a", "s2")].n == 1 and out[("a", "s2")].hits[5] == 0.0
    assert out[("b", "all")].hits[1] == 1.0
    assert [(s.method, s.source) for s in summarise(rows)][:3] == [("a", "all"), ("a", "s1"), ("a", "s2")]


def test_unknown_method_lists_valid_ones():
    with pytest.raises(ValueError, match="flat_bm25"):
        evaluation.check_methods(["nope"])


def test_missing_set_says_so(tmp_path):
    with pytest.raises(EvalSetError, match="not part of the repository"):
        evaluation.load_questions(tmp_path / "absent")


def _tiny_set(tmp_path):
    root = tmp_path / "set"
    (root / "pdfs").mkdir(parents=True)
    (root / "pdfs" / "orchard.pdf").write_bytes(pdf_factory.outline_pdf())
    rows = [
        {"id": "q1", "doc": "orchard.pdf", "question": "How many litres of juice does the cider press process per day?",
         "evidence_pages": [6], "source": "tiny"},
        {"id": "q2", "doc": "orchard.pdf", "question": "What was the cooperative's income in 2024?",
         "evidence_pages": [7], "source": "tiny"},
        {"id": "q3", "doc": "missing.pdf", "question": "Anything?", "evidence_pages": [1], "source": "other"},
    ]
    (root / "questions.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return root


def test_runner_every_method_on_a_generated_set(tmp_path, engine):
    root = _tiny_set(tmp_path)
    rows = evaluation.run(root, engine, methods=list(evaluation.METHODS), limit=2)
    assert len(rows) == 2 * len(evaluation.METHODS)
    for r in rows:
        assert r.pages and all(1 <= p <= 7 for p in r.pages), r
        assert 0.0 <= r.confidence <= 1.0
    by = {(r.id, r.method): r for r in rows}
    assert by[("q1", "mcts_puct")].pages[0] == 6
    assert by[("q2", "mcts_puct")].pages[0] == 7
    assert by[("q1", "mcts_puct")].nodes_scored > 0
    assert by[("q1", "flat_bm25")].nodes_scored == 0
    assert by[("q1", "flat_offline")].pages[0] == 6 and by[("q1", "flat_offline")].nodes_scored == 0
    for q in ("q1", "q2"):  # the default search reads pages and learns something in every iteration
        default = by[(q, "mcts_puct")]
        assert default.pages_read >= 1 and default.iterations >= 1 and default.judged_nothing == 0
        assert by[(q, "flat_read")].pages_read == default.pages_read  # flat reading at equal pages read
        ref = by[(q, "mcts_reference")]
        assert ref.iterations >= 1 and ref.pages_read == 0 and ref.nodes_scored == ref.iterations


def test_runner_keeps_going_when_a_pdf_is_missing(tmp_path, engine):
    root = _tiny_set(tmp_path)
    rows = evaluation.run(root, engine, methods=["flat_bm25"])
    bad = [r for r in rows if r.doc == "missing.pdf"]
    assert len(bad) == 1 and bad[0].pages == [] and bad[0].error


def test_cli_prints_table_and_writes_rows(tmp_path, capsys):
    root = _tiny_set(tmp_path)
    out = tmp_path / "rows.jsonl"
    code = main(["--data-dir", str(tmp_path / "data"), "eval", str(root), "--limit", "2",
                 "--methods", "flat_bm25,mcts_puct", "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in printed if " all " in line] == [["flat_bm25", "all", "2"],
                                                                          ["mcts_puct", "all", "2"]]
    answers = printed[printed.index(next(x for x in printed if x.startswith("Answers"))) + 2:]
    assert [line.split()[0] for line in answers] == ["flat_bm25", "mcts_puct"]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 4
    assert set(rows[0]) >= {"id", "doc", "source", "method", "pages", "evidence_pages", "answer", "confidence",
                            "fallback", "seconds", "llm_calls", "nodes_scored", "direct_answer", "gold_printed",
                            "direct_carries", "answer_carries", "off_topic"}
    # the second run reuses the cached index
    assert list((tmp_path / "data" / "indexes").glob("*.json"))


def test_cli_reports_a_missing_set(tmp_path, capsys):
    code = main(["--data-dir", str(tmp_path / "data"), "eval", str(tmp_path / "nowhere")])
    assert code == 2
    assert "No labelled set" in capsys.readouterr().err


def test_limit_zero_reads_no_questions(tmp_path):
    root = _tiny_set(tmp_path)
    assert evaluation.load_questions(root, limit=0) == []
    assert [q.id for q in evaluation.load_questions(root, limit=2)] == ["q1", "q2"]


@pytest.mark.parametrize("extra, message", [(["--methods", "oracle"], "Unknown method"),
                                            (["--k", "0,3"], "positive integers")])
def test_cli_rejects_bad_options(tmp_path, capsys, extra, message):
    root = _tiny_set(tmp_path)
    assert main(["--data-dir", str(tmp_path / "data"), "eval", str(root), *extra]) == 2
    assert message in capsys.readouterr().err


def test_settings_problem_stops_the_run(tmp_path):
    from alphasearch.config import Settings
    from alphasearch.errors import ConfigError

    class NoKey:
        settings = Settings(data_dir=tmp_path / "data", engine="offline")

        def index_file(self, path, progress=None):
            raise ConfigError("No API key for the LLM engine.")

    with pytest.raises(ConfigError):
        evaluation.run(_tiny_set(tmp_path), NoKey(), methods=["flat_bm25"])


@pytest.mark.parametrize("doc", ["../outside.pdf", "ABSOLUTE", "pdfs/../../outside.pdf", "link.pdf"])
def test_a_question_row_cannot_name_a_pdf_outside_the_set(tmp_path, engine, doc):
    """A ``doc`` that points outside ``pdfs/`` (``..``, an absolute path, a symbolic link) is
    refused in one line for that row; the file is never opened, the others still run."""
    root = _tiny_set(tmp_path)
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(pdf_factory.outline_pdf())
    (root / "pdfs" / "link.pdf").symlink_to(outside)
    doc = str(outside) if doc == "ABSOLUTE" else doc
    row = {"id": "evil", "doc": doc, "question": "How many litres of juice?", "evidence_pages": [6]}
    with (root / "questions.jsonl").open("a") as fh:
        fh.write(json.dumps(row) + "\n")
    rows = evaluation.run(root, engine, methods=["flat_bm25"])
    evil = next(r for r in rows if r.id == "evil")
    assert evil.pages == [] and "is outside" in evil.error and "\n" not in evil.error
    assert not engine.indexes.get(pdf_factory_hash(outside))  # never indexed
    assert next(r for r in rows if r.id == "q1").pages  # the others still run


def pdf_factory_hash(path) -> str:
    from alphasearch.pdf import content_hash

    return content_hash(path.read_bytes())


def test_rows_measure_the_answer_and_off_topic_questions_fall_back(tmp_path, engine):
    """A gold figure printed on the evidence page; the direct answer carries it; the same question
    asked of another source's document is an off-topic row, left out of hit@k."""
    root = tmp_path / "set"
    (root / "pdfs").mkdir(parents=True)
    (root / "pdfs" / "harbor.pdf").write_bytes(pdf_factory.table_pdf())
    (root / "pdfs" / "orchard.pdf").write_bytes(pdf_factory.outline_pdf())
    qs = [{"id": "f1", "doc": "harbor.pdf", "question": "What were total revenues in 2021?", "answer": "$60,117 million",
           "evidence_pages": [2], "source": "fin"},
          {"id": "o1", "doc": "orchard.pdf", "question": "How much does membership cost a year?",
           "answer": "45 euros", "evidence_pages": [3], "source": "other"}]
    (root / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in qs) + "\n")
    rows = evaluation.run(root, engine, methods=["mcts_puct"], off_topic=True)
    by = {(r.id, r.off_topic): r for r in rows}
    fin = by[("f1", False)]
    assert fin.gold_printed and fin.direct_carries and fin.direct_answer.startswith("Total revenues, 2021: $60,117")
    assert set(fin.confidence_parts) >= {"meaning", "coverage", "in_document", "margin", "figure"}
    assert by[("f1", True)].doc == "orchard.pdf" and by[("f1", True)].evidence_pages == []
    assert [s.n for s in evaluation.summarise(rows) if s.source == "all"] == [2]  # off-topic: not page questions
    summary = evaluation.answer_summary(rows)["mcts_puct"]
    assert summary["printed"] == 2 and summary["direct_carries"] == 1.0
    assert summary["fallback_off_topic"] is not None


def test_a_page_cited_is_no_figure_the_answer_carries(tmp_path, engine, make_pdf):
    """The direct answer "… 14 regional offices … — p. 12" does not carry a gold figure 12: the page
    it cites is not a figure it states."""
    root = tmp_path / "set"
    (root / "pdfs").mkdir(parents=True)
    pages = [[f"Weather notes on shipping lane {name}."] for name in "ABCDEFGHIJK"]
    pages.append(["Our offices", "Harbor Freight Logistics runs 14 regional offices across the coast.", "Page 12 of 12"])
    (root / "pdfs" / "harbor.pdf").write_bytes(make_pdf(pages))
    q = {"id": "c1", "doc": "harbor.pdf", "question": "How many regional offices does Harbor Freight Logistics run?",
         "answer": "12", "evidence_pages": [12], "source": "fin"}
    (root / "questions.jsonl").write_text(json.dumps(q) + "\n")
    row = evaluation.run(root, engine, methods=["mcts_puct"])[0]
    assert row.gold_printed and "14 regional offices" in row.direct_answer and "p. 12" in row.direct_answer
    assert not row.direct_carries and not row.answer_carries


def test_auroc_and_logistic_fit_are_exact_on_literal_data():
    import numpy as np

    from alphasearch.answer import calibration

    assert calibration.auroc([0.9, 0.8, 0.3, 0.1], [True, True, False, False]) == 1.0
    assert calibration.auroc([0.5, 0.5, 0.5], [True, False, True]) == 0.5
    assert calibration.auroc([0.1, 0.9], [True, False]) == 0.0
    assert calibration.auroc([0.3], [True]) is None
    x = np.array([[0.0], [0.2], [0.8], [1.0]] * 5)
    y = np.array([0, 0, 1, 1] * 5)
    w, b = calibration.fit(x, y, l2=0.1)
    m = {"features": ["f"], "weights": w.tolist(), "bias": b}
    assert w[0] > 0 and calibration.predict({"f": 1.0}, m) > 0.8 > 0.2 > calibration.predict({"f": 0.0}, m)
    # a row counting 2 is that row twice, counting 0 it is not there (the same objective, so the same fit)
    noisy_x, noisy_y = np.vstack([x, [[1.0]]]), np.append(y, 0)
    twice = calibration.fit(np.vstack([noisy_x, [[1.0]]]), np.append(noisy_y, 0), l2=0.1)
    weighted = calibration.fit(noisy_x, noisy_y, l2=0.1, weights=np.append(np.ones(len(y)), 2.0))
    assert np.allclose(twice[0], weighted[0]) and twice[1] == pytest.approx(weighted[1])
    dropped = calibration.fit(noisy_x, noisy_y, l2=0.1, weights=np.append(np.ones(len(y)), 0.0))
    assert np.allclose(dropped[0], w) and dropped[1] == pytest.approx(b)
    assert {calibration.half_of(f"doc{i}.pdf") for i in range(20)} == {0, 1}
    # another seed is another split (seed 0: the first byte of the name's SHA-256, kept)
    names = [f"doc{i}.pdf" for i in range(40)]
    assert [calibration.half_of(n, 0) for n in names] == [calibration.half_of(n) for n in names]
    assert [calibration.half_of(n, 1) for n in names] != [calibration.half_of(n) for n in names]
    assert calibration.half_of("a.pdf", 3) == calibration.half_of("a.pdf", 3)


def test_hit1_gap_by_document_half_and_other_splits():
    from alphasearch.answer.calibration import half_of

    docs = [f"doc{i}.pdf" for i in range(40)]
    first = next(d for d in docs if half_of(d) == 0)
    rows = []
    for i, doc in enumerate(docs):
        # "a" finds every first page; "b" misses it on one document of the first half only
        rows.append(Row(f"q{i}", doc, "s", "a", [1, 2], [1], "", 0.0, False, 0.0))
        rows.append(Row(f"q{i}", doc, "s", "b", [2, 1] if doc == first else [1, 2], [1], "", 0.0, False, 0.0))
    rows.append(Row("away", first, "s", "b", [2], [], "", 0.0, True, 0.0, off_topic=True))  # not counted
    g = evaluation.hit1_gap(rows, "a", "b", splits=5)
    half0 = sum(half_of(d) == 0 for d in docs)
    assert g["n"] == 40 and g["all"] == pytest.approx(1 / 40)
    assert g["halves"] == [pytest.approx(1 / half0), 0.0]
    assert g["min"] == 0.0 and 0.0 < g["mean"] < 1 / 10  # in every split one half holds the document, one not
    assert "halves by document +0.0" in evaluation.format_hit1_gap(g)
    assert evaluation.hit1_gap(rows, "a", "c") is None


def test_cli_prints_the_default_search_against_flat_reading(tmp_path, capsys):
    root = _tiny_set(tmp_path)
    code = main(["--data-dir", str(tmp_path / "data"), "eval", str(root), "--limit", "2",
                 "--methods", "mcts_puct,flat_read"])
    assert code == 0
    printed = capsys.readouterr().out.splitlines()
    assert any(line.startswith("hit@1 mcts_puct less flat_read (2 questions): ") and "halves by document" in line
               for line in printed)
