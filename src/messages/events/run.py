"""Session messages: neither role nor content, they pass through both views unchanged.

The run's result, errors, session start metadata, and raw provider stream events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import ClassVar
from typing import Literal
from typing import final

from .._core.fields import Context
from .._core.fields import compared
from .._core.fields import freeze_json
from .._core.fields import freeze_map
from .._core.fields import freeze_opt_map
from .._core.frozen import JsonValue
from ..blocks import ToolUseBlock
from ..usage import Usage
from .agent import CompactBoundaryMessage
from .agent import ConversationResetMessage
from .agent import HookEventMessage
from .agent import RateLimitMessage
from .agent import StatusMessage
from .agent import SystemEventMessage
from .agent import TaskEventMessage
from .records import FileSnapshotMessage
from .records import ProgressMessage
from .records import QueueOperationMessage
from .records import TitleMessage
from .records import TurnContextMessage
from .records import TurnEventMessage

# The seven context fields (uuid ... extra) are declared once, in the keyword-only base
# _core.fields.Context, the one base a value class may have; every class below is final and
# declares the rest of its fields itself. Context keeps the field order each class had
# (makers, repr, pickles, native format), and behaviour shared beyond that lives once, in
# field-less slotted mixins.

__all__ = [
    "ErrorMessage",
    "InitMessage",
    "InvalidLineMessage",
    "ResultMessage",
    "StreamEventMessage",
]


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ResultMessage(Context):
    """The end of a run: outcome, durations, turns, cost and usage.

    >>> ResultMessage(subtype="success", num_turns=2, total_cost_usd=0.01).num_turns
    2
    """

    kind: ClassVar[Literal["result"]] = "result"
    _context_after = (
        "structured_output"  # the context fields follow structured_output (see Context)
    )
    _: KW_ONLY
    subtype: str | None = None
    """Outcome as the source names it (``success``, ``error_max_turns``...)."""
    result: str | None = None
    """The final answer text."""
    is_error: bool | None = None
    """Whether the run failed."""
    duration_ms: int | float | None = None
    """Wall-clock duration of the run."""
    duration_api_ms: int | float | None = None
    """Time spent waiting for the model API."""
    num_turns: int | None = None
    """Number of model turns."""
    total_cost_usd: float | None = None
    """Total cost in US dollars."""
    usage: Usage | None = None
    """Total token usage."""
    structured_output: JsonValue = None
    """The structured (JSON schema) output, when the run asked for one."""
    stop_reason: str | None = None
    """Why the last model turn stopped (``end_turn``, ``max_tokens``...)."""
    terminal_reason: str | None = None
    """Why the agent loop ended (``completed``, ``max_turns``, ``aborted_streaming``...)."""
    errors: tuple[JsonValue, ...] | None = None
    """The errors that ended the run, as reported (Claude Code: strings)."""
    api_error_status: int | None = None
    """HTTP status of the failing API call, when the run failed on one (429, 529...)."""
    permission_denials: tuple[JsonValue, ...] | None = None
    """Tool calls the harness refused (``tool_name``, ``tool_use_id``, ``tool_input``)."""
    model_usage: Mapping[str, JsonValue] | None = None
    """Usage and cost per model, keyed by model name (Claude Code ``modelUsage``)."""
    deferred_tool_use: ToolUseBlock | None = None
    """The tool call a hook deferred, which ended the run until the caller resumes it."""
    origin: Mapping[str, JsonValue] | None = None
    """What started the turn (``{"kind": "human"}``, ``{"kind": "task-notification"}``...)."""

    def __post_init__(self) -> None:
        freeze_json(self, "structured_output")
        freeze_map(self, "extra")
        freeze_json(self, "errors")
        freeze_json(self, "permission_denials")
        freeze_opt_map(self, "model_usage")
        freeze_opt_map(self, "origin")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ErrorMessage(Context):
    """An error the source reported (API error, turn failure, retry notice).

    >>> ErrorMessage("rate limited", code="429").code
    '429'
    """

    kind: ClassVar[Literal["error"]] = "error"
    message: str
    """Human-readable description."""
    _: KW_ONLY
    code: str | None = None
    """Error type or code, as the source names it."""
    will_retry: bool | None = None
    """Whether the source said it will retry."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class InitMessage(Context):
    """Session start metadata: where the agent runs and what it can use.

    >>> InitMessage(session_id="s1", cwd="/work", tools=("Bash", "Read")).tools
    ('Bash', 'Read')
    """

    kind: ClassVar[Literal["init"]] = "init"
    _: KW_ONLY
    cwd: str | None = None
    """Working directory of the agent."""
    tools: tuple[JsonValue, ...] | None = None
    """Tools available to the agent (names, or descriptions as the source gives them)."""

    def __post_init__(self) -> None:
        freeze_json(self, "tools")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class StreamEventMessage(Context):
    """One raw provider stream event (an Anthropic SSE event inside Claude Code, say).

    >>> StreamEventMessage({"type": "message_stop"}).type
    'message_stop'
    """

    kind: ClassVar[Literal["stream_event"]] = "stream_event"
    event: Mapping[str, JsonValue]
    """The event object, verbatim."""

    def __post_init__(self) -> None:
        freeze_map(self, "event")
        freeze_map(self, "extra")

    @property
    def type(self) -> str | None:
        """The event's ``type``, when it has a string one."""
        tag = self.event.get("type")
        return tag if isinstance(tag, str) else None


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class InvalidLineMessage(Context):
    """A line of a stream that could not be decoded, kept with the reason and line number.

    Lenient stream readers yield one of these instead of stopping, so every good line still
    comes out; the ``text`` is the line exactly as read (without its line ending).

    >>> InvalidLineMessage("warning: not json", reason="invalid JSON", line=3).line
    3
    """

    kind: ClassVar[Literal["invalid_line"]] = "invalid_line"
    text: str
    """The line as read, decoded as UTF-8 with replacement characters where it was invalid."""
    _: KW_ONLY
    reason: str = ""
    """Why it could not be decoded (the DecodeError text)."""
    line: int | None = None
    """1-based line number in its input."""


SessionMessage = (
    ResultMessage
    | ErrorMessage
    | InitMessage
    | StreamEventMessage
    | InvalidLineMessage
    | TaskEventMessage
    | HookEventMessage
    | CompactBoundaryMessage
    | StatusMessage
    | RateLimitMessage
    | SystemEventMessage
    | ConversationResetMessage
    | ProgressMessage
    | FileSnapshotMessage
    | TitleMessage
    | QueueOperationMessage
    | TurnContextMessage
    | TurnEventMessage
)
"""A message that is neither role nor content: passes through both views unchanged."""
