"""Grok Build CLI's session logs (``~/.grok/sessions/<cwd>/<session>/updates.jsonl``).

The fixtures (``tests/fixtures/grok``) are written from public facts: ccusage 20.0.24's Grok
reader (which lines it counts, and how) and published descriptions of Grok Build's
notifications (its ACP ``session/update`` lines and xAI's ``turn_completed`` usage). No real
capture is at hand; every field the adapter does not model is kept, so a real file that
differs fails the round trip here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from messages import ResultMessage
from messages import StreamEventMessage
from messages import TextMessage
from messages import ThinkingMessage
from messages import ToolResultMessage
from messages import ToolUseMessage
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import grok
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.errors import DecodeError
from messages.sessions import load
from support.ccusage import by_day
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "grok"
API = "019f8870-1c2d-7a3b-9e4f-5a6b7c8d9e0f"  # updates.jsonl: /workspace/api
WEB = "019f9a01-2b3c-7d4e-8f50-6a7b8c9d0e1f"  # updates-multi.jsonl: /workspace/web
FILES = {
    API: ("%2Fworkspace%2Fapi", "updates.jsonl"),
    WEB: ("%2Fworkspace%2Fweb", "updates-multi.jsonl"),
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A Grok home folder holding both fixture sessions as Grok lays them out."""
    root = tmp_path / "grok"
    for session, (cwd, name) in FILES.items():
        folder = root / "sessions" / cwd / session
        folder.mkdir(parents=True)
        shutil.copy(HERE / name, folder / "updates.jsonl")
        shutil.copy(HERE / "summaries" / f"{session}.json", folder / "summary.json")
    return root


def _lines(name: str = "updates.jsonl") -> list[str]:
    return (HERE / name).read_text("utf-8").splitlines()


def test_every_line_round_trips_and_is_groks() -> None:
    for name in ("updates.jsonl", "updates-multi.jsonl"):
        for line in _lines(name):
            obj = json.loads(line)
            assert detect(obj) == "grok"
            assert grok.encode(grok.decode(obj)) == obj


def test_what_the_lines_decode_to() -> None:
    found = list(grok.iter_decode(_lines()))
    assert [type(m) for m in found] == [
        UserMessage,
        ThinkingMessage,
        ToolUseMessage,
        StreamEventMessage,  # a call still running
        ToolResultMessage,
        StreamEventMessage,  # the plan
        TextMessage,
        ResultMessage,
        StreamEventMessage,  # the session's summary
        UserMessage,
        TextMessage,
        ResultMessage,
    ]
    prompt, _, call, _, result = found[:5]
    assert (prompt.content, prompt.session_id, prompt.uuid) == (
        "Where is the retry logic?",
        API,
        f"{API}-1",
    )
    assert prompt.timestamp == "2026-07-22T06:08:20.123Z"  # agentTimestampMs
    assert (call.id, call.name, dict(call.input)["target_file"]) == (
        "call-1",
        "read_file",
        "/workspace/api/client.py",
    )
    assert (result.tool_use_id, result.content, result.is_error) == (
        "call-1",
        "def retry(call, tries=3): ...",
        False,
    )


def test_a_turns_usage_is_the_prompt_less_its_cache() -> None:
    turn = next(m for m in grok.iter_decode(_lines()) if isinstance(m, ResultMessage))
    u = turn.usage
    assert u is not None
    # inputTokens 12000 holds the 9000 cached reads: 3000 are new input
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        3000,
        400,
        9000,
        0,
    )
    assert (u.reasoning_tokens, u.cost_usd) == (120, pytest.approx(0.002842748))
    assert (turn.model, turn.stop_reason, turn.subtype) == (
        "grok-4.5-build",
        "end_turn",
        "turn_completed",
    )


def test_a_turn_split_by_model_is_their_sum_and_a_cancelled_turn_has_none() -> None:
    turns = [
        m for m in grok.iter_decode(_lines("updates-multi.jsonl")) if isinstance(m, ResultMessage)
    ]
    split, _, cancelled, bare = turns
    u = split.usage
    assert u is not None and split.model is None  # two models: no single one
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        1900,
        300,
        1000,
        100,
    )
    assert u.cost_usd == pytest.approx(0.005)
    assert (cancelled.usage, cancelled.stop_reason) == (None, "cancelled")
    assert bare.uuid is None and bare.timestamp == "2026-07-24T09:46:40.000Z"


def test_a_failed_call_is_an_error_result() -> None:
    (result,) = [
        m
        for m in grok.iter_decode(_lines("updates-multi.jsonl"))
        if isinstance(m, ToolResultMessage)
    ]
    assert (result.content, result.is_error) == ("2 failed", True)


def test_bad_usage_is_a_decode_error_naming_its_path() -> None:
    line = {"method": "m", "params": {"update": {"sessionUpdate": "turn_completed", "usage": []}}}
    with pytest.raises(DecodeError) as info:
        grok.decode(line)
    assert "$.params.update.usage" in str(info.value)


def test_lines_of_other_formats_are_not_groks() -> None:
    acp = {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk"}},
    }
    codex = {"method": "item/agentMessage/delta", "params": {"delta": "x"}}
    for obj in (acp, codex, {"params": {"update": {"sessionUpdate": "plan"}}}):
        assert not grok.detect(obj)


def test_merge_joins_a_replys_chunks() -> None:
    base = json.loads(_lines()[6])
    chunks = []
    for i, piece in enumerate(("Retries ", "live ", "here.")):
        line = json.loads(json.dumps(base))
        line["params"]["_meta"]["eventId"] = f"e{i}"
        line["params"]["update"]["content"]["text"] = piece
        chunks.append(grok.decode(line))
    (whole,) = list(grok.merge(chunks))
    assert isinstance(whole, TextMessage) and whole.text == "Retries live here."


def test_a_conversation_written_as_grok_reads_back() -> None:
    written = list(
        grok.iter_encode(
            [
                UserMessage("Hi", session_id="s"),
                TextMessage("Hello"),
                ToolUseMessage("c1", "read_file", {"path": "a"}),
                ToolResultMessage("c1", "text of a"),
            ]
        )
    )
    back = list(grok.iter_decode(written))
    assert [type(m) for m in back] == [UserMessage, TextMessage, ToolUseMessage, ToolResultMessage]
    assert back[0].session_id == "s" and back[2].name == "read_file"
    assert back[3].content == "text of a"


def test_each_log_is_a_session_of_its_working_directory(home: Path) -> None:
    found = {s.id: s for s in load(home / "sessions")}
    assert sorted(found) == sorted(FILES)
    api = found[API]
    assert (api.agent, api.project, api.title, api.prompts) == (
        "grok",
        "/workspace/api",
        "Where is the retry logic?",
        2,
    )
    web = found[WEB].usage.total  # the turn written twice counts once
    assert (web.input_tokens, web.output_tokens, web.cache_read_tokens) == (2700, 360, 1500)


def test_default_folders_follow_groks_variables(home: Path, tmp_path: Path) -> None:
    assert default_folders({"HOME": "/nowhere", "GROK_HOME": str(home)}) == [str(home / "sessions")]
    other = tmp_path / "other"
    (other / "sessions").mkdir(parents=True)
    assert default_folders({"HOME": "/nowhere", "GROK_HOME": f"{home}, {other}"}) == [
        str(home / "sessions"),
        str(other / "sessions"),
    ]
    user = tmp_path / "user"
    shutil.copytree(home, user / ".grok")
    assert str(user / ".grok" / "sessions") in default_folders({"HOME": str(user)})


# ccusage 20.0.24 (`GROK_HOME=<home> ccusage grok daily --json --offline --timezone UTC`) on the
# two sessions: per day (input, output, cache read, cache write, cost in USD). It counts each
# turn_completed once per event id, its input less the cached reads and cache writes, per
# model where modelUsage splits the turn, and costUsdTicks / 10^10 as the cost.
CCUSAGE_DAILY = {
    "2026-07-22": (4500, 490, 20000, 0, 0.004092748),
    "2026-07-23": (1900, 300, 1000, 100, 0.005),
    "2026-07-24": (800, 60, 500, 200, 0.0007),
}


def _ours(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["stats", "--json", "--by", "day", "--tz", "UTC", *args]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    out = {}
    for row in rows:
        t = row["tokens"]
        out[row["day"]] = (
            t["input"],
            t["output"],
            t["cache_read"],
            t["cache_write"],
            row["cost_usd"],
        )
    return out


def _agree(theirs: dict[str, Any], mine: dict[str, Any]) -> None:
    assert mine.keys() == theirs.keys()
    for day, figures in theirs.items():
        assert mine[day][:4] == figures[:4], day
        assert mine[day][4] == pytest.approx(figures[4], rel=1e-9), day


def test_stats_agree_with_ccusage_20(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _agree(CCUSAGE_DAILY, _ours(home, capsys, str(home)))


def test_stats_agree_with_ccusage_run_live(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("grok", {"GROK_HOME": str(home)}, tmp_path, "daily")
    theirs = by_day(run.stdout)
    _agree(theirs, _ours(home, capsys, str(home)))


def test_stats_with_no_argument_reads_groks_folder(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, home.parent / "nobody", GROK_HOME=str(home))
    _agree(CCUSAGE_DAILY, _ours(home, capsys))


@pytest.mark.parametrize(
    "line",
    [
        {"params": {"update": {"sessionUpdate": "plan", "entries": []}}},  # no method
        {
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"update": {"sessionUpdate": "x"}},
        },
        {"type": "t", "method": "m", "params": {"update": {"sessionUpdate": "plan"}}},
    ],
)
def test_a_line_grok_does_not_write_is_kept_whole_and_written_back(line: dict[str, Any]) -> None:
    # found by fuzzing: it decoded as a StreamEventMessage that the encoder then refused
    message = grok.decode(json.loads(json.dumps(line)))
    assert message.kind == "raw"
    assert grok.encode(message) == line
    (written,) = grok.iter_encode(grok.iter_decode([json.dumps(line)]))
    assert json.loads(written) == line


def test_a_finished_call_without_content_is_written_back_without_it() -> None:
    # found by fuzzing: it came back with an empty text content block added
    update = {"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed"}
    line = {"method": "session/update", "params": {"sessionId": "s", "update": update}}
    message = grok.decode(json.loads(json.dumps(line)))
    assert isinstance(message, ToolResultMessage) and message.content == ""
    assert grok.encode(message) == line
    fresh = ToolResultMessage("t1", "done")  # from elsewhere: its text is written
    assert grok.encode(fresh)["params"]["update"]["content"] == [
        {"type": "content", "content": {"type": "text", "text": "done"}}
    ]
