"""ZCode's ``db.sqlite``: which file it is, its sessions, and its rows in order.

ZCode keeps its command-line history in ``cli/db/db.sqlite`` under its home (``$ZCODE_HOME``,
else ``~/.zcode``): a ``session`` table (one row per session: ``id``, ``directory``, and in
newer releases ``version``) and a ``model_usage`` table (one row per model call: ``id``,
``session_id``, ``started_at`` in epoch milliseconds, ``model_id``, ``provider_id``,
``status``, ``input_tokens`` with the cache included, ``output_tokens``,
``cache_creation_input_tokens``, ``cache_read_input_tokens``, ``computed_total_tokens``). A
session's rows are its ``session`` row, then its ``model_usage`` rows in time order.
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

FILE: Final = "db.sqlite"
"""The database's file name."""
_TABLES: Final = (("session", "id", ()), ("model_usage", "session_id", ("started_at", "id")))
"""A session's tables, in the order its rows are given: ``(table, its session column, order)``."""


def claims(tables: frozenset[str], path: str) -> bool:
    """A ``db.sqlite`` with ``session`` and ``model_usage`` tables."""
    return os.path.basename(path) == FILE and {"session", "model_usage"} <= tables


def sessions(db: sqlite3.Connection) -> list[str]:
    """The session ids, in table order (a usage row's session without a row of its own too)."""
    return ids(db, (("session", "id", "rowid"), ("model_usage", "session_id", "started_at")))


def rows(db: sqlite3.Connection, session: str | None) -> Iterator[dict[str, Any]]:
    """A session's rows (``None``: every session's, one after the other)."""
    yield from session_rows(db, "zcode", sessions(db) if session is None else [session], _TABLES)
