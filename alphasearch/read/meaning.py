"""How well a table row (or a sentence's figure) means what a question asks, by the question's words, not by
a phrase it must print: the question's *key terms* (stemmed; the company's name, years, the question's
form words and the words that name a period left out), each weighted by how rare it is in the document,
and the share of that weight the row's label and its *context* (the table's heading line above it, the
page's title: the statement it sits in) hold.

A line item the lexicon names (``data/lexicon.json``) is an expansion, not a gate: a row whose label
holds a whole name of a line item the question names ("Net sales" for "revenue", "Net cash provided by
operating activities" for cash from operations) covers the question's words for that item, unless it is the
same item qualified otherwise ("Basic earnings per share" for "diluted earnings per share": a name adding
other words to the name both hold), which covers only the words it holds. A label word that is neither the question's nor part of such a synonym
counts against the row ("Basic" for a diluted figure, "assets" for non-current debt). So "how much cash
did <company> generate from operating activities" is covered by "Net cash provided by operating
activities" on the cash flow statement, and barely by "Cash and cash equivalents, end of year".

:func:`match` gives (``score``, ``coverage``): the score (the coverage times the share of the label's words
that the question or a name of its line item explains) ranks rows and decides whether a figure fits well
enough to be stated in the direct line (:data:`STATE_FIT`, chosen on the development set).
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..index import facts
from ..lang.text import terms
from ..models import DocumentIndex
from .tables import change_column
from .items import base_name, group_terms, implied_words, others_named, same_terms, label_core, lexicon, neutral_words, norm_text, without_negated

CONTEXT_WEIGHT = 0.6  # a key term the row's context holds (not its label) counts this much
STATE_FIT = 0.2  # a single figure whose row means what is asked less than this (match's score) is not stated
_DOC_DF: dict[str, tuple[int, dict[str, int]]] = {}
_DIGITS = re.compile(r"\d")
_NOT_SAID = re.compile(r"\bnot\b|n't\b", re.IGNORECASE)
_BRACKETS = re.compile(r"\([^()]*\)")
_LETTER = re.compile(r"[A-Za-z]")  # a remark in brackets, "(000's)", holds words; a negative "(0.08)" none
WRAPPED_LINES = 3  # a heading over a block of rows may wrap over this many lines
_UNIT_LINE = re.compile(r"\b(?:in )?(?:thousands|millions|billions)\b", re.IGNORECASE)  # "(In millions, except per share)"


@lru_cache(maxsize=1)
def _form_words() -> frozenset[str]:
    """Terms that carry a question's form or period, not its topic (``question_words`` of the lexicon), and the
    legal suffixes of a company's name ("Co", "Inc.": ``data/facts.json``)."""
    words = (*lexicon().get("question_words", ()), *facts.patterns()["organisation"]["suffixes"])
    return frozenset(t for w in words for t in terms(w)) | neutral_words()


def doc_df(doc: DocumentIndex) -> tuple[int, dict[str, int]]:
    """(pages, how many pages hold each term) of ``doc``, read once per document."""
    got = _DOC_DF.get(doc.doc_id)
    if got is None:
        df: dict[str, int] = {}
        for p in doc.pages:
            for t in set(terms(p.text)):
                df[t] = df.get(t, 0) + 1
        got = (max(1, doc.page_count), df)
        if len(_DOC_DF) >= 16:
            _DOC_DF.clear()
        _DOC_DF[doc.doc_id] = got
    return got


@lru_cache(maxsize=1)
def _item_terms() -> frozenset[str]:
    """The terms of every line item's names in the lexicon ("debt", "diluted", "inventories")."""
    return frozenset(t for group in lexicon()["groups"] for t in group_terms(group)[1])


@dataclass(frozen=True)
class Asked:
    """The key terms of a question with their weights, and the lexicon groups it names."""

    weights: dict[str, float]
    groups: tuple[str, ...]
    org: frozenset[str] = frozenset()  # the terms of the company's name (a row "attributable to" it is its own)
    negates: bool = False  # the question says "not" ("declared but not paid"): a label's "not" is then read as printed

    @property
    def total(self) -> float:
        return sum(self.weights.values())


def asked(question: str, groups: Sequence[str], org: frozenset[str] = frozenset(),
          doc: DocumentIndex | None = None, labels: frozenset[str] | None = None) -> Asked:
    """The key terms of ``question`` weighted by their rarity in ``doc`` (idf; 1 each without a document); given
    ``labels`` (the terms of the document's row labels and contexts: :func:`rows.label_terms`), only those a row
    could hold: a lexicon line item's word or one of ``labels`` (unless none is)."""
    keys = [t for t in dict.fromkeys(terms(question))
            if t not in org and t not in _form_words() and not _DIGITS.search(t)]
    for group in groups:  # a line item named by a name without words of its own ("R&D"): its full name's words
        if not group_terms(group)[1] & set(keys):
            keys += [t for t in sorted(group_terms(group)[0][0][1]) if t not in keys]
    negates = bool(_NOT_SAID.search(question))
    if doc is None:
        return Asked({t: 1.0 for t in keys}, tuple(groups), org, negates)
    # only words a row could hold: a line item's word, or one the document's table labels, headings and titles
    # use ("Base your judgments on the balance sheet … Answer in USD millions" asks no row for "judgments")
    if labels is not None:
        keys = [t for t in keys if t in labels or t in _item_terms()] or keys
    n, df = doc_df(doc)
    return Asked({t: math.log((n + 1) / (df.get(t, 0) + 0.5)) + 1.0 for t in keys}, tuple(groups), org, negates)


def match(label: str, context: str, want: Asked) -> tuple[float, float]:
    """(score, coverage) of a row: ``coverage`` the share of the question's key weight its label holds
    (a key term only its context holds: :data:`CONTEXT_WEIGHT`), the words of a synonym the label holds whole
    standing for the question's words of that line item; ``score`` the coverage times the share of the
    label's own words (:func:`items.label_core`: a remark in brackets, an owners or "less …" clause aside) the
    question or such a synonym explains."""
    if not want.weights:
        return 0.0, 0.0
    # what a label says is not so it does not hold: "Dividends declared and not paid" holds no "paid", and its
    # "paid" is a word the question does not explain
    label, negated = (label, []) if want.negates else without_negated(label)
    lab = set(terms(label)) - neutral_words()
    if not lab:
        return 0.0, 0.0
    ctx = set(terms(context))
    explained, stands_for = _names(want, norm_text(label), lab)
    in_context = _names(want, norm_text(label + " " + context), lab | ctx)[1]  # "Earnings per share:" above "Basic"
    named = _with_heading(label, context, want, lab)  # a name the label completes with its heading: its words count whole
    explained |= named
    # a label naming no item asked, whose words of the question belong to another item's name it holds whole
    # ("Income from continuing operations" for operating income), does not hold them
    others = frozenset().union(*(
        o for o in (others_named(norm_text(label), want.groups) if want.groups and not explained else ())
        if any(need <= o for g in want.groups for _, need in group_terms(g)[0] if need)))  # … a name holding a whole
    # name of the item asked ("Cash dividends" holds no "dividends per share")
    covered = 0.0
    for t, w in want.weights.items():
        if t in lab and t not in others or t in stands_for or (t in named and named & lab):
            covered += w
        elif t in ctx or t in in_context:
            covered += CONTEXT_WEIGHT * w
    coverage = covered / want.total
    # a remark in brackets, whose figure it is and what it leaves out are no other line item (label_core)
    own = [t for t in set(terms(label_core(label, want.org))) - neutral_words() if t not in _form_words()] or list(lab)
    precision = sum(1 for t in own if t in want.weights or t in explained) / (len(own) + len(negated))
    return coverage * precision, coverage


def named_with_heading(label: str, context: str, want: Asked) -> bool:
    """Whether ``label`` and the heading it sits under (the last line of its ``context``) name a line item asked
    together, with a word of the label that names none alone: "Net income attributable to …" under "Earnings per
    share––diluted:" is the net income per share, the earnings per share; "Income from continuing operations …" under
    it is a part of them; "Income before income taxes" is no income tax, whatever its heading."""
    lab = set(terms(label)) - neutral_words()
    alone = _names(want, norm_text(label), lab)[0]  # "Income before income taxes" names "income taxes" itself
    return bool((_with_heading(label, context, want, lab) - alone) & lab)


def _with_heading(label: str, context: str, want: Asked, lab: set[str]) -> set[str]:
    """The words that a name of a line item asked, held whole by ``label`` and its heading together, explains: a
    heading that introduces the rows under it as its parts, ending in a colon ("Earnings per share––diluted:"), not a
    label whose figures were printed apart from it ("(Provision for) benefit from income taxes" above "Net income")."""
    heading = context.rsplit("\n", 1)[-1] if "\n" in context else ""
    if not heading.endswith(":"):
        return set()
    head = set(terms(heading))
    got = _names(want, norm_text(label + " " + heading), lab | head)[0]
    if (added := got - lab) and any(added <= o for o in others_named(norm_text(heading), want.groups)):
        return set()  # the heading's words are another item's name ("Net income" under "Cash provided (used) by
        # operations:" is a part of the operating cash flow, no operating income)
    # only names the label completes: a name the heading holds whole alone is the heading's, not the label's
    # ("Other operating activities" under "Adjustments to reconcile net income to net cash provided by operating
    # activities:" is no operating cash flow)
    return got if not _names(want, norm_text(heading), head)[0] >= got else set()


def _names(want: Asked, norm: str, words: set[str]) -> tuple[set[str], set[str]]:
    """(the words of ``words`` that a name of a line item asked explains: "sales" of "net sales"; the question's
    words those names stand for), the names held whole by the text (``norm``, its terms ``words``)."""
    explained: set[str] = set()
    stands_for: set[str] = set()
    others = others_named(norm, want.groups)  # another item's name held whole holding the words is that item's
    for group in want.groups:
        # the question's words for this line item, and those every figure of it is of ("paid its shareholders")
        mine = group_terms(group)[1] & set(want.weights) | implied_words(group, set(want.weights))
        said = [need for _, need, _, _ in _forms(group) if need <= mine]  # the names the question uses
        held = [(need, base, qualifier) for phrase, need, base, qualifier in _forms(group)
                if phrase in norm or need <= words and not any(need <= o for o in others)]
        # the same item qualified otherwise ("basic …" for "diluted earnings per share", the question not saying
        # "basic"): none of its names counts
        # (words that mean the same, "stockholders" for "shareholders", are no other qualifier: lexicon's same_words)
        asked_words = same_terms(frozenset(want.weights))
        other = [need for need, base, qualifier in held if qualifier and not same_terms(qualifier) & asked_words and any(
            base_name(group, n) == base and same_terms(n - base) not in (same_terms(qualifier), frozenset()) for n in said)]
        qualifiers = frozenset().union(*(n - base_name(group, n) for n in said if base_name(group, n)))
        for need, _, _ in held:
            if not any(need <= o for o in other):
                explained |= need | implied_words(group, words)  # "Dividends paid on common stock"
                # "Earnings per share" says nothing of "diluted"; "stockholders'" says "shareholders'"
                stands_for |= mine - {q for q in qualifiers if same_terms(frozenset({q})) - same_terms(need)}
    return explained, stands_for


@lru_cache(maxsize=None)
def _forms(group: str) -> tuple[tuple[str, frozenset[str], frozenset[str], frozenset[str]], ...]:
    """Each name of a lexicon group: (normalised phrase, its terms, the terms of the longest other name it
    holds, the words it adds to that one: "diluted earnings per share" → "earnings per share" + diluted)."""
    return tuple((phrase, need, base, need - base if base else frozenset())
                 for phrase, need in group_terms(group)[0] if need for base in [base_name(group, need)])


def row_context(page_text: str, line: int, labels: Sequence[str] = ()) -> str:
    """What a row at ``line`` of a page sits in: the page's first lines (a statement's title) and, on a line of
    its own, the nearest heading above it: a line without figures, no unit line, no change column's header, that is no
    part of a row's label
    (``labels``: the page's row labels) — "Cash flows from operating activities:", "Earnings per share" above
    "Basic" and "Diluted"."""
    lines = [" ".join(x.split()) for x in page_text.split("\n")]
    title = [x for x in lines[:8] if x and not _DIGITS.search(x)][:3]
    named = " ".join(labels).lower()

    def heading_like(k: int) -> bool:  # words, no figure (a remark in brackets aside: "(000's)"), no unit line
        bare = _BRACKETS.sub(lambda m: " " if _LETTER.search(m.group()) else m.group(), lines[k])
        return (len(lines[k]) > 2 and not _DIGITS.search(bare) and "$" not in lines[k]
                and not _UNIT_LINE.search(lines[k]) and _label_part(lines[k]) not in named
                and not change_column(lines[k]))  # a column's header ("Percent Change") heads no rows

    at = next((k for k in range(line - 1, max(-1, line - 40), -1) if heading_like(k)), None)
    if at is None:
        return " ".join(title) + "\n"
    parts = [lines[at]]
    # a heading wrapped over lines: "NET INCOME PER COMMON SHARE ATTRIBUTABLE TO" / "COSTCO:"
    while at - 1 >= 0 and len(parts) < WRAPPED_LINES and heading_like(at - 1) and not lines[at - 1].endswith((":", ".")):
        at -= 1
        parts.insert(0, lines[at])
    return " ".join(title) + "\n" + " ".join(parts)  # the heading last, on a line of its own


def _label_part(line: str) -> str:
    """A printed line as it stands in a row's label (dot leaders and spaces aside)."""
    return " ".join(line.replace(". .", " ").rstrip(" .—–-").split()).lower()  # "Discontinued operations — —": nil
