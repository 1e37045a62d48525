"""messages.providers.openai_responses beyond the contract in tests/contract/: items, events."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example
from hypothesis import given

from conftest import json_equal
from messages import AssistantMessage
from messages import DocumentBlock
from messages import ImageBlock
from messages import RawBlock
from messages import ServerToolResultBlock
from messages import ServerToolUseBlock
from messages import StopReason
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages.providers import openai_responses as r
from support.provider_cases import AUDIO
from support.provider_cases import FOREIGN_THINKING
from support.provider_checks import check_response_survives
from support.provider_checks import check_responses
from support.provider_checks import fixture_names
from support.provider_checks import load
from support.provider_checks import view
from support.provider_specs import SPECS
from support.provider_strategies import conversations
from support.provider_strategies import simple_responses
from support.provider_strategies import well_formed

AREA = "openai_responses"


# ---------------------------------------------------------------------------- exact replay


def test_reference_example_decodes_to_the_expected_turns() -> None:
    messages = r.decode_request(load(AREA, "reference_request.json"))
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "UserMessage",
        "AssistantMessage",
        "ToolMessage",
        "AssistantMessage",
    ]
    system, user, calls, tool, answer = messages
    assert system == SystemMessage("Be terse.")
    assert user.content[1] == ImageBlock(
        url="data:image/png;base64,iVBOR...", extra={"detail": "auto"}
    )
    thinking, call = calls.content
    assert thinking == ThinkingBlock(
        "Call weather.", signature="gAAAAABo...", provider="openai", extra={"id": "rs_1"}
    )
    assert call == ToolUseBlock(
        "call_1",
        "get_weather",
        {"city": "Paris"},
        arguments='{"city":"Paris"}',
        extra={"id": "fc_1", "status": "completed"},
    )
    assert tool == ToolMessage((ToolResultBlock("call_1", "18C, cloudy"),))
    assert answer.text == "18C."
    assert answer.content[0].extra["item"] == {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
    }


def test_agent_loop_keeps_what_it_cannot_model() -> None:
    messages = r.decode_request(load(AREA, "request_agent_loop.json"))
    developer = messages[1]
    assert developer == SystemMessage("Prefer ripgrep over grep.", role="developer")
    user = messages[2]
    assert isinstance(user, UserMessage)
    assert user.extra == {"type": "message"}
    assert user.content[0].extra == {"prompt_cache_breakpoint": {"type": "ephemeral"}}
    assert user.content[1] == DocumentBlock(file_id="file-9Qx2", filename="build.log")
    turn = messages[3]
    assert isinstance(turn, AssistantMessage)
    reasoning = turn.content[0]
    assert isinstance(reasoning, ThinkingBlock)
    assert (
        reasoning.thinking.startswith("**Reading the log**")
        and "**Next step**" in reasoning.thinking
    )
    assert len(reasoning.extra["summary"]) == 2  # two parts cannot be rebuilt from one text
    duplicate = turn.content[2]
    assert isinstance(duplicate, ToolUseBlock)
    assert duplicate.input == {"cmd": "dup"}
    assert duplicate.arguments == '{"cmd": "cat build/link.txt", "cmd": "dup"}'
    cut = next(
        b for m in messages for b in m.blocks if isinstance(b, ToolUseBlock) and b.id == "call_Hk3"
    )
    assert cut.input == {} and cut.invalid_arguments
    assert cut.extra == {
        "id": "fc_68a6",
        "status": "incomplete",
        "namespace": "repo_tools",
        "x_future": 1,
    }
    kinds = {b.type for m in messages for b in m.blocks if isinstance(b, RawBlock)}
    assert {"computer_call", "computer_call_output", "custom_tool_call"} <= kinds
    search = next(b for m in messages for b in m.blocks if isinstance(b, ServerToolUseBlock))
    assert search == ServerToolUseBlock(
        "ws_1",
        "web_search",
        {"action": {"type": "search", "query": "undefined reference to util_init"}},
        provider="openai",
    )
    done = next(b for m in messages for b in m.blocks if isinstance(b, ServerToolResultBlock))
    assert (done.tool_use_id, done.tool, done.content) == (
        "ws_1",
        "web_search",
        {"status": "completed"},
    )
    assert {"mcp_approval_response", "item_reference", "galaxy_brain_call"} <= kinds
    compacted = [b for m in messages for b in m.blocks if isinstance(b, ServerToolResultBlock)]
    assert compacted[-1].tool == "compaction"  # typed since issue 27
    assert {"input_audio", "brand_new_part"} <= kinds
    refusal = next(b for m in messages for b in m.blocks if "refusal" in b.__repr__())
    assert isinstance(refusal, TextBlock) and refusal.extra["type"] == "refusal"


def test_caller_side_items_are_tool_messages() -> None:
    messages = r.decode_request(load(AREA, "request_agent_loop.json"))
    tools = [m for m in messages if isinstance(m, ToolMessage)]
    assert tools[0].content == (
        ToolResultBlock("call_Hk1", "main.o\nutil.o\n"),
        ToolResultBlock(
            "call_Hk2",
            (
                TextBlock("see screenshot"),
                ImageBlock(url="https://example.com/link.png", extra={"detail": "low"}),
            ),
            extra={"id": "fco_1", "status": "completed"},
        ),
    )
    assert any(
        isinstance(b, RawBlock) and b.type == "computer_call_output"
        for m in tools
        for b in m.blocks
    )


def test_string_input_and_instructions() -> None:
    body = load(AREA, "request_string_input.json")
    assert r.decode_request(body) == (
        SystemMessage("Answer in French."),
        UserMessage("What is the capital of Italy?"),
    )


def test_items_that_look_like_shorthand_keep_their_form() -> None:
    single = r.decode_request(load(AREA, "request_single_item.json"))
    assert single == (UserMessage("What is the capital of Italy?", extra={"role": "user"}),)
    leading = r.decode_request(load(AREA, "request_leading_system_item.json"))
    assert leading[0] == SystemMessage("Answer in French.", extra={"role": "system"})
    listed = r.decode_request(load(AREA, "request_system_list.json"))
    assert listed[0].extra == {"role": "system"}


def test_assistant_items_of_one_turn_are_grouped() -> None:
    body = {
        "input": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "One."}],
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Two."}],
            },
        ]
    }
    (turn,) = r.decode_request(body)
    assert turn == AssistantMessage(
        (
            TextBlock("One.", extra={"item": {"type": "message"}}),
            TextBlock("Two.", extra={"item": {"type": "message"}}),
        )
    )
    assert json_equal(r.encode_request([turn]), body)


# ----------------------------------------------------------------------- building requests


def test_user_built_conversation() -> None:
    conversation = [
        SystemMessage((TextBlock("Be terse."), TextBlock("Use metric units."))),
        UserMessage(
            (TextBlock("Weather?"), ImageBlock(data="iVBORw0KGgo=", media_type="image/png"))
        ),
        AssistantMessage(
            (TextBlock("Checking."), ToolUseBlock("call_1", "get_weather", {"city": "Paris"}))
        ),
        ToolMessage((ToolResultBlock("call_1", "18C"),)),
        AssistantMessage("18C."),
    ]
    body = r.encode_request(conversation)
    assert body == {
        "instructions": "Be terse.\nUse metric units.",
        "input": [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Weather?"},
                    {
                        "type": "input_image",
                        "image_url": "data:image/png;base64,iVBORw0KGgo=",
                        "detail": "auto",
                    },
                ],
            },
            {"role": "assistant", "content": "Checking."},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city":"Paris"}',
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
            {"role": "assistant", "content": "18C."},
        ],
    }
    check_responses(body, paired=True)


def test_flat_messages_are_grouped_into_turns() -> None:
    flat = [
        TextMessage("Look up Paris.", role="user"),
        TextMessage("On it.", role="assistant"),
        ToolUseMessage("call_1", "search", {"q": "Paris"}, role="assistant"),
    ]
    body = r.encode_request(flat)
    assert body["input"] == [
        {"role": "user", "content": [{"type": "input_text", "text": "Look up Paris."}]},
        {"role": "assistant", "content": "On it."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "search",
            "arguments": '{"q":"Paris"}',
        },
    ]


def test_tool_results_inside_user_messages_become_outputs_in_place() -> None:
    body = r.encode_request(
        [UserMessage((ToolResultBlock("call_1", "ok"), TextBlock("next?")), extra={"id": "msg_u"})]
    )
    assert body["input"] == [
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        {"id": "msg_u", "role": "user", "content": [{"type": "input_text", "text": "next?"}]},
    ]


def test_arguments_are_sent_exactly_even_when_invalid() -> None:
    call = ToolUseBlock("call_1", "f", {"a": 1}, arguments='{"a": 1,')
    body = r.encode_request([AssistantMessage((call,))])
    assert body["input"][0]["arguments"] == '{"a": 1,'


def test_foreign_extra_keys_are_not_written() -> None:
    conversation = [
        UserMessage(
            (
                TextBlock(
                    "hi", extra={"cache_control": {"type": "ephemeral"}, "thoughtSignature": "s"}
                ),
            ),
            extra={"name": "alice"},
        ),
        AssistantMessage(
            (
                ToolUseBlock(
                    "call_1", "f", {}, extra={"thoughtSignature": "sig", "caller": {"type": "x"}}
                ),
            )
        ),
    ]
    # Fields that mean something to another provider follow the policy...
    with pytest.raises(UnsupportedContentError) as info:
        r.encode_request(conversation)
    assert info.value.path == "$[0].extra.name"
    # ... and the record fields of another format (Anthropic's ``caller``) are left out.
    body = r.encode_request(conversation, unsupported="drop")
    assert body["input"][0] == {"role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    assert body["input"][1] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "f",
        "arguments": "{}",
    }


# ----------------------------------------------------------------------- unsupported policy


def test_drop_and_text_policies() -> None:
    conversation = [
        UserMessage((TextBlock("hear this"), AUDIO)),
        AssistantMessage((FOREIGN_THINKING, TextBlock("Done."))),
        ToolMessage((ToolResultBlock("call_1", "boom", is_error=True),)),
    ]
    dropped = r.encode_request(conversation, unsupported="drop")
    assert dropped["input"] == [
        {"role": "user", "content": [{"type": "input_text", "text": "hear this"}]},
        {"role": "assistant", "content": "Done."},
        {"type": "function_call_output", "call_id": "call_1", "output": "boom"},
    ]
    texted = r.encode_request(conversation, unsupported="text")
    assert texted["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "hear this"},
                {"type": "input_text", "text": "[audio: audio/wav, 4 bytes]"},
            ],
        },
        # assistant history is string content: one item a text
        {"role": "assistant", "content": "[thinking: Hmm.]"},
        {"role": "assistant", "content": "Done."},
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": "[tool result call_1 (error): boom]",
        },
    ]


# ------------------------------------------------------------------------------- responses


def test_response_fields() -> None:
    message = r.decode_response(load(AREA, "response_tool_call.json"))
    assert message.message_id == "resp_68a1b2c3d4"
    assert message.model == "gpt-5-2025-08-07"
    assert message.timestamp == 1755600000
    assert message.stop_reason == "completed" and message.stop is StopReason.END_TURN
    assert message.usage == Usage(
        499, 312, 1024, reasoning_tokens=192, extra={"total_tokens": 1835}
    )
    assert message.usage.total_input_tokens == 1523
    assert [t.name for t in message.tool_uses] == ["shell", "shell"]
    assert message.text == "Running the test suite."
    assert "usage" not in message.extra and message.extra["object"] == "response"


# Same shape as the Gemini file's test_stop_reasons and test_user_built_response, on purpose:
# the facts are each format's own.
@pytest.mark.parametrize(
    ("name", "stop_reason", "stop", "error"),
    [
        ("response_incomplete.json", "max_output_tokens", StopReason.MAX_TOKENS, None),
        ("response_failed.json", "failed", StopReason.ERROR, "server_error"),
        ("response_text.json", "completed", StopReason.END_TURN, None),
    ],
)
def test_stop_reasons(name: str, stop_reason: str, stop: StopReason, error: str | None) -> None:
    message = r.decode_response(load(AREA, name))
    assert (message.stop_reason, message.stop, message.error) == (stop_reason, stop, error)


def test_user_built_response() -> None:
    message = AssistantMessage(
        (TextBlock("Hi."),),
        usage=Usage(10, 5, 90, reasoning_tokens=2),
        stop_reason="max_output_tokens",
        model="gpt-5",
        message_id="resp_1",
    )
    body = r.encode_response(message)
    assert body == {
        "id": "resp_1",
        "model": "gpt-5",
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "output": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Hi."}],
            }
        ],
        "usage": {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 90},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 2},
        },
    }
    assert r.decode_response(body) == message


def test_encoded_bodies_are_fresh_copies() -> None:
    message = r.decode_response(load(AREA, "response_tool_call.json"))
    body = r.encode_response(message)
    body["output"][0]["summary"].clear()
    body["tools"][0]["name"] = "changed"
    assert r.encode_response(message)["tools"][0]["name"] == "shell"
    assert message.content[0].extra == {"id": "rs_68a1"}


# ------------------------------------------------------------------------------- streaming


def test_snapshots_show_progress() -> None:
    events = load(AREA, "stream_tool_call.jsonl")
    acc = r.accumulator()
    seen_partial_args = []
    texts = []
    for event in events:
        acc.feed(event)
        snap = acc.snapshot()
        texts.append(snap.text)
        seen_partial_args.extend(dict(t.input) for t in snap.tool_uses if t.arguments)
    assert "Running the" in texts  # text grows word by word
    assert {"cmd": "pyte"} in seen_partial_args  # arguments parsed as far as they go
    assert acc.events == len(events) and acc.ignored == 1


def test_snapshot_never_raises_on_odd_items() -> None:
    acc = r.accumulator()
    acc.feed(
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call"}}
    )
    acc.feed(
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {"type": "message", "role": "assistant", "content": [{"type": "output_text"}]},
        }
    )
    snap = acc.snapshot()
    assert all(isinstance(b, RawBlock) for b in snap.content)


# ---------------------------------------------------------------------------------- errors


# ------------------------------------------------------------------------------------ laws


@given(conversations(gemini=False))
# Issue 18: the text after the call was written between the call and its output.
@example(
    [
        AssistantMessage((ToolUseBlock("call_0", "shell"), TextBlock(""))),
        UserMessage((ToolResultBlock("call_0"),)),
    ]
)
# A parallel set keeps its calls together, then their outputs (the API's own order).
@example(
    [
        AssistantMessage((ToolUseBlock("call_a", "shell"), ToolUseBlock("call_b", "read"))),
        UserMessage((ToolResultBlock("call_a"), ToolResultBlock("call_b"))),
    ]
)
def test_what_it_can_carry_round_trips(conversation: list[Any]) -> None:
    # The contract suite runs this law for every provider; here it is pinned on the draws
    # that once failed, which Hypothesis found only now and then.
    spec = SPECS["openai_responses"]
    body = r.encode_request(conversation)
    check_responses(body)
    assert spec.keeps(r.decode_request(body)) == spec.moves(spec.keeps(conversation))


def test_a_late_result_moves_up_to_its_call() -> None:
    from messages import AssistantMessage
    from messages import ToolMessage
    from messages import ToolResultBlock
    from messages import ToolUseBlock
    from messages import UserMessage

    conversation = [
        UserMessage("go"),
        AssistantMessage((ToolUseBlock("c1", "f", {}),)),
        UserMessage(""),
        ToolMessage((ToolResultBlock("c1", "ok"),)),
    ]
    kinds = [item.get("type", item.get("role")) for item in r.encode_request(conversation)["input"]]
    assert kinds == ["user", "function_call", "function_call_output", "user"]


@given(well_formed(gemini=False))
def test_agent_loops_encode_to_valid_paired_requests(conversation: list[Any]) -> None:
    body = r.encode_request(conversation)
    check_responses(body, paired=True)
    assert view(r.decode_request(body), gemini=False) == view(conversation, gemini=False)


@given(simple_responses())
def test_responses_round_trip(message: AssistantMessage) -> None:
    usage = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
    check_response_survives("openai_responses", message, (*usage, "reasoning_tokens"))


@pytest.mark.parametrize(
    "item",
    [
        {"type": "reasoning", "id": "rs_1"},
        {"type": "message", "role": "assistant", "content": None},
        {"type": "message", "role": "assistant"},
        {"type": "message", "role": "assistant", "content": "typed string"},
        {"type": "function_call_output", "output": "no call id"},
        {"type": "function_call_output", "call_id": "c"},
        {"type": "message", "role": "critic", "content": "unknown role"},
        {
            "role": "user",
            "content": [{"type": "input_image", "image_url": None, "file_id": "file-1"}],
        },
        {"role": "user", "content": [{"type": "output_text", "text": "q", "annotations": None}]},
        {"type": "reasoning", "id": "rs_3", "summary": [], "encrypted_content": None},
        {
            "type": "reasoning",
            "id": "rs_2",
            "summary": [{"type": "summary_text", "text": "a"}, "odd"],
        },
    ],
)
def test_odd_items_replay_exactly(item: dict[str, Any]) -> None:
    body = {"input": [{"role": "user", "content": "hi"}, item]}
    assert json_equal(r.encode_request(r.decode_request(body)), body)


def test_thinking_in_a_user_message_degrades_in_place() -> None:
    turn = UserMessage((TextBlock("a"), FOREIGN_THINKING, TextBlock("b")))
    body = r.encode_request([turn], unsupported="text")
    assert body["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "a"},
                {"type": "input_text", "text": "[thinking: Hmm.]"},
                {"type": "input_text", "text": "b"},
            ],
        }
    ]


def test_a_plain_tool_message_degrades_to_a_user_message() -> None:
    body = r.encode_request([UserMessage("x"), ToolMessage("exit 0")], unsupported="text")
    assert body["input"][1] == {
        "role": "user",
        "content": [{"type": "input_text", "text": "[tool result: exit 0]"}],
    }


def test_another_formats_message_type_is_not_an_item_type() -> None:
    body = r.encode_request([UserMessage("x", extra={"type": "human"}), UserMessage("y")])
    assert body["input"][0] == {"role": "user", "content": "x"}


@pytest.mark.parametrize("name", [n for n in fixture_names(AREA, "response") if "odd" not in n])
def test_output_items_are_sent_back_as_they_came(name: str) -> None:
    # (response_odd.json has a message item without id: it goes back in the short form.)
    body = load(AREA, name)
    message = r.decode_response(body)
    sent = r.encode_request([UserMessage("go"), message], unsupported="drop")
    assert json_equal(sent["input"][1:], body["output"])


def test_a_part_type_that_is_not_a_string_keeps_the_item_whole() -> None:
    # It raised TypeError (a list is not hashable) before the contract's damaged-body test.
    item = {"type": "message", "role": "assistant", "content": [{"type": ["output_text"]}]}
    (message,) = r.decode_request({"input": [item]})
    assert message.content == (RawBlock(item),)
    assert r.encode_request([message]) == {"input": [item]}
