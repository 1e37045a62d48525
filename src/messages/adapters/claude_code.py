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
from dataclasses import replace
from typing import Any, Final, assert_never

from .. import _anthropic
from .._json import EMPTY, FrozenDict, _expose, raw
from .._wire import fail, opt_bool, opt_float, opt_int, opt_num, opt_str
from ..blocks import AudioBlock, Block, RawBlock, TextBlock, ThinkingBlock
from ..convert import message_to_block
from ..errors import DecodeError
from ..flat import (
    AudioMessage,
    ImageMessage,
    RawMessage,
    TextMessage,
    ThinkingMessage,
    ToolResultMessage,
    ToolUseMessage,
)
from ..message import Message
from ..providers._base import Unsupported
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ..session import (
    ErrorMessage,
    InitMessage,
    InvalidLineMessage,
    ResultMessage,
    StreamEventMessage,
)
from ..usage import Usage
from . import _base
from ._common import decode_content, describe_block, foreign, is_native, opt_timestamp, plain
from ._common import reject as _reject

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "claude_code"
"""The format name used in errors and by the command line."""

_CTX: Final = ("uuid", "session_id", "parent_tool_use_id", "timestamp")
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
_SYNTHETIC_MODEL: Final = "<synthetic>"


def _rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Keys of ``d`` not in ``known``, plus known keys whose value is null (kept for replay)."""
    return {k: v for k, v in d.items() if k not in known or v is None}


def _context(obj: dict[str, Any]) -> dict[str, Any]:
    """The context fields of a line (transcripts: session id from ``sessionId``)."""
    return {
        "uuid": opt_str(obj, "uuid"),
        "session_id": opt_str(obj, "sessionId" if "sessionId" in obj else "session_id"),
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


# -- encoding -------------------------------------------------------------------------------


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if usage.input_tokens is not None:
        out["input_tokens"] = usage.input_tokens
    if usage.cache_write_tokens is not None:
        out["cache_creation_input_tokens"] = usage.cache_write_tokens
    if usage.cache_read_tokens is not None:
        out["cache_read_input_tokens"] = usage.cache_read_tokens
    if usage.output_tokens is not None:
        out["output_tokens"] = usage.output_tokens
    if usage.extra:
        out.update(raw(usage.extra))
    return out


def _carry(content: str | tuple[Block, ...], policy: Unsupported) -> str | tuple[Block, ...]:
    """Content from another source, with blocks Claude cannot take rejected, dropped or texted.

    Audio has no Anthropic block; a thinking signature issued by another provider would be
    refused by the API, so such a block is not carried either.
    """
    if isinstance(content, str):
        return content
    out: list[Block] = []
    changed = False
    for block in content:
        if isinstance(block, AudioBlock) or (
            isinstance(block, ThinkingBlock)
            and block.signature is not None
            and block.provider not in (None, "anthropic")
        ):
            what = "audio" if isinstance(block, AudioBlock) else f"{block.provider} thinking"
            _reject(f"{what} blocks", block, source=NAME, policy=policy)
            changed = True
            if policy == "text":
                out.append(TextBlock(describe_block(block)))
            continue
        out.append(block)
    return tuple(out) if changed else content


def _own(extra: Any, tag: str) -> dict[str, Any]:
    """The plain form of ``extra`` when it belongs to a Claude Code ``tag`` line, else ``{}``."""
    if foreign(extra, tag):
        return {}
    plain_extra: dict[str, Any] = raw(extra)
    return plain_extra


def _put_context(out: dict[str, Any], m: Message, extra: dict[str, Any]) -> None:
    if m.session_id is not None and "sessionId" not in extra:
        out["session_id"] = m.session_id
    if m.parent_tool_use_id is not None:
        out["parent_tool_use_id"] = m.parent_tool_use_id
    if m.uuid is not None:
        out["uuid"] = m.uuid
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp


def _role_line(m: AssistantMessage | UserMessage, tag: str, policy: Unsupported) -> dict[str, Any]:
    ex = _own(m.extra, tag)
    inner_ex = ex.get("message")
    inner: dict[str, Any] = {}
    if type(inner_ex) is not dict:
        inner_ex = None
        content = _carry(m.content, policy)
    else:
        content = m.content
    if isinstance(m, AssistantMessage):
        if m.model is not None:
            inner["model"] = m.model
        if m.message_id is not None:
            inner["id"] = m.message_id
        if inner_ex is None:
            inner["type"] = "message"
    if inner_ex is None:
        inner["role"] = tag
    inner["content"] = content if isinstance(content, str) else _anthropic.encode_blocks(content)
    if isinstance(m, AssistantMessage):
        if m.stop_reason is not None:
            inner["stop_reason"] = m.stop_reason
        if m.usage is not None:
            inner["usage"] = _encode_usage(m.usage)
    if inner_ex:
        inner.update(inner_ex)
    out: dict[str, Any] = {"type": tag}
    _put_context(out, m, ex)
    if isinstance(m, AssistantMessage) and m.error is not None:
        out["error"] = m.error
    out.update(ex)
    out["message"] = inner
    return out


def _flat(
    m: TextMessage
    | ThinkingMessage
    | ToolUseMessage
    | ToolResultMessage
    | ImageMessage
    | AudioMessage
    | RawMessage,
    policy: Unsupported,
) -> Any:
    """A flat message as a one-block assistant or user line."""
    if isinstance(m, RawMessage):
        block: Block = RawBlock(m.data)
    else:
        block = message_to_block(m)
        if foreign(m.extra, ()) and not isinstance(block, RawBlock):
            block = replace(block, extra=EMPTY)
    context: dict[str, Any] = {
        "uuid": m.uuid,
        "session_id": m.session_id,
        "parent_tool_use_id": m.parent_tool_use_id,
        "model": m.model,
        "message_id": m.message_id,
        "timestamp": m.timestamp,
    }
    if m.role == "assistant":
        return _role_line(AssistantMessage((block,), **context), "assistant", policy)
    if m.role in ("system", "developer"):
        return _system_prompt(m.role, (block,), context, policy)
    return _role_line(UserMessage((block,), **context), "user", policy)


def _system_prompt(
    role: str, content: str | tuple[Block, ...], context: dict[str, Any], policy: Unsupported
) -> Any:
    """Claude Code writes no system prompt lines: reject, drop, or send the text as a user line."""
    _reject(f"{role} messages", content, source=NAME, policy=policy)
    if policy == "drop":
        return None
    text = content if isinstance(content, str) else "\n".join(describe_block(b) for b in content)
    return _role_line(UserMessage(text, **context), "user", policy)


def _result_line(m: ResultMessage) -> dict[str, Any]:
    ex = _own(m.extra, "result")
    out: dict[str, Any] = {"type": "result"}
    if m.subtype is not None:
        out["subtype"] = m.subtype
    if m.is_error is not None:
        out["is_error"] = m.is_error
    if m.duration_ms is not None:
        out["duration_ms"] = m.duration_ms
    if m.duration_api_ms is not None:
        out["duration_api_ms"] = m.duration_api_ms
    if m.num_turns is not None:
        out["num_turns"] = m.num_turns
    if m.result is not None:
        out["result"] = m.result
    if m.total_cost_usd is not None:
        out["total_cost_usd"] = m.total_cost_usd
    if m.usage is not None:
        out["usage"] = _encode_usage(m.usage)
    if m.structured_output is not None:
        out["structured_output"] = raw(m.structured_output)
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _init_line(m: InitMessage) -> dict[str, Any]:
    ex = _own(m.extra, "system")
    out: dict[str, Any] = {"type": "system", "subtype": "init"}
    if m.cwd is not None:
        out["cwd"] = m.cwd
    if m.tools is not None:
        out["tools"] = raw(m.tools)
    if m.model is not None:
        out["model"] = m.model
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _stream_line(m: StreamEventMessage) -> dict[str, Any]:
    ex = _own(m.extra, "stream_event")
    out: dict[str, Any] = {"type": "stream_event", "event": raw(m.event)}
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _encode(m: Message, policy: Unsupported) -> Any:
    """A message to its wire object (sharing nested values with it); ``None`` when dropped."""
    match m:
        case AssistantMessage():
            return _role_line(m, "assistant", policy)
        case UserMessage():
            return _role_line(m, "user", policy)
        case ToolMessage():
            context: dict[str, Any] = {
                "uuid": m.uuid,
                "session_id": m.session_id,
                "parent_tool_use_id": m.parent_tool_use_id,
                "timestamp": m.timestamp,
            }
            return _role_line(UserMessage(m.content, **context), "user", policy)
        case SystemMessage():
            context = {
                "uuid": m.uuid,
                "session_id": m.session_id,
                "parent_tool_use_id": m.parent_tool_use_id,
                "timestamp": m.timestamp,
            }
            return _system_prompt(m.role, m.content, context, policy)
        case RawMessage() if m.role is None:
            return raw(m.data)
        case (
            TextMessage()
            | ThinkingMessage()
            | ToolUseMessage()
            | ToolResultMessage()
            | ImageMessage()
            | AudioMessage()
            | RawMessage()
        ):
            return _flat(m, policy)
        case ResultMessage():
            return _result_line(m)
        case InitMessage():
            return _init_line(m)
        case StreamEventMessage():
            return _stream_line(m)
        case ErrorMessage():
            line = AssistantMessage(
                (TextBlock(m.message),),
                error=m.code or "unknown",
                model=m.model or _SYNTHETIC_MODEL,
                uuid=m.uuid,
                session_id=m.session_id,
                parent_tool_use_id=m.parent_tool_use_id,
                message_id=m.message_id,
                timestamp=m.timestamp,
            )
            return _role_line(line, "assistant", policy)
        case InvalidLineMessage():
            _reject("invalid lines (iter_encode writes their text)", m, source=NAME, policy=policy)
            return None
        case _:
            assert_never(m)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh Claude Code line object; ``encode(decode(x)) == x``.

    Messages from other sources become the closest line (see docs/adapters/claude_code.md);
    content Claude Code cannot carry raises :class:`UnsupportedContentError` unless
    ``unsupported`` is ``"drop"`` (the result may then be ``None``: nothing to write) or
    ``"text"``.
    """
    return plain(_encode(message, unsupported))


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
        obj = _encode(message, unsupported)
        if obj is not None:
            yield _base.encode_line(_const(obj), message)
