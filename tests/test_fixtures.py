"""The shared fixtures produce what their docstrings promise."""
from __future__ import annotations

from alphasearch import pdf
from alphasearch.config import Settings


def test_settings_are_offline_and_isolated(settings, data_dir, engine):
    assert settings.resolved_engine == "offline"
    assert settings.data_dir == data_dir and not any(data_dir.iterdir())
    assert engine.settings is settings
    assert Settings.from_env().api_key == ""


def test_structured_pdfs(outline_pdf, headings_pdf, flat_pdf, sample_pdf):
    outline = pdf.read_pdf(outline_pdf)
    assert outline.page_count == 7 and [t for _, t, _ in outline.toc][:2] == ["Introduction", "Membership"]
    headings = pdf.read_pdf(headings_pdf)
    assert headings.toc == [] and headings.pages[0].lines[0] == pdf.Line("Introduction", 20.0, True)
    flat = pdf.read_pdf(flat_pdf)
    assert flat.toc == [] and {ln.size for p in flat.pages for ln in p.lines} == {11.0}
    assert pdf.read_pdf(sample_pdf).page_count == 9


def test_big_pdf_has_the_planted_fact_on_its_page(big_pdf_200, planted_fact):
    content = pdf.read_pdf(big_pdf_200)
    assert content.page_count == 200
    holding = [p.number for p in content.pages if "Skarvik" in p.text]
    assert holding == [planted_fact.page]
    assert "2.37 million" in " ".join(content.pages[planted_fact.page - 1].text.split())
    # filler is varied: no two pages share their text
    assert len({p.text for p in content.pages}) == 200


def test_make_pdf_and_file_writer(make_pdf, write_pdf_file):
    data = make_pdf(["one", ["two", "more"]], toc=[(1, "One", 1)])
    path = write_pdf_file(data, "x.pdf")
    assert path.read_bytes() == data and pdf.page_count(data) == 2
