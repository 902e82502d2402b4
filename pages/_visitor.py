"""Who the visitor is and what they may do (Streamlit glue beside _common.py).

:func:`owner` names the visitor the app's conversations, single-PDF chats and saved searches belong to (the
library refuses them to anyone else, :mod:`alphasearch.library.chat`): the signed-in user when the operator
configured sign-in (``st.login``), else this browser: the random token of Streamlit's XSRF cookie, which the
server sets once per browser and which survives a reload, never in a URL; else, without that cookie (XSRF
protection off, or AppTest), a token kept in this session's state. :func:`role` is what the visitor may do
with the shared library (``Settings.visitor_role``, resolved by the server's listening address).
"""
from __future__ import annotations

import binascii
import secrets

import streamlit as st

from alphasearch.config import resolve_role

XSRF_COOKIE = "_streamlit_xsrf"


def owner() -> str:
    """The owner string of this visitor (the library keeps only its hash)."""
    try:
        if st.user.is_logged_in:
            who = st.user.get("sub") or st.user.get("email")
            if who:
                return f"user:{st.user.get('iss') or ''}:{who}"
    except Exception:  # sign-in not configured
        pass
    token = _browser_token(st.context.cookies.get(XSRF_COOKIE) or "")
    if token:
        return f"browser:{token}"
    return st.session_state.setdefault("visitor_owner", "session:" + secrets.token_urlsafe(24))


def _browser_token(cookie: str) -> str:
    """The random bytes of an XSRF cookie, hex: version 2 ("2|mask|masked|time") unmasked, version 1 as it is;
    "" for anything else. The server masks the same bytes anew on every page load."""
    value = cookie.strip("\"'")
    try:
        if value.startswith("2|"):
            _, mask, masked, _ = value.split("|")
            mask_b, masked_b = binascii.a2b_hex(mask), binascii.a2b_hex(masked)
            token = bytes(b ^ mask_b[i % 4] for i, b in enumerate(masked_b)) if len(mask_b) == 4 else b""
            return token.hex() if len(token) >= 16 else ""
    except (ValueError, binascii.Error):
        return ""
    return value if len(value) >= 32 and "|" not in value else ""


def new_id(prefix: str) -> str:
    """An unguessable conversation id (URL-safe)."""
    return f"{prefix}-{secrets.token_urlsafe(16)}"


def role(settings) -> str:
    """ "reader" or "editor": ``settings.visitor_role``, else by the address the server listens on."""
    return resolve_role(settings.visitor_role, str(st.get_option("server.address") or ""))
