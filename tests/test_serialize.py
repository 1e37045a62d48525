"""Native serialization: to_dict/from_dict, JSON Lines; the round-trip law."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given

from messages import AssistantMessage
from messages import AudioMessage
from messages import DecodeError
from messages import DocumentBlock
from messages import EncodeError
from messages import ImageBlock
from messages import ResultMessage
from messages import TextBlock
from messages import TextMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import Usage
from messages import UserMessage
from messages import VideoMessage
from messages import from_dict
from messages import read_jsonl
from messages import strategies as ms
from messages import to_dict
from messages import write_jsonl
from messages.serialize import FORMAT_VERSION
from messages.serialize import dumps
from messages.serialize import loads


@given(ms.messages())
def test_messages_round_trip(message: Any) -> None:
    data = to_dict(message)
    assert from_dict(data) == message
    assert from_dict(json.loads(json.dumps(data))) == message


@given(ms.blocks())
def test_blocks_round_trip(block: Any) -> None:
    assert from_dict(to_dict(block)) == block


@given(ms.usages())
def test_usage_round_trips(usage: Usage) -> None:
    assert from_dict(to_dict(usage)) == usage


@given(ms.messages())
def test_output_is_json_safe_and_a_fresh_copy(message: Any) -> None:
    data = to_dict(message)
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert to_dict(message) == data


def test_exact_shapes() -> None:
    assert to_dict(TextBlock("x")) == {"v": 2, "type": "text", "text": "x"}
    assert to_dict(Usage(1, cost_usd=0.5)) == {
        "v": 2,
        "type": "usage",
        "input_tokens": 1,
        "cost_usd": 0.5,
    }
    assert to_dict(
        AssistantMessage((ToolResultBlock("t", (TextBlock("a"),)),), usage=Usage(2), model="m")
    ) == {
        "v": 2,
        "kind": "assistant",
        "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": "a"}]}
        ],
        "usage": {"input_tokens": 2},
        "model": "m",
    }
    assert to_dict(ImageBlock(data="AAAA", media_type="image/png")) == {
        "v": 2,
        "type": "image",
        "data": "AAAA",
        "media_type": "image/png",
    }


def test_version_tag_is_optional_on_input_but_checked() -> None:
    assert from_dict({"kind": "text", "text": "x"}) == TextMessage("x")
    assert from_dict({"type": "usage"}) == Usage()
    with pytest.raises(DecodeError) as info:
        from_dict({"v": 3, "kind": "text", "text": "x"})
    assert str(info.value) == "$.v: unsupported format version 3 (this library reads 1 and 2)"


def test_version_1_documents_still_read() -> None:
    """Files written before documents and video (``"v": 1``) read unchanged."""
    v1 = [
        '{"v":1,"kind":"user","content":[{"type":"text","text":"hi"},'
        '{"type":"image","url":"https://x/a.png"}],"session_id":"s1"}',
        '{"v":1,"kind":"audio","data":"UklGRg==","media_type":"audio/wav","role":"user"}',
        '{"v":1,"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}',
    ]
    values = list(read_jsonl(v1))
    assert values == [
        UserMessage((TextBlock("hi"), ImageBlock(url="https://x/a.png")), session_id="s1"),
        AudioMessage(data="UklGRg==", media_type="audio/wav", role="user"),
        ToolUseBlock("t1", "Bash", {"command": "ls"}),
    ]
    assert [to_dict(v)["v"] for v in values] == [FORMAT_VERSION] * 3 == [2] * 3


def test_version_2_carries_documents_and_video() -> None:
    doc = DocumentBlock(text="Minutes.", media_type="text/plain", title="Notes", citations=True)
    video = VideoMessage(file_id="files/v1", media_type="video/mp4", start_offset="5s", fps=2)
    assert to_dict(doc) == {
        "v": 2,
        "type": "document",
        "text": "Minutes.",
        "media_type": "text/plain",
        "title": "Notes",
        "citations": True,
    }
    assert from_dict(to_dict(doc)) == doc
    assert from_dict(to_dict(video)) == video
    nested = DocumentBlock(content=(TextBlock("a"),))
    assert to_dict(nested)["content"] == [{"type": "text", "text": "a"}]
    with pytest.raises(DecodeError) as info:
        from_dict({"type": "video", "fps": "fast"})
    assert info.value.path == "$.fps"


V1_DOCUMENT = [
    '{"v":1,"kind":"init","cwd":"/w","tools":["Bash"],"session_id":"s-1"}',
    '{"v":1,"kind":"user","content":"Count the files.","session_id":"s-1"}',
    '{"v":1,"kind":"assistant","content":[{"type":"text","text":"3."}],"stop_reason":"end_turn"}',
    '{"v":1,"kind":"result","subtype":"success","num_turns":1,"usage":{"input_tokens":5}}',
]
"""A document as version 1 of the format wrote it (before agent events and run details)."""


def test_a_version_1_document_still_reads() -> None:
    values = list(read_jsonl(V1_DOCUMENT))
    assert [type(v).__name__ for v in values] == [
        "InitMessage",
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
    ]
    assert values[1] == UserMessage("Count the files.", session_id="s-1")
    assert values[3].usage == Usage(5)
    # written back, it is the same document at version 2
    assert [dumps(v) for v in values] == [line.replace('"v":1', '"v":2') for line in V1_DOCUMENT]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "$: expected an object, found an array"),
        ({"kind": "nope"}, "$.kind: unknown message kind 'nope'"),
        ({"kind": 3}, "$.kind: unknown message kind 3"),
        ({"type": "nope"}, "$.type: unknown block type 'nope'"),
        ({}, "$.type: unknown block type None"),
        ({"kind": "text"}, "$.text: missing required field 'text' for TextMessage"),
        ({"kind": "text", "text": 1}, "$.text: expected a string, found an integer"),
        (
            {"kind": "text", "text": "x", "bogus": 1},
            "$.bogus: unknown field 'bogus' for TextMessage",
        ),
        ({"kind": "text", "text": "x", "role": "robot"}, "$.role: expected a role, found 'robot'"),
        (
            {"kind": "system", "content": "x", "role": "user"},
            "$.role: expected 'system' or 'developer', found 'user'",
        ),
        (
            {"kind": "assistant", "content": 5},
            "$.content: expected a string or an array of blocks, found an integer",
        ),
        (
            {"kind": "assistant", "content": [1]},
            "$.content[0]: expected an object, found an integer",
        ),
        (
            {"kind": "assistant", "content": [{"type": "text"}]},
            "$.content[0].text: missing required field 'text' for TextBlock",
        ),
        (
            {"kind": "assistant", "usage": {"input_tokens": "1"}},
            "$.usage.input_tokens: expected an integer, found a string",
        ),
        (
            {"kind": "assistant", "usage": {"input_tokens": True}},
            "$.usage.input_tokens: expected an integer, found a boolean",
        ),
        (
            {"kind": "result", "duration_ms": "1"},
            "$.duration_ms: expected a number, found a string",
        ),
        ({"kind": "result", "is_error": 1}, "$.is_error: expected a boolean, found an integer"),
        (
            {"kind": "text", "text": "", "timestamp": []},
            "$.timestamp: expected a string or a number, found an array",
        ),
        ({"kind": "text", "text": "", "extra": []}, "$.extra: expected an object, found an array"),
        (
            {"kind": "text", "text": "", "citations": {}},
            "$.citations: expected an array, found an object",
        ),
        ({"kind": "init", "tools": "Bash"}, "$.tools: expected an array, found a string"),
        (
            {"kind": "raw", "data": {"a": float("inf")}},
            "$.data.a: expected a finite number, found inf",
        ),
    ],
)
def test_bad_native_input_raises_with_a_path(data: Any, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        from_dict(data)
    assert str(info.value) == message


def test_to_dict_refuses_foreign_values() -> None:
    with pytest.raises(EncodeError, match="cannot serialize dict"):
        to_dict({"kind": "text"})  # type: ignore[arg-type]


def test_from_dict_accepts_a_frozen_dict() -> None:
    from messages import FrozenDict

    assert from_dict(FrozenDict({"kind": "text", "text": "x"})) == TextMessage("x")


def test_json_lines() -> None:
    stream = [TextMessage("é", role="user"), ResultMessage(num_turns=1)]
    buffer = io.StringIO()
    assert write_jsonl(stream, buffer) == 2
    text = buffer.getvalue()
    assert (
        text
        == '{"v":2,"kind":"text","text":"é","role":"user"}\n{"v":2,"kind":"result","num_turns":1}\n'
    )
    assert list(read_jsonl(io.StringIO(text + "\n"))) == stream
    assert list(read_jsonl([line.encode() for line in text.splitlines()])) == stream
    assert loads(dumps(stream[0])) == stream[0]


def test_read_jsonl_reports_the_line_number() -> None:
    lines = ['{"kind":"text","text":"a"}', "", "{not json", '{"kind":"text","text":"b"}']
    reader = read_jsonl(lines)
    assert next(reader) == TextMessage("a")
    with pytest.raises(DecodeError) as info:
        next(reader)
    assert info.value.line == 3
    assert str(info.value).startswith("line 3: $: invalid JSON")


def test_loads_rejects_nan_and_deep_nesting() -> None:
    with pytest.raises(DecodeError, match="NaN is not valid JSON"):
        loads('{"kind":"raw","data":NaN}')
    with pytest.raises(DecodeError, match="JSON nests too deeply"):
        loads("[" * 100_000 + "]" * 100_000)
