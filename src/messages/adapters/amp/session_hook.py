"""Where Amp keeps its threads: ``$AMP_DATA_DIR/threads``, else the XDG data folder's.

Amp's data folder is ``$AMP_DATA_DIR`` (several, comma-separated, as ccusage allows), else
``$XDG_DATA_HOME/amp``, else ``~/.local/share/amp``; each thread is ``threads/T-<uuid>.json``.
One file is one session (the thread), its entries a single chain; the header names it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import InitMessage
from ...message import Message
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import walk_files
from .thread import is_thread

__all__ = ["HOOK", "Hook", "data_folders"]


def data_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """Amp's data folders by its own rules (existing or not)."""
    return agent_folders(env, "AMP_DATA_DIR", (".local", "share", "amp"), xdg="amp")


class Hook(LinearHook):
    """Amp: one thread file is one session."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The ``threads`` folder of each data folder."""
        return tuple(os.path.join(d, "threads") for d in data_folders(env))

    def files(self, folder: str) -> Iterator[str]:
        """The thread files (``T-*.json``) under ``folder``."""
        return walk_files(folder, (".json",), named=lambda name: name.startswith("T-"))

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """A thread file is the session its ``id`` names."""
        for obj in head[:1]:
            if is_thread(obj):
                return SessionFile(path, obj["id"])
        for m in head[:1]:
            ident = getattr(m, "session_id", None)
            if isinstance(ident, str):
                return SessionFile(path, ident)
        return None

    def amend(self, message: Message, link: Link) -> Link:
        """A chain in file order; the header is the root and gives the title."""
        if isinstance(message, InitMessage):
            title = message.extra.get("title")
            if isinstance(title, str) and title:
                return Link(link.id, link.parent, title=title)
        return link


HOOK: Final = Hook("amp")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``amp``."""
