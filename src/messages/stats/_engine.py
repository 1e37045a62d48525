"""The stats engine: what each session did, collected input by input.

A session is a ``session_id``; messages without one belong to the last session seen in the
same input, and an input with no session id at all is one session of its own.

What the figures mean, the same for every format:

- **turns**: model responses. Each stretch of assistant output (text, thinking, tool calls)
  that follows an input to the model (the user's message, tool results) is one turn; a log
  that states the count itself is taken at its word (Claude Code's ``num_turns``, the API
  requests per model of Gemini CLI's JSON output). A Codex ``turn.started`` ...
  ``turn.completed`` is a user's turn, which may hold several of these;
- **tool calls**: by tool name, one per call id; **tool errors**: failed results, one per
  call id (Gemini CLI's JSON output reports both as counts per tool, which are used);
- **errors**: error records and assistant messages that carry an API error;
- **compactions**: times the history was compacted (Claude Code ``compact_boundary`` lines,
  Codex ``thread/compacted``, or the compaction summaries themselves where the log has no
  boundary record). A compaction summary is the harness's, not the user's: it is counted
  here, and like any input to the model it closes the assistant turn before it;
- **tokens** and **cost**: from the session's results when any result reports them, and
  otherwise from the per-turn usage of assistant messages (one figure per message id:
  Claude Code repeats a turn's usage on each block's line: within an input the last one
  wins, and across inputs the most complete one, the final usage of a streamed message). A
  Claude Code
  ``result`` line restates the running totals of its process, so only the last one of each
  input counts; results of other sources (a Codex turn, an OpenCode step, a Copilot call, a
  Gemini CLI model) each report their own part and are added up.

Nothing is counted twice, across inputs either: a record that two inputs both hold (a
transcript and a fragment of it) is one record, known by its message id, call id or uuid
(records without any id are told apart by their content and place). A figure no record
reports is ``None`` (``-`` in the table), never a made-up zero.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from typing import Any
from typing import Final

from .._core.fields import Timestamp
from .._core.fields import completeness
from .._core.fields import logged_cost
from .._core.frozen import raw
from .._core.slots import Slotted
from ..blocks import AudioBlock
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import ServerToolResultBlock
from ..blocks import ServerToolUseBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..convert import flatten_assistant
from ..events.agent import CompactBoundaryMessage
from ..events.agent import RateLimitMessage
from ..events.run import ErrorMessage
from ..events.run import InitMessage
from ..events.run import ResultMessage
from ..events.run import StreamEventMessage
from ..flat import AudioMessage
from ..flat import DocumentMessage
from ..flat import ImageMessage
from ..flat import RawMessage
from ..flat import ServerToolResultMessage
from ..flat import ServerToolUseMessage
from ..flat import TextMessage
from ..flat import ThinkingMessage
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..flat import VideoMessage
from ..message import ROLE_TYPES
from ..message import Message
from ..roles import AssistantMessage
from ..roles import RoleMessage
from ..roles import UserMessage
from ..usage import Usage

__all__ = [
    "DEFERS",
    "Entry",
    "InputStats",
    "Key",
    "SessionStats",
    "Tokens",
    "epoch",
    "logged_cost",
    "price_context",
    "priced_counts",
    "resolve",
]

Key = tuple[str, str]
"""``("session", id)``, or ``("input", label)`` for an input without session ids."""


def _sum(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else a + b


@dataclass(slots=True)
class Tokens(Slotted):
    """Token counts and cost; ``None`` where nothing reported the figure.

    ``more`` holds the further counts a log reports that change a price, by the name the
    ``genai-prices`` table gives them: ``cache_write_1h_tokens`` (the part of the cache
    writes made with a one-hour lifetime), ``web_searches`` (server-side web search
    requests), ``input_audio_tokens``... They add up like the other figures.
    """

    input: int | None = None
    output: int | None = None
    cache_read: int | None = None
    cache_write: int | None = None
    reasoning: int | None = None
    cost: float | None = None
    more: dict[str, int] | None = None

    @classmethod
    def of(cls, usage: Usage | None, cost: float | None = None) -> Tokens:
        """The counts of one usage value (``cost`` wins over the usage's own cost)."""
        if usage is None:
            return cls(cost=cost)
        return cls(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_tokens,
            usage.cache_write_tokens,
            usage.reasoning_tokens,
            cost if cost is not None else logged_cost(usage.cost_usd),
            priced_counts(usage) if usage.extra else None,
        )

    def __reduce__(self) -> tuple[type[Tokens], tuple[Any, ...]]:
        # the fields in order: a worker sends thousands, and this is a third smaller and
        # faster both ways than the slots by name (and pickles under every protocol)
        t = self
        return Tokens, (t.input, t.output, t.cache_read, t.cache_write, t.reasoning, t.cost, t.more)

    def add(self, other: Tokens) -> None:
        """Add ``other`` in place (a figure stays ``None`` only if neither has it)."""
        self.input = _sum(self.input, other.input)
        self.output = _sum(self.output, other.output)
        self.cache_read = _sum(self.cache_read, other.cache_read)
        self.cache_write = _sum(self.cache_write, other.cache_write)
        self.reasoning = _sum(self.reasoning, other.reasoning)
        if other.cost is not None:
            self.cost = other.cost if self.cost is None else self.cost + other.cost
        if other.more:
            more = self.more = dict(self.more or {})
            for name, n in other.more.items():
                more[name] = more.get(name, 0) + n

    def reported(self) -> bool:
        """Whether any token figure is known."""
        return (
            self.input is not None
            or self.output is not None
            or self.cache_read is not None
            or self.cache_write is not None
            or self.reasoning is not None
        )

    def to_json(self) -> dict[str, Any]:
        """The token figures as a JSON-ready dict (cost is reported on its own).

        ``cache_write_1h`` is the part of ``cache_write`` made with a one-hour lifetime
        and ``web_searches`` the server-side searches, where the logs say (else ``None``).
        """
        more = self.more or {}
        return {
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_write": self.cache_write,
            "reasoning": self.reasoning,
            "cache_write_1h": more.get("cache_write_1h_tokens"),
            "web_searches": more.get("web_searches"),
            "web_fetches": more.get("web_fetches"),
        }


_SERVER_TOOLS: Final = (
    ("web_search_requests", "web_searches"),
    ("web_fetch_requests", "web_fetches"),
)
_MODALITIES: Final = {
    ("promptTokensDetails", "AUDIO"): "input_audio_tokens",
    ("promptTokensDetails", "IMAGE"): "input_image_tokens",
    ("promptTokensDetails", "VIDEO"): "input_video_tokens",
    ("candidatesTokensDetails", "AUDIO"): "output_audio_tokens",
    ("candidatesTokensDetails", "IMAGE"): "output_image_tokens",
    ("cacheTokensDetails", "AUDIO"): "cache_audio_read_tokens",
}
"""Gemini's per-modality counts whose price differs from text, by genai-prices' name."""


def _count(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


def priced_counts(usage: Usage) -> dict[str, int] | None:
    """The further counts of one usage that change its price (see :class:`Tokens`).

    Read from what the decoders keep in ``extra``: Anthropic's split of cache writes by
    lifetime and ``server_tool_use`` requests, Gemini's per-modality token counts.
    """
    found: dict[str, int] = {}
    extra = raw(usage.extra)  # read only: plain values, none wrapped on the way out
    long = usage.cache_write_1h_tokens
    if long is not None:
        found["cache_write_1h_tokens"] = long
    tools = extra.get("server_tool_use")
    if tools is not None and isinstance(tools, Mapping):
        for key, name in _SERVER_TOOLS:
            n = _count(tools.get(key))
            if n:
                found[name] = n
    for (group, modality), name in _MODALITIES.items():
        details = extra.get(group)
        if details is None:  # the usual case, without the slower checks below
            continue
        if isinstance(details, Sequence) and not isinstance(details, str):
            for item in details:
                if isinstance(item, Mapping) and item.get("modality") == modality:
                    n = _count(item.get("tokenCount"))
                    if n:
                        found[name] = found.get(name, 0) + n
    return found or None


_TIERS: Final = {
    ("speed", "fast"): ("speed", "fast"),
    ("service_tier", "batch"): ("processing", "batch"),
    ("service_tier", "flex"): ("service_tier", "flex"),
    ("service_tier", "priority"): ("service_tier", "priority"),
}
"""What a log says of how a request was served, as the price table's context."""


def price_context(*extras: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """How a request was served, where it changes the price (``()``: the standard service).

    Claude Code's fast mode (``usage.speed``), a batch, flex or priority ``service_tier``
    (in the usage or the response).
    """
    found: dict[str, str] = {}
    for extra in extras:
        for key in ("speed", "service_tier"):
            value = extra.get(key)
            if isinstance(value, str):
                hit = _TIERS.get((key, value))
                if hit is not None:
                    found[hit[0]] = hit[1]
    return tuple(sorted(found.items()))


def epoch(value: object) -> float | None:
    """A record's timestamp as seconds since 1970 (UTC), or ``None`` when it has none.

    ISO 8601 text (a time without a zone is taken as UTC) and numbers (seconds, or
    milliseconds when too large to be seconds, as OpenCode writes them) are understood.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = float(value)
        if abs(seconds) > 1e11:
            seconds /= 1000
    elif isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            seconds = when.timestamp()
        except (ValueError, OverflowError):
            return None
    else:
        return None
    # within the years 1..9999 (and a day inside them), where every time zone can tell the day
    return seconds if _EARLIEST <= seconds <= _LATEST else None


_EARLIEST: Final = -62135596800.0 + 86400
_LATEST: Final = 253402300799.0 - 86400


@dataclass(frozen=True, slots=True)
class Entry:
    """One assistant message's usage, with when it happened and which model answered."""

    tokens: Tokens
    """The message's final token counts (and the cost it reports, if any)."""
    timestamp: Timestamp | None = None
    """The record's timestamp as the log writes it (read when a report needs it)."""
    model: str | None = None
    """The model that wrote the message, when the log says."""
    context: tuple[tuple[str, str], ...] = ()
    """How the request was served where it changes the price (see :func:`price_context`)."""
    agent: str | None = None
    """The subagent that made the request (Claude Code's ``agentId``); ``None``: the main one."""
    request_id: str | None = None
    """The API request's id where the log gives it (Claude Code's ``requestId``): with the
    message id, what tells a resumed session's copy of a request from a new one."""
    source: str | None = None
    """The format of the input that reported it (see :data:`DEFERS`)."""

    def __reduce__(self) -> tuple[type[Entry], tuple[Any, ...]]:
        # the fields in order, as for Tokens
        e = self
        return Entry, (
            e.tokens,
            e.timestamp,
            e.model,
            e.context,
            e.agent,
            e.request_id,
            e.source,
        )

    @property
    def time(self) -> float | None:
        """The timestamp in seconds since 1970 (UTC); ``None`` when unknown (see :func:`epoch`)."""
        return epoch(self.timestamp)

    def rank(self) -> tuple[float, ...]:
        """How complete the counts are: of two usages of one message, the higher is final.

        A streamed message's usage grows fragment by fragment (output tokens last), so the
        higher rank is the later one; taking the maximum makes the choice independent of the
        order inputs are merged in.
        """
        t = self.tokens
        return completeness(t.output, t.input, t.cache_read, t.cache_write, t.reasoning)


def _first(a: str | None, b: str | None) -> str | None:
    return b if a is None else a


def _earliest(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


@dataclass(slots=True)
class _Result(Slotted):
    tokens: Tokens | None = None
    turns: int | None = None
    cost: float | None = None
    calls: dict[str, tuple[int, int]] | None = None
    timestamp: Timestamp | None = None
    """When the result was written, if the log says (a sum of results has none)."""
    model: str | None = None
    """The model the result reports for, if the log says (a Codex token count's turn model)."""
    parts: tuple[tuple[str, Tokens], ...] = ()
    """Its tokens per model, where it reports them so (a Copilot ``session.shutdown``)."""

    def add(self, other: _Result) -> None:
        if other.tokens is not None and other.tokens.reported():
            if self.tokens is None:
                self.tokens = Tokens()
            self.tokens.add(other.tokens)
        if other.turns is not None:
            self.turns = (self.turns or 0) + other.turns
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost
        if other.calls is not None:
            calls = self.calls = dict(self.calls or {})
            for tool, (n, failed) in other.calls.items():
                had, had_failed = calls.get(tool, (0, 0))
                calls[tool] = (had + n, had_failed + failed)


def _bad_cost(value: object) -> bool:
    """Whether a logged cost is there but rejected (negative, NaN or infinite)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and logged_cost(value) is None


FIVE_HOURS: Final = 5 * 3600


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return epoch(value)


def _claude_reset(info: Mapping[str, Any] | None) -> float | None:
    """When a Claude Code ``rate_limit_event``'s five-hour window resets, if it says."""
    if info is None or info.get("rateLimitType") != "five_hour":
        return None
    return _seconds(info.get("resetsAt"))


def _codex_reset(extra: Mapping[str, Any]) -> float | None:
    """When the five-hour window of a Codex rate-limit snapshot resets, if it says."""
    payload = extra.get("payload")
    limits = payload.get("rate_limits") if isinstance(payload, Mapping) else None
    if not isinstance(limits, Mapping):
        limits = extra.get("rate_limits")
    if not isinstance(limits, Mapping):
        return None
    for window in (limits.get("primary"), limits.get("secondary")):
        if isinstance(window, Mapping) and window.get("window_minutes") == FIVE_HOURS // 60:
            return _seconds(window.get("resets_at"))
    return None


def _result(m: ResultMessage) -> _Result:
    cost = logged_cost(m.total_cost_usd)
    if m.total_cost_usd is None and m.usage is not None:
        cost = logged_cost(m.usage.cost_usd)
    tokens = None if m.usage is None else Tokens.of(m.usage, None)
    if tokens is not None:
        tokens.cost = None
    from ..adapters.copilot import model_usages  # here: the formats that report these
    from ..adapters.gemini_cli import tool_counts

    parts = tuple((name, Tokens.of(u)) for name, u in model_usages(m))
    return _Result(tokens, m.num_turns, cost, tool_counts(m), m.timestamp, m.model, parts)


def _growth(now: int | None, before: int | None) -> int | None:
    if now is None or before is None:
        return now
    return max(now - before, 0)


def _grown(found: _Result, before: dict[str, Tokens]) -> None:
    """A result of per-model totals counts what each model's totals grew by since the last.

    Copilot writes a ``session.shutdown`` each time a session's process exits; ccusage 20.0.24
    reads each as the session's running totals per model, counting what grew since the
    previous one (a figure that shrank adds nothing): so does this. A model whose totals did
    not grow leaves no part.
    """
    parts = []
    total: Tokens | None = None
    for name, totals in found.parts:
        had = before.get(name)
        before[name] = now = totals
        if had is not None:
            now = Tokens(
                _growth(totals.input, had.input),
                _growth(totals.output, had.output),
                _growth(totals.cache_read, had.cache_read),
                _growth(totals.cache_write, had.cache_write),
                _growth(totals.reasoning, had.reasoning),
            )
        figures = (now.input, now.output, now.cache_read, now.cache_write, now.reasoning)
        if not any(figures):
            continue
        parts.append((name, now))
        total = Tokens() if total is None else total
        total.add(now)
    found.parts = tuple(parts)
    found.tokens = total


def _fingerprint(m: Message) -> str:
    """What tells apart two records that carry no id: their fields, compactly."""
    return repr(m)


def _components(turns: list[frozenset[str]]) -> int:
    """How many distinct turns: turns that share a record (by key) are one."""
    parent: dict[str, str] = {}

    def root(k: str) -> str:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    count = 0
    for keys in turns:
        roots = {root(k) for k in keys if k in parent}
        new = [k for k in keys if k not in parent]
        for k in new:
            parent[k] = k
        if not roots:
            count += 1
            if new:
                top = new[0]
                for k in new[1:]:
                    parent[k] = top
            continue
        first, *others = roots
        for r in others:
            parent[r] = first
            count -= 1
        for k in new:
            parent[k] = first
    return count


@dataclass(slots=True)
class SessionStats(Slotted):
    """What one session did; merge the same session from several inputs with :meth:`absorb`.

    Each figure is held as the records behind it, by key, so that a record two inputs both
    hold is counted once.
    """

    session_id: str | None
    inputs: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    turn_keys: list[frozenset[str]] = field(default_factory=list)
    """The records of each assistant turn seen in the stream, by key (see ``FileStats``)."""
    calls: dict[str, str] = field(default_factory=dict)
    """Tool name by call id."""
    failed: set[str] = field(default_factory=set)
    """Call ids of failed tool results."""
    errors_seen: set[str] = field(default_factory=set)
    """Keys of error records."""
    turn_usage: dict[str, Entry] = field(default_factory=dict)
    """Per-message usage by message id (or uuid): the final figures of each message."""
    results: dict[str, _Result] = field(default_factory=dict)
    """The results that each report their own part, by record key."""
    running: dict[str, tuple[str, _Result]] = field(default_factory=dict)
    """The last Claude Code result (running totals) of each input: its key and figures."""
    first_time: float | None = None
    """When the session started: its first timestamped record in an input (seconds since
    1970, UTC), the earliest over inputs."""
    model: str | None = None
    """The first model named (by the session's start, or its first answer)."""
    cwd: str | None = None
    """The working folder the log records (``cwd``), the first one named."""
    folder: str | None = None
    """The name of the folder holding the first input (``-home-ana-app``), if it is a path."""
    boundaries: set[str] = field(default_factory=set)
    """Keys of compaction boundary records."""
    summaries: set[str] = field(default_factory=set)
    """Keys of compaction summaries (user turns the harness wrote)."""
    bad_costs: set[str] = field(default_factory=set)
    """Keys of records whose logged cost was rejected (negative, NaN or infinite)."""
    resets: set[float] = field(default_factory=set)
    """When the five-hour usage windows the logs mention reset (seconds since 1970): Claude
    Code's ``rate_limit_event`` (``resetsAt``), Codex's rate-limit snapshots (``resets_at``)."""
    undated: float | None = None
    """When a record without a time of its own happened, where the file's path says (seconds
    since 1970; see :func:`~messages.adapters._sessions.path_session`)."""

    @property
    def project(self) -> str | None:
        """The session's project: the ``cwd`` the log records, else its input's folder."""
        return self.cwd if self.cwd is not None else self.folder

    def copy(self) -> SessionStats:
        """A copy that can absorb more without changing this one."""
        return SessionStats(
            self.session_id,
            list(self.inputs),
            list(self.formats),
            list(self.turn_keys),
            dict(self.calls),
            set(self.failed),
            set(self.errors_seen),
            dict(self.turn_usage),
            dict(self.results),
            dict(self.running),
            self.first_time,
            self.model,
            self.cwd,
            self.folder,
            set(self.boundaries),
            set(self.summaries),
            set(self.bad_costs),
            set(self.resets),
            self.undated,
        )

    def absorb(self, other: SessionStats) -> None:
        """Add another part of the same session (from another input, or before its id)."""
        for label in other.inputs:
            if label not in self.inputs:
                self.inputs.append(label)
        for name in other.formats:
            if name not in self.formats:
                self.formats.append(name)
        self.turn_keys += other.turn_keys
        for call, tool in other.calls.items():
            self.calls.setdefault(call, tool)
        self.failed |= other.failed
        self.errors_seen |= other.errors_seen
        usage = self.turn_usage
        for key, entry in other.turn_usage.items():
            had = usage.get(key)
            if had is None or entry.rank() > had.rank():
                usage[key] = entry
        self.results.update(other.results)
        self.running.update(other.running)
        self.first_time = _earliest(self.first_time, other.first_time)
        self.model = _first(self.model, other.model)
        self.cwd = _first(self.cwd, other.cwd)
        self.folder = _first(self.folder, other.folder)
        self.boundaries |= other.boundaries
        self.summaries |= other.summaries
        self.bad_costs |= other.bad_costs
        self.resets |= other.resets
        self.undated = _earliest(self.undated, other.undated)

    def keys(self) -> set[str]:
        """The keys of every record counted here (to find a fragment's session)."""
        found: set[str] = set().union(*self.turn_keys) if self.turn_keys else set()
        found |= self.calls.keys() | self.failed | self.errors_seen | self.turn_usage.keys()
        found |= self.results.keys() | {key for key, _ in self.running.values()}
        return found

    def _from_results(self) -> _Result:
        total = _Result()
        for part in self.results.values():
            total.add(part)
        for part in {key: r for key, r in self.running.values()}.values():
            total.add(part)  # two inputs ending on the same result count it once
        return total

    @property
    def assistant_turns(self) -> int:
        """Assistant turns counted in the stream (a turn two inputs hold counts once)."""
        return _components(self.turn_keys)

    @property
    def turns(self) -> int:
        """Turns the results report, else assistant turns counted in the stream."""
        reported = self._from_results().turns
        return self.assistant_turns if reported is None else reported

    @property
    def tool_calls(self) -> dict[str, int]:
        """Calls per tool name: one per call id, plus the counts a log reports as such."""
        out = Counter(self.calls.values())
        for tool, (n, _) in (self._from_results().calls or {}).items():
            out[tool] += n
        return dict(out)

    @property
    def tool_errors(self) -> int:
        """Failed tool results: one per call id, plus the failures a log reports as counts."""
        reported = sum(failed for _, failed in (self._from_results().calls or {}).values())
        return len(self.failed) + reported

    @property
    def errors(self) -> int:
        """Error records, and assistant messages carrying an API error."""
        return len(self.errors_seen)

    @property
    def compactions(self) -> int:
        """Compactions: boundary records, or the summaries where a log has no boundaries."""
        return max(len(self.boundaries), len(self.summaries))

    @property
    def tokens(self) -> Tokens:
        """Tokens and cost: the results' totals where they have them, else per-turn usage."""
        reported = self._from_results()
        per_turn = Tokens()
        for part in self.turn_usage.values():
            per_turn.add(part.tokens)
        tokens = reported.tokens if reported.tokens is not None else per_turn
        out = Tokens(
            tokens.input,
            tokens.output,
            tokens.cache_read,
            tokens.cache_write,
            tokens.reasoning,
            None,
            dict(tokens.more) if tokens.more else None,
        )
        out.cost = reported.cost if reported.cost is not None else per_turn.cost
        return out

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict (``None`` for figures nothing reported)."""
        tokens = self.tokens
        return {
            "session_id": self.session_id,
            "inputs": list(self.inputs),
            "formats": list(self.formats),
            "turns": self.turns,
            "tool_calls": dict(sorted(self.tool_calls.items())),
            "tool_errors": self.tool_errors,
            "errors": self.errors,
            "compactions": self.compactions,
            "tokens": tokens.to_json(),
            "cost_usd": None if tokens.cost is None else round(tokens.cost, 10),
        }

    def reported(self) -> tuple[Tokens | None, float | None]:
        """The tokens and the cost the session's results report (``None``: they do not)."""
        found = self._from_results()
        return found.tokens, found.cost

    def reported_parts(self) -> list[Entry]:
        """The tokens of each result that reports some, with its time and model if given.

        Their sum is :meth:`reported`'s tokens; a report prices and dates each part on its
        own (a Codex session that changes model mid-way is priced per model).
        """
        found = [r for r in self.results.values() if r.tokens is not None and r.tokens.reported()]
        running = {key: r for key, r in self.running.values()}.values()
        found += [r for r in running if r.tokens is not None and r.tokens.reported()]
        out = []
        for r in found:
            if r.parts:  # priced and counted per model
                out += [Entry(t, r.timestamp, name) for name, t in r.parts]
            elif r.tokens is not None:
                out.append(Entry(_with_cost(r.tokens, r.cost), r.timestamp, r.model))
        return out


def _with_cost(tokens: Tokens, cost: float | None) -> Tokens:
    """A result's tokens carrying its own logged cost, so a report can date that cost."""
    if cost is None:
        return tokens
    out = Tokens()
    out.add(tokens)
    out.cost = cost
    return out


_ASSISTANT_CONTENT = (
    TextMessage,
    ThinkingMessage,
    ToolUseMessage,
    ImageMessage,
    AudioMessage,
    DocumentMessage,
    VideoMessage,
    ServerToolUseMessage,
)


_SAID: Final = frozenset(
    (TextBlock, ThinkingBlock, ImageBlock, AudioBlock, DocumentBlock, VideoBlock)
)
"""The block kinds that are only content of their speaker to :meth:`InputStats._content`."""
_READ_OFF: Final = _SAID | {
    ToolResultBlock,
    ServerToolResultBlock,
    ToolUseBlock,
    ServerToolUseBlock,
}
"""The block kinds :meth:`InputStats._blocks` reads directly; a ``RawBlock`` is not one (it
may wrap a whole message of any kind)."""


RESTATING: Final = ("$document", "kimi.context")
"""The ``extra`` keys of a record that may restate history kept elsewhere (Gemini CLI's, see
:func:`~messages.adapters.gemini_session.restates`, and Kimi CLI's context records, see
:func:`~messages.adapters.kimi.restates`): only a record holding one, or a stream event,
is asked, so that a run over other formats never loads those adapters."""


def _restates(m: Message) -> bool:
    """Whether ``m`` restates history kept elsewhere, as its format's adapter says."""
    from ..adapters.gemini_session import restates
    from ..adapters.kimi import restates as kimi_restates

    return bool(m.extra and restates(m)) or kimi_restates(m)


class InputStats(Slotted):
    """Collects the sessions of one input, message by message (in a worker or the parent).

    Feed it one input's decoded messages in order with :meth:`feed`, then :meth:`finish`;
    ``sessions`` then holds that input's part of each session.
    """

    __slots__ = (
        "_anon",
        "_current",
        "_folder",
        "_in_turn",
        "_seen",
        "_totals",
        "_turn",
        "format",
        "label",
        "path_facts",
        "sessions",
    )

    def __init__(self, label: str, format: str | None, *, path: str | None = None) -> None:
        self.label = label
        self.format = format
        self.path_facts: tuple[str | None, str | None] = (None, None)  # session, undated time
        if path is not None and format is not None:
            from ..adapters._sessions import path_session

            self.path_facts = path_session(format, path)
        self.sessions: dict[Key, SessionStats] = {}
        self._current: SessionStats | None = None
        self._anon: SessionStats | None = None
        self._in_turn: SessionStats | None = None
        self._turn: set[str] = set()
        self._seen: Counter[str] = Counter()
        self._totals: dict[str, dict[str, Tokens]] = {}
        folder = os.path.basename(os.path.dirname(label)) if os.sep in label else ""
        self._folder = folder or None

    def _new(self, key: Key, session_id: str | None) -> SessionStats:
        s = SessionStats(session_id, inputs=[self.label], folder=self._folder)
        if self.format:
            s.formats.append(self.format)
        self.sessions[key] = s
        return s

    def _session(self, session_id: str | None) -> SessionStats:
        current = self._current
        if session_id is not None and current is not None and current.session_id == session_id:
            return current  # the usual case: the record before was of the same session
        if session_id is None:
            if self._current is None:
                self._current = self._anon = self._new(("input", self.label), None)
            return self._current
        key = ("session", session_id)
        s = self.sessions.get(key) or self._new(key, session_id)
        if self._anon is not None:  # what came before the first id belongs to this session
            s.absorb(self.sessions.pop(("input", self.label)))
            held = self._totals.pop("", None)  # and so do the running totals it reported
            if held is not None:
                self._totals[session_id] = held
            if self._in_turn is self._anon:
                self._in_turn = s
            self._anon = None
        self._current = s
        return s

    def _key(self, m: Message, *ids: str | None) -> str:
        """A record's key: its first id, else its content and how often that came before."""
        for found in ids:
            if found:
                return found
        shape = _fingerprint(m)
        self._seen[shape] += 1
        return f"{shape}#{self._seen[shape]}"

    def _end_turn(self) -> None:
        if self._in_turn is not None:
            self._in_turn.turn_keys.append(frozenset(self._turn))
        self._in_turn = None
        self._turn = set()

    def finish(self) -> None:
        """Close the turn still open at the end of the input.

        An input whose records name no session is the session its path names, where its
        agent's hook tells it (a Droid settings file joins its transcript's session).
        """
        self._end_turn()
        session, undated = self.path_facts
        anon = self.sessions.get(("input", self.label))
        if session is not None and anon is not None and len(self.sessions) == 1:
            del self.sessions[("input", self.label)]
            anon.session_id = session
            self.sessions[("session", session)] = anon
            self._anon = self._current = None
        when = epoch(undated)
        if when is not None:
            for s in self.sessions.values():
                s.undated = when
                if s.first_time is None:
                    s.first_time = when

    def seen(self, session_id: str | None, timestamp: object, cwd: object) -> SessionStats:
        """Count a record for its session, time and working folder only; its session.

        What :meth:`feed` does first with every message, and all it does with a record
        that counts for nothing else (a Claude Code ``progress`` line): a reader that can
        tell such a record from its line alone may call this instead of decoding it.
        """
        s = self._session(session_id)
        if s.first_time is None and timestamp is not None:  # logs are in time order
            s.first_time = epoch(timestamp)
        if s.cwd is None and isinstance(cwd, str) and cwd:
            s.cwd = cwd
        return s

    def feed(self, m: Message) -> None:
        """Count one decoded message (role messages are looked at block by block).

        A record that restates history kept elsewhere (a Gemini CLI checkpoint or prompt
        log, see :func:`~messages.adapters.gemini_session.restates`; a Kimi CLI context file,
        see :func:`~messages.adapters.kimi.restates`) is not counted again.
        """
        extra = raw(m.extra)  # read only: plain values, none wrapped on the way out
        asked = extra and (RESTATING[0] in extra or RESTATING[1] in extra)
        if (asked or type(m) is StreamEventMessage) and _restates(m):
            return
        cwd = m.cwd if isinstance(m, InitMessage) else extra.get("cwd")
        s = self.seen(m.session_id, m.timestamp, cwd)
        if s.model is None and m.model and not isinstance(m, ResultMessage | ErrorMessage):
            s.model = m.model
        if type(m) is RawMessage:  # a record kept whole: its session, time and place only
            return
        if isinstance(m, AssistantMessage):
            if m.usage is not None:
                key = self._key(m, m.message_id, m.uuid)
                logged = extra.get("costUSD")  # what older Claude Code transcripts record
                tokens = Tokens.of(m.usage, logged_cost(logged))
                if _bad_cost(logged) or _bad_cost(m.usage.cost_usd):
                    s.bad_costs.add(key)
                context = price_context(raw(m.usage.extra), extra)
                agent = extra.get("agentId")
                request = extra.get("requestId")
                entry = Entry(
                    tokens,
                    m.timestamp,
                    m.model,
                    context,
                    agent if type(agent) is str else None,
                    request if type(request) is str and m.message_id else None,
                    self.format,
                )
                had = s.turn_usage.get(key)
                # the more complete figures win; of equal ones the first line's, as absorb keeps
                if had is None or entry.rank() > had.rank():
                    s.turn_usage[key] = entry
            if m.error:
                s.errors_seen.add(self._key(m, m.message_id, m.uuid))
        if isinstance(m, RateLimitMessage):
            reset = _claude_reset(m.info)
            if reset is not None:
                s.resets.add(reset)
            return
        if isinstance(m, ResultMessage):
            reset = _codex_reset(m.extra)
            if reset is not None:
                s.resets.add(reset)
            self._end_turn()
            key = self._key(m, m.uuid, m.message_id)
            if _bad_cost(m.total_cost_usd) or (
                m.total_cost_usd is None and m.usage is not None and _bad_cost(m.usage.cost_usd)
            ):
                s.bad_costs.add(key)
            if extra.get("type") == "result":  # Claude Code: the running totals
                s.running[self.label] = (key, _result(m))
            else:
                found = _result(m)
                if found.parts:
                    before = self._totals.setdefault(s.session_id or "", {})
                    _grown(found, before)
                s.results[key] = found
            return
        if isinstance(m, ErrorMessage):
            s.errors_seen.add(self._key(m, m.uuid, m.message_id))
            return
        if isinstance(m, InitMessage):
            self._end_turn()
            return
        if isinstance(m, CompactBoundaryMessage):
            s.boundaries.add(self._key(m, m.uuid, m.message_id))
            return
        if isinstance(m, UserMessage) and m.summary == "compaction":
            s.summaries.add(self._key(m, m.uuid, m.message_id))
        record = ""
        if getattr(m, "role", None) == "assistant":  # the record's key, for its turn
            record = self._key(m, m.message_id, m.uuid)
        if not isinstance(m, ROLE_TYPES):
            self._content(s, m, record)
        elif m.content:
            self._blocks(s, m, record)

    def _blocks(self, s: SessionStats, m: RoleMessage, record: str) -> None:
        """What :meth:`_content` does with each flat message of ``m``, read off its blocks.

        The same as ``for part in flatten_assistant(m): self._content(s, part, record)``
        (which a message holding a block kind not listed in ``_BLOCK_PARTS`` still takes),
        without making a flat message per block.
        """
        content = m.content
        said = m.role == "assistant"
        if type(content) is str:  # one text of the message's role
            self._said(s, said, record)
            return
        if not _READ_OFF.issuperset([type(b) for b in content]):
            for part in flatten_assistant(m):
                self._content(s, part, record)
            return
        for i, b in enumerate(content):
            if type(b) is ToolResultBlock:
                self._end_turn()
                if b.is_error:
                    s.failed.add(b.tool_use_id or self._key(flatten_assistant(m)[i]))
            elif type(b) is ServerToolResultBlock:  # the provider's own answer, in the turn
                if b.is_error:
                    s.failed.add(b.tool_use_id or self._key(flatten_assistant(m)[i]))
            else:
                self._said(s, said, record)
                if said and (type(b) is ToolUseBlock or type(b) is ServerToolUseBlock):
                    s.calls.setdefault(b.id or self._key(flatten_assistant(m)[i]), b.name)

    def _said(self, s: SessionStats, said: bool, record: str) -> None:
        """Content of a speaker: an assistant's goes on (or opens) the turn, any other ends it."""
        if not said:
            self._end_turn()
            return
        if self._in_turn is not s:  # a turn goes on until another speaker (or session) talks
            self._end_turn()
            self._in_turn = s
        if record:
            self._turn.add(record)

    def _content(self, s: SessionStats, m: Message, record: str) -> None:
        if isinstance(m, ToolResultMessage):
            self._end_turn()
            if m.is_error:
                s.failed.add(self._key(m, m.tool_use_id))
            return
        if isinstance(m, ServerToolResultMessage):  # the provider's own answer, in the turn
            if m.is_error:
                s.failed.add(self._key(m, m.tool_use_id))
            return
        if not isinstance(m, _ASSISTANT_CONTENT):
            return
        said = m.role == "assistant"
        self._said(s, said, record)
        if said and isinstance(m, ToolUseMessage | ServerToolUseMessage):
            s.calls.setdefault(self._key(m, m.id), m.name)


def resolve(parts: dict[Key, SessionStats]) -> list[SessionStats]:
    """The sessions of all inputs in first-seen order (``parts`` is left as it was).

    An input without session ids whose records another input holds under one session id (a
    fragment cut after the line that names the session) is part of that session.
    """
    merged = {key: s.copy() for key, s in parts.items()}
    named = [(s, s.keys()) for key, s in merged.items() if key[0] == "session"]
    for key, s in list(merged.items()):
        if key[0] != "input":
            continue
        mine = s.keys()
        owners = [owner for owner, theirs in named if mine & theirs]
        if len(owners) == 1:
            owners[0].absorb(s)
            del merged[key]
    found = list(merged.values())
    _count_copies_once(found)
    for s in found:
        _defer(s)
    return found


DEFERS: Final = {"copilot": "copilot_otel"}
"""Formats whose per-call usage gives way to another format's for the same session.

The Copilot CLI's session store (``copilot``) and its OpenTelemetry trace file
(``copilot_otel``) both report a session's model calls under the same session id: the store
each reply's output tokens only, the trace each call in full. Where the trace reports calls of
a session, the replies' figures are left out, so each call counts once. A session's totals
(the store's ``session.shutdown``) are results, which win over any per-call usage, as they
do in ccusage 20.0.24."""


def _defer(s: SessionStats) -> None:
    """Leave out the per-call usage of a format that gives way to another's (:data:`DEFERS`)."""
    found = {e.source for e in s.turn_usage.values()}
    gone = {name for name, over in DEFERS.items() if name in found and over in found}
    if gone:
        s.turn_usage = {k: e for k, e in s.turn_usage.items() if e.source not in gone}


def _count_copies_once(sessions: list[SessionStats]) -> None:
    """A request a resumed (or forked) session copied from another is counted once.

    Claude Code copies the records of the session it resumes into the new session's file,
    with their message and request ids: a request known by both ids in several sessions
    stays in the one that began it (see :func:`_order`) and leaves the others.
    """
    first: dict[tuple[str, str], SessionStats] = {}
    shared: dict[tuple[str, str], list[SessionStats]] = {}  # held by more than one session
    for s in sessions:
        for key, entry in s.turn_usage.items():
            if entry.request_id is not None:
                request = (key, entry.request_id)
                holder = first.setdefault(request, s)
                if holder is not s:
                    shared.setdefault(request, [holder]).append(s)
    if not shared:
        return
    order = {id(s): _order(s) for s in sessions}
    for (key, _), held in shared.items():
        keeper = min(held, key=lambda s: order[id(s)])
        for s in held:
            if s is not keeper:
                del s.turn_usage[key]


def _order(s: SessionStats) -> tuple[float, int, str]:
    """Which of two sessions holding a request began it: the one that sorts first.

    The earlier start, and at the same start (a copy keeps its records' times) the
    shorter, which the other resumes.
    """
    first = s.first_time
    return (float("inf") if first is None else first, len(s.turn_usage), s.session_id or "")
