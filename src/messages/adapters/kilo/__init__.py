"""Kilo's session database: ``~/.local/share/kilo/kilo.db``, OpenCode's tables, read-only.

Kilo's CLI is built on OpenCode and keeps its sessions the way newer OpenCode versions do: the
``session``, ``message`` and ``part`` tables of a SQLite database, here ``kilo.db`` in
``$KILO_DATA_DIR`` (else ``$XDG_DATA_HOME/kilo``, ``~/.local/share/kilo``). Its rows are
OpenCode's records, decoded and written back exactly as
:mod:`messages.adapters.opencode_storage` does (see ``docs/adapters/kilo.md``); this adapter
names them Kilo's. A record on its own cannot be told from OpenCode's, so :func:`detect`
claims none: Kilo's records are found by the database's name.

>>> row = {"table": "message", "id": "msg_1", "session_id": "ses_1", "data": {
...     "role": "assistant", "modelID": "claude-sonnet-4-5", "cost": 0.01,
...     "time": {"created": 1767800000000}, "tokens": {"input": 12, "output": 3}}}
>>> m = decode(row)
>>> m.model, m.usage.input_tokens, encode(m) == row
('claude-sonnet-4-5', 12, True)
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import closing
from typing import Any
from typing import Final

from ...errors import MessagesError
from ...message import Message
from ...policy import Unsupported
from .. import _sqlite
from .. import opencode_storage as _opencode

__all__ = [
    "DATABASE",
    "NAME",
    "READ_ONLY",
    "RECORDS",
    "decode",
    "detect",
    "encode",
    "is_database",
    "iter_decode",
    "iter_encode",
    "merge",
    "read_database",
]

NAME: Final = "kilo"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to kilo`` is refused: the database is Kilo's own store."""

RECORDS: Final = _opencode.NAME
"""The format whose records these are: lines that format claims are read as Kilo's when
``--from kilo`` says so."""

DATABASE: Final = _opencode.KILO_DATABASE
"""The database's file name."""


def _named(exc: MessagesError) -> MessagesError:
    if getattr(exc, "source", None) == _opencode.NAME:
        exc.source = NAME  # type: ignore[attr-defined]
    return exc


def decode(obj: Any) -> Message:
    """One row (or OpenCode record) to one message, as OpenCode's store decodes it."""
    try:
        return _opencode.decode(obj)
    except MessagesError as exc:
        raise _named(exc) from None


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message back to the row it was read from: ``encode(decode(row)) == row``."""
    try:
        return _opencode.encode(message, unsupported=unsupported)
    except MessagesError as exc:
        raise _named(exc) from None


def detect(obj: Any) -> bool:
    """Never: a Kilo record is OpenCode's shape, claimed by ``opencode_storage``."""
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode rows written one per line."""
    try:
        yield from _opencode.iter_decode(lines, strict=strict)
    except MessagesError as exc:
        raise _named(exc) from None


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as rows, one per line."""
    try:
        yield from _opencode.iter_encode(messages, unsupported=unsupported)
    except MessagesError as exc:
        raise _named(exc) from None


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """The messages as they are."""
    return _opencode.merge(messages)


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is Kilo's database (``kilo.db``, OpenCode's tables)."""
    if os.path.basename(os.fspath(path)) != DATABASE or not _sqlite.is_database(path):
        return False
    try:
        with closing(_sqlite.connect(path)) as db:
            columns = _sqlite.columns(db, "message")
    except sqlite3.Error:
        return False
    return {"id", "session_id", "data"} <= columns


def read_database(
    path: str | os.PathLike[str], sessions: list[str] | None = None
) -> Iterator[Message]:
    """The rows of Kilo's database as messages, lazily (opened read-only)."""
    return _opencode.read_database(path, sessions)
