"""Messages to Gemini CLI stream-json events: the closest event for each, refusals by the policy."""

from __future__ import annotations

from typing import Any

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import present
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
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
from .._common import refuse_content
from .._common import refuse_other
from . import document as doc
from .decoder import _STATUS
from .decoder import NAME

__all__ = ["encode"]


def _head(kind: str, timestamp: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if timestamp is not None:
        out["timestamp"] = timestamp
    return out


def _status(m: ResultMessage) -> str:
    if m.subtype in _STATUS or (m.is_error is None and m.subtype is not None):
        return m.subtype
    return "error" if m.is_error else "success"


def _stats(m: ResultMessage) -> dict[str, Any]:
    u = m.usage
    if u is None:
        return present(duration_ms=m.duration_ms)
    out = present(
        input=u.input_tokens,
        output_tokens=u.output_tokens,
        cached=u.cache_read_tokens,
        duration_ms=m.duration_ms,
    )
    return ev.overlay(out, u.extra)


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    if m.extra and doc.KEY in m.extra and doc.part_of(m) is not None:
        return doc.encode_parts((m,))
    match m:
        case TextMessage():
            if m.citations is not None:
                refuse(m, "Gemini CLI messages carry no citations", policy, degrade=False)
            out = _head("message", m.timestamp)
            out["role"] = m.role
            out["content"] = m.text
        case ToolUseMessage():
            if m.invalid_arguments:
                why = "tool arguments that are not a JSON object cannot be carried"
                refuse(m, why, policy, degrade=False)
            out = _head("tool_use", m.timestamp)
            out["tool_name"] = m.name
            out["tool_id"] = m.id
            out["parameters"] = raw(m.input)
        case ToolResultMessage():
            out = _head("tool_result", m.timestamp)
            out["tool_id"] = m.tool_use_id
            out["status"] = "error" if m.is_error else "success"
            text = content_text(m.content, policy)
            if text:
                out["output"] = text
        case InitMessage():
            out = _head("init", m.timestamp)
            if m.session_id is not None:
                out["session_id"] = m.session_id
            if m.model is not None:
                out["model"] = m.model
        case ErrorMessage():
            out = _head("error", m.timestamp)
            out["severity"] = "error"  # a decoded event keeps its own in extra
            out["message"] = m.message
        case ResultMessage():
            out = _head("result", m.timestamp)
            out["status"] = _status(m)
            if m.usage is not None or m.duration_ms is not None:
                out["stats"] = _stats(m)
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)  # type: ignore[no-any-return]
        case ThinkingMessage():
            why = "Gemini CLI has no event for thinking content"
            return refuse_content(m, why, policy, _encode)
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:  # raw content, media, server tools; stream events, an agent's own records
            return refuse_other(m, "Gemini CLI has no event", policy, _encode)
    return ev.finish(out, m.extra)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Gemini CLI event (a fresh dict): ``encode(decode(x)) == x``.

    Messages from other sources map to the closest event. Thinking, images, audio, raw
    content and stream events have none: they raise :class:`UnsupportedContentError`, or
    with ``unsupported="drop"`` give ``None``, or with ``"text"`` become a text message
    (stream events are dropped). A role message must hold exactly one block (use
    :func:`iter_encode` for more).

    >>> encode(TextMessage("hi", role="user"))
    {'type': 'message', 'role': 'user', 'content': 'hi'}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))
