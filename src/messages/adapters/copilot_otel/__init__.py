"""The GitHub Copilot CLI's OpenTelemetry trace file: the usage of each model call.

With ``COPILOT_OTEL_FILE_EXPORTER_PATH`` set (or a file exporter writing under
``~/.copilot/otel/``), the Copilot CLI writes its OpenTelemetry spans, log records and metrics
as JSON Lines. It holds no conversation, only what each call cost: a record that reports a model
call's tokens (see :mod:`.records`) -> an :class:`AssistantMessage` with no content, its
:class:`Usage`, ``model`` and ``session_id`` (``gen_ai.conversation.id``); every other record
-> a :class:`StreamEventMessage`, verbatim; a line that is no exporter record -> a
:class:`RawMessage`. Each message keeps its record whole (the assistant
message in ``extra``), so ``encode`` writes it back as it was.

One call may be reported several times (a ``chat`` span, an inference log, an agent-turn log,
an ``invoke_agent`` span of the same trace or response id). :func:`iter_decode` reads the whole
file and gives the usage once, from the most direct record (in that order), the others as
stream events; a lone :func:`decode` cannot tell and gives every usage record its usage.

>>> span = {"type": "span", "traceId": "t1", "spanId": "s1", "name": "chat gpt-5",
...         "endTime": [1775934264, 0], "attributes": {"gen_ai.operation.name": "chat",
...         "gen_ai.response.model": "gpt-5", "gen_ai.conversation.id": "c1",
...         "gen_ai.usage.input_tokens": 100, "gen_ai.usage.cache_read.input_tokens": 40,
...         "gen_ai.usage.output_tokens": 7}}
>>> m = decode(span)
>>> m.usage, m.model, m.session_id, m.timestamp
(Usage(input_tokens=60, output_tokens=7, cache_read_tokens=40, cache_write_tokens=0), 'gpt-5', 'c1', '2026-04-11T19:04:24.000Z')
>>> encode(m) == span
True
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.frozen import wrap_owned
from ..._core.wire import fail
from ...events.run import StreamEventMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import read_back
from . import records as rc

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "copilot_otel"
"""The source name of this adapter."""

_RANK: Final = {"chat": 0, "inference": 1, "agent_turn": 2, "agent_summary": 3}


def _stream(record: FrozenDict, call: rc.Call | None = None) -> StreamEventMessage:
    """A record kept verbatim (a call reported better elsewhere names no session of its own)."""
    span = rc.span_id(record)
    return StreamEventMessage(record, uuid=span, timestamp=None if call is None else call.timestamp)


def _turn(record: FrozenDict, call: rc.Call) -> AssistantMessage:
    usage = Usage(
        call.input_tokens,
        call.output_tokens,
        call.cache_read_tokens,
        call.cache_write_tokens,
        reasoning_tokens=call.reasoning_tokens or None,
    )
    return AssistantMessage(
        (),
        usage=usage,
        uuid=rc.span_id(record),
        session_id=call.session,
        model=call.model,
        message_id=call.key,
        timestamp=call.timestamp,
        extra=record,
    )


def _decode(obj: Any, index: int = 0) -> tuple[Message, rc.Call | None]:
    if type(obj) is not dict:
        raise fail("an object", obj)
    if "attributes" in obj and type(obj["attributes"]) is not dict:
        raise fail("an object", obj["attributes"], "attributes")
    if not rc.is_record(obj):
        return ev.raw_line(obj), None
    record = wrap_owned(obj)
    call = rc.call_of(obj, index)
    if call is None:
        return _stream(record), None
    return _turn(record, call), call


def decode(obj: Any) -> Message:
    """One exporter record to one message (the value is copied first).

    >>> decode([1])
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: copilot_otel: $: expected an object, found an array
    """
    return ev.decoding(lambda o: _decode(o)[0], obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """The record a message was decoded from; any other message is refused.

    The trace file is the CLI's telemetry, not a conversation: nothing else can be written
    to it (``unsupported="drop"`` gives ``None``).

    >>> encode(AssistantMessage("hi"))
    Traceback (most recent call last):
    ...
    messages.errors.UnsupportedContentError: copilot_otel: $: an OpenTelemetry trace file holds only the records it was read from (pass unsupported='drop' or 'text')
    """  # noqa: E501
    return thaw(_encode(message, Policy(unsupported, NAME)))


def _encode(message: Message, policy: Policy) -> Any:
    found = None
    if isinstance(message, StreamEventMessage) and rc.is_record(thaw(message.event)):
        found = message.event
    elif isinstance(message, AssistantMessage) and rc.is_record(thaw(message.extra)):
        found = message.extra
    why = "an OpenTelemetry trace file holds only the records it was read from"
    return read_back(message, found, why, policy)


def detect(obj: Any) -> bool:
    """Whether a parsed line is a record of an OpenTelemetry file exporter.

    A span, log record or metric (``type`` ``span``/``log``/``metric``), or an untyped record
    whose ``attributes`` use the GenAI conventions or that carries trace ids or ``hrTime``.
    No agent's log line has those.
    """
    return not _base.is_native(obj) and rc.is_record(obj)


def _suppressed(call: rc.Call, calls: list[rc.Call]) -> bool:
    """Whether a more direct record of the same trace or response reports this call."""
    rank = _RANK[call.source]
    for other in calls:
        if _RANK[other.source] >= rank:
            continue
        if call.trace is not None and other.trace == call.trace:
            return True
        if call.response is not None and other.response == call.response:
            return True
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a whole trace file; each model call's usage is given once (see the module).

    A record without a model or session id takes its trace's (the first model, the most
    trusted session id any record of the trace names); without either, the trace id.
    """
    index = [0]

    def one(obj: Any) -> Message:
        message, _ = _decode(obj, index[0])
        index[0] += 1
        return message

    decoded = list(_base.iter_decode(one, lines, source=NAME, strict=strict))
    contexts: dict[str, tuple[str | None, str | None, int]] = {}
    calls: list[rc.Call] = []
    for m in decoded:
        record = _record(m)
        if record is None:
            continue
        trace = rc.trace_id(record)
        if trace is not None:
            model, session, rank = rc.trace_context(record)
            had = contexts.get(trace, (None, None, 0))
            contexts[trace] = (
                had[0] or model,
                session if rank > had[2] else had[1],
                max(rank, had[2]),
            )
        if isinstance(m, AssistantMessage):
            calls.append(_call(m, record))
    for m in decoded:
        if not isinstance(m, AssistantMessage):
            yield m
            continue
        record = _record(m)
        assert record is not None
        call = _call(m, record)
        if _suppressed(call, calls):
            yield _stream(m.extra, call)  # type: ignore[arg-type]
            continue
        model, session, _ = contexts.get(call.trace or "", (None, None, 0))
        yield replace(
            m,
            model=m.model or model or "unknown",
            session_id=m.session_id or session or call.trace or "unknown-session",
        )


def _record(m: Message) -> Any:
    if isinstance(m, StreamEventMessage):
        return m.event
    if isinstance(m, AssistantMessage):
        return m.extra
    return None


def _call(m: AssistantMessage, record: Any) -> rc.Call:
    found = rc.call_of(record, 0)  # the key is the message's own (its line's index)
    assert found is not None
    return found


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write the records back, one line each (see :func:`encode`)."""
    return ev.write_lines(messages, _encode, unsupported, NAME)
