"""Where Qwen Code keeps its chats, and how their records link.

Chats live in ``~/.qwen/projects/<cwd, made a folder name>/chats/<session id>.jsonl``
(``$QWEN_HOME`` replaces ``~/.qwen``). Every record carries the session's ``sessionId`` and
links to the one it follows by ``uuid`` and ``parentUuid``, Claude Code's way: the records
form a tree, and a branch (``/branch``, a retried turn) is another child of the same parent.
A ``system`` record of subtype ``chat_compression`` marks a compaction, ``custom_title``
titles the session, ``ui_telemetry`` and the other system records are no conversation. A
subagent's records carry ``isSidechain``; a forked session's, ``forkedFrom`` (the session
and message they were copied from).

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
from ...message import Message
from ...roles import AssistantMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import is_prompt
from .._sessions import walk_files
from .._sessions import wire_fields

__all__ = ["HOOK", "QwenHook", "forked_from", "parent_uuid", "session_id", "title_of"]


# -- accessors: the one place wire fields are read ---------------------------------------------


def session_id(obj: Any) -> str | None:
    """A parsed record's ``sessionId``."""
    value = obj.get("sessionId") if isinstance(obj, Mapping) else None
    return value if type(value) is str else None


def parent_uuid(message: Message) -> str | None:
    """A decoded record's ``parentUuid`` (kept in ``extra``, or in a raw record's line)."""
    value = (getattr(message, "extra", None) or {}).get("parentUuid")
    if value is None:
        value = wire_fields(message).get("parentUuid")
    return value if type(value) is str else None


def forked_from(message: Message) -> str | None:
    """The session a forked record was copied from (``forkedFrom.sessionId``)."""
    value = (getattr(message, "extra", None) or {}).get("forkedFrom")
    found = value.get("sessionId") if isinstance(value, Mapping) else None
    return found if type(found) is str else None


def title_of(message: Message) -> str | None:
    """A ``custom_title`` record's title."""
    if isinstance(message, SystemEventMessage) and message.subtype == "custom_title":
        value = message.data.get("customTitle")
        return value if type(value) is str and value else None
    return None


def _field(message: Message, key: str) -> Any:
    return (getattr(message, "extra", None) or {}).get(key)


# -- the hook -------------------------------------------------------------------------------


class _Linker:
    __slots__ = ()

    def link(self, message: Message) -> Link:
        uuid = getattr(message, "uuid", None)
        if uuid is None:
            uuid = wire_fields(message).get("uuid")
            uuid = uuid if type(uuid) is str else None
        usage = getattr(message, "usage", None)
        origin = forked_from(message)
        cwd = _field(message, "cwd")
        return Link(
            uuid,
            parent_uuid(message) if uuid is not None else None,
            conversation=isinstance(message, UserMessage | AssistantMessage | ToolMessage),
            prompt=is_prompt(message),
            compaction=isinstance(message, SystemEventMessage)
            and message.subtype == "chat_compression",
            sidechain=_field(message, "isSidechain") is True,
            copied=origin is not None,
            origin=origin,
            call=uuid if isinstance(message, AssistantMessage) and usage is not None else None,
            title=title_of(message),
            cwd=cwd if type(cwd) is str else None,
        )


class QwenHook:
    """Qwen Code's chats: ``.qwen/projects/<project>/chats/<session>.jsonl``."""

    __slots__ = ()

    name: Final = "qwen_code"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$QWEN_HOME/projects``, else ``~/.qwen/projects``; and ``tmp`` beside it.

        Older versions kept their prompt logs (``logs.json``) in ``tmp``.
        """
        home = home_folder(env)
        qwen = env.get("QWEN_HOME") or os.path.join(home, ".qwen")
        return (os.path.join(qwen, "projects"), os.path.join(qwen, "tmp"))

    def files(self, folder: str) -> Iterator[str]:
        """The chat files under ``folder``: JSON Lines files in a ``chats`` folder."""
        for path in walk_files(folder, (".jsonl",)):
            if os.path.basename(os.path.dirname(path)) == "chats":
                yield path

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session of the file's first record that names one (the file name else)."""
        found = next((s for s in map(session_id, head) if s is not None), None)
        if found is None:
            return None
        chats = os.path.dirname(path)
        project = (
            os.path.basename(os.path.dirname(chats)) if os.path.basename(chats) == "chats" else None
        )
        return SessionFile(path, found, project=project)

    def linker(self, file: SessionFile) -> Linker:
        """A linker (stateless: every record names its parent)."""
        return _Linker()


HOOK: Final = QwenHook()
"""Qwen Code's session hook."""
