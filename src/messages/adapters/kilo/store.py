"""The Kilo CLI's database: which file it is, its sessions, and its rows in order.

The Kilo CLI (an OpenCode fork) keeps its history in ``kilo.db`` in its data folder
(``$KILO_DATA_DIR``, else ``~/.local/share/kilo``): a ``session`` table (``id``,
``directory``, ``title``, ``time_created``...), a ``message`` table (``id``, ``session_id``,
``time_created``, ``data``: the message's JSON) and a ``part`` table (``id``, ``message_id``,
``session_id``, ``data``: the part's JSON). A session's rows are given as its ``session`` row,
then each message (in time order) followed by its parts.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from typing import Any
from typing import Final

from .._stores import columns
from .._stores import select

__all__ = ["FILE", "claims", "rows", "sessions"]

FILE: Final = "kilo.db"
"""The database's file name."""
_ORDER: Final = ("time_created", "id")


def claims(tables: frozenset[str], path: str) -> bool:
    """A ``kilo*.db`` file with a ``message`` table."""
    name = os.path.basename(path)
    return name.startswith("kilo") and name.endswith(".db") and "message" in tables


def sessions(db: sqlite3.Connection) -> list[str]:
    """The session ids, oldest first (a message's session without a row of its own too)."""
    found: list[str] = []
    for table in ("session", "message"):
        key = "id" if table == "session" else "session_id"
        names = columns(db, table)
        if key not in names:
            continue
        order = ", ".join(f'"{c}"' for c in _ORDER if c in names) or "rowid"
        for (value,) in db.execute(f'SELECT "{key}" FROM "{table}" ORDER BY {order}'):
            if isinstance(value, str) and value not in found:
                found.append(value)
    return found


def rows(db: sqlite3.Connection, session: str | None) -> Iterator[dict[str, Any]]:
    """A session's rows (``None``: every session's, one after the other)."""
    for one in sessions(db) if session is None else [session]:
        yield from select(db, "kilo", "session", where='"id" = ?', args=(one,), order=_ORDER)
        parts = "message_id" in columns(db, "part")
        for message in select(
            db, "kilo", "message", where='"session_id" = ?', args=(one,), order=_ORDER
        ):
            yield message
            if parts:
                yield from select(
                    db,
                    "kilo",
                    "part",
                    where='"message_id" = ?',
                    args=(message["row"].get("id"),),
                    order=("id",),
                )
