"""The langchain-core bridge against the real library.

The law: ``to_messages(from_messages(h)) == canonical(h)`` for every conversation drawn
with ``messages.strategies`` restricted to what langchain can represent, where
``canonical`` is the one reshaping langchain forces (each tool result is its own
``ToolMessage``); ``from_messages(canonical(h)) == from_messages(h)`` shows the reshaping
loses nothing. Whatever is outside the restriction follows the policy.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import DecodeError
from messages import DocumentBlock
from messages import EncodeError
from messages import ImageBlock
from messages import RawBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import VideoBlock
from messages import strategies as ms

lc = pytest.importorskip("langchain_core.messages")

from messages.interop import langchain as bridge  # noqa: E402
from support.interop_shapes import one_result_per_tool_message  # noqa: E402

_CLASH = {
    "text": {"type", "text", "annotations"},
    "thinking": {"type", "reasoning"},
    "tool_use": {"type", "id", "name", "args", "error"},
    "image": {"type", "base64", "url", "file_id", "mime_type"},
    "audio": {"type", "base64", "url", "file_id", "mime_type"},
    "video": {"type", "base64", "url", "file_id", "mime_type"},
}
_DOCUMENT_CLASH = {"type", "base64", "url", "file_id", "mime_type", "text", "title", "context"}


def restrict_block(block: Any) -> Any:
    """The block without ``extra`` keys that clash with langchain's own keys."""
    if isinstance(block, ToolResultBlock):
        content = block.content
        if not isinstance(content, str):
            content = tuple(restrict_block(b) for b in content)
        extra = {k: v for k, v in block.extra.items() if k == "artifact"}
        return replace(block, content=content, extra=extra)
    if isinstance(block, DocumentBlock):  # langchain: a file, or text with title and context
        extra = {k: v for k, v in block.extra.items() if k not in _DOCUMENT_CLASH}
        if block.content is not None:
            return TextBlock(block.content if isinstance(block.content, str) else "", extra=extra)
        if block.text is None:
            block = replace(block, title=None, context=None)
        return replace(block, filename=None, citations=None, extra=extra)
    if isinstance(block, VideoBlock):
        block = replace(block, start_offset=None, end_offset=None, fps=None)
    clash = _CLASH.get(block.kind)
    if clash is None:
        return block
    return replace(block, extra={k: v for k, v in block.extra.items() if k not in clash})


def restrict(message: Any) -> Any:
    content = message.content
    if isinstance(content, tuple):
        content = tuple(restrict_block(b) for b in content)
        if message.kind == "assistant":
            content = tuple(b for b in content if not isinstance(b, ToolResultBlock))
    return replace(message, content=content)


canonical = one_result_per_tool_message


histories = st.lists(ms.role_messages().map(restrict), max_size=6)


@given(histories)
def test_round_trip(history: list[Any]) -> None:
    theirs = bridge.from_messages(history)
    assert all(isinstance(m, lc.BaseMessage) for m in theirs)
    assert bridge.to_messages(theirs) == canonical(history)
    assert bridge.from_messages(canonical(history)) == theirs


@given(ms.conversations(rich=True))
def test_drawn_conversations_round_trip_once_restricted(conversation: list[Any]) -> None:
    history = [
        restrict(m)
        for m in bridge.to_messages(
            bridge.from_messages(
                [restrict(m) for m in conversation if hasattr(m, "content")], unsupported="raise"
            )
        )
    ]
    assert bridge.to_messages(bridge.from_messages(history)) == history


@given(ms.streams())
def test_everything_else_follows_the_policy(stream: list[Any]) -> None:
    try:
        raised = bridge.from_messages(stream)
    except UnsupportedContentError as exc:
        assert exc.path.startswith("$[")
        raised = None
    dropped = bridge.from_messages(stream, unsupported="drop")
    texted = bridge.from_messages(stream, unsupported="text")
    if raised is not None:
        assert raised == dropped == texted
    for theirs in (dropped, texted):  # whatever comes out is langchain's and comes back in
        assert all(isinstance(m, lc.BaseMessage) for m in theirs)
        bridge.to_messages(theirs)


def test_v1_blocks_tool_calls_usage_and_metadata() -> None:
    turn = AssistantMessage(
        (
            ThinkingBlock("Add.", signature="c2ln", provider="anthropic"),
            TextBlock("4", citations=({"type": "char_location", "cited_text": "2"},)),
            ToolUseBlock("call_1", "calc", {"expr": "2+2"}),
            ToolUseBlock("call_2", "calc", {}, arguments="{oops"),
            ImageBlock(url="https://example.com/a.png"),
            RawBlock({"type": "server_tool_use", "id": "srv_1"}),
        ),
        usage=Usage(10, 5, 90, reasoning_tokens=2),
        model="claude-sonnet-4-5",
        stop_reason="tool_use",
        message_id="msg_1",
        session_id="s-1",
    )
    [ai] = bridge.from_messages([turn])
    assert ai.content_blocks[0] == {
        "type": "reasoning",
        "reasoning": "Add.",
        "extras": {"signature": "c2ln", "provider": "anthropic"},
    }
    assert ai.content_blocks[1]["annotations"] == [
        {"type": "non_standard_annotation", "value": {"type": "char_location", "cited_text": "2"}}
    ]
    assert ai.tool_calls == [
        {"type": "tool_call", "id": "call_1", "name": "calc", "args": {"expr": "2+2"}}
    ]
    assert ai.invalid_tool_calls == [
        {
            "type": "invalid_tool_call",
            "id": "call_2",
            "name": "calc",
            "args": "{oops",
            "error": None,
        }
    ]
    assert ai.content_blocks[5] == {
        "type": "non_standard",
        "value": {"type": "server_tool_use", "id": "srv_1"},
    }
    assert ai.usage_metadata == {
        "input_tokens": 100,
        "output_tokens": 5,
        "total_tokens": 105,
        "input_token_details": {"cache_read": 90},
        "output_token_details": {"reasoning": 2},
    }
    assert ai.id == "msg_1"
    assert ai.response_metadata == {
        "model_name": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "session_id": "s-1",
        "output_version": "v1",
    }
    assert bridge.to_messages([ai]) == [turn]


def test_provider_shaped_content_comes_in_typed() -> None:
    ai = lc.AIMessage(
        content=[
            {"type": "thinking", "thinking": "hm", "signature": "sig"},
            {"type": "text", "text": "plain"},
            {"type": "tool_use", "id": "t1", "name": "ls", "input": {}},
        ],
        tool_calls=[{"name": "ls", "args": {}, "id": "t1"}],
        response_metadata={"model_provider": "anthropic", "model_name": "claude"},
    )
    [ours] = bridge.to_messages([ai])
    assert ours == AssistantMessage(
        (ThinkingBlock("hm", signature="sig"), TextBlock("plain"), ToolUseBlock("t1", "ls")),
        model="claude",
        extra={"response_metadata": {"model_provider": "anthropic"}},
    )


def test_tool_messages_and_developer_role() -> None:
    history = [
        SystemMessage("Be brief.", role="developer"),
        UserMessage((ToolResultBlock("c1", "out", is_error=True, name="ls"), TextBlock("next"))),
    ]
    system, tool, human = bridge.from_messages(history)
    assert system.additional_kwargs == {"__openai_role__": "developer"}
    assert (tool.tool_call_id, tool.status, tool.name, tool.content) == ("c1", "error", "ls", "out")
    assert human.content == [{"type": "text", "text": "next"}]
    assert bridge.to_messages([system, tool, human]) == canonical(history)


def test_a_tool_result_in_an_assistant_turn_follows_the_policy() -> None:
    turn = AssistantMessage((TextBlock("a"), ToolResultBlock("c1", "x")))
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([UserMessage("q"), turn])
    assert info.value.path == "$[1].content[1]"
    [_, dropped] = bridge.from_messages([UserMessage("q"), turn], unsupported="drop")
    assert dropped.content == [{"type": "text", "text": "a"}]
    [_, texted] = bridge.from_messages([UserMessage("q"), turn], unsupported="text")
    assert texted.content[1] == {"type": "text", "text": "[tool result c1: x]"}


def test_an_extra_key_that_clashes_follows_the_policy() -> None:
    turn = UserMessage((TextBlock("a", extra={"type": "input_text"}),))
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([turn])
    assert info.value.path == "$[0].content[0].extra.type"
    [human] = bridge.from_messages([turn], unsupported="drop")
    assert human.content == [{"type": "text", "text": "a"}]


@pytest.mark.parametrize(
    ("objects", "path"),
    [
        ([lc.HumanMessage("hi"), {"role": "user"}], "$[1]"),
        (
            [
                lc.HumanMessage("a"),
                lc.HumanMessage.model_construct(
                    content=5, additional_kwargs={}, response_metadata={}, id=None, name=None
                ),
            ],
            "$[1].content",
        ),
        ([lc.HumanMessage(content=[{"type": "image", "url": 7}])], "$[0].content[0].url"),
        (
            [
                lc.AIMessage.model_construct(
                    content="x",
                    additional_kwargs={},
                    response_metadata={},
                    id=None,
                    name=None,
                    tool_calls=[],
                    invalid_tool_calls=[],
                    usage_metadata={"input_tokens": 1},
                )
            ],
            "$[0].usage_metadata",
        ),
        ([lc.ChatMessage(content="x", role="critic")], "$[0]"),
    ],
)
def test_bad_input_raises_decode_error_with_a_path(objects: list[Any], path: str) -> None:
    with pytest.raises(DecodeError) as info:
        bridge.to_messages(objects)
    assert info.value.path == path


def test_a_half_built_message_raises_decode_error() -> None:
    half = object.__new__(lc.AIMessage)  # built without __init__: no fields at all
    with pytest.raises(DecodeError) as info:
        bridge.to_messages([half])
    assert info.value.path.startswith("$[0].")


def test_not_a_message_on_the_way_out() -> None:
    with pytest.raises(EncodeError) as info:
        bridge.from_messages([UserMessage("hi"), 3])  # type: ignore[list-item]
    assert info.value.path == "$[1]"
