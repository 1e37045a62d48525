"""Where Goose keeps its sessions: one ``sessions.db`` holding them all.

The database is ``$GOOSE_PATH_ROOT/data/sessions/sessions.db`` when that variable is set,
else ``sessions/sessions.db`` under ``$XDG_DATA_HOME/goose`` (``~/.local/share/goose``), and
the places ccusage also looks: ``~/Library/Application Support/goose`` (macOS) and
``~/.local/share/Block/goose``. A session is its ``messages`` rows in order, then its
``sessions`` row, which names it (``name``, else ``description``) and reports its tokens.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Final

from ...events.run import ResultMessage
from ...message import Message
from .._sessions import DatabaseHook
from .._sessions import Link
from .._sessions import SessionFile
from .._sessions import home_folder
from . import is_database
from . import read_database
from . import session_ids
from .rows import ROW

__all__ = ["HOOK", "Hook", "session_folders"]

DB_NAME: Final = "sessions.db"


def session_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """The folders Goose's database may be in, by its own rules (existing or not)."""
    root = (env.get("GOOSE_PATH_ROOT") or "").strip()
    if root:
        return (os.path.join(root, "data", "sessions"),)
    home = home_folder(env)
    xdg = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return (
        os.path.join(xdg, "goose", "sessions"),
        os.path.join(home, "Library", "Application Support", "goose", "sessions"),
        os.path.join(home, ".local", "share", "Block", "goose", "sessions"),
    )


class Hook(DatabaseHook):
    """Goose: sessions are rows of one database."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The folders ``sessions.db`` may be in."""
        return session_folders(env)

    def read(self, files: Sequence[SessionFile]) -> Iterator[Message]:
        """A session's rows, from each database that holds it."""
        for f in files:
            yield from read_database(f.path, [f.session])

    def amend(self, message: Message, link: Link) -> Link:
        """A chain in order; the session row names the session and gives its directory."""
        row = message.extra.get(ROW) if isinstance(message, ResultMessage) else None
        if not isinstance(row, Mapping):
            return link
        name = row.get("name") or row.get("description")
        cwd = row.get("working_dir")
        return Link(
            link.id,
            link.parent,
            call=f"session:{message.session_id}",  # the session's totals: one report
            title=name if isinstance(name, str) and name else None,
            cwd=cwd if isinstance(cwd, str) and cwd else None,
        )


HOOK: Final = Hook("goose", DB_NAME, is_database, session_ids)
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``goose``."""
