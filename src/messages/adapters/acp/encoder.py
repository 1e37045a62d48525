"""Messages to Agent Client Protocol JSON-RPC messages, refusals by the policy."""

from __future__ import annotations

from typing import Any

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ...blocks import AudioBlock
from ...blocks import ImageBlock
from ...blocks import TextBlock
from ...events.run import ErrorMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import DocumentMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...flat import VideoMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _events as ev
from .._common import refuse
from .._common import refuse_content
from .._common import refuse_other
from . import content as cb
from .decoder import _CHUNK_OF
from .decoder import NAME
from .decoder import USAGE

__all__ = ["encode"]


def _rpc(method: str, m: Message, params: dict[str, Any]) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    if m.session_id is not None:
        inner["sessionId"] = m.session_id
    inner.update(params)
    return {"jsonrpc": "2.0", "method": method, "params": inner}


def _update_out(m: Message, update: dict[str, Any]) -> dict[str, Any]:
    return _rpc("session/update", m, {"update": update})


def _chunk_out(kind: str, m: Message, content: Any) -> dict[str, Any]:
    update: dict[str, Any] = {"sessionUpdate": kind}
    if m.message_id is not None:
        update["messageId"] = m.message_id
    update["content"] = content
    return _update_out(m, update)


def _chunked(m: TextMessage | ImageMessage | AudioMessage | RawMessage) -> bool:
    """Content a chunk of its role carries (not a RawMessage holding a whole JSON-RPC line)."""
    if isinstance(m, RawMessage) and isinstance(m.data, FrozenDict) and "jsonrpc" in m.data:
        return False
    return m.role in _CHUNK_OF


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case TextMessage() | ImageMessage() | AudioMessage() | RawMessage() if _chunked(m):
            if isinstance(m, TextMessage):
                if m.citations is not None:
                    why = "ACP text blocks carry no citations"
                    refuse(m, why, policy, degrade=False)
                content = cb.block_out(TextBlock(m.text))
            elif isinstance(m, RawMessage):
                content = raw(m.data)
            else:
                if m.file_id is not None:
                    alt = refuse(m, cb.NO_FILE_ID, policy)
                    return None if alt is None else _encode(alt, policy)
                block = (ImageBlock if isinstance(m, ImageMessage) else AudioBlock)(
                    data=m.data, url=m.url, media_type=m.media_type
                )
                content = cb.block_out(block)
            out = _chunk_out(_CHUNK_OF[m.role or "assistant"], m, content)
        case RawMessage() if isinstance(m.data, FrozenDict) and (
            m.role is None or "jsonrpc" in m.data
        ):
            return raw(m.data)  # type: ignore[no-any-return]
        case DocumentMessage() | VideoMessage():
            return refuse_content(m, f"ACP content has no {m.kind} block", policy, _encode)
        case ThinkingMessage():
            out = _chunk_out("agent_thought_chunk", m, {"type": "text", "text": m.thinking})
        case ToolUseMessage():
            update: dict[str, Any] = {"sessionUpdate": "tool_call", "toolCallId": m.id}
            if m.name:
                update["title"] = m.name
            if m.input:
                update["rawInput"] = raw(m.input)
            out = _update_out(m, update)
        case ToolResultMessage():
            update = {
                "sessionUpdate": "tool_call_update",
                "toolCallId": m.tool_use_id,
                "status": "failed" if m.is_error else "completed",
            }
            items = cb.result_items(m, policy)
            if items is not None:
                update["content"] = items
            out = _update_out(m, update)
        case UserMessage() if all(cb.prompt_block(b) for b in as_blocks(m.content)):
            prompt = [cb.block_out(b) for b in as_blocks(m.content)]
            out = _rpc("session/prompt", m, {"prompt": prompt})
        case ResultMessage():
            result: dict[str, Any] = {"stopReason": m.subtype or "end_turn"}
            if m.usage is not None:
                result["usage"] = ev.usage_out(m.usage, USAGE)
            out = {"jsonrpc": "2.0", "result": result}
        case ErrorMessage():
            out = {"jsonrpc": "2.0", "error": {"message": m.message}}
        case StreamEventMessage() if raw(m.event).get("jsonrpc") == "2.0":
            return raw(m.event)  # type: ignore[no-any-return]
        case TextMessage() | ImageMessage() | AudioMessage() | RawMessage():
            why = f"ACP has no {m.kind} chunk for the {m.role} role"
            refuse(m, why, policy, degrade=False)
            return None
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:  # server tools; stream events, inits, an agent's own records
            return refuse_other(
                m, "ACP has no message", policy, _encode, content="ACP has no update"
            )
    return ev.finish(out, m.extra, ("jsonrpc", "method"))


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one ACP JSON-RPC message (a fresh dict): ``encode(decode(x)) == x``.

    From other sources: text, images and audio become chunks of their role, thinking an
    ``agent_thought_chunk``, tool calls ``tool_call``, tool results a final
    ``tool_call_update``, a user turn the ``session/prompt`` request, a result the prompt's
    response, an error a JSON-RPC error (without id or code). Raw blocks are written as
    content verbatim. Init, system text and foreign stream events raise
    :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"`` or ``"text"``.

    >>> encode(ThinkingMessage("hm", session_id="s1"))["params"]["update"]
    {'sessionUpdate': 'agent_thought_chunk', 'content': {'type': 'text', 'text': 'hm'}}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))
