"""GitHub Copilot CLI ``copilot -p ... --output-format json``: one session event per line.

Each line is ``{"type", "data", "id", "timestamp", "parentId", "ephemeral"?}``; the run ends
with ``{"type": "result", "sessionId", "exitCode", "usage"}``. The mapping (see
``docs/adapters/copilot.md`` for the full table):

- ``user.message`` -> :class:`TextMessage` (user);
- ``assistant.message`` -> one :class:`AssistantMessage`: a :class:`ThinkingBlock`
  (``reasoningText``, ``reasoningOpaque`` as signature), a :class:`TextBlock` (``content``)
  and a :class:`ToolUseBlock` per ``toolRequests`` entry, ``outputTokens`` as usage;
- ``tool.execution_complete`` -> :class:`ToolResultMessage` (``success``, ``result.content``
  or ``error.message``);
- ``session.start`` -> :class:`InitMessage`; ``session.error`` -> :class:`ErrorMessage`;
- ``assistant.usage`` -> :class:`ResultMessage` with the call's :class:`Usage`; the final
  ``result`` line -> :class:`ResultMessage` (``exitCode`` gives ``is_error``);
- ``tool.execution_start`` -> :class:`ToolUseMessage` (``toolCallId``, ``toolName``,
  ``arguments``) when the stream has not announced the call before: Copilot CLI 1.0.x runs
  announce some calls (``task_complete``) only there. When the call came first in an
  ``assistant.message``'s ``toolRequests``, :func:`iter_decode` keeps this event as a
  :class:`StreamEventMessage`, so each call reads once (and the other way round);
- every other session event -> :class:`StreamEventMessage`, verbatim. That includes the
  ephemeral ``assistant.message_delta`` and ``assistant.reasoning(_delta)`` events: they
  preview what the ``assistant.message`` that follows holds in full, so the flat view does
  not repeat them;
- any other line -> :class:`RawMessage`.

>>> m = decode({"type": "user.message", "data": {"content": "hi"}, "id": "e1"})
>>> m.text, m.role, m.uuid
('hi', 'user', 'e1')
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
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
from ...blocks import ToolUseBlock
from ...convert import message_to_block
from ...events.agent import CompactBoundaryMessage
from ...events.agent import ConversationResetMessage
from ...events.agent import HookEventMessage
from ...events.agent import RateLimitMessage
from ...events.agent import StatusMessage
from ...events.agent import SystemEventMessage
from ...events.agent import TaskEventMessage
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import QueueOperationMessage
from ...events.records import TitleMessage
from ...events.records import TurnContextMessage
from ...events.records import TurnEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import DocumentMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import ServerToolResultMessage
from ...flat import ServerToolUseMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...flat import VideoMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._common import content_text
from .._common import refuse
from . import turn as ct

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "copilot"
"""The source name of this adapter."""

_USER: Final = frozenset(("content",))
_COMPLETE: Final = frozenset(("toolCallId", "success", "model", "result", "error"))
_USAGE: Final = frozenset(
    (
        "model",
        "inputTokens",
        "outputTokens",
        "cacheReadTokens",
        "cacheWriteTokens",
        "reasoningTokens",
        "duration",
    )
)
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
    usage = Usage(
        opt_int(data, "inputTokens", at),
        opt_int(data, "outputTokens", at),
        opt_int(data, "cacheReadTokens", at),
        opt_int(data, "cacheWriteTokens", at),
        reasoning_tokens=opt_int(data, "reasoningTokens", at),
    )
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


_DECODERS: Final[dict[str, Callable[[dict[str, Any], dict[str, Any]], Message]]] = {
    "user.message": _user,
    "assistant.message": ct.assistant,
    "tool.execution_complete": _complete,
    "tool.execution_start": _start_call,
    "assistant.usage": _usage,
    "session.start": _start,
    "session.error": _session_error,
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


def _is_usage(m: ResultMessage) -> bool:
    """A result that only reports a call's usage is an ``assistant.usage`` event."""
    return (
        m.usage is not None
        and m.subtype is None
        and m.is_error is None
        and m.duration_ms is None
        and m.session_id is None
    )


def _result_out(m: ResultMessage) -> dict[str, Any]:
    if _is_usage(m):
        u = m.usage
        assert u is not None
        data: dict[str, Any] = {}
        if m.model is not None:
            data["model"] = m.model
        for key, value in (
            ("inputTokens", u.input_tokens),
            ("outputTokens", u.output_tokens),
            ("cacheReadTokens", u.cache_read_tokens),
            ("cacheWriteTokens", u.cache_write_tokens),
            ("reasoningTokens", u.reasoning_tokens),
            ("duration", m.duration_api_ms),
        ):
            if value is not None:
                data[key] = value
        return ct.event_out("assistant.usage", m, data)
    out: dict[str, Any] = {"type": "result"}
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp
    if m.session_id is not None:
        out["sessionId"] = m.session_id
    out["exitCode"] = int(bool(m.is_error))  # a decoded line keeps any other code in extra
    usage: dict[str, Any] = {}
    if m.duration_api_ms is not None:
        usage["totalApiDurationMs"] = m.duration_api_ms
    if m.duration_ms is not None:
        usage["sessionDurationMs"] = m.duration_ms
    if usage:
        out["usage"] = usage
    return out


def _own_event(event: dict[str, Any]) -> bool:
    """Whether a stream event holds a line this decoder keeps as a session event."""
    tag = event.get("type")
    return (
        type(tag) is str
        and "." in tag
        and (tag not in _DECODERS or tag == _EXEC)  # a start whose call was announced before
        and type(event.get("data")) is dict
    )


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case TextMessage() if m.role == "user":
            if m.citations is not None:
                why = "Copilot messages carry no citations"
                refuse(m, why, policy, degrade=False)
            out = ct.event_out("user.message", m, {"content": m.text})
        case ToolUseMessage() if m.extra.get("type") == _EXEC:
            data: dict[str, Any] = {"toolCallId": m.id, "toolName": m.name}
            if m.arguments is not None:
                data["arguments"] = m.arguments
            elif m.input:
                data["arguments"] = raw(m.input)
            if m.model is not None:
                data["model"] = m.model
            out = ct.event_out(_EXEC, m, data)
        case TextMessage() | ThinkingMessage() | ToolUseMessage() if m.role == "assistant":
            if isinstance(m, TextMessage) and m.citations is not None:
                why = "Copilot messages carry no citations"
                refuse(m, why, policy, degrade=False)
            turn = AssistantMessage(
                (message_to_block(m),),
                uuid=m.uuid,
                session_id=m.session_id,
                parent_tool_use_id=m.parent_tool_use_id,
                model=m.model,
                message_id=m.message_id,
                timestamp=m.timestamp,
            )
            out = ct.assistant_out(turn)
        case TextMessage() | ThinkingMessage() | ToolUseMessage():
            why = f"Copilot has no event for {m.kind} from the {m.role} role"
            refuse(m, why, policy, degrade=False)
            return None
        case AssistantMessage() if ct.carried(m):
            out = ct.assistant_out(m)
        case ToolResultMessage():
            data = {"toolCallId": m.tool_use_id}
            if m.model is not None:
                data["model"] = m.model
            if m.is_error is not None:
                data["success"] = not m.is_error
            text = content_text(m.content, policy)
            if text:
                data["error" if m.is_error else "result"] = {
                    "message" if m.is_error else "content": text
                }
            out = ct.event_out("tool.execution_complete", m, data)
        case InitMessage():
            data = {}
            if m.session_id is not None:
                data["sessionId"] = m.session_id
            if m.model is not None:
                data["model"] = m.model
            if m.cwd is not None:
                data["context"] = {"cwd": m.cwd}
            out = ct.event_out("session.start", m, data)
        case ErrorMessage():
            data = {"message": m.message}
            if m.code is not None:
                data["errorType"] = m.code
            out = ct.event_out("session.error", m, data)
        case ResultMessage():
            out = _result_out(m)
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)  # type: ignore[no-any-return]
        case StreamEventMessage() if _own_event(raw(m.event)):
            return raw(m.event)  # type: ignore[no-any-return]
        case (
            RawMessage()
            | ImageMessage()
            | AudioMessage()
            | DocumentMessage()
            | VideoMessage()
            | ServerToolUseMessage()
            | ServerToolResultMessage()
        ):
            alt = refuse(m, f"Copilot has no event for {m.kind} content", policy)
            return None if alt is None else _encode(alt, policy)
        case (
            StreamEventMessage()
            | InvalidLineMessage()
            | CompactBoundaryMessage()
            | HookEventMessage()
            | RateLimitMessage()
            | StatusMessage()
            | SystemEventMessage()
            | ConversationResetMessage()
            | FileSnapshotMessage()
            | ProgressMessage()
            | QueueOperationMessage()
            | TitleMessage()
            | TurnContextMessage()
            | TurnEventMessage()
            | TaskEventMessage()
        ):
            why = f"Copilot has no event for a {m.kind} message"
            refuse(m, why, policy, degrade=False)
            return None
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:
            assert_never(m)
    return ev.finish(out, m.extra)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Copilot JSON line (a fresh dict): ``encode(decode(x)) == x``.

    From other sources: assistant text, thinking and tool calls become an
    ``assistant.message``, user text a ``user.message``, tool results
    ``tool.execution_complete``, init ``session.start``, errors ``session.error``; a result
    that only reports usage becomes ``assistant.usage``, any other the final ``result``.
    Images, audio, raw content, system text and foreign stream events raise
    :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"`` or ``"text"``.

    >>> encode(ToolResultMessage("call_1", "ok", is_error=False))
    {'type': 'tool.execution_complete', 'data': {'toolCallId': 'call_1', 'success': True, 'result': {'content': 'ok'}}}
    """  # noqa: E501
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Copilot CLI session event or its final result line.

    Codex ``exec --json`` also uses dotted types (``item.completed``) but never a ``data``
    object; Claude Code and Gemini CLI results have no ``exitCode``.
    """
    if type(obj) is not dict or _base.is_native(obj):
        return False
    tag = obj.get("type")
    if type(tag) is str and "." in tag:
        return type(obj.get("data")) is dict
    return tag == "result" and "exitCode" in obj


def _reader() -> Callable[[Any], Message]:
    """A decoder that gives each tool call once, where the stream first announces it.

    A call may be announced in an ``assistant.message``'s ``toolRequests``, in a
    ``tool.execution_start``, or both. The first announcement gives the call; a later
    ``tool.execution_start`` of it is kept as a stream event, and a later ``toolRequests``
    entry for it stays in the turn's ``extra`` (written back where it was).
    """
    announced: set[str] = set()

    def read(obj: Any) -> Message:
        if type(obj) is dict and obj.get("type") == _EXEC:
            data = obj.get("data")
            call = data.get("toolCallId") if type(data) is dict else None
            if type(call) is str and call in announced:
                return _event(obj, data)  # type: ignore[arg-type]
        message = _decode(obj)
        cls = type(message)  # (final classes: type checks are isinstance checks)
        if cls is ToolUseMessage:
            announced.add(message.id)  # type: ignore[union-attr]
        elif cls is AssistantMessage and type(message.content) is tuple:  # type: ignore[union-attr]
            uses = [b.id for b in message.content if type(b) is ToolUseBlock]  # type: ignore[union-attr]
            if uses:
                if not announced.isdisjoint(uses):
                    message = ct.without_calls(
                        message,  # type: ignore[arg-type]
                        announced,
                        obj["data"]["toolRequests"],
                    )
                announced.update(uses)
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; lines that are not JSON become InvalidLineMessage.

    Each tool call is given once, where the stream first announces it (see
    :func:`_reader`); a lone :func:`decode` of a ``tool.execution_start`` always gives the
    call.
    """
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def _native(m: Message) -> bool:
    if isinstance(m, AssistantMessage):
        return ct.carried(m)
    return not isinstance(m, (SystemMessage, UserMessage, ToolMessage))


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as wire lines; other role messages become one event per block."""
    policy = Policy(unsupported, NAME)

    def one(m: Message) -> Any:
        return thaw(_encode(m, policy))

    return ev.lines(messages, one, native=_native)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Pass messages through: Copilot writes each assistant message whole.

    Its deltas are previews kept as stream events, so there is nothing to join; consecutive
    assistant records of one message id are still combined, as everywhere.
    """
    return _base.merge_deltas(messages, is_delta=lambda m: False)
