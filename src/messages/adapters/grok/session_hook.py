"""Where Grok Build keeps its sessions: ``~/.grok/sessions/<cwd>/<session>/updates.jsonl``.

The home folder is ``$GROK_HOME`` (several, comma-separated, as ccusage allows), else
``~/.grok``. Under its ``sessions`` folder each working directory has a folder (its path,
percent-encoded: ``%2Fworkspace%2Fapi``), and each session a folder of its own holding
``updates.jsonl`` (the log read here), ``summary.json`` and ``signals.json`` (Grok's own
digests, not read). The session id is the session folder's name; the project is the decoded
working directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import replace
from typing import Any
from typing import Final
from urllib.parse import unquote

from ...events.run import ResultMessage
from ...message import Message
from .._sessions import RESULT_CALL
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import walk_files

__all__ = ["HOOK", "Hook", "LOG"]

LOG: Final = "updates.jsonl"
"""The one file of a session that is read."""


class Hook(LinearHook):
    """Grok Build: one ``updates.jsonl`` is one session."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The ``sessions`` folder of each home folder (``$GROK_HOME``, else ``~/.grok``)."""
        homes = agent_folders(env, "GROK_HOME", (".grok",))
        return tuple(os.path.join(home, "sessions") for home in homes)

    def files(self, folder: str) -> Iterator[str]:
        """The ``updates.jsonl`` files under ``folder``."""
        return (p for p in walk_files(folder, (".jsonl",)) if os.path.basename(p) == LOG)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session is the log's folder; the project, the working directory above it."""
        folder = os.path.dirname(os.path.abspath(path))
        project = unquote(os.path.basename(os.path.dirname(folder))) or None
        return SessionFile(path, os.path.basename(folder) or path, project=project)

    def amend(self, message: Message, link: Link) -> Link:
        """A finished turn's usage is one call, keyed by its event id.

        A line written twice counts once, as ccusage counts it.
        """
        if isinstance(message, ResultMessage) and message.uuid and link.call is not None:
            return replace(link, call=f"{RESULT_CALL}{message.uuid}")
        return link

    def session_of(self, path: str) -> tuple[str | None, str | None]:
        """The session of a log: its folder's name (for ``stats``)."""
        if os.path.basename(path) != LOG:
            return None, None
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or None, None


HOOK: Final = Hook("grok")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``grok``."""
