"""Usage analytics over agent logs: the accumulator behind ``messages stats``.

:class:`Stats` holds what a set of logs did (sessions, turns, tool calls, errors, tokens and
cost), kept as the records behind each figure so that two parts merge exactly. Build one per
input, merge them in any grouping (in one process, in worker processes, or on a cluster:
every value here pickles), and ask for a :class:`Report` by session, day, month, model or
project::

    >>> from messages.stats import Stats
    >>> from datetime import timezone
    >>> from messages import AssistantMessage, Usage
    >>> turn = AssistantMessage(
    ...     "Done.",
    ...     usage=Usage(3, 40, 1000, 200),
    ...     model="claude-sonnet-4-5",
    ...     message_id="m1",
    ...     session_id="s1",
    ...     timestamp="2026-01-15T23:30:00Z",
    ... )
    >>> stats = Stats.of_messages([turn], label="run.jsonl")
    >>> report = stats.report(by="day", tz=timezone.utc, cost="logged")
    >>> [(row.key, row.tokens.output, row.cost) for row in report.rows]
    [('2026-01-15', 40, None)]

Cost comes from the logs where they record it (Claude Code's ``total_cost_usd``, OpenCode's
per-message cost...) and is otherwise estimated from the token counts with the maintained
price table of ``genai-prices`` (``pip install 'llm-messages[prices]'``), each message priced
at its own time. See ``docs/cli.md`` for the command and what each figure means.
"""

from __future__ import annotations

from ._accumulator import Stats
from ._engine import Entry
from ._engine import InputStats
from ._engine import SessionStats
from ._engine import Tokens
from ._report import CostMode
from ._report import Report
from ._report import Row
from ._report import View

__all__ = [
    "CostMode",
    "Entry",
    "InputStats",
    "Report",
    "Row",
    "SessionStats",
    "Stats",
    "Tokens",
    "View",
]
