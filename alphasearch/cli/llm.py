"""CLI for the LLM engine: ``python -m alphasearch cache stats|clear``."""
from __future__ import annotations

import argparse
import json

from ..llm.cache import LLMCache
from .settings import settings_from_args


def cmd_cache(args: argparse.Namespace) -> int:
    cache = LLMCache.for_data_dir(settings_from_args(args).data_dir)
    try:
        if args.action == "clear":
            removed = cache.clear()
            print(f"Removed {removed} cached model repl{'y' if removed == 1 else 'ies'} from {cache.directory}.")
        else:
            print(json.dumps(cache.stats(), ensure_ascii=False))
    finally:
        cache.close()
    return 0


def register(sub, add) -> None:
    sp = add("cache", "the disk cache of model replies: stats (JSON) or clear")
    sp.add_argument("action", choices=("stats", "clear"))
    sp.set_defaults(func=cmd_cache)
