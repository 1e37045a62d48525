"""Agent events: what an agent harness reports besides the conversation itself.

Claude Code writes these as ``system`` lines (task lifecycle, hooks, compaction, status...)
and ``rate_limit_event`` lines. They are session messages: neither role nor content, they
pass through both views unchanged, and no provider request carries them.

- :class:`TaskEventMessage`: ``task_started``, ``task_progress``, ``task_notification``,
  ``task_updated`` (a background task or sub-agent moving through its lifecycle);
- :class:`HookEventMessage`: ``hook_started``, ``hook_progress``, ``hook_response``;
- :class:`CompactBoundaryMessage`: the history before this point was compacted;
- :class:`StatusMessage`: the agent's status changed (``requesting``, ``compacting``...);
- :class:`RateLimitMessage`: the account's rate-limit state changed;
- :class:`ConversationResetMessage`: the conversation was replaced mid-session (``/clear``);
- :class:`SystemEventMessage`: any other ``system`` subtype, typed by its ``subtype`` with
  the rest of the line in ``data`` (``thinking_tokens``, and subtypes not yet known).

The name ``SystemMessage`` is taken here by the system prompt (a role message); the
claude-agent-sdk's ``SystemMessage`` and its subclasses map to these classes instead (see
docs/model.md).

Fields hold the values the line gave; a value of the wrong type (a ``patch`` that is not an
object, say) is never an error: the field stays ``None`` and the value is kept in ``extra``
so the line is written back exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import ClassVar
from typing import Final
from typing import Literal
from typing import final

from .._core.fields import Context
from .._core.fields import compared
from .._core.fields import freeze_map
from .._core.fields import freeze_opt_map
from .._core.fields import num_of
from .._core.fields import str_of
from .._core.frozen import EMPTY
from .._core.frozen import JsonValue

__all__ = [
    "CompactBoundaryMessage",
    "ConversationResetMessage",
    "EVENT_TYPES",
    "HookEventMessage",
    "RateLimitMessage",
    "StatusMessage",
    "SystemEventMessage",
    "TERMINAL_TASK_STATUSES",
    "TaskEventMessage",
]

TERMINAL_TASK_STATUSES: Final[frozenset[str]] = frozenset(
    ("completed", "failed", "stopped", "killed")
)
"""Task statuses that mean the task is over.

``task_notification`` says ``stopped`` where ``task_updated`` says ``killed``; both are
terminal. ``pending``, ``running`` and ``paused`` are not.
"""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TaskEventMessage(Context):
    """A background task or sub-agent moving through its lifecycle.

    ``subtype`` is the line's: ``task_started``, ``task_progress``, ``task_notification``
    or ``task_updated``. Each sets the fields it has; :attr:`state` and :attr:`is_terminal`
    read the status whichever subtype reported it.

    >>> done = TaskEventMessage("task_updated", task_id="t1", patch={"status": "killed"})
    >>> done.state, done.is_terminal
    ('killed', True)
    """

    kind: ClassVar[Literal["task_event"]] = "task_event"
    subtype: str
    """``task_started``, ``task_progress``, ``task_notification`` or ``task_updated``."""
    _: KW_ONLY
    task_id: str | None = None
    """The task's id."""
    description: str | None = None
    """What the task does (``task_started``, ``task_progress``)."""
    task_type: str | None = None
    """The kind of task (``local_bash``, ``local_agent``...; ``task_started``)."""
    tool_use_id: str | None = None
    """The tool call that started the task."""
    status: str | None = None
    """How it ended (``completed``, ``failed``, ``stopped``; ``task_notification``)."""
    summary: str | None = None
    """The task's summary of what it did (``task_notification``)."""
    output_file: str | None = None
    """Where the task's output was written (``task_notification``)."""
    last_tool_name: str | None = None
    """The tool the task used last (``task_progress``)."""
    usage: Mapping[str, JsonValue] | None = None
    """Task usage as reported: ``total_tokens``, ``tool_uses``, ``duration_ms``."""
    patch: Mapping[str, JsonValue] | None = None
    """The fields that changed (``task_updated``): ``status``, ``end_time``..."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "usage")
        freeze_opt_map(self, "patch")
        freeze_map(self, "extra")

    @property
    def state(self) -> str | None:
        """The status this event reports: ``status``, else the ``patch``'s ``status``."""
        return self.status if self.status is not None else str_of(self.patch, "status")

    @property
    def is_terminal(self) -> bool:
        """Whether the task is over (:data:`TERMINAL_TASK_STATUSES`)."""
        return self.state in TERMINAL_TASK_STATUSES


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class HookEventMessage(Context):
    """A hook the harness ran: started, its progress, and its response.

    >>> HookEventMessage("hook_response", hook_event="Stop", exit_code=0).hook_event
    'Stop'
    """

    kind: ClassVar[Literal["hook_event"]] = "hook_event"
    subtype: str
    """``hook_started``, ``hook_progress`` or ``hook_response``."""
    _: KW_ONLY
    hook_id: str | None = None
    """The hook run's id."""
    hook_name: str | None = None
    """The hook's name (``PreToolUse:Bash``...)."""
    hook_event: str | None = None
    """The event that fired it (``PreToolUse``, ``Stop``...)."""
    output: str | None = None
    """The hook's output."""
    stdout: str | None = None
    """What the hook wrote to standard output."""
    stderr: str | None = None
    """What the hook wrote to standard error."""
    exit_code: int | None = None
    """The hook's exit code (``hook_response``)."""
    outcome: str | None = None
    """How it ended (``success``, ``error``, ``cancelled``; ``hook_response``)."""

    @property
    def event_name(self) -> str:
        """The hook event's name: ``hook_event``, else ``hook_name``, else ``""``."""
        return self.hook_event or self.hook_name or ""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class CompactBoundaryMessage(Context):
    """The history before this point was compacted into a summary.

    The summary itself follows as a :class:`~messages.UserMessage` whose ``summary`` is
    ``"compaction"``.

    >>> CompactBoundaryMessage({"trigger": "auto", "pre_tokens": 155000}).pre_tokens
    155000
    """

    kind: ClassVar[Literal["compact_boundary"]] = "compact_boundary"
    metadata: Mapping[str, JsonValue] | None = None
    """The compaction's metadata as reported (Claude Code ``compact_metadata``)."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "metadata")
        freeze_map(self, "extra")

    @property
    def trigger(self) -> str | None:
        """What started it: ``manual`` (``/compact``) or ``auto``."""
        return str_of(self.metadata, "trigger")

    @property
    def pre_tokens(self) -> int | None:
        """The context's size in tokens before compaction (``pre_tokens`` or ``preTokens``)."""
        value = num_of(self.metadata, "pre_tokens")
        if value is None:  # transcripts spell it preTokens
            value = num_of(self.metadata, "preTokens")
        return value if isinstance(value, int) else None


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class StatusMessage(Context):
    """The agent's status changed (``requesting``, ``compacting``; ``None`` when idle).

    >>> StatusMessage("compacting").status
    'compacting'
    """

    kind: ClassVar[Literal["status"]] = "status"
    status: str | None = None
    """The new status, as the source names it."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class RateLimitMessage(Context):
    """The account's rate-limit state changed (Claude Code ``rate_limit_event``).

    ``info`` is the ``rate_limit_info`` object as reported; the properties read its fields.

    >>> m = RateLimitMessage({"status": "allowed_warning", "utilization": 0.91})
    >>> m.status, m.utilization
    ('allowed_warning', 0.91)
    """

    kind: ClassVar[Literal["rate_limit"]] = "rate_limit"
    info: Mapping[str, JsonValue] | None = None
    """The rate-limit state as reported (``status``, ``resetsAt``, ``rateLimitType``...)."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "info")
        freeze_map(self, "extra")

    @property
    def status(self) -> str | None:
        """``allowed``, ``allowed_warning`` or ``rejected``."""
        return str_of(self.info, "status")

    @property
    def resets_at(self) -> int | float | None:
        """When the window resets, in Unix seconds (``resetsAt``)."""
        return num_of(self.info, "resetsAt")

    @property
    def rate_limit_type(self) -> str | None:
        """Which window applies: ``five_hour``, ``seven_day``... (``rateLimitType``)."""
        return str_of(self.info, "rateLimitType")

    @property
    def utilization(self) -> int | float | None:
        """The fraction of the limit used, 0 to 1."""
        return num_of(self.info, "utilization")

    @property
    def overage_status(self) -> str | None:
        """The state of pay-as-you-go overage (``overageStatus``)."""
        return str_of(self.info, "overageStatus")

    @property
    def overage_resets_at(self) -> int | float | None:
        """When the overage window resets, in Unix seconds (``overageResetsAt``)."""
        return num_of(self.info, "overageResetsAt")

    @property
    def overage_disabled_reason(self) -> str | None:
        """Why overage is not available (``overageDisabledReason``)."""
        return str_of(self.info, "overageDisabledReason")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class SystemEventMessage(Context):
    """Any other harness event: its ``subtype``, and the rest of the line in ``data``.

    Claude Code ``system`` lines whose subtype this library does not type
    (``thinking_tokens``, and any future subtype) are kept here, whole.

    >>> SystemEventMessage("thinking_tokens", {"tokens": 12}).data["tokens"]
    12
    """

    kind: ClassVar[Literal["system_event"]] = "system_event"
    subtype: str
    """The event's subtype as the source names it."""
    data: Mapping[str, JsonValue] = EMPTY
    """The line's other fields (all but ``type``, ``subtype`` and the context fields)."""

    def __post_init__(self) -> None:
        freeze_map(self, "data")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ConversationResetMessage(Context):
    """The conversation was replaced without ending the session (after ``/clear``, say).

    >>> ConversationResetMessage("c-2").new_conversation_id
    'c-2'
    """

    kind: ClassVar[Literal["conversation_reset"]] = "conversation_reset"
    new_conversation_id: str | None = None
    """The id of the conversation that replaces the old one."""


EVENT_TYPES: Final = (
    TaskEventMessage,
    HookEventMessage,
    CompactBoundaryMessage,
    StatusMessage,
    RateLimitMessage,
    SystemEventMessage,
    ConversationResetMessage,
)
"""The agent-event classes, in the order the session message union lists them."""
