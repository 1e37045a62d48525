"""``messages sessions`` and ``messages show`` (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_fixtures
from messages import from_dict
from messages.cli.main import main
from messages.cli.sessions import LIST_FORMATS
from messages.cli.sessions import SHOW_FORMATS

HERE = Path(__file__).parent / "fixtures" / "sessions"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_sessions_lists_one_row_per_session(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sessions", str(HERE / "claude_rewind"), str(HERE / "codex_fork"))
    assert code == 0
    head, *rows = out.splitlines()
    assert head.split() == [
        "agent",
        "id",
        "project",
        "title",
        "started",
        "turns",
        "subagents",
        "branches",
        "tokens",
        "cost",
    ]
    assert len(rows) == 3
    assert rows[0].split()[:4] == ["claude_code", "s1", "-tmp-p", "Name"]
    assert rows[0].split()[-5:-1] == ["2", "0", "1", "36"]  # turns, subagents, branches, tokens


def test_sessions_json_has_the_usage_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sessions", "--json", str(HERE / "claude_subagents"))
    assert code == 0
    (row,) = json.loads(out)
    assert (row["id"], row["title"], row["subagents"], row["compactions"]) == (
        "s2",
        "Reading files with a helper",
        2,
        1,
    )
    assert row["by_subagent"]["toolu_task"]["output_tokens"] == 12
    assert row["tokens"] == 108 and row["calls"] == 7


def test_show_puts_a_subagent_under_its_call(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "s2", str(HERE))
    assert code == 0
    lines = out.splitlines()
    call = next(i for i, line in enumerate(lines) if "[Tool: Task]" in line)
    assert lines[call + 1].startswith("┌ subagent a1b2c3d (call toolu_task)")
    assert lines[call + 2] == "│ User: Count the lines"
    assert "User (compaction summary): This session is being continued" in out


def test_show_subagents_none_and_branches(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", "s2", str(HERE), "--subagents", "none")
    assert "┌ subagent" not in out and "Count the lines" in out  # the call, not the agent
    _, out, _ = run(capsys, "show", "s1", str(HERE))
    assert "Apple." not in out
    _, out, _ = run(capsys, "show", "s1", str(HERE), "--branches")
    assert "┌ abandoned branch at u2\n│ User: Name a fruit\n│ Assistant: Apple." in out


def test_show_a_file_finds_its_subagents(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "claude_subagents" / "-tmp-p" / "s2.jsonl"
    code, out, _ = run(capsys, "show", str(path), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["id"] == "s2" and list(doc["subagents"]) == ["toolu_task", "acompact-0f1e2d"]
    assert doc["subagents"]["toolu_task"]["messages"][0]["kind"] == "user"
    assert from_dict(doc["messages"][0]).text == "Read both files, then ask a helper"


def test_show_native_marks_subagent_messages_with_their_call(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "show", "s2", str(HERE), "--format", "native")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    inside = [m for m in lines if m.get("parent_tool_use_id") == "toolu_task"]
    assert [from_dict(m).uuid for m in inside] == ["x1", "x2", "x3", "x4"]


def test_show_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "s1", str(HERE), "--format", "markdown")
    assert code == 0
    assert out.startswith("# Name a colour\n")
    assert "### Assistant\n\nPear." in out


def test_show_reports_an_unknown_or_ambiguous_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "nope", str(HERE))
    assert code == 1 and "no session with id 'nope'" in err
    code, _, err = run(capsys, "show", "s3", str(HERE))
    assert code == 1 and "ambiguous" in err and "s3a" in err and "s3b" in err
    code, _, err = run(capsys, "show", "s1", str(HERE / "missing"))
    assert code == 2 and "no such file or folder" in err


def test_show_a_unique_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    shared = shared_fixtures("claude_code", "transcripts-2.1")
    code, out, _ = run(capsys, "show", "8463", str(shared), str(HERE))
    assert code == 0
    assert "session: claude_code 8463c716-a2ea-4c14-9efa-87158ebd9f20\n" in out
    assert "┌ subagent a7be2f0 (call toolu_017SvvKc8KLbhGMG3tXkf21Z)" in out
    code, out, _ = run(capsys, "show", "s3b", str(HERE))
    assert code == 0 and "continues: s3a" in out


def test_every_show_format_is_offered() -> None:
    assert sorted(SHOW_FORMATS) == ["html", "json", "markdown", "native", "text"]
    assert sorted(LIST_FORMATS) == ["json", "table"]


def test_a_sessions_cost_is_what_stats_estimates_of_its_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each call priced on its own, as ``messages stats`` and ccusage price it ($11.66 for
    the shared Claude Code 2.1 session with its subagents): pricing each model's summed
    usage put the sum's 16M cache reads in the long-context tier ($20.78)."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    root = str(shared_fixtures("claude_code", "transcripts-2.1"))
    code, out, _ = run(capsys, "stats", "--json", "--no-cache", "--cost", "estimated", root)
    assert code == 0
    expected = json.loads(out)["total"]["cost_usd"]
    code, out, _ = run(capsys, "sessions", "--json", root)
    assert code == 0
    (row,) = json.loads(out)
    assert row["cost_usd"] == pytest.approx(expected, abs=1e-6)
    assert round(row["cost_usd"], 2) == 11.66


def test_a_session_with_usage_of_an_unknown_model_has_no_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a ``messages stats`` row: usage without a price makes the cost unknown, never the
    part that has one passed off as the whole."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")

    def line(mid: str, model: str) -> str:
        message = {"id": mid, "type": "message", "role": "assistant", "model": model,
                   "content": [{"type": "text", "text": "ok"}],
                   "usage": {"input_tokens": 1000, "output_tokens": 10}}  # fmt: skip
        return json.dumps({"type": "assistant", "uuid": f"u-{mid}", "sessionId": "s",
                           "timestamp": "2026-11-20T10:00:00Z", "message": message})  # fmt: skip

    path = tmp_path / "s.jsonl"
    path.write_text(line("m1", "claude-sonnet-4-5") + "\n", "utf-8")
    code, out, _ = run(capsys, "sessions", "--json", str(path))
    assert code == 0 and json.loads(out)[0]["cost_usd"] > 0
    path.write_text(line("m1", "claude-sonnet-4-5") + "\n" + line("m2", "no-such-1") + "\n")
    code, out, _ = run(capsys, "sessions", "--json", str(path))
    assert code == 0 and json.loads(out)[0]["cost_usd"] is None


LOGGED = Path(__file__).parent / "fixtures"
"""Claude Code ``stream-json`` runs, whose results log what the run cost (``total_cost_usd``)."""


@pytest.mark.parametrize(
    "name",
    [
        "claude_code/stream.jsonl",
        "claude_code/documents.jsonl",
        "same_conversation/claude_code.jsonl",
    ],
)
def test_a_runs_logged_cost_is_its_cost(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The cost a Claude Code run's result logs is the session's cost, as ``messages stats``
    reads it: the result was counted as one call of no model, neither its logged cost nor a
    price used, and the session's cost was unknown."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    path = str(LOGGED / name)
    code, out, _ = run(capsys, "stats", "--json", "--no-cache", path)
    assert code == 0
    (expected,) = json.loads(out)["sessions"]
    code, out, _ = run(capsys, "sessions", "--json", path)
    assert code == 0
    (found,) = json.loads(out)
    assert expected["cost_source"] == "logged"
    assert found["cost_usd"] == pytest.approx(expected["cost_usd"], rel=1e-9)


def test_an_older_transcripts_logged_cost_per_message_is_its_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An older Claude Code transcript logs each reply's cost (``costUSD``): the session's
    cost is their sum, as ``messages stats`` gives it, not an estimate of the tokens."""

    def line(mid: str, cost: float) -> str:
        message = {"id": mid, "type": "message", "role": "assistant",
                   "model": "claude-sonnet-4-20250514", "content": [{"type": "text", "text": "x"}],
                   "usage": {"input_tokens": 1, "output_tokens": 2}}  # fmt: skip
        return json.dumps({"type": "assistant", "costUSD": cost, "sessionId": "s",
                           "uuid": f"u-{mid}", "timestamp": "2025-06-01T00:00:00Z",
                           "message": message})  # fmt: skip

    path = tmp_path / "s.jsonl"
    path.write_text(line("m1", 0.0123) + "\n" + line("m2", 0.5) + "\n", "utf-8")
    code, out, _ = run(capsys, "stats", "--json", "--no-cache", str(path))
    assert code == 0 and json.loads(out)["total"]["cost_usd"] == pytest.approx(0.5123)
    code, out, _ = run(capsys, "sessions", "--json", str(path))
    assert code == 0 and json.loads(out)[0]["cost_usd"] == pytest.approx(0.5123)


def test_a_call_of_no_model_is_priced_at_the_model_its_session_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Gemini CLI run names its model once, in its ``init`` line, and its result's usage
    names none: the call is priced at the session's model, as ``messages stats`` prices it
    (the session had no cost)."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    from messages import sessions
    from messages.cli.view import estimator
    from messages.text import html as view

    path = str(LOGGED / "same_conversation" / "gemini_cli.jsonl")
    code, out, _ = run(capsys, "stats", "--json", "--no-cache", "--cost", "estimated", path)
    assert code == 0
    (expected,) = json.loads(out)["sessions"]
    assert expected["cost_usd"] is not None and expected["model"] == "gemini-2.5-flash"
    code, out, _ = run(capsys, "sessions", "--json", path)
    assert code == 0
    (found,) = json.loads(out)
    assert found["cost_usd"] == pytest.approx(expected["cost_usd"], rel=1e-9)
    (session,) = sessions.load(path)
    assert {model for model, _ in session.usage.per_call} == {"gemini-2.5-flash"}
    ov = view.overview(session, price=estimator(session.started))
    assert ov.cost == pytest.approx(expected["cost_usd"], rel=1e-9)


def test_a_logged_cost_that_is_not_a_cost_is_not_summed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A negative cost in a call's record (pi's ``cost.total``) counts as no cost logged,
    as ``messages stats`` rejects it: never a negative session cost."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    original = (Path(__file__).parent / "fixtures" / "pi" / "session-v3.jsonl").read_text("utf-8")
    assert '"total":0.007275' in original

    def cost(total: str) -> Any:
        path = tmp_path / f"{len(total)}.jsonl"
        path.write_text(original.replace('"total":0.007275', f'"total":{total}'), "utf-8")
        code, out, _ = run(capsys, "sessions", "--json", str(path))
        assert code == 0
        return json.loads(out)[0]["cost_usd"]

    assert cost("-5") == cost("null") > 0
