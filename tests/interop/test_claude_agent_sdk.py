"""The claude-agent-sdk bridge against the real SDK.

The law: for every Claude Code line the SDK's parser accepts, ``to_messages([sdk])``
equals ``claude_code.decode`` of the line as far as the SDK kept it. ``sdk_view`` below is
that "as far as the SDK kept it", written from the SDK's parser independently of the
bridge; it is the list docs/interop.md gives of what the SDK drops.

The SDK's parser (``parse_message``) lives in a private module: the bridge never uses it,
these tests use it as the oracle, and ``test_query_yields_what_the_parser_builds`` checks
that the public ``query()`` (fed a capture through a public ``Transport``) yields exactly
what that parser builds, so the oracle is the public path.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from messages import AudioBlock
from messages import DecodeError
from messages import EncodeError
from messages import ImageBlock
from messages import RawMessage
from messages import TextBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import strategies as ms
from messages.adapters import claude_code as cc

sdk = pytest.importorskip("claude_agent_sdk")
parser = pytest.importorskip("claude_agent_sdk._internal.message_parser")

from conftest import EXAMPLES  # noqa: E402
from conftest import FIXTURES  # noqa: E402
from conftest import ROOT  # noqa: E402
from messages.interop import claude_agent_sdk as bridge  # noqa: E402

EXAMPLE = EXAMPLES / "claude_code.jsonl"
LOCAL = ROOT / "tests" / "fixtures" / "claude_code"


def parse(line: dict[str, Any]) -> Any:
    """What the SDK's parser makes of a line: an object, None (skipped) or "rejected"."""
    try:
        return parser.parse_message(json.loads(json.dumps(line)))
    except sdk.ClaudeSDKError:
        return "rejected"


# -- what the SDK keeps -------------------------------------------------------------------

_USER_KEEP = {"text": ("text",), "tool_use": ("id", "name", "input")}
_ASSISTANT_KEEP = {
    "text": ("text",),
    "thinking": ("thinking", "signature"),
    "tool_use": ("id", "name", "input"),
    "server_tool_use": ("id", "name", "input"),
    "advisor_tool_result": ("tool_use_id", "content"),
}
_RESULT_OPTIONAL = (
    "stop_reason",
    "total_cost_usd",
    "usage",
    "result",
    "structured_output",
    "modelUsage",
    "permission_denials",
    "errors",
    "api_error_status",
    "uuid",
    "terminal_reason",
    "origin",
    "user_message_uuid",
    "user_message_uuids",
)


def _set(out: dict[str, Any], line: dict[str, Any], *keys: str) -> None:
    for key in keys:
        if line.get(key) is not None:
            out[key] = line[key]


def _blocks(content: list[Any], keep: dict[str, tuple[str, ...]]) -> list[Any]:
    out = []
    for block in content:
        tag = block["type"]
        if tag == "tool_result":
            kept = {"type": tag, "tool_use_id": block["tool_use_id"]}
            _set(kept, block, "content", "is_error")
            out.append(kept)
        elif tag in keep:
            out.append({"type": tag, **{k: block[k] for k in keep[tag]}})
    return out


def sdk_view(line: dict[str, Any]) -> dict[str, Any]:
    """The line as far as the SDK keeps it (absent and null are the same to it)."""
    tag = line["type"]
    if tag == "system":
        return line
    if tag == "user":
        content = line["message"]["content"]
        if isinstance(content, list):
            content = _blocks(content, _USER_KEEP)
        out = {
            "type": "user",
            "message": {"role": "user", "content": content},
            "parent_tool_use_id": line.get("parent_tool_use_id"),
        }
        _set(out, line, "uuid", "tool_use_result")
        origin = line.get("origin")
        if isinstance(origin, dict) and isinstance(origin.get("kind"), str):
            out["origin"] = origin
        return out
    if tag == "assistant":
        inner = line["message"]
        message = {"model": inner["model"]}
        _set(message, inner, "id")
        message["role"] = "assistant"
        message["content"] = _blocks(inner["content"], _ASSISTANT_KEEP)
        _set(message, inner, "stop_reason", "usage")
        out = {
            "type": "assistant",
            "message": message,
            "parent_tool_use_id": line.get("parent_tool_use_id"),
        }
        _set(out, line, "session_id", "uuid", "error", "user_message_uuid", "user_message_uuids")
        return out
    if tag == "result":
        out = {k: line[k] for k in ("type", "subtype", "duration_ms", "duration_api_ms")}
        out |= {k: line[k] for k in ("is_error", "num_turns", "session_id")}
        _set(out, line, *_RESULT_OPTIONAL)
        deferred = line.get("deferred_tool_use")
        if deferred:
            out["deferred_tool_use"] = {k: deferred[k] for k in ("id", "name", "input")}
        return out
    if tag == "stream_event":
        out = {k: line[k] for k in ("type", "event", "session_id")}
        out["parent_tool_use_id"] = line.get("parent_tool_use_id")
        out["uuid"] = line["uuid"]
        _set(out, line, "user_message_uuid", "user_message_uuids")
        return out
    if tag == "rate_limit_event":
        return {k: line[k] for k in ("type", "rate_limit_info", "uuid", "session_id")}
    assert tag == "conversation_reset", tag
    return {k: line[k] for k in ("type", "new_conversation_id", "uuid", "session_id")}


# -- the captures -------------------------------------------------------------------------


def _unwrap(obj: Any) -> Any:
    if isinstance(obj, dict) and "t" in obj and "msg" in obj:  # caic evidence envelope
        return obj["msg"]
    return obj


def _lines(path: Path) -> list[Any]:
    text = path.read_text("utf-8")
    if path.suffix == ".json":
        return [_unwrap(json.loads(text))]
    return [_unwrap(json.loads(line)) for line in text.splitlines() if line.strip()]


def _capture_paths() -> list[Path]:
    root = FIXTURES / "claude_code"
    found = sorted(root.glob("*.json*")) + sorted((root / "synthetic").glob("*.json"))
    return [EXAMPLE, LOCAL / "stream.jsonl", LOCAL / "transcript.jsonl", *found]


CAPTURES = _capture_paths()


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: p.name)
def test_every_line_the_sdk_accepts_decodes_as_the_adapter_decodes_it(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"capture not available: {path}")
    accepted = 0
    for number, line in enumerate(_lines(path), 1):
        built = parse(line)
        if built is None or built == "rejected":
            continue
        accepted += 1
        assert bridge.to_messages([built]) == [cc.decode(sdk_view(line))], f"{path}:{number}"
        # and the SDK object comes back exactly
        assert bridge.from_messages(bridge.to_messages([built])) == [built], f"{path}:{number}"
    if path.parent.name != "synthetic":
        assert accepted, f"the SDK accepted no line of {path.name}"


def test_the_captures_cover_every_sdk_message_kind() -> None:
    if not (FIXTURES / "claude_code").is_dir():
        pytest.skip("real captures not available")
    kinds = set()
    for path in CAPTURES:
        for line in _lines(path):
            built = parse(line)
            if built is not None and built != "rejected":
                kinds.add(type(built).__name__)
    expected = {"AssistantMessage", "UserMessage", "ResultMessage", "StreamEvent"}
    assert expected | {"SystemMessage", "RateLimitEvent"} <= kinds


def test_what_the_sdk_drops_is_what_the_docs_list() -> None:
    line = {
        "type": "assistant",
        "message": {
            "model": "claude-sonnet-4-5",
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hi", "citations": None},
                {"type": "redacted_thinking", "data": "xyz"},
            ],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 1},
        },
        "parent_tool_use_id": None,
        "session_id": "s-1",
        "uuid": "u-1",
        "timestamp": "2026-01-01T00:00:00Z",
    }
    [ours] = bridge.to_messages([parse(line)])
    full = cc.decode(line)
    assert ours == cc.decode(sdk_view(line))
    assert full.timestamp == "2026-01-01T00:00:00Z" and ours.timestamp is None
    assert len(full.blocks) == 2 and ours.blocks == (TextBlock("hi"),)
    assert "stop_sequence" in full.extra["message"]
    assert "stop_sequence" not in ours.extra["message"]


# -- the law over drawn messages ----------------------------------------------------------


@given(ms.messages())
def test_law_over_drawn_messages(message: Any) -> None:
    line = cc.encode(message, unsupported="drop")
    if line is None:
        return
    built = parse(line)
    if built is None or built == "rejected":
        return
    assert bridge.to_messages([built]) == [cc.decode(sdk_view(line))]
    assert bridge.from_messages(bridge.to_messages([built])) == [built]


@given(ms.conversations(rich=True))
def test_conversations_follow_the_policy(conversation: list[Any]) -> None:
    dropped = bridge.from_messages(conversation, unsupported="drop")
    texted = bridge.from_messages(conversation, unsupported="text")
    assert len(texted) >= len(dropped)
    try:
        raised = bridge.from_messages(conversation)
    except UnsupportedContentError as exc:
        assert exc.path.startswith("$[")
    else:
        assert raised == dropped == texted
    kinds = (sdk.AssistantMessage, sdk.UserMessage, sdk.ResultMessage, sdk.StreamEvent)
    for obj in texted:  # everything built is an SDK message that comes back through us
        assert isinstance(obj, kinds)
        assert bridge.from_messages(bridge.to_messages([obj])) == [obj]


def test_a_block_the_sdk_cannot_hold_follows_the_policy() -> None:
    image = ImageBlock(data="iVBORw0KGgo=", media_type="image/png")
    prompt = UserMessage((TextBlock("look"), image))
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([prompt])
    assert info.value.path == "$[0].content[1]"
    [dropped] = bridge.from_messages([prompt], unsupported="drop")
    assert dropped.content == [sdk.TextBlock(text="look")]
    [texted] = bridge.from_messages([prompt], unsupported="text")
    assert texted.content == [
        sdk.TextBlock(text="look"),
        sdk.TextBlock(text="[image: image/png, 8 bytes]"),
    ]


def test_a_record_the_sdk_skips_follows_the_policy() -> None:
    record = RawMessage({"type": "control_request", "request_id": "r1"})
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([UserMessage("hi"), record])
    assert info.value.path == "$[1]"
    assert len(bridge.from_messages([UserMessage("hi"), record], unsupported="drop")) == 1
    assert len(bridge.from_messages([UserMessage("hi"), record], unsupported="text")) == 1


def test_audio_follows_claude_codes_policy() -> None:
    audio = UserMessage((AudioBlock(data="AAAA", media_type="audio/wav"),))
    with pytest.raises(UnsupportedContentError) as info:
        bridge.from_messages([UserMessage("x"), audio])
    assert info.value.path.startswith("$[1]")


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("objects", "path"),
    [
        ([{"type": "user"}], "$[0]"),
        ([sdk.UserMessage(content="hi"), 42], "$[1]"),
        (
            [sdk.AssistantMessage(content=[sdk.TextBlock(text="a"), "b"], model="m")],
            "$[0].content[1]",
        ),
        ([sdk.AssistantMessage(content="not a list", model="m")], "$[0].content"),
        (
            [sdk.AssistantMessage(content=[sdk.TextBlock(text=3)], model="m")],
            "$[0].content[0].text",
        ),
        ([sdk.AssistantMessage(content=[], model=None)], "$[0].model"),
    ],
)
def test_bad_input_raises_decode_error_with_a_path(objects: list[Any], path: str) -> None:
    with pytest.raises(DecodeError) as info:
        bridge.to_messages(objects)
    assert info.value.path == path


def test_a_half_built_object_raises_decode_error() -> None:
    half = object.__new__(sdk.ResultMessage)  # no fields set at all
    with pytest.raises(DecodeError) as info:
        bridge.to_messages([half])
    assert info.value.path.startswith("$[0].")


def test_not_a_message_on_the_way_out() -> None:
    with pytest.raises(EncodeError) as info:
        bridge.from_messages([UserMessage("hi"), "nope"])  # type: ignore[list-item]
    assert info.value.path == "$[1]"


# -- the public path: query() with a Transport --------------------------------------------


class _Replay(sdk.Transport):  # type: ignore[misc]
    """A transport that answers the SDK's initialize request and then replays lines."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.lines = lines
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def connect(self) -> None:
        return None

    async def write(self, data: str) -> None:
        for text in data.splitlines():
            message = json.loads(text)
            if message.get("type") == "control_request":
                await self.inbox.put(
                    {
                        "type": "control_response",
                        "response": {
                            "subtype": "success",
                            "request_id": message["request_id"],
                            "response": {},
                        },
                    }
                )
                for line in self.lines:
                    await self.inbox.put(line)

    async def read_messages(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            item = await self.inbox.get()
            yield item
            if item.get("type") == "result":
                return

    async def close(self) -> None:
        return None

    def is_ready(self) -> bool:
        return True

    async def end_input(self) -> None:
        return None


def test_query_yields_what_the_parser_builds() -> None:
    lines = [
        line
        for line in _lines(EXAMPLE)
        if parse(line) not in (None, "rejected") and line.get("type") != "control_response"
    ]
    assert lines[-1]["type"] == "result"

    async def run() -> list[Any]:
        out = []
        async for message in sdk.query(prompt="hi", transport=_Replay(lines)):
            out.append(message)
        return out

    yielded = asyncio.run(run())
    assert yielded == [parse(line) for line in lines]
    assert bridge.to_messages(yielded) == [cc.decode(sdk_view(line)) for line in lines]


def test_our_messages_do_not_share_the_sdk_objects_dicts() -> None:
    sdk_message = sdk.AssistantMessage(
        content=[sdk.ToolUseBlock(id="t1", name="Bash", input={"command": "ls"})],
        model="m",
        usage={"input_tokens": 1, "output_tokens": 2},
    )
    [ours] = bridge.to_messages([sdk_message])
    sdk_message.content[0].input["command"] = "rm -rf /"
    assert ours.tool_uses[0].input["command"] == "ls"
