"""Static typing test: mypy --strict must accept this file and agree with every assert_type."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from typing import assert_type

from messages import AssistantMessage
from messages import Block
from messages import DocumentBlock
from messages import FrozenDict
from messages import JsonValue
from messages import Message
from messages import RateLimitMessage
from messages import ResultMessage
from messages import StopReason
from messages import TaskEventMessage
from messages import TextBlock
from messages import ToolUseBlock
from messages import Usage
from messages import UserMessage
from messages import VideoBlock
from messages import from_dict
from messages import to_dict
from messages.convert import block_to_message
from messages.convert import flatten_assistant
from messages.convert import message_to_block
from messages.convert import normalize_messages
from messages.convert import parse_blocks

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


def document_name(block: Block) -> str | None:
    """Documents and video match by keyword like every block."""
    match block:
        case DocumentBlock(title=title, citations=citations):
            assert_type(citations, bool | None)
            return title
        case VideoBlock(fps=fps, start_offset=start):
            assert_type(fps, int | float | None)
            return start
        case _:
            return None


pdf = DocumentBlock.from_bytes(b"%PDF-1.7\n", title="Q3")
assert_type(pdf, DocumentBlock)
assert_type(pdf.size, int | None)
assert_type(DocumentBlock.from_text("notes").content, str | tuple[Block, ...] | None)


def active_tasks(tasks: frozenset[str], event: Message) -> frozenset[str]:
    """Agent events narrow with match like every other message."""
    match event:
        case TaskEventMessage(subtype="task_started", task_id=str() as task):
            return tasks | {task}
        case TaskEventMessage(task_id=str() as task) if event.is_terminal:
            assert_type(event.state, str | None)
            return tasks - {task}
        case RateLimitMessage() if event.status == "rejected":
            assert_type(event.resets_at, int | float | None)
        case UserMessage(summary="compaction"):
            assert_type(event.origin, Mapping[str, JsonValue] | None)
        case ResultMessage(deferred_tool_use=ToolUseBlock() as call):
            assert_type(call.name, str)
    return tasks
