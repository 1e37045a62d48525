"""Kimi CLI's ``context.jsonl``: the history the model sees, one record per line.

Beside each session's ``wire.jsonl``, Kimi CLI keeps ``context.jsonl``: what it sends the
model, as its ``kosong`` library writes messages, ``{"role", "content", "tool_calls"?,
"tool_call_id"?, "name"?, "partial"?}``, and three bookkeeping records: ``_system_prompt``
(the system prompt, written first), ``_checkpoint`` (``id``: a point ``/undo`` can go back to)
and ``_usage`` (``token_count``: how large the context is, not one call's usage). Reverting
to a checkpoint or clearing the context moves the file aside (``context_1.jsonl``...) and
starts a new one; compaction replaces the history with a summary.

- ``user``, ``assistant``, ``system``, ``tool`` -> :class:`UserMessage`,
  :class:`AssistantMessage`, :class:`SystemMessage`, :class:`ToolMessage` (its one
  :class:`ToolResultBlock` answering ``tool_call_id``). ``content`` is text, or parts:
  ``text`` -> :class:`TextBlock`, ``think`` -> :class:`ThinkingBlock` (its ``encrypted``
  opaque text stays in the kept record only), any other part
  (``image_url``, ``audio_url``...) -> :class:`RawBlock`; each ``tool_calls`` entry ->
  :class:`ToolUseBlock` (``arguments`` JSON text parsed as ``input`` when an object, and kept
  as written);
- ``_system_prompt`` -> :class:`SystemMessage`;
- ``_checkpoint``, ``_usage`` and any other ``_`` record -> :class:`StreamEventMessage`,
  verbatim.

Each typed message keeps its record whole in ``extra`` under :data:`KEPT`, which is what the
adapter writes back. The facts are those of Kimi CLI's ``soul/context.py`` and of ``kosong``'s
``Message`` (early-2026 releases).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.make import wrap_owned
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...events.run import StreamEventMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage

__all__ = ["KEPT", "decode_record", "is_bookkeeping", "is_record", "kept", "restates"]

KEPT: Final = "kimi.context"
"""The ``extra`` key under which a typed message keeps its ``context.jsonl`` record."""
_ROLES: Final = ("user", "assistant", "system", "tool")
"""The roles of ``kosong`` messages."""
_BOOKKEEPING: Final = ("_system_prompt", "_checkpoint", "_usage")
"""The records Kimi CLI writes besides messages."""


def is_bookkeeping(obj: Any) -> bool:
    """Whether a parsed line is one of Kimi CLI's own context records (``_checkpoint``...)."""
    if type(obj) is not dict:
        return False
    role = obj.get("role")
    if role == "_checkpoint":
        return type(obj.get("id")) is int and len(obj) == 2
    if role == "_usage":
        return type(obj.get("token_count")) is int and len(obj) == 2
    return role == "_system_prompt" and type(obj.get("content")) is str and len(obj) == 2


def is_record(obj: Any) -> bool:
    """Whether a parsed line is read as a context record (a message or bookkeeping)."""
    return type(obj) is dict and (obj.get("role") in _ROLES or is_bookkeeping(obj))


def _part(part: Any) -> Block:
    if type(part) is dict:
        tag = part.get("type")
        if tag == "text" and type(part.get("text")) is str and len(part) == 2:
            return TextBlock(part["text"])
        if tag == "think" and type(part.get("think")) is str:  # ``encrypted``: in the record
            return ThinkingBlock(part["think"])
    return RawBlock(part)


def _content(value: Any) -> str | tuple[Block, ...]:
    if value is None:
        return ""
    if type(value) is str:
        return value
    if type(value) is list:
        return tuple(_part(p) for p in value)
    return (RawBlock(value),)


def _call(call: Any) -> Block:
    if type(call) is not dict or type(call.get("id")) is not str:
        return RawBlock(call)
    function = call.get("function")
    if type(function) is not dict or type(function.get("name")) is not str:
        return RawBlock(wrap_owned(call))
    text = function.get("arguments")
    args: Any = None
    if type(text) is str:
        try:
            args = json.loads(text)
        except ValueError:
            args = None
    return ToolUseBlock(
        call["id"],
        function["name"],
        wrap_owned(args) if type(args) is dict else FrozenDict(),
        arguments=text if type(text) is str else None,
    )


def decode_record(obj: dict[str, Any]) -> Message:
    """One context record to one message (``obj`` is owned: it is kept, not copied)."""
    role = obj.get("role")
    if role == "_system_prompt" and is_bookkeeping(obj):
        return SystemMessage(obj["content"], extra=FrozenDict({KEPT: wrap_owned(obj)}))
    if role not in _ROLES:
        return StreamEventMessage(wrap_owned(obj))
    keep = FrozenDict({KEPT: wrap_owned(obj)})
    content = _content(obj.get("content"))
    if role == "tool":
        call = obj.get("tool_call_id")
        result = ToolResultBlock(call if type(call) is str else "", content)
        return ToolMessage((result,), extra=keep)
    if role == "assistant":
        calls = obj.get("tool_calls")
        if type(calls) is list and calls:
            blocks = (TextBlock(content),) if type(content) is str and content else ()
            content = (*(content if type(content) is tuple else blocks), *map(_call, calls))
        return AssistantMessage(content, extra=keep)
    if role == "system":
        return SystemMessage(content, extra=keep)
    return UserMessage(content, extra=keep)


def kept(message: Message) -> Any:
    """The context record a message was read from (``None``: it was not read from one)."""
    extra = getattr(message, "extra", None)
    if not isinstance(extra, Mapping) or len(extra) != 1:
        return None
    found = extra.get(KEPT)
    return thaw(found) if isinstance(found, Mapping) and is_record(thaw(found)) else None


def restates(message: Message) -> bool:
    """Whether a message was read from a context file: history the wire file records too."""
    extra = message.extra
    if extra and KEPT in extra:
        return True
    if type(message) is StreamEventMessage:
        event = message.event
        return isinstance(event, Mapping) and event.get("role") in _BOOKKEEPING
    return False
