"""Where Factory Droid keeps its sessions: ``~/.factory/sessions/<project>/<id>.jsonl``.

The folder is ``$DROID_SESSIONS_DIR`` (several, comma-separated, as ccusage allows), else
``~/.factory/sessions``; each project folder (the working directory with ``/`` as ``-``)
holds a transcript ``<id>.jsonl`` and its ``<id>.settings.json``, which reports the session's
token totals. Both files are the session named by the file name.
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
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import walk_files

__all__ = ["HOOK", "Hook", "session_folders"]

_SETTINGS: Final = ".settings.json"


def session_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """Droid's session folders by its own rules (existing or not)."""
    return agent_folders(env, "DROID_SESSIONS_DIR", (".factory", "sessions"))


class Hook(LinearHook):
    """Droid: a transcript and its settings file make a session."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$DROID_SESSIONS_DIR``, else ``~/.factory/sessions``."""
        return session_folders(env)

    def files(self, folder: str) -> Iterator[str]:
        """Transcripts and settings files, each transcript before its settings."""
        yield from walk_files(folder, (".jsonl", _SETTINGS))

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session is the file name; the project is the folder it is in."""
        name = os.path.basename(path)
        session = name.removesuffix(_SETTINGS).removesuffix(".jsonl")
        project = os.path.basename(os.path.dirname(path)) or None
        return SessionFile(path, session, project=project)

    def session_of(self, path: str) -> tuple[str | None, str | None]:
        """The session a transcript or settings file belongs to: its name (for ``stats``)."""
        found = self.locate(path, ())
        return (None if found is None else found.session), None

    def amend(self, message: Message, link: Link) -> Link:
        """A chain in file order; the settings file reports the usage, outside the chain."""
        if isinstance(message, ResultMessage) and message.subtype == "session":
            return Link(None, None, call="session")  # the session's totals: one report
        if isinstance(message, InitMessage):
            title = message.extra.get("sessionTitle") or message.extra.get("title")
            return Link(
                link.id,
                link.parent,
                title=title if isinstance(title, str) and title else None,
                cwd=message.cwd,
            )
        return link


HOOK: Final = Hook("droid")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``droid``."""
