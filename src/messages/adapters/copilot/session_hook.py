"""Where the GitHub Copilot CLI keeps its sessions, and how the events of a session file link.

The CLI writes each interactive or ``-p`` session to
``~/.copilot/session-state/<session id>/events.jsonl`` (``$COPILOT_HOME`` replaces
``~/.copilot``); builds before the per-session folders wrote ``session-state/<id>.jsonl``, and
some moved older sessions to ``history-session-state/``. A file is one session: the same
session events that ``copilot -p ... --output-format json`` prints, minus the ephemeral ones
(deltas, ``assistant.usage``), which are not persisted. Each event names the event before it
in ``parentId``, but that may be an ephemeral event the file does not hold: the session is
linked as a chain in file order instead (which is the same chain where nothing is missing).
The session id is the folder's name (or
``session.start``'s ``sessionId``, for a loose file).

Usage: each ``assistant.message``'s ``outputTokens`` is its call's usage (keyed by its
``messageId``); an ``assistant.usage`` event, where a file holds one (a saved ``-p`` run),
reports the same call in full and is not counted again; a ``-p`` run's ``result`` gives the
run's totals (input included, which the replies do not report), and wins over the replies.
So does a ``session.shutdown`` (the session's totals per model, see :mod:`.shutdown`): a
resumed session writes one per process, each restating the totals so far, so they are one
call whose most complete figures count.

Every read of a wire field is in the accessors at the top of this module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...message import Message
from ...roles import AssistantMessage
from .._sessions import RESULT_CALL
from .._sessions import ChainLinker
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import in_conversation
from .._sessions import is_prompt
from .._sessions import typed_text
from .._sessions import walk_files
from .._sessions import wire_fields
from .shutdown import is_shutdown

__all__ = ["CopilotHook", "EVENTS", "FOLDERS", "HOOK", "event_id", "started_session"]

EVENTS: Final = "events.jsonl"
"""The name of a session folder's event log."""
FOLDERS: Final = ("session-state", "history-session-state")
"""The folders under the Copilot home that hold sessions (the second: older, moved ones)."""


# -- accessors: the one place wire fields are read ---------------------------------------------


def event_id(message: Message) -> str | None:
    """An event's ``id`` (decoded as ``uuid``; a kept event has it in its fields)."""
    found = getattr(message, "uuid", None) or wire_fields(message).get("id")
    return found if type(found) is str and found else None


def started_session(head: Sequence[Any]) -> str | None:
    """The ``sessionId`` of a ``session.start`` among a file's first events."""
    for obj in head:
        if isinstance(obj, Mapping) and obj.get("type") == "session.start":
            data = obj.get("data")
            value = data.get("sessionId") if isinstance(data, Mapping) else None
            return value if type(value) is str and value else None
    return None


# -- the hook ------------------------------------------------------------------------------------


class _Linker(ChainLinker):
    __slots__ = ()

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        ident = event_id(message) or f"line {index}"
        parent = self.chain(ident)
        if isinstance(message, InitMessage):
            return Link(ident, parent, cwd=message.cwd)
        call = None
        if isinstance(message, AssistantMessage) and message.usage is not None:
            call = message.message_id or ident
        elif isinstance(message, ResultMessage) and is_shutdown(message):
            call = f"{RESULT_CALL}shutdown"  # running totals: the most complete one counts
        elif isinstance(message, ResultMessage) and message.usage is not None:
            call = f"{RESULT_CALL}{index}"  # a -p run's result: its totals, input included
        text = typed_text(message)  # a ``user.message`` decodes flat
        prompt = is_prompt(message) or text is not None
        conversation = in_conversation(message)
        return Link(ident, parent, conversation=conversation, prompt=prompt, call=call, text=text)


class CopilotHook:
    """Copilot CLI's session store: a folder per session, its ``events.jsonl`` a chain."""

    __slots__ = ()

    name: Final = "copilot"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$COPILOT_HOME/session-state`` (else ``~/.copilot/...``), and the older folder."""
        home = home_folder(env)
        base = env.get("COPILOT_HOME") or os.path.join(home, ".copilot")
        return tuple(os.path.join(base, folder) for folder in FOLDERS)

    def files(self, folder: str) -> Iterator[str]:
        """Every session folder's ``events.jsonl``, and the older loose ``<id>.jsonl`` files."""
        for path in walk_files(folder, (".jsonl",)):
            parent = os.path.dirname(path)
            if os.path.basename(path) == EVENTS or os.path.samefile(parent, folder):
                yield path

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session id: an ``events.jsonl``'s folder, else ``session.start``'s, else the name."""
        if os.path.basename(path) == EVENTS:
            folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
            if folder:
                return SessionFile(path, folder)
        own = started_session(head)
        stem = os.path.basename(path).removesuffix(".jsonl")
        return SessionFile(path, own or stem)

    def linker(self, file: SessionFile) -> Linker:
        """Links each event to the one before it."""
        return _Linker()


HOOK: Final = CopilotHook()
"""The Copilot CLI's session hook."""
