"""Where Kilo keeps its sessions: ``kilo.db`` in its data folder.

The folder is ``$KILO_DATA_DIR`` (several, comma-separated, as ccusage allows), else
``$XDG_DATA_HOME/kilo``, else ``~/.local/share/kilo``. A session is read as OpenCode's are:
the session row, then each message with its parts as blocks, in time order.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Final

from ...events.run import InitMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import opencode_storage
from .._sessions import ChainLinker
from .._sessions import DatabaseHook
from .._sessions import Link
from .._sessions import Linker
from .._sessions import SessionFile
from .._sessions import agent_folders
from .._sessions import is_prompt
from . import DATABASE
from . import is_database
from . import read_database

__all__ = ["HOOK", "Hook", "data_folders"]


def data_folders(env: Mapping[str, str]) -> tuple[str, ...]:
    """Kilo's data folders by its own rules (existing or not)."""
    return agent_folders(env, "KILO_DATA_DIR", (".local", "share", "kilo"), xdg="kilo")


class _Linker(ChainLinker):
    """The session row is the root and names the session; messages follow in time order."""

    __slots__ = ()

    def link(self, message: Message) -> Link:
        if isinstance(message, InitMessage):
            row = message.extra.get("row")
            title = row.get("title") if isinstance(row, Mapping) else None
            self.last = f"session:{message.session_id}"
            return Link(
                self.last, None, title=title if isinstance(title, str) else None, cwd=message.cwd
            )
        parent = self.last
        if isinstance(message, UserMessage | AssistantMessage) and message.message_id:
            self.last = message.message_id
            call = self.last if isinstance(message, AssistantMessage) and message.usage else None
            return Link(self.last, parent, conversation=True, prompt=is_prompt(message), call=call)
        return Link(None, parent)


class Hook(DatabaseHook):
    """Kilo: sessions are rows of ``kilo.db``."""

    __slots__ = ()

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$KILO_DATA_DIR``, else the XDG data folder's ``kilo``."""
        return data_folders(env)

    def read(self, files: Sequence[SessionFile]) -> Iterator[Message]:
        """A session's rows, joined as OpenCode's are."""
        records: list[Message] = []
        for f in files:
            records += read_database(f.path, [f.session])
        return iter(opencode_storage.join(records))

    def linker(self, file: SessionFile) -> Linker:
        """A linker for a session's joined messages."""
        return _Linker()


HOOK: Final = Hook("kilo", DATABASE, is_database, opencode_storage.session_ids)
"""The hook :func:`messages.adapters._sessions.hook` hands out for ``kilo``."""
