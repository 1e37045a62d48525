"""Gemini CLI files that hold a whole document: legacy sessions, ``logs.json``, checkpoints.

Each is one JSON value per file (pretty-printed; the stream reader joins its lines, see
:func:`messages.adapters._base.gather`). The stream reader gives its *parts*, each marked in
``extra["$document"]`` with where it goes, and :func:`joined` puts them back together:

- a legacy session ``{"sessionId", "projectHash", ..., "messages": [...]}``: its metadata as
  an :class:`InitMessage` (marked ``session``), then each message record (``messages``);
- ``logs.json``, the prompt log ``[{"sessionId", "messageId", "timestamp", "type",
  "message"}]``: each entry a :class:`UserMessage` with its session id (``logs``);
- a checkpoint (``checkpoint-<tag>.json``, what ``/chat save`` writes): the model's history as
  Gemini ``Content`` (``{"role", "parts"}``), a bare array in older versions (``contents``)
  or ``{"history": [...], "authType"}`` (a :class:`SystemEventMessage` ``checkpoint`` marked
  ``checkpoint``, then ``history``): ``user`` content as :class:`UserMessage`, ``model`` as
  :class:`AssistantMessage`.

An item that is not an object of the expected shape is a :class:`RawMessage`, kept whole.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import expose_owned
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...errors import DecodeError
from ...events.agent import SystemEventMessage
from ...events.run import InitMessage
from ...flat import RawMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import _events as ev
from .. import _gemini_parts as gp
from .records import DOCUMENT
from .records import decode_record

__all__ = [
    "HEADS",
    "decode_array",
    "decode_checkpoint",
    "decode_session",
    "is_checkpoint",
    "is_content",
    "is_log_entry",
    "joined",
]

HEADS: Final = {"session": "messages", "checkpoint": "history"}
"""A document's head mark, and the key its items go under."""
_ARRAYS: Final = ("logs", "contents")
_LOG: Final = frozenset(("sessionId", "timestamp", "message"))


def is_log_entry(obj: Any) -> bool:
    """Whether a value is a ``logs.json`` entry."""
    return (
        type(obj) is dict
        and type(obj.get("sessionId")) is str
        and type(obj.get("messageId")) is int
        and "message" in obj
        and "type" in obj
    )


def is_content(obj: Any) -> bool:
    """Whether a value is a Gemini ``Content`` (``{"role", "parts": [...]}``), nothing more."""
    return (
        type(obj) is dict
        and type(obj.get("role")) is str
        and type(obj.get("parts")) is list
        and len(obj) == 2
    )


def is_checkpoint(obj: Any) -> bool:
    """Whether a value is a checkpoint: Content items, bare or under ``history``."""
    if type(obj) is dict:
        history = obj.get("history")
        return (
            type(history) is list
            and bool(history)
            and "type" not in obj
            and all(is_content(c) for c in history)
        )
    return type(obj) is list and bool(obj) and all(is_content(c) for c in obj)


def _mark(m: Message, where: str) -> Message:
    return replace(m, extra=wrap_owned({**raw(m.extra), DOCUMENT: where}))


def _kept(item: Any, where: str) -> RawMessage:
    return RawMessage(expose_owned(item), extra={DOCUMENT: where})


def _each(items: list[Any], where: str, decode: Callable[[Any], Message]) -> list[Message]:
    out: list[Message] = []
    for item in items:
        try:
            out.append(_mark(decode(item), where) if type(item) is dict else _kept(item, where))
        except DecodeError:  # one bad item does not lose the others: kept whole
            out.append(_kept(item, where))
    return out


def decode_session(d: dict[str, Any]) -> tuple[Message, ...]:
    """A legacy session document as its metadata, then one message per record."""
    head = InitMessage(
        session_id=d["sessionId"],
        timestamp=opt_time(d, "startTime"),
        extra=wrap_owned({**rest(d, ("sessionId", "startTime", "messages")), DOCUMENT: "session"}),
    )
    return (head, *_each(d["messages"], "messages", decode_record))


def _content(d: dict[str, Any]) -> Message:
    blocks = gp.decode_parts(d["parts"])
    extra = ev.frozen(rest(d, ("parts",)))
    if d["role"] == "model":
        return AssistantMessage(blocks, extra=extra)
    if d["role"] == "user":
        return UserMessage(blocks, extra=extra)
    return ev.raw_line(d)


def _log(d: dict[str, Any]) -> Message:
    text = d.get("message")
    if type(text) is not str:
        return ev.raw_line(d)
    return UserMessage(
        text,
        session_id=d["sessionId"],
        timestamp=opt_time(d),
        extra=ev.frozen(rest(d, _LOG)),
    )


def decode_checkpoint(d: dict[str, Any]) -> tuple[Message, ...]:
    """A ``{"history": [...]}`` checkpoint as its head, then one message per Content."""
    data = wrap_owned(rest(d, ("history",)))
    head = SystemEventMessage("checkpoint", data, extra={DOCUMENT: "checkpoint"})
    return (head, *_each(d["history"], "history", _content))


def decode_array(items: list[Any]) -> tuple[Message, ...]:
    """``logs.json``, a bare checkpoint, or an array of neither (kept whole)."""
    if items and all(is_log_entry(i) for i in items):
        return tuple(_each(items, "logs", _log))
    if is_checkpoint(items):
        return tuple(_each(items, "contents", _content))
    return (RawMessage(expose_owned(items)),)


def encode_log(m: UserMessage, text: str) -> dict[str, Any]:
    """A ``logs.json`` entry back from its message."""
    out = present(sessionId=m.session_id, timestamp=m.timestamp)
    out["message"] = text
    return out


def joined(
    messages: Iterable[Message], encode: Callable[[Message], Any]
) -> Iterator[Message | dict[str, Any] | list[Any]]:
    """Messages, with the parts of each document put back together as one value.

    ``encode`` writes one message (markers left out); a part whose document has not begun
    here is written on its own.
    """
    doc: Any = None
    key: str | None = None
    items: list[Any] = []

    def flush() -> Any:
        nonlocal doc, key, items
        out = doc
        if key is not None and doc is not None:
            doc[key] = items
        elif key is None and doc is None and items:
            out = items
        doc, key, items = None, None, []
        return out

    array: str | None = None
    for m in messages:
        mark = m.extra.get(DOCUMENT) if getattr(m, "extra", None) else None
        if mark in HEADS:
            done = flush()
            array = None
            if done is not None:
                yield done
            doc, key = encode(m), HEADS[mark]  # type: ignore[index]
            doc.pop(key, None)
            continue
        if mark is not None and doc is not None and mark == key:
            items.append(encode(m))
            continue
        if mark in _ARRAYS:
            if doc is None and array == mark:
                items.append(encode(m))
                continue
            done = flush()
            if done is not None:
                yield done
            array = mark  # type: ignore[assignment]
            items = [encode(m)]
            continue
        done = flush()
        array = None
        if done is not None:
            yield done
        yield m
    done = flush()
    if done is not None:
        yield done
