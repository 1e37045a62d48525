"""``messages stats``: exact figures per session, no double counting, table and JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES
from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import ResultMessage
from messages import TextBlock
from messages import TextMessage
from messages import Usage
from messages.cli.stats import FileStats
from messages.cli.stats import sessions
from messages.serialize import dumps
from support.adapter_files import local
from test_cli import run

EXAMPLE = EXAMPLES / "claude_code.jsonl"
STATS = local("cli", "stats-claude.jsonl")


UNPRICED = "messages: stats: no estimated cost for the usage of "


def stats(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The JSON report; stderr may only name models without a price (the unpriced rule)."""
    code, out, err = run(capsys, "stats", "--json", *argv)
    assert code == 0
    assert all(line.startswith(UNPRICED) for line in err.splitlines()), err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_the_example_session(capsys: pytest.CaptureFixture[str]) -> None:
    doc = stats(capsys, "--example")
    assert doc["sessions"] == [
        {
            "session_id": "3b1f6a52-8c4d-4e27-9a10-5d2c7e8f4b91",
            "inputs": ["example:claude_code"],
            "formats": ["claude_code"],
            "turns": 2,
            "tool_calls": {"Bash": 1},
            "tool_errors": 0,
            "errors": 0,
            "compactions": 0,
            "tokens": {
                "input": 14,
                "output": 246,
                "cache_read": 33540,
                "cache_write": 5530,
                "reasoning": None,  # Claude Code does not report it
                "cache_write_1h": 0,  # its cache writes are all five-minute ones
                "web_searches": None,
                "web_fetches": None,
            },
            "cost_usd": 0.0345315,
            "cost_source": "logged",  # the stream's result says what the run cost
            "cost_note": None,
            "model": "claude-sonnet-4-5-20250929",
            "project": "/home/ana/inventory-service",
        }
    ]
    assert doc["total"]["sessions"] == 1


def test_results_win_and_per_turn_usage_is_counted_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Session a has two cumulative Claude Code results (the last one wins); session b has
    none, so its per-turn usage is summed, one figure per message id."""
    doc = stats(capsys, str(STATS))
    a, b = doc["sessions"]
    assert (a["session_id"], a["turns"], a["tool_calls"]) == ("stats-a", 4, {"Bash": 1, "Read": 1})
    assert (a["tool_errors"], a["errors"]) == (1, 1)
    assert a["tokens"] == {
        "input": 20,
        "output": 45,
        "cache_read": 200,
        "cache_write": 50,
        "reasoning": None,
        "cache_write_1h": None,
        "web_searches": None,
        "web_fetches": None,
    }
    assert a["cost_usd"] == 0.015
    assert (b["session_id"], b["turns"], b["tool_calls"]) == ("stats-b", 2, {"Bash": 1})
    assert (b["tool_errors"], b["errors"]) == (0, 0)
    # no line of session b says how many tokens were written to the cache: not 0, unknown
    assert b["tokens"] == {
        "input": 3,
        "output": 12,
        "cache_read": 10,
        "cache_write": None,
        "reasoning": None,
        "cache_write_1h": None,
        "web_searches": None,
        "web_fetches": None,
    }
    # no line of session b says what it cost: estimated from its tokens (genai-prices,
    # claude-sonnet-4-5 at $3 / $15 / $0.30 per million input / output / cache-read tokens)
    assert (b["cost_usd"], b["cost_source"]) == (0.000192, "estimated")
    assert (a["cost_source"], doc["total"]["cost_source"]) == ("logged", "mixed")
    logged = stats(capsys, "--cost", "logged", str(STATS))["sessions"][1]
    assert (logged["cost_usd"], logged["cost_source"]) == (None, None)
    total = doc["total"]
    assert (total["sessions"], total["turns"], total["tool_errors"], total["errors"]) == (
        2,
        6,
        1,
        1,
    )
    assert total["tool_calls"] == {"Bash": 2, "Read": 1}
    assert total["tokens"] == {
        "input": 23,
        "output": 57,
        "cache_read": 210,
        "cache_write": 50,
        "reasoning": None,
        "cache_write_1h": None,
        "web_searches": None,
        "web_fetches": None,
    }
    assert total["cost_usd"] == 0.015192  # logged for a, estimated for b


def test_step_results_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCode reports each step's usage and cost in its own result: they are summed."""
    (s,) = stats(capsys, str(local("opencode", "run-read-edit.jsonl")))["sessions"]
    assert s["tokens"] == {
        "input": 13,
        "output": 395,
        "cache_read": 36159,
        "cache_write": 12422,
        "reasoning": 0,  # OpenCode reports it (as 0 here)
        "cache_write_1h": None,
        "web_searches": None,
        "web_fetches": None,
    }
    assert s["cost_usd"] == pytest.approx(0.004218 + 0.00391 + 0.003867)
    assert s["tool_calls"] == {"edit": 2, "read": 1}
    assert s["turns"] == 4


def test_tool_errors_and_error_messages(capsys: pytest.CaptureFixture[str]) -> None:
    (s,) = stats(capsys, str(local("gemini_cli", "run-turn-limit.jsonl")))["sessions"]
    assert (s["tool_calls"], s["tool_errors"], s["errors"]) == ({"run_shell_command": 1}, 0, 2)
    assert s["tokens"]["output"] == 903


def test_inputs_without_session_ids_are_one_session_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        dumps(TextMessage("hi", role="user")),
        dumps(AssistantMessage((TextBlock("hello"),), usage=Usage(3, 4))),
    ]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text("\n".join(lines) + "\n")
    two.write_text("\n".join(lines) + "\n")
    doc = stats(capsys, str(one), str(two))
    assert [(s["session_id"], s["inputs"]) for s in doc["sessions"]] == [
        (None, [str(one)]),
        (None, [str(two)]),
    ]
    assert [s["tokens"]["output"] for s in doc["sessions"]] == [4, 4]
    assert doc["total"]["tokens"]["output"] == 8


def test_one_session_across_inputs_is_merged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first.jsonl"
    first.write_text(
        dumps(TextMessage("before the id", role="user"))
        + "\n"
        + dumps(
            AssistantMessage((TextBlock("a"),), usage=Usage(1, 1), message_id="m1", session_id="s")
        )
        + "\n"
    )
    second = tmp_path / "second.jsonl"
    second.write_text(
        dumps(
            AssistantMessage((TextBlock("b"),), usage=Usage(2, 2), message_id="m2", session_id="s")
        )
        + "\n"
        + dumps(ResultMessage(num_turns=7, session_id="s"))
        + "\n"
    )
    (s,) = stats(capsys, str(first), str(second))["sessions"]
    assert s["inputs"] == [str(first), str(second)]
    assert s["tokens"]["output"] == 3  # the result has no usage: per-turn usage counts
    assert s["turns"] == 7  # ...but it has the number of turns


def test_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(STATS))
    assert code == 0
    rows = [
        ("session", "turns", "tool calls", "tool errors", "errors", "input", "output"),
        ("stats-a", "4", "2", "1", "1", "20", "45"),
        ("stats-b", "2", "1", "0", "0", "3", "12"),
        ("total", "6", "3", "1", "1", "23", "57"),
    ]
    tails = [
        "cache read  cache write     cost  cost from",
        "       200           50  $0.0150     logged",
        "        10            -  $0.0002  estimated",
        "       210           50  $0.0152      mixed",
    ]
    table = [
        "  ".join(
            [row[0].ljust(7), *(c.rjust(len(h)) for c, h in zip(row[1:], rows[0][1:], strict=True))]
        )
        + "  "
        + tail
        for row, tail in zip(rows, tails, strict=True)
    ]
    assert out.splitlines() == [
        *table,
        "",
        "tool calls by name",
        "  stats-a: Bash 1, Read 1",
        "  stats-b: Bash 1",
    ]


def test_stats_over_bad_input_still_counts_the_good_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text("not json\n" + EXAMPLE.read_text("utf-8"))
    code, out, err = run(capsys, "stats", "--json", str(path))
    assert code == 1
    assert err.startswith(f"messages: {path}:1: ")
    assert json.loads(out)["sessions"][0]["cost_usd"] == 0.0345315


def test_stats_over_real_captures(capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_fixtures("claude_code", "caic-tool-error.jsonl")
    (s,) = stats(capsys, str(path))["sessions"]
    assert (s["session_id"], s["tool_errors"]) == ("test-session", 1)
    assert s["tool_calls"] == {"Read": 1}


def test_sessions_merge_parts_in_first_seen_order() -> None:
    a, b = FileStats("a", "native"), FileStats("b", "native")
    a.feed(TextMessage("x", session_id="s1"))
    b.feed(TextMessage("y", session_id="s2"))
    b.feed(TextMessage("z", session_id="s1"))
    merged = sessions([a, b])
    assert [(s.session_id, s.inputs, s.assistant_turns) for s in merged] == [
        ("s1", ["a", "b"], 2),
        ("s2", ["b"], 1),
    ]


def test_a_turn_that_starts_before_the_session_id_is_counted_once() -> None:
    part = FileStats("f", "codex")
    part.feed(TextMessage("thinking aloud"))
    part.feed(TextMessage("still the same turn", session_id="s"))
    (s,) = sessions([part])
    assert (s.session_id, s.assistant_turns) == ("s", 1)


def test_from_and_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    native = EXAMPLES / "conversation.jsonl"
    (s,) = stats(capsys, "--from", "native", str(native))["sessions"]
    assert (s["session_id"], s["turns"], s["cost_usd"]) == ("s-1", 2, 0.0042)
    path = tmp_path / "late-error.jsonl"
    path.write_text(EXAMPLE.read_text("utf-8") + "oops\n" + STATS.read_text("utf-8"))
    code, out, err = run(capsys, "stats", "--json", "--strict", str(path))
    assert code == 1 and err == (
        f"messages: {path}:9: $: invalid JSON (expecting value at character 0)\n"
    )
    assert json.loads(out)["sessions"] == []  # stopped: nothing is summed from a broken run
    code, out, _ = run(capsys, "stats", "--json", str(path))
    assert code == 1 and len(json.loads(out)["sessions"]) == 3


# -- counting once, saying what is unknown, meaning the same everywhere ------------------------


@pytest.mark.parametrize(
    "path",
    [
        EXAMPLE,
        local("claude_code", "transcript.jsonl"),
        local("codex", "exec.jsonl"),
        local("gemini_cli", "run-with-warnings.jsonl"),
        local("opencode", "run-read-edit.jsonl"),
        local("copilot", "run-read-edit.jsonl"),
        local("acp", "session-edit-plan.jsonl"),
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_records_that_two_inputs_hold_are_counted_once(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A transcript read with a fragment of itself (and twice over) gives its own figures."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    head, tail = tmp_path / "head.jsonl", tmp_path / "tail.jsonl"
    head.write_text("".join(lines[: len(lines) // 2 + 1]))
    tail.write_text("".join(lines[len(lines) // 3 :]))
    _, alone, _ = run(capsys, "stats", "--json", str(path))
    _, again, _ = run(capsys, "stats", "--json", str(path), str(head), str(tail), str(path))

    def figures(out: str) -> list[Any]:
        return [
            (
                s["session_id"],
                s["turns"],
                s["tool_calls"],
                s["tool_errors"],
                s["errors"],
                s["tokens"],
            )
            for s in json.loads(out)["sessions"]
        ]

    assert figures(again) == figures(alone)


def test_a_figure_no_record_reports_is_unknown_not_zero(capsys: pytest.CaptureFixture[str]) -> None:
    copilot = local("copilot", "run-task-complete.jsonl")
    (s,) = stats(capsys, str(copilot))["sessions"]
    assert s["tokens"] == dict.fromkeys(
        (
            "input",
            "output",
            "cache_read",
            "cache_write",
            "reasoning",
            "cache_write_1h",
            "web_searches",
            "web_fetches",
        )
    )
    assert s["cost_usd"] is None
    _, out, _ = run(capsys, "stats", str(copilot))
    header, row = out.splitlines()[:2]
    assert header.split()[-9:-2] == ["input", "output", "cache", "read", "cache", "write", "cost"]
    assert row.split()[-6:] == ["-"] * 6


def test_reasoning_tokens_get_a_column_when_an_input_reports_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gemini = local("gemini_cli", "output-json-run.json")
    code, out, _ = run(capsys, "stats", str(EXAMPLE), str(gemini))
    assert code == 0
    header, claude, doc = out.splitlines()[:3]
    assert "reasoning" in header
    reasoning = header.index("reasoning") + len("reasoning")
    assert claude[:reasoning].rstrip().endswith("-")
    assert doc[:reasoning].rstrip().endswith(str(56 + 246))
    _, out, _ = run(capsys, "stats", str(EXAMPLE))
    assert "reasoning" not in out


def test_turns_mean_the_same_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    """One conversation recorded by every CLI: the same turns (model responses) and calls."""
    found = {}
    for path in sorted(local("same_conversation").glob("*.jsonl")):
        (s,) = stats(capsys, str(path))["sessions"]
        found[path.stem] = (s["turns"], sum(s["tool_calls"].values()), s["tool_errors"])
    assert set(found.values()) == {(2, 1, 0)}, found


def test_a_stats_run_holds_the_heap_from_the_collector_and_gives_it_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``stats`` keeps what exists before it out of the collector's rounds while it runs and
    leaves the collector as it found it; a heap someone else holds is left to them."""
    import gc

    from messages.cli.stats import hold_heap
    from messages.cli.stats import release_heap

    if gc.get_freeze_count():
        pytest.skip("the test runner holds the heap itself (mutmut's forking workers do)")
    assert hold_heap() is True
    assert gc.get_freeze_count() > 0
    assert hold_heap() is False  # held already: not taken twice
    release_heap()
    assert gc.get_freeze_count() == 0
    doc = stats(capsys, "--example")
    assert doc["total"]["turns"] > 0
    assert gc.get_freeze_count() == 0
    gc.freeze()  # someone else's hold survives a run
    try:
        stats(capsys, "--example")
        assert gc.get_freeze_count() > 0  # not given back by the run (some may have died)
    finally:
        gc.unfreeze()


TRANSCRIPT = LOCAL_FIXTURES / "claude_code" / "transcript.jsonl"


def test_a_stats_run_loads_only_what_it_reads() -> None:
    """``messages stats`` over Claude Code transcripts loads neither the session model, nor
    the renderers, nor the result cache (``--no-cache``), nor another agent's adapter: they
    load when a command or a record asks for them (start-up is part of every run's time)."""
    code = (
        "import sys\n"
        "from messages.cli import main\n"
        f"code = main(['stats', '--json', '--no-cache', {str(TRANSCRIPT)!r}])\n"
        "print(code, *sorted(n for n in sys.modules if n.startswith('messages')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code_and_names = done.stdout.split("\n")[-2].split()
    loaded = set(code_and_names[1:])
    assert code_and_names[0] == "0"
    assert "messages.adapters.claude_code" in loaded
    for unneeded in (
        "messages.sessions",
        "messages.text",
        "messages.serialize",
        "messages.cli.render",
        "messages.stats._cache",
        "messages.adapters.kimi",
        "messages.adapters.gemini_session",
        "messages.adapters.gemini_cli",
        "messages.adapters.copilot",
    ):
        assert unneeded not in loaded, unneeded


def test_what_a_run_has_read_joins_the_held_heap_and_only_while_held() -> None:
    """``keep_heap`` adds what was made since to the heap this process holds, so that the
    counts read so far are not walked by each collection of the rest of the run; without a
    hold of its own (someone else's, or none) it leaves the collector alone."""
    import gc

    from messages.cli.stats import hold_heap
    from messages.cli.stats import keep_heap
    from messages.cli.stats import release_heap

    if gc.get_freeze_count():
        pytest.skip("the test runner holds the heap itself (mutmut's forking workers do)")
    keep_heap()  # no hold: nothing frozen
    assert gc.get_freeze_count() == 0
    assert hold_heap() is True
    try:
        held = gc.get_freeze_count()
        made = [[i] for i in range(1000)]  # tracked containers made after the hold
        keep_heap()
        assert gc.get_freeze_count() >= held + len(made)
    finally:
        release_heap()
    assert gc.get_freeze_count() == 0
    keep_heap()  # given back: no longer held, so nothing frozen again
    assert gc.get_freeze_count() == 0
