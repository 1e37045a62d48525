"""Goose's session database: ``sessions.db`` (``~/.local/share/goose/sessions``), read-only.

Goose (Block's agent) keeps every session in one SQLite database: a ``sessions`` table (name,
working directory, provider, model, token totals) and a ``messages`` table (one row per
conversation message, its content as JSON). Rows are read with the standard library's
:mod:`sqlite3`, the file opened read-only, as plain dicts (every column; ``content_json``,
``metadata_json`` and ``model_config_json`` parsed). See ``docs/adapters/goose.md``.

- a ``messages`` row -> :class:`UserMessage` or :class:`AssistantMessage`: content items
  ``text``, ``thinking``, ``toolRequest`` (a :class:`ToolUseBlock`) and ``toolResponse`` (a
  :class:`ToolResultBlock`) typed, any other item kept whole as a :class:`RawBlock`;
  ``created_timestamp`` as ``timestamp``, ``message_id``, ``session_id``;
- a ``sessions`` row -> :class:`ResultMessage` (``subtype="session"``): the session's token
  totals as :class:`Usage`, ``model_config_json.model_name`` as ``model``, ``created_at`` as
  ``timestamp``.

Every other column is kept under ``extra["row"]``: ``encode(decode(row)) == row``.

>>> row = {"table": "messages", "id": 7, "message_id": "msg_1", "session_id": "20260105_1",
...        "role": "user", "created_timestamp": 1767600000,
...        "content_json": [{"type": "text", "text": "List the files."}]}
>>> m = decode(row)
>>> m.kind, m.text, m.session_id
('user', 'List the files.', '20260105_1')
>>> encode(m) == row
True
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import closing
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ...convert import messages_to_turn
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .. import _sqlite
from .._base import whole_messages as merge
from .._common import refuse_content
from .._common import refuse_record
from .rows import ROW
from .rows import decode_row
from .rows import encode_row
from .rows import is_row

__all__ = [
    "NAME",
    "READ_ONLY",
    "decode",
    "detect",
    "encode",
    "is_database",
    "iter_decode",
    "iter_encode",
    "merge",
    "read_database",
    "session_ids",
]

NAME: Final = "goose"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to goose`` is refused: the database is Goose's own store."""

_PARSED: Final = ("content_json", "metadata_json", "model_config_json")


def _decode(obj: Any) -> Message:
    if is_row(obj) is None:
        if type(obj) is not dict:
            from ..._core.wire import fail

            raise fail("an object", obj)
        return ev.raw_line(obj)
    return decode_row(obj)


def decode(obj: Any) -> Message:
    """One row (``{"table": ..., column: value, ...}``) to one message (copied first)."""
    return ev.decoding(_decode, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """A message back as the row it was read from: ``encode(decode(row)) == row``.

    A message from another source becomes a ``messages`` row; anything else has no row.
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


def _encode(message: Message, policy: Policy) -> Any:
    if (
        isinstance(message, RawMessage)
        and message.role is None
        and isinstance(message.data, FrozenDict)
    ):
        return raw(message.data)
    if isinstance(message, RawMessage) and message.role is not None:
        why = "Goose's database has no row for raw content"
        return refuse_content(message, why, policy, _encode)
    turn = _as_turn(message, policy)
    if isinstance(turn, UserMessage | AssistantMessage) or (
        isinstance(turn, ResultMessage) and ROW in turn.extra
    ):
        return encode_row(turn, policy)
    refuse_record(message, "Goose's database has no row", policy)
    return None


def _as_turn(m: Message, policy: Policy) -> Message:
    """A flat content message as the one-block turn Goose stores it in."""
    if isinstance(m, RawMessage | InvalidLineMessage) or getattr(m, "role", None) is None:
        return m
    if isinstance(m, UserMessage | AssistantMessage | SystemMessage | ToolMessage):
        turn: Message = m
    else:
        turn = messages_to_turn([m])  # type: ignore[list-item]
    if isinstance(turn, ToolMessage):  # Goose gives tool results in the user's message
        return UserMessage(turn.content, session_id=turn.session_id, message_id=turn.message_id)
    return turn


def detect(obj: Any) -> bool:
    """Whether a parsed value is a row of Goose's ``sessions`` or ``messages`` table."""
    return is_row(obj) is not None


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode rows written one per line (as ``iter_encode`` writes them)."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as rows, one per line."""
    return ev.write_lines(messages, _encode, unsupported, NAME)


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is Goose's database; never raises.

    It has a ``sessions`` table with the model configuration, and a ``messages`` table.
    """
    if not _sqlite.is_database(path):
        return False
    try:
        with closing(_sqlite.connect(path)) as db:
            sessions = _sqlite.columns(db, "sessions")
            messages = _sqlite.columns(db, "messages")
    except sqlite3.Error:
        return False
    return {"id", "model_config_json"} <= sessions and {"session_id", "content_json"} <= messages


def session_ids(path: str | os.PathLike[str]) -> list[str]:
    """The ids of the sessions in the database, oldest first."""
    with closing(_sqlite.connect(path)) as db:
        order = "created_at, id" if "created_at" in _sqlite.columns(db, "sessions") else "id"
        return [r[0] for r in db.execute(f"SELECT id FROM sessions ORDER BY {order}")]


def _rows(path: str | os.PathLike[str], sessions: list[str] | None) -> Iterator[dict[str, Any]]:
    with closing(_sqlite.connect(path)) as db:
        wanted = session_ids(path) if sessions is None else sessions
        cols = _sqlite.columns(db, "messages")
        order = "created_timestamp, id" if {"created_timestamp", "id"} <= cols else "rowid"
        for sid in wanted:
            cur = db.execute(
                f"SELECT * FROM messages WHERE session_id = ? ORDER BY {order}", (sid,)
            )
            for values in cur.fetchall():
                yield _sqlite.row("messages", cur, values, _PARSED)
            cur = db.execute("SELECT * FROM sessions WHERE id = ?", (sid,))
            for values in cur.fetchall():
                yield _sqlite.row("sessions", cur, values, _PARSED)


def read_database(
    path: str | os.PathLike[str], sessions: list[str] | None = None
) -> Iterator[Message]:
    """The rows of Goose's database as messages, lazily (the file is opened read-only).

    Each session gives its messages in order, then its ``sessions`` row (its totals).
    """
    for row in _rows(path, sessions):
        yield _decode(row)
