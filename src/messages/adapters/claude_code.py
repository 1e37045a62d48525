"""Claude Code ``claude -p --output-format stream-json --verbose`` lines, and session transcripts.

One JSON object per line, dispatched on its ``type``:

- ``assistant`` -> :class:`AssistantMessage` (blocks through the Anthropic block codec, usage,
  stop reason, ``error``); ``user`` -> :class:`UserMessage`;
- ``result`` -> :class:`ResultMessage`; ``system``/``init`` -> :class:`InitMessage`;
- ``stream_event`` -> :class:`StreamEventMessage`;
- every other line (other ``system`` subtypes, ``rate_limit_event``, ``control_request``,
  ``control_response``, transcript ``summary`` lines, recorder lines, unknown types) ->
  :class:`RawMessage` holding the line verbatim, with its context fields filled in.

Session transcripts (``~/.claude/projects/*/*.jsonl``) use the same records with camelCase
context (``sessionId``, ``parentUuid``, ``isSidechain``...); they are recognised by their
``sessionId`` key, which stays in ``extra`` and is also read into ``session_id``.

The line's ``type`` always stays in ``extra``; so does everything not modelled (for role
messages the unmodelled keys of the nested ``message`` object live in ``extra["message"]``).
``decode`` takes over the object it is given (nested values are shared, not copied): pass it
a freshly parsed line and do not change that object afterwards. See docs/adapters/claude_code.md.

>>> import json
>>> line = '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"4"}]}}'
>>> m = decode(json.loads(line))
>>> m.text, m.message_id
('4', 'msg_1')
>>> encode(m) == json.loads(line)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from .._json import FrozenDict, _expose
from .._wire import fail, opt_bool, opt_float, opt_int, opt_num, opt_str
from ..blocks import Block
from ..errors import DecodeError
from ..flat import (
    RawMessage,
)
from ..message import Message
from ..providers._base import Unsupported
from ..roles import AssistantMessage, UserMessage
from ..session import (
    InitMessage,
    InvalidLineMessage,
    ResultMessage,
    StreamEventMessage,
)
from ..usage import Usage
from . import _base
from ._claude_encode import encode_message
from ._common import decode_content, is_native, opt_timestamp, plain

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "claude_code"
"""The format name used in errors and by the command line."""

_CTX: Final = ("uuid", "session_id", "parent_tool_use_id", "timestamp")
_TIMESTAMP_TYPES: Final = (str, int, float)
_ASSISTANT: Final = frozenset((*_CTX, "message", "error"))
_ASSISTANT_INNER: Final = frozenset(("content", "model", "id", "stop_reason", "usage"))
_USER: Final = frozenset((*_CTX, "message"))
_USER_INNER: Final = frozenset(("content",))
_RESULT: Final = frozenset(
    (
        *_CTX,
        "subtype",
        "result",
        "is_error",
        "duration_ms",
        "duration_api_ms",
        "num_turns",
        "total_cost_usd",
        "usage",
        "structured_output",
    )
)
_INIT: Final = frozenset((*_CTX, "cwd", "tools", "model"))
_STREAM: Final = frozenset((*_CTX, "event"))
_USAGE: Final = frozenset(
    ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
)
_LINE_TYPES: Final = frozenset(
    (
        "rate_limit_event",
        "control_request",
        "control_response",
        "control_cancel_request",
        "keep_alive",
        "tool_progress",
        "auth_status",
    )
)


def _rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Keys of ``d`` not in ``known``, plus known keys whose value is null (kept for replay)."""
    return {k: v for k, v in d.items() if k not in known or v is None}


def _context(obj: dict[str, Any]) -> dict[str, Any]:
    """The context fields of a line (transcripts: session id from ``sessionId``)."""
    get = obj.get
    sid_key = "sessionId" if "sessionId" in obj else "session_id"
    uuid, sid, parent, ts = get("uuid"), get(sid_key), get("parent_tool_use_id"), get("timestamp")
    if (
        (uuid is None or type(uuid) is str)
        and (sid is None or type(sid) is str)
        and (parent is None or type(parent) is str)
        and (ts is None or type(ts) in _TIMESTAMP_TYPES)
    ):
        return {"uuid": uuid, "session_id": sid, "parent_tool_use_id": parent, "timestamp": ts}
    return {  # slow path: one of them is ill-typed, let the checked reads say which
        "uuid": opt_str(obj, "uuid"),
        "session_id": opt_str(obj, sid_key),
        "parent_tool_use_id": opt_str(obj, "parent_tool_use_id"),
        "timestamp": opt_timestamp(obj, "timestamp"),
    }


def _raw(obj: Any) -> RawMessage:
    """A line kept verbatim, with whatever context fields it has that are well typed."""
    if type(obj) is not dict:
        return RawMessage(_expose(obj))
    try:
        context = _context(obj)
    except DecodeError:
        context = {}
    return RawMessage(FrozenDict._own(obj), **context)


def _usage(d: dict[str, Any]) -> Usage:
    return Usage(
        opt_int(d, "input_tokens"),
        opt_int(d, "output_tokens"),
        opt_int(d, "cache_read_input_tokens"),
        opt_int(d, "cache_creation_input_tokens"),
        extra=FrozenDict._own(_rest(d, _USAGE)),
    )


def _opt_usage(d: dict[str, Any]) -> Usage | None:
    u = d.get("usage")
    if u is None:
        return None
    if type(u) is not dict:
        raise fail("an object", u, "usage")
    try:
        return _usage(u)
    except DecodeError as exc:
        raise exc.within(".usage") from None


def _content(inner: dict[str, Any]) -> str | tuple[Block, ...]:
    content = inner["content"]
    if type(content) is str:
        return content
    if type(content) is not list:
        raise fail("a string or an array of blocks", content, "content")
    try:
        return decode_content(content)
    except DecodeError as exc:
        raise exc.within(".content") from None


def _inner(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The nested ``message`` object; ``None`` when it (or its content) is missing."""
    inner = obj.get("message")
    if inner is None and "message" not in obj:
        return None
    if type(inner) is not dict:
        raise fail("an object", inner, "message")
    return inner if "content" in inner else None


def _assistant(obj: dict[str, Any]) -> Message:
    inner = _inner(obj)
    if inner is None:
        return _raw(obj)
    try:
        content = _content(inner)
        usage = _opt_usage(inner)
        model = opt_str(inner, "model")
        message_id = opt_str(inner, "id")
        stop_reason = opt_str(inner, "stop_reason")
    except DecodeError as exc:
        raise exc.within(".message") from None
    extra = _rest(obj, _ASSISTANT)
    extra["message"] = _rest(inner, _ASSISTANT_INNER)
    return AssistantMessage(
        content,
        usage=usage,
        stop_reason=stop_reason,
        error=opt_str(obj, "error"),
        model=model,
        message_id=message_id,
        extra=FrozenDict._own(extra),
        **_context(obj),
    )


def _user(obj: dict[str, Any]) -> Message:
    inner = _inner(obj)
    if inner is None:
        return _raw(obj)
    try:
        content = _content(inner)
    except DecodeError as exc:
        raise exc.within(".message") from None
    extra = _rest(obj, _USER)
    extra["message"] = _rest(inner, _USER_INNER)
    return UserMessage(content, extra=FrozenDict._own(extra), **_context(obj))


def _result(obj: dict[str, Any]) -> Message:
    structured = obj.get("structured_output")
    return ResultMessage(
        subtype=opt_str(obj, "subtype"),
        result=opt_str(obj, "result"),
        is_error=opt_bool(obj, "is_error"),
        duration_ms=opt_num(obj, "duration_ms"),
        duration_api_ms=opt_num(obj, "duration_api_ms"),
        num_turns=opt_int(obj, "num_turns"),
        total_cost_usd=opt_float(obj, "total_cost_usd"),
        usage=_opt_usage(obj),
        structured_output=None if structured is None else _expose(structured),
        extra=FrozenDict._own(_rest(obj, _RESULT)),
        **_context(obj),
    )


def _system(obj: dict[str, Any]) -> Message:
    if obj.get("subtype") != "init":
        return _raw(obj)
    tools = obj.get("tools")
    if tools is not None and type(tools) is not list:
        raise fail("an array", tools, "tools")
    return InitMessage(
        cwd=opt_str(obj, "cwd"),
        tools=None if tools is None else tuple([_expose(t) for t in tools]),
        model=opt_str(obj, "model"),
        extra=FrozenDict._own(_rest(obj, _INIT)),
        **_context(obj),
    )


def _stream_event(obj: dict[str, Any]) -> Message:
    event = obj.get("event")
    if event is None and "event" not in obj:
        return _raw(obj)
    if type(event) is not dict:
        raise fail("an object", event, "event")
    return StreamEventMessage(
        FrozenDict._own(event), extra=FrozenDict._own(_rest(obj, _STREAM)), **_context(obj)
    )


_DECODERS: Final = {
    "assistant": _assistant,
    "user": _user,
    "result": _result,
    "system": _system,
    "stream_event": _stream_event,
}


def decode(obj: Any) -> Message:
    """One parsed Claude Code line (stream-json or transcript) to one message.

    Unknown line types and shapes this module does not model become :class:`RawMessage`;
    a known field of the wrong type raises :class:`DecodeError` with its path.
    """
    if type(obj) is not dict:
        return RawMessage(_expose(obj))
    tag = obj.get("type")
    decoder = _DECODERS.get(tag) if type(tag) is str else None
    if decoder is None or ("sessionId" in obj and "session_id" in obj):
        return _raw(obj)
    try:
        return decoder(obj)
    except DecodeError as exc:
        if exc.source is None:
            exc.source = NAME
        raise


def detect(obj: Any) -> bool:
    """Whether a parsed line looks like Claude Code output (stream-json or transcript)."""
    if type(obj) is not dict or is_native(obj):
        return False
    tag = obj.get("type")
    if tag in ("assistant", "user"):
        return type(obj.get("message")) is dict
    if tag == "system":
        return "subtype" in obj
    if tag == "result":
        return "subtype" in obj or "is_error" in obj
    if tag == "stream_event":
        return "event" in obj
    if tag in _LINE_TYPES:
        return True
    if tag == "summary":
        return "leafUuid" in obj
    return type(tag) is str and "sessionId" in obj and "parentUuid" in obj


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode Claude Code lines lazily; bad lines become InvalidLineMessage unless ``strict``."""
    return _base.iter_decode(decode, lines, source=NAME, strict=strict)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive assistant records that share a ``message.id`` into one message."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh Claude Code line object; ``encode(decode(x)) == x``.

    Messages from other sources become the closest line (see docs/adapters/claude_code.md);
    content Claude Code cannot carry raises :class:`UnsupportedContentError` unless
    ``unsupported`` is ``"drop"`` (the result may then be ``None``: nothing to write) or
    ``"text"``.
    """
    return plain(encode_message(message, unsupported))


def _const(obj: Any) -> Callable[[Message], Any]:
    """An encoder that returns an already encoded object (for ``_base.encode_line``)."""
    return lambda _message: obj


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages to Claude Code lines (without line endings); dropped messages write nothing."""
    for message in messages:
        if isinstance(message, InvalidLineMessage):
            yield message.text
            continue
        obj = encode_message(message, unsupported)
        if obj is not None:
            yield _base.encode_line(_const(obj), message)
