"""The fast paths behind decoding give exactly what the slow, checked paths give."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given

from messages import DocumentBlock
from messages import DocumentMessage
from messages import VideoBlock
from messages import VideoMessage
from messages import strategies as ms
from messages._core.make import maker
from messages.adapters._base import load_line
from messages.blocks import BLOCK_TYPES
from messages.blocks import AudioBlock
from messages.blocks import ImageBlock
from messages.blocks import RawBlock
from messages.blocks import ServerToolResultBlock
from messages.blocks import ServerToolUseBlock
from messages.blocks import TextBlock
from messages.blocks import ThinkingBlock
from messages.blocks import ToolResultBlock
from messages.blocks import ToolUseBlock
from messages.convert import _native_message
from messages.convert import block_to_message
from messages.convert import context_of
from messages.convert import normalize_messages
from messages.errors import DecodeError
from messages.flat import AudioMessage
from messages.flat import ImageMessage
from messages.flat import RawMessage
from messages.flat import ServerToolResultMessage
from messages.flat import ServerToolUseMessage
from messages.flat import TextMessage
from messages.flat import ThinkingMessage
from messages.flat import ToolResultMessage
from messages.flat import ToolUseMessage
from messages.message import MESSAGE_TYPES
from messages.message import ROLE_TYPES
from messages.roles import as_blocks
from messages.usage import Usage

VALUE_TYPES: tuple[type, ...] = (*MESSAGE_TYPES, *BLOCK_TYPES, Usage)


@pytest.mark.parametrize(
    "line",
    [
        '{"a":1}',
        b'{"a":[1,2.5,"x"]}',
        '  {"a":1}  ',
        b'\xef\xbb\xbf{"a":1}',
        '{"a":"\\u00e9"}'.encode("utf-16"),
        '"just a string"',
        "[]",
        "1",
        '{"a":1e308}',
    ],
)
def test_load_line_reads_what_json_loads_reads(line: str | bytes) -> None:
    assert load_line(line) == json.loads(line)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"a":NaN}', "NaN is not valid JSON"),
        ('{"a":-Infinity}', "-Infinity is not valid JSON"),
        ('{"a":1e999}', "out of range"),
        ('{"a":1} x', "extra data at character 8"),
        ('{"a":1}{"b":2}', "extra data at character 7"),
        ("", "expecting value at character 0"),
        ('{"a":', "expecting value at character 5"),
        ("\ufeff{}", "unexpected UTF-8 BOM"),
        (b'{"a":"\xff"}', "invalid UTF-8"),
        ("[" * 100_000, "nests too deeply"),
    ],
)
def test_load_line_rejects_with_the_precise_reason(line: str | bytes, reason: str) -> None:
    with pytest.raises(DecodeError, match=reason):
        load_line(line)


def test_load_line_refuses_long_lines() -> None:
    with pytest.raises(DecodeError, match="longer than 4"):
        load_line('{"a":1}', max_line=4)


@pytest.mark.parametrize("cls", VALUE_TYPES, ids=lambda c: c.__name__)
def test_a_maker_is_cached_and_gives_an_ordinary_frozen_instance(cls: type) -> None:
    make = maker(cls)
    assert maker(cls) is make
    names = [f.name for f in dataclasses.fields(cls)]
    example = cls(**{f.name: _sample(f) for f in dataclasses.fields(cls)})
    made = make(*[getattr(example, name) for name in names])
    assert type(made) is cls
    assert made == example
    assert hash(made) == hash(example)
    assert repr(made) == repr(example)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, names[0], None)


@pytest.mark.parametrize("cls", VALUE_TYPES, ids=lambda c: c.__name__)
def test_a_maker_gives_left_out_trailing_fields_their_defaults(cls: type) -> None:
    fields = dataclasses.fields(cls)
    bare = [i for i, f in enumerate(fields) if f.default is dataclasses.MISSING]
    required = fields[: bare[-1] + 1 if bare else 0]  # up to the last without a default
    values = [_sample(f) for f in required]
    assert maker(cls)(*values) == cls(**{f.name: v for f, v in zip(required, values, strict=True)})


@given(ms.messages())
def test_a_maker_takes_the_trailing_fields_it_sets_by_name(message: Any) -> None:
    cls = type(message)
    fields = dataclasses.fields(cls)
    bare = [i for i, f in enumerate(fields) if f.default is dataclasses.MISSING]
    cut = bare[-1] + 1 if bare else 0
    named = {
        f.name: getattr(message, f.name)
        for f in fields[cut:]
        if getattr(message, f.name) is not f.default
    }
    made = maker(cls)(*[getattr(message, f.name) for f in fields[:cut]], **named)
    assert made == message


def _sample(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    return {"data": None, "input": {}, "event": {}}.get(f.name, "x")


@given(ms.messages())
def test_a_maker_rebuilds_every_message_equal(message: Any) -> None:
    cls = type(message)
    names = [f.name for f in dataclasses.fields(cls)]
    made = maker(cls)(*[getattr(message, name) for name in names])
    assert type(made) is cls
    assert made == message
    assert all(getattr(made, name) is getattr(message, name) for name in names)


def _reference_flat(block: Any, context: dict[str, Any]) -> Any:
    """The flat message built the slow way: the public constructor with keywords."""
    fields = {f.name: getattr(block, f.name) for f in dataclasses.fields(block)}
    if isinstance(block, RawBlock):
        return RawMessage(block.data, **context)
    cls = {
        TextBlock: TextMessage,
        ThinkingBlock: ThinkingMessage,
        ToolUseBlock: ToolUseMessage,
        ToolResultBlock: ToolResultMessage,
        ImageBlock: ImageMessage,
        AudioBlock: AudioMessage,
        DocumentBlock: DocumentMessage,
        VideoBlock: VideoMessage,
        ServerToolUseBlock: ServerToolUseMessage,
        ServerToolResultBlock: ServerToolResultMessage,
    }[type(block)]
    return cls(**fields, **context)


@given(ms.streams())
def test_normalize_builds_what_the_public_constructors_build(stream: list[Any]) -> None:
    expected: list[Any] = []
    for message in stream:
        if isinstance(message, ROLE_TYPES) and message.content:
            context = {"role": message.role, **context_of(message)}
            for block in as_blocks(message.content):
                if isinstance(block, RawBlock) and _native_message(block.data) is not None:
                    expected.append(_native_message(block.data))
                else:
                    expected.append(_reference_flat(block, context))
        else:
            expected.append(message)
    got = list(normalize_messages(stream))
    assert got == expected
    assert [type(m) for m in got] == [type(m) for m in expected]


@given(ms.blocks(), ms.contexts())
def test_block_to_message_builds_what_the_public_constructors_build(
    block: Any, context: dict[str, Any]
) -> None:
    got = block_to_message(block, **context)
    if isinstance(block, RawBlock) and _native_message(block.data) is not None:
        assert got == _native_message(block.data)
    else:
        assert got == _reference_flat(block, context)


def test_a_transfer_maker_takes_shared_fields_by_name_and_none_as_the_default() -> None:
    from messages._core.make import transfer

    make = transfer(ToolResultMessage, ToolResultBlock, ("role", "uuid"))
    assert transfer(ToolResultMessage, ToolResultBlock, ("role", "uuid")) is make
    block = ToolResultBlock("t1", "ok", is_error=True, name="ls", extra={"k": 1})
    made = make(block, None, "u1")
    assert type(made) is ToolResultMessage
    assert made == ToolResultMessage(
        "t1", "ok", is_error=True, name="ls", role="tool", uuid="u1", extra={"k": 1}
    )
    assert made.content is block.content and made.extra is block.extra
    assert make(block, "user", None).role == "user"
    # a field the source lacks takes its default (RawBlock has no extra)
    assert transfer(RawMessage, RawBlock)(RawBlock({"a": 1})) == RawMessage({"a": 1})
    # and the way back: the block's fields from the message, the context left behind
    assert transfer(ToolResultBlock, ToolResultMessage)(made) == block


def test_a_transfer_maker_refuses_a_field_with_neither_source_nor_default() -> None:
    from messages._core.make import transfer

    make = transfer(ToolUseBlock, TextMessage)
    with pytest.raises(TypeError, match="no default"):
        make(TextMessage("x"))
