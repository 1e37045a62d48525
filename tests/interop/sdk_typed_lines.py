"""Claude Code lines of every shape the claude-agent-sdk parser types, and where each typed
SDK attribute lives here.

The lines are written by hand from the SDK's parser and types (one or more per shape the
parser handles: each message class, optional fields present and absent, the values it
cleans up). ``OURS`` is the mapping, written once: for each SDK class and attribute, how to
read the same value from our decoded message through typed attributes only (never
``extra`` or ``RawMessage.data``). ``untyped`` lists, per line, the SDK attributes whose
value is reachable here only through ``extra`` or raw data.

This module imports nothing of the SDK, so the same count runs against any version of this
library (``python tests/interop/sdk_typed_lines.py`` prints it).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from messages import thaw

S = "7c1e0000-0000-4000-8000-0000000000aa"
"""The session id of every line."""

_USAGE = {"input_tokens": 3, "output_tokens": 24, "cache_read_input_tokens": 200}
_TASK_USAGE = {"total_tokens": 1234, "tool_uses": 5, "duration_ms": 9876}
_EDIT = {"filePath": "/w/a.py", "oldString": "a", "newString": "b", "userModified": False}

LINES: list[tuple[str, dict[str, Any]]] = [
    # -- user ---------------------------------------------------------------------------
    ("user text", {"type": "user", "message": {"content": [{"type": "text", "text": "Hi"}]}}),
    (
        "user with uuid",
        {"type": "user", "uuid": "u-1", "message": {"content": [{"type": "text", "text": "x"}]}},
    ),
    (
        "user string content",
        {"type": "user", "message": {"role": "user", "content": "Plain"}, "session_id": S},
    ),
    (
        "user in a sub-agent",
        {
            "type": "user",
            "message": {"content": [{"type": "text", "text": "Go"}]},
            "parent_tool_use_id": "toolu_parent",
        },
    ),
    (
        "user tool result with tool_use_result",
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
            },
            "parent_tool_use_id": None,
            "session_id": S,
            "uuid": "u-2",
            "tool_use_result": _EDIT,
        },
    ),
    (
        "user string tool_use_result",
        {
            "type": "user",
            "message": {"content": "Error: denied"},
            "tool_use_result": "Error: denied",
        },
    ),
    (
        "user with origin",
        {
            "type": "user",
            "message": {"content": "Task done"},
            "origin": {"kind": "task-notification", "subkind": "scheduled-trigger"},
            "uuid": "u-3",
            "session_id": S,
        },
    ),
    (
        "user with a malformed origin",
        {"type": "user", "message": {"content": "x"}, "origin": {"kind": 7}},
    ),
    (
        "compaction summary",
        {
            "type": "user",
            "message": {"role": "user", "content": "This session is being continued..."},
            "isCompactSummary": True,
            "uuid": "u-4",
            "session_id": S,
        },
    ),
    # -- assistant ----------------------------------------------------------------------
    (
        "assistant minimal",
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": "Hi"}], "model": "claude-opus-4-1"},
        },
    ),
    (
        "assistant full",
        {
            "type": "assistant",
            "message": {
                "model": "claude-sonnet-4-5",
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Hmm.", "signature": "sig-1"},
                    {"type": "text", "text": "Reading."},
                    {"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"p": "a"}},
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": _USAGE,
            },
            "parent_tool_use_id": None,
            "session_id": S,
            "uuid": "u-5",
        },
    ),
    (
        "assistant API error",
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": "Bad key"}], "model": "<synthetic>"},
            "session_id": S,
            "error": "authentication_failed",
        },
    ),
    (
        "assistant answering a prompt",
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": "Yes"}], "model": "m"},
            "session_id": S,
            "uuid": "u-6",
            "user_message_uuid": "p-1",
            "user_message_uuids": ["p-1"],
        },
    ),
    # -- system -------------------------------------------------------------------------
    (
        "system init",
        {
            "type": "system",
            "subtype": "init",
            "cwd": "/w",
            "session_id": S,
            "tools": ["Bash"],
            "model": "claude-sonnet-4-5",
            "permissionMode": "default",
            "uuid": "u-7",
        },
    ),
    ("system unknown subtype", {"type": "system", "subtype": "some_future_subtype", "x": 1}),
    (
        "system status",
        {"type": "system", "subtype": "status", "status": "compacting", "uuid": "u-8"},
    ),
    (
        "system thinking_tokens",
        {"type": "system", "subtype": "thinking_tokens", "estimated_tokens": 8, "session_id": S},
    ),
    (
        "compact boundary",
        {
            "type": "system",
            "subtype": "compact_boundary",
            "compact_metadata": {"trigger": "auto", "pre_tokens": 155000},
            "uuid": "u-9",
            "session_id": S,
        },
    ),
    (
        "task started",
        {
            "type": "system",
            "subtype": "task_started",
            "task_id": "task-1",
            "tool_use_id": "toolu_3",
            "description": "Reticulating",
            "task_type": "background",
            "uuid": "u-10",
            "session_id": S,
        },
    ),
    (
        "task started, optional fields absent",
        {
            "type": "system",
            "subtype": "task_started",
            "task_id": "task-1",
            "description": "Working",
            "uuid": "u-11",
            "session_id": S,
        },
    ),
    (
        "task progress",
        {
            "type": "system",
            "subtype": "task_progress",
            "task_id": "task-1",
            "tool_use_id": "toolu_3",
            "description": "Halfway",
            "usage": _TASK_USAGE,
            "last_tool_name": "Read",
            "uuid": "u-12",
            "session_id": S,
        },
    ),
    (
        "task notification",
        {
            "type": "system",
            "subtype": "task_notification",
            "task_id": "task-1",
            "tool_use_id": "toolu_3",
            "status": "completed",
            "output_file": "/tmp/out.md",
            "summary": "All done",
            "usage": _TASK_USAGE,
            "uuid": "u-13",
            "session_id": S,
        },
    ),
    (
        "task notification, optional fields absent",
        {
            "type": "system",
            "subtype": "task_notification",
            "task_id": "task-1",
            "status": "stopped",
            "output_file": "/o",
            "summary": "Boom",
            "uuid": "u-14",
            "session_id": S,
        },
    ),
    (
        "task updated",
        {
            "type": "system",
            "subtype": "task_updated",
            "task_id": "task-2",
            "patch": {"status": "killed", "end_time": 1789661711372},
            "uuid": "u-15",
            "session_id": S,
        },
    ),
    (
        "task updated without status",
        {
            "type": "system",
            "subtype": "task_updated",
            "task_id": "task-2",
            "patch": {"end_time": 1},
        },
    ),
    (
        "task updated with a patch that is not an object",
        {"type": "system", "subtype": "task_updated", "task_id": "task-2", "patch": "oops"},
    ),
    (
        "hook started",
        {
            "type": "system",
            "subtype": "hook_started",
            "hook_id": "h-1",
            "hook_name": "PreToolUse:Bash",
            "hook_event": "PreToolUse",
            "uuid": "u-16",
            "session_id": S,
        },
    ),
    (
        "hook response",
        {
            "type": "system",
            "subtype": "hook_response",
            "hook_id": "h-1",
            "hook_name": "Stop",
            "hook_event": "Stop",
            "output": "",
            "stdout": "",
            "stderr": "",
            "exit_code": 0,
            "outcome": "success",
            "uuid": "u-17",
            "session_id": S,
        },
    ),
    (
        "hook progress",
        {
            "type": "system",
            "subtype": "hook_progress",
            "hook_id": "h-1",
            "hook_name": "Stop",
            "hook_event": "Stop",
            "stdout": "half",
            "uuid": "u-18",
            "session_id": S,
        },
    ),
    # -- result -------------------------------------------------------------------------
    (
        "result minimal",
        {
            "type": "result",
            "subtype": "success",
            "duration_ms": 1000,
            "duration_api_ms": 500,
            "is_error": False,
            "num_turns": 2,
            "session_id": S,
        },
    ),
    (
        "result with stop reason",
        {
            "type": "result",
            "subtype": "success",
            "duration_ms": 1000,
            "duration_api_ms": 500,
            "is_error": False,
            "num_turns": 2,
            "session_id": S,
            "stop_reason": "end_turn",
            "result": "Done",
        },
    ),
    (
        "result full",
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "api_error_status": None,
            "duration_ms": 2995,
            "duration_api_ms": 2190,
            "num_turns": 1,
            "result": "Hi.",
            "stop_reason": None,
            "session_id": S,
            "total_cost_usd": 0.0106,
            "usage": _USAGE,
            "modelUsage": {
                "claude-sonnet-4-5": {
                    "inputTokens": 3,
                    "outputTokens": 24,
                    "cacheReadInputTokens": 200,
                    "cacheCreationInputTokens": 0,
                    "costUSD": 0.0106,
                    "contextWindow": 200000,
                    "maxOutputTokens": 64000,
                }
            },
            "permission_denials": [
                {"tool_name": "Bash", "tool_use_id": "toolu_4", "tool_input": {"command": "rm"}}
            ],
            "terminal_reason": "completed",
            "uuid": "u-19",
        },
    ),
    (
        "result error with errors and HTTP status",
        {
            "type": "result",
            "subtype": "success",
            "is_error": True,
            "api_error_status": 529,
            "duration_ms": 10,
            "duration_api_ms": 9,
            "num_turns": 1,
            "session_id": S,
            "errors": ["Overloaded"],
            "terminal_reason": "model_error",
        },
    ),
    (
        "result with a deferred tool use",
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 10,
            "duration_api_ms": 9,
            "num_turns": 1,
            "session_id": S,
            "deferred_tool_use": {"id": "toolu_5", "name": "Bash", "input": {"command": "ls"}},
        },
    ),
    (
        "result of an injected turn",
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 10,
            "duration_api_ms": 9,
            "num_turns": 1,
            "session_id": S,
            "origin": {"kind": "task-notification"},
            "user_message_uuid": "p-2",
            "user_message_uuids": ["p-1", "p-2"],
        },
    ),
    (
        "result with structured output",
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 10,
            "duration_api_ms": 9,
            "num_turns": 1,
            "session_id": S,
            "structured_output": {"files": 3},
        },
    ),
    # -- stream events, rate limits, resets -------------------------------------------------
    (
        "stream event",
        {
            "type": "stream_event",
            "uuid": "u-20",
            "session_id": S,
            "event": {"type": "message_stop"},
            "parent_tool_use_id": None,
        },
    ),
    (
        "stream event naming the prompt",
        {
            "type": "stream_event",
            "uuid": "u-21",
            "session_id": S,
            "event": {"type": "message_start"},
            "parent_tool_use_id": None,
            "user_message_uuid": "p-1",
            "user_message_uuids": ["p-1"],
        },
    ),
    (
        "rate limit",
        {
            "type": "rate_limit_event",
            "rate_limit_info": {
                "status": "allowed_warning",
                "resetsAt": 1700000000,
                "rateLimitType": "five_hour",
                "utilization": 0.91,
            },
            "uuid": "u-22",
            "session_id": S,
        },
    ),
    (
        "rate limit with overage",
        {
            "type": "rate_limit_event",
            "rate_limit_info": {
                "status": "rejected",
                "resetsAt": 1782329400,
                "rateLimitType": "seven_day",
                "overageStatus": "rejected",
                "overageResetsAt": 1782864000,
                "overageDisabledReason": "out_of_credits",
                "isUsingOverage": False,
            },
            "uuid": "u-23",
            "session_id": S,
        },
    ),
    (
        "conversation reset",
        {
            "type": "conversation_reset",
            "new_conversation_id": "c-2",
            "uuid": "u-24",
            "session_id": S,
        },
    ),
]
"""Every line shape the SDK's parser types, by name."""


def _usage_dict(usage: Any) -> dict[str, Any] | None:
    """A :class:`~messages.Usage` as the Anthropic-named counts it was read from."""
    if usage is None:
        return None
    out = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_input_tokens": usage.cache_read_tokens,
        "cache_creation_input_tokens": usage.cache_write_tokens,
    }
    out = {k: v for k, v in out.items() if v is not None}
    out.update(thaw(usage.extra))
    return out


def _kind(name: str) -> Callable[[Any], Any]:
    return lambda m: getattr(m, name)


_SUBTYPE_OF_CLASS = {
    "InitMessage": "init",
    "StatusMessage": "status",
    "CompactBoundaryMessage": "compact_boundary",
}
"""The classes that stand for one ``system`` subtype each (the class is the subtype)."""


def _subtype(m: Any) -> Any:
    return _SUBTYPE_OF_CLASS.get(type(m).__name__) or m.subtype


_CONTEXT = ("uuid", "session_id", "parent_tool_use_id")
_SAME = {name: _kind(name) for name in _CONTEXT}

OURS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "UserMessage": {
        **_SAME,
        "tool_use_result": _kind("tool_use_result"),
        "origin": _kind("origin"),
    },
    "AssistantMessage": {
        **_SAME,
        "model": _kind("model"),
        "error": _kind("error"),
        "usage": lambda m: _usage_dict(m.usage),
        "message_id": _kind("message_id"),
        "stop_reason": _kind("stop_reason"),
    },
    "SystemMessage": {**_SAME, "subtype": _subtype},
    "TaskStartedMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "task_id": _kind("task_id"),
        "description": _kind("description"),
        "tool_use_id": _kind("tool_use_id"),
        "task_type": _kind("task_type"),
    },
    "TaskProgressMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "task_id": _kind("task_id"),
        "description": _kind("description"),
        "usage": _kind("usage"),
        "tool_use_id": _kind("tool_use_id"),
        "last_tool_name": _kind("last_tool_name"),
    },
    "TaskNotificationMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "task_id": _kind("task_id"),
        "status": _kind("status"),
        "output_file": _kind("output_file"),
        "summary": _kind("summary"),
        "tool_use_id": _kind("tool_use_id"),
        "usage": _kind("usage"),
    },
    "TaskUpdatedMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "task_id": _kind("task_id"),
        "patch": _kind("patch"),
        "status": _kind("state"),
    },
    "HookEventMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "hook_event_name": _kind("event_name"),
    },
    "ResultMessage": {
        **_SAME,
        "subtype": _kind("subtype"),
        "duration_ms": _kind("duration_ms"),
        "duration_api_ms": _kind("duration_api_ms"),
        "is_error": _kind("is_error"),
        "num_turns": _kind("num_turns"),
        "stop_reason": _kind("stop_reason"),
        "total_cost_usd": _kind("total_cost_usd"),
        "usage": lambda m: _usage_dict(m.usage),
        "result": _kind("result"),
        "structured_output": _kind("structured_output"),
        "model_usage": _kind("model_usage"),
        "permission_denials": _kind("permission_denials"),
        "deferred_tool_use.id": lambda m: m.deferred_tool_use.id,
        "deferred_tool_use.name": lambda m: m.deferred_tool_use.name,
        "deferred_tool_use.input": lambda m: m.deferred_tool_use.input,
        "errors": _kind("errors"),
        "api_error_status": _kind("api_error_status"),
        "terminal_reason": _kind("terminal_reason"),
        "origin": _kind("origin"),
    },
    "StreamEvent": {**_SAME, "event": _kind("event")},
    "RateLimitEvent": {
        **_SAME,
        "rate_limit_info.status": _kind("status"),
        "rate_limit_info.resets_at": _kind("resets_at"),
        "rate_limit_info.rate_limit_type": _kind("rate_limit_type"),
        "rate_limit_info.utilization": _kind("utilization"),
        "rate_limit_info.overage_status": _kind("overage_status"),
        "rate_limit_info.overage_resets_at": _kind("overage_resets_at"),
        "rate_limit_info.overage_disabled_reason": _kind("overage_disabled_reason"),
        "rate_limit_info.raw": _kind("info"),
    },
    "ConversationResetMessage": {**_SAME, "new_conversation_id": _kind("new_conversation_id")},
}
"""SDK class -> SDK attribute -> how to read the same value from our message (typed only)."""

SKIPPED = frozenset(("data", "content"))
"""SDK attributes not counted: ``data`` is the whole raw line (our message is its typed
form), and ``content`` is checked block by block by the bridge's own test."""


def sdk_attributes(obj: Any) -> dict[str, Any]:
    """The SDK object's typed attributes that hold a value (nested info flattened)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        if f.name in SKIPPED:
            continue
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            for name, inner in sdk_attributes(value).items():
                out[f"{f.name}.{name}"] = inner
        elif value is not None and value != "" and value != {}:  # "" and {}: cleaned-up absent
            out[f.name] = value
    return out


def _plain(value: Any) -> Any:
    try:
        return thaw(value)
    except Exception:
        return value


def untyped(sdk_object: Any, ours: Any) -> list[str]:
    """The SDK attributes of one line not reachable here through a typed attribute."""
    readers = OURS.get(type(sdk_object).__name__, {})
    missing = []
    for name, value in sdk_attributes(sdk_object).items():
        reader = readers.get(name)
        try:
            found = None if reader is None else _plain(reader(ours))
        except AttributeError:  # an older version of this library, or nothing typed there
            found = None
        if found != value:
            missing.append(name)
    return missing


def count(parse: Callable[[dict[str, Any]], Any], decode: Callable[[Any], Any]) -> list[str]:
    """A line per shape: its name and the SDK attributes it has only in extra or raw."""
    report = []
    for name, line in LINES:
        missing = untyped(parse(copy.deepcopy(line)), decode(copy.deepcopy(line)))
        report.append(f"{name}: {', '.join(missing) if missing else 'all typed'}")
    return report


if __name__ == "__main__":  # pragma: no cover - the before/after figure for the report
    from claude_agent_sdk._internal.message_parser import parse_message

    from messages.adapters import claude_code

    lines = count(parse_message, claude_code.decode)
    print("\n".join(lines))
    bad = sum(1 for line in lines if not line.endswith("all typed"))
    print(f"{bad} of {len(lines)} lines had SDK-typed information only in extra/raw")
