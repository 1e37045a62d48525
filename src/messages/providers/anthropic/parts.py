"""Anthropic Messages content blocks, written one at a time (private to ``anthropic``).

:func:`encode_blocks` writes blocks in the Anthropic wire shape for one kind of turn, handing
what that turn cannot carry to the caller's :class:`Policy`. Reading blocks is
:mod:`messages._shapes.anthropic_blocks`, shared with the Claude Code adapter.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._shapes.anthropic_blocks import document_fields
from ..._shapes.anthropic_blocks import document_source
from ..._shapes.citations import write_citation
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
from ...media import b64decode
from ...media import is_text_type
from ...media import parse_data_uri
from ...policy import Policy
from .._carry import put_extra
from .._carry import refusal_text
from .._formats import ANTHROPIC
from .._formats import foreign_citations
from .._formats import raw_block_is_own
from .._server_tools import anthropic_id
from .._server_tools import code_input
from .._server_tools import code_result
from .._server_tools import is_own
from .._server_tools import place

__all__ = ["carries", "encode_blocks", "text_block"]

NAME: Final = ANTHROPIC


def carries(block: RawBlock) -> bool:
    """Whether a raw block is an Anthropic block (see ``_formats.raw_is_own``)."""
    return raw_block_is_own(block, NAME)


_IMAGE_TYPES: Final = frozenset(("image/jpeg", "image/png", "image/gif", "image/webp"))


def _base64(
    block: ImageBlock, media_type: str | None, data: str, policy: Policy, path: str
) -> dict[str, Any] | TextBlock | None:
    if media_type is None:
        return policy.degrade(block, path, "cannot carry image data without a media type")
    if media_type not in _IMAGE_TYPES:
        reason = f"cannot carry a {media_type} image (JPEG, PNG, GIF or WebP only)"
        return policy.degrade(block, path, reason)
    return {"type": "base64", "media_type": media_type, "data": data}


def _source(block: ImageBlock, policy: Policy, path: str) -> dict[str, Any] | TextBlock | None:
    if block.data is not None:
        media_type = block.media_type or block.resolved_media_type
        return _base64(block, media_type, block.data, policy, path)
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is None:
            return {"type": "url", "url": block.url}
        if uri.is_base64:
            return _base64(block, uri.media_type, uri.data, policy, path)
        return policy.degrade(block, path, "cannot carry an image in a data URL that is not base64")
    if block.file_id is not None:
        return {"type": "file", "file_id": block.file_id}
    return policy.degrade(block, path, "cannot carry an image without data, URL or file id")


def _document(block: DocumentBlock, policy: Policy, path: str) -> dict[str, Any] | TextBlock | None:
    """A document block, or what the policy made of one Anthropic cannot take.

    File bytes (``data``, or a base64 ``data:`` URL) go as a ``base64`` source when they are
    a PDF (the only type Anthropic takes so), as a ``text`` source when their MIME type is
    text; other types follow the policy. The title is the title, else the file name.
    """
    data, media_type = block.data, block.media_type
    if data is None and block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None:
            if not uri.is_base64:
                return policy.degrade(block, path, "cannot carry a document in a text data URL")
            data, media_type = uri.data, media_type or uri.media_type
    source: dict[str, Any] | None
    if data is not None:
        media_type = media_type or block.resolved_media_type or "application/pdf"
        if is_text_type(media_type):
            try:
                text = b64decode(data, path=f"{path}.data").decode("utf-8")
            except (DecodeError, UnicodeDecodeError):
                return policy.degrade(block, path, "cannot carry text document bytes not in UTF-8")
            source = {"type": "text", "media_type": "text/plain", "data": text}
        elif media_type != "application/pdf":
            reason = f"cannot carry a {media_type} document (PDF or text only)"
            return policy.degrade(block, path, reason)
        else:
            source = {"type": "base64", "media_type": media_type, "data": data}
    elif block.text is None and isinstance(block.content, tuple):
        # content blocks are written under the policy, as a tool result's are
        inner = encode_blocks(block.content, "tool_result", policy, f"{path}.content")
        source = {"type": "content", "content": inner}
    else:
        source = document_source(block, defaults=True)
        if source is None:
            reason = "cannot carry a document without data, text, URL or file id"
            return policy.degrade(block, path, reason)
    title = block.title if block.title is not None else block.filename
    if block.title is not None and block.filename not in (None, block.title):
        policy.refuse("cannot carry a file name beside a title", f"{path}.filename")
    return {"type": "document", "source": source, **document_fields(block, title)}


def text_block(block: TextBlock, policy: Policy, path: str) -> dict[str, Any]:
    """A text block; citations of another provider's shape follow the policy."""
    out: dict[str, Any] = {"type": "text", "text": block.text}
    if block.citations is not None:
        if foreign_citations(block.citations, NAME):
            policy.refuse("cannot carry citations in another provider's shape", f"{path}.citations")
        else:
            out["citations"] = [thaw(write_citation(c)) for c in block.citations]
    put_extra(out, block.extra, policy, path, "text")
    return out


def _encode_block(
    block: Block, where: str, policy: Policy, path: str, *, keep_empty: bool = False
) -> dict[str, Any] | None:
    """One block in a ``where`` turn (user, assistant, system, tool_result); ``None``: dropped.

    Tool calls and results are written whatever turn holds them (not in the system prompt,
    nor inside a result): ``encode_request`` moves them to the side of the conversation
    where they belong.
    """
    replacement: TextBlock | None
    match block:
        case TextBlock() if not (block.text or keep_empty or block.extra.get("type") == "text"):
            # A request takes no empty text block, and one carries nothing: it is left out
            # (a Gemini signature-only part, say). One decoded from an Anthropic request is
            # marked with its ``type`` and goes back as it came; a response keeps them all.
            return None
        case TextBlock():
            return text_block(block, policy, path)
        case ThinkingBlock():
            if where != "assistant":
                replacement = policy.degrade(
                    block, path, f"cannot carry thinking in a {where} turn"
                )
            elif block.provider != NAME:
                what = (
                    f"thinking signed by {block.provider!r}"
                    if block.provider
                    else "thinking not signed by anthropic"
                )
                replacement = policy.degrade(block, path, f"cannot carry {what}")
            else:
                if block.redacted:
                    out: dict[str, Any] = {
                        "type": "redacted_thinking",
                        "data": block.signature or "",
                    }
                else:
                    out = {"type": "thinking", "thinking": block.thinking}
                    if block.signature is not None:
                        out["signature"] = block.signature
                put_extra(out, block.extra, policy, path, "thinking")
                return out
        case ToolUseBlock():
            if where in ("system", "tool_result"):
                replacement = policy.degrade(block, path, f"cannot carry a tool call in a {where}")
            else:
                if block.invalid_arguments:
                    policy.refuse(
                        "cannot carry tool arguments that are not a JSON object",
                        f"{path}.arguments",
                        block.arguments,
                    )
                out = {
                    "type": "tool_use",
                    "id": block.id,
                    "name": block.name,
                    "input": thaw(block.input),
                }
                put_extra(out, block.extra, policy, path, "tool_use")
                return out
        case ToolResultBlock():
            if where in ("system", "tool_result"):
                reason = f"cannot carry a tool result in a {where}"
                replacement = policy.degrade(block, path, reason)
            elif block.tool_use_id in policy.lost:
                reason = "cannot carry a result for a call it cannot carry"
                replacement = policy.degrade(block, path, reason)
            else:
                return _tool_result(block, policy, path)
        case ImageBlock():
            if where not in ("user", "tool_result"):
                replacement = policy.degrade(
                    block, path, f"cannot carry an image in a {where} turn"
                )
            else:
                source = _source(block, policy, path)
                if not isinstance(source, dict):
                    replacement = source
                else:
                    out = {"type": "image", "source": source}
                    put_extra(out, block.extra, policy, path, "image")
                    return out
        case DocumentBlock():
            if where not in ("user", "tool_result"):
                reason = f"cannot carry a document in a {where} turn"
                replacement = policy.degrade(block, path, reason)
            else:
                doc = _document(block, policy, path)
                if not isinstance(doc, dict):
                    replacement = doc
                else:
                    put_extra(doc, block.extra, policy, path, "document")
                    return doc
        case AudioBlock() | VideoBlock():
            replacement = policy.degrade(block, path, f"cannot carry {block.kind}")
        case RawBlock() if refusal_text(block) is not None and where != "system":
            said = str(refusal_text(block))
            return text_block(TextBlock(said), policy, path) if said else None
        case RawBlock():
            data = block.data
            if where != "system" and carries(block):
                return thaw(data)  # type: ignore[no-any-return]
            kind = data.get("type") if isinstance(data, FrozenDict) else None
            what = f"a {kind!r} block" if isinstance(kind, str) else "content without a type"
            if where == "system":
                what = f"{what} in the system prompt (text only)"
            replacement = policy.degrade(block, path, f"cannot carry {what}")
        case ServerToolUseBlock() | ServerToolResultBlock():
            encoded = _server_block(block, where, policy, path)
            if isinstance(encoded, dict):
                return encoded
            replacement = encoded
        case _:
            assert_never(block)
    return None if replacement is None else text_block(replacement, policy, path)


def _server_block(
    block: ServerToolUseBlock | ServerToolResultBlock, where: str, policy: Policy, path: str
) -> dict[str, Any] | TextBlock | None:
    """A server tool's call or result: the provider's own exactly, Gemini's code mapped.

    Only an assistant turn holds them. Written back whole (extra included) when Anthropic
    ran the tool; a Gemini code execution becomes the ``code_execution`` tool's blocks;
    anything else has no Anthropic form.
    """
    if where != "assistant":
        return policy.degrade(block, path, f"cannot carry a server tool block in a {where}")
    own = is_own(block, NAME)
    if isinstance(block, ServerToolUseBlock):
        args = thaw(block.input) if own else code_input(block, NAME)
        if args is None:
            return policy.degrade(block, path, f"cannot carry {block.provider}'s {block.name!r}")
        call_id = block.id if own else anthropic_id(block.id)
        out: dict[str, Any] = {"type": "server_tool_use", "id": call_id, "name": block.name}
        out["input"] = args
    else:
        content = thaw(block.content) if own else code_result(block, NAME)
        if content is None:
            return policy.degrade(block, path, f"cannot carry {block.provider}'s {block.tool!r}")
        call_id = block.tool_use_id if own else anthropic_id(block.tool_use_id)
        out = {"type": block.tool + "_tool_result", "tool_use_id": call_id, "content": content}
    if block.provider == NAME:  # decoded from Anthropic: its own fields, nulls included
        out.update(thaw(block.extra))
    elif own:  # from nowhere said: the extra rule decides
        put_extra(out, block.extra, policy, path, place(block))
    return out


def _tool_result(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
    if isinstance(block.content, str):
        out["content"] = block.content
    else:
        out["content"] = encode_blocks(block.content, "tool_result", policy, f"{path}.content")
    if block.is_error is not None:
        out["is_error"] = block.is_error
    put_extra(out, block.extra, policy, path, "tool_result")
    return out


def encode_blocks(
    blocks: tuple[Block, ...], where: str, policy: Policy, path: str, *, keep_empty: bool = False
) -> list[dict[str, Any]]:
    """Blocks of a ``where`` turn in the wire shape; what the policy dropped is left out.

    So are empty text blocks, unless ``keep_empty`` (a response) or marked as decoded.
    """
    out = []
    for j, block in enumerate(blocks):
        encoded = _encode_block(block, where, policy, f"{path}[{j}]", keep_empty=keep_empty)
        if encoded is not None:
            out.append(encoded)
    return out
