"""``messages stats`` output: a report as a table or as JSON, and the notes that go with it.

The figures themselves come from :mod:`messages.stats` (the accumulator and its reports);
this module only writes them out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO
from typing import Any

from ..stats import InputStats
from ..stats import Report
from ..stats import SessionStats
from ..stats import Stats
from ..stats import Tokens

__all__ = [
    "FileStats",
    "SessionStats",
    "Tokens",
    "notes",
    "render_json",
    "render_table",
    "sessions",
]

FileStats = InputStats
"""The collector of one input (the name the command's workers use)."""


def sessions(parts: Iterable[InputStats]) -> list[SessionStats]:
    """The sessions of all inputs in first-seen order, one session id merged across inputs."""
    return Stats.merge_all(Stats.of_input(part) for part in parts).sessions()


def render_json(report: Report, out: IO[str]) -> None:
    """The report as indented JSON (see :meth:`messages.stats.Report.to_json`)."""
    out.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    out.write("\n")


_FIGURES = (
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
    "cost from",
)
_TOKENS = ("input", "output", "cache_read", "cache_write", "reasoning")


def _figure(value: int | None) -> str:
    return "-" if value is None else str(value)


def _row(name: str, d: dict[str, Any], *, count: bool) -> list[str]:
    t = d["tokens"]
    cost = d["cost_usd"]
    return [
        name,
        *([str(d["sessions"])] if count else []),
        str(d["turns"]),
        str(sum(d["tool_calls"].values())),
        str(d["tool_errors"]),
        str(d["errors"]),
        *(_figure(t[k]) for k in _TOKENS),
        "-" if cost is None else f"${cost:.4f}",
        d["cost_source"] or "-",
    ]


def render_table(report: Report, out: IO[str]) -> None:
    """A table with one row per session (or day, month, model, project), and a total row.

    A figure no input reports is ``-``; the reasoning column is shown when any input reports
    reasoning tokens; ``cost from`` says whether the cost is the logs' own (``logged``),
    estimated from the token counts (``estimated``), or both (``mixed``). By session, the tool
    calls of each session follow, by name.
    """
    doc = report.to_json()
    by = report.by
    count = by != "session"
    if by == "session":
        items = doc["sessions"]
        names = [d["session_id"] or f"({', '.join(d['inputs'])})" for d in items]
    else:
        items = doc["rows"]
        names = ["-" if d[by] is None else str(d[by]) for d in items]
    head = f"{by} ({report.tz})" if by in ("day", "month") else by
    rows = [[head, *(["sessions"] if count else []), *_FIGURES]]
    rows += [_row(name, d, count=count) for name, d in zip(names, items, strict=True)]
    if len(items) > 1:
        rows.append(_row("total", doc["total"], count=count))
    if not any(d["tokens"]["reasoning"] is not None for d in items):
        reasoning = rows[0].index("reasoning")
        rows = [row[:reasoning] + row[reasoning + 1 :] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.write("  ".join(cells).rstrip() + "\n")
    calls = [(name, d["tool_calls"]) for name, d in zip(names, items, strict=True)]
    if by == "session" and any(tools for _, tools in calls):
        out.write("\ntool calls by name\n")
        for name, tools in calls:
            if tools:
                listed = ", ".join(f"{tool} {n}" for tool, n in tools.items())
                out.write(f"  {name}: {listed}\n")


def notes(report: Report, *, unpriced: bool = True) -> list[str]:
    """What the reader of a report should know about its cost (said once each, on stderr).

    ``unpriced``: also name the models the price table does not know.
    """
    found = []
    if report.needs_prices:
        found.append(
            "estimated cost needs the genai-prices package: pip install 'llm-messages[prices]'"
            " (shown as - until then)"
        )
    if unpriced and report.unpriced:
        found.append(
            f"no estimated cost for the usage of {', '.join(report.unpriced)}:"
            " no price in the genai-prices table (shown as -)"
        )
    if report.rejected_costs:
        found.append(
            "ignored logged costs that are negative or not finite, in "
            + ", ".join(report.rejected_costs)
        )
    return found
