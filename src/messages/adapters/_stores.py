"""Agents that keep their sessions in a SQLite database: their rows read as JSON Lines.

Some agents keep their history in a SQLite file (Hermes's
``state.db``). The adapters read JSON lines, so a database is given to them as lines: one
*row object* per table row, ``{"store": NAME, "table": TABLE, "row": {COLUMN: VALUE...}}``,
every column kept as stored (a JSON column stays the text it was written as; a blob becomes
``{"base64": ...}``). The database is opened read-only (``mode=ro``), and only through
:func:`open_rows`: decoding never reads a file.

A store adapter (``hermes``) tells its database's tables once, in its ``store.STORE`` (a
:class:`Layout`), which says which databases are its own from their tables (``claims``),
which sessions one holds (``sessions``) and the rows of one session, or of all (``rows``).
A session of a database is named by a *session path*, ``<db>#session=<id>``, which
:func:`open_rows` reads as that session's rows alone: so each session of a database is a
session file of its own to :mod:`messages.sessions`.

Writing a database is not supported: the store adapters write back only the row objects they
read, and refuse anything else (``messages convert --to hermes`` of another agent's log).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import closing
from importlib import import_module
from typing import IO
from typing import Any
from typing import Final
from typing import Protocol
from typing import final

from .._core.frozen import FrozenDict
from .._core.wire import millis_text
from . import _sqlite
from ._sqlite import connect
from ._sqlite import tables
from ._sqlite import value

__all__ = [
    "SESSION_MARK",
    "STORES",
    "Layout",
    "Store",
    "columns",
    "decode_row",
    "ids",
    "is_database",
    "is_row",
    "iso_millis",
    "json_column",
    "kept_row",
    "open_rows",
    "owner",
    "row_object",
    "select",
    "session_paths",
    "split",
    "text_column",
]

STORES: Final = ("hermes", "zcode")
"""The adapters that read a SQLite store."""
SESSION_MARK: Final = "#session="
"""What joins a database's path and a session id in a session path."""


class Store(Protocol):
    """What a store adapter's ``store.STORE`` offers (the reading side of the adapter)."""

    def claims(self, tables: frozenset[str], path: str) -> bool:
        """Whether a database with these tables is this agent's."""
        ...

    def sessions(self, db: sqlite3.Connection) -> list[str]:
        """The ids of the sessions the database holds, oldest first."""
        ...

    def rows(self, db: sqlite3.Connection, session: str | None) -> Iterator[dict[str, Any]]:
        """The row objects of one session (``None``: of every session), in order."""
        ...


@final
class Layout:
    """A store's database told by its tables: a :class:`Store` that reads them.

    ``file`` is the database's file name, ``needs`` the tables it must hold to be this
    agent's; ``sources`` where its session ids are, as :func:`ids` reads them; ``tables``
    a session's tables in the order its rows are given, each ``(table, the column holding
    the session id, order)``, read by :func:`select`.
    """

    __slots__ = ("file", "name", "needs", "sources", "tables")

    def __init__(
        self,
        name: str,
        file: str,
        *,
        needs: frozenset[str],
        sources: Sequence[tuple[str, str, str]],
        tables: Sequence[tuple[str, str, Sequence[str]]],
    ) -> None:
        self.name: Final = name
        self.file: Final = file
        self.needs: Final = needs
        self.sources: Final = sources
        self.tables: Final = tables

    def claims(self, tables: frozenset[str], path: str) -> bool:
        """A database of this file name that holds the tables the store needs."""
        return os.path.basename(path) == self.file and self.needs <= tables

    def sessions(self, db: sqlite3.Connection) -> list[str]:
        """The session ids, in the order of ``sources`` (see :func:`ids`)."""
        return ids(db, self.sources)

    def rows(self, db: sqlite3.Connection, session: str | None) -> Iterator[dict[str, Any]]:
        """A session's rows (``None``: every session's, one after the other)."""
        for one in self.sessions(db) if session is None else [session]:
            for table, column, order in self.tables:
                where = f'"{column}" = ?'
                yield from select(db, self.name, table, where=where, args=(one,), order=order)


def split(path: str) -> tuple[str, str | None]:
    """A path's database and session id (``None`` for a plain path)."""
    base, mark, session = path.rpartition(SESSION_MARK)
    if mark and session and os.path.isfile(base):
        return base, session
    return path, None


def is_database(path: str) -> bool:
    """Whether the file at ``path`` (or a session path's database) is a SQLite database."""
    return _sqlite.is_database(split(path)[0])


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    """The columns of ``table``, in order (none when it does not exist)."""
    return [str(r[1]) for r in db.execute(f'PRAGMA table_info("{table}")').fetchall()]


def row_object(
    store: str, table: str, names: Sequence[str], values: Sequence[Any]
) -> dict[str, Any]:
    """One row as a row object (every column, as stored)."""
    return {
        "store": store,
        "table": table,
        "row": {name: value(v) for name, v in zip(names, values, strict=True)},
    }


def select(
    db: sqlite3.Connection,
    store: str,
    table: str,
    *,
    where: str = "",
    args: Sequence[Any] = (),
    order: Sequence[str] = (),
) -> Iterator[dict[str, Any]]:
    """The row objects of ``table`` (``where``: a condition), by ``order`` columns, then rowid."""
    names = columns(db, table)
    if not names:
        return
    keys = [f'"{c}"' for c in order if c in names]
    sql = f'SELECT * FROM "{table}"' + (f" WHERE {where}" if where else "")
    sql += " ORDER BY " + ", ".join([*keys, "rowid"])
    try:
        cursor = db.execute(sql, tuple(args))
    except sqlite3.OperationalError:  # a WITHOUT ROWID table
        cursor = db.execute(sql.rsplit(" ORDER BY ", 1)[0], tuple(args))
    for values in cursor:
        yield row_object(store, table, names, values)


def ids(db: sqlite3.Connection, sources: Sequence[tuple[str, str, str]]) -> list[str]:
    """The distinct text values of each ``(table, column, order)`` source, in that order.

    A store's session ids: those of its sessions table first, then any another table names
    without a row of its own there.
    """
    found: list[str] = []
    for table, key, order in sources:
        names = columns(db, table)
        if key not in names:
            continue
        by = f'"{order}", rowid' if order in names else "rowid"
        for (found_value,) in db.execute(f'SELECT "{key}" FROM "{table}" ORDER BY {by}'):
            if isinstance(found_value, str) and found_value not in found:
                found.append(found_value)
    return found


def _store(name: str) -> Store:
    found: Store = import_module(f"{__package__}.{name}.store").STORE
    return found


def owner(path: str) -> str | None:
    """The store adapter whose database the file is (``None``: no database, or no agent's)."""
    if not is_database(path):
        return None
    base, _ = split(path)
    try:
        with closing(connect(base)) as db:
            found = tables(db)
    except sqlite3.Error:
        return None
    for name in STORES:
        if _store(name).claims(found, base):
            return name
    return None


def session_paths(path: str) -> list[str]:
    """A database's session paths (one per session it holds); ``[path]`` for any other file."""
    name = owner(path)
    if name is None:
        return [path]
    with closing(connect(path)) as db:
        return [f"{path}{SESSION_MARK}{s}" for s in _store(name).sessions(db)]


def open_rows(path: str) -> IO[bytes] | None:
    """The row objects of a database (or of one session of it) as JSON lines.

    ``None`` when the file is not a database; an empty stream for a database of no agent's.
    """
    if not is_database(path):
        return None
    name = owner(path)
    out = io.BytesIO()
    if name is not None:
        base, session = split(path)
        with closing(connect(base)) as db:
            for obj in _store(name).rows(db, session):
                out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode())
                out.write(b"\n")
    out.seek(0)
    return out


def kept_row(message: Any, store: str) -> dict[str, Any] | None:
    """The row object of ``store`` a decoded message keeps (in ``extra``, or as its record)."""
    from .._core.frozen import thaw

    for name in ("extra", "event", "data"):
        held = getattr(message, name, None)
        if isinstance(held, Mapping) and held.get("store") == store and "row" in held:
            found: dict[str, Any] = thaw(held)
            if "table" in found:
                return found
    return None


def decode_row(
    obj: Any, store: str, readers: Mapping[str, Callable[[FrozenDict, dict[str, Any]], Any]]
) -> Any:
    """One row object of ``store`` through the reader of its table (``readers``).

    A reader is given the row object (kept whole, as the message's record) and its ``row``;
    a row of another table, or a line that is no row object of ``store``, is kept whole as a
    raw record.
    """
    from .._core.frozen import wrap_owned
    from .._core.wire import fail
    from . import _events as ev

    if type(obj) is not dict:
        raise fail("an object", obj)
    reader = readers.get(obj["table"]) if is_row(obj, store) else None
    if reader is None:
        return ev.raw_line(obj)
    return reader(wrap_owned(obj), obj["row"])


def text_column(row: Mapping[str, Any], column: str) -> str | None:
    """A column's text, ``None`` when it holds no text or only blanks."""
    value = row.get(column)
    return value if type(value) is str and value.strip() else None


def is_row(obj: Any, store: str) -> bool:
    """Whether a parsed line is a row object of ``store``."""
    return (
        type(obj) is dict
        and obj.get("store") == store
        and type(obj.get("table")) is str
        and type(obj.get("row")) is dict
    )


def json_column(row: dict[str, Any], column: str, at: str = "$.row") -> Any:
    """A column holding JSON text, parsed (a column already parsed is taken as it is)."""
    from .._core.wire import fail
    from ..errors import DecodeError

    value = row.get(column)
    if isinstance(value, dict):
        return value
    if type(value) is not str:
        raise fail("JSON text", value, column, at)
    try:
        return json.loads(value)
    except ValueError as exc:
        raise DecodeError(f"not JSON ({exc})", path=f"{at}.{column}") from None


def iso_millis(value: Any) -> str | None:
    """Epoch milliseconds (or seconds, below 10^12) as an ISO time in UTC."""
    if type(value) is not int and type(value) is not float:
        return None
    millis = int(value * 1000) if value < 1_000_000_000_000 else int(value)
    return None if millis <= 0 else millis_text(millis)
