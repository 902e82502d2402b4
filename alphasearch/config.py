"""Settings: built once, frozen. The only module that reads the environment."""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

ENGINES = ("auto", "offline", "openai")
RULES = ("puct", "ucb1")


def default_data_dir() -> Path:
    return Path.home() / ".alphasearch"


@dataclass(frozen=True)
class Settings:
    """Every knob of the engine. Pages are 1-based; rewards and thresholds in [0, 1]."""

    data_dir: Path = dataclasses.field(default_factory=default_data_dir)
    engine: str = "auto"
    # LLM endpoint (any OpenAI-compatible server). The key is never written to disk.
    api_key: str = dataclasses.field(default="", repr=False)
    base_url: str = ""
    index_model: str = "gpt-4o"
    search_model: str = "gpt-4o-mini"
    answer_model: str = "gpt-4o"
    vision: bool = False
    temperature: float = 0.0
    request_timeout: float = 60.0
    max_retries: int = 2
    # search
    iterations: int = 25
    exploration: float = 1.41
    rule: str = "puct"
    confidence_threshold: float = 0.75
    seed: int = 0
    top_k_docs: int = 3
    facts_weight: float = 0.7  # share of a document's folder score from the facts a question names (0: unused)
    doc_time_limit: float = 60.0
    workers: int = 4
    # answers
    answer_threshold: float = 0.35
    # input limits
    max_pages: int = 5000
    warn_pages: int = 1000
    max_file_mb: int = 500
    max_leaf_pages: int = 8

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ConfigError(f"Unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}.")
        if self.rule not in RULES:
            raise ConfigError(f"Unknown selection rule {self.rule!r}; choose one of {', '.join(RULES)}.")
        if self.iterations < 1:
            raise ConfigError("iterations must be at least 1.")
        object.__setattr__(self, "data_dir", Path(self.data_dir).expanduser())

    @property
    def resolved_engine(self) -> str:
        """``auto`` becomes ``openai`` when a key or base URL is set, else ``offline``."""
        if self.engine != "auto":
            return self.engine
        return "openai" if (self.api_key or self.base_url) else "offline"

    def replace(self, **changes: Any) -> "Settings":
        _check_keys(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "Settings":
        """Settings from ``OPENAI_API_KEY``, ``OPENAI_BASE_URL`` and ``ALPHASEARCH_*``,
        then ``overrides`` (values the app or CLI pass in; None means "not given")."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        if env.get("OPENAI_API_KEY"):
            values["api_key"] = env["OPENAI_API_KEY"]
        if env.get("OPENAI_BASE_URL"):
            values["base_url"] = env["OPENAI_BASE_URL"]
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for key, raw in env.items():
            if not key.startswith("ALPHASEARCH_"):
                continue
            name = key[len("ALPHASEARCH_"):].lower()
            if name not in fields:
                continue  # unrelated variables (e.g. ALPHASEARCH_TEST_*) are ignored
            values[name] = _coerce(fields[name], raw)
        given = {k: v for k, v in overrides.items() if v is not None}
        _check_keys(given)
        values.update(given)
        return cls(**values)


def _check_keys(changes: Mapping[str, Any]) -> None:
    names = {f.name for f in dataclasses.fields(Settings)}
    unknown = sorted(set(changes) - names)
    if unknown:
        raise ConfigError(f"Unknown setting(s): {', '.join(unknown)}; valid: {', '.join(sorted(names))}.")


def _coerce(f: dataclasses.Field, raw: str) -> Any:
    default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
    try:
        if isinstance(default, bool):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, Path):
            return Path(raw)
    except ValueError as exc:
        raise ConfigError(f"ALPHASEARCH_{f.name.upper()}={raw!r} is not a valid {type(default).__name__}.") from exc
    return raw
