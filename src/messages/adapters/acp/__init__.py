"""Agent Client Protocol (ACP): JSON-RPC 2.0 between an editor and a coding agent.

``opencode acp``, ``gemini --experimental-acp`` and ``copilot --acp`` speak it. A recorded
session interleaves the client's requests, the agent's responses and the agent's
``session/update`` notifications. The mapping (see ``docs/adapters/acp.md`` for the table):

- ``agent_message_chunk`` / ``user_message_chunk`` -> :class:`TextMessage` (or
  :class:`ImageMessage`, :class:`AudioMessage`) of role assistant / user;
  ``agent_thought_chunk`` -> :class:`ThinkingMessage`; ``messageId`` -> ``message_id``.
  :func:`merge` joins consecutive chunks of one message;
- ``tool_call`` -> :class:`ToolUseMessage` (``toolCallId``, ``title`` as name, ``rawInput``);
- ``tool_call_update`` with status ``completed`` / ``failed`` -> :class:`ToolResultMessage`
  (``content`` items as blocks: text and images modelled, diffs and terminals kept as
  :class:`RawBlock`); any other update -> another :class:`ToolUseMessage` for the same id,
  because agents fill in the input there (``merge`` folds such runs into one call);
- the ``session/prompt`` request -> :class:`UserMessage` with the prompt's blocks; its
  response (``stopReason``, ``usage``) -> :class:`ResultMessage`; an error response ->
  :class:`ErrorMessage`;
- ``plan``, ``available_commands_update``, ``current_mode_update``, ``usage_update``..., and
  every other request or response -> :class:`StreamEventMessage`, verbatim;
- unknown update kinds, and lines that are not JSON-RPC 2.0 -> :class:`RawMessage`.

>>> m = decode({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s1",
...     "update": {"sessionUpdate": "agent_message_chunk",
...                "content": {"type": "text", "text": "Hi"}}}})
>>> m.text, m.role, m.session_id
('Hi', 'assistant', 's1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...message import Message
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _base
from .. import _events as ev
from . import content as cb
from .decoder import _METHOD_PREFIXES
from .decoder import NAME
from .decoder import _decode
from .decoder import decode
from .encoder import _encode
from .encoder import encode

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]


def detect(obj: Any) -> bool:
    """Whether a parsed line is an ACP message.

    JSON-RPC 2.0 with an ACP method (``session/*``, ``fs/*``, ``terminal/*``, ``initialize``
    with a ``protocolVersion``), a response only ACP gives (``stopReason``,
    ``agentCapabilities``, ``sessionId``), or an error response (no other format here speaks
    JSON-RPC 2.0: Codex app-server requests use other methods and its responses carry no
    ``jsonrpc``).
    """
    if type(obj) is not dict or obj.get("jsonrpc") != "2.0":
        return False
    method = obj.get("method")
    if type(method) is str:
        if method == "initialize":
            params = obj.get("params")
            return type(params) is dict and type(params.get("protocolVersion")) is int
        return method.startswith(_METHOD_PREFIXES) or method == "authenticate"
    if type(obj.get("error")) is dict:  # an error response: ACP is the JSON-RPC 2.0 format here
        return "result" not in obj
    result = obj.get("result")
    return type(result) is dict and bool(
        {"stopReason", "agentCapabilities", "sessionId"} & result.keys()
    )


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a recorded session lazily; lines that are not JSON become InvalidLineMessage."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def _native(m: Message) -> bool:
    if isinstance(m, UserMessage):
        return all(cb.prompt_block(b) for b in as_blocks(m.content))
    return not isinstance(m, (SystemMessage, AssistantMessage, ToolMessage))


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as JSON-RPC lines.

    A user turn of content blocks becomes the ``session/prompt`` request; other role
    messages are split into one message per block.
    """
    return ev.write_lines(messages, _encode, unsupported, NAME, _native)


def _is_delta(m: Message) -> bool:
    return isinstance(m, (TextMessage, ThinkingMessage))


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive chunks of one message, and fold a tool call with its progress updates.

    Chunks of the same kind, role, ``messageId`` and session become one message. A
    ``tool_call`` followed by in-progress updates for the same id (with only session
    messages, such as a permission request, in between) becomes one ToolUseMessage with the
    first non-empty name and the last non-empty input, written before those session
    messages. The updates' status, locations and progress output are not carried over:
    merging is a view, not a lossless step.
    """
    return ev.fold_calls(_base.merge_deltas(messages, is_delta=_is_delta))
