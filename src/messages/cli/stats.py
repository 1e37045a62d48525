"""``messages stats``: turns, tool calls, errors, tokens and cost per session.

A session is a ``session_id``; messages without one belong to the last session seen in the
same input, and an input with no session id at all is one session of its own. Figures are
never counted twice:

- tokens, cost and turns come from the session's results when any result reports them, and
  otherwise from the per-turn usage of assistant messages (one figure per message id: Claude
  Code repeats a turn's usage on each block's line, the last one wins);
- a Claude Code ``result`` line restates the running totals of its process, so only the last
  one of each input counts; results of other sources (a Codex turn, an OpenCode step, a
  Copilot call) each report their own part and are added up;
- a tool call is counted once per call id (sources that report a call's progress repeat it),
  and a failed tool result once per call id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import IO
from typing import Any

from ..convert import flatten_assistant
from ..flat import AudioMessage
from ..flat import ImageMessage
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


@dataclass(slots=True)
class Tokens:
    """Token counts and cost (a missing figure counts as zero; cost stays ``None`` if unknown)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: float | None = None

    @classmethod
    def of(cls, usage: Usage | None, cost: float | None = None) -> Tokens:
        """The counts of one usage value (``cost`` wins over the usage's own cost)."""
        if usage is None:
            return cls(cost=cost)
        return cls(
            usage.input_tokens or 0,
            usage.output_tokens or 0,
            usage.cache_read_tokens or 0,
            usage.cache_write_tokens or 0,
            cost if cost is not None else usage.cost_usd,
        )

    def add(self, other: Tokens) -> None:
        """Add ``other`` in place."""
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        if other.cost is not None:
            self.cost = other.cost if self.cost is None else self.cost + other.cost


@dataclass(slots=True)
class _Result:
    tokens: Tokens | None = None
    turns: int | None = None
    cost: float | None = None

    def add(self, other: _Result) -> None:
        if other.tokens is not None:
            if self.tokens is None:
                self.tokens = Tokens()
            self.tokens.add(other.tokens)
        if other.turns is not None:
            self.turns = (self.turns or 0) + other.turns
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost


def _result(m: ResultMessage) -> _Result:
    cost = m.total_cost_usd
    if cost is None and m.usage is not None:
        cost = m.usage.cost_usd
    tokens = None if m.usage is None else Tokens.of(m.usage, None)
    if tokens is not None:
        tokens.cost = None
    return _Result(tokens, m.num_turns, cost)


@dataclass(slots=True)
class SessionStats:
    """What one session did; merge the same session from several inputs with :meth:`absorb`."""

    session_id: str | None
    inputs: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    assistant_turns: int = 0
    tool_calls: dict[str, int] = field(default_factory=dict)
    tool_ids: set[str] = field(default_factory=set)
    tool_errors: int = 0
    error_ids: set[str] = field(default_factory=set)
    errors: int = 0
    turn_usage: dict[str, Tokens] = field(default_factory=dict)
    results: _Result = field(default_factory=_Result)
    running: dict[str, _Result] = field(default_factory=dict)
    """The last Claude Code result (running totals) of each input."""

    def absorb(self, other: SessionStats) -> None:
        """Add another part of the same session (from another input, or before its id)."""
        for label in other.inputs:
            if label not in self.inputs:
                self.inputs.append(label)
        for name in other.formats:
            if name not in self.formats:
                self.formats.append(name)
        self.assistant_turns += other.assistant_turns
        for tool, n in other.tool_calls.items():
            self.tool_calls[tool] = self.tool_calls.get(tool, 0) + n
        self.tool_ids |= other.tool_ids
        self.tool_errors += other.tool_errors
        self.error_ids |= other.error_ids
        self.errors += other.errors
        self.turn_usage.update(other.turn_usage)
        self.results.add(other.results)
        self.running.update(other.running)

    def _from_results(self) -> _Result:
        total = _Result()
        total.add(self.results)
        for part in self.running.values():
            total.add(part)
        return total

    @property
    def turns(self) -> int:
        """Turns the results report, else assistant turns counted in the stream."""
        reported = self._from_results().turns
        return self.assistant_turns if reported is None else reported

    @property
    def tokens(self) -> Tokens:
        """Tokens and cost: the results' totals where they have them, else per-turn usage."""
        reported = self._from_results()
        per_turn = Tokens()
        for part in self.turn_usage.values():
            per_turn.add(part)
        tokens = reported.tokens if reported.tokens is not None else per_turn
        out = Tokens(tokens.input, tokens.output, tokens.cache_read, tokens.cache_write)
        out.cost = reported.cost if reported.cost is not None else per_turn.cost
        return out

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        tokens = self.tokens
        return {
            "session_id": self.session_id,
            "inputs": list(self.inputs),
            "formats": list(self.formats),
            "turns": self.turns,
            "tool_calls": dict(sorted(self.tool_calls.items())),
            "tool_errors": self.tool_errors,
            "errors": self.errors,
            "tokens": {
                "input": tokens.input,
                "output": tokens.output,
                "cache_read": tokens.cache_read,
                "cache_write": tokens.cache_write,
            },
            "cost_usd": None if tokens.cost is None else round(tokens.cost, 10),
        }


_ASSISTANT_CONTENT = (TextMessage, ThinkingMessage, ToolUseMessage, ImageMessage, AudioMessage)


class FileStats:
    """Collects the sessions of one input, message by message (in a worker or the parent)."""

    __slots__ = ("_anon", "_current", "_in_turn", "_unnamed", "format", "label", "sessions")

    def __init__(self, label: str, format: str | None) -> None:
        self.label = label
        self.format = format
        self.sessions: dict[Key, SessionStats] = {}
        self._current: SessionStats | None = None
        self._anon: SessionStats | None = None
        self._in_turn: SessionStats | None = None
        self._unnamed = 0

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

    def feed(self, m: Message) -> None:
        """Count one decoded message (role messages are looked at block by block)."""
        s = self._session(m.session_id)
        if isinstance(m, AssistantMessage):
            if m.usage is not None:
                key = m.message_id
                if key is None:
                    self._unnamed += 1
                    key = f"{self.label}\0{self._unnamed}"
                s.turn_usage[key] = Tokens.of(m.usage)
            if m.error:
                s.errors += 1
        if isinstance(m, ResultMessage):
            self._in_turn = None
            if m.extra.get("type") == "result":
                s.running[self.label] = _result(m)
            else:
                s.results.add(_result(m))
            return
        if isinstance(m, ErrorMessage):
            s.errors += 1
            return
        if isinstance(m, InitMessage):
            self._in_turn = None
            return
        for part in flatten_assistant(m) if isinstance(m, ROLE_TYPES) else (m,):
            self._content(s, part)

    def _content(self, s: SessionStats, m: Message) -> None:
        if isinstance(m, ToolResultMessage):
            self._in_turn = None
            if m.is_error and (not m.tool_use_id or m.tool_use_id not in s.error_ids):
                s.error_ids.add(m.tool_use_id)
                s.tool_errors += 1
            return
        if not isinstance(m, _ASSISTANT_CONTENT):
            return
        if m.role != "assistant":
            self._in_turn = None
            return
        if self._in_turn is not s:  # a turn goes on until another speaker (or session) talks
            self._in_turn = s
            s.assistant_turns += 1
        if isinstance(m, ToolUseMessage) and (not m.id or m.id not in s.tool_ids):
            s.tool_ids.add(m.id)
            s.tool_calls[m.name] = s.tool_calls.get(m.name, 0) + 1


def sessions(parts: Iterable[FileStats]) -> list[SessionStats]:
    """The sessions of all inputs in first-seen order, one session id merged across inputs."""
    merged: dict[Key, SessionStats] = {}
    for part in parts:
        for key, s in part.sessions.items():
            if key in merged:
                merged[key].absorb(s)
            else:
                merged[key] = s
    return list(merged.values())


def _total(all_sessions: list[SessionStats]) -> dict[str, Any]:
    total = SessionStats(None)
    tokens = Tokens()
    turns = 0
    for s in all_sessions:
        turns += s.turns
        tokens.add(s.tokens)
        total.absorb(s)
    out = total.to_json()
    out["turns"] = turns
    out["tokens"] = {
        "input": tokens.input,
        "output": tokens.output,
        "cache_read": tokens.cache_read,
        "cache_write": tokens.cache_write,
    }
    out["cost_usd"] = None if tokens.cost is None else round(tokens.cost, 10)
    out["sessions"] = len(all_sessions)
    del out["session_id"]
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
    "cost",
)


def _row(name: str, d: dict[str, Any]) -> list[str]:
    t = d["tokens"]
    cost = d["cost_usd"]
    return [
        name,
        str(d["turns"]),
        str(sum(d["tool_calls"].values())),
        str(d["tool_errors"]),
        str(d["errors"]),
        str(t["input"]),
        str(t["output"]),
        str(t["cache_read"]),
        str(t["cache_write"]),
        "-" if cost is None else f"${cost:.4f}",
    ]


def render_table(all_sessions: list[SessionStats], out: IO[str]) -> None:
    """A table with one row per session (and a total row when there are several).

    Then the tool calls of each session, by name.
    """
    docs = [s.to_json() for s in all_sessions]
    rows = [list(_COLUMNS)]
    names = [d["session_id"] or f"({', '.join(d['inputs'])})" for d in docs]
    rows += [_row(name, d) for name, d in zip(names, docs, strict=True)]
    if len(docs) > 1:
        rows.append(_row("total", _total(all_sessions)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
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
