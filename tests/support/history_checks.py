"""Independent checks for the history tests: tool pairing, read through the flat view."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field

from messages import Message
from messages import ToolResultMessage
from messages import ToolUseMessage
from messages.convert import message_to_block
from messages.convert import normalize_messages


@dataclass
class Pairing:
    """What pairs up in a history, computed without the library's own pairing code."""

    calls: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.orphans or self.duplicates or self.dangling)


def pairing(messages: Iterable[Message]) -> Pairing:
    """Calls in order, and the results that answer nothing, answer twice, or never come."""
    out = Pairing()
    open_: list[str] = []
    answered: set[str] = set()
    for m in normalize_messages(messages):
        if isinstance(m, ToolUseMessage):
            out.calls.append(m.id)
            if m.id in open_:
                open_.remove(m.id)
            open_.append(m.id)
            answered.discard(m.id)
        elif isinstance(m, ToolResultMessage):
            if m.tool_use_id in open_:
                open_.remove(m.tool_use_id)
                answered.add(m.tool_use_id)
            elif m.tool_use_id in answered:
                out.duplicates.append(m.tool_use_id)
            else:
                out.orphans.append(m.tool_use_id)
    out.dangling = open_
    return out


def pairs(messages: Iterable[Message]) -> set[str]:
    """The call ids that have a result after them."""
    p = pairing(messages)
    return set(p.calls) - set(p.dangling)


def content(messages: Iterable[Message]) -> list[object]:
    """Every piece of content in order, as blocks (context fields ignored)."""
    return [message_to_block(m) for m in normalize_messages(messages)]


def tool_free(messages: Iterable[Message]) -> list[object]:
    """The content that is neither a tool call nor a tool result, in order."""
    return [
        message_to_block(m)
        for m in normalize_messages(messages)
        if not isinstance(m, (ToolUseMessage, ToolResultMessage))
    ]
