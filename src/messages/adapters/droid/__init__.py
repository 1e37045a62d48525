"""Factory Droid's sessions: ``~/.factory/sessions/<project>/<id>.jsonl`` and its settings.

Droid writes each session as a JSON Lines transcript and, beside it, a
``<id>.settings.json`` holding the session's model, provider and token totals. See
``docs/adapters/droid.md``.

- ``{"type": "session_start", "id", "title", "sessionTitle", "cwd", ...}`` ->
  :class:`InitMessage` (``id`` as ``session_id``, ``cwd``);
- ``{"type": "message", "id", "timestamp", "parentId"?, "message": {"role", "content"}}`` ->
  :class:`UserMessage` or :class:`AssistantMessage`, the content Anthropic-shaped blocks
  (text, thinking, tool calls and results); the line's ``id`` as ``uuid``;
- a settings file (``tokenUsage``: ``inputTokens``, ``outputTokens``, ``cacheReadTokens``,
  ``cacheCreationTokens``, ``thinkingTokens``) -> :class:`ResultMessage` (``subtype``
  ``"session"``): the session's totals, ``model`` and ``providerLockTimestamp`` as
  ``timestamp``;
- any other line -> :class:`RawMessage`, whole.

Everything else is kept in ``extra``: ``encode(decode(x)) == x``.

>>> m = decode({"type": "message", "id": "m1", "timestamp": "2026-01-06T10:00:00.000Z",
...             "message": {"role": "user", "content": [{"type": "text", "text": "Hi"}]}})
>>> m.kind, m.text, m.uuid
('user', 'Hi', 'm1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import VideoBlock
from ...convert import dump_blocks
from ...convert import messages_to_turn
from ...errors import DecodeError
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import decode_content
from .._common import refuse
from .._common import refuse_content
from .._common import refuse_record

__all__ = ["NAME", "READ_ONLY", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "droid"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to droid`` is refused: the session files are Droid's own store."""

_TOKENS: Final = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "cacheReadTokens": "cache_read_tokens",
    "cacheCreationTokens": "cache_write_tokens",
    "thinkingTokens": "reasoning_tokens",
}


def is_settings(obj: Any) -> bool:
    """Whether ``obj`` is a Droid settings file (its token totals and provider)."""
    return (
        type(obj) is dict
        and type(obj.get("tokenUsage")) is dict
        and ("providerLock" in obj or "model" in obj or "providerLockTimestamp" in obj)
        and "type" not in obj
    )


def _settings(d: dict[str, Any]) -> Message:
    usage = ev.usage_in(d["tokenUsage"], _TOKENS, "$.tokenUsage", frozenset(_TOKENS))
    extra = rest(d, frozenset(("tokenUsage", "model", "providerLockTimestamp")))
    return ResultMessage(
        subtype="session",
        usage=usage,
        model=opt_str(d, "model"),
        timestamp=opt_time(d, "providerLockTimestamp"),
        extra=ev.frozen(extra),
    )


def _session_start(d: dict[str, Any]) -> Message:
    extra = rest(d, frozenset(("type", "id", "cwd")))
    return InitMessage(cwd=opt_str(d, "cwd"), session_id=need_str(d, "id"), extra=ev.frozen(extra))


def _message(d: dict[str, Any]) -> Message:
    body = need_obj(d, "message")
    role = need_str(body, "role", "$.message")
    content = body.get("content", [])
    blocks: Any = content
    if isinstance(content, list):
        try:  # the lossless reader: a block missing a key it needs is kept raw, as it came
            blocks = decode_content(content)
        except DecodeError as exc:
            raise exc.within(".message.content") from None
    elif type(content) is not str:
        raise fail("an array of content blocks", content, "message.content")
    extra = rest(d, frozenset(("type", "id", "timestamp", "message")))
    body_left = rest(body, frozenset(("role", "content")))
    if "content" not in body:
        body_left["content"] = None
    if body_left:
        extra["message"] = body_left
    uuid, stamp, kept = opt_str(d, "id"), opt_time(d, "timestamp"), ev.frozen(extra)
    if role == "user":
        return UserMessage(blocks, uuid=uuid, timestamp=stamp, extra=kept)
    if role == "assistant":
        return AssistantMessage(blocks, uuid=uuid, timestamp=stamp, extra=kept)
    raise DecodeError(f"expected 'user' or 'assistant', found {role!r}", path="$.message.role")


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    tag = obj.get("type")
    if tag == "session_start" and type(obj.get("id")) is str:
        return _session_start(obj)
    if tag == "message" and type(obj.get("message")) is dict:
        return _message(obj)
    if is_settings(obj):
        return _settings(obj)
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One transcript line, or a settings file, to one message (the value is copied first)."""
    return ev.decoding(_decode, obj, NAME)


def _encode(m: Message, policy: Policy) -> Any:
    if isinstance(m, InitMessage):
        if m.tools is not None or m.model is not None:
            refuse(m, "a Droid session_start line has no tools or model", policy, degrade=False)
        out = {"type": "session_start", **present(id=m.session_id, cwd=m.cwd)}
        return ev.finish(out, m.extra)
    if isinstance(m, ResultMessage) and m.subtype == "session" and m.usage is not None:
        out = {"tokenUsage": ev.usage_out(m.usage, _TOKENS)}
        out.update(present(model=m.model, providerLockTimestamp=m.timestamp))
        return ev.overlay(out, m.extra)
    if isinstance(m, RawMessage) and m.role is None and isinstance(m.data, FrozenDict):
        return raw(m.data)
    if isinstance(m, RawMessage) and m.role is not None:
        return refuse_content(m, "a Droid transcript has no line for raw content", policy, _encode)
    turn: Message = m
    if not isinstance(m, UserMessage | AssistantMessage | SystemMessage | ToolMessage):
        if getattr(m, "role", None) is None or isinstance(m, InvalidLineMessage):
            refuse_record(m, "a Droid transcript has no line", policy)
            return None
        turn = messages_to_turn([m])  # type: ignore[list-item]  # a flat message: one block
    if isinstance(turn, ToolMessage):  # tool results come in the user's message
        turn = UserMessage(turn.content, uuid=turn.uuid, timestamp=turn.timestamp)
    if not isinstance(turn, UserMessage | AssistantMessage):
        refuse(
            m,
            f"a Droid transcript has no {getattr(turn, 'role', m.kind)} messages",
            policy,
            degrade=False,
        )
        return None
    if isinstance(turn.content, str):
        content: Any = turn.content
    else:
        kept = _carried(turn, policy)
        if turn.content and not kept:
            return None  # the policy left out all there was
        content = dump_blocks(kept)
    out = {"type": "message", **present(id=turn.uuid, timestamp=turn.timestamp)}
    out["message"] = {"role": turn.role, "content": content}
    out = ev.finish(out, turn.extra)
    if out["message"].get("content", []) is None:
        del out["message"]["content"]
    return out


def _carried(turn: UserMessage | AssistantMessage, policy: Policy) -> list[Block]:
    """The blocks an Anthropic-shaped message can hold: audio and video follow the policy."""
    out: list[Block] = []
    for i, b in enumerate(as_blocks(turn.content)):
        if isinstance(b, AudioBlock | VideoBlock):
            alt = policy.degrade(b, f"$.content[{i}]", f"a Droid message has no {b.kind} block")
            if alt is not None:
                out.append(alt)
            continue
        out.append(b)
    return out


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one transcript line (or settings object): ``encode(decode(x)) == x``."""
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed value is a Droid transcript line or settings file."""
    if type(obj) is not dict:
        return False
    tag = obj.get("type")
    if tag == "session_start":
        return type(obj.get("id")) is str and ("sessionTitle" in obj or "owner" in obj)
    if tag == "message":
        body = obj.get("message")
        return (
            type(body) is dict
            and body.get("role") in ("user", "assistant")
            and type(obj.get("id")) is str
            and "timestamp" in obj
            and "sessionId" not in obj
            and "uuid" not in obj
            # pi's (and OpenClaw's) lines share this shape; their message carries its own
            # timestamp, and an assistant's usage, provider and api: Droid's carries neither
            and body.keys().isdisjoint(("timestamp", "usage", "api", "provider", "stopReason"))
        )
    return is_settings(obj)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a transcript (or a settings file) lazily."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as transcript lines, one per message."""
    return ev.write_lines(messages, _encode, unsupported, NAME)
