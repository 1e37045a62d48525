"""Reading one ``cursor-agent --output-format stream-json`` line.

What a message does not model stays in its ``extra`` (the line's other keys; for ``user`` and
``assistant`` lines the nested message's under ``"message"``; for tool calls the payload
under ``"tool_call"``), and the writer puts it back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.jsontext import parse_arguments
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_bool
from ..._core.wire import opt_num
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...errors import DecodeError
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import _events as ev
from .._common import decode_content

__all__ = ["INIT_MARKS", "SUFFIX", "TEXT_ONLY", "decode_line", "result_text"]

SUFFIX: Final = "ToolCall"
"""How a tool call's payload key ends (``shellToolCall``, ``readToolCall``...)."""

_CONTEXT: Final = ("type", "session_id", "model_call_id", "timestamp_ms")
TEXT_ONLY: Final = (TextBlock, RawBlock)
"""The blocks of a turn written as one line (the writer splits any other into events, so a
line holding another is kept whole)."""
INIT_MARKS: Final = ("apiKeySource", "permissionMode")
"""An init line names one of these: what a Cursor init is written with, so one without
either is kept whole (it could not be written back as it came)."""
_RESULT_TEXT: Final = ("content", "interleavedOutput", "stdout", "output", "message", "error")


def _context(d: dict[str, Any]) -> tuple[str | None, str | None, Any]:
    """session_id, model_call_id (as message_id) and timestamp_ms, checked."""
    return opt_str(d, "session_id"), opt_str(d, "model_call_id"), opt_time(d, "timestamp_ms")


def _kept(d: dict[str, Any], used: tuple[str, ...]) -> list[str]:
    """The modelled keys that carry a value; the others stay in extra, to be written back.

    A null stays, and so does a ``timestamp_ms`` that is not an integer.
    """
    found = [k for k in used if d.get(k) is not None or k == "type"]
    if "timestamp_ms" in found and type(d["timestamp_ms"]) is not int:
        found.remove("timestamp_ms")  # the writer writes an integer: another value stays
    return found


def _init(d: dict[str, Any]) -> Message:
    if d.get("subtype") != "init" or not any(k in d for k in INIT_MARKS):
        return ev.raw_line(d)
    sid, _, ts = _context(d)
    used = ("type", "subtype", "session_id", "cwd", "model")
    return InitMessage(
        cwd=opt_str(d, "cwd"),
        model=opt_str(d, "model"),
        session_id=sid,
        timestamp=ts,
        extra=ev.frozen(ev.left(d, _kept(d, used))),
    )


def _turn(d: dict[str, Any]) -> Message:
    message = need_obj(d, "message")
    if "role" not in message:
        return ev.raw_line(d)  # written with a role: without one, kept whole
    content = message.get("content")
    if type(content) is not list:
        raise fail("an array", content, "content", "$.message")
    try:
        blocks = decode_content(content)
    except DecodeError as exc:
        raise exc.within(".message.content") from None
    if not all(isinstance(b, TEXT_ONLY) for b in blocks):
        return ev.raw_line(d)  # Cursor's turns hold text: another is kept whole, as it came
    sid, mid, ts = _context(d)
    top = ev.left(d, [*_kept(d, _CONTEXT), "message"])
    same = message.get("role") == d["type"]  # else the role is kept, to be written back
    inner = ev.left(message, ("role", "content") if same else ("content",))
    if inner:
        top["message"] = inner
    extra = ev.frozen(top)
    if d["type"] == "user":
        return UserMessage(blocks, session_id=sid, message_id=mid, timestamp=ts, extra=extra)
    return AssistantMessage(blocks, session_id=sid, message_id=mid, timestamp=ts, extra=extra)


def _thinking(d: dict[str, Any]) -> Message:
    sid, mid, ts = _context(d)
    if d.get("subtype") == "delta":
        text = need_str(d, "text")
        extra = ev.frozen(ev.left(d, [*_kept(d, _CONTEXT), "text"]))
        return ThinkingMessage(
            text, role="assistant", session_id=sid, message_id=mid, timestamp=ts, extra=extra
        )
    return StreamEventMessage(wrap_owned(d), session_id=sid, message_id=mid, timestamp=ts)


def _payload(d: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The tool call's kind key and its object, when ``tool_call`` holds exactly one."""
    call = d.get("tool_call")
    if type(call) is not dict or len(call) != 1:
        return None
    ((key, body),) = call.items()
    if type(body) is not dict:
        return None
    return key, body


def result_text(result: Any) -> tuple[str, bool | None]:
    """The text of a tool's outcome, and whether it failed (``success`` or anything else).

    The first string among a few well-known keys (``content``, ``interleavedOutput``,
    ``stdout``...) of the outcome object, else the object as compact JSON.
    """
    if type(result) is not dict or len(result) == 0:
        return "", None
    key = "success" if "success" in result else next(iter(result))
    value = result[key]
    failed = key != "success"
    if type(value) is str:
        return value, failed
    if type(value) is dict:
        for name in _RESULT_TEXT:
            found = value.get(name)
            if type(found) is str and found:
                return found, failed
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")), failed


def _tool_call(d: dict[str, Any]) -> Message:
    call = need_str(d, "call_id")
    found = _payload(d)
    subtype = d.get("subtype")
    if found is None or subtype not in ("started", "completed"):
        return ev.raw_line(d)
    key, body = found
    sid, mid, ts = _context(d)
    name = key[: -len(SUFFIX)] if key.endswith(SUFFIX) and len(key) > len(SUFFIX) else key
    if type(body.get("name")) is str and not key.endswith(SUFFIX):
        name = body["name"]
    args = body.get("args")
    top = ev.left(d, [*_kept(d, _CONTEXT), "call_id", "subtype", "tool_call"])
    if subtype == "started":
        text = body.get("arguments")  # a function tool's arguments, as JSON text
        text = text if type(text) is str else None
        taken: tuple[str, ...] = ()
        if type(args) is dict:
            taken = ("args",) if args else ()  # an empty object stays in extra
        else:
            args = (parse_arguments(text) or {}) if text is not None else {}
        if text is not None:
            taken = (*taken, "arguments")
        top["tool_call"] = {key: ev.left(body, taken)}
        return ToolUseMessage(
            call,
            name,
            wrap_owned(args),
            arguments=text,
            role="assistant",
            session_id=sid,
            message_id=mid,
            timestamp=ts,
            extra=ev.frozen(top),
        )
    top["tool_call"] = d["tool_call"]  # the call and its outcome, whole: content is a view
    text, failed = result_text(body.get("result"))
    return ToolResultMessage(
        call,
        text,
        is_error=failed,
        name=name,
        session_id=sid,
        message_id=mid,
        timestamp=ts,
        extra=ev.frozen(top),
    )


def _result(d: dict[str, Any]) -> Message:
    sid, mid, ts = _context(d)
    used = (
        *_CONTEXT,
        "subtype",
        "result",
        "is_error",
        "duration_ms",
        "duration_api_ms",
    )
    return ResultMessage(
        subtype=opt_str(d, "subtype"),
        result=opt_str(d, "result"),
        is_error=opt_bool(d, "is_error"),
        duration_ms=opt_num(d, "duration_ms"),
        duration_api_ms=opt_num(d, "duration_api_ms"),
        session_id=sid,
        message_id=mid,
        timestamp=ts,
        extra=ev.frozen(ev.left(d, _kept(d, used))),
    )


_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "system": _init,
    "user": _turn,
    "assistant": _turn,
    "thinking": _thinking,
    "tool_call": _tool_call,
    "result": _result,
}


def decode_line(obj: Any) -> Message:
    """One owned Cursor line to one message; a line of an unknown type is kept whole.

    So is a line without a key the writer always writes (every line's ``session_id``, a
    result's ``request_id``): typed, it would come back with that key added.
    """
    if type(obj) is dict and (
        "session_id" not in obj or ("request_id" not in obj and obj.get("type") == "result")
    ):
        return ev.raw_line(obj)
    return ev.dispatch(obj, _DECODERS)
