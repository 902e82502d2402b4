"""Text utilities: the memoised stemmer gives the same terms as stemming afresh."""
from __future__ import annotations

from alphasearch import text

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
