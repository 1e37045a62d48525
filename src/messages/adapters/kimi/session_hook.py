"""Where Kimi CLI keeps its sessions: ``~/.kimi/sessions/<group>/<session>/wire.jsonl``.

The data folder is ``$KIMI_DATA_DIR`` (several, comma-separated, as ccusage allows), else
``~/.kimi``; each session is a folder two levels under ``sessions/`` (a work-directory group,
then the session id) holding ``wire.jsonl`` and ``context.jsonl``. The session id is the
folder's name, so both files are one session. Its records are the wire file's, which records
everything the context file holds (and each call's usage); a session with only a context file
(older Kimi CLI releases wrote no wire file) is read from it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import ResultMessage
from ...message import Message
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import walk_files

__all__ = ["HOOK", "Hook", "data_folders"]

WIRE: Final = "wire.jsonl"
CONTEXT: Final = "context.jsonl"


def data_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """Kimi CLI's data folders by its own rules (existing or not)."""
    return agent_folders(env, "KIMI_DATA_DIR", (".kimi",))


class Hook(LinearHook):
    """Kimi CLI: one ``wire.jsonl`` is one session."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The ``sessions`` folder of each data folder."""
        return tuple(os.path.join(d, "sessions") for d in data_folders(env))

    def files(self, folder: str) -> Iterator[str]:
        """The ``wire.jsonl`` and ``context.jsonl`` files under ``folder``."""
        return walk_files(folder, (".jsonl",), named=lambda name: name in (WIRE, CONTEXT))

    def read(self, files: Sequence[SessionFile]) -> Iterator[Message]:
        """The wire file's records; without one, the context file's (the current one first)."""
        from .. import get

        wire = [f for f in files if os.path.basename(f.path) == WIRE]
        context = sorted(
            (f for f in files if f not in wire),
            key=lambda f: os.path.basename(f.path) != CONTEXT,
        )
        for file in wire or context[:1]:
            with open(file.path, "rb") as fp:
                yield from get(self.name).iter_decode(fp)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session is the folder the wire file is in; its group is the project."""
        folder = os.path.dirname(path)
        group = os.path.basename(os.path.dirname(folder)) or None
        return SessionFile(path, os.path.basename(folder) or path, project=group)

    def session_of(self, path: str) -> tuple[str | None, str | None]:
        """The session of a wire or context file: its folder's name (for ``stats``)."""
        name = os.path.basename(path)
        if name != WIRE and not (name.startswith("context") and name.endswith(".jsonl")):
            return None, None
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or None, None

    def amend(self, message: Message, link: Link) -> Link:
        """A chain in file order; each status update is one API call's usage."""
        if isinstance(message, ResultMessage) and message.subtype == "status":
            return Link(link.id, link.parent, call=message.message_id or f"line {link.id}")
        return link


HOOK: Final = Hook("kimi")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``kimi``."""
