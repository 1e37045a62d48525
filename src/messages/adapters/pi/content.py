"""Content blocks of pi's messages, both ways.

pi-ai's ``TextContent``, ``ThinkingContent``, ``ToolCall`` and ``ImageContent``.
A block of a known kind whose required keys are missing or of the wrong type, and a block of
any other kind, is kept whole as a :class:`RawBlock` and written back as it was. Keys a
block's class does not model (``textSignature``, ``thoughtSignature``...) stay in its
``extra``.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import partial
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...errors import DecodeError
from ...policy import Policy
from .. import _events as ev

__all__ = ["decode_blocks", "encode_blocks", "extra", "need_blocks"]

_TEXT: Final = ("type", "text")
_THINKING: Final = ("type", "thinking")
_CALL: Final = ("type", "id", "name", "arguments")
_IMAGE: Final = ("type", "data", "mimeType")


def extra(d: dict[str, Any], used: Collection[str]) -> FrozenDict:
    """The keys of ``d`` not in ``used``, as an ``extra`` (``EMPTY`` when there are none)."""
    return ev.frozen(ev.left(d, used))


def _block(value: Any) -> Block:
    if type(value) is not dict:
        return RawBlock(value)
    tag = value.get("type")
    if tag == "text" and type(value.get("text")) is str:
        return TextBlock(value["text"], extra=extra(value, _TEXT))
    if tag == "thinking" and type(value.get("thinking")) is str:
        used = list(_THINKING)
        signature = value.get("thinkingSignature")
        if type(signature) is str:
            used.append("thinkingSignature")
        else:
            signature = None
        redacted = value.get("redacted") is True
        if redacted:
            used.append("redacted")
        return ThinkingBlock(
            value["thinking"], signature=signature, redacted=redacted, extra=extra(value, used)
        )
    if (
        tag == "toolCall"
        and type(value.get("id")) is str
        and type(value.get("name")) is str
        and type(value.get("arguments")) is dict
    ):
        return ToolUseBlock(
            value["id"],
            value["name"],
            wrap_owned(value["arguments"]),
            extra=extra(value, _CALL),
        )
    if tag == "image" and type(value.get("data")) is str and type(value.get("mimeType")) is str:
        try:
            return ImageBlock(
                data=value["data"], media_type=value["mimeType"], extra=extra(value, _IMAGE)
            )
        except (ValueError, TypeError):  # not base64, say: kept as it was
            return RawBlock(wrap_owned(value))
    return RawBlock(wrap_owned(value))


def decode_blocks(values: Any, at: str) -> tuple[Block, ...]:
    """An array of pi content blocks (owned JSON) to blocks."""
    if type(values) is not list:
        raise fail("an array", values, at=at)
    return tuple([_block(v) for v in values])


def _image(block: ImageBlock) -> dict[str, Any] | None:
    if block.data is None or block.url is not None or block.file_id is not None:
        return None
    out: dict[str, Any] = {"type": "image", "data": block.data}
    if block.media_type is not None:
        out["mimeType"] = block.media_type
    return out


def _one(block: Block, policy: Policy, at: str, kinds: Collection[str]) -> Any:
    """One block as pi writes it, or ``None`` when the policy leaves it out."""
    out: dict[str, Any] | None = None
    match block:
        case TextBlock():
            if block.citations is not None:
                policy.refuse("pi text blocks carry no citations", f"{at}.citations", block)
            out = {"type": "text", "text": block.text}
        case ThinkingBlock() if "thinking" in kinds:
            out = {"type": "thinking", "thinking": block.thinking}
            if block.signature is not None:
                out["thinkingSignature"] = block.signature
            if block.redacted:
                out["redacted"] = True
        case ToolUseBlock() if "toolCall" in kinds:
            out = {"type": "toolCall", "id": block.id, "name": block.name}
            out["arguments"] = raw(block.input)
        case ImageBlock() if "image" in kinds:
            out = _image(block)
        case RawBlock():
            return raw(block.data)
        case (
            ThinkingBlock()
            | ToolUseBlock()
            | ImageBlock()
            | ToolResultBlock()
            | AudioBlock()
            | DocumentBlock()
            | VideoBlock()
            | ServerToolUseBlock()
            | ServerToolResultBlock()
        ):
            pass
        case _:
            assert_never(block)
    if out is None:
        alt = policy.degrade(block, at, f"pi has no {block.kind} content here")
        return None if alt is None else {"type": "text", "text": alt.text}
    return ev.overlay(out, block.extra)


def encode_blocks(
    blocks: tuple[Block, ...], policy: Policy, at: str, kinds: Collection[str]
) -> list[Any]:
    """Blocks as pi content items; ``kinds`` names the wire kinds this place takes."""
    return policy.each(blocks, partial(_one, kinds=kinds), at)


def need_blocks(values: Any, at: str) -> str | tuple[Block, ...]:
    """User content: a string, or an array of blocks."""
    if type(values) is str:
        return values
    try:
        return decode_blocks(values, at)
    except DecodeError:
        raise fail("a string or an array", values, at=at) from None
