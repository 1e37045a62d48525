"""OpenCode's stored records, one at a time: session, message and part documents and rows.

A *document* is what one file under ``storage/`` holds (``session/<project>/<id>.json``,
``message/<session>/<id>.json``, ``part/<message>/<id>.json``). A *row* is one row of the
``session``, ``message`` or ``part`` table of the SQLite database newer OpenCode versions
write, as :mod:`.database` reads it: ``{"table": ..., <column>: <value>, ...}`` with the
``data`` column (a message's or part's document without its ids) parsed.

Each record decodes to one message; what a class does not model stays in ``extra`` (the
``time`` object's other keys, a tool state's ``title``/``metadata``, a row's other columns),
so that :func:`encode_record` gives the record back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any
from typing import Final
from typing import Literal

from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...events.run import InitMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .. import _opencode_shape as oc

__all__ = ["ROW", "TABLES", "decode_record", "is_document", "is_row", "session_of"]

ROW: Final = "row"
"""The ``extra`` key under which a row's columns other than its ids and ``data`` are kept."""

TABLES: Final = ("session", "message", "part")
"""The database tables whose rows are read."""

_PART_IDS: Final = frozenset(("id", "sessionID", "messageID", "type"))
_MESSAGE_IDS: Final = frozenset(("id", "sessionID", "role", "time"))
_ASSISTANT: Final = _MESSAGE_IDS | {"modelID", "tokens", "cost", "finish"}
_SESSION: Final = frozenset(("id", "directory", "time"))
_ROW_IDS: Final = {"message": ("id", "session_id"), "part": ("id", "message_id", "session_id")}
_ROW_KEYS: Final = {"message": ("id", "sessionID"), "part": ("id", "messageID", "sessionID")}


def _time(d: dict[str, Any], key: str, at: str) -> tuple[Any, dict[str, Any] | None]:
    """``d["time"][key]`` as a timestamp, and what else the ``time`` object holds.

    The remainder is ``None`` when there is nothing else to keep (no ``time``, or one with
    only ``key``).
    """
    time = opt_obj(d, "time", at)
    if time is None:
        return None, None
    stamp = opt_time(time, key, at + ".time")
    left = rest(time, frozenset((key,)))
    if stamp is None and key not in time:
        return None, left  # an empty or foreign time object is kept as it is
    return stamp, left or None


def _keep(extra: dict[str, Any], key: str, value: dict[str, Any] | None) -> dict[str, Any]:
    if value is not None:
        extra[key] = value
    return extra


def _usage(d: dict[str, Any], extra: dict[str, Any]) -> Usage | None:
    """Usage from a message's ``tokens`` object and ``cost``; leftovers go to ``extra``."""
    tokens = opt_obj(d, "tokens")
    usage, empty = oc.usage_of(tokens, opt_num(d, "cost"), "$.tokens")
    if empty:  # ``tokens: {}``: written back from the mirror
        extra["tokens"] = {}
    return usage


def _error_text(d: dict[str, Any]) -> str | None:
    """A message's error in words: ``error.data.message``, else ``error.name``."""
    error = opt_obj(d, "error")
    if error is None:
        return None
    data = error.get("data")
    if type(data) is dict and type(data.get("message")) is str and data["message"]:
        return str(data["message"])
    name = error.get("name")
    return name if type(name) is str and name else "error"


def _session(d: dict[str, Any]) -> Message:
    sid = need_str(d, "id")
    cwd = opt_str(d, "directory")
    stamp, time_left = _time(d, "created", "$")
    extra = _keep(rest(d, _SESSION), "time", time_left)
    return InitMessage(cwd=cwd, session_id=sid, timestamp=stamp, extra=ev.frozen(extra))


def _message(d: dict[str, Any]) -> Message:
    mid = need_str(d, "id")
    sid = need_str(d, "sessionID")
    role = need_str(d, "role")
    stamp, time_left = _time(d, "created", "$")
    if role == "user":
        extra = _keep(rest(d, _MESSAGE_IDS), "time", time_left)
        return UserMessage(
            (), session_id=sid, message_id=mid, timestamp=stamp, extra=ev.frozen(extra)
        )
    if role != "assistant":
        raise DecodeError(f"expected 'user' or 'assistant', found {role!r}", path="$.role")
    extra = _keep(rest(d, _ASSISTANT), "time", time_left)
    usage = _usage(d, extra)
    return AssistantMessage(
        (),
        usage=usage,
        stop_reason=opt_str(d, "finish"),
        error=_error_text(d),
        session_id=sid,
        model=opt_str(d, "modelID"),
        message_id=mid,
        timestamp=stamp,
        extra=ev.frozen(extra),
    )


def _text_like(d: dict[str, Any], tag: str) -> Message:
    text = need_str(d, "text")
    stamp, time_left = _time(d, "start", "$")
    extra = ev.frozen(_keep(rest(d, _PART_IDS | {"text", "time"}), "time", time_left))
    uuid, sid, mid = _part_ids(d)
    if tag == "reasoning":
        return ThinkingMessage(
            text, uuid=uuid, session_id=sid, message_id=mid, timestamp=stamp, extra=extra
        )
    # a part does not say whose message it is: OpenCode times the text the model writes
    # (a part without ids is not OpenCode's own record: another source's, assistant text)
    user = "time" not in d and uuid is not None and mid is not None
    role: Literal["assistant", "user"] = "user" if user else "assistant"
    return TextMessage(
        text, role=role, uuid=uuid, session_id=sid, message_id=mid, timestamp=stamp, extra=extra
    )


_MODELLED_PARTS: Final = frozenset(("text", "reasoning", "tool"))
_FINISHED: Final = {"completed": "output", "error": "error"}


def _tool(d: dict[str, Any]) -> Message:
    call = need_str(d, "callID")
    name = need_str(d, "tool")
    state = need_obj(d, "state")
    status = need_str(state, "status", "$.state")
    args = wrap_owned(need_obj(state, "input", "$.state"))
    uuid, sid, mid = _part_ids(d)
    extra = rest(d, _PART_IDS | {"callID", "tool", "state"})
    key = _FINISHED.get(status)
    known = frozenset(("input",)) if key is None else frozenset(("status", "input", key))
    extra["state"] = rest(state, known)  # always written: status and what OpenCode adds
    if key is None:
        return ToolUseMessage(
            call, name, args, uuid=uuid, session_id=sid, message_id=mid, extra=ev.frozen(extra)
        )
    body = need_str(state, key, "$.state")
    blocks = (
        ToolUseBlock(call, name, args),
        ToolResultBlock(call, body, is_error=status == "error"),
    )
    return AssistantMessage(
        blocks, uuid=uuid, session_id=sid, message_id=mid, extra=ev.frozen(extra)
    )


def _part_ids(d: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """A part's id, session id and message id (a part written without them has none)."""
    return opt_str(d, "id"), opt_str(d, "sessionID"), opt_str(d, "messageID")


def _part(d: dict[str, Any]) -> Message:
    uuid, sid, mid = _part_ids(d)
    tag = need_str(d, "type")
    if tag in ("text", "reasoning"):
        return _text_like(d, tag)
    if tag == "tool":
        return _tool(d)
    # step-start/-finish, file, patch, snapshot, agent, compaction...: kept whole, in context
    return RawMessage(wrap_owned(d), uuid=uuid, session_id=sid, message_id=mid)


def is_document(obj: Any) -> str | None:
    """Which document ``obj`` is (``session``, ``message``, ``part``), or ``None``."""
    if type(obj) is not dict or "part" in obj or "table" in obj:
        return None
    ident = obj.get("id")
    if type(ident) is not str or type(obj.get("time", {})) is not dict:
        return None
    if type(obj.get("sessionID")) is str:
        if type(obj.get("messageID")) is str and type(obj.get("type")) is str:
            return "part"
        if obj.get("role") in ("user", "assistant") and "type" not in obj:
            return "message"
        return None
    if (
        ident.startswith("ses")
        and type(obj.get("time")) is dict
        and type(obj.get("directory")) is str
        and "projectID" in obj
        and "type" not in obj
        and "role" not in obj
    ):
        return "session"
    return None


def is_row(obj: Any) -> str | None:
    """Which table ``obj`` is a row of, or ``None`` when it is not a row."""
    if type(obj) is not dict:
        return None
    table = obj.get("table")
    if table not in TABLES or type(obj.get("id")) is not str:
        return None
    if table == "session":
        return "session" if "data" not in obj else None
    if all(type(obj.get(c)) is str for c in _ROW_IDS[table]) and "data" in obj:
        return str(table)
    return None


def _session_row(d: dict[str, Any]) -> Message:
    # the other columns (and nulls of the modelled ones) go under "row", as for the others
    extra = {ROW: rest(d, frozenset(("id", "directory", "time_created")))}
    return InitMessage(
        cwd=opt_str(d, "directory"),
        session_id=need_str(d, "id"),
        timestamp=opt_time(d, "time_created"),
        extra=ev.frozen(extra),
    )


def _row(d: dict[str, Any], table: str) -> Message:
    """A message or part row: its document, rebuilt from the id columns and ``data``."""
    data = d["data"]
    keys = _ROW_KEYS[table]
    if type(data) is not dict or any(k in data for k in keys):  # kept whole
        return _raw_row(d)
    doc = {k: d[c] for k, c in zip(keys, _ROW_IDS[table], strict=True)}
    doc.update(data)
    message = _message(doc) if table == "message" else _part(doc)
    if isinstance(message, RawMessage) or ROW in message.extra:  # kept whole instead
        return _raw_row(d)
    merged = dict(raw(message.extra))
    merged[ROW] = {k: v for k, v in d.items() if k not in _ROW_IDS[table] and k != "data"}
    return replace(message, extra=ev.frozen(merged))


def _raw_row(d: dict[str, Any]) -> RawMessage:
    """A row kept whole, with its ids as context."""
    part = d.get("table") == "part"
    return RawMessage(
        wrap_owned(d),
        uuid=d["id"] if part else None,
        session_id=d["session_id"],
        message_id=d["message_id"] if part else d["id"],
    )


_DOCUMENTS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "session": _session,
    "message": _message,
    "part": _part,
}


def decode_record(obj: Any) -> Message:
    """One document or row to one message; anything else is kept whole as a raw record."""
    if type(obj) is not dict:
        raise fail("an object", obj)
    table = is_row(obj)
    if table == "session":
        return _session_row(obj)
    if table is not None:
        return _row(obj, table)
    kind = is_document(obj)
    tag = obj.get("type")
    if kind is None and type(tag) is str and tag in _MODELLED_PARTS and "part" not in obj:
        kind = "part"  # a part written without its ids (from another source's message)
    if kind is None:
        return ev.raw_line(obj)
    return _DOCUMENTS[kind](obj)


def session_of(obj: Any) -> str | None:
    """The session id a parsed document or row names, if any."""
    if type(obj) is not dict:
        return None
    if is_row(obj) == "session" or is_document(obj) == "session":
        value = obj.get("id")
    elif "table" in obj:
        value = obj.get("session_id")
    else:
        value = obj.get("sessionID")
    return value if type(value) is str else None
