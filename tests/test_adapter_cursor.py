"""What is specific to the Cursor CLI adapter (the shared contract is in tests/contract)."""

from __future__ import annotations

import json

from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import ThinkingMessage
from messages import ToolResultMessage
from messages import ToolUseMessage
from messages.adapters import claude_code
from messages.adapters import cursor
from messages.adapters import detect
from messages.stats import Stats

FOLDER = LOCAL_FIXTURES / "cursor"


def _lines(path: object) -> list[str]:
    return [line for line in path.read_text("utf-8").splitlines() if line.strip()]  # type: ignore[attr-defined]


def test_the_capture_is_cursor_and_never_claude_code() -> None:
    """Before this adapter these lines were read as Claude Code, 95% of them raw."""
    lines = _lines(shared_fixtures("cursor", "direct-sleep.jsonl"))
    for line in lines:
        obj = json.loads(line)
        assert detect(obj) == "cursor"
        assert not claude_code.detect(obj)
    got = list(cursor.iter_decode(lines))
    assert not [m for m in got if isinstance(m, (RawMessage, InvalidLineMessage))]


def test_merge_joins_the_thinking_deltas() -> None:
    lines = _lines(shared_fixtures("cursor", "direct-sleep.jsonl"))
    decoded = list(cursor.iter_decode(lines))
    deltas = [m for m in decoded if isinstance(m, ThinkingMessage)]
    assert len(deltas) == 210
    merged = list(cursor.merge(decoded))
    (thinking,) = [m for m in merged if isinstance(m, ThinkingMessage)]
    assert thinking.thinking == "".join(m.thinking for m in deltas)
    assert thinking.thinking.startswith("**Planning sequential")
    ends = [m for m in merged if isinstance(m, StreamEventMessage)]
    assert [m.event["subtype"] for m in ends] == ["completed"]


def test_tool_calls_and_results_are_typed() -> None:
    lines = _lines(shared_fixtures("cursor", "direct-sleep.jsonl"))
    got = list(cursor.iter_decode(lines))
    calls = [m for m in got if isinstance(m, ToolUseMessage)]
    results = [m for m in got if isinstance(m, ToolResultMessage)]
    assert [(c.name, c.input["command"]) for c in calls] == [
        ("shell", "sleep 5"),
        ("shell", "sleep 3"),
    ]
    assert [r.tool_use_id for r in results] == [c.id for c in calls]
    assert [r.is_error for r in results] == [False, False]
    assert calls[0].message_id == "5bf03e32-be64-48d4-a5ed-c4a0a939b88c-0-otyz"
    assert calls[0].timestamp == 1770823845357  # timestamp_ms, as written
    (session,) = Stats.of_file(str(shared_fixtures("cursor", "direct-sleep.jsonl"))).sessions()
    assert session.tool_calls == {"shell": 2} and session.tool_errors == 0


def test_every_event_kind_of_the_hand_made_run() -> None:
    got = list(cursor.iter_decode(_lines(FOLDER / "read-edit.jsonl")))
    init = got[0]
    assert isinstance(init, InitMessage) and init.model == "GPT-5"
    assert init.extra["apiKeySource"] == "env"
    results = {m.tool_use_id: m for m in got if isinstance(m, ToolResultMessage)}
    assert results["call_read_1"].content == "# Helo\n" and not results["call_read_1"].is_error
    assert results["call_write_1"].is_error is True
    assert results["call_write_1"].content == "permission denied: README.md"
    assert results["call_fn_1"].content == "no results"
    function = next(m for m in got if isinstance(m, ToolUseMessage) and m.id == "call_fn_1")
    assert function.name == "web_search" and function.input == {"query": "readme typo"}
    assert function.arguments == '{"query":"readme typo"}'
    assert [m.data["type"] for m in got if isinstance(m, RawMessage)] == ["connection"]
    (result,) = [m for m in got if isinstance(m, ResultMessage)]
    assert result.duration_ms == 1400 and result.extra["request_id"]


def test_partial_output_and_a_run_cut_short() -> None:
    got = list(cursor.iter_decode(_lines(FOLDER / "partial-output.jsonl")))
    texts = [m.text for m in got if isinstance(m, AssistantMessage)]
    assert texts == ["Hi", " there.", "Hi there.", "Hi there."]  # kept as written
    assert isinstance(got[-1], InvalidLineMessage)  # the line being written when it stopped
    calls = {m.id for m in got if isinstance(m, ToolUseMessage)}
    answered = {m.tool_use_id for m in got if isinstance(m, ToolResultMessage)}
    assert calls - answered == {"call_ls_2"}  # a call without its result


def test_lines_written_for_cursor_name_their_session() -> None:
    line = cursor.encode(AssistantMessage("hi"))
    assert line == {
        "type": "assistant",
        "session_id": None,
        "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]},
    }
    assert cursor.detect(line) and not claude_code.detect(line)
    claude_line = claude_code.encode(cursor.decode(line))
    assert claude_code.detect(claude_line) and not cursor.detect(claude_line)


def test_an_init_naming_neither_key_is_kept_whole_and_written_back() -> None:
    # found by fuzzing: it decoded as an InitMessage that the encoder then refused
    line = {"type": "system", "subtype": "init", "session_id": "s1", "cwd": "/w"}
    message = cursor.decode(json.loads(json.dumps(line)))
    assert isinstance(message, RawMessage)
    assert cursor.encode(message) == line
    own = {**line, "apiKeySource": "login", "model": "Auto"}
    assert isinstance(cursor.decode(own), InitMessage)
    assert cursor.encode(cursor.decode(json.loads(json.dumps(own)))) == own


def test_a_role_that_is_not_the_line_type_is_written_back_as_it_came() -> None:
    # found by fuzzing: {"type": "user", "message": {"role": "us?r"}} came back as "user"
    line = {
        "type": "user",
        "session_id": "s1",
        "message": {"role": "human", "content": [{"type": "text", "text": "hi"}]},
    }
    message = cursor.decode(json.loads(json.dumps(line)))
    assert message.kind == "user"
    assert cursor.encode(message) == line


def test_a_timestamp_that_is_not_an_integer_is_kept_and_written_back() -> None:
    # found by fuzzing: a float timestamp_ms was read as the time and never written back
    line = {
        "type": "result",
        "session_id": "s1",
        "request_id": "r1",
        "subtype": "success",
        "timestamp_ms": 1771000000600.5,
    }
    message = cursor.decode(json.loads(json.dumps(line)))
    assert message.timestamp == 1771000000600.5
    assert cursor.encode(message) == line


def test_a_line_without_a_key_every_cursor_line_has_is_kept_whole() -> None:
    # found by fuzzing: typed, these came back with "session_id": null, "request_id": null or
    # the role added (the writer gives every line those keys)
    lines = [
        {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": {}},
        {"type": "result", "subtype": "success", "session_id": "s1"},
        {"type": "assistant", "session_id": "s1", "message": {"content": []}},
    ]
    for line in lines:
        message = cursor.decode(json.loads(json.dumps(line)))
        assert isinstance(message, RawMessage)
        assert cursor.encode(message) == line


def test_a_turn_holding_more_than_text_is_kept_whole() -> None:
    # found by fuzzing: a turn holding a tool call decoded as an AssistantMessage that encode
    # refused (the writer splits such a turn into one event per block)
    line = {
        "type": "assistant",
        "session_id": "s1",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Reading."},
                {"type": "tool_use", "id": "t1", "name": "read", "input": {}},
            ],
        },
    }
    message = cursor.decode(json.loads(json.dumps(line)))
    assert isinstance(message, RawMessage)
    assert cursor.encode(message) == line
    text_only = {
        **line,
        "message": {"role": "assistant", "content": [{"type": "text", "text": "R"}]},
    }
    assert isinstance(cursor.decode(text_only), AssistantMessage)
