"""OpenAI Codex: exec events, the app-server JSON-RPC stream, session rollout files.

``codex exec --json`` prints exec events, ``codex app-server`` speaks JSON-RPC, and Codex
keeps every session in a rollout file under ``~/.codex/sessions``. A
``{"timestamp", "type", "payload"}`` line of a rollout type is a rollout line (see
:mod:`.rollout`); another line with a ``type`` is an exec event; a line without one is
app-server JSON-RPC (see :mod:`.app`). Exec events:

- ``thread.started`` -> :class:`InitMessage` (``session_id`` = ``thread_id``);
- ``turn.completed`` -> :class:`ResultMessage` with ``usage`` (``is_error=False``);
  ``turn.failed`` -> :class:`ResultMessage` (``is_error=True``, ``result`` = error message);
- ``error`` -> :class:`ErrorMessage`;
- ``item.completed`` -> the item: agent text, reasoning, error items (see
  :mod:`.items`); a tool item (command, file change, MCP call, web search) -> its
  :class:`ToolResultMessage` alone when the stream showed the call start, else an
  :class:`AssistantMessage` with the call and its result;
- ``item.started`` / ``item.updated`` -> a :class:`ToolUseMessage` the first time a tool call
  is seen; every other one only previews what ``item.completed`` holds whole, so it is a
  :class:`StreamEventMessage` (verbatim, ``message_id`` = item id);
- ``turn.started``, completed todo lists and anything unknown -> :class:`RawMessage`, verbatim.

Pairing a completed tool item with its start needs the stream: :func:`iter_decode` remembers
the calls it has seen start (and forgets them at ``thread.started``); a lone :func:`decode`
is told through ``started``. So a command that starts and completes reads, flat, as one
``tool_use`` and one ``tool_result``, and so does a file change that only completes.

Codex usage counts cached tokens inside ``input_tokens``; :class:`Usage` does not, so
``input_tokens`` is decoded as ``input_tokens - cached_input_tokens`` and added back on the
way out. ``decode`` takes over the object it is given (nested values are shared).
See docs/adapters/codex.md.

>>> m = decode({"type": "item.completed", "item": {"id": "item_3", "type": "agent_message",
...                                                "text": "Done."}})
>>> m.text, m.message_id
('Done.', 'item_3')
>>> encode(m)
{'type': 'item.completed', 'item': {'id': 'item_3', 'type': 'agent_message', 'text': 'Done.'}}
>>> done = {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution",
...         "command": "ls", "aggregated_output": "a.txt", "exit_code": 0}}
>>> [b.kind for b in decode(done).content]
['tool_use', 'tool_result']
>>> decode(done, started={"item_1"}).kind
'tool_result'
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from ..._core.jsontext import dump_compact
from ...convert import block_to_message
from ...convert import context_of
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .decoder import _EXEC_TYPES
from .decoder import NAME
from .decoder import _decode
from .decoder import decode
from .decoder import detect
from .encoder import _encode
from .encoder import encode
from .items import encode_item
from .rollout import TYPES as ROLLOUT_TYPES
from .rollout import Context

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]


def _reader() -> Callable[[Any], Message]:
    """A decoder that remembers the tool calls it has seen start (see :func:`decode`)."""
    started: set[str] = set()
    context = Context()

    def read(obj: Any) -> Message:
        message = _decode(obj, started, context)
        if isinstance(message, ToolUseMessage):
            started.add(message.id)
        elif isinstance(message, AssistantMessage):  # a call seen only once it completed
            started.update(use.id for use in message.tool_uses)
        elif isinstance(message, InitMessage) and message.extra.get("type") == "thread.started":
            started.clear()  # a new exec run numbers its items from item_0 again
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode Codex lines lazily; bad lines become InvalidLineMessage unless ``strict``.

    The reader pairs each tool item's events: the call is decoded once, when it is first
    seen, and its completed event gives the result alone (see :func:`decode`).
    """
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Pass messages through: every Codex item is written whole when it completes.

    App-server text and reasoning deltas are previews of that item and decode to stream
    events, so there is nothing to join; consecutive assistant records of one message id
    are still combined, as everywhere.
    """
    return _base.merge_deltas(messages, is_delta=lambda m: False)


def _split(m: Message) -> Iterator[Message]:
    """Role messages from other sources, one message per block; everything else as is."""
    if isinstance(m, (AssistantMessage, UserMessage, ToolMessage, SystemMessage)):
        tag = m.extra.get("type")
        own = "method" in m.extra or tag in _EXEC_TYPES or tag in ROLLOUT_TYPES
        pair = isinstance(m, AssistantMessage) and encode_item(m, None, False) is not None
        if not own and not pair and not isinstance(m.content, str) and len(m.content) > 1:
            context = context_of(m)
            for block in m.content:
                yield block_to_message(block, **context)
            return
    yield m


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages to Codex lines (one event per block for role messages from other sources).

    A tool result from another source is written as a completed item that repeats the name
    and input of its call, when the call came earlier in ``messages``.
    """
    policy = Policy(unsupported, NAME)
    calls: dict[str, ToolUseMessage] = {}
    for message in messages:
        for part in _split(message):
            if isinstance(part, InvalidLineMessage):
                yield part.text
                continue
            if isinstance(part, ToolUseMessage):
                calls[part.id] = part
            obj = _encode(part, policy, calls)
            if obj is not None:
                yield dump_compact(obj)
