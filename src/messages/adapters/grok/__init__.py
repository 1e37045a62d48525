"""Grok Build CLI's session log: ``~/.grok/sessions/<cwd>/<session>/updates.jsonl``.

Grok Build (xAI's coding agent, ``grok``) writes each session's notifications, one per
line: ``{"timestamp": <epoch seconds>, "method": ..., "params": {"_meta": {"eventId",
"agentTimestampMs"...}, "sessionId": ..., "update": {"sessionUpdate": <tag>, ...}}}``. The
updates have the Agent Client Protocol's shapes, with xAI's additions. See
``docs/adapters/grok.md``.

- ``user_message_chunk`` (text content) -> :class:`UserMessage`; ``agent_message_chunk`` ->
  :class:`TextMessage`; ``agent_thought_chunk`` -> :class:`ThinkingMessage`;
- ``tool_call`` (``toolCallId``, ``rawInput``; the name from ``_meta["x.ai/tool"].name``,
  else ``title``) -> :class:`ToolUseMessage`;
- ``tool_call_update`` with ``status`` ``completed`` / ``failed`` -> :class:`ToolResultMessage`
  (the text of its ``content`` blocks);
- ``turn_completed`` -> :class:`ResultMessage` (``subtype="turn_completed"``): the turn's
  :class:`Usage` (``inputTokens`` less ``cachedReadTokens`` and ``cacheCreationTokens``,
  ``costUsdTicks`` / 10^10 as dollars; summed over ``modelUsage`` where the turn splits it
  by model), ``stop_reason``;
- every other notification (``tool_call`` progress, ``plan``, ``pending_interaction``...) ->
  :class:`StreamEventMessage`, verbatim; any other line (no ``method``, or ACP's JSON-RPC)
  -> :class:`RawMessage`, whole.

Every message carries ``sessionId`` as ``session_id``, ``_meta.eventId`` as ``uuid`` and
``agentTimestampMs`` (else ``timestamp``) as its time; the rest of the line is kept in
``extra``: ``encode(decode(x)) == x``.

>>> m = decode({"timestamp": 1784700657, "method": "_x.ai/session_notification",
...     "params": {"sessionId": "s1", "_meta": {"eventId": "s1-9"}, "update": {
...     "sessionUpdate": "turn_completed", "usage": {"inputTokens": 1000,
...     "cachedReadTokens": 600, "outputTokens": 200, "costUsdTicks": 28427480}}}})
>>> m.kind, m.usage.input_tokens, m.usage.cache_read_tokens, m.usage.cost_usd, m.uuid
('result', 400, 600, 0.002842748, 's1-9')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from functools import partial
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import ROLE_TYPES
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .._common import content_text
from .._common import refuse
from .._common import refuse_other
from .decoder import NAME
from .decoder import TICKS_PER_USD
from .decoder import decode_line
from .decoder import is_update
from .decoder import kept_update

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

_NOTIFY: Final = "_x.ai/session_notification"


def decode(obj: Any) -> Message:
    """One line of ``updates.jsonl`` to one message (the value is copied first)."""
    return ev.decoding(decode_line, obj, NAME)


def _line(m: Message, update: dict[str, Any], method: str = "session/update") -> dict[str, Any]:
    """A line for ``update``: the kept rest of a decoded line, else a fresh notification."""
    if kept_update(m) is not None:
        return ev.overlay({"params": {"update": update}}, m.extra)
    params: dict[str, Any] = {}
    if m.uuid is not None:
        params["_meta"] = {"eventId": m.uuid}
    if m.session_id is not None:
        params["sessionId"] = m.session_id
    params["update"] = update
    return {"method": method, "params": params}


def _usage(m: ResultMessage) -> dict[str, Any] | None:
    u = m.usage
    if u is None:
        return None
    read, write = u.cache_read_tokens or 0, u.cache_write_tokens or 0
    out = {
        "inputTokens": (u.input_tokens or 0) + read + write,
        "outputTokens": u.output_tokens or 0,
        "cachedReadTokens": read,
        "cacheCreationTokens": write,
    }
    if u.reasoning_tokens is not None:
        out["reasoningTokens"] = u.reasoning_tokens
    if u.cost_usd is not None:
        out["costUsdTicks"] = round(u.cost_usd * TICKS_PER_USD)
    return out


def _encode(m: Message, policy: Policy) -> Any:
    kept = kept_update(m)
    match m:
        case UserMessage() if isinstance(m.content, str):
            content = {"type": "text", "text": m.content}
            return _line(m, {"sessionUpdate": "user_message_chunk", "content": content})
        case StreamEventMessage() if isinstance(m.event, FrozenDict) and detect(raw(m.event)):
            return raw(m.event)
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)
        case UserMessage() | AssistantMessage() | SystemMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case TextMessage() if m.role in ("user", "assistant"):
            if m.citations is not None:
                refuse(m, "Grok Build's text chunks carry no citations", policy, degrade=False)
            tag = "user_message_chunk" if m.role == "user" else "agent_message_chunk"
            return _line(m, {"sessionUpdate": tag, "content": {"type": "text", "text": m.text}})
        case ThinkingMessage():
            content = {"type": "text", "text": m.thinking}
            return _line(m, {"sessionUpdate": "agent_thought_chunk", "content": content})
        case ToolUseMessage():
            update = {"sessionUpdate": "tool_call", "toolCallId": m.id, "rawInput": raw(m.input)}
            if kept is None:
                update["title"] = m.name
            return _line(m, update)
        case ToolResultMessage():
            status = "failed" if m.is_error else "completed"
            update = {"sessionUpdate": "tool_call_update", "toolCallId": m.tool_use_id}
            update["status"] = status
            if kept is None:  # a decoded result keeps its content (or its having none)
                text = content_text(m.content, policy)
                update["content"] = [{"type": "content", "content": {"type": "text", "text": text}}]
            return _line(m, update)
        case ResultMessage():
            update = {"sessionUpdate": "turn_completed"}
            if m.stop_reason is not None:
                update["stop_reason"] = m.stop_reason
            usage = _usage(m)
            if kept is None and usage is not None:
                update["usage"] = usage
            return _line(m, update, _NOTIFY)
    return refuse_other(m, "Grok Build's log has no notification", policy, _encode)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one ``updates.jsonl`` line: ``encode(decode(x)) == x``."""
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Grok Build session notification (not ACP's JSON-RPC)."""
    return is_update(obj)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode an ``updates.jsonl`` lazily."""
    return _base.iter_decode(decode_line, lines, source=NAME, strict=strict)


def _is_chunk(m: Message) -> bool:
    return isinstance(m, TextMessage | ThinkingMessage)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive text (or thinking) chunks of one session into whole messages.

    Grok writes a reply as many ``agent_message_chunk`` lines; merged, the first chunk's
    context and ``extra`` stand for the whole (a view, not a lossless step).
    """
    return _base.merge_deltas(messages, is_delta=_is_chunk)


def _one_line(m: Message) -> bool:
    """Whether a message is written as one line (a role message holding blocks is not)."""
    return not isinstance(m, ROLE_TYPES) or (
        isinstance(m, UserMessage) and isinstance(m.content, str)
    )


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as ``updates.jsonl`` lines, one per message (a role message: one per block)."""
    return ev.lines(messages, partial(_encode, policy=Policy(unsupported, NAME)), _one_line)
