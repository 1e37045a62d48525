"""Conversation entries of a Cline task, both ways.

An entry is one item of ``api_conversation_history.json`` or of a ``<id>.messages.json``
document's ``messages``.

Both are Anthropic-shaped messages (``role``, ``content``) with fields of Cline's own: the
newer transcript adds ``id``, ``ts`` (epoch ms), ``modelInfo`` (``id``, ``provider``...)
and, on assistant messages, ``metrics`` (``inputTokens``, ``outputTokens``,
``cacheReadTokens``, ``cacheWriteTokens``, ``cost``); the VS Code extension's history adds
``modelInfo`` (``modelId``, ``providerId``, ``mode``) and ``metrics`` (``tokens``:
``prompt``, ``completion``, ``cached``; ``cost``). Blocks go through the Anthropic block
codec, except the SDK's own ``image`` (``data``, ``mediaType``) and ``file`` (``path``,
``content``) blocks: an :class:`ImageBlock` and a :class:`DocumentBlock`, marked so they are
written back in that shape. A block neither reads is kept whole as a :class:`RawBlock`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._shapes import anthropic_blocks
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...errors import DecodeError
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .._common import decode_content

__all__ = ["SHAPE", "decode_turn", "encode_turn", "is_turn"]

_METRICS: Final = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "cacheReadTokens": "cache_read_tokens",
    "cacheWriteTokens": "cache_write_tokens",
    "cost": "cost_usd",
}


def is_turn(obj: Any) -> bool:
    """Whether a value is a conversation entry: an object with a user or assistant role."""
    return type(obj) is dict and obj.get("role") in ("user", "assistant") and "content" in obj


SHAPE: Final = "cline.block"
"""The ``extra`` key marking a block read from the SDK's own shape (written back in it)."""


def _sdk_block(value: Any) -> Block | None:
    """A block in the Cline SDK's own shape, typed; ``None`` for any other value.

    The shapes: ``image`` (``data``, ``mediaType``) and ``file`` (``path``, ``content``).
    """
    if type(value) is not dict:
        return None
    tag = value.get("type")
    if tag == "image" and "source" not in value:
        data, media = value.get("data"), value.get("mediaType")
        if type(data) is str and type(media) is str:
            rest = {k: v for k, v in value.items() if k not in ("type", "data", "mediaType")}
            rest[SHAPE] = "image"
            try:
                return ImageBlock(data=data, media_type=media, extra=wrap_owned(rest))
            except (ValueError, TypeError):
                return None
    if tag == "file":
        path, text = value.get("path"), value.get("content")
        if type(path) is str and type(text) is str:
            rest = {k: v for k, v in value.items() if k not in ("type", "path", "content")}
            rest[SHAPE] = "file"
            return DocumentBlock(text=text, filename=path, extra=wrap_owned(rest))
    return None


def _sdk_out(block: Block) -> dict[str, Any] | None:
    """A block read from the SDK's own shape, written back in it."""
    if not isinstance(block, (ImageBlock, DocumentBlock)):
        return None
    shape = block.extra.get(SHAPE)
    rest = {k: v for k, v in raw(block.extra).items() if k != SHAPE} if shape else {}
    if shape == "image" and isinstance(block, ImageBlock):
        return ev.overlay(
            {"type": "image", "data": block.data, "mediaType": block.media_type}, rest
        )
    if shape == "file" and isinstance(block, DocumentBlock):
        return ev.overlay({"type": "file", "path": block.filename, "content": block.text}, rest)
    return None


def _blocks(values: list[Any]) -> tuple[Block, ...]:
    out: list[Block] = []
    for value in values:  # the SDK's own blocks, then the Anthropic codec; else kept whole
        own = _sdk_block(value)
        if own is not None:
            out.append(own)
            continue
        try:
            (block,) = decode_content([value])
            name = block.extra.get("name") if isinstance(block, ToolResultBlock) else None
            if isinstance(block, ToolResultBlock) and isinstance(name, str):
                rest = {k: v for k, v in raw(block.extra).items() if k != "name"}
                block = replace(block, name=name, extra=wrap_owned(rest) if rest else EMPTY)
            out.append(block)
        except DecodeError:
            out.append(RawBlock(wrap_owned(value) if type(value) is dict else value))
    return tuple(out)


def _usage(metrics: dict[str, Any]) -> Usage:
    """Usage from ``metrics``, in either shape.

    A transcript's has ``inputTokens``...; the VS Code extension's has ``tokens``
    (``prompt`` including cache hits, ``completion``, ``cached``).
    """
    counts = ev.loose_counts(metrics, _METRICS)
    tokens = metrics.get("tokens")
    if type(tokens) is dict:
        prompt, completion, cached = (tokens.get(k) for k in ("prompt", "completion", "cached"))
        if type(cached) is int:
            counts["cache_read_tokens"] = cached
        if type(prompt) is int:
            counts["input_tokens"] = prompt - (cached if type(cached) is int else 0)
        if type(completion) is int:
            counts["output_tokens"] = completion
    return Usage(**counts)


def _model(info: Any) -> str | None:
    """The model a ``modelInfo`` names (``id`` in transcripts, ``modelId`` in VS Code's)."""
    if type(info) is not dict:
        return None
    for key in ("id", "modelId"):
        if type(info.get(key)) is str:
            return info[key]  # type: ignore[no-any-return]
    return None


def decode_turn(d: dict[str, Any]) -> Message:
    """One owned conversation entry to a UserMessage or an AssistantMessage.

    ``modelInfo`` and ``metrics`` stay whole in ``extra`` (``model`` and ``usage`` are read
    from them), so both shapes are written back as they were.
    """
    role = d.get("role")
    content = d.get("content")
    if type(content) is str:
        body: str | tuple[Block, ...] = content
    elif type(content) is list:
        body = _blocks(content)
    else:
        raise fail("a string or an array", content, "content")
    rest = {k: v for k, v in d.items() if k not in ("role", "content")}
    uuid = rest.pop("id") if type(rest.get("id")) is str else None
    ts = rest.pop("ts") if type(rest.get("ts")) in (int, float) else None
    model = _model(rest.get("modelInfo"))
    extra: FrozenDict = wrap_owned(rest) if rest else EMPTY
    if role == "user":
        return UserMessage(body, uuid=uuid, model=model, timestamp=ts, extra=extra)
    if role != "assistant":
        raise fail("'user' or 'assistant'", role, "role")
    metrics = rest.get("metrics")
    usage = _usage(metrics) if type(metrics) is dict else None
    return AssistantMessage(body, usage=usage, uuid=uuid, model=model, timestamp=ts, extra=extra)


def _content(content: str | tuple[Block, ...], policy: Policy) -> Any:
    if isinstance(content, str):
        return content
    out = []
    for i, block in enumerate(content):
        own = _sdk_out(block)
        if own is not None:
            out.append(own)
            continue
        plain = block
        if isinstance(block, TextBlock) and block.citations is not None:
            policy.refuse("Cline text carries no citations", f"$.content[{i}].citations", block)
            plain = TextBlock(block.text, extra=block.extra)
        item = anthropic_blocks.encode_block(plain)
        if isinstance(block, ToolResultBlock) and block.name is not None:
            item["name"] = block.name  # the SDK's tool results name their tool
        out.append(item)
    return out


def encode_turn(m: UserMessage | AssistantMessage, policy: Policy) -> dict[str, Any]:
    """A role message as one conversation entry (plain JSON, shared with the message)."""
    out: dict[str, Any] = {"role": m.role, "content": _content(m.content, policy)}
    if m.uuid is not None:
        out["id"] = m.uuid
    if m.timestamp is not None and not isinstance(m.timestamp, str):
        out["ts"] = m.timestamp
    if m.model is not None and "modelInfo" not in m.extra:
        out["modelInfo"] = {"id": m.model}
    if isinstance(m, AssistantMessage) and m.usage is not None and "metrics" not in m.extra:
        out["metrics"] = ev.counts_out(m.usage, _METRICS)
    return ev.overlay(out, m.extra)
