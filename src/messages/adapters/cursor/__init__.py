"""Cursor CLI ``cursor-agent -p --output-format stream-json``: one JSON event per line.

It borrows Claude Code's line types but not their shapes (see ``docs/adapters/cursor.md``):

- ``system``/``init`` (``cwd``, ``model``, ``apiKeySource``, ``permissionMode``) ->
  :class:`InitMessage`; other ``system`` lines, and an init naming neither
  ``apiKeySource`` nor ``permissionMode``, -> :class:`RawMessage`;
- ``user`` / ``assistant`` (a ``message`` of ``role`` and ``content`` blocks, and for the
  assistant ``model_call_id`` and ``timestamp_ms``) -> :class:`UserMessage` /
  :class:`AssistantMessage` (``model_call_id`` as ``message_id``);
- ``thinking``/``delta`` -> :class:`ThinkingMessage` (a fragment: :func:`merge` joins a run
  of them); ``thinking``/``completed`` -> :class:`StreamEventMessage`, verbatim;
- ``tool_call``/``started`` -> :class:`ToolUseMessage`: the payload's one key names the
  tool's kind (``shellToolCall`` -> ``shell``), its ``args`` are the input;
  ``tool_call``/``completed`` -> :class:`ToolResultMessage`: ``result.success`` is a
  success, any other outcome an error, and the outcome's text (``content``,
  ``interleavedOutput``, ``stdout``...) the content;
- ``result`` -> :class:`ResultMessage`; any other type -> :class:`RawMessage`, whole, and
  so is a line without a key every Cursor line of its type has (``session_id``, a
  result's ``request_id``, a turn's ``role``), which the writer would add, and a turn
  holding more than text (the writer splits one into events).

``timestamp_ms`` becomes ``timestamp`` (epoch milliseconds, as written). Everything not
modelled stays in ``extra``, so ``encode(decode(x)) == x``.

>>> m = decode({"type": "tool_call", "subtype": "started", "call_id": "c1",
...             "tool_call": {"readToolCall": {"args": {"path": "a.py"}}}, "session_id": "s"})
>>> m.name, m.input["path"]
('read', 'a.py')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import thaw
from ...flat import ThinkingMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from .. import _base
from .. import _events as ev
from .._stream_json import cursor_shaped
from .reader import decode_line
from .writer import encode_line
from .writer import native

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "cursor"
"""The format name used in errors and by the command line."""


def decode(obj: Any) -> Message:
    """One Cursor stream-json line to one message (the value is copied first).

    >>> decode({"type": "tool_call", "subtype": "started", "call_id": 7, "session_id": "s"})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: cursor: $.call_id: expected a string, found an integer
    """
    return ev.decoding(decode_line, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Cursor line (a fresh dict): ``encode(decode(x)) == x``.

    A turn holding more than text (thinking, tool calls) is several Cursor events: use
    :func:`iter_encode`. Images, audio, documents, server tools and harness events have no
    line; they follow ``unsupported``.
    """
    return thaw(encode_line(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Cursor CLI stream-json event (never a Claude Code line)."""
    tag = _base.line_type(obj)
    if tag is None:
        return False
    if tag == "thinking":
        return obj.get("subtype") in ("delta", "completed") or "text" in obj
    if tag == "tool_call":
        return "call_id" in obj or "tool_call" in obj
    return cursor_shaped(obj, tag)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; lines that are not JSON become InvalidLineMessage."""
    return _base.iter_decode(decode_line, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as lines; a turn with thinking or tool calls as one event per block."""
    return ev.write_lines(messages, encode_line, unsupported, NAME, native)


def _delta(m: Message) -> bool:
    return isinstance(m, ThinkingMessage) and m.extra.get("subtype") == "delta"


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join each run of thinking deltas into one ThinkingMessage, lazily.

    Assistant lines are whole messages (one per stretch between tool calls) and are kept
    as they are.
    """
    return _base.merge_deltas(messages, is_delta=_delta)
