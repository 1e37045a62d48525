"""Content blocks in the Anthropic / Claude Code wire shape, both ways.

Shared by :func:`messages.convert.parse_blocks`, the Claude Code adapter and the Anthropic
provider codec. Decoders take *owned* JSON (fresh from ``json.loads`` or copied), and the
encoders return dicts that may share nested values with the blocks: callers that hand the
result to users thaw it first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final
from typing import assert_never

from .._core.frozen import EMPTY
from .._core.frozen import limits_in_force
from .._core.frozen import raw
from .._core.make import expose_owned
from .._core.make import maker
from .._core.make import wrap_owned
from .._core.wire import extra
from .._core.wire import fail
from .._core.wire import obj_or_empty
from .._core.wire import present
from .._core.wire import str_or
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import ServerToolResultBlock
from ..blocks import ServerToolUseBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..errors import DecodeError
from ..usage import Usage
from .citations import read_citation
from .citations import write_citation

MAX_BLOCK_DEPTH: Final = 64
"""How deeply tool results may nest blocks inside blocks before decoding refuses."""

_TEXT: Final = frozenset(("type", "text", "citations"))
_THINKING: Final = frozenset(("type", "thinking", "signature"))
_REDACTED: Final = frozenset(("type", "data"))
_TOOL_USE: Final = frozenset(("type", "id", "name", "input"))
_TOOL_RESULT: Final = frozenset(("type", "tool_use_id", "content", "is_error"))
_MEDIA: Final = frozenset(("type", "source"))
_SOURCE_BESIDE: Final = ("url", "file_id", "media_type")
"""The fields a media block's source carries besides its kind, in their wire order."""
_SERVER_USE: Final = frozenset(("type", "id", "name", "input"))
_SERVER_RESULT: Final = frozenset(("type", "tool_use_id", "content"))
RESULT_SUFFIX: Final = "_tool_result"
"""Anthropic names each server tool's result block ``<tool>_tool_result``."""
_NOT_SERVER: Final = frozenset(("tool_result", "mcp_tool_result"))
"""Result blocks with that suffix that are not server tools' (a client tool's, beta MCP)."""
_TOOL_USE_CALLER: Final = _TOOL_USE | {"caller"}
_DIRECT: Final = {"type": "direct"}
_DIRECT_EXTRA: Final = wrap_owned({"caller": _DIRECT})
"""The extra of nearly every Claude Code tool call (``"caller": {"type": "direct"}``),
shared: it is immutable, and equal values hash equal whichever object holds them."""

_new_text: Final = maker(TextBlock)
_new_thinking: Final = maker(ThinkingBlock)
_new_tool_use: Final = maker(ToolUseBlock)
_new_tool_result: Final = maker(ToolResultBlock)

_Decoder = Callable[[dict[str, Any], "str | None", int], Block]


def _text(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    text = d.get("text", "")
    if type(text) is not str:
        raise fail("a string", text, "text")
    cites = d.get("citations")
    if cites is None:
        if _TEXT.issuperset(d) and "citations" not in d:
            return _new_text(text, None, EMPTY)
        return _new_text(text, None, extra(d, _TEXT))
    if type(cites) is not list:
        raise fail("an array", cites, "citations")
    for i, c in enumerate(cites):
        if type(c) is not dict:
            raise fail("an object", c, f"citations[{i}]")
    return _new_text(text, tuple([read_citation(c) for c in cites]), extra(d, _TEXT))


def _thinking(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    text = d.get("thinking", "")
    signature = d.get("signature")
    if type(text) is not str:
        raise fail("a string", text, "thinking")
    if signature is None:
        return _new_thinking(text, None, False, provider, extra(d, _THINKING))
    if type(signature) is not str:
        raise fail("a string", signature, "signature")
    ex = EMPTY if _THINKING.issuperset(d) else extra(d, _THINKING)
    return _new_thinking(text, signature, False, provider, ex)


def _redacted(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    return _new_thinking("", str_or(d, "data"), True, provider, extra(d, _REDACTED))


def _tool_use(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    call_id = d.get("id", "")
    name = d.get("name", "")
    args = d.get("input")
    if type(call_id) is not str:
        raise fail("a string", call_id, "id")
    if type(name) is not str:
        raise fail("a string", name, "name")
    if type(args) is not dict:
        args = obj_or_empty(d, "input")
    if _TOOL_USE.issuperset(d):
        ex = EMPTY
    elif len(d) == 5 and _TOOL_USE_CALLER.issuperset(d):  # Claude Code's ``caller`` key
        caller = d["caller"]
        ex = _DIRECT_EXTRA if caller == _DIRECT else wrap_owned({"caller": caller})
    else:
        ex = extra(d, _TOOL_USE)
    return _new_tool_use(call_id, name, wrap_owned(args), None, ex)


def _tool_result(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    content = d.get("content", "")
    if type(content) is list:
        try:
            content = decode_blocks(content, provider, depth + 1)
        except DecodeError as exc:
            raise exc.within(".content") from None
    elif type(content) is not str:
        raise fail("a string or an array of blocks", content, "content")
    call_id = d.get("tool_use_id", "")
    if type(call_id) is not str:
        raise fail("a string", call_id, "tool_use_id")
    is_error = d.get("is_error")
    if is_error is None:
        # Claude Code's usual result block has no is_error: nothing to keep beside it then
        # (a null is_error stays in extra, to be written back).
        ex = EMPTY if "is_error" not in d and _TOOL_RESULT.issuperset(d) else extra(d, _TOOL_RESULT)
    elif type(is_error) is not bool:
        raise fail("a boolean", is_error, "is_error")
    else:
        ex = EMPTY if _TOOL_RESULT.issuperset(d) else extra(d, _TOOL_RESULT)
    return _new_tool_result(call_id, content, is_error, None, ex)


_SOURCE_FIELDS: Final = ("data", "url", "file_id", "media_type")
_SOURCE_KEYS: Final = {
    "base64": ("data", frozenset(("type", "data", "media_type", "url", "file_id"))),
    "url": ("url", frozenset(("type", "url", "media_type", "file_id"))),
    "file": ("file_id", frozenset(("type", "file_id", "media_type"))),
}
"""For each source kind, the field it stands for and the keys it may hold: the kind is the
first of data, URL and file id that the block has, and the other fields ride along (so none
is dropped)."""


def _media(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    source = d.get("source")
    if type(source) is not dict:
        return RawBlock(wrap_owned(d))
    kind = source.get("type")
    known = _SOURCE_KEYS.get(kind) if type(kind) is str else None
    if (
        known is None
        or not source.keys() <= known[1]
        or known[0] not in source  # the field the kind stands for (``base64``: ``data``)
        or any(type(v) is not str for v in source.values())
    ):  # text/content documents, unknown source kinds, odd values: kept as they came
        return RawBlock(wrap_owned(d))
    data, url, file_id, media_type = (source.get(k) for k in _SOURCE_FIELDS)
    if d["type"] == "video":
        clip = {k: d[k] for k in _CLIP if k in d and _clip_ok(k, d[k])}
        return VideoBlock(
            data=data,
            url=url,
            file_id=file_id,
            media_type=media_type,
            **clip,
            extra=extra(d, _MEDIA | clip.keys()),
        )
    cls = ImageBlock if d["type"] == "image" else AudioBlock
    return cls(data=data, url=url, file_id=file_id, media_type=media_type, extra=extra(d, _MEDIA))


_CLIP: Final = ("start_offset", "end_offset", "fps")
"""A video's clip fields. Anthropic has no video block: ``video`` blocks are this library's
own Anthropic-shaped spelling (as ``audio`` is), so :func:`messages.convert.dump_blocks`
keeps every block."""


def _clip_ok(key: str, value: Any) -> bool:
    if key == "fps":
        return type(value) is int or type(value) is float
    return type(value) is str


_DOC_SOURCES: Final = {
    "base64": ("data", frozenset(("type", "media_type", "data"))),
    "text": ("data", frozenset(("type", "media_type", "data"))),
    "url": ("url", frozenset(("type", "url"))),
    "file": ("file_id", frozenset(("type", "file_id"))),
    "content": ("content", frozenset(("type", "content"))),
}
"""The key each document source kind needs, and the keys it may hold; a source with others
is kept whole."""


def _doc_source(source: Any, provider: str | None, depth: int) -> dict[str, Any] | None:
    """The DocumentBlock fields a ``source`` stands for; ``None`` when it is not one we model.

    A ``base64`` or ``text`` source without ``media_type`` reads as ``media_type=None`` and is
    written back without one (the Anthropic provider fills the type its API needs).
    """
    if type(source) is not dict:
        return None
    kind = source.get("type")
    known = _DOC_SOURCES.get(kind) if type(kind) is str else None
    if known is None or known[0] not in source or not source.keys() <= known[1]:
        return None
    if kind == "content":
        content = source["content"]
        if type(content) is list:
            try:
                return {"content": decode_blocks(content, provider, depth + 1)}
            except DecodeError as exc:
                raise exc.within(".source.content") from None
        return {"content": content} if type(content) is str else None
    if any(type(v) is not str for v in source.values()):
        return None
    if kind in ("base64", "text"):
        field = "data" if kind == "base64" else "text"
        return {field: source["data"], "media_type": source.get("media_type")}
    return {kind if kind == "url" else "file_id": source[kind if kind == "url" else "file_id"]}


def _document(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    fields = _doc_source(d.get("source"), provider, depth)
    if fields is None:  # a source kind or shape we do not model: kept as it came
        return RawBlock(wrap_owned(d))
    known = {"type", "source"}
    for key in ("title", "context", "filename"):
        if type(d.get(key)) is str:  # a null or odd value stays in extra, as sent
            fields[key] = d[key]
            known.add(key)
    cites = d.get("citations")
    if type(cites) is dict and cites.keys() == {"enabled"} and type(cites["enabled"]) is bool:
        fields["citations"] = cites["enabled"]
        known.add("citations")
    return DocumentBlock(**fields, extra=extra(d, frozenset(known)))


def _server_use(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    """``server_tool_use``; without a string id and name and an object input it stays raw."""
    call_id, name, args = d.get("id"), d.get("name"), d.get("input")
    if type(call_id) is not str or type(name) is not str or type(args) is not dict:
        return RawBlock(wrap_owned(d))
    ex = EMPTY if _SERVER_USE.issuperset(d) else extra(d, _SERVER_USE)
    return ServerToolUseBlock(call_id, name, wrap_owned(args), provider=provider, extra=ex)


def _server_result(d: dict[str, Any], provider: str | None, depth: int) -> Block:
    """``<tool>_tool_result``; without a string ``tool_use_id`` and a ``content`` it stays raw."""
    call_id = d.get("tool_use_id")
    if type(call_id) is not str or "content" not in d:
        return RawBlock(wrap_owned(d))
    tool = d["type"][: -len(RESULT_SUFFIX)]
    ex = EMPTY if _SERVER_RESULT.issuperset(d) else extra(d, _SERVER_RESULT)
    content = expose_owned(d["content"])
    return ServerToolResultBlock(call_id, tool, content, provider=provider, extra=ex)


DECODERS: Final[dict[str, _Decoder]] = {
    "text": _text,
    "thinking": _thinking,
    "redacted_thinking": _redacted,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "image": _media,
    "audio": _media,
    "video": _media,
    "document": _document,
    "server_tool_use": _server_use,
}
"""The decoder of each known block type: ``decoder(owned_dict, provider, depth)``."""


def decode_block(value: Any, provider: str | None = None, depth: int = 0) -> Block:
    """One owned wire value to a block; unknown kinds and non-objects become RawBlock."""
    if type(value) is not dict:
        return RawBlock(expose_owned(value))
    tag = value.get("type")
    decoder = DECODERS.get(tag) if type(tag) is str else None
    if decoder is None:
        if type(tag) is str and tag.endswith(RESULT_SUFFIX) and tag not in _NOT_SERVER:
            return _server_result(value, provider, depth)
        return RawBlock(wrap_owned(value))
    return decoder(value, provider, depth)


def decode_blocks(
    values: list[Any], provider: str | None = None, depth: int = 0
) -> tuple[Block, ...]:
    """An owned wire list to blocks, with the index of a bad element in the error path."""
    if depth:  # only nested lists (tool result content) can be too deep
        limit = limits_in_force().max_block_depth
        if depth > limit:
            raise DecodeError(f"content blocks nest deeper than {limit} levels")
    out = []
    for i, value in enumerate(values):
        try:
            out.append(decode_block(value, provider, depth))
        except DecodeError as exc:
            raise exc.within(f"[{i}]") from None
    return tuple(out)


def _source(block: ImageBlock | AudioBlock | VideoBlock) -> dict[str, Any]:
    """The block's ``source``, with every field the block has.

    The kind comes from the first of data, URL and file id the block has; the other fields
    ride beside it (a URL image keeps its media type).
    """
    if block.data is not None:
        source: dict[str, Any] = {"type": "base64"}
        if block.media_type is not None:
            source["media_type"] = block.media_type
        source["data"] = block.data
    elif block.url is not None:
        source = {"type": "url", "url": block.url}
    elif block.file_id is not None:
        source = {"type": "file", "file_id": block.file_id}
    else:
        return {"type": "base64", "data": ""}
    for key in _SOURCE_BESIDE:  # the block's fields are named as the source's keys
        value = getattr(block, key)
        if value is not None:
            source[key] = value
    return source


def document_source(block: DocumentBlock, *, defaults: bool = False) -> dict[str, Any] | None:
    """A document's ``source``: the first of data, text, content, URL and file id it has.

    ``None`` for a block with none of them. With ``defaults`` (the Anthropic API), a base64
    source without a MIME type says ``application/pdf`` (the only one Anthropic takes), a
    text source ``text/plain``; otherwise the type is written only when the block has one.
    """
    if block.data is not None or block.text is not None:
        is_data = block.data is not None
        out: dict[str, Any] = {"type": "base64" if is_data else "text"}
        media_type = block.media_type
        if media_type is None and defaults:
            media_type = "application/pdf" if is_data else "text/plain"
        if media_type is not None:
            out["media_type"] = media_type
        out["data"] = block.data if is_data else block.text
        return out
    if block.content is not None:
        content = block.content
        return {
            "type": "content",
            "content": content if isinstance(content, str) else encode_blocks(content),
        }
    if block.url is not None:
        return {"type": "url", "url": block.url}
    if block.file_id is not None:
        return {"type": "file", "file_id": block.file_id}
    return None


def document_fields(block: DocumentBlock, title: str | None) -> dict[str, Any]:
    """A document's wire fields besides ``type`` and ``source``, in the API's order."""
    out: dict[str, Any] = {}
    if title is not None:
        out["title"] = title
    if block.context is not None:
        out["context"] = block.context
    if block.citations is not None:
        out["citations"] = {"enabled": block.citations}
    return out


def _merge(out: dict[str, Any], extra_: Any) -> dict[str, Any]:
    if extra_:
        out.update(raw(extra_))
    return out


def encode_block(block: Block) -> Any:
    """A block to its wire value (nested values may be shared with the block)."""
    match block:
        case TextBlock():
            out: dict[str, Any] = {"type": "text", "text": block.text}
            if block.citations is not None:
                out["citations"] = [write_citation(c) for c in block.citations]
            if block.extra is not EMPTY and block.extra:  # _merge, inline: the commonest blocks
                out.update(raw(block.extra))
            return out
        case ThinkingBlock():
            if block.redacted:
                out = {"type": "redacted_thinking", "data": block.signature or ""}
            else:
                out = {"type": "thinking", "thinking": block.thinking}
                if block.signature is not None:
                    out["signature"] = block.signature
            return _merge(out, block.extra)
        case ToolUseBlock():
            out = {
                "type": "tool_use",
                "id": block.id,
                "name": block.name,
                "input": raw(block.input),
            }
            if block.extra is not EMPTY and block.extra:
                out.update(raw(block.extra))
            return out
        case ToolResultBlock():
            content = block.content
            out = {
                "type": "tool_result",
                "tool_use_id": block.tool_use_id,
                "content": content if isinstance(content, str) else encode_blocks(content),
            }
            if block.is_error is not None:
                out["is_error"] = block.is_error
            if block.extra is not EMPTY and block.extra:
                out.update(raw(block.extra))
            return out
        case ImageBlock() | AudioBlock():
            return _merge({"type": block.kind, "source": _source(block)}, block.extra)
        case DocumentBlock():
            source = document_source(block)
            out = {"type": "document", "source": source or {"type": "text", "data": ""}}
            out.update(document_fields(block, block.title))
            if block.filename is not None:  # not an API field: kept for logs and dump_blocks
                out["filename"] = block.filename
            return _merge(out, block.extra)
        case VideoBlock():  # no Anthropic video block: this library's own spelling
            out = {"type": "video", "source": _source(block)}
            out.update(present(start_offset=block.start_offset, end_offset=block.end_offset))
            if block.fps is not None:
                out["fps"] = block.fps
            return _merge(out, block.extra)
        case RawBlock():
            return raw(block.data)
        case ServerToolUseBlock():
            out = {
                "type": "server_tool_use",
                "id": block.id,
                "name": block.name,
                "input": raw(block.input),
            }
            return _merge(out, block.extra)
        case ServerToolResultBlock():
            out = {
                "type": block.tool + RESULT_SUFFIX,
                "tool_use_id": block.tool_use_id,
                "content": raw(block.content),
            }
            return _merge(out, block.extra)
        case _:
            assert_never(block)


def encode_blocks(blocks: tuple[Block, ...]) -> list[Any]:
    """Blocks to a wire list."""
    return list(map(encode_block, blocks))


def usage_counts(usage: Usage) -> dict[str, Any]:
    """The token counts of a usage under Anthropic's names (the ones that are set).

    Claude Code logs and the Anthropic API spell usage the same way; each encoder then adds
    what it keeps besides (details objects, another provider's fields).
    """
    out: dict[str, Any] = {}  # what present() gives, without its keyword dict
    if usage.input_tokens is not None:
        out["input_tokens"] = usage.input_tokens
    if usage.cache_write_tokens is not None:
        out["cache_creation_input_tokens"] = usage.cache_write_tokens
    if usage.cache_read_tokens is not None:
        out["cache_read_input_tokens"] = usage.cache_read_tokens
    if usage.output_tokens is not None:
        out["output_tokens"] = usage.output_tokens
    return out
