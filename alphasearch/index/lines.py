"""What a line's words make of it, whatever its size or weight: a title, or a run-in head, a lead-in, a sentence,
a table's row or column header (:mod:`.headings` asks this of every emphasised line)."""
from __future__ import annotations

import re
from functools import lru_cache

from .. import pdf
from ..lang import domain

FIGURES = re.compile(r"^[\s$€£%()\-–—.,\d]+$")  # a line of figures only


def title_start(text: str) -> bool:
    """Starts as a title does: a capital or a digit (not the lower-case rest of a wrapped line)."""
    return text[:1].isupper() or text[:1].isdigit()


UNIT = re.compile(r"\s*\((?:(?:dollars|\$|amounts|shares)\s+)?in\s+(?:thousands|millions|billions)\b[^()]*\)$", re.I)


def without_unit(title: str) -> str:
    """A table's title used as a heading without the unit its figures are in: "Revenue (dollars in millions)" is the
    section "Revenue"."""
    return UNIT.sub("", title) or title


RUN_IN = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]")  # a sentence ends and the next starts on the heading's line


def in_capitals(text: str) -> bool:
    """A short title set in capitals ("TASKS", "MAIN RESULTS"): emphasis, as bold is."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and text.isupper() and len(text.split()) <= 8


ACRONYM = 4  # letters: a word in capitals this short ("MFC", "RMS") names something, it is no title in capitals


def capitals_title(title: str) -> bool:
    """A title set in capitals ("COMPETITION", "PRODUCT DEVELOPMENT"): at the size and weight of a title in mixed case
    ("Other Products and Solutions") it heads it, as its section. Not an acronym or code ("MFC", "COVID-19")."""
    return in_capitals(title) and (len(title.split()) >= 2 or (title.isalpha() and len(title) > ACRONYM))


def sentence(text: str) -> bool:
    """A sentence set in bold (a risk factor's summary), or a clause of one, ending in a comma or a semicolon (an
    agreement's defined term, "Permitted Bond Hedge Transaction;", a party "BNP PARIBAS,", a column header "YEAR
    ENDING MAY 31,", a list's item "Committee; and"), not a section title; nor is part of one: a line ending on a
    word that needs the next ("PURSUANT TO", "BUT EFFECTIVE AS OF:") or going on from the line before ("AND INCENTIVE
    PAYMENTS", "and how it works"; not "Series A", nor "OR Gate")."""
    text = text.rstrip()
    going_on = _GOING_ON.match(text)
    return (text.endswith(".") and len(text.split()) >= 6) or bool(CLAUSE_END.search(text)) \
        or bool(DANGLING.search(text)) or bool(going_on and (text.isupper() or going_on.group(1).islower()))


CLAUSE_END = re.compile(r"[,;](?:\s+(?:and|or))?$")
DANGLING = re.compile(r"\s(?:to|of|and|or|the|an|by|with|from)\s*:?$", re.IGNORECASE)
_GOING_ON = re.compile(r"(?:and|or|but)\s+(\w)", re.IGNORECASE)


def lead_in(text: str) -> bool:
    """A run-in head, a lead-in or a step, not a section's title: it ends as a sentence does ("Advantages.", "5 Then
    touch Save.", not on an abbreviation: "… knife, etc."), or as a list's introduction in plain words does ("To set
    up your MacBook Air:"; a title in title case may end on a colon: "Raw Materials and Packaging:")."""
    text = text.rstrip()
    words = text.split()
    if text.endswith(":"):
        return not title_case(words)
    return text.endswith(".") and bool(words) and words[-1].lower() not in ABBREVIATIONS


SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "per", "the", "to",
                         "vs", "with"})


def title_case(words: list[str]) -> bool:
    """Every word but the small ones ("and", "of", "the" …) starts with a capital (or is no word: "(EPS)")."""
    return bool(words) and all(not w[:1].islower() or w.lower().strip(":,") in SMALL_WORDS for w in words) \
        and not words[0][:1].islower()


ABBREVIATIONS = frozenset({"etc.", "inc.", "ltd.", "co.", "corp.", "no.", "vs.", "approx.", "e.g.", "i.e."})


def row_label(lines: list[pdf.Line], i: int) -> bool:
    """A table row's label: the next line holds figures only."""
    return i + 1 < len(lines) and bool(FIGURES.match(lines[i + 1].text))


NUMBER = re.compile(r"^\(?[$€£]?\(?-?\d[\d,.]*%?\)?$|^[-–—]$")
HEADER_WORDS = 2  # a column header is a word or two ("Amount", "Level 1", "Losses")
HEADER_REACH = 4  # lines below a column header before the first row of figures


def figures_row(text: str) -> bool:
    """A table row: it ends in two or more figures, or holds figures only."""
    words = text.split()
    tail = 0
    for w in reversed(words):
        if not NUMBER.match(w):
            break
        tail += 1
    return tail >= 2 or (tail == len(words) and tail > 0)


def table_header(lines: list[pdf.Line], i: int, title: str = "", body: float = 0.0) -> bool:
    """A table's column header: a short line (``HEADER_WORDS``; ``title``: the whole of a title wrapped over lines
    ending at line i) with a row of figures within ``HEADER_REACH`` lines below it and no sentence before that
    row — or, set no larger than ``body`` text, the first line of a block of column headers (:func:`header_block`)."""
    if len((title or lines[i].text).split()) <= HEADER_WORDS and figures_below(lines, i):
        return True
    return bool(body) and lines[i].size <= body + BODY_SIZE and header_block(lines, i)


def between_rows(lines: list[pdf.Line], first: int, last: int, body: float) -> bool:
    """Lines ``first``–``last`` sit between a table's rows: figures on each of the two lines above (one alone could
    be the page's number), a row of figures within ``HEADER_REACH`` lines below and no sentence between ("46,710 $" /
    "44,538" / "EARNINGS BEFORE INTEREST AND TAXES" / "North America" / "$"): the label of a group of rows, not a
    section's title. Set larger than ``body`` text, it is a title between two tables."""
    return first > 1 and lines[first].size <= body + BODY_SIZE \
        and all(figures_line(line.text) for line in lines[first - 2:first]) and figures_below(lines, last)


def figures_line(text: str) -> bool:
    """A row of figures, or figures alone ("$": a row's currency sign, its figure on the next line; not "..." nor
    "%" alone)."""
    return figures_row(text) or bool(FIGURES.match(text) and _FIGURE_MARK.search(text))


_FIGURE_MARK = re.compile(r"[\d$€£]")


def figures_below(lines: list[pdf.Line], i: int) -> bool:
    """A row of figures within ``HEADER_REACH`` lines below line i, no sentence before it."""
    for nxt in lines[i + 1:i + 1 + HEADER_REACH]:
        if figures_line(nxt.text):
            return True
        if len(nxt.text.split()) >= 8:
            return False  # prose follows: a heading
    return False


BODY_SIZE = 0.5  # points: a line set this much larger than body text is of body size still
BLOCK_REACH = 16  # lines a block of column headers may run before its first row of figures (a header wrapped
# word by word: "TOTAL NUMBER OF" / "SHARES PURCHASED" / "AVERAGE PRICE" / "PAID PER SHARE" / …)
BLOCK_WORDS = 5  # words at most on each line of such a block
BLOCK_ALIKE = 3  # lines of such a block in the style of its first: a title over a subtitle or one column header and
# the years ("RESULTS OF OPERATIONS" / "Net Sales" / "2021") heads its table


def header_block(lines: list[pdf.Line], i: int) -> bool:
    """Line i is in a block of column headers: short lines (:data:`BLOCK_WORDS`), :data:`BLOCK_ALIKE` others at
    least in its size and weight, above or below it, run down to a row of figures with no sentence between ("BOOK
    VALUE" / "OUTSTANDING" / "AS OF MAY 31," / "(Dollars in millions)" / … / "2023"; "PERIOD" / "TOTAL NUMBER OF" /
    "SHARES PURCHASED" / …). A section's title is followed by its text, or by a larger title of a table, or by a
    subtitle and its table's years ("RESULTS OF OPERATIONS" / "Net Sales" / "2021"); a table's title names the unit
    of its figures ("Product Development (in thousands)"), or its lines stand over the unit ("SCHEDULE II" / … /
    "(Amounts in millions)"). A block of :data:`BLOCK_REACH` lines that has not reached its figures is one when half
    its lines are in the line's style, one of them above it (Nike's "MAY 31, 2023" / "DERIVATIVE ASSETS" / … /
    "ASSETS AT" / "FAIR VALUE" / "OTHER" / …)."""
    line = lines[i]
    if UNIT.search(line.text):
        return False

    def same(other: pdf.Line) -> bool:
        return other.bold == line.bold and abs(other.size - line.size) <= 0.2

    if i >= 2 and all(same(prev) and _YEAR.match(prev.text.strip()) for prev in lines[i - 2:i]):
        return True  # "2027" / "2028" / "THEREAFTER": the next column's header after the years, in their style
    alike = 0
    for prev in reversed(lines[max(0, i - BLOCK_REACH):i]):  # the block's lines above it ("MAY YET BE PURCHASED"),
        text = prev.text.strip()  # over the unit set in another style ("MAY 31, 2023" / "(Dollars in millions)")
        if not same(prev) and UNIT.match(text):
            continue
        if len(text.split()) > BLOCK_WORDS or text.endswith((".", ":")) or not same(prev) or \
                (figures_line(text) and not _LETTER.search(text)):  # a date over the columns is one of them
            break
        alike += 1
    above = alike
    for nxt in lines[i + 1:i + 1 + BLOCK_REACH]:
        text = nxt.text.strip()
        if figures_line(text):
            return alike >= BLOCK_ALIKE
        if len(text.split()) > BLOCK_WORDS or text.endswith(".") or nxt.size > line.size + 0.2:
            return False
        if same(nxt) and UNIT.match(text) and alike < BLOCK_ALIKE:
            return False  # a title's lines over the unit in their style; a block of headers may end on its own
            # ("PERIOD" / "TOTAL NUMBER OF" / … / "(IN MILLIONS)")
        alike += same(nxt)
    return above > 0 and alike >= BLOCK_REACH // 2  # a block too long to reach its figures: a dozen headers, a word
    # or two each, and one above the line (the first line of such a block may be the table's title: PepsiCo's
    # "Issuer Purchases of Common Stock" over "Period" / "Total" / "Number of" / "Shares" / …)


_YEAR = re.compile(r"^(?:19|20)\d\d$")
_LETTER = re.compile(r"[A-Za-z]")


def step(words: str) -> bool:
    """A numbered line's words end as a step's sentence or lead-in ("Then touch Save."), not a title's ("Scope.")."""
    return lead_in(words) and not title_case(words.split())


@lru_cache(maxsize=1)
def statement_pattern() -> re.Pattern[str]:
    """The start of a financial statement's title (``statements.statement`` of data/headings.json)."""
    return re.compile("|".join(f"(?:{p})" for p in domain.load("headings")["statements"]["statement"]), re.IGNORECASE)


def statement_title(text: str) -> bool:
    """A filing's financial statement ("Consolidated Balance Sheets", a 10-Q's "Condensed Consolidated Statements of
    Cash Flows": ``statements.statement`` of data/headings.json), a section of Item 8 though its title sits over its
    table's column headers. Not a column header naming one ("Balance Sheet Location", "Balance Sheet")."""
    text = _CONDENSED.sub("", text.strip())
    return bool(statement_pattern().match(text)) and bool(_A_STATEMENT.search(text))


_CONDENSED = re.compile(r"^condensed\s+", re.IGNORECASE)
_A_STATEMENT = re.compile(r"^consolidated\b|\bstatements?\b|\bsheets\b", re.IGNORECASE)
