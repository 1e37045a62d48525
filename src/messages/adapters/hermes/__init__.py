"""Hermes Agent's SQLite state (``state.db``): its rows as messages.

The database is read through :mod:`messages.adapters._stores`, which gives each table row as a
*row object* ``{"store": "hermes", "table", "row": {COLUMN: VALUE...}}`` (every column, as
stored). Each row is one message, keeping its row object whole (see ``docs/adapters/hermes.md``):

- a ``sessions`` row -> :class:`ResultMessage`: ``id`` as ``session_id``, ``model``,
  ``started_at`` as ``timestamp`` and, when the row names a model and counts tokens or cost,
  the session's :class:`Usage` (``input_tokens``, ``output_tokens``, ``cache_read_tokens``,
  ``cache_write_tokens``, ``reasoning_tokens``; ``actual_cost_usd``, else
  ``estimated_cost_usd``): Hermes counts usage per session, not per call;
- a ``messages`` row: ``user`` -> :class:`TextMessage` (user); ``assistant`` ->
  :class:`AssistantMessage` (a :class:`ThinkingBlock` from ``reasoning``, a :class:`TextBlock`
  from ``content``, a :class:`ToolUseBlock` per ``tool_calls`` entry); ``tool`` ->
  :class:`ToolResultMessage` (``tool_call_id``, ``content``, ``tool_name``); ``system`` ->
  :class:`TextMessage` (system); any other role -> :class:`RawMessage`;
- a row of another table (``session_model_usage``...) -> :class:`RawMessage`.

``encode`` writes each row object back; a message
read from anywhere else is refused: a database is read, not written.

>>> row = {"store": "hermes", "table": "messages", "row": {"id": 7, "session_id": "s1",
...        "role": "user", "content": "Hi.", "timestamp": 1750000000.5}}
>>> m = decode(row)
>>> m.text, m.role, m.timestamp, encode(m) == row
('Hi.', 'user', '2025-06-15T15:06:40.500Z', True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.frozen import wrap_owned
from ..._core.wire import fail
from ...blocks import Block
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolUseBlock
from ...events.run import ResultMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ToolResultMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import read_back
from .._stores import is_row
from .._stores import iso_millis
from .._stores import kept_row
from .._stores import text_column

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "hermes"
"""The source name of this adapter."""


def _count(row: Mapping[str, Any], key: str) -> int:
    value = row.get(key)
    if type(value) is int:
        return max(value, 0)
    if type(value) is float and math.isfinite(value) and value > 0:
        return int(value)
    return 0


def _cost(row: Mapping[str, Any]) -> float | None:
    for key in ("actual_cost_usd", "estimated_cost_usd"):
        value = row.get(key)
        if isinstance(value, int | float) and math.isfinite(value):
            return max(float(value), 0.0)
    return None


def _session(record: FrozenDict, row: dict[str, Any]) -> Message:
    ident = text_column(row, "id")
    model = text_column(row, "model")
    stamp = iso_millis(row.get("started_at"))
    usage: Usage | None = Usage(
        _count(row, "input_tokens"),
        _count(row, "output_tokens"),
        _count(row, "cache_read_tokens"),
        _count(row, "cache_write_tokens"),
        reasoning_tokens=_count(row, "reasoning_tokens"),
        cost_usd=_cost(row),
    )
    assert usage is not None
    counted = (
        any((usage.input_tokens, usage.output_tokens, usage.cache_read_tokens))
        or usage.cache_write_tokens
        or usage.reasoning_tokens
        or usage.cost_usd
    )
    if model is None or stamp is None or not counted:
        usage = None  # ccusage counts a session only with a model, a start and some usage
    return ResultMessage(
        usage=usage,
        model=None if model is None else model.strip(),
        uuid=None if ident is None else f"hermes:{ident}",
        session_id=ident,
        timestamp=stamp,
        extra=record,
    )


def _calls(row: dict[str, Any]) -> list[ToolUseBlock]:
    raw = row.get("tool_calls")
    if raw is None or raw == "":
        return []
    try:
        calls = json.loads(raw) if type(raw) is str else raw
    except ValueError:
        raise fail("a JSON array", raw, "tool_calls", "$.row") from None
    if not isinstance(calls, list):
        raise fail("a JSON array", calls, "tool_calls", "$.row")
    out = []
    for i, call in enumerate(calls):
        at = f"$.row.tool_calls[{i}]"
        if not isinstance(call, dict):
            raise fail("an object", call, None, at)
        inner = call.get("function")
        function: dict[str, Any] = inner if isinstance(inner, dict) else call
        name = function.get("name")
        ident = call.get("id") or call.get("call_id")
        if type(name) is not str or type(ident) is not str:
            raise fail("a call with an id and a function name", call, None, at)
        arguments = function.get("arguments")
        parsed: Any = {}
        if type(arguments) is str:
            try:
                parsed = json.loads(arguments) if arguments.strip() else {}
            except ValueError:
                parsed = {}
        elif isinstance(arguments, dict):
            parsed = arguments
        out.append(
            ToolUseBlock(
                ident,
                name,
                parsed if isinstance(parsed, dict) else {},
                arguments=arguments if type(arguments) is str else None,
            )
        )
    return out


def _message(record: FrozenDict, row: dict[str, Any]) -> Message:
    role = row.get("role")
    context: dict[str, Any] = {
        "uuid": str(row["id"]) if type(row.get("id")) in (int, str) else None,
        "session_id": text_column(row, "session_id"),
        "timestamp": iso_millis(row.get("timestamp")),
        "extra": record,
    }
    content = row.get("content")
    text = content if type(content) is str else ""
    if role == "user":
        return TextMessage(text, role="user", **context)
    if role == "system":
        return TextMessage(text, role="system", **context)
    if role == "tool" and type(row.get("tool_call_id")) is str:
        return ToolResultMessage(
            row["tool_call_id"], text, name=text_column(row, "tool_name"), **context
        )
    if role == "assistant":
        blocks: list[Block] = []
        reasoning = row.get("reasoning") or row.get("reasoning_content")
        if type(reasoning) is str and reasoning:
            blocks.append(ThinkingBlock(reasoning))
        if text:
            blocks.append(TextBlock(text))
        blocks.extend(_calls(row))
        return AssistantMessage(
            tuple(blocks), stop_reason=text_column(row, "finish_reason"), **context
        )
    return RawMessage(thaw(record), **{k: v for k, v in context.items() if k != "extra"})


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    if not is_row(obj, NAME):
        return ev.raw_line(obj)
    record = wrap_owned(obj)
    if obj["table"] == "sessions":
        return _session(record, obj["row"])
    if obj["table"] == "messages":
        return _message(record, obj["row"])
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One row object to one message (the value is copied first).

    >>> decode({"store": "hermes", "table": "messages", "row": {"role": "assistant", "tool_calls": "{}"}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: hermes: $.row.tool_calls: expected a JSON array, found an object
    """  # noqa: E501
    return ev.decoding(_decode, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """The row object a message was read from; any other message is refused.

    >>> encode(TextMessage("hi"))
    Traceback (most recent call last):
    ...
    messages.errors.UnsupportedContentError: hermes: $: Hermes Agent's database is read, not written (pass unsupported='drop' or 'text')
    """  # noqa: E501
    return thaw(_encode(message, Policy(unsupported, NAME)))


def _encode(message: Message, policy: Policy) -> Any:
    why = "Hermes Agent's database is read, not written"
    return read_back(message, kept_row(message, NAME), why, policy)


def detect(obj: Any) -> bool:
    """Whether a parsed line is a row object of Hermes Agent's database."""
    return is_row(obj, NAME)


def _reader() -> Callable[[Any], Message]:
    """A decoder that gives each assistant message its session's model (rows name none)."""
    model: list[str | None] = [None]

    def read(obj: Any) -> Message:
        message = _decode(obj)
        if isinstance(message, ResultMessage) and message.extra.get("table") == "sessions":
            model[0] = message.model
        elif isinstance(message, AssistantMessage) and message.model is None and model[0]:
            message = replace(message, model=model[0])
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode row objects lazily; an assistant message takes the model of its session's row."""
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write the row objects back, one line each (see :func:`encode`)."""
    return ev.write_lines(messages, _encode, unsupported, NAME)
