"""Where Codebuff keeps its chats, and how the messages of a chat link.

The Codebuff CLI keeps each chat in ``<config>/<channel>/projects/<project>/chats/<chat
id>/chat-messages.json``: the channel is ``manicode`` (``manicode-dev``, ``manicode-staging``
for other builds) under ``~/.config``, and ``$CODEBUFF_DATA_DIR`` (a comma-separated list, each
a channel folder or its ``projects`` folder) replaces them, as ccusage reads it. A chat is one
session, named ``<channel>/<project>/<chat id>`` as ccusage names it; its messages follow one
another; a user message is a prompt; each reply with usage is one call.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime
from typing import Any
from typing import Final

from ...message import Message
from ...roles import AssistantMessage
from .._sessions import ChainLinker
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import in_conversation
from .._sessions import listed_folders
from .._sessions import typed_text
from .._sessions import walk_files

__all__ = ["CHANNELS", "CodebuffHook", "FILE", "HOOK", "chat_session", "chat_time"]

FILE: Final = "chat-messages.json"
"""A chat's file name."""
CHANNELS: Final = ("manicode", "manicode-dev", "manicode-staging")
"""The configuration folders of Codebuff's release, development and staging builds."""


def chat_session(path: str) -> tuple[str, str]:
    """``(session id, project)`` of a chat file, from its path."""
    chat_dir = os.path.dirname(os.path.abspath(path))
    chat = os.path.basename(chat_dir) or "unknown"
    project_dir = os.path.dirname(os.path.dirname(chat_dir))
    project = os.path.basename(project_dir) or "unknown"
    channel = os.path.basename(os.path.dirname(os.path.dirname(project_dir))) or "manicode"
    return f"{channel}/{project}/{chat}", project


def chat_time(path: str) -> str | None:
    """When a chat began, from its folder's name; else the chat file's last change (ISO)."""
    chat = os.path.basename(os.path.dirname(os.path.abspath(path)))
    day, mark, clock = chat.partition("T")
    if mark:
        text = f"{day}T{clock.replace('-', ':', 2)}"
        try:
            when = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            when = None
        if when is not None:
            return text
    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        return None
    moment = datetime.fromtimestamp(stamp, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class _Linker(ChainLinker):
    __slots__ = ()

    def link(self, message: Message) -> Link:
        ident = f"item {self.count}"
        self.count += 1
        parent = self.chain(ident)
        call = None
        if isinstance(message, AssistantMessage) and message.usage is not None:
            call = message.message_id or ident
        text = typed_text(message)
        conversation = in_conversation(message)
        prompt = text is not None
        return Link(ident, parent, conversation=conversation, prompt=prompt, call=call, text=text)


class CodebuffHook(LinearHook):
    """A chat file is one session, its messages in order."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("codebuff")

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """Each channel's ``projects`` folder (``$CODEBUFF_DATA_DIR`` replaces the channels)."""
        given = listed_folders(env, "CODEBUFF_DATA_DIR")
        if not given:
            home = home_folder(env)
            given = [os.path.join(home, ".config", c) for c in CHANNELS]
        return tuple(
            p if os.path.basename(p.rstrip("/")) == "projects" else os.path.join(p, "projects")
            for p in given
        )

    def files(self, folder: str) -> Iterator[str]:
        """Every ``chat-messages.json`` under ``folder``."""
        return walk_files(folder, (".json",), named=lambda name: name == FILE)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The chat's session: ``<channel>/<project>/<chat id>`` for a chat file."""
        if os.path.basename(path) != FILE:
            return super().locate(path, head)
        session, project = chat_session(path)
        return SessionFile(path, session, project=project)

    def session_of(self, path: str) -> tuple[str | None, str | None]:
        """A chat file's session, and when its undated replies happened (for ``stats``).

        As ccusage dates them: the time the chat folder is named after
        (``2026-01-02T03-04-05.678Z``: the first two ``-`` of the time are ``:``), else the
        file's last modification.
        """
        if os.path.basename(path) != FILE:
            return None, None
        session, _ = chat_session(path)
        return session, chat_time(path)

    def linker(self, file: SessionFile) -> Linker:
        """Each chat message follows the one before; a user message is a prompt."""
        return _Linker()


HOOK: Final = CodebuffHook()
"""Codebuff's session hook."""
