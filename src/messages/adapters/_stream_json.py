"""Telling Cursor CLI's ``stream-json`` lines from Claude Code's (shared by both adapters).

``cursor-agent -p --output-format stream-json`` borrows Claude Code's line types
(``system``/``init``, ``user``, ``assistant``, ``result``) with fewer keys. What sets a
Cursor line apart, per type:

- ``system``/``init``: a ``session_id``, an ``apiKeySource`` or ``permissionMode``, and none
  of the keys every Claude Code init has (``tools``, ``mcp_servers``, ``uuid``);
- ``user``/``assistant``: a ``session_id``, ``model_call_id`` or ``timestamp_ms``, no other
  top-level keys, and a ``message`` of ``role`` and ``content`` only (Claude Code's output
  lines carry ``parent_tool_use_id``; the prompt a caller sends Claude Code on stdin has
  no session at all);
- ``result``: a ``session_id`` and a ``request_id`` but none of the run totals Claude Code
  writes (``num_turns``, ``total_cost_usd``, ``usage``, ``modelUsage``, ``uuid``);
- ``thinking`` and ``tool_call``: Cursor's own types.
"""

from __future__ import annotations

from typing import Any
from typing import Final

__all__ = ["CURSOR_TYPES", "cursor_shaped"]

CURSOR_TYPES: Final = frozenset(("thinking", "tool_call"))
"""Line types only Cursor writes."""

_TURN_KEYS: Final = frozenset(("type", "message", "session_id", "model_call_id", "timestamp_ms"))
_TURN_MARKS: Final = ("session_id", "model_call_id", "timestamp_ms")
_MESSAGE_KEYS: Final = frozenset(("role", "content"))
_CLAUDE_INIT: Final = ("tools", "mcp_servers", "uuid")
_CURSOR_INIT: Final = ("apiKeySource", "permissionMode")
_CLAUDE_RESULT: Final = ("num_turns", "total_cost_usd", "usage", "modelUsage", "uuid")


def cursor_shaped(obj: dict[str, Any], tag: str) -> bool:
    """Whether a line of type ``tag`` (a string) has the shape of a Cursor CLI line."""
    if tag in CURSOR_TYPES:
        return True
    if tag in ("user", "assistant"):
        message = obj.get("message")
        return (
            type(message) is dict
            and message.keys() <= _MESSAGE_KEYS
            and obj.keys() <= _TURN_KEYS
            and any(k in obj for k in _TURN_MARKS)
        )
    if tag == "system":
        return (
            obj.get("subtype") == "init"
            and "session_id" in obj
            and any(k in obj for k in _CURSOR_INIT)
            and not any(k in obj for k in _CLAUDE_INIT)
        )
    if tag == "result":
        return (
            "session_id" in obj
            and "request_id" in obj
            and not any(k in obj for k in _CLAUDE_RESULT)
        )
    return False
