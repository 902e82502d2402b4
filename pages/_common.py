"""Streamlit glue shared by every screen: settings in session state, the cached
engine, search history, safe text, answers with page previews, and the
view-model of the tree visualizer.

Pages import from here; this module imports the engine; the engine never
imports Streamlit. Document text is always shown escaped (never as HTML or
live Markdown).
"""
from __future__ import annotations

import dataclasses
import html
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from alphasearch.pdf.convert import ACCEPTED
from alphasearch.search import mcts
from alphasearch.answer.confidence import explain_confidence
from alphasearch.config import Settings, shown_url
from alphasearch.errors import AlphaSearchError
from alphasearch.models import Answer, Citation, SearchTrace, Usage
from alphasearch.lang.text import shorten as text_shorten
from alphasearch.llm.streaming import Notice, Streamed

log = logging.getLogger("alphasearch.app")

# --- settings and engine ---------------------------------------------------------------------
@st.cache_resource(show_spinner=False)
def base_settings() -> Settings:
    """Settings from the environment, read once per server process, the visitor role resolved (a reader's
    library refuses every change)."""
    from pages._visitor import role

    settings = Settings.from_env()
    return dataclasses.replace(settings, visitor_role=role(settings))


def overrides() -> dict[str, Any]:
    """This browser session's setting overrides (the API key among them, memory only)."""
    return st.session_state.setdefault("settings_overrides", {})


def current_settings() -> Settings:
    """The base settings with this session's overrides applied."""
    changes = dict(overrides())
    key = st.session_state.get("session_api_key", "")
    if key:
        changes["api_key"] = key
    return base_settings().replace(**changes) if changes else base_settings()


@st.cache_resource(show_spinner=False, max_entries=8)
def _engine(settings: Settings):
    from alphasearch.pipeline import Engine

    return Engine(settings)


def engine():
    """The shared engine for the current settings (one per distinct settings, thread-safe)."""
    return _engine(current_settings())


def engine_label(settings: Settings) -> str:
    """One line naming the active engine, never the key."""
    if settings.resolved_engine == "offline":
        return "Offline (BM25 + static embeddings, no key, no network)"
    where = shown_url(settings.base_url) or "api.openai.com"
    return f"LLM · {settings.search_model} / {settings.answer_model} at {where}"


def library():
    """The folder library of the current engine (SQLite catalog under the data dir)."""
    return engine().library


@st.cache_data(show_spinner=False, max_entries=2048)
def doc_facts(sha256: str) -> tuple[int | None, str]:
    """(section count, engine that built it) of a stored index; (None, "missing") if unreadable."""
    index = library().indexes.get(sha256)
    if index is None:
        return None, "missing"
    return index.section_count(), index.engine


# --- the latest searches (for the tree visualizer) -------------------------------------------
@dataclass
class SearchRecord:
    """One question asked on any screen, with its trace(s) for the visualizer.

    ``traces`` maps a phase name ("Document tree", "Phase 1 — documents",
    "Phase 2 — <doc>") to the trace of that phase.
    """

    question: str
    source: str  # "Single PDF", "Folder query", "Saved", "Uploaded trace"
    traces: dict[str, SearchTrace]
    when: float = field(default_factory=time.time)
    cited: dict[str, tuple[int, ...]] = field(default_factory=dict)  # phase name → the pages its answer cites

    @property
    def title(self) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.when))
        return f"{stamp} · {self.source} · {shorten(self.question, 60)}"


def answer_pages(answer: Answer, doc: str | None = None) -> tuple[int, ...]:
    """The pages ``answer`` cites (of document ``doc``, for a folder's answer), the direct line's first: where the
    answer was read, which the visualizer marks beside the search's path."""
    direct = (answer.extra.get("structured") or {}).get("direct") or {}
    first = list(direct.get("pages") or []) if doc is None or direct.get("doc") == doc else []
    pages = [p for c in answer.citations if doc is None or c.doc == doc for p in range(c.pages[0], c.pages[1] + 1)]
    return tuple(dict.fromkeys(int(p) for p in first + pages))[:5]


def searches() -> list[SearchRecord]:
    return st.session_state.setdefault("searches", [])


def remember_search(record: SearchRecord) -> None:
    """Make ``record`` the latest search (the visualizer's default); keeps the last 30."""
    items = searches()
    items.append(record)
    del items[:-30]
    st.session_state.pop("tree_pick", None)  # the visualizer shows the latest by default


def saved_searches() -> list[SearchRecord]:
    """This visitor's latest saved folder search of every folder and latest single-document searches (stored
    in the library), newest first."""
    from alphasearch.models import FolderTrace
    from pages._visitor import owner

    out: list[SearchRecord] = []
    try:
        lib = library()
        for f in lib.folders():
            data = lib.load_trace(f.folder_id, owner=owner())
            if not data or not data.get("folder_trace"):
                continue
            try:
                ft = FolderTrace.from_dict(data["folder_trace"])
            except (KeyError, TypeError, ValueError):
                continue
            traces = {"Phase 1 — documents": ft.documents} if ft.documents else {}
            traces.update({f"Phase 2 — {d}": tr for d, tr in ft.per_document.items()})
            if traces:
                when = float(data.get("when") or 0.0)
                out.append(SearchRecord(ft.question or str(data.get("question", "")), f"Saved · {f.name}", traces,
                                        when=when))
        for when, data in lib.document_traces(owner=owner()):
            try:
                trace = SearchTrace.from_dict(data["trace"])
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            cited = tuple(p for p in data.get("cited") or () if isinstance(p, int))
            out.append(SearchRecord(str(data.get("question", "")), f"Saved · {data.get('doc', 'document')}",
                                    {"Document tree": trace}, when=when, cited={"Document tree": cited}))
    except (AlphaSearchError, OSError):
        return out
    return sorted(out, key=lambda r: -r.when)


# --- safe text ------------------------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&\"'])")
# Where an automatic link would start: a scheme's "://", "www.", an e-mail's "@". The
# Markdown renderer links these after escapes are resolved, so escaping cannot stop it;
# an invisible word joiner (U+2060) placed there does. Every "www." gets one, wherever it
# stands: the renderer links "_www.x" ("_" counts as a word's start there; "\_" still is "_").
_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(?=://)|(?<=www)(?=\.)|(?<=@)(?=[\w-]+\.\w)")
_JOINER = "\u2060"
_LOOKALIKE = str.maketrans({"<": "\u2039", ">": "\u203a", "&": "\uff06"})  # ‹ › ＆: no HTML markup left


def inert(text: object, where: str = "markdown") -> str:
    """THE helper for every file or folder name, question and piece of document text put on
    a page: the text shows literally and nothing in it becomes markup, a link or an image.

    ``where="markdown"``: for st.markdown, st.caption, widget labels, st.status/st.toast/
    st.error/st.warning/st.info texts, expander titles and metric labels (all render
    Markdown): every Markdown/HTML/directive character is backslash-escaped.
    ``where="plotly"``: for Plotly titles, axis/legend labels and hover texts (Plotly renders
    ``<a href>``, ``<b>``, ``<br>`` …): ``<``, ``>`` and ``&`` become entities.
    ``where="tooltip"``: for the tree graph's hover text, which vis-network shows as plain
    text but streamlit-agraph also parses as HTML (``innerHTML`` of a detached div, which
    would still load an ``<img onerror>``): ``<``, ``>`` and ``&`` become look-alikes
    (‹ › ＆), so the text parses to text and reads the same.
    The Markdown form also breaks automatic links (``https://…``, ``www.…``, ``a@b.c``).
    """
    if where == "markdown":
        return _MD_SPECIAL.sub(r"\\\1", _AUTOLINK.sub(_JOINER, str(text)))
    if where == "plotly":  # Plotly links only <a href="…">, never bare addresses
        return html.escape(str(text), quote=False)
    if where == "tooltip":
        return str(text).translate(_LOOKALIKE)
    raise ValueError(f"Unknown target {where!r}; choose markdown, plotly or tooltip.")


def md_escape(text: object) -> str:
    """``inert(text)`` (the Markdown form), under the name the screens have always used."""
    return inert(text)


def shorten(text: str, n: int) -> str:
    """At most ``n`` characters, cut at a word (:func:`alphasearch.lang.text.shorten`)."""
    return text_shorten(str(text), n)


def pages_label(pages: Sequence[int]) -> str:
    a, b = int(pages[0]), int(pages[-1])
    return f"p. {a}" if a == b else f"pp. {a}–{b}"


def show_error(exc: BaseException, doing: str) -> None:
    """One sentence on screen; the traceback only in the server log."""
    if isinstance(exc, AlphaSearchError):
        st.error(inert(exc), icon=":material/error:")  # messages name files and folders: never markup
    else:
        log.exception("unexpected error while %s", doing)
        st.error(f"Something went wrong while {inert(doing)}; nothing stored was changed, please try again.",
                 icon=":material/error:")


def open_library():
    """(library, its folders); when the library cannot be opened, one sentence on screen and the page stops."""
    try:
        lib = library()
        return lib, lib.folders()
    except AlphaSearchError as exc:
        show_error(exc, "opening the library")
        st.stop()


UPLOAD_TYPES = [suffix.lstrip(".") for suffix in ACCEPTED]  # the upload widgets take what the engine converts


def check_upload_size(data: bytes, name: str, settings: Settings) -> None:
    """Refuse a file over ``max_file_mb``, or one that takes this session past ``max_session_uploads_mb``
    (counted here for every upload it accepts)."""
    from alphasearch.errors import FileTooLargeError

    if len(data) > settings.max_file_mb * 1024 * 1024:
        raise FileTooLargeError(f"{name} is {len(data) / 2**20:.0f} MB; the limit is {settings.max_file_mb} MB.")
    used = st.session_state.get("uploaded_bytes", 0) + len(data)
    if used > settings.max_session_uploads_mb * 2**20:
        raise FileTooLargeError(f"{name} would take this session's uploads to {used / 2**20:,.0f} MB; the limit is "
                                f"{settings.max_session_uploads_mb:,} MB per session.")
    st.session_state["uploaded_bytes"] = used


def release_upload(file_id: str, widget_key: str = "", uploads: Sequence[Any] = ()) -> None:
    """Drop Streamlit's copies of an uploaded file once the engine has what it needs (the bytes are kept on
    disk): its upload manager's copy, the bytes of ``uploads`` (``UploadedFile`` objects: the widget's value as
    returned and as kept in the session's state are two) and, with ``widget_key``, the uploader widget's state
    (the widget must then be drawn anew, under a new key, before its next upload); then hand freed memory back
    to the system. A closed tab's session is kept for a while with its widgets' values (four 100 MB uploads left
    the server at 963 MB after every tab closed). Safe in a run being stopped: what needs no session state goes
    first."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is not None and file_id:
            ctx.uploaded_file_mgr.remove_file(ctx.session_id, file_id)
    except Exception:  # AppTest, or another Streamlit: the copy goes with the session
        log.debug("uploaded file %s not released", file_id, exc_info=True)
    for upload in uploads:
        if upload is not None:  # an UploadedFile is a BytesIO over the upload's bytes: emptied, not closed
            upload.truncate(0)  # (Streamlit may still read it)
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    if widget_key:
        st.session_state.pop(widget_key, None)


class ScriptThreadProgress:
    """Wraps a progress callback that draws on the page so it is safe to hand to the
    engine: calls from the script's own thread draw (at most once per percent);
    calls from the engine's worker threads only record the latest value, which the
    next call from the script thread draws (Streamlit elements belong to one thread)."""

    def __init__(self, draw: Callable[[str, float], None]):
        self._draw = draw
        self._thread = threading.get_ident()
        self._lock = threading.Lock()
        self._latest: tuple[str, float] | None = None
        self._shown: tuple[str, int] | None = None

    def __call__(self, stage: str, fraction: float) -> None:
        with self._lock:
            self._latest = (stage, fraction)
        if threading.get_ident() != self._thread:
            return
        with self._lock:
            stage, fraction = self._latest
        key = (stage, int(max(0.0, min(1.0, fraction)) * 100))
        if key != self._shown:
            self._shown = key
            self._draw(stage, fraction)


# --- previews ------------------------------------------------------------------------------------
PdfLoader = Callable[[], bytes]  # returns the PDF bytes; called only when a preview is not cached


@st.cache_data(show_spinner=False, max_entries=256)
def page_png(doc_id: str, page: int, snippets: tuple[str, ...], _load: PdfLoader, _owner: str = "") -> bytes:
    """PNG of a 1-based page with ``snippets`` highlighted (cached by document id, page and snippets), drawn in
    the preview workers as ``_owner``'s one running preview (:func:`alphasearch.index.previews.preview`: within a
    time limit, the server free meanwhile, a page that failed not drawn again)."""
    from alphasearch.index import previews

    return trim_margins(previews.preview(_load(), page, tuple(snippets), owner=_owner))


def trim_margins(png: bytes, pad: int = 24) -> bytes:
    """The page image without its empty bottom and side margins (so short pages
    are not mostly white); the image is unchanged when it has no blank border."""
    import io

    from PIL import Image, ImageChops

    try:
        img = Image.open(io.BytesIO(png)).convert("RGB")
        box = ImageChops.difference(img, Image.new("RGB", img.size, (255, 255, 255))).getbbox()
    except (OSError, ValueError):
        return png
    if not box:
        return png
    left, top, right, bottom = box
    box = (max(0, left - pad), max(0, top - pad), min(img.width, right + pad), min(img.height, bottom + pad))
    if box == (0, 0, img.width, img.height):
        return png
    out = io.BytesIO()
    img.crop(box).save(out, format="PNG")
    return out.getvalue()


def citation_preview(cites: Sequence[Citation], load: PdfLoader | None) -> None:
    """The cited page as an image with the cited passages (of one page) highlighted."""
    if load is None:
        st.caption("The PDF is not available to preview.")
        return
    c = cites[0]
    try:
        from pages._visitor import owner

        png = page_png(c.doc_id or c.doc, int(c.pages[0]), tuple(x.snippet for x in cites if x.snippet), load,
                       owner())
    except (AlphaSearchError, OSError, ValueError, RuntimeError) as exc:
        st.caption(f"Preview unavailable: {inert(exc)}")
        return
    marked = "cited passage highlighted" if len(cites) == 1 else "cited passages highlighted"
    st.image(png, caption=inert(f"{c.doc} — {pages_label(c.pages)}, {marked}"), width="content",
             alt=f"Page {c.pages[0]} of {c.doc} with the {marked.removesuffix(' highlighted')} highlighted")


# --- answers ----------------------------------------------------------------------------------------
def percent(p: float) -> str:
    """A probability as a whole percent that never rounds to certainty: 0.9988 is "99%", not "100%"."""
    p = float(p)
    return f"{min(max(p, 0.01), 0.99) if 0.0 < p < 1.0 else p:.0%}"


def answer_stats(answer: Answer) -> str:
    nodes = answer.trace.nodes_scored if answer.trace else int(answer.extra.get("nodes_scored", 0))
    calls = answer.usage.llm_calls
    bits = [f"confidence {percent(answer.confidence)}", f"{answer.seconds:.2f} s",
            f"{calls} LLM call{'s' if calls != 1 else ''}"]
    if answer.usage.cache_hits:
        bits.append(f"{answer.usage.cache_hits} cached")
    bits.append(f"{nodes} sections scored")
    return " · ".join(bits)


def inert_words(pieces: Iterator[str]) -> Iterator[str]:
    """Streamed text made inert word by word (a word is passed on once the space after it
    has arrived), so an address split across pieces cannot become a link."""
    rest = ""
    for piece in pieces:
        if isinstance(piece, Notice):  # a knowledge-gap round: the next draft follows on its own
            yield inert(rest) + f"\n\n*{inert(piece)}*\n\n"
            rest = ""
            continue
        rest += piece
        cut = max(rest.rfind(" "), rest.rfind("\n")) + 1
        if cut:
            yield inert(rest[:cut])
            rest = rest[cut:]
    if rest:
        yield inert(rest)


def ask_streaming(ask: Callable[[Callable[[str], None]], Answer], doing: str = "Searching the section tree…") -> Answer:
    """``ask(on_text)`` (an engine question taking the answer's draft callback) run in a thread while
    the draft streams onto the page (``st.write_stream``); the draft is cleared when the answer is
    finished (the caller renders it, citations checked). The engine's exception is raised here;
    a script stopped mid-stream cancels the model's stream (it is then not cached)."""
    run = Streamed(ask)
    draft = st.empty()
    with st.spinner(doing, show_time=True), draft.container():
        st.write_stream(inert_words(run.pieces()))
    draft.empty()
    return run.result


def render_answer(answer: Answer, pdf_for: Callable[[Citation], PdfLoader | None], *, key: str,
                  route: str = "", series: Callable[[], None] | None = None) -> None:
    """Answer text, its figures, a warning if degraded, and one expander per citation
    holding the highlighted page. ``route`` is shown as given: pass it through :func:`inert`.
    ``series``: draws a trend answer's table and chart (pages/_series.py) under its summary lines."""
    if route:
        st.caption(route)
    structured = answer.extra.get("structured") or {}
    if series is not None and not answer.fallback:
        st.markdown(md_escape(answer.text.split("\n\n")[0]))  # the summary; the table is drawn, not Markdown
        series()
    elif answer.fallback:
        st.info(md_escape(answer.text), icon=":material/search_off:")
        looked_at(structured.get("looked_at") or {}, key)
    elif structured.get("direct") or structured.get("key_points"):
        render_structured(structured, key)
        also = [part for part in answer.text.split("\n\n") if part.startswith("Also found in: ")]
        if also:  # a folder answer's other candidate documents, said in its text
            st.markdown(md_escape(also[-1]))
    else:
        st.markdown(md_escape(answer.text))
    if answer.extra.get("period_note"):  # how a folder question's period was read, where that was a choice
        st.info(md_escape(answer.extra["period_note"]), icon=":material/event:")
    parts = answer.extra.get("confidence_parts")
    st.caption(answer_stats(answer), help=(
        f"Confidence {percent(answer.confidence)} = {explain_confidence(parts, current_settings().answer_threshold)}." if parts else
        "Confidence as the model stated it, in [0, 1]."))
    if answer.degraded:
        st.warning(f"Degraded answer: {inert(answer.degraded)}", icon=":material/error:")
    if answer.extra.get("sub_queries"):  # query expansion (alphasearch/expansion.py)
        st.caption("Also searched for: " + "; ".join(f"“{inert(q)}”" for q in answer.extra["sub_queries"]))
    for numbers, cites in cited_pages(answer.citations):  # one box per page, however many passages it gives
        c = cites[0]
        label = f"{' '.join(f'[{n}]' for n in numbers)} {shorten(c.doc, 40)} → {shorten(c.section, 50)}, {pages_label(c.pages)}"
        with st.expander(md_escape(label), expanded=False):
            left, right = st.columns([1, 2])
            with left:
                st.caption("Cited passage" if len(cites) == 1 else "Cited passages")
                for n, x in zip(numbers, cites):
                    prefix = f"[{n}] " if len(cites) > 1 else ""
                    st.markdown("> " + prefix + md_escape(x.snippet) if x.snippet else "—")
                st.caption(f"Section: {md_escape(c.section)} · {pages_label(c.pages)}")
            with right:
                citation_preview(cites, pdf_for(c))


def cited_pages(citations: Sequence[Citation]) -> list[tuple[list[int], list[Citation]]]:
    """The citations grouped by the page range they cite (in order of first citation), each with
    its 1-based numbers: three passages of p. 2 are one box, [1] [2] [3]."""
    groups: dict[tuple, tuple[list[int], list[Citation]]] = {}
    for i, c in enumerate(citations):
        numbers, cites = groups.setdefault((c.doc_id or c.doc, tuple(c.pages)), ([], []))
        numbers.append(i + 1)
        cites.append(c)
    return list(groups.values())


def answer_meta(answer: Answer) -> dict[str, Any]:
    """What a stored chat keeps of an answer (JSON-ready), read back by :func:`stored_answer`."""
    return {"confidence": answer.confidence, "fallback": answer.fallback, "seconds": round(answer.seconds, 3),
            "llm_calls": answer.usage.llm_calls, "cache_hits": answer.usage.cache_hits,
            "nodes_scored": answer.trace.nodes_scored if answer.trace else 0, "degraded": answer.degraded,
            "confidence_parts": answer.extra.get("confidence_parts"), "structured": answer.extra.get("structured"),
            "sub_queries": answer.extra.get("sub_queries"), "series": answer.extra.get("series"),
            "citations": [{**c.to_dict(), "doc_id": c.doc_id} for c in answer.citations]}


def stored_answer(text: str, meta: dict) -> Answer:
    """An answer as a stored chat keeps it (text and :func:`answer_meta`), ready to render."""
    cites = [Citation(doc=str(c.get("doc", "")), section=str(c.get("section", "")),
                      pages=tuple(c.get("pages", (1, 1))), snippet=str(c.get("snippet", "")),
                      doc_id=str(c.get("doc_id", ""))) for c in meta.get("citations", [])]
    extra: dict[str, Any] = {"nodes_scored": int(meta.get("nodes_scored", 0))}
    if isinstance(meta.get("confidence_parts"), dict):
        extra["confidence_parts"] = {str(k): float(v) for k, v in meta["confidence_parts"].items()}
    if isinstance(meta.get("structured"), dict):
        extra["structured"] = meta["structured"]
    if isinstance(meta.get("sub_queries"), list):
        extra["sub_queries"] = [str(q) for q in meta["sub_queries"]]
    if isinstance(meta.get("series"), dict):
        extra["series"] = meta["series"]
    if meta.get("period_note"):
        extra["period_note"] = str(meta["period_note"])
    return Answer(text=text, confidence=float(meta.get("confidence", 0.0)), fallback=bool(meta.get("fallback")),
                  citations=cites, pages=[], seconds=float(meta.get("seconds", 0.0)),
                  usage=Usage(llm_calls=int(meta.get("llm_calls", 0)), cache_hits=int(meta.get("cache_hits", 0))),
                  degraded=str(meta.get("degraded", "")), extra=extra)


def render_structured(structured: dict, key: str = "") -> None:
    """Direct answer (a folder answer's: with its document named) · key points · what the document did not
    say, each with its pages (``key``: the answer's, one box per answer of a chat)."""
    with st.container(key=f"structured-answer-{key}" if key else "structured-answer"):
        direct = structured.get("direct")
        if direct:  # none when no line says more than the question (the key points then come first)
            named = f" ({md_escape(structured['doc'])})" if structured.get("doc") else ""  # a folder answer's document
            st.markdown(f"**Direct answer{named}:** {md_escape(direct['text'])}")
        points = structured.get("key_points") or []
        if points:
            st.markdown("**Key points**\n\n" + "\n".join(
                f"- {md_escape(k['text'])} [p. {k['page']}]" for k in points))
        missing = structured.get("not_said") or []
        if missing:
            st.markdown("**What the document did not say**\n\n" + "\n".join(
                f"- {md_escape(m['text'])}" + (f" [pages read: {', '.join(map(str, m['pages']))}]" if m.get("pages") else "")
                for m in missing))


def looked_at(where: dict, key: str = "") -> None:
    """On a fallback: the pages read and the closest passages, marked as not an answer (``key``: the answer's)."""
    if not where.get("pages"):
        return
    with st.container(key=f"looked-at-{key}" if key else "looked-at"):
        st.caption(f"{md_escape(where.get('note') or 'Not an answer.')} Pages read: "
                   f"{', '.join(map(str, where['pages']))}.")
        for p in where.get("passages") or []:
            st.markdown(f"> {md_escape(p['text'])} [p. {p['page']}]")


# --- tree visualizer view-model (pure; no Streamlit calls) -----------------------------------------
@dataclass(frozen=True)
class NodeView:
    """One node's state after iteration t of a search."""

    node_id: str
    parent: str | None
    title: str
    pages: tuple[int, int]
    summary: str
    depth: int
    prior: float
    visits: int
    q: float
    reward: float | None  # the node's simulation result (known once scored by iteration t)
    selection: float | None  # its selection value under its parent at t (None for the root)
    on_path: bool  # on the path of iteration t
    chosen_values: tuple[tuple[int, float], ...]  # (iteration, selection value) each time it was chosen
    judged: bool = False  # judged by iteration t
    page: bool = False  # a page node (the search read this page)


def with_rounds(traces: dict[str, SearchTrace]) -> dict[str, SearchTrace]:
    """The phases to pick from: each trace, followed by its knowledge-gap rounds (the search
    again for what the first answer missed) as "<phase> · round N: <query>"."""
    out: dict[str, SearchTrace] = {}
    for name, trace in traces.items():
        out[name] = trace
        for i, r in enumerate(trace.rounds, 2):
            out[f"{name} · round {i}: {shorten(r.query, 50)}"] = r.trace
    return out


def tree_state(trace: SearchTrace, t: int) -> list[NodeView]:
    """Every node that exists after iteration ``t`` (0 ≤ t ≤ iterations), pre-order,
    with N, Q (in [0, 1]) and the selection value it would have now."""
    t = max(0, min(t, len(trace.steps)))
    stats = mcts.replay(trace, t)
    path = set(trace.steps[t - 1].path) if t else set()
    chosen: dict[str, list[tuple[int, float]]] = {}
    judged_by_t: set[str] = set()
    for step in trace.steps[:t]:
        for node_id, value in zip(step.path[1:], step.ucb):
            chosen.setdefault(node_id, []).append((step.iteration, value))
        judged_by_t.update(step.judged or step.path[-1:])
    out: list[NodeView] = []

    def visit(node, depth: int, parent, share: float) -> None:
        nid = node.section.node_id
        if nid not in stats:
            return
        visits, q = stats[nid]
        reward = node.reward if nid in judged_by_t else None
        selection = None
        if parent is not None:
            probe = type(node)(section=node.section, prior=node.prior, visits=visits, reward=reward,
                               value=q if visits else None, total_reward=q * visits)
            p_visits, p_reward = parent
            fpu = 1.0 if p_reward is None else p_reward
            value = mcts.selection_value(probe, p_visits, share, trace.c, trace.rule if trace.rule in mcts.RULES
                                         else "ucb1", fpu)
            selection = value if math.isfinite(value) else math.inf
        out.append(NodeView(
            node_id=nid, parent=node.parent_id, title=node.section.title, pages=tuple(node.section.pages),
            summary=node.section.summary, depth=depth, prior=node.prior, visits=visits, q=q,
            reward=reward, selection=selection, on_path=nid in path, chosen_values=tuple(chosen.get(nid, ())),
            judged=nid in judged_by_t, page=mcts.is_page(node.section),
        ))
        if node.children and node.children[0].section.node_id in stats:  # siblings appear together
            for ch, share in zip(node.children, mcts.prior_shares(node, trace.prior_mix)):
                visit(ch, depth + 1, (visits, reward), share)

    visit(trace.root, 0, None, 1.0)
    return out


def q_colour(q: float, visits: int) -> str:
    """Red (Q=0) → amber → green (Q=1); grey when never visited."""
    if visits == 0:
        return "#c9ced6"
    q = max(0.0, min(1.0, q))
    stops = [(0.0, (214, 69, 65)), (0.5, (240, 173, 78)), (1.0, (46, 160, 67))]
    for (a, ca), (b, cb) in zip(stops, stops[1:]):
        if q <= b:
            f = (q - a) / (b - a)
            r, g, bl = (round(x + (y - x) * f) for x, y in zip(ca, cb))
            return f"#{r:02x}{g:02x}{bl:02x}"
    return "#2ea043"


def node_label(v: NodeView, width: int = 18) -> str:
    """A short label that does not overlap its neighbours: a page node is "p. 12"; a title is
    wrapped on two lines of at most ``width`` characters, the second cut with "…"
    (the full title is in the node details)."""
    if v.page:
        return f"p. {v.pages[0]}"
    words_, lines, line = v.title.split(), [], ""
    for w in words_:
        if len(line) + len(w) + (1 if line else 0) <= width:
            line = f"{line} {w}" if line else w
            continue
        if line:
            lines.append(line)
        line = w
        if len(lines) == 2:
            break
    if line and len(lines) < 2:
        lines.append(line)
    lines = lines[:2] or [""]
    rest = " ".join(lines)
    if len(rest) < len(" ".join(words_)):
        lines[-1] = shorten(lines[-1] + " …", width)
    return "\n".join(shorten(x, width) for x in lines)
