"""Claude Code lines: decoding (private half of :mod:`.claude_code`).

Every known line type has a fast path for the exact shape Claude Code writes on almost every
line (one key-set comparison replaces a read, a check and a copy per field) and a general
path for any other shape; both give the same message. Messages are built with
:func:`messages._core.make.maker` from values that are checked and frozen here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import opt_bool
from ..._core.wire import opt_int
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...blocks import Block
from ...errors import DecodeError
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from ...usage import Usage
from .._base import register_light
from .._base import register_owned
from .._common import decode_content
from .events import decode_rate_limit
from .events import decode_reset
from .events import decode_system
from .events import decode_usual_rate_limit
from .events import decode_usual_system
from .events import result_details
from .events import user_details
from .output import is_output
from .output import marked
from .records import decode_progress
from .records import decode_queue
from .records import decode_snapshot
from .records import decode_title
from .records import decode_usual_progress
from .records import progress_fields

__all__ = ["decode", "decode_owned"]

NAME: Final = "claude_code"

_CTX: Final = ("uuid", "session_id", "parent_tool_use_id", "timestamp")
_TIMESTAMP_TYPES: Final = (str, int, float)
_ASSISTANT: Final = frozenset((*_CTX, "message", "error"))
_USER: Final = frozenset((*_CTX, "message"))
_RESULT: Final = frozenset(
    (
        *_CTX,
        "subtype",
        "result",
        "is_error",
        "duration_ms",
        "duration_api_ms",
        "num_turns",
        "total_cost_usd",
        "usage",
        "structured_output",
    )
)
_INIT: Final = frozenset((*_CTX, "cwd", "tools", "model"))
_USAGE: Final = frozenset(
    ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
)


_new_assistant: Final = maker(AssistantMessage)
_new_user: Final = maker(UserMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_usage: Final = maker(Usage)
_new_raw: Final = maker(RawMessage)
_new_result: Final = maker(ResultMessage)
_new_init: Final = maker(InitMessage)

_NO_USER_DETAILS: Final = (None, None, None)
"""summary, origin, tool_use_result of a user line that has none of them."""

_STREAM_EXTRA: Final = wrap_owned({"type": "stream_event", "parent_tool_use_id": None})
"""The extra of almost every stream_event line, shared rather than built per line."""

_Context = tuple[Any, Any, Any, Any]
"""uuid, session_id, parent_tool_use_id, timestamp."""


def _checked_context(obj: dict[str, Any]) -> _Context:
    """The context with checked reads: raises with the path of an ill-typed field."""
    sid_key = "sessionId" if "sessionId" in obj else "session_id"
    return (
        opt_str(obj, "uuid"),
        opt_str(obj, sid_key),
        opt_str(obj, "parent_tool_use_id"),
        opt_time(obj),
    )


def _split(obj: dict[str, Any], more: tuple[str, ...] = ()) -> tuple[dict[str, Any], _Context]:
    """The line's context, and a copy of the line without the context fields that are set.

    A null context field stays in the copy (for exact replay); a transcript's ``sessionId``
    stays too. Keys named in ``more`` are removed from the copy unless null, like context.
    """
    rest = obj.copy()
    pop = rest.pop
    uuid = pop("uuid", None)
    sid = obj["sessionId"] if "sessionId" in obj else pop("session_id", None)
    parent = obj.get("parent_tool_use_id")
    ts = obj.get("timestamp")
    if not (
        (uuid is None or type(uuid) is str)
        and (sid is None or type(sid) is str)
        and (parent is None or type(parent) is str)
        and (ts is None or type(ts) in _TIMESTAMP_TYPES)
    ):
        return rest, _checked_context(obj)  # raises, naming the ill-typed field
    if uuid is None and "uuid" in obj:
        rest["uuid"] = None
    if sid is None and "session_id" in obj:
        rest["session_id"] = None
    if parent is not None:
        del rest["parent_tool_use_id"]
    if ts is not None:
        del rest["timestamp"]
    for key in more:
        if rest.get(key) is not None:
            del rest[key]
    return rest, (uuid, sid, parent, ts)


def _raw(obj: dict[str, Any]) -> RawMessage:
    """A line kept verbatim, with whatever context fields it has that are well typed."""
    uuid = obj.get("uuid")  # the reads of _checked_context, checked together
    sid = obj["sessionId"] if "sessionId" in obj else obj.get("session_id")
    parent = obj.get("parent_tool_use_id")
    ts = obj.get("timestamp")
    if not (
        (uuid is None or type(uuid) is str)
        and (sid is None or type(sid) is str)
        and (parent is None or type(parent) is str)
        and (ts is None or type(ts) in _TIMESTAMP_TYPES)
    ):
        uuid = sid = parent = ts = None  # an ill-typed one: none of them is kept
    return _new_raw(wrap_owned(obj), None, uuid, sid, parent, None, None, ts, EMPTY)


_USAGE_KEYS: Final = frozenset(
    (
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "cache_creation",
        "output_tokens",
        "service_tier",
        "inference_geo",
    )
)


def _usage(d: dict[str, Any]) -> Usage:
    if d.keys() == _USAGE_KEYS:  # the usual shape
        inp = d["input_tokens"]
        out = d["output_tokens"]
        read = d["cache_read_input_tokens"]
        write = d["cache_creation_input_tokens"]
        if type(inp) is int and type(out) is int and type(read) is int and type(write) is int:
            rest = {
                "cache_creation": d["cache_creation"],
                "service_tier": d["service_tier"],
                "inference_geo": d["inference_geo"],
            }
            return _new_usage(inp, out, read, write, None, None, wrap_owned(rest))
    elif d.keys() >= _USAGE:  # a result line's usage: the four counts and more beside them
        inp = d["input_tokens"]
        out = d["output_tokens"]
        read = d["cache_read_input_tokens"]
        write = d["cache_creation_input_tokens"]
        if type(inp) is int and type(out) is int and type(read) is int and type(write) is int:
            rest = d.copy()  # what _usage_any keeps when the four are set: the others, in order
            del rest["input_tokens"], rest["output_tokens"]
            del rest["cache_read_input_tokens"], rest["cache_creation_input_tokens"]
            return _new_usage(
                inp, out, read, write, None, None, wrap_owned(rest) if rest else EMPTY
            )
    return _usage_any(d)


def _usage_any(d: dict[str, Any]) -> Usage:
    rest = d.copy()
    pop = rest.pop
    inp = pop("input_tokens", None)
    out = pop("output_tokens", None)
    read = pop("cache_read_input_tokens", None)
    write = pop("cache_creation_input_tokens", None)
    if not (
        (inp is None or type(inp) is int)
        and (out is None or type(out) is int)
        and (read is None or type(read) is int)
        and (write is None or type(write) is int)
    ):
        for key in _USAGE:
            opt_int(d, key)  # raises, naming the ill-typed field
    if inp is None and "input_tokens" in d:
        rest["input_tokens"] = None
    if out is None and "output_tokens" in d:
        rest["output_tokens"] = None
    if read is None and "cache_read_input_tokens" in d:
        rest["cache_read_input_tokens"] = None
    if write is None and "cache_creation_input_tokens" in d:
        rest["cache_creation_input_tokens"] = None
    return _new_usage(inp, out, read, write, None, None, wrap_owned(rest) if rest else EMPTY)


def _opt_usage(d: dict[str, Any]) -> Usage | None:
    u = opt_obj(d, "usage")
    if u is None:
        return None
    try:
        return _usage(u)
    except DecodeError as exc:
        raise exc.within(".usage") from None


def _content(inner: dict[str, Any]) -> str | tuple[Block, ...]:
    content = inner["content"]
    if type(content) is str:
        return content
    if type(content) is not list:
        raise fail("a string or an array of blocks", content, "content")
    try:
        return decode_content(content)
    except DecodeError as exc:
        raise exc.within(".content") from None


def _inner(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The nested ``message`` object; ``None`` when it (or its content) is missing."""
    inner = obj.get("message")
    if inner is None and "message" not in obj:
        return None
    if type(inner) is not dict:
        raise fail("an object", inner, "message")
    return inner if "content" in inner else None


def _assistant_any(obj: dict[str, Any]) -> Message:
    inner = _inner(obj)
    if inner is None:
        return _raw(obj)
    try:
        content = _content(inner)
        usage = _opt_usage(inner)
        rest = inner.copy()
        del rest["content"]
        pop = rest.pop
        model = pop("model", None)
        message_id = pop("id", None)
        stop_reason = pop("stop_reason", None)
        if not (
            (model is None or type(model) is str)
            and (message_id is None or type(message_id) is str)
            and (stop_reason is None or type(stop_reason) is str)
        ):
            opt_str(inner, "model"), opt_str(inner, "id"), opt_str(inner, "stop_reason")
    except DecodeError as exc:
        raise exc.within(".message") from None
    if usage is not None:
        del rest["usage"]
    if model is None and "model" in inner:
        rest["model"] = None
    if message_id is None and "id" in inner:
        rest["id"] = None
    if stop_reason is None and "stop_reason" in inner:
        rest["stop_reason"] = None
    error = opt_str(obj, "error")
    extra, (uuid, sid, parent, ts) = _split(obj, ("error",))
    extra["message"] = rest
    return _new_assistant(
        content,
        usage,
        stop_reason,
        error,
        uuid,
        sid,
        parent,
        model,
        message_id,
        ts,
        wrap_owned(extra),
    )


def _user_any(obj: dict[str, Any]) -> Message:
    inner = _inner(obj)
    if inner is None:
        return _raw(obj)
    try:
        content = _content(inner)
    except DecodeError as exc:
        raise exc.within(".message") from None
    rest = inner.copy()
    del rest["content"]
    extra, (uuid, sid, parent, ts) = _split(obj)
    extra["message"] = rest
    details = user_details(extra) or _NO_USER_DETAILS
    return _new_user(content, uuid, sid, parent, None, None, ts, wrap_owned(extra), *details)


_RESULT_USUAL: Final = frozenset(
    (
        "subtype",
        "is_error",
        "duration_ms",
        "duration_api_ms",
        "num_turns",
        "result",
        "session_id",
        "total_cost_usd",
        "usage",
        "uuid",
    )
)
"""The keys of every result line Claude Code writes on success (with more beside them)."""
_RESULT_UNUSUAL: Final = frozenset(
    ("parent_tool_use_id", "timestamp", "structured_output", "sessionId")
)
_NUMBER_TYPES: Final = (int, float)


def _result(obj: dict[str, Any]) -> Message:
    keys = obj.keys()
    if keys >= _RESULT_USUAL and keys.isdisjoint(_RESULT_UNUSUAL):
        # The usual line: every modelled field set, no timestamp, parent or structured
        # output. One type check per field replaces a checked read each, and the extra is a
        # C copy less ten keys (what wire.rest gives when none of them is null).
        subtype = obj["subtype"]
        result = obj["result"]
        is_error = obj["is_error"]
        duration_ms = obj["duration_ms"]
        duration_api_ms = obj["duration_api_ms"]
        num_turns = obj["num_turns"]
        cost = obj["total_cost_usd"]
        usage = obj["usage"]
        uuid = obj["uuid"]
        sid = obj["session_id"]
        if (
            type(subtype) is str
            and type(result) is str
            and type(is_error) is bool
            and type(duration_ms) in _NUMBER_TYPES
            and type(duration_api_ms) in _NUMBER_TYPES
            and type(num_turns) is int
            and type(cost) in _NUMBER_TYPES
            and type(usage) is dict
            and type(uuid) is str
            and type(sid) is str
        ):
            try:
                used = _usage(usage)
            except DecodeError as exc:
                raise exc.within(".usage") from None
            extra = obj.copy()
            del extra["subtype"], extra["result"], extra["is_error"], extra["duration_ms"]
            del extra["duration_api_ms"], extra["num_turns"], extra["total_cost_usd"]
            del extra["usage"], extra["uuid"], extra["session_id"]
            run = (subtype, result, is_error, duration_ms, duration_api_ms, num_turns, cost, used)
            return _run_result(run, None, (uuid, sid, None, None), extra)
    return _result_any(obj)


def _result_any(obj: dict[str, Any]) -> Message:
    structured = obj.get("structured_output")
    subtype = opt_str(obj, "subtype")
    result = opt_str(obj, "result")
    is_error = opt_bool(obj, "is_error")
    duration_ms = opt_num(obj, "duration_ms")
    duration_api_ms = opt_num(obj, "duration_api_ms")
    num_turns = opt_int(obj, "num_turns")
    cost = opt_num(obj, "total_cost_usd")
    usage = _opt_usage(obj)
    context = _checked_context(obj)
    run = (subtype, result, is_error, duration_ms, duration_api_ms, num_turns, cost, usage)
    return _run_result(run, expose_owned(structured), context, rest(obj, _RESULT))


def _run_result(
    run: tuple[Any, ...], structured: Any, context: _Context, extra: dict[str, Any]
) -> Message:
    """A result message from its first eight fields (``run``: subtype to usage) and the rest.

    ``extra`` is the line less its modelled fields; the run details are moved out of it.
    """
    uuid, sid, parent, ts = context
    details = result_details(extra)
    return _new_result(
        *run, structured, uuid, sid, parent, None, None, ts, wrap_owned(extra), *details
    )


def _tools(tools: list[Any]) -> tuple[Any, ...]:
    """An init line's tool list in its frozen form (usually names only: a plain tuple)."""
    try:
        "".join(tools)  # in C: raises unless every item is a string (owned JSON: exactly str)
    except TypeError:
        return tuple([expose_owned(t) for t in tools])
    return tuple(tools)


def _system(obj: dict[str, Any]) -> Message:
    subtype = obj.get("subtype")
    if subtype != "init":
        if type(subtype) is not str:
            return _raw(obj)
        usual = decode_usual_system(obj)
        if usual is not None:
            return usual
        remainder, context = _split(obj)
        return decode_system(obj, remainder, context)
    keys = obj.keys()
    if keys >= _INIT_USUAL and keys.isdisjoint(_INIT_UNUSUAL):
        # The usual init line: cwd, tools, model, uuid and session id all set, no timestamp
        # or parent; the extra is a C copy less those five keys (wire.rest's result then).
        cwd = obj["cwd"]
        tools = obj["tools"]
        model = obj["model"]
        uuid = obj["uuid"]
        sid = obj["session_id"]
        if (
            type(cwd) is str
            and type(tools) is list
            and type(model) is str
            and type(uuid) is str
            and type(sid) is str
        ):
            extra = obj.copy()
            del extra["cwd"], extra["tools"], extra["model"], extra["uuid"], extra["session_id"]
            return _new_init(
                cwd, _tools(tools), uuid, sid, None, model, None, None, wrap_owned(extra)
            )
    return _init_any(obj)


_INIT_USUAL: Final = frozenset(("cwd", "tools", "model", "uuid", "session_id"))
_INIT_UNUSUAL: Final = frozenset(("parent_tool_use_id", "timestamp", "sessionId"))


def _init_any(obj: dict[str, Any]) -> Message:
    tools = obj.get("tools")
    if tools is not None and type(tools) is not list:
        raise fail("an array", tools, "tools")
    cwd = opt_str(obj, "cwd")
    model = opt_str(obj, "model")
    uuid, sid, parent, ts = _checked_context(obj)
    return _new_init(
        cwd,
        None if tools is None else _tools(tools),
        uuid,
        sid,
        parent,
        model,
        None,
        ts,
        wrap_owned(rest(obj, _INIT)),
    )


def _stream_event_any(obj: dict[str, Any]) -> Message:
    event = obj.get("event")
    if event is None and "event" not in obj:
        return _raw(obj)
    if type(event) is not dict:
        raise fail("an object", event, "event")
    rest, (uuid, sid, parent, ts) = _split(obj)
    del rest["event"]
    extra = _STREAM_EXTRA if rest == _STREAM_EXTRA._d else wrap_owned(rest)
    return _new_stream(wrap_owned(event), uuid, sid, parent, None, None, ts, extra)


# Fast paths for the exact shapes Claude Code writes on almost every line: one key-set
# comparison (in C) replaces a read, a check and a copy per field. Any other shape takes the
# general path above, which gives the same message for these shapes too.
_ASSISTANT_KEYS: Final = frozenset(
    ("type", "message", "parent_tool_use_id", "session_id", "uuid", "request_id")
)
_ASSISTANT_INNER_KEYS: Final = frozenset(
    (
        "model",
        "id",
        "type",
        "role",
        "content",
        "stop_reason",
        "stop_sequence",
        "stop_details",
        "usage",
        "diagnostics",
        "context_management",
    )
)
_USER_INNER_KEYS: Final = frozenset(("role", "content"))
_STREAM_KEYS: Final = frozenset(("type", "event", "session_id", "parent_tool_use_id", "uuid"))
_STREAM_CHILD_EXTRA: Final = wrap_owned({"type": "stream_event"})


def _assistant_usual(obj: dict[str, Any], owned: bool) -> Message | None:
    """An assistant line of the exact shape Claude Code writes; ``None`` for any other.

    ``owned``: the line was parsed by :func:`decode_owned`'s caller and nobody else holds
    it, so its two objects become the extra in place instead of being copied (nothing is
    changed before every check has passed).
    """
    inner = obj.get("message")
    if not (
        type(inner) is dict
        and obj.keys() == _ASSISTANT_KEYS
        and inner.keys() == _ASSISTANT_INNER_KEYS
    ):
        return None
    uuid = obj["uuid"]
    sid = obj["session_id"]
    model = inner["model"]
    message_id = inner["id"]
    stop_reason = inner["stop_reason"]
    content = inner["content"]
    usage = inner["usage"]
    if not (
        type(uuid) is str
        and type(sid) is str
        and obj["parent_tool_use_id"] is None
        and type(model) is str
        and type(message_id) is str
        and (stop_reason is None or type(stop_reason) is str)
        and type(content) is list
        and type(usage) is dict
    ):
        return None
    try:
        blocks = decode_content(content)
    except DecodeError as exc:
        raise exc.within(".message.content") from None
    try:
        turn_usage = _usage(usage)
    except DecodeError as exc:
        raise exc.within(".message.usage") from None
    if owned:
        rest = inner
        extra = obj
    else:
        rest = inner.copy()
        extra = obj.copy()
        extra["message"] = rest
    del rest["content"], rest["model"], rest["id"], rest["usage"]
    if stop_reason is not None:
        del rest["stop_reason"]
    del extra["uuid"], extra["session_id"]
    return _new_assistant(
        blocks,
        turn_usage,
        stop_reason,
        None,
        uuid,
        sid,
        None,
        model,
        message_id,
        None,
        wrap_owned(extra),
    )


def _assistant(obj: dict[str, Any]) -> Message:
    usual = _assistant_usual(obj, False)
    return _assistant_any(obj) if usual is None else usual


def _user(obj: dict[str, Any]) -> Message:
    inner = obj.get("message")
    if type(inner) is dict and inner.keys() == _USER_INNER_KEYS:
        content = inner["content"]
        blocks: str | tuple[Block, ...]
        if type(content) is list:
            try:
                blocks = decode_content(content)
            except DecodeError as exc:
                raise exc.within(".message.content") from None
        elif type(content) is str:
            blocks = content
        else:
            return _user_any(obj)
        keys = obj.keys()
        if keys in (_USER_KEYS, _USER_RESULT_KEYS):  # the lines of a stream-json run
            uuid = obj["uuid"]
            sid = obj["session_id"]
            parent = obj["parent_tool_use_id"]
            ts = obj["timestamp"]
            if (
                type(uuid) is str
                and type(sid) is str
                and (parent is None or type(parent) is str)
                and type(ts) is str
            ):
                extra = obj.copy()  # what _split and user_details leave, in the line's order
                del extra["uuid"], extra["session_id"], extra["timestamp"]
                if parent is not None:
                    del extra["parent_tool_use_id"]
                extra["message"] = {"role": inner["role"]}
                result = extra.get("tool_use_result")
                if result is not None:
                    del extra["tool_use_result"]
                    result = expose_owned(result)
                return _new_user(
                    blocks, uuid, sid, parent, None, None, ts, wrap_owned(extra), None, None, result
                )
        elif keys == _PROMPT_KEYS:  # a prompt line written by the caller: no context at all
            extra = obj.copy()
            extra["message"] = {"role": inner["role"]}
            return _new_user(
                blocks, None, None, None, None, None, None, wrap_owned(extra), None, None, None
            )
        extra, (uuid, sid, parent, ts) = _split(obj)
        extra["message"] = {"role": inner["role"]}
        details = user_details(extra) or _NO_USER_DETAILS  # origin, tool_use_result...
        return _new_user(blocks, uuid, sid, parent, None, None, ts, wrap_owned(extra), *details)
    return _user_any(obj)


_USER_KEYS: Final = frozenset(
    ("type", "message", "parent_tool_use_id", "session_id", "uuid", "timestamp")
)
_USER_RESULT_KEYS: Final = _USER_KEYS | {"tool_use_result"}
_PROMPT_KEYS: Final = frozenset(("type", "message"))


def _stream_event(obj: dict[str, Any]) -> Message:
    event = obj.get("event")
    if type(event) is dict and obj.keys() == _STREAM_KEYS:
        uuid = obj["uuid"]
        sid = obj["session_id"]
        parent = obj["parent_tool_use_id"]
        if type(uuid) is str and type(sid) is str:
            if parent is None:
                return _new_stream(
                    wrap_owned(event), uuid, sid, None, None, None, None, _STREAM_EXTRA
                )
            if type(parent) is str:
                return _new_stream(
                    wrap_owned(event), uuid, sid, parent, None, None, None, _STREAM_CHILD_EXTRA
                )
    return _stream_event_any(obj)


def _rate_limit(obj: dict[str, Any]) -> Message:
    usual = decode_usual_rate_limit(obj)
    if usual is not None:
        return usual
    remainder, context = _split(obj)
    return decode_rate_limit(obj, remainder, context)


def _reset(obj: dict[str, Any]) -> Message:
    remainder, context = _split(obj)
    return decode_reset(obj, remainder, context)


def _progress(obj: dict[str, Any]) -> Message:
    usual = decode_usual_progress(obj, False)
    if usual is not None:
        return usual
    remainder, context = _split(obj)
    return decode_progress(remainder, context, decode)


def _snapshot(obj: dict[str, Any]) -> Message:
    remainder, context = _split(obj)
    return decode_snapshot(remainder, context)


def _title(obj: dict[str, Any]) -> Message:
    remainder, context = _split(obj)
    return decode_title(remainder, context)


def _queue(obj: dict[str, Any]) -> Message:
    remainder, context = _split(obj)
    return decode_queue(remainder, context)


_DECODERS: Final[dict[Any, Callable[[dict[str, Any]], Message]]] = {
    "assistant": _assistant,
    "user": _user,
    "result": _result,
    "system": _system,
    "stream_event": _stream_event,
    "rate_limit_event": _rate_limit,
    "conversation_reset": _reset,
    "progress": _progress,
    "file-history-snapshot": _snapshot,
    "summary": _title,
    "queue-operation": _queue,
}


def _dispatch(obj: dict[str, Any], tag: Any) -> Message:
    """A line through its type's decoder; kept whole for an unknown type or two session ids."""
    try:
        decoder = _DECODERS.get(tag)
    except TypeError:  # an unhashable type
        decoder = None
    if decoder is None or ("sessionId" in obj and "session_id" in obj):
        return _raw(obj)
    try:
        return decoder(obj)
    except DecodeError as exc:
        if exc.source is None:
            exc.source = NAME
        raise


def decode_owned(obj: Any) -> Message | tuple[Message, ...]:
    """:func:`decode` for a line its caller parsed and gives up (``_base.iter_decode``).

    The same message as :func:`decode`; the usual assistant line (a third of a stream)
    becomes its extra in place instead of being copied, which :func:`decode` may not do to
    its caller's object. Both end in :func:`_dispatch` (the call costs nothing measurable
    on the Claude Code benchmark). The JSON array of ``--output-format json --verbose``
    gives its items, marked (:mod:`.output`), where :func:`decode` keeps it whole.
    """
    if type(obj) is not dict:
        return _items(obj) if is_output(obj) else RawMessage(expose_owned(obj))
    tag = obj.get("type")
    if tag == "stream_event":
        if obj.keys() == _STREAM_KEYS:  # half of all lines: inlined, as in decode
            event = obj["event"]
            uuid = obj["uuid"]
            sid = obj["session_id"]
            if (
                type(event) is dict
                and type(uuid) is str
                and type(sid) is str
                and obj["parent_tool_use_id"] is None
            ):
                return _new_stream(
                    wrap_owned(event), uuid, sid, None, None, None, None, _STREAM_EXTRA
                )
    elif tag == "assistant":
        try:
            usual = _assistant_usual(obj, True)
        except DecodeError as exc:
            if exc.source is None:
                exc.source = NAME
            raise
        if usual is not None:
            return usual
    elif tag == "progress":  # most of a 2.1 transcript: its line becomes the extra in place
        usual = decode_usual_progress(obj, True)
        if usual is not None:
            return usual
    return _dispatch(obj, tag)


def _items(items: list[dict[str, Any]]) -> tuple[Message, ...]:
    """The items of a run's JSON array, each read as its line; an error names its item."""
    out: list[Message] = []
    for i, item in enumerate(items):
        try:
            out.append(decode_owned(item))  # type: ignore[arg-type]
        except DecodeError as exc:
            raise exc.within(f"[{i}]") from None
    return marked(out)


def decode(obj: Any) -> Message:
    """One parsed Claude Code line (stream-json or transcript) to one message.

    Unknown line types and shapes this module does not model become :class:`RawMessage`;
    a known field of the wrong type raises :class:`DecodeError` with its path.
    """
    if type(obj) is not dict:
        return RawMessage(expose_owned(obj))
    tag = obj.get("type")
    if tag == "stream_event" and obj.keys() == _STREAM_KEYS:  # half of all lines: inlined
        event = obj["event"]
        uuid = obj["uuid"]
        sid = obj["session_id"]
        if type(event) is dict and type(uuid) is str and type(sid) is str:
            parent = obj["parent_tool_use_id"]
            if parent is None:
                return _new_stream(
                    wrap_owned(event), uuid, sid, None, None, None, None, _STREAM_EXTRA
                )
    return _dispatch(obj, tag)


register_owned(decode, decode_owned)
register_light(decode, progress_fields)
