"""What every event-stream adapter does with content it cannot carry, and with role messages.

The same rules hold for Gemini CLI, OpenCode, Copilot and ACP: ``unsupported="raise"`` (the
default) raises UnsupportedContentError naming the adapter, ``"drop"`` leaves the content out,
``"text"`` writes a text description where the format has text.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest

from conftest import json_equal
from messages import (
    AssistantMessage,
    AudioBlock,
    EncodeError,
    ImageBlock,
    InvalidLineMessage,
    RawBlock,
    RawMessage,
    TextBlock,
    TextMessage,
    ThinkingBlock,
    ToolResultBlock,
    ToolResultMessage,
    ToolUseBlock,
    ToolUseMessage,
    UnsupportedContentError,
)
from messages.adapters import acp, copilot, gemini_cli, opencode
from messages.convert import normalize_messages
from messages.policy import describe

ADAPTERS = [gemini_cli, opencode, copilot, acp]
IDS = [a.NAME for a in ADAPTERS]
MIXED = (
    TextBlock("see"),
    ImageBlock(url="https://x/a.png", media_type="image/png"),
    AudioBlock(file_id="file_1"),
    ThinkingBlock("hm"),
    ToolUseBlock("t", "ls", {"a": 1}),
    ToolResultBlock("t", "inner"),
    RawBlock({"type": "document", "id": 1}),
)


def texts(wire: Any) -> str:
    return json.dumps(wire, ensure_ascii=False)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=IDS)
def test_citations_are_refused_or_left_out(adapter: ModuleType) -> None:
    cited = TextMessage("x", citations=({"url": "u"},))
    with pytest.raises(UnsupportedContentError) as info:
        adapter.encode(cited)
    assert info.value.source == adapter.NAME
    assert "citations" in str(info.value)
    back = adapter.decode(adapter.encode(cited, unsupported="drop"))
    (text,) = normalize_messages([back])
    assert text == TextMessage("x", role="assistant", extra=text.extra)


@pytest.mark.parametrize("adapter", [gemini_cli, opencode, copilot], ids=IDS[:3])
def test_tool_result_blocks_other_than_text(adapter: ModuleType) -> None:
    result = ToolResultMessage("t", MIXED, is_error=False)
    if adapter is not acp:
        with pytest.raises(UnsupportedContentError) as info:
            adapter.encode(result)
        assert info.value.path == "$.content[1]"
    dropped = adapter.decode(adapter.encode(result, unsupported="drop"))
    described = adapter.decode(adapter.encode(result, unsupported="text"))
    text_of = (lambda m: m.text) if adapter is not opencode else (lambda m: m.content[1].text)
    assert text_of(dropped) == "see"
    assert text_of(described) == "\n".join(["see", *(describe(b) for b in MIXED[1:])])
    assert text_of(described) == (
        "see\n[image: image/png, https://x/a.png]\n[audio: file file_1]\n[thinking: hm]\n"
        '[tool call ls (t): {"a": 1}]\n[tool result t: inner]\n[document]'
    )


def test_acp_tool_results_keep_media_and_raw_items() -> None:
    result = ToolResultMessage("t", MIXED, is_error=False)
    with pytest.raises(UnsupportedContentError):
        acp.encode(result)
    back = acp.decode(acp.encode(result, unsupported="text"))
    assert [b.kind for b in back.content] == [  # type: ignore[union-attr]
        "text",
        "image",
        "audio",
        "text",
        "text",
        "text",
        "raw",
    ]


@pytest.mark.parametrize("adapter", ADAPTERS, ids=IDS)
def test_raw_lines_pass_through_and_raw_content_is_refused(adapter: ModuleType) -> None:
    line = RawMessage({"type": "rate_limit_event", "n": 1})
    assert adapter.encode(line) == {"type": "rate_limit_event", "n": 1}
    block = RawMessage({"type": "server_tool_use", "id": "s1"}, role="tool")
    with pytest.raises(UnsupportedContentError):
        adapter.encode(block)
    assert adapter.encode(block, unsupported="drop") is None


@pytest.mark.parametrize(
    "adapter", [gemini_cli, copilot, acp], ids=["gemini_cli", "copilot", "acp"]
)
def test_raw_assistant_content_degrades_to_its_description(adapter: ModuleType) -> None:
    block = RawMessage({"type": "server_tool_use", "id": "s1"}, role="assistant")
    if adapter is acp:  # an ACP chunk carries any content block verbatim
        assert acp.decode(acp.encode(block)) == RawMessage(acp.encode(block), role="assistant")
        return
    wire = adapter.encode(block, unsupported="text")
    assert '"[server_tool_use]"' in texts(wire)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=IDS)
def test_invalid_lines_are_written_back_by_iter_encode_only(adapter: ModuleType) -> None:
    bad = InvalidLineMessage("not json", reason="invalid JSON", line=3)
    with pytest.raises(UnsupportedContentError):
        adapter.encode(bad)
    assert adapter.encode(bad, unsupported="text") is None
    assert list(adapter.iter_encode([bad])) == ["not json"]


@pytest.mark.parametrize("adapter", ADAPTERS, ids=IDS)
def test_role_messages(adapter: ModuleType) -> None:
    one = AssistantMessage((ToolUseBlock("t1", "ls", {"a": 1}),), session_id="s")
    assert json_equal(
        adapter.encode(one), adapter.encode(ToolUseMessage("t1", "ls", {"a": 1}, session_id="s"))
    )
    empty = AssistantMessage(())
    lines = list(adapter.iter_encode([empty]))
    if adapter is copilot:  # an assistant.message may hold nothing
        assert lines == ['{"type":"assistant.message","data":{}}']
    else:
        assert lines == []
        with pytest.raises(EncodeError) as info:
            adapter.encode(empty)
        assert "with 0 blocks needs 0 events" in str(info.value)


def test_gemini_refuses_arguments_that_are_not_an_object() -> None:
    call = ToolUseMessage("t", "ls", arguments="{broken")
    with pytest.raises(UnsupportedContentError):
        gemini_cli.encode(call)
    assert gemini_cli.encode(call, unsupported="drop")["parameters"] == {}


def test_acp_corner_cases() -> None:
    untitled = {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": ""}},
    }
    assert json_equal(acp.encode(acp.decode(untitled)), untitled)
    prompt = {"jsonrpc": "2.0", "method": "session/prompt", "params": {"prompt": ["hi", 3]}}
    assert acp.decode(prompt).content == (RawBlock("hi"), RawBlock(3))  # type: ignore[union-attr]
    assert json_equal(acp.encode(acp.decode(prompt)), prompt)
    link = RawMessage({"type": "resource_link", "uri": "file:///a"}, role="user")
    assert acp.encode(link)["params"]["update"] == {
        "sessionUpdate": "user_message_chunk",
        "content": {"type": "resource_link", "uri": "file:///a"},
    }
    tail = [ToolUseMessage("c", "read"), acp.decode({"jsonrpc": "2.0", "id": 1, "result": {}})]
    assert [m.kind for m in acp.merge(tail)] == ["tool_use", "stream_event"]
