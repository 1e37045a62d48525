"""pi (the pi coding agent) session files: ``~/.pi/agent/sessions/<cwd>/<time>_<id>.jsonl``.

One JSON entry per line, dispatched on its ``type`` (see ``docs/adapters/pi.md``):

- ``session`` (the header: ``id``, ``cwd``, ``version``, ``branchedFrom`` or
  ``parentSession`` for a forked session...) -> :class:`InitMessage`;
- ``message`` with role ``user`` -> :class:`UserMessage`, ``assistant`` ->
  :class:`AssistantMessage` (``model``, ``usage`` with its cost, ``stopReason``,
  ``errorMessage``), ``toolResult`` -> :class:`ToolMessage` holding one
  :class:`ToolResultBlock`; ``bashExecution`` (a command the user ran) ->
  :class:`SystemEventMessage`;
- ``compaction`` and ``branch_summary`` -> :class:`UserMessage` with the summary as text and
  ``summary`` set to ``"compaction"`` / ``"branch"``; ``custom_message`` -> UserMessage;
- ``model_change``, ``thinking_level_change``, ``custom``, ``label``, ``session_info`` ->
  :class:`SystemEventMessage` (the entry's type as ``subtype``, its fields as ``data``);
- an entry of any other type, or a message of another role -> :class:`RawMessage`, whole.

Both generations read: entries with the ``id``/``parentId`` tree (``id`` becomes ``uuid``)
and older ones without. Everything not modelled stays in ``extra``, and ``encode`` writes it
back: ``encode(decode(x)) == x``.

>>> line = {"type": "message", "timestamp": "2025-12-08T22:41:09.389Z",
...         "message": {"role": "assistant", "model": "claude-opus-4-5",
...                     "content": [{"type": "text", "text": "Done."}],
...                     "usage": {"input": 10, "output": 2, "cost": {"total": 0.0001}}}}
>>> m = decode(line)
>>> m.text, m.model, m.usage.output_tokens, m.usage.cost_usd
('Done.', 'claude-opus-4-5', 2, 0.0001)
>>> encode(m) == line
True
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from itertools import chain
from typing import Any
from typing import Final

from ..._core.frozen import thaw
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from .. import _base
from .. import _events as ev
from .decoder import ENTRY_EVENTS
from .decoder import SUMMARIES
from .decoder import decode_entry
from .encoder import encode_message
from .encoder import split

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "pi"
"""The format name used in errors and by the command line."""

_ROLES: Final = frozenset(("user", "assistant", "toolResult", "bashExecution", "custom"))


def decode(obj: Any) -> Message:
    """One pi session entry to one message (the value is copied first).

    >>> decode({"type": "message", "message": {"role": "toolResult", "toolCallId": 5}})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: pi: $.message.toolCallId: expected a string, found an integer
    """
    return ev.decoding(decode_entry, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one pi entry (a fresh dict): ``encode(decode(x)) == x``.

    Content pi cannot carry (audio, documents, server tools, images in an assistant turn,
    citations) raises :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"``
    or ``"text"``; run results, errors and other harness events have no entry.
    """
    return thaw(encode_message(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a pi session entry."""
    tag = _base.line_type(obj)
    if tag is None:
        return False
    if tag == "message":
        inner = obj.get("message")
        if type(inner) is not dict or "role" in obj:
            return False
        role = inner.get("role")
        return type(role) is str and role in _ROLES
    if tag == "session":
        return "cwd" in obj or "id" in obj or "timestamp" in obj
    if tag == "model_change":
        return "modelId" in obj
    if tag == "thinking_level_change":
        return "thinkingLevel" in obj
    if tag in SUMMARIES:
        return "summary" in obj and (
            "tokensBefore" in obj
            or "fromId" in obj
            or "firstKeptEntryId" in obj
            or "firstKeptEntryIndex" in obj
        )
    if tag in ("custom", "custom_message"):
        return "customType" in obj
    if tag == "label":
        return "targetId" in obj
    if tag in ENTRY_EVENTS:  # session_info
        return "parentId" in obj
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a session file lazily; lines that are not JSON become InvalidLineMessage."""
    return _base.iter_decode(decode_entry, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as entries, one line each; a turn's tool results one entry apiece."""
    return ev.write_lines(
        chain.from_iterable(map(split, messages)), encode_message, unsupported, NAME
    )


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Give the messages back lazily, in order: pi writes whole messages, nothing to join."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)
