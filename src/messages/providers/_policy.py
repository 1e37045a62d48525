"""What an encoder does with content its target cannot carry, shared by the codecs here.

:class:`Policy` applies the caller's ``unsupported`` choice: raise
:class:`~messages.UnsupportedContentError` with the path of the content in the conversation,
drop it, or put a short text describing it in its place (:func:`describe`). Metadata that
cannot be carried (another provider's cache hints, citations in another provider's shape)
is raised about under ``"raise"`` and left out otherwise: there is nothing to describe.

Also here: :func:`put_extra`, which writes a value's ``extra`` wire fields on top of what an
encoder built without ever replacing a field the encoder wrote itself, and the checks that
tell a message carrying response or log metadata from one decoded out of a request.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final, assert_never

from .._json import FrozenDict, JsonValue, thaw
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
from ..errors import UnsupportedContentError
from ..flat import RawMessage
from ..media import parse_data_uri
from ..message import Message
from ..roles import RoleMessage
from ._base import Unsupported, as_turns

__all__ = [
    "Policy",
    "describe",
    "has_context",
    "is_empty",
    "passthrough_role",
    "put_extra",
    "request_turns",
]

_MODES: Final = ("raise", "drop", "text")


class Policy:
    """The ``unsupported`` choice of one encode call, with the target's name for errors."""

    __slots__ = ("mode", "source")

    def __init__(self, mode: Unsupported, source: str) -> None:
        if mode not in _MODES:
            raise ValueError(f"unsupported must be 'raise', 'drop' or 'text', not {mode!r}")
        self.mode = mode
        self.source = source

    def error(self, what: str, path: str, value: Any = None) -> UnsupportedContentError:
        """The error raised under ``"raise"``."""
        return UnsupportedContentError(
            f"cannot carry {what}", path=path, source=self.source, value=value
        )

    def refuse(self, what: str, path: str, value: Any = None) -> None:
        """Metadata that cannot be carried: raise under ``"raise"``, else leave it out."""
        if self.mode == "raise":
            raise self.error(what, path, value)

    def degrade(self, block: Block, what: str, path: str) -> TextBlock | None:
        """A block that cannot be carried: raise, drop (``None``) or a describing TextBlock."""
        if self.mode == "raise":
            raise self.error(what, path, block)
        if self.mode == "drop":
            return None
        return TextBlock(describe(block))


def _size(data: str) -> int:
    return len(data) * 3 // 4 - data[-2:].count("=")


def _media(label: str, block: ImageBlock | AudioBlock) -> str:
    if block.data is not None:
        kind = block.media_type or block.resolved_media_type
        size = f"{_size(block.data)} bytes"
        return f"[{label}: {kind}, {size}]" if kind else f"[{label}: {size}]"
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None:
            size = f"{_size(uri.data)} bytes" if uri.is_base64 else f"{len(uri.data)} characters"
            return f"[{label}: {uri.media_type}, {size}]"
        return f"[{label}: {block.url}]"
    if block.file_id is not None:
        return f"[{label}: file {block.file_id}]"
    return f"[{label}]"


def _raw_label(data: JsonValue) -> str:
    if not isinstance(data, FrozenDict):
        return "[raw content]"
    kind = data.get("type")
    role = data.get("role")
    if isinstance(kind, str):
        label = kind
    elif isinstance(role, str):
        label = f"{role} message"  # a whole message of a role the target does not have
    else:
        label = "refusal" if "refusal" in data else "raw content"
    for key in ("refusal", "title", "name", "filename", "content"):
        value = data.get(key)
        if isinstance(value, str):
            return f"[{label}: {value}]"
    inner = data.get("file")
    if isinstance(inner, FrozenDict) and isinstance(inner.get("filename"), str):
        return f"[{label}: {inner['filename']}]"
    return f"[{label}]"


def describe(block: Block) -> str:
    """A short text standing in for a block a target cannot carry.

    >>> describe(ImageBlock(data="iVBORw0KGgo=", media_type="image/png"))
    '[image: image/png, 8 bytes]'
    >>> describe(ThinkingBlock("Check the units.", signature="sig", provider="openai"))
    '[thinking: Check the units.]'
    """
    match block:
        case TextBlock():
            return block.text
        case ThinkingBlock():
            if block.redacted or not block.thinking:
                return "[redacted thinking]" if block.redacted else "[thinking]"
            return f"[thinking: {block.thinking}]"
        case ToolUseBlock():
            arguments = block.arguments
            if arguments is None:
                arguments = json.dumps(thaw(block.input), ensure_ascii=False)
            return f"[tool call {block.name} ({block.id}): {arguments}]"
        case ToolResultBlock():
            status = " (error)" if block.is_error else ""
            return f"[tool result {block.tool_use_id}{status}: {block.text}]"
        case ImageBlock():
            return _media("image", block)
        case AudioBlock():
            return _media("audio", block)
        case RawBlock():
            return _raw_label(block.data)
        case _:
            assert_never(block)


def is_empty(value: Any) -> bool:
    """Whether a wire value carries nothing: null, an empty string, array or object."""
    if value is None:
        return True
    if isinstance(value, str | tuple | list | Mapping):
        return len(value) == 0
    return False


def put_extra(
    out: dict[str, Any],
    extra: Mapping[str, JsonValue],
    policy: Policy,
    path: str,
    foreign: frozenset[str] = frozenset(),
) -> None:
    """Write ``extra`` fields into ``out``, never over a field the encoder already wrote.

    A field the encoder wrote wins; an extra value for it that differs and is not empty
    cannot be carried. Fields in ``foreign`` belong to another provider's format: empty
    ones are left out, others cannot be carried. Everything else is written as it is.
    """
    for key, value in extra.items():
        if key in out:
            if is_empty(value) or thaw(value) == out[key]:
                continue
            policy.refuse(f"the field {key!r} here", f"{path}.extra.{key}", value)
        elif key in foreign:
            if not is_empty(value):
                policy.refuse(f"another provider's field {key!r}", f"{path}.extra.{key}", value)
        else:
            out[key] = thaw(value)


def has_context(message: Any) -> bool:
    """Whether a message carries log or response metadata, so did not come from a request.

    Such messages (decoded from a response or an agent log) keep wire fields of their own
    record in ``extra``; an encoder writes only the fields its request format knows.
    """
    return (
        message.uuid is not None
        or message.session_id is not None
        or message.parent_tool_use_id is not None
        or message.model is not None
        or message.message_id is not None
        or message.timestamp is not None
        or getattr(message, "usage", None) is not None
        or getattr(message, "stop_reason", None) is not None
        or getattr(message, "error", None) is not None
    )


def passthrough_role(message: object) -> str | None:
    """The wire role of a RawMessage that holds a whole request message, else ``None``.

    Decoders keep a message with a role they do not know as ``RawMessage(data)``; encoders
    write it back in place, as it is.
    """
    if isinstance(message, RawMessage) and message.role is None:
        data = message.data
        if isinstance(data, FrozenDict):
            role = data.get("role")
            if isinstance(role, str):
                return role
    return None


def request_turns(conversation: Iterable[Message]) -> list[RoleMessage | RawMessage]:
    """The conversation as role turns (see ``as_turns``), keeping whole raw messages apart."""
    out: list[RoleMessage | RawMessage] = []
    segment: list[Message] = []
    for message in conversation:
        if passthrough_role(message) is not None:
            out.extend(as_turns(segment))
            segment = []
            assert isinstance(message, RawMessage)
            out.append(message)
        else:
            segment.append(message)
    out.extend(as_turns(segment))
    return out
