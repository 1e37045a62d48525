"""``messages stats`` against ccusage 20 on pi sessions.

ccusage 20 reads pi (``ccusage pi daily``: ``rust/crates/ccusage/src/adapter/pi/`` in the
ccusage repository, version 20.0.11 at commit 5816e640, the npm release being 20.0.26). Its
rule, from ``parser.rs``: every ``message`` entry of role ``assistant`` with a ``usage``;
``input``, ``output``, ``cacheRead``, ``cacheWrite`` as the four counts; ``usage.cost.total``
as the cost (the ``auto`` cost mode prefers a logged cost); the entry's own ISO ``timestamp``
for the day; entries whose counts are all zero left out; an entry counted once across files
(keyed by project folder, session, time, model, counts and cost).

``CCUSAGE_PI_DAILY`` holds what that rule gives for the shared pi capture. They were not
printed by ccusage itself: the npm package ships its engine as a per-platform native binary
(``@ccusage/ccusage-linux-x64``) that the registry mirror this was built with does not
carry, and the Rust sources need crates.io. ``test_ccusage_itself`` runs the real thing when
``MESSAGES_CCUSAGE`` names a working ccusage 20, and skips, saying so, otherwise.

Cursor CLI and Cline / Roo Code / Kilo Code are not read by ccusage 20 (its ``kilo`` source
is the Kilo CLI's SQLite database, not Kilo Code's task folders): nothing to compare.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
from collections import defaultdict
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages.stats import Stats

# ccusage 20's pi rule on pi/before-compaction.jsonl, per UTC day:
# (input, output, cache read, cache write, cost in USD, entries)
CCUSAGE_PI_DAILY = {
    "2025-12-08": (3363, 125883, 36357427, 789563, 26.27737225, 307),
    "2025-12-09": (326, 62012, 18336248, 895757, 16.31853525, 164),
}


def ccusage_pi_rule(paths: list[Path]) -> dict[str, list[Any]]:
    """ccusage 20's pi reading, re-stated from its parser (see the module docstring)."""
    days: dict[str, list[Any]] = defaultdict(lambda: [0, 0, 0, 0, 0.0, 0])
    seen = set()
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            if '"usage"' not in line or '"message"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            message = entry.get("message")
            if entry.get("type", "message") != "message" or not isinstance(message, dict):
                continue
            usage = message.get("usage")
            if message.get("role") != "assistant" or not isinstance(usage, dict):
                continue
            stamp = entry.get("timestamp")
            if not isinstance(stamp, str) or not stamp:
                continue
            counts = [usage.get(k) or 0 for k in ("input", "output", "cacheRead", "cacheWrite")]
            if not any(counts):
                continue
            cost = (usage.get("cost") or {}).get("total") or 0.0
            key = (path.parent.name, path.stem, stamp, message.get("model"), *counts, cost)
            if key in seen:
                continue
            seen.add(key)
            day = days[stamp[:10]]
            for i, n in enumerate(counts):
                day[i] += n
            day[4] += cost
            day[5] += 1
    return dict(days)


def ours(paths: list[Path]) -> dict[str, tuple[int, int, int, int, float]]:
    stats = Stats.merge_all(Stats.of_file(str(p), format="pi") for p in paths)
    out = {}
    for row in stats.report("day", tz=UTC, cost="logged").rows:
        t = row.tokens
        assert row.key is not None and row.cost is not None
        out[row.key] = (
            t.input or 0,
            t.output or 0,
            t.cache_read or 0,
            t.cache_write or 0,
            row.cost,
        )
    return out


def _agree(theirs: dict[str, Any], mine: dict[str, Any]) -> None:
    assert sorted(theirs) == sorted(mine)
    for day, figures in theirs.items():
        assert tuple(mine[day][:4]) == tuple(figures[:4]), day
        assert mine[day][4] == pytest.approx(figures[4], rel=1e-9), day


def test_the_shared_pi_capture_agrees_with_ccusage_20() -> None:
    path = shared_fixtures("pi", "before-compaction.jsonl")
    _agree(CCUSAGE_PI_DAILY, ccusage_pi_rule([path]))
    assert [v[5] for v in ccusage_pi_rule([path]).values()] == [307, 164]  # priced entries
    _agree(CCUSAGE_PI_DAILY, ours([path]))


@pytest.mark.parametrize("name", ["session-v1.jsonl", "session-v3.jsonl", "being-written.jsonl"])
def test_each_pi_fixture_agrees_with_the_ccusage_rule(name: str) -> None:
    path = LOCAL_FIXTURES / "pi" / name
    theirs = ccusage_pi_rule([path])
    assert theirs  # every fixture has priced turns
    _agree(theirs, ours([path]))


def test_ccusage_itself() -> None:
    command = os.environ.get("MESSAGES_CCUSAGE")
    if not command or shutil.which(shlex.split(command)[0]) is None:
        pytest.skip(
            "set MESSAGES_CCUSAGE to a working ccusage 20 (npm's ccusage 20.0.26 needs its"
            " native @ccusage/ccusage-<platform> package, absent from the registry used here)"
        )
    path = shared_fixtures("pi", "before-compaction.jsonl")
    with tempfile.TemporaryDirectory(prefix="ccusage-pi-") as home:
        folder = Path(home) / "sessions" / "--project--"
        folder.mkdir(parents=True)
        shutil.copy(path, folder / path.name)
        argv = [*shlex.split(command), "pi", "daily", "--json", "--offline", "--timezone", "UTC"]
        argv += ["--pi-path", str(Path(home) / "sessions")]
        env = {**os.environ, "HOME": home, "NO_COLOR": "1"}
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    rows = json.loads(done.stdout)["daily"]
    theirs = {
        r["date"]: (
            r["inputTokens"],
            r["outputTokens"],
            r["cacheReadTokens"],
            r["cacheCreationTokens"],
            r["totalCost"],
        )
        for r in rows
    }
    _agree(theirs, ours([path]))
