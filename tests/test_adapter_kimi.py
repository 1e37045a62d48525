"""Kimi CLI's session wire files (``~/.kimi/sessions/<group>/<session>/wire.jsonl``).

The fixture (``tests/fixtures/kimi``) is written from public facts: ccusage 20's Kimi loader
(``StatusUpdate`` lines and their ``token_usage``) and Kimi CLI's wire protocol 1.1 events
(``TurnBegin``, ``ContentPart``, ``ToolCall``, ``ToolResult``...). No real capture is at hand;
every field the adapter does not model is kept, so a real file that differs fails the round
trip here.
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
from messages.adapters import kimi
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "kimi"
SESSION = "4a7b9c1d-2e3f-4051-8a6b-7c8d9e0f1a2b"
OLDER = "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b"  # a session with only its context.jsonl


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Kimi data folder holding the fixture session."""
    shutil.copytree(HERE / "data", tmp_path / "kimi")
    return tmp_path / "kimi"


def _lines() -> list[str]:
    return (HERE / "wire.jsonl").read_text("utf-8").splitlines()


def test_every_line_round_trips_and_is_kimis() -> None:
    for line in _lines():
        obj = json.loads(line)
        assert detect(obj) == "kimi"
        assert kimi.encode(kimi.decode(obj)) == obj
    nested = next((HERE / "data").rglob("wire.jsonl")).read_text("utf-8").splitlines()
    assert nested == _lines()


def test_what_the_lines_decode_to() -> None:
    kinds = [type(m) for m in kimi.iter_decode(_lines())]
    assert kinds == [
        StreamEventMessage, UserMessage, StreamEventMessage, ThinkingMessage, ToolUseMessage,
        ResultMessage, ToolResultMessage, StreamEventMessage, TextMessage, ResultMessage,
        StreamEventMessage,
    ]  # fmt: skip
    messages = list(kimi.iter_decode(_lines()))
    call, status, result = messages[4], messages[5], messages[6]
    assert isinstance(call, ToolUseMessage)
    assert (call.id, call.name, dict(call.input)) == (
        "Shell:0",
        "Shell",
        {"command": "wc -l main.py"},
    )
    assert isinstance(status, ResultMessage) and status.usage is not None
    u = status.usage
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        1840,
        62,
        6144,
        0,
    )
    assert status.message_id == "chatcmpl-k1a" and status.timestamp == 1767700801.6
    assert isinstance(result, ToolResultMessage) and result.content == "42 main.py\n"
    assert result.is_error is False


def test_tool_arguments_that_are_not_an_object_are_kept_as_written() -> None:
    function = {"name": "Shell", "arguments": '{"comm'}
    payload = {"type": "function", "id": "c", "function": function}
    line = {"timestamp": 1.0, "message": {"type": "ToolCall", "payload": payload}}
    m = kimi.decode(line)
    assert isinstance(m, ToolUseMessage) and dict(m.input) == {} and m.arguments == '{"comm'
    assert kimi.encode(m) == line


def test_lines_of_other_formats_are_not_kimis() -> None:
    claude = {"type": "assistant", "message": {"role": "assistant", "content": []}}
    acp = {"jsonrpc": "2.0", "method": "event", "params": {"type": "TurnBegin", "payload": {}}}
    for obj in (claude, acp, {"message": {"type": "Unknown", "payload": {}}}):
        assert not kimi.detect(obj)


def test_a_wire_file_is_a_session(folder: Path) -> None:
    s = {one.id: one for one in load(folder / "sessions")}[SESSION]
    assert (s.agent, s.id, s.project, s.prompts) == ("kimi", SESSION, "8c5d2f0a1b3e", 1)
    assert s.title == "How many lines does main.py have?"
    assert s.usage.calls == 2
    u = s.usage.total
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens) == (1935, 76, 14080)


def test_default_folders_follow_kimis_variables(folder: Path) -> None:
    assert default_folders({"HOME": "/nowhere", "KIMI_DATA_DIR": str(folder)}) == [
        str(folder / "sessions")
    ]


# ccusage 20.0.24 (`KIMI_DATA_DIR=<folder> ccusage kimi session --json --offline`):
# (input, output, cache read, cache write). Kimi's wire names no model: ccusage prices the
# tokens as the configured model (default kimi-for-coding, $0.002797 here); `messages` leaves
# the cost unknown.
CCUSAGE_SESSION = (1935, 76, 14080, 0)


def _ours(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, ...]:
    assert main(["stats", "--json", str(folder)]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    t = total["tokens"]
    assert total["cost_usd"] is None
    return (t["input"], t["output"], t["cache_read"], t["cache_write"])


def test_stats_agree_with_ccusage_20(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _ours(folder, capsys) == CCUSAGE_SESSION


def test_stats_agree_with_ccusage_run_live(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("kimi", {"KIMI_DATA_DIR": str(folder)}, tmp_path)
    (theirs,) = json.loads(run.stdout)["sessions"]
    assert theirs["sessionId"] == SESSION
    assert _ours(folder, capsys) == (
        theirs["inputTokens"],
        theirs["outputTokens"],
        theirs["cacheReadTokens"],
        theirs["cacheCreationTokens"],
    )


def test_stats_with_no_argument_reads_kimis_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, folder.parent / "home", KIMI_DATA_DIR=str(folder))
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"]["tokens"]["input"] == 1935


def test_convert_to_kimi_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "kimi", str(HERE / "wire.jsonl")]) == 2
    assert "--to kimi: kimi is an agent's own store" in capsys.readouterr().err


# -- context.jsonl --------------------------------------------------------------------------


def _context() -> list[str]:
    return (HERE / "context.jsonl").read_text("utf-8").splitlines()


def test_a_context_file_is_read_and_written_back() -> None:
    lines = _context()
    messages = list(kimi.iter_decode(lines))
    assert [json.loads(x) for x in kimi.iter_encode(messages)] == [json.loads(x) for x in lines]
    assert [kimi.encode(kimi.decode(json.loads(x))) for x in lines] == [
        json.loads(x) for x in lines
    ]
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage", "StreamEventMessage", "UserMessage", "StreamEventMessage",
        "AssistantMessage", "StreamEventMessage", "ToolMessage", "StreamEventMessage",
        "AssistantMessage", "StreamEventMessage",
    ]  # fmt: skip
    system, _, user, _, call, _, result, _, answer, _ = messages
    assert system.text.startswith("You are Kimi CLI")
    assert user.text == "How many lines does main.py have?"
    thinking, use = call.content
    assert (thinking.thinking, use.id, use.name, dict(use.input)) == (
        "Count them with wc.",
        "Shell:0",
        "Shell",
        {"command": "wc -l main.py"},
    )
    assert use.arguments == '{"command": "wc -l main.py"}'
    (block,) = result.content
    assert block.tool_use_id == "Shell:0" and block.text.endswith("42 main.py\n")
    assert answer.text == "main.py has 42 lines."
    assert all(kimi.restates(m) for m in messages)  # history the wire file records too
    assert not any(kimi.restates(m) for m in kimi.iter_decode(_lines()))


def test_only_kimis_own_context_records_are_claimed() -> None:
    claimed = [detect(json.loads(line)) for line in _context()]
    assert claimed == ["kimi", "kimi", None, "kimi", None, "kimi", None, "kimi", None, "kimi"]
    for odd in ({"role": "_usage", "token_count": "8"}, {"role": "_checkpoint", "id": 0, "x": 1}):
        assert detect(odd) is None


def test_context_parts_it_does_not_model_are_kept_whole() -> None:
    path = HERE / "data" / "sessions" / "8c5d2f0a1b3e" / OLDER / "context.jsonl"
    lines = path.read_text("utf-8").splitlines()
    messages = list(kimi.iter_decode(lines))
    user = messages[1]
    text, image = user.content
    assert text.text == "What does this diagram show?" and image.kind == "raw"
    assert [json.loads(x) for x in kimi.iter_encode(messages)] == [json.loads(x) for x in lines]
    odd = {"role": "assistant", "content": 3, "tool_calls": [{"id": 1}]}
    assert kimi.encode(kimi.decode(odd)) == odd


def test_the_wire_and_the_context_file_are_one_session(folder: Path) -> None:
    found = {s.id: s for s in load(folder / "sessions")}
    both = found[SESSION]
    assert sorted(Path(f).name for f in both.files) == ["context.jsonl", "wire.jsonl"]
    wire = (folder / "sessions" / "8c5d2f0a1b3e" / SESSION / "wire.jsonl").read_text("utf-8")
    assert len(both.records) == len(wire.splitlines())  # the wire's records, once
    assert both.usage.total.output_tokens == 76
    older = found[OLDER]  # no wire file: read from its context
    assert (older.title, older.prompts, older.usage.calls) == (
        "What does this diagram show?",
        1,
        0,
    )
    assert [r.kind for r in older.records] == [
        "stream_event", "user", "stream_event", "assistant", "stream_event",
    ]  # fmt: skip


def test_stats_do_not_count_the_context_again(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / "wire-only"
    shutil.copytree(folder, alone)
    for context in alone.rglob("context*.jsonl"):
        context.unlink()
    assert main(["stats", "--json", "--no-cache", str(alone)]) == 0
    without = json.loads(capsys.readouterr().out)
    assert main(["stats", "--json", "--no-cache", str(folder)]) == 0
    with_context = json.loads(capsys.readouterr().out)
    assert with_context["sessions"] == [
        {**without["sessions"][0], "inputs": with_context["sessions"][0]["inputs"]}
    ]
    assert with_context["sessions"][0]["session_id"] == SESSION  # the folder, as ccusage names it
    assert with_context["total"]["turns"] == without["total"]["turns"] == 2
    assert with_context["total"]["tool_calls"] == {"Shell": 1}


@pytest.mark.parametrize(
    "line",
    [
        {"timestamp": 1.5, "message": {"type": "FutureEvent", "payload": {"n": 1}}},
        {"timestamp": 1.5, "message": {"payload": {}}},  # no type
        {"type": "metadata"},  # no protocol_version
        {"type": "metadata", "message": {"type": "ToolCall"}},  # a type, no payload
    ],
)
def test_every_event_kept_whole_is_written_back(line: dict[str, Any]) -> None:
    # found by fuzzing: an event of an unknown type decoded as a StreamEventMessage that the
    # encoder then refused ("Kimi CLI's wire has no event for a stream_event message")
    message = kimi.decode(json.loads(json.dumps(line)))
    assert isinstance(message, StreamEventMessage)
    assert kimi.encode(message) == line


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "ToolCall", "payload": {"type": "function", "id": "S", "function": {"name": "S"}}},
        {"type": "ToolCall", "payload": {"id": "S", "function": {"name": "S", "arguments": "{}"}}},
        {
            "type": "ToolResult",
            "payload": {"tool_call_id": "S", "return_value": {"is_error": False}},
        },
    ],
)
def test_a_call_or_result_missing_what_it_is_written_with_is_kept_whole(
    payload: dict[str, Any],
) -> None:
    # found by fuzzing: they came back with "arguments": "{}", "type": "function" or
    # "output": "" added
    line = {"timestamp": 1.5, "message": payload}
    message = kimi.decode(json.loads(json.dumps(line)))
    assert isinstance(message, StreamEventMessage)
    assert kimi.encode(message) == line
