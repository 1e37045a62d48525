"""Messages back to OpenCode's stored records: the inverse of :mod:`.documents`.

A message decoded from a document gives that document back; one decoded from a row (its
``extra`` holds the row's other columns under ``"row"``) gives the row back, its ``data``
column rebuilt from the document. Messages from other sources map to the nearest document.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import EncodeError
from ...events.run import InitMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _events as ev
from .. import _opencode_shape as oc
from .._common import refuse
from .._common import refuse_other
from .._common import tool_pair
from .documents import ROW

__all__ = ["encode_record", "writes_whole"]

_ROW_IDS: Final = {"message": ("id", "session_id"), "part": ("id", "message_id", "session_id")}
_DOC_IDS: Final = {"message": ("id", "sessionID"), "part": ("id", "messageID", "sessionID")}


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def _ids(m: Message, *, part: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if part:
        _put(out, "id", m.uuid)
        _put(out, "sessionID", m.session_id)
        _put(out, "messageID", m.message_id)
    else:
        _put(out, "id", m.message_id)
        _put(out, "sessionID", m.session_id)
    return out


def _timed(out: dict[str, Any], key: str, stamp: Any) -> dict[str, Any]:
    if stamp is not None:
        out["time"] = {key: stamp}
    return out


def _tool(m: Message, use: ToolUseBlock, result: ToolResultBlock | None, policy: Policy) -> Any:
    out = _ids(m, part=True)
    out["type"] = "tool"
    out["callID"] = use.id
    out["tool"] = use.name
    out["state"] = oc.tool_state(use, result, policy)
    return out


def _info(m: UserMessage | AssistantMessage) -> dict[str, Any]:
    out = _ids(m, part=False)
    out["role"] = m.role
    _timed(out, "created", m.timestamp)
    if isinstance(m, AssistantMessage):
        _put(out, "modelID", m.model)
        _put(out, "finish", m.stop_reason)
        if m.error is not None and "error" not in m.extra:
            out["error"] = {"name": "UnknownError", "data": {"message": m.error}}
        u = m.usage
        if u is not None:
            _put(out, "cost", u.cost_usd)
            tokens = oc.tokens_of(u)
            if tokens or u.extra:
                out["tokens"] = ev.overlay(tokens, u.extra)
    return out


def writes_whole(m: Message) -> bool:
    """Whether ``m`` is one record (else a role message is written as its info and parts)."""
    if isinstance(m, SystemMessage | ToolMessage):
        return False
    if isinstance(m, UserMessage | AssistantMessage):
        return not m.content or (isinstance(m, AssistantMessage) and tool_pair(m) is not None)
    return True


def _record(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case InitMessage():
            if m.tools is not None or m.model is not None:
                refuse(m, "an OpenCode session record has no tools or model", policy, degrade=False)
            out = {}
            _put(out, "id", m.session_id)
            _put(out, "directory", m.cwd)
            if isinstance(m.extra.get(ROW), FrozenDict):
                _put(out, "time_created", m.timestamp)
            else:
                _timed(out, "created", m.timestamp)
        case UserMessage() | AssistantMessage() if not m.content:
            out = _info(m)
        case AssistantMessage() if tool_pair(m) is not None:
            use, result = tool_pair(m)  # type: ignore[misc]
            out = _tool(m, use, result, policy)
        case TextMessage() | ThinkingMessage():
            out = _ids(m, part=True)
            if isinstance(m, TextMessage):
                if m.citations is not None:
                    refuse(m, "OpenCode text parts carry no citations", policy, degrade=False)
                out["type"] = "text"
                out["text"] = m.text
            else:
                out["type"] = "reasoning"
                out["text"] = m.thinking
                if m.signature is not None and "metadata" not in m.extra:
                    out["metadata"] = {"anthropic": {"signature": m.signature}}
            _timed(out, "start", m.timestamp)
        case ToolUseMessage():
            out = _tool(m, ToolUseBlock(m.id, m.name, m.input), None, policy)
        case ToolResultMessage():
            use = ToolUseBlock(m.tool_use_id, m.name or "")
            result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
            out = _tool(m, use, result, policy)
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return dict(raw(m.data))
        case SystemMessage() | ToolMessage():
            refuse(m, f"OpenCode's store has no {m.role} messages", policy, degrade=False)
            return None
        case UserMessage() | AssistantMessage() if len(as_blocks(m.content)) == 1:
            return _record(ev.single(m, policy.source), policy)
        case UserMessage() | AssistantMessage():
            raise EncodeError(
                f"a {m.kind} message with content is an OpenCode message record and one part"
                " record per block; use iter_encode, which writes them all",
                source=policy.source,
                value=m,
            )
        case _:  # raw content, media, server tools; results, errors, an agent's own records
            return refuse_other(m, "OpenCode's store has no record", policy, _record)
    return _as_row(ev.overlay(out, m.extra))


def _as_row(doc: dict[str, Any]) -> dict[str, Any]:
    """A document whose mirror says it came from a row, as that row again."""
    row = doc.pop(ROW, None)
    if type(row) is not dict:
        if row is not None:
            doc[ROW] = row
        return doc
    table = row.get("table")
    if table == "session":
        return {**doc, **row}
    if table not in _ROW_IDS:
        doc[ROW] = row
        return doc
    out: dict[str, Any] = {}
    for column, key in zip(_ROW_IDS[table], _DOC_IDS[table], strict=True):
        if key in doc:
            out[column] = doc.pop(key)
    out.update(row)
    out["data"] = doc
    return out


def encode_record(m: Message, policy: Policy) -> dict[str, Any] | None:
    """One message to one fresh document or row (``None`` when the policy drops it)."""
    return _record(m, policy)
