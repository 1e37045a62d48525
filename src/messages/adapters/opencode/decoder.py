"""OpenCode run events to messages: one reader per event type."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Container
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ..._core.wire import type_name
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...events.run import ErrorMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...usage import Usage
from .. import _events as ev
from .. import _opencode_shape as oc

__all__ = ["NAME", "decode"]


NAME: Final = "opencode"
"""The source name of this adapter."""

_TOP: Final = frozenset(("type", "timestamp", "sessionID", "part"))
_ERROR_TOP: Final = frozenset(("type", "timestamp", "sessionID", "error"))
_PART: Final = frozenset(("id", "messageID", "type"))
_TEXT: Final = _PART | {"text"}
_TOOL: Final = _PART | {"callID", "tool", "state"}
_FINISH: Final = _PART | {"reason", "cost", "tokens"}
_FINISHED: Final = {
    "output": frozenset(("status", "input", "output")),
    "error": frozenset(("status", "input", "error")),
}
_RUNNING: Final = frozenset(("status", "input"))
_UNFINISHED: Final = frozenset(("input",))
_EVENTS: Final = frozenset(("step_start", "done"))
_PART_EVENTS: Final = frozenset(("step_start", "step_finish", "text", "reasoning", "tool_use"))


def _part(d: dict[str, Any], tag: str) -> dict[str, Any]:
    part = need_obj(d, "part")
    found = part.get("type", MISSING)
    if found != tag:
        what = repr(found) if type(found) is str else type_name(found)
        raise DecodeError(f"expected {tag!r}, found {what}", path="$.part.type", value=found)
    return part


def _context(d: dict[str, Any], part: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    """The context of an event: uuid, session_id, message_id and timestamp, checked."""
    return (
        opt_str(part, "id", "$.part"),
        opt_str(d, "sessionID"),
        opt_str(part, "messageID", "$.part"),
        opt_time(d),
    )


# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_text: Final = maker(TextMessage)
_new_thinking: Final = maker(ThinkingMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_use_block: Final = maker(ToolUseBlock)
_new_tool_result: Final = maker(ToolResultMessage)
_new_result_block: Final = maker(ToolResultBlock)


def _mirror(d: dict[str, Any], part_rest: dict[str, Any] | None) -> FrozenDict:
    return ev.mirror(d, _TOP, "part", part_rest)


def _text(d: dict[str, Any]) -> Message:
    part = _part(d, "text")
    text = need_str(part, "text", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    extra = _mirror(d, rest(part, _TEXT))
    return _new_text(text, None, "assistant", uuid, sid, None, None, mid, ts, extra)


def _reasoning(d: dict[str, Any]) -> Message:
    part = _part(d, "reasoning")
    text = need_str(part, "text", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    extra = _mirror(d, rest(part, _TEXT))
    return _new_thinking(
        text, None, False, None, "assistant", uuid, sid, None, None, mid, ts, extra
    )


def _tool(d: dict[str, Any], seen: Container[str] = frozenset()) -> Message:
    part = _part(d, "tool")
    call = need_str(part, "callID", "$.part")
    tool = need_str(part, "tool", "$.part")
    state = need_obj(part, "state", "$.part")
    status = need_str(state, "status", "$.part.state")
    args = wrap_owned(need_obj(state, "input", "$.part.state"))
    uuid, sid, mid, ts = _context(d, part)
    part_rest = rest(part, _TOOL)
    finished = status in ("completed", "error")
    key = "output" if status == "completed" else "error"
    # the encoder writes "running" for an unfinished call; any other status is kept
    known = _FINISHED[key] if finished else _RUNNING if status == "running" else _UNFINISHED
    state_rest = rest(state, known)
    if state_rest:
        part_rest = part_rest or {}
        part_rest["state"] = state_rest
    if not finished:
        extra = _mirror(d, part_rest)
        return _new_tool_use(
            call, tool, args, None, "assistant", uuid, sid, None, None, mid, ts, extra
        )
    body = need_str(state, key, "$.part.state")
    if call in seen:  # the call was given already (a running part): its result alone
        part_rest = part_rest or {}
        part_rest.setdefault("state", {})["input"] = state["input"]
        extra = _mirror(d, part_rest)
        return _new_tool_result(
            call, body, status == "error", tool, "tool", uuid, sid, None, None, mid, ts, extra
        )
    blocks = (
        _new_use_block(call, tool, args, None, EMPTY),
        _new_result_block(call, body, status == "error", tool, EMPTY),
    )
    extra = _mirror(d, part_rest)
    return _new_assistant(blocks, None, None, None, uuid, sid, None, None, mid, ts, extra)


def _usage(part: dict[str, Any], part_rest: dict[str, Any]) -> Usage | None:
    tokens = opt_obj(part, "tokens", "$.part")
    usage, empty = oc.usage_of(tokens, opt_num(part, "cost", "$.part"), "$.part.tokens")
    if empty:  # an empty tokens object: written back from the mirror
        part_rest["tokens"] = {}
    return usage


def _finish(d: dict[str, Any]) -> Message:
    part = _part(d, "step-finish")
    part_rest = rest(part, _FINISH) or {}
    usage = _usage(part, part_rest)
    reason = opt_str(part, "reason", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    return ResultMessage(
        subtype=reason,
        usage=usage,
        uuid=uuid,
        session_id=sid,
        message_id=mid,
        timestamp=ts,
        extra=_mirror(d, part_rest),
    )


def _error(d: dict[str, Any]) -> Message:
    err = need_obj(d, "error")
    code = opt_str(err, "name", "$.error")
    data = opt_obj(err, "data", "$.error")
    err_rest = rest(err, frozenset(("name", "data")))
    message = ""
    if data is not None:
        found = data.get("message")
        if type(found) is str:
            message = found
        elif found is not None:
            raise fail("a string", found, at="$.error.data.message")
        data_rest = rest(data, frozenset(("message",)))
        if found == "":
            data_rest = data_rest or {}
            data_rest["message"] = ""
        if data_rest or not message:
            err_rest = err_rest or {}
            err_rest["data"] = data_rest or {}
    top = rest(d, _ERROR_TOP)
    if err_rest:
        top = top or {}
        top["error"] = err_rest
    return ErrorMessage(
        message,
        code=code,
        session_id=opt_str(d, "sessionID"),
        timestamp=opt_time(d),
        extra=ev.frozen(top),
    )


def _event(d: dict[str, Any]) -> Message:
    part = d.get("part")
    if type(part) is dict:
        uuid, sid, mid, ts = _context(d, part)
        return _new_stream(wrap_owned(d), uuid, sid, None, None, mid, ts, EMPTY)
    return StreamEventMessage(
        wrap_owned(d), session_id=opt_str(d, "sessionID"), timestamp=opt_time(d)
    )


_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "text": _text,
    "reasoning": _reasoning,
    "tool_use": _tool,
    "step_finish": _finish,
    "error": _error,
    "step_start": _event,
    "done": _event,
}


def _decode(obj: Any) -> Message:
    return ev.dispatch(obj, _DECODERS)


def decode(obj: Any) -> Message:
    """One ``opencode run --format json`` event to one message (the value is copied first).

    >>> decode({"type": "text", "part": {"type": "reasoning", "text": "hm"}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: opencode: $.part.type: expected 'text', found 'reasoning'
    """
    return ev.decoding(_decode, obj, NAME)
