"""The Anthropic Messages codec: what is specific to its wire format (laws: contract/)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import DecodeError
from messages import DocumentBlock
from messages import ImageBlock
from messages import RawBlock
from messages import RawMessage
from messages import StopReason
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.convert import normalize_messages
from messages.providers import anthropic
from messages.providers._carry import as_turns
from support.provider_cases import UNSUPPORTED
from support.provider_checks import check_anthropic
from support.provider_checks import check_unsupported
from support.provider_checks import load
from support.provider_strategies import anthropic_conversations
from support.provider_strategies import anthropic_response_blocks
from support.provider_strategies import split

AREA = "anthropic"


def _message_keys(body: dict[str, Any]) -> dict[str, Any]:
    return {k: body[k] for k in ("system", "messages") if k in body}


# ----------------------------------------------------------------------------- round trips


def test_decoded_request_has_what_the_wire_says() -> None:
    system, user, assistant, results = anthropic.decode_request(
        load(AREA, "request_tool_loop.json")
    )
    assert isinstance(system, SystemMessage)
    assert system.blocks[0].extra == {"cache_control": {"type": "ephemeral"}}
    assert isinstance(user.content[1], ImageBlock)
    assert user.content[1].media_type == "image/png"
    thinking, call = assistant.content
    assert thinking == ThinkingBlock(
        "Need the weather tool.", signature="EqQBCkYIBxgCKkA...", provider="anthropic"
    )
    assert call == ToolUseBlock("toolu_01A", "get_weather", {"city": "Paris"})
    assert results.tool_results[0].is_error is False
    assert results.tool_results[0].text == "18C, cloudy"


def test_rich_request_keeps_unknown_blocks_and_system_messages() -> None:
    messages = anthropic.decode_request(load(AREA, "request_rich.json"))
    assert messages[0] == SystemMessage("You are a research assistant. Cite your sources.")
    document = messages[1].content[0]
    assert isinstance(document, DocumentBlock)
    assert (document.media_type, document.title, document.context, document.citations) == (
        "application/pdf",
        "Q3 report",
        "Internal",
        True,
    )
    assert document.extra == {"cache_control": {"type": "ephemeral", "ttl": "1h"}}
    redacted = messages[2].content[1]
    assert isinstance(redacted, ThinkingBlock) and redacted.redacted
    assert redacted.signature.startswith("EmwKAhgB")
    assert messages[4].extra == {"x_future_field": {"a": 1}}
    inline_system = messages[7]
    assert isinstance(inline_system, SystemMessage)
    assert inline_system.extra == {"role": "system"}
    assert messages[6].content[-1] == RawBlock(
        {"type": "future_block_type", "payload": {"x": [1, 2.5, None, True]}}
    )


def test_response_usage_and_stop_reason() -> None:
    message = anthropic.decode_response(load(AREA, "response_tool_use.json"))
    assert message.usage == Usage(
        8,
        445,
        18247,
        183,
        reasoning_tokens=237,
        extra=message.usage.extra if message.usage else {},
    )
    assert message.usage is not None and message.usage.total_input_tokens == 8 + 18247 + 183
    assert message.stop is StopReason.TOOL_USE
    assert message.message_id == "msg_01W5EdEZHQKbRwiwqrx2mYgq"
    assert message.extra["stop_sequence"] is None
    refusal = anthropic.decode_response(load(AREA, "response_refusal.json"))
    assert refusal.stop is StopReason.REFUSAL
    assert refusal.extra["stop_details"]["category"] == "cyber"


# ----------------------------------------------------------------------------- encoding


def test_tool_messages_join_the_user_turn_after_the_call_results_first() -> None:
    body = anthropic.encode_request(
        [
            UserMessage("Weather in Paris and Lyon?"),
            AssistantMessage(
                (
                    ToolUseBlock("toolu_a", "get_weather", {"city": "Paris"}),
                    ToolUseBlock("toolu_b", "get_weather", {"city": "Lyon"}),
                )
            ),
            ToolMessage((ToolResultBlock("toolu_a", "18C"),)),
            UserMessage("And tomorrow?"),
            ToolMessage((ToolResultBlock("toolu_b", "20C"),)),
        ]
    )
    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_a", "content": "18C"},
            {"type": "tool_result", "tool_use_id": "toolu_b", "content": "20C"},
            {"type": "text", "text": "And tomorrow?"},
        ],
    }
    assert len(body["messages"]) == 3
    check_anthropic(body)


def test_late_results_move_to_the_turn_after_their_call() -> None:
    body = anthropic.encode_request(
        [
            AssistantMessage((ToolUseBlock("toolu_a", "Bash", {"command": "ls"}),)),
            AssistantMessage("Still thinking."),
            SystemMessage("extra rule", extra={"role": "system"}),
            UserMessage((TextBlock("hi"), ToolResultBlock("toolu_a", "a.txt"))),
        ]
    )
    assert [m["role"] for m in body["messages"]] == [
        "assistant",
        "assistant",
        "user",
        "system",
        "user",
    ]
    assert body["messages"][2]["content"][0]["tool_use_id"] == "toolu_a"
    assert body["messages"][4]["content"] == [{"type": "text", "text": "hi"}]
    check_anthropic(body)


def test_system_messages_become_the_system_prompt() -> None:
    body = anthropic.encode_request(
        [
            SystemMessage("Be terse."),
            UserMessage("Hi"),
            SystemMessage("No emoji.", role="developer"),
        ]
    )
    assert body["system"] == [
        {"type": "text", "text": "Be terse."},
        {"type": "text", "text": "No emoji."},
    ]
    assert body["messages"] == [{"role": "user", "content": "Hi"}]


def test_flat_messages_are_grouped_into_turns() -> None:
    flat = [
        TextMessage("List files", role="user"),
        TextMessage("Listing.", role="assistant"),
        ToolUseMessage("toolu_1", "Bash", {"command": "ls"}, role="assistant"),
        ToolResultMessage("toolu_1", "a.txt", role="tool"),
    ]
    body = anthropic.encode_request(flat)
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "List files"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Listing."},
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}},
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}],
        },
    ]


def test_a_response_goes_back_as_role_and_content_only() -> None:
    response = anthropic.decode_response(load(AREA, "response_tool_use.json"))
    body = anthropic.encode_request([UserMessage("Fix it"), response])
    assert body["messages"][1] == {
        "role": "assistant",
        "content": load(AREA, "response_tool_use.json")["content"],
    }


def test_image_data_url_becomes_base64_source() -> None:
    body = anthropic.encode_request(
        [UserMessage((ImageBlock(url="data:image/png;base64,iVBORw0KGgo="),))]
    )
    assert body["messages"][0]["content"][0]["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": "iVBORw0KGgo=",
    }


def test_calls_and_results_move_to_their_side_of_the_conversation() -> None:
    body = anthropic.encode_request(
        [
            UserMessage((TextBlock("Run it."), ToolUseBlock("t1", "Bash", {}), TextBlock("Then?"))),
            AssistantMessage((ToolResultBlock("t1", "ok"), TextBlock("Done."))),
        ]
    )
    assert [(m["role"], [b["type"] for b in m["content"]]) for m in body["messages"]] == [
        ("user", ["text"]),
        ("assistant", ["tool_use"]),
        ("user", ["tool_result", "text"]),
        ("assistant", ["text"]),
    ]
    check_anthropic(body)


@pytest.mark.parametrize(
    ("message", "path", "reason", "described"),
    [(c[0], *rest) for name, c, *rest in UNSUPPORTED if name == "anthropic"],
)
def test_what_the_policy_leaves_in_the_turn(
    message: Any, path: str, reason: str, described: str | None
) -> None:
    # (raise, drop and text for every provider: tests/contract/test_providers.py)
    dropped, degraded = check_unsupported("anthropic", [message], path, reason, described)
    lost = ("audio", "video", "thinking", "raw", "tool_use")
    # a document goes whole to the policy when described; else only a field of it does
    kept = [
        b
        for b in message.content
        if b.kind not in lost and not (b.kind == "document" and described is not None)
    ]
    if kept:
        assert len(dropped["messages"][0]["content"]) == len(kept)
    else:  # a turn whose every block was dropped is left out
        assert dropped["messages"] == []
    if described is not None:
        assert {"type": "text", "text": described} in degraded["messages"][0]["content"]


def test_foreign_fields_and_invalid_arguments_follow_the_policy() -> None:
    image = ImageBlock(url="https://example.com/a.png", extra={"detail": "low"})
    with pytest.raises(UnsupportedContentError) as info:
        anthropic.encode_request([UserMessage((image,))])
    assert info.value.path == "$[0].content[0].extra.detail"
    body = anthropic.encode_request([UserMessage((image,))], unsupported="drop")
    assert body["messages"][0]["content"][0] == {
        "type": "image",
        "source": {"type": "url", "url": "https://example.com/a.png"},
    }
    call = ToolUseBlock("call_1", "run", {}, arguments='{"x": ')
    with pytest.raises(UnsupportedContentError, match="not a JSON object"):
        anthropic.encode_request([AssistantMessage((call,))])
    body = anthropic.encode_request([AssistantMessage((call,))], unsupported="drop")
    assert body["messages"][0]["content"][0]["input"] == {}


# ----------------------------------------------------------------------------- properties


@given(anthropic_conversations())
def test_flat_conversations_round_trip_grouped(conversation: list[Any]) -> None:
    flat = list(normalize_messages(conversation))
    body = anthropic.encode_request(flat)
    assert anthropic.decode_request(body) == tuple(as_turns(flat))


@given(anthropic_response_blocks(), ms.usages(), st.sampled_from([None, "end_turn", "tool_use"]))
def test_responses_round_trip(content: list[Any], usage: Usage, stop: str | None) -> None:
    usage = replace(usage, cost_usd=None)  # Anthropic reports no cost
    message = AssistantMessage(
        tuple(content), usage=usage, stop_reason=stop, model="claude-x", message_id="msg_1"
    )
    body = anthropic.encode_response(message)
    assert anthropic.decode_response(body) == message
    assert json_equal(anthropic.encode_response(anthropic.decode_response(body)), body)


# ----------------------------------------------------------------------------- errors


def test_unknown_roles_are_kept_as_raw_messages() -> None:
    body = {"messages": [{"role": "critic", "content": "meh"}]}
    (message,) = anthropic.decode_request(body)
    assert isinstance(message, RawMessage)
    assert anthropic.encode_request([message]) == body
    tool = RawMessage({"role": "tool", "tool_call_id": "c", "content": "x"})
    with pytest.raises(UnsupportedContentError, match="'tool' message"):
        anthropic.encode_request([tool])


# ----------------------------------------------------------------------------- streams


def test_stream_snapshots_parse_partial_tool_input() -> None:
    accumulator = anthropic.accumulator()
    inputs = []
    for event in load(AREA, "stream_tool_use.jsonl"):
        accumulator.feed(event)
        uses = accumulator.snapshot().tool_uses
        if uses:
            inputs.append(dict(uses[0].input))
    assert {"file_path": "/workspace/main.go"} in inputs
    assert inputs[-1]["replace_all"] is False
    assert accumulator.message().tool_uses[0].arguments is None


def test_no_event_comes_after_an_error() -> None:
    # (what the error event leaves in the message: tests/contract/test_providers.py)
    accumulator = anthropic.accumulator()
    for event in load(AREA, "stream_error.jsonl"):
        accumulator.feed(event)
    with pytest.raises(DecodeError, match="no event after the end"):
        accumulator.feed({"type": "message_stop"})


def _stream_of(body: dict[str, Any], cuts: list[int]) -> list[dict[str, Any]]:
    """The events a server would send for a response, with text and JSON cut at ``cuts``."""
    usage = body.get("usage", {})
    start = {**body, "content": [], "stop_reason": None}
    start["usage"] = {k: v for k, v in usage.items() if k == "input_tokens"}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for i, block in enumerate(body["content"]):
        kind = block["type"]
        if kind == "text":
            first = {k: v for k, v in block.items() if k != "citations"} | {"text": ""}
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for citation in block.get("citations") or ():
                delta = {"type": "citations_delta", "citation": citation}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
            if block.get("citations") == []:
                first["citations"] = []
            for piece in split(block["text"], cuts):
                delta = {"type": "text_delta", "text": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
        elif kind == "thinking":
            first = {**block, "thinking": ""}
            first.pop("signature", None)
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for piece in split(block["thinking"], cuts):
                delta = {"type": "thinking_delta", "thinking": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
            if "signature" in block:
                delta = {"type": "signature_delta", "signature": block["signature"]}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
        elif kind == "tool_use":
            first = {**block, "input": {}}
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for piece in split(json.dumps(block["input"]), cuts):
                delta = {"type": "input_json_delta", "partial_json": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
        else:
            events.append({"type": "content_block_start", "index": i, "content_block": block})
        events.append({"type": "content_block_stop", "index": i})
        if i % 2:
            events.append({"type": "ping"})
    delta = {"stop_reason": body.get("stop_reason")}
    events.append({"type": "message_delta", "delta": delta, "usage": usage})
    events.append({"type": "message_stop"})
    return events


@given(anthropic_response_blocks(), st.lists(st.integers(0, 200), max_size=4))
def test_any_stream_equals_its_response(content: list[Any], cuts: list[int]) -> None:
    message = AssistantMessage(
        tuple(content),
        usage=Usage(12, 34),
        stop_reason="end_turn",
        model="claude-x",
        message_id="msg_9",
    )
    body = anthropic.encode_response(message)
    accumulator = anthropic.accumulator()
    for event in _stream_of(body, cuts):
        accumulator.feed(event)
        snapshot = accumulator.snapshot()
        assert message.text.startswith(snapshot.text)
    assert accumulator.message() == anthropic.decode_response(body)


def _claude_code_runs(path: Path) -> Iterator[tuple[list[Any], list[Any]]]:
    """Each streamed API message in a Claude Code capture, with the blocks it recorded."""
    events: list[Any] = []
    records: dict[str, list[Any]] = {}
    order: list[tuple[list[Any], str]] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        if record.get("type") == "stream_event":
            event = record["event"]
            events.append(event)
            if event["type"] == "message_start":
                order.append((events, event["message"]["id"]))
            if event["type"] == "message_stop":
                events = []
        elif record.get("type") == "assistant":
            message = record["message"]
            records.setdefault(message["id"], []).extend(message["content"])
    for run, message_id in order:
        yield run, records.get(message_id, [])


@pytest.mark.parametrize(
    "name", ["caic-read-edit-bash.jsonl", "caic-tool-error.jsonl", "caic-ask-user-question.jsonl"]
)
def test_real_claude_code_streams_reassemble(name: str) -> None:
    path = shared_fixtures("claude_code", name)
    checked = 0
    for events, recorded in _claude_code_runs(path):
        accumulator = anthropic.accumulator()
        for event in events:
            accumulator.feed(event)
            accumulator.snapshot()
        blocks = anthropic.encode_response(accumulator.message())["content"]
        assert len(blocks) == len(recorded)
        for got, want in zip(blocks, recorded, strict=True):
            assert got["type"] == want["type"]
            for key in ("text", "thinking", "signature", "id", "name", "data"):
                assert got.get(key) == want.get(key)
            if got["type"] == "tool_use":
                # Claude Code fills in defaults (replace_all...) after the API call
                assert got["input"].items() <= want["input"].items()
            checked += 1
    assert checked > 3


def test_stream_rules_for_unusual_events() -> None:
    accumulator = anthropic.accumulator()
    start = {"id": "msg_2", "type": "message", "role": "assistant", "content": [], "usage": {}}
    cut_json = '{"command": "ls -la", "timeout": 12'
    events = [
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "compaction"}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "compaction_delta", "content": "Summary so far",
                   "encrypted_content": "E1"}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "compaction_delta", "content": ", continued"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}}},
        {"type": "content_block_delta", "index": 1,
         "delta": {"type": "input_json_delta", "partial_json": cut_json}},
        {"type": "content_block_start", "index": 2,
         "content_block": {"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {}}},
        {"type": "content_block_delta", "index": 2,
         "delta": {"type": "input_json_delta", "partial_json": " "}},
        {"type": "future_event", "data": 1},
        {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}},
        {"type": "message_stop"},
    ]  # fmt: skip
    for event in events:
        accumulator.feed(event)
    compaction, cut, empty = accumulator.message().content  # type: ignore[misc]
    assert compaction == RawBlock(
        {"type": "compaction", "content": "Summary so far, continued", "encrypted_content": "E1"}
    )
    assert isinstance(cut, ToolUseBlock)
    assert cut.input == {"command": "ls -la", "timeout": 12}
    assert cut.arguments == cut_json and cut.invalid_arguments
    assert empty == ToolUseBlock("toolu_2", "Read", {})
    accumulator = anthropic.accumulator()
    accumulator.feed({"type": "message_start", "message": start})
    accumulator.feed(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "x", "n": 1}}
    )
    with pytest.raises(DecodeError) as info:
        accumulator.feed(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "x_delta", "n": "2"}}
        )
    assert str(info.value) == (
        "anthropic: $.delta.n: expected 'n' to be text to append to, found an integer"
    )


def test_another_providers_response_encodes_with_mapped_fields() -> None:
    from messages.providers import openai_chat

    chat = load("openai_chat", "response_basic.json")
    body = anthropic.encode_response(openai_chat.decode_response(chat))
    assert body["stop_reason"] == "end_turn"
    assert body["usage"] == {
        "input_tokens": 93,
        "cache_read_input_tokens": 1024,
        "output_tokens": 46,
        "output_tokens_details": {"thinking_tokens": 0},
    }
    assert set(body) == {"id", "type", "role", "model", "content", "stop_reason", "usage"}


def test_fields_on_the_system_prompt_follow_the_policy() -> None:
    named = SystemMessage("Be terse.", extra={"name": "rules"})
    with pytest.raises(UnsupportedContentError) as info:
        anthropic.encode_request([named])
    assert info.value.path == "$[0].extra.name"
    assert anthropic.encode_request([named], unsupported="drop") == {
        "system": "Be terse.",
        "messages": [],
    }
    tool = RawMessage({"role": "tool", "tool_call_id": "c", "content": "x"})
    degraded = anthropic.encode_request([tool], unsupported="text")
    assert degraded["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "[tool message: x]"}]}
    ]
