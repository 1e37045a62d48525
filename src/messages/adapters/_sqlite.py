"""Reading an agent's SQLite database, read-only, with the standard library.

Several agents keep their sessions in SQLite (OpenCode's ``opencode.db``, Goose's
``sessions.db``). What their adapters share is here: telling a database from any other file
by its header, opening it read-only (an SQLite ``mode=ro`` URI, so nothing is ever written,
not even a journal), and a row as a plain dict of its columns (``{"table": name, column:
value, ...}``), with the columns that hold JSON text parsed.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
from collections.abc import Collection
from contextlib import suppress
from pathlib import Path
from typing import Any
from typing import Final

__all__ = ["HEADER", "columns", "connect", "is_database", "row", "tables", "value"]

HEADER: Final = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a SQLite database (by its header; never raises)."""
    try:
        with open(path, "rb") as fp:
            return fp.read(len(HEADER)) == HEADER
    except OSError:
        return False


def connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """The database at ``path``, opened read-only."""
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def tables(db: sqlite3.Connection) -> frozenset[str]:
    """The names of the database's tables."""
    found = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return frozenset(str(name) for (name,) in found)


def columns(db: sqlite3.Connection, table: str) -> set[str]:
    """The column names of ``table`` (empty when there is no such table)."""
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def value(stored: Any) -> Any:
    """A column's value as JSON: a BLOB (JSON has no bytes) as ``{"base64": ...}``."""
    if isinstance(stored, bytes):
        return {"base64": base64.b64encode(stored).decode("ascii")}
    return stored


def row(
    table: str, cursor: sqlite3.Cursor, values: tuple[Any, ...], parsed: Collection[str] = ()
) -> dict[str, Any]:
    """One row as ``{"table": table, column: value, ...}``.

    The ``parsed`` columns' JSON text is parsed (text that is not JSON is kept as it is).
    """
    out: dict[str, Any] = {"table": table}
    for (name, *_), stored in zip(cursor.description, values, strict=True):
        out[name] = value(stored)
    for name in parsed:
        text = out.get(name)
        if isinstance(text, str):
            with suppress(ValueError):
                out[name] = json.loads(text)
    return out
