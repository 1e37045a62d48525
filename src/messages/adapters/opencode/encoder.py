"""Messages to OpenCode run events: the closest event for each one, refusals by the policy."""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import present
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...events.run import ErrorMessage
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
from .. import _opencode_shape as oc
from .._common import refuse
from .._common import refuse_other
from .._common import tool_pair
from .decoder import _EVENTS
from .decoder import NAME

__all__ = ["encode"]


def _envelope(kind: str, m: Message) -> dict[str, Any]:
    return {"type": kind, **present(timestamp=m.timestamp, sessionID=m.session_id)}


def _part_out(out: dict[str, Any], tag: str, m: Message) -> dict[str, Any]:
    part: dict[str, Any] = {}
    if m.uuid is not None:
        part["id"] = m.uuid
    if m.message_id is not None:
        part["messageID"] = m.message_id
    part["type"] = tag
    out["part"] = part
    return part


def _tool_event(
    m: Message, use: ToolUseBlock, result: ToolResultBlock | None, policy: Policy
) -> Any:
    out = _envelope("tool_use", m)
    part = _part_out(out, "tool", m)
    part["callID"] = use.id
    part["tool"] = use.name
    part["state"] = oc.tool_state(use, result, policy)
    return out


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case TextMessage() | ThinkingMessage():
            if m.role != "assistant":
                why = f"OpenCode run output has no {m.role} {m.kind} event"
                refuse(m, why, policy, degrade=False)
                return None
            if isinstance(m, TextMessage):
                if m.citations is not None:
                    why = "OpenCode text parts carry no citations"
                    refuse(m, why, policy, degrade=False)
                out = _envelope("text", m)
                _part_out(out, "text", m)["text"] = m.text
            else:
                out = _envelope("reasoning", m)
                _part_out(out, "reasoning", m)["text"] = m.thinking
        case ToolUseMessage():
            block = ToolUseBlock(m.id, m.name, m.input)
            out = _tool_event(m, block, None, policy)
        case ToolResultMessage():
            use = ToolUseBlock(m.tool_use_id, m.name or "")
            result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
            out = _tool_event(m, use, result, policy)
        case AssistantMessage() if tool_pair(m) is not None:
            use, result = tool_pair(m)  # type: ignore[misc]
            out = _tool_event(m, use, result, policy)
        case ResultMessage():
            out = _envelope("step_finish", m)
            part = _part_out(out, "step-finish", m)
            if m.subtype is not None:
                part["reason"] = m.subtype
            u = m.usage
            if u is not None:
                if u.cost_usd is not None:
                    part["cost"] = u.cost_usd
                tokens = oc.tokens_of(u)
                if tokens or u.extra:
                    part["tokens"] = ev.overlay(tokens, u.extra)
        case ErrorMessage():
            out = _envelope("error", m)
            err: dict[str, Any] = {}
            if m.code is not None:
                err["name"] = m.code
            if m.message:
                err["data"] = {"message": m.message}
            out["error"] = err
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)  # type: ignore[no-any-return]
        case StreamEventMessage() if raw(m.event).get("type") in _EVENTS:
            return raw(m.event)  # type: ignore[no-any-return]
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:  # raw content, media, server tools; stream events, inits, an agent's records
            target = "OpenCode run output has no event"
            return refuse_other(m, target, policy, _encode, content="OpenCode has no event")
    return ev.finish(out, m.extra)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one OpenCode event (a fresh dict): ``encode(decode(x)) == x``.

    Messages from other sources map to the closest event: a lone ToolUseMessage becomes a
    ``running`` tool part, a lone ToolResultMessage a finished tool part with empty input
    (:func:`iter_encode` pairs a call with its result), a ResultMessage a ``step_finish``.
    User or system text, init, images, audio, raw content and foreign stream events have no
    event: they raise :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"``
    (gives ``None``) or ``"text"`` (media and raw content become assistant text).

    >>> encode(ToolUseMessage("call_1", "bash", {"command": "ls"}))["part"]["state"]
    {'status': 'running', 'input': {'command': 'ls'}}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


_WAIT: Final = 10_000
"""How many messages may wait behind a tool call for its result before the call is written
as ``running`` in its place."""
