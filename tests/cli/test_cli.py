"""The command line: index, inspect, query (text and --json), demo, and clean failures."""
from __future__ import annotations

import json

import pytest

from alphasearch.cli import main as cli
from alphasearch.answer import calibration
from alphasearch.index import isolation
from cli_helpers import assert_clean_failure, run_cli


@pytest.fixture
def sample_file(write_pdf_file, sample_pdf):
    return write_pdf_file(sample_pdf, "northwind.pdf")


def test_index_then_inspect(sample_file, data_dir):
    proc = run_cli("index", str(sample_file), data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("northwind.pdf: 9 pages,") and "tree from outline" in proc.stdout
    assert proc.stderr == ""
    assert len(list((data_dir / "indexes").glob("*.json"))) == 1

    proc = run_cli("inspect", str(sample_file), data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for title in ("Letter to Shareholders", "Financial Results", "Revenue by Segment", "Cash Flow", "Outlook"):
        assert title in out
    # children are indented under their parent
    fin = next(ln for ln in out.splitlines() if "Financial Results" in ln and "introduction" not in ln)
    seg = next(ln for ln in out.splitlines() if "Revenue by Segment" in ln)
    assert len(seg) - len(seg.lstrip()) > len(fin) - len(fin.lstrip())


def test_query_json_shape(sample_file, data_dir):
    proc = run_cli("query", str(sample_file), "What was the total revenue in 2025?", "--json",
                   "--iterations", "12", "--seed", "3", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1 and proc.stdout.endswith("\n")  # exactly one line: one object
    out = json.loads(proc.stdout)

    assert set(out) >= {"answer", "confidence", "fallback", "citations", "pages", "trace", "stats"}
    assert isinstance(out["answer"], str) and "412.6" in out["answer"]
    assert 0.0 <= out["confidence"] <= 1.0 and out["fallback"] is False
    parts = out["confidence_parts"]  # what the confidence is made of: the calibrated model's inputs
    assert set(parts) >= set(calibration.model()["features"])
    assert calibration.predict(parts) == pytest.approx(out["confidence"], abs=1e-3)
    assert out["direct_answer"] and out["structured"]["direct"]["text"] == out["direct_answer"]
    assert out["citations"]
    for c in out["citations"]:
        assert set(c) >= {"doc", "section", "pages", "snippet"}
        assert c["doc"] == "northwind.pdf" and c["snippet"] and c["section"]
        assert all(isinstance(p, int) and 1 <= p <= 9 for p in c["pages"])
    assert any(4 in c["pages"] or 5 in c["pages"] for c in out["citations"])

    pages = out["pages"]
    assert len(pages) >= 5 and len(set(pages)) == len(pages) and all(1 <= p <= 9 for p in pages)
    assert pages[0] in (4, 5)

    trace = out["trace"]
    assert trace["iterations"] == len(trace["steps"]) and 1 <= trace["iterations"] <= 12
    ids = {n["id"] for n in trace["nodes"]}
    for n in trace["nodes"]:
        assert set(n) >= {"id", "parent", "title", "pages", "visits", "q", "prior"}
        assert n["parent"] is None or n["parent"] in ids
        assert 0.0 <= n["q"] <= 1.0 and 0.0 <= n["prior"] <= 1.0 and n["visits"] >= 0
        assert len(n["pages"]) == 2 and 1 <= n["pages"][0] <= n["pages"][1] <= 9
    assert sum(n["parent"] is None for n in trace["nodes"]) == 1
    for i, step in enumerate(trace["steps"], start=1):
        assert set(step) >= {"iteration", "path", "reward"}
        assert step["iteration"] == i and set(step["path"]) <= ids and 0.0 <= step["reward"] <= 1.0

    stats = out["stats"]
    assert set(stats) >= {"seconds", "llm_calls", "cache_hits", "nodes_scored", "cost_usd"}
    assert stats["llm_calls"] == 0 and stats["cost_usd"] == 0.0 and stats["nodes_scored"] >= 1
    assert 0 < stats["seconds"] < 60


def test_query_text_output(sample_file, data_dir):
    proc = run_cli("query", str(sample_file), "Where is the new factory?", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert "Tampere" in proc.stdout and "confidence" in proc.stdout and "northwind.pdf" in proc.stdout


def test_a_question_past_the_limit_gets_one_sentence(sample_file, data_dir, capsys):
    """The engine API and the CLI refuse a question longer than the engine reads (a 110 KB question
    spent 12 s in the confidence's re-rankings) with a sentence, not a traceback or a wait."""
    from alphasearch.config import MAX_QUESTION_CHARS

    long = "What was the revenue " + "in the year " * (MAX_QUESTION_CHARS // 10) + "?"
    assert cli.main(["--data-dir", str(data_dir), "query", str(sample_file), long]) != 0
    err = capsys.readouterr().err
    assert f"the limit is {MAX_QUESTION_CHARS:,}" in err and "Traceback" not in err
    ok = "What was the revenue " + "in the year " * (MAX_QUESTION_CHARS // 20) + "?"
    assert cli.main(["--data-dir", str(data_dir), "query", str(sample_file), ok]) == 0


def test_same_seed_same_answer(sample_file, data_dir, capsys):
    args = ["--data-dir", str(data_dir), "query", str(sample_file), "How many employees?", "--json", "--seed", "5"]
    outs = []
    for _ in range(2):
        assert cli.main(args) == 0
        out = json.loads(capsys.readouterr().out)
        out["stats"].pop("seconds")
        outs.append(out)
    assert outs[0] == outs[1]


def test_second_query_does_not_index_again(sample_file, data_dir, capsys, monkeypatch):
    base = ["--data-dir", str(data_dir)]
    assert cli.main(base + ["query", str(sample_file), "What was the free cash flow?", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    index_files = list((data_dir / "indexes").glob("*.json"))
    assert len(index_files) == 1
    stamp = index_files[0].stat().st_mtime_ns

    def no_indexing(*a, **k):
        raise AssertionError("the PDF was indexed again")

    monkeypatch.setattr(isolation.WorkerPool, "run", no_indexing)  # indexing happens in a worker process
    # same bytes under another name and path: still the cached index (keyed by content hash)
    copy = sample_file.parent / "copy-of-report.pdf"
    copy.write_bytes(sample_file.read_bytes())
    assert cli.main(base + ["query", str(copy), "What was the free cash flow?", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["pages"] == first["pages"] and "16.5" in second["answer"]
    assert second["citations"][0]["doc"] == "copy-of-report.pdf"
    assert index_files[0].stat().st_mtime_ns == stamp


def test_index_force_rebuilds(sample_file, data_dir, capsys, monkeypatch):
    base = ["--data-dir", str(data_dir)]
    assert cli.main(base + ["index", str(sample_file)]) == 0
    calls = []
    real = isolation.WorkerPool.run  # indexing happens in a worker process
    monkeypatch.setattr(isolation.WorkerPool, "run", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert cli.main(base + ["index", str(sample_file)]) == 0
    assert calls == []
    assert cli.main(base + ["index", str(sample_file), "--force"]) == 0
    assert calls == [1]


def test_demo(data_dir):
    proc = run_cli("demo", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert "Sample PDF:" in proc.stdout and "412.6" in proc.stdout
    assert (data_dir / "sample").is_dir()


def test_demo_with_own_question(data_dir, capsys):
    assert cli.main(["--data-dir", str(data_dir), "demo", "Who founded the company?"]) == 0
    out = capsys.readouterr().out
    assert "Lindqvist" in out


def test_missing_file_is_one_clear_line(data_dir, tmp_path):
    proc = run_cli("query", str(tmp_path / "absent.pdf"), "anything", data_dir=data_dir)
    assert_clean_failure(proc, "absent.pdf")
    assert proc.returncode == 2


def test_usage_errors_exit_2(data_dir):
    proc = run_cli("query", data_dir=data_dir)
    assert proc.returncode == 2 and "usage:" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("frobnicate", data_dir=data_dir)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_data_dir_from_environment(sample_file, tmp_path):
    target = tmp_path / "env-data"
    proc = run_cli("index", str(sample_file), data_dir=target)
    assert proc.returncode == 0, proc.stderr
    assert list((target / "indexes").glob("*.json"))


def test_not_a_file_and_wrong_extension_are_one_line(tmp_path, data_dir, capsys, sample_pdf):
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    text = tmp_path / "notes.xlsx"
    text.write_bytes(sample_pdf)
    for path, words in ((folder, "is not a file"), (text, "is not a type AlphaSearch reads")):
        assert cli.main(["--data-dir", str(data_dir), "query", str(path), "anything?"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith("error: ") and words in err


def test_empty_or_odd_questions_answer_the_fallback_not_a_crash(sample_file, data_dir, capsys):
    for question in ("", "   ", "the of and", "\U0001f680\U0001f680"):
        assert cli.main(["--data-dir", str(data_dir), "query", str(sample_file), question, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["fallback"] is True and out["citations"] == []


def test_several_questions_share_one_start_up(sample_file, data_dir):
    proc = run_cli("query", str(sample_file), "What was the total revenue in 2025?",
                   "Who is the chief executive officer?", "--json", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.splitlines())  # one object per question
    assert "412.6" in first["answer"] and first["pages"][0] in (4, 5)
    assert second["answer"] != first["answer"]
    text = run_cli("query", str(sample_file), "What was the total revenue in 2025?", "What was net income?",
                   data_dir=data_dir)
    assert text.returncode == 0 and text.stdout.startswith("Q: What was the total revenue in 2025?\n")
    assert "\nQ: What was net income?\n" in text.stdout


def test_inspect_into_a_closed_pipe_exits_quietly(sample_file, data_dir):
    """`alphasearch inspect FILE | head`: the reader closes early; no BrokenPipeError traceback."""
    import subprocess
    import sys

    from cli_helpers import REPO_ROOT, cli_env

    assert run_cli("index", str(sample_file), data_dir=data_dir).returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "alphasearch", "inspect", str(sample_file)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=cli_env(data_dir), cwd=REPO_ROOT)
    proc.stdout.close()  # like `head` that has read its lines
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()
    assert proc.returncode == 141


def test_progress_in_a_pipe_is_plain_lines(tmp_path, data_dir):
    """`folder add` with stderr not a terminal: one line per step, no carriage returns."""
    import io

    from alphasearch.cli.progress import CliProgress

    stream = io.StringIO()
    bar = CliProgress(stream=stream)
    for i in range(101):
        bar("indexing report.pdf", i / 100)
    bar("indexed report.pdf", 1.0)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue() and 10 <= len(lines) <= 13
    assert lines[0] == "[  0%] indexing report.pdf" and lines[-1] == "[100%] indexed report.pdf"

    import pdf_factory

    pdf = tmp_path / "orchard.pdf"
    pdf.write_bytes(pdf_factory.outline_pdf())
    proc = run_cli("folder", "add", "Reports", str(pdf), "--create", data_dir=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr and proc.stderr.strip() and all(
        line.startswith("[") for line in proc.stderr.strip().splitlines())
