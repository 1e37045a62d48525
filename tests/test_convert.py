"""messages.convert: every rule of docs/convert.md, and the laws as properties."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import AudioBlock
from messages import Block
from messages import DecodeError
from messages import DocumentBlock
from messages import ImageBlock
from messages import ImageMessage
from messages import InitMessage
from messages import Message
from messages import RawBlock
from messages import RawMessage
from messages import ResultMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UserMessage
from messages import VideoBlock
from messages import strategies as ms
from messages.convert import block_to_message
from messages.convert import context_of
from messages.convert import dump_blocks
from messages.convert import flatten_assistant
from messages.convert import message_to_block
from messages.convert import messages_to_blocks
from messages.convert import messages_to_turn
from messages.convert import normalize_messages
from messages.convert import parse_blocks
from messages.message import FLAT_TYPES
from messages.message import ROLE_TYPES
from messages.message import SESSION_TYPES

# ---------------------------------------------------------------- parse_blocks rules


def test_parse_each_known_kind() -> None:
    blocks = parse_blocks(
        [
            {"type": "text", "text": "hi"},
            {"type": "thinking", "thinking": "hmm", "signature": "sig"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
            {"type": "tool_result", "tool_use_id": "t1", "content": "out", "is_error": False},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
            },
            {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
            {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
            {
                "type": "audio",
                "source": {"type": "base64", "media_type": "audio/wav", "data": "AAAA"},
            },
        ]
    )
    assert blocks == (
        TextBlock("hi"),
        ThinkingBlock("hmm", signature="sig"),
        ThinkingBlock("", signature="opaque", redacted=True),
        ToolUseBlock("t1", "Bash", {"command": "ls"}),
        ToolResultBlock("t1", "out", is_error=False),
        ImageBlock(data="AAAA", media_type="image/png"),
        ImageBlock(url="https://x/y.png"),
        ImageBlock(file_id="file_1"),
        AudioBlock(data="AAAA", media_type="audio/wav"),
    )


def test_provider_is_recorded_on_thinking() -> None:
    (block,) = parse_blocks(
        [{"type": "thinking", "thinking": "", "signature": "s"}], provider="anthropic"
    )
    assert block == ThinkingBlock("", signature="s", provider="anthropic")


def test_tool_result_block_content_is_parsed_recursively() -> None:
    (block,) = parse_blocks(
        [
            {
                "type": "tool_result",
                "tool_use_id": "t",
                "content": [{"type": "text", "text": "a"}, {"type": "odd"}],
            }
        ]
    )
    assert block == ToolResultBlock("t", (TextBlock("a"), RawBlock({"type": "odd"})))


def test_unknown_and_unmodelled_shapes_become_raw_blocks_verbatim() -> None:
    odd = [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
        {"type": "document", "source": {"type": "mystery", "data": "x"}},
        {"type": "document", "source": {"type": "text", "media_type": 1, "data": "x"}},
        {"type": "image", "source": {"type": "base64", "data": "AAAA", "extra": 1}},
        {"type": "image", "source": "not an object"},
        {"no_type": True},
        {"type": 7},
        "a bare string",
        42,
        None,
        [1, 2],
    ]
    blocks = parse_blocks(odd)
    assert all(isinstance(b, RawBlock) for b in blocks)
    assert json_equal(dump_blocks(blocks), odd)


def test_missing_fields_follow_documented_defaults() -> None:
    assert parse_blocks([{"type": "text"}]) == (TextBlock(""),)
    assert parse_blocks([{"type": "thinking"}]) == (ThinkingBlock(""),)
    assert parse_blocks([{"type": "tool_use", "name": "ls", "input": {}}]) == (
        ToolUseBlock("", "ls"),
    )
    assert parse_blocks([{"type": "tool_use"}]) == (ToolUseBlock("", ""),)
    assert parse_blocks([{"type": "tool_result"}]) == (ToolResultBlock(""),)


def test_unmodelled_keys_and_nulls_are_kept_in_extra() -> None:
    wire = [
        {"type": "text", "text": "x", "citations": None, "cache_control": {"type": "ephemeral"}},
        {"type": "tool_use", "id": "t", "name": "n", "input": {}, "caller": {"type": "direct"}},
        {"type": "tool_result", "tool_use_id": "t", "content": "o", "is_error": None},
    ]
    blocks = parse_blocks(wire)
    assert blocks[0].extra == {"citations": None, "cache_control": {"type": "ephemeral"}}
    assert blocks[1].extra == {"caller": {"type": "direct"}}
    assert blocks[2].is_error is None  # type: ignore[union-attr]
    assert json_equal(dump_blocks(blocks), wire)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("text", "$: expected an array of content blocks, found a string"),
        ({"type": "text"}, "$: expected an array of content blocks, found an object"),
        (None, "$: expected an array of content blocks, found null"),
        ([{"type": "text", "text": None}], "$[0].text: expected a string, found null"),
        (
            [{}, {"type": "thinking", "thinking": 1}],
            "$[1].thinking: expected a string, found an integer",
        ),
        (
            [{"type": "thinking", "thinking": "", "signature": 5}],
            "$[0].signature: expected a string, found an integer",
        ),
        (
            [{"type": "tool_use", "id": "t", "name": "n", "input": [1]}],
            "$[0].input: expected an object, found an array",
        ),
        (
            [{"type": "tool_use", "id": "t", "name": "n", "input": None}],
            "$[0].input: expected an object, found null",
        ),
        (
            [{"type": "tool_result", "tool_use_id": "t", "content": 5}],
            "$[0].content: expected a string or an array of blocks, found an integer",
        ),
        (
            [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": 1}]}],
            "$[0].content[0].text: expected a string, found an integer",
        ),
        (
            [{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}],
            "$[0].is_error: expected a boolean, found a string",
        ),
        (
            [{"type": "text", "text": "", "citations": {}}],
            "$[0].citations: expected an array, found an object",
        ),
        (
            [{"type": "text", "text": "", "citations": [1]}],
            "$[0].citations[0]: expected an object, found an integer",
        ),
        (
            [{"type": "redacted_thinking"}, {"type": "redacted_thinking", "data": 1}],
            "$[1].data: expected a string, found an integer",
        ),
        (
            [{"type": "text", "text": float("nan")}],
            "$[0].text: expected a finite number, found nan",
        ),
    ],
)
def test_bad_input_raises_decode_error_with_path(raw: Any, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        parse_blocks(raw)
    assert str(info.value) == message


def test_deeply_nested_tool_results_are_refused_not_recursion_errors() -> None:
    block: dict[str, Any] = {"type": "text", "text": "x"}
    for _ in range(100):
        block = {"type": "tool_result", "tool_use_id": "t", "content": [block]}
    with pytest.raises(DecodeError, match="nest deeper"):
        parse_blocks([block])


def test_parse_blocks_copies_its_input() -> None:
    raw = [{"type": "tool_use", "id": "t", "name": "n", "input": {"a": [1]}}]
    (block,) = parse_blocks(raw)
    raw[0]["input"]["a"].append(2)  # type: ignore[index]
    assert block.input == {"a": [1]}  # type: ignore[union-attr]


def test_documents_and_video_are_typed_and_written_back_exactly() -> None:
    wire = [
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="},
            "title": "Q3",
            "context": "Quarterly numbers",
            "citations": {"enabled": True},
            "cache_control": {"type": "ephemeral"},
        },
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}},
        {
            "type": "document",
            "source": {"type": "content", "content": [{"type": "text", "text": "a"}]},
        },
        {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}, "title": None},
        {"type": "document", "source": {"type": "file", "file_id": "file_1"}, "citations": {}},
        {"type": "video", "source": {"type": "url", "url": "https://x/v.mp4"}, "fps": 2},
    ]
    blocks = parse_blocks(wire)
    assert blocks[0] == DocumentBlock(
        data="JVBERg==",
        media_type="application/pdf",
        title="Q3",
        context="Quarterly numbers",
        citations=True,
        extra={"cache_control": {"type": "ephemeral"}},
    )
    assert blocks[1] == DocumentBlock(text="x", media_type="text/plain")
    assert blocks[2] == DocumentBlock(content=(TextBlock("a"),))
    assert blocks[3] == DocumentBlock(url="https://x/a.pdf", extra={"title": None})
    assert blocks[4] == DocumentBlock(file_id="file_1", extra={"citations": {}})
    assert blocks[5] == VideoBlock(url="https://x/v.mp4", fps=2)
    assert json_equal(dump_blocks(blocks), wire)


def test_dump_blocks_returns_a_fresh_copy() -> None:
    blocks = parse_blocks([{"type": "tool_use", "id": "t", "name": "n", "input": {"a": [1]}}])
    out = dump_blocks(blocks)
    out[0]["input"]["a"].append(2)
    assert blocks[0].input == {"a": [1]}  # type: ignore[union-attr]


def test_dump_blocks_writes_every_modelled_field() -> None:
    blocks = (
        TextBlock("t", citations=({"type": "char_location"},)),
        ThinkingBlock("", signature="x", redacted=True),
        ThinkingBlock("th"),
        ToolResultBlock("id", (TextBlock("a"),), is_error=True),
        ImageBlock(url="https://x"),
        ImageBlock(),
    )
    assert dump_blocks(blocks) == [
        {"type": "text", "text": "t", "citations": [{"type": "char_location"}]},
        {"type": "redacted_thinking", "data": "x"},
        {"type": "thinking", "thinking": "th"},
        {
            "type": "tool_result",
            "tool_use_id": "id",
            "content": [{"type": "text", "text": "a"}],
            "is_error": True,
        },
        {"type": "image", "source": {"type": "url", "url": "https://x"}},
        {"type": "image", "source": {"type": "base64", "data": ""}},
    ]


def _anthropic_shaped() -> st.SearchStrategy[Block]:
    """Blocks whose every field has a place in the Anthropic wire shape."""
    return st.one_of(
        ms.text_blocks(),
        ms.thinking_blocks(provider=st.none()),
        ms.tool_use_blocks().map(lambda b: ToolUseBlock(b.id, b.name, b.input, extra=b.extra)),
        ms.tool_result_blocks().map(
            lambda b: ToolResultBlock(b.tool_use_id, b.content, is_error=b.is_error, extra=b.extra)
        ),
        ms.image_blocks(),
        ms.audio_blocks(),
        ms.raw_blocks(),
        ms.document_blocks(),
        ms.video_blocks(),
    ).filter(lambda b: not (isinstance(b, ThinkingBlock) and b.redacted and b.signature is None))


@given(st.lists(_anthropic_shaped(), max_size=5))
def test_parse_blocks_inverts_dump_blocks(blocks: list[Block]) -> None:
    assert parse_blocks(dump_blocks(blocks)) == tuple(blocks)


@given(ms.json_values())
def test_parse_blocks_never_crashes(raw: Any) -> None:
    try:
        result = parse_blocks(raw)
    except DecodeError as exc:
        assert exc.path.startswith("$")
    else:
        from messages.blocks import BLOCK_TYPES

        assert isinstance(result, tuple)
        assert all(isinstance(b, BLOCK_TYPES) for b in result)
        assert len(result) == len(raw)


@given(
    st.lists(
        ms.json_objects(values=ms.json_values(max_leaves=3)).map(
            lambda d: d | {"type": "text", "text": "x"}
        )
    )
)
def test_text_blocks_with_any_extra_round_trip(raw: list[Any]) -> None:
    thawed = [d.thaw() for d in raw]
    assert json_equal(dump_blocks(parse_blocks(thawed)), thawed)


# ---------------------------------------------------------------- block <-> message


@given(ms.blocks(), ms.contexts())
def test_message_to_block_inverts_block_to_message(block: Block, context: dict[str, Any]) -> None:
    assert message_to_block(block_to_message(block, **context)) == block


@given(ms.flat_messages())
def test_block_to_message_inverts_message_to_block(message: Message) -> None:
    assert block_to_message(message_to_block(message), **context_of(message)) == message


@given(st.one_of(ms.role_messages(), ms.session_messages()))
def test_other_messages_wrap_into_raw_blocks_and_come_back_unchanged(message: Message) -> None:
    block = message_to_block(message)
    assert isinstance(block, RawBlock)
    assert block_to_message(block) == message
    assert block_to_message(block, role="user", session_id="other") == message


def test_block_to_message_mapping() -> None:
    ctx: dict[str, Any] = {"role": "assistant", "session_id": "s", "uuid": "u", "message_id": "m"}
    assert block_to_message(TextBlock("a", extra={"k": 1}), **ctx) == TextMessage(
        "a", extra={"k": 1}, **ctx
    )
    assert block_to_message(ThinkingBlock("t", signature="s"), **ctx) == ThinkingMessage(
        "t", signature="s", **ctx
    )
    assert block_to_message(
        ToolUseBlock("i", "n", {"a": 1}, arguments='{"a":1}'), **ctx
    ) == ToolUseMessage("i", "n", {"a": 1}, arguments='{"a":1}', **ctx)
    assert block_to_message(
        ToolResultBlock("i", "o", is_error=True, name="n"), role="user"
    ) == ToolResultMessage("i", "o", is_error=True, name="n", role="user")
    assert block_to_message(ImageBlock(url="u"), role="user") == ImageMessage(url="u", role="user")
    assert block_to_message(RawBlock({"type": "x"}), role="assistant") == RawMessage(
        {"type": "x"}, role="assistant"
    )


def test_a_raw_message_is_not_double_wrapped() -> None:
    raw = RawMessage({"type": "rate_limit_event"})
    assert message_to_block(raw) == RawBlock({"type": "rate_limit_event"})
    assert block_to_message(message_to_block(raw)) == raw


def test_a_raw_block_that_looks_native_but_is_not_stays_raw() -> None:
    block = RawBlock({"v": 1, "kind": "nonsense"})
    assert block_to_message(block) == RawMessage({"v": 1, "kind": "nonsense"})
    assert message_to_block(RawMessage({"v": 1, "kind": "nonsense"})) == block


def test_a_raw_message_holding_a_native_dict_is_wrapped_so_it_comes_back_raw() -> None:
    from messages import to_dict

    tricky = RawMessage(to_dict(TextMessage("x")))
    block = message_to_block(tricky)
    assert block != RawBlock(to_dict(TextMessage("x")))
    assert block_to_message(block) == tricky


def test_context_of() -> None:
    m = TextMessage("x", role="user", session_id="s", timestamp=3)
    assert context_of(m) == {"role": "user", "session_id": "s", "timestamp": 3}
    assert context_of(ResultMessage()) == {}
    assert context_of(RawMessage(1)) == {}


# ---------------------------------------------------------------- flatten / normalize


def test_flatten_copies_context_onto_every_child() -> None:
    m = AssistantMessage(
        (ThinkingBlock("t"), TextBlock("x"), ToolUseBlock("i", "n")),
        uuid="u",
        session_id="s",
        parent_tool_use_id="p",
        model="m",
        message_id="msg",
        timestamp="2026",
        usage=None,
        extra={"request_id": "r"},
    )
    children = flatten_assistant(m)
    assert [c.kind for c in children] == ["thinking", "text", "tool_use"]
    for child in children:
        assert (
            child.uuid,
            child.session_id,
            child.parent_tool_use_id,
            child.model,
            child.message_id,
            child.timestamp,
        ) == (
            "u",
            "s",
            "p",
            "m",
            "msg",
            "2026",
        )
        assert child.role == "assistant"  # type: ignore[union-attr]
        assert child.extra == {}


def test_flatten_keeps_roles() -> None:
    assert flatten_assistant(UserMessage("hi")) == (TextMessage("hi", role="user"),)
    assert flatten_assistant(SystemMessage("be", role="developer")) == (
        TextMessage("be", role="developer"),
    )
    assert flatten_assistant(ToolMessage((ToolResultBlock("t", "o"),))) == (
        ToolResultMessage("t", "o", role="tool"),
    )


def test_flatten_leaves_empty_and_non_role_messages_alone() -> None:
    empty = AssistantMessage((), model="m")
    assert flatten_assistant(empty) == (empty,)
    assert flatten_assistant(UserMessage("")) == (UserMessage(""),)
    result = ResultMessage(subtype="success")
    assert flatten_assistant(result) == (result,)
    text = TextMessage("x")
    assert flatten_assistant(text) == (text,)


@given(ms.role_messages())
def test_messages_to_blocks_inverts_flatten(message: Any) -> None:
    if message.content:
        assert messages_to_blocks(flatten_assistant(message)) == message.blocks


def test_messages_to_blocks_wraps_session_messages() -> None:
    blocks = messages_to_blocks([TextMessage("a"), ResultMessage(num_turns=1)])
    assert blocks[0] == TextBlock("a")
    assert isinstance(blocks[1], RawBlock)


def test_normalize_flattens_user_tool_results_like_codex_emits_them() -> None:
    claude_like = [
        InitMessage(session_id="s"),
        UserMessage("list files", session_id="s"),
        AssistantMessage((ToolUseBlock("t", "Bash", {"command": "ls"}),), session_id="s"),
        UserMessage((ToolResultBlock("t", "a.txt"),), session_id="s"),
        AssistantMessage((TextBlock("one file"),), session_id="s"),
        ResultMessage(subtype="success", session_id="s"),
    ]
    codex_like = [
        InitMessage(session_id="s"),
        TextMessage("list files", role="user"),
        ToolUseMessage("t", "shell", {"command": "ls"}),
        ToolResultMessage("t", "a.txt"),
        TextMessage("one file"),
        ResultMessage(subtype="success"),
    ]
    kinds = [m.kind for m in normalize_messages(claude_like)]
    assert kinds == [m.kind for m in normalize_messages(codex_like)]
    assert kinds == ["init", "text", "tool_use", "tool_result", "text", "result"]


@given(ms.streams())
def test_normalize_is_idempotent(stream: list[Message]) -> None:
    once = list(normalize_messages(stream))
    assert list(normalize_messages(once)) == once


@given(ms.streams())
def test_normalize_output_has_no_block_carrying_messages(stream: list[Message]) -> None:
    for message in normalize_messages(stream):
        if isinstance(message, ROLE_TYPES):
            assert not message.content
        else:
            assert isinstance(message, FLAT_TYPES + SESSION_TYPES)


@given(ms.streams())
def test_normalize_keeps_order_and_loses_no_block(stream: list[Message]) -> None:
    out = list(normalize_messages(stream))
    expected: list[Message] = []
    for m in stream:
        expected.extend(flatten_assistant(m))
    assert out == expected


def test_normalize_is_lazy_and_streams_in_constant_memory() -> None:
    def endless() -> Iterator[Message]:
        for i in itertools.count():
            yield AssistantMessage((TextBlock(str(i)), TextBlock("x")))

    first = list(itertools.islice(normalize_messages(endless()), 5))
    assert [m.text for m in first] == ["0", "x", "1", "x", "2"]  # type: ignore[union-attr]


def test_normalize_rejects_non_messages_with_the_index() -> None:
    stream = normalize_messages([TextMessage("a"), {"type": "text"}])  # type: ignore[list-item]
    assert next(stream) == TextMessage("a")
    with pytest.raises(DecodeError) as info:
        next(stream)
    assert str(info.value) == "$[1]: expected a message, found an object"


def test_a_type_that_is_not_a_string_is_raw_not_a_crash() -> None:
    assert parse_blocks([{"type": []}, {"type": {"a": 1}}]) == (
        RawBlock({"type": []}),
        RawBlock({"type": {"a": 1}}),
    )


@given(ms.role_messages())
def test_messages_to_turn_inverts_flattening(message: Any) -> None:
    # What a turn carries beyond its blocks and context (usage, stop reason, error, extra,
    # a user turn's summary marker, origin and tool_use_result)
    # is not in the flat view, so the law is stated for turns without them.
    if isinstance(message.content, str) or not message.content:
        return
    plain = dataclasses.replace(message, extra={})
    if isinstance(plain, AssistantMessage):
        plain = dataclasses.replace(plain, usage=None, stop_reason=None, error=None)
    if isinstance(plain, UserMessage):  # turn-level fields, like extra: not on the children
        plain = dataclasses.replace(plain, summary=None, origin=None, tool_use_result=None)
    assert messages_to_turn(flatten_assistant(plain)) == plain


def test_messages_to_turn_needs_flat_messages() -> None:
    with pytest.raises(DecodeError) as info:
        messages_to_turn([])
    assert info.value.path == "$[0]" and "found nothing" in info.value.reason
    with pytest.raises(DecodeError, match="found UserMessage"):
        messages_to_turn([UserMessage("hi")])  # type: ignore[list-item]
