"""OpenCode ``opencode run --format json``: one JSON event per line.

Each line is ``{"type", "timestamp" (epoch ms), "sessionID", ...}`` with the payload under
``part`` (or ``error``). The mapping (see ``docs/adapters/opencode.md`` for the full table):

- ``text`` -> :class:`TextMessage` (assistant; OpenCode writes a text part once it is whole);
- ``reasoning`` -> :class:`ThinkingMessage`;
- ``tool_use`` -> OpenCode writes a tool part once, when it has finished, with the call and
  its outcome together: status ``completed``/``error`` gives one :class:`AssistantMessage`
  holding a :class:`ToolUseBlock` and its :class:`ToolResultBlock` (``normalize_messages``
  flattens it to ``tool_use`` then ``tool_result``); any other status gives a
  :class:`ToolUseMessage`;
- ``step_finish`` -> :class:`ResultMessage` for that step: ``reason`` as ``subtype``,
  ``tokens`` and ``cost`` as :class:`Usage`;
- ``error`` -> :class:`ErrorMessage` (``error.name`` as ``code``, ``error.data.message``);
- ``step_start`` and ``done`` -> :class:`StreamEventMessage`, verbatim;
- any other type -> :class:`RawMessage`.

Part ids become ``uuid``, ``part.messageID`` ``message_id``, ``sessionID`` ``session_id``.
The run does not echo the user's prompt.

>>> m = decode({"type": "text", "sessionID": "ses_1",
...             "part": {"id": "prt_1", "messageID": "msg_1", "type": "text", "text": "Hi."}})
>>> m.text, m.role, m.message_id
('Hi.', 'assistant', 'msg_1')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from collections.abc import Container
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
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
from ..._core.wire import type_name
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
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
from .._common import tool_pair

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "opencode"
"""The source name of this adapter."""

_TOP: Final = frozenset(("type", "timestamp", "sessionID", "part"))
_ERROR_TOP: Final = frozenset(("type", "timestamp", "sessionID", "error"))
_PART: Final = frozenset(("id", "messageID", "type"))
_TEXT: Final = _PART | {"text"}
_TOOL: Final = _PART | {"callID", "tool", "state"}
_FINISH: Final = _PART | {"reason", "cost", "tokens"}
_TOKENS: Final = frozenset(("input", "output", "reasoning", "cache"))
_CACHE: Final = frozenset(("read", "write"))
_FINISHED: Final = {
    "output": frozenset(("status", "input", "output")),
    "error": frozenset(("status", "input", "error")),
}
_RUNNING: Final = frozenset(("status", "input"))
_UNFINISHED: Final = frozenset(("input",))
_EVENTS: Final = frozenset(("step_start", "done"))
_PART_EVENTS: Final = frozenset(("step_start", "step_finish", "text", "reasoning", "tool_use"))


def _part(d: dict[str, Any], tag: str) -> dict[str, Any]:
    part = need_obj(d, "part")
    found = part.get("type", MISSING)
    if found != tag:
        what = repr(found) if type(found) is str else type_name(found)
        raise DecodeError(f"expected {tag!r}, found {what}", path="$.part.type", value=found)
    return part


def _context(d: dict[str, Any], part: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    """The context of an event: uuid, session_id, message_id and timestamp, checked."""
    return (
        opt_str(part, "id", "$.part"),
        opt_str(d, "sessionID"),
        opt_str(part, "messageID", "$.part"),
        opt_time(d),
    )


# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_text: Final = maker(TextMessage)
_new_thinking: Final = maker(ThinkingMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_use_block: Final = maker(ToolUseBlock)
_new_tool_result: Final = maker(ToolResultMessage)
_new_result_block: Final = maker(ToolResultBlock)


def _mirror(d: dict[str, Any], part_rest: dict[str, Any] | None) -> FrozenDict:
    return ev.mirror(d, _TOP, "part", part_rest)


def _text(d: dict[str, Any]) -> Message:
    part = _part(d, "text")
    text = need_str(part, "text", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    extra = _mirror(d, rest(part, _TEXT))
    return _new_text(text, None, "assistant", uuid, sid, None, None, mid, ts, extra)


def _reasoning(d: dict[str, Any]) -> Message:
    part = _part(d, "reasoning")
    text = need_str(part, "text", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    extra = _mirror(d, rest(part, _TEXT))
    return _new_thinking(
        text, None, False, None, "assistant", uuid, sid, None, None, mid, ts, extra
    )


def _tool(d: dict[str, Any], seen: Container[str] = frozenset()) -> Message:
    part = _part(d, "tool")
    call = need_str(part, "callID", "$.part")
    tool = need_str(part, "tool", "$.part")
    state = need_obj(part, "state", "$.part")
    status = need_str(state, "status", "$.part.state")
    args = wrap_owned(need_obj(state, "input", "$.part.state"))
    uuid, sid, mid, ts = _context(d, part)
    part_rest = rest(part, _TOOL)
    finished = status in ("completed", "error")
    key = "output" if status == "completed" else "error"
    # the encoder writes "running" for an unfinished call; any other status is kept
    known = _FINISHED[key] if finished else _RUNNING if status == "running" else _UNFINISHED
    state_rest = rest(state, known)
    if state_rest:
        part_rest = part_rest or {}
        part_rest["state"] = state_rest
    if not finished:
        extra = _mirror(d, part_rest)
        return _new_tool_use(
            call, tool, args, None, "assistant", uuid, sid, None, None, mid, ts, extra
        )
    body = need_str(state, key, "$.part.state")
    if call in seen:  # the call was given already (a running part): its result alone
        part_rest = part_rest or {}
        part_rest.setdefault("state", {})["input"] = state["input"]
        extra = _mirror(d, part_rest)
        return _new_tool_result(
            call, body, status == "error", tool, "tool", uuid, sid, None, None, mid, ts, extra
        )
    blocks = (
        _new_use_block(call, tool, args, None, EMPTY),
        _new_result_block(call, body, status == "error", tool, EMPTY),
    )
    extra = _mirror(d, part_rest)
    return _new_assistant(blocks, None, None, None, uuid, sid, None, None, mid, ts, extra)


def _usage(part: dict[str, Any], part_rest: dict[str, Any] | None) -> Usage | None:
    tokens = opt_obj(part, "tokens", "$.part")
    cost = opt_num(part, "cost", "$.part")
    if tokens is None:
        return None if cost is None else Usage(cost_usd=cost)
    at = "$.part.tokens"
    extra = rest(tokens, _TOKENS)
    read = write = None
    cache = opt_obj(tokens, "cache", at)
    if cache is not None:
        read = opt_int(cache, "read", at + ".cache")
        write = opt_int(cache, "write", at + ".cache")
        cache_rest = rest(cache, _CACHE)
        if cache_rest or (read is None and write is None):
            extra = extra or {}
            extra["cache"] = cache_rest or {}
    usage = Usage(
        opt_int(tokens, "input", at),
        opt_int(tokens, "output", at),
        read,
        write,
        reasoning_tokens=opt_int(tokens, "reasoning", at),
        cost_usd=cost,
        extra=ev.frozen(extra),
    )
    if not _tokens(usage) and not extra:  # an empty tokens object: written back from the mirror
        assert part_rest is not None
        part_rest["tokens"] = {}
    return usage


def _finish(d: dict[str, Any]) -> Message:
    part = _part(d, "step-finish")
    part_rest = rest(part, _FINISH) or {}
    usage = _usage(part, part_rest)
    reason = opt_str(part, "reason", "$.part")
    uuid, sid, mid, ts = _context(d, part)
    return ResultMessage(
        subtype=reason,
        usage=usage,
        uuid=uuid,
        session_id=sid,
        message_id=mid,
        timestamp=ts,
        extra=_mirror(d, part_rest),
    )


def _error(d: dict[str, Any]) -> Message:
    err = need_obj(d, "error")
    code = opt_str(err, "name", "$.error")
    data = opt_obj(err, "data", "$.error")
    err_rest = rest(err, frozenset(("name", "data")))
    message = ""
    if data is not None:
        found = data.get("message")
        if type(found) is str:
            message = found
        elif found is not None:
            raise fail("a string", found, at="$.error.data.message")
        data_rest = rest(data, frozenset(("message",)))
        if found == "":
            data_rest = data_rest or {}
            data_rest["message"] = ""
        if data_rest or not message:
            err_rest = err_rest or {}
            err_rest["data"] = data_rest or {}
    top = rest(d, _ERROR_TOP)
    if err_rest:
        top = top or {}
        top["error"] = err_rest
    return ErrorMessage(
        message,
        code=code,
        session_id=opt_str(d, "sessionID"),
        timestamp=opt_time(d),
        extra=ev.frozen(top),
    )


def _event(d: dict[str, Any]) -> Message:
    part = d.get("part")
    if type(part) is dict:
        uuid, sid, mid, ts = _context(d, part)
        return _new_stream(wrap_owned(d), uuid, sid, None, None, mid, ts, EMPTY)
    return StreamEventMessage(
        wrap_owned(d), session_id=opt_str(d, "sessionID"), timestamp=opt_time(d)
    )


_DECODERS: Final[dict[str, Callable[[dict[str, Any]], Message]]] = {
    "text": _text,
    "reasoning": _reasoning,
    "tool_use": _tool,
    "step_finish": _finish,
    "error": _error,
    "step_start": _event,
    "done": _event,
}


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    tag = obj.get("type")
    decoder = _DECODERS.get(tag) if type(tag) is str else None
    if decoder is None:
        return ev.raw_line(obj)
    return decoder(obj)


def decode(obj: Any) -> Message:
    """One ``opencode run --format json`` event to one message (the value is copied first).

    >>> decode({"type": "text", "part": {"type": "reasoning", "text": "hm"}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: opencode: $.part.type: expected 'text', found 'reasoning'
    """
    return ev.decoding(_decode, obj, NAME)


def _envelope(kind: str, m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp
    if m.session_id is not None:
        out["sessionID"] = m.session_id
    return out


def _part_out(out: dict[str, Any], tag: str, m: Message) -> dict[str, Any]:
    part: dict[str, Any] = {}
    if m.uuid is not None:
        part["id"] = m.uuid
    if m.message_id is not None:
        part["messageID"] = m.message_id
    part["type"] = tag
    out["part"] = part
    return part


def _tokens(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if u.input_tokens is not None:
        out["input"] = u.input_tokens
    if u.output_tokens is not None:
        out["output"] = u.output_tokens
    if u.reasoning_tokens is not None:
        out["reasoning"] = u.reasoning_tokens
    cache: dict[str, Any] = {}
    if u.cache_read_tokens is not None:
        cache["read"] = u.cache_read_tokens
    if u.cache_write_tokens is not None:
        cache["write"] = u.cache_write_tokens
    if cache:
        out["cache"] = cache
    return out


def _tool_event(
    m: Message, use: ToolUseBlock, result: ToolResultBlock | None, policy: Policy
) -> Any:
    out = _envelope("tool_use", m)
    part = _part_out(out, "tool", m)
    part["callID"] = use.id
    part["tool"] = use.name
    if result is None:
        part["state"] = {"status": "running", "input": raw(use.input)}
    else:
        key = "error" if result.is_error else "output"
        part["state"] = {
            "status": "error" if result.is_error else "completed",
            "input": raw(use.input),
            key: content_text(result.content, policy),
        }
    return out


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case TextMessage() | ThinkingMessage():
            if m.role != "assistant":
                why = f"OpenCode run output has no {m.role} {m.kind} event"
                refuse(m, why, policy, degrade=False)
                return None
            if isinstance(m, TextMessage):
                if m.citations is not None:
                    why = "OpenCode text parts carry no citations"
                    refuse(m, why, policy, degrade=False)
                out = _envelope("text", m)
                _part_out(out, "text", m)["text"] = m.text
            else:
                out = _envelope("reasoning", m)
                _part_out(out, "reasoning", m)["text"] = m.thinking
        case ToolUseMessage():
            block = ToolUseBlock(m.id, m.name, m.input)
            out = _tool_event(m, block, None, policy)
        case ToolResultMessage():
            use = ToolUseBlock(m.tool_use_id, m.name or "")
            result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
            out = _tool_event(m, use, result, policy)
        case AssistantMessage() if tool_pair(m) is not None:
            use, result = tool_pair(m)  # type: ignore[misc]
            out = _tool_event(m, use, result, policy)
        case ResultMessage():
            out = _envelope("step_finish", m)
            part = _part_out(out, "step-finish", m)
            if m.subtype is not None:
                part["reason"] = m.subtype
            u = m.usage
            if u is not None:
                if u.cost_usd is not None:
                    part["cost"] = u.cost_usd
                tokens = _tokens(u)
                if tokens or u.extra:
                    part["tokens"] = ev.overlay(tokens, u.extra)
        case ErrorMessage():
            out = _envelope("error", m)
            err: dict[str, Any] = {}
            if m.code is not None:
                err["name"] = m.code
            if m.message:
                err["data"] = {"message": m.message}
            out["error"] = err
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)  # type: ignore[no-any-return]
        case StreamEventMessage() if raw(m.event).get("type") in _EVENTS:
            return raw(m.event)  # type: ignore[no-any-return]
        case (
            RawMessage()
            | ImageMessage()
            | AudioMessage()
            | DocumentMessage()
            | VideoMessage()
            | ServerToolUseMessage()
            | ServerToolResultMessage()
        ):
            alt = refuse(m, f"OpenCode has no event for {m.kind} content", policy)
            return None if alt is None else _encode(alt, policy)
        case (
            StreamEventMessage()
            | InvalidLineMessage()
            | InitMessage()
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
            why = f"OpenCode run output has no event for a {m.kind} message"
            refuse(m, why, policy, degrade=False)
            return None
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:
            assert_never(m)
    return ev.finish(out, m.extra)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one OpenCode event (a fresh dict): ``encode(decode(x)) == x``.

    Messages from other sources map to the closest event: a lone ToolUseMessage becomes a
    ``running`` tool part, a lone ToolResultMessage a finished tool part with empty input
    (:func:`iter_encode` pairs a call with its result), a ResultMessage a ``step_finish``.
    User or system text, init, images, audio, raw content and foreign stream events have no
    event: they raise :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"``
    (gives ``None``) or ``"text"`` (media and raw content become assistant text).

    >>> encode(ToolUseMessage("call_1", "bash", {"command": "ls"}))["part"]["state"]
    {'status': 'running', 'input': {'command': 'ls'}}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is an ``opencode run --format json`` event."""
    if type(obj) is not dict or _base.is_native(obj):
        return False
    tag = obj.get("type")
    if type(tag) is not str:  # a list or object type is unhashable
        return False
    if tag in _PART_EVENTS:
        return type(obj.get("part")) is dict
    if tag == "error":
        error = obj.get("error")
        return type(error) is dict and ("sessionID" in obj or "name" in error or "data" in error)
    if tag == "done":
        return "sessionID" in obj
    return False


def _reader() -> Callable[[Any], Message]:
    """A decoder that gives a tool call once.

    A finished part of a call already given (by a pending or running part) gives its result
    alone.
    """
    seen: set[str] = set()

    def read(obj: Any) -> Message:
        if type(obj) is dict and obj.get("type") == "tool_use" and seen:
            message = _tool(obj, seen)
        else:
            message = _decode(obj)
        if isinstance(message, ToolUseMessage):
            seen.add(message.id)
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; lines that are not JSON become InvalidLineMessage.

    ``opencode run`` writes a tool part once it has finished; a stream that also has the
    call's earlier states gives the call at its first state and, when it finishes, the
    :class:`ToolResultMessage` alone.
    """
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def _native(m: Message) -> bool:
    return not isinstance(m, (SystemMessage, UserMessage, AssistantMessage, ToolMessage)) or (
        isinstance(m, AssistantMessage) and tool_pair(m) is not None
    )


_WAIT: Final = 10_000
"""How many messages may wait behind a tool call for its result before the call is written
as ``running`` in its place."""


def _paired(messages: Iterable[Message]) -> Iterator[Message]:
    """Flatten role messages, and join each tool call with its result into one tool part.

    OpenCode writes a tool part once, when the call has finished: a call waits for its
    result however many other messages come between (up to :data:`_WAIT`), and the finished
    part, with the call's name and input, is written in the call's place. A call that gets no
    result (a second state of it comes, the stream ends, or too many messages wait behind it)
    is written in its place as it is: a ``running`` part. Nothing changes order otherwise, and
    a result decoded from OpenCode's own finished part is written as that part, so OpenCode's
    lines are written back as they came.
    """
    queue: deque[list[Any]] = deque()  # [message, ready]: a call waiting is not ready
    waiting: dict[str, list[Any]] = {}
    for message in messages:
        for m in (message,) if _native(message) else ev.children(message):
            if isinstance(m, ToolUseMessage):
                earlier = waiting.pop(m.id, None)
                if earlier is not None:  # a second state of one call: keep both, in order
                    earlier[1] = True
                slot: list[Any] = [m, False]
                waiting[m.id] = slot
                queue.append(slot)
            elif (
                isinstance(m, ToolResultMessage)
                and m.tool_use_id in waiting
                and "part" in m.extra  # decoded from a finished part: a line of its own
            ):
                waiting.pop(m.tool_use_id)[1] = True
                queue.append([m, True])
            elif isinstance(m, ToolResultMessage) and m.tool_use_id in waiting:
                slot = waiting.pop(m.tool_use_id)
                use: ToolUseMessage = slot[0]
                slot[0] = AssistantMessage(
                    (
                        ToolUseBlock(use.id, use.name, use.input),
                        ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error),
                    ),
                    session_id=use.session_id or m.session_id,
                    message_id=use.message_id,
                    uuid=use.uuid,
                    timestamp=m.timestamp if m.timestamp is not None else use.timestamp,
                )
                slot[1] = True
            else:
                queue.append([m, True])
            while queue and (queue[0][1] or len(queue) > _WAIT):
                item, ready = queue.popleft()
                if not ready:
                    del waiting[item.id]
                yield item
    for item, _ in queue:
        yield item


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as wire lines.

    Role messages become one event per block, and a tool call followed by its result becomes
    one finished tool part, as OpenCode writes them.
    """
    policy = Policy(unsupported, NAME)

    def one(m: Message) -> Any:
        return thaw(_encode(m, policy))

    return ev.lines(_paired(messages), one, native=lambda m: True)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Fold the states of one tool call (pending, running) into one call.

    OpenCode writes whole text parts, so there are no deltas to join.
    """
    return ev.fold_calls(_base.merge_deltas(messages, is_delta=lambda m: False))
