"""Converse ``ContentBlock`` objects, both ways (private to ``bedrock``).

A content block is a union: an object with exactly one member (``text``, ``image``,
``toolUse``, ``reasoningContent``...). The members this library models become blocks
(``citationsContent``: a TextBlock with its citations, see :mod:`.citations`); a
block with another member (``cachePoint``, ``guardContent``...), with
several members, or whose member does not have the shape modelled here, is kept whole as
a :class:`RawBlock` and written back as it came. Bytes are base64 text, as in the JSON
the HTTP API takes (``boto3`` takes and gives raw bytes there instead).
"""

from __future__ import annotations

import json
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.make import expose_owned
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
from ...policy import Policy
from .._carry import carried
from .._carry import refusal_text
from .._formats import BEDROCK
from .._formats import BEDROCK_BLOCKS
from .._formats import Place
from .._formats import foreign_citations
from .._formats import raw_block_is_own
from . import citations
from .ids import original_id
from .ids import wire_id
from .media import MEDIA
from .media import decode_document
from .media import decode_media
from .media import document_name
from .media import media_format
from .media import media_source

__all__ = [
    "PROVIDER",
    "SYSTEM_MEMBERS",
    "carries",
    "closed_fields",
    "decode_block",
    "encode_block",
    "encode_result_part",
]

PROVIDER: Final = "bedrock"

SYSTEM_MEMBERS: Final = frozenset(("text", "guardContent", "cachePoint"))
"""The members of a Converse ``SystemContentBlock``."""
"""The ``provider`` of a ThinkingBlock whose signature a Bedrock model issued."""


def carries(block: RawBlock) -> bool:
    """Whether a raw block is a Converse content block (see ``_formats.raw_is_own``)."""
    return raw_block_is_own(block, BEDROCK)


# ---------------------------------------------------------------------------------- decoding


def _tool_use(value: Any) -> Block | None:
    if type(value) is not dict:
        return None
    ident, name, args = value.get("toolUseId"), value.get("name"), value.get("input")
    if type(ident) is not str or type(name) is not str or type(args) is not dict:
        return None
    if len(value) != 3:  # a server tool's call (``type``), or members newer than this code
        return None
    return ToolUseBlock(original_id(ident), original_id(name), args)


_STATUS: Final = {"success": False, "error": True}


def _result_part(part: Any) -> Block:
    if type(part) is dict and len(part) == 1:
        ((key, value),) = part.items()
        if key == "text" and type(value) is str:
            return TextBlock(value)
        if key == "json":
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            return TextBlock(text, extra={"json": value})
        if key in MEDIA:
            block = decode_media(key, value)
            if block is not None:
                return block
        if key == "document":
            block = decode_document(value)
            if block is not None:
                return block
    return RawBlock(expose_owned(part))


def _tool_result(value: Any) -> Block | None:
    if type(value) is not dict or type(value.get("toolUseId")) is not str:
        return None
    content = value.get("content")
    status = value.get("status")
    if type(content) is not list or (status is not None and status not in ("success", "error")):
        return None
    if set(value) - {"toolUseId", "content", "status"}:
        return None  # a server tool's result (``type``), or members newer than this code
    return ToolResultBlock(
        original_id(value["toolUseId"]),
        tuple(_result_part(p) for p in content),
        is_error=None if status is None else _STATUS[status],
    )


def _reasoning(value: Any) -> Block | None:
    if type(value) is not dict or len(value) != 1:
        return None
    ((key, inner),) = value.items()
    if key == "redactedContent" and type(inner) is str:
        return ThinkingBlock("", signature=inner, redacted=True, provider=PROVIDER)
    if key != "reasoningText" or type(inner) is not dict or type(inner.get("text")) is not str:
        return None
    signature = inner.get("signature")
    if set(inner) - {"text", "signature"} or (signature is not None and type(signature) is not str):
        return None
    return ThinkingBlock(
        inner["text"], signature=signature, provider=None if signature is None else PROVIDER
    )


def decode_block(d: Any) -> Block:
    """One wire content block (owned) as a block."""
    if type(d) is not dict or len(d) != 1:
        return RawBlock(expose_owned(d))
    ((key, value),) = d.items()
    block: Block | None = None
    if key == "text":
        if type(value) is not str:
            raise fail("a string", value, "text")
        return TextBlock(value)
    if key in MEDIA:
        block = decode_media(key, value)
    elif key == "document":
        block = decode_document(value)
    elif key == "toolUse":
        block = _tool_use(value)
    elif key == "toolResult":
        block = _tool_result(value)
    elif key == "reasoningContent":
        block = _reasoning(value)
    elif key == "citationsContent":
        block = citations.decode(value)
    elif key not in BEDROCK_BLOCKS:
        # A member newer than this code: only the body says it is Converse's (its data
        # alone reads as a Gemini part too), so the block is marked as Bedrock's.
        return RawBlock(wrap_owned(d), provider=BEDROCK)
    return block if block is not None else RawBlock(wrap_owned(d))


# ---------------------------------------------------------------------------------- encoding


def _media_out(
    block: ImageBlock | AudioBlock | VideoBlock | DocumentBlock, policy: Policy, path: str
) -> dict[str, Any] | None:
    kind = block.kind
    source = media_source(block)
    if source is None:
        what = "a URL" if block.url is not None else "a file id" if block.file_id else "no data"
        return _degrade(
            policy, block, path, f"Converse takes {kind}s as bytes or S3 only, not {what}"
        )
    fmt = media_format(kind, block)
    if fmt is None and not (isinstance(block, DocumentBlock) and "bytes" not in source):
        return _degrade(
            policy, block, path, f"Converse has no {kind} format for {block.media_type!r}"
        )
    out: dict[str, Any] = {}
    if fmt is not None:
        out["format"] = fmt
    if isinstance(block, DocumentBlock):
        out["name"] = document_name(block)
    out["source"] = source
    if isinstance(block, DocumentBlock):
        if block.context is not None:
            out["context"] = block.context
        if block.citations is not None:
            out["citations"] = {"enabled": block.citations}
    place: Place = kind
    _no_fields(block.extra, policy, path, place, ("bucketOwner",))
    return {kind: out}


def closed_fields(
    extra: Any,
    policy: Policy,
    path: str,
    place: Place,
    protected: tuple[str, ...] = (),
    *,
    written: dict[str, Any] | None = None,
    allowed: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The ``extra`` fields written on a Converse object, whose shapes are closed.

    Another format's fields are refused or left out by :func:`carried`; of the fields it
    would write, those in ``allowed`` (members of the shape this library does not model)
    are, and the rest (fields no table lists) have no place in Converse: the policy decides.
    """
    out = {}
    kept = carried(extra, policy, path, place, written=written, protected=protected)
    for key, value in kept.items():
        if key in allowed:
            out[key] = value
        else:
            policy.refuse(
                f"Converse has no place for the field {key!r}", f"{path}.extra.{key}", value
            )
    return out


def _no_fields(
    extra: Any, policy: Policy, path: str, place: Place, protected: tuple[str, ...] = ()
) -> None:
    closed_fields(extra, policy, path, place, protected)


def _degrade(policy: Policy, block: Block, path: str, reason: str) -> dict[str, Any] | None:
    replaced = policy.degrade(block, path, reason)
    if replaced is None or not replaced.text.strip():
        return None
    return {"text": replaced.text}


def _text(
    block: TextBlock, policy: Policy, path: str, *, cited: bool = True
) -> dict[str, Any] | None:
    """A text block; ``cited``: where a ``citationsContent`` block may stand (a message)."""
    own = block.citations is not None and not foreign_citations(block.citations, BEDROCK)
    if own and cited:
        _no_fields(block.extra, policy, path, "text")
        return citations.encode(block)  # Converse's own citations: a citationsContent block
    if block.citations:
        policy.refuse(
            "Converse carries citations only in a message's citationsContent block"
            if own
            else "Converse text blocks carry no citations of other formats",
            path + ".citations",
            block.citations,
        )
    _no_fields(block.extra, policy, path, "text", ("json",))
    if not block.text.strip():
        # Converse rejects a blank text block (empty, or only whitespace): it is left out.
        return None
    return {"text": block.text}


def encode_result_part(block: Block, policy: Policy, path: str) -> dict[str, Any] | None:
    """One block of a tool result's content: text, JSON (as decoded), or media."""
    match block:
        case TextBlock() if "json" in block.extra:
            value = block.extra["json"]
            try:
                same = json.loads(block.text) == thaw(value)
            except ValueError:
                same = False
            return {"json": thaw(value)} if same else _text(block, policy, path, cited=False)
        case TextBlock():
            return _text(block, policy, path, cited=False)
        case ImageBlock() | VideoBlock():
            return _media_out(block, policy, path)
        case DocumentBlock():
            return _media_out(block, policy, path)
        case RawBlock() if isinstance(block.data, FrozenDict) and len(block.data) == 1:
            return dict(raw(block.data))
        case _:
            return _degrade(
                policy, block, path, "a Converse tool result carries text, JSON and media"
            )


def _result(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any] | None:
    if block.tool_use_id in policy.lost:
        return _degrade(policy, block, path, "a result for a call Converse cannot carry")
    content: list[Any] = []
    if isinstance(block.content, str):
        if block.content.strip():
            content.append({"text": block.content})
    else:
        content = policy.each(block.content, encode_result_part, f"{path}.content")
    out: dict[str, Any] = {"toolUseId": wire_id(block.tool_use_id), "content": content}
    if block.is_error is not None:
        out["status"] = "error" if block.is_error else "success"
    _no_fields(block.extra, policy, path, "tool_result", ("toolUseId", "content", "status"))
    return {"toolResult": out}


def _call(block: ToolUseBlock, policy: Policy, path: str) -> dict[str, Any]:
    if block.invalid_arguments:
        policy.refuse(
            "Converse tool input must be a JSON object", f"{path}.arguments", block.arguments
        )
    out: dict[str, Any] = {
        "toolUseId": wire_id(block.id),
        "name": wire_id(block.name),  # tool names follow the same rule as ids
        "input": thaw(block.input),
    }
    _no_fields(block.extra, policy, path, "tool_use", ("toolUseId", "name", "input"))
    return {"toolUse": out}


def _thinking(block: ThinkingBlock, where: str, policy: Policy, path: str) -> dict[str, Any] | None:
    if where != "assistant":
        return _degrade(policy, block, path, f"cannot carry reasoning in a {where} turn")
    if block.signature is not None and block.provider != PROVIDER:
        # Another provider's signature would be sent as if a Bedrock model had issued it.
        who = repr(block.provider) if block.provider else "another provider"
        return _degrade(policy, block, path, f"cannot carry reasoning signed by {who}")
    _no_fields(block.extra, policy, path, "thinking")
    if block.redacted:
        if block.signature is None:
            return _degrade(policy, block, path, "redacted reasoning without its content")
        return {"reasoningContent": {"redactedContent": block.signature}}
    text: dict[str, Any] = {"text": block.thinking}
    if block.signature is not None:
        text["signature"] = block.signature
    return {"reasoningContent": {"reasoningText": text}}


def encode_block(block: Block, where: str, policy: Policy, path: str) -> dict[str, Any] | None:
    """A block as a content block of a ``where`` turn; ``None``: left out.

    ``where`` is ``user``, ``assistant`` or ``system`` (whose blocks take no citations).
    Tool calls and results are written whatever turn holds them: the encoder moves them to
    the side where they belong.
    """
    match block:
        case TextBlock():
            return _text(block, policy, path, cited=where != "system")
        case ThinkingBlock():
            return _thinking(block, where, policy, path)
        case ToolUseBlock():
            return _call(block, policy, path)
        case ToolResultBlock():
            return _result(block, policy, path)
        case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
            return _media_out(block, policy, path)
        case RawBlock() if refusal_text(block) is not None:
            said = refusal_text(block)
            return {"text": said} if said and said.strip() else None
        case RawBlock():
            if carries(block):
                return dict(thaw(block.data))
            return _degrade(policy, block, path, "this raw block is not a Converse content block")
        case ServerToolUseBlock() | ServerToolResultBlock():
            who = block.provider or "another provider"
            return _degrade(policy, block, path, f"Converse cannot carry {who}'s server tool")
        case _:
            assert_never(block)
