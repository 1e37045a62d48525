"""Where ZCode keeps its ``db.sqlite``, and how the rows of one of its sessions link.

The database is ``cli/db/db.sqlite`` under ``$ZCODE_HOME`` (a comma-separated list is allowed,
as ccusage reads it), else under ``~/.zcode``. Each session of the database is one session
file (``db.sqlite#session=<id>``, see :mod:`messages.adapters._stores`): its ``session`` row
(the working directory), then its model calls in time order, each one call's usage.
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
from .._sessions import ChainLinker
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._stores import session_paths
from .._stores import split
from .store import FILE

__all__ = ["HOOK", "ZCodeHook", "database_folders"]


def database_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """The folders ZCode's database is in, by its own rules (existing or not)."""
    return tuple(
        os.path.join(home, "cli", "db") for home in agent_folders(env, "ZCODE_HOME", (".zcode",))
    )


class _Linker(ChainLinker):
    __slots__ = ()

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        if isinstance(message, InitMessage):  # the session row: its working directory
            return Link(None, None, cwd=message.cwd)
        call = None
        if isinstance(message, ResultMessage) and message.usage is not None:
            call = message.uuid or f"row {index}"  # one model call
        ident = f"row {index}"
        return Link(ident, self.chain(ident), conversation=False, call=call)


class ZCodeHook:
    """Each session of ZCode's ``db.sqlite`` is a session: its rows, one after the other."""

    __slots__ = ()

    name: Final = "zcode"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The ``cli/db`` folder of each ZCode home."""
        return database_folders(env)

    def files(self, folder: str) -> Iterator[str]:
        """Each session of the ``db.sqlite`` in ``folder``."""
        path = os.path.join(folder, FILE)
        if os.path.isfile(path):
            yield from session_paths(path)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session of a session path (else the file's own name)."""
        base, session = split(path)
        return SessionFile(path, session or os.path.basename(base))

    def linker(self, file: SessionFile) -> Linker:
        """Links each row to the one before."""
        return _Linker()


HOOK: Final = ZCodeHook()
"""ZCode's session hook."""
