"""A before/after table of the out-of-sample answer figures: the JSON files ``eval_more.py`` (on the validation
set or the dev set) and ``statement_battery.py`` write, measured for a baseline revision and the current one on
the same machine, written as markdown. It runs nothing itself: each side's files come from the benchmarks'
own commands (see the table's notes), so a reader can rerun either side.

    python benchmarks/ab_table.py --pair "eval-more" BEFORE.json AFTER.json --pair battery B.json A.json \
        --out benchmarks/results/outofsample_ab.md --note "..."
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from results_trees import md_table

SET_KEYS = ("hit1", "hit3", "carries", "wrong", "answer_carries", "fallback", "fallback_not_answerable")
BATTERY_KEYS = ("carries", "wrong", "none")


def _f(x) -> str:
    return "–" if x is None else f"{x:.3f}"


def rows_of(name: str, before: dict, after: dict) -> list[list[str]]:
    """One row per group (a labelled set's groups, or the battery's line items): before → after per figure."""
    if "items" in before:  # statement_battery.py
        groups, keys = before["items"], BATTERY_KEYS
        other = after["items"]
    else:  # eval_more.py
        groups, keys = before["groups"], SET_KEYS
        other = after["groups"]
    out = []
    for group, b in groups.items():
        a = other.get(group, {})
        cells = [f"{_f(b.get(k))} → {_f(a.get(k))}" for k in keys]
        out.append([name, group, str(b.get("n", "")), *cells])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pair", nargs=3, action="append", metavar=("NAME", "BEFORE", "AFTER"), required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="Out of sample: before → after")
    p.add_argument("--note", action="append", default=[])
    args = p.parse_args(argv)
    parts = [f"## {args.title}", ""]
    for name, before, after in args.pair:
        b, a = (json.loads(Path(x).read_text("utf-8")) for x in (before, after))
        keys = BATTERY_KEYS if "items" in b else SET_KEYS
        parts += [md_table(["set", "group", "n", *keys], rows_of(name, b, a)), ""]
    parts += [f"- {n}" for n in args.note]
    Path(args.out).write_text("\n".join(parts).rstrip() + "\n", "utf-8")
    print(Path(args.out).read_text("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
