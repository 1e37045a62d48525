"""Copilot CLI JSONL adapter: hand-made streams, mapping rules, errors, policies, laws."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ROOT
from conftest import json_equal
from messages import AssistantMessage
from messages import ErrorMessage
from messages import ImageMessage
from messages import InitMessage
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import strategies as ms
from messages.adapters import copilot as cp
from messages.convert import normalize_messages
from support.adapter_files import assert_decode_error
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import read


def ev(kind: str, data: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"type": kind, "data": data, "id": "e1", "timestamp": "2026-10-02T09:14:05.988Z"} | top


# --- hand-made streams ----------------------------------------------------------------------


def test_a_run_decodes_to_the_expected_kinds() -> None:
    messages = read(cp, local("copilot", "run-read-edit.jsonl"))
    assert [m.kind for m in messages][:3] == ["init", "stream_event", "text"]
    # written out per fixture on purpose (OpenCode's run reads alike): each stands alone
    assert flat_kinds(messages) == [
        "text(user)",
        "thinking(assistant)",
        "text(assistant)",
        "tool_use",
        "tool_result",
        "tool_use",
        "tool_result",
        "text(assistant)",
    ]
    final = messages[-1]
    assert isinstance(final, ResultMessage)
    assert (final.is_error, final.duration_ms, final.duration_api_ms) == (False, 7204, 6812)
    for line in local("copilot", "run-read-edit.jsonl").read_text("utf-8").splitlines():
        assert cp.detect(json.loads(line))


# --- mapping rules -------------------------------------------------------------------------


def test_user_message() -> None:
    m = cp.decode(ev("user.message", {"content": "hi", "attachments": []}, parentId="e0"))
    assert m == TextMessage(
        "hi",
        role="user",
        uuid="e1",
        timestamp="2026-10-02T09:14:05.988Z",
        extra={"parentId": "e0", "data": {"attachments": []}},
    )


def test_assistant_message_is_one_turn() -> None:
    request = {
        "toolCallId": "call_1",
        "name": "bash",
        "arguments": {"command": "ls"},
        "type": "function",
        "intentionSummary": "list files",
    }
    data = {
        "messageId": "m1",
        "model": "claude-sonnet-4.5",
        "content": "Listing.",
        "toolRequests": [request],
        "reasoningOpaque": "sig",
        "reasoningText": "I should list.",
        "outputTokens": 42,
        "turnId": "0",
    }
    m = cp.decode(ev("assistant.message", data))
    assert isinstance(m, AssistantMessage)
    assert m.content == (
        ThinkingBlock("I should list.", signature="sig"),
        TextBlock("Listing."),
        ToolUseBlock(
            "call_1",
            "bash",
            {"command": "ls"},
            extra={"type": "function", "intentionSummary": "list files"},
        ),
    )
    assert (m.model, m.message_id, m.usage) == ("claude-sonnet-4.5", "m1", Usage(output_tokens=42))
    assert m.extra == {"data": {"turnId": "0"}}


def test_tool_request_arguments() -> None:
    requests = [
        {"toolCallId": "a", "name": "r", "arguments": '{"filePath": "x"}'},
        {"toolCallId": "b", "name": "r", "arguments": "{not json"},
        {"toolCallId": "c", "name": "r", "arguments": {}},
        {"toolCallId": "d", "name": "r"},
    ]
    m = cp.decode(ev("assistant.message", {"content": "", "toolRequests": requests}))
    a, b, c, d = m.content  # type: ignore[misc]
    assert (dict(a.input), a.arguments) == ({"filePath": "x"}, '{"filePath": "x"}')
    assert b.invalid_arguments and not b.input
    assert c.extra == {"arguments": {}} and not c.input
    assert d == ToolUseBlock("d", "r")
    assert m.extra == {"data": {"content": ""}}


def test_opaque_reasoning_alone_is_a_redacted_thinking_block() -> None:
    m = cp.decode(ev("assistant.message", {"content": "", "reasoningOpaque": "enc"}))
    assert m.content == (ThinkingBlock("", signature="enc", redacted=True),)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "kind",
    [
        "assistant.message_delta",
        "assistant.reasoning_delta",
        "assistant.reasoning",
        "assistant.turn_start",
        "session.idle",
        "subagent.started",
    ],
)
def test_previews_and_lifecycle_events_are_stream_events(kind: str) -> None:
    obj = ev(kind, {"messageId": "m1", "deltaContent": "x"}, ephemeral=True)
    m = cp.decode(obj)
    assert isinstance(m, StreamEventMessage)
    assert (m.uuid, m.message_id, m.type) == ("e1", "m1", kind)
    assert json_equal(cp.encode(m), obj)


def test_tool_execution_complete() -> None:
    ok = cp.decode(
        ev(
            "tool.execution_complete",
            {"toolCallId": "c1", "success": True, "result": {"content": "done", "x": 1}},
        )
    )
    assert ok == ToolResultMessage(
        "c1",
        "done",
        is_error=False,
        uuid="e1",
        timestamp="2026-10-02T09:14:05.988Z",
        extra={"data": {"result": {"x": 1}}},
    )
    failed = cp.decode(
        ev(
            "tool.execution_complete",
            {"toolCallId": "c1", "success": False, "error": {"message": "exit code 1"}},
        )
    )
    assert (failed.content, failed.is_error) == ("exit code 1", True)  # type: ignore[union-attr]


def test_usage_start_error_and_result() -> None:
    usage = cp.decode(
        ev(
            "assistant.usage",
            {"model": "gpt-5", "inputTokens": 120, "outputTokens": 30, "cost": 2, "duration": 9},
        )
    )
    assert isinstance(usage, ResultMessage)
    assert usage.usage == Usage(120, 30)
    assert (usage.model, usage.duration_api_ms, usage.extra["data"]) == ("gpt-5", 9, {"cost": 2})
    start = cp.decode(ev("session.start", {"sessionId": "s1", "context": {"cwd": "/w", "b": 1}}))
    assert start == InitMessage(
        cwd="/w",
        session_id="s1",
        uuid="e1",
        timestamp="2026-10-02T09:14:05.988Z",
        extra={"data": {"context": {"b": 1}}},
    )
    error = cp.decode(ev("session.error", {"errorType": "quota", "message": "quota exceeded"}))
    assert (error.message, error.code) == ("quota exceeded", "quota")  # type: ignore[union-attr]
    final = cp.decode(
        {"type": "result", "sessionId": "s1", "exitCode": 0, "usage": {"sessionDurationMs": 5}}
    )
    assert final == ResultMessage(is_error=False, duration_ms=5, session_id="s1")


def test_unknown_lines_are_kept_raw() -> None:
    for obj in ({"type": "caic_meta"}, {"type": "hook.x"}, {"exitCode": 0}):
        assert cp.decode(obj) == RawMessage(obj)


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ({"type": "user.message"}, "copilot: $.data: expected an object, found nothing"),
        (
            ev("user.message", {"content": 1}),
            "copilot: $.data.content: expected a string, found an integer",
        ),
        (
            ev("assistant.message", {"toolRequests": {}}),
            "copilot: $.data.toolRequests: expected an array, found an object",
        ),
        (
            ev("assistant.message", {"toolRequests": [{"toolCallId": "a", "name": "b"}, "x"]}),
            "copilot: $.data.toolRequests[1]: expected an object, found a string",
        ),
        (
            ev(
                "assistant.message",
                {"toolRequests": [{"toolCallId": "a", "name": "b", "arguments": 3}]},
            ),
            "copilot: $.data.toolRequests[0].arguments: expected an object or a string,"
            " found an integer",
        ),
        (
            ev("assistant.message", {"reasoningText": 3}),
            "copilot: $.data.reasoningText: expected a string, found an integer",
        ),
        (
            ev("tool.execution_complete", {"toolCallId": "c", "success": "yes"}),
            "copilot: $.data.success: expected a boolean, found a string",
        ),
        (
            ev("tool.execution_complete", {"toolCallId": "c", "result": {"content": 1}}),
            "copilot: $.data.result.content: expected a string, found an integer",
        ),
        (
            {"type": "result", "exitCode": True},
            "copilot: $.exitCode: expected an integer, found a boolean",
        ),
        (
            {"type": "result", "exitCode": 0, "usage": {"sessionDurationMs": "5"}},
            "copilot: $.usage.sessionDurationMs: expected a number, found a string",
        ),
        (ev("session.error", {}), "copilot: $.data.message: expected a string, found nothing"),
        ("line", "copilot: $: expected an object, found a string"),
    ],
)
def test_bad_shapes_raise_with_a_path(obj: Any, text: str) -> None:
    assert_decode_error(cp, obj, text)


def test_merge_passes_whole_messages_through() -> None:
    messages = read(cp, local("copilot", "run-read-edit.jsonl"))
    assert list(cp.merge(messages)) == messages


# --- encoding from other sources ----------------------------------------------------------


def test_a_claude_turn_becomes_one_assistant_message() -> None:
    turn = AssistantMessage(
        (
            ThinkingBlock("plan", signature="s1"),
            TextBlock("Listing."),
            ToolUseBlock("t1", "Bash", {"command": "ls"}),
        ),
        model="claude-sonnet-4-5",
        usage=Usage(10, 20),
    )
    assert cp.encode(turn) == {
        "type": "assistant.message",
        "data": {
            "model": "claude-sonnet-4-5",
            "content": "Listing.",
            "toolRequests": [{"toolCallId": "t1", "name": "Bash", "arguments": {"command": "ls"}}],
            "reasoningText": "plan",
            "reasoningOpaque": "s1",
            "outputTokens": 20,
        },
    }


def test_flat_messages_from_elsewhere() -> None:
    assert cp.encode(ToolUseMessage("c", "ls", {}))["data"] == {
        "toolRequests": [{"toolCallId": "c", "name": "ls"}]
    }
    assert cp.encode(ThinkingMessage("hm"))["data"] == {"reasoningText": "hm"}
    assert cp.encode(TextMessage("a", uuid="u1"))["data"] == {"content": "a"}
    assert cp.encode(ToolResultMessage("c", "boom", is_error=True))["data"] == {
        "toolCallId": "c",
        "success": False,
        "error": {"message": "boom"},
    }
    assert cp.encode(InitMessage(session_id="s", cwd="/w", model="m"))["data"] == {
        "sessionId": "s",
        "model": "m",
        "context": {"cwd": "/w"},
    }
    assert cp.encode(ErrorMessage("no", code="quota"))["data"] == {
        "message": "no",
        "errorType": "quota",
    }


def test_a_result_that_only_reports_usage_is_a_usage_event() -> None:
    assert cp.encode(ResultMessage(usage=Usage(5, 1)))["type"] == "assistant.usage"
    claude = ResultMessage(subtype="success", is_error=False, duration_ms=9, usage=Usage(5, 1))
    assert cp.encode(claude) == {"type": "result", "exitCode": 0, "usage": {"sessionDurationMs": 9}}


def test_what_copilot_cannot_carry() -> None:
    with pytest.raises(UnsupportedContentError) as info:
        cp.encode(TextMessage("be brief", role="system"))
    assert str(info.value) == (
        "copilot: $: Copilot has no event for text from the system role"
        " (pass unsupported='drop' or 'text')"
    )
    image = ImageMessage(media_type="image/png", data="AAAA")
    assert cp.encode(image, unsupported="drop") is None
    described = cp.encode(image, unsupported="text")["data"]
    assert described == {"content": "[image: image/png, 3 bytes]"}
    with pytest.raises(UnsupportedContentError):
        cp.encode(StreamEventMessage({"type": "message_start"}))
    lines = list(
        cp.iter_encode(
            [SystemMessage("be brief"), TextMessage("hi", role="user")], unsupported="drop"
        )
    )
    assert len(lines) == 1


# --- laws ---------------------------------------------------------------------------------------

_ids = st.text("abcdef0123456789-", min_size=1, max_size=12)
_time = st.none() | st.just("2026-10-02T09:14:05.988Z")
_count = st.none() | st.integers(min_value=0, max_value=10**7)
_dict = ms.json_objects().filter(bool)


@st.composite
def _request(draw: st.DrawFn) -> ToolUseBlock:
    args = draw(_dict)
    if draw(st.booleans()):
        text = json.dumps(args.thaw())
        return ToolUseBlock(draw(_ids), draw(_ids), args, arguments=text)
    return ToolUseBlock(draw(_ids), draw(_ids), args)


@st.composite
def _turn(draw: st.DrawFn) -> AssistantMessage:
    blocks: list[Any] = []
    if draw(st.booleans()):
        if draw(st.booleans()):
            blocks.append(ThinkingBlock("", signature=draw(_ids), redacted=True))
        else:
            blocks.append(ThinkingBlock(draw(st.text()), signature=draw(st.none() | _ids)))
    text = draw(st.text())
    if text:
        blocks.append(TextBlock(text))
    blocks += draw(st.lists(_request(), max_size=2))
    output = draw(_count)
    return AssistantMessage(
        tuple(blocks),
        usage=None if output is None else Usage(output_tokens=output),
        model=draw(st.none() | _ids),
        message_id=draw(st.none() | _ids),
        uuid=draw(st.none() | _ids),
        timestamp=draw(_time),
    )


@st.composite
def _carried(draw: st.DrawFn) -> Any:
    uuid, ts = draw(st.none() | _ids), draw(_time)
    kind = draw(st.sampled_from(["user", "turn", "result", "init", "error", "final", "usage"]))
    if kind == "user":
        return TextMessage(draw(st.text()), role="user", uuid=uuid, timestamp=ts)
    if kind == "turn":
        return draw(_turn())
    if kind == "result":
        return ToolResultMessage(
            draw(_ids), draw(st.text()), is_error=draw(st.none() | st.booleans()), uuid=uuid
        )
    if kind == "init":
        return InitMessage(
            session_id=draw(st.none() | _ids), cwd=draw(st.none() | st.just("/w")), uuid=uuid
        )
    if kind == "error":
        return ErrorMessage(draw(st.text()), code=draw(st.none() | _ids), uuid=uuid, timestamp=ts)
    if kind == "final":
        return ResultMessage(  # the final line always has an exit code
            is_error=draw(st.booleans()),
            duration_ms=draw(_count),
            duration_api_ms=draw(_count),
            session_id=draw(st.none() | _ids),
            timestamp=ts,
        )
    usage = Usage(
        draw(_count), draw(_count), draw(_count), draw(_count), reasoning_tokens=draw(_count)
    )
    return ResultMessage(
        usage=usage, model=draw(st.none() | _ids), duration_api_ms=draw(_count), uuid=uuid
    )


@given(_carried())
def test_carried_messages_survive_a_round_trip(m: Any) -> None:
    wire = cp.encode(m)
    assert cp.detect(wire)
    assert cp.decode(wire) == m


def test_an_empty_turn_is_an_empty_assistant_message() -> None:
    assert list(cp.iter_encode([AssistantMessage(())])) == [
        '{"type":"assistant.message","data":{}}'
    ]


# --- a tool call is given once, wherever the stream first announces it --------------------

START = ev(
    "tool.execution_start",
    {
        "toolCallId": "call_E1",
        "toolName": "task_complete",
        "arguments": {"summary": "Replied with ok."},
        "turnId": "0",
        "model": "gpt-5-mini",
        "toolTitle": "Task complete",
    },
)
DONE = ev(
    "tool.execution_complete",
    {"toolCallId": "call_E1", "success": True, "result": {"content": "Replied with ok."}},
)


def _reply(requests: list[Any]) -> dict[str, Any]:
    return ev("assistant.message", {"messageId": "m1", "content": "ok", "toolRequests": requests})


REQUEST = {"toolCallId": "call_E1", "name": "task_complete", "arguments": {"summary": "x"}}


@pytest.mark.parametrize(
    "lines",
    [
        [_reply([]), START, DONE],  # Copilot CLI 1.0.x: only the execution event names it
        [_reply([REQUEST]), START, DONE],  # both: the request first
        [START, _reply([REQUEST]), DONE],  # both: the execution event first
        [_reply([REQUEST]), DONE],  # only the request
    ],
    ids=["start-only", "both", "start-first", "request-only"],
)
def test_a_call_is_given_once_wherever_it_is_announced(lines: list[Any]) -> None:
    wire = [json.dumps(x) for x in lines]
    decoded = list(cp.iter_decode(wire, strict=True))
    flat = list(normalize_messages(decoded))
    calls = [m for m in flat if isinstance(m, ToolUseMessage)]
    assert [(c.id, c.name) for c in calls] == [("call_E1", "task_complete")]
    results = [m for m in flat if isinstance(m, ToolResultMessage)]
    assert [r.tool_use_id for r in results] == ["call_E1"]
    assert flat.index(calls[0]) < flat.index(results[0])
    written = list(cp.iter_encode(decoded))
    assert [json.loads(x) for x in written] == lines


def test_an_execution_start_alone_is_the_call() -> None:
    m = cp.decode(START)
    assert isinstance(m, ToolUseMessage)
    assert (m.id, m.name, dict(m.input), m.model, m.uuid) == (
        "call_E1",
        "task_complete",
        {"summary": "Replied with ok."},
        "gpt-5-mini",
        "e1",
    )
    assert json_equal(cp.encode(m), START)
    # from another format, a call is written as the model's turn
    assert cp.encode(ToolUseMessage("c", "ls"))["type"] == "assistant.message"
    text_args = ev("tool.execution_start", {"toolCallId": "c", "toolName": "ls", "arguments": "{}"})
    assert json_equal(cp.encode(cp.decode(text_args)), text_args)


def test_the_session_state_folder_is_a_default_folder_read_session_by_session(
    tmp_path: Path,
) -> None:
    """``~/.copilot/session-state/<id>/events.jsonl`` (and older ``<id>.jsonl``) are found."""
    from messages.cli.io import default_folders
    from messages.sessions import find

    state = tmp_path / ".copilot" / "session-state"
    (state / "3f6c2a91").mkdir(parents=True)
    shutil.copy(
        ROOT / "tests" / "fixtures" / "copilot" / "run-read-edit.jsonl",
        state / "3f6c2a91" / "events.jsonl",
    )
    shutil.copy(
        ROOT / "tests" / "fixtures" / "copilot" / "run-task-complete.jsonl", state / "older.jsonl"
    )
    (state / "3f6c2a91" / "workspace.yaml").write_text("cwd: /workspace\n")
    env = {"HOME": str(tmp_path)}
    assert default_folders(env) == [str(state)]
    found = {(s.agent, s.id) for s in find(env)}
    # a loose file is named by its session.start's sessionId where it has one
    assert found == {("copilot", "3f6c2a91"), ("copilot", "5e0b7c21-94d3-4a8f-b612-0c9e4d7a3f58")}
