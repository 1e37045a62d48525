"""OpenTelemetry GenAI messages (issue 27): both ways, judged by ``opentelemetry-util-genai``.

The oracle builds every message ``from_messages`` writes as the package's own
``InputMessage``/``OutputMessage`` and part classes (their constructors take no field they
do not define and require the ones they do), dumps it the way the package writes span
attributes (``gen_ai_json_dumps``: bytes as base64) and requires the same JSON back.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import ImageBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import strategies as ms
from messages.interop import otel
from messages.providers import get

genai = pytest.importorskip("opentelemetry.util.genai.types")
utils = pytest.importorskip("opentelemetry.util.genai.utils")

_PARTS = {
    "text": genai.TextPart,
    "reasoning": genai.ReasoningPart,
    "tool_call": genai.ToolCallRequestPart,
    "tool_call_response": genai.ToolCallResponsePart,
    "server_tool_call": genai.ServerToolCallPart,
    "server_tool_call_response": genai.ServerToolCallResponsePart,
    "blob": genai.BlobPart,
    "uri": genai.UriPart,
    "file": genai.FilePart,
    "compaction": genai.CompactionPart,
}


def _no_nones(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _no_nones(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_no_nones(v) for v in value]
    return value


def as_package(message: dict[str, Any]) -> Any:
    """One written message as the package's object (raises TypeError on a field it lacks)."""
    parts = []
    for part in message["parts"]:
        fields = dict(part)
        kind = fields.get("type")
        if kind not in _PARTS:
            parts.append(genai.GenericPart(type=kind))  # (a generic part: its type only)
            continue
        if kind == "blob":
            fields["content"] = base64.b64decode(fields["content"], validate=True)
        fields.setdefault("id", None) if kind in ("tool_call", "tool_call_response") else None
        if kind in ("blob", "uri", "file"):
            fields.setdefault("mime_type", None)
        parts.append(_PARTS[kind](**fields))
    assert message["role"] in {r.value for r in genai.Role}
    fields = {k: v for k, v in message.items() if k != "parts"}
    if "finish_reason" in fields:
        return genai.OutputMessage(parts=parts, **fields)
    return genai.InputMessage(parts=parts, **fields)


def judged(written: list[dict[str, Any]]) -> list[Any]:
    """The package's objects for ``written``; their JSON must be ``written`` exactly."""
    objects = [as_package(m) for m in written]
    dumped = json.loads(utils.gen_ai_json_dumps([dataclasses.asdict(o) for o in objects]))
    generic = [i for i, m in enumerate(written) if any(p["type"] not in _PARTS for p in m["parts"])]
    assert [m for i, m in enumerate(_no_nones(dumped)) if i not in generic] == [
        m for i, m in enumerate(_no_nones(written)) if i not in generic
    ]
    return objects


# ------------------------------------------------------------------------------ writing


@given(ms.conversations(rich=True, max_turns=4), st.sampled_from(["drop", "text"]))
def test_every_conversation_becomes_messages_the_package_accepts(
    conversation: list[Any], policy: Any
) -> None:
    written = otel.from_messages(conversation, unsupported=policy)
    judged(written)
    json.dumps(written)  # plain JSON
    back = otel.to_messages(written)
    assert otel.from_messages(back, unsupported=policy) == written  # a fixed point


@given(ms.conversations(rich=True, max_turns=3))
def test_under_raise_only_unsupported_content_is_raised(conversation: list[Any]) -> None:
    try:
        judged(otel.from_messages(conversation))
    except UnsupportedContentError as exc:
        assert exc.source == "otel" and exc.path.startswith("$[")


def test_an_agent_loop_in_otel_shape() -> None:
    conversation = [
        SystemMessage("Be terse."),
        UserMessage(
            (TextBlock("What is in it?"), ImageBlock(data="iVBORw0KGgo=", media_type="image/png"))
        ),
        AssistantMessage(
            (ThinkingBlock("Look first."), ToolUseBlock("c1", "look", {"at": "image"})),
            stop_reason="tool_use",
        ),
        ToolMessage((ToolResultBlock("c1", "a cat"),)),
        AssistantMessage("A cat.", stop_reason="end_turn"),
    ]
    written = otel.from_messages(conversation)
    judged(written)
    assert written[1]["parts"][1] == {
        "type": "blob",
        "modality": "image",
        "mime_type": "image/png",
        "content": "iVBORw0KGgo=",
    }
    assert written[2]["parts"] == [
        {"type": "reasoning", "content": "Look first."},
        {"type": "tool_call", "id": "c1", "name": "look", "arguments": {"at": "image"}},
    ]
    assert written[2]["finish_reason"] == "tool_call" and written[4]["finish_reason"] == "stop"
    assert written[3] == {
        "role": "tool",
        "parts": [{"type": "tool_call_response", "id": "c1", "response": "a cat"}],
    }
    back = otel.to_messages(written)
    assert [type(m).__name__ for m in back] == [type(m).__name__ for m in conversation]
    assert back[2].tool_uses[0].input == {"at": "image"} and back[3].tool_results[0].text == "a cat"


def test_what_the_conventions_cannot_hold_follows_the_policy() -> None:
    signed = AssistantMessage((ThinkingBlock("hm", signature="c2ln", provider="anthropic"),))
    with pytest.raises(UnsupportedContentError, match="no signature"):
        otel.from_messages([signed])
    assert otel.from_messages([signed], unsupported="drop")[0]["parts"] == [
        {"type": "reasoning", "content": "hm"}
    ]
    failed = ToolMessage((ToolResultBlock("c1", "boom", is_error=True),))
    with pytest.raises(UnsupportedContentError, match="no error flag"):
        otel.from_messages([failed])
    texted = otel.from_messages([failed], unsupported="text")
    assert texted[0]["parts"][0]["response"] == "[error] boom"


# ------------------------------------------------------------------------------ reading


def test_the_packages_own_objects_read_and_write_back() -> None:
    objects = [
        genai.InputMessage(role="user", parts=[genai.TextPart(content="Weather?")], name="ann"),
        genai.OutputMessage(
            role="assistant",
            parts=[
                genai.ReasoningPart(content="Call it."),
                genai.ToolCallRequestPart(arguments={"city": "Paris"}, name="w", id="t1"),
                genai.UriPart(
                    mime_type="image/png", modality="image", uri="https://a.example/x.png"
                ),
                genai.BlobPart(
                    mime_type="audio/wav", modality=genai.Modality.AUDIO, content=b"RIFF"
                ),
                genai.FilePart(mime_type=None, modality="document", file_id="file_1"),
                genai.ServerToolCallPart(name="web_search", server_tool_call={"q": "x"}, id="s1"),
                genai.ServerToolCallResponsePart(server_tool_call_response={"r": 1}, id="s1"),
                genai.CompactionPart(id="cmp_1", content="summary"),
            ],
            finish_reason="tool_call",
        ),
        genai.InputMessage(
            role="tool", parts=[genai.ToolCallResponsePart(response={"temp": 18}, id="t1")]
        ),
    ]
    conversation = otel.to_messages(objects)
    assert conversation[0].extra == {"name": "ann"}
    assert conversation[1].stop_reason == "tool_call" and conversation[1].stop.value == "tool_use"
    assert conversation[2].tool_results[0].text == '{"temp": 18}'
    expected = json.loads(utils.gen_ai_json_dumps([dataclasses.asdict(o) for o in objects]))
    assert _no_nones(otel.from_messages(conversation)) == _no_nones(expected)


def test_span_attributes_both_ways() -> None:
    conversation = [
        SystemMessage("Be terse."),
        UserMessage("Hi"),
        AssistantMessage("Hello.", stop_reason="end_turn"),
    ]
    attributes = otel.to_attributes(conversation)
    assert json.loads(attributes[otel.SYSTEM]) == [{"type": "text", "content": "Be terse."}]
    assert [m["role"] for m in json.loads(attributes[otel.INPUT])] == ["user"]
    assert json.loads(attributes[otel.OUTPUT])[0]["finish_reason"] == "stop"
    back = otel.from_attributes(attributes)
    assert [m.text for m in back] == ["Be terse.", "Hi", "Hello."]


def test_a_trace_becomes_any_providers_request() -> None:
    trace = {
        otel.INPUT: json.dumps(
            [
                {"role": "user", "parts": [{"type": "text", "content": "Time?"}]},
                {
                    "role": "assistant",
                    "parts": [{"type": "tool_call", "name": "now", "arguments": "{}"}],
                },
                {"role": "tool", "parts": [{"type": "tool_call_response", "response": "12:00"}]},
            ]
        )
    }
    conversation = otel.from_attributes(trace)
    call = conversation[1].tool_uses[0]
    assert call.id == "otel_call_0" and call.input == {}
    for name in ("anthropic", "openai_chat", "gemini", "bedrock"):
        body = get(name).encode_request(conversation, unsupported="drop")
        assert "now" in json.dumps(body)


def test_bad_input_names_the_place() -> None:
    from messages import DecodeError

    with pytest.raises(DecodeError, match=r"\$\[0\]\.parts"):
        otel.to_messages([{"role": "user", "parts": "hi"}])
    with pytest.raises(DecodeError, match=r"\$\[0\]\.role"):
        otel.to_messages([{"role": "robot", "parts": []}])
    with pytest.raises(DecodeError, match=r"gen_ai\.input\.messages"):
        otel.from_attributes({otel.INPUT: "[not json"})


def test_finish_reasons_are_the_conventions_words() -> None:
    allowed = set(get_args(genai.FinishReason))
    for raw in ("end_turn", "tool_use", "max_tokens", "refusal", "STOP", "tool_calls", "failed"):
        written = otel.from_messages([AssistantMessage("x", stop_reason=raw)])
        assert written[0]["finish_reason"] in allowed, raw
