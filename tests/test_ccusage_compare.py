"""``messages stats`` against ccusage on the project's own Claude Code transcripts.

ccusage 17.2.1 (``daily --json --offline --timezone UTC``) reported the figures below on
``tests/fixtures/ccusage/projects``; the first test holds ``messages`` to them without
ccusage, the second runs ``tools/ccusage_compare.py`` when ccusage is at hand.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
from datetime import UTC
from datetime import date
from typing import Any

import pytest

from conftest import ROOT
from messages.cli.io import expand
from messages.stats import Stats

FOLDER = ROOT / "tests" / "fixtures" / "ccusage" / "projects"

# ccusage 17.2.1: day -> (input, output, cache read, cache write, cost in USD)
CCUSAGE_DAILY = {
    "2026-01-14": (822, 132, 29866, 6532, 0.0359168),
    "2026-01-15": (14, 75, 27615, 9820, 0.2039145),
    "2026-01-16": (20, 401, 65484, 7760, 0.0548202),
}
# the final output tokens of each day's streamed messages (ccusage keeps the first fragment's)
FINAL_OUTPUT = {"2026-01-14": 317, "2026-01-15": 504, "2026-01-16": 525}


def _stats() -> Stats:
    return Stats.merge_all(Stats.of_file(inp.path) for inp in expand(str(FOLDER)))


def test_input_and_cache_tokens_agree_with_ccusage_exactly() -> None:
    rows = _stats().report("day", tz=UTC, cost="estimated").rows
    assert [r.key for r in rows] == list(CCUSAGE_DAILY)
    for row in rows:
        assert row.key is not None
        fresh, output, cache_read, cache_write, _ = CCUSAGE_DAILY[row.key]
        t = row.tokens
        assert (t.input, t.cache_read, t.cache_write) == (fresh, cache_read, cache_write)
        assert t.output == FINAL_OUTPUT[row.key] > output


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "ccusage_compare", ROOT / "tools" / "ccusage_compare.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ccusage 17.2.1, the same run, by model: day -> model -> (input, output, cache read,
# cache write, cost in USD)
SON, HAIKU, OPUS = (
    "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5-20251001",
    "claude-opus-4-1-20250805",
)
CCUSAGE_MODELS = {
    "2026-01-14": {
        SON: (10, 96, 29866, 6532, 0.0349248),
        HAIKU: (812, 36, 0, 0, 0.000992),
    },
    "2026-01-15": {
        OPUS: (8, 74, 9210, 9470, 0.1970475),
        SON: (6, 1, 18405, 350, 0.006867),
    },
    "2026-01-16": {SON: (20, 401, 65484, 7760, 0.0548202)},
}


def test_costs_agree_with_ccusage_once_the_extra_output_is_priced_out() -> None:
    tool = _tool()
    stats = _stats()
    for day, models in CCUSAGE_MODELS.items():
        fresh, output, cache_read, cache_write, cost = CCUSAGE_DAILY[day]
        theirs = {
            "inputTokens": fresh,
            "outputTokens": output,
            "cacheReadTokens": cache_read,
            "cacheCreationTokens": cache_write,
            "totalCost": cost,
            "modelBreakdowns": [
                {"modelName": model, "outputTokens": figures[1]}
                for model, figures in models.items()
            ],
        }
        line = tool.compare("day", day, tool._by_model(stats, day=date.fromisoformat(day)), theirs)
        assert line["ok"], line
        assert line["cost"][2] == pytest.approx(cost, rel=1e-6)  # the same prices, to the cent


def test_the_comparison_tool_against_ccusage() -> None:
    command = os.environ.get("MESSAGES_CCUSAGE", "ccusage")
    if shutil.which(shlex.split(command)[0]) is None:
        pytest.skip(
            "ccusage not installed (set MESSAGES_CCUSAGE to run it, see tools/ccusage_compare.py)"
        )
    assert _tool().main([str(FOLDER), "--ccusage", command]) == 0
