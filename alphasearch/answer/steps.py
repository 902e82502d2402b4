"""How many steps a procedure takes ("How many steps are needed to replace the grille?").

The procedure is the short line, a heading or a lead-in, that names what the question wants done ("To replace the
grille:", "Customizing the function of the Down button"): most of the question's words after "to" and every number it
names ("Windows 10" is not "Windows 9.0"). Its steps are the numbered lines after it, counted in the numbering style of
the first one ("1." "2.", "1 Press …", a number alone on its line as a manual prints it beside a picture, "Step 1")
until that numbering starts again at 1: a sub-step in another style ("1." under a step "2") or a page number does not
count. No such line, or no step 1 soon after it: no count, and the reader's other means answer.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..lang.text import terms
from ..models import DocumentIndex
from ..read.contents import contents_page
from ..read.running import running_lines, without_running

_ASKED = re.compile(r"\bhow (?:many )?steps\b[^?]*?\b(?:to|for)\s+(?P<what>[^?]+)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# the numbering styles of a step, the first that matches a line: its number is group 1
_STYLES = (("step", re.compile(r"^\s*step\s+(\d{1,2})\b", re.IGNORECASE)),
           ("dot", re.compile(r"^\s*(\d{1,2})\.\s+\S")),
           ("paren", re.compile(r"^\s*(\d{1,2})\)\s+\S")),
           ("space", re.compile(r"^\s*(\d{1,2})\s+[A-Z]")),
           ("alone", re.compile(r"^\s*(\d{1,2})\s*$")))
TITLE_WORDS = 14  # a heading or lead-in is at most this many words
COVERED = 0.6  # the share of the question's words (after "to") the procedure's line must hold
FIRST_WITHIN = 25  # step 1 stands within this many lines of the procedure's line
MAX_LINES = 150  # the steps are read over at most this many lines after it
CANDIDATES = 5  # the lines closest to the procedure asked that are tried for steps
MIN_STEPS = 2  # fewer numbered lines are no procedure's steps
FREQUENT = 0.25  # a word of the question on this share of the pages may be missing from the procedure's title
_MID_SENTENCE = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]")
_OTHER_TASK = re.compile(r"^To\s+\w.*:\s*$")  # a lead-in of a task ("To reset your password:")


@dataclass(frozen=True)
class Steps:
    """``count`` steps of the procedure titled ``title`` (on ``page``), the steps' lines with their pages."""

    count: int
    title: str
    page: int
    lines: tuple[tuple[int, str], ...]

    def line(self) -> str:
        pages = sorted({self.page, *(p for p, _ in self.lines)})
        where = f"p. {pages[0]}" if len(pages) == 1 else f"pp. {pages[0]}–{pages[-1]}"
        return f"{self.count} step{'s' if self.count != 1 else ''}: “{self.title}” ({where})."


def _style(line: str) -> tuple[str, int] | None:
    for name, rx in _STYLES:
        m = rx.match(line)
        if m:
            return name, int(m.group(1))
    return None


def _procedures(lines: list[tuple[int, str]], what: str) -> list[int]:
    """The indices in ``lines`` of the lines that may title the procedure ``what`` names, the closest first (a
    contents page prints the same title, with no steps under it)."""
    want = set(terms(what))
    numbers = set(_NUMBER.findall(what))
    if len(want) < 2:
        return []
    # a word the title may leave out is the product's own, on most pages ("the headset" of a headset's manual)
    lower = [(p, text.lower()) for p, text in lines]
    pages = len({p for p, _ in lines})
    needed = {t for t in want if len({p for p, text in lower if t in text}) < FREQUENT * pages}
    found = []
    for i, (_, text) in enumerate(lines):
        words = text.split()
        if (not 2 <= len(words) <= TITLE_WORDS or text.rstrip(" \"'”’)").endswith((".", ";", ","))
                or not text[0].isupper() and not text[0].isdigit() or _MID_SENTENCE.search(text)):
            continue  # a title or a lead-in: short, starting as one, no sentence ending in it
        held = set(terms(text))
        share = len(want & held) / len(want)
        if share >= COVERED and needed <= held and numbers <= set(_NUMBER.findall(text)):
            found.append((-share, -difflib.SequenceMatcher(None, what.lower(), text.lower()).ratio(), i))
    return [i for *_, i in sorted(found)[:CANDIDATES]]


def _steps(lines: list[tuple[int, str]], at: int) -> list[tuple[int, str]]:
    """The numbered steps after ``lines[at]`` (see the module); empty when step 1 is not soon after it."""
    style, steps = None, []
    for k in range(at + 1, min(len(lines), at + 1 + MAX_LINES)):
        found = _style(lines[k][1])
        if style is None:
            if k - at > FIRST_WITHIN or _OTHER_TASK.match(lines[k][1]):
                return []  # too far, or another task's lead-in ("To reset your password:") comes first
            if found and found[1] == 1 and (found[0] != "alone" or _sentence(lines, k)):
                style = found[0]
                steps.append(_shown(lines, k, style))
            continue
        if found and found[0] == style and (style != "alone" or _sentence(lines, k)):
            if found[1] == 1:
                break  # the next procedure's numbering
            if found[1] == len(steps) + 1:
                steps.append(_shown(lines, k, style))
    return steps if len(steps) >= MIN_STEPS else []  # one numbered line is a list item or a table's cell


def _sentence(lines: list[tuple[int, str]], k: int) -> bool:
    """Words before a step number standing alone on line ``k`` (a manual's picture beside them, the two lines before
    it), not a table's cells ("61", "(2)")."""
    return len(re.findall(r"[A-Za-z]{2,}", " ".join(text for _, text in lines[max(0, k - 2):k]))) >= 3


def _shown(lines: list[tuple[int, str]], k: int, style: str) -> tuple[int, str]:
    """A step's line as quoted: a number alone on its line (beside a picture) with the line printed before it."""
    page, text = lines[k]
    return (page, f"{text.strip()} — {lines[k - 1][1]}") if style == "alone" else (page, text)


def count_steps(doc: DocumentIndex, question: str) -> Steps | None:
    """The steps of the procedure a "how many steps … to X" question names, or None (see the module)."""
    m = _ASKED.search(question)
    if m is None:
        return None
    running = running_lines(doc)
    # a contents page names the procedures, with no steps under them: its lines title none
    lines = [(p.number, line.strip()) for p in doc.pages if not contents_page(p.text)
             for line in without_running(p.text, running).split("\n") if line.strip()]
    for at in _procedures(lines, m.group("what")):
        steps = _steps(lines, at)
        if steps:
            return Steps(len(steps), lines[at][1].rstrip(":"), lines[at][0], tuple(steps))
    return None


__all__ = ["Steps", "count_steps"]
