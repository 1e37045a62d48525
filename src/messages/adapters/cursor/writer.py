"""Writing messages as ``cursor-agent --output-format stream-json`` lines.

Every Cursor line names its session: a message without a ``session_id`` is written with
``"session_id": null`` (Cursor's own key, saying the session is not known), which also keeps
the line apart from the prompt line a caller sends Claude Code; a result names its
``request_id`` the same way.
"""

from __future__ import annotations

from typing import Any

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.wire import present
from ..._shapes import anthropic_blocks
from ...blocks import Block
from ...blocks import TextBlock
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import FLAT_TYPES
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _events as ev
from .._common import content_text
from .._common import refuse
from .._common import refuse_record
from .reader import INIT_MARKS
from .reader import SUFFIX
from .reader import TEXT_ONLY

__all__ = ["encode_line", "native"]


def _line(kind: str, m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, "session_id": m.session_id}
    if m.message_id is not None:
        out["model_call_id"] = m.message_id
    if isinstance(m.timestamp, int):
        out["timestamp_ms"] = m.timestamp
    return out


def native(m: Message) -> bool:
    """Whether a message is one Cursor line as it is (a turn of text only, or not a turn)."""
    if isinstance(m, (UserMessage, AssistantMessage)):
        return isinstance(m.content, str) or all(isinstance(b, TEXT_ONLY) for b in m.content)
    return not isinstance(m, (SystemMessage, ToolMessage))


def _blocks(content: str | tuple[Block, ...], policy: Policy) -> list[Any]:
    blocks = (TextBlock(content),) if isinstance(content, str) else content
    out = []
    for i, block in enumerate(blocks):
        plain = block
        if isinstance(block, TextBlock) and block.citations is not None:
            policy.refuse("Cursor text carries no citations", f"$.content[{i}].citations", block)
            plain = TextBlock(block.text, extra=block.extra)
        out.append(anthropic_blocks.encode_block(plain))
    return out


def _turn(m: UserMessage | AssistantMessage, policy: Policy) -> dict[str, Any]:
    out = _line(m.role, m)
    out["message"] = {"role": m.role, "content": _blocks(m.content, policy)}
    return ev.overlay(out, m.extra)


def _call_key(m: Message, name: str) -> str:
    kept = m.extra.get("tool_call")
    if isinstance(kept, FrozenDict) and len(kept) == 1:
        return next(iter(kept))
    return name + SUFFIX


def _use(m: ToolUseMessage) -> dict[str, Any]:
    out = _line("tool_call", m)
    out["subtype"] = "started"
    out["call_id"] = m.id
    payload: dict[str, Any] = {}
    if m.arguments is not None:
        payload["arguments"] = m.arguments
    elif m.input or "tool_call" not in m.extra:  # an empty args object stays in extra
        payload["args"] = raw(m.input)
    out["tool_call"] = {_call_key(m, m.name): payload}
    return ev.overlay(out, m.extra)


def _result(m: ToolResultMessage, policy: Policy) -> dict[str, Any]:
    out = _line("tool_call", m)
    out["subtype"] = "completed"
    out["call_id"] = m.tool_use_id
    if "tool_call" not in m.extra:  # from elsewhere: the outcome as Cursor words one
        text = content_text(m.content, policy)
        outcome = {"error": {"message": text}} if m.is_error else {"success": {"content": text}}
        out["tool_call"] = {_call_key(m, m.name or "tool"): {"args": {}, "result": outcome}}
    return ev.overlay(out, m.extra)


def _run(m: ResultMessage, policy: Policy) -> dict[str, Any]:
    out = _line("result", m)
    out["request_id"] = None  # Cursor's key; from the extra when the result is Cursor's own
    if m.subtype is not None:
        out["subtype"] = m.subtype
    for key in ("duration_ms", "duration_api_ms", "is_error", "result"):
        value = getattr(m, key)
        if value is not None:
            out[key] = value
    if m.usage is not None or m.total_cost_usd is not None or m.num_turns is not None:
        policy.refuse("a Cursor result carries no usage, cost or turn count", "$.usage", m)
    return ev.overlay(out, m.extra)


def _init(m: InitMessage, policy: Policy) -> dict[str, Any] | None:
    if not any(k in m.extra for k in INIT_MARKS):
        why = "a Cursor init names its apiKeySource or permissionMode; this one has neither"
        refuse(m, why, policy, degrade=False)
        return None
    out = _line("system", m)
    out["subtype"] = "init"
    out.update(present(cwd=m.cwd, model=m.model))
    if m.tools is not None:
        policy.refuse("a Cursor init names no tools", "$.tools", m)
    return ev.overlay(out, m.extra)


def encode_line(m: Message, policy: Policy) -> Any:
    """One message as one Cursor line (plain JSON, shared with the message), or ``None``."""
    match m:
        case UserMessage() | AssistantMessage() if native(m):
            return _turn(m, policy)
        case TextMessage() if m.role in ("user", "assistant"):
            if m.citations is not None:
                policy.refuse("Cursor text carries no citations", "$.citations", m)
            out = _line(m.role, m)
            out["message"] = {"role": m.role, "content": [{"type": "text", "text": m.text}]}
            return ev.overlay(out, m.extra)
        case ThinkingMessage() if m.role == "assistant":
            if m.signature is not None:
                policy.refuse("Cursor thinking carries no signature", "$.signature", m)
            out = _line("thinking", m)
            out["subtype"] = "delta"
            out["text"] = m.thinking
            return ev.overlay(out, m.extra)
        case ToolUseMessage():
            return _use(m)
        case ToolResultMessage():
            return _result(m, policy)
        case ResultMessage():
            return _run(m, policy)
        case InitMessage():
            return _init(m, policy)
        case StreamEventMessage() if raw(m.event).get("type") == "thinking":
            return raw(m.event)
        case RawMessage() if m.role is None and isinstance(m.data, FrozenDict):
            return raw(m.data)
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return encode_line(ev.single(m, "cursor"), policy)
        case _ if isinstance(m, FLAT_TYPES):
            why = f"Cursor stream-json has no line for {m.role or 'raw'} {m.kind} content"
            alt = refuse(m, why, policy)
            if alt is None or alt.role not in ("assistant", "user"):
                return None
            return encode_line(alt, policy)
        case _:  # another session message: an error, a stream event, an agent's own records
            refuse_record(m, "Cursor stream-json has no line", policy)
            return None
