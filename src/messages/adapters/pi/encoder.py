"""Writing messages as pi session entries.

A message decoded from pi carries its entry's ``type`` (and every key not modelled) in
``extra``, so it is written back as the same entry. A message from elsewhere becomes the
closest entry: a turn of the user, of the assistant, or a tool's result each a ``message``
entry, an :class:`InitMessage` the ``session`` header. A user turn holding several tool
results is written as one ``toolResult`` entry per result (:func:`split`), as pi keeps them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.wire import present
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...convert import message_to_block
from ...errors import EncodeError
from ...events.agent import SystemEventMessage
from ...events.run import InitMessage
from ...flat import RawMessage
from ...message import FLAT_TYPES
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .._common import context_fields
from .._common import refuse
from .._common import refuse_record
from .content import encode_blocks
from .decoder import BASH
from .decoder import ENTRY_EVENTS
from .decoder import SUMMARIES

__all__ = ["encode_message", "split"]

_ASSISTANT_KINDS: Final = frozenset(("text", "thinking", "toolCall"))
_USER_KINDS: Final = frozenset(("text", "image"))
_COUNTS: Final = (
    ("input", "input_tokens"),
    ("output", "output_tokens"),
    ("cacheRead", "cache_read_tokens"),
    ("cacheWrite", "cache_write_tokens"),
)


def _entry(kind: str, m: Message) -> dict[str, Any]:
    return {"type": kind, **present(id=m.uuid, timestamp=m.timestamp)}


def _usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for wire, name in _COUNTS:
        n = getattr(u, name)
        if n is not None:
            out[wire] = n
    if u.cost_usd is not None:
        out["cost"] = {"total": u.cost_usd}
    return ev.overlay(out, u.extra)


def _content(content: str | tuple[Block, ...]) -> tuple[Block, ...]:
    return (TextBlock(content),) if isinstance(content, str) else content


def _kind(m: Message, default: str) -> str:
    tag = m.extra.get("type")
    return tag if isinstance(tag, str) else default


def _user(m: UserMessage, policy: Policy) -> dict[str, Any] | None:
    kind = _kind(m, "message")
    if kind in SUMMARIES and isinstance(m.content, str):
        out = _entry(kind, m)
        out["summary"] = m.content
        return ev.overlay(out, m.extra)
    if isinstance(m.content, str):
        body: Any = m.content
    else:
        body = encode_blocks(m.content, policy, "$.content", _USER_KINDS)
        if not body and m.content:
            return None  # everything it held was left out
    if kind == "custom_message":
        out = _entry(kind, m)
        out["content"] = body
        return ev.overlay(out, m.extra)
    out = _entry("message", m)
    out["message"] = {"role": "user", "content": body}
    return ev.overlay(out, m.extra)


def _assistant(m: AssistantMessage, policy: Policy) -> dict[str, Any] | None:
    blocks = _content(m.content)
    body = encode_blocks(blocks, policy, "$.content", _ASSISTANT_KINDS)
    if not body and blocks:
        return None
    inner: dict[str, Any] = {"role": "assistant", "content": body}
    inner.update(
        present(
            model=m.model,
            usage=None if m.usage is None else _usage(m.usage),
            stopReason=m.stop_reason,
            errorMessage=m.error,
        )
    )
    out = _entry("message", m)
    out["message"] = inner
    return ev.overlay(out, m.extra)


def _result(m: Message, block: ToolResultBlock, policy: Policy) -> dict[str, Any]:
    inner: dict[str, Any] = {"role": "toolResult", "toolCallId": block.tool_use_id}
    if block.name is not None:
        inner["toolName"] = block.name
    blocks = _content(block.content)
    inner["content"] = encode_blocks(blocks, policy, "$.content", _USER_KINDS)
    if block.is_error is not None:
        inner["isError"] = block.is_error
    out = _entry("message", m)
    out["message"] = ev.overlay(inner, block.extra)
    return ev.overlay(out, m.extra)


def split(m: Message) -> list[Message]:
    """A role message as pi's entries hold it: each tool result an entry of its own.

    A turn with tool results and other blocks gives, in order, a message of its own kind
    for each run of other blocks (a user message for a tool turn's) and a ``toolResult``
    message per result; anything else is given as it is.
    """
    if not isinstance(m, (UserMessage, ToolMessage, AssistantMessage)) or isinstance(
        m.content, str
    ):
        return [m]
    if len(m.content) <= 1 or not any(isinstance(b, ToolResultBlock) for b in m.content):
        return [m]
    ctx = context_fields(m)
    out: list[Message] = []
    held: list[Block] = []

    def flush() -> None:
        if held:
            blocks = tuple(held)
            if isinstance(m, (AssistantMessage, UserMessage)):
                out.append(replace(m, content=blocks))  # usage and the rest stay with it
            else:
                out.append(UserMessage(blocks, **ctx))
            held.clear()

    for block in m.content:
        if isinstance(block, ToolResultBlock):
            flush()
            out.append(ToolMessage((block,), **ctx))
        else:
            held.append(block)
    flush()
    return out


def _role(m: UserMessage | ToolMessage, policy: Policy) -> dict[str, Any] | None:
    content = _content(m.content)
    if len(content) == 1 and isinstance(content[0], ToolResultBlock):
        return _result(m, content[0], policy)
    if isinstance(m, ToolMessage):
        m = UserMessage(m.content, **context_fields(m))
    if any(isinstance(b, ToolResultBlock) for b in content):
        raise EncodeError(
            "a turn with tool results and other blocks is several pi entries;"
            " use iter_encode, which writes one per result",
            source="pi",
            value=m,
        )
    return _user(m, policy)


def _flat(m: Message, role: str | None) -> Message:
    """A flat content message as the one-block turn pi writes for it."""
    block = RawBlock(m.data) if isinstance(m, RawMessage) else message_to_block(m)
    ctx = context_fields(m)
    if role == "assistant":
        return AssistantMessage((block,), **ctx)
    if role == "tool" or isinstance(block, ToolResultBlock):
        return ToolMessage((block,), **ctx)
    return UserMessage((block,), **ctx)


def encode_message(m: Message, policy: Policy) -> Any:
    """One message as one pi entry (plain JSON, shared with the message), or ``None``."""
    match m:
        case UserMessage() | ToolMessage():
            return _role(m, policy)
        case AssistantMessage():
            return _assistant(m, policy)
        case InitMessage():
            head = present(id=m.session_id, timestamp=m.timestamp, cwd=m.cwd, modelId=m.model)
            out = ev.overlay({"type": "session", **head}, m.extra)
            if len(out) == 1:
                why = "a pi session header needs an id, a cwd or a timestamp"
                refuse(m, why, policy, degrade=False)
                return None
            return out
        case SystemEventMessage() if m.subtype in ENTRY_EVENTS:
            out = _entry(m.subtype, m)
            out.update(raw(m.data))
            return ev.overlay(out, m.extra)
        case SystemEventMessage() if m.subtype == BASH:
            out = _entry("message", m)
            out["message"] = {"role": BASH, **raw(m.data)}
            return ev.overlay(out, m.extra)
        case RawMessage() if m.role is None:
            if isinstance(m.data, FrozenDict):
                return raw(m.data)
            refuse(m, "a pi entry is an object", policy, degrade=False)
            return None
        case _ if isinstance(m, FLAT_TYPES):
            role = m.role
            if role in ("system", "developer"):
                why = f"pi sessions have no {role} turn"
                alt = refuse(m, why, policy, degrade=False)
                return None if alt is None else encode_message(alt, policy)
            return encode_message(_flat(m, role), policy)
        case SystemMessage():
            refuse(m, "pi sessions have no system turn", policy, degrade=False)
            return None
        case _:  # another session message: a result, an error, an agent's own records
            refuse_record(m, "pi sessions have no entry", policy)
            return None
