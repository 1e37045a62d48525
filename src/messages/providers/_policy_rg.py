"""Helpers the provider encoders share: the unsupported-content policy and foreign keys.

:class:`Policy` applies the caller's choice (``"raise"``, ``"drop"``, ``"text"``) to content a
target cannot carry, with the path of the offending block in the error. :func:`describe`
writes the one-line text a block degrades to. :func:`own_extra` filters an ``extra``
mapping down to the keys an encoder may write back (see each provider's docs page).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, assert_never

from .._json import raw
from ..blocks import (
    AudioBlock,
    Block,
    ImageBlock,
    RawBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from ..errors import EncodeError, UnsupportedContentError
from ._base import Unsupported

__all__ = ["Policy", "describe", "non_null", "own_extra"]

_SNIPPET: Final = 200


def _clip(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3] + "..."


def _media(block: ImageBlock | AudioBlock) -> str:
    name = "image" if isinstance(block, ImageBlock) else "audio"
    details = [block.resolved_media_type or "unknown type"]
    if block.data is not None:
        size = len(block.data) * 3 // 4 - block.data[-2:].count("=")
        details.append(f"{size} bytes")
    elif block.url is not None:
        url = block.url
        details.append(url if not url.startswith("data:") else f"data URL, {len(url)} chars")
    elif block.file_id is not None:
        details.append(f"file {block.file_id}")
    return f"[{name}: {', '.join(details)}]"


def describe(block: Block) -> str:
    """The text a block degrades to under the ``"text"`` policy.

    >>> describe(AudioBlock(data="UklGRg==", media_type="audio/wav"))
    '[audio: audio/wav, 4 bytes]'
    >>> describe(ThinkingBlock("Check the cache first.", signature="x", provider="anthropic"))
    '[thinking: Check the cache first.]'
    """
    match block:
        case TextBlock():
            return block.text
        case ThinkingBlock():
            return "[thinking: redacted]" if block.redacted else f"[thinking: {block.thinking}]"
        case ToolUseBlock():
            args = block.arguments
            if args is None:
                args = json.dumps(raw(block.input), ensure_ascii=False, separators=(",", ":"))
            return f"[tool call {block.name} ({block.id}): {_clip(args)}]"
        case ToolResultBlock():
            label = "tool error" if block.is_error else "tool result"
            return f"[{label} ({block.tool_use_id}): {_clip(block.text)}]"
        case ImageBlock() | AudioBlock():
            return _media(block)
        case RawBlock():
            tag = block.type
            if tag is not None:
                return f"[{tag}]"
            text = json.dumps(raw(block.data), ensure_ascii=False, separators=(",", ":"))
            return f"[raw: {_clip(text)}]"
        case _:
            assert_never(block)


class Policy:
    """What to do with content the target cannot carry, decided once per encode call."""

    __slots__ = ("mode", "source")

    def __init__(self, mode: Unsupported, source: str) -> None:
        if mode not in ("raise", "drop", "text"):
            raise EncodeError(
                f"expected unsupported='raise', 'drop' or 'text', found {mode!r}",
                source=source,
                value=mode,
            )
        self.mode = mode
        self.source = source

    def reject(self, block: Block, path: str, reason: str) -> TextBlock | None:
        """Apply the policy to ``block``: raise, or return ``None`` (drop) or its text."""
        if self.mode == "raise":
            raise UnsupportedContentError(reason, path=path, source=self.source, value=block)
        if self.mode == "drop":
            return None
        return TextBlock(describe(block))


def non_null(extra: Mapping[str, Any], keys: frozenset[str]) -> frozenset[str]:
    """Those of ``keys`` whose value in ``extra`` is not null.

    A modelled wire field whose value was null decodes as ``None`` and keeps its null in
    ``extra``; an encoder protects a modelled key from ``extra`` except for that null.
    """
    return frozenset(k for k in keys if extra.get(k, None) is not None)


def own_extra(
    extra: Mapping[str, Any],
    protected: frozenset[str],
    foreign: Callable[[str], bool],
) -> dict[str, Any]:
    """The keys of ``extra`` an encoder writes back, as a new dict (values shared, read-only).

    Left out: ``protected`` keys (the encoder sets them itself) and ``foreign`` ones (known
    to belong to another wire format).
    """
    if not extra:
        return {}
    stored = raw(extra)
    return {k: v for k, v in stored.items() if k not in protected and not foreign(k)}
