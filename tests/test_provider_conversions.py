"""Histories moved between OpenAI Responses and Gemini keep text, tool calls and results."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import ImageBlock
from messages import Message
from messages import SystemMessage
from messages import TextBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages import thaw
from messages.providers import gemini as g
from messages.providers import openai_responses as r
from messages.providers._carry import as_turns
from support.provider_checks import check_gemini
from support.provider_checks import check_responses
from support.provider_checks import load
from support.provider_strategies import well_formed

PORTABLE_IMAGES = st.one_of(
    st.builds(ImageBlock, data=st.just("iVBORw0KGgo="), media_type=st.just("image/png")),
    st.builds(ImageBlock, url=st.just("https://example.com/chart.png")),
    st.builds(ImageBlock, url=st.just("data:image/jpeg;base64,/9j/4AAQ")),
)


def _image(block: ImageBlock) -> tuple[Any, ...]:
    """An image by content: an http URL and a Gemini file URI of it are the same image."""
    if block.data is not None:
        return ("image", block.media_type, block.data)
    ref = block.url if block.url is not None else block.file_id
    assert ref is not None
    if ref.startswith("data:"):
        head, _, data = ref.partition(",")
        return ("image", head[5:].removesuffix(";base64"), data)
    return ("image", ref)


def portable(messages: tuple[Message, ...] | list[Message]) -> list[Any]:
    """Text by side, calls with their arguments, results with their text, images."""
    out: list[Any] = []
    for turn in as_turns(messages):
        if isinstance(turn, SystemMessage):
            if out and out[-1][0] == "system":
                out[-1] = ("system", out[-1][1] + "\n" + turn.text)
            else:
                out.append(("system", turn.text))
            continue
        side = "assistant" if isinstance(turn, AssistantMessage) else "user"
        for block in turn.blocks:
            if isinstance(block, TextBlock):
                out.append(("text", side, block.text))
            elif isinstance(block, ToolUseBlock):
                out.append(("call", block.id, block.name, thaw(block.input)))
            elif isinstance(block, ToolResultBlock):
                out.append(("result", block.tool_use_id, block.text))
            elif isinstance(block, ImageBlock):
                out.append(_image(block))
    return out


def responses_to_gemini_and_back(body: dict[str, Any]) -> tuple[Any, Any]:
    history = r.decode_request(body)
    gemini_body = g.encode_request(history, unsupported="drop")
    check_gemini(gemini_body, paired=True)
    back = r.encode_request(g.decode_request(gemini_body), unsupported="drop")
    check_responses(back, paired=True)
    return history, r.decode_request(back)


def test_reference_history_survives_a_trip_through_gemini() -> None:
    history, back = responses_to_gemini_and_back(load("openai_responses", "reference_request.json"))
    assert (
        portable(back)
        == portable(history)
        == [
            ("system", "Be terse."),
            ("text", "user", "Weather in Paris?"),
            ("image", "image/png", "iVBOR..."),
            ("call", "call_1", "get_weather", {"city": "Paris"}),
            ("result", "call_1", "18C, cloudy"),
            ("text", "assistant", "18C."),
        ]
    )
    # The encrypted reasoning is OpenAI's alone: it did not survive the trip.
    assert not any(m.thinking for m in back)


def test_gemini_history_with_unnamed_calls_survives_a_trip_through_responses() -> None:
    body = load("gemini", "request_agent_loop.json")
    history = g.decode_request(body)
    responses_body = r.encode_request(history, unsupported="drop")
    check_responses(responses_body)
    calls = [i for i in responses_body["input"] if i.get("type") == "function_call"]
    assert [c["call_id"] for c in calls] == [
        "gemini_call_0",
        "gemini_call_1",
        "call-7",
        "gemini_call_2",
    ]
    again = g.encode_request(r.decode_request(responses_body), unsupported="drop")
    sent_calls = [
        p["functionCall"] for c in again["contents"] for p in c["parts"] if "functionCall" in p
    ]
    assert [c.get("id") for c in sent_calls] == [None, None, "call-7", None]
    back = g.decode_request(again)
    kept = [e for e in portable(history) if e[0] in ("call", "result") and e[1] != "gemini_call_3"]
    assert [e for e in portable(back) if e[0] in ("call", "result")] == kept
    texts = [e for e in portable(back) if e[0] == "text"]
    assert ("text", "assistant", "util.o is built without -fPIC.") in texts


def test_a_gemini_response_continues_as_a_responses_request() -> None:
    answer = g.decode_response(load("gemini", "response_tool_call.json"))
    results = ToolMessage(tuple(ToolResultBlock(t.id, "sunny") for t in answer.tool_uses))
    body = r.encode_request([UserMessage("Weather?"), answer, results], unsupported="drop")
    check_responses(body, paired=True)
    assert [i["call_id"] for i in body["input"] if i.get("type") == "function_call"] == [
        "gemini_call_Dj2kaL7fKZ2Y1e8P_0",
        "gemini_call_Dj2kaL7fKZ2Y1e8P_1",
    ]
    # The thought summary has no OpenAI reasoning id: under "drop" it is left out.
    assert not any(i.get("type") == "reasoning" for i in body["input"])


@pytest.mark.parametrize("policy", ["drop", "text"])
def test_an_openai_response_continues_as_a_gemini_request(policy: Any) -> None:
    answer = r.decode_response(load("openai_responses", "response_tool_call.json"))
    history = [
        UserMessage("Run the tests."),
        answer,
        ToolMessage(tuple(ToolResultBlock(t.id, "ok") for t in answer.tool_uses)),
    ]
    body = g.encode_request(history, unsupported=policy)
    check_gemini(body, paired=True)
    model = body["contents"][1]
    assert set(model) == {"role", "parts"}  # the response's own fields stay behind
    assert model["role"] == "model" and all(
        set(p) <= {"text", "functionCall"} for p in model["parts"]
    )
    assert json_equal(
        [p["functionResponse"]["name"] for p in body["contents"][2]["parts"]], ["shell", "shell"]
    )


@given(well_formed(gemini=False, media=PORTABLE_IMAGES))
def test_responses_to_gemini_to_responses_keeps_the_conversation(history: list[Message]) -> None:
    _, back = responses_to_gemini_and_back(r.encode_request(history))
    assert portable(back) == portable(history)


@given(well_formed(gemini=True, media=PORTABLE_IMAGES))
def test_gemini_to_responses_to_gemini_keeps_the_conversation(history: list[Message]) -> None:
    gemini_body = g.encode_request(history)
    responses_body = r.encode_request(g.decode_request(gemini_body), unsupported="drop")
    check_responses(responses_body, paired=True)
    back = g.encode_request(r.decode_request(responses_body), unsupported="drop")
    check_gemini(back, paired=True)
    assert portable(g.decode_request(back)) == portable(history)
