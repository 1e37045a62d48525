"""Session-file records: what an agent writes in its session log besides the conversation.

Coding agents keep more in their session files than the turns themselves: reports on work
in progress, snapshots of the files they track, titles for the conversation, a queue of
prompts typed while the agent was busy, and the settings and boundaries of each turn. Each
becomes one of these session messages (neither role nor content; they pass through both
views unchanged, and no provider request carries them):

- :class:`ProgressMessage`: a report on a tool call, hook or sub-agent still at work, or
  just finished (Claude Code ``progress`` lines; Codex ``exec_command_end``,
  ``patch_apply_end``, ``web_search_end`` events). A sub-agent's report carries the
  sub-agent's own message, decoded by the same adapter;
- :class:`FileSnapshotMessage`: the state of the files the agent tracks, taken for a prompt
  so that it can be rewound (Claude Code ``file-history-snapshot``);
- :class:`TitleMessage`: a title for the conversation branch ending at a record (Claude Code
  ``summary`` lines);
- :class:`QueueOperationMessage`: a prompt queued, taken or dropped while the agent worked
  (Claude Code ``queue-operation``);
- :class:`TurnContextMessage`: the settings a turn runs with (Codex ``turn_context``);
- :class:`TurnEventMessage`: a turn started, completed or was aborted (Codex
  ``task_started``, ``task_complete``, ``turn_aborted``).

As for the agent events, a field of the wrong type never makes a line fail: the field stays
``None`` and the value is kept in ``extra``, so the line is written back exactly.
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
from .._core.fields import str_of
from .._core.frozen import JsonValue
from ..roles import RoleMessage

__all__ = [
    "FileSnapshotMessage",
    "ProgressMessage",
    "QueueOperationMessage",
    "RECORD_TYPES",
    "TURN_END_SUBTYPES",
    "TitleMessage",
    "TurnContextMessage",
    "TurnEventMessage",
]

TURN_END_SUBTYPES: Final[frozenset[str]] = frozenset(
    ("task_complete", "turn_complete", "turn_aborted")
)
"""Turn event subtypes that mean the turn is over."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ProgressMessage(Context):
    """A report on a tool call, hook or sub-agent at work, or just finished.

    ``subtype`` names the report (Claude Code's ``data.type``: ``hook_progress``,
    ``bash_progress``, ``agent_progress``, ``waiting_for_task``...; Codex's event type:
    ``exec_command_end``, ``patch_apply_end``, ``web_search_end``), ``data`` holds its other
    fields as reported, and ``tool_use_id`` links it to the tool call it reports on. A
    sub-agent's report (``agent_progress``) carries the sub-agent's own turn (a user or
    assistant line) in :attr:`message`, decoded by the same adapter.

    >>> p = ProgressMessage("bash_progress", {"output": "ok", "elapsedTimeSeconds": 2},
    ...                     tool_use_id="toolu_1")
    >>> p.subtype, p.tool_use_id, p.data["output"]
    ('bash_progress', 'toolu_1', 'ok')
    """

    kind: ClassVar[Literal["progress"]] = "progress"
    subtype: str | None = None
    """What is reported (``bash_progress``, ``agent_progress``, ``exec_command_end``...)."""
    data: Mapping[str, JsonValue] | None = None
    """The report's other fields as the source wrote them (less ``type`` and the message)."""
    _: KW_ONLY
    tool_use_id: str | None = None
    """The tool call reported on (Claude Code ``parentToolUseID``, Codex ``call_id``)."""
    progress_id: str | None = None
    """The id of this stream of reports (Claude Code ``toolUseID``)."""
    message: RoleMessage | None = None
    """A sub-agent's own turn, decoded by the same adapter (``agent_progress``)."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "data")
        freeze_map(self, "extra")

    @property
    def agent_id(self) -> str | None:
        """The sub-agent's id (``data.agentId``), which names its transcript file."""
        return str_of(self.data, "agentId")

    @property
    def prompt(self) -> str | None:
        """The prompt the sub-agent was given (``data.prompt``)."""
        return str_of(self.data, "prompt")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class FileSnapshotMessage(Context):
    """The state of the files the agent tracks, taken for a prompt so it can be rewound.

    >>> s = FileSnapshotMessage({"trackedFileBackups": {"a.py": {"version": 1}}},
    ...                         message_uuid="u-1", is_update=False)
    >>> s.tracked_files, s.message_uuid
    (('a.py',), 'u-1')
    """

    kind: ClassVar[Literal["file_snapshot"]] = "file_snapshot"
    snapshot: Mapping[str, JsonValue] | None = None
    """The snapshot as reported (Claude Code: ``trackedFileBackups``, ``timestamp``...)."""
    _: KW_ONLY
    message_uuid: str | None = None
    """The uuid of the record the snapshot was taken for (Claude Code ``messageId``)."""
    is_update: bool | None = None
    """Whether it updates an earlier snapshot of that record (``isSnapshotUpdate``)."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "snapshot")
        freeze_map(self, "extra")

    @property
    def tracked_files(self) -> tuple[str, ...]:
        """The paths of the files the snapshot holds (``trackedFileBackups``' keys)."""
        files = None if self.snapshot is None else self.snapshot.get("trackedFileBackups")
        return tuple(files) if isinstance(files, Mapping) else ()


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TitleMessage(Context):
    """A title for the conversation branch that ends at the record ``leaf_uuid``.

    Claude Code writes these as ``summary`` lines, sometimes into a later session's file.

    >>> TitleMessage("Fix the flaky test", leaf_uuid="u-9").title
    'Fix the flaky test'
    """

    kind: ClassVar[Literal["title"]] = "title"
    title: str | None = None
    """The title (Claude Code ``summary``)."""
    _: KW_ONLY
    leaf_uuid: str | None = None
    """The uuid of the last record of the branch it names (Claude Code ``leafUuid``)."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class QueueOperationMessage(Context):
    """A prompt typed while the agent was busy: queued, taken from the queue, or dropped.

    >>> QueueOperationMessage("enqueue", "and run the tests").operation
    'enqueue'
    """

    kind: ClassVar[Literal["queue_operation"]] = "queue_operation"
    operation: str | None = None
    """What happened to the queue (``enqueue``, ``dequeue``, ``remove``...)."""
    content: str | None = None
    """The queued prompt, when the record carries it."""
    _: KW_ONLY


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TurnContextMessage(Context):
    """The settings a turn runs with: its model, working folder, approval and sandbox.

    Codex writes one (``turn_context``) at the start of every turn; settings it does not
    name here (``personality``, ``collaboration_mode``, instructions...) stay in ``extra``;
    ``model`` is the model the turn runs on.

    >>> t = TurnContextMessage("t-1", cwd="/src", model="gpt-5-codex", effort="high")
    >>> t.turn_id, t.model, t.effort
    ('t-1', 'gpt-5-codex', 'high')
    """

    kind: ClassVar[Literal["turn_context"]] = "turn_context"
    turn_id: str | None = None
    """The turn's id."""
    _: KW_ONLY
    cwd: str | None = None
    """The working folder."""
    approval_policy: str | None = None
    """When the agent asks before acting (``on-request``, ``never``...)."""
    sandbox_policy: Mapping[str, JsonValue] | None = None
    """The sandbox the tools run in, as reported (``type``, ``network_access``...)."""
    effort: str | None = None
    """The reasoning effort asked of the model (``low``, ``medium``, ``high``...)."""

    def __post_init__(self) -> None:
        freeze_opt_map(self, "sandbox_policy")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TurnEventMessage(Context):
    """A turn started, completed or was aborted.

    ``subtype`` is the source's name (Codex ``task_started``, ``task_complete``,
    ``turn_aborted``); :attr:`is_end` tells whether the turn is over.

    >>> done = TurnEventMessage("task_complete", turn_id="t-1", last_message="Done.")
    >>> done.is_end, done.last_message
    (True, 'Done.')
    """

    kind: ClassVar[Literal["turn_event"]] = "turn_event"
    subtype: str
    """``task_started``, ``task_complete``, ``turn_aborted``... as the source names it."""
    _: KW_ONLY
    turn_id: str | None = None
    """The turn's id."""
    reason: str | None = None
    """Why the turn was aborted (``interrupted``, ``replaced``...)."""
    last_message: str | None = None
    """The agent's last message in the turn (Codex ``last_agent_message``)."""
    context_window: int | None = None
    """The model's context window in tokens (Codex ``model_context_window``)."""

    @property
    def is_end(self) -> bool:
        """Whether the turn is over (:data:`TURN_END_SUBTYPES`)."""
        return self.subtype in TURN_END_SUBTYPES


RECORD_TYPES: Final = (
    ProgressMessage,
    FileSnapshotMessage,
    TitleMessage,
    QueueOperationMessage,
    TurnContextMessage,
    TurnEventMessage,
)
"""The session-record classes, in the order the session message union lists them."""
