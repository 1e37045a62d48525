"""GitHub Copilot CLI ``copilot -p ... --output-format json``: one session event per line.

Each line is ``{"type", "data", "id", "timestamp", "parentId", "ephemeral"?}``; the run ends
with ``{"type": "result", "sessionId", "exitCode", "usage"}``. The mapping (see
``docs/adapters/copilot.md`` for the full table):

- ``user.message`` -> :class:`TextMessage` (user);
- ``assistant.message`` -> one :class:`AssistantMessage`: a :class:`ThinkingBlock`
  (``reasoningText``, ``reasoningOpaque`` as signature), a :class:`TextBlock` (``content``)
  and a :class:`ToolUseBlock` per ``toolRequests`` entry, ``outputTokens`` as usage;
- ``tool.execution_complete`` -> :class:`ToolResultMessage` (``success``, ``result.content``
  or ``error.message``);
- ``session.start`` -> :class:`InitMessage`; ``session.error`` -> :class:`ErrorMessage`;
- ``session.shutdown`` -> :class:`ResultMessage`: ``model_usage`` its ``modelMetrics``
  verbatim, ``usage`` their sum (:func:`model_usages` gives them per model, typed);
- ``assistant.usage`` -> :class:`ResultMessage` with the call's :class:`Usage`; the final
  ``result`` line -> :class:`ResultMessage` (``exitCode`` gives ``is_error``);
- ``tool.execution_start`` -> :class:`ToolUseMessage` (``toolCallId``, ``toolName``,
  ``arguments``) when the stream has not announced the call before: Copilot CLI 1.0.x runs
  announce some calls (``task_complete``) only there. When the call came first in an
  ``assistant.message``'s ``toolRequests``, :func:`iter_decode` keeps this event as a
  :class:`StreamEventMessage`, so each call reads once (and the other way round);
- every other session event -> :class:`StreamEventMessage`, verbatim. That includes the
  ephemeral ``assistant.message_delta`` and ``assistant.reasoning(_delta)`` events: they
  preview what the ``assistant.message`` that follows holds in full, so the flat view does
  not repeat them;
- any other line -> :class:`RawMessage`.

>>> m = decode({"type": "user.message", "data": {"content": "hi"}, "id": "e1"})
>>> m.text, m.role, m.uuid
('hi', 'user', 'e1')
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from ...blocks import ToolUseBlock
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from . import turn as ct
from .decoder import _EXEC
from .decoder import NAME
from .decoder import _decode
from .decoder import _event
from .decoder import decode
from .encoder import _encode
from .encoder import encode
from .shutdown import model_usages

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]
__all__ += ["model_usages"]  # what a shutdown reports per model (read by stats and sessions)


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Copilot CLI session event or its final result line.

    Codex ``exec --json`` also uses dotted types (``item.completed``) but never a ``data``
    object; Claude Code and Gemini CLI results have no ``exitCode``.
    """
    if type(obj) is not dict or _base.is_native(obj):
        return False
    tag = obj.get("type")
    if type(tag) is str and "." in tag:
        return type(obj.get("data")) is dict
    return tag == "result" and "exitCode" in obj


def _reader() -> Callable[[Any], Message]:
    """A decoder that gives each tool call once, where the stream first announces it.

    A call may be announced in an ``assistant.message``'s ``toolRequests``, in a
    ``tool.execution_start``, or both. The first announcement gives the call; a later
    ``tool.execution_start`` of it is kept as a stream event, and a later ``toolRequests``
    entry for it stays in the turn's ``extra`` (written back where it was).
    """
    announced: set[str] = set()

    def read(obj: Any) -> Message:
        if type(obj) is dict and obj.get("type") == _EXEC:
            data = obj.get("data")
            call = data.get("toolCallId") if type(data) is dict else None
            if type(call) is str and call in announced:
                return _event(obj, data)  # type: ignore[arg-type]
        message = _decode(obj)
        cls = type(message)  # (final classes: type checks are isinstance checks)
        if cls is ToolUseMessage:
            announced.add(message.id)  # type: ignore[union-attr]
        elif cls is AssistantMessage and type(message.content) is tuple:  # type: ignore[union-attr]
            uses = [b.id for b in message.content if type(b) is ToolUseBlock]  # type: ignore[union-attr]
            if uses:
                if not announced.isdisjoint(uses):
                    message = ct.without_calls(
                        message,  # type: ignore[arg-type]
                        announced,
                        obj["data"]["toolRequests"],
                    )
                announced.update(uses)
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; lines that are not JSON become InvalidLineMessage.

    Each tool call is given once, where the stream first announces it (see
    :func:`_reader`); a lone :func:`decode` of a ``tool.execution_start`` always gives the
    call.
    """
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def _native(m: Message) -> bool:
    if isinstance(m, AssistantMessage):
        return ct.carried(m)
    return not isinstance(m, (SystemMessage, UserMessage, ToolMessage))


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as wire lines; other role messages become one event per block."""
    return ev.write_lines(messages, _encode, unsupported, NAME, _native)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Pass messages through: Copilot writes each assistant message whole.

    Its deltas are previews kept as stream events, so there is nothing to join; consecutive
    assistant records of one message id are still combined, as everywhere.
    """
    return _base.merge_deltas(messages, is_delta=lambda m: False)
