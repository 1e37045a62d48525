"""The pydantic-ai bridge against the real library.

Laws: ``to_messages(from_messages(h)) == canonical(h)`` for conversations drawn from
``messages.strategies`` pieces restricted to what pydantic-ai represents (``canonical``:
each tool result is its own tool message, as ``ToolReturnPart`` has it, plus the
normalisations pydantic-ai forces, listed in ``normalised``), and everything
``from_messages`` returns survives ``ModelMessagesTypeAdapter`` dump and validate
unchanged. Whatever is outside the restriction follows the policy.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import AudioBlock
from messages import DecodeError
from messages import EncodeError
from messages import FrozenDict
from messages import ImageBlock
from messages import RawBlock
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

pai = pytest.importorskip("pydantic_ai.messages")

from messages.interop import pydantic_ai as bridge  # noqa: E402
from support.interop_shapes import one_result_per_tool_message  # noqa: E402

WHEN = "2026-01-01T00:00:00Z"
ADAPTER = pai.ModelMessagesTypeAdapter


def normalised(message: Any) -> Any:
    """What pydantic-ai makes of a message it can represent.

    An assistant's plain-string content is one text part, and a tool result always states
    its outcome (``is_error=None`` reads back ``False``).
    """
    if isinstance(message, AssistantMessage) and isinstance(message.content, str):
        return replace(message, content=(TextBlock(message.content),))
    if isinstance(message, ToolMessage):
        [result] = message.content
        return replace(message, content=(replace(result, is_error=bool(result.is_error)),))
    return message


def canonical(history: list[Any]) -> list[Any]:
    return [normalised(m) for m in one_result_per_tool_message(history)]


_plain = st.just(FrozenDict())
_text = ms.text_blocks(extra=_plain).map(lambda b: replace(b, citations=None))
_media = (ms.image_blocks() | ms.audio_blocks()).filter(
    lambda b: b.url is not None or (b.data is not None and b.media_type is not None)
)
_call = ms.tool_use_blocks().map(lambda b: replace(b, arguments=None, extra=FrozenDict()))
_result = ms.tool_result_blocks(
    content=st.text() | st.lists(_text | _media, max_size=2).map(tuple)
).map(lambda r: replace(r, extra=FrozenDict()))
_usage = st.none() | st.builds(Usage, st.integers(1, 10**6), st.integers(1, 10**6))


@st.composite
def histories(draw: st.DrawFn) -> list[Any]:
    session = draw(st.none() | st.just("s-1"))
    context = {"timestamp": WHEN, "session_id": session}
    kinds = st.lists(st.sampled_from(["system", "user", "assistant", "tool"]), max_size=6)
    out: list[Any] = []
    for kind in draw(kinds):
        if kind == "system":
            out.append(SystemMessage(draw(st.text(max_size=10)), **context))
        elif kind == "user":
            content = draw(
                st.text(max_size=10) | st.lists(_text | _media | _result, max_size=3).map(tuple)
            )
            out.append(UserMessage(content, **context))
        elif kind == "tool":
            out.append(ToolMessage((draw(_result),), **context))
        else:
            blocks = st.lists(_text | ms.thinking_blocks() | _call, max_size=3).map(tuple)
            out.append(
                AssistantMessage(
                    draw(st.text(max_size=10) | blocks),
                    usage=draw(_usage),
                    stop_reason=draw(
                        st.none() | st.sampled_from(["end_turn", "tool_use", "length"])
                    ),
                    model=draw(st.none() | st.just("gpt-5")),
                    message_id=draw(st.none() | st.just("msg_1")),
                    **context,
                )
            )
    return out


@given(histories())
def test_round_trip(history: list[Any]) -> None:
    theirs = bridge.from_messages(history)
    assert bridge.to_messages(theirs) == canonical(history)


@given(histories())
def test_the_type_adapter_accepts_everything_from_messages_returns(history: list[Any]) -> None:
    theirs = bridge.from_messages(history)
    dumped = ADAPTER.dump_json(theirs)
    assert ADAPTER.validate_json(dumped) == theirs
    assert ADAPTER.validate_python(ADAPTER.dump_python(theirs)) == theirs


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
        assert raised == dropped or _same_but_time(raised, dropped)
    for theirs in (dropped, texted):
        assert ADAPTER.validate_python(ADAPTER.dump_python(theirs)) == theirs
        bridge.to_messages(theirs)


def _same_but_time(a: list[Any], b: list[Any]) -> bool:
    """pydantic-ai stamps the time on what has none: two calls differ in those stamps only."""
    strip = lambda ms_: [m.kind for m in ms_]  # noqa: E731
    return strip(a) == strip(b)


def test_parts_and_fields_map_as_documented() -> None:
    when = bridge.WHEN
    history = [
        pai.ModelRequest(
            parts=[
                pai.SystemPromptPart("Be brief.", timestamp=when),
                pai.UserPromptPart(
                    ["Look:", pai.BinaryContent(b"\x89PNG", media_type="image/png")],
                    timestamp=when,
                ),
                pai.ToolReturnPart("ls", {"files": 2}, tool_call_id="c1", timestamp=when),
            ],
            timestamp=when,
            conversation_id="s-1",
        ),
        pai.ModelResponse(
            parts=[
                pai.ThinkingPart("hm", signature="sig", provider_name="anthropic"),
                pai.ThinkingPart("", id="redacted_thinking", signature="xyz"),
                pai.TextPart("Two files."),
                pai.ToolCallPart("ls", '{"path": "."}', tool_call_id="c2"),
                pai.NativeToolCallPart("web_search", {"q": "x"}, tool_call_id="b1"),
            ],
            usage=pai.RequestUsage(input_tokens=100, cache_read_tokens=90, output_tokens=5),
            model_name="claude-sonnet-4-5",
            provider_response_id="msg_1",
            provider_details={"finish_reason": "tool_use"},
            finish_reason="tool_call",
            timestamp=when,
        ),
    ]
    system, user, tool, assistant = bridge.to_messages(history)
    assert system == SystemMessage("Be brief.", timestamp="2026-01-01T00:00:00Z", session_id="s-1")
    assert user.blocks == (TextBlock("Look:"), ImageBlock(data="iVBORw==", media_type="image/png"))
    [result] = tool.content
    assert (result.tool_use_id, result.name, result.text) == ("c1", "ls", '{"files": 2}')
    assert result.extra == {"content_kind": "json"} and result.is_error is False
    thinking, redacted, text, call, native = assistant.content
    assert thinking == ThinkingBlock("hm", signature="sig", provider="anthropic")
    assert redacted == ThinkingBlock("", signature="xyz", redacted=True)
    assert text == TextBlock("Two files.")
    assert call == ToolUseBlock("c2", "ls", {"path": "."}, arguments='{"path": "."}')
    assert isinstance(native, RawBlock) and native.data["part_kind"] == "builtin-tool-call"
    assert assistant.usage == Usage(10, 5, 90)
    assert (assistant.model, assistant.message_id, assistant.stop_reason) == (
        "claude-sonnet-4-5",
        "msg_1",
        "tool_use",
    )
    back = bridge.from_messages([system, user, tool, assistant])
    assert ADAPTER.dump_python(back, mode="json") == ADAPTER.dump_python(history, mode="json")


def test_what_pydantic_ai_cannot_carry_follows_the_policy() -> None:
    turn = UserMessage((TextBlock("see"), ImageBlock(file_id="file_1")), timestamp=WHEN)
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([turn])
    assert info.value.path == "$[0].content[1]"
    [dropped] = bridge.from_messages([turn], unsupported="drop")
    assert dropped.parts[0].content == ["see"]
    [texted] = bridge.from_messages([turn], unsupported="text")
    assert texted.parts[0].content == ["see", "[image: file file_1]"]


def test_a_key_pydantic_ai_would_ignore_is_refused() -> None:
    turn = AssistantMessage(
        (TextBlock("a", extra={"cache_control": {"type": "ephemeral"}}),), timestamp=WHEN
    )
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([turn])
    assert info.value.path == "$[0].content[0].extra.cache_control"


def test_a_timestamp_pydantic_ai_cannot_write_back_is_refused() -> None:
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([UserMessage("hi", timestamp=1766445145513)])
    assert info.value.path == "$[0].timestamp"


@pytest.mark.parametrize(
    ("objects", "path"),
    [
        ([{"kind": "request", "parts": []}], "$[0]"),
        ([pai.ModelRequest(parts=[]), 3], "$[1]"),
    ],
)
def test_bad_input_raises_decode_error_with_a_path(objects: list[Any], path: str) -> None:
    with pytest.raises(DecodeError) as info:
        bridge.to_messages(objects)
    assert info.value.path == path


def test_a_half_built_message_raises_decode_error() -> None:
    half = object.__new__(pai.ModelResponse)
    with pytest.raises(DecodeError) as info:
        bridge.to_messages([half])
    assert info.value.path.startswith("$[0]")


def test_not_a_message_on_the_way_out() -> None:
    with pytest.raises(EncodeError) as info:
        bridge.from_messages([UserMessage("hi"), None])  # type: ignore[list-item]
    assert info.value.path == "$[1]"


def test_no_deprecation_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bridge.from_messages(
            [UserMessage("x", timestamp=WHEN), ToolMessage((ToolResultBlock("c", "y"),))]
        )


_ = AudioBlock
