"""Claude Code transcript records, both ways (private half of :mod:`.claude_code`).

Besides the turns, a session transcript holds ``progress`` lines (reports on a hook, a
running command, a sub-agent at work), ``file-history-snapshot`` lines, ``summary`` lines
(a title for a branch) and ``queue-operation`` lines. They become the records of
:mod:`messages.events.records`: :class:`ProgressMessage`, :class:`FileSnapshotMessage`,
:class:`TitleMessage`, :class:`QueueOperationMessage`.

The rule of the harness events holds here too: these fields never make a line fail. A value
of the expected type fills the typed field; any other stays in ``extra`` and is written back
as it was. An ``agent_progress`` report carries the sub-agent's own line under
``data.message``: it is decoded with this adapter (so a reader sees the sub-agent's turn),
and kept in ``data`` as it was when it does not decode to a typed message.

Lines other than these never reach this module, so the usual assistant and user lines pay
nothing for it (one more entry in the decoder's dispatch table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import present
from ...errors import DecodeError
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import QueueOperationMessage
from ...events.records import TitleMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import RoleMessage
from ...roles import UserMessage

__all__ = [
    "LINE_TYPES",
    "RECORD_KINDS",
    "decode_progress",
    "decode_queue",
    "decode_snapshot",
    "decode_title",
    "decode_usual_progress",
    "progress_fields",
    "record_line",
    "unlinked",
    "usual_progress",
]

LINE_TYPES: Final = {
    ProgressMessage: "progress",
    FileSnapshotMessage: "file-history-snapshot",
    TitleMessage: "summary",
    QueueOperationMessage: "queue-operation",
}
"""The ``type`` of each record's line."""

RECORD_KINDS: Final = frozenset(LINE_TYPES)
"""The records this module writes as their own lines."""

Context = tuple[Any, Any, Any, Any]
"""uuid, session_id, parent_tool_use_id, timestamp: checked by the caller."""

_new_progress: Final = maker(ProgressMessage)
_new_snapshot: Final = maker(FileSnapshotMessage)
_new_title: Final = maker(TitleMessage)
_new_queue: Final = maker(QueueOperationMessage)


def _take(rest: dict[str, Any], key: str, kind: type) -> Any:
    """``rest[key]`` moved out when it is of type ``kind``; else ``None`` (it stays there)."""
    value = rest.get(key)
    if value is not None and type(value) is kind:
        del rest[key]
        return value
    return None


def _nested(inner: Any, decode: Callable[[Any], Message]) -> RoleMessage | None:
    """A sub-agent's user or assistant line as its message; ``None``: it stays in ``data``."""
    if type(inner) is not dict or type(inner.get("type")) is not str:
        return None
    try:
        message = decode(inner)
    except DecodeError:  # a report's fields never make the line fail
        return None
    return message if isinstance(message, UserMessage | AssistantMessage) else None


def usual_progress(obj: dict[str, Any]) -> tuple[Any, str, str, str, str, str, str] | None:
    """The parts of a transcript's usual ``progress`` line, else ``None``.

    ``data``, its ``type``, ``uuid``, ``timestamp``, ``sessionId``, ``parentToolUseID`` and
    ``toolUseID``, for a line :func:`decode_usual_progress` takes (see there); a reader that
    needs only some of them (``messages stats``: the session and time) can stop here.
    """
    data = obj.get("data")
    uuid = obj.get("uuid")
    ts = obj.get("timestamp")
    sid = obj.get("sessionId")
    tool_use_id = obj.get("parentToolUseID")
    progress_id = obj.get("toolUseID")
    if not (
        type(data) is dict
        and type(uuid) is str
        and type(ts) is str
        and type(sid) is str
        and type(tool_use_id) is str
        and type(progress_id) is str
        and "session_id" not in obj
        and "parent_tool_use_id" not in obj
        and "message" not in data
    ):
        return None
    subtype = data.get("type")
    if type(subtype) is not str:
        return None
    return data, subtype, uuid, ts, sid, tool_use_id, progress_id


def progress_fields(obj: Any) -> tuple[str, str, Any] | None:
    """The session id, timestamp and ``cwd`` of a transcript's usual ``progress`` line.

    For a parsed line that the decoder makes a :class:`ProgressMessage` of with no
    sub-agent message in it (:func:`usual_progress`), its ``session_id``, ``timestamp`` and
    ``extra["cwd"]`` (the value as it is, ``None`` when absent); ``None`` for any other line.
    Registered with ``_base.register_light``: what ``messages stats`` reads of such a line.

    >>> progress_fields({"type": "progress", "uuid": "u1", "timestamp": "2026-02-15T09:41:40Z",
    ...     "sessionId": "s1", "parentToolUseID": "t1", "toolUseID": "t1", "cwd": "/app",
    ...     "data": {"type": "hook_progress"}})
    ('s1', '2026-02-15T09:41:40Z', '/app')
    """
    if type(obj) is not dict or obj.get("type") != "progress":
        return None
    found = usual_progress(obj)
    return None if found is None else (found[4], found[3], obj.get("cwd"))


def decode_usual_progress(obj: dict[str, Any], owned: bool) -> Message | None:
    """A transcript's usual ``progress`` line (hook, bash, waiting: no message), directly.

    With a transcript's context (string ``uuid``, ``timestamp``, ``sessionId``, no
    stream-json context keys), string ids and a ``data`` object with a string ``type`` and
    no ``message``, it gives what the general path gives, without the context split; any
    other line gives ``None``. Progress lines are most of a 2.1 transcript (1,114 of 1,593
    lines in the shared capture). ``owned``: nobody else holds the line (``decode_owned``),
    so the line and its ``data`` become the extra and the data in place, not copied (nothing
    is changed before every check has passed).

    What it buys, in instructions a line under callgrind (JSON parsing included): the shared
    transcript decodes at 98.5k with it and 103.8k through the general path alone (91.9k
    when these lines stayed raw); its assistant and user lines are unchanged (190.4k, 190.2k
    before).
    """
    found = usual_progress(obj)
    if found is None:
        return None
    data, subtype, uuid, ts, sid, tool_use_id, progress_id = found
    if owned:
        rest, fields = obj, data
    else:
        rest, fields = obj.copy(), data.copy()
    del rest["uuid"], rest["timestamp"], rest["data"], rest["parentToolUseID"], rest["toolUseID"]
    del fields["type"]
    return _new_progress(
        subtype,
        wrap_owned(fields),
        tool_use_id,
        progress_id,
        None,
        uuid,
        sid,
        None,
        None,
        None,
        ts,
        wrap_owned(rest),
    )


def decode_progress(
    rest: dict[str, Any], context: Context, decode: Callable[[Any], Message]
) -> Message:
    """A ``progress`` line: ``rest`` is a copy of it less its set context fields."""
    subtype = message = data = None
    found = rest.get("data")
    if type(found) is dict:
        del rest["data"]
        fields = found.copy()
        subtype = _take(fields, "type", str)
        if "message" in fields:
            message = _nested(fields["message"], decode)
            if message is not None:
                del fields["message"]
        data = wrap_owned(fields)
    tool_use_id = _take(rest, "parentToolUseID", str)
    progress_id = _take(rest, "toolUseID", str)
    return _new_progress(
        subtype, data, tool_use_id, progress_id, message, **_by_name(context, rest)
    )


def decode_snapshot(rest: dict[str, Any], context: Context) -> Message:
    """A ``file-history-snapshot`` line (``rest`` as for :func:`decode_progress`)."""
    snapshot = _take(rest, "snapshot", dict)
    message_uuid = _take(rest, "messageId", str)
    is_update = _take(rest, "isSnapshotUpdate", bool)
    frozen = None if snapshot is None else wrap_owned(snapshot)
    return _new_snapshot(frozen, message_uuid, is_update, **_by_name(context, rest))


def decode_title(rest: dict[str, Any], context: Context) -> Message:
    """A ``summary`` line: a title for the branch ending at ``leafUuid``."""
    title = _take(rest, "summary", str)
    leaf = _take(rest, "leafUuid", str)
    return _new_title(title, leaf, **_by_name(context, rest))


def decode_queue(rest: dict[str, Any], context: Context) -> Message:
    """A ``queue-operation`` line: a prompt queued, taken or dropped."""
    operation = _take(rest, "operation", str)
    content = _take(rest, "content", str)
    return _new_queue(operation, content, **_by_name(context, rest))


def _by_name(context: Context, rest: dict[str, Any]) -> dict[str, Any]:
    """A record's context and the rest of its line (its extra), as a maker's keywords."""
    uuid, sid, parent, ts = context
    return {
        "uuid": uuid,
        "session_id": sid,
        "parent_tool_use_id": parent,
        "timestamp": ts,
        "extra": wrap_owned(rest),
    }


def unlinked(m: Message) -> str | None:
    """The link a record needs for a Claude Code line and lacks (``None``: it has it)."""
    if isinstance(m, TitleMessage) and m.leaf_uuid is None:
        return "leaf_uuid"
    if isinstance(m, FileSnapshotMessage) and m.message_uuid is None:
        return "message_uuid"
    return None


def record_line(m: Message, nested: Callable[[Message], Any]) -> dict[str, Any]:
    """The body of a record's line (``type`` and its fields; no context, no extra).

    ``nested`` writes a sub-agent's message back as its line.
    """
    out: dict[str, Any] = {"type": LINE_TYPES[type(m)]}
    if isinstance(m, ProgressMessage):
        data: dict[str, Any] = {}
        if m.subtype is not None:
            data["type"] = m.subtype
        if m.message is not None:
            line = nested(m.message)
            if line is not None:
                data["message"] = line
        if m.data is not None:
            data.update(raw(m.data))
        if data or m.data is not None:
            out["data"] = data
        if m.progress_id is not None:
            out["toolUseID"] = m.progress_id
        if m.tool_use_id is not None:
            out["parentToolUseID"] = m.tool_use_id
    elif isinstance(m, FileSnapshotMessage):
        out.update(
            present(
                messageId=m.message_uuid, snapshot=raw(m.snapshot), isSnapshotUpdate=m.is_update
            )
        )
    elif isinstance(m, TitleMessage):
        out.update(present(summary=m.title, leafUuid=m.leaf_uuid))
    elif isinstance(m, QueueOperationMessage):
        out.update(present(operation=m.operation, content=m.content))
    return out
