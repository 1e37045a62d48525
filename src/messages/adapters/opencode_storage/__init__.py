"""OpenCode's own store: the session, message and part records it keeps on disk.

OpenCode (``opencode``, the TUI and ``opencode run``) keeps every session in its data folder
(``$OPENCODE_DATA_DIR``, else ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``):
older versions as one JSON file per record under ``storage/`` (``session/<project>/<id>.json``,
``message/<session>/<id>.json``, ``part/<message>/<id>.json``), newer ones as rows of the
``session``, ``message`` and ``part`` tables of ``opencode.db``. This adapter reads both; the
``opencode`` adapter reads what ``opencode run --format json`` prints. See
``docs/adapters/opencode_storage.md`` for the full table.

One record is one message:

- a session record -> :class:`InitMessage` (``id`` as ``session_id``, ``directory`` as
  ``cwd``, ``time.created`` as ``timestamp``);
- a message record -> :class:`UserMessage` or :class:`AssistantMessage` with no content (its
  content is its parts): ``modelID`` as ``model``, ``tokens`` and ``cost`` as :class:`Usage`,
  ``finish`` as ``stop_reason``, ``error`` in words as ``error``;
- a ``text`` part -> :class:`TextMessage`, ``reasoning`` -> :class:`ThinkingMessage`, a finished
  ``tool`` part -> :class:`AssistantMessage` holding the call and its result, an unfinished one
  -> :class:`ToolUseMessage`;
- any other part (``step-start``, ``step-finish``, ``file``, ``patch``, ``snapshot``, ``agent``,
  ``subtask``, ``compaction``, ``retry``...) -> :class:`RawMessage`, kept whole.

Everything else a record holds stays in ``extra`` and is written back: ``encode(decode(x)) ==
x`` for documents and rows alike. :mod:`messages.sessions` joins a session's records into
role messages (a message record with its parts as blocks), in time order.

>>> m = decode({"id": "msg_1", "sessionID": "ses_1", "role": "assistant",
...             "time": {"created": 1767312000000}, "modelID": "gpt-5", "providerID": "openai",
...             "cost": 0.01, "tokens": {"input": 10, "output": 2, "cache": {"read": 5}}})
>>> m.model, m.usage.input_tokens, m.usage.cache_read_tokens, m.usage.cost_usd
('gpt-5', 10, 5, 0.01)
>>> encode(m)["tokens"]
{'input': 10, 'output': 2, 'cache': {'read': 5}}
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import thaw
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from . import database as _database
from .conversation import join as joined
from .documents import decode_record
from .documents import is_document
from .documents import is_row
from .encoder import encode_record
from .encoder import writes_whole

__all__ = [
    "KILO_DATABASE",
    "NAME",
    "READ_ONLY",
    "decode",
    "detect",
    "encode",
    "is_database",
    "iter_decode",
    "iter_encode",
    "join",
    "merge",
    "read_database",
    "session_ids",
]

NAME: Final = "opencode_storage"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to`` refuses this format: OpenCode's store is a folder of files and a
database that OpenCode writes, not a stream to print."""


def decode(obj: Any) -> Message:
    """One stored record (a document or a row) to one message (the value is copied first).

    >>> decode({"id": "prt_1", "sessionID": "ses_1", "messageID": "msg_1", "type": "text",
    ...         "text": "Hi.", "time": {"start": 1, "end": 2}}).text
    'Hi.'
    """
    return ev.decoding(decode_record, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one record (a fresh dict): ``encode(decode(x)) == x``.

    A message from another source maps to the nearest record: a text, reasoning or tool
    part, or a message record. A role message with content is a message record and one part
    per block: :func:`iter_encode` writes them; here it raises :class:`EncodeError`.
    """
    return thaw(encode_record(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed value is one of OpenCode's stored records (a document or a row)."""
    return is_document(obj) is not None or is_row(obj) is not None


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode records lazily: one per line, or a document written over several lines.

    OpenCode writes each document indented over several lines; a file holds one.
    """
    return _base.iter_decode(decode_record, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as records, one per line.

    A role message with content is written as its message record followed by one part
    record per block.
    """

    def expand(messages: Iterable[Message]) -> Iterator[Message]:
        for m in messages:
            if isinstance(m, UserMessage | AssistantMessage) and not writes_whole(m):
                yield replace(m, content=())  # the message record, then its parts
                yield from ev.children(m)
            else:
                yield m

    return ev.write_lines(expand(messages), encode_record, unsupported, NAME)


def is_database(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a SQLite database OpenCode wrote (never raises).

    It must have a ``message`` table with ``id``, ``session_id`` and ``data`` columns. Kilo's
    ``kilo.db`` has the same tables and is the ``kilo`` adapter's.
    """
    if os.path.basename(os.fspath(path)) == KILO_DATABASE:
        return False
    return _database.is_database(path) and _database.has_messages(path)


KILO_DATABASE: Final = "kilo.db"
"""The name of Kilo's database: OpenCode's tables, read as the ``kilo`` agent's."""


def session_ids(path: str | os.PathLike[str]) -> list[str]:
    """The ids of the sessions an OpenCode-shaped database holds, oldest first."""
    return _database.session_ids(path)


def join(records: Iterable[Message]) -> list[Message]:
    """A session's records as its conversation, in time order.

    The session record first, then each message record with its parts as blocks; parts
    whose message is missing come last, as they are. :mod:`messages.sessions` reads a
    session this way.
    """
    return joined(list(records))


def read_database(
    path: str | os.PathLike[str], sessions: list[str] | None = None
) -> Iterator[Message]:
    """The rows of an OpenCode database as messages, lazily (the file is opened read-only).

    Each session's row comes first, then each message row followed by its part rows. A
    row that is not a record this adapter models is kept whole as a :class:`RawMessage`.
    """
    for row in _database.rows(path, sessions):
        yield decode_record(row)  # a fresh value: decoded without a copy
