"""Fixtures of the reading tests: a document to lend literal pages to, and a document's page frequencies."""
from __future__ import annotations

import pytest

from alphasearch.lang.text import terms


@pytest.fixture
def doc(engine):
    """An indexed generated statement PDF, whose pages the literal tests replace with their own text."""
    from pdf_factory import table_pdf

    return engine.index_bytes(table_pdf(), "harbor.pdf")


@pytest.fixture
def df_of():
    """``df_of(doc)``: how many of ``doc``'s pages hold each term (what the extractive answer weighs by)."""
    def count(doc) -> dict[str, int]:
        df: dict[str, int] = {}
        for p in doc.pages:
            for t in set(terms(p.text)):
                df[t] = df.get(t, 0) + 1
        return df

    return count
