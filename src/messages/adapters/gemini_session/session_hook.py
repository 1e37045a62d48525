"""Where Gemini CLI keeps its sessions, and how the records of a session file link.

Sessions live in ``~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json[l]``
(``$GEMINI_CLI_HOME`` replaces ``~``); a subagent's session is filed under its parent's, in
``chats/<parent session id>/``, with ``"kind": "subagent"`` in its metadata. The session id is
the metadata's ``sessionId``. A session is one chain of messages in file order; a message
recorded again (same ``id``) keeps its first place; ``{"$rewindTo": id}`` drops that message
and the ones after it, so the next message follows the one before it and what was dropped
becomes an abandoned branch. The metadata's ``summary`` (also set by a ``$set`` edit) titles
the session. ``logs.json`` and checkpoints are no session files.

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
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import is_prompt
from .._sessions import walk_files
from .._sessions import wire_fields

__all__ = ["GeminiSessionHook", "HOOK", "metadata", "rewind_to", "summary_of"]

_SUFFIXES: Final = (".json", ".jsonl")


# -- accessors: the one place wire fields are read ---------------------------------------------


def metadata(obj: Any) -> Mapping[str, Any] | None:
    """A session's metadata (the first record, or the whole legacy document), else ``None``."""
    if not isinstance(obj, Mapping) or "type" in obj or "id" in obj:
        return None
    if type(obj.get("sessionId")) is not str or type(obj.get("projectHash")) is not str:
        return None
    return obj


def summary_of(fields: Mapping[str, Any]) -> str | None:
    """The ``summary`` of metadata, or of a ``$set`` edit's fields."""
    value = fields.get("summary")
    return value if type(value) is str and value else None


def rewind_to(message: Message) -> str | None:
    """The message id a ``$rewindTo`` edit goes back to."""
    if isinstance(message, SystemEventMessage) and message.subtype == "$rewindTo":
        value = message.data.get("$rewindTo")
        return value if type(value) is str else None
    return None


def _edit(message: Message) -> Mapping[str, Any] | None:
    if isinstance(message, SystemEventMessage) and message.subtype == "$set":
        value = message.data.get("$set")
        return value if isinstance(value, Mapping) else None
    return None


# -- the hook -------------------------------------------------------------------------------


class _Linker:
    """Links a session's records: a chain, with rewinds starting a new branch."""

    __slots__ = ("last", "parents")

    def __init__(self) -> None:
        self.last: str | None = None
        self.parents: dict[str, str | None] = {}

    def link(self, message: Message) -> Link:
        if isinstance(message, InitMessage):
            return Link(None, None, title=summary_of(wire_fields(message)))
        back = rewind_to(message)
        if back is not None:
            self.last = self.parents.get(back)  # the next message follows the one before
            return Link(None, None)
        edit = _edit(message)
        if edit is not None:
            return Link(None, None, title=summary_of(edit))
        uuid = getattr(message, "uuid", None)
        if uuid is None:
            return Link(None, None)
        if uuid in self.parents:  # recorded again: the same message, in its first place
            parent = self.parents[uuid]
        else:
            parent = self.last
            self.parents[uuid] = parent
        self.last = uuid
        usage = getattr(message, "usage", None)
        return Link(
            uuid,
            parent,
            conversation=isinstance(message, UserMessage | AssistantMessage),
            prompt=is_prompt(message),
            call=uuid if isinstance(message, AssistantMessage) and usage is not None else None,
        )


class GeminiSessionHook:
    """Gemini CLI's sessions: ``.gemini/tmp/*/chats``, one file per session."""

    __slots__ = ()

    name: Final = "gemini_session"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$GEMINI_CLI_HOME/.gemini/tmp``, else ``~/.gemini/tmp``."""
        home = env.get("GEMINI_CLI_HOME") or home_folder(env)
        return (os.path.join(home, ".gemini", "tmp"),)

    def files(self, folder: str) -> Iterator[str]:
        """The session files under ``folder``: those in a ``chats`` folder (at any depth)."""
        for path in walk_files(folder, _SUFFIXES):
            if f"{os.sep}chats{os.sep}" in path:
                yield path

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session a file holds, from its metadata.

        A subagent's session is filed under its parent's id (the folder it is in).
        """
        meta = metadata(head[0]) if head else None
        if meta is None:
            return None
        session = meta["sessionId"]
        project = meta["projectHash"]
        if meta.get("kind") == "subagent":
            parent = os.path.basename(os.path.dirname(path))
            if parent != "chats":
                return SessionFile(path, parent, role="subagent", agent_id=session, project=project)
        return SessionFile(path, session, project=project)

    def linker(self, file: SessionFile) -> Linker:
        """A fresh linker for one file."""
        return _Linker()


HOOK: Final = GeminiSessionHook()
"""Gemini CLI's session hook."""
