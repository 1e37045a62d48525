"""Where Cline, Roo Code and Kilo Code keep their tasks, and how a task's files make a session.

A task is one session, and its folder is named after the task id:

- the Cline CLI and JetBrains plugin: ``~/.cline/data/sessions/<id>/<id>.messages.json``
  (``$CLINE_SESSION_DATA_DIR``, ``$CLINE_DATA_DIR/sessions`` and ``$CLINE_DIR/data/sessions``
  replace the folder, in that order);
- the VS Code extensions: ``<editor config>/User/globalStorage/<extension>/tasks/<id>/``,
  holding ``api_conversation_history.json``, ``ui_messages.json`` and ``task_metadata.json``
  (and, in newer Cline builds, the transcript).

The conversation files (the transcript, ``api_conversation_history.json``) are the session's
records, each following the one before. The UI log repeats what they say, so its items are
kept out of the conversation, but each ``api_req_started`` item reports one API request's
usage: in a task folder the usage comes from there (the conversation array's own ``metrics``,
written by newer VS Code builds alongside, would count the same requests again), and in a
transcript from its assistant messages' ``metrics``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import ResultMessage
from ...flat import RawMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...roles import AssistantMessage
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import is_prompt
from .._sessions import walk_files

__all__ = [
    "CLINE_EXTENSIONS",
    "ClineHook",
    "EDITORS",
    "FILES",
    "HOOK",
    "TRANSCRIPT",
    "transcript_id",
]

CLINE_EXTENSIONS: Final = (
    "saoudrizwan.claude-dev",
    "rooveterinaryinc.roo-cline",
    "kilocode.kilo-code",
)
"""The VS Code extension ids of Cline, Roo Code and Kilo Code."""
EDITORS: Final = ("Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf")
"""Editors (VS Code and its forks) whose ``User/globalStorage`` may hold task folders."""
FILES: Final = ("api_conversation_history.json", "ui_messages.json", "task_metadata.json")
"""The files of an older task folder."""
TRANSCRIPT: Final = ".messages.json"
"""How a newer transcript's name ends."""


# -- accessors: the one place wire fields are read ---------------------------------------------


def transcript_id(head: Sequence[Any]) -> str | None:
    """A transcript's ``sessionId``, from its parsed document."""
    doc = head[0] if head and isinstance(head[0], Mapping) else {}
    value = doc.get("sessionId")
    return value if type(value) is str and value else None


# -- the hook ------------------------------------------------------------------------------------


class _Linker:
    __slots__ = ("count", "kind", "last")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0
        self.last: str | None = None

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        if self.kind == "ui":  # what the UI showed: usage, nothing of the conversation
            report = isinstance(message, ResultMessage) and message.usage is not None
            return Link(None, None, call=f"ui {index}" if report else None)
        if self.kind == "metadata" or not isinstance(message, ROLE_TYPES):
            return Link(None, None)
        ident = f"{self.kind} {index}"
        parent, self.last = self.last, ident
        call = None
        if (
            self.kind == "transcript"
            and isinstance(message, AssistantMessage)
            and message.usage is not None
        ):
            call = message.uuid or ident
        return Link(
            ident,
            parent,
            conversation=not isinstance(message, RawMessage),
            prompt=is_prompt(message),
            call=call,
        )


def _kind(path: str) -> str:
    name = os.path.basename(path)
    if name.endswith(TRANSCRIPT):
        return "transcript"
    if name == "ui_messages.json":
        return "ui"
    if name == "task_metadata.json":
        return "metadata"
    return "history"


class ClineHook:
    """A task folder is one session: its conversation file, its UI log, its metadata."""

    __slots__ = ()

    name: Final = "cline"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The CLI's sessions folder, then every editor's task folders of the three extensions."""
        home = home_folder(env)
        data = env.get("CLINE_DATA_DIR") or os.path.join(
            env.get("CLINE_DIR") or os.path.join(home, ".cline"), "data"
        )
        places = [env.get("CLINE_SESSION_DATA_DIR") or os.path.join(data, "sessions")]
        configs = [
            env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"),
            os.path.join(home, "Library", "Application Support"),
        ]
        if env.get("APPDATA"):
            configs.append(env["APPDATA"])
        for config in configs:
            for editor in EDITORS:
                storage = os.path.join(config, editor, "User", "globalStorage")
                places += [os.path.join(storage, ext, "tasks") for ext in CLINE_EXTENSIONS]
        return tuple(places)

    def files(self, folder: str) -> Iterator[str]:
        """The task files under ``folder``: transcripts and the three older files."""
        return walk_files(
            folder, (".json",), named=lambda name: name.endswith(TRANSCRIPT) or name in FILES
        )

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The task id: a transcript's ``sessionId``, else the task folder's name."""
        folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
        own = transcript_id(head) if _kind(path) == "transcript" else None
        return SessionFile(path, own or folder or path)

    def linker(self, file: SessionFile) -> Linker:
        """Conversation records in order; UI items for their usage only."""
        return _Linker(_kind(file.path))


HOOK: Final = ClineHook()
"""The session hook of Cline, Roo Code and Kilo Code."""
