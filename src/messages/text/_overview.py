"""What a session page's header and an index row say: :class:`Overview`, :func:`overview`.

Read from any session-like object (``agent``, ``id``, ``messages``, and what else it has):
models, times, prompts and responses, tool calls, tokens (each API call once, subagents
included) and cost (logged, else estimated by the caller's :data:`Price`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from typing import Final
from typing import Protocol

from ..blocks import ToolUseBlock
from ..events.agent import CompactBoundaryMessage
from ..events.run import InitMessage
from ..events.run import ResultMessage
from ..flat import ToolUseMessage
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import Message
from ..roles import AssistantMessage
from ..roles import UserMessage
from ..roles import as_blocks
from ..usage import Usage
from ._markup import timestamp
from ._render import clip

__all__ = ["MAX_DEPTH", "Overview", "Price", "SessionLike", "attr", "overview"]

Price = Callable[[str | None, Usage], float | None]
"""Estimates what ``usage`` cost on a model (``None`` when unknown), for logs with no cost."""

MAX_DEPTH: Final = 12


class SessionLike(Protocol):
    """What a page needs of a session; other attributes are read when present."""

    @property
    def agent(self) -> str:
        """The agent format that wrote it (``claude_code``, ``codex``...)."""
        ...

    @property
    def id(self) -> str:
        """The session id."""
        ...

    @property
    def messages(self) -> Sequence[Message]:
        """The conversation, in order."""
        ...


@dataclass(frozen=True, slots=True)
class Overview:
    """What a page's header and an index row say about a session."""

    agent: str
    """The agent format."""
    id: str
    """The session id."""
    title: str
    """The session's title, else its first prompt (cut), else its id."""
    project: str | None
    """The project (the session's ``project``, else its working directory)."""
    cwd: str | None
    """The working directory (the session's ``cwd``, else the one its log names)."""
    models: tuple[str, ...]
    """The models that answered, in order of first use."""
    started: datetime | None
    """The first time the session shows (UTC)."""
    ended: datetime | None
    """The last time the session shows (UTC)."""
    prompts: int
    """User turns with something said (tool results and summaries are not prompts)."""
    responses: int
    """Model responses (one per API call)."""
    tool_calls: Mapping[str, int]
    """Tool calls by tool name, most used first."""
    usage: Usage
    """Tokens of every call, subagents included, each call once."""
    cost: float | None
    """Cost in US dollars: logged by the agent, else estimated by the ``price`` given, each
    call on its own; ``None`` when a call with tokens has no price (as a ``messages stats``
    row: never the part that has one passed off as the whole)."""
    cost_source: str | None
    """``"logged"``, ``"estimated"`` or ``None`` when not known."""
    cost_by_kind: Mapping[str, float]
    """The estimate split by token kind (``input``, ``cache read``...), when estimated."""
    subagents: int
    """Subagent sessions attached."""
    compactions: int
    """Context compactions."""
    branches: int
    """Abandoned branches."""
    parent: str | None
    """The id of the session this one was resumed or forked from."""

    @property
    def duration(self) -> float | None:
        """Seconds from start to end, when both are known."""
        if self.started is None or self.ended is None:
            return None
        return (self.ended - self.started).total_seconds()


def attr(obj: object, *names: str) -> Any:
    """The first of ``names`` that ``obj`` has and is not ``None`` (else ``None``)."""
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return None


def _when(value: object) -> datetime | None:
    return value if isinstance(value, datetime) else timestamp(value)


def _calls(messages: Sequence[Message]) -> list[tuple[str | None, Usage]]:
    """The usage of each API call once (the lines of one response repeat it), with its model."""
    by_id: dict[object, tuple[str | None, Usage]] = {}
    for m in messages:
        if isinstance(m, AssistantMessage) and m.usage is not None:
            by_id[m.message_id if m.message_id is not None else id(m)] = (m.model, m.usage)
    if by_id:
        return list(by_id.values())
    return [(m.model, m.usage) for m in messages if isinstance(m, ResultMessage) and m.usage]


def _all_calls(session: object, depth: int = 0) -> list[tuple[str | None, Usage]]:
    calls = _calls(list(getattr(session, "messages", ())))
    records = getattr(session, "records", None)
    if not calls and isinstance(records, Sequence):  # usage kept apart from the conversation
        calls = _calls(list(records))
    subagents = getattr(session, "subagents", None)
    if isinstance(subagents, Mapping) and depth < MAX_DEPTH:
        for sub in subagents.values():
            calls += _all_calls(sub, depth + 1)
    return calls


_PROBE: Final = 1000
"""Tokens of one kind a price is asked for, to weigh the kinds of a call (below any tier)."""

_LONG: Final[dict[str, Any]] = {"cache_creation": {"ephemeral_1h_input_tokens": _PROBE}}

_PROBES: Final[tuple[tuple[str, Usage], ...]] = (
    ("input", Usage(_PROBE)),
    ("cache read", Usage(cache_read_tokens=_PROBE)),
    ("cache write", Usage(cache_write_tokens=_PROBE)),
    ("cache write 1h", Usage(cache_write_tokens=_PROBE, extra=_LONG)),
    ("output", Usage(output_tokens=_PROBE)),
)
"""What each kind of token costs alone, asked once per model."""

_KINDS: Final = ("input", "cache read", "cache write", "output")


def _weights(call: Usage, unit: Mapping[str, float]) -> dict[str, float]:
    """What each kind of ``call``'s tokens would cost at the ``unit`` prices (per token)."""
    long = call.cache_write_1h_tokens or 0
    writes = call.cache_write_tokens or 0
    return {
        "input": (call.input_tokens or 0) * unit["input"],
        "cache read": (call.cache_read_tokens or 0) * unit["cache read"],
        "cache write": (writes - min(long, writes)) * unit["cache write"]
        + min(long, writes) * unit["cache write 1h"],
        "output": (call.output_tokens or 0) * unit["output"],
    }


def _priced_calls(session: object) -> list[tuple[str | None, Usage]]:
    """Each call the session's tokens count, with its model: what a price is asked of.

    The session's own list (``usage.per_call``, :class:`~messages.sessions.SessionUsage`),
    else its totals by model, else each call read off its messages.
    """
    usage = getattr(session, "usage", None)
    given = getattr(usage, "per_call", None)
    if isinstance(given, Sequence) and given:
        return [(model or None, u) for model, u in given if isinstance(u, Usage)]
    by_model = getattr(usage, "by_model", None)
    if isinstance(by_model, Mapping) and by_model:
        return [(model or None, u) for model, u in by_model.items() if isinstance(u, Usage)]
    return _all_calls(session)


def _cost(
    session: object, messages: Sequence[Message], usage: Usage, price: Price | None
) -> tuple[float | None, str | None, dict[str, float]]:
    if usage.cost_usd is not None:
        return usage.cost_usd, "logged", {}
    logged = [m.total_cost_usd for m in messages if isinstance(m, ResultMessage)]
    if any(c is not None for c in logged):
        return sum(c for c in logged if c is not None), "logged", {}
    if price is None:
        return None, None, {}
    total, by_kind, known = 0.0, dict.fromkeys(_KINDS, 0.0), False
    units: dict[str | None, dict[str, float]] = {}
    for model, call in _priced_calls(session):
        whole = price(model, call)  # each call on its own: its price tier is its own
        if whole is None:
            if call.total_tokens:  # as stats: part unknown is no cost, never a part of it
                return None, None, {}
            continue
        known = True
        total += whole
        unit = units.get(model)
        if unit is None:
            unit = units[model] = {k: (price(model, u) or 0.0) / _PROBE for k, u in _PROBES}
        weights = _weights(call, unit)
        alone = sum(weights.values())
        if alone > 0:  # the call's price shared as its kinds cost alone
            for kind, weight in weights.items():
                by_kind[kind] += weight * whole / alone
    if not known:
        return None, None, {}
    return total, "estimated", {k: v for k, v in by_kind.items() if v}


def _first_prompt(messages: Sequence[Message]) -> str | None:
    for m in messages:
        if isinstance(m, UserMessage) and m.summary is None and m.text.strip():
            return " ".join(m.text.split())
    return None


def overview(session: SessionLike, *, price: Price | None = None) -> Overview:
    """What a page says about ``session`` in its header (and the index in its row)."""
    messages = list(session.messages)
    models: dict[str, None] = {}
    tools: Counter[str] = Counter()
    prompts = responses = compactions = 0
    seen_ids: set[str] = set()
    times: list[datetime] = []
    cwd: str | None = None
    for m in messages:
        when = _when(getattr(m, "timestamp", None))
        if when is not None:
            times.append(when)
        if isinstance(m, InitMessage) and cwd is None:
            cwd = m.cwd
        elif isinstance(m, CompactBoundaryMessage):
            compactions += 1
        elif isinstance(m, ToolUseMessage):
            tools[m.name] += 1
        if isinstance(m, ROLE_TYPES):
            if cwd is None and isinstance(m.extra.get("cwd"), str):
                cwd = str(m.extra["cwd"])
            for block in as_blocks(m.content):
                if isinstance(block, ToolUseBlock):
                    tools[block.name] += 1
        if isinstance(m, UserMessage) and m.summary is None and m.text.strip():
            prompts += 1
        model = getattr(m, "model", None)
        if isinstance(m, AssistantMessage) or (isinstance(m, FLAT_TYPES) and m.role == "assistant"):
            if isinstance(model, str) and model:
                models.setdefault(model, None)
            mid = getattr(m, "message_id", None)
            if mid is None or mid not in seen_ids:
                responses += 1
                if mid is not None:
                    seen_ids.add(mid)
    given = getattr(session, "usage", None)
    total = given if isinstance(given, Usage) else getattr(given, "total", None)
    if not isinstance(total, Usage) or not (total.total_tokens or total.cost_usd is not None):
        total = Usage.sum(u for _, u in _all_calls(session))  # none given, or none counted
    usage = total
    cost, source, by_kind = _cost(session, messages, usage, price)
    calls = _calls(messages)
    records = getattr(session, "records", None)
    if not calls and isinstance(records, Sequence):  # usage kept apart from the conversation
        calls = _calls(list(records))
    if calls:  # one usage per API call: the truest count of responses
        responses = len(calls)
    title = attr(session, "title") or _first_prompt(messages) or session.id
    subagents = getattr(session, "subagents", None)
    listed_compactions = getattr(session, "compactions", None)
    if isinstance(listed_compactions, Sequence):
        compactions = max(compactions, len(listed_compactions))
    parent = getattr(session, "parent", None)
    return Overview(
        agent=session.agent,
        id=session.id,
        title=clip(" ".join(str(title).split()), 120),
        project=attr(session, "project", "cwd") or cwd,
        cwd=attr(session, "cwd") or cwd,
        models=tuple(models),
        started=_when(getattr(session, "started", None)) or (min(times) if times else None),
        ended=_when(getattr(session, "ended", None)) or (max(times) if times else None),
        prompts=prompts,
        responses=responses,
        tool_calls=dict(tools.most_common()),
        usage=usage,
        cost=cost,
        cost_source=source,
        cost_by_kind=by_kind,
        subagents=len(subagents) if isinstance(subagents, Mapping) else 0,
        compactions=compactions,
        branches=len(getattr(session, "branches", None) or ()),
        parent=parent if isinstance(parent, str) else attr(parent, "id"),
    )
