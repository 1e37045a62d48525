"""ZCode's SQLite history (``~/.zcode/cli/db/db.sqlite``): its rows as messages.

The database is read through :mod:`messages.adapters._stores`, which gives each table row as a
*row object* ``{"store": "zcode", "table", "row": {COLUMN: VALUE...}}`` (every column, as
stored). Each row is one message, keeping its row object whole (see
``docs/adapters/zcode.md``):

- a ``session`` row -> :class:`InitMessage`: ``id`` as ``session_id``, ``directory`` as
  ``cwd``;
- a ``model_usage`` row -> :class:`ResultMessage` (``subtype="model_usage"``): ``id`` as
  ``uuid`` (``zcode:<id>``), ``session_id``, ``model_id`` as ``model``, ``started_at`` (epoch
  milliseconds) as ``timestamp`` and, for a call whose ``status`` is ``completed``, its
  :class:`Usage`: ``input_tokens`` less the cache reads and writes it includes, then
  ``output_tokens``, ``cache_read_input_tokens``, ``cache_creation_input_tokens``;
- a row of any other table -> :class:`RawMessage`.

``encode`` writes each row object back; a message read from anywhere else is refused: a
database is read, not written.

>>> m = decode({"store": "zcode", "table": "model_usage", "row": {"id": "u1",
...     "session_id": "s1", "started_at": 1767700800000, "model_id": "glm-4.6",
...     "status": "completed", "input_tokens": 1000, "output_tokens": 200,
...     "cache_read_input_tokens": 300, "cache_creation_input_tokens": 50}})
>>> m.model, m.timestamp, m.usage.input_tokens, m.usage.cache_read_tokens
('glm-4.6', '2026-01-06T12:00:00.000Z', 650, 300)
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.wire import opt_int
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import read_back
from .._stores import decode_row
from .._stores import is_row
from .._stores import iso_millis
from .._stores import kept_row
from .._stores import text_column

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "zcode"
"""The source name of this adapter."""

_WHY: Final = "ZCode's database is read, not written"


def _count(row: dict[str, Any], key: str) -> int:
    return max(opt_int(row, key, "$.row") or 0, 0)


def _usage(row: dict[str, Any]) -> Usage:
    read = _count(row, "cache_read_input_tokens")
    write = _count(row, "cache_creation_input_tokens")
    given = _count(row, "input_tokens")
    return Usage(max(given - read - write, 0), _count(row, "output_tokens"), read, write)


def _call(record: FrozenDict, row: dict[str, Any]) -> Message:
    ident = row.get("id")
    key = str(ident) if type(ident) in (int, str) else None
    return ResultMessage(
        subtype="model_usage",
        usage=_usage(row) if row.get("status") == "completed" else None,
        model=text_column(row, "model_id"),
        uuid=None if key is None else f"zcode:{key}",
        session_id=text_column(row, "session_id"),
        timestamp=iso_millis(row.get("started_at")),
        extra=record,
    )


def _session(record: FrozenDict, row: dict[str, Any]) -> Message:
    return InitMessage(
        cwd=text_column(row, "directory"), session_id=text_column(row, "id"), extra=record
    )


_READERS: Final = {"model_usage": _call, "session": _session}


def _decode(obj: Any) -> Message:
    found: Message = decode_row(obj, NAME, _READERS)
    return found


def decode(obj: Any) -> Message:
    """One row object to one message (the value is copied first)."""
    return ev.decoding(_decode, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """The row object a message was read from; any other message is refused."""
    return thaw(_encode(message, Policy(unsupported, NAME)))


def _encode(message: Message, policy: Policy) -> Any:
    return read_back(message, kept_row(message, NAME), _WHY, policy)


def detect(obj: Any) -> bool:
    """Whether a parsed line is a row object of ZCode's database."""
    return is_row(obj, NAME)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode row objects lazily."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write the row objects back, one line each (see :func:`encode`)."""
    return ev.write_lines(messages, _encode, unsupported, NAME)
