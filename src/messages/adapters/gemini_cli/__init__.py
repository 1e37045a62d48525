"""Gemini CLI ``gemini -p ... --output-format stream-json``: one JSON event per line.

Every event has a ``type`` and an ISO ``timestamp``. The mapping (see
``docs/adapters/gemini_cli.md`` for the full table):

- ``init`` -> :class:`InitMessage` (``session_id``, ``model``);
- ``message`` -> :class:`TextMessage` with the event's ``role``; assistant chunks carry
  ``"delta": true`` (kept in ``extra``), which :func:`merge` joins;
- ``tool_use`` -> :class:`ToolUseMessage` (``tool_id``, ``tool_name``, ``parameters``);
- ``tool_result`` -> :class:`ToolResultMessage` (``status`` gives ``is_error``, ``output`` the
  content; the ``error`` object stays in ``extra``);
- ``error`` -> :class:`ErrorMessage` (``severity`` stays in ``extra``; an ``error`` line
  without one is no Gemini CLI event, and stays a :class:`RawMessage`);
- ``result`` -> :class:`ResultMessage` (``status`` as ``subtype``, ``stats`` as
  :class:`Usage` and ``duration_ms``);
- any other type -> :class:`RawMessage`, kept verbatim.

The CLI also prints non-JSON warnings on stdout: :func:`iter_decode` turns them into
:class:`InvalidLineMessage` and goes on.

>>> m = decode({"type": "tool_use", "tool_name": "ls", "tool_id": "ls-1", "parameters": {}})
>>> m.name, m.id
('ls', 'ls-1')
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.fields import ROLES
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_num
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...events.agent import CompactBoundaryMessage
from ...events.agent import ConversationResetMessage
from ...events.agent import HookEventMessage
from ...events.agent import RateLimitMessage
from ...events.agent import StatusMessage
from ...events.agent import SystemEventMessage
from ...events.agent import TaskEventMessage
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import QueueOperationMessage
from ...events.records import TitleMessage
from ...events.records import TurnContextMessage
from ...events.records import TurnEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import DocumentMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import ServerToolResultMessage
from ...flat import ServerToolUseMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...flat import VideoMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._common import content_text
from .._common import refuse
from . import document as doc

__all__ = [
    "NAME",
    "decode",
    "detect",
    "encode",
    "iter_decode",
    "iter_encode",
    "merge",
    "tool_counts",
]

NAME: Final = "gemini_cli"
"""The source name of this adapter."""

_INIT: Final = frozenset(("type", "timestamp", "session_id", "model"))
_MESSAGE: Final = frozenset(("type", "timestamp", "role", "content"))
_TOOL_USE: Final = frozenset(("type", "timestamp", "tool_name", "tool_id", "parameters"))
_TOOL_RESULT: Final = frozenset(("type", "timestamp", "tool_id", "status", "output"))
_ERROR: Final = frozenset(("type", "timestamp", "message"))
_RESULT: Final = frozenset(("type", "timestamp", "status", "stats"))
_STATS: Final = frozenset(("input", "output_tokens", "cached", "duration_ms"))
_STATUS: Final[dict[str, bool]] = {"success": False, "error": True}

# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_init: Final = maker(InitMessage)
_new_text: Final = maker(TextMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_error: Final = maker(ErrorMessage)
_new_result: Final = maker(ResultMessage)
_new_usage: Final = maker(Usage)


def _init(d: dict[str, Any]) -> Message:
    session_id = opt_str(d, "session_id")
    model = opt_str(d, "model")
    timestamp = opt_time(d)
    extra = ev.frozen(rest(d, _INIT))
    return _new_init(None, None, None, session_id, None, model, None, timestamp, extra)


def _message(d: dict[str, Any]) -> Message:
    role = need_str(d, "role")
    text = need_str(d, "content")
    if role not in ROLES:
        return ev.raw_line(d)
    timestamp = opt_time(d)
    extra = ev.frozen(rest(d, _MESSAGE))
    return _new_text(text, None, role, None, None, None, None, None, timestamp, extra)


def _tool_use(d: dict[str, Any]) -> Message:
    call_id = need_str(d, "tool_id")
    name = need_str(d, "tool_name")
    args = wrap_owned(need_obj(d, "parameters"))
    timestamp = opt_time(d)
    extra = ev.frozen(rest(d, _TOOL_USE))
    return _new_tool_use(
        call_id, name, args, None, "assistant", None, None, None, None, None, timestamp, extra
    )


def _tool_result(d: dict[str, Any]) -> Message:
    tool_id = need_str(d, "tool_id")
    status = need_str(d, "status")
    output = d.get("output", MISSING)
    if output is MISSING:
        content = ""
    elif type(output) is str:
        content = output
    else:
        raise fail("a string", output, "output")
    is_error = _STATUS.get(status)
    mirror = rest(d, _TOOL_RESULT)
    if is_error is None or output == "":  # written back only from the mirror
        mirror = mirror or {}
        if is_error is None:
            mirror["status"] = status
        if output == "":
            mirror["output"] = ""
    timestamp = opt_time(d)
    return _new_tool_result(
        tool_id,
        content,
        is_error,
        None,
        "tool",
        None,
        None,
        None,
        None,
        None,
        timestamp,
        ev.frozen(mirror),
    )


def _error(d: dict[str, Any]) -> Message:
    if "severity" not in d:  # not a Gemini CLI error event (detect says so): kept whole
        return ev.raw_line(d)
    message = need_str(d, "message")
    timestamp = opt_time(d)
    extra = ev.frozen(rest(d, _ERROR))
    return _new_error(message, None, None, None, None, None, None, None, timestamp, extra)


def _result(d: dict[str, Any]) -> Message:
    status = need_str(d, "status")
    stats = opt_obj(d, "stats")
    usage = duration = None
    if stats is not None:
        duration = opt_num(stats, "duration_ms", "$.stats")
        inp = opt_int(stats, "input", "$.stats")
        out = opt_int(stats, "output_tokens", "$.stats")
        cached = opt_int(stats, "cached", "$.stats")
        usage = _new_usage(inp, out, cached, None, None, None, ev.frozen(rest(stats, _STATS)))
    timestamp = opt_time(d)
    extra = ev.frozen(rest(d, _RESULT))
    return _new_result(
        status,
        None,
        _STATUS.get(status),
        duration,
        None,
        None,
        None,
        usage,
        None,
        None,
        None,
        None,
        None,
        None,
        timestamp,
        extra,
        *_NO_RUN_DETAILS,
    )


_NO_RUN_DETAILS: Final = (None,) * 8
"""The result fields Claude Code reports and Gemini CLI does not (stop_reason... origin)."""

_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "init": _init,
    "message": _message,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "error": _error,
    "result": _result,
}


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    tag = obj.get("type")
    decoder = _DECODERS.get(tag) if type(tag) is str else None
    if decoder is None:
        if tag is None and doc.is_document(obj):
            return doc.decode_whole(obj)
        return ev.raw_line(obj)
    return decoder(obj)


def _read(obj: Any) -> Any:
    """The stream reader's decoder: a JSON document gives its parts (a tuple)."""
    if type(obj) is dict and "type" not in obj and doc.is_document(obj):
        return doc.decode_parts(obj)
    return _decode(obj)


def decode(obj: Any) -> Message:
    """One Gemini CLI event (parsed JSON) to one message; unknown types become RawMessage.

    The value is copied first. A known event with a missing or mistyped field raises
    :class:`DecodeError` with the path to it:

    >>> decode({"type": "message", "role": "user"})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: gemini_cli: $.content: expected a string, found nothing
    """
    return ev.decoding(_decode, obj, NAME)


def _head(kind: str, timestamp: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if timestamp is not None:
        out["timestamp"] = timestamp
    return out


def _status(m: ResultMessage) -> str:
    if m.subtype in _STATUS or (m.is_error is None and m.subtype is not None):
        return m.subtype
    return "error" if m.is_error else "success"


def _stats(m: ResultMessage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    u = m.usage
    if u is not None:
        if u.input_tokens is not None:
            out["input"] = u.input_tokens
        if u.output_tokens is not None:
            out["output_tokens"] = u.output_tokens
        if u.cache_read_tokens is not None:
            out["cached"] = u.cache_read_tokens
    if m.duration_ms is not None:
        out["duration_ms"] = m.duration_ms
    if u is not None:
        ev.overlay(out, u.extra)
    return out


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    if m.extra and doc.KEY in m.extra and doc.part_of(m) is not None:
        return doc.encode_parts((m,))
    match m:
        case TextMessage():
            if m.citations is not None:
                refuse(m, "Gemini CLI messages carry no citations", policy, degrade=False)
            out = _head("message", m.timestamp)
            out["role"] = m.role
            out["content"] = m.text
        case ToolUseMessage():
            if m.invalid_arguments:
                why = "tool arguments that are not a JSON object cannot be carried"
                refuse(m, why, policy, degrade=False)
            out = _head("tool_use", m.timestamp)
            out["tool_name"] = m.name
            out["tool_id"] = m.id
            out["parameters"] = raw(m.input)
        case ToolResultMessage():
            out = _head("tool_result", m.timestamp)
            out["tool_id"] = m.tool_use_id
            out["status"] = "error" if m.is_error else "success"
            text = content_text(m.content, policy)
            if text:
                out["output"] = text
        case InitMessage():
            out = _head("init", m.timestamp)
            if m.session_id is not None:
                out["session_id"] = m.session_id
            if m.model is not None:
                out["model"] = m.model
        case ErrorMessage():
            out = _head("error", m.timestamp)
            out["severity"] = "error"  # a decoded event keeps its own in extra
            out["message"] = m.message
        case ResultMessage():
            out = _head("result", m.timestamp)
            out["status"] = _status(m)
            if m.usage is not None or m.duration_ms is not None:
                out["stats"] = _stats(m)
        case RawMessage():
            if m.role is None and isinstance(m.data, FrozenDict):
                return raw(m.data)  # type: ignore[no-any-return]
            alt = refuse(m, "Gemini CLI has no event for raw content", policy)
            return None if alt is None else _encode(alt, policy)
        case (
            ThinkingMessage()
            | ImageMessage()
            | AudioMessage()
            | DocumentMessage()
            | VideoMessage()
            | ServerToolUseMessage()
            | ServerToolResultMessage()
        ):
            alt = refuse(m, f"Gemini CLI has no event for {m.kind} content", policy)
            return None if alt is None else _encode(alt, policy)
        case (
            StreamEventMessage()
            | InvalidLineMessage()
            | CompactBoundaryMessage()
            | HookEventMessage()
            | RateLimitMessage()
            | StatusMessage()
            | SystemEventMessage()
            | ConversationResetMessage()
            | FileSnapshotMessage()
            | ProgressMessage()
            | QueueOperationMessage()
            | TitleMessage()
            | TurnContextMessage()
            | TurnEventMessage()
            | TaskEventMessage()
        ):
            why = f"Gemini CLI has no event for a {m.kind} message"
            refuse(m, why, policy, degrade=False)
            return None
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:
            assert_never(m)
    return ev.finish(out, m.extra)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Gemini CLI event (a fresh dict): ``encode(decode(x)) == x``.

    Messages from other sources map to the closest event. Thinking, images, audio, raw
    content and stream events have none: they raise :class:`UnsupportedContentError`, or
    with ``unsupported="drop"`` give ``None``, or with ``"text"`` become a text message
    (stream events are dropped). A role message must hold exactly one block (use
    :func:`iter_encode` for more).

    >>> encode(TextMessage("hi", role="user"))
    {'type': 'message', 'role': 'user', 'content': 'hi'}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Gemini CLI stream-json event.

    Precise on purpose: Claude Code, Codex, OpenCode and Copilot lines share some type names
    (``result``, ``error``, ``tool_use``) but not the keys checked here.
    """
    if type(obj) is not dict or _base.is_native(obj):
        return False
    tag = obj.get("type")
    if tag is None:
        return doc.is_document(obj)
    if tag == "init":
        return "subtype" not in obj
    if tag == "message":
        return "role" in obj and "content" in obj
    if tag in ("tool_use", "tool_result"):
        return "tool_id" in obj
    if tag == "error":
        return "severity" in obj
    if tag == "result":
        return "status" in obj and "subtype" not in obj and "exitCode" not in obj
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; non-JSON lines (CLI warnings) become InvalidLineMessage.

    A JSON document (``--output-format json``, one object, often over many lines) gives its
    parts: the answer, a result per model, the error, the run (see the module docstring).
    """
    return _base.iter_decode(_read, lines, source=NAME, strict=strict)


def _joined(messages: Iterable[Message]) -> Iterator[Message | dict[str, Any]]:
    """Messages, with each run of JSON-document parts put back together as one object."""
    held: list[Message] = []
    for m in messages:
        found = doc.part_of(m) if m.extra and doc.KEY in m.extra else None
        if found is not None and found[0] in ("response", "model", "error"):
            held.append(m)
            continue
        if found is not None and found[0] == "run":
            held.append(m)
            yield doc.encode_parts(held)
            held = []
            continue
        if held:  # parts without their run: the document they make on their own
            yield doc.encode_parts(held)
            held = []
        yield m
    if held:
        yield doc.encode_parts(held)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as wire lines; a role message becomes one event per block.

    The parts of a JSON document (as :func:`iter_decode` gives them) are written back as
    that one object, on one line.
    """
    policy = Policy(unsupported, NAME)

    def one(m: Any) -> Any:
        return m if isinstance(m, dict) else thaw(_encode(m, policy))

    def native(m: Any) -> bool:
        return isinstance(m, dict)

    return ev.lines(_joined(messages), one, native)  # type: ignore[arg-type]


def tool_counts(message: Message) -> dict[str, tuple[int, int]] | None:
    """The ``(calls, failed calls)`` per tool that a JSON document reports, else ``None``.

    Only the run of a ``--output-format json`` document (or the whole document, from a lone
    :func:`decode`) has them: that output holds no tool events, just these counts.

    >>> run = decode({"response": "ok", "stats": {"tools": {"byName": {"ls": {"count": 2, "fail": 1}}}}})
    >>> tool_counts(run)
    {'ls': (2, 1)}
    """  # noqa: E501
    return doc.tool_counts(message)


def _is_delta(m: Message) -> bool:
    return isinstance(m, TextMessage) and m.extra.get("delta") is True


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join runs of ``"delta": true`` message chunks of one role into one TextMessage."""
    return _base.merge_deltas(messages, is_delta=_is_delta)
