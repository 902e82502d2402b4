"""Library methods for chat history: one conversation's turns, kept in the catalog."""
from __future__ import annotations

import json
import time
from typing import Any

from . import catalog as sql
from .catalog import json_dict
from .records import ChatTurn


class ChatMethods:
    """Chat history (part of :class:`~alphasearch.library.Library`)."""

    def add_turn(self, conversation: str, role: str, text: str, *, folder: str = "",
                 meta: dict[str, Any] | None = None) -> None:
        """Append one message to a conversation (persisted). ``folder`` is a folder id or ''."""
        if role not in ("user", "assistant"):
            raise ValueError(f"Unknown role {role!r}; choose user or assistant.")
        with self._db(write=True) as con:
            con.execute(sql.INSERT_CHAT,
                        (str(conversation), role, text, folder or "", json.dumps(meta or {}, ensure_ascii=False),
                         time.time()))

    def history(self, conversation: str, limit: int = 50) -> list[ChatTurn]:
        """The last ``limit`` turns of a conversation, oldest first."""
        with self._db() as con:
            rows = con.execute(sql.SELECT_CHAT_ROLE_TEXT_BY_CONVERSATION, (str(conversation), int(limit))).fetchall()
        return [ChatTurn(r["role"], r["text"], r["folder_id"], r["created"], json_dict(r["meta"]))
                for r in reversed(rows)]

    def clear_history(self, conversation: str) -> int:
        """Forget a conversation; returns how many turns were removed."""
        with self._db(write=True) as con:
            return con.execute(sql.DELETE_CHAT_BY_CONVERSATION, (str(conversation),)).rowcount

    def conversations(self) -> list[str]:
        with self._db() as con:
            return [r[0] for r in con.execute(sql.SELECT_CHAT_CONVERSATION)]
