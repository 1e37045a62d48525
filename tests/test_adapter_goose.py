"""Goose's session database (``sessions.db``), read-only.

The fixture (``tests/fixtures/goose/sessions.sql``) is written from public facts: the columns
of Goose 1.x's ``sessions`` and ``messages`` tables, its message content items, and ccusage
20's Goose loader and its test fixtures. No real capture is at hand; every column the adapter
does not model is kept, so a real database that differs fails the round trip here.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from messages import AssistantMessage
from messages import ResultMessage
from messages import TextBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import goose
from messages.adapters._sessions import hook
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "goose"
SESSION = "20260105_1"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A ``GOOSE_PATH_ROOT`` with ``data/sessions/sessions.db`` built from ``sessions.sql``."""
    folder = tmp_path / "goose" / "data" / "sessions"
    folder.mkdir(parents=True)
    with sqlite3.connect(folder / "sessions.db") as db:
        db.executescript((HERE / "sessions.sql").read_text("utf-8"))
    db.close()
    return tmp_path / "goose"


def _db(root: Path) -> Path:
    return root / "data" / "sessions" / "sessions.db"


def test_every_row_round_trips_exactly(root: Path) -> None:
    rows = [json.loads(line) for line in (HERE / "rows.jsonl").read_text("utf-8").splitlines()]
    for row in rows:
        assert detect(row) == "goose"
        assert goose.encode(goose.decode(row)) == row
    assert [
        goose.encode(m) for m in goose.read_database(_db(root))
    ] == rows  # the fixture is the db


def test_what_the_rows_decode_to(root: Path) -> None:
    ask, call, result, again, failed, reply, totals = goose.read_database(_db(root))
    assert isinstance(ask, UserMessage) and ask.text == "Which python files are in this folder?"
    assert (ask.session_id, ask.message_id, ask.timestamp) == (SESSION, "msg_0a1b2c", 1767603600)
    assert isinstance(call, AssistantMessage)
    assert [type(b) for b in call.content] == [TextBlock, ToolUseBlock]
    use = call.content[1]
    assert isinstance(use, ToolUseBlock)
    assert (use.id, use.name, dict(use.input)) == (
        "toolu_01Shell",
        "developer__shell",
        {"command": "ls *.py"},
    )
    assert isinstance(result, UserMessage)
    (block,) = result.content
    assert isinstance(block, ToolResultBlock) and block.is_error is False
    assert [b.extra["annotations"]["audience"] for b in block.content] == [  # type: ignore[union-attr]
        ("assistant",),  # frozen: lists are tuples
        ("user",),
    ]
    assert isinstance(failed, UserMessage)
    (block,) = failed.content
    assert isinstance(block, ToolResultBlock) and block.is_error is True
    assert block.content == "Execution failed: permission denied"
    assert isinstance(again, AssistantMessage) and isinstance(reply, AssistantMessage)
    assert isinstance(totals, ResultMessage) and totals.subtype == "session"
    assert totals.model == "claude-sonnet-4-20250514"
    assert totals.usage is not None
    assert (totals.usage.input_tokens, totals.usage.output_tokens) == (5180, 130)  # accumulated
    assert totals.usage.extra["total"] == 5310
    assert totals.extra["row"]["working_dir"] == "/home/dev/tools"


def test_a_column_goose_adds_later_is_kept(root: Path) -> None:
    with sqlite3.connect(_db(root)) as db:
        db.execute("ALTER TABLE messages ADD COLUMN future TEXT DEFAULT 'x'")
        db.execute("ALTER TABLE sessions ADD COLUMN archived_at INTEGER")
    db.close()
    for m in goose.read_database(_db(root)):
        row = goose.encode(m)
        assert ("future" in row) is (row["table"] == "messages")
        assert goose.encode(goose.decode(row)) == row


def test_the_database_is_opened_read_only(root: Path) -> None:
    path = _db(root)
    before = path.read_bytes()
    path.chmod(0o444)
    try:
        assert len(list(goose.read_database(path))) == 7
    finally:
        path.chmod(0o644)
    assert path.read_bytes() == before
    assert not goose.is_database(root / "missing.db")
    other = root / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE sessions (id TEXT)")
    db.close()
    assert not goose.is_database(other)


def test_a_session_is_its_messages_and_its_totals(root: Path) -> None:
    (s,) = list(load(_db(root).parent))
    assert (s.agent, s.id, s.title, s.cwd, s.project, s.prompts) == (
        "goose",
        SESSION,
        "List the python files",
        "/home/dev/tools",
        "tools",
        1,
    )
    assert [m.kind for m in s.messages[:6]] == ["user", "assistant"] * 3
    assert (s.usage.total.input_tokens, s.usage.total.output_tokens, s.usage.calls) == (
        5180,
        130,
        1,
    )


def test_default_folders_follow_gooses_variables(root: Path, tmp_path: Path) -> None:
    env = {"HOME": "/nowhere", "GOOSE_PATH_ROOT": str(root)}
    assert default_folders(env) == [str(_db(root).parent)]
    xdg = tmp_path / "xdg"
    (xdg / "goose" / "sessions").mkdir(parents=True)
    assert default_folders({"HOME": "/nowhere", "XDG_DATA_HOME": str(xdg)}) == [
        str(xdg / "goose" / "sessions")
    ]
    assert list(hook("goose").files(str(_db(root).parent))) == [str(_db(root))]


# ccusage 20.0.24 (`GOOSE_PATH_ROOT=<root> ccusage goose session --json --offline`) on the
# database above: (input, output, cost in USD). Goose logs no cost: both price the tokens.
CCUSAGE_SESSION = (5180, 130, 0.01749)


def _ours(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Any, ...]:
    assert main(["stats", "--json", "--cost", "estimated", str(_db(root))]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert s["session_id"] == SESSION
    return (s["tokens"]["input"], s["tokens"]["output"], s["cost_usd"])


def test_stats_agree_with_ccusage_20(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _ours(root, capsys)
    assert ours[:2] == CCUSAGE_SESSION[:2]
    assert ours[2] == pytest.approx(CCUSAGE_SESSION[2], rel=1e-9)


def test_stats_agree_with_ccusage_run_live(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("goose", {"GOOSE_PATH_ROOT": str(root)}, tmp_path)
    (theirs,) = json.loads(run.stdout)["sessions"]
    ours = _ours(root, capsys)
    assert theirs["sessionId"] == SESSION
    assert ours[:2] == (theirs["inputTokens"], theirs["outputTokens"])
    assert ours[2] == pytest.approx(theirs["totalCost"], rel=1e-9)


def test_stats_with_no_argument_reads_gooses_database(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, root / "home", GOOSE_PATH_ROOT=str(root))
    assert main(["stats", "--json"]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert (s["session_id"], s["tool_errors"], s["tool_calls"]) == (
        SESSION,
        1,
        {"developer__shell": 2},
    )


def test_convert_to_goose_is_refused(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "goose", str(_db(root))]) == 2
    assert "--to goose: goose is an agent's own store" in capsys.readouterr().err
