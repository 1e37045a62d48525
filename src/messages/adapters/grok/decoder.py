"""Reading Grok Build's ``updates.jsonl``: one session notification per line.

A line is ``{"timestamp": <epoch seconds>, "method": ..., "params": {"_meta": {...},
"sessionId": ..., "update": {"sessionUpdate": <tag>, ...}}}``. Each reader takes the keys it
types out of the (freshly parsed, owned) line and keeps what is left as the message's
``extra``, so that the encoder, writing the typed keys back and laying ``extra`` over them,
gives the line back exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import opt_obj
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .._stores import iso_millis

__all__ = ["NAME", "TICKS_PER_USD", "USAGE_KEYS", "decode_line", "is_update", "update_of"]

NAME: Final = "grok"
"""The source name of this adapter."""

TICKS_PER_USD: Final = 10_000_000_000
"""Grok writes a turn's cost as ``costUsdTicks``: 10^10 ticks are one US dollar."""

USAGE_KEYS: Final = ("inputTokens", "outputTokens", "cachedReadTokens", "cacheCreationTokens")
"""A turn's token counts: ``inputTokens`` is the whole prompt, the cached reads and cache
writes included."""

DONE: Final = {"completed": False, "failed": True}
"""A tool call's final states, and whether each is an error."""


def update_of(obj: Any) -> dict[str, Any] | None:
    """The ``params.update`` object of a Grok line (``None`` for any other shape)."""
    if type(obj) is not dict:
        return None
    params = obj.get("params")
    update = params.get("update") if type(params) is dict else None
    if type(update) is not dict or type(update.get("sessionUpdate")) is not str:
        return None
    return update


def is_update(obj: Any) -> bool:
    """Whether a parsed line is one of Grok Build's session notifications.

    A JSON-RPC 2.0 message (``"jsonrpc"``) is ACP's, not a line of Grok's log.
    """
    return (
        update_of(obj) is not None
        and type(obj.get("method")) is str
        and "jsonrpc" not in obj
        and "type" not in obj
    )


def _meta(line: dict[str, Any]) -> dict[str, Any]:
    params = line["params"]
    for found in (params.get("_meta"), line.get("_meta")):
        if type(found) is dict:
            return found
    return {}


def _context(line: dict[str, Any]) -> dict[str, Any]:
    """The session, event id and time a line gives every message read from it."""
    meta = _meta(line)
    session = line["params"].get("sessionId")
    event = meta.get("eventId")
    stamp = iso_millis(meta.get("agentTimestampMs")) or iso_millis(line.get("timestamp"))
    return {
        "session_id": session if type(session) is str else None,
        "uuid": event if type(event) is str else None,
        "timestamp": stamp,
        "extra": wrap_owned(line),
    }


def _text(content: Any) -> str | None:
    if type(content) is dict and content.get("type") == "text" and type(content.get("text")) is str:
        return content.pop("text")  # type: ignore[no-any-return]
    return None


def _chunk(line: dict[str, Any], update: dict[str, Any]) -> Message | None:
    tag = update["sessionUpdate"]
    text = _text(update.get("content"))
    if text is None:
        return None
    del update["sessionUpdate"]
    if tag == "agent_thought_chunk":
        return ThinkingMessage(text, **_context(line))
    if tag == "user_message_chunk":
        return UserMessage(text, **_context(line))
    return TextMessage(text, **_context(line))


def _name(update: dict[str, Any]) -> str | None:
    meta = update.get("_meta")
    tool = meta.get("x.ai/tool") if type(meta) is dict else None
    name = tool.get("name") if type(tool) is dict else None
    if type(name) is str:
        return name
    title = update.get("title")
    return title if type(title) is str else None


def _tool_call(line: dict[str, Any], update: dict[str, Any]) -> Message | None:
    call, given, name = update.get("toolCallId"), update.get("rawInput"), _name(update)
    if type(call) is not str or type(given) is not dict or name is None:
        return None
    for key in ("sessionUpdate", "toolCallId", "rawInput"):
        del update[key]
    return ToolUseMessage(call, name, wrap_owned(given), **_context(line))


def result_text(update: Mapping[str, Any]) -> str:
    """The text of a finished tool call's ``content`` blocks, joined by newlines."""
    parts = []
    for block in update.get("content") or ():
        inner = block.get("content") if isinstance(block, Mapping) else None
        if isinstance(inner, Mapping) and type(inner.get("text")) is str:
            parts.append(inner["text"])
    return "\n".join(parts)


def _tool_result(line: dict[str, Any], update: dict[str, Any]) -> Message | None:
    call, status = update.get("toolCallId"), update.get("status")
    content = update.get("content")
    if type(call) is not str or status not in DONE or not isinstance(content, list | None):
        return None
    for key in ("sessionUpdate", "toolCallId", "status"):
        del update[key]
    return ToolResultMessage(call, result_text(update), is_error=DONE[status], **_context(line))


def _count(usage: Mapping[str, Any], key: str, at: str) -> int:
    value = usage.get(key, 0)
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise fail("a count", value, key, at)
    return value


def _ticks(usage: Mapping[str, Any], at: str) -> float | None:
    value = usage.get("costUsdTicks")
    if value is None:
        return None
    if type(value) not in (int, float) or not math.isfinite(value):
        raise fail("a number", value, "costUsdTicks", at)
    return max(float(value), 0.0) / TICKS_PER_USD


def turn_usage(usage: Mapping[str, Any], at: str) -> Usage:
    """One usage object as :class:`Usage`: the prompt less its cached reads and cache writes."""
    given, output, read, write = (_count(usage, k, at) for k in USAGE_KEYS)
    return Usage(
        max(given - read - write, 0),
        output,
        read,
        write,
        reasoning_tokens=_count(usage, "reasoningTokens", at),
        cost_usd=_ticks(usage, at),
    )


def _models(usage: Mapping[str, Any], at: str) -> dict[str, Usage]:
    found = usage.get("modelUsage")
    if found is None:
        return {}
    if type(found) is not dict:
        raise fail("an object", found, "modelUsage", at)
    out = {}
    for name, each in found.items():
        if type(each) is not dict:
            raise fail("an object", each, name, f"{at}.modelUsage")
        out[name] = turn_usage(each, f"{at}.modelUsage.{name}")
    return out


def _sum(parts: list[Usage]) -> Usage:
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _turn(line: dict[str, Any], update: dict[str, Any]) -> Message | None:
    """A finished turn: its usage (per model where Grok splits it, as ccusage counts it)."""
    usage, reason = opt_obj(update, "usage", "$.params.update"), update.get("stop_reason")
    at = "$.params.update.usage"
    models = _models(usage, at) if usage is not None else {}
    typed = None
    if usage is not None:
        typed = _sum(list(models.values())) if models else turn_usage(usage, at)
    del update["sessionUpdate"]
    if type(reason) is str:
        del update["stop_reason"]
    return ResultMessage(
        subtype="turn_completed",
        usage=typed,
        stop_reason=reason if type(reason) is str else None,
        model=next(iter(models)) if len(models) == 1 else None,
        **_context(line),
    )


def decode_line(obj: Any) -> Message:
    """One owned, parsed line to one message (an unread notification kept whole)."""
    update = update_of(obj)
    if update is None:
        if type(obj) is not dict:
            raise fail("an object", obj)
        return ev.raw_line(obj)
    reader = _READERS.get(update["sessionUpdate"])
    if reader is not None:
        kept = ev.owned(obj)
        found = reader(kept, update_of(kept) or {})
        if found is not None:
            return found
    if not is_update(obj):  # no method, or JSON-RPC's: a line the encoder would not write
        return ev.raw_line(obj)  # kept whole, so it is written back as it came
    stamp = iso_millis(_meta(obj).get("agentTimestampMs")) or iso_millis(obj.get("timestamp"))
    return StreamEventMessage(wrap_owned(obj), timestamp=stamp)


_READERS: Final[dict[str, Callable[[dict[str, Any], dict[str, Any]], Message | None]]] = {
    "user_message_chunk": _chunk,
    "agent_message_chunk": _chunk,
    "agent_thought_chunk": _chunk,
    "tool_call": _tool_call,
    "tool_call_update": _tool_result,
    "turn_completed": _turn,
}


def kept_update(m: Message) -> FrozenDict | None:
    """What a decoded line kept of its ``params.update`` (``None``: read from elsewhere)."""
    params = m.extra.get("params")
    update = params.get("update") if isinstance(params, FrozenDict) else None
    return update if isinstance(update, FrozenDict) else None
