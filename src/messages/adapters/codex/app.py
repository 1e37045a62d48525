"""Codex app-server JSON-RPC lines (``codex app-server``, v2 protocol), both ways.

Notifications ``{"method": ..., "params": {...}}`` that carry content or outcomes are typed:

- ``item/started``, ``item/updated``, ``item/completed`` -> see :mod:`.items` (the
  first sighting of a tool call is a ToolUseMessage; other started and updated events are
  previews, kept as StreamEventMessage);
- item progress notifications: ``item/agentMessage/delta``, ``item/reasoning/textDelta``,
  ``item/reasoning/summaryTextDelta``, ``item/commandExecution/outputDelta``... (any
  ``item/...`` notification naming an ``itemId``) -> StreamEventMessage, verbatim, with
  ``message_id`` = ``itemId``: the item's completed event repeats their content whole, so
  decoding them as text too would make the flat view say it twice;
- ``turn/completed`` -> ResultMessage (``subtype`` = turn status, ``is_error``, ``duration_ms``,
  ``result`` = the turn's error message: read-only views of ``params.turn``);
- ``thread/started`` -> InitMessage (``session_id``, ``cwd``, views of ``params.thread``);
- ``error`` -> ErrorMessage (``will_retry`` from ``willRetry``; message and code are views);
- ``thread/compacted`` -> CompactBoundaryMessage (the thread's history was compacted).

``threadId`` is read into ``session_id``. Requests and responses (lines with an ``id``), other
notifications and anything unexpected stay RawMessage. ``extra`` holds the line with the
modelled values taken out (``method``, the rest of ``params``, the rest of the item).
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any
from typing import Final

from ..._core.make import wrap_owned
from ..._core.wire import opt_bool
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...errors import DecodeError
from ...events.agent import CompactBoundaryMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from .items import decode_item_event
from .items import encode_item

__all__ = ["decode_app", "encode_app", "raw_line"]

_ITEMS: Final = {"item/started": False, "item/updated": False, "item/completed": True}
_ITEM_TYPES: Final = (
    TextMessage,
    ThinkingMessage,
    UserMessage,
    ErrorMessage,
    ToolUseMessage,
    ToolResultMessage,
    AssistantMessage,
)


def _thread_id(params: dict[str, Any]) -> str | None:
    v = params.get("threadId")
    return v if type(v) is str else None


def raw_line(obj: dict[str, Any]) -> RawMessage:
    """A line kept verbatim, with its thread id as ``session_id`` when it has one."""
    params = obj.get("params")
    sid = _thread_id(params) if type(params) is dict else None
    return RawMessage(wrap_owned(obj), session_id=sid)


def _view(d: Any, key: str) -> Any:
    return d.get(key) if type(d) is dict else None


def decode_app(obj: dict[str, Any], started: Container[str] = frozenset()) -> Message:
    """One app-server line (no ``type`` key) to a message.

    ``started`` holds the ids of tool calls already decoded from this stream (see
    :func:`.items.decode_item`).
    """
    method = obj.get("method")
    params = obj.get("params")
    if type(method) is not str or "id" in obj or type(params) is not dict:
        return raw_line(obj)
    try:
        return _notification(obj, method, params, started)
    except DecodeError as exc:
        raise exc.within(".params") from None


def _preview(obj: dict[str, Any], params: dict[str, Any], message_id: str | None) -> Message:
    return StreamEventMessage(
        wrap_owned(obj), session_id=opt_str(params, "threadId"), message_id=message_id
    )


def _notification(
    obj: dict[str, Any], method: str, params: dict[str, Any], started: Container[str]
) -> Message:
    if method in _ITEMS:
        completed = _ITEMS[method]
        return decode_item_event(obj, params, completed=completed, seen=started, raw=raw_line)
    skeleton = rest(obj, ("params",))
    if method.startswith("item/") and "itemId" in params:
        return _preview(obj, params, opt_str(params, "itemId"))
    sid = opt_str(params, "threadId")
    if method == "turn/completed":
        skeleton["params"] = rest(params, ("threadId",))
        turn = params.get("turn")
        status = _view(turn, "status")
        duration = _view(turn, "durationMs")
        error = _view(_view(turn, "error"), "message")
        return ResultMessage(
            subtype=status if type(status) is str else None,
            is_error=status == "failed" if type(status) is str else None,
            duration_ms=duration if type(duration) in (int, float) else None,
            result=error if type(error) is str else None,
            session_id=sid,
            extra=wrap_owned(skeleton),
        )
    if method == "thread/started":
        skeleton["params"] = params
        thread = params.get("thread")
        tid, cwd = _view(thread, "id"), _view(thread, "cwd")
        return InitMessage(
            session_id=tid if type(tid) is str else None,
            cwd=cwd if type(cwd) is str else None,
            extra=wrap_owned(skeleton),
        )
    if method == "thread/compacted":
        skeleton["params"] = rest(params, ("threadId",))
        return CompactBoundaryMessage(session_id=sid, extra=wrap_owned(skeleton))
    if method == "error":
        message = _view(params.get("error"), "message")
        if type(message) is not str:
            return raw_line(obj)
        code = _view(params.get("error"), "codexErrorInfo")
        skeleton["params"] = rest(params, ("threadId", "willRetry"))
        return ErrorMessage(
            message,
            code=code if type(code) is str else None,
            will_retry=opt_bool(params, "willRetry"),
            session_id=sid,
            extra=wrap_owned(skeleton),
        )
    return raw_line(obj)


def encode_app(m: Message, ex: dict[str, Any]) -> dict[str, Any] | None:
    """A message decoded from an app-server line back to it; ``None`` if ``m`` does not fit."""
    method = ex.get("method")
    params_rest = ex.get("params")
    if type(params_rest) is not dict:
        return None
    params: dict[str, Any] = {}
    if m.session_id is not None and method != "thread/started":
        params["threadId"] = m.session_id
    item: dict[str, Any] | None = None
    if method in _ITEMS and isinstance(m, _ITEM_TYPES):
        item_rest = params_rest.get("item")
        item = encode_item(m, item_rest if type(item_rest) is dict else None, True)
        if item is None:
            return None
    elif method == "error" and isinstance(m, ErrorMessage):
        if m.will_retry is not None:
            params["willRetry"] = m.will_retry
    elif not (
        (method == "turn/completed" and isinstance(m, ResultMessage))
        or (method == "thread/started" and isinstance(m, InitMessage))
        or (method == "thread/compacted" and isinstance(m, CompactBoundaryMessage))
    ):
        return None
    params.update(params_rest)
    if item is not None:
        params["item"] = item
    out = dict(ex)
    out["params"] = params
    return out
