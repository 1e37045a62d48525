"""OpenCode ``run --format json`` adapter: hand-made streams, mapping rules, errors, laws."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import DecodeError
from messages import ErrorMessage
from messages import ImageMessage
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.adapters import opencode as oc
from support.adapter_files import assert_decode_error
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import read

SID = "ses_1"


def event(kind: str, part: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, "timestamp": 1772031601631, "sessionID": SID}
    if part is not None:
        out["part"] = part
    out.update(top)
    return out


def tool_part(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "prt_1",
        "sessionID": SID,
        "messageID": "msg_1",
        "type": "tool",
        "callID": "call_1",
        "tool": "read",
        "state": state,
    }


# --- hand-made streams ----------------------------------------------------------------------


def test_a_run_decodes_to_the_expected_kinds() -> None:
    messages = read(oc, local("opencode", "run-read-edit.jsonl"))
    kinds = [m.kind for m in messages]
    assert kinds[:5] == ["stream_event", "thinking", "text", "assistant", "result"]
    assert kinds.count("result") == 4
    # written out per fixture on purpose (Copilot's run reads alike): each stands alone
    assert flat_kinds(messages) == [
        "thinking(assistant)",
        "text(assistant)",
        "tool_use",
        "tool_result",
        "tool_use",
        "tool_result",
        "tool_use",
        "tool_result",
        "text(assistant)",
    ]
    total = Usage.sum(m.usage for m in messages if isinstance(m, ResultMessage))
    assert total.output_tokens == 96 + 141 + 120 + 38
    assert total.cost_usd == pytest.approx(0.004218 + 0.00391 + 0.003867)


def test_every_hand_made_line_is_detected() -> None:
    for name in ("run-read-edit.jsonl", "run-model-error.jsonl"):
        for line in local("opencode", name).read_text("utf-8").splitlines():
            if line.startswith("{"):
                assert oc.detect(json.loads(line))


# --- mapping rules -------------------------------------------------------------------------


def test_text_and_reasoning() -> None:
    part = {"id": "prt_1", "messageID": "msg_1", "type": "text", "text": "Hi.", "time": {"end": 2}}
    m = oc.decode(event("text", part))
    assert m == TextMessage(
        "Hi.",
        uuid="prt_1",
        session_id=SID,
        message_id="msg_1",
        timestamp=1772031601631,
        extra={"part": {"time": {"end": 2}}},
    )
    meta = {"anthropic": {"signature": "abc"}}
    thought = oc.decode(event("reasoning", {"type": "reasoning", "text": "hm", "metadata": meta}))
    assert isinstance(thought, ThinkingMessage)
    assert thought.thinking == "hm" and thought.signature is None
    assert thought.extra == {"part": {"metadata": meta}}


def test_a_finished_tool_part_holds_the_call_and_its_result() -> None:
    state = {"status": "completed", "input": {"filePath": "/a"}, "output": "x", "title": "a"}
    m = oc.decode(event("tool_use", tool_part(state)))
    assert isinstance(m, AssistantMessage)
    assert m.content == (
        ToolUseBlock("call_1", "read", {"filePath": "/a"}),
        ToolResultBlock("call_1", "x", is_error=False, name="read"),
    )
    assert (m.uuid, m.message_id, m.session_id) == ("prt_1", "msg_1", SID)
    assert m.extra == {"part": {"sessionID": SID, "state": {"title": "a"}}}


def test_a_failed_tool_part_is_an_error_result() -> None:
    state = {"status": "error", "input": {}, "error": "Error: oldString not found"}
    m = oc.decode(event("tool_use", tool_part(state)))
    assert m.content[1] == ToolResultBlock(  # type: ignore[union-attr]
        "call_1", "Error: oldString not found", is_error=True, name="read"
    )


@pytest.mark.parametrize("status", ["pending", "running", "aborted"])
def test_an_unfinished_tool_part_is_a_call(status: str) -> None:
    obj = event("tool_use", tool_part({"status": status, "input": {"command": "ls"}}))
    m = oc.decode(obj)
    assert isinstance(m, ToolUseMessage)
    assert (m.id, m.name, dict(m.input)) == ("call_1", "read", {"command": "ls"})
    assert json_equal(oc.encode(m), obj)


def test_step_finish_usage_and_cost() -> None:
    tokens = {"total": 13451, "input": 846, "output": 445, "reasoning": 0}
    tokens["cache"] = {"read": 12160, "write": 0}
    part = {"id": "prt_9", "messageID": "msg_1", "type": "step-finish", "reason": "stop"}
    m = oc.decode(event("step_finish", part | {"cost": 0.052152, "tokens": tokens}))
    assert isinstance(m, ResultMessage)
    assert m.subtype == "stop"
    assert m.usage == Usage(
        846, 445, 12160, 0, reasoning_tokens=0, cost_usd=0.052152, extra={"total": 13451}
    )
    assert m.usage.total_tokens == 13451


@pytest.mark.parametrize(
    "extra_part",
    [{"tokens": {}}, {"cost": 0}, {"tokens": {"cache": {}}}, {"tokens": {"input": None}}, {}],
)
def test_step_finish_edge_shapes_round_trip(extra_part: dict[str, Any]) -> None:
    obj = event("step_finish", {"type": "step-finish"} | extra_part)
    assert json_equal(oc.encode(oc.decode(obj)), obj)


def test_error_events() -> None:
    data = {"message": "Model not found: x/y.", "ref": "err_1"}
    m = oc.decode(event("error", error={"name": "UnknownError", "data": data}))
    assert m == ErrorMessage(
        "Model not found: x/y.",
        code="UnknownError",
        session_id=SID,
        timestamp=1772031601631,
        extra={"error": {"data": {"ref": "err_1"}}},
    )
    bare = oc.decode({"type": "error", "error": {"name": "MessageOutputLengthError", "data": {}}})
    assert (bare.message, bare.code) == ("", "MessageOutputLengthError")  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["step_start", "done"])
def test_lifecycle_events_are_kept_as_stream_events(kind: str) -> None:
    obj = event(kind, {"id": "prt_1", "messageID": "msg_1", "type": "step-start"})
    m = oc.decode(obj)
    assert isinstance(m, StreamEventMessage)
    assert (m.session_id, m.message_id, m.uuid) == (SID, "msg_1", "prt_1")
    assert json_equal(oc.encode(m), obj)


def test_unknown_events_are_kept_raw() -> None:
    obj = {"type": "session.compacted", "sessionID": SID}
    assert oc.decode(obj) == RawMessage(obj)
    assert oc.encode(RawMessage(obj)) == obj


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ({"type": "text"}, "opencode: $.part: expected an object, found nothing"),
        (
            {"type": "text", "part": {"type": "reasoning", "text": "x"}},
            "opencode: $.part.type: expected 'text', found 'reasoning'",
        ),
        (
            {"type": "text", "part": {"text": "x"}},
            "opencode: $.part.type: expected 'text', found nothing",
        ),
        (
            {"type": "text", "part": {"type": "text"}},
            "opencode: $.part.text: expected a string, found nothing",
        ),
        (
            {"type": "tool_use", "part": {"type": "tool", "callID": "c", "tool": "t"}},
            "opencode: $.part.state: expected an object, found nothing",
        ),
        (
            {"type": "tool_use", "part": tool_part({"status": "completed", "input": {}})},
            "opencode: $.part.state.output: expected a string, found nothing",
        ),
        (
            {"type": "tool_use", "part": tool_part({"status": "completed", "input": [1]})},
            "opencode: $.part.state.input: expected an object, found an array",
        ),
        (
            {"type": "step_finish", "part": {"type": "step-finish", "tokens": {"input": "1"}}},
            "opencode: $.part.tokens.input: expected an integer, found a string",
        ),
        (
            {"type": "step_finish", "part": {"type": "step-finish", "cost": "0.1"}},
            "opencode: $.part.cost: expected a number, found a string",
        ),
        (
            {"type": "error", "error": "Connection lost"},
            "opencode: $.error: expected an object, found a string",
        ),
        (
            {"type": "error", "error": {"data": {"message": 5}}},
            "opencode: $.error.data.message: expected a string, found an integer",
        ),
        (
            {"type": "text", "sessionID": 5, "part": {"type": "text", "text": ""}},
            "opencode: $.sessionID: expected a string, found an integer",
        ),
    ],
)
def test_bad_shapes_raise_with_a_path(obj: Any, text: str) -> None:
    assert_decode_error(oc, obj, text)


def test_stderr_noise_does_not_stop_the_stream() -> None:
    lines = local("opencode", "run-model-error.jsonl").read_text("utf-8").splitlines()
    out = list(oc.iter_decode(lines))
    assert isinstance(out[0], InvalidLineMessage) and out[0].line == 1
    assert [m.kind for m in out[1:]] == ["error", "error", "error"]
    with pytest.raises(DecodeError) as info:
        list(oc.iter_decode(lines, strict=True))
    assert info.value.line == 1


def test_merge_passes_messages_through() -> None:
    stream = [TextMessage("a"), TextMessage("b")]
    assert list(oc.merge(stream)) == stream


# --- encoding from other sources ----------------------------------------------------------


def test_user_text_and_init_have_no_event() -> None:
    with pytest.raises(UnsupportedContentError) as info:
        oc.encode(TextMessage("hi", role="user"))
    assert str(info.value) == (
        "opencode: $: OpenCode run output has no user text event"
        " (pass unsupported='drop' or 'text')"
    )
    assert oc.encode(TextMessage("hi", role="user"), unsupported="text") is None
    assert oc.encode(InitMessage(session_id="s"), unsupported="drop") is None


def test_media_degrades_to_assistant_text() -> None:
    image = ImageMessage(url="https://x/a.png", role="assistant")
    assert oc.encode(image, unsupported="text")["part"] == {
        "type": "text",
        "text": "[image: https://x/a.png]",
    }


def test_lone_calls_and_results() -> None:
    call = oc.encode(ToolUseMessage("c1", "bash", {"command": "ls"}, session_id="s"))
    assert call == {
        "type": "tool_use",
        "sessionID": "s",
        "part": {
            "type": "tool",
            "callID": "c1",
            "tool": "bash",
            "state": {"status": "running", "input": {"command": "ls"}},
        },
    }
    result = oc.encode(ToolResultMessage("c1", "boom", is_error=True, name="bash"))
    assert result["part"]["state"] == {"status": "error", "input": {}, "error": "boom"}


def test_iter_encode_pairs_a_call_with_its_result() -> None:
    claude_turns = [
        UserMessage("What is in a.txt?"),
        AssistantMessage((TextBlock("Reading."), ToolUseBlock("t1", "Read", {"p": "a.txt"}))),
        UserMessage((ToolResultBlock("t1", "hello"),)),
        AssistantMessage("It says hello."),
    ]
    lines = [json.loads(x) for x in oc.iter_encode(claude_turns, unsupported="drop")]
    assert [x["type"] for x in lines] == ["text", "tool_use", "text"]
    assert lines[1]["part"]["state"] == {
        "status": "completed",
        "input": {"p": "a.txt"},
        "output": "hello",
    }
    back = [oc.decode(x) for x in lines]
    assert flat_kinds(back) == ["text(assistant)", "tool_use", "tool_result", "text(assistant)"]


def test_a_call_waits_for_its_result_however_far_and_an_unanswered_one_stays_in_place() -> None:
    stream = [
        ToolUseMessage("a", "x", {"n": 1}),
        ToolUseMessage("b", "y"),
        TextMessage("working"),
        RawMessage({"type": "step_start", "part": {"type": "step-start"}}),
        ToolResultMessage("a", "out"),
        TextMessage("done"),
    ]
    lines = [json.loads(x) for x in oc.iter_encode(stream)]
    assert [(x["type"], x["part"].get("callID")) for x in lines] == [
        ("tool_use", "a"),
        ("tool_use", "b"),
        ("text", None),
        ("step_start", None),
        ("text", None),
    ]
    assert lines[0]["part"]["tool"] == "x"
    assert lines[0]["part"]["state"] == {"status": "completed", "input": {"n": 1}, "output": "out"}
    assert lines[1]["part"]["state"] == {"status": "running", "input": {}}


def test_results_and_errors_from_elsewhere() -> None:
    usage = Usage(10, 5, 100, 7, reasoning_tokens=2, cost_usd=0.5)
    assert oc.encode(ResultMessage(subtype="stop", usage=usage))["part"] == {
        "type": "step-finish",
        "reason": "stop",
        "cost": 0.5,
        "tokens": {
            "input": 10,
            "output": 5,
            "reasoning": 2,
            "cache": {"read": 100, "write": 7},
        },
    }
    assert oc.encode(ErrorMessage("rate limited", code="APIError")) == {
        "type": "error",
        "error": {"name": "APIError", "data": {"message": "rate limited"}},
    }


def test_foreign_stream_events_are_refused() -> None:
    with pytest.raises(UnsupportedContentError):
        oc.encode(StreamEventMessage({"type": "content_block_delta"}))


# --- laws ---------------------------------------------------------------------------------------

_ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
_ctx = st.fixed_dictionaries(
    {},
    optional={
        "uuid": _ids.map(lambda s: "prt_" + s),
        "session_id": _ids.map(lambda s: "ses_" + s),
        "message_id": _ids.map(lambda s: "msg_" + s),
        "timestamp": st.integers(min_value=0, max_value=2**42),
    },
)
_count = st.integers(min_value=0, max_value=10**7)


@st.composite
def _carried(draw: st.DrawFn) -> Any:
    ctx = draw(_ctx)
    kind = draw(st.sampled_from(["text", "thinking", "call", "pair", "result", "error"]))
    if kind == "text":
        return TextMessage(draw(st.text()), **ctx)
    if kind == "thinking":
        return ThinkingMessage(draw(st.text()), **ctx)
    call, name, args = draw(_ids), draw(_ids), draw(ms.json_objects())
    if kind == "call":
        return ToolUseMessage(call, name, args, **ctx)
    if kind == "pair":
        failed = draw(st.booleans())
        result = ToolResultBlock(call, draw(st.text()), is_error=failed, name=name)
        return AssistantMessage((ToolUseBlock(call, name, args), result), **ctx)
    if kind == "error":  # an error event has no part, so no part id or message id
        ctx.pop("uuid", None)
        ctx.pop("message_id", None)
        return ErrorMessage(draw(st.text()), code=draw(_ids), **ctx)
    usage = draw(
        st.none()
        | st.builds(
            Usage,
            _count,
            st.none() | _count,
            st.none() | _count,
            st.none() | _count,
            reasoning_tokens=st.none() | _count,
            cost_usd=st.none() | st.floats(min_value=0, max_value=10),
        )
    )
    return ResultMessage(
        subtype=draw(st.none() | st.sampled_from(["stop", "tool-calls"])), usage=usage, **ctx
    )


@given(_carried())
def test_carried_messages_survive_a_round_trip(m: Any) -> None:
    wire = oc.encode(m)
    assert oc.detect(wire)
    assert oc.decode(wire) == m


def test_a_call_seen_running_then_finished_is_given_once_with_its_result_alone() -> None:
    def part(status: str, **state: Any) -> dict[str, Any]:
        return {
            "type": "tool_use",
            "sessionID": "ses_1",
            "part": {
                "id": "prt_1",
                "messageID": "msg_1",
                "type": "tool",
                "callID": "call_1",
                "tool": "bash",
                "state": {"status": status, "input": {"command": "ls"}, **state},
            },
        }

    lines = [part("running"), part("completed", output="a.txt", title="ls")]
    decoded = list(oc.iter_decode([json.dumps(x) for x in lines], strict=True))
    assert [m.kind for m in decoded] == ["tool_use", "tool_result"]
    result = decoded[1]
    assert isinstance(result, ToolResultMessage)
    assert (result.tool_use_id, result.content, result.name, result.is_error) == (
        "call_1",
        "a.txt",
        "bash",
        False,
    )
    assert [json.loads(x) for x in oc.iter_encode(decoded)] == lines
    # alone, the finished part is the call with its outcome, as opencode run writes it
    assert flat_kinds([oc.decode(lines[1])]) == ["tool_use", "tool_result"]
    pending = [part("pending"), part("running"), part("running")]
    merged = list(oc.merge(oc.iter_decode([json.dumps(x) for x in pending])))
    assert [(m.kind, m.id) for m in merged] == [("tool_use", "call_1")]  # type: ignore[union-attr]
