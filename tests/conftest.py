"""Shared fixtures: a temporary data directory, offline settings and engine, and PDF bytes.

Every PDF is generated (see ``tests/pdf_factory.py``); nothing is downloaded and nothing
touches ``~/.alphasearch``. Fixture names are stable: add new ones, never rename.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

import pdf_factory
from alphasearch.config import Settings
from alphasearch.pipeline import Engine

REPO_ROOT = Path(__file__).resolve().parent.parent
EVAL_DIR = REPO_ROOT.parent / "shared" / "eval"


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch, tmp_path_factory):
    """No test reads the developer's key, endpoint or data directory by accident."""
    settings_vars = {"ALPHASEARCH_" + f.name.upper() for f in dataclasses.fields(Settings)}
    for key in list(os.environ):
        if key in settings_vars or key in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("ALPHASEARCH_DATA_DIR", str(tmp_path_factory.mktemp("default-data")))


@pytest.fixture
def data_dir(tmp_path) -> Path:
    """A fresh, empty data directory for this test."""
    d = tmp_path / "data"
    d.mkdir()
    return d


@pytest.fixture
def settings(data_dir) -> Settings:
    """Offline settings rooted at ``data_dir`` (no key, no network)."""
    return Settings(data_dir=data_dir, engine="offline")


@pytest.fixture
def engine(settings) -> Engine:
    return Engine(settings)


@pytest.fixture
def make_pdf():
    """``make_pdf(pages, toc=(), title="", width=595, height=842) -> bytes``.

    ``pages`` is a list of pages; each page is a string or a list of strings/TextBlocks.
    """
    return pdf_factory.make_pdf


@pytest.fixture(scope="session")
def sample_pdf() -> bytes:
    """The 9-page Northwind sample report the product ships (outline, headings, a table)."""
    from alphasearch.library.sample import sample_pdf_bytes

    return sample_pdf_bytes()


@pytest.fixture(scope="session")
def outline_pdf() -> bytes:
    """7 pages: cover + six chapters (Introduction … Finances), one outline entry each."""
    return pdf_factory.outline_pdf()


@pytest.fixture(scope="session")
def headings_pdf() -> bytes:
    """6 pages, chapters marked by 20 pt bold lines (15 pt subheadings), no outline."""
    return pdf_factory.headings_pdf()


@pytest.fixture(scope="session")
def flat_pdf() -> bytes:
    """5 pages of 11 pt body text: no outline, no headings."""
    return pdf_factory.flat_pdf()


@pytest.fixture(scope="session")
def encrypted_pdf() -> bytes:
    """Needs the user password "secret": the engine rejects it (EncryptedPDFError)."""
    return pdf_factory.encrypted_pdf()


@pytest.fixture(scope="session")
def owner_only_pdf() -> bytes:
    """Owner-password-only encryption: opens without a password; the engine accepts it."""
    return pdf_factory.owner_only_pdf()


@pytest.fixture(scope="session")
def truncated_pdf() -> bytes:
    """The first 400 bytes of a real PDF (CorruptPDFError)."""
    return pdf_factory.truncated_pdf()


@pytest.fixture(scope="session")
def empty_pdf() -> bytes:
    """Zero bytes (EmptyFileError)."""
    return b""


@pytest.fixture(scope="session")
def zero_pages_pdf() -> bytes:
    """A valid PDF whose page tree has /Count 0 (NoPagesError)."""
    return pdf_factory.zero_pages_pdf()


@pytest.fixture(scope="session")
def big_pdf_200() -> bytes:
    """200-page municipal report with varied filler; one fact planted on ``planted_fact.page``."""
    return pdf_factory.big_pdf_200()


@pytest.fixture(scope="session")
def planted_fact() -> pdf_factory.PlantedFact:
    """``page`` (1-based) holding the fact in ``big_pdf_200``, its ``question``, ``answer_terms``
    (strings the answer contains) and an ``unanswerable`` question."""
    return pdf_factory.PLANTED


@pytest.fixture
def write_pdf_file(tmp_path):
    """``write_pdf_file(data, name="doc.pdf") -> Path``: put bytes in a file under tmp_path."""
    def write(data: bytes, name: str = "doc.pdf") -> Path:
        path = tmp_path / "files" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path
    return write


@pytest.fixture(scope="session")
def eval_dir() -> Path | None:
    """``../shared/eval`` beside the repository, or None when it is absent (licensed; never copied)."""
    return EVAL_DIR if (EVAL_DIR / "questions.jsonl").is_file() else None
