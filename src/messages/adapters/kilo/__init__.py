"""The Kilo CLI's SQLite history (``kilo.db``): its rows as messages.

The database is read through :mod:`messages.adapters._stores`, which gives each table row as a
*row object* ``{"store": "kilo", "table", "row": {COLUMN: VALUE...}}`` (every column, as
stored). Each row is one message, keeping its row object whole (see ``docs/adapters/kilo.md``):

- a ``session`` row -> :class:`InitMessage` (``id``, ``directory`` as ``cwd``);
- a ``message`` row of an assistant message with ``tokens`` -> :class:`AssistantMessage` with
  no content: its :class:`Usage` (``tokens.input``, ``output``, ``cache.read``,
  ``cache.write``, ``reasoning``, and ``cost``), ``modelID`` as ``model``; any other message
  row -> :class:`StreamEventMessage`;
- a ``part`` row: ``text`` -> :class:`TextMessage` (in the role of its message, which
  :func:`iter_decode` knows from the message row before it; ``assistant`` for a lone
  :func:`decode`), ``reasoning`` -> :class:`ThinkingMessage`, ``tool`` -> an
  :class:`AssistantMessage` with the call and, once it has finished, its result (like
  ``opencode``'s tool parts), any other part -> :class:`StreamEventMessage`;
- a row of another table -> :class:`RawMessage`.

The row is kept in ``extra`` (the record of a stream event or raw message), and ``encode``
writes it back; a message read from anywhere else is refused: a database is read, not written.

>>> row = {"store": "kilo", "table": "part", "row": {"id": "prt_1", "message_id": "msg_1",
...        "session_id": "ses_1", "data": '{"type": "text", "text": "Hi."}'}}
>>> m = decode(row)
>>> m.text, m.role, m.message_id, encode(m) == row
('Hi.', 'assistant', 'msg_1', True)
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.frozen import wrap_owned
from ..._core.wire import fail
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...events.run import InitMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._stores import is_row
from .._stores import iso_millis
from .._stores import json_column
from .._stores import kept_row

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "kilo"
"""The source name of this adapter."""


def _str(d: Any, key: str) -> str | None:
    value = d.get(key) if isinstance(d, dict) else None
    return value if type(value) is str and value else None


def _int(d: Any, key: str) -> int | None:
    value = d.get(key) if isinstance(d, dict) else None
    return value if type(value) is int and value >= 0 else None


def _usage(info: dict[str, Any]) -> Usage | None:
    tokens = info.get("tokens")
    if not isinstance(tokens, dict):
        return None
    cache = tokens.get("cache")
    usage = Usage(
        _int(tokens, "input") or 0,
        _int(tokens, "output") or 0,
        _int(cache, "read") or 0,
        _int(cache, "write") or 0,
        reasoning_tokens=_int(tokens, "reasoning"),
        cost_usd=info["cost"] if type(info.get("cost")) in (int, float) else None,
    )
    total = _int(tokens, "total")
    parts = (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens)
    if total and not any(parts) and not usage.cache_write_tokens and not usage.reasoning_tokens:
        usage = Usage(0, total, 0, 0, cost_usd=usage.cost_usd)  # only a total: as output
    return usage


def _session(record: FrozenDict, row: dict[str, Any]) -> Message:
    return InitMessage(
        cwd=_str(row, "directory"),
        session_id=_str(row, "id"),
        timestamp=iso_millis(row.get("time_created")),
        extra=record,
    )


def _message(record: FrozenDict, row: dict[str, Any]) -> Message:
    info = json_column(row, "data")
    if not isinstance(info, dict):
        raise fail("an object", info, "data", "$.row")
    session = _str(info, "sessionID") or _str(row, "session_id")
    ident = _str(info, "id") or _str(row, "id")
    time = info.get("time")
    stamp = iso_millis(time.get("created")) if isinstance(time, dict) else None
    stamp = stamp or iso_millis(row.get("time_created"))
    usage = _usage(info) if info.get("role") == "assistant" else None
    if usage is None:
        return StreamEventMessage(record, message_id=ident, session_id=session, timestamp=stamp)
    return AssistantMessage(
        (),
        usage=usage,
        stop_reason=_str(info, "finish"),
        session_id=session,
        model=_str(info, "modelID"),
        message_id=ident,
        timestamp=stamp,
        extra=record,
    )


def _part(record: FrozenDict, row: dict[str, Any], role: str) -> Message:
    part = json_column(row, "data")
    if not isinstance(part, dict):
        raise fail("an object", part, "data", "$.row")
    kind = part.get("type")
    context: dict[str, Any] = {
        "uuid": _str(part, "id") or _str(row, "id"),
        "session_id": _str(part, "sessionID") or _str(row, "session_id"),
        "message_id": _str(part, "messageID") or _str(row, "message_id"),
        "extra": record,
    }
    time = part.get("time")
    if isinstance(time, dict):
        context["timestamp"] = iso_millis(time.get("start"))
    if kind == "text" and type(part.get("text")) is str:
        return TextMessage(part["text"], role="user" if role == "user" else "assistant", **context)
    if kind == "reasoning" and type(part.get("text")) is str:
        return ThinkingMessage(part["text"], **context)
    if kind == "tool" and type(part.get("callID")) is str and type(part.get("tool")) is str:
        state = part.get("state")
        state = state if isinstance(state, dict) else {}
        given = state.get("input")
        call = ToolUseBlock(part["callID"], part["tool"], given if isinstance(given, dict) else {})
        status = state.get("status")
        if status in ("completed", "error"):
            key = "output" if status == "completed" else "error"
            text = state.get(key)
            result = ToolResultBlock(
                part["callID"],
                text if type(text) is str else "",
                is_error=status == "error",
                name=part["tool"],
            )
            return AssistantMessage((call, result), **context)
        return ToolUseMessage(call.id, call.name, call.input, **context)
    return StreamEventMessage(
        record,
        uuid=context["uuid"],
        session_id=context["session_id"],
        message_id=context["message_id"],
        timestamp=context.get("timestamp"),
    )


def _decode(obj: Any, roles: dict[str, str] | None = None) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    if not is_row(obj, NAME):
        return ev.raw_line(obj)
    record = wrap_owned(obj)
    table, row = obj["table"], obj["row"]
    if table == "session":
        return _session(record, row)
    if table == "message":
        message = _message(record, row)
        if roles is not None and message.message_id is not None:
            info = json_column(row, "data")
            roles[message.message_id] = str(info.get("role"))
        return message
    if table == "part":
        parent = _str(row, "message_id") or ""
        return _part(record, row, (roles or {}).get(parent, "assistant"))
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One row object to one message (the value is copied first).

    >>> decode({"store": "kilo", "table": "message", "row": {"id": "m", "data": "[1]"}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: kilo: $.row.data: expected an object, found an array
    """
    return ev.decoding(_decode, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """The row object a message was read from; any other message is refused.

    >>> encode(TextMessage("hi"))
    Traceback (most recent call last):
    ...
    messages.errors.UnsupportedContentError: kilo: $: the Kilo CLI's database is read, not written (pass unsupported='drop' or 'text')
    """  # noqa: E501
    policy = Policy(unsupported, NAME)
    found = kept_row(message, NAME)
    if found is not None:
        return found
    if (
        isinstance(message, RawMessage)
        and message.role is None
        and isinstance(message.data, Mapping)
    ):
        return thaw(message.data)
    policy.refuse("the Kilo CLI's database is read, not written", "$", message)
    return None


def detect(obj: Any) -> bool:
    """Whether a parsed line is a row object of the Kilo CLI's database."""
    return is_row(obj, NAME)


def _reader() -> Callable[[Any], Message]:
    roles: dict[str, str] = {}
    return lambda obj: _decode(obj, roles)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode row objects lazily; a part's text takes the role of its message row."""
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write the row objects back, one line each (see :func:`encode`)."""
    Policy(unsupported, NAME)
    return ev.lines(messages, lambda m: encode(m, unsupported=unsupported), native=lambda m: True)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Pass messages through: each row is whole."""
    return iter(messages)
