"""The engine interface: the pipeline picks one engine from the settings, and the engines
do not import the pipeline (no import cycle between pipeline, folder and llm_engine)."""
from __future__ import annotations

import ast
from pathlib import Path

from alphasearch.config import Settings
from alphasearch.engines.offline import OfflineEngine
from alphasearch.engines.llm import LLMEngine
from alphasearch.pipeline import Engine

REPO = Path(__file__).resolve().parents[2]


def test_the_engine_is_picked_once_from_the_settings(tmp_path):
    offline = Engine(Settings(data_dir=tmp_path, engine="offline"))
    assert isinstance(offline.backend, OfflineEngine) and offline.backend.name == "offline"
    assert offline.offline is offline.backend and offline.indexes is offline.backend.indexes
    llm = Engine(Settings(data_dir=tmp_path, engine="openai", base_url="http://127.0.0.1:9/v1"))
    assert isinstance(llm.backend, LLMEngine) and llm.backend.name == "openai"
    assert llm.offline is llm.backend.offline  # the LLM engine starts from the offline index and judges
    assert llm.backend.library_build() is not None and offline.backend.library_build() is None


def _imports(module: str) -> set[str]:
    """Every alphasearch module a file imports (under TYPE_CHECKING or in a function too), dotted below the package."""
    package = ["alphasearch", *module.split("/")[:-1]]
    out: set[str] = set()
    for node in ast.walk(ast.parse((REPO / "alphasearch" / f"{module}.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1] + ([node.module] if node.module else [])
            out.update(".".join(base[1:] + ([] if node.module else [a.name])) for a in node.names)
    return out


def test_engines_import_neither_the_pipeline_nor_the_folder_search():
    for module in ("engines/llm", "engines/offline"):
        assert not {m for m in _imports(module) if m == "pipeline" or m.startswith("folder.search")}, module
    assert "engines.llm" not in _imports("engines/offline") and "search.mcts" in _imports("engines/offline")
