"""Session messages: what a run and its agent report besides the conversation itself.

They are neither role nor content: they pass through both views unchanged, and no provider
request carries them. Three families, one module each:

- :mod:`messages.events.run`: the run itself: its start metadata (:class:`InitMessage`), its
  result (:class:`ResultMessage`), errors, raw provider stream events, and lines that could
  not be read (:class:`InvalidLineMessage`);
- :mod:`messages.events.agent`: what the agent harness reports on the way: tasks and
  sub-agents, hooks, compaction, status, rate limits, conversation resets, other system events;
- :mod:`messages.events.records`: what an agent keeps in its session files besides the turns:
  progress reports, file snapshots, titles, queued prompts, turn settings and boundaries.

Every name is importable from here (and from ``messages``).
"""

from __future__ import annotations

from .agent import EVENT_TYPES
from .agent import TERMINAL_TASK_STATUSES
from .agent import CompactBoundaryMessage
from .agent import ConversationResetMessage
from .agent import HookEventMessage
from .agent import RateLimitMessage
from .agent import StatusMessage
from .agent import SystemEventMessage
from .agent import TaskEventMessage
from .records import RECORD_TYPES
from .records import TURN_END_SUBTYPES
from .records import FileSnapshotMessage
from .records import ProgressMessage
from .records import QueueOperationMessage
from .records import TitleMessage
from .records import TurnContextMessage
from .records import TurnEventMessage
from .run import ErrorMessage
from .run import InitMessage
from .run import InvalidLineMessage
from .run import ResultMessage
from .run import StreamEventMessage

__all__ = [
    "CompactBoundaryMessage",
    "ConversationResetMessage",
    "EVENT_TYPES",
    "ErrorMessage",
    "FileSnapshotMessage",
    "HookEventMessage",
    "InitMessage",
    "InvalidLineMessage",
    "ProgressMessage",
    "QueueOperationMessage",
    "RECORD_TYPES",
    "RateLimitMessage",
    "ResultMessage",
    "StatusMessage",
    "StreamEventMessage",
    "SystemEventMessage",
    "TERMINAL_TASK_STATUSES",
    "TURN_END_SUBTYPES",
    "TaskEventMessage",
    "TitleMessage",
    "TurnContextMessage",
    "TurnEventMessage",
]
