"""Add up the cost and tokens of agent runs from their logs (Claude Code, Gemini CLI, ...).

    python examples/cost.py [LOG ...]

Without arguments it reads the Claude Code example bundled with the package. A Claude Code
log restates its running totals in every ``result`` line, so only its last result counts;
logs whose results each report one step (OpenCode, Codex turns) are summed. ``messages stats``
does the same per session, with more figures.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

from messages import ResultMessage
from messages import Usage
from messages.adapters import detect
from messages.adapters import get


def format_of(path: Path) -> str | None:
    """The format of the first line some adapter recognises."""
    with path.open("rb") as fp:
        for line in fp:
            if not line.strip():
                continue
            try:
                name = detect(json.loads(line))
            except ValueError:  # not JSON (a warning line, say): look further
                continue
            if name is not None:
                return name
    return None


def cost_of(path: Path) -> tuple[float, Usage]:
    """The cost in dollars and the token usage one log reports."""
    name = format_of(path)
    if name is None:
        return 0.0, Usage()
    results = []
    with path.open("rb") as fp:
        results = [m for m in get(name).iter_decode(fp) if isinstance(m, ResultMessage)]
    if name == "claude_code":
        results = results[-1:]  # running totals: the last result has them all
    dollars = 0.0
    for result in results:
        if result.total_cost_usd is not None:
            dollars += result.total_cost_usd
        elif result.usage is not None and result.usage.cost_usd is not None:
            dollars += result.usage.cost_usd
    return dollars, Usage.sum(r.usage for r in results)


def main(argv: list[str]) -> None:
    example = resources.files("messages").joinpath("examples", "claude_code.jsonl")
    paths = [Path(arg) for arg in argv] or [Path(str(example))]
    total, tokens = 0.0, Usage()
    for path in paths:
        dollars, usage = cost_of(path)
        total += dollars
        tokens += usage
        print(f"{path.name}: ${dollars:.4f} ({usage.total_tokens:,} tokens)")
    if len(paths) > 1:
        print(f"total: ${total:.4f} ({tokens.total_tokens:,} tokens)")


if __name__ == "__main__":
    main(sys.argv[1:])
