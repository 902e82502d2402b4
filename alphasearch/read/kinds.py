"""Whether a figure is of the kind of quantity a question asks: a per-share question ("diluted earnings per
share") is not answered by a total printed in the table's millions (the diluted share count, the net income
the ratio divides), and a count ("how many people") is not answered by an amount of money or a percentage
("Employee benefits: $1,314 million"), and a statement's amount ("income tax expense") is not answered by a rate
printed beside it ("Effective income tax rate: 6.8%"), and a percentage ("what percentage of land area") is not
answered by an amount of money or a number above 100 printed without a percent sign ("The Bronx: 980,000,000"),
and a count of shares ("how many shares did it repurchase") is not answered by a money row that names no shares
("Repurchases of common stock: $496 million"), nor one asked as "shares repurchased", and a total ("operating
income") is not answered by a row saying it is per share.
The words that ask for each kind are data: ``asks`` of ``data/lexicon.json`` (``per_share``, ``count``, and
``not_count``, which makes "how many" ask for an amount or a share: "how many dollars", "how many percent";
``shares_counted`` and ``money``, a number of shares asked without "how many";
``rate``, the words that ask for a rate; ``percent``, for a percentage; ``paid_out``, for a total paid or spent).
"""
from __future__ import annotations

import re

from ..lang.questions import asks, statements_needed
from ..lang.text import terms
from .items import concepts, group_terms, lexicon, neutral_words
from .rows import UNIT_WORD, Figure, unitless


def fits_kind(question: str, figure: Figure) -> bool:
    """``figure`` is of the kind ``question`` asks for (any figure when it asks for no particular kind)."""
    if asks(question, "per_share") and "." not in figure.cell.text and (figure.unit in UNIT_WORD
                                                                         or _CENTS.search(figure.row)):
        # a per-share figure has cents, or its row says "per share": a whole number in millions is a total, and so
        # is one beside cents in the same row ("DILUTED EARNINGS PER SHARE $ 43 668 $ 0.06": income, shares, EPS)
        return False
    if figure.per_share and not asks(question, "per_share") and _items_in_totals(question):
        return False  # "Income from continuing operations … common shareholders" under "Earnings per share—basic:"
        # is no operating income
    if asks(question, "count") and not asks(question, "not_count") and (figure.cell.percent or _money(figure)
                                                                         or not _counts_item(question, figure.label)):
        return False
    if counts_shares(question) and _money(figure) and not _SHARES.search(figure.label):
        return False  # a money table prints share counts in millions in rows naming shares or their basis
        # ("Diluted" under "Weighted-average shares"): its other rows are amounts
    if figure.cell.percent and statements_needed(question) and not asks(question, "rate"):
        return False  # a statement's amount asked ("income tax expense"), not its rate ("effective … rate: 6.8%")
    if asks(question, "percent") and not figure.cell.percent and (_money(figure) or abs(figure.value) > 100):
        return False  # a percentage asked: not an amount, nor a number no share of a whole can be
    return True


_CENTS = re.compile(r"\d\.\d\d\b")
_HEAD_ENDS = re.compile(r"\s*(?:\(|,|:|—|–|\s-\s|\b(?:at|in|as|of|by|for|from|on|per|during|and|outside|within|across"
                        r"|under|over|through|excluding|including)\b)", re.IGNORECASE)
_COUNT_HEADS = frozenset(terms("number count total headcount"))


def _counts_item(question: str, label: str) -> bool:
    """For a count of a line item the lexicon names ("how many people did X employ"), the row's label names the
    counted thing by its head word — the last before a bracket or a preposition ("Employees at year end", "Number
    of employees"): one of the question's words, of the item's names, or a count's ("Total"), when the label holds
    any. "People Officer: 60" (an officer's age) uses the item's word to qualify another thing."""
    groups = concepts(question)
    if not groups:
        return True
    head = [w for w in _HEAD_ENDS.split(label.strip(), maxsplit=1)[0].split()
            if set(terms(w)) - neutral_words() and not w.lower().endswith("ly")]  # "Employees globally"
    own = set(terms(head[-1])) if head else set()  # "Team members worldwide": "members"
    asked = set(terms(question)) | _COUNT_HEADS | set().union(*(group_terms(g)[1] for g in groups))
    return not own or bool(own & asked) or not set(terms(label)) & asked  # a label naming other things: judged
    # elsewhere
_SHARES_COUNTED = re.compile(r"\b(?:how many|number of)\b(?:\W+\w+){0,3}?\W+shares\b", re.IGNORECASE)
_TICKER = re.compile(r"\b[A-Z]{2,5}\b")
_SHARES = re.compile(r"\b(?:shares?|basic|diluted|weighted)\b", re.IGNORECASE)  # the rows of a share count


def counts_shares(question: str) -> bool:
    """The question asks for a number of shares: "how many shares …", or a phrase of ``shares_counted`` ("FY21
    shares repurchased?") with no word asking for money ("how much was spent on shares repurchased", "the cost of
    shares repurchased"; a word in capitals is a ticker: "COST FY21 shares repurchased?")."""
    if _SHARES_COUNTED.search(question):
        return True
    words = question if question.isupper() else _TICKER.sub(" ", question)  # "COST" is Costco's ticker, not a cost
    return asks(question, "shares_counted") and not asks(words, "money")


def unit_asked_first(question: str, figures: list) -> list:
    """The candidates (score, figure) of the unit asked first. For a per-share question, those printed with cents
    ("$2.57") when any is: a figure without them is a total the per-share row's label names ("Net income for
    diluted earnings per share: $3,162"); a company whose per-share figures are all whole dollars keeps its
    candidates. For a question asking how much (``amount``) was paid or spent (``paid_out``: "how much did AES pay
    in dividends"), totals before per-share figures ("Cash dividend: $0.1580" is what each share got)."""
    if asks(question, "per_share"):
        return [sf for sf in figures if "." in sf[1].cell.text] or figures
    if asks(question, "paid_out") and asks(question, "amount"):  # not "has it paid dividends in Q2?"
        return sorted(figures, key=lambda sf: unitless(f"{sf[1].label} {sf[1].row}", sf[1].cell.text))
    return figures


def _items_in_totals(question: str) -> bool:
    """The question names line items, each of which is a total, never a per-share figure (``per_share_items`` of the
    lexicon: a dividend may be either)."""
    groups = concepts(question)
    return bool(groups) and not set(groups) & set(lexicon()["per_share_items"])


def _money(figure: Figure) -> bool:
    """The figure is an amount of money: its row prints a currency sign, or its table states money in a scale
    ("$ … in millions"). A count in a table that prints a price elsewhere keeps the table's currency but is
    printed without one ("Acquisitions completed 2 3")."""
    return any(sign in figure.row for sign in "$€£") or bool(figure.currency and figure.unit in UNIT_WORD)
