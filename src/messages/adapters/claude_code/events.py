"""Claude Code harness events, both ways (private half of :mod:`.claude_code`).

``system`` lines other than ``init`` become the agent events of :mod:`messages.events.agent`
(task lifecycle, hooks, compaction boundary, status, and a generic event for any other
subtype); ``rate_limit_event`` lines become :class:`RateLimitMessage`, ``conversation_reset``
lines :class:`ConversationResetMessage`. This module also
reads and writes the run details of ``result`` lines and the harness fields of ``user``
lines (``origin``, ``tool_use_result``, ``isCompactSummary``).

One rule throughout, as the claude-agent-sdk parser has it for lifecycle events: these
fields never make a line fail. A value of the expected type fills the typed field; any other
value (a ``patch`` that is not an object, say) stays in ``extra``, so the line is written
back exactly. Only the context fields (uuid, session id...) are checked, as on every line.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import TypeGuard

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import present
from ...blocks import ToolUseBlock
from ...events.agent import CompactBoundaryMessage
from ...events.agent import ConversationResetMessage
from ...events.agent import HookEventMessage
from ...events.agent import RateLimitMessage
from ...events.agent import StatusMessage
from ...events.agent import SystemEventMessage
from ...events.agent import TaskEventMessage
from ...events.run import ResultMessage
from ...message import Message
from ...roles import UserMessage

__all__ = [
    "Context",
    "decode_rate_limit",
    "decode_reset",
    "decode_system",
    "decode_usual_rate_limit",
    "decode_usual_system",
    "line_type",
    "put_result_details",
    "put_user_details",
    "result_details",
    "system_line",
    "user_details",
]

_TASK_SUBTYPES: Final = frozenset(
    ("task_started", "task_progress", "task_notification", "task_updated")
)
_HOOK_SUBTYPES: Final = frozenset(("hook_started", "hook_progress", "hook_response"))

# (field, expected JSON type): the field and the wire key share a name on these lines.
_TASK_FIELDS: Final = (
    ("task_id", str),
    ("description", str),
    ("task_type", str),
    ("tool_use_id", str),
    ("status", str),
    ("summary", str),
    ("output_file", str),
    ("last_tool_name", str),
    ("usage", dict),
    ("patch", dict),
)
_HOOK_FIELDS: Final = (
    ("hook_id", str),
    ("hook_name", str),
    ("hook_event", str),
    ("output", str),
    ("stdout", str),
    ("stderr", str),
    ("exit_code", int),
    ("outcome", str),
)


def _fits(value: Any, kind: type) -> bool:
    return type(value) is kind


def _take(rest: dict[str, Any], fields: tuple[tuple[str, type], ...]) -> dict[str, Any]:
    """Move each field of the expected type out of ``rest``; anything else stays there."""
    out: dict[str, Any] = {}
    for name, kind in fields:
        value = rest.get(name)
        if value is not None and _fits(value, kind):
            out[name] = wrap_owned(value) if kind is dict else value
            del rest[name]
    return out


def _metadata_key(line: Any) -> str:
    """Transcripts (which carry ``sessionId``) spell it ``compactMetadata``."""
    return "compactMetadata" if "sessionId" in line else "compact_metadata"


# Built with makers from checked, frozen values: a thinking_tokens line (a fifth of a real
# stream-json capture) costs 0.9 us this way against 2.3 us through the public constructors
# (0.7 us when it stayed a RawMessage). Decoding the benchmark corpus: 1.29x the floor in
# instructions (benchmarks/instructions.py), against 1.26x before these lines were typed.
_new_task: Final = maker(TaskEventMessage)
_new_hook: Final = maker(HookEventMessage)
_new_boundary: Final = maker(CompactBoundaryMessage)
_new_status: Final = maker(StatusMessage)
_new_rate_limit: Final = maker(RateLimitMessage)
_new_event: Final = maker(SystemEventMessage)
_SYSTEM_EXTRA: Final = wrap_owned({"type": "system"})
"""The extra of almost every generic event, shared rather than built per line."""

Context = tuple[Any, Any, Any, Any]
"""uuid, session_id, parent_tool_use_id, timestamp: checked by the caller."""


def decode_system(obj: dict[str, Any], rest: dict[str, Any], context: Context) -> Message:
    """A ``system`` line with a string ``subtype`` other than ``init``, to its event.

    ``rest`` is a copy of the line without its context fields that are set (a null one, and
    a transcript's ``sessionId``, stay in it); ``context`` holds their checked values.
    """
    uuid, sid, parent, ts = context
    subtype = rest.pop("subtype")
    if subtype in _TASK_SUBTYPES:
        fields = _take(rest, _TASK_FIELDS)
        values = [fields.get(name) for name, _ in _TASK_FIELDS]
        return _new_task(subtype, *values, uuid, sid, parent, None, None, ts, wrap_owned(rest))
    if subtype in _HOOK_SUBTYPES:
        fields = _take(rest, _HOOK_FIELDS)
        values = [fields.get(name) for name, _ in _HOOK_FIELDS]
        return _new_hook(subtype, *values, uuid, sid, parent, None, None, ts, wrap_owned(rest))
    if subtype == "compact_boundary":
        key = _metadata_key(obj)
        metadata = rest.get(key)
        if type(metadata) is dict:
            del rest[key]
            metadata = wrap_owned(metadata)
        else:
            metadata = None
        return _new_boundary(metadata, uuid, sid, parent, None, None, ts, wrap_owned(rest))
    if subtype == "status":
        status = rest.get("status")
        if type(status) is str:
            del rest["status"]
        else:
            status = None
        return _new_status(status, uuid, sid, parent, None, None, ts, wrap_owned(rest))
    del rest["type"]
    extra = _SYSTEM_EXTRA
    if "sessionId" in rest:  # a transcript line: the encoder reads the spelling from extra
        extra = wrap_owned({"type": "system", "sessionId": rest.pop("sessionId")})
    return _new_event(subtype, wrap_owned(rest), uuid, sid, parent, None, None, ts, extra)


_STATUS_LINE: Final = frozenset(("type", "subtype", "status", "uuid", "session_id"))
_THINKING_TOKENS_LINE: Final = frozenset(
    ("type", "subtype", "estimated_tokens", "estimated_tokens_delta", "uuid", "session_id")
)


def decode_usual_system(obj: dict[str, Any]) -> Message | None:
    """The two ``system`` lines of nearly every stream (a fifth of a real capture), directly.

    A ``thinking_tokens`` or ``status`` line with exactly the keys Claude Code writes and a
    string uuid and session id gives what :func:`decode_system` gives it (after the context
    split), without the split; any other line gives ``None`` and takes the general path.
    """
    keys = obj.keys()
    uuid = obj.get("uuid")
    sid = obj.get("session_id")
    if type(uuid) is not str or type(sid) is not str:
        return None
    if keys == _THINKING_TOKENS_LINE and obj["subtype"] == "thinking_tokens":
        data = obj.copy()  # the line, in its order, less what the message models
        del data["type"], data["subtype"], data["uuid"], data["session_id"]
        return _new_event(
            "thinking_tokens", wrap_owned(data), uuid, sid, None, None, None, None, _SYSTEM_EXTRA
        )
    if keys == _STATUS_LINE and obj["subtype"] == "status":
        status = obj["status"]
        if type(status) is str:
            return _new_status(status, uuid, sid, None, None, None, None, _SYSTEM_EXTRA)
    return None


_RATE_LIMIT_LINE: Final = frozenset(("type", "rate_limit_info", "uuid", "session_id"))
_RATE_LIMIT_EXTRA: Final = wrap_owned({"type": "rate_limit_event"})
"""The extra of almost every rate_limit_event line, shared rather than built per line."""


def decode_usual_rate_limit(obj: dict[str, Any]) -> Message | None:
    """A ``rate_limit_event`` line as Claude Code writes it, without the context split.

    With exactly its usual keys, an object ``rate_limit_info`` and a string uuid and session
    id, it gives what :func:`decode_rate_limit` gives it; any other line gives ``None``.
    """
    if obj.keys() != _RATE_LIMIT_LINE:
        return None
    info = obj["rate_limit_info"]
    uuid = obj["uuid"]
    sid = obj["session_id"]
    if type(info) is not dict or type(uuid) is not str or type(sid) is not str:
        return None
    return _new_rate_limit(wrap_owned(info), uuid, sid, None, None, None, None, _RATE_LIMIT_EXTRA)


def decode_rate_limit(obj: dict[str, Any], rest: dict[str, Any], context: Context) -> Message:
    """A ``rate_limit_event`` line (``rest`` and ``context`` as for :func:`decode_system`)."""
    uuid, sid, parent, ts = context
    info = rest.get("rate_limit_info")
    if type(info) is dict:
        del rest["rate_limit_info"]
        info = wrap_owned(info)
    else:
        info = None
    return _new_rate_limit(info, uuid, sid, parent, None, None, ts, wrap_owned(rest))


def decode_reset(obj: dict[str, Any], rest: dict[str, Any], context: Context) -> Message:
    """A ``conversation_reset`` line (``rest`` and ``context`` as for :func:`decode_system`)."""
    uuid, sid, parent, ts = context
    new_id = rest.get("new_conversation_id")
    if type(new_id) is str:
        del rest["new_conversation_id"]
    else:
        new_id = None
    return ConversationResetMessage(
        new_id,
        uuid=uuid,
        session_id=sid,
        parent_tool_use_id=parent,
        timestamp=ts,
        extra=wrap_owned(rest),
    )


def _event_fields(m: Message) -> tuple[tuple[str, type], ...]:
    if isinstance(m, TaskEventMessage):
        return _TASK_FIELDS
    if isinstance(m, HookEventMessage):
        return _HOOK_FIELDS
    return ()


def line_type(m: Message) -> str:
    """The ``type`` of an event's line."""
    if isinstance(m, RateLimitMessage):
        return "rate_limit_event"
    if isinstance(m, ConversationResetMessage):
        return "conversation_reset"
    return "system"


def system_line(m: Message, ex: dict[str, Any]) -> dict[str, Any]:
    """The body of an event's line (``type``, ``subtype`` and its fields; no context)."""
    if isinstance(m, ConversationResetMessage):
        out: dict[str, Any] = {"type": "conversation_reset"}
        if m.new_conversation_id is not None:
            out["new_conversation_id"] = m.new_conversation_id
        return out
    if isinstance(m, RateLimitMessage):
        out = {"type": "rate_limit_event"}
        if m.info is not None:
            out["rate_limit_info"] = raw(m.info)
        return out
    out = {"type": "system"}
    if isinstance(m, TaskEventMessage | HookEventMessage):
        out["subtype"] = m.subtype
        for name, _ in _event_fields(m):
            value = getattr(m, name)
            if value is not None:
                out[name] = raw(value)
    elif isinstance(m, CompactBoundaryMessage):
        out["subtype"] = "compact_boundary"
        if m.metadata is not None:
            out[_metadata_key(ex)] = raw(m.metadata)
    elif isinstance(m, StatusMessage):
        out["subtype"] = "status"
        if m.status is not None:
            out["status"] = m.status
    elif isinstance(m, SystemEventMessage):
        out["subtype"] = m.subtype
        out.update(raw(m.data))
    return out


# -- result and user lines -------------------------------------------------------------------

_RESULT_FIELDS: Final = (
    ("stop_reason", str),
    ("terminal_reason", str),
    ("errors", list),
    ("api_error_status", int),
    ("permission_denials", list),
    ("modelUsage", dict),
)

_NO_DETAILS: Final = (None,) * 8


def _deferred(value: Any) -> ToolUseBlock | None:
    """A ``deferred_tool_use`` object as a tool call, when it has the shape of one."""
    if type(value) is not dict:
        return None
    call_id = value.get("id")
    name = value.get("name")
    args = value.get("input")
    if type(call_id) is not str or type(name) is not str or type(args) is not dict:
        return None
    extra = {k: v for k, v in value.items() if k not in ("id", "name", "input")}
    return ToolUseBlock(
        call_id, name, wrap_owned(args), extra=wrap_owned(extra) if extra else EMPTY
    )


def _origin(value: Any) -> TypeGuard[dict[str, Any]]:
    """An origin is an object with a string ``kind`` (as the SDK reads it)."""
    return type(value) is dict and type(value.get("kind")) is str


def result_details(rest: dict[str, Any]) -> tuple[Any, ...]:
    """The run details of a result line, moved out of ``rest`` (its unmodelled keys).

    In ResultMessage field order: stop_reason, terminal_reason, errors, api_error_status,
    permission_denials, model_usage, deferred_tool_use, origin.
    """
    if not rest:
        return _NO_DETAILS
    out: list[Any] = []
    for key, kind in _RESULT_FIELDS:
        value = rest.get(key)
        if type(value) is kind:  # the rule of _fits, inlined (a null value is never a kind)
            del rest[key]
            if type(value) is dict:
                out.append(wrap_owned(value))
            elif type(value) is list:
                out.append(expose_owned(value))
            else:  # a string or an integer: already in its frozen form
                out.append(value)
        else:
            out.append(None)
    deferred = None
    if "deferred_tool_use" in rest:
        deferred = _deferred(rest["deferred_tool_use"])
        if deferred is not None:
            del rest["deferred_tool_use"]
    out.append(deferred)
    origin = rest.get("origin")
    if _origin(origin):
        del rest["origin"]
        out.append(wrap_owned(origin))
    else:
        out.append(None)
    return tuple(out)


def put_result_details(out: dict[str, Any], m: ResultMessage) -> None:
    """Write a result's run details under their wire names."""
    out.update(
        present(
            stop_reason=m.stop_reason,
            terminal_reason=m.terminal_reason,
            errors=raw(m.errors),
            api_error_status=m.api_error_status,
            permission_denials=raw(m.permission_denials),
            modelUsage=raw(m.model_usage),
        )
    )
    call = m.deferred_tool_use
    if call is not None:
        out["deferred_tool_use"] = {"id": call.id, "name": call.name, "input": raw(call.input)}
        out["deferred_tool_use"].update(raw(call.extra))
    if m.origin is not None:
        out["origin"] = raw(m.origin)


def user_details(extra: dict[str, Any]) -> tuple[Any, Any, Any] | None:
    """``summary``, ``origin`` and ``tool_use_result`` of a user line, moved out of ``extra``.

    ``None`` when the line has none of them (the usual case).
    """
    if "isCompactSummary" not in extra and "origin" not in extra and "tool_use_result" not in extra:
        return None
    summary = None
    if extra.get("isCompactSummary") is True:
        del extra["isCompactSummary"]
        summary = "compaction"
    origin = extra.get("origin")
    if _origin(origin):
        del extra["origin"]
    else:
        origin = None
    result = extra.get("tool_use_result")
    if result is not None:  # a null one stays in extra, to be written back as null
        del extra["tool_use_result"]
    return summary, None if origin is None else wrap_owned(origin), expose_owned(result)


def put_user_details(out: dict[str, Any], m: UserMessage) -> None:
    """Write a user turn's harness fields under their wire names."""
    if m.summary == "compaction":
        out["isCompactSummary"] = True
    if m.origin is not None:
        out["origin"] = raw(m.origin)
    if m.tool_use_result is not None:
        out["tool_use_result"] = raw(m.tool_use_result)
