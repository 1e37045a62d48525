"""One simple conversation recorded from each CLI normalises to the same flat kinds.

The conversation: the user asks what is in ``hello.txt``; the agent reads it with one tool
call and answers. Each file under ``tests/fixtures/same_conversation/`` is that run as the CLI
writes it; other adapters (Claude Code, Codex) can add theirs and join the check.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from _adapter_helpers import assert_round_trips, assert_stream_round_trips, flat_kinds, local, read
from messages import TextMessage, ToolResultMessage, ToolUseMessage
from messages.adapters import acp, copilot, gemini_cli, opencode
from messages.convert import normalize_messages

ADAPTERS: dict[str, ModuleType] = {
    "gemini_cli": gemini_cli,
    "opencode": opencode,
    "copilot": copilot,
    "acp": acp,
}
CONVERSATION = ["text(user)", "tool_use", "tool_result", "text(assistant)"]
CONTENT = {"text", "tool_use", "tool_result"}
ANSWER = '`hello.txt` contains one line: "Hello, world!"'


def expected(name: str) -> list[str]:
    # `opencode run --format json` does not echo the user's prompt.
    return CONVERSATION[1:] if name == "opencode" else CONVERSATION


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_the_conversation_round_trips(name: str) -> None:
    assert_round_trips(ADAPTERS[name], local("same_conversation", f"{name}.jsonl"))
    assert_stream_round_trips(ADAPTERS[name], local("same_conversation", f"{name}.jsonl"))


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_the_conversation_normalises_to_the_same_kinds(name: str) -> None:
    adapter = ADAPTERS[name]
    merged = list(adapter.merge(read(adapter, local("same_conversation", f"{name}.jsonl"))))
    assert flat_kinds(merged) == expected(name)
    flat = [
        m
        for m in normalize_messages(merged)
        if isinstance(m, (TextMessage, ToolUseMessage, ToolResultMessage))
    ]
    use, result, answer = flat[-3:]
    assert isinstance(use, ToolUseMessage) and isinstance(result, ToolResultMessage)
    assert result.tool_use_id == use.id
    assert "hello.txt" in next(iter(use.input.values()))  # type: ignore[operator]
    assert "Hello, world!" in result.text
    assert isinstance(answer, TextMessage) and answer.text == ANSWER


@pytest.mark.parametrize("source", sorted(ADAPTERS))
@pytest.mark.parametrize("target", sorted(ADAPTERS))
def test_converting_keeps_the_conversation(source: str, target: str) -> None:
    """decode with one adapter, write with another, read back: the same kinds."""
    merged = list(
        ADAPTERS[source].merge(
            read(ADAPTERS[source], local("same_conversation", f"{source}.jsonl"))
        )
    )
    stripped = [
        m for m in normalize_messages(merged) if m.kind in {"text", "tool_use", "tool_result"}
    ]
    lines = list(ADAPTERS[target].iter_encode(stripped, unsupported="drop"))
    back = list(ADAPTERS[target].merge(ADAPTERS[target].iter_decode(lines, strict=True)))
    want = expected(source)
    if target == "opencode" and want[0] == "text(user)":
        want = want[1:]
    assert flat_kinds(back) == want
