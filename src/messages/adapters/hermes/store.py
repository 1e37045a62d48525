"""Hermes Agent's ``state.db``: which file it is, its sessions, and its rows in order.

Hermes Agent keeps its state in ``state.db`` in its home (``$HERMES_HOME``, else
``~/.hermes``): a ``sessions`` table (one row per session: ``id``, ``source``, ``model``,
``started_at`` in epoch seconds, ``cwd``, ``title``, and the session's token counts and cost)
and a ``messages`` table (``id``, ``session_id``, ``role``, ``content``, ``tool_calls`` as JSON
text, ``tool_call_id``, ``tool_name``, ``timestamp``, ``reasoning``...). A session's rows are
its ``sessions`` row, its messages in time order, then its ``session_model_usage`` rows.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from typing import Any
from typing import Final

from .._stores import ids
from .._stores import session_rows

__all__ = ["FILE", "claims", "rows", "sessions"]

FILE: Final = "state.db"
"""The database's file name."""
_TABLES: Final = (
    ("sessions", "id", ()),
    ("messages", "session_id", ("timestamp", "id")),
    ("session_model_usage", "session_id", ()),
)
"""A session's tables, in the order its rows are given: ``(table, its session column, order)``."""


def claims(tables: frozenset[str], path: str) -> bool:
    """A ``state.db`` with ``sessions`` and ``messages`` tables."""
    return os.path.basename(path) == FILE and {"sessions", "messages"} <= tables


def sessions(db: sqlite3.Connection) -> list[str]:
    """The session ids, oldest first (a message's session without a row of its own too)."""
    return ids(db, (("sessions", "id", "started_at"), ("messages", "session_id", "timestamp")))


def rows(db: sqlite3.Connection, session: str | None) -> Iterator[dict[str, Any]]:
    """A session's rows (``None``: every session's, one after the other)."""
    yield from session_rows(db, "hermes", sessions(db) if session is None else [session], _TABLES)
