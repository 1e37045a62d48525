"""OpenCode's SQLite database (``opencode.db``, ``opencode-<channel>.db``), read-only.

Newer OpenCode versions keep sessions in a SQLite database in their data folder: a
``session`` table (one column per field), and ``message`` and ``part`` tables whose ``data``
column holds the record's JSON without its ids. Rows are read with the standard library's
:mod:`sqlite3`, the file opened read-only, and handed out as plain dicts (every column, the
``data`` column parsed) that :func:`messages.adapters.opencode_storage.decode` reads. Only the
three tables are read; the others (projects, todos, permissions...) hold no conversation.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from typing import Any

from .._sqlite import columns
from .._sqlite import connect
from .._sqlite import is_database
from .._sqlite import row
from .._sqlite import tables

__all__ = ["has_messages", "is_database", "rows", "session_ids"]


def has_messages(path: str | os.PathLike[str]) -> bool:
    """Whether the database has OpenCode's ``message`` table (never raises)."""
    try:
        with closing(connect(path)) as db:
            found = columns(db, "message")
    except sqlite3.Error:
        return False
    return {"id", "session_id", "data"} <= found


def _row(table: str, cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> dict[str, Any]:
    return row(table, cursor, values, ("data",))


def _ids(db: sqlite3.Connection, tables: frozenset[str]) -> list[str]:
    ids: list[str] = []
    if "session" in tables:
        ids += [
            r[0] for r in db.execute(f"SELECT id FROM session ORDER BY {_order(db, 'session')}")
        ]
    if "message" in tables:  # messages whose session row is missing still count
        known = set(ids)
        for (sid,) in db.execute("SELECT DISTINCT session_id FROM message ORDER BY session_id"):
            if sid not in known:
                ids.append(sid)
    return ids


def session_ids(path: str | os.PathLike[str]) -> list[str]:
    """The ids of the sessions a database holds, oldest first."""
    with closing(connect(path)) as db:
        return _ids(db, tables(db))


def _order(db: sqlite3.Connection, table: str) -> str:
    return "time_created, id" if "time_created" in columns(db, table) else "id"


def rows(
    path: str | os.PathLike[str], sessions: list[str] | None = None
) -> Iterator[dict[str, Any]]:
    """The rows of ``sessions`` (default: all), in order.

    Each session gives its ``session`` row, then each of its messages (oldest first) followed
    by that message's parts (in id order, which is creation order).
    """
    with closing(connect(path)) as db:
        found = tables(db)
        wanted = _ids(db, found) if sessions is None else sessions
        message_order = _order(db, "message") if "message" in found else ""
        for sid in wanted:
            if "session" in found:
                cur = db.execute("SELECT * FROM session WHERE id = ?", (sid,))
                for values in cur.fetchall():
                    yield _row("session", cur, values)
            if "message" not in found:
                continue
            cur = db.execute(
                f"SELECT * FROM message WHERE session_id = ? ORDER BY {message_order}", (sid,)
            )
            for values in cur.fetchall():
                message = _row("message", cur, values)
                yield message
                if "part" in found:
                    parts = db.execute(
                        "SELECT * FROM part WHERE message_id = ? ORDER BY id", (message["id"],)
                    )
                    for part in parts.fetchall():
                        yield _row("part", parts, part)
