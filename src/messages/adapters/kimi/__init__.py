"""Kimi CLI's session wire files: ``~/.kimi/sessions/<group>/<session>/wire.jsonl``.

Kimi CLI records every session as the stream of its wire protocol, one event per line:
``{"timestamp": <epoch seconds>, "message": {"type": <event>, "payload": {...}}}``, after a
first ``{"type": "metadata", "protocol_version": ...}`` line. See ``docs/adapters/kimi.md``.

- ``TurnBegin`` (``user_input``) -> :class:`UserMessage` (text, or content parts);
- ``ContentPart`` ``text`` -> :class:`TextMessage`, ``think`` -> :class:`ThinkingMessage`;
- ``ToolCall`` (``id``, ``function.name``, ``function.arguments`` as JSON text) ->
  :class:`ToolUseMessage` (the arguments parsed as ``input`` and kept as written in
  ``arguments``);
- ``ToolResult`` (``tool_call_id``, ``return_value.output``, ``return_value.is_error``) ->
  :class:`ToolResultMessage`; a call without its ``type`` or ``arguments``, or a result
  without its ``output``, is kept whole as an event (it is written with them);
- ``StatusUpdate`` with ``token_usage`` -> :class:`ResultMessage` (``subtype="status"``): one
  API call's usage (``input_other``, ``output``, ``input_cache_read``, ``input_cache_creation``),
  its ``message_id``;
- every other event (``StepBegin``, ``TurnEnd``, ``CompactionBegin``, ``ApprovalRequest``,
  ``SubagentEvent``...) and the metadata line -> :class:`StreamEventMessage`, verbatim.

Everything else is kept in ``extra``: ``encode(decode(x)) == x``.

>>> m = decode({"timestamp": 1767700800.5, "message": {"type": "ToolCall", "payload": {
...     "type": "function", "id": "tc_1", "function": {"name": "Shell",
...     "arguments": '{"command": "ls"}'}}}})
>>> m.kind, m.name, dict(m.input), m.arguments
('tool_use', 'Shell', {'command': 'ls'}, '{"command": "ls"}')
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import content_text
from .._common import refuse
from .._common import refuse_other
from . import context as cx
from .context import restates

__all__ = [
    "NAME",
    "READ_ONLY",
    "decode",
    "detect",
    "encode",
    "iter_decode",
    "iter_encode",
    "merge",
    "restates",
]

NAME: Final = "kimi"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to kimi`` is refused: the wire files are Kimi CLI's own record."""

EVENTS: Final = frozenset(
    (
        "TurnBegin",
        "TurnEnd",
        "StepBegin",
        "StepInterrupted",
        "CompactionBegin",
        "CompactionEnd",
        "StatusUpdate",
        "ContentPart",
        "ToolCall",
        "ToolCallPart",
        "ToolResult",
        "ApprovalRequest",
        "ApprovalResponse",
        "ApprovalRequestResolved",
        "SubagentEvent",
        "ToolCallRequest",
    )
)
"""The wire events Kimi CLI writes (protocol 1.x)."""

_TOKENS: Final = {
    "input_other": "input_tokens",
    "output": "output_tokens",
    "input_cache_read": "cache_read_tokens",
    "input_cache_creation": "cache_write_tokens",
}


def _event(d: dict[str, Any]) -> Message:
    return StreamEventMessage(wrap_owned(d), timestamp=opt_time(d))


def _enveloped(obj: dict[str, Any]) -> bool:
    """Whether a line is a wire event (a ``message`` holding a ``payload``) or the metadata line.

    What the decoder reads (or keeps whole, as an event), and so what the encoder writes back
    whole, whatever the event's type.
    """
    body = obj.get("message")
    if type(body) is dict and type(body.get("payload")) is dict:
        return True
    return obj.get("type") == "metadata"


def _mirror(d: dict[str, Any], body: dict[str, Any], payload_left: dict[str, Any]) -> FrozenDict:
    """What a line keeps besides the payload's modelled keys: the line's and message's rest."""
    extra = rest(d, frozenset(("timestamp", "message")))
    body_left = rest(body, frozenset(("type", "payload")))
    body_left["payload"] = payload_left
    extra["message"] = body_left
    return ev.frozen(extra)


def _turn_begin(d: dict[str, Any], body: dict[str, Any], p: dict[str, Any]) -> Message:
    given = p.get("user_input")
    if type(given) is not str:
        return _event(d)  # content parts (images...): kept whole
    return UserMessage(
        given, timestamp=opt_time(d), extra=_mirror(d, body, rest(p, frozenset(("user_input",))))
    )


def _content(d: dict[str, Any], body: dict[str, Any], p: dict[str, Any]) -> Message:
    tag = p.get("type")
    if tag == "text" and type(p.get("text")) is str:
        left = rest(p, frozenset(("type", "text")))
        return TextMessage(p["text"], timestamp=opt_time(d), extra=_mirror(d, body, left))
    if tag == "think" and type(p.get("think")) is str:
        left = rest(p, frozenset(("type", "think")))
        return ThinkingMessage(p["think"], timestamp=opt_time(d), extra=_mirror(d, body, left))
    return _event(d)


def _tool_call(d: dict[str, Any], body: dict[str, Any], p: dict[str, Any]) -> Message:
    call = need_str(p, "id", "$.message.payload")
    function = need_obj(p, "function", "$.message.payload")
    if "type" not in p or "arguments" not in function:
        return _event(d)  # a call is written with both: without them, it is kept whole
    name = need_str(function, "name", "$.message.payload.function")
    text = function.get("arguments")
    args: dict[str, Any] = {}
    if type(text) is str:
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if type(parsed) is dict:
            args = parsed
    elif text is not None:
        raise fail("a string", text, "arguments", "$.message.payload.function")
    left = rest(p, frozenset(("id", "function")))
    function_left = rest(function, frozenset(("name", "arguments")))
    if function_left:
        left["function"] = function_left
    return ToolUseMessage(
        call,
        name,
        wrap_owned(args),
        arguments=text if type(text) is str else None,
        timestamp=opt_time(d),
        extra=_mirror(d, body, left),
    )


def _tool_result(d: dict[str, Any], body: dict[str, Any], p: dict[str, Any]) -> Message:
    call = need_str(p, "tool_call_id", "$.message.payload")
    value = need_obj(p, "return_value", "$.message.payload")
    if "output" not in value:
        return _event(d)  # a result is written with its output: without one, kept whole
    output = value.get("output")
    failed = value.get("is_error")
    if type(failed) is not bool:
        raise fail("a boolean", failed, "is_error", "$.message.payload.return_value")
    left = rest(p, frozenset(("tool_call_id", "return_value")))
    value_left = rest(
        value, frozenset(("is_error", "output") if type(output) is str else ("is_error",))
    )
    left["return_value"] = value_left
    return ToolResultMessage(
        call,
        output if type(output) is str else "",
        is_error=failed,
        timestamp=opt_time(d),
        extra=_mirror(d, body, left),
    )


def _status(d: dict[str, Any], body: dict[str, Any], p: dict[str, Any]) -> Message:
    tokens = p.get("token_usage")
    if type(tokens) is not dict:
        return _event(d)
    usage = ev.usage_in(tokens, _TOKENS, "$.message.payload.token_usage", frozenset(_TOKENS))
    left = rest(p, frozenset(("token_usage", "message_id")))
    return ResultMessage(
        subtype="status",
        usage=usage,
        message_id=opt_str(p, "message_id", "$.message.payload"),
        timestamp=opt_time(d),
        extra=_mirror(d, body, left),
    )


_DECODERS: Final = {
    "TurnBegin": _turn_begin,
    "ContentPart": _content,
    "ToolCall": _tool_call,
    "ToolResult": _tool_result,
    "StatusUpdate": _status,
}


def _kept_whole(event: FrozenDict) -> bool:
    """Whether an event is one the decoder kept whole: a wire event or a context record."""
    found = raw(event)
    return _enveloped(found) or cx.is_bookkeeping(found)


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    body = obj.get("message")
    if type(body) is dict and type(body.get("payload")) is dict:
        tag = body.get("type")
        decoder = _DECODERS.get(tag) if type(tag) is str else None
        if decoder is not None:
            return decoder(obj, body, body["payload"])
        return _event(obj)
    if obj.get("type") == "metadata":
        return _event(obj)
    if cx.is_record(obj):  # a context.jsonl line
        return cx.decode_record(obj)
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One wire line to one message (the value is copied first)."""
    return ev.decoding(_decode, obj, NAME)


def _line(tag: str, m: Message, payload: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp
    out["message"] = {"type": tag, "payload": payload}
    return ev.overlay(out, m.extra)


def _encode(m: Message, policy: Policy) -> Any:
    match m:
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)
        case StreamEventMessage() if isinstance(m.event, FrozenDict) and _kept_whole(m.event):
            return raw(m.event)
        case UserMessage() if isinstance(m.content, str):
            return _line("TurnBegin", m, {"user_input": m.content})
        case UserMessage() | AssistantMessage() | SystemMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case TextMessage() if m.role in ("user", "assistant"):
            if m.citations is not None:
                refuse(m, "Kimi CLI's text parts carry no citations", policy, degrade=False)
            if m.role == "user":
                return _line("TurnBegin", m, {"user_input": m.text})
            return _line("ContentPart", m, {"type": "text", "text": m.text})
        case ThinkingMessage():
            return _line("ContentPart", m, {"type": "think", "think": m.thinking})
        case ToolUseMessage():
            text = m.arguments if m.arguments is not None else json.dumps(raw(m.input))
            function = {"name": m.name, "arguments": text}
            return _line("ToolCall", m, {"type": "function", "id": m.id, "function": function})
        case ToolResultMessage():
            value: dict[str, Any] = {"is_error": bool(m.is_error)}
            if "output" not in _kept_result(m):  # else the output as written (not text)
                value["output"] = content_text(m.content, policy)
            return _line("ToolResult", m, {"tool_call_id": m.tool_use_id, "return_value": value})
        case ResultMessage() if m.subtype == "status" and m.usage is not None:
            payload: dict[str, Any] = {"token_usage": ev.usage_out(m.usage, _TOKENS)}
            if m.message_id is not None:
                payload["message_id"] = m.message_id
            return _line("StatusUpdate", m, payload)
    return refuse_other(m, "Kimi CLI's wire has no event", policy, _encode)


def _kept_result(m: Message) -> Any:
    """The ``return_value`` keys a decoded ToolResult line kept in its mirror."""
    found: Any = m.extra
    for key in ("message", "payload", "return_value"):
        found = found.get(key) if isinstance(found, FrozenDict | dict) else None
    return found if isinstance(found, FrozenDict | dict) else {}


def _written(m: Message, policy: Policy) -> Any:
    found = cx.kept(m)  # a context.jsonl record, written back as it was
    return _encode(m, policy) if found is None else found


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one wire (or context) line: ``encode(decode(x)) == x``."""
    return thaw(_written(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Kimi CLI wire record (or its metadata line).

    Of a ``context.jsonl``, only Kimi CLI's own records (``_system_prompt``, ``_checkpoint``,
    ``_usage``) are claimed: its messages have the shape many formats share.
    """
    if type(obj) is not dict:
        return False
    body = obj.get("message")
    if type(body) is dict:
        return (
            type(body.get("type")) is str
            and body["type"] in EVENTS
            and type(body.get("payload")) is dict
            and "type" not in obj
            and "role" not in body
        )
    if obj.get("type") == "metadata":
        return "protocol_version" in obj
    return cx.is_bookkeeping(obj)  # context.jsonl: its own records, not its messages


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a wire file lazily."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as wire lines, one per message."""

    def native(m: Message) -> bool:
        return (
            not isinstance(m, ROLE_TYPES)
            or (isinstance(m, UserMessage) and isinstance(m.content, str))
            or cx.kept(m) is not None
        )

    return ev.write_lines(messages, _written, unsupported, NAME, native)
