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

from .._json import EMPTY, FrozenDict, _expose
from .._model import maker
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


_new_assistant: Final = maker(AssistantMessage)
_new_user: Final = maker(UserMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_usage: Final = maker(Usage)

_STREAM_EXTRA: Final = FrozenDict._own({"type": "stream_event", "parent_tool_use_id": None})
"""The extra of almost every stream_event line, shared rather than built per line."""

_Context = tuple[Any, Any, Any, Any]
"""uuid, session_id, parent_tool_use_id, timestamp."""


def _rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Keys of ``d`` not in ``known``, plus known keys whose value is null (kept for replay)."""
    return {k: v for k, v in d.items() if k not in known or v is None}


def _checked_context(obj: dict[str, Any]) -> _Context:
    """The context with checked reads: raises with the path of an ill-typed field."""
    sid_key = "sessionId" if "sessionId" in obj else "session_id"
    return (
        opt_str(obj, "uuid"),
        opt_str(obj, sid_key),
        opt_str(obj, "parent_tool_use_id"),
        opt_timestamp(obj, "timestamp"),
    )


def _context(obj: dict[str, Any]) -> dict[str, Any]:
    """The context fields of a line as keywords (transcripts: session id from ``sessionId``)."""
    uuid, sid, parent, ts = _checked_context(obj)
    return {"uuid": uuid, "session_id": sid, "parent_tool_use_id": parent, "timestamp": ts}


def _split(obj: dict[str, Any], more: tuple[str, ...] = ()) -> tuple[dict[str, Any], _Context]:
    """The line's context, and a copy of the line without the context fields that are set.

    A null context field stays in the copy (for exact replay); a transcript's ``sessionId``
    stays too. Keys named in ``more`` are removed from the copy unless null, like context.
    """
    rest = obj.copy()
    pop = rest.pop
    uuid = pop("uuid", None)
    sid = obj["sessionId"] if "sessionId" in obj else pop("session_id", None)
    parent = obj.get("parent_tool_use_id")
    ts = obj.get("timestamp")
    if not (
        (uuid is None or type(uuid) is str)
        and (sid is None or type(sid) is str)
        and (parent is None or type(parent) is str)
        and (ts is None or type(ts) in _TIMESTAMP_TYPES)
    ):
        return rest, _checked_context(obj)  # raises, naming the ill-typed field
    if uuid is None and "uuid" in obj:
        rest["uuid"] = None
    if sid is None and "session_id" in obj:
        rest["session_id"] = None
    if parent is not None:
        del rest["parent_tool_use_id"]
    if ts is not None:
        del rest["timestamp"]
    for key in more:
        if rest.get(key) is not None:
            del rest[key]
    return rest, (uuid, sid, parent, ts)


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
    rest = d.copy()
    pop = rest.pop
    inp = pop("input_tokens", None)
    out = pop("output_tokens", None)
    read = pop("cache_read_input_tokens", None)
    write = pop("cache_creation_input_tokens", None)
    if not (
        (inp is None or type(inp) is int)
        and (out is None or type(out) is int)
        and (read is None or type(read) is int)
        and (write is None or type(write) is int)
    ):
        for key in _USAGE:
            opt_int(d, key)  # raises, naming the ill-typed field
    if inp is None and "input_tokens" in d:
        rest["input_tokens"] = None
    if out is None and "output_tokens" in d:
        rest["output_tokens"] = None
    if read is None and "cache_read_input_tokens" in d:
        rest["cache_read_input_tokens"] = None
    if write is None and "cache_creation_input_tokens" in d:
        rest["cache_creation_input_tokens"] = None
    return _new_usage(inp, out, read, write, None, None, FrozenDict._own(rest) if rest else EMPTY)


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
        rest = inner.copy()
        del rest["content"]
        pop = rest.pop
        model = pop("model", None)
        message_id = pop("id", None)
        stop_reason = pop("stop_reason", None)
        if not (
            (model is None or type(model) is str)
            and (message_id is None or type(message_id) is str)
            and (stop_reason is None or type(stop_reason) is str)
        ):
            opt_str(inner, "model"), opt_str(inner, "id"), opt_str(inner, "stop_reason")
    except DecodeError as exc:
        raise exc.within(".message") from None
    if usage is not None:
        del rest["usage"]
    if model is None and "model" in inner:
        rest["model"] = None
    if message_id is None and "id" in inner:
        rest["id"] = None
    if stop_reason is None and "stop_reason" in inner:
        rest["stop_reason"] = None
    error = obj.get("error")
    if error is not None and type(error) is not str:
        raise fail("a string", error, "error")
    extra, (uuid, sid, parent, ts) = _split(obj, ("error",))
    extra["message"] = rest
    return _new_assistant(
        content,
        usage,
        stop_reason,
        error,
        uuid,
        sid,
        parent,
        model,
        message_id,
        ts,
        FrozenDict._own(extra),
    )


def _user(obj: dict[str, Any]) -> Message:
    inner = _inner(obj)
    if inner is None:
        return _raw(obj)
    try:
        content = _content(inner)
    except DecodeError as exc:
        raise exc.within(".message") from None
    rest = inner.copy()
    del rest["content"]
    extra, (uuid, sid, parent, ts) = _split(obj)
    extra["message"] = rest
    return _new_user(content, uuid, sid, parent, None, None, ts, FrozenDict._own(extra))


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
    rest, (uuid, sid, parent, ts) = _split(obj)
    del rest["event"]
    extra = _STREAM_EXTRA if rest == _STREAM_EXTRA._d else FrozenDict._own(rest)
    return _new_stream(FrozenDict._own(event), uuid, sid, parent, None, None, ts, extra)


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
