"""Gemini CLI stream-json events to messages: one reader per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.fields import ROLES
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...flat import TextMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...usage import Usage
from .. import _events as ev
from . import document as doc

__all__ = ["NAME", "decode"]


NAME: Final = "gemini_cli"
"""The source name of this adapter."""

_INIT: Final = frozenset(("type", "timestamp", "session_id", "model"))
_MESSAGE: Final = frozenset(("type", "timestamp", "role", "content"))
_TOOL_USE: Final = frozenset(("type", "timestamp", "tool_name", "tool_id", "parameters"))
_TOOL_RESULT: Final = frozenset(("type", "timestamp", "tool_id", "status", "output"))
_ERROR: Final = frozenset(("type", "timestamp", "message"))
_RESULT: Final = frozenset(("type", "timestamp", "status", "stats"))
_STATS: Final = frozenset(("input", "output_tokens", "cached", "duration_ms"))
_STATUS: Final[dict[str, bool]] = {"success": False, "error": True}

# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_init: Final = maker(InitMessage)
_new_text: Final = maker(TextMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_error: Final = maker(ErrorMessage)
_new_result: Final = maker(ResultMessage)
_new_usage: Final = maker(Usage)


def _context(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """An event's timestamp and the fields its reader leaves (``known`` aside), by name."""
    return {"timestamp": opt_time(d), "extra": ev.frozen(rest(d, known))}


def _init(d: dict[str, Any]) -> Message:
    session_id = opt_str(d, "session_id")
    model = opt_str(d, "model")
    return _new_init(session_id=session_id, model=model, **_context(d, _INIT))


def _message(d: dict[str, Any]) -> Message:
    role = need_str(d, "role")
    text = need_str(d, "content")
    if role not in ROLES:
        return ev.raw_line(d)
    return _new_text(text, None, role, **_context(d, _MESSAGE))


def _tool_use(d: dict[str, Any]) -> Message:
    call_id = need_str(d, "tool_id")
    name = need_str(d, "tool_name")
    args = wrap_owned(need_obj(d, "parameters"))
    return _new_tool_use(call_id, name, args, **_context(d, _TOOL_USE))


def _tool_result(d: dict[str, Any]) -> Message:
    tool_id = need_str(d, "tool_id")
    status = need_str(d, "status")
    output = d.get("output", MISSING)
    if output is MISSING:
        content = ""
    elif type(output) is str:
        content = output
    else:
        raise fail("a string", output, "output")
    is_error = _STATUS.get(status)
    mirror = rest(d, _TOOL_RESULT)
    if is_error is None or output == "":  # written back only from the mirror
        mirror = mirror or {}
        if is_error is None:
            mirror["status"] = status
        if output == "":
            mirror["output"] = ""
    timestamp = opt_time(d)
    return _new_tool_result(
        tool_id, content, is_error, timestamp=timestamp, extra=ev.frozen(mirror)
    )


def _error(d: dict[str, Any]) -> Message:
    if "severity" not in d:  # not a Gemini CLI error event (detect says so): kept whole
        return ev.raw_line(d)
    message = need_str(d, "message")
    return _new_error(message, **_context(d, _ERROR))


def _result(d: dict[str, Any]) -> Message:
    status = need_str(d, "status")
    stats = opt_obj(d, "stats")
    usage = duration = None
    if stats is not None:
        duration = opt_num(stats, "duration_ms", "$.stats")
        inp = opt_int(stats, "input", "$.stats")
        out = opt_int(stats, "output_tokens", "$.stats")
        cached = opt_int(stats, "cached", "$.stats")
        usage = _new_usage(inp, out, cached, None, None, None, ev.frozen(rest(stats, _STATS)))
    is_error = _STATUS.get(status)
    return _new_result(status, None, is_error, duration, usage=usage, **_context(d, _RESULT))


_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "init": _init,
    "message": _message,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "error": _error,
    "result": _result,
}


def _decode(obj: Any) -> Message:
    if type(obj) is dict and obj.get("type") is None and doc.is_document(obj):
        return doc.decode_whole(obj)  # a saved chat: one JSON document, no type
    return ev.dispatch(obj, _DECODERS)


def _read(obj: Any) -> Any:
    """The stream reader's decoder: a JSON document gives its parts (a tuple)."""
    if type(obj) is dict and "type" not in obj and doc.is_document(obj):
        return doc.decode_parts(obj)
    return _decode(obj)


def decode(obj: Any) -> Message:
    """One Gemini CLI event (parsed JSON) to one message; unknown types become RawMessage.

    The value is copied first. A known event with a missing or mistyped field raises
    :class:`DecodeError` with the path to it:

    >>> decode({"type": "message", "role": "user"})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: gemini_cli: $.content: expected a string, found nothing
    """
    return ev.decoding(_decode, obj, NAME)
