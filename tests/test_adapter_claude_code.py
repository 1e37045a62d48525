"""Claude Code adapter: conformance over real captures, mapping rules, errors, laws."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import EMPTY
from messages import AssistantMessage
from messages import AudioBlock
from messages import CompactBoundaryMessage
from messages import ErrorMessage
from messages import HookEventMessage
from messages import ImageBlock
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RateLimitMessage
from messages import RawMessage
from messages import ResultMessage
from messages import ServerToolResultBlock
from messages import ServerToolUseBlock
from messages import StatusMessage
from messages import StreamEventMessage
from messages import SystemEventMessage
from messages import SystemMessage
from messages import TaskEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.adapters import claude_code as cc
from messages.adapters import codex as cx
from messages.convert import normalize_messages
from support.adapter_files import assert_decode_error
from support.adapter_files import wire_objects

LOCAL = LOCAL_FIXTURES / "claude_code"
UNDETECTED = ("future_event",)
"""Line types in the local fixtures that carry nothing Claude-specific enough to detect."""


# -- conformance -----------------------------------------------------------------------------


def test_real_capture_kinds() -> None:
    lines = wire_objects(shared_fixtures("claude_code", "caic-read-edit-bash.jsonl"))
    kinds = {type(cc.decode(obj)).__name__ for _, obj in lines}
    assert {
        "AssistantMessage",
        "UserMessage",
        "InitMessage",
        "ResultMessage",
        "StreamEventMessage",
        "RawMessage",
    } <= kinds


def test_real_capture_normalizes_to_text_tool_use_and_result() -> None:
    path = shared_fixtures("claude_code", "caic-read-edit-bash.jsonl")
    flat = list(normalize_messages(cc.iter_decode(path.read_text("utf-8").splitlines())))
    assert {"text", "tool_use", "tool_result", "thinking"} <= {m.kind for m in flat}


def test_local_stream_kinds_in_order() -> None:
    got = [
        type(m).__name__
        for m in cc.iter_decode((LOCAL / "stream.jsonl").read_text("utf-8").splitlines())
    ]
    assert got == [
        "InitMessage",
        "StatusMessage",
        "StreamEventMessage",
        "SystemEventMessage",
        "StreamEventMessage",
        "AssistantMessage",
        "AssistantMessage",
        "AssistantMessage",
        "RawMessage",
        "RawMessage",
        "UserMessage",
        "RateLimitMessage",
        "AssistantMessage",
        "TaskEventMessage",
        "UserMessage",
        "AssistantMessage",
        "UserMessage",
        "TaskEventMessage",
        "UserMessage",
        "CompactBoundaryMessage",
        "HookEventMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
        "ResultMessage",
        "RawMessage",
    ]


def test_local_stream_normalizes_to_every_content_kind() -> None:
    flat = list(
        normalize_messages(cc.iter_decode((LOCAL / "stream.jsonl").read_text("utf-8").splitlines()))
    )
    kinds = {m.kind for m in flat}
    assert {"text", "thinking", "tool_use", "tool_result", "raw", "init", "result"} <= kinds


# -- mapping rules ---------------------------------------------------------------------------


def _line(path: str, number: int) -> Any:
    return json.loads((LOCAL / path).read_text("utf-8").splitlines()[number - 1])


def test_assistant_fields() -> None:
    m = cc.decode(_line("stream.jsonl", 6))
    assert isinstance(m, AssistantMessage)
    assert m.model == "claude-sonnet-4-5-20250929"
    assert m.message_id == "msg_01HandMadeAAA"
    assert m.session_id == "5f0c1d2e-0000-4000-8000-000000000001"
    assert m.uuid == "a1000000-0000-4000-8000-000000000006"
    assert m.parent_tool_use_id is None
    assert m.stop_reason is None
    assert m.extra["request_id"] == "req_011HandMade0001"
    assert m.extra["parent_tool_use_id"] is None
    assert m.extra["type"] == "assistant"
    assert m.extra["message"] == {
        "type": "message",
        "role": "assistant",
        "stop_reason": None,
        "stop_sequence": None,
        "context_management": None,
    }
    (block,) = m.content
    assert isinstance(block, ThinkingBlock)
    assert block.thinking == "List the files first."
    assert block.signature == "EpQBCkYIBxgCKkBoZXJlIGlzIGEgaGFuZC1tYWRlIHNpZ25hdHVyZQ=="
    assert block.provider == "anthropic"


def test_usage_mapping() -> None:
    m = cc.decode(_line("stream.jsonl", 6))
    assert isinstance(m, AssistantMessage)
    assert m.usage == Usage(
        12,
        9,
        1024,
        2048,
        extra={
            "cache_creation": {"ephemeral_5m_input_tokens": 2048, "ephemeral_1h_input_tokens": 0},
            "service_tier": "standard",
        },
    )


def test_every_block_kind_is_kept() -> None:
    m = cc.decode(_line("stream.jsonl", 13))
    assert isinstance(m, AssistantMessage)
    redacted, server, server_result, task = m.content
    assert isinstance(redacted, ThinkingBlock) and redacted.redacted
    assert redacted.signature == "RWNyeXB0ZWQgcmVhc29uaW5nIGhlcmU="
    assert isinstance(server, ServerToolUseBlock) and server.name == "web_search"
    assert server.provider == "anthropic" and server.input == {"query": "ls flags"}
    assert isinstance(server_result, ServerToolResultBlock)
    assert (server_result.tool_use_id, server_result.tool) == (server.id, "web_search")
    assert not server_result.is_error
    assert isinstance(task, ToolUseBlock) and task.name == "Task"
    assert m.stop_reason == "tool_use"


def test_tool_use_caller_is_kept_in_block_extra() -> None:
    m = cc.decode(_line("stream.jsonl", 8))
    assert isinstance(m, AssistantMessage)
    (block,) = m.content
    assert isinstance(block, ToolUseBlock)
    assert block.input == {"command": "ls", "description": "List files"}
    assert block.extra == {"caller": {"type": "direct"}}


def test_user_tool_results() -> None:
    ok = cc.decode(_line("stream.jsonl", 11))
    assert isinstance(ok, UserMessage)
    assert ok.tool_results == (
        ToolResultBlock("toolu_01HandMadeLs", "README.md\nsrc\ntests", is_error=False),
    )
    assert ok.timestamp == "2026-01-15T10:00:03.120Z"
    assert ok.tool_use_result["stdout"] == "README.md\nsrc\ntests"  # type: ignore[index,call-overload]
    assert "tool_use_result" not in ok.extra
    failed = cc.decode(_line("stream.jsonl", 17))
    assert isinstance(failed, UserMessage)
    assert failed.tool_results[0].is_error is True
    assert failed.parent_tool_use_id == "toolu_01HandMadeTask"
    listed = cc.decode(_line("stream.jsonl", 19))
    assert isinstance(listed, UserMessage)
    (result,) = listed.tool_results
    assert result.content == (TextBlock("README.md does not exist."), TextBlock("agentId: task-1"))
    assert result.is_error is None


def test_user_string_content() -> None:
    m = cc.decode(_line("stream.jsonl", 23))
    assert isinstance(m, UserMessage)
    assert m.content == "Try again, please."
    assert m.extra == {"type": "user", "parent_tool_use_id": None, "message": {"role": "user"}}


def test_assistant_error_line() -> None:
    m = cc.decode(_line("stream.jsonl", 22))
    assert isinstance(m, AssistantMessage)
    assert m.error == "server_error"
    assert m.model == "<synthetic>"
    assert m.text == "API Error: 529 Overloaded"


def test_result_fields() -> None:
    m = cc.decode(_line("stream.jsonl", 25))
    assert isinstance(m, ResultMessage)
    assert (m.subtype, m.is_error, m.num_turns) == ("success", False, 4)
    assert (m.duration_ms, m.duration_api_ms, m.total_cost_usd) == (9120, 8011, 0.0421)
    assert m.result == '{"files": 3}'
    assert m.structured_output == {"files": 3}
    assert m.usage is not None and m.usage.cache_read_tokens == 3072
    assert set(m.extra) == {"type"}  # the run details are typed
    assert m.stop_reason is not None and m.permission_denials is not None
    assert m.model_usage is not None and len(m.model_usage) >= 1
    failed = cc.decode(_line("stream.jsonl", 26))
    assert isinstance(failed, ResultMessage)
    assert failed.subtype == "error_max_turns" and failed.is_error is True
    assert failed.duration_api_ms == 110500.5
    assert failed.errors == ("Reached maximum number of turns (10)",)
    assert json_equal(cc.encode(failed)["total_cost_usd"], 1)


def test_init_fields() -> None:
    m = cc.decode(_line("stream.jsonl", 1))
    assert isinstance(m, InitMessage)
    assert m.cwd == "/home/dev/app"
    assert m.tools == ("Bash", "Read", "Edit")
    assert m.model == "claude-sonnet-4-5-20250929"
    assert m.extra["claude_code_version"] == "2.1.20"
    assert m.extra["subtype"] == "init"


def test_system_subtypes_are_typed_events_with_context() -> None:
    status, thinking, limit, started, done, boundary, hook = (
        cc.decode(_line("stream.jsonl", n)) for n in (2, 4, 12, 14, 18, 20, 21)
    )
    assert status == StatusMessage(
        "requesting",
        uuid="a1000000-0000-4000-8000-000000000002",
        session_id="5f0c1d2e-0000-4000-8000-000000000001",
        extra={"type": "system"},
    )
    assert isinstance(thinking, SystemEventMessage) and thinking.subtype == "thinking_tokens"
    assert thinking.data == {"estimated_tokens": 8, "estimated_tokens_delta": 8}
    assert isinstance(limit, RateLimitMessage)
    assert (limit.status, limit.resets_at, limit.rate_limit_type) == (
        "allowed",
        1768478400,
        "five_hour",
    )
    assert limit.info is not None and limit.info["isUsingOverage"] is False
    assert isinstance(started, TaskEventMessage) and started.subtype == "task_started"
    assert (started.task_id, started.task_type, started.description) == (
        "task-1",
        "local_agent",
        "Read README",
    )
    assert not started.is_terminal
    assert isinstance(done, TaskEventMessage) and done.status == "completed" and done.is_terminal
    assert isinstance(boundary, CompactBoundaryMessage)
    assert (boundary.trigger, boundary.pre_tokens) == ("auto", 150000)
    assert isinstance(hook, HookEventMessage)
    assert (hook.subtype, hook.hook_id, hook.event_name) == ("hook_started", "h1", "Stop")
    for m in (status, thinking, limit, started, done, boundary, hook):
        assert m.session_id == "5f0c1d2e-0000-4000-8000-000000000001"
        assert m.uuid is not None


@pytest.mark.parametrize("number", [9, 10, 27])
def test_control_and_unknown_lines_stay_raw(number: int) -> None:
    obj = _line("stream.jsonl", number)
    m = cc.decode(obj)
    assert isinstance(m, RawMessage) and m.data == obj


def test_stream_event() -> None:
    m = cc.decode(_line("stream.jsonl", 5))
    assert isinstance(m, StreamEventMessage)
    assert m.type == "content_block_delta"
    assert m.event["delta"] == {"type": "thinking_delta", "thinking": "List the files first."}
    assert m.extra == {"type": "stream_event", "parent_tool_use_id": None}


def test_transcript_records() -> None:
    user = cc.decode(_line("transcript.jsonl", 4))
    assert isinstance(user, UserMessage)
    assert user.session_id == "7d3e0000-0000-4000-8000-0000000000aa"
    assert user.timestamp == "2026-01-15T10:00:00.000Z"
    assert user.extra["sessionId"] == user.session_id
    assert user.extra["parentUuid"] is None
    assert "session_id" not in cc.encode(user)
    assistant = cc.decode(_line("transcript.jsonl", 6))
    assert isinstance(assistant, AssistantMessage)
    assert assistant.message_id == "msg_01TranscriptA"
    assert assistant.tool_uses[0].name == "Bash"
    assert assistant.extra["requestId"] == "req_011Transcript01"
    result = cc.decode(_line("transcript.jsonl", 7))
    assert isinstance(result, UserMessage)
    assert result.tool_results[0].text == "README.md\nsrc"
    hooks = cc.decode(_line("transcript.jsonl", 9))
    assert isinstance(hooks, SystemEventMessage) and hooks.subtype == "stop_hook_summary"
    assert hooks.data["hookCount"] == 1 and hooks.extra["sessionId"] == hooks.session_id
    kinds = [type(cc.decode(_line("transcript.jsonl", n))).__name__ for n in (1, 2, 3, 10)]
    assert kinds == [
        "TitleMessage",
        "QueueOperationMessage",
        "FileSnapshotMessage",
        "ProgressMessage",
    ]
    assert cc.detect(_line("transcript.jsonl", 1))


def test_both_session_id_spellings_stay_raw() -> None:
    obj = {"type": "user", "message": {"content": "x"}, "session_id": "a", "sessionId": "b"}
    m = cc.decode(obj)
    assert isinstance(m, RawMessage) and m.session_id == "b"
    assert json_equal(cc.encode(m), obj)


def test_block_missing_a_required_key_is_raw() -> None:
    blocks = [
        {"type": "text"},
        {"type": "tool_use", "name": "ls", "input": {}},
        {"type": "tool_result", "tool_use_id": "t"},
        {"type": "thinking", "signature": "s"},
        {"type": "redacted_thinking"},
        {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text"}]},
        {"type": "text", "text": "kept"},
    ]
    obj = {"type": "assistant", "message": {"content": blocks}}
    m = cc.decode(json.loads(json.dumps(obj)))
    assert isinstance(m, AssistantMessage)
    assert [type(b).__name__ for b in m.content] == ["RawBlock"] * 6 + ["TextBlock"]
    assert json_equal(cc.encode(m), obj)


def test_missing_message_or_content_keeps_line_raw() -> None:
    for obj in (
        {"type": "assistant"},
        {"type": "user", "message": {"role": "user"}},
        {"type": "stream_event"},
        {"type": "system"},
    ):
        m = cc.decode(dict(obj))
        assert isinstance(m, RawMessage) and m.data == obj


def test_non_object_lines_stay_raw() -> None:
    for value in ([1, 2], "text", 3, None, True):
        m = cc.decode(value)
        assert isinstance(m, RawMessage) and m.data == (
            tuple(value) if isinstance(value, list) else value
        )
        assert json_equal(cc.encode(m), value)


# -- errors ----------------------------------------------------------------------------------

ERRORS = [
    ({"type": "assistant", "message": "x"}, "$.message: expected an object, found a string"),
    (
        {"type": "assistant", "message": {"content": 5}},
        "$.message.content: expected a string or an array of blocks, found an integer",
    ),
    (
        {"type": "assistant", "message": {"content": [{"type": "text", "text": 5}]}},
        "$.message.content[0].text: expected a string, found an integer",
    ),
    (
        {"type": "assistant", "message": {"content": [], "usage": []}},
        "$.message.usage: expected an object, found an array",
    ),
    (
        {"type": "assistant", "message": {"content": [], "usage": {"input_tokens": "3"}}},
        "$.message.usage.input_tokens: expected an integer, found a string",
    ),
    (
        {"type": "assistant", "message": {"content": [], "model": 3}},
        "$.message.model: expected a string, found an integer",
    ),
    (
        {"type": "assistant", "message": {"content": []}, "error": 1},
        "$.error: expected a string, found an integer",
    ),
    (
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t",
                        "content": [{"type": "text", "text": None}],
                    }
                ]
            },
        },
        "$.message.content[0].content[0].text: expected a string, found null",
    ),
    ({"type": "result", "is_error": "no"}, "$.is_error: expected a boolean, found a string"),
    ({"type": "result", "num_turns": 1.5}, "$.num_turns: expected an integer, found a number"),
    (
        {"type": "system", "subtype": "init", "tools": "Bash"},
        "$.tools: expected an array, found a string",
    ),
    ({"type": "stream_event", "event": []}, "$.event: expected an object, found an array"),
    (
        {"type": "user", "message": {"content": "hi"}, "uuid": 7},
        "$.uuid: expected a string, found an integer",
    ),
    (
        {"type": "user", "message": {"content": "hi"}, "timestamp": []},
        "$.timestamp: expected a string or a number, found an array",
    ),
    (
        {"type": "user", "message": {"content": "hi"}, "sessionId": 1},
        "$.sessionId: expected a string, found an integer",
    ),
]


@pytest.mark.parametrize(("obj", "message"), ERRORS)
def test_decode_errors(obj: Any, message: str) -> None:
    assert_decode_error(cc, obj, f"claude_code: {message}")


# -- encoding messages from elsewhere --------------------------------------------------------


def test_flat_messages_become_one_block_lines() -> None:
    assert cc.encode(TextMessage("hi", session_id="s")) == {
        "type": "assistant",
        "session_id": "s",
        "message": {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "hi"}],
        },
    }
    assert cc.encode(TextMessage("yo", role="user")) == {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": "yo"}]},
    }


def test_tool_message_becomes_user_line() -> None:
    m = ToolMessage((ToolResultBlock("t1", "out", is_error=True),), uuid="u")
    assert cc.encode(m) == {
        "type": "user",
        "uuid": "u",
        "message": {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "out", "is_error": True}
            ],
        },
    }


def test_error_message_becomes_synthetic_assistant_error_line() -> None:
    out = cc.encode(ErrorMessage("overloaded", code="529", session_id="s"))
    assert out["error"] == "529"
    assert out["message"]["model"] == "<synthetic>"
    back = cc.decode(out)
    assert isinstance(back, AssistantMessage)
    assert (back.text, back.error) == ("overloaded", "529")


def test_system_prompt_policy() -> None:
    m = SystemMessage("Be brief.")
    with pytest.raises(UnsupportedContentError) as info:
        cc.encode(m)
    assert str(info.value) == (
        "claude_code: $: claude_code cannot carry system messages"
        " (pass unsupported='drop' or 'text')"
    )
    assert cc.encode(m, unsupported="drop") is None
    assert cc.encode(m, unsupported="text") == {
        "type": "user",
        "message": {"role": "user", "content": "Be brief."},
    }
    junk = InvalidLineMessage("junk", line=3)
    assert list(cc.iter_encode([junk, m], unsupported="drop")) == ["junk"]


def test_audio_and_foreign_signatures_policy() -> None:
    audio = AudioBlock(data="AAAA", media_type="audio/wav")
    signed = ThinkingBlock("hmm", signature="sig", provider="openai")
    m = AssistantMessage((TextBlock("a"), audio, signed))
    with pytest.raises(UnsupportedContentError, match="audio blocks") as info:
        cc.encode(m)
    assert info.value.path == "$.content[1]"
    with pytest.raises(UnsupportedContentError, match="openai thinking blocks"):
        cc.encode(AssistantMessage((signed,)))
    assert cc.encode(m, unsupported="drop")["message"]["content"] == [{"type": "text", "text": "a"}]
    assert cc.encode(m, unsupported="text")["message"]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "[audio: audio/wav, 3 bytes]"},
        {"type": "text", "text": "[thinking: hmm]"},
    ]
    unsigned = ThinkingBlock("plain", provider="openai")
    assert cc.encode(AssistantMessage((unsigned,)))["message"]["content"] == [
        {"type": "thinking", "thinking": "plain"}
    ]


def test_extras_of_other_formats_are_not_written() -> None:
    codex_text = cx.decode(
        {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": "t"}}
    )
    assert cc.encode(codex_text)["message"]["content"] == [{"type": "text", "text": "t"}]
    codex_result = cx.decode({"type": "turn.completed", "usage": {"input_tokens": 5}})
    assert cc.encode(codex_result) == {
        "type": "result",
        "is_error": False,
        "usage": {"input_tokens": 5},
    }


def test_hand_made_extra_is_written() -> None:
    m = AssistantMessage("hi", extra={"request_id": "r1"})
    assert cc.encode(m)["request_id"] == "r1"


def test_raw_block_message_goes_into_a_role_line() -> None:
    m = RawMessage({"type": "server_tool_use", "id": "s"}, role="assistant")
    assert cc.encode(m)["message"]["content"] == [{"type": "server_tool_use", "id": "s"}]


# -- merge -----------------------------------------------------------------------------------


def test_merge_joins_records_of_one_message_id() -> None:
    merged = list(
        cc.merge(cc.iter_decode((LOCAL / "stream.jsonl").read_text("utf-8").splitlines()))
    )
    first = next(m for m in merged if isinstance(m, AssistantMessage))
    assert first.message_id == "msg_01HandMadeAAA"
    assert [b.kind for b in first.blocks] == ["thinking", "text", "tool_use"]
    assert first.stop_reason == "tool_use"
    assert first.usage is not None and first.usage.output_tokens == 40
    assert len(merged) == 25


def test_partial_messages_are_said_once_in_the_flat_view() -> None:
    """``--include-partial-messages`` streams every block as events before its line."""
    path = LOCAL_FIXTURES / "same_conversation" / "claude_code.jsonl"
    messages = list(cc.iter_decode(path.read_text("utf-8").splitlines(), strict=True))
    records = [m.message_id for m in messages if isinstance(m, AssistantMessage)]
    assert records == ["msg_01Vq7Rk3Nx8Wd2Lm5Tc9Yb4Hs"] * 2 + ["msg_01Jp4Tn8Bw2Xc6Rk9Lm3Vd7Qf"]
    # the text deltas preview the answer; they stay stream events
    deltas = "".join(
        m.event["delta"]["text"]  # type: ignore[index]
        for m in messages
        if isinstance(m, StreamEventMessage)
        and m.type == "content_block_delta"
        and m.event["delta"]["type"] == "text_delta"  # type: ignore[index]
    )
    merged = list(cc.merge(messages))
    turns = [m for m in merged if isinstance(m, AssistantMessage)]
    assert [[b.kind for b in m.blocks] for m in turns] == [["thinking", "tool_use"], ["text"]]
    flat = [m for m in normalize_messages(merged) if m.kind in ("text", "thinking", "tool_use")]
    assert [m.kind for m in flat] == ["thinking", "tool_use", "text"]
    assert isinstance(flat[2], TextMessage) and flat[2].text == deltas
    assert list(cc.merge(merged)) == merged


def test_merge_joins_a_real_partial_messages_session_into_turns() -> None:
    path = shared_fixtures("claude_code", "caic-tool-error.jsonl")
    messages = list(cc.iter_decode(path.read_text("utf-8").splitlines()))
    merged = list(cc.merge(messages))
    turns = [m for m in merged if isinstance(m, AssistantMessage)]
    assert [[b.kind for b in m.blocks] for m in turns] == [
        ["thinking", "tool_use"],
        ["thinking", "text"],
    ]
    # nothing is lost: the stream events move after the turn they preview
    assert sorted(map(repr, merged)) == sorted(
        map(repr, [m for m in messages if not isinstance(m, AssistantMessage)] + turns)
    )


# -- detection -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["stream.jsonl", "transcript.jsonl"])
def test_detect_accepts_claude_lines_but_those_with_nothing_claude_specific(name: str) -> None:
    for _, obj in wire_objects(LOCAL / name):
        assert cc.detect(obj) == (obj["type"] not in UNDETECTED), obj


# -- laws ------------------------------------------------------------------------------------


def _carried_block(block: Any) -> bool:
    if isinstance(block, AudioBlock):
        return False
    return not (
        isinstance(block, ThinkingBlock)
        and block.signature is not None
        and block.provider not in (None, "anthropic")
    )


CARRIED_BLOCKS = ms.blocks(
    kinds=["text", "thinking", "tool_use", "tool_result", "image", "raw"]
).filter(_carried_block)


def _norm_block(block: Any) -> Any:
    if isinstance(block, ThinkingBlock):
        return replace(block, provider="anthropic")
    if isinstance(block, ToolUseBlock):
        return replace(block, arguments=None)
    if isinstance(block, ToolResultBlock):
        return replace(block, name=None)
    return block


def _norm_usage(usage: Usage | None) -> Usage | None:
    if usage is None:
        return None
    return replace(usage, reasoning_tokens=None, cost_usd=None)


def normalised(m: Any) -> Any:
    """What a message looks like after a trip through Claude Code (documented losses)."""
    changes: dict[str, Any] = {"extra": EMPTY}
    if isinstance(m, (AssistantMessage, UserMessage)) and not isinstance(m.content, str):
        changes["content"] = tuple(_norm_block(b) for b in m.content)
    if isinstance(m, (AssistantMessage, ResultMessage)):
        changes["usage"] = _norm_usage(m.usage)
    if isinstance(m, ResultMessage) and m.subtype is None and m.is_error is None:
        changes["subtype"] = "success"  # a result line always says how the run ended
    if not isinstance(m, AssistantMessage):  # only assistant and init lines name a model
        changes["model"] = m.model if isinstance(m, InitMessage) else None
    changes["message_id"] = m.message_id if isinstance(m, AssistantMessage) else None
    return replace(m, **changes)


CARRIED = st.one_of(
    ms.assistant_messages(content=CARRIED_BLOCKS),
    ms.role_messages(content=CARRIED_BLOCKS).filter(lambda m: isinstance(m, UserMessage)),
    ms.harness_user_messages(content=CARRIED_BLOCKS),
    ms.session_messages().filter(
        lambda m: isinstance(m, (ResultMessage, InitMessage, StreamEventMessage))
    ),
    ms.agent_events(),
)


@given(CARRIED)
def test_decode_of_encode_is_identity_up_to_documented_losses(m: Any) -> None:
    back = cc.decode(cc.encode(m))
    assert normalised(back) == normalised(m)


@given(CARRIED)
def test_encode_is_stable_after_one_trip(m: Any) -> None:
    once = cc.encode(m)
    assert json_equal(cc.encode(cc.decode(once)), once)


def test_a_url_image_keeps_its_media_type_and_every_other_field() -> None:
    image = ImageBlock(url="https://x/a.png", media_type="image/png")
    line = cc.encode(UserMessage((image,)))
    assert line["message"]["content"][0]["source"] == {
        "type": "url",
        "url": "https://x/a.png",
        "media_type": "image/png",
    }
    assert cc.decode(line).content == (image,)
    both = ImageBlock(data="iVBORw0KGgo=", url="https://x/a.png", file_id="f1")
    assert cc.decode(cc.encode(UserMessage((both,)))).content == (both,)
