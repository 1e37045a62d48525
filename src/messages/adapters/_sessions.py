"""How one agent keeps its sessions on disk: the per-agent hook :mod:`messages.sessions` asks.

:mod:`messages.sessions` assembles a session (the conversation the model saw, its abandoned
branches, its subagents, its compactions, its usage counted once) from an agent's files. It
knows nothing of any one agent: everything agent-specific goes through a :class:`SessionHook`,
which says, for one agent,

1. **where** its sessions live by default (:meth:`SessionHook.roots`, honouring the agent's own
   override variables such as ``CLAUDE_CONFIG_DIR`` or ``CODEX_HOME``);
2. **which files** under a folder are its session files (:meth:`SessionHook.files`);
3. **what a file is** (:meth:`SessionHook.locate`): the session it belongs to, and whether it is
   the main transcript or a subagent's (:class:`SessionFile`), told from its path and its first
   parsed lines;
4. **how records link** (:meth:`SessionHook.linker`): for each decoded record of a file, in
   order, a :class:`Link` (its id, its parent's id, the logical parent across a compaction,
   whether the model saw it, whether it was copied from an earlier session, the key of the API
   call it reports, the subagent it starts...).

The adapters never import :mod:`messages.sessions`; it imports them. A format with nothing
special to say gets :class:`LinearHook`: one file is one session, its records in order, each
the child of the one before. :func:`hook` finds an agent's hook.

Adding an agent
---------------
Write ``src/messages/adapters/<name>/session_hook.py`` defining ``HOOK``, an object with the
four methods of :class:`SessionHook` (subclassing :class:`LinearHook` and overriding what
differs is the short way: :meth:`LinearHook.amend` adds what a record says to its link in the
chain, :func:`agent_folders` gives the usual default folders, :class:`DatabaseHook` serves
sessions that are rows of one database, :class:`ChainLinker` keeps a chain of one's own), and
add ``<name>`` to :data:`HOOKED`. Keep what the files say in
that one module: the record accessors (which wire field holds the id, the parent...) read the
decoded message's ``extra`` (or a :class:`~messages.RawMessage`'s ``data``) there and nowhere
else. Rules to follow:

- :meth:`~SessionHook.locate` may read only what it is given (the path and the first parsed
  objects); the loader reads each file's head once to group files, and the whole file once
  when its session is assembled.
- A :class:`Link` ``id`` is unique within a session's graph; a repeated id (a record written
  again) keeps its first place. ``parent=None`` makes a root; ``logical_parent`` joins a
  compaction boundary to the history it replaced.
- ``conversation=True`` for what the model saw (prompts, replies, tool calls and results,
  compaction summaries); progress lines, snapshots, token counts, metadata are ``False``.
- ``prompt=True`` for what a person typed (a turn; the first one titles the session). It may
  be set on a record the model did not see as such (Codex echoes each prompt as an event);
  ``text`` then gives the prompt's words.
- ``copied=True`` for a record a resume or fork copied from another session: it stays in the
  conversation but its usage belongs to the session it came from. ``origin`` names the session
  this one continues (on any record that says so).
- ``call`` is the key of the API call whose usage the record reports (records with the same key
  are one call, counted once); ``None`` for records that report no usage.
- ``group`` joins records that are one model response written as several lines (Claude Code
  writes one line per content block): an abandoned-looking sibling in a group on the active
  path is part of it, not a branch.

Two optional methods serve agents whose sessions are not one log file each (OpenCode's
store: a file per record, and a SQLite database holding many sessions):

- ``split(path) -> list[SessionFile] | None``: the sessions a store file (a ``.db``) holds,
  one :class:`SessionFile` each with the store's path (``None``: not this agent's store);
- ``read(files) -> Iterator[Message]``: the records of one session, read from all its files
  together (the loader then links them with one linker, from ``linker(files[0])``).

One more serves ``messages stats``, which reads file by file, for agents whose records do not
name their session:

- ``session_of(path) -> tuple[str | None, str | None]``: the session a file belongs to, told
  from its path alone, and the time (ISO 8601) a record of it without a time of its own
  happened (Codebuff's chat folders are named after the time the chat began); see
  :func:`path_session`.

>>> from messages import AssistantMessage, UserMessage, Usage
>>> linker = LinearHook("native").linker(SessionFile("a.jsonl", "a"))
>>> [linker.link(m) for m in (UserMessage("hi"), AssistantMessage("yo", usage=Usage(1, 2)))]
... # doctest: +NORMALIZE_WHITESPACE
[Link(id='0', parent=None, conversation=True, prompt=True),
 Link(id='1', parent='0', conversation=True, call='line 1')]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import KW_ONLY
from dataclasses import dataclass
from dataclasses import fields
from importlib import import_module
from typing import Any
from typing import Final
from typing import Literal
from typing import Protocol
from typing import final

from ..blocks import TextBlock
from ..blocks import ToolResultBlock
from ..events.records import ProgressMessage
from ..events.run import ResultMessage
from ..flat import RawMessage
from ..flat import TextMessage
from ..message import ROLE_TYPES
from ..message import Message
from ..roles import AssistantMessage
from ..roles import UserMessage

__all__ = [
    "ARCHIVED",
    "HOOKED",
    "LOG_SUFFIXES",
    "ChainLinker",
    "DatabaseHook",
    "Link",
    "LinearHook",
    "Linker",
    "RESULT_CALL",
    "SessionFile",
    "SessionHook",
    "agent_folders",
    "home_folder",
    "hook",
    "in_conversation",
    "is_archived",
    "is_prompt",
    "listed_folders",
    "path_session",
    "typed_text",
    "wire_fields",
]

RESULT_CALL: Final = "result "
"""The prefix of a :class:`Link` ``call`` that is a run's result (``step_finish``,
``turn.completed``, a headless run's ``result``): where a session has any, its usage is the
sum of its results, and the replies' own usage (which the results already hold, or hold more
completely: Copilot's replies report output only) is left out, as ``messages stats`` does."""

HOOKED: Final = (
    "claude_code",
    "codex",
    "gemini_session",
    "qwen_code",
    "pi",
    "cline",
    "opencode_storage",
    "amp",
    "goose",
    "droid",
    "kimi",
    "copilot",
    "kilo",
    "copilot_otel",
    "hermes",
    "codebuff",
    "grok",
    "zcode",
)
"""The adapters with a hook of their own (``adapters/<name>/session_hook.py``)."""

LOG_SUFFIXES: Final = (".jsonl", ".json", ".ndjson", ".jsonlines")
"""File endings a folder is searched for when a hook does not say otherwise."""
ARCHIVED: Final = (".jsonl.deleted.", ".jsonl.reset.")
"""What an archived session file's name holds after its stem: OpenClaw keeps a deleted or reset
session as ``<id>.jsonl.deleted.<time>`` or ``<id>.jsonl.reset.<time>``, and ccusage counts
them; a folder read by ``messages stats`` or ``messages sessions`` takes them too."""

Role = Literal["main", "subagent"]


@final
@dataclass(frozen=True, slots=True)
class SessionFile:
    """One file of a session, as its agent's hook tells it from its path and first lines."""

    path: str
    """The file's path."""
    session: str
    """The id of the session the file belongs to (a subagent's file: its parent session's)."""
    _: KW_ONLY
    role: Role = "main"
    """``main`` for the session's own transcript, ``subagent`` for a subagent's."""
    agent_id: str | None = None
    """A subagent file's agent id (Claude Code ``agentId``, a Codex thread id)."""
    project: str | None = None
    """The project the agent files the session under (Claude Code's project folder name)."""
    compaction: bool = False
    """A subagent file whose side conversation writes a compaction summary (not a tool call)."""


@final
@dataclass(frozen=True, slots=True, repr=False)
class Link:
    """How one record sits in its session: the graph edges and what it counts for."""

    id: str | None
    """The record's id in the session graph (``None``: not part of the graph)."""
    parent: str | None
    """The id of the record it follows (``None``: a root)."""
    _: KW_ONLY
    logical_parent: str | None = None
    """Across a compaction boundary: the last record of the history it replaced."""
    conversation: bool = False
    """Whether the model saw it: a prompt, a reply, a tool call or result, a summary."""
    prompt: bool = False
    """Whether it is a prompt a person (or a caller) wrote: counts as a turn, can be a title."""
    compaction: bool = False
    """Whether it marks a compaction (the boundary record)."""
    summary: bool = False
    """Whether it is the summary the model saw in place of compacted history."""
    sidechain: bool = False
    """Whether it belongs to a side conversation (a subagent's) written in the main file."""
    copied: bool = False
    """Whether a resume or fork copied it from an earlier session (its usage is counted there)."""
    origin: str | None = None
    """The id of the session this one was resumed or forked from, when the record says so."""
    call: str | None = None
    """The key of the API call whose usage it reports; the same key is one call."""
    group: str | None = None
    """The key of the model response it is a piece of (records split from one response)."""
    subagent: tuple[str | None, str] | None = None
    """``(tool_use_id, agent_id)``: the subagent this record says a tool call started."""
    title: str | None = None
    """A title the agent gave the session (or, with ``parent``, the branch ending there)."""
    cwd: str | None = None
    """The working directory the record was written in."""
    text: str | None = None
    """A prompt's text where the decoded record does not carry it (a prompt echoed as an event)."""

    def __repr__(self) -> str:
        shown = [f"id={self.id!r}", f"parent={self.parent!r}"]
        for f in fields(self)[2:]:
            value = getattr(self, f.name)
            if value not in (None, False):
                shown.append(f"{f.name}={value!r}")
        return f"Link({', '.join(shown)})"


class Linker(Protocol):
    """Links the records of one file, in file order (it may keep state between records)."""

    def link(self, message: Message) -> Link:
        """The :class:`Link` of the next record of the file."""
        ...


class SessionHook(Protocol):
    """What :mod:`messages.sessions` needs to know about one agent's session files."""

    name: str
    """The adapter's format name (:data:`messages.adapters.NAMES`)."""

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """The folders the agent keeps sessions in by default (existing or not)."""
        ...

    def files(self, folder: str) -> Iterator[str]:
        """The agent's session files under ``folder``, in a stable order."""
        ...

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """What the file at ``path`` is, from its path and its first parsed objects.

        ``None`` when it is not one of this agent's session files.
        """
        ...

    def linker(self, file: SessionFile) -> Linker:
        """A fresh :class:`Linker` for the records of ``file``."""
        ...


def wire_fields(message: Message) -> Mapping[str, Any]:
    """The wire fields a decoder kept of a record: the line it kept whole, else ``extra``."""
    if isinstance(message, ProgressMessage):  # its ``data`` is the line's inner object
        return message.extra
    for name in ("data", "event"):  # raw lines, system and stream events keep the line whole
        data = getattr(message, name, None)
        if isinstance(data, Mapping):
            return data
    if isinstance(message, RawMessage):
        return {}
    extra: Mapping[str, Any] = getattr(message, "extra", None) or {}
    return extra


def is_prompt(message: Message) -> bool:
    """Whether a message is a prompt: a user message with text, no tool result, no summary."""
    if not isinstance(message, UserMessage) or message.summary is not None:
        return False
    if isinstance(message.content, str):
        return bool(message.content.strip())
    has_text = False
    for block in message.content:
        if isinstance(block, ToolResultBlock):
            return False
        if isinstance(block, TextBlock) and block.text.strip():
            has_text = True
    return has_text


def home_folder(env: Mapping[str, str]) -> str:
    """The user's home folder: ``$HOME`` in ``env``, else this process's (``~``)."""
    return env.get("HOME") or os.path.expanduser("~")


def listed_folders(env: Mapping[str, str], variable: str) -> list[str]:
    """The folders a comma-separated variable of ``env`` lists (blank entries left out)."""
    return [p.strip() for p in (env.get(variable) or "").split(",") if p.strip()]


def agent_folders(
    env: Mapping[str, str], variable: str, home: tuple[str, ...], *, xdg: str | None = None
) -> tuple[str, ...]:
    """An agent's data folders by the rules most agents (and ccusage) follow, existing or not.

    ``$<variable>`` (several folders, comma-separated); else, for an agent that follows the
    XDG rules, ``$XDG_DATA_HOME/<xdg>``; else ``home`` (path parts) under the home directory.
    """
    if (env.get(variable) or "").strip():
        return tuple(listed_folders(env, variable))
    if xdg is not None:
        data = env.get("XDG_DATA_HOME")
        if data:
            return (os.path.join(data, xdg),)
    return (os.path.join(home_folder(env), *home),)


def in_conversation(message: Message) -> bool:
    """Whether the model saw a record: a role or flat message (a raw record is not one)."""
    return isinstance(message, ROLE_TYPES) or (
        getattr(message, "role", None) is not None and not isinstance(message, RawMessage)
    )


def typed_text(message: Message) -> str | None:
    """The words of a prompt decoded flat: a user :class:`~messages.TextMessage` not blank."""
    if isinstance(message, TextMessage) and message.role == "user" and message.text.strip():
        return message.text
    return None


class ChainLinker:
    """What a linker of a chain keeps: the records counted, and the id of the last one.

    A subclass's ``link`` gives each record of the chain an id and takes its parent from
    :meth:`chain`; records outside the chain (a session's totals) are not chained.
    """

    __slots__ = ("count", "last")

    def __init__(self) -> None:
        self.count = 0
        self.last: str | None = None

    def chain(self, ident: str) -> str | None:
        """Put ``ident`` at the end of the chain; its parent, the record before, is given."""
        parent, self.last = self.last, ident
        return parent


def is_archived(name: str) -> bool:
    """Whether a file name is an archived session file's (:data:`ARCHIVED`)."""
    return any(mark in name for mark in ARCHIVED)


def walk_files(
    folder: str,
    suffixes: tuple[str, ...] = LOG_SUFFIXES,
    *,
    archived: bool = False,
    named: Callable[[str], bool] | None = None,
) -> Iterator[str]:
    """Every file under ``folder`` ending in one of ``suffixes``, sorted; hidden ones left out.

    ``archived``: archived session files too (see :data:`ARCHIVED`). ``named``: only the
    files whose name (without its folder) it accepts (``rollout-*``, ``wire.jsonl``...).
    """
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            if (name.endswith(suffixes) or (archived and is_archived(name))) and (
                named is None or named(name)
            ):
                yield os.path.join(top, name)


class _LinearLinker:
    """Each record the child of the one before; usage of replies and token counts counted."""

    __slots__ = ("amend", "count")

    def __init__(self, amend: Callable[[Message, Link], Link] | None = None) -> None:
        self.count = 0
        self.amend = amend

    def link(self, message: Message) -> Link:
        index = self.count
        self.count += 1
        parent = str(index - 1) if index else None
        call = None
        if isinstance(message, AssistantMessage) and message.usage is not None:
            call = message.message_id or f"line {index}"
        elif isinstance(message, ResultMessage) and message.subtype == "token_count":
            call = f"line {index}"
        elif isinstance(message, ResultMessage) and message.usage is not None:
            call = f"{RESULT_CALL}{index}"  # the run's totals: they win over the replies
        conversation = in_conversation(message)
        summary = isinstance(message, UserMessage) and message.summary is not None
        found = Link(
            str(index),
            parent,
            conversation=conversation,
            prompt=is_prompt(message),
            summary=summary,
            call=call,
            cwd=getattr(message, "cwd", None),
        )
        return found if self.amend is None else self.amend(message, found)


class LinearHook:
    """The default hook: one file is one session, its records a single chain in file order.

    The session id is the file name without its ending. No default folders; every file with
    a log ending is a candidate.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """No default folders."""
        return ()

    def files(self, folder: str) -> Iterator[str]:
        """Every file with a log ending under ``folder``."""
        return walk_files(folder)

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The file is a session of its own."""
        stem = os.path.basename(path)
        for suffix in LOG_SUFFIXES:
            stem = stem.removesuffix(suffix)
        return SessionFile(path, stem)

    def linker(self, file: SessionFile) -> Linker:
        """A linker chaining the records in file order (each link through :meth:`amend`)."""
        overridden = type(self).amend is not LinearHook.amend
        return _LinearLinker(self.amend if overridden else None)

    def amend(self, message: Message, link: Link) -> Link:
        """The link of a record in the chain, as this agent's records say more (a title...).

        ``link`` is the chain's own (the record the child of the one before); a subclass
        gives another :class:`Link` where the record says more. This one gives it as it is.
        """
        return link


class DatabaseHook(LinearHook):
    """The hook of an agent whose sessions are all rows of one database file (Goose, Kilo).

    ``database`` is the file's name in the agent's folder; ``is_database`` tells the agent's
    database from any other file, and ``session_ids`` lists the sessions one holds. A
    subclass says where the folders are (``roots``) and how a session is read (``read``).
    """

    __slots__ = ("database", "is_database", "session_ids")

    def __init__(
        self,
        name: str,
        database: str,
        is_database: Callable[[str], bool],
        session_ids: Callable[[str], list[str]],
    ) -> None:
        super().__init__(name)
        self.database = database
        self.is_database = is_database
        self.session_ids = session_ids

    def files(self, folder: str) -> Iterator[str]:
        """The database, when the folder has it."""
        path = os.path.join(folder, self.database)
        if os.path.isfile(path):
            yield path

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The sessions of a database are found by :meth:`split`, never line by line."""
        return None

    def split(self, path: str) -> list[SessionFile] | None:
        """The database's sessions (``None``: not this agent's database)."""
        if not self.is_database(path):
            return None
        return [SessionFile(path, sid) for sid in self.session_ids(path)]


_HOOKS: dict[str, SessionHook] = {}


def hook(name: str) -> SessionHook:
    """The session hook of the adapter called ``name``: its own, or a :class:`LinearHook`."""
    found = _HOOKS.get(name)
    if found is None:
        if name in HOOKED:
            module = import_module(f"{__package__}.{name}.session_hook")
            found = module.HOOK
        else:
            found = LinearHook(name)
        _HOOKS[name] = found
    return found


def path_session(name: str, path: str) -> tuple[str | None, str | None]:
    """What the path of a file of agent ``name`` says: its session, and when it happened.

    The time is that of a record without one of its own; ``(None, None)`` when the agent's
    hook has no ``session_of``.
    """
    found = getattr(hook(name), "session_of", None) if name in HOOKED else None
    return (None, None) if found is None else found(path)
