"""messages.providers.gemini beyond the provider contract (tests/contract/): its own shapes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from conftest import json_equal
from messages import AssistantMessage
from messages import AudioBlock
from messages import DocumentBlock
from messages import ImageBlock
from messages import RawBlock
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
from messages import VideoBlock
from messages.convert import normalize_messages
from messages.providers import gemini as g
from support.provider_checks import check_gemini
from support.provider_checks import check_response_survives
from support.provider_checks import fixture_names
from support.provider_checks import load
from support.provider_checks import view
from support.provider_strategies import conversations
from support.provider_strategies import simple_responses
from support.provider_strategies import well_formed

AREA = "gemini"


# ---------------------------------------------------------------------------- exact replay


def test_reference_example_decodes_to_the_expected_turns() -> None:
    system, user, model, tool = g.decode_request(load(AREA, "reference_request.json"))
    assert system == SystemMessage((TextBlock("Be terse."),))
    assert user == UserMessage(
        (
            TextBlock("Weather in Paris? See photo."),
            ImageBlock(data="/9j/4AAQ...", media_type="image/jpeg"),
        ),
        extra={"role": "user"},
    )
    assert model == AssistantMessage(
        (
            ThinkingBlock("User wants weather..."),
            ToolUseBlock(
                "fc1", "get_weather", {"city": "Paris"}, extra={"thoughtSignature": "CiQB0e2Kb..."}
            ),
        )
    )
    assert tool == ToolMessage(
        (ToolResultBlock("fc1", "18C, cloudy", name="get_weather"),), extra={"role": "user"}
    )


def test_agent_loop_details() -> None:
    messages = g.decode_request(load(AREA, "request_agent_loop.json"))
    system = messages[0]
    assert isinstance(system, SystemMessage) and system.extra == {"role": "user"}
    user = messages[1]
    assert user.extra == {}  # this content had no role: none is written back
    image = user.content[2]
    assert image == ImageBlock(
        file_id="gs://bucket/screen.png",
        media_type="image/png",
        extra={"fileData": {"displayName": "screen.png"}},
    )
    assert isinstance(user.content[3], AudioBlock)
    assert user.content[1] == DocumentBlock(  # a text file is a document
        file_id="https://generativelanguage.googleapis.com/v1beta/files/abc123",
        media_type="text/plain",
    )
    assert user.content[4] == VideoBlock(
        file_id="https://www.youtube.com/watch?v=9hE5-98ZeCg",
        media_type="video/mp4",
        start_offset="1s",
        end_offset="5s",
    )
    calls = messages[2]
    assert [t.id for t in calls.tool_uses] == ["gemini_call_0", "gemini_call_1"]
    assert calls.tool_uses[0].extra == {"thoughtSignature": "CsoBAVSoXO7-sig-1"}
    answers = messages[3]
    assert isinstance(answers, ToolMessage)
    assert answers.content == (
        ToolResultBlock("gemini_call_0", "main.o\nutil.o\n", name="shell"),
        ToolResultBlock(
            "gemini_call_1", "cat: build/link.txt: No such file", is_error=True, name="shell"
        ),
    )
    multimodal = messages[5].content[0]
    assert multimodal == ToolResultBlock(
        "call-7",
        (TextBlock("captured"), ImageBlock(data="iVBORw0KGgo=", media_type="image/png")),
        name="screenshot",
    )
    mixed = messages[6]
    assert [type(b).__name__ for b in mixed.content] == [
        "RawBlock",
        "RawBlock",
        "ToolUseBlock",
        "TextBlock",
        "TextBlock",
    ]
    assert mixed.content[3].extra == {"thoughtSignature": "CsoBAVSoXO7-sig-3"}
    assert mixed.content[4] == TextBlock("", extra={"thoughtSignature": "CsoBAVSoXO7-sig-4"})
    structured = messages[7].content[0]
    assert structured.text == '{"result": {"rows": 3}}'
    assert structured.tool_use_id == "gemini_call_2"  # answers the id-less "lookup" call
    assert messages[-1].extra == {"role": "function"}


def test_synthetic_ids_are_deterministic_and_never_sent() -> None:
    body = load(AREA, "request_agent_loop.json")
    first, second = g.decode_request(body), g.decode_request(body)
    assert first == second
    sent = g.encode_request(first)["contents"]
    call = sent[1]["parts"][1]["functionCall"]
    assert "id" not in call
    check_gemini(g.encode_request([first[2], first[3]]), paired=True)


def test_responses_get_ids_scoped_by_response_id() -> None:
    message = g.decode_response(load(AREA, "response_tool_call.json"))
    assert [t.id for t in message.tool_uses] == [
        "gemini_call_Dj2kaL7fKZ2Y1e8P_0",
        "gemini_call_Dj2kaL7fKZ2Y1e8P_1",
    ]


def test_snake_case_names_are_read_and_written_camel_case() -> None:
    body = {
        "system_instruction": {"parts": [{"text": "Be terse."}]},
        "contents": [
            {
                "role": "model",
                "parts": [
                    {"function_call": {"name": "f", "args": {"a": 1}}, "thought_signature": "s"},
                    {"inline_data": {"mime_type": "image/png", "data": "AA=="}},
                ],
            }
        ],
    }
    messages = g.decode_request(body)
    assert messages[1] == AssistantMessage(
        (
            ToolUseBlock("gemini_call_0", "f", {"a": 1}, extra={"thoughtSignature": "s"}),
            ImageBlock(data="AA==", media_type="image/png"),
        )
    )
    assert g.encode_request(messages)["contents"][0]["parts"][0] == {
        "functionCall": {"name": "f", "args": {"a": 1}},
        "thoughtSignature": "s",
    }


# ----------------------------------------------------------------------- building requests


def test_user_built_conversation_merges_same_role_turns() -> None:
    # (the body below spells out each call and response in full, as the wire does)
    conversation = [
        SystemMessage("Be terse."),
        SystemMessage("Use metric units.", role="developer"),
        UserMessage("Weather in Paris and Rome?"),
        AssistantMessage(
            (
                ToolUseBlock("call_1", "get_weather", {"city": "Paris"}),
                ToolUseBlock("call_2", "get_weather", {"city": "Rome"}),
            )
        ),
        ToolMessage((ToolResultBlock("call_1", "18C"),)),
        ToolMessage((ToolResultBlock("call_2", "25C", is_error=False),)),
        UserMessage("And tomorrow?"),
    ]
    body = g.encode_request(conversation)
    assert body == {
        "systemInstruction": {"parts": [{"text": "Be terse."}, {"text": "Use metric units."}]},
        "contents": [
            {"parts": [{"text": "Weather in Paris and Rome?"}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {
                            "id": "call_1",
                            "name": "get_weather",
                            "args": {"city": "Paris"},
                        }
                    },
                    {
                        "functionCall": {
                            "id": "call_2",
                            "name": "get_weather",
                            "args": {"city": "Rome"},
                        }
                    },
                ],
            },
            {
                "parts": [
                    {
                        "functionResponse": {
                            "id": "call_1",
                            "name": "get_weather",
                            "response": {"output": "18C"},
                        }
                    },
                    {
                        "functionResponse": {
                            "id": "call_2",
                            "name": "get_weather",
                            "response": {"output": "25C"},
                        }
                    },
                    {"text": "And tomorrow?"},
                ]
            },
        ],
    }
    check_gemini(body, paired=True)


def test_media_mapping() -> None:
    body = g.encode_request(
        [
            UserMessage(
                (
                    ImageBlock(url="data:image/png;base64,iVBORw0KGgo="),
                    ImageBlock(data="iVBORw0KGgoAAAAN"),  # sniffed: PNG
                    AudioBlock(url="https://example.com/clip.wav"),
                    ImageBlock(
                        file_id="https://generativelanguage.googleapis.com/v1beta/files/x",
                        media_type="image/jpeg",
                    ),
                )
            )
        ]
    )
    assert body["contents"][0]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgoAAAAN"}},
        {"fileData": {"mimeType": "audio/wav", "fileUri": "https://example.com/clip.wav"}},
        {
            "fileData": {
                "mimeType": "image/jpeg",
                "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/x",
            }
        },
    ]


def test_tool_result_shapes() -> None:
    call = ToolUseBlock("c1", "render", {})
    results = [
        ToolResultBlock("c1", "fine"),
        ToolResultBlock("c1", "broke", is_error=True, name="render"),
        ToolResultBlock(
            "c1", (TextBlock("a"), TextBlock("b"), ImageBlock(data="AA==", media_type="image/png"))
        ),
    ]
    body = g.encode_request([AssistantMessage((call,)), UserMessage(tuple(results))])
    responses = [p["functionResponse"] for p in body["contents"][1]["parts"]]
    assert responses == [
        {"id": "c1", "name": "render", "response": {"output": "fine"}},
        {"id": "c1", "name": "render", "response": {"error": "broke"}},
        {
            "id": "c1",
            "name": "render",
            "response": {"output": "a\nb"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": "AA=="}}],
        },
    ]


def test_foreign_extra_keys_are_not_written() -> None:
    conversation = [
        UserMessage(
            (
                TextBlock(
                    "hi", extra={"cache_control": {"type": "ephemeral"}, "type": "input_text"}
                ),
                ImageBlock(url="data:image/png;base64,AA==", extra={"detail": "high"}),
            ),
            extra={"type": "message", "id": "msg_1", "status": "completed"},
        ),
        AssistantMessage(
            (
                TextBlock("ok", extra={"item": {"id": "msg_2"}, "logprobs": [], "type": "refusal"}),
                ToolUseBlock(
                    "call_1", "f", {}, arguments="{}", extra={"id": "fc_1", "status": "completed"}
                ),
            ),
            extra={"candidates": [], "object": "response"},
        ),
    ]
    # Another provider's meaningful fields (a cache hint, an image detail) follow the policy;
    # the record fields of another format (item ids, statuses, type tags) are left out.
    with pytest.raises(UnsupportedContentError) as info:
        g.encode_request(conversation)
    assert info.value.path == "$[0].content[0].extra.cache_control"
    body = g.encode_request(conversation, unsupported="drop")
    assert body["contents"] == [
        {"parts": [{"text": "hi"}, {"inlineData": {"mimeType": "image/png", "data": "AA=="}}]},
        {
            "role": "model",
            "parts": [{"text": "ok"}, {"functionCall": {"id": "call_1", "name": "f"}}],
        },
    ]


# ----------------------------------------------------------------------- unsupported policy


def test_a_call_with_invalid_arguments_is_sent_without_them() -> None:
    # The call stays, so the result answering it still has a call to answer.
    conversation = [
        AssistantMessage((ToolUseBlock("c", "f", arguments='{"a": '),)),
        ToolMessage((ToolResultBlock("c", "cut off"),)),
    ]
    body = g.encode_request(conversation, unsupported="drop")
    assert body["contents"][0] == {
        "role": "model",
        "parts": [{"functionCall": {"id": "c", "name": "f"}}],
    }
    check_gemini(body, paired=True)


def test_drop_and_text_policies() -> None:
    conversation = [
        UserMessage("hi"),
        AssistantMessage(
            (ThinkingBlock("Hmm.", signature="EqQB", provider="anthropic"), TextBlock("Yes."))
        ),
        SystemMessage("Be brief from now on."),
        UserMessage((ImageBlock(file_id="file-abc"),)),
    ]
    assert g.encode_request(conversation, unsupported="drop")["contents"] == [
        {"parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"text": "Yes."}]},
    ]
    assert g.encode_request(conversation, unsupported="text")["contents"] == [
        {"parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"text": "[thinking: Hmm.]"}, {"text": "Yes."}]},
        {
            "parts": [
                {"text": "[system: Be brief from now on.]"},
                {"text": "[image: file file-abc]"},
            ],
        },
    ]


# ------------------------------------------------------------------------------- responses


def test_response_fields() -> None:
    message = g.decode_response(load(AREA, "response_text.json"))
    assert message.message_id == "abc123" and message.model == "gemini-2.5-flash"
    assert message.timestamp == "2025-08-20T10:00:00.000000Z"
    assert message.stop_reason == "STOP" and message.stop is StopReason.END_TURN
    assert message.usage == Usage(12, 49, reasoning_tokens=40, extra={"totalTokenCount": 61})
    assert message.text == "It is 18C and cloudy in Paris."
    assert message.content[1].extra == {"thoughtSignature": "EpICCo8CAb-sig-B"}
    assert message.extra["candidates"][1]["content"]["parts"] == ({"text": "Second candidate."},)
    assert "citationMetadata" in message.extra["candidates"][0]


def test_cached_and_thought_tokens() -> None:
    usage = g.decode_response(load(AREA, "response_tool_call.json")).usage
    assert usage is not None
    assert (usage.input_tokens, usage.cache_read_tokens) == (54, 256)
    assert (usage.output_tokens, usage.reasoning_tokens) == (142, 100)
    assert usage.total_input_tokens == 310


# This test and the next have the shape of their Responses twins on purpose: the facts
# (stop fields, the response body) are each format's own, so each format states them.
@pytest.mark.parametrize(
    ("name", "stop_reason", "stop", "blocks"),
    [
        ("response_blocked.json", None, None, 0),
        ("response_max_tokens.json", "MAX_TOKENS", StopReason.MAX_TOKENS, 0),
        ("response_tool_call.json", "STOP", StopReason.END_TURN, 3),
    ],
)
def test_stop_reasons(
    name: str, stop_reason: str | None, stop: StopReason | None, blocks: int
) -> None:
    message = g.decode_response(load(AREA, name))
    assert (message.stop_reason, message.stop, len(message.blocks)) == (stop_reason, stop, blocks)


def test_user_built_response() -> None:
    message = AssistantMessage(
        (TextBlock("Hi."),),
        usage=Usage(10, 7, 90, reasoning_tokens=2),
        stop_reason="STOP",
        model="gemini-2.5-pro",
        message_id="r1",
    )
    body = g.encode_response(message)
    assert body == {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "Hi."}]}, "finishReason": "STOP"}
        ],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 5,
            "cachedContentTokenCount": 90,
            "thoughtsTokenCount": 2,
        },
        "modelVersion": "gemini-2.5-pro",
        "responseId": "r1",
    }
    assert g.decode_response(body) == AssistantMessage(
        (TextBlock("Hi."),),
        usage=Usage(10, 7, 90, reasoning_tokens=2),
        stop_reason="STOP",
        model="gemini-2.5-pro",
        message_id="r1",
        extra={"candidates": [{"content": {"role": "model"}}]},
    )


# ------------------------------------------------------------------------------- streaming


def test_a_signature_closes_a_text_run() -> None:
    acc = g.accumulator()
    for text, extra in (
        ("a", {}),
        ("b", {"thoughtSignature": "S1"}),
        ("c", {}),
        ("", {"thoughtSignature": "S2"}),
    ):
        acc.feed(
            {"candidates": [{"content": {"role": "model", "parts": [{"text": text, **extra}]}}]}
        )
    acc.feed({"candidates": [{"finishReason": "STOP"}]})
    assert acc.message().content == (
        TextBlock("ab", extra={"thoughtSignature": "S1"}),
        TextBlock("c", extra={"thoughtSignature": "S2"}),
    )


def test_thoughts_and_answers_do_not_merge() -> None:
    acc = g.accumulator()
    for part in (
        {"text": "think", "thought": True},
        {"text": " more", "thought": True},
        {"text": "say"},
    ):
        acc.feed({"candidates": [{"content": {"parts": [part]}}]})
    assert acc.snapshot().content == (ThinkingBlock("think more"), TextBlock("say"))


def test_snapshot_never_raises_on_odd_parts() -> None:
    acc = g.accumulator()
    acc.feed({"candidates": [{"content": {"parts": [{"text": 5}, {"text": "ok"}]}}]})
    assert [type(b).__name__ for b in acc.snapshot().content] == ["RawBlock", "TextBlock"]


# ---------------------------------------------------------------------------------- errors


# ------------------------------------------------------------------------------------ laws


@given(well_formed(gemini=True))
def test_agent_loops_encode_to_valid_paired_requests(conversation: list[Any]) -> None:
    body = g.encode_request(conversation)
    check_gemini(body, paired=True)
    assert view(g.decode_request(body), gemini=True) == view(conversation, gemini=True)


@given(simple_responses())
def test_responses_round_trip(message: AssistantMessage) -> None:
    usage = ("input_tokens", "output_tokens", "cache_read_tokens", "reasoning_tokens")
    check_response_survives("gemini", message, usage)


@given(conversations(gemini=True))
def test_flat_messages_encode_like_the_turns_they_came_from(conversation: list[Any]) -> None:
    flat = list(normalize_messages(conversation))
    assert json_equal(g.encode_request(flat), g.encode_request(conversation))


@pytest.mark.parametrize(
    "parts",
    [
        [{"functionResponse": {"name": "f", "response": {"output": {"rows": 3}}}}],
        [{"functionResponse": {"name": "f", "response": None}}],
        [
            {
                "functionResponse": {
                    "name": "f",
                    "response": {"output": "x"},
                    "parts": [{"text": "no"}],
                }
            }
        ],
        [{"functionResponse": {"name": "f", "response": {"output": "x"}, "parts": "odd"}}],
        [{"functionResponse": {"response": {"output": "no name"}}}],
        [{"functionResponse": {"name": "f"}}],
        [{"inlineData": {"data": "AA=="}}],
        [{"fileData": {"fileUri": "gs://b/o"}}],
        [{"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0="}}],
        [{"text": "t", "thought": True, "thoughtSignature": None}],
    ],
)
def test_odd_parts_replay_exactly(parts: list[Any]) -> None:
    body = {"contents": [{"role": "user", "parts": parts}]}
    assert json_equal(g.encode_request(g.decode_request(body)), body)


def test_odd_calls_replay_exactly() -> None:
    body = {
        "contents": [
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "f", "id": None, "args": {"a": [1, 2.0, True]}}}
                ],
            }
        ]
    }
    assert json_equal(g.encode_request(g.decode_request(body)), body)


@pytest.mark.parametrize("part", [{"thoughtSignature": "only metadata"}, "not an object"])
def test_parts_with_no_data_cannot_be_sent_back(part: Any) -> None:
    messages = g.decode_request({"contents": [{"parts": [part]}]})
    assert isinstance(messages[0].content[0], RawBlock)
    with pytest.raises(UnsupportedContentError, match="this raw block is not a Gemini part"):
        g.encode_request(messages)


def test_a_call_in_a_user_content_moves_to_a_model_content() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}, {"functionCall": {"name": "f"}}]}]
    }
    assert g.encode_request(g.decode_request(body))["contents"] == [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "f"}}]},
    ]


def test_structured_function_responses_read_as_json_text() -> None:
    (message,) = g.decode_request(
        {
            "contents": [
                {
                    "parts": [
                        {"functionResponse": {"name": "f", "response": {"output": {"rows": 3}}}}
                    ]
                }
            ]
        }
    )
    assert message.tool_results[0].text == '{"rows": 3}'


def test_both_spellings_of_a_name_are_kept_apart() -> None:
    part = {"text": "x", "thought_signature": "snake", "thoughtSignature": "camel"}
    (message,) = g.decode_request({"contents": [{"parts": [part]}]})
    assert message.content[0].extra == {"thought_signature": "snake", "thoughtSignature": "camel"}


@pytest.mark.parametrize("name", fixture_names(AREA, "response"))
def test_candidate_parts_are_sent_back_as_they_came(name: str) -> None:
    body = load(AREA, name)
    message = g.decode_response(body)
    sent = g.encode_request([UserMessage("go"), message])
    parts = body.get("candidates", [{}])[0].get("content", {}).get("parts", [])
    if parts:
        assert json_equal(sent["contents"][1], {"role": "model", "parts": parts})
    else:
        assert len(sent["contents"]) == 1  # nothing to send back


# ------------------------------------------------------------------- Gemini 3 signatures


def test_the_sentinel_goes_on_the_first_unsigned_call_of_each_model_content() -> None:
    from messages import AssistantMessage
    from messages import ToolResultBlock
    from messages import ToolUseBlock
    from messages import UserMessage

    conversation = [
        UserMessage("Weather and time?"),
        AssistantMessage((ToolUseBlock("c1", "weather", {}), ToolUseBlock("c2", "time", {}))),
        UserMessage((ToolResultBlock("c1", "18C"), ToolResultBlock("c2", "noon"))),
        AssistantMessage((ToolUseBlock("c3", "f", {}, extra={"thoughtSignature": "cmVhbA=="}),)),
    ]
    body = g.encode_request(conversation, unsigned_calls="sentinel")
    first, second = body["contents"][1]["parts"]
    assert first["thoughtSignature"] == g.SKIP_SIGNATURE == "skip_thought_signature_validator"
    assert "thoughtSignature" not in second
    assert body["contents"][3]["parts"][0]["thoughtSignature"] == "cmVhbA=="
    assert "thoughtSignature" not in g.encode_request(conversation)["contents"][1]["parts"][0]


def test_an_unknown_unsigned_calls_choice_is_an_error_with_its_value() -> None:
    from messages import EncodeError

    with pytest.raises(EncodeError, match="expected unsigned_calls='leave' or 'sentinel'") as info:
        g.encode_request([], unsigned_calls="fill")  # type: ignore[arg-type]
    assert info.value.value == "fill"
    assert info.value.source == "gemini"


def test_empty_text_blocks_in_a_tool_result_add_no_newlines() -> None:
    # Found by the matrix law: two empty text blocks were joined into "\n", which came
    # back as a result saying "\n" where the source said nothing.
    conversation = [
        AssistantMessage((ToolUseBlock("c1", "f", {}),)),
        ToolMessage(
            (ToolResultBlock("c1", (TextBlock(""), TextBlock("a"), TextBlock(""), TextBlock("b"))),)
        ),
        AssistantMessage((ToolUseBlock("c2", "f", {}),)),
        ToolMessage((ToolResultBlock("c2", (TextBlock(""), TextBlock(""))),)),
    ]
    body = g.encode_request(conversation)
    outputs = [
        part["functionResponse"]["response"]["output"]
        for content in body["contents"]
        for part in content["parts"]
        if "functionResponse" in part
    ]
    assert outputs == ["a\nb", ""]
