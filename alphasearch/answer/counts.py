"""How many: what a question counts ("how many people", "the number of data centers") and the sentence that states
the count ("we employed approximately 83,000 people worldwide"), wherever the document says it.

A count is a stock at a date unless the question asks what changed: a figure a flow word governs ("we hired more
than 10,000 employees", "added 1,200 stores": ``count_flows`` of ``data/lexicon.json``) counts what changed over
the period, not how many there were, and does not answer "how many people did it employ at the end of 2021"; it
answers "how many people did it hire".
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..lang.questions import asks
from ..lang.text import STOPWORDS, sentences, terms
from ..models import DocumentIndex
from ..read.items import concepts, lexicon, singular
from ..read.meaning import asked
from ..read.rows import org_terms
from ..read.tables import years_named

COUNT_FIT = 0.75  # share of a "how many" question's key terms a sentence stating the count holds
OTHER_YEAR = 0.5  # a count's fit when its sentence names years, none of them asked: another period's count
UNDATED = 0.9  # … when neither its sentence nor its page names a year asked ("as of fiscal year end")
COUNT_WINDOW = 5  # words after a number within which what a "how many" question counts may follow it
FLOW_WINDOW = 3  # words before a number within which a flow word governs it ("hired more than 10,000")
NUMBER = re.compile(r"\d[\d,.]*")
YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


def counted(question: str) -> set[str]:
    """What a "how many / how much" question counts, as words in the singular with the other names of what it
    counts (``count_units`` of the lexicon: "how many grams" → gram, g, gr; "how many people" → people,
    employee, associate, …)."""
    asked = counted_words(question)
    words = re.findall(r"[a-z][\w-]*", asked)
    units = [u for t in terms(asked) for u in lexicon()["count_units"].get(t, ())]
    return {singular(w) for w in words + units if w not in STOPWORDS}


@lru_cache(maxsize=1)
def _of_count() -> re.Pattern[str]:
    """The words of ``asks`` ``of_count`` (lexicon): "the number of" things they name is what a share is taken of."""
    from ..lang import domain

    words = lexicon()["asks"]["of_count"]
    return re.compile(rf"\b(?:{domain.alternation([w for w in words if w.isalpha()])})\b|"
                      + "|".join(re.escape(w) for w in words if not w.isalpha()))


def counted_words(question: str) -> str:
    """The words after "how many / how much" ("people did"), "the number of" or "count of" ("membership warehouses")
    unless the question asks a share or a ratio of that number, "" when the question has none."""
    low = question.lower()
    m = re.search(r"\bhow (?:many|much)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", low)
    if m is None and not _of_count().search(low):  # "what share of the number of employees …" asks no count
        m = re.search(r"\b(?:number|count) of\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", low)
    return m.group(1) if m else ""


def counts(sentence: str, things: set[str], flows: frozenset[str] = frozenset()) -> bool:
    """``sentence`` states a count of ``things`` (:func:`count_of`)."""
    return count_of(sentence, things, flows) is not None


def flows_unasked(question: str) -> frozenset[str]:
    """The flow words (``count_flows`` of the lexicon) a count must not follow: all of them, unless the question asks
    what changed itself ("how many people did it hire"), then none."""
    flows = frozenset(lexicon()["count_flows"])
    return frozenset() if flows & set(re.findall(r"[a-z]+", question.lower())) else flows


def count_of(sentence: str, things: set[str], flows: frozenset[str] = frozenset()) -> float | None:
    """The largest figure in ``sentence`` followed within :data:`COUNT_WINDOW` words by what is counted ("18 data
    centers", "8,450 full time/permanent employees", "2.1 million associates"), None when none is. A share is
    no count ("38 percent were"), nor a number whose words to the counted noun hold a preposition ("401(k) plan
    for associates": the lexicon's ``count_breaks``), nor a noun that modifies the next one ("2 employee benefit
    plans": :func:`_modifies`), nor one a word of ``flows`` governs ("hired more than 10,000 employees")."""
    tokens = [t.rstrip(".,'") or t for t in re.findall(r"[\w%°.,']+", sentence.lower())]
    found = None
    for i, tok in enumerate(tokens):
        num = tok.strip(".,")
        if not NUMBER.fullmatch(num) or YEAR.fullmatch(num) or tok.endswith("%"):
            continue
        if flows and flows & set(tokens[max(0, i - FLOW_WINDOW):i]):
            continue  # what changed over the period, not how many there were
        after = tokens[i + 1:i + 1 + COUNT_WINDOW]
        if after[:1] in (["%"], ["percent"]):
            continue
        for k, a in enumerate(after):
            if a in lexicon()["count_breaks"]:
                break
            if singular(a) in things:  # the noun, not a word of its stem ("5-Star Employer")
                scale = {"thousand": 1e3, "million": 1e6, "billion": 1e9}.get(after[0], 1.0) if k else 1.0
                try:
                    value = float(num.replace(",", "")) * scale
                except ValueError:
                    value = 0.0
                if value > 1 and _modifies(a, after[k + 1:k + 2]):
                    continue  # "538 square miles": the counted noun may still follow
                found = value if found is None else max(found, value)
                break
    return found


def _modifies(word: str, following: list[str]) -> bool:
    """Whether ``word``, after a number above one, modifies the noun that follows rather than being what is
    counted: it is in the singular ("2 employee benefit plans"; a count above one takes the plural) and
    another word follows it. Words whose plural takes no -s (the lexicon's ``same_plural``: "900 staff",
    "12,300 people") and units ("500 mg tablets") are counted as they stand."""
    if not following or not following[0].isalpha() or following[0] in STOPWORDS:
        return False
    if word in lexicon()["same_plural"] or len(word) <= 3 or word.endswith("s"):
        return False
    return singular(word) == word


def count_sentence(doc: DocumentIndex, question: str, kind: str, candidates, read: Sequence[int]):
    """For a "how many" question, the sentence that states the count asked, as a candidate, or None: a sentence
    whose figure is followed by what the question counts (:func:`counts`; "we employed approximately 83,000
    people worldwide") and which holds at least :data:`COUNT_FIT` of the question's key terms
    (:func:`meaning.asked`: the company's name and the question's form words aside; the question's noun is held
    by the count itself, "2.1 million associates" for "people", its other key words by the sentence: "employ" in
    "associates employed worldwide", not in "serves 35 million people"). The candidates of the pages read first; when none fits, the
    other pages' sentences (a count is said once, in a sentence, wherever the document puts it: a Human Capital
    section the search ranked below the statements), passing over a page that prints none of the years asked."""
    things = counted(question) if kind == "number" and asks(question, "count") else set()
    if not things:
        return None
    want = asked(question, concepts(question), org_terms(doc), doc)
    if not want.weights:
        return None

    years = years_named(question)
    noun = set(terms(counted_words(question)))
    flows = flows_unasked(question)

    def fit(sentence: str, page: int) -> float:
        held = set(terms(sentence)) | noun  # the count holds the question's noun, not its other key words
        share = sum(w for t, w in want.weights.items() if t in held) / want.total
        if years and not any(y in sentence for y in years):
            # another year's count, or a page that does not say which year (a Human Capital section "as of
            # fiscal year end")
            if YEAR.search(sentence):
                share *= OTHER_YEAR
            elif not any(y in doc.page(page).text for y in years):
                share *= UNDATED
        return share

    def better(c) -> tuple:  # the best fit; among equals the largest count: a total, not a part ("in the U.S.")
        return fit(c[4], c[3]), count_of(c[4], things, flows) or 0.0, c[0]

    found = [c for c in candidates if counts(c[4], things, flows)]
    best = max(found, key=better, default=None)
    if best is None or fit(best[4], best[3]) < COUNT_FIT:
        for page in doc.pages:
            if page.number not in read:
                found += [(0.0, 0.0, len(read), page.number, sent, "") for sent in sentences(page.text)
                          if 12 <= len(sent) <= 600 and counts(sent, things, flows)]
        best = max(found, key=better, default=None)
    if best is None or (f := fit(best[4], best[3])) < COUNT_FIT:
        return None
    return best if best in candidates else (f, f, *best[2:])
