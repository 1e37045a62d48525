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
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .._common import tool_pair
from .decoder import _PART_EVENTS
from .decoder import NAME
from .decoder import _decode
from .decoder import _tool
from .decoder import decode
from .encoder import _WAIT
from .encoder import _encode
from .encoder import encode

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]


def detect(obj: Any) -> bool:
    """Whether a parsed line is an ``opencode run --format json`` event."""
    tag = _base.line_type(obj)
    if tag is None:
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
    return ev.write_lines(_paired(messages), _encode, unsupported, NAME)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Fold the states of one tool call (pending, running) into one call.

    OpenCode writes whole text parts, so there are no deltas to join.
    """
    return ev.fold_calls(_base.merge_deltas(messages, is_delta=lambda m: False))
