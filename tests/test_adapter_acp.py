"""Agent Client Protocol adapter: real OpenCode ACP captures, mapping rules, errors, laws."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import AudioMessage
from messages import DecodeError
from messages import ErrorMessage
from messages import ImageBlock
from messages import ImageMessage
from messages import InitMessage
from messages import RawBlock
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.adapters import acp
from support.adapter_files import MIXED_RESULT
from support.adapter_files import assert_decode_error
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import read
from support.adapter_files import wire_objects

REAL = [
    "caic-opencode-read-edit-bash.jsonl",
    "caic-opencode-tool-error.jsonl",
    "caic-opencode-evidence-native-subagent-joke-v3.jsonl",
]
SID = "ses_1"


def update(body: dict[str, Any], **top: Any) -> dict[str, Any]:
    params = {"sessionId": SID, "update": body}
    return {"jsonrpc": "2.0", "method": "session/update", "params": params} | top


def chunk(kind: str, content: dict[str, Any], **more: Any) -> dict[str, Any]:
    return update({"sessionUpdate": kind} | more | {"content": content})


# --- conformance -------------------------------------------------------------------------


@pytest.mark.parametrize("name", REAL)
def test_every_notification_is_detected_and_recorder_lines_are_not(name: str) -> None:
    for _, obj in wire_objects(shared_fixtures("acp", name)):
        if obj.get("method") == "session/update":
            assert acp.detect(obj)
        if "jsonrpc" not in obj:
            assert not acp.detect(obj)
            assert isinstance(acp.decode(obj), RawMessage)


def test_real_capture_reads_as_a_conversation() -> None:
    messages = read(acp, shared_fixtures("acp", "caic-opencode-read-edit-bash.jsonl"))
    merged = list(acp.merge(messages))
    assert flat_kinds(merged) == [
        "raw",  # caic's header line, kept
        "text(user)",
        "thinking(assistant)",
        "tool_use",
        "tool_result",
        "thinking(assistant)",
        "tool_use",
        "tool_result",
        "thinking(assistant)",
        "tool_use",
        "tool_result",
        "thinking(assistant)",
        "text(assistant)",
        "raw",  # caic's trailers
        "raw",
    ]
    calls = [m for m in merged if isinstance(m, ToolUseMessage)]
    assert [(c.name, dict(c.input)) for c in calls] == [
        ("read", {"filePath": "/workspace/main.go"}),
        ("edit", {"filePath": "/workspace/main.go", "oldString": "Hello", "newString": "Hi"}),
        ("bash", {"command": "cat main.go", "description": "Display main.go contents"}),
    ]
    result = next(m for m in merged if isinstance(m, ResultMessage))
    assert result.usage == Usage(76, 30, 8576, reasoning_tokens=40, extra={"totalTokens": 8722})


def test_real_tool_error_is_a_failed_result() -> None:
    messages = read(acp, shared_fixtures("acp", "caic-opencode-tool-error.jsonl"))
    failed = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert len(failed) == 1 and failed[0].is_error is True
    assert failed[0].text == "File not found: /workspace/nonexistent_file.txt"
    error = next(m for m in messages if isinstance(m, ErrorMessage))
    assert error.code == "-32601"


def test_hand_made_session_merges_into_a_conversation() -> None:
    messages = read(acp, local("acp", "session-edit-plan.jsonl"))
    assert flat_kinds(list(acp.merge(messages))) == [
        "text(user)",
        "image",
        "raw",
        "thinking(assistant)",
        "tool_use",
        "tool_result",
        "tool_use",
        "tool_result",
        "tool_use",
        "tool_result",
        "text(assistant)",
        "raw",
        "text(user)",
        "image",
        "raw",
        "raw",
    ]


# --- mapping rules -------------------------------------------------------------------------


def test_message_and_thought_chunks() -> None:
    m = acp.decode(chunk("agent_message_chunk", {"type": "text", "text": "Hi"}, messageId="m1"))
    assert m == TextMessage("Hi", role="assistant", session_id=SID, message_id="m1")
    u = acp.decode(chunk("user_message_chunk", {"type": "text", "text": "q"}))
    assert u == TextMessage("q", role="user", session_id=SID)
    t = acp.decode(chunk("agent_thought_chunk", {"type": "text", "text": "Let"}))
    assert t == ThinkingMessage("Let", session_id=SID)


def test_media_chunks_and_annotations() -> None:
    image = {"type": "image", "mimeType": "image/png", "data": "AAAA", "annotations": {"a": 1}}
    m = acp.decode(chunk("user_message_chunk", image))
    assert m == ImageMessage(
        data="AAAA",
        media_type="image/png",
        role="user",
        session_id=SID,
        extra={"params": {"update": {"content": {"annotations": {"a": 1}}}}},
    )
    audio = acp.decode(chunk("agent_message_chunk", {"type": "audio", "mimeType": "audio/wav"}))
    assert isinstance(audio, AudioMessage) and audio.media_type == "audio/wav"


def test_chunks_this_library_does_not_model_stay_whole() -> None:
    link = chunk("agent_message_chunk", {"type": "resource_link", "uri": "file:///a", "name": "a"})
    m = acp.decode(link)
    assert m == RawMessage(link, role="assistant", session_id=SID)
    thought_image = chunk("agent_thought_chunk", {"type": "image", "data": "AAAA"})
    assert isinstance(acp.decode(thought_image), RawMessage)
    assert acp.encode(acp.decode(thought_image)) == thought_image


def test_tool_call_and_its_updates() -> None:
    call = update(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "c1",
            "title": "read",
            "kind": "read",
            "status": "pending",
            "locations": [],
            "rawInput": {},
        }
    )
    m = acp.decode(call)
    assert (m.id, m.name, m.input) == ("c1", "read", {})  # type: ignore[union-attr]
    assert m.extra["params"]["update"] == {  # type: ignore[index]
        "kind": "read",
        "status": "pending",
        "locations": [],
        "rawInput": {},
    }
    progress = update(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "c1",
            "status": "in_progress",
            "rawInput": {"filePath": "/a"},
        }
    )
    p = acp.decode(progress)
    assert isinstance(p, ToolUseMessage) and dict(p.input) == {"filePath": "/a"}
    assert json_equal(acp.encode(p), progress)
    done = update(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "c1",
            "status": "completed",
            "content": [
                {"type": "content", "content": {"type": "text", "text": "x"}},
                {"type": "diff", "path": "/a", "oldText": "a", "newText": "b"},
            ],
            "rawOutput": {"output": "x"},
        }
    )
    r = acp.decode(done)
    assert r == ToolResultMessage(
        "c1",
        (
            TextBlock("x"),
            RawBlock({"type": "diff", "path": "/a", "oldText": "a", "newText": "b"}),
        ),
        is_error=False,
        session_id=SID,
        extra={"params": {"update": {"rawOutput": {"output": "x"}}}},
    )
    failed = update({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "failed"})
    assert acp.decode(failed) == ToolResultMessage("c1", "", is_error=True, session_id=SID)


def test_merge_folds_a_call_with_its_progress() -> None:
    call = ToolUseMessage("c1", "read", session_id=SID)
    permission = StreamEventMessage(
        {"jsonrpc": "2.0", "id": 8, "method": "session/request_permission"}
    )
    progress = ToolUseMessage("c1", "", {"filePath": "/a"}, session_id=SID)
    result = ToolResultMessage("c1", "x", is_error=False)
    merged = list(acp.merge([call, permission, progress, result]))
    assert merged == [
        ToolUseMessage("c1", "read", {"filePath": "/a"}, session_id=SID),
        permission,
        result,
    ]
    chunks = [ThinkingMessage("a", message_id="m"), ThinkingMessage("b", message_id="m")]
    assert list(acp.merge(chunks)) == [ThinkingMessage("ab", message_id="m")]


def test_prompt_request_and_response() -> None:
    prompt = {
        "jsonrpc": "2.0",
        "id": 4,
        "method": "session/prompt",
        "params": {
            "sessionId": SID,
            "prompt": [
                {"type": "text", "text": "Fix it"},
                {"type": "image", "mimeType": "image/png", "data": "AAAA"},
                {"type": "resource_link", "uri": "file:///a.css", "name": "a.css"},
            ],
        },
    }
    m = acp.decode(prompt)
    assert m == UserMessage(
        (
            TextBlock("Fix it"),
            ImageBlock(data="AAAA", media_type="image/png"),
            RawBlock({"type": "resource_link", "uri": "file:///a.css", "name": "a.css"}),
        ),
        session_id=SID,
        extra={"id": 4},
    )
    response = {
        "jsonrpc": "2.0",
        "id": 4,
        "result": {"stopReason": "end_turn", "usage": {"inputTokens": 40, "thoughtTokens": 12}},
    }
    assert acp.decode(response) == ResultMessage(
        subtype="end_turn", usage=Usage(40, reasoning_tokens=12), extra={"id": 4}
    )


def test_other_requests_and_responses_are_stream_events() -> None:
    for obj in (
        {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w"}},
        {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": SID, "modes": {}}},
        {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": SID}},
        update({"sessionUpdate": "plan", "entries": []}),
        update({"sessionUpdate": "usage_update", "used": 1, "size": 2}),
    ):
        m = acp.decode(obj)
        assert isinstance(m, StreamEventMessage), obj
        assert json_equal(acp.encode(m), obj)
    assert acp.decode(update({"sessionUpdate": "plan"})).session_id == SID


def test_lines_that_are_not_json_rpc_2_are_raw() -> None:
    for obj in ({"type": "caic_exit", "exit_code": -1}, {"jsonrpc": "1.0", "method": "x"}):
        assert acp.decode(obj) == RawMessage(obj)
    odd = {"jsonrpc": "2.0", "id": 9}
    assert acp.decode(odd) == RawMessage(odd)


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        (
            {"jsonrpc": "2.0", "method": "session/update"},
            "acp: $.params: expected an object, found nothing",
        ),
        (
            {"jsonrpc": "2.0", "method": "session/update", "params": {"update": []}},
            "acp: $.params.update: expected an object, found an array",
        ),
        (
            update({"sessionUpdate": "agent_message_chunk"}),
            "acp: $.params.update.content: expected an object, found nothing",
        ),
        (
            chunk("agent_message_chunk", {"type": "text", "text": 3}),
            "acp: $.params.update.content.text: expected a string, found an integer",
        ),
        (
            chunk("agent_message_chunk", {"type": "text", "text": "x"}, messageId=1),
            "acp: $.params.update.messageId: expected a string, found an integer",
        ),
        (
            update({"sessionUpdate": "tool_call"}),
            "acp: $.params.update.toolCallId: expected a string, found nothing",
        ),
        (
            update(
                {
                    "sessionUpdate": "tool_call_update",
                    "toolCallId": "c",
                    "status": "completed",
                    "content": "x",
                }
            ),
            "acp: $.params.update.content: expected an array, found a string",
        ),
        (
            {"jsonrpc": "2.0", "method": "session/prompt", "params": {"prompt": "hi"}},
            "acp: $.params.prompt: expected an array, found a string",
        ),
        (
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"stopReason": "end_turn", "usage": {"inputTokens": "1"}},
            },
            "acp: $.result.usage.inputTokens: expected an integer, found a string",
        ),
        (
            {"jsonrpc": "2.0", "id": 1, "error": {"code": 1}},
            "acp: $.error.message: expected a string, found nothing",
        ),
        (
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {"sessionId": 1, "update": {}},
            },
            "acp: $.params.sessionId: expected a string, found an integer",
        ),
    ],
)
def test_bad_shapes_raise_with_a_path(obj: Any, text: str) -> None:
    assert_decode_error(acp, obj, text)


# --- encoding from other sources ----------------------------------------------------------


def test_a_claude_conversation_becomes_acp_messages() -> None:
    turns = [
        UserMessage("What is in a.txt?", session_id="s"),
        AssistantMessage(
            (ThinkingBlock("look", signature="sig"), ToolUseBlock("t1", "Read", {"p": "a"})),
            session_id="s",
        ),
        UserMessage((ToolResultBlock("t1", "hello"),), session_id="s"),
        AssistantMessage("It says hello.", session_id="s"),
        ResultMessage(subtype="success", usage=Usage(3, 4), session_id="s"),
    ]
    lines = [json.loads(x) for x in acp.iter_encode(turns)]
    assert [x.get("method") or "response" for x in lines] == [
        "session/prompt",
        "session/update",
        "session/update",
        "session/update",
        "session/update",
        "response",
    ]
    assert lines[0]["params"] == {
        "sessionId": "s",
        "prompt": [{"type": "text", "text": "What is in a.txt?"}],
    }
    assert [x["params"]["update"]["sessionUpdate"] for x in lines[1:5]] == [
        "agent_thought_chunk",
        "tool_call",
        "tool_call_update",
        "agent_message_chunk",
    ]
    assert lines[3]["params"]["update"] == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "t1",
        "status": "completed",
        "content": [{"type": "content", "content": {"type": "text", "text": "hello"}}],
    }
    assert lines[5] == {
        "jsonrpc": "2.0",
        "result": {"stopReason": "success", "usage": {"inputTokens": 3, "outputTokens": 4}},
    }
    assert flat_kinds(list(acp.merge(acp.iter_decode(json.dumps(x) for x in lines)))) == [
        "text(user)",
        "thinking(assistant)",
        "tool_use",
        "tool_result",
        "text(assistant)",
    ]


def test_what_acp_cannot_carry() -> None:
    with pytest.raises(UnsupportedContentError) as info:
        acp.encode(TextMessage("be brief", role="system"))
    assert str(info.value) == (
        "acp: $: ACP has no text chunk for the system role (pass unsupported='drop' or 'text')"
    )
    assert acp.encode(InitMessage(session_id="s"), unsupported="drop") is None
    with pytest.raises(UnsupportedContentError):
        acp.encode(RawMessage({"type": "server_tool_use"}, role="tool"))
    with pytest.raises(UnsupportedContentError):
        acp.encode(StreamEventMessage({"type": "message_start"}))
    nested = ToolResultMessage("c", (ToolUseBlock("x", "y"),))
    with pytest.raises(UnsupportedContentError):
        acp.encode(nested)
    assert acp.encode(nested, unsupported="drop")["params"]["update"]["content"] == []
    assert acp.encode(ErrorMessage("boom", code="E1")) == {
        "jsonrpc": "2.0",
        "error": {"message": "boom"},
    }


# --- laws ---------------------------------------------------------------------------------------

_ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=12)
_sid = st.none() | _ids
_block = st.one_of(
    st.builds(TextBlock, st.text()),
    st.builds(ImageBlock, data=st.just("AAAA"), media_type=st.sampled_from(["image/png", None])),
    st.builds(RawBlock, st.just({"type": "resource_link", "uri": "file:///a", "name": "a"})),
)


@st.composite
def _carried(draw: st.DrawFn) -> Any:
    sid = draw(_sid)
    kind = draw(st.sampled_from(["text", "thinking", "image", "call", "result", "prompt", "done"]))
    if kind == "text":
        role = draw(st.sampled_from(["user", "assistant"]))
        return TextMessage(draw(st.text()), role=role, session_id=sid, message_id=draw(_sid))
    if kind == "thinking":
        return ThinkingMessage(draw(st.text()), session_id=sid, message_id=draw(_sid))
    if kind == "image":
        return ImageMessage(data="AAAA", media_type="image/png", role="user", session_id=sid)
    if kind == "call":
        return ToolUseMessage(draw(_ids), draw(st.text()), draw(ms.json_objects()), session_id=sid)
    if kind == "result":
        content = draw(st.lists(_block, max_size=3).map(tuple))
        return ToolResultMessage(draw(_ids), content, is_error=draw(st.booleans()), session_id=sid)
    if kind == "prompt":
        return UserMessage(draw(st.lists(_block, max_size=3).map(tuple)), session_id=sid)
    count = st.none() | st.integers(min_value=0, max_value=10**6)
    usage = draw(st.none() | st.builds(Usage, count, count, count, count, reasoning_tokens=count))
    return ResultMessage(subtype=draw(st.sampled_from(["end_turn", "cancelled"])), usage=usage)


@given(_carried())
def test_carried_messages_survive_a_round_trip(m: Any) -> None:
    wire = acp.encode(m)
    assert acp.detect(wire)
    assert acp.decode(wire) == m


@given(
    st.dictionaries(
        st.sampled_from(["jsonrpc", "method", "params", "id", "result", "error"]),
        ms.json_values(max_leaves=4).map(lambda v: v),
        max_size=4,
    )
)
def test_decoding_json_rpc_like_objects_never_crashes(obj: dict[str, Any]) -> None:
    from messages import thaw

    obj = thaw(obj) | {"jsonrpc": "2.0"}
    try:
        message = acp.decode(obj)
    except DecodeError:
        return
    assert json_equal(acp.encode(message), obj)


def test_tool_results_keep_media_and_raw_items() -> None:
    result = ToolResultMessage("t", MIXED_RESULT, is_error=False)
    with pytest.raises(UnsupportedContentError) as info:
        acp.encode(result)
    # the audio has only a provider file id, which ACP content has no place for
    assert info.value.path == "$.content[2]"
    assert "file id" in str(info.value)
    back = acp.decode(acp.encode(result, unsupported="text"))
    assert [b.kind for b in back.content] == [  # type: ignore[union-attr]
        "text",
        "image",
        "text",  # [audio: file file_1]
        "text",
        "text",
        "text",
        "raw",
    ]


def test_a_raw_assistant_block_is_a_chunk_holding_it_verbatim() -> None:
    block = RawMessage({"type": "server_tool_use", "id": "s1"}, role="assistant")
    assert acp.decode(acp.encode(block)) == RawMessage(acp.encode(block), role="assistant")


def test_corner_cases() -> None:
    untitled = {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": ""}},
    }
    assert json_equal(acp.encode(acp.decode(untitled)), untitled)
    prompt = {"jsonrpc": "2.0", "method": "session/prompt", "params": {"prompt": ["hi", 3]}}
    assert acp.decode(prompt).content == (RawBlock("hi"), RawBlock(3))  # type: ignore[union-attr]
    assert json_equal(acp.encode(acp.decode(prompt)), prompt)
    link = RawMessage({"type": "resource_link", "uri": "file:///a"}, role="user")
    assert acp.encode(link)["params"]["update"] == {
        "sessionUpdate": "user_message_chunk",
        "content": {"type": "resource_link", "uri": "file:///a"},
    }
    tail = [ToolUseMessage("c", "read"), acp.decode({"jsonrpc": "2.0", "id": 1, "result": {}})]
    assert [m.kind for m in acp.merge(tail)] == ["tool_use", "stream_event"]


def test_a_media_file_id_is_never_dropped_silently() -> None:
    image = ImageMessage(file_id="file_9", media_type="image/png", role="user", session_id="s")
    with pytest.raises(UnsupportedContentError, match="no place for a provider file id"):
        acp.encode(image)
    assert acp.encode(image, unsupported="drop") is None
    texted = acp.decode(acp.encode(image, unsupported="text"))
    assert isinstance(texted, TextMessage) and texted.text == "[image: image/png, file file_9]"
    turn = UserMessage((TextBlock("look"), ImageBlock(file_id="file_9")), session_id="s")
    with pytest.raises(UnsupportedContentError):
        list(acp.iter_encode([turn]))
    kinds = [acp.decode(json.loads(x)).kind for x in acp.iter_encode([turn], unsupported="text")]
    assert kinds == ["text", "text"]  # one chunk per block, the image described
