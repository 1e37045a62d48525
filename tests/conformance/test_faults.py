"""One test per fault the oracle found in the encoders (``oracle.FAULTS``).

Each is expected to fail while its fault is open (``oracle.OPEN``, ``xfail(strict=True)``
with the fault's description); fixing a fault turns its test green, and taking the name out
of ``OPEN`` then makes every corpus test reject that fault's findings too.
"""

from __future__ import annotations

import json
from typing import Any

from conformance import oracle
from conformance.test_requests import history
from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import ImageBlock
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.providers import get

CALL = ToolUseBlock("call_1", "get_weather", {"city": "Paris"})
RESULT = ToolResultBlock("call_1", "18C")


def clean(provider: str, conversation: list[Any], policy: Any = "raise") -> dict[str, Any]:
    """The body for ``provider``; the oracle must find nothing at all in it."""
    body = get(provider).encode_request(conversation, unsupported=policy)
    found = oracle.check_request(provider, body, paired=True)
    assert not found, "\n".join(map(str, found))
    return body


@oracle.xfail_if_open("responses-assistant-history")
def test_responses_writes_assistant_history_the_sdk_accepts() -> None:
    said = AssistantMessage((TextBlock("It is 18C."),))
    refused = AssistantMessage((TextBlock("I can't.", extra={"type": "refusal"}),))
    clean("openai_responses", [UserMessage("Weather?"), said, UserMessage("And?"), refused])


@oracle.xfail_if_open("responses-empty-user-item")
def test_responses_writes_no_empty_item_after_tool_outputs() -> None:
    conversation = [UserMessage("Weather?"), AssistantMessage((CALL,)), UserMessage((RESULT,))]
    body = clean("openai_responses", conversation)
    back = get("openai_responses").decode_request(body)
    assert len(back) == 3  # no extra, empty user turn


@oracle.xfail_if_open("responses-caller")
def test_responses_keeps_caller_and_its_neighbours() -> None:
    r = get("openai_responses")
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "c1", "output": "ok"}
    body = {
        "input": [
            {**call, "caller": {"type": "direct"}, "x_vendor": 1},
            {**output, "caller": {"type": "program", "caller_id": "p1"}, "x_vendor": 2},
        ]
    }
    assert json_equal(r.encode_request(r.decode_request(body)), body)
    response = {"id": "resp_1", "output": [{**call, "caller": None, "x_vendor": 3}]}
    assert json_equal(r.encode_response(r.decode_response(response)), response)


@oracle.xfail_if_open("responses-image-detail")
def test_responses_writes_input_images_with_a_detail() -> None:
    image = ImageBlock(url="https://example.com/chart.png")
    body = clean("openai_responses", [UserMessage((TextBlock("See:"), image))])
    assert body["input"][0]["content"][1]["detail"] == "auto"


@oracle.xfail_if_open("anthropic-empty-text")
def test_anthropic_writes_no_empty_text_block() -> None:
    signed = TextBlock("", extra={"thoughtSignature": "c2ln"})  # a Gemini signature-only part
    conversation = [
        UserMessage("Weather?"),
        AssistantMessage((TextBlock(""), signed, CALL)),
        UserMessage((RESULT,)),
        AssistantMessage((TextBlock("18C."), TextBlock(""))),
    ]
    clean("anthropic", conversation, "drop")


@oracle.xfail_if_open("anthropic-foreign-compaction")
def test_anthropic_takes_no_responses_compaction_item_for_its_own_block() -> None:
    body = {
        "input": [
            {"role": "user", "content": "Go on."},
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "opaque"},
            {"role": "user", "content": "Next."},
        ]
    }
    clean("anthropic", list(get("openai_responses").decode_request(body)), "drop")


@oracle.xfail_if_open("chat-empty-assistant")
def test_chat_leaves_out_a_turn_with_nothing_it_can_carry() -> None:
    thinking = ThinkingBlock("Let me think.", signature="gAAA", provider="openai")
    conversation = [
        UserMessage("Weather?"),
        AssistantMessage((thinking,)),
        AssistantMessage((CALL,)),
        UserMessage((RESULT,)),
        AssistantMessage((thinking,)),
        UserMessage("Thanks."),
    ]
    body = clean("openai_chat", conversation, "drop")
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "user"]


@oracle.xfail_if_open("chat-response-content-key")
def test_chat_response_without_content_comes_back_without_it() -> None:
    chat = get("openai_chat")
    body = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "refusal": "No."},
            }
        ],
    }
    assert json_equal(chat.encode_response(chat.decode_response(body)), body)


@oracle.xfail_if_open("chat-response-content-parts")
def test_chat_responses_are_what_the_sdk_model_accepts() -> None:
    message = AssistantMessage(
        (TextBlock("Part one. "), TextBlock("Part two.")),
        stop_reason="stop",
        model="gpt-x",
        message_id="chatcmpl-1",
        timestamp=1,
    )
    body = get("openai_chat").encode_response(message)
    oracle.complete("openai_chat", body)  # raises when ChatCompletion rejects it


@oracle.xfail_if_open("gemini-3-signatures")
def test_gemini_fills_the_sentinel_for_unsigned_calls_on_request() -> None:
    g: Any = get("gemini")
    second = ToolUseBlock("call_2", "get_time", {"city": "Paris"})
    signed = ToolUseBlock("call_3", "f", {}, extra={"thoughtSignature": "cmVhbA=="})
    conversation = [
        UserMessage("Weather and time?"),
        AssistantMessage((CALL, second)),
        UserMessage((RESULT, ToolResultBlock("call_2", "noon"))),
        AssistantMessage((signed,)),
        UserMessage((ToolResultBlock("call_3", "ok"),)),
    ]
    plain = g.encode_request(conversation)
    assert "skip_thought" not in json.dumps(plain)  # only on request
    body = g.encode_request(conversation, unsigned_calls="sentinel")
    parallel = body["contents"][1]["parts"]
    assert parallel[0]["thoughtSignature"] == oracle.SKIP_SIGNATURE
    assert "thoughtSignature" not in parallel[1]  # only the first call of a parallel set
    assert body["contents"][3]["parts"][0]["thoughtSignature"] == "cmVhbA=="  # never replaced
    assert oracle.gemini3_unsigned(plain) and not oracle.gemini3_unsigned(body)


@oracle.xfail_if_open("gemini-3-signatures")
def test_gemini_sentinel_signs_every_call_of_the_real_captures() -> None:
    g: Any = get("gemini")
    unsigned = 0
    for name, folder in (("claude_code", "claude_code"), ("codex", "codex_exec")):
        for path in sorted(shared_fixtures(folder).glob("*.jsonl")):
            conversation = history(name, path)
            unsigned += bool(
                oracle.gemini3_unsigned(g.encode_request(conversation, unsupported="drop"))
            )
            body = g.encode_request(conversation, unsupported="drop", unsigned_calls="sentinel")
            assert not oracle.gemini3_unsigned(body), path.name
    assert unsigned  # without the option some of them are rejected by Gemini 3
