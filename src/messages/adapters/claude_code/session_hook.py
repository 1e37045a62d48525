"""Where Claude Code keeps its sessions, and how the records of a transcript link.

Transcripts live in ``~/.claude/projects/<project>/<session-id>.jsonl`` (``$CLAUDE_CONFIG_DIR``
replaces ``~/.claude``, and may list several folders separated by commas); ``<project>`` is
the working directory with every ``/`` and ``.`` written as ``-``. Subagents (Task/Agent
calls) are written beside them: since 2.1 in ``<session-id>/subagents/agent-<id>.jsonl``
(automatic compaction runs as ``agent-acompact-<id>``), before that as root-level
``agent-<8 hex>.jsonl`` files whose records carry the parent's ``sessionId`` and their own
``agentId``.

Records form a tree: ``uuid`` -> ``parentUuid``. A compaction writes a ``system`` record with
subtype ``compact_boundary``, ``parentUuid: null`` and ``logicalParentUuid`` pointing into the
history it replaced, followed by a ``user`` record with ``isCompactSummary: true``. One model
response is written as one ``assistant`` line per content block, each with the same
``message.id`` and ``requestId`` (and the same usage). A resumed session's file starts with
copies of the earlier session's records, which keep their ``sessionId``. A Task call's result
names its subagent in ``toolUseResult.agentId``; ``progress`` lines of kind
``agent_progress`` do too (``data.agentId``, under ``parentToolUseID``). ``summary`` lines title
the branch ending at ``leafUuid``.

Every read of a wire field is in the accessors at the top of this module, so that typed
values for these records change only this place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.agent import CompactBoundaryMessage
from ...events.records import ProgressMessage
from ...events.records import TitleMessage
from ...events.run import ResultMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .._sessions import RESULT_CALL
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import is_prompt
from .._sessions import listed_folders
from .._sessions import walk_files
from .._sessions import wire_fields

__all__ = [
    "ClaudeCodeHook",
    "HOOK",
    "agent_of",
    "cwd_of",
    "is_boundary",
    "is_compact_summary",
    "is_meta",
    "is_sidechain",
    "logical_parent_id",
    "parent_id",
    "record_id",
    "record_type",
    "request_id",
    "session_of",
    "subagent_started",
    "summary_title",
]

_AGENT_FILE: Final = re.compile(r"agent-([A-Za-z0-9_-]+)\.jsonl$")
_ROLE_TYPES: Final = frozenset(("user", "assistant"))


# -- accessors: the one place wire fields are read ---------------------------------------------


def _str(fields: Mapping[str, Any], key: str) -> str | None:
    value = fields.get(key)
    return value if type(value) is str else None


def record_type(fields: Mapping[str, Any]) -> str | None:
    """The line's ``type``."""
    return _str(fields, "type")


def record_id(fields: Mapping[str, Any], message: Message) -> str | None:
    """``uuid`` (a typed record holds it in its ``uuid`` field)."""
    uuid = getattr(message, "uuid", None)
    return uuid if type(uuid) is str else _str(fields, "uuid")


def parent_id(fields: Mapping[str, Any]) -> str | None:
    """``parentUuid``."""
    return _str(fields, "parentUuid")


def logical_parent_id(fields: Mapping[str, Any]) -> str | None:
    """``logicalParentUuid`` (a compaction boundary's link into the history it replaced)."""
    return _str(fields, "logicalParentUuid")


def session_of(fields: Mapping[str, Any]) -> str | None:
    """``sessionId``."""
    return _str(fields, "sessionId")


def agent_of(fields: Mapping[str, Any]) -> str | None:
    """``agentId`` (a subagent's records)."""
    return _str(fields, "agentId")


def is_sidechain(fields: Mapping[str, Any]) -> bool:
    """``isSidechain``."""
    return fields.get("isSidechain") is True


def is_compact_summary(fields: Mapping[str, Any], message: Message) -> bool:
    """``isCompactSummary`` (decoded as a user message's ``summary``)."""
    if isinstance(message, UserMessage) and message.summary is not None:
        return True
    return fields.get("isCompactSummary") is True


def is_boundary(fields: Mapping[str, Any], message: Message) -> bool:
    """A ``system`` record of subtype ``compact_boundary``."""
    if isinstance(message, CompactBoundaryMessage):
        return True
    return record_type(fields) == "system" and fields.get("subtype") == "compact_boundary"


def request_id(fields: Mapping[str, Any]) -> str | None:
    """``requestId``."""
    return _str(fields, "requestId")


def subagent_started(fields: Mapping[str, Any], message: Message) -> tuple[str | None, str] | None:
    """``(tool_use_id, agentId)`` when the record names the subagent a tool call started.

    A Task result's ``toolUseResult.agentId`` (the tool_use id from its result block), or an
    ``agent_progress`` line's ``data.agentId`` under ``parentToolUseID``.
    """
    result = fields.get("toolUseResult")
    if isinstance(result, Mapping) and type(result.get("agentId")) is str:
        tool_use_id = None
        if isinstance(message, UserMessage) and not isinstance(message.content, str):
            for block in message.content:
                tool_use_id = getattr(block, "tool_use_id", None)
                if tool_use_id is not None:
                    break
        return tool_use_id, result["agentId"]
    if isinstance(message, ProgressMessage) and message.agent_id is not None:
        return message.tool_use_id, message.agent_id
    data = fields.get("data")
    if (
        record_type(fields) == "progress"
        and isinstance(data, Mapping)
        and data.get("type") == "agent_progress"
        and type(data.get("agentId")) is str
    ):
        return _str(fields, "parentToolUseID"), data["agentId"]
    return None


def summary_title(fields: Mapping[str, Any], message: Message) -> tuple[str, str | None] | None:
    """A ``summary`` line's ``(summary, leafUuid)`` (typed: a :class:`TitleMessage`)."""
    if isinstance(message, TitleMessage):
        return None if message.title is None else (message.title, message.leaf_uuid)
    if record_type(fields) != "summary":
        return None
    title = _str(fields, "summary")
    return None if title is None else (title, _str(fields, "leafUuid"))


def cwd_of(fields: Mapping[str, Any]) -> str | None:
    """``cwd``."""
    return _str(fields, "cwd")


def is_meta(fields: Mapping[str, Any]) -> bool:
    """``isMeta``: a user record the harness wrote (a reminder, a command's output)."""
    return fields.get("isMeta") is True


# -- the hook ------------------------------------------------------------------------------------


class _Linker:
    __slots__ = ("count", "file", "previous", "seen")

    def __init__(self, file: SessionFile) -> None:
        self.file = file
        self.count = 0
        self.previous: str | None = None
        self.seen: set[str] = set()

    def _stream_ids(self, uuid: str | None) -> tuple[str, str | None]:
        """Ids for a ``stream-json`` line: it names no parent, so each follows the one before.

        Recorders may write the same placeholder ``uuid`` on every line (``test-uuid``): a
        repeated one gives way to the line's number, so no line hides another.
        """
        self.count += 1
        own = uuid if uuid is not None and uuid not in self.seen else f"line {self.count}"
        self.seen.add(own)
        parent, self.previous = self.previous, own
        return own, parent

    def link(self, message: Message) -> Link:
        fields = wire_fields(message)
        kind = record_type(fields)
        titled = summary_title(fields, message)
        if titled is not None:
            return Link(None, titled[1], title=titled[0])
        uuid = record_id(fields, message)
        session = session_of(fields)
        copied = self.file.role == "main" and session is not None and session != self.file.session
        conversation = kind in _ROLE_TYPES
        call = None
        group = None
        if isinstance(message, AssistantMessage):
            group = message.message_id
            if message.usage is not None:
                call = f"{message.message_id or uuid}:{request_id(fields)}"
        elif isinstance(message, ResultMessage) and message.usage is not None:
            # a stream-json run's result restates the process's running totals: one call
            # whose most complete report (the last) is its usage, as `messages stats` reads it
            call = f"{RESULT_CALL}{self.file.path}"
        summary = is_compact_summary(fields, message)
        parent = parent_id(fields)
        if "parentUuid" not in fields:  # stream-json output, not a transcript: a chain
            uuid, parent = self._stream_ids(uuid)
        return Link(
            uuid,
            parent,
            logical_parent=logical_parent_id(fields),
            conversation=conversation,
            prompt=conversation and not summary and not is_meta(fields) and is_prompt(message),
            compaction=is_boundary(fields, message),
            summary=summary,
            sidechain=is_sidechain(fields) and self.file.role == "main",
            copied=copied,
            origin=session if copied else None,
            call=call,
            group=group,
            subagent=subagent_started(fields, message),
            cwd=cwd_of(fields),
        )


class ClaudeCodeHook:
    """Claude Code's transcripts under ``projects/``, with their subagent files."""

    __slots__ = ()

    name: Final = "claude_code"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$CLAUDE_CONFIG_DIR/projects`` for each folder listed, else ``~/.claude/projects``."""
        home = home_folder(env)
        listed = listed_folders(env, "CLAUDE_CONFIG_DIR")
        return tuple(os.path.join(p, "projects") for p in listed or [os.path.join(home, ".claude")])

    def files(self, folder: str) -> Iterator[str]:
        """Every ``.jsonl`` file under ``folder``."""
        return walk_files(folder, (".jsonl",))

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """A main transcript, a 2.1 subagent file, or an older root-level agent file."""
        name = os.path.basename(path)
        folder = os.path.dirname(path)
        agent = _AGENT_FILE.search(name)
        if agent is not None:
            if os.path.basename(folder) == "subagents":
                session_folder = os.path.dirname(folder)
                project = os.path.basename(os.path.dirname(session_folder))
                session = os.path.basename(session_folder)
            else:
                project = os.path.basename(folder)
                found = [s for obj in head if isinstance(obj, Mapping) and (s := session_of(obj))]
                if not found:
                    return SessionFile(path, name.removesuffix(".jsonl"), project=project)
                session = found[0]
            agent_id = agent.group(1)
            return SessionFile(
                path,
                session,
                role="subagent",
                agent_id=agent_id,
                project=project,
                compaction=agent_id.startswith("acompact"),
            )
        return SessionFile(path, name.removesuffix(".jsonl"), project=os.path.basename(folder))

    def linker(self, file: SessionFile) -> Linker:
        """Links by ``uuid``/``parentUuid``; copies of another session's records are marked."""
        return _Linker(file)


HOOK: Final = ClaudeCodeHook()
"""Claude Code's session hook."""
