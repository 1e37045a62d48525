"""The value types: construction, defaults, immutability, accessors, pattern matching."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

from messages import AssistantMessage
from messages import AudioBlock
from messages import Citation
from messages import DecodeError
from messages import ErrorMessage
from messages import FrozenDict
from messages import ImageBlock
from messages import InitMessage
from messages import RawBlock
from messages import RawMessage
from messages import ResultMessage
from messages import StopReason
from messages import StreamEventMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages._core.fields import Context
from messages.blocks import BLOCK_TYPES
from messages.message import MESSAGE_TYPES


@pytest.mark.parametrize("cls", BLOCK_TYPES + MESSAGE_TYPES + (Usage,))
def test_every_class_is_frozen_slotted_and_final(cls: type) -> None:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen
    assert "__slots__" in cls.__dict__
    assert getattr(cls, "__final__", False) is True
    # No inheritance between data classes but one: a base is object, a field-less slotted
    # mixin, or the shared context base, whose fields are all keyword-only.
    for base in cls.__mro__[1:]:
        assert (
            base is object
            or base is Context
            or (base.__dict__.get("__slots__") == () and not dataclasses.is_dataclass(base))
        ), base
    assert all(f.kw_only for f in dataclasses.fields(Context))


@given(ms.messages())
def test_messages_cannot_be_changed(message: object) -> None:
    field = dataclasses.fields(message)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, field, None)
    with pytest.raises((AttributeError, TypeError)):
        message.surprise = 1  # type: ignore[attr-defined]
    assert hash(message) == hash(message)


def test_mappings_are_frozen_on_the_way_in() -> None:
    source = {"command": ["ls", "-l"]}
    block = ToolUseBlock("t1", "Bash", source)
    source["command"].append("-a")
    assert isinstance(block.input, FrozenDict)
    assert block.input["command"] == ("ls", "-l")
    assert ToolUseBlock("t1", "Bash", source) != block
    assert isinstance(TextBlock("x", extra={"a": [1]}).extra, FrozenDict)


def test_lists_become_tuples() -> None:
    assert AssistantMessage([TextBlock("a")]).content == (TextBlock("a"),)  # type: ignore[arg-type]
    result = ToolResultBlock("t", [TextBlock("a")])  # type: ignore[arg-type]
    assert result.content == (TextBlock("a"),)
    assert InitMessage(tools=["Bash"]).tools == ("Bash",)  # type: ignore[arg-type]
    # a wire citation object is read as its format spells it
    assert TextBlock("x", citations=[{"a": 1}]).citations == (Citation(None, extra={"a": 1}),)  # type: ignore[list-item]
    cited = TextBlock("x", citations=[{"type": "url_citation", "url": "u", "start_index": 0}])  # type: ignore[list-item]
    assert cited.citations == (Citation("url_citation", url="u", text_start=0),)


def test_non_json_in_a_mapping_field_is_a_decode_error() -> None:
    with pytest.raises(DecodeError, match=r"\$.a: expected a JSON value, found set"):
        ToolUseBlock("t", "n", {"a": {1}})
    with pytest.raises(DecodeError, match=r"\$.input: expected a JSON object, found list"):
        ToolUseBlock("t", "n", [1])  # type: ignore[arg-type]
    with pytest.raises(DecodeError, match=r"\$.data: expected a JSON value, found object"):
        RawBlock(object())  # type: ignore[arg-type]


def test_equal_values_are_equal_and_hash_equal() -> None:
    a = AssistantMessage((TextBlock("hi"),), usage=Usage(1, 2), extra={"k": [1]})
    b = AssistantMessage((TextBlock("hi"),), usage=Usage(1, 2), extra={"k": [1]})
    assert a == b and hash(a) == hash(b)
    assert a != dataclasses.replace(b, usage=Usage(1, 3))


def test_defaults() -> None:
    assert ToolUseBlock("t", "n").input == {}
    assert ToolResultBlock("t").content == ""
    assert ToolResultBlock("t").is_error is None
    assert ThinkingBlock("x").signature is None and not ThinkingBlock("x").redacted
    assert AssistantMessage().content == ()
    assert TextMessage("x").role == "assistant"
    assert ToolResultMessage("t").role == "tool"
    assert RawMessage(1).role is None
    assert SystemMessage("x").role == "system"
    assert UserMessage("x").role == "user"
    assert ToolMessage(()).role == "tool"
    assert ResultMessage().usage is None
    assert TextBlock("x").extra == {}


def test_compact_repr_shows_only_what_is_set() -> None:
    assert repr(TextBlock("hi")) == "TextBlock(text='hi')"
    assert repr(Usage(1)) == "Usage(input_tokens=1)"
    assert (
        repr(TextMessage("x", role="user", uuid="u"))
        == "TextMessage(text='x', role='user', uuid='u')"
    )
    assert (
        repr(ToolResultBlock("t", is_error=True))
        == "ToolResultBlock(tool_use_id='t', is_error=True)"
    )


def test_pattern_matching() -> None:
    def describe(value: object) -> str:
        match value:
            case TextBlock(text):
                return f"text {text}"
            case ToolUseBlock(id, name, input):
                return f"call {id} {name} {dict(input)}"
            case ToolUseMessage(name=n):
                return f"flat call {n}"
            case ToolResultBlock(tool_use_id, content, is_error=True):
                return f"failed {tool_use_id} {content}"
            case AssistantMessage(content=(TextBlock(first), *_)):
                return f"starts {first}"
        return "other"

    assert describe(TextBlock("a")) == "text a"
    assert describe(ToolUseBlock("t", "Bash", {"c": 1})) == "call t Bash {'c': 1}"
    assert describe(ToolUseMessage("t", "Read")) == "flat call Read"
    assert describe(ToolResultBlock("t", "boom", is_error=True)) == "failed t boom"
    assert describe(AssistantMessage((TextBlock("x"), TextBlock("y")))) == "starts x"
    assert describe(3) == "other"


def test_role_message_accessors() -> None:
    call = ToolUseBlock("t1", "Bash", {"command": "ls"})
    thought = ThinkingBlock("hmm", signature="sig")
    result = ToolResultBlock("t1", "a.txt")
    m = AssistantMessage((thought, TextBlock("one"), call, TextBlock("two")))
    assert m.text == "one\ntwo"
    assert m.tool_uses == (call,)
    assert m.thinking == (thought,)
    assert m.tool_results == ()
    u = UserMessage((result, TextBlock("next")))
    assert u.tool_results == (result,)
    assert u.text == "next"
    assert UserMessage("plain").blocks == (TextBlock("plain"),)
    assert UserMessage("plain").text == "plain"


def test_tool_result_text() -> None:
    assert ToolResultBlock("t", "out").text == "out"
    assert (
        ToolResultBlock("t", (TextBlock("a"), ImageBlock(url="u"), TextBlock("b"))).text == "a\nb"
    )
    assert ToolResultMessage("t", (TextBlock("a"),)).text == "a"


def test_invalid_arguments_flag() -> None:
    assert not ToolUseBlock("t", "n").invalid_arguments
    assert not ToolUseBlock("t", "n", {"a": 1}, arguments='{"a": 1}').invalid_arguments
    assert ToolUseBlock("t", "n", arguments='{"a": ').invalid_arguments
    assert ToolUseBlock("t", "n", arguments="[1]").invalid_arguments
    assert ToolUseMessage("t", "n", arguments="nope").invalid_arguments
    assert not ToolUseMessage("t", "n", arguments="{}").invalid_arguments


def test_stop_reason_is_normalised_and_kept() -> None:
    m = AssistantMessage(stop_reason="tool_calls")
    assert m.stop is StopReason.TOOL_USE
    assert m.stop_reason == "tool_calls"
    assert AssistantMessage().stop is None
    assert AssistantMessage(stop_reason="brand_new").stop is StopReason.OTHER


def test_usage_adds_and_keeps_unreported_apart_from_zero() -> None:
    total = Usage(10, 5, cost_usd=0.5) + Usage(None, 1, 7, reasoning_tokens=2)
    assert total == Usage(10, 6, 7, reasoning_tokens=2, cost_usd=0.5)
    assert (Usage() + Usage()).input_tokens is None
    assert sum([Usage(1), Usage(2)]) == Usage(3)  # type: ignore[comparison-overlap]
    assert Usage.sum([Usage(1), None, Usage(output_tokens=4)]) == Usage(1, 4)
    assert Usage(1, 2, 3, 4).total_input_tokens == 8
    assert Usage(1, 2, 3, 4).total_tokens == 10
    assert Usage(extra={"tier": "x"}) + Usage(1) == Usage(1)
    assert Usage().__add__(3) is NotImplemented  # type: ignore[operator]
    with pytest.raises(TypeError):
        Usage() + 3  # type: ignore[operator]


def test_session_messages() -> None:
    assert ErrorMessage("boom", code="500", will_retry=True).will_retry
    assert StreamEventMessage({"type": "ping"}).type == "ping"
    assert StreamEventMessage({"type": 3}).type is None
    assert RawBlock({"type": "x"}).type == "x"
    assert RawBlock([1]).type is None
    assert RawMessage({"type": 1}).type is None
    assert RawMessage("text").type is None
    assert ResultMessage(structured_output={"a": [1]}).structured_output == FrozenDict({"a": [1]})


def test_media_blocks_have_short_reprs() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(1000)
    block = ImageBlock.from_bytes(png)
    assert repr(block) == "ImageBlock(media_type='image/png', data=<1008 bytes>)"
    long_url = "https://example.com/" + "x" * 200
    assert "...<220 chars>" in repr(ImageBlock(url=long_url))
    assert (
        repr(AudioBlock(file_id="f1", extra={"a": 1}))
        == "AudioBlock(file_id='f1', extra=FrozenDict({'a': 1}))"
    )


def test_audio_block_round_trip() -> None:
    wav = b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(20)
    a = AudioBlock.from_bytes(wav)
    assert a.media_type == "audio/wav"
    assert a.to_bytes() == wav
    assert a.resolved_media_type == "audio/wav"
