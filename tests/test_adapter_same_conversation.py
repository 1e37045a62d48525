"""One simple conversation recorded from each CLI normalises to the same flat kinds.

The conversation: the user asks what is in ``hello.txt``; the agent reads it with one tool
call and answers. Each file under ``tests/fixtures/same_conversation/`` is that run as the CLI
writes it (hand-made, shaped like the real captures): Claude Code ``stream-json`` with partial
messages, Codex ``exec --json`` and the Codex app-server's output, Gemini CLI ``stream-json``,
``opencode run --format json``, Copilot CLI JSONL and an ACP session.

Honest differences, kept visible in :data:`FLAT`:

- Claude Code (``-p PROMPT``), Codex exec and ``opencode run`` do not echo the prompt;
- Claude Code and Codex show the model's reasoning (``thinking``), the others here do not;
- lines an adapter does not model stay ``raw`` (Codex's ``turn.started``, the app-server's
  responses and housekeeping notifications); Claude Code's ``rate_limit_event`` is a typed
  session message, so it is not in the flat kinds.

So the law compares the *conversation*: the flat view's text (with its role), tool calls and
tool results, in order.

The same module also checks the real captures: in the flat view of a Claude Code or Codex
session no tool call appears twice and every result follows its call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from conftest import shared_fixtures
from messages import Message
from messages import TextMessage
from messages import ToolResultMessage
from messages import ToolUseMessage
from messages.adapters import acp
from messages.adapters import claude_code
from messages.adapters import codex
from messages.adapters import copilot
from messages.adapters import gemini_cli
from messages.adapters import opencode
from messages.convert import normalize_messages
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import read

SOURCES: dict[str, ModuleType] = {
    "acp": acp,
    "claude_code": claude_code,
    "codex": codex,
    "codex_app_server": codex,
    "copilot": copilot,
    "gemini_cli": gemini_cli,
    "opencode": opencode,
}
"""Fixture name -> the adapter that reads it."""

TARGETS: dict[str, ModuleType] = {m.NAME: m for m in SOURCES.values()}
"""Every adapter, by name."""

CONVERSATION = ["text(user)", "tool_use", "tool_result", "text(assistant)"]
NO_PROMPT = frozenset(("claude_code", "codex", "opencode"))
"""Sources whose output does not echo the user's prompt."""
NO_PROMPT_LINE = frozenset(("codex", "opencode"))
"""Targets with no line for the user's prompt (Claude Code writes it as a ``user`` line)."""

FLAT = {
    "acp": CONVERSATION,
    "claude_code": ["thinking(assistant)", *CONVERSATION[1:]],
    "codex": ["raw", "thinking(assistant)", *CONVERSATION[1:]],
    "codex_app_server": [
        *["raw"] * 4,  # responses to initialize, thread/start, turn/start; turn/started
        "text(user)",
        "thinking(assistant)",
        *CONVERSATION[1:],
        "raw",  # thread/tokenUsage/updated
    ],
    "copilot": CONVERSATION,
    "gemini_cli": CONVERSATION,
    "opencode": CONVERSATION[1:],
}
"""Every flat kind each fixture gives, after ``merge``, session messages left out."""

CONTENT = frozenset(("text", "tool_use", "tool_result"))
ANSWER = '`hello.txt` contains one line: "Hello, world!"'


def fixture(name: str) -> Path:
    return local("same_conversation", f"{name}.jsonl")


def expected(name: str) -> list[str]:
    return CONVERSATION[1:] if name in NO_PROMPT else CONVERSATION


def conversation(messages: list[Message]) -> list[str]:
    """The flat kinds that make up the conversation: text with its role, calls, results."""
    return [k for k in flat_kinds(messages) if k.startswith("text(") or k in CONTENT]


def decoded(name: str) -> list[Message]:
    adapter = SOURCES[name]
    return list(adapter.merge(read(adapter, fixture(name))))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_flat_kind_is_accounted_for(name: str) -> None:
    assert flat_kinds(decoded(name)) == FLAT[name]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_conversation_normalises_to_the_same_kinds(name: str) -> None:
    merged = decoded(name)
    assert conversation(merged) == expected(name)
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
    if name not in NO_PROMPT:
        prompt = flat[0]
        assert isinstance(prompt, TextMessage) and prompt.role == "user"
        assert prompt.text == "What is in hello.txt?"


def test_every_source_tells_the_same_conversation() -> None:
    """The law itself, across all seven recordings at once."""
    seen = {name: conversation(decoded(name)) for name in SOURCES}
    full = {name: kinds for name, kinds in seen.items() if name not in NO_PROMPT}
    cut = {name: kinds for name, kinds in seen.items() if name in NO_PROMPT}
    assert all(kinds == CONVERSATION for kinds in full.values()), full
    assert all(kinds == CONVERSATION[1:] for kinds in cut.values()), cut


def _portable(messages: list[Message], same_format: bool) -> list[Message]:
    """The conversation's flat messages; their ``extra`` is dropped for another format."""
    content = [m for m in normalize_messages(messages) if m.kind in CONTENT]
    return content if same_format else [replace(m, extra={}) for m in content]


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_converting_keeps_the_conversation(source: str, target: str) -> None:
    """Decode with one adapter, write with another, read back: the same conversation."""
    writer = TARGETS[target]
    stream = _portable(decoded(source), SOURCES[source] is writer)
    lines = list(writer.iter_encode(stream, unsupported="drop"))
    back = list(writer.merge(writer.iter_decode(lines, strict=True)))
    want = expected(source)
    if target in NO_PROMPT_LINE and want[0] == "text(user)":
        want = want[1:]  # the target has no line for the user's prompt: dropped
    assert conversation(back) == want
    texts = [m for m in normalize_messages(back) if isinstance(m, TextMessage)]
    assert texts[-1].text == ANSWER


# -- real captures: one call, one tool_use ---------------------------------------------------


def _lines(path: Path) -> Iterator[str]:
    """The CLI's lines of a capture; a caic v2/v3 envelope gives the message inside it."""
    for line in path.read_text("utf-8").splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            yield line
            continue
        if isinstance(obj, dict) and "t" in obj and isinstance(obj.get("msg"), dict):
            yield json.dumps(obj["msg"])
        else:
            yield line


SESSIONS = [
    ("claude_code", "caic-ask-user-question.jsonl"),
    ("claude_code", "caic-evidence-native-subagent-joke-v3.jsonl"),
    ("claude_code", "caic-evidence-task-lifecycle.jsonl"),
    ("claude_code", "caic-read-edit-bash.jsonl"),
    ("claude_code", "caic-tool-error.jsonl"),
    ("claude_code", "gleam-golden-basic_query.ndjson"),
    ("codex_exec", "openai-codex-docs-exec-md-sample.jsonl"),
    ("codex_app_server", "caic-evidence-native-subagent-joke-v3.jsonl"),
    ("codex_app_server", "caic-read-edit-bash-auth401-5356f3b.jsonl"),
    ("codex_app_server", "caic-read-edit-bash.jsonl"),
    ("codex_app_server", "caic-tool-error.jsonl"),
]
"""Every real Claude Code and Codex stream. The single pretty-printed ``gleam-*.json``
messages are not sessions (one holds a tool result whose call is not in the file)."""

UNANSWERED = {
    # the run stops while the file edit waits for an approval caic never gave
    ("codex_app_server", "caic-read-edit-bash.jsonl"): ["call_2KUyrZ9uwK8no6BvSetb6rIA"],
}
"""Calls a capture ends in the middle of: a tool_use with no tool_result."""


def test_every_real_session_is_checked() -> None:
    root = shared_fixtures()
    found = {
        (d, p.name)
        for d in ("claude_code", "codex_exec", "codex_app_server")
        for p in (root / d).iterdir()
        if p.suffix in (".jsonl", ".ndjson")
    }
    assert found == set(SESSIONS)


@pytest.mark.parametrize(("folder", "name"), SESSIONS)
def test_real_sessions_name_each_call_once(folder: str, name: str) -> None:
    adapter = claude_code if folder == "claude_code" else codex
    messages = list(adapter.merge(adapter.iter_decode(_lines(shared_fixtures(folder, name)))))
    calls: list[str] = []
    answered: list[str] = []
    texts: list[str] = []
    for m in normalize_messages(messages):
        if isinstance(m, ToolUseMessage):
            assert m.id not in calls, f"{name}: {m.id} called twice"
            calls.append(m.id)
        elif isinstance(m, ToolResultMessage):
            assert m.tool_use_id in calls, f"{name}: result for {m.tool_use_id} before its call"
            assert m.tool_use_id not in answered, f"{name}: {m.tool_use_id} answered twice"
            answered.append(m.tool_use_id)
        elif isinstance(m, TextMessage) and m.text:
            texts.append(m.text)
    assert [c for c in calls if c not in answered] == UNANSWERED.get((folder, name), [])
    assert len(texts) == len(set(texts)), f"{name}: a text is said twice"
