"""Where GitHub Copilot CLI keeps its sessions: ``~/.copilot/session-state``.

Each session is a folder ``session-state/<session id>/`` holding ``events.jsonl`` (the same
events ``--output-format json`` prints); older versions wrote ``session-state/<id>.jsonl``.
The Copilot folder is ``~/.copilot``; with ``$XDG_CONFIG_HOME`` set, Copilot CLI uses
``$XDG_CONFIG_HOME/.copilot`` as well, and both are looked in. The session id is the folder's
(or the file's) name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from .._sessions import LinearHook
from .._sessions import SessionFile
from .._sessions import walk_files

__all__ = ["HOOK", "Hook", "state_folders"]

EVENTS: Final = "events.jsonl"


def state_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """Copilot CLI's session-state folders (existing or not)."""
    home = env.get("HOME") or os.path.expanduser("~")
    out = [os.path.join(home, ".copilot", "session-state")]
    xdg = env.get("XDG_CONFIG_HOME")
    if xdg:
        out.append(os.path.join(xdg, ".copilot", "session-state"))
    return tuple(out)


class Hook(LinearHook):
    """Copilot CLI: one ``events.jsonl`` (or legacy ``<id>.jsonl``) is one session."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``~/.copilot/session-state`` (and under ``$XDG_CONFIG_HOME`` when set)."""
        return state_folders(env)

    def files(self, folder: str) -> Iterator[str]:
        """Each session folder's ``events.jsonl``, and the older one-file sessions."""
        for path in walk_files(folder, (".jsonl",)):
            parent = os.path.dirname(path)
            if os.path.basename(path) == EVENTS or os.path.samefile(parent, folder):
                yield path

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session is the folder ``events.jsonl`` is in, else the file's name."""
        if os.path.basename(path) == EVENTS:
            return SessionFile(path, os.path.basename(os.path.dirname(path)) or path)
        return super().locate(path, head)


HOOK: Final = Hook("copilot")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``copilot``."""
