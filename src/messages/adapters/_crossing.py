"""Messages decoded from one format, made ready to be written in another.

The private half of :func:`messages.adapters.prepare`.

Two things do not cross from one format to another:

- ``extra``: the source's wire fields the model does not name mean nothing to the target
  (:func:`strip_extra` empties every one, nested ones too);
- records the source kept whole because they have no typed meaning (a role-less
  :class:`RawMessage` holding a line, a :class:`StreamEventMessage`, an
  :class:`InvalidLineMessage`): a Claude Code ``summary``, a Codex ``turn.started``, an
  OpenCode ``step_start``. Written as they are, they would be lines of the source in the
  target's stream. A record that the target's own ``detect`` recognises (a native stream
  holding target lines) crosses as it is, and the native format writes every record as one
  of its own; any other follows the loss policy, the same way for
  every target: refused under ``"raise"``, left out under ``"drop"``, and under ``"text"``
  a raw line becomes assistant text in the words of :func:`messages.policy.describe`
  (stream events and bad lines have no text, and are left out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import raw
from ..events.run import InvalidLineMessage
from ..events.run import StreamEventMessage
from ..flat import RawMessage
from ..message import Message
from ..policy import Policy
from ._base import load_line
from ._common import refuse

__all__ = ["prepare", "strip_extra"]


def strip_extra(value: Any) -> Any:
    """A copy of a message (or block, or usage) with every ``extra`` emptied, nested ones too.

    Blocks, tool result content and usage are stripped as well. Extras are format-specific
    wire fields: they must not travel into another format.
    """
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(value):
        if not f.init:
            continue
        v = getattr(value, f.name)
        if f.name == "extra":
            if v:
                changes["extra"] = EMPTY
        elif type(v) is tuple:
            items = tuple(strip_extra(item) for item in v)
            if any(new is not old for new, old in zip(items, v, strict=True)):
                changes[f.name] = items
        elif dataclasses.is_dataclass(v):
            new = strip_extra(v)
            if new is not v:
                changes[f.name] = new
    return dataclasses.replace(value, **changes) if changes else value


def _whole_record(m: Message) -> Any:
    """The wire value of a record kept whole, as plain JSON (``None`` for a bad line)."""
    value: Any
    if isinstance(m, RawMessage):
        value = m.data
    elif isinstance(m, StreamEventMessage):
        value = m.event
    else:
        return None
    return raw(value) if isinstance(value, FrozenDict) else value


def _what(m: Message, source: str) -> str:
    if isinstance(m, InvalidLineMessage):
        return f"a line of {source} input that is not valid"
    kind = "stream event" if isinstance(m, StreamEventMessage) else "line"
    data = _whole_record(m)
    tag = data.get("type") if type(data) is dict else None
    if not isinstance(tag, str):
        tag = data.get("method") if type(data) is dict else None
    named = f" {tag}" if isinstance(tag, str) else ""
    return f"a {source}{named} {kind}"


def prepare(
    messages: Iterable[Message], source: str, target: Any, policy: Policy
) -> Iterator[Message]:
    """See :func:`messages.adapters.prepare`; ``target`` is the target's adapter module."""
    name = target.NAME
    carries_all = name == "native"  # this library's own lines hold any record as its own
    for m in messages:
        if carries_all and not isinstance(m, InvalidLineMessage):
            yield strip_extra(m)
            continue
        if isinstance(m, InvalidLineMessage):
            try:  # a bad line of the source is never the target's; a target line may be
                ours = target.detect(load_line(m.text))
            except ValueError:
                ours = False
            if not ours:
                refuse(m, f"{name} has no place for {_what(m, source)}", policy, degrade=False)
                continue
            yield m
            continue
        bare = strip_extra(m)
        if (isinstance(bare, RawMessage) and bare.role is None) or isinstance(
            bare, StreamEventMessage
        ):
            if target.detect(_whole_record(bare)):
                yield bare  # already a line of the target (a native stream can hold them)
                continue
            why = f"{name} has no line for {_what(bare, source)}"
            alt = refuse(bare, why, policy, degrade=isinstance(bare, RawMessage))
            if alt is not None:
                yield alt
            continue
        yield bare
