"""Qwen Code chats: ``~/.qwen/projects/<cwd>/chats/<session>.jsonl``, one record per line.

Qwen Code is a fork of Gemini CLI; its chat records look like Claude Code's transcript
records (``uuid``, ``parentUuid``, ``sessionId``, ``type``, ``cwd``, ``version``) but carry
the model's Gemini ``Content`` (``message: {"role", "parts"}``), Gemini's ``usageMetadata``
and Qwen's own ``toolCallResult`` and ``systemPayload``. The mapping (see
``docs/adapters/qwen_code.md`` for the full table):

- ``user`` -> :class:`UserMessage`; ``assistant`` -> :class:`AssistantMessage` (thought
  parts as thinking, function calls as tool calls, ``usageMetadata`` as usage);
  ``tool_result`` -> :class:`ToolMessage` (function responses as tool results);
- ``system`` -> :class:`SystemEventMessage` (``subtype``; ``systemPayload`` as ``data``),
  when it is a record the encoder writes back: one of :data:`SUBTYPES`, or one with its
  ``version``;
- anything else -> :class:`RawMessage`, verbatim.

Gemini parts are read by the module Gemini CLI's saved sessions use too
(:mod:`messages.adapters._gemini_parts`). Qwen Code's headless ``--output-format
stream-json`` has Claude Code's shape and is read by :mod:`messages.adapters.claude_code`.

>>> m = decode({"uuid": "u1", "parentUuid": None, "sessionId": "s1", "timestamp": "t",
...             "type": "user", "cwd": "/w", "version": "0.0.14",
...             "message": {"role": "user", "parts": [{"text": "Hi"}]}})
>>> m.kind, m.text, m.session_id
('user', 'Hi', 's1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import fail
from ...events.agent import SystemEventMessage
from ...flat import RawMessage
from ...message import FLAT_TYPES
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .. import _gemini_parts as gp
from .._common import refuse_content
from .._common import refuse_record
from .._qwen_shape import is_qwen_record
from . import records as rec

__all__ = ["NAME", "SUBTYPES", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "qwen_code"
"""The source name of this adapter."""


SUBTYPES: Final = frozenset(
    (
        "session_notes",
        "chat_compression",
        "slash_command",
        "ui_telemetry",
        "at_command",
        "attribution_snapshot",
        "notification",
        "custom_title",
        "parent_session",
        "session_model",
        "rewind",
        "file_history_snapshot",
        "turn_result",
    )
)
"""Qwen Code's own ``system`` subtypes (a few of them): an event of another source with one
of these, or any event read from a Qwen Code chat (it has its ``version``), is written as a
``system`` record; other events are refused by the policy."""


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    message = rec.decode_record(obj)
    if isinstance(message, SystemEventMessage) and not _own_system(message):
        return ev.raw_line(obj)  # not a record the encoder writes: kept whole, written back
    return message


def _own_system(m: SystemEventMessage) -> bool:
    """Whether an event is written as a ``system`` record (see :data:`SUBTYPES`)."""
    return m.subtype in SUBTYPES or "version" in m.extra


def decode(obj: Any) -> Message:
    """One chat record (parsed JSON) to one message; unknown types become RawMessage.

    The value is copied first; a known record with a mistyped field raises
    :class:`DecodeError` with the path to it:

    >>> decode({"uuid": "u", "sessionId": "s", "type": "user", "message": [1]})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: qwen_code: $.message: expected an object, found an array
    """
    return ev.decoding(_decode, obj, NAME)


def _system(m: SystemEventMessage) -> dict[str, Any]:
    out = rec.head("system", m)
    out["subtype"] = m.subtype
    extra: dict[str, Any] = raw(m.extra) if m.extra else {}
    if extra.pop(rec.NO_PAYLOAD, None) is None:
        out["systemPayload"] = raw(m.data) if m.data else {}
    return ev.finish(out, extra, ("type", "subtype"))


def _encode(m: Message, policy: Policy) -> Any:
    match m:
        case UserMessage():
            return rec.encode_record("user", m, policy)
        case AssistantMessage():
            return rec.encode_record("assistant", m, policy)
        case ToolMessage():
            return rec.encode_record("tool_result", m, policy)
        case SystemEventMessage() if _own_system(m):
            return _system(m)
        case RawMessage():
            if m.role is None and isinstance(m.data, FrozenDict):
                return raw(m.data)
            why = "Qwen Code chats have no record for raw content"
            return refuse_content(m, why, policy, _encode)
        case SystemMessage():
            return refuse_content(m, "Qwen Code chats have no system record", policy, _encode)
        case _ if isinstance(m, FLAT_TYPES):
            return gp.encode_flat(m, policy, _encode)
        case _:  # a session message: an init, an error, an agent's own event or record
            refuse_record(m, "Qwen Code chats have no record", policy)
            return None


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Qwen Code chat record (a fresh dict): ``encode(decode(x)) == x``.

    A role message is one record; a flat message becomes the record of its one-block turn.

    >>> encode(UserMessage("hi", uuid="u1", session_id="s1"))
    {'uuid': 'u1', 'sessionId': 's1', 'type': 'user', 'message': {'role': 'user', 'parts': [{'text': 'hi'}]}}
    """  # noqa: E501
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Qwen Code chat record.

    The test is shared with Claude Code's adapter, which refuses what this one claims (see
    :func:`messages.adapters._qwen_shape.is_qwen_record`).
    """
    return not _base.is_native(obj) and is_qwen_record(obj)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a chat file lazily; bad lines become InvalidLineMessage unless ``strict``."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as chat lines, one record per message."""
    return ev.write_lines(messages, _encode, unsupported, NAME)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Nothing to join: every record is a whole message."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)
