"""Helpers the adapters share when writing, and the Claude-shaped block reader (private).

- the loss policy at the level of a message (:func:`refuse`, :func:`as_text`) and of
  tool-result content (:func:`content_text`), on top of :class:`messages.policy.Policy`:
  every adapter words what it cannot carry with :func:`messages.policy.describe`;
- the provenance test an encoder uses before writing a message's ``extra`` back (extras
  from another format are never mixed into this one's wire objects);
- a lossless front end to the Anthropic block codec (Claude Code and Codex): a known block
  that lacks a key the codec would fill in with a default is kept as a :class:`RawBlock`,
  so it round-trips.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import TypeVar

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import JsonValue
from .._core.frozen import raw
from .._core.frozen import thaw
from .._core.make import wrap_owned
from .._core.wire import opt_str
from .._core.wire import rest
from .._shapes import anthropic_blocks
from ..blocks import Block
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..convert import context_of
from ..convert import message_to_block
from ..errors import DecodeError
from ..flat import AudioMessage
from ..flat import DocumentMessage
from ..flat import ImageMessage
from ..flat import RawMessage
from ..flat import ServerToolResultMessage
from ..flat import ServerToolUseMessage
from ..flat import TextMessage
from ..flat import ThinkingMessage
from ..flat import VideoMessage
from ..message import Message
from ..policy import Policy
from ..policy import describe
from ..roles import AssistantMessage

__all__ = [
    "OTHER_CONTENT",
    "REQUIRED_BLOCK_KEYS",
    "as_text",
    "content_text",
    "context_fields",
    "decode_content",
    "foreign",
    "other_out",
    "plain",
    "read_back",
    "refuse",
    "refuse_content",
    "refuse_other",
    "refuse_record",
    "text_in",
    "text_out",
    "tool_pair",
]

REQUIRED_BLOCK_KEYS: Final[dict[Any, frozenset[str]]] = {
    "text": frozenset(("text",)),
    "thinking": frozenset(("thinking",)),
    "redacted_thinking": frozenset(("data",)),
    "tool_use": frozenset(("id", "name", "input")),
    "tool_result": frozenset(("tool_use_id", "content")),
}
"""Keys the Anthropic block codec would otherwise default (and then write back)."""

_FOREIGN_MARKERS: Final = ("method", "jsonrpc")

OTHER_CONTENT: Final = (
    RawMessage,
    ImageMessage,
    AudioMessage,
    DocumentMessage,
    VideoMessage,
    ServerToolUseMessage,
    ServerToolResultMessage,
)
"""Flat content most agent formats have no place for: raw content, media, server tools."""

_Out = TypeVar("_Out")


def foreign(extra: Mapping[str, JsonValue], expected: str | tuple[str, ...]) -> bool:
    """Whether ``extra`` came from another format and must not be written into this one.

    Decoders of the Claude Code and Codex adapters keep the wire ``type`` (or the JSON-RPC
    ``method``) in ``extra``; an extra whose ``type`` is not one this encoder would write,
    or that carries a JSON-RPC marker the target does not use, belongs to another format.
    An extra without a ``type`` (written by hand, or a block's extra) is taken as ours.
    """
    d = raw(extra) if type(extra) is FrozenDict else extra  # plain reads, no wrapping
    if not d:
        return False
    tag = d.get("type")
    if tag is not None and (tag != expected if type(expected) is str else tag not in expected):
        return True
    return "method" in d or "jsonrpc" in d  # _FOREIGN_MARKERS


def _complete(values: list[Any], depth: int) -> bool:
    """True when every known block in ``values`` has the keys the codec needs."""
    if depth > anthropic_blocks.MAX_BLOCK_DEPTH:
        return True  # the codec reports the depth itself
    for v in values:
        if type(v) is not dict:
            continue
        tag = v.get("type")
        need = REQUIRED_BLOCK_KEYS.get(tag) if type(tag) is str else None
        if need is None:
            continue
        if not v.keys() >= need:
            return False
        if tag == "tool_result":
            inner = v["content"]
            if type(inner) is list and not _complete(inner, depth + 1):
                return False
    return True


def _block(value: Any) -> Block:
    if type(value) is dict:
        tag = value.get("type")
        need = REQUIRED_BLOCK_KEYS.get(tag) if type(tag) is str else None
        if need is not None and (
            not value.keys() >= need
            or (
                tag == "tool_result"
                and type(value["content"]) is list
                and not _complete(value["content"], 1)
            )
        ):
            return RawBlock(wrap_owned(value))
    return anthropic_blocks.decode_block(value, "anthropic")


def _tool_result(value: dict[str, Any], provider: str | None, depth: int) -> Block:
    """A tool result whose nested blocks are complete; else the whole result kept raw."""
    content = value["content"]
    if type(content) is list and not _complete(content, 1):
        return RawBlock(wrap_owned(value))
    return anthropic_blocks.DECODERS["tool_result"](value, provider, depth)


_FAST_DECODERS: Final = {
    tag: _tool_result if tag == "tool_result" else anthropic_blocks.DECODERS[tag]
    for tag in REQUIRED_BLOCK_KEYS
}
"""The decoder of each kind with required keys, once those keys are known to be there."""


def decode_content(values: list[Any]) -> tuple[Block, ...]:
    """Owned Anthropic-shaped blocks to blocks, losslessly (see the module docstring)."""
    fast = _FAST_DECODERS
    required = REQUIRED_BLOCK_KEYS
    if len(values) == 1:  # most Claude Code lines hold one block: no loop, no list
        value = values[0]
        if type(value) is dict:
            tag = value.get("type")
            decoder = fast.get(tag) if type(tag) is str else None
            if decoder is not None and value.keys() >= required[tag]:
                try:
                    return (decoder(value, "anthropic", 0),)
                except DecodeError as exc:
                    raise exc.within("[0]") from None
    out = []
    for i, value in enumerate(values):
        try:
            if type(value) is dict:
                tag = value.get("type")
                decoder = fast.get(tag) if type(tag) is str else None
                if decoder is not None and value.keys() >= required[tag]:
                    out.append(decoder(value, "anthropic", 0))
                    continue
            out.append(_block(value))
        except DecodeError as exc:
            raise exc.within(f"[{i}]") from None
    return tuple(out)


def as_text(message: Message) -> TextMessage | None:
    """What ``unsupported="text"`` turns a message into: a TextMessage with its context.

    Its text is what :func:`messages.policy.describe` says of the message's content (the
    same words every codec writes); its role is the message's (``assistant`` for a raw line
    without one). Text is given back as is; session messages (stream events, invalid lines,
    init...) have no content to describe and give ``None``.
    """
    match message:
        case TextMessage():
            return message
        case (
            ThinkingMessage()
            | ImageMessage()
            | AudioMessage()
            | DocumentMessage()
            | VideoMessage()
            | RawMessage()
        ):
            role = message.role or "assistant"
        case _:
            return None
    block = RawBlock(message.data) if isinstance(message, RawMessage) else message_to_block(message)
    context = context_of(message)
    context["role"] = role
    return TextMessage(describe(block), **context)


def context_fields(message: Message) -> dict[str, Any]:
    """The context fields set on a message (ids, time, model), without its role.

    What a message of another class built from it takes: a tool turn written as a user
    turn, a flat message's block as a turn.
    """
    context: dict[str, Any] = dict(context_of(message))
    context.pop("role", None)
    return context


def refuse(
    message: Message, why: str, policy: Policy, *, degrade: bool = True
) -> TextMessage | None:
    """Apply the loss policy to a whole message the format cannot carry.

    ``"raise"`` raises :class:`UnsupportedContentError` (``why``, at ``$``); ``"drop"``
    gives ``None``; ``"text"`` gives :func:`as_text` of it for the caller to encode instead
    (``None`` when ``degrade`` is false: the format has no text where it would go).
    """
    policy.refuse(why, "$", message)
    if degrade and policy.mode == "text":
        return as_text(message)
    return None


def refuse_content(
    message: Message, why: str, policy: Policy, encode: Callable[[Message, Policy], _Out]
) -> _Out | None:
    """Refuse content the format cannot carry; under ``"text"``, ``encode`` its text instead."""
    alt = refuse(message, why, policy)
    return None if alt is None else encode(alt, policy)


def refuse_other(
    message: Message,
    target: str,
    policy: Policy,
    encode: Callable[[Message, Policy], _Out],
    *,
    content: str | None = None,
) -> _Out | None:
    """The last arm of an encoder's ``match``: what the format has no place for.

    Raw content, media and server tools (:data:`OTHER_CONTENT`) are refused as
    ``"<content> for <kind> content"`` (``content`` defaults to ``target``), and under
    ``"text"`` their text is encoded instead (:func:`refuse_content`); anything else (a
    session message: an init, a stream event, an agent's event or record...) is refused as
    a record (:func:`refuse_record`).
    """
    if isinstance(message, OTHER_CONTENT):
        why = f"{content or target} for {message.kind} content"
        return refuse_content(message, why, policy, encode)
    refuse_record(message, target, policy)
    return None


def refuse_record(message: Message, target: str, policy: Policy) -> None:
    """Refuse a session record the target has nothing for (no text to degrade it to).

    ``target`` says what the format lacks (``"Copilot has no event"``); the message reads
    ``"Copilot has no event for a status message"``.
    """
    refuse(message, f"{target} for a {message.kind} message", policy, degrade=False)


def content_text(content: str | tuple[Block, ...], policy: Policy, at: str = "$.content") -> str:
    """The text of tool-result content for a format that only carries a string.

    Text blocks are joined with newlines; any other block goes through the policy: refused,
    left out, or replaced by :func:`messages.policy.describe`'s words for it.
    """
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for i, block in enumerate(content):
        if isinstance(block, TextBlock):
            parts.append(block.text)
            continue
        reason = f"cannot carry {block.kind} blocks in tool results"
        alt = policy.degrade(block, f"{at}[{i}]", reason)
        if alt is not None:
            parts.append(alt.text)
    return "\n".join(parts)


_TEXT: Final = frozenset(("type", "text"))
_THINKING: Final = frozenset(("type", "thinking", "signature"))


def text_in(b: Any, at: str) -> Block | None:
    """An owned content item as its block if it is text or thinking (Anthropic-shaped).

    What the item holds beyond its text (or thinking and signature) stays in ``extra``; an
    item that is not an object is kept whole as a :class:`RawBlock`. ``None``: another item.
    """
    if type(b) is not dict:
        return RawBlock(wrap_owned(b) if type(b) in (dict, list) else b)
    tag = b.get("type")
    if tag == "text" and type(b.get("text")) is str:
        left = rest(b, _TEXT)
        return TextBlock(b["text"], extra=wrap_owned(left) if left else EMPTY)
    if tag == "thinking" and type(b.get("thinking")) is str:
        sig = opt_str(b, "signature", at)
        left = rest(b, _THINKING)
        return ThinkingBlock(
            b["thinking"], signature=sig, extra=wrap_owned(left) if left else EMPTY
        )
    return None


def text_out(
    b: TextBlock | ThinkingBlock, policy: Policy, at: str, no_citations: str
) -> dict[str, Any]:
    """A text or thinking block in the Anthropic shape (Amp's and Goose's content).

    ``{"type": "text", "text"}``, or ``{"type": "thinking", "thinking"}`` with its
    ``signature``; a text's citations have no place (``no_citations`` says so, at ``at``).
    """
    if isinstance(b, ThinkingBlock):
        out: dict[str, Any] = {"type": "thinking", "thinking": b.thinking}
        if b.signature is not None:
            out["signature"] = b.signature
        return out
    if b.citations is not None:
        policy.refuse(no_citations, at + ".citations", b)
    return {"type": "text", "text": b.text}


def other_out(b: Block, policy: Policy, at: str, no_item: str) -> Any:
    """Any other block, beside :func:`text_out`'s (Amp's and Goose's content).

    A raw block is written back as it was; anything else (media, server tools) goes through
    the policy: refused as ``"<no_item> for <kind> content"``, or under ``"text"`` written as
    a text item of its description.
    """
    if isinstance(b, RawBlock):
        return raw(b.data)
    alt = policy.degrade(b, at, f"{no_item} for {b.kind} content")
    return None if alt is None else {"type": "text", "text": alt.text}


def read_back(message: Message, found: Any, why: str, policy: Policy) -> Any:
    """What a format that is read, never written, gives back for ``message``.

    ``found``: the record ``message`` was read from (``None``: it was read from none); else
    a raw record (no role, an object) as it was; anything else is refused (``why``, at ``$``).
    """
    if found is not None:
        return found
    if (
        isinstance(message, RawMessage)
        and message.role is None
        and isinstance(message.data, Mapping)
    ):
        return message.data
    policy.refuse(why, "$", message)
    return None


def plain(value: Any) -> Any:
    """A fresh, mutable copy of an encoded wire value (what public ``encode`` returns)."""
    return thaw(value)


def tool_pair(m: AssistantMessage) -> tuple[ToolUseBlock, ToolResultBlock] | None:
    """The call and its result when ``m`` holds exactly those two blocks, in that order.

    Codex and OpenCode write such a turn as one tool event: the call with its outcome.
    """
    content = m.content
    if isinstance(content, str) or len(content) != 2:
        return None
    use, result = content
    if (
        isinstance(use, ToolUseBlock)
        and isinstance(result, ToolResultBlock)
        and result.tool_use_id == use.id
    ):
        return use, result
    return None
