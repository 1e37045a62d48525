"""Where Codex keeps its sessions, and how the lines of a rollout link.

Rollouts live in ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`` (``$CODEX_HOME``
replaces ``~/.codex``). A rollout is one linear session: each line follows the one before. It
opens with a ``session_meta`` line (``payload.id``, ``cwd``, ``timestamp``); a fork's names the
rollout it came from (``forked_from_id``), and a subagent's its parent thread
(``source.subagent.thread_spawn.parent_thread_id``). A fork or a subagent replays the history
it starts from before its own lines: the ancestors' ``session_meta`` lines, then their records,
re-stamped in one burst at the fork instant. Those copies are marked, so their usage is
counted once, in the session that made the calls. A ``compacted`` line is the summary the model
saw in place of the history (decoded as a compaction summary); an ``event_msg`` of type
``context_compacted`` marks the compaction. Each prompt is a ``user`` message item, which
also carries injected context (instructions, environment), and is echoed as an ``event_msg``
of type ``user_message``: the echo is what counts as a turn. Usage comes from ``token_count``
events (each one that reports a new call).

Every read of a wire field is in the accessors at the top of this module.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from typing import Final

from ...events.agent import CompactBoundaryMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...roles import UserMessage
from .._sessions import RESULT_CALL
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import walk_files
from .._sessions import wire_fields

__all__ = [
    "BURST_GAP",
    "CodexHook",
    "HOOK",
    "forked_from",
    "is_context_compacted",
    "meta_id",
    "meta_payload",
    "prompt_echo",
    "spawned_by",
]

_ID_IN_NAME: Final = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
BURST_GAP: Final = 1.0
"""Seconds between two lines that end a fork's replayed history (copies are written at once)."""


# -- accessors: the one place wire fields are read ---------------------------------------------


def _payload(fields: Mapping[str, Any]) -> Mapping[str, Any]:
    payload = fields.get("payload")
    return payload if isinstance(payload, Mapping) else {}


def meta_payload(obj: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A ``session_meta`` line's payload (of a parsed line or a decoded record's fields)."""
    if obj.get("type") != "session_meta":
        return None
    return _payload(obj)


def meta_id(payload: Mapping[str, Any]) -> str | None:
    """``payload.id`` of a ``session_meta``."""
    value = payload.get("id")
    return value if type(value) is str else None


def forked_from(payload: Mapping[str, Any]) -> str | None:
    """``payload.forked_from_id`` of a ``session_meta``."""
    value = payload.get("forked_from_id")
    return value if type(value) is str else None


def spawned_by(payload: Mapping[str, Any]) -> str | None:
    """``payload.source.subagent.thread_spawn.parent_thread_id`` of a ``session_meta``."""
    source = payload.get("source")
    if not isinstance(source, Mapping):
        return None
    sub = source.get("subagent")
    spawn = sub.get("thread_spawn") if isinstance(sub, Mapping) else None
    value = spawn.get("parent_thread_id") if isinstance(spawn, Mapping) else None
    return value if type(value) is str else None


def is_context_compacted(fields: Mapping[str, Any], message: Message) -> bool:
    """An ``event_msg`` of type ``context_compacted`` (or the typed compaction event)."""
    if isinstance(message, CompactBoundaryMessage):
        return True
    return fields.get("type") == "event_msg" and _payload(fields).get("type") == "context_compacted"


def prompt_echo(fields: Mapping[str, Any]) -> str | None:
    """The text of an ``event_msg`` of type ``user_message``: what the person typed."""
    payload = _payload(fields)
    if fields.get("type") != "event_msg" or payload.get("type") != "user_message":
        return None
    text = payload.get("message")
    return text if type(text) is str else ""


def _epoch(value: object) -> float | None:
    if type(value) is not str:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


# -- the hook ------------------------------------------------------------------------------------


class _Linker:
    __slots__ = ("copying", "count", "last_time", "metas")

    def __init__(self) -> None:
        self.count = 0
        self.metas = 0
        self.copying = False
        self.last_time: float | None = None

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        parent = str(index - 1) if index else None
        fields = wire_fields(message)
        when = _epoch(getattr(message, "timestamp", None))
        if (
            self.copying
            and when is not None
            and self.last_time is not None
            and when - self.last_time > BURST_GAP
        ):
            self.copying = False
        if when is not None:
            self.last_time = when
        origin = None
        cwd = None
        if isinstance(message, InitMessage):
            self.metas += 1
            cwd = message.cwd
            meta = meta_payload(fields) or {}
            if self.metas == 1:
                origin = forked_from(meta) or spawned_by(meta)
                self.copying = origin is not None
        copied = self.copying and index > 0
        conversation = isinstance(message, ROLE_TYPES) or (
            getattr(message, "role", None) is not None and not isinstance(message, RawMessage)
        )
        said = prompt_echo(fields) if isinstance(message, StreamEventMessage) else None
        call = None
        if isinstance(message, ResultMessage) and message.subtype == "token_count":
            call = f"line {index}"
        elif isinstance(message, ResultMessage) and message.usage is not None:
            call = f"{RESULT_CALL}{index}"  # an exec run's turn.completed
        return Link(
            str(index),
            parent,
            conversation=conversation,
            prompt=said is not None,
            text=said,
            compaction=is_context_compacted(fields, message),
            summary=isinstance(message, UserMessage) and message.summary is not None,
            copied=copied,
            origin=origin,
            call=call,
            cwd=cwd,
        )


class CodexHook:
    """Codex rollouts under ``sessions/``: one linear session per file, forks marked."""

    __slots__ = ()

    name: Final = "codex"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$CODEX_HOME/sessions``, else ``~/.codex/sessions``."""
        home = home_folder(env)
        return (os.path.join(env.get("CODEX_HOME") or os.path.join(home, ".codex"), "sessions"),)

    def files(self, folder: str) -> Iterator[str]:
        """Every ``rollout-*.jsonl`` under ``folder``."""
        return walk_files(folder, (".jsonl",), named=lambda name: name.startswith("rollout-"))

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session id from the opening ``session_meta`` (else from the file name).

        A subagent's rollout belongs to its parent thread's session.
        """
        meta = meta_payload(head[0]) if head and isinstance(head[0], Mapping) else None
        own = meta_id(meta) if meta is not None else None
        if own is None:
            found = _ID_IN_NAME.search(os.path.basename(path))
            own = found.group(1) if found else os.path.basename(path).removesuffix(".jsonl")
        parent = spawned_by(meta) if meta is not None else None
        if parent is not None:
            return SessionFile(path, parent, role="subagent", agent_id=own)
        return SessionFile(path, own)

    def linker(self, file: SessionFile) -> Linker:
        """Links each line to the one before; a fork's replayed lines are marked copied."""
        return _Linker()


HOOK: Final = CodexHook()
"""Codex's session hook."""
