"""Settings: the engine and the search knobs for this browser session.

Values start from the environment (``ALPHASEARCH_*``, ``OPENAI_*``); changes here
apply to this browser session only. A typed API key lives in memory for this
session, is never written to disk and is never shown again. The server's own key
(``OPENAI_API_KEY``) is only sent to the server's endpoint: another endpoint needs
the visitor's key, and ``ALPHASEARCH_ALLOWED_ENDPOINTS`` pins the endpoints allowed.
"""
from __future__ import annotations

import streamlit as st

from alphasearch.config import ENGINES, MAX_GAP_ROUNDS, RULES, shown_url
from alphasearch.errors import ConfigError
from alphasearch.pdf import ocr
from pages._common import base_settings, current_settings, engine_label, inert, overrides

ss = st.session_state
st.title("Settings")
st.caption("Changes apply to this browser session only. Defaults come from the server's environment.")

s = current_settings()
st.info(f"Active engine: **{inert(engine_label(s))}**", icon=":material/memory:")

with st.form("settings_form", clear_on_submit=True):
    st.subheader("Engine")
    engine = st.radio("Engine", ENGINES, index=ENGINES.index(s.engine), horizontal=True,
                      format_func={"auto": "auto (LLM when a key or endpoint is set)", "offline": "offline",
                                   "openai": "LLM (OpenAI-compatible)"}.get,
                      help="Offline needs no key and no network: BM25 + static embeddings.")
    base_url = st.text_input("Endpoint (base URL)", value=shown_url(s.base_url), placeholder="https://api.openai.com/v1",
                             help="Any OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 for a local model. The server's "
                                  "own key is only sent to the server's endpoint: another endpoint needs your key.")
    key = st.text_input("API key", value="", type="password",
                        placeholder="set for this session" if s.api_key else "not set",
                        help="Kept in this browser session's memory only; never saved, never shown again. "
                             "Leave empty to keep the current key.")
    c1, c2, c3, c3b = st.columns(4)
    index_model = c1.text_input("Indexing model", value=s.index_model)
    search_model = c2.text_input("Search (judge) model", value=s.search_model)
    answer_model = c3.text_input("Answer model", value=s.answer_model)
    gap_rounds = c3b.number_input("Knowledge-gap rounds", min_value=0, max_value=MAX_GAP_ROUNDS,
                                  value=min(MAX_GAP_ROUNDS, max(0, int(s.gap_rounds))), step=1,
                                  help="After the first answer the model names what is missing and the document "
                                       "is searched again for it, at most this many times (0: no check).")
    st.subheader("Search")
    c4, c5, c6, c7 = st.columns(4)
    iterations = c4.number_input("MCTS iterations", min_value=1, max_value=max(500, int(s.iterations)),
                                 value=int(s.iterations), step=1)
    exploration = c5.number_input("Exploration constant c", min_value=0.0, max_value=max(10.0, float(s.exploration)),
                                  value=max(0.0, float(s.exploration)),
                                  step=0.1, format="%.2f")
    rule = c6.selectbox("Selection rule", RULES, index=RULES.index(s.rule),
                        format_func={"puct": "PUCT (uses priors)", "ucb1": "UCB1"}.get)
    top_k = c7.number_input("Top-K documents (folders)", min_value=1, max_value=max(20, int(s.top_k_docs)),
                            value=max(1, int(s.top_k_docs)), step=1)
    st.subheader("Documents")
    ocr_on = st.checkbox("Read scanned pages by OCR", value=bool(s.ocr),
                         help="Pages without text and large pictures of text are read by Tesseract while a file is "
                              "indexed (a few seconds a page). " + ("Tesseract is installed." if ocr.available() else
                                                                      ocr.MISSING))
    submitted = st.form_submit_button("Apply", type="primary", icon=":material/check:")

if submitted:
    if base_url.strip() == shown_url(s.base_url):  # the field shows the endpoint without its credentials: unchanged
        base_url = s.base_url
    changes = dict(engine=engine, base_url=base_url.strip(), index_model=index_model.strip() or s.index_model,
                   search_model=search_model.strip() or s.search_model,
                   answer_model=answer_model.strip() or s.answer_model, iterations=int(iterations),
                   exploration=float(exploration), rule=rule, top_k_docs=int(top_k), gap_rounds=int(gap_rounds),
                   ocr=bool(ocr_on))
    own_key = key.strip() or ss.get("session_api_key", "")
    try:  # validate before keeping: an endpoint the server does not allow, or the server's key elsewhere, is refused
        base_settings().replace(**changes, **({"api_key": own_key} if own_key else {}))
    except ConfigError as exc:
        st.error(inert(exc), icon=":material/error:")
    else:
        base = base_settings()
        ss["settings_overrides"] = {k: v for k, v in changes.items() if getattr(base, k) != v}
        if key.strip():
            ss["session_api_key"] = key.strip()
        st.toast("Settings applied for this session.", icon=":material/check_circle:")
        st.rerun()

c_forget, c_reset = st.columns(2)
if ss.get("session_api_key"):
    if c_forget.button("Forget the session API key", icon=":material/key_off:"):
        ss.pop("session_api_key", None)
        try:
            base_settings().replace(**overrides())
        except ConfigError:  # the endpoint needed that key: back to the server's endpoint
            ss["settings_overrides"] = {k: v for k, v in overrides().items() if k not in ("base_url", "engine")}
        st.rerun()
if overrides() and c_reset.button("Back to the server defaults", icon=":material/restart_alt:"):
    ss["settings_overrides"] = {}
    st.rerun()

with st.expander("Limits and paths (from the environment)"):
    st.markdown(f"- Data directory: `{s.data_dir}`\n- Largest file: {s.max_file_mb} MB\n"
                f"- Most pages: {s.max_pages:,}\n- Request timeout: {s.request_timeout:g} s, "
                f"retries: {s.max_retries}\n- Key: {'set' if s.api_key else 'not set'} (never displayed)")
