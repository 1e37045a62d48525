"""Compare ``messages stats`` with ccusage on the same Claude Code transcripts.

    python tools/ccusage_compare.py [FOLDER] [--ccusage CMD] [--json]

FOLDER holds Claude Code project folders, like ``~/.claude/projects`` (default: the project's
own fixtures, ``tests/fixtures/ccusage/projects``). ccusage is run offline on it (through
``CLAUDE_CONFIG_DIR``, so the real home is never read) with its bundled prices; ``--ccusage``
names the command (default: ``$MESSAGES_CCUSAGE``, else ``ccusage`` on the path). A
pure-JavaScript release works without native binaries::

    npm install --prefix /tmp/cc ccusage@17.2.1
    python tools/ccusage_compare.py --ccusage "node /tmp/cc/node_modules/ccusage/dist/index.js"

Both are compared per day (UTC), and per project folder (ccusage 17's ``session``
report groups by project folder). What must hold, and is checked (exit code 1 otherwise):

- input, cache read and cache write tokens agree exactly;
- output tokens are never fewer here: ccusage keeps the usage of the first line of a
  streamed message (an early fragment) where ``messages`` keeps its final usage;
- cost agrees within 1% once that output difference is priced out (ours, less the extra
  output tokens at the model's output price): both then price the same tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "tests" / "fixtures" / "ccusage" / "projects"
TOLERANCE = 0.01

sys.path.insert(0, str(ROOT / "src"))

from messages.cli.io import expand  # noqa: E402
from messages.stats import Stats  # noqa: E402
from messages.stats import Tokens  # noqa: E402
from messages.stats._prices import estimate  # noqa: E402


def run_ccusage(command: list[str], folder: Path, report: str) -> dict[str, Any]:
    """One ccusage report as JSON, offline, in UTC, over ``folder`` only."""
    with tempfile.TemporaryDirectory(prefix="ccusage-") as home:
        (Path(home) / "projects").symlink_to(folder.resolve(), target_is_directory=True)
        env = {
            **os.environ,
            "CLAUDE_CONFIG_DIR": home,
            "HOME": home,
            "NO_COLOR": "1",
        }
        argv = [*command, report, "--json", "--offline", "--timezone", "UTC"]
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    doc = json.loads(done.stdout)
    if not isinstance(doc, dict):  # ccusage writes [] when it finds no usage at all
        return {"daily": [], "sessions": [], "session": []}
    return doc


def ours(folder: Path) -> Stats:
    """``messages stats FOLDER``, as the accumulator (so it can be cut by day and model)."""
    return Stats.merge_all(Stats.of_file(inp.path) for inp in expand(str(folder)))


def claude_folder(cwd: str | None) -> str | None:
    """The folder Claude Code keeps a project's transcripts in, named after its cwd."""
    return None if cwd is None else re.sub(r"[^A-Za-z0-9]", "-", cwd)


def _output_price(model: str, tokens: int) -> float:
    if not tokens:
        return 0.0
    return estimate(model, None, Tokens(output=tokens)) or 0.0


def _by_model(
    stats: Stats,
    project: str | None = None,
    day: date | None = None,
    session: str | None = None,
) -> dict[str, Any]:
    """Our rows by model (estimated cost), for one project folder, session or day if given."""
    if project is not None or session is not None:
        chosen = [
            s
            for s in stats.sessions()
            if (project is None or claude_folder(s.project) == project)
            and (session is None or s.session_id == session)
        ]
        stats = Stats({("session", f"#{i}"): s for i, s in enumerate(chosen)})
    report = stats.report("model", cost="estimated", tz=UTC, since=day, until=day)
    return {row["model"]: row for row in report.to_json()["rows"]}


def compare(scope: str, key: str, mine: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """One line of the comparison (``mine``: our rows by model; ``theirs``: ccusage's row)."""
    parts = {p["modelName"]: p for p in theirs["modelBreakdowns"]}
    totals = dict.fromkeys(("input", "output", "cache_read", "cache_write"), 0)
    cost = adjusted = 0.0
    for model, row in mine.items():
        for name in totals:
            totals[name] += row["tokens"][name] or 0
        cost += row["cost_usd"] or 0.0
        extra = (row["tokens"]["output"] or 0) - parts.get(model, {}).get("outputTokens", 0)
        adjusted += (row["cost_usd"] or 0.0) - _output_price(model, extra)
    cc_cost = theirs["totalCost"] if "totalCost" in theirs else theirs["cost"]
    checks = {
        "input": totals["input"] == theirs["inputTokens"],
        "cache_read": totals["cache_read"] == theirs["cacheReadTokens"],
        "cache_write": totals["cache_write"] == theirs["cacheCreationTokens"],
        "output": totals["output"] >= theirs["outputTokens"],
        "models": sorted(mine) == sorted(parts),
        "cost": abs(adjusted - cc_cost) <= TOLERANCE * max(cc_cost, 1e-12),
    }
    return {
        "scope": scope,
        "key": key,
        "models": sorted(mine),
        "input": [totals["input"], theirs["inputTokens"]],
        "cache_read": [totals["cache_read"], theirs["cacheReadTokens"]],
        "cache_write": [totals["cache_write"], theirs["cacheCreationTokens"]],
        "output": [totals["output"], theirs["outputTokens"]],
        "cost": [round(cost, 7), round(cc_cost, 7), round(adjusted, 7)],
        "ok": all(checks.values()),
        "failed": [name for name, good in checks.items() if not good],
    }


def comparison(folder: Path, command: list[str]) -> list[dict[str, Any]]:
    """Every line of the comparison: per day (all models), then per project folder."""
    stats = ours(folder)
    lines = []
    for day in run_ccusage(command, folder, "daily")["daily"]:
        stamp = day.get("date") or day["period"]  # ccusage 17: date; ccusage 20: period
        when = date.fromisoformat(stamp)
        lines.append(compare("day", stamp, _by_model(stats, day=when), day))
    found = run_ccusage(command, folder, "session")
    for row in found.get("sessions", []):  # ccusage 17: one row per project folder
        key = row["sessionId"]
        lines.append(compare("project", key, _by_model(stats, project=key), row))
    for row in found.get("session", []):  # ccusage 20: one row per session id
        key = row["period"]
        lines.append(compare("session", key, _by_model(stats, session=key), row))
    return lines


def _cell(pair: list[Any]) -> str:
    a, b = pair[0], pair[1]
    return f"{a}" if a == b else f"{a} / {b}"


def table(lines: list[dict[str, Any]]) -> str:
    """The comparison as a Markdown table (ours / ccusage where they differ)."""
    head = (
        "| scope | key | models | input | cache read | cache write | output (ours / ccusage)"
        " | cost: ours / ccusage / ours less the extra output | ok |"
    )
    out = [head, "|---|---|---|---|---|---|---|---|---|"]
    for x in lines:
        cost = " / ".join(f"${c:.6f}" for c in x["cost"])
        out.append(
            f"| {x['scope']} | {x['key']} | {', '.join(x['models'])} | {_cell(x['input'])}"
            f" | {_cell(x['cache_read'])} | {_cell(x['cache_write'])} | {_cell(x['output'])}"
            f" | {cost} | {'yes' if x['ok'] else 'NO: ' + ', '.join(x['failed'])} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; exit code 0 when every check holds, 1 otherwise, 2 without ccusage."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("--ccusage", default=os.environ.get("MESSAGES_CCUSAGE", "ccusage"))
    parser.add_argument("--json", action="store_true", help="write the lines as JSON")
    args = parser.parse_args(argv)
    command = shlex.split(args.ccusage)
    if not command or shutil.which(command[0]) is None:
        print(f"ccusage not found: {args.ccusage!r} (see --ccusage)", file=sys.stderr)
        return 2
    lines = comparison(Path(args.folder), command)
    if not lines:
        print("ccusage found no usage in these files (it reads session transcripts only)")
        return 1
    print(json.dumps(lines, indent=2) if args.json else table(lines))
    return 0 if all(x["ok"] for x in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
