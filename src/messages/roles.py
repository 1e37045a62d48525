"""Role messages: system prompts, user turns, assistant turns and tool results.

Each carries ``content`` as a plain string or a tuple of blocks, the context fields shared by
every message (uuid, session_id, parent_tool_use_id, model, message_id, timestamp) and an
``extra`` mapping for wire fields it does not model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import ClassVar
from typing import Literal
from typing import final

from ._core.fields import Context
from ._core.fields import compared
from ._core.fields import freeze_json
from ._core.fields import freeze_map
from ._core.fields import freeze_opt_map
from ._core.fields import freeze_tuple
from ._core.frozen import JsonValue
from .blocks import Block
from .blocks import TextBlock
from .blocks import ThinkingBlock
from .blocks import ToolResultBlock
from .blocks import ToolUseBlock
from .blocks import content_text
from .usage import Usage

if TYPE_CHECKING:
    from .usage import StopReason


# The seven context fields (uuid ... extra) are declared once, in the keyword-only base
# _core.fields.Context, the one base a value class may have; every class below is final and
# declares the rest of its fields itself. Context keeps the field order each class had
# (makers, repr, pickles, native format), and behaviour shared beyond that lives once, in
# field-less slotted mixins.

__all__ = [
    "AssistantMessage",
    "ContentReads",
    "SystemMessage",
    "ToolMessage",
    "UserMessage",
    "as_blocks",
    "content_text",
]


def as_blocks(content: str | tuple[Block, ...]) -> tuple[Block, ...]:
    """Content as a tuple of blocks: a string becomes one TextBlock."""
    if isinstance(content, str):
        return (TextBlock(content),)
    return content


class ContentReads:
    """What every role message reads from its content, written once for the four classes.

    A slotted mixin with no fields of its own: the role classes stay frozen dataclasses, and
    the fast constructor (:func:`messages._core.make.maker`) builds them unchanged.
    """

    __slots__ = ()

    content: str | tuple[Block, ...]

    @property
    def blocks(self) -> tuple[Block, ...]:
        """The content as blocks: a plain string reads as one TextBlock."""
        return as_blocks(self.content)

    @property
    def text(self) -> str:
        """The text of the message: its text blocks joined by newlines."""
        return content_text(self.content)

    @property
    def tool_uses(self) -> tuple[ToolUseBlock, ...]:
        """The tool calls in the content, in order."""
        return tuple(b for b in as_blocks(self.content) if isinstance(b, ToolUseBlock))

    @property
    def tool_results(self) -> tuple[ToolResultBlock, ...]:
        """The tool results in the content, in order."""
        return tuple(b for b in as_blocks(self.content) if isinstance(b, ToolResultBlock))

    @property
    def thinking(self) -> tuple[ThinkingBlock, ...]:
        """The thinking blocks in the content, in order."""
        return tuple(b for b in as_blocks(self.content) if isinstance(b, ThinkingBlock))


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class SystemMessage(Context, ContentReads):
    """Instructions for the model: a system prompt, or an OpenAI ``developer`` message.

    >>> SystemMessage("Be brief.").text
    'Be brief.'
    """

    kind: ClassVar[Literal["system"]] = "system"
    content: str | tuple[Block, ...]
    """Plain text, or a tuple of content blocks."""
    _: KW_ONLY
    role: Literal["system", "developer"] = "system"
    """``developer`` for OpenAI developer messages; kept, never folded into ``system``."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class UserMessage(Context, ContentReads):
    """What the user (or the harness, for tool results) sends to the model.

    >>> UserMessage("hi").blocks
    (TextBlock(text='hi'),)
    """

    kind: ClassVar[Literal["user"]] = "user"
    _context_after = "content"  # where the context fields stand (see Context)
    role: ClassVar[Literal["user"]] = "user"
    content: str | tuple[Block, ...]
    """Plain text, or a tuple of content blocks."""
    _: KW_ONLY
    summary: str | None = None
    """Set when the harness wrote this turn as a summary of earlier history, not the user.

    ``"compaction"`` is the summary that replaces compacted history (Claude Code
    ``isCompactSummary``, Codex ``compacted``); it is the one kind the adapters read and
    write today, and other agents' kinds (a branch summary, say) take their own names.
    Providers still receive the turn as the user turn it is; transcripts label it, and
    statistics do not count it as a user turn.
    """
    origin: Mapping[str, JsonValue] | None = None
    """What sent this turn, when not the person at the keyboard (Claude Code ``origin``)."""
    tool_use_result: JsonValue = None
    """The structured result the harness attaches to a tool result (Claude Code)."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")
        freeze_opt_map(self, "origin")
        freeze_json(self, "tool_use_result")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class AssistantMessage(Context, ContentReads):
    """One model turn: text, thinking, tool calls, with usage and stop reason.

    >>> from messages import ToolUseBlock
    >>> m = AssistantMessage((TextBlock("Listing."), ToolUseBlock("t1", "Bash", {"command": "ls"})))
    >>> m.text, [t.name for t in m.tool_uses]
    ('Listing.', ['Bash'])
    """

    kind: ClassVar[Literal["assistant"]] = "assistant"
    role: ClassVar[Literal["assistant"]] = "assistant"
    content: str | tuple[Block, ...] = ()
    """Plain text, or a tuple of content blocks."""
    _: KW_ONLY
    usage: Usage | None = None
    """Tokens used for this turn, when reported."""
    stop_reason: str | None = None
    """Why generation stopped, exactly as the provider said (``end_turn``, ``tool_calls``...)."""
    error: str | None = None
    """An error code the source attached to this turn (Claude Code ``error``)."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")

    @property
    def stop(self) -> StopReason | None:
        """``stop_reason`` normalised across providers (the raw value stays in ``stop_reason``)."""
        from .usage import classify_stop_reason  # lazy: the enum costs import time

        return classify_stop_reason(self.stop_reason)


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolMessage(Context, ContentReads):
    """A tool-role message (OpenAI ``tool``): carries ToolResultBlocks.

    >>> ToolMessage((ToolResultBlock("call_1", "42"),)).tool_results[0].text
    '42'
    """

    kind: ClassVar[Literal["tool"]] = "tool"
    role: ClassVar[Literal["tool"]] = "tool"
    content: str | tuple[Block, ...]
    """Plain text, or a tuple of content blocks."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")


RoleMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage
"""A message with a role and block content."""
