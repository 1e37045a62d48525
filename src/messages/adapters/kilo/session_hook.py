"""Where the Kilo CLI keeps its database, and how the rows of one of its sessions link.

``kilo.db`` lives in ``$KILO_DATA_DIR`` (a comma-separated list is allowed, as ccusage reads
it), else ``~/.local/share/kilo``. Each session of the database is one session file
(``kilo.db#session=<id>``, see :mod:`messages.adapters._stores`): its ``session`` row (the
title, the folder), then its messages in time order, each followed by its parts. The records
follow one another; an assistant message row carries its call's usage, keyed by its id; a
user message's text part is a prompt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import InitMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...roles import AssistantMessage
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import walk_files
from .._stores import kept_row
from .._stores import session_paths
from .._stores import split

__all__ = ["HOOK", "KiloHook", "row_of", "session_title"]


# -- accessors: the one place wire fields are read ---------------------------------------------


def row_of(message: Message) -> Mapping[str, Any]:
    """The table row a message was read from (empty when none)."""
    found = kept_row(message, "kilo")
    return found["row"] if found is not None else {}


def session_title(message: Message) -> str | None:
    """The ``title`` of a ``session`` row."""
    value = row_of(message).get("title") if isinstance(message, InitMessage) else None
    return value if type(value) is str and value else None


# -- the hook ------------------------------------------------------------------------------------


class _Linker:
    __slots__ = ("count", "last")

    def __init__(self) -> None:
        self.count = 0
        self.last: str | None = None

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        if isinstance(message, InitMessage):
            return Link(None, None, title=session_title(message), cwd=message.cwd)
        ident = f"row {index}"
        parent, self.last = self.last, ident
        call = None
        if isinstance(message, AssistantMessage) and message.usage is not None:
            call = message.message_id or ident
        prompt = isinstance(message, TextMessage) and message.role == "user"
        text = message.text if prompt and isinstance(message, TextMessage) else None
        conversation = isinstance(message, ROLE_TYPES) or (
            getattr(message, "role", None) is not None
            and not isinstance(message, RawMessage | StreamEventMessage)
        )
        return Link(
            ident,
            parent,
            conversation=conversation,
            prompt=bool(prompt and text and text.strip()),
            call=call,
            text=text,
        )


class KiloHook:
    """Each session of a ``kilo.db`` is a session: its rows, one after the other."""

    __slots__ = ()

    name: Final = "kilo"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$KILO_DATA_DIR`` (comma-separated), else ``~/.local/share/kilo``."""
        given = [p.strip() for p in (env.get("KILO_DATA_DIR") or "").split(",") if p.strip()]
        if given:
            return tuple(given)
        home = env.get("HOME") or os.path.expanduser("~")
        return (os.path.join(home, ".local", "share", "kilo"),)

    def files(self, folder: str) -> Iterator[str]:
        """Each session of each ``kilo*.db`` under ``folder``."""
        for path in walk_files(folder, (".db",)):
            if os.path.basename(path).startswith("kilo"):
                yield from session_paths(path)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The session id of a session path (else of the first row, else the file's name)."""
        base, session = split(path)
        if session is None:
            first = head[0] if head and isinstance(head[0], Mapping) else {}
            row = first.get("row")
            row = row if isinstance(row, Mapping) else {}
            found = row.get("session_id") or row.get("id")
            session = found if type(found) is str else os.path.basename(base)
        return SessionFile(path, session)

    def linker(self, file: SessionFile) -> Linker:
        """Links each row to the one before."""
        return _Linker()


HOOK: Final = KiloHook()
"""The Kilo CLI's session hook."""
