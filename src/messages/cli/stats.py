"""``messages stats``: turns, tool calls, errors, tokens and cost per session.

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
- **tokens** and **cost**: from the session's results when any result reports them, and
  otherwise from the per-turn usage of assistant messages (one figure per message id:
  Claude Code repeats a turn's usage on each block's line, the last one wins). A Claude Code
  ``result`` line restates the running totals of its process, so only the last one of each
  input counts; results of other sources (a Codex turn, an OpenCode step, a Copilot call, a
  Gemini CLI model) each report their own part and are added up.

Nothing is counted twice, across inputs either: a record that two inputs both hold (a
transcript and a fragment of it) is one record, known by its message id, call id or uuid
(records without any id are told apart by their content and place). A figure no record
reports is ``None`` (``-`` in the table), never a made-up zero.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import IO
from typing import Any

from ..adapters.gemini_cli import tool_counts
from ..convert import flatten_assistant
from ..flat import AudioMessage
from ..flat import ImageMessage
from ..flat import ServerToolResultMessage
from ..flat import ServerToolUseMessage
from ..flat import TextMessage
from ..flat import ThinkingMessage
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..message import ROLE_TYPES
from ..message import Message
from ..roles import AssistantMessage
from ..session import ErrorMessage
from ..session import InitMessage
from ..session import ResultMessage
from ..usage import Usage

__all__ = ["FileStats", "SessionStats", "Tokens", "render_json", "render_table", "sessions"]

Key = tuple[str, str]
"""``("session", id)``, or ``("input", label)`` for an input without session ids."""


def _sum(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else a + b


@dataclass(slots=True)
class Tokens:
    """Token counts and cost; ``None`` where nothing reported the figure."""

    input: int | None = None
    output: int | None = None
    cache_read: int | None = None
    cache_write: int | None = None
    reasoning: int | None = None
    cost: float | None = None

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
            cost if cost is not None else usage.cost_usd,
        )

    def add(self, other: Tokens) -> None:
        """Add ``other`` in place (a figure stays ``None`` only if neither has it)."""
        self.input = _sum(self.input, other.input)
        self.output = _sum(self.output, other.output)
        self.cache_read = _sum(self.cache_read, other.cache_read)
        self.cache_write = _sum(self.cache_write, other.cache_write)
        self.reasoning = _sum(self.reasoning, other.reasoning)
        if other.cost is not None:
            self.cost = other.cost if self.cost is None else self.cost + other.cost

    def reported(self) -> bool:
        """Whether any token figure is known."""
        return any(
            v is not None
            for v in (self.input, self.output, self.cache_read, self.cache_write, self.reasoning)
        )

    def to_json(self) -> dict[str, int | None]:
        """The token figures as a JSON-ready dict (cost is reported on its own)."""
        return {
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_write": self.cache_write,
            "reasoning": self.reasoning,
        }


@dataclass(slots=True)
class _Result:
    tokens: Tokens | None = None
    turns: int | None = None
    cost: float | None = None
    calls: dict[str, tuple[int, int]] | None = None

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


def _result(m: ResultMessage) -> _Result:
    cost = m.total_cost_usd
    if cost is None and m.usage is not None:
        cost = m.usage.cost_usd
    tokens = None if m.usage is None else Tokens.of(m.usage, None)
    if tokens is not None:
        tokens.cost = None
    return _Result(tokens, m.num_turns, cost, tool_counts(m))


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
class SessionStats:
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
    turn_usage: dict[str, Tokens] = field(default_factory=dict)
    """Per-turn usage by message id (or uuid)."""
    results: dict[str, _Result] = field(default_factory=dict)
    """The results that each report their own part, by record key."""
    running: dict[str, tuple[str, _Result]] = field(default_factory=dict)
    """The last Claude Code result (running totals) of each input: its key and figures."""

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
        self.turn_usage.update(other.turn_usage)
        self.results.update(other.results)
        self.running.update(other.running)

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
    def tokens(self) -> Tokens:
        """Tokens and cost: the results' totals where they have them, else per-turn usage."""
        reported = self._from_results()
        per_turn = Tokens()
        for part in self.turn_usage.values():
            per_turn.add(part)
        tokens = reported.tokens if reported.tokens is not None else per_turn
        out = Tokens(
            tokens.input, tokens.output, tokens.cache_read, tokens.cache_write, tokens.reasoning
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
            "tokens": tokens.to_json(),
            "cost_usd": None if tokens.cost is None else round(tokens.cost, 10),
        }


_ASSISTANT_CONTENT = (
    TextMessage,
    ThinkingMessage,
    ToolUseMessage,
    ImageMessage,
    AudioMessage,
    ServerToolUseMessage,
)


class FileStats:
    """Collects the sessions of one input, message by message (in a worker or the parent)."""

    __slots__ = (
        "_anon",
        "_current",
        "_in_turn",
        "_seen",
        "_turn",
        "format",
        "label",
        "sessions",
    )

    def __init__(self, label: str, format: str | None) -> None:
        self.label = label
        self.format = format
        self.sessions: dict[Key, SessionStats] = {}
        self._current: SessionStats | None = None
        self._anon: SessionStats | None = None
        self._in_turn: SessionStats | None = None
        self._turn: set[str] = set()
        self._seen: Counter[str] = Counter()

    def _new(self, key: Key, session_id: str | None) -> SessionStats:
        s = SessionStats(session_id, inputs=[self.label])
        if self.format:
            s.formats.append(self.format)
        self.sessions[key] = s
        return s

    def _session(self, session_id: str | None) -> SessionStats:
        if session_id is None:
            if self._current is None:
                self._current = self._anon = self._new(("input", self.label), None)
            return self._current
        key = ("session", session_id)
        s = self.sessions.get(key) or self._new(key, session_id)
        if self._anon is not None:  # what came before the first id belongs to this session
            s.absorb(self.sessions.pop(("input", self.label)))
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
        """Close the turn still open at the end of the input."""
        self._end_turn()

    def feed(self, m: Message) -> None:
        """Count one decoded message (role messages are looked at block by block)."""
        s = self._session(m.session_id)
        if isinstance(m, AssistantMessage):
            if m.usage is not None:
                key = self._key(m, m.message_id, m.uuid)
                s.turn_usage[key] = Tokens.of(m.usage)
            if m.error:
                s.errors_seen.add(self._key(m, m.message_id, m.uuid))
        if isinstance(m, ResultMessage):
            self._end_turn()
            key = self._key(m, m.uuid, m.message_id)
            if m.extra.get("type") == "result":  # Claude Code: the running totals
                s.running[self.label] = (key, _result(m))
            else:
                s.results[key] = _result(m)
            return
        if isinstance(m, ErrorMessage):
            s.errors_seen.add(self._key(m, m.uuid, m.message_id))
            return
        if isinstance(m, InitMessage):
            self._end_turn()
            return
        record = ""
        if getattr(m, "role", None) == "assistant":  # the record's key, for its turn
            record = self._key(m, m.message_id, m.uuid)
        for part in flatten_assistant(m) if isinstance(m, ROLE_TYPES) else (m,):
            self._content(s, part, record)

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
        if m.role != "assistant":
            self._end_turn()
            return
        if self._in_turn is not s:  # a turn goes on until another speaker (or session) talks
            self._end_turn()
            self._in_turn = s
        if record:
            self._turn.add(record)
        if isinstance(m, ToolUseMessage | ServerToolUseMessage):
            s.calls.setdefault(self._key(m, m.id), m.name)


def sessions(parts: Iterable[FileStats]) -> list[SessionStats]:
    """The sessions of all inputs in first-seen order, one session id merged across inputs.

    An input without session ids whose records another input holds under one session id (a
    fragment cut after the line that names the session) is part of that session.
    """
    merged: dict[Key, SessionStats] = {}
    for part in parts:
        part.finish()
        for key, s in part.sessions.items():
            if key in merged:
                merged[key].absorb(s)
            else:
                merged[key] = s
    named = [(s, s.keys()) for key, s in merged.items() if key[0] == "session"]
    for key, s in list(merged.items()):
        if key[0] != "input":
            continue
        mine = s.keys()
        owners = [owner for owner, theirs in named if mine & theirs]
        if len(owners) == 1:
            owners[0].absorb(s)
            del merged[key]
    return list(merged.values())


def _total(all_sessions: list[SessionStats]) -> dict[str, Any]:
    tokens = Tokens()
    calls: Counter[str] = Counter()
    out: dict[str, Any] = {"inputs": [], "formats": []}
    turns = tool_errors = errors = 0
    for s in all_sessions:
        turns += s.turns
        tokens.add(s.tokens)
        calls.update(s.tool_calls)
        tool_errors += s.tool_errors
        errors += s.errors
        out["inputs"] += [x for x in s.inputs if x not in out["inputs"]]
        out["formats"] += [x for x in s.formats if x not in out["formats"]]
    out.update(
        turns=turns,
        tool_calls=dict(sorted(calls.items())),
        tool_errors=tool_errors,
        errors=errors,
        tokens=tokens.to_json(),
        cost_usd=None if tokens.cost is None else round(tokens.cost, 10),
        sessions=len(all_sessions),
    )
    return out


def render_json(all_sessions: list[SessionStats], out: IO[str]) -> None:
    """``{"sessions": [...], "total": {...}}`` as indented JSON."""
    doc = {"sessions": [s.to_json() for s in all_sessions], "total": _total(all_sessions)}
    out.write(json.dumps(doc, indent=2, ensure_ascii=False))
    out.write("\n")


_COLUMNS = (
    "session",
    "turns",
    "tool calls",
    "tool errors",
    "errors",
    "input",
    "output",
    "cache read",
    "cache write",
    "reasoning",
    "cost",
)
_TOKENS = ("input", "output", "cache_read", "cache_write", "reasoning")


def _figure(value: int | None) -> str:
    return "-" if value is None else str(value)


def _row(name: str, d: dict[str, Any]) -> list[str]:
    t = d["tokens"]
    cost = d["cost_usd"]
    return [
        name,
        str(d["turns"]),
        str(sum(d["tool_calls"].values())),
        str(d["tool_errors"]),
        str(d["errors"]),
        *(_figure(t[k]) for k in _TOKENS),
        "-" if cost is None else f"${cost:.4f}",
    ]


def render_table(all_sessions: list[SessionStats], out: IO[str]) -> None:
    """A table with one row per session (and a total row when there are several).

    A figure no input reports is ``-``; the reasoning column is shown when any input reports
    reasoning tokens. Then the tool calls of each session, by name.
    """
    docs = [s.to_json() for s in all_sessions]
    rows = [list(_COLUMNS)]
    names = [d["session_id"] or f"({', '.join(d['inputs'])})" for d in docs]
    rows += [_row(name, d) for name, d in zip(names, docs, strict=True)]
    if len(docs) > 1:
        rows.append(_row("total", _total(all_sessions)))
    if not any(d["tokens"]["reasoning"] is not None for d in docs):
        reasoning = _COLUMNS.index("reasoning")
        rows = [row[:reasoning] + row[reasoning + 1 :] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.write("  ".join(cells).rstrip() + "\n")
    calls = [(name, d["tool_calls"]) for name, d in zip(names, docs, strict=True)]
    if any(tools for _, tools in calls):
        out.write("\ntool calls by name\n")
        for name, tools in calls:
            if tools:
                listed = ", ".join(f"{tool} {n}" for tool, n in tools.items())
                out.write(f"  {name}: {listed}\n")
