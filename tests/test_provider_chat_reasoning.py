"""Reasoning in OpenAI-compatible Chat APIs (issue 27): read as thinking, written per dialect.

DeepSeek, Qwen, vLLM, Moonshot and xAI put reasoning in ``reasoning_content``; OpenRouter in
``reasoning`` and ``reasoning_details``; Gemini's OpenAI-compatible endpoint signs tool
calls in ``extra_content``. Each is read as what it is, goes back exactly to the API it came
from, and crosses to the other providers as thinking (never with another API's signature).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import EncodeError
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages.providers import get
from support.provider_checks import check_chat
from support.provider_checks import load

chat: Any = get("openai_chat")
AREA = "openai_chat/dialects"
CONTENT_DIALECTS = ["deepseek", "qwen", "vllm", "moonshot", "xai"]


def _said(name: str) -> Any:
    return load(AREA, name)


# ----------------------------------------------------------------------------- reading


def test_deepseek_reasoning_is_thinking_and_the_response_goes_back_exactly() -> None:
    body = _said("deepseek_response.json")
    message = chat.decode_response(body)
    thinking, call = message.blocks[0], message.tool_uses[0]
    assert isinstance(thinking, ThinkingBlock)
    assert thinking.thinking == "The user asks for the weather; I should call the tool."
    assert thinking.signature is None and call.input == {"city": "Paris"}
    assert json_equal(chat.encode_response(message), body)


def test_vllm_sends_one_text_under_two_names_and_gets_both_back() -> None:
    body = _said("vllm_response.json")
    message = chat.decode_response(body)
    assert [b.thinking for b in message.blocks if isinstance(b, ThinkingBlock)] == [
        "France's capital is Paris."
    ]
    assert json_equal(chat.encode_response(message), body)


def test_openrouter_details_are_thinking_with_their_signatures_and_formats() -> None:
    body = _said("openrouter_request.json")
    conversation = chat.decode_request(body)
    signed = conversation[1].blocks[0]
    assert (signed.thinking, signed.signature, signed.provider) == (
        "17 * 23 = 391.",
        "EqQBCkYIBxgC",
        "openrouter",
    )
    assert signed.extra["reasoning_detail"]["format"] == "anthropic-claude-v1"
    summary, encrypted = conversation[3].blocks[:2]
    assert summary.thinking == "Added 23 to 391." and not summary.redacted
    assert encrypted.redacted and encrypted.signature == "gAAAAABo"
    assert json_equal(chat.encode_request(conversation), {"messages": body["messages"]})
    again = chat.encode_request(conversation, dialect="openrouter")
    assert json_equal(again, {"messages": body["messages"]})


def test_gemini_signs_the_call_and_the_signature_stays_with_it() -> None:
    body = _said("gemini_request.json")
    conversation = chat.decode_request(body)
    call = conversation[1].tool_uses[0]
    assert call.extra["thoughtSignature"] == "CiQB0e2Kb"
    assert json_equal(chat.encode_request(conversation), {"messages": body["messages"]})
    # In Gemini's own API the signature is the function call part's, as Gemini sends it.
    native = get("gemini").encode_request(conversation)
    part = native["contents"][1]["parts"][0]
    assert part["thoughtSignature"] == "CiQB0e2Kb" and "extra_content" not in json.dumps(native)
    # Another provider never receives it as its own.
    with pytest.raises(UnsupportedContentError, match="thoughtSignature"):
        get("anthropic").encode_request(conversation)
    dropped = get("anthropic").encode_request(conversation, unsupported="drop")
    assert "CiQB0e2Kb" not in json.dumps(dropped)


def test_a_gemini_native_signature_reaches_chat_only_in_the_gemini_dialect() -> None:
    native = get("gemini").decode_request(
        {
            "contents": [
                {"role": "user", "parts": [{"text": "Weather?"}]},
                {
                    "role": "model",
                    "parts": [
                        {"functionCall": {"name": "w", "args": {}}, "thoughtSignature": "c2ln"}
                    ],
                },
            ]
        }
    )
    with pytest.raises(UnsupportedContentError):
        chat.encode_request(native)
    body = chat.encode_request(native, dialect="gemini")
    call = body["messages"][1]["tool_calls"][0]
    assert call["extra_content"] == {"google": {"thought_signature": "c2ln"}}


def test_streamed_reasoning_details_are_joined_into_one_entry() -> None:
    accumulator = chat.accumulator()
    for chunk in _said("openrouter_stream.jsonl"):
        accumulator.feed(chunk)
    message = accumulator.message()
    (thinking,) = [b for b in message.blocks if isinstance(b, ThinkingBlock)]
    assert (thinking.thinking, thinking.signature) == ("17 * 23 = 391.", "EqQBCkYIBxgC")
    assert message.text == "391."


def test_streamed_reasoning_content_is_thinking() -> None:
    accumulator = chat.accumulator()
    for piece in ("Think", "ing."):
        accumulator.feed({"choices": [{"index": 0, "delta": {"reasoning_content": piece}}]})
    accumulator.feed(
        {"choices": [{"index": 0, "delta": {"content": "Done."}, "finish_reason": "stop"}]}
    )
    message = accumulator.message()
    assert message.blocks[0] == ThinkingBlock(
        "Thinking.", extra={"reasoning_fields": ["reasoning_content"]}
    )


# ----------------------------------------------------------------------------- writing


def _loop(thinking: ThinkingBlock | None = None) -> list[Any]:
    lead = (thinking,) if thinking is not None else ()
    return [
        UserMessage("Weather in Paris?"),
        AssistantMessage((*lead, ToolUseBlock("call_1", "get_weather", {"city": "Paris"}))),
        ToolMessage((ToolResultBlock("call_1", "18C"),)),
    ]


@pytest.mark.parametrize("dialect", CONTENT_DIALECTS)
def test_content_dialects_write_reasoning_content(dialect: Any) -> None:
    body = chat.encode_request(_loop(ThinkingBlock("Call the tool.")), dialect=dialect)
    check_chat(body)
    assert body["messages"][1]["reasoning_content"] == "Call the tool."
    back = chat.decode_request(body)
    assert back[1].blocks[0].thinking == "Call the tool."


def test_plain_openai_has_no_place_for_thinking() -> None:
    with pytest.raises(UnsupportedContentError, match="cannot carry thinking"):
        chat.encode_request(_loop(ThinkingBlock("Call the tool.")))
    body = chat.encode_request(_loop(ThinkingBlock("Call the tool.")), unsupported="drop")
    assert "reasoning_content" not in body["messages"][1]


def test_deepseek_gets_reasoning_content_on_every_tool_call_turn() -> None:
    body = chat.encode_request(_loop(), dialect="deepseek")
    assert body["messages"][1]["reasoning_content"] == ""
    plain = chat.encode_request([UserMessage("Hi"), AssistantMessage("Hello")], dialect="deepseek")
    assert "reasoning_content" not in plain["messages"][1]


def test_deepseek_reasoning_is_replayed_to_deepseek_but_not_to_plain_openai() -> None:
    response = chat.decode_response(_said("deepseek_response.json"))
    conversation = [
        UserMessage("Weather?"),
        response,
        ToolMessage((ToolResultBlock("call_00_abc", "18C"),)),
    ]
    body = chat.encode_request(conversation, dialect="deepseek")
    assert body["messages"][1]["reasoning_content"].startswith("The user asks")
    plain = chat.encode_request(conversation)  # a response's vendor field: not a request's
    assert "reasoning_content" not in plain["messages"][1]


def test_another_providers_signature_is_never_sent() -> None:
    anthropic = ThinkingBlock("Call the tool.", signature="EqQB", provider="anthropic")
    redacted = ThinkingBlock("", signature="c2VjcmV0", redacted=True, provider="anthropic")
    body = chat.encode_request(_loop(anthropic), dialect="deepseek")
    assert body["messages"][1]["reasoning_content"] == "Call the tool."
    assert "EqQB" not in json.dumps(body)
    routed = chat.encode_request(
        [UserMessage("Hi"), AssistantMessage((anthropic, redacted, TextBlock("Hello")))],
        dialect="openrouter",
    )
    assert routed["messages"][1]["reasoning_details"] == [
        {"type": "reasoning.text", "text": "Call the tool."}
    ]


def test_a_deepseek_conversation_crosses_as_thinking() -> None:
    response = chat.decode_response(_said("deepseek_response.json"))
    conversation = [
        UserMessage("Weather?"),
        response,
        ToolMessage((ToolResultBlock("call_00_abc", "18C"),)),
    ]
    gemini = get("gemini").encode_request(conversation)
    assert gemini["contents"][1]["parts"][0]["thought"] is True
    bedrock = get("bedrock").encode_request(conversation)
    reasoning = bedrock["messages"][1]["content"][0]["reasoningContent"]["reasoningText"]
    assert reasoning == {"text": "The user asks for the weather; I should call the tool."}
    # Anthropic needs its own signature on thinking: the policy decides, nothing else fails.
    with pytest.raises(UnsupportedContentError, match="thinking not signed by anthropic"):
        get("anthropic").encode_request(conversation)
    dropped = get("anthropic").encode_request(conversation, unsupported="drop")
    assert dropped["messages"][1]["content"][0]["type"] == "tool_use"


def test_an_unknown_dialect_is_an_error() -> None:
    with pytest.raises(EncodeError, match="expected dialect to be one of"):
        chat.encode_request([], dialect="mistral")


_TEXTS = st.text("abc xyz\n", min_size=1, max_size=12)


@given(
    st.lists(_TEXTS, min_size=1, max_size=3),
    _TEXTS,
    st.sampled_from([*CONTENT_DIALECTS, "openrouter"]),
)
def test_thinking_round_trips_through_every_dialect(
    thoughts: list[str], said: str, dialect: Any
) -> None:
    blocks = tuple(ThinkingBlock(t) for t in thoughts)
    conversation = [UserMessage("Q"), AssistantMessage((*blocks, TextBlock(said)))]
    body = chat.encode_request(conversation, dialect=dialect)
    check_chat(body)
    decoded = chat.decode_request(body)
    back = decoded[1]
    texts = [b.thinking for b in back.blocks if isinstance(b, ThinkingBlock)]
    if dialect == "openrouter":
        assert texts == thoughts  # one entry each
    else:
        assert texts == ["\n".join(thoughts)]  # one field: joined
    assert back.text == said
    assert json_equal(chat.encode_request(decoded, dialect=dialect), body)  # a fixed point


_CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize("dialect", ["openai", "deepseek", "openrouter"])
@pytest.mark.parametrize(
    "beside",
    [
        {"reasoning_content": "Thinking."},
        {"reasoning": "Thinking."},
        {"reasoning_details": [{"type": "reasoning.text", "text": "Thinking."}]},
        {"reasoning_content": "Thinking.", "tool_calls": [_CALL]},
        {"tool_calls": [_CALL]},
        {"refusal": "No."},
    ],
)
@pytest.mark.parametrize("content", [[{"type": "text", "text": "Hi"}], "Hi"])
def test_one_text_beside_reasoning_or_calls_keeps_its_shape(
    content: Any, beside: dict[str, Any], dialect: str
) -> None:
    """A one-part list stays a list, a string stays a string, whatever sits beside it."""
    assistant = {"role": "assistant", "content": content, **beside}
    if dialect == "deepseek" and "tool_calls" in beside and "reasoning_content" not in beside:
        return  # DeepSeek's replay rule adds reasoning_content to a tool-call turn
    if dialect == "openrouter" and "reasoning_details" not in beside and "reasoning" in str(beside):
        return  # OpenRouter's dialect writes the reasoning as reasoning_details
    if dialect == "deepseek" and ("reasoning" in beside or "reasoning_details" in beside):
        return  # DeepSeek's dialect writes it as reasoning_content
    body: dict[str, Any] = {"messages": [{"role": "user", "content": "Q?"}, assistant]}
    if "tool_calls" in beside:
        body["messages"].append({"role": "tool", "tool_call_id": "c1", "content": "done"})
    chat: Any = get("openai_chat")
    again = chat.encode_request(chat.decode_request(body), dialect=dialect)
    assert json_equal(again, body)


def test_the_part_marker_is_chats_own_and_no_other_provider_writes_it() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "Q?"},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Hi"}],
                "tool_calls": [_CALL],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "done"},
        ]
    }
    conversation = get("openai_chat").decode_request(body)
    text = conversation[1].blocks[0]
    assert isinstance(text, TextBlock) and text.text == "Hi"
    for name in ("anthropic", "openai_responses", "gemini", "bedrock"):
        written = json.dumps(get(name).encode_request(conversation))
        assert "content_part" not in written, name
