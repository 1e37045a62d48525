"""The UI's event log, both ways: one item of ``ui_messages.json`` (a ``ClineMessage``).

Each item is ``{"ts", "type": "ask" | "say", "ask" | "say": <kind>, "text"?, ...}``:

- ``say`` ``api_req_started`` -> :class:`ResultMessage` for that API request: its ``text``
  is JSON (``tokensIn``, ``tokensOut``, ``cacheReads``, ``cacheWrites``, ``cost``) read into
  ``usage``; the text itself stays in ``extra``, so it is written back as it was;
- ``say`` ``text`` and ``completion_result``, ``ask`` ``followup`` and
  ``completion_result`` -> assistant :class:`TextMessage`; ``say`` ``task`` and
  ``user_feedback`` -> user :class:`TextMessage`; ``say`` ``reasoning`` ->
  :class:`ThinkingMessage`;
- ``say`` ``error`` and ``diff_error``, ``ask`` ``api_req_failed`` and
  ``mistake_limit_reached`` -> :class:`ErrorMessage`;
- every other kind (tool requests, commands and their output, checkpoints, browser and MCP
  events...) -> :class:`SystemEventMessage` with the kind as ``subtype`` and the item's
  fields as ``data``.
"""

from __future__ import annotations

import json
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ...events.agent import SystemEventMessage
from ...events.run import ErrorMessage
from ...events.run import ResultMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...message import Message
from ...usage import Usage
from .. import _events as ev

__all__ = ["decode_item", "encode_item", "is_item"]

_ASSISTANT: Final = {("say", "text"), ("say", "completion_result"), ("ask", "followup")}
_ASSISTANT_ASKS: Final = {("ask", "completion_result")}
_USER: Final = {("say", "task"), ("say", "user_feedback")}
_ERRORS: Final = {
    ("say", "error"),
    ("say", "diff_error"),
    ("ask", "api_req_failed"),
    ("ask", "mistake_limit_reached"),
}
_COUNTS: Final = {
    "tokensIn": "input_tokens",
    "tokensOut": "output_tokens",
    "cacheReads": "cache_read_tokens",
    "cacheWrites": "cache_write_tokens",
    "cost": "cost_usd",
}


def is_item(obj: Any) -> bool:
    """Whether a value is a UI log item: a ``ts`` and an ``ask`` or ``say`` type naming its kind."""
    if type(obj) is not dict or "ts" not in obj:
        return False
    tag = obj.get("type")
    return tag in ("ask", "say") and type(obj.get(tag)) is str


def _usage(text: Any) -> Usage | None:
    """The usage an ``api_req_started`` text reports (JSON), or ``None``."""
    if type(text) is not str:
        return None
    try:
        info = json.loads(text)
    except ValueError:
        return None
    if type(info) is not dict:
        return None
    counts = ev.loose_counts(info, _COUNTS)
    return Usage(**counts) if counts else None


def _ts(d: dict[str, Any], rest: dict[str, Any]) -> Any:
    ts = d.get("ts")
    if type(ts) in (int, float):
        del rest["ts"]
        return ts
    return None


def decode_item(d: dict[str, Any]) -> Message:
    """One owned UI log item to one message (the caller checked :func:`is_item`)."""
    tag: str = d["type"]
    kind: str = d[tag]
    key = (tag, kind)
    rest = dict(d)
    ts = _ts(d, rest)
    text = d.get("text")
    if kind == "api_req_started" and tag == "say":
        usage = _usage(text)
        return ResultMessage(subtype=kind, usage=usage, timestamp=ts, extra=wrap_owned(rest))
    if type(text) is str and key in (_ASSISTANT | _ASSISTANT_ASKS | _USER):
        del rest["text"]
        user = key in _USER
        return TextMessage(
            text, role="user" if user else "assistant", timestamp=ts, extra=wrap_owned(rest)
        )
    if key == ("say", "reasoning") and type(text) is str:
        del rest["text"]
        return ThinkingMessage(text, role="assistant", timestamp=ts, extra=wrap_owned(rest))
    if key in _ERRORS:
        message = text if type(text) is str else ""
        if message:  # an empty text stays in extra, to be written back
            del rest["text"]
        return ErrorMessage(message, code=kind, timestamp=ts, extra=wrap_owned(rest))
    del rest["type"], rest[tag]
    return SystemEventMessage(
        kind, wrap_owned(rest) if rest else EMPTY, timestamp=ts, extra=wrap_owned({"type": tag})
    )


def _item(tag: str, kind: str, m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"ts": m.timestamp if isinstance(m.timestamp, (int, float)) else 0}
    out["type"] = tag
    out[tag] = kind
    return out


def encode_item(m: Message) -> dict[str, Any] | None:
    """A message decoded from a UI log item, as that item; ``None`` for any other message."""
    tag = m.extra.get("type")
    if tag not in ("ask", "say"):
        return None
    assert isinstance(tag, str)
    if isinstance(m, SystemEventMessage):
        out = _item(tag, m.subtype, m)
        out.update(raw(m.data))
        return ev.overlay(out, m.extra)
    kind = m.extra.get(tag)
    if not isinstance(kind, str):
        return None
    out = _item(tag, kind, m)
    if isinstance(m, TextMessage):
        out["text"] = m.text
    elif isinstance(m, ThinkingMessage):
        out["text"] = m.thinking
    elif isinstance(m, ErrorMessage) and m.message:
        out["text"] = m.message
    return ev.overlay(out, m.extra)
