"""Codex exec --json events to messages: threads, turns and items."""

from __future__ import annotations

from collections.abc import Container
from typing import Any
from typing import Final

from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...errors import DecodeError
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...flat import RawMessage
from ...flat import ToolUseMessage
from ...message import Message
from .. import _base
from .._events import raw_line
from .app import decode_app
from .items import decode_item_event
from .items import decode_usage
from .rollout import Context
from .rollout import decode_rollout
from .rollout import is_rollout

__all__ = ["NAME", "decode", "detect"]


_Calls = dict[str, ToolUseMessage] | None
"""Tool calls already written by ``iter_encode``, by id (``None``: not known)."""

NAME: Final = "codex"
"""The format name used in errors and by the command line."""

_EXEC_TYPES: Final = frozenset(
    (
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
    )
)
_OWN_RECORDS: Final = frozenset(("error",))
"""Line types decoded from Codex that are neither exec events nor rollout envelopes."""
_ITEM_EVENTS: Final = {"item.started": False, "item.updated": False, "item.completed": True}
_APP_PREFIXES: Final = (
    "item/",
    "turn/",
    "thread/",
    "account/",
    "model/",
    "mcpServer/",
    "remoteControl/",
    "rawResponseItem/",
    "fuzzyFileSearch/",
    "windowsSandbox/",
)
_APP_METHODS: Final = frozenset(
    ("error", "warning", "configWarning", "deprecationNotice", "authStatusChange")
)


_new_init: Final = maker(InitMessage)
_new_result: Final = maker(ResultMessage)
_THREAD_ID: Final = frozenset(("thread_id",))
_USAGE_KEY: Final = frozenset(("usage",))


def _exec(obj: dict[str, Any], tag: Any, started: Container[str]) -> Message:
    if tag in _ITEM_EVENTS:
        completed = _ITEM_EVENTS[tag]
        return decode_item_event(obj, obj, completed=completed, seen=started, raw=raw_line)
    if tag == "thread.started":
        sid = opt_str(obj, "thread_id")
        extra = wrap_owned(rest(obj, _THREAD_ID))
        return _new_init(session_id=sid, extra=extra)
    if tag == "turn.completed":
        usage = opt_obj(obj, "usage")
        try:
            decoded = None if usage is None else decode_usage(usage)
        except DecodeError as exc:
            raise exc.within(".usage") from None
        extra = wrap_owned(rest(obj, _USAGE_KEY))
        return _new_result(is_error=False, usage=decoded, extra=extra)
    if tag == "turn.failed":
        error = obj.get("error")
        if type(error) is not dict:
            return raw_line(obj)
        try:
            text = opt_str(error, "message")
        except DecodeError as exc:
            raise exc.within(".error") from None
        skeleton = rest(obj, ("error",))
        skeleton["error"] = rest(error, ("message",))
        return ResultMessage(is_error=True, result=text, extra=wrap_owned(skeleton))
    if tag == "error" and type(obj.get("message")) is str:
        return ErrorMessage(obj["message"], extra=wrap_owned(rest(obj, ("message",))))
    return raw_line(obj)


def _decode(obj: Any, started: Container[str], context: Context) -> Message:
    if type(obj) is not dict:
        return RawMessage(expose_owned(obj))
    try:
        if is_rollout(obj):
            return decode_rollout(obj, context)
        if "type" in obj:
            tag = obj["type"]
            return _exec(obj, tag, started) if type(tag) is str else raw_line(obj)
        return decode_app(obj, started)
    except DecodeError as exc:
        if exc.source is None:
            exc.source = NAME
        raise


def decode(obj: Any, *, started: Container[str] = frozenset()) -> Message:
    """One parsed Codex line (exec event or app-server JSON-RPC) to one message.

    ``started`` holds the ids of tool calls whose start the caller has already decoded (a
    ToolUseMessage with that id): a later started or updated event of such a call decodes
    to a :class:`StreamEventMessage`, and its completed event to the
    :class:`ToolResultMessage` alone. Without it (the default) every tool event stands on
    its own: started or updated gives the call, completed the call with its result.
    :func:`iter_decode` keeps this set itself. Either way ``encode(decode(x))`` gives ``x``.

    A session rollout line (``{"timestamp", "type", "payload"}``) decodes on its own here: the
    stream context :func:`iter_decode` adds (the turn's model, a token count that only restates
    the one before it) needs the lines before it.

    Unknown events and shapes this module does not model become :class:`RawMessage`; a known
    field of the wrong type raises :class:`DecodeError` with its path.
    """
    return _decode(obj, started, Context())


def detect(obj: Any) -> bool:
    """Whether a parsed line is Codex's: an exec event, app-server JSON-RPC, a rollout line."""
    if type(obj) is not dict or _base.is_native(obj):
        return False
    if is_rollout(obj):
        return True
    tag = obj.get("type")
    if tag is not None:
        if type(tag) is not str:
            return False
        if tag in _EXEC_TYPES:
            return True
        return tag == "error" and obj.keys() == {"type", "message"}
    method = obj.get("method")
    return type(method) is str and (method.startswith(_APP_PREFIXES) or method in _APP_METHODS)
