"""Where OpenCode keeps its sessions, and how a session's records join into a conversation.

OpenCode's data folder is ``$OPENCODE_DATA_DIR`` (several folders may be given, separated by
commas, as ccusage allows), else ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``.
In it, a session is spread over many files: ``storage/session/<project>/<id>.json`` (the
session record), ``storage/message/<id>/*.json`` (one per message) and
``storage/part/<message>/*.json`` (one per part), or over rows of ``opencode.db`` (and the
``opencode-<channel>.db`` files other release channels write). Every file names its session,
so files are grouped by that id; a database holds many sessions (:meth:`Hook.split`).

A session is read whole (:meth:`Hook.read`): each message record becomes a role message whose
blocks are its parts (text, reasoning, tool call with its result, and the other parts kept as
raw blocks), in time order, after the session record. A record held both in the database and
in a JSON file is read once, from the database, as ccusage does.
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
from ...roles import AssistantMessage
from ...roles import UserMessage
from .._sessions import ChainLinker
from .._sessions import LinearHook
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import is_prompt
from . import database
from . import is_database
from . import iter_decode
from . import read_database
from .conversation import join
from .conversation import record_key as _key
from .documents import session_of

__all__ = ["HOOK", "Hook", "data_folders"]

_STORES: Final = ("session", "message", "part")


def data_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """OpenCode's data folders by its own rules (existing or not)."""
    home = (".local", "share", "opencode")
    return agent_folders(env, "OPENCODE_DATA_DIR", home, xdg="opencode")


def _is_store_name(name: str) -> bool:
    if name == "opencode.db":
        return True
    channel = name.removeprefix("opencode-").removesuffix(".db")
    return (
        name.startswith("opencode-")
        and name.endswith(".db")
        and bool(channel)
        and all(c.isalnum() or c in "_-" for c in channel)
    )


def _walk(folder: str) -> Iterator[str]:
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".json") and not name.startswith("."):
                yield os.path.join(top, name)


class _Linker(ChainLinker):
    """Chains a session's joined messages; the session record is the root and names it."""

    __slots__ = ()

    def link(self, message: Message) -> Link:
        if isinstance(message, InitMessage):
            title = message.extra.get("title")
            row = message.extra.get("row")
            if title is None and isinstance(row, Mapping):
                title = row.get("title")
            ident = f"session:{message.session_id}"
            self.last = ident
            return Link(
                ident,
                None,
                title=title if isinstance(title, str) and title else None,
                cwd=message.cwd,
            )
        parent = self.last
        if isinstance(message, UserMessage | AssistantMessage) and message.message_id:
            ident = message.message_id
            path = message.extra.get("path")
            cwd = path.get("cwd") if isinstance(path, Mapping) else None
            call = ident if isinstance(message, AssistantMessage) and message.usage else None
            self.last = ident
            return Link(
                ident,
                parent,
                conversation=True,
                prompt=is_prompt(message),
                call=call,
                cwd=cwd if isinstance(cwd, str) else None,
            )
        key = _key(message)
        return Link(None if key is None else f"{key[0]}:{key[1]}", parent)


class Hook(LinearHook):
    """OpenCode's store: JSON record files and SQLite databases in its data folder."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$OPENCODE_DATA_DIR`` (comma-separated), else the XDG data folder's ``opencode``."""
        return data_folders(env)

    def files(self, folder: str) -> Iterator[str]:
        """The record files under ``storage/``, then the databases, of a data folder."""
        for store in _STORES:
            yield from _walk(os.path.join(folder, "storage", store))
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return
        for name in names:
            if _is_store_name(name) and os.path.isfile(os.path.join(folder, name)):
                yield os.path.join(folder, name)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """A record file belongs to the session it names."""
        for obj in head[:1]:
            session = session_of(obj)
            if session is not None:
                return SessionFile(path, session)
        return None

    def split(self, path: str) -> list[SessionFile] | None:
        """A database's sessions, one :class:`SessionFile` each (``None``: not a database)."""
        if not is_database(path):
            return None
        return [SessionFile(path, sid) for sid in database.session_ids(path)]

    def read(self, files: Sequence[SessionFile]) -> Iterator[Message]:
        """A session's records from all its files, each record once, joined."""
        records: list[Message] = []
        seen: set[tuple[str, str]] = set()
        stores = [f for f in files if database.is_database(f.path)]
        documents = [f for f in files if f not in stores]
        for f in stores:
            records += _unique(read_database(f.path, [f.session]), seen)
        for f in documents:
            with open(f.path, "rb") as fp:
                records += _unique(iter_decode(fp), seen)
        return iter(join(records))

    def linker(self, file: SessionFile) -> Linker:
        """A linker for a session's joined messages."""
        return _Linker()


def _unique(messages: Iterator[Message], seen: set[tuple[str, str]]) -> Iterator[Message]:
    for m in messages:
        key = _key(m)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        yield m


HOOK: Final = Hook("opencode_storage")
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``opencode_storage``."""
