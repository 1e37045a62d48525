"""ACP content blocks, shared by prompts, message chunks and tool-call content.

Text, image and audio blocks are modelled (their other keys kept in the block's ``extra``);
``resource_link``, ``resource`` and anything else stay :class:`RawBlock`, written back
verbatim. Tool-call content wraps a block as ``{"type": "content", "content": block}``;
diffs and terminals are kept raw.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import raw
from ..._core.make import expose_owned
from ..._core.make import wrap_owned
from ..._core.wire import need_str
from ..._core.wire import opt_str
from ..._core.wire import present
from ..._core.wire import rest
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
from ...flat import ToolResultMessage
from ...policy import Policy
from .. import _events as ev

__all__ = ["NO_FILE_ID", "block", "block_out", "item", "item_out", "prompt_block", "result_items"]

_TEXT: Final = frozenset(("type", "text"))
_MEDIA: Final = frozenset(("type", "data", "mimeType", "uri"))
_ITEM: Final = {"type", "content"}
NO_FILE_ID: Final = "ACP content has no place for a provider file id"
"""Why an image or audio block with a ``file_id`` goes through the loss policy."""


def block(b: Any, at: str) -> TextBlock | ImageBlock | AudioBlock | RawBlock:
    """One ACP content block: text, image and audio are modelled, the rest kept raw."""
    if type(b) is not dict:
        return RawBlock(expose_owned(b))
    tag = b.get("type")
    if tag == "text":
        return TextBlock(need_str(b, "text", at), extra=ev.frozen(rest(b, _TEXT)))
    if tag in ("image", "audio"):
        cls = ImageBlock if tag == "image" else AudioBlock
        return cls(
            data=opt_str(b, "data", at),
            media_type=opt_str(b, "mimeType", at),
            url=opt_str(b, "uri", at),
            extra=ev.frozen(rest(b, _MEDIA)),
        )
    return RawBlock(wrap_owned(b))


def block_out(b: Block) -> Any:
    """A text, image, audio or raw block as an ACP content block (raw ones verbatim)."""
    match b:
        case TextBlock():
            return ev.overlay({"type": "text", "text": b.text}, b.extra)
        case ImageBlock() | AudioBlock():
            if b.file_id is not None:  # callers put such blocks through the policy first
                raise AssertionError(NO_FILE_ID)
            found = present(data=b.data, mimeType=b.media_type, uri=b.url)
            return ev.overlay({"type": b.kind, **found}, b.extra)
        case RawBlock():
            return raw(b.data)
        case (
            ThinkingBlock()
            | ToolUseBlock()
            | ToolResultBlock()
            | DocumentBlock()
            | VideoBlock()
            | ServerToolUseBlock()
            | ServerToolResultBlock()
        ):
            raise AssertionError("not a content block")  # callers check first
        case _:
            assert_never(b)


def item(value: Any, at: str) -> Block:
    """One tool-call content item: ``{"type": "content", "content": block}``, a diff..."""
    if type(value) is dict and value.get("type") == "content" and value.keys() == _ITEM:
        inner = block(value["content"], at + ".content")
        if not isinstance(inner, RawBlock):
            return inner
    return RawBlock(expose_owned(value))


def item_out(b: Block) -> Any:
    """A block as a tool-call content item; a raw block (a diff...) is written verbatim."""
    if isinstance(b, RawBlock):
        return raw(b.data)
    return {"type": "content", "content": block_out(b)}


def prompt_block(b: Block) -> bool:
    """Whether a block can be part of a ``session/prompt`` (a content block, whole).

    An image or audio block with a provider ``file_id`` cannot: ACP content has no place for
    it, so the turn is written block by block and the policy decides about that one.
    """
    if isinstance(b, (ImageBlock, AudioBlock)):
        return b.file_id is None
    return isinstance(b, (TextBlock, RawBlock))


def result_items(m: ToolResultMessage, policy: Policy) -> list[Any] | None:
    """Tool-call content for a result; ``None`` when there is none to write.

    Thinking, tool-use and tool-result blocks are not content: they are refused, or
    described as text, or dropped, as the policy says.
    """
    if isinstance(m.content, str):
        return [item_out(TextBlock(m.content))] if m.content else None
    items = []
    for i, b in enumerate(m.content):
        not_content = (ThinkingBlock, ToolUseBlock, ToolResultBlock, DocumentBlock, VideoBlock)
        if isinstance(b, not_content) or (
            isinstance(b, (ImageBlock, AudioBlock)) and b.file_id is not None
        ):
            reason = (
                f"cannot carry {b.kind} blocks in tool results"
                if isinstance(b, not_content)
                else NO_FILE_ID
            )
            alt = policy.degrade(b, f"$.content[{i}]", reason)
            if alt is not None:
                items.append(item_out(alt))
            continue
        items.append(item_out(b))
    return items
