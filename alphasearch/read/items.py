"""The line items a question names, with the analysts' synonyms of ``data/lexicon.json`` (revenue ~ net
sales ~ total revenues), and how well a table row's label matches them (a score in [0, 1]).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..lang import domain
from ..lang.text import terms
from ..models import DocumentIndex
from .tables import years_named

LATER_ITEM = 0.75  # a row naming only a line item the question names after the first one (a qualifier)


def phrase_use(doc: DocumentIndex) -> Callable[[str], int]:
    """``used(phrase)``: how many of ``doc``'s pages hold ``phrase`` (case and spacing aside)."""
    texts = _normed(tuple(p.text for p in doc.pages))

    def used(phrase: str) -> int:
        p = norm_text(phrase)
        return sum(p in t for t in texts)

    return used


@lru_cache(maxsize=8)
def _normed(texts: tuple[str, ...]) -> tuple[str, ...]:  # the pages of the last few documents asked
    return tuple(norm_text(t) for t in texts)


@lru_cache(maxsize=1)
def lexicon() -> dict:
    """The synonym lexicon (``data/lexicon.json``): groups, neutral words, named ratios."""
    return domain.load("lexicon")


@lru_cache(maxsize=1)
def _group_phrases() -> tuple[tuple[str, str], ...]:
    """(group, normalised phrase) of every line-item name of the lexicon, normalised once; a name of
    several words also in the singular ("return on asset", "total liability": questions write them so)."""
    out = []
    for group, phrases in lexicon()["groups"].items():
        for phrase in phrases:
            norm = norm_text(phrase)
            out.append((group, norm))
            if len(norm.split()) > 1 and (one := _singulars(norm)) != norm:
                out.append((group, one))
    return tuple(dict.fromkeys(out))


def _singulars(norm: str) -> str:
    """A normalised text with each word in the singular."""
    return " " + " ".join(singular(w) for w in norm.split()) + " "


def line_says(text: str, name: str) -> bool:
    """``text`` names ``name`` (a lexicon name), case, spacing and a plural aside."""
    norm, want = norm_text(text), norm_text(name)
    return want in norm or _singulars(want) in _singulars(norm)


RATIO_SPAN = 2  # words a ratio's name may have between its own when the question reorders it
_BETWEEN_OK = frozenset({"company", "company's", "companys", "firm", "firm's", "its", "their"})


def ratios_named(question: str) -> list[str]:
    """The lexicon ratios ``question`` names by their phrase ("payables turnover"), longest first ("return on
    average equity" before "return on equity")."""
    return [name for name in sorted(lexicon()["ratios"], key=len, reverse=True) if line_says(question, name)]


def ratio_named(question: str, *, loose: bool = True) -> str | None:
    """The lexicon ratio ``question`` names: by its phrase, else (``loose``) by its words in another order with at
    most :data:`RATIO_SPAN` others between them (stopwords aside), each a name (capitalised), the company's, or a word
    of the ratio's own line items ("the turnover of Nike's payables", "return on the company's total assets"); not
    "expected return on plan assets" nor "net interest margin", whose other words qualify the item. None when it
    names none."""
    exact = ratios_named(question)
    if exact or not loose:
        return exact[0] if exact else None
    words = re.findall(r"[A-Za-z][\w'’&-]*", question.split("?")[0])
    own = [set(terms(w)) for w in words]
    for name, need, operands in _ratio_words():
        for i, first in enumerate(own):
            if not first & need:
                continue
            held: set[str] = set()
            others = 0
            for k in range(i, min(len(words), i + 3 * (len(need) + RATIO_SPAN))):  # stopwords between too
                if own[k] & need:
                    held |= own[k] & need
                elif own[k] and not (own[k] <= operands or words[k][:1].isupper()
                                     or words[k].lower() in _BETWEEN_OK):
                    break  # a word that qualifies the item ("plan" assets, "interest" margin)
                elif own[k]:
                    others += 1
                if held == need:
                    return name
                if others > RATIO_SPAN:
                    break
    return None


@lru_cache(maxsize=1)
def _ratio_words() -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """Each lexicon ratio of two words or more, most words first: its name, its words, its line items' words
    ("return on total assets")."""
    ratios = lexicon()["ratios"]
    out = [(name, frozenset(terms(name)), frozenset(t for item in ratios[name] for t in terms(item)))
           for name in ratios]
    return sorted([r for r in out if len(r[1]) >= 2], key=lambda r: (-len(r[1]), -len(r[0])))


def singular(word: str) -> str:
    """"liabilities" -> "liability", "assets" -> "asset"; "gross", "basis", "bonus" stay."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def norm_text(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9&'/()%]+", " ", text.lower().replace("’", "'")).split()) + " "


def named_in_words(text: str, group: str, words: int = 2) -> bool:
    """``text`` names ``group`` by a name of at least ``words`` words ("net income", not the "cash" of "Cash paid
    for income taxes")."""
    norm = norm_text(text)
    return any(g == group and len(p.split()) >= words and p in norm for g, p in _group_phrases())


def concepts(text: str) -> list[str]:
    """Lexicon groups named in ``text``, in the order they first appear (longest phrase first
    where phrases overlap: "net sales" is revenue even though "sales" alone is too); none from the
    name of a statement or of a measure the lexicon lists as no line item ("days sales outstanding")."""
    norm = norm_text(text)
    lex = lexicon()  # "the cash flow statement" is where to look, and the "cash conversion cycle" is no cash
    for name in (*lex.get("statements", ()), *lex.get("measures", ())):
        norm = norm.replace(norm_text(name), " " * (len(norm_text(name)) - 1) + " ")
    found: list[tuple[int, int, str]] = []
    for group, p in _group_phrases():
        at = norm.find(p)
        if at >= 0:
            found.append((at, -len(p), group))
    found.sort()
    taken: list[tuple[int, int]] = []
    out: list[str] = []
    held: dict[str, frozenset[str]] = {}  # the terms of the phrase each group was found by
    for at, neg_len, group in found:
        end = at - neg_len
        if any(a < end and at < b for a, b in taken):
            continue
        taken.append((at, end))
        if group not in out:
            out.append(group)
            held[group] = frozenset(terms(norm[at:end])) - neutral_words()
    free = norm  # the text's words outside the names found ("operations" of "cash … from operations", not the
    for a, b in taken:  # "operating" of "operating income" beside it)
        free = free[:a] + " " * (b - a) + free[b:]
    return _apart(out, held, set(terms(free)))


def _apart(out: list[str], held: dict[str, frozenset[str]], words: set[str]) -> list[str]:
    """``out`` with a line item the text names with words apart ("cash did X's operations generate": a
    phrase of two or more terms, its linking words aside, each in ``words`` — the text's words outside the names
    found — or in a name found that it holds) in place of one found by a phrase whose terms are a
    part of it ("cash"); alone when nothing was found by a whole phrase. A line item found by a shorter name of
    its own ("investing activities" of "cash did X use in investing activities") drops the one found inside it."""
    for group, phrases in lexicon()["groups"].items():
        for _, named in group_terms(group)[0]:
            need = named - _linking() or named  # its words outside the names found, or in one it holds
            if len(need) < 2 or not need <= words.union(*(held[g] for g in out if g == group or held[g] < need)):
                continue  # ("cash" and "operating income" name no cash from operations)
            inside = next((g for g in out if g != group and held.get(g) and held[g] < need), None)
            if group in out:  # a longer name of its own, holding the one it was found by and the other item's
                if inside is not None and held.get(group, frozenset()) <= need:  # ("net income" stays beside
                    out.remove(inside)  # "diluted earnings per share" of "… per share")
                    break
                continue
            if inside is not None:
                out[out.index(inside)] = group
            elif not out:
                out.append(group)
            else:
                continue  # another of its names may hold the one found ("spend on property, plant and equipment")
            held[group] = need
            break
    return out


@lru_cache(maxsize=1)
def _linking() -> frozenset[str]:
    """The terms of the words joining a line item's name ("from" of "cash from operations": ``linking``)."""
    return frozenset(t for w in lexicon().get("linking", ()) for t in terms(w))


def sub_queries(question: str, limit: int = 4, used: Callable[[str], int] | None = None) -> list[str]:
    """Query expansion for a figure question: other names of the line items it asks for (the
    lexicon's synonyms it does not use, and the operands of a ratio it names), each with the
    question's years, e.g. "purchases of property, plant and equipment 2018". ``used(phrase)``:
    how many pages of the document hold the phrase; the names the document uses most come
    first (a filing that says "net sales" is searched for "net sales", not "revenue")."""
    lex = lexicon()
    years = " ".join(years_named(question))
    norm = norm_text(question)
    asked = set(terms(question))
    named = ratios_named(question) or [r for r in (ratio_named(question),) if r]
    groups = concepts(question) + [g.removeprefix(AVERAGE) for name in named for g in lex["ratios"][name]]

    def new(phrase: str) -> bool:  # a name the question does not already use (in any inflection)
        return norm_text(phrase) not in norm and len(phrase) > 4 and not set(terms(phrase)) <= asked

    out: list[str] = []
    seen: set[frozenset[str]] = set()

    def add(phrase: str) -> None:  # once per wording ("capital expenditure" ~ "capital expenditures")
        key = frozenset(terms(phrase))
        if key not in seen:
            seen.add(key)
            out.append(f"{phrase} {years}".strip())

    def names(group: str) -> list[str]:  # the group's new names, those the document uses most first
        # (not the item qualified otherwise: no "basic earnings per share" for a question asking for diluted)
        phrases = [p for p, (_, need) in zip(lex["groups"][group], group_terms(group)[0])
                   if new(p) and not qualified_otherwise(group, need, asked)]
        return sorted(phrases, key=lambda p: -used(p)) if used else phrases

    for group in dict.fromkeys(groups):  # one other name per line item first
        phrase = next(iter(names(group)), None)
        if phrase:
            add(phrase)
    for group in dict.fromkeys(groups):  # then further names, while there is room
        for phrase in names(group):
            add(phrase)
    return out[:limit]


@lru_cache(maxsize=1)
def neutral_words() -> frozenset[str]:
    return frozenset(t for w in lexicon()["neutral"] for t in terms(w))


def implied_words(group: str, words: set[str] | frozenset[str]) -> frozenset[str]:
    """The terms of ``words`` (a label's) that a label naming ``group`` may add without naming anything else: what
    every figure of that item is of (a dividend is paid on shares: "Dividends — common and preferred"); each entry
    of ``implied`` in the lexicon counts when the label holds all of its terms ("preferred" alone is a part)."""
    return frozenset().union(*(need for need in _implied(group) if need <= words))


@lru_cache(maxsize=None)
def _implied(group: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(terms(w)) for w in lexicon().get("implied", {}).get(group, ()))


@lru_cache(maxsize=4096)
def _names_another_item(norm: str, groups: tuple[str, ...]) -> bool:
    """The longest lexicon phrase in the (normalised) label belongs to a line item not in ``groups``, and the label
    does not start with the item asked ("Effective tax rate for income from continuing operations" is a tax rate;
    "Total liabilities and equity" starts with another item's longer name)."""
    asked = other = first = 0
    first_asked = False
    for group, p in _group_phrases():
        if norm.startswith(p) and len(p) > first:  # the longest name the label starts with
            first, first_asked = len(p), group in groups
        if len(p) > max(asked, other) and p in norm:
            if group in groups:
                asked = len(p)
            else:
                other = len(p)
    return other > asked and not first_asked


@lru_cache(maxsize=4096)
def others_named(norm: str, groups: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The terms of each name of a line item not in ``groups`` that the (normalised) text holds whole: words it
    uses for another item ("income from continuing operations" holds the words of "income from operations" apart,
    and is no operating income)."""
    return tuple(frozenset(terms(p)) for group, p in _group_phrases() if group not in groups and p in norm)


_NOT = re.compile(r"\bnot\s+(?:yet\s+)?([A-Za-z][\w-]*)", re.IGNORECASE)  # "not paid", "not yet paid"


def without_negated(label: str) -> tuple[str, list[str]]:
    """(``label`` without what it says is not so, the terms of those words): "Dividends declared and not paid"
    holds no "paid"; the word is the label's own, one that no question word explains."""
    negated = [t for m in _NOT.finditer(label) for t in terms(m.group(1))]
    return (_NOT.sub(" ", label), negated) if negated else (label, [])


def row_score(label: str, groups: Sequence[str], question_terms: set[str], negates: bool = False) -> float:
    """How well a row label names what is asked, in [0, 1]: the share of a synonym's words the
    label holds (1 when it holds the whole phrase) times the share of the label's own words that
    belong to the question or the synonyms (so "Cost of sales" is a poor "sales"); each further
    line item the question names counts LATER_ITEM times the one before. Without a line item of the
    lexicon: the share of the label's words (a remark in brackets aside) in the question, times how
    many of the question's words it holds (two suffice). A label whose longest phrase of the
    lexicon belongs to a line item not asked for scores 0."""
    label, negated = (label, []) if negates else without_negated(label)  # a question saying "not" reads it as printed
    lab = set(terms(label)) - neutral_words()
    if not lab:
        return 0.0
    norm = norm_text(label)
    if groups and _names_another_item(norm, tuple(groups)):
        return 0.0  # "Cost of sales" is not "sales", "Deferred revenue" not "revenue"
    best = 0.0
    for rank, group in enumerate(groups):  # the line item named first is the one asked for
        phrases, words = group_terms(group)
        precision = len(lab & (question_terms | words | implied_words(group, lab))) / (len(lab) + len(negated))
        for phrase, want in phrases:
            if phrase in norm:
                recall = 1.0
            else:
                recall = len(want & lab) / len(want) * 0.8 if want else 0.0
            best = max(best, recall * precision * LATER_ITEM ** rank)
    if not groups:
        asked = question_terms - neutral_words()
        own = set(terms(ASIDE.sub(" ", label))) - neutral_words() or lab  # "PaLM-2L + Step-Back (ours)": not "ours"
        if asked:
            hit = len(own & asked)
            best = (hit / len(own)) * min(1.0, hit / min(2, len(asked)))
    return best


@lru_cache(maxsize=None)
def group_terms(group: str) -> tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]:
    """A lexicon group's phrases, each normalised with the terms a label must hold (the neutral
    words aside, unless that leaves none), and the terms of all its phrases."""
    phrases = lexicon()["groups"][group]
    return (tuple((norm_text(p), frozenset(set(terms(p)) - neutral_words() or terms(p))) for p in phrases),
            frozenset(t for p in phrases for t in terms(p)))


@lru_cache(maxsize=None)
def base_name(group: str, need: frozenset[str]) -> frozenset[str]:
    """The terms of the longest other name of ``group`` that a name (its terms ``need``) holds: "earnings per
    share" in "diluted earnings per share"; empty when it holds none."""
    return max((n for _, n in group_terms(group)[0] if n and n < need), key=len, default=frozenset())


@lru_cache(maxsize=1)
def _same_words() -> dict[str, str]:
    """Each term of the lexicon's ``same_words`` → the first of its set ("stockhold" → "sharehold")."""
    out: dict[str, str] = {}
    for words in lexicon().get("same_words", ()):
        first = terms(words[0])[0]
        out.update({t: first for w in words for t in terms(w)})
    return out


def same_terms(words: frozenset[str]) -> frozenset[str]:
    """``words`` with those that mean the same written alike (lexicon's ``same_words``: "stockholders" is
    "shareholders")."""
    return frozenset(_same_words().get(t, t) for t in words)


def qualified_otherwise(group: str, need: frozenset[str], asked: set[str]) -> bool:
    """Whether the name of ``group`` with terms ``need`` is the item the question asks (its terms ``asked``) qualified
    otherwise: "basic earnings per share" when the question asks for diluted earnings per share ("diluted EPS") and
    says nothing of "basic"."""
    def own(n: frozenset[str]) -> frozenset[str]:  # the words a name adds to the name it holds
        base = base_name(group, n)
        return n - base if base else frozenset()

    def other(a: frozenset[str], b: frozenset[str]) -> bool:  # other words, not the same ones nor a shortening
        return same_terms(a) != same_terms(b) and not any(x.startswith(y) or y.startswith(x) for x in a for y in b)

    mine = own(need)
    return bool(mine) and not same_terms(mine) & same_terms(frozenset(asked)) and any(
        base_name(group, n) == base_name(group, need) and own(n) and own(n) <= asked and other(own(n), mine)
        for _, n in group_terms(group)[0])


ASIDE = re.compile(r"\([^()]*\)")


OWNERS_WORDS = 8  # at most this many words name whose figure a row is ("attributable to Shareowners of The …")


@lru_cache(maxsize=1)
def _owners() -> tuple[re.Pattern, re.Pattern, re.Pattern, frozenset[str]]:
    words = lexicon()["owners"]
    return (re.compile(rf"\b(?:{domain.alternation(words['clause'])})\b", re.IGNORECASE),
            re.compile(rf"\b(?:{domain.alternation(words['others'])})\b", re.IGNORECASE),
            re.compile(rf"\b(?:{domain.alternation(words['exclusions'])})\b.*$", re.IGNORECASE | re.DOTALL),
            frozenset(t for w in words["owners"] for t in terms(w)))


def label_core(label: str, org: frozenset[str] = frozenset()) -> str:
    """What a row's label names, without what only qualifies it: a remark in brackets ("(ours)"), whose figure it
    is (:func:`owners_clause`, ``org`` the company's name's terms) and what it leaves out ("Long-term debt, less
    current portion", "…, net of allowances": ``exclusions`` of the lexicon's ``owners``)."""
    bare = ASIDE.sub(" ", label)
    clause = owners_clause(bare, org)
    bare = bare.replace(clause, " ") if clause else bare
    return _owners()[2].sub(" ", bare)


@lru_cache(maxsize=1)
def whole_terms() -> frozenset[str]:
    """Terms of a question that asks for the whole figure, others' shares included ("consolidated net income",
    "including noncontrolling interests"): ``whole`` and ``others`` of the lexicon's ``owners``."""
    words = lexicon()["owners"]
    return frozenset(t for w in (*words["whole"], *words["others"]) for t in terms(w))


def owners_clause(label: str, org: frozenset[str] = frozenset()) -> str:
    """The clause ending a row's label that says whose figure it is, the company's own shareholders' ("Net income
    attributable to CVS Health", "… available to common stockholders"): a figure of the item the label names
    before it, for the owners an analyst means. It ends the label within :data:`OWNERS_WORDS` words ("…
    available to common shareholders used in basic and diluted earnings per share calculation" names an input
    of a calculation) and names owners (``owners`` of the lexicon: shareholders, the company, …) or the company
    (``org``: its name's terms): "Revenues attributable to China" is a region's revenue. "" when there is none,
    or when it names others (noncontrolling interests, preferred stock: another figure)."""
    clause, others, _, owners = _owners()
    found = list(clause.finditer(label))
    if not found:
        return ""
    rest = label[found[-1].end():]
    named = set(terms(rest))
    if not 1 <= len(rest.split()) <= OWNERS_WORDS or others.search(rest) or not named & (owners | org):
        return ""
    return label[found[-1].start():]
AVERAGE = "average "
