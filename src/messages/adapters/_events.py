"""What the event-stream adapters (Gemini CLI, OpenCode, Copilot, ACP) share.

Reading: the checked reads of :mod:`messages._core.wire` and its :func:`rest`, the part of
a wire object a decoder does not model. A decoded message keeps that rest in ``extra`` as a
*mirror* of the wire tree (``{"part": {"time": ...}}`` for a key nested under ``part``), and
encoders build what they model and then :func:`overlay` the mirror on top, merging nested
objects. So ``encode(decode(x)) == x`` without the encoder knowing every key.

Two conventions keep absent and empty values apart without markers:

- a modelled optional key whose value is ``null`` decodes to ``None`` and the null stays in
  the mirror (as in :func:`messages._core.wire.extra`);
- a string, array or object that the encoder writes only when it is non-empty (``""``,
  ``[]``, ``{}``) is kept in the mirror when the wire has it empty.

Writing: :func:`finish` puts the mirror back; :func:`single`, :func:`children` and
:func:`lines` split role messages into one event per block. The loss policy for content a
format cannot carry is :mod:`._common`'s, on top of :mod:`messages.policy`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import depth_limit
from .._core.frozen import raw
from .._core.frozen import thaw
from .._core.jsontext import dump_compact
from .._core.make import copy_json
from .._core.make import maker
from .._core.make import wrap_owned
from .._core.wire import fail
from .._core.wire import opt_int
from .._core.wire import rest
from ..convert import block_to_message
from ..convert import context_of
from ..errors import DecodeError
from ..errors import EncodeError
from ..events.run import InvalidLineMessage
from ..flat import RawMessage
from ..flat import ToolUseMessage
from ..message import ROLE_TYPES
from ..message import SESSION_TYPES
from ..message import Message
from ..policy import Policy
from ..policy import Unsupported
from ..roles import as_blocks
from ..usage import Usage

__all__ = [
    "children",
    "counts_in",
    "counts_out",
    "fold_calls",
    "decoding",
    "dispatch",
    "finish",
    "frozen",
    "left",
    "lines",
    "loose_counts",
    "mirror",
    "overlay",
    "owned",
    "raw_line",
    "single",
    "usage_in",
    "usage_out",
    "whole",
    "write_lines",
]


_new_raw: Final = maker(RawMessage)


def raw_line(obj: dict[str, Any]) -> RawMessage:
    """An owned record kept whole (an event the adapter does not model), built by a maker."""
    return _new_raw(wrap_owned(obj), None, None, None, None, None, None, None, EMPTY)


def dispatch(obj: Any, readers: Mapping[str, Callable[[dict[str, Any]], Message]]) -> Message:
    """A record through the reader its ``type`` names; a record of another type kept whole.

    The tag -> reader table with a RawMessage fallback that every adapter decodes through.
    """
    if type(obj) is not dict:
        raise fail("an object", obj)
    tag = obj.get("type")
    reader = readers.get(tag) if type(tag) is str else None
    return raw_line(obj) if reader is None else reader(obj)


def left(d: dict[str, Any], used: Collection[str]) -> dict[str, Any]:
    """The keys of ``d`` not in ``used``, whatever their value (plain: a mirror may nest it)."""
    return {k: v for k, v in d.items() if k not in used}


def frozen(mirror: dict[str, Any] | None) -> FrozenDict:
    """A mirror dict as a message's ``extra`` (``EMPTY`` when there is nothing to keep)."""
    return wrap_owned(mirror) if mirror else EMPTY


def mirror(
    d: dict[str, Any], known: frozenset[str], key: str, inner: dict[str, Any] | None
) -> FrozenDict:
    """The ``extra`` of an event: its ``rest``, and the rest of its ``key`` object under ``key``.

    ``inner`` is what the decoder kept of the nested object (``data``, ``part``, ``params``);
    nothing is written under ``key`` when it is empty.
    """
    top = rest(d, known)
    if inner:
        top[key] = inner
    return frozen(top)


def overlay(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Write a kept mirror over what an encoder built, merging nested objects; returns ``out``.

    Nested objects that both sides have are copied before merging, so values shared with
    frozen messages are never changed.
    """
    if not extra:
        return out
    for k, v in raw(extra).items():
        cur = out.get(k)
        if type(v) is dict and type(cur) is dict:
            out[k] = overlay(dict(cur), v)
        else:
            out[k] = v
    return out


def finish(
    out: dict[str, Any], extra: Mapping[str, Any], keys: tuple[str, ...] = ("type",)
) -> dict[str, Any]:
    """:func:`overlay` the mirror, then write the discriminating keys back; returns ``out``.

    A decoder never keeps an event's ``type`` in its mirror, so only an ``extra`` from
    another source (a tool call's ``"type": "function"``...) can hold one, and it must not
    change what the event is.
    """
    fixed = {k: out[k] for k in keys if k in out}
    overlay(out, extra)
    out.update(fixed)
    return out


def counts_in(obj: dict[str, Any], names: Mapping[str, str], at: str) -> dict[str, int | None]:
    """The token counts of a wire object, by ``names`` (wire key -> :class:`Usage` field).

    Each count is checked (an integer, or absent or ``null``: ``None``); ``at`` is the
    object's path for the error.
    """
    return {field: opt_int(obj, key, at) for key, field in names.items()}


def counts_out(usage: Usage, names: Mapping[str, str]) -> dict[str, Any]:
    """The counts ``usage`` has, under their wire keys (``names`` as for :func:`counts_in`)."""
    return {key: getattr(usage, f) for key, f in names.items() if getattr(usage, f) is not None}


def loose_counts(obj: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The counts an unchecked usage object has (integers), and its cost (a number).

    ``names`` as for :func:`counts_in`; a ``cost_usd`` field takes an integer or a float.
    Anything else is passed over: for bookkeeping an agent writes for itself, not checked.
    """
    out: dict[str, Any] = {}
    for key, field in names.items():
        n = obj.get(key)
        if type(n) is int or (field == "cost_usd" and type(n) is float):
            out[field] = n
    return out


def usage_in(
    obj: dict[str, Any], names: Mapping[str, str], at: str, known: frozenset[str]
) -> Usage:
    """An owned usage object as :class:`Usage`: its counts, and all but ``known`` in ``extra``."""
    return Usage(**counts_in(obj, names, at), extra=frozen(rest(obj, known)))


def usage_out(usage: Usage, names: Mapping[str, str]) -> dict[str, Any]:
    """A usage object as :func:`usage_in` read it: the counts, then ``extra`` over them."""
    return overlay(counts_out(usage, names), usage.extra)


def owned(obj: Any) -> Any:
    """A private deep copy of a caller's JSON value, checked (``DecodeError`` if not JSON)."""
    return copy_json(obj, "$", 0, depth_limit())


def decoding(decoder: Callable[[Any], Message], obj: Any, source: str) -> Message:
    """Run ``decoder`` on a private copy of a caller's value, naming ``source`` on errors.

    The public ``decode`` of each adapter goes through here; stream readers hand the decoder
    the fresh output of ``json.loads`` directly, without a copy.
    """
    try:
        return decoder(owned(obj))
    except DecodeError as exc:
        if exc.source is None:
            exc.source = source
        raise


def single(message: Message, source: str) -> Message:
    """The one flat message a role message holds, for formats that write one event per block.

    A role message with several (or no) blocks needs several events: :func:`encode` refuses
    it with an EncodeError and ``iter_encode`` writes one event per block instead.
    """
    if not isinstance(message, ROLE_TYPES):
        return message
    blocks = as_blocks(message.content)
    if len(blocks) != 1:
        raise EncodeError(
            f"a {message.kind} message with {len(blocks)} blocks needs {len(blocks)} events;"
            " use iter_encode, which writes one per block",
            source=source,
            value=message,
        )
    return children(message)[0]


def children(message: Message) -> tuple[Message, ...]:
    """One flat message per block of a role message, with its role and context."""
    if not isinstance(message, ROLE_TYPES):
        return (message,)
    ctx = context_of(message)
    return tuple([block_to_message(b, **ctx) for b in as_blocks(message.content)])


def lines(
    messages: Iterable[Message],
    encode: Callable[[Message], Any],
    native: Callable[[Message], bool],
) -> Iterator[str]:
    """Wire lines for a stream, written with ``encode`` one message at a time.

    Role messages that ``native`` says the format cannot write as one event are split into
    one event per block; messages the policy drops (``encode`` gives ``None``) are skipped;
    an :class:`InvalidLineMessage` gives back its text.
    """
    for message in messages:
        if isinstance(message, InvalidLineMessage):
            yield message.text
            continue
        parts = (message,) if native(message) else children(message)
        for part in parts:
            obj = encode(part)
            if obj is not None:
                yield dump_compact(obj)


def whole(message: Message) -> bool:
    """Every message is written as it is (the ``native`` of a format with a line per message)."""
    return True


def write_lines(
    messages: Iterable[Message],
    encode: Callable[[Message, Policy], Any],
    unsupported: Unsupported,
    source: str,
    native: Callable[[Message], bool] = whole,
) -> Iterator[str]:
    """An adapter's ``iter_encode``: :func:`lines` of ``encode`` under one policy for the stream.

    The policy is made at once, so an unknown ``unsupported`` is refused before the first
    message is read; each message's wire value is copied out (``thaw``) before it is written.
    """
    policy = Policy(unsupported, source)
    return lines(messages, lambda m: thaw(encode(m, policy)), native)


def fold_calls(messages: Iterable[Message]) -> Iterator[Message]:
    """Fold a tool call and its later in-progress states (the same id) into one call.

    ACP's ``tool_call_update`` and OpenCode's pending/running tool parts repeat a call as it
    progresses, often filling in its input only then. A run of them, with only session
    messages between (a permission request...), becomes one ToolUseMessage with the first
    non-empty name and the last non-empty input, written before those session messages.
    Their status and progress are not carried over: folding is a view, not a lossless step.
    """
    pending: ToolUseMessage | None = None
    held: list[Message] = []  # session messages between a call and its updates
    for m in messages:
        if pending is not None:
            if isinstance(m, ToolUseMessage) and m.id == pending.id:
                name = pending.name or m.name
                pending = replace(pending, name=name, input=m.input or pending.input)
                continue
            if isinstance(m, SESSION_TYPES):
                held.append(m)
                continue
            yield pending
            yield from held
            pending = None
            held = []
        if isinstance(m, ToolUseMessage):
            pending = m
        else:
            yield m
    if pending is not None:
        yield pending
        yield from held
