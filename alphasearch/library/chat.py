"""Library methods for chat history: one conversation's turns, kept in the catalog, and who owns it.

A conversation asked with an ``owner`` (the app passes its visitor's: a browser or a sign-in) belongs to the
owner that wrote its first turn; any other owner is refused (:class:`NotYoursError`). Without an owner (the
command line, the Python API) nothing is checked: the caller is the operator.
"""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any

from . import catalog as sql
from ..errors import FolderGoneError, NotYoursError
from .catalog import json_dict
from .records import ChatTurn

NOT_YOURS = "This conversation belongs to another visitor; start a new one."


def owner_id(owner: str) -> str:
    """What the catalog and the trace files keep of an owner: a hash, never the token itself."""
    return hashlib.sha256(owner.encode("utf-8")).hexdigest()[:32]


class ChatMethods:
    """Chat history (part of :class:`~alphasearch.library.Library`)."""

    def add_turn(self, conversation: str, role: str, text: str, *, folder: str = "",
                 meta: dict[str, Any] | None = None, owner: str | None = None) -> None:
        """Append one message to a conversation (persisted). ``folder`` is a folder id or ''."""
        self.add_turns(conversation, [(role, text, meta)], folder=folder, owner=owner)

    def add_turns(self, conversation: str, turns: Sequence[tuple[str, str, dict[str, Any] | None]], *,
                  folder: str = "", owner: str | None = None) -> None:
        """Append (role, text, meta) messages in one transaction. With ``folder`` (an id) nothing is written
        when that folder is gone (:class:`FolderGoneError`: it was deleted while the answer was searched)."""
        for role, _, _ in turns:
            if role not in ("user", "assistant"):
                raise ValueError(f"Unknown role {role!r}; choose user or assistant.")
        with self._db(write=True) as con:
            if folder and not con.execute(sql.SELECT_FOLDERS_EXISTS_BY_ID, (folder,)).fetchone():
                raise FolderGoneError("The folder was deleted while the answer was searched; nothing was saved.")
            self._check_owner(con, conversation, owner, claim=True)
            for role, text, meta in turns:
                con.execute(sql.INSERT_CHAT, (str(conversation), role, text, folder or "",
                                              json.dumps(meta or {}, ensure_ascii=False), time.time()))

    def history(self, conversation: str, limit: int = 50, *, owner: str | None = None) -> list[ChatTurn]:
        """The last ``limit`` turns of a conversation, oldest first."""
        with self._db() as con:
            self._check_owner(con, conversation, owner, claim=False)
            rows = con.execute(sql.SELECT_CHAT_ROLE_TEXT_BY_CONVERSATION, (str(conversation), int(limit))).fetchall()
        return [ChatTurn(r["role"], r["text"], r["folder_id"], r["created"], json_dict(r["meta"]))
                for r in reversed(rows)]

    def clear_history(self, conversation: str, *, owner: str | None = None) -> int:
        """Forget a conversation; returns how many turns were removed."""
        with self._db(write=True) as con:
            self._check_owner(con, conversation, owner, claim=False)
            return con.execute(sql.DELETE_CHAT_BY_CONVERSATION, (str(conversation),)).rowcount

    def owns(self, conversation: str, owner: str) -> bool:
        """Whether ``owner`` owns ``conversation`` (claimed by its first turn, or by :meth:`add_turns` with none)."""
        with self._db() as con:
            row = con.execute(sql.SELECT_OWNERS_OWNER_BY_CONVERSATION, (str(conversation),)).fetchone()
        return row is not None and row["owner"] == owner_id(owner)

    def conversations(self, owner: str | None = None) -> list[str]:
        """Conversation ids, the most recent first: every one, or those of ``owner``."""
        with self._db() as con:
            if owner is None:
                return [r[0] for r in con.execute(sql.SELECT_CHAT_CONVERSATION)]
            return [r[0] for r in con.execute(sql.SELECT_CHAT_CONVERSATION_BY_OWNER, (owner_id(owner),))]

    @staticmethod
    def _check_owner(con, conversation: str, owner: str | None, *, claim: bool) -> None:
        """Refuse ``owner`` a conversation someone else owns, or one written without an owner; with ``claim``,
        a new conversation becomes ``owner``'s."""
        if owner is None:
            return
        row = con.execute(sql.SELECT_OWNERS_OWNER_BY_CONVERSATION, (str(conversation),)).fetchone()
        if row is not None:
            if row["owner"] != owner_id(owner):
                raise NotYoursError(NOT_YOURS)
            return
        if con.execute(sql.SELECT_CHAT_EXISTS_BY_CONVERSATION, (str(conversation),)).fetchone():
            raise NotYoursError(NOT_YOURS)
        if claim:
            con.execute(sql.INSERT_OWNERS, (str(conversation), owner_id(owner), time.time()))
