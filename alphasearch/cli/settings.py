"""The settings a command runs with: the environment's, with the command line's ``--data-dir`` and ``--engine``."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..config import Settings


def settings_from_args(args: argparse.Namespace) -> Settings:
    """:meth:`Settings.from_env` with the data directory and engine the command line names, if any. The command
    line is the operator's own tool: its library may be changed whatever role the app gives its visitors."""
    overrides: dict = {"visitor_role": "editor"}
    if getattr(args, "data_dir", None):
        overrides["data_dir"] = Path(args.data_dir)
    if getattr(args, "engine", None):
        overrides["engine"] = args.engine
    return Settings.from_env(**overrides)
