"""Factory Droid's session files (``~/.factory/sessions/<project>/<id>.jsonl`` and settings).

The fixtures (``tests/fixtures/droid``) are written from public facts: ccusage 20's Droid
loader (the settings file's ``tokenUsage``, ``model``, ``providerLock``...) and the transcript
lines (``session_start``, ``message`` with Anthropic-shaped content) that public readers of
Droid's files describe. No real capture is at hand; every field the adapter does not model is
kept, so a real file that differs fails the round trip here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from messages import AssistantMessage
from messages import DecodeError
from messages import InitMessage
from messages import ResultMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import droid
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "droid"
SESSION = "6f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f"
PROJECT = HERE / "data" / "-home-dev-site"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(HERE / "data", tmp_path / "sessions")
    return tmp_path / "sessions"


def test_every_line_and_the_settings_round_trip() -> None:
    lines = (PROJECT / f"{SESSION}.jsonl").read_text("utf-8").splitlines()
    settings = json.loads((PROJECT / f"{SESSION}.settings.json").read_text("utf-8"))
    for obj in [*map(json.loads, lines), settings]:
        # a message entry has pi's envelope, and pi is asked first (see SAME_SHAPE in the
        # contract tests); the file is told by its session_start header
        entry = obj.get("type") == "message"
        assert detect(obj) == ("pi" if entry else "droid")
        assert droid.detect(obj)
        assert droid.encode(droid.decode(obj)) == obj
    written = list(droid.iter_encode(droid.iter_decode(lines)))
    assert [json.loads(x) for x in written] == [json.loads(x) for x in lines]


def test_what_the_lines_decode_to() -> None:
    lines = (PROJECT / f"{SESSION}.jsonl").read_text("utf-8").splitlines()
    start, ask, call, result, *rest = droid.iter_decode(lines)
    assert [m.kind for m in rest] == ["assistant", "user", "assistant"]
    assert isinstance(start, InitMessage)
    assert (start.session_id, start.cwd, start.extra["sessionTitle"]) == (
        SESSION,
        "/home/dev/site",
        "Fix the broken link in the footer",
    )
    assert isinstance(ask, UserMessage) and ask.uuid == "a1f0c2d4-0001"
    assert isinstance(call, AssistantMessage) and call.extra["parentId"] == "a1f0c2d4-0001"
    assert [type(b) for b in call.content][-1] is ToolUseBlock
    assert isinstance(result, UserMessage) and isinstance(result.content[0], ToolResultBlock)
    assert call.timestamp == "2026-01-06T10:00:03.200Z"
    settings = droid.decode(json.loads((PROJECT / f"{SESSION}.settings.json").read_text("utf-8")))
    assert isinstance(settings, ResultMessage) and settings.subtype == "session"
    assert settings.model == "claude-sonnet-4-5-20250929"
    assert settings.usage is not None
    u = settings.usage
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        3120,
        245,
        20400,
        1800,
    )
    assert settings.extra["providerLock"] == "anthropic"


def test_lines_of_other_formats_are_not_droids() -> None:
    gemini = {"type": "message", "role": "user", "content": "hi", "timestamp": "t"}
    claude = {"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u"}
    settings = {"model": "glm-4.6", "reasoningEffort": "none"}  # ~/.factory/settings.json
    pi = {  # pi's (and OpenClaw's) session lines: the message has its own timestamp
        "type": "message",
        "id": "a1",
        "parentId": None,
        "timestamp": "2026-01-06T10:00:00.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1},
    }
    for obj in (gemini, claude, settings, pi):
        assert not droid.detect(obj)


def test_a_session_is_the_transcript_and_its_settings(folder: Path) -> None:
    (s,) = list(load(folder))
    assert (s.agent, s.id, s.title, s.cwd, s.project, s.prompts) == (
        "droid",
        SESSION,
        "Fix the broken link in the footer",
        "/home/dev/site",
        "-home-dev-site",
        1,
    )
    assert [m.kind for m in s.messages] == ["user", "assistant"] * 3
    assert len(s.files) == 2 and s.usage.calls == 1
    u = s.usage.total
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        3120,
        245,
        20400,
        1800,
    )


def test_default_folders_follow_droids_variables(folder: Path) -> None:
    assert default_folders({"HOME": "/nowhere", "DROID_SESSIONS_DIR": str(folder)}) == [str(folder)]
    home = folder.parent / "home"
    shutil.copytree(folder, home / ".factory" / "sessions")
    assert default_folders({"HOME": str(home)}) == [str(home / ".factory" / "sessions")]


# ccusage 20.0.24 (`DROID_SESSIONS_DIR=<folder> ccusage droid session --json --offline`):
# (input, output, cache read, cache write, cost in USD). Droid logs no cost: both price it.
CCUSAGE_SESSION = (3120, 245, 20400, 1800, 0.025905)


def _ours(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Any, ...]:
    assert main(["stats", "--json", "--cost", "estimated", str(folder)]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    t = total["tokens"]
    return (t["input"], t["output"], t["cache_read"], t["cache_write"], total["cost_usd"])


def test_stats_agree_with_ccusage_20(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _ours(folder, capsys)
    assert ours[:4] == CCUSAGE_SESSION[:4]
    assert ours[4] == pytest.approx(CCUSAGE_SESSION[4], rel=1e-9)


def _one_row(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["stats", "--json", "--no-cache", "--cost", "estimated", str(folder)]) == 0
    (row,) = json.loads(capsys.readouterr().out)["sessions"]
    return dict(row)


def test_stats_join_the_settings_totals_to_their_session(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = _one_row(folder, capsys)
    assert row["session_id"] == SESSION
    assert sorted(Path(p).name for p in row["inputs"]) == [
        f"{SESSION}.jsonl",
        f"{SESSION}.settings.json",
    ]
    assert (row["turns"], row["tool_calls"]) == (3, {"Edit": 1, "Grep": 1})  # the transcript's
    assert row["tokens"]["input"] == CCUSAGE_SESSION[0]  # the settings file's totals
    for name in (f"{SESSION}.jsonl", f"{SESSION}.settings.json"):  # in either order, alone
        (folder / "-home-dev-site" / name).unlink()
        alone = _one_row(folder, capsys)
        assert alone["session_id"] == SESSION
        shutil.copy(PROJECT / name, folder / "-home-dev-site" / name)


def test_stats_agree_with_ccusage_run_live(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("droid", {"DROID_SESSIONS_DIR": str(folder)}, tmp_path)
    (theirs,) = json.loads(run.stdout)["sessions"]
    assert theirs["sessionId"] == SESSION
    assert _one_row(folder, capsys)["session_id"] == theirs["sessionId"]
    ours = _ours(folder, capsys)
    assert ours[:4] == (
        theirs["inputTokens"],
        theirs["outputTokens"],
        theirs["cacheReadTokens"],
        theirs["cacheCreationTokens"],
    )
    assert ours[4] == pytest.approx(theirs["totalCost"], rel=1e-9)


def test_stats_with_no_argument_reads_droids_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, folder.parent / "home", DROID_SESSIONS_DIR=str(folder))
    assert main(["stats", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["total"]["tokens"]["input"] == 3120
    assert SESSION in [s["session_id"] for s in doc["sessions"]]


def test_convert_to_droid_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "droid", str(PROJECT / f"{SESSION}.jsonl")]) == 2
    assert "--to droid: droid is an agent's own store" in capsys.readouterr().err


def test_a_block_missing_a_key_it_needs_is_kept_raw_and_written_back() -> None:
    # found by fuzzing: a tool result without content came back with "content": ""
    line = {
        "type": "message",
        "id": "m1",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
    }
    message = droid.decode(json.loads(json.dumps(line)))
    assert isinstance(message, UserMessage)
    assert [b.kind for b in message.content] == ["raw"]  # type: ignore[union-attr]
    assert droid.encode(message) == line


def test_content_that_is_not_blocks_is_a_decode_error_with_its_path() -> None:
    line = {"type": "message", "id": "m1", "message": {"role": "user", "content": 7}}
    with pytest.raises(DecodeError) as info:
        droid.decode(line)
    assert info.value.path == "$.message.content"
    assert str(info.value) == (
        "droid: $.message.content: expected an array of content blocks, found an integer"
    )
