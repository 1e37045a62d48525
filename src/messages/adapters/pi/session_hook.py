"""Where pi keeps its sessions, and how the entries of a session file link.

Sessions live in ``~/.pi/agent/sessions/<cwd with / as ->/<time>_<id>.jsonl``
(``$PI_CODING_AGENT_DIR`` replaces ``~/.pi/agent``). A file is one session; it opens with a
``session`` header (``id``, ``cwd``, ``timestamp``; a forked session names the file it came
from in ``parentSession``, or ``branchedFrom`` in older files). Entries of format version 2
and later carry ``id`` and ``parentId``: the session is a tree, and its newest entry ends the
active branch. Older files have no ids: each entry follows the one before. A forked session
starts with a copy of the entries it was forked from, written with their first times, which
come before the header's: those are marked copied, so their usage counts in the session that
made the calls. A ``compaction`` entry is both the boundary and the summary the model saw.

Every read of a wire field is in the accessors at the top of this module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.agent import SystemEventMessage
from ...events.run import InitMessage
from ...flat import RawMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import is_prompt
from .._sessions import listed_folders
from .._sessions import walk_files
from .._sessions import wire_fields

__all__ = [
    "HOOK",
    "OPENCLAW_FOLDERS",
    "PiHook",
    "entry_id",
    "forked_from",
    "is_custom_message",
    "is_openclaw_session",
    "parent_id",
    "session_name",
]

_SUFFIX: Final = ".jsonl"
OPENCLAW_FOLDERS: Final = (".openclaw", ".clawdbot", ".moltbot", ".moldbot")
"""OpenClaw's state folders in the home folder (the first current, the others older names)."""


def is_openclaw_session(name: str) -> bool:
    """Whether a file name is an OpenClaw session file: ``*.jsonl``, or one it archived."""
    if name.startswith("."):
        return False
    stem, mark, rest = name.partition(_SUFFIX)
    return bool(stem and mark) and (not rest or rest.startswith((".deleted.", ".reset.")))


# -- accessors: the one place wire fields are read ---------------------------------------------


def entry_id(fields: Mapping[str, Any], message: Message) -> str | None:
    """An entry's ``id`` (decoded as ``uuid``; a raw entry keeps it in its fields)."""
    found = getattr(message, "uuid", None) or fields.get("id")
    return found if type(found) is str else None


def parent_id(fields: Mapping[str, Any], message: Message) -> tuple[bool, str | None]:
    """Whether the entry has a ``parentId`` key (the tree), and its value.

    A system event keeps the entry's fields in ``data`` and its ``parentId`` in ``extra``.
    """
    for found in (fields, getattr(message, "extra", None) or {}):
        if "parentId" in found:
            value = found["parentId"]
            return True, value if type(value) is str else None
    return False, None


def is_custom_message(message: Message) -> bool:
    """A ``custom_message`` entry: an extension's message, not something a person typed."""
    return isinstance(message, UserMessage) and message.extra.get("type") == "custom_message"


def forked_from(fields: Mapping[str, Any]) -> str | None:
    """The session a header says this one was forked from: its file's id part."""
    for key in ("parentSession", "branchedFrom"):
        value = fields.get(key)
        if type(value) is str and value:
            stem = os.path.basename(value).removesuffix(_SUFFIX)
            return stem.split("_", 1)[1] if "_" in stem else stem
    return None


def session_name(message: Message) -> str | None:
    """The name a ``session_info`` entry gives the session."""
    if isinstance(message, SystemEventMessage) and message.subtype == "session_info":
        name = message.data.get("name")
        return name if isinstance(name, str) and name else None
    return None


def _time(value: object) -> str | None:
    return value if type(value) is str else None


# -- the hook ------------------------------------------------------------------------------------


class _Linker:
    __slots__ = ("count", "last", "origin", "started", "tree")

    def __init__(self) -> None:
        self.count = 0
        self.last: str | None = None
        self.origin: str | None = None
        self.started: str | None = None
        self.tree = False

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        fields = wire_fields(message)
        if isinstance(message, InitMessage):
            self.origin = forked_from(fields)
            self.started = _time(message.timestamp)
            return Link(None, None, origin=self.origin, cwd=message.cwd)
        has_parent, parent = parent_id(fields, message)
        own = entry_id(fields, message)
        if has_parent and own is not None:
            self.tree = True
            ident = own
        else:  # an older file: each entry follows the one before
            ident = f"line {index}"
            parent = self.last
        self.last = ident
        stamp = _time(getattr(message, "timestamp", None))
        copied = bool(self.origin and self.started and stamp is not None and stamp < self.started)
        summary = isinstance(message, UserMessage) and message.summary == "compaction"
        conversation = (
            isinstance(message, ROLE_TYPES)
            or (isinstance(message, SystemEventMessage) and message.subtype == "bashExecution")
        ) and not isinstance(message, RawMessage)
        call = None
        if isinstance(message, AssistantMessage) and message.usage is not None:
            call = ident
        return Link(
            ident,
            None if summary else parent,
            logical_parent=parent if summary else None,
            conversation=conversation,
            prompt=is_prompt(message) and not is_custom_message(message),
            compaction=summary,
            summary=summary,
            copied=copied,
            origin=self.origin,
            call=call,
            title=session_name(message),
        )


class PiHook:
    """pi's session files: one session per file, a tree of entries (or a chain, when old)."""

    __slots__ = ()

    name: Final = "pi"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$PI_CODING_AGENT_DIR/sessions``, else ``~/.pi/agent/sessions``; then OpenClaw's.

        OpenClaw runs pi's agent and keeps pi's session files under its state folder
        (``agents/<agent>/sessions/``): ``$OPENCLAW_DIR`` (a comma-separated list), else
        ``~/.openclaw`` and the older ``~/.clawdbot``, ``~/.moltbot``, ``~/.moldbot``.
        """
        home = home_folder(env)
        agent = env.get("PI_CODING_AGENT_DIR") or os.path.join(home, ".pi", "agent")
        claw = listed_folders(env, "OPENCLAW_DIR")
        if not claw:
            claw = [os.path.join(home, name) for name in OPENCLAW_FOLDERS]
        return (os.path.join(agent, "sessions"), *claw)

    def files(self, folder: str) -> Iterator[str]:
        """Every ``*.jsonl`` under ``folder``; under OpenClaw's, its session files only.

        OpenClaw's session files sit in a ``sessions`` folder; one it archived ends in
        ``.jsonl.deleted.<time>`` or ``.jsonl.reset.<time>``.
        """
        if os.path.basename(os.path.normpath(folder)) not in OPENCLAW_FOLDERS:
            yield from walk_files(folder, (_SUFFIX,))
            return
        for top, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            if os.path.basename(top) != "sessions":
                continue
            for name in sorted(names):
                if is_openclaw_session(name):
                    yield os.path.join(top, name)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session id from the header (else the file name's part after ``_``).

        The project is the folder pi files the session under (its cwd, slashes as ``-``).
        """
        first = head[0] if head and isinstance(head[0], Mapping) else {}
        own = first.get("id") if first.get("type") == "session" else None
        if type(own) is not str:
            stem = os.path.basename(path).partition(_SUFFIX)[0]
            own = stem.split("_", 1)[1] if "_" in stem else stem
        project = os.path.basename(os.path.dirname(path)) or None
        return SessionFile(path, own, project=project)

    def linker(self, file: SessionFile) -> Linker:
        """Links each entry to its ``parentId`` (or, in older files, to the one before)."""
        return _Linker()


HOOK: Final = PiHook()
"""pi's session hook."""
