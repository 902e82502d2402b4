"""What a question's answer is made of beyond one printed figure, and whether a direct line has that shape.

An extractive reader quotes what a page prints. Some questions are not answered by any one printed figure,
however well its row matches their words, and stating one as the direct answer is stating a wrong figure:

- ``several``: the answer is more than one figure — a list ("… in list format", "… respectively"), a comparison
  of two things ("how did US sales growth compare to international");
- ``combined``: the answer is one figure computed from several — a sum or a difference ("the combined percentage",
  "the absolute percentage drop");
- ``pick``: the answer names which of several things has the most or least of a measure ("which segment had the
  lowest net revenue"): the figure of one of them, or of their total, is not the name asked;
- ``things``: the answer counts things the pages show ("how many charts compare …"), which no printed figure states.

A computed line (a change, a ratio, a comparison of named options) has done the combining and fits ``combined``;
a comparison of named options fits every shape, and a change or ratio fits ``several`` when the comparison asked
is one of periods and it shows two figures ("change 2021→2022: 6,467 - 6,375" for "… in 2022 versus 2021"; a stated
"change: 1.3%" compares nothing, and one line item's change is no comparison of US and international sales). A
single table figure fits none. A sentence fits ``several`` and ``combined`` when it states two figures or more of
one kind ("the growth was 5.3% and 5.2%"; not "growth of 1.3% to $94.9 billion", one growth and one amount) or
none, ``pick`` when it says which one has the most (a superlative or a comparative),
``things`` when it names what is counted. The words are data: ``data/shapes.json``. A sentence stating figures
for a question asking a percentage states a share (:func:`states_unit_asked`).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..lang import domain
from ..lang.questions import asks, first_sentence, first_sentence_says

SHAPES = ("things", "pick", "several", "combined")
COMPUTED = ("change", "ratio", "comparison")  # direct lines that combine figures themselves
_FIGURE = re.compile(r"(?<![\w.])[-+$€£(]?\d[\d,]*(?:\.\d+)?%?")
_YEAR = re.compile(r"^(?:1[89]|20)\d\d$")
_YEARS = re.compile(r"\b(?:19|20)\d\d\b")
_PERCENT_AFTER = re.compile(r"\)?\s?(?:%|percent\b|per cent\b|percentage points?\b|pp\b)", re.IGNORECASE)
_SCALE_AFTER = re.compile(r"\)?\s?(?:billion|million|thousand|bn|mn)\b", re.IGNORECASE)
_COMPOUND = re.compile(r"\bper ?cent(?:age)?-[\w-]+", re.IGNORECASE)
_SHARE_ASKED = re.compile(r"\b(?:what|which) (?:share|proportion|fraction)\b", re.IGNORECASE)
_COUNTED = re.compile(r"\bhow (?:many|much)\s+([a-z]+|%)", re.IGNORECASE)
# a number that may count things: no currency sign before it, no percent after it, not one part of an identifier
# ("36-2361282", "21-13199"), nor a clause's number ("(1) owns 15%", "1.4 “Eligible Employee” shall mean"): a count
# has decimals only before a scale word ("1.4 million")
_COUNT_FIGURE = re.compile(r"(?<![\w$€£.,(-])(?<!- )\d[\d,]*(?:\.\d+(?=\s?(?:million|billion|thousand)\b))?(?![.,]?\d)"
                           r"(?![\d,.]*\s?(?:%|percent\b|per cent\b))"
                           r"(?![\d,.]*\s?-\s?\d)(?![\d,.]*\()")  # nor a code ("401(k)")
_CITED = re.compile(r"\bpp?\.\s?\d{1,4}(?:\s?[,–-]\s?\d{1,4})*")


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    data = domain.load("shapes")
    return {
        "several": re.compile(rf"\b(?:{domain.alternation(data['several'])})\b", re.IGNORECASE),
        "combined": re.compile(rf"\b(?:{domain.alternation(data['combined'])})\b", re.IGNORECASE),
        "periods": re.compile(rf"\b(?:{domain.alternation(data['periods'])})\b", re.IGNORECASE),
        "pick": re.compile("|".join(f"(?:{p})" for p in data["pick"]), re.IGNORECASE),
        "things": re.compile("|".join(f"(?:{p})" for p in data["things"]), re.IGNORECASE),
        "superlatives": re.compile(rf"\b(?:{domain.alternation(data['superlatives'])})\b", re.IGNORECASE),
        "shares": re.compile("|".join(f"(?:{p})" for p in data["shares"]), re.IGNORECASE),
    }


def shape(question: str) -> str | None:
    """``"things"``, ``"pick"``, ``"several"`` or ``"combined"`` (the first that matches, in that order), or None
    for a question one printed figure or sentence may answer."""
    patterns = _patterns()
    return next((name for name in SHAPES if patterns[name].search(question)), None)


def compares_periods(question: str) -> bool:
    """The comparison asked is one of periods: the question names two years ("in 2022 versus 2021") or a period
    before ("versus the prior year"), not two things ("US sales growth compared to international")."""
    return len(set(_YEARS.findall(question))) >= 2 or bool(_patterns()["periods"].search(question))


def figures_stated(text: str) -> int:
    """How many distinct figures ``text`` states: years (which date a figure, printed without a comma: "1,950" is
    a figure) and the line's page citation ("— p. 77", "(pp. 40, 41)") aside."""
    return len({value for _, value in _figures(text)})


def figures_by_kind(text: str) -> dict[str, int]:
    """How many distinct figures ``text`` states of each kind: ``"%"`` a percentage ("3.0%", "(0.6)%", "12
    percent"), ``"$"`` an amount (a currency sign, or a scale word: "94.9 billion"), ``""`` any other number; years
    and page citations aside, as in :func:`figures_stated`."""
    found: dict[str, set[str]] = {}
    for kind, value in _figures(text):
        found.setdefault(kind, set()).add(value)
    return {kind: len(values) for kind, values in found.items()}


def _figures(text: str) -> list[tuple[str, str]]:
    text = _CITED.sub(" ", text)
    out = []
    for m in _FIGURE.finditer(text):
        printed = m.group(0).strip("-+$€£(").rstrip("%")
        if not printed or _YEAR.match(printed):  # "1,950" is a figure, "1950" a year
            continue
        after = text[m.end():m.end() + 20]
        kind = "%" if m.group(0).endswith("%") or _PERCENT_AFTER.match(after) else (
            "$" if m.group(0).lstrip("-+(")[:1] in "$€£" or _SCALE_AFTER.match(after) else "")
        out.append((kind, printed.replace(",", "")))
    return out


def of_one_kind(text: str) -> bool:
    """``text`` states two figures or more that may be compared: of one kind, a plain number counting as the kind
    beside it when it is the only one ("rose 3 and 5 percent", "were 5.2 and 4.8 billion, respectively"); not
    one percentage and one amount ("growth of 1.3% to $94.9 billion")."""
    kinds = figures_by_kind(text)
    typed = {k: n for k, n in kinds.items() if k}
    if len(typed) > 1:
        return max(typed.values()) >= 2
    return sum(kinds.values()) >= 2


def percentage_asked(question: str) -> bool:
    """The question asks a percentage: its first sentence says "percent", "percentage" or "%" (not in a compound:
    "percentage-of-completion"), or asks "what share / proportion / fraction", and it counts no things ("how many
    claims are with the highest percentage …" asks a count; "how many % of …" a percentage)."""
    first = _COMPOUND.sub(" ", first_sentence(question))  # "the percentage-of-completion method" names a method
    counted = _COUNTED.search(first)
    if counted and counted.group(1).lower() not in ("%", "percent", "percentage", "per"):
        return False
    return first_sentence_says(first, domain.load("lexicon")["asks"]["percent"]) or "%" in first or bool(
        _SHARE_ASKED.search(first))


def states_unit_asked(question: str, text: str) -> bool:
    """A line stating figures states one in the unit asked: a question asking a percentage ("what percentage",
    "how many %") is not answered by a line whose figures are all plain numbers or amounts ("between 2003 and 2007
    for all 59 community districts"), unless it states a share in other words (``shares`` of ``data/shapes.json``:
    "two-thirds of the 2,000 adults", "about 1 in 5", "150 basis points"); a count asked is not answered by a line
    whose figures are all amounts, percentages or identifiers ("reimbursements totaling $95 million", "The Employer
    Identification Number … is 36-2361282" for the number of employees); a line stating no figure at all is judged
    elsewhere. The caller asks it of questions wanting a number ("who owns more than 5%" wants a name)."""
    if not percentage_asked(question):
        return not count_asked(question) or not figures_stated(text) or bool(
            _COUNT_FIGURE.search(_YEARS.sub(" ", not_figures().sub(" ", text))))  # "as defined in Section 203"
    return not figures_stated(text) or bool(figures_by_kind(text).get("%")) or bool(_patterns()["shares"].search(text))


@lru_cache(maxsize=1)
def not_figures() -> re.Pattern[str]:
    """What prints digits but states no figure (``not_figures`` of data/lexicon.json: "Section 203", a web address)."""
    return re.compile("|".join(f"(?:{p})" for p in domain.load("lexicon")["not_figures"]), re.IGNORECASE)


def count_asked(question: str) -> bool:
    """The question asks how many there are ("how many", "the number of"; not "how many dollars", nor a share)."""
    return asks(question, "count") and not asks(question, "not_count")


def adds_figure(question: str, text: str) -> bool:
    """A line stating figures states one the question does not ("How many years have there been more than 4,500
    births?" is not answered by a chart's title "Births: 1940-1980 … 4,500": it repeats the question's figure), in
    digits or in words ("The Model 2100 remote needs two AA batteries": the ``numbers`` of data/ranking.json); a
    line stating none is judged elsewhere."""
    said = {value for _, value in _figures(text)}
    if not said or not said <= {value for _, value in _figures(question)}:
        return True
    return bool(set(re.findall(r"[a-z]+", text.lower())) & number_words())


@lru_cache(maxsize=1)
def number_words() -> frozenset[str]:
    """The numbers written in words ("two", "twelve": ``numbers`` of data/ranking.json)."""
    return frozenset(domain.load("ranking")["numbers"])


def states_figure_asked(question: str, text: str) -> bool:
    """A line's figures may answer a question wanting a number: a share for a percentage asked
    (:func:`states_unit_asked`), and one the question does not print itself (:func:`adds_figure`)."""
    return states_unit_asked(question, text) and adds_figure(question, text)


def line_fits(question: str, kind: str, text: str) -> bool:
    """Whether a direct line of ``kind`` ("figure", "sentence", or a computed kind) reading ``text`` has the
    shape of the answer ``question`` asks for (always, for a question of no particular :func:`shape`)."""
    wanted = shape(question)
    if wanted is None or kind == "comparison" or (wanted == "combined" and kind in COMPUTED):
        return True
    if wanted == "several" and kind in COMPUTED:  # a change of two years' figures compares them ("… versus 2021")
        return compares_periods(question) and figures_stated(text) >= 2
    if kind != "sentence":  # one table figure: not a list, a comparison, a name or a count of things
        return False
    if wanted == "pick":  # a line that names the one with the most says so
        return bool(_patterns()["superlatives"].search(text))
    if wanted == "things":  # … and a count of charts names the charts
        counted = _patterns()["things"].search(question).group(0).split()[-1].lower().rstrip("s")
        return bool(re.search(rf"\b{re.escape(counted)}s?\b", text, re.IGNORECASE))
    # a list, a comparison or a sum: two figures or more of one kind, or none stated ("sales growth of 1.3% to
    # $94.9 billion" states one growth: it compares nothing)
    return not figures_stated(text) or of_one_kind(text)
