"""Compare two RESULTS.md files figure by figure: did a change that should not move any figure move one?

    python benchmarks/compare_results.py OLD.md NEW.md [--out benchmarks/results/compare.md] [--note TEXT ...]

Lines are paired by their words (numbers masked); a pair whose numbers differ, and a line only one file has,
is listed. Times, loads, memory and dates differ from run to run; every other figure should be equal.
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

NUMBER = re.compile(r"-?\d[\d,]*\.?\d*")


def compare(old: list[str], new: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """(lines whose numbers are equal, [(old line, new line)] that differ; "" for a line one side lacks)."""
    masked = difflib.SequenceMatcher(a=[NUMBER.sub("#", x) for x in old], b=[NUMBER.sub("#", y) for y in new],
                                     autojunk=False)
    equal, differ = 0, []
    for tag, i1, i2, j1, j2 in masked.get_opcodes():
        if tag == "equal":
            for x, y in zip(old[i1:i2], new[j1:j2]):
                if NUMBER.findall(x) == NUMBER.findall(y):
                    equal += NUMBER.search(x) is not None
                else:
                    differ.append((x, y))
        else:
            differ += [(x, "") for x in old[i1:i2] if x.strip()] + [("", y) for y in new[j1:j2] if y.strip()]
    return equal, differ


def markdown(old_name: str, new_name: str, equal: int, differ: list[tuple[str, str]], notes: list[str] = ()) -> str:
    def cell(s: str) -> str:
        return s.strip().replace("|", "\\|")[:160] or "—"

    out = [f"# {old_name} → {new_name}", "", *(line for n in notes for line in (n, "")),
           f"{equal} lines with figures are equal; {len(differ)} differ or stand in one file only:", "",
           "| before | after |", "|---|---|"]
    out += [f"| {cell(a)} | {cell(b)} |" for a, b in differ]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--out", default=None, help="write the comparison as markdown here")
    ap.add_argument("--note", action="append", default=[], help="a paragraph under the title (repeatable)")
    args = ap.parse_args(argv)
    old, new = (Path(p).read_text(encoding="utf-8").splitlines() for p in (args.old, args.new))
    equal, differ = compare(old, new)
    text = markdown(args.old, args.new, equal, differ, args.note)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
