"""The OpenAI Chat Completions codec: round trips, request validity, streams, errors.

Also the conversion law between the two codecs of this branch: a history taken from
Anthropic to Chat and back keeps its text, tool calls and tool results.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES, json_equal
from messages import (
    AssistantMessage,
    AudioBlock,
    DecodeError,
    FrozenDict,
    ImageBlock,
    RawBlock,
    RawMessage,
    StopReason,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolMessage,
    ToolResultBlock,
    ToolUseBlock,
    UnsupportedContentError,
    Usage,
    UserMessage,
    freeze,
    thaw,
)
from messages import strategies as ms
from messages.convert import normalize_messages
from messages.errors import HINT
from messages.providers import anthropic, openai_chat
from messages.providers._carry import as_turns
from support.provider_checks import check_chat
from support.provider_strategies import anthropic_conversations, chat_conversations, split

FIXTURES = LOCAL_FIXTURES / "openai_chat"


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def _chunks(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("request_*.json")))
def test_request_round_trip(name: str) -> None:
    body = _load(name)
    conversation = openai_chat.decode_request(body)
    assert json_equal(openai_chat.encode_request(conversation), {"messages": body["messages"]})
    assert openai_chat.decode_request(freeze(body)) == conversation
    check_chat(openai_chat.encode_request(conversation))


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("response_*.json")))
def test_response_round_trip(name: str) -> None:
    body = _load(name)
    assert json_equal(openai_chat.encode_response(openai_chat.decode_response(body)), body)


def test_decoded_request_has_what_the_wire_says() -> None:
    developer, user, assistant, tool = openai_chat.decode_request(_load("request_reference.json"))
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
    messages = openai_chat.decode_request(_load("request_rich.json"))
    assert messages[0].extra == {"name": "house_rules"}
    audio = messages[2].content[3]
    assert isinstance(audio, AudioBlock) and audio.media_type == "audio/wav"
    assert messages[2].content[4].media_type == "audio/mpeg"
    assert isinstance(messages[2].content[5], RawBlock)
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
    assert messages[11].extra == {"reasoning_content": "The user wants audio."}
    assert isinstance(messages[12], RawMessage)
    assert messages[15].content[0].citations[0]["type"] == "url_citation"


def test_response_usage_and_envelope() -> None:
    message = openai_chat.decode_response(_load("response_basic.json"))
    assert message.content == "The image shows a wooden boardwalk through a meadow."
    assert message.usage is not None
    assert (message.usage.input_tokens, message.usage.cache_read_tokens) == (93, 1024)
    assert message.usage.total_input_tokens == 1117
    assert message.usage.reasoning_tokens == 0
    assert message.usage.extra["total_tokens"] == 1163
    assert message.stop is StopReason.END_TURN
    assert message.timestamp == 1741570283
    assert message.extra["completion"]["system_fingerprint"] == "fp_fc9f1d7035"
    two = openai_chat.decode_response(_load("response_n2.json"))
    assert two.text == "Blue."
    assert two.extra["completion"]["choices"][1]["message"]["content"] == "Azure."
    audio = openai_chat.decode_response(_load("response_audio.json"))
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
    response = openai_chat.decode_response(_load("response_n2.json"))
    body = openai_chat.encode_request([UserMessage("Why is the sky blue?"), response])
    assert body["messages"][1] == {"role": "assistant", "content": "Blue."}


UNSUPPORTED = [
    (
        AssistantMessage(
            (ThinkingBlock("Plan.", signature="sig", provider="anthropic"), TextBlock("Hi"))
        ),
        "$[0].content[0]",
        "openai_chat: $[0].content[0]: cannot carry thinking content in an assistant message",
        "[thinking: Plan.]",
    ),
    (
        ToolMessage((ToolResultBlock("c1", (TextBlock("see"), ImageBlock(file_id="file_1"))),)),
        "$[0].content[0].content[1]",
        "openai_chat: $[0].content[0].content[1]: cannot carry image content in a tool result",
        "[image: file file_1]",
    ),
    (
        UserMessage((RawBlock({"type": "document", "title": "Q3"}),)),
        "$[0].content[0]",
        "openai_chat: $[0].content[0]: cannot carry a 'document' block",
        "[document: Q3]",
    ),
    (
        UserMessage((AudioBlock(data="ZkxhQw==", media_type="audio/flac"),)),
        "$[0].content[0]",
        "openai_chat: $[0].content[0]: cannot carry audio in audio/flac",
        "[audio: audio/flac, 4 bytes]",
    ),
]


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        if value.get("type") == "text":
            yield value["text"]
        for inner in value.values():
            yield from _texts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _texts(inner)
    elif isinstance(value, str):
        yield value


@pytest.mark.parametrize(("message", "path", "text", "described"), UNSUPPORTED)
def test_unsupported_content_follows_the_policy(
    message: Any, path: str, text: str, described: str
) -> None:
    with pytest.raises(UnsupportedContentError) as info:
        openai_chat.encode_request([message])
    assert info.value.path == path
    assert str(info.value) == text + " " + HINT
    dropped = openai_chat.encode_request([message], unsupported="drop")
    assert described not in _texts(dropped)
    degraded = openai_chat.encode_request([message], unsupported="text")
    assert described in _texts(degraded)


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
def test_representable_conversations_round_trip(conversation: list[Any]) -> None:
    body = openai_chat.encode_request(conversation)
    check_chat(body)
    assert openai_chat.decode_request(json.loads(json.dumps(body))) == tuple(conversation)


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


@given(st.lists(ms.messages(), max_size=8), st.sampled_from(["raise", "drop", "text"]))
def test_encoding_any_conversation(conversation: list[Any], policy: Any) -> None:
    try:
        body = openai_chat.encode_request(conversation, unsupported=policy)
    except UnsupportedContentError as exc:
        assert policy == "raise"
        assert exc.path.startswith("$[")
        return
    check_chat(body)
    json.dumps(body)


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


def _mutations(value: Any, replacement: Any) -> Iterator[Any]:
    yield replacement
    if isinstance(value, dict):
        for key, inner in value.items():
            for changed in _mutations(inner, replacement):
                yield {**value, key: changed}
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            for changed in _mutations(inner, replacement):
                yield [*value[:i], changed, *value[i + 1 :]]


@pytest.mark.parametrize("name", ["request_reference.json", "response_tool_calls.json"])
@pytest.mark.parametrize("replacement", [None, 7, "x", [], {}, [{"type": 1}], True])
def test_decoding_damaged_bodies_gives_a_value_or_decode_error(name: str, replacement: Any) -> None:
    request = name.startswith("request")
    decode = openai_chat.decode_request if request else openai_chat.decode_response
    for body in _mutations(_load(name), replacement):
        try:
            decode(body)
        except DecodeError as exc:
            assert exc.path.startswith("$")
            assert exc.source == "openai_chat"


@given(ms.json_values(max_leaves=12))
def test_decoding_arbitrary_json(value: Any) -> None:
    for decode in (openai_chat.decode_request, openai_chat.decode_response):
        try:
            result = decode(thaw(value) if isinstance(value, FrozenDict) else value)
        except DecodeError as exc:
            assert exc.path.startswith("$")
        else:
            assert isinstance(result, tuple | AssistantMessage)


# ----------------------------------------------------------------------------- errors

ERRORS = [
    (openai_chat.decode_request, [], "openai_chat: $: expected an object, found an array"),
    (
        openai_chat.decode_request,
        {"messages": 1},
        "openai_chat: $.messages: expected an array, found an integer",
    ),
    (
        openai_chat.decode_request,
        {"messages": [{"role": "tool", "content": "x"}]},
        "openai_chat: $.messages[0].tool_call_id: expected a string, found null",
    ),
    (
        openai_chat.decode_request,
        {"messages": [{"role": "user", "content": {"text": "x"}}]},
        "openai_chat: $.messages[0].content: "
        "expected a string or an array of parts, found an object",
    ),
    (
        openai_chat.decode_request,
        {"messages": [{"role": "assistant", "refusal": 3}]},
        "openai_chat: $.messages[0].refusal: expected a string, found an integer",
    ),
    (
        openai_chat.decode_request,
        {"messages": [{"role": "assistant", "tool_calls": {}}]},
        "openai_chat: $.messages[0].tool_calls: expected an array, found an object",
    ),
    (
        openai_chat.decode_response,
        {"choices": []},
        "openai_chat: $.choices: expected a non-empty array, found an empty array",
    ),
    (
        openai_chat.decode_response,
        {"choices": [{"message": None}]},
        "openai_chat: $.choices[0].message: expected an object, found null",
    ),
    (
        openai_chat.decode_response,
        {"choices": [{"message": {"role": "user"}}]},
        "openai_chat: $.choices[0].message.role: expected 'assistant', found 'user'",
    ),
    (
        openai_chat.decode_response,
        {"choices": [{"message": {"content": 1}}]},
        "openai_chat: $.choices[0].message.content: "
        "expected a string or an array of parts, found an integer",
    ),
    (
        openai_chat.decode_response,
        {"choices": [{"message": {}}], "usage": {"prompt_tokens_details": {"cached_tokens": "3"}}},
        "openai_chat: $.usage.prompt_tokens_details.cached_tokens: "
        "expected an integer, found a string",
    ),
    (
        openai_chat.decode_response,
        {"choices": [{"message": {}, "finish_reason": 1}]},
        "openai_chat: $.choices[0].message.finish_reason: expected a string, found an integer",
    ),
]


@pytest.mark.parametrize(("decode", "body", "message"), ERRORS)
def test_decode_errors(decode: Any, body: Any, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode(body)
    assert str(info.value) == message


# ----------------------------------------------------------------------------- streams


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("stream_*.response.json")))
def test_stream_equals_the_non_streamed_response(name: str) -> None:
    chunks = _chunks(FIXTURES / name.replace(".response.json", ".jsonl"))
    expected = openai_chat.decode_response(_load(name))
    accumulator = openai_chat.accumulator()
    for chunk in chunks:
        accumulator.feed(chunk)
        snapshot = accumulator.snapshot()
        assert expected.text.startswith(snapshot.text)
    assert accumulator.message() == expected
    assert json_equal(openai_chat.encode_response(accumulator.message()), _load(name))


def test_stream_snapshots_parse_partial_arguments() -> None:
    accumulator = openai_chat.accumulator()
    seen = []
    for chunk in _chunks(FIXTURES / "stream_tools.jsonl"):
        accumulator.feed(chunk)
        seen.append([thaw(u.input) for u in accumulator.snapshot().tool_uses])
    assert [{"city": "Par"}] in seen
    assert [{"city": "Paris"}, {"tz": "Europe/Paris", "fmt": ["24h"]}] in seen


STREAM_ERRORS = [
    (["x"], "openai_chat: $: expected a chunk object, found a string"),
    ([{"choices": {}}], "openai_chat: $.choices: expected an array, found an object"),
    (
        [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": "0"}]}}]}],
        "openai_chat: $.choices[0].delta.tool_calls[0].index: expected an integer, found a string",
    ),
    (
        [{"choices": [{"index": 0, "delta": {"audio": {"data": "!!"}}}]}],
        "openai_chat: $.choices[0].delta.audio.data: expected base64 audio data",
    ),
]


@pytest.mark.parametrize(("chunks", "message"), STREAM_ERRORS)
def test_stream_errors(chunks: list[Any], message: str) -> None:
    accumulator = openai_chat.accumulator()
    with pytest.raises(DecodeError) as info:
        for chunk in chunks:
            accumulator.feed(chunk)
    assert str(info.value) == message
    accumulator.snapshot()


def test_stream_end_and_error_chunks() -> None:
    accumulator = openai_chat.accumulator()
    accumulator.feed(_chunks(FIXTURES / "stream_text.jsonl")[0])
    with pytest.raises(DecodeError) as info:
        accumulator.message()
    assert (
        str(info.value) == "openai_chat: $: expected a finish_reason, found the stream still open"
    )
    accumulator.feed(
        {"error": {"message": "Rate limited", "type": "requests", "code": "rate_limit_exceeded"}}
    )
    assert accumulator.message().error == "rate_limit_exceeded"


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
    conversation = anthropic.decode_request(LOCAL_FIXTURES_ANTHROPIC_REQUEST())
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


def LOCAL_FIXTURES_ANTHROPIC_REQUEST() -> Any:
    return json.loads((LOCAL_FIXTURES / "anthropic" / "request_tool_loop.json").read_text())


def test_another_providers_response_encodes_with_mapped_fields() -> None:
    body = json.loads((LOCAL_FIXTURES / "anthropic" / "response_reference.json").read_text())
    chat = openai_chat.encode_response(anthropic.decode_response(body))
    assert chat["object"] == "chat.completion"
    (choice,) = chat["choices"]
    assert choice["finish_reason"] == "stop"
    assert choice["message"] == {"role": "assistant", "content": "18°C (64°F), cloudy."}
    assert chat["usage"]["prompt_tokens"] == 412 + 380 + 0
    assert chat["usage"]["prompt_tokens_details"] == {"cached_tokens": 380, "cache_write_tokens": 0}
    assert "cache_creation" not in chat["usage"]


MORE_STREAM_ERRORS = [
    ([{"choices": [5]}], "openai_chat: $.choices[0]: expected an object, found an integer"),
    (
        [{"choices": [{"index": None}]}],
        "openai_chat: $.choices[0].index: expected an integer, found null",
    ),
    ([{"choices": [], "usage": 3}], "openai_chat: $.usage: expected an object, found an integer"),
    (
        [{"choices": [{"delta": {"tool_calls": {}}}]}],
        "openai_chat: $.choices[0].delta.tool_calls: expected an array, found an object",
    ),
    (
        [{"choices": [{"delta": {"tool_calls": [1]}}]}],
        "openai_chat: $.choices[0].delta.tool_calls[0]: expected an object, found an integer",
    ),
    (
        [{"choices": [{"delta": {"audio": 1}}]}],
        "openai_chat: $.choices[0].delta.audio: expected an object, found an integer",
    ),
    (
        [{"choices": [{"delta": 1}]}],
        "openai_chat: $.choices[0].delta: expected an object, found an integer",
    ),
]


@pytest.mark.parametrize(("chunks", "message"), MORE_STREAM_ERRORS)
def test_more_stream_errors(chunks: list[Any], message: str) -> None:
    test_stream_errors(chunks, message)


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
