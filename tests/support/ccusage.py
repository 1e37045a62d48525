"""Running ccusage itself, the oracle of the live comparison tests (skipped without it)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest


def ccusage_command() -> list[str]:
    """The ccusage 20 command ``MESSAGES_CCUSAGE`` names (else ``ccusage``); skips without it."""
    command = shlex.split(os.environ.get("MESSAGES_CCUSAGE", "ccusage"))
    if not command or shutil.which(command[0]) is None:
        pytest.skip("ccusage not installed (set MESSAGES_CCUSAGE to a ccusage 20 command)")
    version = subprocess.run([*command, "--version"], capture_output=True, text=True, check=False)
    if not version.stdout.split()[-1:] or not version.stdout.split()[-1].startswith("20."):
        pytest.skip(
            f"ccusage 20 needed, found {version.stdout.strip() or version.stderr.strip()!r}"
        )
    return command


def ccusage_run(
    agent: str, folders: dict[str, str], home: Path, report: str = "session"
) -> subprocess.CompletedProcess[str]:
    """``ccusage AGENT REPORT --json --offline`` with the agent's folder variables, in ``home``."""
    env = {**os.environ, **folders, "HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [*ccusage_command(), agent, report, "--json", "--offline"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )


TOKENS = ("inputTokens", "outputTokens", "cacheReadTokens", "cacheCreationTokens")
"""The four token figures of a ccusage report row, in the order the tests compare them."""
PRICED = (*TOKENS, "totalCost")
"""The token figures and the cost of a ccusage report row."""


def by_day(stdout: str, keys: tuple[str, ...] = PRICED) -> dict[str, tuple[Any, ...]]:
    """A ``daily --json`` report's rows as ``{date: (figures named by keys)}``."""
    return {r["date"]: tuple(r[k] for k in keys) for r in json.loads(stdout)["daily"]}
