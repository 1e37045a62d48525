"""Where Hermes Agent keeps its ``state.db``, and how the rows of one of its sessions link.

``state.db`` lives in ``$HERMES_HOME`` (a comma-separated list is allowed, as ccusage reads it),
else ``~/.hermes``. Each session of the database is one session file
(``state.db#session=<id>``, see :mod:`messages.adapters._stores`): its ``sessions`` row (the
title, the folder, the session's usage), then its messages in time order. The records follow
one another; a user message is a prompt; the session's usage is one count.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from ...events.run import ResultMessage
from ...flat import TextMessage
from ...message import Message
from .._sessions import ChainLinker
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import in_conversation
from .._sessions import listed_folders
from .._stores import kept_row
from .._stores import session_paths
from .._stores import split

__all__ = ["HOOK", "HermesHook", "row_of", "session_cwd", "session_title"]


# -- accessors: the one place wire fields are read ---------------------------------------------


def row_of(message: Message) -> Mapping[str, Any]:
    """The table row a message was read from (empty when none)."""
    found = kept_row(message, "hermes")
    return found["row"] if found is not None else {}


def session_title(message: Message) -> str | None:
    """The ``title`` of a ``sessions`` row."""
    value = row_of(message).get("title") if isinstance(message, ResultMessage) else None
    return value if type(value) is str and value else None


def session_cwd(message: Message) -> str | None:
    """The ``cwd`` of a ``sessions`` row."""
    value = row_of(message).get("cwd") if isinstance(message, ResultMessage) else None
    return value if type(value) is str and value else None


# -- the hook ------------------------------------------------------------------------------------


class _Linker(ChainLinker):
    __slots__ = ()

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        if isinstance(message, ResultMessage):  # the sessions row: title, folder, usage
            call = message.uuid or f"row {index}" if message.usage is not None else None
            return Link(
                None, None, call=call, title=session_title(message), cwd=session_cwd(message)
            )
        ident = f"row {index}"
        parent = self.chain(ident)
        call = None
        prompt = isinstance(message, TextMessage) and message.role == "user"
        text = message.text if prompt and isinstance(message, TextMessage) else None
        conversation = in_conversation(message)  # a stream event has no role
        return Link(
            ident,
            parent,
            conversation=conversation,
            prompt=bool(prompt and text and text.strip()),
            call=call,
            text=text,
        )


class HermesHook:
    """Each session of a ``state.db`` is a session: its rows, one after the other."""

    __slots__ = ()

    name: Final = "hermes"

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$HERMES_HOME`` (comma-separated), else ``~/.hermes``."""
        given = listed_folders(env, "HERMES_HOME")
        if given:
            return tuple(given)
        home = home_folder(env)
        return (os.path.join(home, ".hermes"),)

    def files(self, folder: str) -> Iterator[str]:
        """Each session of the ``state.db`` in ``folder``."""
        path = os.path.join(folder, "state.db")
        if os.path.isfile(path):
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


HOOK: Final = HermesHook()
"""The Hermes Agent's session hook."""
