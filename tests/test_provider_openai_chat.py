"""OpenAI Chat Completions beyond the provider contract: its shapes, and Anthropic -> Chat.

A history taken from Anthropic to Chat and back keeps its text, tool calls and tool results.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import AudioBlock
from messages import DecodeError
from messages import DocumentBlock
from messages import ImageBlock
from messages import RawBlock
from messages import RawMessage
from messages import StopReason
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages import thaw
from messages.convert import normalize_messages
from messages.providers import anthropic
from messages.providers import openai_chat
from messages.providers._carry import as_turns
from support.provider_checks import check_chat
from support.provider_checks import load
from support.provider_strategies import anthropic_conversations
from support.provider_strategies import chat_conversations
from support.provider_strategies import split

AREA = "openai_chat"


# ----------------------------------------------------------------------------- round trips


def test_decoded_request_has_what_the_wire_says() -> None:
    developer, user, assistant, tool = openai_chat.decode_request(
        load(AREA, "request_reference.json")
    )
    assert developer == SystemMessage("Be terse.", role="developer")
    image = user.content[1]
    assert isinstance(image, ImageBlock)
    assert image.extra == {"detail": "low"}
    assert image.resolved_media_type == "image/jpeg"
    (call,) = assistant.tool_uses
    assert call.arguments == '{"city":"Paris"}'
    assert call.input == {"city": "Paris"}
    assert assistant.extra == {"content": None}
    assert tool == ToolMessage((ToolResultBlock("call_abc", "18C, cloudy"),))


def test_rich_request_details() -> None:
    messages = openai_chat.decode_request(load(AREA, "request_rich.json"))
    assert messages[0].extra == {"name": "house_rules"}
    audio = messages[2].content[3]
    assert isinstance(audio, AudioBlock) and audio.media_type == "audio/wav"
    assert messages[2].content[4].media_type == "audio/mpeg"
    assert messages[2].content[5] == DocumentBlock(file_id="file-6F2ksmvXxt4VdoqmHRw6kL")
    _, invalid, custom = messages[3].content[1:]
    assert invalid.invalid_arguments and invalid.input == {}
    assert invalid.arguments == '{"name": "report.pdf", "pages": [1, 2'
    assert isinstance(custom, RawBlock) and custom.data["type"] == "custom"
    assert messages[5].tool_results[0].content == (
        TextBlock("error: "),
        TextBlock("invalid arguments"),
    )
    refusal = messages[7]
    assert refusal.content == (RawBlock({"refusal": "I can't share the internal report."}),)
    assert messages[9].content == (AudioBlock(file_id="audio_abc123"),)
    reasoning = messages[11].content[0]  # a vendor's reasoning_content: thinking (issue 27)
    assert reasoning == ThinkingBlock(
        "The user wants audio.", extra={"reasoning_fields": ["reasoning_content"]}
    )
    assert isinstance(messages[12], RawMessage)
    cited = messages[15].content[0].citations[0]
    assert (cited.type, cited.nested) == ("url_citation", True)


def test_response_usage_and_envelope() -> None:
    message = openai_chat.decode_response(load(AREA, "response_basic.json"))
    assert message.content == "The image shows a wooden boardwalk through a meadow."
    assert message.usage is not None
    assert (message.usage.input_tokens, message.usage.cache_read_tokens) == (93, 1024)
    assert message.usage.total_input_tokens == 1117
    assert message.usage.reasoning_tokens == 0
    assert message.usage.extra["total_tokens"] == 1163
    assert message.stop is StopReason.END_TURN
    assert message.timestamp == 1741570283
    assert message.extra["completion"]["system_fingerprint"] == "fp_fc9f1d7035"
    two = openai_chat.decode_response(load(AREA, "response_n2.json"))
    assert two.text == "Blue."
    assert two.extra["completion"]["choices"][1]["message"]["content"] == "Azure."
    audio = openai_chat.decode_response(load(AREA, "response_audio.json"))
    (block,) = audio.content
    assert isinstance(block, AudioBlock) and block.file_id == "audio_abc123"
    assert block.extra["transcript"] == "Yes, golden retrievers are friendly."


# ----------------------------------------------------------------------------- encoding


def test_tool_results_follow_their_call_one_message_each() -> None:
    body = openai_chat.encode_request(
        [
            UserMessage("Weather?"),
            AssistantMessage(
                (
                    TextBlock("Checking."),
                    ToolUseBlock("toolu_a", "get_weather", {"city": "Paris"}),
                    ToolUseBlock("toolu_b", "get_weather", {"city": "Lyon"}),
                )
            ),
            UserMessage("Hurry."),
            UserMessage((ToolResultBlock("toolu_a", "18C"), ToolResultBlock("toolu_b", "20C"))),
        ]
    )
    assert body["messages"][1] == {
        "role": "assistant",
        "content": "Checking.",
        "tool_calls": [
            {
                "id": "toolu_a",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            {
                "id": "toolu_b",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Lyon"}'},
            },
        ],
    }
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "tool", "user"]
    assert [m.get("tool_call_id") for m in body["messages"][2:4]] == ["toolu_a", "toolu_b"]
    check_chat(body)


def test_raw_arguments_are_sent_as_they_are() -> None:
    call = ToolUseBlock("c1", "run", {}, arguments='{"sql": "SELECT 1"')
    body = openai_chat.encode_request([AssistantMessage((call,))])
    assert body["messages"][0]["tool_calls"][0]["function"]["arguments"] == '{"sql": "SELECT 1"'


def test_a_response_goes_back_with_request_fields_only() -> None:
    response = openai_chat.decode_response(load(AREA, "response_n2.json"))
    body = openai_chat.encode_request([UserMessage("Why is the sky blue?"), response])
    assert body["messages"][1] == {"role": "assistant", "content": "Blue."}


def test_is_error_and_foreign_fields_follow_the_policy() -> None:
    result = ToolMessage((ToolResultBlock("c1", "boom", is_error=True),))
    with pytest.raises(UnsupportedContentError) as info:
        openai_chat.encode_request([result])
    assert info.value.path == "$[0].content[0].is_error"
    assert (
        openai_chat.encode_request([result], unsupported="drop")["messages"][0]["content"] == "boom"
    )
    degraded = openai_chat.encode_request([result], unsupported="text")
    assert degraded["messages"][0]["content"] == "[tool result c1 (error): boom]"
    cached = UserMessage((TextBlock("hi", extra={"cache_control": {"type": "ephemeral"}}),))
    with pytest.raises(UnsupportedContentError, match="another provider's field 'cache_control'"):
        openai_chat.encode_request([cached])
    plain = openai_chat.encode_request([cached], unsupported="drop")
    assert plain["messages"][0]["content"] == [{"type": "text", "text": "hi"}]


# ----------------------------------------------------------------------------- properties


@given(chat_conversations())
def test_flat_conversations_round_trip_grouped(conversation: list[Any]) -> None:
    flat = list(normalize_messages(conversation))
    turns = as_turns(flat)
    decoded = openai_chat.decode_request(openai_chat.encode_request(flat))
    # one tool message per result: a turn of several tool results comes back as several
    expected: list[Any] = []
    for turn in turns:
        if isinstance(turn, ToolMessage):
            expected.extend(ToolMessage((block,)) for block in turn.blocks)
        else:
            expected.append(turn)
    assert [normalize_assistant(m) for m in decoded] == [normalize_assistant(m) for m in expected]


def normalize_assistant(message: Any) -> Any:
    """What the flat view cannot say about an assistant turn.

    A turn of one text block comes back as string content (it is sent as a string), and the
    ``"content": null`` a refusal-only turn is sent with comes back in ``extra``.
    """
    if not isinstance(message, AssistantMessage):
        return message
    if message.extra == {"content": None}:
        message = replace(message, extra={})
    content = message.content
    if isinstance(content, tuple) and len(content) == 1 and isinstance(content[0], TextBlock):
        return replace(message, content=content[0].text)
    return message


@given(ms.usages(), st.sampled_from([None, "stop", "tool_calls", "length"]), chat_conversations())
def test_responses_round_trip(usage: Usage, stop: str | None, conversation: list[Any]) -> None:
    usage = replace(usage, cost_usd=None)
    for turn in conversation:
        if isinstance(turn, AssistantMessage):
            message = replace(turn, usage=usage, stop_reason=stop, model="gpt-x", message_id="c1")
            body = openai_chat.encode_response(message)
            decoded = openai_chat.decode_response(body)
            assert json_equal(openai_chat.encode_response(decoded), body)
            assert decoded.usage == usage
            assert decoded.tool_uses == message.tool_uses


# ----------------------------------------------------------------------------- errors


# ----------------------------------------------------------------------------- streams


def test_stream_snapshots_parse_partial_arguments() -> None:
    accumulator = openai_chat.accumulator()
    seen = []
    for chunk in load(AREA, "stream_tools.jsonl"):
        accumulator.feed(chunk)
        seen.append([thaw(u.input) for u in accumulator.snapshot().tool_uses])
    assert [{"city": "Par"}] in seen
    assert [{"city": "Paris"}, {"tz": "Europe/Paris", "fmt": ["24h"]}] in seen


def _chunks_of(body: dict[str, Any], cuts: list[int]) -> list[dict[str, Any]]:
    """The chunks a server would send for a one-choice completion, cut at ``cuts``."""
    message = body["choices"][0]["message"]
    head = {k: body[k] for k in ("id", "created", "model") if k in body}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {**head, "choices": [choice], "usage": None}

    chunks = [chunk({"role": "assistant", "content": None, "refusal": None})]
    if isinstance(message.get("content"), str):
        chunks.extend(chunk({"content": piece}) for piece in split(message["content"], cuts))
    for k, call in enumerate(message.get("tool_calls", ())):
        first = {"index": k, "id": call["id"], "type": "function"}
        first["function"] = {"name": call["function"]["name"], "arguments": ""}
        chunks.append(chunk({"tool_calls": [first]}))
        for piece in split(call["function"]["arguments"], cuts):
            chunks.append(chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, body["choices"][0]["finish_reason"]))
    chunks.append({**head, "choices": [], "usage": body["usage"]})
    return chunks


@given(chat_conversations(plain=True), st.lists(st.integers(0, 200), max_size=4))
def test_any_stream_equals_its_response(conversation: list[Any], cuts: list[int]) -> None:
    for turn in conversation:
        if not isinstance(turn, AssistantMessage):
            continue
        message = replace(
            turn, usage=Usage(5, 7), stop_reason="stop", model="gpt-x", message_id="c"
        )
        body = openai_chat.encode_response(message)
        body["choices"][0]["logprobs"] = None
        body["choices"][0]["message"].setdefault("content", None)
        body["choices"][0]["message"]["refusal"] = None
        if isinstance(body["choices"][0]["message"]["content"], list):
            continue  # streams send content as text pieces: a list of parts is not streamed
        accumulator = openai_chat.accumulator()
        for chunk in _chunks_of(body, cuts):
            accumulator.feed(chunk)
            assert turn.text.startswith(accumulator.snapshot().text)
        accumulator.feed("[DONE]")
        assert accumulator.message() == openai_chat.decode_response(body)


# ----------------------------------------------------------------------------- conversion


@given(anthropic_conversations(plain=True))
def test_anthropic_to_chat_and_back_keeps_text_tool_calls_and_results(
    conversation: list[Any],
) -> None:
    first = anthropic.decode_request(anthropic.encode_request(conversation))
    chat = openai_chat.encode_request(first)
    check_chat(chat)
    back = anthropic.encode_request(openai_chat.decode_request(chat))
    assert anthropic.decode_request(back) == tuple(_as_chat_sends(m) for m in first)


def _as_chat_sends(message: Any) -> Any:
    """What Chat's message shape does to an assistant turn.

    Text and tool calls live in separate fields, so text written after a tool call comes
    back before it; a turn with no content at all is sent as ``""``.
    """
    if not isinstance(message, AssistantMessage) or isinstance(message.content, str):
        return message
    if message.content == ():
        return replace(message, content="")
    calls = tuple(b for b in message.content if isinstance(b, ToolUseBlock))
    rest = tuple(b for b in message.content if not isinstance(b, ToolUseBlock))
    return replace(message, content=rest + calls)


def test_conversion_example_with_everything_the_reference_request_has() -> None:
    conversation = anthropic.decode_request(load("anthropic", "request_tool_loop.json"))
    with pytest.raises(UnsupportedContentError) as info:
        openai_chat.encode_request(conversation)
    assert info.value.path == "$[0].content[0].extra.cache_control"
    chat = openai_chat.encode_request(conversation, unsupported="drop")
    check_chat(chat)
    assert [m["role"] for m in chat["messages"]] == ["system", "user", "assistant", "tool", "user"]
    back = anthropic.decode_request(anthropic.encode_request(openai_chat.decode_request(chat)))
    assert [m.text for m in back] == [m.text for m in conversation]
    assert back[2].tool_uses == conversation[2].tool_uses
    assert back[3].tool_results[0].text == "18C, cloudy"


def test_another_providers_response_encodes_with_mapped_fields() -> None:
    body = load("anthropic", "response_reference.json")
    chat = openai_chat.encode_response(anthropic.decode_response(body))
    assert chat["object"] == "chat.completion"
    (choice,) = chat["choices"]
    assert choice["finish_reason"] == "stop"
    assert choice["message"] == {"role": "assistant", "content": "18°C (64°F), cloudy."}
    assert chat["usage"]["prompt_tokens"] == 412 + 380 + 0
    assert chat["usage"]["prompt_tokens_details"] == {"cached_tokens": 380, "cache_write_tokens": 0}
    assert "cache_creation" not in chat["usage"]


@given(st.lists(st.text(max_size=8), min_size=2, max_size=4), st.booleans())
def test_a_response_of_several_texts_is_one_string(texts: list[str], call: bool) -> None:
    # ChatCompletionMessage.content is a string; the texts are joined as ``.text`` joins them,
    # and the joined response is a fixed point from then on.
    blocks: tuple[Any, ...] = tuple(TextBlock(t) for t in texts)
    if call:
        blocks = (*blocks, ToolUseBlock("call_1", "f", {"a": 1}))
    message = AssistantMessage(blocks, stop_reason="stop", model="gpt-x", message_id="c1")
    body = openai_chat.encode_response(message)
    sent = body["choices"][0]["message"]
    assert sent["content"] == "\n".join(texts) == message.text
    decoded = openai_chat.decode_response(body)
    assert decoded.text == message.text
    assert [(u.id, u.input) for u in decoded.tool_uses] == [
        (u.id, u.input) for u in blocks[len(texts) :]
    ]
    assert json_equal(openai_chat.encode_response(decoded), body)


def test_texts_a_string_cannot_hold_stay_parts() -> None:
    # A text with its own part fields, or with citations next to another text, keeps its part:
    # joining would drop what it carries (still a shape the SDK's response type refuses).
    tagged = TextBlock("b", extra={"x_vendor": 1})
    body = openai_chat.encode_response(AssistantMessage((TextBlock("a"), tagged)))
    assert body["choices"][0]["message"]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b", "x_vendor": 1},
    ]
    # several text blocks in a *request* stay parts: assistant content may be a list there
    request = openai_chat.encode_request([AssistantMessage((TextBlock("a"), TextBlock("b")))])
    assert request["messages"][0]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]


def test_stream_without_choices() -> None:
    accumulator = openai_chat.accumulator()
    assert accumulator.snapshot() == AssistantMessage()
    accumulator.feed("[DONE]")
    with pytest.raises(DecodeError, match="expected at least one choice, found none"):
        accumulator.message()
    accumulator = openai_chat.accumulator()
    accumulator.feed({"error": "boom"})
    assert accumulator.message() == AssistantMessage(error="error")


def test_gemini_model_role_follows_the_policy() -> None:
    model = RawMessage({"role": "model", "parts": [{"text": "hi"}]})
    with pytest.raises(UnsupportedContentError, match="'model' message"):
        openai_chat.encode_request([model])
    assert openai_chat.encode_request([model], unsupported="drop") == {"messages": []}
    legacy = RawMessage({"role": "function", "name": "f", "content": "x"})
    assert openai_chat.encode_request([legacy]) == {"messages": [legacy.data]}


def test_a_call_kept_raw_keeps_its_thought_signature() -> None:
    # found by fuzzing: a call the decoder keeps raw (here: no arguments) lost Gemini's
    # extra_content.google.thought_signature, taken off before the call was judged
    call = {
        "id": "f1",
        "type": "function",
        "function": {"name": "get_weather"},
        "extra_content": {"google": {"thought_signature": "CiQB"}},
    }
    body = {"messages": [{"role": "assistant", "content": None, "tool_calls": [call]}]}
    (turn,) = openai_chat.decode_request(body)
    assert turn.content == (RawBlock(call),)  # type: ignore[union-attr]
    assert json_equal(openai_chat.encode_request((turn,)), body)
