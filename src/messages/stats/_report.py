"""Rows of a stats report: one per session, day, month, model or project, with cost."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from datetime import date
from datetime import datetime
from datetime import tzinfo
from typing import Any
from typing import Literal
from typing import TypeAlias

from .._core.slots import Slotted
from ._engine import Entry
from ._engine import SessionStats
from ._engine import Tokens
from ._prices import available
from ._prices import parted
from ._prices import total as priced

__all__ = ["CostMode", "Report", "Row", "View", "build", "zone_name"]

View: TypeAlias = Literal[
    "session", "day", "week", "month", "model", "project", "agent", "block", "subagent"
]
"""What a report's rows are."""
CostMode: TypeAlias = Literal["auto", "logged", "estimated"]
"""Which cost a report shows: the logs' own, estimated from tokens, or logged else estimated."""

VIEWS: tuple[View, ...] = (
    "session",
    "day",
    "week",
    "month",
    "model",
    "project",
    "agent",
    "block",
    "subagent",
)

BLOCK_SECONDS = 5 * 3600
"""The length of a subscription's billing window (a block)."""


def zone_name(tz: tzinfo | None) -> str:
    """The name of a time zone as a report states it (the local zone's abbreviation)."""
    if tz is None:
        return datetime.now().astimezone().tzname() or "local"
    return str(getattr(tz, "key", None) or tz.tzname(None) or tz)


@dataclass(slots=True)
class Row(Slotted):
    """The figures of one row of a report."""

    key: str | None
    """The session id, day (``YYYY-MM-DD``), month (``YYYY-MM``), model or project;
    ``None`` when the logs do not say (a record without a timestamp, a model not named)."""
    sessions: int = 0
    """Sessions counted in this row (by where they started)."""
    turns: int = 0
    """Model responses (see ``messages stats``)."""
    tool_calls: Counter[str] = field(default_factory=Counter)
    """Tool calls by tool name."""
    tool_errors: int = 0
    """Failed tool results."""
    errors: int = 0
    """Error records and API errors."""
    tokens: Tokens = field(default_factory=Tokens)
    """Token counts (``None`` where no record reports the figure)."""
    cost: float | None = None
    """US dollars, as the report's cost mode chooses; ``None`` when nothing gives one."""
    sources: set[str] = field(default_factory=set)
    """Where the cost comes from: ``"logged"``, ``"estimated"`` or both."""
    inputs: list[str] = field(default_factory=list)
    """The inputs that hold this row's records."""
    formats: list[str] = field(default_factory=list)
    """Their formats."""
    compactions: int = 0
    """Times a session's history was compacted (see ``messages stats``)."""
    unpriced: set[str] = field(default_factory=set)
    """Models of this row with token counts but no price: the row has no cost then
    (``None``, never a made-up zero), and the JSON says why."""

    @property
    def cost_source(self) -> str | None:
        """``"logged"``, ``"estimated"``, ``"mixed"`` (both) or ``None`` (no cost)."""
        if not self.sources:
            return None
        return "mixed" if len(self.sources) > 1 else next(iter(self.sources))

    @property
    def priced_cost(self) -> float | None:
        """The cost to show: ``None`` when part of the row could not be priced."""
        return None if self.unpriced else self.cost

    def _add_cost(self, cost: float | None, source: str) -> None:
        if cost is not None:
            self.cost = cost if self.cost is None else self.cost + cost
            self.sources.add(source)

    def _add(self, other: Row) -> None:
        # (what is empty is skipped: a report adds one such row per request)
        self.sessions += other.sessions
        self.turns += other.turns
        if other.tool_calls:
            self.tool_calls.update(other.tool_calls)
        self.tool_errors += other.tool_errors
        self.errors += other.errors
        self.compactions += other.compactions
        self.tokens.add(other.tokens)
        if other.cost is not None:
            self.cost = other.cost if self.cost is None else self.cost + other.cost
        if other.sources:
            self.sources |= other.sources
        if other.unpriced:
            self.unpriced |= other.unpriced
        if other.inputs:
            self.inputs += [x for x in other.inputs if x not in self.inputs]
        if other.formats:
            self.formats += [x for x in other.formats if x not in self.formats]

    def figures(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict (without the key).

        ``cost_usd`` is ``None`` where nothing gives a cost, and where part of the row is
        usage of a model the price table does not know, or counts it refuses to price (they
        contradict each other): ``cost_note`` then says which.
        """
        cost = self.priced_cost
        note = None
        if self.unpriced:
            unknown, refused = parted(sorted(self.unpriced))
            said = [
                f"the genai-prices table refuses the counts of {m} ({why})" for m, why in refused
            ]
            if unknown:
                said.insert(0, f"no price for {', '.join(unknown)} in the genai-prices table")
            note = "; ".join(said)
        return {
            "inputs": list(self.inputs),
            "formats": list(self.formats),
            "sessions": self.sessions,
            "turns": self.turns,
            "tool_calls": dict(sorted(self.tool_calls.items())),
            "tool_errors": self.tool_errors,
            "errors": self.errors,
            "compactions": self.compactions,
            "tokens": self.tokens.to_json(),
            "cost_usd": None if cost is None else round(cost, 10),
            "cost_source": self.cost_source,
            "cost_note": note,
        }


@dataclass(slots=True)
class Report(Slotted):
    """A stats report: rows, their total, and how they were made."""

    by: View
    """What the rows are."""
    cost_mode: CostMode
    """Which cost is shown."""
    tz: str
    """The time zone days and months are told in."""
    rows: list[Row]
    """In first-seen order for sessions, else by key (``None`` last)."""
    total: Row
    """Every row added up."""
    sessions: list[SessionStats]
    """The sessions behind the rows (for ``by="session"``, one per row, in order)."""
    unpriced: list[str] = field(default_factory=list)
    """Models with token counts that ``genai-prices`` has no price for."""
    needs_prices: bool = False
    """Whether an estimate was wanted but ``genai-prices`` is not installed."""
    rejected_costs: list[str] = field(default_factory=list)
    """Inputs holding a logged cost that was rejected (negative, NaN or infinite), not summed."""

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict.

        By session: ``{"sessions": [...], "total": {...}}``, each session with its id,
        inputs, formats and figures; by anything else: ``{"rows": [...], "total": {...}}``,
        each row with its ``day``, ``month``, ``model`` or ``project``. Both also say
        ``by``, ``tz`` and ``cost`` (the mode).
        """
        total = self.total.figures()
        head: dict[str, Any] = {"by": self.by, "tz": self.tz, "cost": self.cost_mode}
        if self.by == "session":
            listed = []
            for row, s in zip(self.rows, self.sessions, strict=True):
                figures = row.figures()
                del figures["sessions"]
                listed.append(
                    {
                        "session_id": s.session_id,
                        **figures,
                        "model": s.model,
                        "project": s.project,
                    }
                )
            return {**head, "sessions": listed, "total": total}
        rows = [{self.by: row.key, **row.figures()} for row in self.rows]
        return {**head, "rows": rows, "total": total}


def _day(when: float | None, tz: tzinfo | None) -> date | None:
    if when is None:
        return None
    moment = datetime.fromtimestamp(when, tz) if tz is not None else datetime.fromtimestamp(when)
    return moment.date()


class _Blocks:
    """The five-hour billing windows over a set of times (see ``messages stats --by block``).

    A block starts at the hour of the first record not in a block yet (rounded down, UTC)
    and ends five hours later: a record at or after its end, or after a gap, opens the next.
    Where the logs say when a five-hour window resets (``resets``), a block that starts
    inside such a window is that window: it starts five hours before the reset and ends at it.
    """

    __slots__ = ("starts",)

    def __init__(self, times: list[float], resets: Iterable[float] = ()) -> None:
        self.starts: list[float] = []
        windows = sorted(resets)
        end = float("-inf")
        for t in sorted(times):
            if t < end:
                continue
            at = bisect_right(windows, t)
            if at < len(windows) and windows[at] - BLOCK_SECONDS <= t:
                start, until = windows[at] - BLOCK_SECONDS, windows[at]  # the logs' window
            else:
                start = t - t % 3600
                until = start + BLOCK_SECONDS
            self.starts.append(max(start, end))  # never over the block before
            end = until

    def start(self, when: float) -> float:
        """The start of the block holding ``when`` (one of the times it was built from)."""
        return self.starts[bisect_right(self.starts, when) - 1]


def _key(
    by: View,
    when: float | None,
    *,
    tz: tzinfo | None,
    model: str | None,
    s: SessionStats,
    agent: str | None,
    blocks: _Blocks | None,
) -> str | None:
    if by in ("day", "week", "month"):
        day = _day(when, tz)
        if day is None:
            return None
        if by == "day":
            return day.isoformat()
        if by == "month":
            return f"{day.year:04d}-{day.month:02d}"
        year, week, _ = day.isocalendar()
        return f"{year:04d}-W{week:02d}"
    if by == "block":
        if when is None or blocks is None:
            return None
        start = blocks.start(when)
        moment = (
            datetime.fromtimestamp(start, tz) if tz is not None else datetime.fromtimestamp(start)
        )
        return moment.strftime("%Y-%m-%d %H:%M")
    if by == "agent":
        return s.formats[0] if s.formats else None
    if by == "subagent":
        name = s.session_id or f"({', '.join(s.inputs)})"
        return name if agent is None else f"{name}/{agent}"
    return model if by == "model" else s.project


@dataclass(slots=True)
class _Part(Slotted):
    """One contribution of tokens and cost: a message's usage, or a session's totals."""

    time: float | None
    model: str | None
    tokens: Tokens
    logged: float | None
    context: tuple[tuple[str, str], ...] = ()
    agent: str | None = None


def _dated_costs(entries: list[Entry], cost: float) -> bool:
    """Whether the results' parts carry between them the whole logged cost of the session."""
    own = [e.tokens.cost for e in entries if e.tokens.cost is not None]
    return bool(own) and math.isclose(sum(own), cost, rel_tol=1e-9, abs_tol=1e-12)


def _parts(s: SessionStats) -> list[_Part]:
    tokens, cost = s.reported()
    entries = list(s.turn_usage.values())
    if tokens is not None:
        entries = s.reported_parts()
        if all(e.timestamp is None and e.model is None for e in entries):
            return [_Part(s.first_time, s.model, tokens, cost)]
        # a result's own cost rides on its part (dated with it) when the results' costs are
        # all there; else the session's logged cost is the separate part below
        if cost is not None and _dated_costs(entries, cost):
            cost = None
    parts = []
    for e in entries:
        when = e.time
        if when is None:  # an undated record: when its file says, else the session's start
            when = s.first_time if s.undated is None else s.undated
        logged = None if cost is not None else e.tokens.cost
        parts.append(
            _Part(
                when,
                e.model or s.model,
                e.tokens,
                logged,
                e.context,
                e.agent,
            )
        )
    if cost is not None:
        parts.append(_Part(s.first_time, s.model, Tokens(), cost))
    return parts


def build(
    sessions: list[SessionStats],
    *,
    by: View = "session",
    cost: CostMode = "auto",
    tz: tzinfo | None = None,
    since: date | None = None,
    until: date | None = None,
) -> Report:
    """The report over ``sessions`` (see :meth:`messages.stats.Stats.report`)."""
    if by not in VIEWS:
        raise ValueError(f"by: expected one of {', '.join(VIEWS)}, found {by!r}")
    if cost not in ("auto", "logged", "estimated"):
        raise ValueError(f"cost: expected auto, logged or estimated, found {cost!r}")
    ranged = since is not None or until is not None

    def keep(day: date | None) -> bool:
        if not ranged:
            return True
        if day is None:
            return False
        return (since is None or day >= since) and (until is None or day <= until)

    groups: dict[str | None, Row] = {}
    kept: list[SessionStats] = []
    rows: list[Row] = []
    unpriced: set[str] = set()
    wanted_estimate = False
    owed: dict[int, tuple[Row, list[_Part]]] = {}
    """The parts each row's estimate is made of, priced together at the end."""

    def owe(row: Row, parts: list[_Part]) -> None:
        if parts:
            owed.setdefault(id(row), (row, []))[1].extend(parts)

    blocks = None
    if by == "block":
        times = [s.first_time for s in sessions if s.first_time is not None]
        times += [p.time for s in sessions for p in _parts(s) if p.time is not None]
        resets = {r for s in sessions for r in s.resets}
        blocks = _Blocks([t for t in times if keep(_day(t, tz))], resets)
    for s in sessions:
        own = Row(s.session_id or f"({', '.join(s.inputs)})")
        touched = False
        home_day = _day(s.first_time, tz)
        if keep(home_day):
            touched = True
            own.sessions = 1
            own.turns = s.turns
            own.tool_calls.update(s.tool_calls)
            own.tool_errors = s.tool_errors
            own.errors = s.errors
            own.compactions = s.compactions
        own.inputs, own.formats = list(s.inputs), list(s.formats)
        parts = _parts(s)
        logged = cost == "logged" or (cost == "auto" and any(p.logged is not None for p in parts))
        split: list[tuple[str | None, _Part]] = []
        for p in parts:
            if ranged and not keep(_day(p.time, tz)):  # (every day is kept otherwise)
                continue
            touched = True
            if not logged:
                wanted_estimate = wanted_estimate or p.tokens.reported()
            key = _key(by, p.time, tz=tz, model=p.model, s=s, agent=p.agent, blocks=blocks)
            split.append((key, p))
        if not touched:
            continue
        kept.append(s)
        if by == "session":
            for _, p in split:
                _add_counts(own.tokens, p.tokens)
                if logged:
                    own._add_cost(p.logged, "logged")
            if not logged:
                owe(own, [p for _, p in split])
            rows.append(own)
            continue
        if own.sessions:
            home = _key(by, s.first_time, tz=tz, model=s.model, s=s, agent=None, blocks=blocks)
            row = groups.get(home)
            if row is None:
                row = groups[home] = Row(home)
            row._add(own)
        joined: set[int] = set()  # the rows this session's inputs and formats are in already
        for key, p in split:
            row = groups.get(key)
            if row is None:
                row = groups[key] = Row(key)
            _take(row, p, logged, owe)
            if id(row) not in joined:
                joined.add(id(row))
                row.inputs += [x for x in s.inputs if x not in row.inputs]
                row.formats += [x for x in s.formats if x not in row.formats]
    if by != "session":
        rows = [groups[k] for k in sorted(groups, key=lambda k: (k is None, k or ""))]
    for row, estimated in owed.values():
        price, missing = priced((p.model, p.time, p.tokens, p.context) for p in estimated)
        row._add_cost(price, "estimated")
        names = {name or "(a model the log does not name)" for name in missing}
        row.unpriced |= names
        unpriced |= names
    total = Row("total")
    for row in rows:
        total._add(row)
    rejected = sorted({label for s in kept if s.bad_costs for label in s.inputs})
    return Report(
        by,
        cost,
        zone_name(tz),
        rows,
        total,
        kept,
        sorted(unpriced),
        wanted_estimate and not available(),
        rejected,
    )


def _take(row: Row, p: _Part, logged: bool, owe: Callable[[Row, list[_Part]], None]) -> None:
    """Add one part to a row: its token counts, and its logged cost or its estimate to come.

    What adding a row of the part alone (its counts, its logged cost) gave, without making
    that row.
    """
    _add_counts(row.tokens, p.tokens)
    if logged:
        row._add_cost(p.logged, "logged")
    else:
        owe(row, [p])


def _add_counts(into: Tokens, t: Tokens) -> None:
    """Add the counts of ``t`` to a row's ``into``, without its cost (chosen apart).

    What ``into.add`` of ``t`` without its cost gives; a row's further counts are its own
    dict (made here or by ``Tokens.add``), so they are added to in place.
    """
    if t.input is not None:
        into.input = t.input if into.input is None else into.input + t.input
    if t.output is not None:
        into.output = t.output if into.output is None else into.output + t.output
    if t.cache_read is not None:
        into.cache_read = (
            t.cache_read if into.cache_read is None else into.cache_read + t.cache_read
        )
    if t.cache_write is not None:
        into.cache_write = (
            t.cache_write if into.cache_write is None else into.cache_write + t.cache_write
        )
    if t.reasoning is not None:
        into.reasoning = t.reasoning if into.reasoning is None else into.reasoning + t.reasoning
    if t.more:
        more = into.more
        if more is None:
            into.more = dict(t.more)
        else:
            for name, n in t.more.items():
                more[name] = more.get(name, 0) + n
