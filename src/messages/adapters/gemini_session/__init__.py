"""Gemini CLI saved sessions: ``~/.gemini/tmp/<project hash>/chats/session-*.json[l]``.

What Gemini CLI keeps on disk (the headless outputs are :mod:`messages.adapters.gemini_cli`).
Older versions write each session as ONE JSON document (pretty-printed), newer ones as JSON
Lines: the session's metadata first, then one record per message (a message re-recorded
when it changes: the last record of an id is the message), with ``$rewindTo`` and ``$set``
edits. Both read here, and so do ``logs.json`` (the prompt log) and the checkpoints that
``/chat save`` writes, which live in the same tree (see ``docs/adapters/gemini_session.md``
for the full table):

- metadata -> :class:`InitMessage` (``sessionId``; ``startTime`` as ``timestamp``);
- ``user`` -> :class:`UserMessage`; ``gemini`` -> :class:`AssistantMessage` holding a
  :class:`ThinkingBlock` per ``thoughts`` entry, the content, and per tool call a
  :class:`ToolUseBlock` followed by its :class:`ToolResultBlock` (``tokens`` as usage);
  ``error`` -> :class:`ErrorMessage`; ``info``, ``warning`` and the edits ->
  :class:`SystemEventMessage`; anything else -> :class:`RawMessage`, verbatim.

A document's parts are read as separate messages and written back as the one document.

>>> m = decode({"id": "m1", "timestamp": "2025-10-27T19:56:01Z", "type": "user", "content": "Hi"})
>>> m.kind, m.text, m.uuid
('user', 'Hi', 'm1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import expose_owned
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import fail
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...convert import messages_to_turn
from ...events.agent import SystemEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...flat import RawMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import FLAT_TYPES
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _base
from .. import _events as ev
from .. import _gemini_parts as gp
from .._common import refuse_content
from .._common import refuse_record
from . import files
from . import records as rec

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge", "restates"]

NAME: Final = "gemini_session"
"""The source name of this adapter."""

_MARKS: Final = (rec.DOCUMENT, rec.CONTENT)


def _decode(obj: Any) -> Message:
    if type(obj) is list:
        return RawMessage(expose_owned(obj))  # a whole array (logs.json...): iter_decode types it
    if type(obj) is not dict:
        raise fail("an object", obj)
    return rec.decode_record(obj)


def _read(obj: Any) -> Message | tuple[Message, ...]:
    """The stream reader's decoder: a whole-file document gives its parts (a tuple)."""
    if type(obj) is list:
        return files.decode_array(obj)
    if type(obj) is dict:
        if rec.is_metadata(obj) and type(obj.get("messages")) is list:
            return files.decode_session(obj)
        if "history" in obj and files.is_checkpoint(obj):
            return files.decode_checkpoint(obj)
    return _decode(obj)


def decode(obj: Any) -> Message:
    """One record (parsed JSON) to one message; a whole document stays one message.

    The value is copied first; a known record with a mistyped field raises
    :class:`DecodeError` with the path to it:

    >>> decode({"id": "m", "timestamp": "t", "type": "gemini", "content": "", "thoughts": 1})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: gemini_session: $.thoughts: expected an array, found an integer
    """
    return ev.decoding(_decode, obj, NAME)


def _plain_extra(m: Any) -> dict[str, Any]:
    return {k: v for k, v in raw(m.extra).items() if k not in _MARKS} if m.extra else {}


def _user(m: UserMessage | ToolMessage, policy: Policy) -> Any:
    mark = m.extra.get(rec.DOCUMENT) if m.extra else None
    if mark == "logs" and isinstance(m.content, str):
        return ev.overlay(files.encode_log(m, m.content), _plain_extra(m))  # type: ignore[arg-type]
    blocks = [m.content] if isinstance(m.content, str) else list(m.content)
    from ...blocks import TextBlock

    blocks = [TextBlock(b) if isinstance(b, str) else b for b in blocks]
    if mark in ("history", "contents"):
        out: dict[str, Any] = {"role": "user", "parts": gp.encode_parts(tuple(blocks), policy)}
        return ev.overlay(out, _plain_extra(m))
    out = rec.head("user", m)
    rec.encode_content(out, blocks, m.extra, policy)
    return ev.finish(out, _plain_extra(m))


def _assistant(m: AssistantMessage, policy: Policy) -> Any:
    mark = m.extra.get(rec.DOCUMENT) if m.extra else None
    if mark in ("history", "contents"):
        blocks = (m.content,) if isinstance(m.content, str) else m.content
        from ...blocks import TextBlock

        parts = gp.encode_parts(
            tuple(TextBlock(b) if isinstance(b, str) else b for b in blocks), policy
        )
        return ev.overlay({"role": "model", "parts": parts}, _plain_extra(m))
    return rec.encode_gemini(m, policy)


def _encode(m: Message, policy: Policy) -> Any:
    out: dict[str, Any]
    match m:
        case UserMessage() | ToolMessage():
            return _user(m, policy)
        case AssistantMessage():
            return _assistant(m, policy)
        case InitMessage():
            out = {"sessionId": m.session_id or ""}
            if m.timestamp is not None:
                out["startTime"] = m.timestamp
            extra = _plain_extra(m)
            extra.setdefault("projectHash", "")
            out = ev.overlay(out, extra)
            if m.extra and m.extra.get(rec.DOCUMENT) == "session":
                out.setdefault("messages", [])
            return out
        case ErrorMessage():
            out = rec.head("error", m)
            out["content"] = m.message
            return ev.finish(out, _plain_extra(m))
        case SystemEventMessage() if m.subtype in rec.EDITS:
            return raw(m.data)
        case SystemEventMessage() if m.subtype == "checkpoint":
            out = dict(raw(m.data))
            out.setdefault("history", [])
            return out
        case SystemEventMessage() if m.subtype in rec.MESSAGE_TYPES and m.uuid is not None:
            out = rec.head(m.subtype, m)
            return ev.finish(out, _plain_extra(m))
        case RawMessage():
            if m.role is None:
                return raw(m.data) if isinstance(m.data, FrozenDict | tuple) else m.data
            why = "Gemini CLI sessions have no record for raw content"
            return refuse_content(m, why, policy, _encode)
        case SystemMessage():
            why = "Gemini CLI sessions have no system record"
            return refuse_content(m, why, policy, _encode)
        case _ if isinstance(m, FLAT_TYPES):
            return gp.encode_flat(m, policy, _encode)
        case _:  # another session message: a result, a stream event, an agent's own records
            refuse_record(m, "Gemini CLI sessions have no record", policy)
            return None


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Gemini CLI session record (a fresh value): ``encode(decode(x)) == x``.

    A role message is one record; a flat message becomes the record of its one-block turn.
    Content a record cannot carry (audio, documents, server tools, citations) raises
    :class:`UnsupportedContentError`, or with ``unsupported="drop"`` is left out, or with
    ``"text"`` becomes text.

    >>> encode(UserMessage("hi", uuid="m1", timestamp="t"))
    {'id': 'm1', 'timestamp': 't', 'type': 'user', 'content': 'hi'}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed value is a Gemini CLI session record, session, prompt log or checkpoint.

    A message record has a string ``id``, a ``type`` of Gemini CLI's own (``gemini`` is its
    alone), ``content`` and ``timestamp``; the metadata has ``sessionId`` and ``projectHash``
    and no ``type``; an edit is an object with ``$rewindTo`` or ``$set`` alone.
    """
    if type(obj) is list:
        return bool(obj) and (all(files.is_log_entry(i) for i in obj) or files.is_checkpoint(obj))
    if type(obj) is not dict or _base.is_native(obj):
        return False
    if rec.is_metadata(obj) or rec.is_record(obj):
        return True
    if "history" in obj:
        return files.is_checkpoint(obj)
    if len(obj) == 1:
        ((key, value),) = obj.items()
        return (key == "$rewindTo" and type(value) is str) or (
            key == "$set" and type(value) is dict
        )
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a session file lazily: JSON Lines records, or a whole document's parts.

    A whole (pretty-printed) document gives its parts, see the module docstring.
    """
    return _base.iter_decode(_read, lines, source=NAME, strict=strict)


def _results(m: Message) -> tuple[ToolResultBlock, ...] | None:
    """The tool results a message of another source holds, when it holds nothing else."""
    if isinstance(m, ToolResultMessage):
        return (ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error),)
    if (
        isinstance(m, ToolMessage | UserMessage)
        and not isinstance(m.content, str)
        and m.content
        and all(isinstance(b, ToolResultBlock) for b in m.content)
    ):
        return m.content  # type: ignore[return-value]
    return None


def _fold(messages: Iterable[Message]) -> Iterator[Message]:
    """Put each tool result of another source into the turn that made its call.

    A Gemini CLI record holds a call with its result; other formats write the result as a
    message of its own after the call's turn. Turns read from a Gemini CLI session already
    hold theirs, and pass as they are.
    """
    held: AssistantMessage | None = None
    calls: set[str] = set()
    for m in messages:
        if held is not None:
            found = _results(m)
            if found is not None and all(b.tool_use_id in calls for b in found):
                held = replace(held, content=(*as_blocks(held.content), *found))
                continue
            yield held
            held = None
        turn = messages_to_turn([m]) if isinstance(m, ToolUseMessage) else m
        if isinstance(turn, AssistantMessage) and not (m.extra and rec.DOCUMENT in m.extra):
            blocks = as_blocks(turn.content)
            calls = {b.id for b in blocks if isinstance(b, ToolUseBlock)}
            answered = {b.tool_use_id for b in blocks if isinstance(b, ToolResultBlock)}
            if calls - answered:
                held = turn
                continue
        yield m
    if held is not None:
        yield held


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as session lines: one record per message.

    The parts of a document (as :func:`iter_decode` gives them) are written back as that
    one document, on one line.
    """
    policy = Policy(unsupported, NAME)

    def one(m: Message) -> Any:
        return thaw(_encode(m, policy))

    def written(m: Any) -> Any:
        return m if isinstance(m, dict | list) else one(m)

    def native(m: Any) -> bool:
        return True

    return ev.lines(files.joined(_fold(messages), one), written, native)  # type: ignore[arg-type]


_RESTATED: Final = frozenset(("logs", "history", "contents", "checkpoint"))


def restates(message: Message) -> bool:
    """Whether a message restates history a session file holds.

    A prompt log entry, or a checkpoint's: ``messages stats`` does not count them again.

    >>> [restates(m) for m in iter_decode(['[{"role": "user", "parts": [{"text": "hi"}]}]'])]
    [True]
    """
    extra = getattr(message, "extra", None)
    return bool(extra) and extra.get(rec.DOCUMENT) in _RESTATED  # type: ignore[union-attr]


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Keep the last of consecutive records of one message.

    Gemini CLI records a message again, under the same ``id``, as it changes (a tool call's
    result and status, the turn's tokens), so the last record is the whole message.

    >>> first = decode({"id": "m", "timestamp": "t", "type": "gemini", "content": "Wor"})
    >>> last = decode({"id": "m", "timestamp": "t", "type": "gemini", "content": "Working."})
    >>> [m.text for m in merge([first, last])]
    ['Working.']
    """
    held: Message | None = None
    for m in messages:
        uuid = getattr(m, "uuid", None)
        if held is not None and uuid is not None and uuid == held.uuid and type(m) is type(held):
            held = m
            continue
        if held is not None:
            yield held
        held = m
    if held is not None:
        yield held
