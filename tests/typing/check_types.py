"""Static typing test: mypy --strict must accept this file and agree with every assert_type."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, assert_type

from messages import (
    AssistantMessage,
    Block,
    FrozenDict,
    JsonValue,
    Message,
    StopReason,
    TextBlock,
    ToolUseBlock,
    Usage,
    from_dict,
    to_dict,
)
from messages.convert import (
    block_to_message,
    flatten_assistant,
    message_to_block,
    normalize_messages,
    parse_blocks,
)

blocks = parse_blocks([{"type": "text", "text": "hi"}])
assert_type(blocks, tuple[Block, ...])

turn = AssistantMessage(blocks, usage=Usage(1, 2))
assert_type(turn.text, str)
assert_type(turn.tool_uses, tuple[ToolUseBlock, ...])
assert_type(turn.stop, StopReason | None)
assert_type(turn.usage, Usage | None)

call = ToolUseBlock("t1", "Bash", {"command": "ls"})
assert_type(call.input, Mapping[str, JsonValue])
assert_type(FrozenDict({"a": 1}).thaw(), dict[str, Any])

assert_type(block_to_message(TextBlock("x"), role="user"), Message)
assert_type(message_to_block(block_to_message(call)), Block)
assert_type(flatten_assistant(turn), tuple[Message, ...])
assert_type(normalize_messages([turn]), Iterator[Message])
assert_type(to_dict(turn), dict[str, Any])


def describe(block: Block) -> str:
    match block:
        case TextBlock(text):
            assert_type(text, str)
            return text
        case ToolUseBlock(name=name):
            return name
        case _:
            return block.kind


restored = from_dict(to_dict(turn))
