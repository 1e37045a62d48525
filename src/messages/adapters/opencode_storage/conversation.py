"""A session's OpenCode records joined into its conversation: role messages in time order.

Each message record becomes a role message whose blocks are its parts (text, thinking, a
tool call with its result, and the other parts as raw blocks, each keeping its part's id and
unmodelled fields in ``extra``), after the session record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolUseBlock
from ...events.run import InitMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .._sessions import wire_fields

__all__ = ["join", "record_key"]


def record_key(m: Message) -> tuple[str, str] | None:
    """What record a message is, to read a record held twice once."""
    if isinstance(m, InitMessage) and m.session_id is not None:
        return ("session", m.session_id)
    if isinstance(m, UserMessage | AssistantMessage) and not m.content and m.message_id:
        return ("message", m.message_id)
    uuid = getattr(m, "uuid", None)
    if uuid is not None:
        return ("part", uuid)
    data = wire_fields(m)
    ident = data.get("id")
    return ("part", ident) if isinstance(ident, str) else None


def _owner(m: Message) -> str | None:
    """The message a part belongs to."""
    if isinstance(m, RawMessage):
        data = wire_fields(m)
        owner = data.get("messageID", data.get("message_id"))
        return owner if isinstance(owner, str) else None
    return getattr(m, "message_id", None)


def _extra(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {}
    uuid = getattr(m, "uuid", None)
    if uuid is not None:
        out["id"] = uuid
    out.update(m.extra)
    return out


def _blocks(part: Message) -> tuple[Any, ...]:
    """A part as the blocks of its message."""
    match part:
        case TextMessage():
            return (TextBlock(part.text, extra=_extra(part)),)
        case ThinkingMessage():
            return (ThinkingBlock(part.thinking, extra=_extra(part)),)
        case ToolUseMessage():
            return (ToolUseBlock(part.id, part.name, part.input, extra=_extra(part)),)
        case AssistantMessage() if not isinstance(part.content, str) and part.content:
            use, *others = part.content
            if isinstance(use, ToolUseBlock):
                use = replace(use, extra=_extra(part))
            return (use, *others)
        case RawMessage():
            return (RawBlock(part.data),)
        case _:
            return ()


def join(records: Sequence[Message]) -> list[Message]:
    """A session's records as its conversation, in time order.

    The session record first, then each message with its parts as blocks; parts whose
    message is missing come last, as they are.
    """
    heads: list[Message] = []
    infos: dict[str, UserMessage | AssistantMessage] = {}
    parts: dict[str, list[Message]] = {}
    for m in records:
        if isinstance(m, InitMessage):
            heads.append(m)
        elif isinstance(m, UserMessage | AssistantMessage) and not m.content and m.message_id:
            infos.setdefault(m.message_id, m)
        else:
            parts.setdefault(_owner(m) or "", []).append(m)
    out = list(heads)
    ordered = sorted(infos.values(), key=lambda m: (_number(m.timestamp), m.message_id or ""))
    for info in ordered:
        assert info.message_id is not None
        found = sorted(parts.pop(info.message_id, ()), key=lambda p: record_key(p) or ("", ""))
        blocks = tuple(b for p in found for b in _blocks(p))
        out.append(replace(info, content=blocks))
    for left in parts.values():
        out += left
    return out


def _number(stamp: Any) -> float:
    return float(stamp) if isinstance(stamp, int | float) else 0.0
