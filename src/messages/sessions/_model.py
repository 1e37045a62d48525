"""The values a loaded session is made of: Session, Branch, Compaction, SessionUsage."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from dataclasses import field
from typing import ClassVar
from typing import Final
from typing import Generic
from typing import Literal
from typing import TypeVar
from typing import final

from .._core.fields import Timestamp
from ..message import Message
from ..usage import Usage

__all__ = ["Branch", "Compaction", "FrozenMap", "Session", "SessionUsage"]

K = TypeVar("K")
V = TypeVar("V")


@final
class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only, hashable mapping that keeps its insertion order (for non-JSON values)."""

    __slots__ = ("_d",)

    _d: dict[K, V]

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        object.__setattr__(self, "_d", dict(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"FrozenMap is read-only (cannot set {name!r})")

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(tuple(self._d.items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._d) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        return (FrozenMap, (self._d,))


_NO_USAGE: dict[str, Usage] = {}
_NONE: Final = Usage()


@final
@dataclass(frozen=True, slots=True)
class SessionUsage:
    """A session's token usage: each API call once, its subagents' included.

    >>> SessionUsage().total
    Usage()
    """

    kind: ClassVar[Literal["session_usage"]] = "session_usage"
    total: Usage = _NONE
    """The session's own calls and every subagent's, each call counted once."""
    _: KW_ONLY
    own: Usage = _NONE
    """The calls made in the session's own files (not its subagents', not copied ones)."""
    calls: int = 0
    """How many distinct calls ``total`` counts."""
    by_model: Mapping[str, Usage] = field(default_factory=lambda: FrozenMap(_NO_USAGE))
    """``total`` split by model (``""`` where the log names none)."""
    by_subagent: Mapping[str, Usage] = field(default_factory=lambda: FrozenMap(_NO_USAGE))
    """Each subagent's total, keyed like :attr:`Session.subagents`."""
    copied: Usage = _NONE
    """Calls in records a resume or fork copied from an earlier session: counted there."""
    per_call: tuple[tuple[str, Usage], ...] = ()
    """Each call ``total`` counts, as ``(model, usage)``: the session's own, then each
    subagent's (a call a log splits by model gives one pair per model). Each usage keeps
    what its log reports beyond the counts (the cache writes split by lifetime, server tool
    use, the service tier), which ``+`` does not carry: a price is worked out call by call
    (a long-context price tier, for one, is decided per call). Its ``cost_usd`` is the cost
    its record logs, where it logs one (a run's result, an older Claude Code reply)."""


@final
@dataclass(frozen=True, slots=True)
class Branch:
    """An abandoned branch: records left behind by a rewind, an edit or a retry."""

    kind: ClassVar[Literal["branch"]] = "branch"
    fork: str | None
    """The id of the record it leaves the active conversation at (``None``: not attached)."""
    messages: tuple[Message, ...]
    """What the model saw on that branch after the fork point, in file order."""
    _: KW_ONLY
    leaf: str | None = None
    """The id of the branch's last record."""


@final
@dataclass(frozen=True, slots=True)
class Compaction:
    """One compaction: the boundary record and the summary the model saw instead of history."""

    kind: ClassVar[Literal["compaction"]] = "compaction"
    boundary: Message | None
    """The record marking the compaction (``None`` when the log writes only the summary)."""
    summary: Message | None
    """The summary given to the model in place of the replaced history."""
    _: KW_ONLY
    replaces: str | None = None
    """The id of the last record of the history it replaced (Claude Code's logical parent)."""
    agent: Session | None = None
    """The side conversation that wrote the summary, when the agent logs it (``acompact``)."""


@final
@dataclass(frozen=True, slots=True, eq=True)
class Session:
    """One agent session, assembled from its files as a conversation.

    ``messages`` is the conversation the model saw, in order: the path from the newest record
    back to the first, with compaction summaries in place and the pieces of one response
    together. ``records`` is everything the files hold, in file order.
    """

    kind: ClassVar[Literal["session"]] = "session"
    agent: str
    """The agent's format name (``claude_code``, ``codex``...)."""
    id: str
    """The session id (a subagent: its agent id)."""
    _: KW_ONLY
    title: str | None = None
    """The agent's own title for the session, else its first prompt (one line)."""
    cwd: str | None = None
    """The working directory the session ran in."""
    project: str | None = None
    """The project the agent files it under (Claude Code's folder), else the cwd's name."""
    started: Timestamp | None = None
    """The timestamp of the first record."""
    ended: Timestamp | None = None
    """The timestamp of the last record."""
    messages: tuple[Message, ...] = ()
    """The active conversation, in order."""
    records: tuple[Message, ...] = ()
    """Every record of the session's own files, in file order, as decoded."""
    branches: tuple[Branch, ...] = ()
    """The abandoned branches, in file order of their first record."""
    subagents: Mapping[str, Session] = field(default_factory=lambda: FrozenMap({}))
    """Subagent sessions, by the id of the tool call that started each (else its agent id)."""
    compactions: tuple[Compaction, ...] = ()
    """The compactions, in file order."""
    parent: str | None = None
    """The id of the session this one was resumed or forked from."""
    usage: SessionUsage = field(default_factory=SessionUsage)
    """Tokens used, each call once, subagents included."""
    files: tuple[str, ...] = ()
    """The files it was read from (its own; subagents list theirs)."""
    agent_id: str | None = None
    """For a subagent: its agent id."""
    prompts: int = 0
    """How many prompts (turns) the active conversation holds."""

    @property
    def turns(self) -> int:
        """How many prompts the active conversation holds (a subagent's task counts)."""
        return self.prompts

    def walk(self) -> Iterator[Session]:
        """The session itself, then each subagent's, depth first."""
        yield self
        for sub in self.subagents.values():
            yield from sub.walk()
