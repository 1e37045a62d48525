"""Reading one pi session entry (one line of ``~/.pi/agent/sessions/<cwd>/<file>.jsonl``).

Every entry is an object with a ``type``; entries of pi 0.x after the session-tree change
also carry ``id`` and ``parentId``. What is not modelled stays in the message's ``extra``,
as a mirror of the line: the entry's own keys at the top (its ``type`` included, so the
encoder writes the same kind of entry back), the nested ``message`` object's under
``"message"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.make import wrap_owned
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_time
from ...blocks import ToolResultBlock
from ...events.agent import SystemEventMessage
from ...events.run import InitMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .content import decode_blocks
from .content import extra as extra_of
from .content import need_blocks

__all__ = ["ENTRY_EVENTS", "SUMMARIES", "decode_entry"]

ENTRY_EVENTS: Final = frozenset(
    ("model_change", "thinking_level_change", "custom", "label", "session_info")
)
"""Entries that are harness state, not conversation: each a :class:`SystemEventMessage`."""
SUMMARIES: Final = {"compaction": "compaction", "branch_summary": "branch"}
"""Summary entries, and the ``UserMessage.summary`` each is read as."""
BASH: Final = "bashExecution"
"""The ``message`` role of a command the user ran with ``!`` (a system event here)."""

_COUNTS: Final = (
    ("input", "input_tokens"),
    ("output", "output_tokens"),
    ("cacheRead", "cache_read_tokens"),
    ("cacheWrite", "cache_write_tokens"),
)


def _str(d: dict[str, Any], key: str, used: list[str]) -> str | None:
    """An optional string, modelled only when it is one (anything else stays in extra)."""
    value = d.get(key)
    if type(value) is str:
        used.append(key)
        return value
    return None


def _context(d: dict[str, Any], used: list[str]) -> tuple[str | None, Any]:
    """The entry's ``id`` (uuid) and ``timestamp`` (ISO text, as written)."""
    uuid = _str(d, "id", used)
    ts = opt_time(d)
    if ts is not None:
        used.append("timestamp")
    return uuid, ts


def _mirror(d: dict[str, Any], used: list[str], inner: dict[str, Any]) -> FrozenDict:
    top = {k: v for k, v in d.items() if k not in used}
    if inner:
        top["message"] = inner
    return wrap_owned(top) if top else EMPTY


def _usage(inner: dict[str, Any], used: list[str]) -> Usage | None:
    value = inner.get("usage")
    if type(value) is not dict:
        return None
    used.append("usage")
    counts: dict[str, Any] = {}
    taken = []
    for wire, name in _COUNTS:
        n = value.get(wire)
        if type(n) is int:
            counts[name] = n
            taken.append(wire)
    rest = {k: v for k, v in value.items() if k not in taken}
    cost = rest.get("cost")
    total = cost.get("total") if type(cost) is dict else None
    if type(total) in (int, float):
        counts["cost_usd"] = total
        others = {k: v for k, v in cost.items() if k != "total"}  # type: ignore[union-attr]
        rest["cost"] = others
        if not others:
            del rest["cost"]
    return Usage(**counts, extra=wrap_owned(rest) if rest else EMPTY)


def _session(d: dict[str, Any]) -> Message:
    used: list[str] = []
    session_id, ts = _context(d, used)
    cwd = _str(d, "cwd", used)
    model = _str(d, "modelId", used)
    return InitMessage(
        cwd=cwd, session_id=session_id, model=model, timestamp=ts, extra=extra_of(d, used)
    )


def _message(d: dict[str, Any]) -> Message:
    inner = need_obj(d, "message")
    role = inner.get("role")
    used: list[str] = ["message"]
    uuid, ts = _context(d, used)
    at = "$.message"
    if role == "user":
        content = need_blocks(inner.get("content"), f"{at}.content")
        extra = _mirror(d, used, ev.left(inner, ("role", "content")))
        return UserMessage(content, uuid=uuid, timestamp=ts, extra=extra)
    if role == "assistant":
        blocks = decode_blocks(inner.get("content"), f"{at}.content")
        inner_used = ["role", "content"]
        usage = _usage(inner, inner_used)
        model = _str(inner, "model", inner_used)
        stop = _str(inner, "stopReason", inner_used)
        error = _str(inner, "errorMessage", inner_used)
        extra = _mirror(d, used, ev.left(inner, inner_used))
        return AssistantMessage(
            blocks,
            usage=usage,
            stop_reason=stop,
            error=error,
            model=model,
            uuid=uuid,
            timestamp=ts,
            extra=extra,
        )
    if role == "toolResult":
        call = need_str(inner, "toolCallId", at)
        inner_used = ["role", "content", "toolCallId"]
        name = _str(inner, "toolName", inner_used)
        failed = inner.get("isError")
        if type(failed) is bool:
            inner_used.append("isError")
        else:
            failed = None
        blocks = decode_blocks(inner.get("content"), f"{at}.content")
        result = ToolResultBlock(call, blocks, is_error=failed, name=name)
        extra = _mirror(d, used, ev.left(inner, inner_used))
        return ToolMessage((result,), uuid=uuid, timestamp=ts, extra=extra)
    if role == BASH:
        data = extra_of(inner, ("role",))
        return SystemEventMessage(BASH, data, uuid=uuid, timestamp=ts, extra=_mirror(d, used, {}))
    return ev.raw_line(d)


def _event(d: dict[str, Any]) -> Message:
    used = ["type"]
    uuid, ts = _context(d, used)
    used.append("parentId")
    data = extra_of(d, used)
    used.remove("parentId")
    keep = {"parentId": d["parentId"]} if "parentId" in d else None
    model = d.get("modelId") if d["type"] == "model_change" else None
    return SystemEventMessage(
        d["type"],
        data,
        model=model if type(model) is str else None,
        uuid=uuid,
        timestamp=ts,
        extra=wrap_owned(keep) if keep else EMPTY,
    )


def _summary(d: dict[str, Any]) -> Message:
    used: list[str] = []
    uuid, ts = _context(d, used)
    text = need_str(d, "summary")
    used.append("summary")
    return UserMessage(
        text, summary=SUMMARIES[d["type"]], uuid=uuid, timestamp=ts, extra=extra_of(d, used)
    )


def _custom_message(d: dict[str, Any]) -> Message:
    used: list[str] = []
    uuid, ts = _context(d, used)
    content = need_blocks(d.get("content"), "$.content")
    used.append("content")
    return UserMessage(content, uuid=uuid, timestamp=ts, extra=extra_of(d, used))


_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "session": _session,
    "message": _message,
    "compaction": _summary,
    "branch_summary": _summary,
    "custom_message": _custom_message,
    **dict.fromkeys(ENTRY_EVENTS, _event),
}


def decode_entry(obj: Any) -> Message:
    """One owned pi entry to one message; an entry of an unknown type is kept whole."""
    return ev.dispatch(obj, _DECODERS)
