"""Writing messages as the entries of a Cline task's documents.

A message read from a document is written back as the entry it was (its document mark is
left out: the stream writer uses it to rebuild the document). A message from elsewhere
becomes a conversation entry when it is content (a turn, or one flat block as a one-block
turn); blocks Cline cannot keep (audio, video, documents, server tools, a thinking block of
another provider is kept as it is) follow the loss policy.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import raw
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import VideoBlock
from ...convert import message_to_block
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
from .. import _events as ev
from .._common import context_fields
from .._common import refuse
from .documents import KEY
from .documents import METADATA
from .documents import unmarked
from .turns import SHAPE
from .turns import encode_turn
from .ui import encode_item

__all__ = ["encode_entry", "foreign_entries"]

_NOT_KEPT: Final = (
    AudioBlock,
    VideoBlock,
    DocumentBlock,
    ServerToolUseBlock,
    ServerToolResultBlock,
)


def _ui(m: Message) -> bool:
    return m.extra.get("type") in ("ask", "say")


def _carry(blocks: tuple[Block, ...], policy: Policy) -> tuple[Block, ...] | None:
    """The blocks Cline keeps, the others through the policy; ``None`` if none is left."""
    out: list[Block] = []
    for i, block in enumerate(blocks):
        if isinstance(block, _NOT_KEPT) and SHAPE not in block.extra:  # not Cline's own
            alt = policy.degrade(
                block, f"$.content[{i}]", f"Cline cannot carry {block.kind} blocks"
            )
            if alt is not None:
                out.append(alt)
            continue
        out.append(block)
    if blocks and not out:
        return None
    return tuple(out)


def foreign_entries(m: Message, policy: Policy, *, check: bool = False) -> list[Any] | None:
    """The conversation entries a content message from elsewhere gives.

    ``None`` if it is not content (a session message, or a UI item read from Cline).
    ``check`` only asks.
    """
    if _ui(m):
        return None
    if isinstance(m, RawMessage) and m.role is None:
        return None
    if not isinstance(m, (UserMessage, AssistantMessage, ToolMessage, SystemMessage, *FLAT_TYPES)):
        return None
    if check:
        return []
    role = getattr(m, "role", None)
    if isinstance(m, SystemMessage) or role in ("system", "developer"):
        refuse(m, f"a Cline task has no {role} turn", policy, degrade=False)
        return []
    if isinstance(m, (UserMessage, AssistantMessage, ToolMessage)):
        content = m.content
        turn: UserMessage | AssistantMessage = (
            m if not isinstance(m, ToolMessage) else UserMessage(content, **context_fields(m))
        )
    else:
        block = RawBlock(m.data) if isinstance(m, RawMessage) else message_to_block(m)
        if isinstance(m, RawMessage):
            alt = refuse(m, "Cline has no place for raw content of its own", policy)
            if alt is None:
                return []
            block = message_to_block(alt)
        content = (block,)
        ctx = context_fields(m)
        turn = (
            AssistantMessage(content, **ctx) if role == "assistant" else UserMessage(content, **ctx)
        )
    if isinstance(content, str):
        return [encode_turn(turn, policy)]
    kept = _carry(content, policy)
    if kept is None:
        return []
    return [encode_turn(replace(turn, content=kept), policy)]


def encode_entry(m: Message, policy: Policy) -> Any:
    """A message as the entry (or document, or line) it was read from.

    ``None`` if it has none and the policy leaves it out.
    """
    extra = m.extra
    if KEY in extra:
        m = replace(m, extra=unmarked(extra))
    if _ui(m):
        item = encode_item(m)
        if item is not None:
            return item
    match m:
        case UserMessage() | AssistantMessage():
            return encode_turn(m, policy)
        case InitMessage() if KEY in extra:
            out: dict[str, Any] = {}
            if m.session_id is not None:
                out["sessionId"] = m.session_id
            return ev.overlay(out, m.extra)
        case SystemEventMessage() if m.subtype == METADATA:
            return raw(m.data)
        case RawMessage() if m.role is None:
            return raw(m.data)
    entries = foreign_entries(m, policy)
    if entries is not None:
        return entries[0] if len(entries) == 1 else None
    refuse(m, f"a Cline task has no entry for a {m.kind} message", policy, degrade=False)
    return None
