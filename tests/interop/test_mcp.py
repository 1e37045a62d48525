"""The MCP bridge against the real ``mcp`` package.

The law: every ``CallToolResult`` (text, image, audio, embedded resource, resource link,
``structuredContent``, ``isError``, ``_meta``) becomes a ``ToolResultBlock`` and comes back
out exactly; tool result blocks drawn with ``messages.strategies`` and restricted to what
MCP carries come back exactly the other way; the rest follows the policy.
"""

from __future__ import annotations

import base64
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AudioBlock
from messages import DecodeError
from messages import EncodeError
from messages import FrozenDict
from messages import ImageBlock
from messages import RawBlock
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import strategies as ms

types = pytest.importorskip("mcp.types")

from messages.interop import mcp as bridge  # noqa: E402

_b64 = st.binary(max_size=16).map(lambda b: base64.b64encode(b).decode())
_meta = st.none() | st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 9), max_size=2)
_annotations = st.none() | st.builds(
    types.Annotations,
    audience=st.none() | st.lists(st.sampled_from(["user", "assistant"]), max_size=2),
    priority=st.none() | st.floats(0, 1),
)
_text = st.builds(
    types.TextContent, text=st.text(max_size=10), annotations=_annotations, _meta=_meta
)
_image = st.builds(
    types.ImageContent,
    data=_b64,
    mimeType=st.sampled_from(["image/png", "image/jpeg"]),
    _meta=_meta,
)
_audio = st.builds(types.AudioContent, data=_b64, mimeType=st.just("audio/wav"))
_resource = st.builds(
    types.EmbeddedResource,
    resource=st.builds(
        types.TextResourceContents, uri=st.just("file:///a.txt"), text=st.text(max_size=5)
    )
    | st.builds(types.BlobResourceContents, uri=st.just("file:///b.bin"), blob=_b64),
    annotations=_annotations,
)
_link = st.builds(
    types.ResourceLink,
    name=st.sampled_from(["readme", "log"]),
    uri=st.sampled_from(["file:///README.md", "https://example.com/x"]),
    mimeType=st.none() | st.just("text/markdown"),
    size=st.none() | st.integers(0, 999),
)
results = st.builds(
    types.CallToolResult,
    content=st.lists(_text | _image | _audio | _resource | _link, max_size=4),
    structuredContent=st.none()
    | st.dictionaries(st.sampled_from(["x", "y"]), st.integers(), max_size=2),
    isError=st.booleans(),
    _meta=_meta,
)


@given(results, st.text(max_size=5))
def test_call_tool_result_round_trips_exactly(result: Any, call_id: str) -> None:
    block = bridge.to_block(result, call_id)
    assert block.tool_use_id == call_id and block.is_error is result.is_error
    assert bridge.from_block(block) == result
    assert bridge.from_block(block).model_dump(by_alias=True) == result.model_dump(by_alias=True)


def _mcp_block(block: Any) -> Any:
    """A block restricted to what MCP carries in a tool result."""
    if isinstance(block, TextBlock):
        return TextBlock(block.text)
    if isinstance(block, ImageBlock | AudioBlock):
        if block.data is None:
            return TextBlock("url")
        media = block.media_type or ("image/png" if isinstance(block, ImageBlock) else "audio/wav")
        return replace(block, media_type=media, extra=FrozenDict())
    return TextBlock("x")


@given(ms.tool_result_blocks())
def test_tool_result_blocks_come_back_exactly_once_restricted(block: ToolResultBlock) -> None:
    content = block.content
    if isinstance(content, str):
        content = (TextBlock(content),) if content else ()
    else:
        content = tuple(_mcp_block(b) for b in content)
    restricted = ToolResultBlock(block.tool_use_id, content, is_error=bool(block.is_error))
    assert bridge.to_block(bridge.from_block(restricted), block.tool_use_id) == restricted


@given(ms.tool_result_blocks(content=st.lists(ms.blocks(), max_size=3).map(tuple)))
def test_everything_else_follows_the_policy(block: ToolResultBlock) -> None:
    try:
        raised = bridge.from_block(block)
    except UnsupportedContentError as exc:
        assert exc.path.startswith("$")
        raised = None
    dropped = bridge.from_block(block, unsupported="drop")
    texted = bridge.from_block(block, unsupported="text")
    assert len(texted.content) >= len(dropped.content)
    if raised is not None:
        assert raised == dropped == texted


def test_each_content_kind_maps_as_documented() -> None:
    result = types.CallToolResult(
        content=[
            types.TextContent(text="hi", annotations=types.Annotations(priority=0.5)),
            types.ImageContent(data="iVBORw0KGgo=", mime_type="image/png"),
            types.AudioContent(data="UklGRg==", mime_type="audio/wav"),
            types.EmbeddedResource(resource=types.TextResourceContents(uri="file:///a", text="x")),
            types.ResourceLink(name="n", uri="file:///b"),
        ],
        structured_content={"ok": True},
        is_error=True,
    )
    block = bridge.to_block(result, "call_1", name="lookup")
    text, image, audio, resource, link = block.content
    assert text == TextBlock("hi", extra={"annotations": {"priority": 0.5}})
    assert image == ImageBlock(data="iVBORw0KGgo=", media_type="image/png")
    assert audio == AudioBlock(data="UklGRg==", media_type="audio/wav")
    assert resource == RawBlock({"type": "resource", "resource": {"uri": "file:///a", "text": "x"}})
    assert link == RawBlock({"type": "resource_link", "name": "n", "uri": "file:///b"})
    assert block.extra == {"structuredContent": {"ok": True}}
    assert (block.is_error, block.name) == (True, "lookup")
    with pytest.raises(UnsupportedContentError):  # the name belongs to the call, not the result
        bridge.from_block(block)
    assert bridge.from_block(block, unsupported="drop") == result


def test_a_block_mcp_cannot_carry_follows_the_policy() -> None:
    block = ToolResultBlock(
        "c", (TextBlock("a"), ThinkingBlock("hm"), ImageBlock(url="https://x/y.png"))
    )
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_block(block)
    assert info.value.path == "$.content[1]"
    assert [c.text for c in bridge.from_block(block, unsupported="drop").content] == ["a"]
    texted = bridge.from_block(block, unsupported="text").content
    assert [c.text for c in texted] == ["a", "[thinking: hm]", "[image: https://x/y.png]"]


def test_sampling_messages_round_trip() -> None:
    sampling = [
        types.SamplingMessage(role="user", content=[types.TextContent(text="2+2?")]),
        types.SamplingMessage(
            role="assistant",
            content=[types.ToolUseContent(id="t1", name="calc", input={"expr": "2+2"})],
        ),
        types.SamplingMessage(
            role="user",
            content=[
                types.ToolResultContent(tool_use_id="t1", content=[types.TextContent(text="4")])
            ],
        ),
    ]
    ours = bridge.to_messages(sampling)
    assert ours[1].tool_uses == (ToolUseBlock("t1", "calc", {"expr": "2+2"}),)
    assert ours[2].tool_results[0].text == "4"
    assert bridge.from_messages(ours) == sampling


def test_create_message_result_sets_model_and_stop_reason() -> None:
    result = types.CreateMessageResult(
        role="assistant", content=types.TextContent(text="4"), model="m-1", stop_reason="endTurn"
    )
    [ours] = bridge.to_messages([result])
    assert (ours.text, ours.model, ours.stop_reason) == ("4", "m-1", "endTurn")


def test_a_system_prompt_follows_the_policy() -> None:
    from messages import SystemMessage

    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([SystemMessage("Be brief."), UserMessage("hi")])
    assert info.value.path == "$[0]"
    assert len(bridge.from_messages([SystemMessage("Be brief.")], unsupported="drop")) == 0
    [texted] = bridge.from_messages([SystemMessage("Be brief.")], unsupported="text")
    assert texted.content == [types.TextContent(text="Be brief.")]


def test_bad_input_raises_our_errors_with_a_path() -> None:
    with pytest.raises(DecodeError) as info:
        bridge.to_block({"content": []})  # type: ignore[arg-type]
    assert info.value.path == "$"
    half = types.CallToolResult.model_construct()
    with pytest.raises(DecodeError) as info:
        bridge.to_block(half)
    assert info.value.path == "$.content"
    with pytest.raises(DecodeError) as info:
        bridge.to_messages([types.SamplingMessage(role="user", content=[]), "x"])
    assert info.value.path == "$[1]"
    with pytest.raises(EncodeError) as info:
        bridge.from_block(TextBlock("x"))  # type: ignore[arg-type]
    assert info.value.path == "$"
