"""The history tools over real Claude Code runs: their API messages go through coerce.

Each ``user``/``assistant`` line of a capture carries an Anthropic-shaped ``message``; coerce
reads it like any Anthropic dict. A real, finished run is well formed, so repair must find
nothing to do, and every other tool must keep its tool pairs whole.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from conftest import shared_fixtures
from messages import Message
from messages import ToolUseBlock
from messages.history import coerce
from messages.history import filter_messages
from messages.history import merge_runs
from messages.history import repair
from messages.history import trim
from messages.text import summarize
from messages.text import transcript
from support.history_checks import pairing

CAPTURES = [
    "caic-ask-user-question.jsonl",
    "caic-evidence-native-subagent-joke-v3.jsonl",
    "caic-read-edit-bash.jsonl",
    "caic-tool-error.jsonl",
]


def conversation(name: str) -> list[Message]:
    out: list[Message] = []
    for line in shared_fixtures("claude_code", name).read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        if "t" in record and isinstance(record.get("msg"), dict):  # caic v2/v3 envelope
            record = record["msg"]
        if record.get("type") in ("user", "assistant") and isinstance(record.get("message"), dict):
            (message,) = coerce([record["message"]])
            out.append(
                dataclasses.replace(
                    message,
                    session_id=record.get("session_id"),
                    parent_tool_use_id=record.get("parent_tool_use_id"),
                )
            )
    return out


@pytest.mark.parametrize("name", CAPTURES)
def test_real_runs_need_no_repair(name: str) -> None:
    messages = conversation(name)
    assert messages
    assert pairing(messages).ok
    assert repair(messages) == (tuple(messages), ())
    assert repair(merge_runs(messages))[1] == ()


@pytest.mark.parametrize("name", CAPTURES)
def test_real_runs_trim_and_filter_without_splitting_pairs(name: str) -> None:
    messages = conversation(name)
    for budget in (0, 50, 200, 1000, 5000, 10**6):
        for strategy in ("last", "first"):
            assert pairing(trim(messages, budget, strategy=strategy)).ok  # type: ignore[arg-type]
    assert pairing(filter_messages(messages, exclude_tool_calls=True)).calls == []


@pytest.mark.parametrize("name", CAPTURES)
def test_real_runs_render(name: str) -> None:
    messages = conversation(name)
    names = {
        b.name for m in messages for b in getattr(m, "tool_uses", ()) if isinstance(b, ToolUseBlock)
    }
    for fmt in ("text", "markdown", "xml"):
        rendered = transcript(messages, format=fmt)  # type: ignore[arg-type]
        assert all(n in rendered for n in names)
    assert all(len(summarize(m)) <= 80 for m in messages)


def test_usage_is_kept_where_coerce_cannot_model_it() -> None:
    messages: list[Any] = conversation("caic-read-edit-bash.jsonl")
    assistant = next(m for m in messages if m.kind == "assistant")
    assert assistant.message_id is not None and assistant.message_id.startswith("msg_")
    assert "usage" in assistant.extra
