"""Messages to Copilot events: the closest event for each message, refusals by the policy."""

from __future__ import annotations

from typing import Any

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import present
from ...convert import message_to_block
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _events as ev
from .._common import content_text
from .._common import refuse
from .._common import refuse_other
from . import shutdown as cs
from . import turn as ct
from .decoder import _DECODERS
from .decoder import _EXEC
from .decoder import NAME
from .decoder import USAGE

__all__ = ["encode"]


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
    if cs.is_shutdown(m):
        return cs.event_out(m)
    if _is_usage(m):
        u = m.usage
        assert u is not None
        data = present(model=m.model, **ev.counts_out(u, USAGE), duration=m.duration_api_ms)
        return ct.event_out("assistant.usage", m, data)
    out: dict[str, Any] = {"type": "result"}
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp
    if m.session_id is not None:
        out["sessionId"] = m.session_id
    out["exitCode"] = int(bool(m.is_error))  # a decoded line keeps any other code in extra
    usage = present(totalApiDurationMs=m.duration_api_ms, sessionDurationMs=m.duration_ms)
    if usage:
        out["usage"] = usage
    return out


def _own_event(event: dict[str, Any]) -> bool:
    """Whether a stream event holds a line this decoder keeps as a session event."""
    tag = event.get("type")
    return (
        type(tag) is str
        and "." in tag
        # a start whose call was announced before, a shutdown without per-model totals
        and (tag not in _DECODERS or tag in (_EXEC, cs.KIND))
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
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:  # raw content, media, server tools; stream events, an agent's own records
            return refuse_other(m, "Copilot has no event", policy, _encode)
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
