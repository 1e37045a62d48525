"""Promises of the core that no other test reads: fresh copies, what errors carry, extras.

Each test here stands for a broken version of the code that once went unnoticed: handing out
internal dicts, dropping the offending value from an error, dropping ``extra`` on the way from
a flat message to a block, flattening a subclass of a role message.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import AudioBlock
from messages import AudioMessage
from messages import DecodeError
from messages import EncodeError
from messages import ImageBlock
from messages import ImageMessage
from messages import RawBlock
from messages import RawMessage
from messages import ResultMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages import UserMessage
from messages import from_dict
from messages import strategies as ms
from messages import to_dict
from messages.convert import block_to_message
from messages.convert import context_of
from messages.convert import flatten_assistant
from messages.convert import message_to_block
from messages.convert import normalize_messages
from messages.convert import parse_blocks
from messages.serialize import dumps

# ------------------------------------------------------------------ to_dict gives a fresh copy


def scribble(value: Any) -> None:
    """Change every dict and list inside ``value``, in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            scribble(item)
        value["scribbled"] = True
        for key in [k for k in value if k != "scribbled"][:1]:
            value[key] = "changed"
    elif isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")


@given(st.one_of(ms.messages(), ms.blocks(), ms.usages()))
def test_changing_what_to_dict_returns_never_reaches_the_value(value: Any) -> None:
    snapshot = json.loads(dumps(value))
    out = to_dict(value)
    assert json_equal(out, snapshot)
    scribble(out)
    assert json_equal(to_dict(value), snapshot)
    assert json.loads(dumps(value)) == snapshot
    assert from_dict(snapshot) == value


def test_nested_objects_of_to_dict_are_copies() -> None:
    block = ToolUseBlock("t", "Bash", {"command": {"argv": ["ls", "-l"]}}, extra={"k": {"a": 1}})
    message = AssistantMessage((block,), usage=Usage(1, extra={"tier": {"x": 1}}))
    out = to_dict(message)
    out["content"][0]["input"]["command"]["argv"].append("-a")
    out["content"][0]["extra"]["k"]["a"] = 2
    out["usage"]["extra"]["tier"]["x"] = 2
    assert block.input == {"command": {"argv": ["ls", "-l"]}}
    assert block.extra == {"k": {"a": 1}}
    assert message.usage is not None and message.usage.extra == {"tier": {"x": 1}}


# ----------------------------------------------------------------- errors carry value and path


@pytest.mark.parametrize(
    ("data", "path", "value"),
    [
        ([1], "$", [1]),
        ({"v": 3, "kind": "text", "text": "x"}, "$.v", 3),
        ({"v": True, "kind": "text", "text": "x"}, "$.v", True),
        ({"v": 1.0, "kind": "text", "text": "x"}, "$.v", 1.0),
        ({"kind": "nope"}, "$.kind", "nope"),
        ({"kind": []}, "$.kind", []),
        ({"type": {}}, "$.type", {}),
        ({"kind": "text", "text": 1}, "$.text", 1),
        ({"kind": "text", "text": "x", "bogus": [2]}, "$.bogus", [2]),
        ({"kind": "text", "text": "x", "role": "robot"}, "$.role", "robot"),
        ({"kind": "text", "text": "x", "role": ["user"]}, "$.role", ["user"]),
        ({"kind": "system", "content": "x", "role": {"a": 1}}, "$.role", {"a": 1}),
        ({"kind": "system", "content": "x", "role": "user"}, "$.role", "user"),
        ({"kind": "assistant", "content": [3]}, "$.content[0]", 3),
        ({"kind": "assistant", "content": [{"type": 7}]}, "$.content[0].type", 7),
        ({"kind": "assistant", "usage": {"output_tokens": 1.5}}, "$.usage.output_tokens", 1.5),
        ({"kind": "assistant", "usage": {"type": "text"}}, "$.usage.type", "text"),
        ({"type": "usage", "input_tokens": "1"}, "$.input_tokens", "1"),
        ({"type": "usage", "bogus": 1}, "$.bogus", 1),
        ({"kind": "result", "total_cost_usd": "1"}, "$.total_cost_usd", "1"),
        ({"kind": "result", "is_error": 0}, "$.is_error", 0),
        ({"kind": "text", "text": "", "timestamp": {}}, "$.timestamp", {}),
        ({"kind": "text", "text": "", "extra": "x"}, "$.extra", "x"),
        ({"kind": "text", "text": "", "citations": [1]}, "$.citations[0]", 1),
        ({"kind": "raw", "data": {"a": [float("nan")]}}, "$.data.a[0]", "nan"),
    ],
)
def test_decode_errors_carry_the_path_and_the_value(data: Any, path: str, value: Any) -> None:
    with pytest.raises(DecodeError) as info:
        from_dict(data)
    assert info.value.path == path
    if value == "nan":
        assert info.value.value != info.value.value
    else:
        assert json_equal(info.value.value, value)
    assert str(info.value).startswith(f"{path}: ")
    assert "\n" not in str(info.value)


def test_a_missing_field_names_its_path_and_has_no_value() -> None:
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "tool_use", "id": "t"})
    assert (info.value.path, info.value.value) == ("$.name", None)
    assert info.value.reason == "missing required field 'name' for ToolUseMessage"


@pytest.mark.parametrize("encode", [to_dict, dumps])
def test_encode_errors_carry_the_value(encode: Any) -> None:
    foreign = {"kind": "text", "text": "x"}
    with pytest.raises(EncodeError) as info:
        encode(foreign)
    assert info.value.value is foreign
    assert info.value.path == "$"
    assert str(info.value) == "$: cannot serialize dict"


WHEN = datetime.datetime(2026, 1, 15, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("value", "path", "bad"),
    [
        (TextMessage("x", timestamp=WHEN), "$.timestamp", WHEN),  # type: ignore[arg-type]
        (
            AssistantMessage((TextBlock("a"), ToolResultBlock("t", (TextBlock("b"), WHEN)))),  # type: ignore[arg-type]
            "$.content[1].content[1]",
            WHEN,
        ),
        (ResultMessage(duration_ms=datetime.timedelta(1)), "$.duration_ms", datetime.timedelta(1)),  # type: ignore[arg-type]
    ],
)
def test_values_the_constructors_let_through_fail_to_encode_with_a_path(
    value: Any, path: str, bad: Any
) -> None:
    for encode in (to_dict, dumps):
        with pytest.raises(EncodeError) as info:
            encode(value)
        assert info.value.path == path
        assert info.value.value == bad
        assert str(info.value) == f"{path}: cannot serialize {type(bad).__name__}"


# ----------------------------------------------------------- message_to_block keeps the extra

EXTRA = {"caller": {"type": "direct"}, "index": [0, 1]}

WITH_EXTRA = [
    (TextMessage("t", extra=EXTRA), TextBlock("t", extra=EXTRA)),
    (
        ThinkingMessage("why", signature="s", redacted=True, provider="p", extra=EXTRA),
        ThinkingBlock("why", signature="s", redacted=True, provider="p", extra=EXTRA),
    ),
    (
        ToolUseMessage("i", "n", {"a": 1}, arguments='{"a":1}', extra=EXTRA),
        ToolUseBlock("i", "n", {"a": 1}, arguments='{"a":1}', extra=EXTRA),
    ),
    (
        ToolResultMessage("i", (TextBlock("o"),), is_error=True, name="n", extra=EXTRA),
        ToolResultBlock("i", (TextBlock("o"),), is_error=True, name="n", extra=EXTRA),
    ),
    (
        ImageMessage(url="https://x/y.png", media_type="image/png", extra=EXTRA),
        ImageBlock(url="https://x/y.png", media_type="image/png", extra=EXTRA),
    ),
    (
        ImageMessage(file_id="file_1", extra=EXTRA),
        ImageBlock(file_id="file_1", extra=EXTRA),
    ),
    (
        AudioMessage(data="AAAA", media_type="audio/wav", extra=EXTRA),
        AudioBlock(data="AAAA", media_type="audio/wav", extra=EXTRA),
    ),
]


@pytest.mark.parametrize(("message", "block"), WITH_EXTRA)
def test_message_to_block_keeps_every_field_and_the_extra(message: Any, block: Any) -> None:
    got = message_to_block(message)
    assert got == block
    assert type(got) is type(block)
    assert got.extra == EXTRA
    context = {"session_id": "s", "uuid": "u", "model": "m", "message_id": "id", "timestamp": 5}
    back = block_to_message(got, role=message.role, **context)
    assert back.extra == EXTRA
    assert message_to_block(back) == block
    assert block_to_message(got, **context_of(message)) == message


@given(
    ms.flat_messages(),
    ms.json_objects(keys=st.sampled_from(["caller", "index", "cache_control"]), max_size=2),
)
def test_any_flat_message_with_any_extra_round_trips(message: Any, extra: Any) -> None:
    if isinstance(message, RawMessage):
        return  # a raw message with an extra becomes a wrapping RawBlock, tested below
    from dataclasses import replace

    message = replace(message, extra=extra)
    block = message_to_block(message)
    assert block.extra == extra
    assert block_to_message(block, **context_of(message)) == message


def test_a_raw_message_with_an_extra_is_wrapped_whole() -> None:
    message = RawMessage({"type": "x"}, session_id="s", extra={"k": 1})
    block = message_to_block(message)
    assert block == RawBlock(to_dict(message))
    assert block_to_message(block) == message


# ------------------------------------------------------------------------- subclasses


class MyAssistant(AssistantMessage):  # type: ignore[misc]
    """A caller's subclass of a role message (the classes are final only to type checkers)."""

    __slots__ = ()


class MyText(TextMessage):  # type: ignore[misc]
    """A caller's subclass of a flat message."""

    __slots__ = ()


def test_subclasses_of_role_messages_are_flattened_like_their_base() -> None:
    turn = MyAssistant((TextBlock("a"), ToolUseBlock("t", "n", {})), session_id="s", model="m")
    base = AssistantMessage((TextBlock("a"), ToolUseBlock("t", "n", {})), session_id="s", model="m")
    assert flatten_assistant(turn) == flatten_assistant(base)
    assert list(normalize_messages([turn])) == list(flatten_assistant(base))
    assert [m.kind for m in normalize_messages([turn])] == ["text", "tool_use"]
    empty = MyAssistant(())
    assert list(normalize_messages([empty])) == [empty]


def test_subclasses_of_other_messages_pass_through_normalize() -> None:
    text = MyText("x", role="user")
    (out,) = normalize_messages([text])
    assert out is text


def test_normalize_flattens_user_text_content() -> None:
    turn = UserMessage("hello", session_id="s", uuid="u", timestamp=3)
    assert list(normalize_messages([turn])) == [
        TextMessage("hello", role="user", session_id="s", uuid="u", timestamp=3)
    ]


# ------------------------------------------------------------------- convert's own errors


@pytest.mark.parametrize("raw", [{"type": "text", "text": "x"}, "text", None, 3])
def test_parse_blocks_names_what_it_refused(raw: Any) -> None:
    with pytest.raises(DecodeError) as info:
        parse_blocks(raw)
    assert (info.value.path, info.value.value) == ("$", raw)
    assert info.value.reason.startswith("expected an array of content blocks, found ")


def test_normalize_names_the_item_that_is_not_a_message() -> None:
    item = {"kind": "text", "text": "x"}
    with pytest.raises(DecodeError) as info:
        list(normalize_messages([TextMessage("a"), UserMessage("b"), item]))  # type: ignore[list-item]
    assert (info.value.path, info.value.value) == ("$[2]", item)


class NotABlock:
    def __repr__(self) -> str:
        return "<not a block>"


def test_block_to_message_of_something_else_is_a_programming_error() -> None:
    with pytest.raises(AssertionError, match="<not a block>"):
        block_to_message(NotABlock())  # type: ignore[arg-type]


def test_only_a_tagged_native_dict_inside_a_raw_block_is_unwrapped() -> None:
    untagged = RawBlock({"kind": "text", "text": "x"})  # no "v": a foreign object, kept raw
    assert block_to_message(untagged) == RawMessage({"kind": "text", "text": "x"})
    assert block_to_message(RawBlock(["v", "kind"])) == RawMessage(("v", "kind"))
    tagged = RawBlock({"v": 1, "kind": "text", "text": "x"})
    assert block_to_message(tagged) == TextMessage("x")
