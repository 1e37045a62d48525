"""Flat messages: one message per content kind, each with its context.

The flat view is what Codex, Gemini CLI, OpenCode and Copilot emit, and what
:func:`messages.convert.normalize_messages` produces from any stream. Each flat message holds
exactly the data of the matching block, plus ``role`` and the context fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import ClassVar
from typing import Literal
from typing import final

from ._core.fields import Context
from ._core.fields import Role
from ._core.fields import compared
from ._core.fields import freeze_json
from ._core.fields import freeze_map
from ._core.fields import freeze_tuple
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue
from .blocks import Block
from .blocks import CallReads
from .blocks import OutputReads
from .blocks import RawReads
from .blocks import ServerResultReads
from .blocks import freeze_citations
from .citations import Citation

# The seven context fields (uuid ... extra) are declared once, in the keyword-only base
# _core.fields.Context, the one base a value class may have; every class below is final and
# declares the rest of its fields itself. Context keeps the field order each class had
# (makers, repr, pickles, native format), and behaviour shared beyond that lives once, in
# field-less slotted mixins.

__all__ = [
    "AudioMessage",
    "DocumentMessage",
    "ImageMessage",
    "RawMessage",
    "ServerToolResultMessage",
    "ServerToolUseMessage",
    "TextMessage",
    "ThinkingMessage",
    "ToolResultMessage",
    "ToolUseMessage",
    "VideoMessage",
]


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TextMessage(Context):
    """A piece of text.

    >>> TextMessage("hi", role="user").text
    'hi'
    """

    kind: ClassVar[Literal["text"]] = "text"
    text: str
    """The text."""
    _: KW_ONLY
    citations: tuple[Citation, ...] | None = None
    """Source citations, as on TextBlock."""
    role: Role = "assistant"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_citations(self)
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ThinkingMessage(Context):
    """The model's reasoning, with its opaque signature."""

    kind: ClassVar[Literal["thinking"]] = "thinking"
    thinking: str
    """The reasoning text."""
    _: KW_ONLY
    signature: str | None = None
    """Opaque provider token, sent back unchanged."""
    redacted: bool = False
    """True when only the encrypted payload is present."""
    provider: str | None = None
    """Which provider issued the signature."""
    role: Role = "assistant"
    """Who produced it; flattening copies the parent message's role."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolUseMessage(Context, CallReads):
    """A tool call.

    >>> ToolUseMessage("call_1", "shell", {"command": "ls"}).name
    'shell'
    """

    kind: ClassVar[Literal["tool_use"]] = "tool_use"
    id: str
    """Call id, matched by ToolResultMessage.tool_use_id."""
    name: str
    """Tool name."""
    input: Mapping[str, JsonValue] = EMPTY
    """Arguments, deep-frozen."""
    _: KW_ONLY
    arguments: str | None = None
    """The arguments exactly as the source wrote them as a JSON string, valid or not."""
    role: Role = "assistant"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_map(self, "input")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolResultMessage(Context, OutputReads):
    """What a tool returned for one call.

    >>> ToolResultMessage("call_1", "ok", is_error=False).text
    'ok'
    """

    kind: ClassVar[Literal["tool_result"]] = "tool_result"
    tool_use_id: str
    """Id of the call this answers."""
    content: str | tuple[Block, ...] = ""
    """The output: plain text, or blocks."""
    _: KW_ONLY
    is_error: bool | None = None
    """Whether the tool failed; ``None`` when the source did not say."""
    name: str | None = None
    """Tool name, where the source gives it."""
    role: Role = "tool"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ImageMessage(Context):
    """An image: base64 data, a URL or a provider file id (see the matching block)."""

    kind: ClassVar[Literal["image"]] = "image"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched."""
    file_id: str | None = None
    """A provider file id."""
    media_type: str | None = None
    """MIME type as given."""
    role: Role = "user"
    """Who produced it; flattening copies the parent message's role."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class AudioMessage(Context):
    """Audio: base64 data, a URL or a provider file id (see the matching block)."""

    kind: ClassVar[Literal["audio"]] = "audio"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched."""
    file_id: str | None = None
    """A provider file id."""
    media_type: str | None = None
    """MIME type as given."""
    role: Role = "user"
    """Who produced it; flattening copies the parent message's role."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class RawMessage(Context, RawReads):
    """Anything not modelled, kept verbatim: an unknown event line, or a RawBlock's data.

    >>> RawMessage({"type": "rate_limit_event"}).type
    'rate_limit_event'
    """

    kind: ClassVar[Literal["raw"]] = "raw"
    data: JsonValue
    """The original value, exactly as received."""
    _: KW_ONLY
    role: Role | None = None
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_json(self, "data")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class DocumentMessage(Context):
    """A document: file data, a text body, content blocks, a URL or a file id.

    See :class:`~messages.DocumentBlock`.
    """

    kind: ClassVar[Literal["document"]] = "document"
    _: KW_ONLY
    data: str | None = None
    """Base64 bytes exactly as received."""
    text: str | None = None
    """A plain-text document body."""
    content: str | tuple[Block, ...] | None = None
    """A document made of content blocks (Anthropic ``content`` source)."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched."""
    file_id: str | None = None
    """A provider file id."""
    media_type: str | None = None
    """MIME type as given."""
    title: str | None = None
    """The document's title (Anthropic ``title``)."""
    filename: str | None = None
    """The file name (OpenAI ``filename``)."""
    context: str | None = None
    """Text about the document the model may read but not cite (Anthropic ``context``)."""
    citations: bool | None = None
    """Whether the model may cite the document; ``None``: not said."""
    role: Role = "user"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class VideoMessage(Context):
    """A video: base64 data, a URL or a provider file id, maybe clipped.

    See :class:`~messages.VideoBlock`.
    """

    kind: ClassVar[Literal["video"]] = "video"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched."""
    file_id: str | None = None
    """A provider file id."""
    media_type: str | None = None
    """MIME type as given."""
    start_offset: str | None = None
    """Where the clip starts (Gemini ``videoMetadata.startOffset``)."""
    end_offset: str | None = None
    """Where the clip ends (Gemini ``videoMetadata.endOffset``)."""
    fps: int | float | None = None
    """Frames sampled per second (Gemini ``videoMetadata.fps``)."""
    role: Role = "user"
    """Who produced it; flattening copies the parent message's role."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ServerToolUseMessage(Context):
    """A call of a tool the provider runs itself, as ServerToolUseBlock.

    >>> ServerToolUseMessage("srvtoolu_1", "web_search", {"query": "tides"}).name
    'web_search'
    """

    kind: ClassVar[Literal["server_tool_use"]] = "server_tool_use"
    id: str
    """Call id, matched by ServerToolResultMessage.tool_use_id."""
    name: str
    """Which server tool (``web_search``, ``code_execution``...)."""
    input: Mapping[str, JsonValue] = EMPTY
    """The call's arguments as the provider wrote them, deep-frozen."""
    _: KW_ONLY
    provider: str | None = None
    """Which provider ran the tool."""
    role: Role = "assistant"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_map(self, "input")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ServerToolResultMessage(Context, ServerResultReads):
    """What a server-side tool returned, as ServerToolResultBlock.

    >>> ServerToolResultMessage("srvtoolu_1", "web_search", []).is_error
    False
    """

    kind: ClassVar[Literal["server_tool_result"]] = "server_tool_result"
    tool_use_id: str
    """Id of the ServerToolUseMessage this answers."""
    tool: str
    """The result kind: ``web_search``, ``web_fetch``, ``code_execution``..."""
    content: JsonValue = None
    """The result exactly as the wire carried it, deep-frozen."""
    _: KW_ONLY
    provider: str | None = None
    """Which provider ran the tool."""
    role: Role = "assistant"
    """Who produced it; flattening copies the parent message's role."""

    def __post_init__(self) -> None:
        freeze_json(self, "content")
        freeze_map(self, "extra")


FlatMessage = (
    TextMessage
    | ThinkingMessage
    | ToolUseMessage
    | ToolResultMessage
    | ImageMessage
    | AudioMessage
    | RawMessage
    | DocumentMessage
    | VideoMessage
    | ServerToolUseMessage
    | ServerToolResultMessage
)
"""A message of the flat view: exactly one piece of content."""
