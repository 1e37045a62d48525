"""What the history tools share: where tool calls and results sit in a message.

A message holds tool *calls* (``ToolUseBlock`` in a role message, or a flat
``ToolUseMessage``) and tool *results* (``ToolResultBlock`` in a role message, or a flat
``ToolResultMessage``). :func:`tool_events` lists both, in content order, so every history
tool pairs calls with results the same way in the block view and the flat view.
"""

from __future__ import annotations

from typing import Final
from typing import Literal
from typing import NamedTuple

from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import SESSION_TYPES
from ..message import Message
from ..roles import SystemMessage
from ..roles import as_blocks

__all__ = [
    "SYSTEM_ROLES",
    "ToolEvent",
    "carries_calls",
    "carries_results",
    "is_session",
    "is_system",
    "tool_events",
]

SYSTEM_ROLES: Final = frozenset(("system", "developer"))


class ToolEvent(NamedTuple):
    """One tool call or result inside a message, in content order."""

    kind: Literal["call", "result"]
    """``call`` for a ToolUseBlock / ToolUseMessage, ``result`` for a result."""
    position: int
    """Index of the block in the message's content (0 for a flat message)."""
    id: str
    """The call id (``ToolUseBlock.id``) or the id a result answers (``tool_use_id``)."""
    item: ToolUseBlock | ToolResultBlock | ToolUseMessage | ToolResultMessage
    """The block or flat message itself."""


def is_session(message: Message) -> bool:
    """Whether a message is a session message (result, error, init, event, invalid line)."""
    return isinstance(message, SESSION_TYPES)


def tool_events(message: Message) -> tuple[ToolEvent, ...]:
    """The tool calls and results a message carries (top level only), in content order."""
    if isinstance(message, ToolUseMessage):
        return (ToolEvent("call", 0, message.id, message),)
    if isinstance(message, ToolResultMessage):
        return (ToolEvent("result", 0, message.tool_use_id, message),)
    if isinstance(message, ROLE_TYPES) and not isinstance(message.content, str):
        events = []
        for position, block in enumerate(message.content):
            if isinstance(block, ToolUseBlock):
                events.append(ToolEvent("call", position, block.id, block))
            elif isinstance(block, ToolResultBlock):
                events.append(ToolEvent("result", position, block.tool_use_id, block))
        return tuple(events)
    return ()


def carries_calls(message: Message) -> bool:
    """Whether a message holds at least one tool call."""
    if isinstance(message, ToolUseMessage):
        return True
    return isinstance(message, ROLE_TYPES) and any(
        isinstance(b, ToolUseBlock) for b in as_blocks(message.content)
    )


def carries_results(message: Message) -> bool:
    """Whether a message holds at least one tool result."""
    if isinstance(message, ToolResultMessage):
        return True
    return isinstance(message, ROLE_TYPES) and any(
        isinstance(b, ToolResultBlock) for b in as_blocks(message.content)
    )


def is_system(message: Message) -> bool:
    """A system prompt: a SystemMessage, or flat content with role system/developer.

    Messages that carry tool calls or results never count, whatever role they have.
    """
    if isinstance(message, SystemMessage):
        return not tool_events(message)
    return (
        isinstance(message, FLAT_TYPES)
        and message.role in SYSTEM_ROLES
        and not isinstance(message, (ToolUseMessage, ToolResultMessage))
    )
