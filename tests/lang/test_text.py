"""Text utilities: the memoised stemmer gives the same terms as stemming afresh."""
from __future__ import annotations

from alphasearch.lang import text

SAMPLE = ("Employees employed by the Company were paid salaries; revenues increased while the "
          "employees' wages and the company's revenue grew in 2022 and 2021.")


def _fresh(s: str) -> list[str]:
    return [t[:-1] if len(t) > 4 and t.endswith("e") else t
            for t in text.stemmer().stemWords([w for w in text.words(s) if w not in text.STOPWORDS])]


def test_terms_match_stemming_afresh_even_when_the_memo_restarts(monkeypatch):
    assert text.terms(SAMPLE) == _fresh(SAMPLE)
    assert text.terms(SAMPLE) == _fresh(SAMPLE)  # now from the memo
    monkeypatch.setattr(text, "_STEMS_MAX", 3)  # every call overflows: the memo starts afresh
    assert text.terms(SAMPLE) == _fresh(SAMPLE)
    assert text.terms("employe employees") == ["employ", "employ"]


def test_normalise_keeps_ascii_letters_only():
    assert text.normalise("  Item 7A. Management’s DISCUSSION — Résumé\t(2022)  ") == "item a management s discussion r sum"
    assert text.normalise_lines("Café Société\n\nNOTE 9: Leases\n") == ["caf soci t", "", "note leases", ""]
    assert text.normalise("İstanbul \ud800x") == "i stanbul x"  # lower() makes i + a combining dot; a lone surrogate


def test_pieces_split_where_sentences_end():
    assert text.pieces("Revenue grew. Costs fell; Margins rose! it held.\n\nNext part\nAnother line\nlower line") == [
        "Revenue grew.", "Costs fell;", "Margins rose! it held.", "Next part", "Another line\nlower line"]
    assert text.pieces("a.  \n \"Quoted\" e.g. 1999 ok\n• item\n\n\n(x)") == ["a.", "\"Quoted\" e.g.", "1999 ok", "• item", "(x)"]


def test_stopwords_are_those_of_the_bm25_baseline():
    """The engine's terms drop the words the flat BM25 baseline drops (bm25s's English list), written
    out in text.py so that the PDF worker need not import bm25s."""
    from bm25s.stopwords import STOPWORDS_EN

    assert text.ENGLISH_STOPWORDS == tuple(STOPWORDS_EN)
    assert set(STOPWORDS_EN) <= text.STOPWORDS


def test_the_pdf_worker_imports_neither_bm25s_nor_the_engine():
    """What the PDF worker imports (the indexer) leaves out bm25s and the engine's scorers: start-up is paid
    by every worker of a folder add."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; from alphasearch.index import isolation, indexer; "
            "print(sorted(m for m in ('bm25s', 'scipy', 'alphasearch.pipeline', 'alphasearch.search.scorers', "
            "'alphasearch.index.ranker') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    assert out.strip() == "[]"


def test_shorten_ends_at_a_word():
    title = "Consolidated Results of Operations and Financial Condition"
    assert text.shorten(title, 36) == "Consolidated Results of Operations…"
    assert text.shorten(title, 100) == title
    assert text.shorten("Supercalifragilisticexpialidocious words", 12) == "Supercalifr…"  # one long word: cut inside
    assert text.shorten("Revenue; Costs; Margins and more", 17) == "Revenue; Costs…"


def test_a_typeset_ligature_is_its_letters_and_a_symbol_fonts_bullet_is_not_shown():
    """A text layer that keeps ligatures ("ﬁnal", "ﬂow": one character each, U+FB01 and U+FB02) matched no
    question asking for "final" or "flow"; a Symbol font's bullet (U+F0B7) showed as an empty box in a quote. Its
    other private-use characters stay: U+F06D is Symbol's "µ", and a dose of "50 µg" read "50 g" with it dropped."""
    assert text.terms("The \ufb01nal dividend and cash \ufb02ow of the o\ufb03ce") == text.terms(
        "The final dividend and cash flow of the office")
    assert text.shorten("the 3 compulsory courses: \uf0b7 GS6001 (Research Ethics)", 100) == (
        "the 3 compulsory courses: • GS6001 (Research Ethics)")
    assert text.shorten("Patients received 50 \uf06dg twice daily", 100) == "Patients received 50 \uf06dg twice daily"


def test_a_page_printing_ligatures_is_found_by_the_words_they_spell():
    import pdf_factory
    from dataclasses import replace

    from alphasearch.index import indexer
    from alphasearch.index.ranker import PageRanker
    from alphasearch.models import Page

    doc = indexer.build_index(pdf_factory.make_pdf([["Harbor report", "Results"]] * 3), "ligatures.pdf")
    doc = replace(doc, pages=(Page(1, "Harbor report\nOur results improved in every region."),
                              Page(2, "Dividends\nThe interim dividend was 10 cents per share."),
                              Page(3, "Dividends\nThe \ufb01nal dividend declared by the board after the year end was 12 "
                                      "cents for each share held by shareholders of record.")))
    scores = PageRanker(doc).scores("What was the final dividend per share?")
    assert int(scores.argmax()) + 1 == 3, scores


def test_a_numbering_word_ends_no_sentence_before_its_number():
    """"Commission File No. 1-10635" is one piece: the number is what the line says (it was cut off as a sentence
    of its own); a sentence ending in a figure still ends."""
    assert text.pieces("Commission File No. 1-10635 NIKE, Inc. See Fig. 3 and pp. 4-5. Revenue grew. 2023 was good.") == [
        "Commission File No. 1-10635 NIKE, Inc.", "See Fig. 3 and pp. 4-5.", "Revenue grew.", "2023 was good."]
    assert text.pieces("The answer is no. 42 stores closed.") == ["The answer is no.", "42 stores closed."]
