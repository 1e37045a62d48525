"""Copilot events to messages: one reader per event type, the tool-call bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_bool
from ..._core.wire import opt_int
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import TextMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...usage import Usage
from .. import _events as ev
from . import shutdown as cs
from . import turn as ct

__all__ = ["NAME", "USAGE", "decode"]


NAME: Final = "copilot"
"""The source name of this adapter."""

_USER: Final = frozenset(("content",))
_COMPLETE: Final = frozenset(("toolCallId", "success", "model", "result", "error"))
USAGE: Final = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "cacheReadTokens": "cache_read_tokens",
    "cacheWriteTokens": "cache_write_tokens",
    "reasoningTokens": "reasoning_tokens",
}
"""An ``assistant.usage`` event's token counts, and the :class:`Usage` field each one is."""
_USAGE: Final = frozenset(("model", *USAGE, "duration"))
_START: Final = frozenset(("sessionId", "model", "context"))
_CWD: Final = frozenset(("cwd",))
_SESSION_ERROR: Final = frozenset(("message", "errorType"))
_RESULT: Final = frozenset(("type", "timestamp", "sessionId", "exitCode", "usage"))
_RUN: Final = frozenset(("sessionDurationMs", "totalApiDurationMs"))
_EXEC_START: Final = frozenset(("toolCallId", "toolName", "arguments", "model"))
_START_ENVELOPE: Final = frozenset(("type", "data", "id", "timestamp"))
_EXEC: Final = "tool.execution_start"

# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_text: Final = maker(TextMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_stream: Final = maker(StreamEventMessage)


def _user(d: dict[str, Any], data: dict[str, Any]) -> Message:
    text = need_str(data, "content", "$.data")
    uuid = opt_str(d, "id")
    timestamp = opt_time(d)
    extra = ct.mirror(d, rest(data, _USER))
    return _new_text(text, None, "user", uuid, None, None, None, None, timestamp, extra)


def _complete(d: dict[str, Any], data: dict[str, Any]) -> Message:
    at = "$.data"
    success = opt_bool(data, "success", at)
    data_rest = rest(data, _COMPLETE) or {}
    # a failure's text is error.message, any other outcome's result.content
    key, field = ("error", "message") if success is False else ("result", "content")
    other = "result" if key == "error" else "error"
    if other in data:
        data_rest[other] = data[other]
    content = ""
    holder = data.get(key, MISSING)
    if type(holder) is dict:
        text = opt_str(holder, field, f"{at}.{key}")
        content = text or ""
        sub = rest(holder, frozenset((field,)))
        if text == "":
            sub = sub or {}
            sub[field] = ""
        if sub or not content:
            data_rest[key] = sub or {}
    elif holder is not MISSING:
        data_rest[key] = holder
    call = need_str(data, "toolCallId", at)
    model = opt_str(data, "model", at)
    uuid = opt_str(d, "id")
    timestamp = opt_time(d)
    extra = ct.mirror(d, data_rest)
    is_error = None if success is None else not success
    return _new_tool_result(
        call, content, is_error, None, "tool", uuid, None, None, model, None, timestamp, extra
    )


def _usage(d: dict[str, Any], data: dict[str, Any]) -> Message:
    at = "$.data"
    usage = Usage(**ev.counts_in(data, USAGE, at), extra=EMPTY)  # the rest: the event's
    return ResultMessage(
        usage=usage,
        duration_api_ms=opt_num(data, "duration", at),
        model=opt_str(data, "model", at),
        uuid=opt_str(d, "id"),
        timestamp=opt_time(d),
        extra=ct.mirror(d, rest(data, _USAGE)),
    )


def _start(d: dict[str, Any], data: dict[str, Any]) -> Message:
    data_rest = rest(data, _START)
    context = opt_obj(data, "context", "$.data")
    cwd = None
    if context is not None:
        cwd = opt_str(context, "cwd", "$.data.context")
        sub = rest(context, _CWD)
        if sub or cwd is None:
            data_rest = data_rest or {}
            data_rest["context"] = sub or {}
    return InitMessage(
        cwd=cwd,
        session_id=opt_str(data, "sessionId", "$.data"),
        model=opt_str(data, "model", "$.data"),
        uuid=opt_str(d, "id"),
        timestamp=opt_time(d),
        extra=ct.mirror(d, data_rest),
    )


def _session_error(d: dict[str, Any], data: dict[str, Any]) -> Message:
    return ErrorMessage(
        need_str(data, "message", "$.data"),
        code=opt_str(data, "errorType", "$.data"),
        uuid=opt_str(d, "id"),
        timestamp=opt_time(d),
        extra=ct.mirror(d, rest(data, _SESSION_ERROR)),
    )


def _result(d: dict[str, Any]) -> Message:
    top = rest(d, _RESULT)
    code = opt_int(d, "exitCode")
    if code is not None and code not in (0, 1):  # the encoder writes 0 or 1 from is_error
        top = top or {}
        top["exitCode"] = code
    usage = opt_obj(d, "usage")
    duration = api = None
    if usage is not None:
        duration = opt_num(usage, "sessionDurationMs", "$.usage")
        api = opt_num(usage, "totalApiDurationMs", "$.usage")
        sub = rest(usage, _RUN)
        if sub or (duration is None and api is None):
            top = top or {}
            top["usage"] = sub or {}
    return ResultMessage(
        is_error=None if code is None else code != 0,
        duration_ms=duration,
        duration_api_ms=api,
        session_id=opt_str(d, "sessionId"),
        timestamp=opt_time(d),
        extra=ev.frozen(top),
    )


def _start_call(d: dict[str, Any], data: dict[str, Any]) -> Message:
    """``tool.execution_start``: the call, for a stream that announces it nowhere else."""
    block = ct.request(data, "$.data", name_key="toolName", known=_EXEC_START)
    top = rest(d, _START_ENVELOPE)
    top["type"] = "tool.execution_start"  # the encoder writes this event back, not a turn
    if block.extra:
        top["data"] = raw(block.extra)
    return ToolUseMessage(
        block.id,
        block.name,
        block.input,
        arguments=block.arguments,
        model=opt_str(data, "model", "$.data"),
        uuid=opt_str(d, "id"),
        timestamp=opt_time(d),
        extra=wrap_owned(top),
    )


def _event(d: dict[str, Any], data: dict[str, Any]) -> Message:
    uuid, timestamp = d.get("id"), d.get("timestamp")
    message_id, session_id = data.get("messageId"), data.get("sessionId")
    return _new_stream(
        wrap_owned(d),
        uuid if type(uuid) is str else None,
        session_id if type(session_id) is str else None,
        None,
        None,
        message_id if type(message_id) is str else None,
        timestamp if type(timestamp) is str else None,
        EMPTY,
    )


def _shutdown(d: dict[str, Any], data: dict[str, Any]) -> Message:
    """``session.shutdown``: its per-model totals as a result (see :mod:`.shutdown`)."""
    found = cs.result(d, data)
    return _event(d, data) if found is None else found


_DECODERS: Final[dict[str, Callable[[dict[str, Any], dict[str, Any]], Message]]] = {
    "user.message": _user,
    "assistant.message": ct.assistant,
    "tool.execution_complete": _complete,
    "tool.execution_start": _start_call,
    "assistant.usage": _usage,
    "session.start": _start,
    "session.error": _session_error,
    cs.KIND: _shutdown,
}


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    tag = obj.get("type")
    if type(tag) is str and "." in tag:
        data = obj.get("data", MISSING)
        decoder = _DECODERS.get(tag)
        if decoder is not None:
            if type(data) is not dict:
                raise fail("an object", data, "data")
            return decoder(obj, data)
        if type(data) is dict:
            return _event(obj, data)
    elif tag == "result" and "exitCode" in obj:  # without one it is no Copilot line
        return _result(obj)
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One Copilot CLI JSON line to one message (the value is copied first).

    >>> decode({"type": "tool.execution_complete", "data": {"success": True}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: copilot: $.data.toolCallId: expected a string, found nothing
    """
    return ev.decoding(_decode, obj, NAME)
