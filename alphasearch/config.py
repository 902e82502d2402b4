"""Settings: built once, frozen. The only module that reads the environment."""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .errors import ConfigError, QuestionTooLongError

ENGINES = ("auto", "offline", "openai")
RULES = ("puct", "ucb1")
ROLES = ("reader", "editor")  # what an app visitor may do: ask and browse; also add, rename and delete
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_QUESTION_CHARS = 2000  # a longer question is refused with one sentence (the app cuts its input there)
MAX_GAP_ROUNDS = 2  # more search rounds for what the first answer missed: bounded, each costs a search and an answer
DEFAULT_BASE_URL = "https://api.openai.com/v1"  # where the openai SDK sends requests when no base URL is set
_FIXED = ("allowed_endpoints", "key_endpoint", "visitor_role")  # set from the environment (or by the engine), never by replace()


def default_data_dir() -> Path:
    return Path.home() / ".alphasearch"


def check_question(question: str) -> str:
    """The question, or QuestionTooLongError when it is longer than the engine reads."""
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionTooLongError(f"The question is {len(question):,} characters long; the limit is "
                                   f"{MAX_QUESTION_CHARS:,}. Ask it in fewer words.")
    return question


@dataclass(frozen=True)
class Settings:
    """Every knob of the engine. Pages are 1-based; rewards and thresholds in [0, 1]."""

    data_dir: Path = dataclasses.field(default_factory=default_data_dir)
    engine: str = "auto"
    # LLM endpoint (any OpenAI-compatible server). The key is never written to disk.
    api_key: str = dataclasses.field(default="", repr=False)
    base_url: str = dataclasses.field(default="", repr=False)  # may hold credentials: shown through shown_url()
    # The endpoint the key was given for (None: the base_url it was built with). The key is
    # only ever sent there: changing base_url without giving a new key is refused.
    key_endpoint: str | None = dataclasses.field(default=None, repr=False)
    # ALPHASEARCH_ALLOWED_ENDPOINTS (comma-separated base URLs): when set, no other endpoint is used.
    allowed_endpoints: tuple[str, ...] = dataclasses.field(default=(), repr=False)
    index_model: str = "gpt-4o"
    search_model: str = "gpt-4o-mini"
    answer_model: str = "gpt-4o"
    vision: bool = False
    temperature: float = 0.0
    request_timeout: float = 60.0
    max_retries: int = 2
    # search
    iterations: int = 25
    # PUCT's c. Siblings are judged together, so every child has its own judgement before
    # any is chosen: exploration only breaks near-ties (see alphasearch/search/mcts.py).
    exploration: float = 0.2
    rule: str = "puct"
    confidence_threshold: float = 0.75
    seed: int = 0
    top_k_docs: int = 3
    facts_weight: float = 0.7  # share of a document's folder score from the facts a question names (0: unused)
    doc_time_limit: float = 60.0
    workers: int = 4
    # answers
    answer_threshold: float = 0.25  # on the calibrated confidence (data/confidence.json)
    # LLM engine: after the first answer the model names what is missing; at most this many more
    # search rounds for it (0: no check, no extra call)
    gap_rounds: int = 1
    # LLM engine: the model writes up to 3 sub-queries (one more call); each one's best page is read too
    llm_sub_queries: bool = False
    # input limits
    max_pages: int = 5000
    warn_pages: int = 1000
    max_file_mb: int = 500
    max_leaf_pages: int = 8
    # untrusted PDFs are parsed in worker processes (isolation.py) with these limits per file
    parse_seconds: float = 120.0
    parse_memory_mb: int = 2048
    # pages without text (scans) and large pictures are read by OCR (Tesseract) while a file is indexed, for at
    # most ocr_seconds more per file; off: such pages stay without text
    ocr: bool = True
    ocr_seconds: float = 300.0
    index_workers: int = 0  # worker processes for indexing several PDFs; 0: one per CPU core
    # the HTTP API (python -m alphasearch serve): clients send "Authorization: Bearer <api_token>";
    # without a token the server binds to the loopback interface only
    api_token: str = dataclasses.field(default="", repr=False)
    api_rate_limit: int = 120  # requests per minute per token (per client address without one); 0: no limit
    api_jobs: int = 2  # uploads and folder adds indexed at once (more wait, queued)
    api_wait_seconds: float = 10.0  # POST /v1/documents answers with the document when indexed by then, else a job
    api_max_body_kb: int = 1024  # a JSON request body's limit (uploads: max_file_mb per file)
    # what the app's visitors may do with the shared library (folders, documents): "reader" asks and browses,
    # "editor" also adds, renames and deletes; "": reader when the app listens beyond loopback (resolve_role)
    visitor_role: str = ""
    # a search trace a visitor uploads to the tree visualizer (its replay costs time in the iterations and nodes)
    max_trace_mb: float = 20.0
    max_trace_steps: int = 5000
    max_trace_nodes: int = 20_000
    # the app's Single PDF uploads kept on disk for a reload: all together (the least recently used forgotten
    # beyond it), and what one browser session may upload
    max_uploads_mb: int = 2048
    max_session_uploads_mb: int = 1024

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ConfigError(f"Unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}.")
        if self.rule not in RULES:
            raise ConfigError(f"Unknown selection rule {self.rule!r}; choose one of {', '.join(RULES)}.")
        if self.parse_seconds <= 0 or self.parse_memory_mb < 256 or self.index_workers < 0 or self.ocr_seconds < 0:
            raise ConfigError("parse_seconds must be positive, parse_memory_mb at least 256, ocr_seconds 0 or more "
                              "and index_workers 0 (one per core) or more.")
        if self.api_rate_limit < 0 or self.api_jobs < 1 or self.api_wait_seconds < 0 or self.api_max_body_kb < 1:
            raise ConfigError("api_rate_limit must be 0 (no limit) or more, api_jobs and api_max_body_kb at least 1, "
                              "api_wait_seconds 0 or more.")
        if self.visitor_role not in ("", *ROLES):
            raise ConfigError(f"Unknown visitor role {self.visitor_role!r}; choose one of {', '.join(ROLES)} "
                              "(ALPHASEARCH_VISITOR_ROLE).")
        if self.iterations < 1:
            raise ConfigError("iterations must be at least 1.")
        if not 0 <= self.gap_rounds <= MAX_GAP_ROUNDS:
            raise ConfigError(f"gap_rounds must be between 0 and {MAX_GAP_ROUNDS} (ALPHASEARCH_GAP_ROUNDS).")
        object.__setattr__(self, "data_dir", Path(self.data_dir).expanduser())
        if self.key_endpoint is None:
            object.__setattr__(self, "key_endpoint", self.base_url)
        if self.resolved_engine == "openai":
            self._check_endpoint()

    def _check_endpoint(self) -> None:
        """Refuse an endpoint the operator did not allow, and a key sent anywhere but its own endpoint."""
        target = normalize_endpoint(self.base_url)
        allowed = [normalize_endpoint(e) for e in self.allowed_endpoints]
        if allowed and target not in allowed:
            raise ConfigError(f"The endpoint {_short(target)} is not allowed on this server; "
                              f"allowed: {', '.join(_short(e) for e in allowed)}.")
        if self.api_key and normalize_endpoint(self.key_endpoint or "") != target:
            raise ConfigError(f"The API key is only sent to the endpoint it was configured with; to use "
                              f"{_short(target)}, give your own API key for it (Settings → API key, or "
                              "OPENAI_API_KEY together with OPENAI_BASE_URL).")

    @property
    def resolved_engine(self) -> str:
        """``auto`` becomes ``openai`` when a key or base URL is set, else ``offline``."""
        if self.engine != "auto":
            return self.engine
        return "openai" if (self.api_key or self.base_url) else "offline"

    def replace(self, **changes: Any) -> "Settings":
        """A copy with ``changes``. A new ``api_key`` belongs to the (new) ``base_url``; a new
        ``base_url`` without a new key keeps the old key bound to its old endpoint (then refused)."""
        _check_keys(changes)
        fixed = sorted(set(changes) & set(_FIXED))
        if fixed:
            raise ConfigError(f"{', '.join(fixed)} cannot be changed here; it comes from the server's environment.")
        if "api_key" in changes:
            changes = dict(changes, key_endpoint=changes.get("base_url", self.base_url))
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
        values.pop("key_endpoint", None)  # never from the environment: the key belongs to the environment's endpoint
        values["key_endpoint"] = values.get("base_url", "")
        given = {k: v for k, v in overrides.items() if v is not None}
        _check_keys(given)
        if "api_key" in given:
            values["key_endpoint"] = given.get("base_url", values.get("base_url", ""))
        values.update(given)
        return cls(**values)


def resolve_role(role: str, address: str) -> str:
    """The visitor role the app applies: ``role`` when set, else "editor" when the server listens on loopback
    only (``address``: Streamlit's server.address) and "reader" when it listens beyond (every interface
    included)."""
    if role:
        return role
    return "editor" if address.strip().strip("[]").lower() in LOOPBACK else "reader"


def normalize_endpoint(url: str) -> str:
    """A base URL in one spelling for comparison: "" is the SDK's default, scheme and host
    in lower case, no trailing slash."""
    url = (url or "").strip() or DEFAULT_BASE_URL
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, ""))


# query parameters that may carry a credential: their names hold one of these (case-insensitive)
_SECRET_PARAMS = ("key", "token", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "user", "code")


def shown_url(url: str) -> str:
    """``url`` as the app and CLI may print, pre-fill or log it: no user name or password, no query parameter
    whose name looks like a credential (key, token, secret, password, signature…), no fragment. An
    unparseable value is shown as its scheme and host only, or not at all."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{port}" if port else "")
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if not any(word in k.lower() for word in _SECRET_PARAMS)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def _short(url: str) -> str:
    url = shown_url(url)
    return url if len(url) <= 80 else url[:79] + "…"


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
        if isinstance(default, tuple):
            return tuple(part.strip() for part in raw.split(",") if part.strip())
    except ValueError as exc:
        raise ConfigError(f"ALPHASEARCH_{f.name.upper()}={raw!r} is not a valid {type(default).__name__}.") from exc
    return raw
