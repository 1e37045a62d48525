"""OpenCode's SQLite database (``opencode.db``, ``opencode-<channel>.db``), read-only.

Newer OpenCode versions keep sessions in a SQLite database in their data folder: a
``session`` table (one column per field), and ``message`` and ``part`` tables whose ``data``
column holds the record's JSON without its ids. Rows are read with the standard library's
:mod:`sqlite3`, the file opened read-only, and handed out as plain dicts (every column, the
``data`` column parsed) that :func:`messages.adapters.opencode_storage.decode` reads. Only the
three tables are read; the others (projects, todos, permissions...) hold no conversation.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from contextlib import suppress
from pathlib import Path
from typing import Any
from typing import Final

__all__ = ["HEADER", "has_messages", "is_database", "rows", "session_ids"]

HEADER: Final = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a SQLite database (by its header; never raises)."""
    try:
        with open(path, "rb") as fp:
            return fp.read(len(HEADER)) == HEADER
    except OSError:
        return False


def has_messages(path: str | os.PathLike[str]) -> bool:
    """Whether the database has OpenCode's ``message`` table (never raises)."""
    try:
        with closing(_connect(path)) as db:
            columns = {r[1] for r in db.execute("PRAGMA table_info(message)")}
    except sqlite3.Error:
        return False
    return {"id", "session_id", "data"} <= columns


def _connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def _tables(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _value(value: Any) -> Any:
    if isinstance(value, bytes):  # a BLOB: JSON has no bytes
        return {"base64": base64.b64encode(value).decode("ascii")}
    return value


def _row(table: str, cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"table": table}
    for (name, *_), value in zip(cursor.description, values, strict=True):
        out[name] = _value(value)
    data = out.get("data")
    if isinstance(data, str):
        with suppress(ValueError):  # else kept as the text it is: the row decodes as raw
            out["data"] = json.loads(data)
    return out


def _ids(db: sqlite3.Connection, tables: set[str]) -> list[str]:
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
    with closing(_connect(path)) as db:
        return _ids(db, _tables(db))


def _order(db: sqlite3.Connection, table: str) -> str:
    columns = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    return "time_created, id" if "time_created" in columns else "id"


def rows(
    path: str | os.PathLike[str], sessions: list[str] | None = None
) -> Iterator[dict[str, Any]]:
    """The rows of ``sessions`` (default: all), in order.

    Each session gives its ``session`` row, then each of its messages (oldest first) followed
    by that message's parts (in id order, which is creation order).
    """
    with closing(_connect(path)) as db:
        tables = _tables(db)
        wanted = _ids(db, tables) if sessions is None else sessions
        message_order = _order(db, "message") if "message" in tables else ""
        for sid in wanted:
            if "session" in tables:
                cur = db.execute("SELECT * FROM session WHERE id = ?", (sid,))
                for values in cur.fetchall():
                    yield _row("session", cur, values)
            if "message" not in tables:
                continue
            cur = db.execute(
                f"SELECT * FROM message WHERE session_id = ? ORDER BY {message_order}", (sid,)
            )
            for values in cur.fetchall():
                message = _row("message", cur, values)
                yield message
                if "part" in tables:
                    parts = db.execute(
                        "SELECT * FROM part WHERE message_id = ? ORDER BY id", (message["id"],)
                    )
                    for part in parts.fetchall():
                        yield _row("part", parts, part)
