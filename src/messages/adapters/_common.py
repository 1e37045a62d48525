"""Helpers shared by the Claude Code and Codex adapters (private).

- context reads that never raise for lines kept as :class:`RawMessage`;
- the provenance test an encoder uses before writing a message's ``extra`` back (extras
  from another format are never mixed into this one's wire objects);
- the unsupported-content policy (raise, drop or degrade to text) in one place;
- a lossless front end to the Anthropic block codec: a known block that lacks a key the
  codec would fill in with a default is kept as a :class:`RawBlock`, so it round-trips.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .._core import anthropic_blocks
from .._core.frozen import JsonValue, thaw
from .._core.make import wrap_owned
from .._core.wire import fail
from ..blocks import AudioBlock, Block, ImageBlock, RawBlock, TextBlock, ThinkingBlock
from ..errors import DecodeError, UnsupportedContentError
from ..policy import Unsupported

__all__ = [
    "REQUIRED_BLOCK_KEYS",
    "decode_content",
    "describe_block",
    "foreign",
    "is_native",
    "opt_timestamp",
    "plain",
    "reject",
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


def is_native(obj: Any) -> bool:
    """Whether a parsed line is this library's own native JSON (``"v"`` and ``"kind"``)."""
    return type(obj) is dict and "v" in obj and "kind" in obj


def foreign(extra: Mapping[str, JsonValue], expected: str | tuple[str, ...]) -> bool:
    """Whether ``extra`` came from another format and must not be written into this one.

    Decoders of the Claude Code and Codex adapters keep the wire ``type`` (or the JSON-RPC
    ``method``) in ``extra``; an extra whose ``type`` is not one this encoder would write,
    or that carries a JSON-RPC marker the target does not use, belongs to another format.
    An extra without a ``type`` (written by hand, or a block's extra) is taken as ours.
    """
    if not extra:
        return False
    tag = extra.get("type")
    if tag is not None and (tag != expected if isinstance(expected, str) else tag not in expected):
        return True
    return any(marker in extra for marker in _FOREIGN_MARKERS)


def opt_timestamp(d: dict[str, Any], key: str) -> str | int | float | None:
    """An optional timestamp exactly as written: text or a number; anything else is an error."""
    v = d.get(key)
    if v is None:
        return None
    cls = type(v)
    if cls is str or cls is int or cls is float:
        return v  # type: ignore[no-any-return]
    raise fail("a string or a number", v, key)


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
    out = []
    fast = _FAST_DECODERS
    required = REQUIRED_BLOCK_KEYS
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


def describe_block(block: Block) -> str:
    """A short text stand-in for a block a format cannot carry (the ``text`` policy)."""
    if isinstance(block, (ImageBlock, AudioBlock)):
        media = block.resolved_media_type or "unknown type"
        return f"[{block.kind}: {media}]"
    if isinstance(block, ThinkingBlock):
        return block.thinking
    if isinstance(block, TextBlock):
        return block.text
    return f"[{block.kind}]"


def reject(what: str, value: Any, *, source: str, policy: Unsupported) -> None:
    """Raise :class:`UnsupportedContentError` under the ``raise`` policy; else return."""
    if policy == "raise":
        raise UnsupportedContentError(
            f"{source} cannot carry {what}",
            source=source,
            value=value,
        )


def plain(value: Any) -> Any:
    """A fresh, mutable copy of an encoded wire value (what public ``encode`` returns)."""
    return thaw(value)
