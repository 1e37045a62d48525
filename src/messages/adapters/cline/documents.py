"""A Cline task's files are JSON documents, each holding many messages: split and joined here.

- ``api_conversation_history.json``: an array of conversation entries (``history``);
- ``ui_messages.json``: an array of UI log items (``ui``);
- ``<id>.messages.json``: an object, ``{"version", "updated_at", "agent", "sessionId",
  "messages": [...]}`` (``transcript``): its header becomes an :class:`InitMessage`, then
  one message per entry;
- ``task_metadata.json``: an object (``files_in_context``, ``model_usage``...): one
  :class:`SystemEventMessage` (``task_metadata``) holding it.

The stream reader gives a document's parts; each carries, in ``extra[KEY]``, which document
kind it came from and its place there, so the writer puts the same document back together.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ...errors import DecodeError
from ...events.agent import SystemEventMessage
from ...events.run import InitMessage
from ...flat import RawMessage
from ...message import Message
from .. import _events as ev
from .turns import decode_turn
from .turns import is_turn
from .ui import decode_item
from .ui import is_item

__all__ = [
    "KEY",
    "METADATA",
    "decode_parts",
    "is_document",
    "is_metadata",
    "is_transcript",
    "join",
    "place",
    "unmarked",
]

KEY: Final = "cline.document"
"""The ``extra`` key that marks a message as a part of a document: ``[kind, index]``."""
METADATA: Final = "task_metadata"
"""The ``subtype`` of the event holding a ``task_metadata.json`` document."""
_METADATA_KEYS: Final = ("files_in_context", "model_usage", "environment_history")


def is_transcript(obj: Any) -> bool:
    """Whether a value is a ``<id>.messages.json`` document (never raises)."""
    if type(obj) is not dict:
        return False
    entries = obj.get("messages")
    if type(entries) is not list or "projectHash" in obj:  # a Gemini CLI session has both
        return False
    if entries and not (type(entries[0]) is dict and "role" in entries[0]):
        return False  # Cline's entries have a role (Gemini CLI's a type)
    return "sessionId" in obj or "version" in obj or "updated_at" in obj


def is_metadata(obj: Any) -> bool:
    """Whether a value is a ``task_metadata.json`` document."""
    return type(obj) is dict and any(type(obj.get(k)) is list for k in _METADATA_KEYS)


def is_document(obj: Any) -> bool:
    """Whether a value is one of a Cline task's documents."""
    if type(obj) is list:
        return bool(obj) and (is_turn(obj[0]) or is_item(obj[0]))
    return is_transcript(obj) or is_metadata(obj)


def _marked(m: Message, kind: str, index: int) -> Message:
    extra = dict(raw(m.extra)) if m.extra else {}
    extra[KEY] = [kind, index]
    return replace(m, extra=wrap_owned(extra))


def _entry(value: Any, read: Any, test: Any) -> Message:
    if not test(value):
        return ev.raw_line(value) if type(value) is dict else RawMessage(value)
    try:
        m: Message = read(value)
    except DecodeError:
        return ev.raw_line(value)
    return m


def decode_parts(obj: Any) -> tuple[Message, ...]:
    """The messages of an owned document, each marked with its place (see :data:`KEY`)."""
    if type(obj) is list:
        if is_turn(obj[0]):
            kind, read, test = "history", decode_turn, is_turn
        else:
            kind, read, test = "ui", decode_item, is_item
        return tuple(_marked(_entry(v, read, test), kind, i) for i, v in enumerate(obj))
    if is_metadata(obj) and not is_transcript(obj):
        return (SystemEventMessage(METADATA, wrap_owned(obj)),)
    header = {k: v for k, v in obj.items() if k != "messages"}
    sid = header.pop("sessionId") if type(header.get("sessionId")) is str else None
    init = InitMessage(session_id=sid, extra=wrap_owned(header) if header else EMPTY)
    entries = obj["messages"]
    parts = [_marked(init, "transcript", -1)]
    parts += [
        _marked(_entry(v, decode_turn, is_turn), "transcript", i) for i, v in enumerate(entries)
    ]
    return tuple(parts)


def place(m: Message) -> tuple[str, int] | None:
    """The document kind and index a message was read from, if it was."""
    mark = m.extra.get(KEY) if m.extra else None
    if not isinstance(mark, tuple) or len(mark) != 2:
        return None
    kind, index = mark
    if not isinstance(kind, str) or not isinstance(index, int):
        return None
    return kind, index


def unmarked(extra: Any) -> Any:
    """``extra`` without the document mark (plain)."""
    d = raw(extra) if isinstance(extra, FrozenDict) else extra
    if KEY not in d:
        return extra
    return wrap_owned({k: v for k, v in d.items() if k != KEY})


def join(kind: str, entries: list[Any], header: dict[str, Any] | None) -> Any:
    """The document of ``kind`` holding ``entries`` (written under a transcript's header)."""
    if kind != "transcript":
        return entries
    out = dict(header or {})
    out["messages"] = entries
    return out
