"""Messages to Codex exec --json events: items of its own kinds, the rest degraded by the policy."""

from __future__ import annotations

from typing import Any

from ..._core.frozen import raw
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...convert import block_to_message
from ...convert import context_of
from ...errors import EncodeError
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
from ...roles import as_blocks
from .._common import plain
from .._common import refuse
from .app import encode_app
from .decoder import _EXEC_TYPES
from .decoder import _ITEM_EVENTS
from .decoder import _OWN_RECORDS
from .decoder import NAME
from .decoder import _Calls
from .decoder import detect
from .items import encode_item
from .items import encode_tool_item
from .items import encode_usage
from .rollout import TYPES as ROLLOUT_TYPES
from .rollout import encode_rollout

__all__ = ["encode"]


def _own_exec(m: Message, ex: dict[str, Any]) -> dict[str, Any] | None:
    """A message decoded from an exec event back to it; ``None`` if ``m`` does not fit."""
    tag = ex.get("type")
    out: dict[str, Any] = {"type": tag}
    if tag in _ITEM_EVENTS:
        item_rest = ex.get("item")
        item = encode_item(m, item_rest if type(item_rest) is dict else None, False)
        if item is None:
            return None
        out.update(ex)
        out["item"] = item
        return out
    if tag == "thread.started" and isinstance(m, InitMessage):
        if m.session_id is not None:
            out["thread_id"] = m.session_id
    elif tag == "turn.completed" and isinstance(m, ResultMessage):
        if m.usage is not None:
            out["usage"] = encode_usage(m.usage)
    elif tag == "turn.failed" and isinstance(m, ResultMessage):
        error: dict[str, Any] = {} if m.result is None else {"message": m.result}
        error_rest = ex.get("error")
        if type(error_rest) is dict:
            error.update(error_rest)
        out.update(ex)
        out["error"] = error
        return out
    elif tag == "error" and isinstance(m, ErrorMessage):
        out["message"] = m.message
    else:
        return None
    out.update(ex)
    return out


def _item_event(tag: str, item: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if item is None else {"type": tag, "item": item}


def _foreign(m: Message, policy: Policy, calls: _Calls = None) -> Any:
    """A message from another source as the closest exec event.

    ``calls`` maps ids to the tool calls already written (by :func:`iter_encode`), so a
    completed item repeats its call's name and input, as Codex's own completed items do.
    """
    match m:
        case TextMessage() if m.role == "assistant":
            if m.citations is not None:  # an agent message has no place for them
                policy.refuse(f"{NAME} agent messages carry no citations", "$", m)
            return _item_event("item.completed", encode_item(m, None, False))
        case ThinkingMessage() if not m.redacted:
            return _item_event("item.completed", encode_item(m, None, False))
        case ToolUseMessage():
            return _item_event("item.started", encode_item(m, None, False))
        case ToolResultMessage():
            call = calls.get(m.tool_use_id) if calls is not None else None
            if call is None:
                use = ToolUseBlock(m.tool_use_id, m.name or "")
            else:
                use = ToolUseBlock(m.tool_use_id, call.name, call.input)
            result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
            return _item_event("item.completed", encode_tool_item(use, result, None, False))
        case ResultMessage():
            if m.is_error:
                error = {"message": m.result or ""}
                return {"type": "turn.failed", "error": error}
            out: dict[str, Any] = {"type": "turn.completed"}
            if m.usage is not None:
                out["usage"] = encode_usage(m.usage)
            return out
        case ErrorMessage():
            return {"type": "error", "message": m.message}
        case InitMessage():
            if m.session_id is None:
                return {"type": "thread.started"}
            return {"type": "thread.started", "thread_id": m.session_id}
        case RawMessage() if m.role is None:
            return raw(m.data)
        case StreamEventMessage() if detect(raw(m.event)):
            return raw(m.event)  # a preview this adapter decoded: the line itself
        case AssistantMessage() | UserMessage() | ToolMessage() | SystemMessage():
            return _foreign_role(m, policy)
        case _:  # other content, stream events, invalid lines, an agent's own records
            return _degrade(m, policy)


def _degrade(m: Message, policy: Policy) -> Any:
    """Content with no exec event: raise, drop, or (assistant content only) text."""
    role = getattr(m, "role", None)
    what = m.kind if role is None else f"{role} {m.kind}"
    alt = refuse(m, f"{NAME} cannot carry {what} messages", policy, degrade=role == "assistant")
    return None if alt is None else _foreign(alt, policy)


def _foreign_role(
    m: AssistantMessage | UserMessage | ToolMessage | SystemMessage, policy: Policy
) -> Any:
    if isinstance(m, SystemMessage):
        return _degrade(m, policy)
    blocks = as_blocks(m.content)
    if isinstance(m, AssistantMessage):
        pair = encode_item(m, None, False)
        if pair is not None:
            return _item_event("item.completed", pair)
    if not blocks:
        return None
    if len(blocks) > 1:
        raise EncodeError(
            f"a codex event carries one item, this {m.kind} message has {len(blocks)} blocks:"
            " use iter_encode, which writes one event per block",
            source=NAME,
            value=m,
        )
    return _foreign(block_to_message(blocks[0], **context_of(m)), policy)


def _encode(m: Message, policy: Policy, calls: _Calls = None) -> Any:
    ex = m.extra
    if ex and "kind" not in ex:
        plain_ex: dict[str, Any] = raw(ex)
        own = None
        # in the decoder's order: a line with a ``type`` is an exec event or a rollout
        # record even when it also has a ``method``; only a line without is the app's
        if type(plain_ex.get("payload")) is dict and plain_ex.get("type") in ROLLOUT_TYPES:
            own = encode_rollout(m, plain_ex)
        elif plain_ex.get("type") in _EXEC_TYPES or plain_ex.get("type") in _OWN_RECORDS:
            own = _own_exec(m, plain_ex)
        elif "method" in plain_ex:
            own = encode_app(m, plain_ex)
        if own is not None:
            return own
    return _foreign(m, policy, calls)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh Codex line object; ``encode(decode(x)) == x``.

    Messages decoded from app-server lines go back to app-server lines; messages from other
    sources become the closest ``codex exec --json`` event (see docs/adapters/codex.md).
    Content exec events cannot carry raises :class:`UnsupportedContentError` unless
    ``unsupported`` is ``"drop"`` (the result is then ``None``) or ``"text"``. A role
    message with several blocks needs :func:`iter_encode` (one event per block).
    """
    return plain(_encode(message, Policy(unsupported, NAME)))
