"""Content blocks: the pieces a message is made of.

Every block is a frozen, slotted, hashable dataclass. The discriminator is the class-level
``kind``; fields a format sends that a class does not model live in ``extra`` so a codec can
write them back exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from os import PathLike
from typing import Any
from typing import ClassVar
from typing import Literal
from typing import Self
from typing import TypeAlias
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_json
from ._core.fields import freeze_map
from ._core.fields import freeze_tuple
from ._core.frozen import EMPTY
from ._core.frozen import FrozenDict
from ._core.frozen import JsonValue
from ._core.jsontext import parse_arguments
from .citations import Citation
from .citations import read_citation

# Each block declares all of its fields, ``extra`` included: the one field-holding base,
# _core.fields.Context, is for messages (their seven context fields). Blocks do not inherit
# from each other; behaviour they share lives once, in field-less slotted mixins.

__all__ = [
    "AudioBlock",
    "Block",
    "CallReads",
    "DocumentBlock",
    "ImageBlock",
    "MediaReads",
    "OutputReads",
    "RawBlock",
    "RawReads",
    "ServerResultReads",
    "ServerToolResultBlock",
    "ServerToolUseBlock",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "VideoBlock",
    "content_text",
    "freeze_citations",
    "server_failed",
]


def content_text(content: str | tuple[Block, ...]) -> str:
    """The text of some content: the string, or its text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    return "\n".join([b.text for b in content if isinstance(b, TextBlock)])


class CallReads:
    """What a tool call's block and its flat message read from ``arguments``, written once.

    A slotted mixin with no fields of its own (see :class:`MediaReads`).
    """

    __slots__ = ()

    arguments: str | None

    @property
    def invalid_arguments(self) -> bool:
        """True when ``arguments`` is present but is not a strict JSON object.

        Strict as everywhere in the library: ``NaN``, ``Infinity`` and ``1e999`` are not JSON.
        """
        return self.arguments is not None and parse_arguments(self.arguments) is None


class OutputReads:
    """What a tool result's block and its flat message read from ``content``, written once.

    A slotted mixin with no fields of its own (see :class:`MediaReads`).
    """

    __slots__ = ()

    content: str | tuple[Block, ...]

    @property
    def text(self) -> str:
        """The text of the output: the string, or the text blocks joined by newlines."""
        return content_text(self.content)


class RawReads:
    """What a raw block and a raw message read from ``data``, written once.

    A slotted mixin with no fields of its own (see :class:`MediaReads`).
    """

    __slots__ = ()

    data: JsonValue

    @property
    def type(self) -> str | None:
        """The ``type`` key of ``data`` when it is an object with a string type."""
        if isinstance(self.data, FrozenDict):
            tag = self.data.get("type")
            return tag if isinstance(tag, str) else None
        return None


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class TextBlock:
    """Plain text written by a user or a model.

    >>> TextBlock("hello")
    TextBlock(text='hello')
    """

    kind: ClassVar[Literal["text"]] = "text"
    text: str
    """The text. Anthropic ``text``; OpenAI ``text``/``output_text``; Gemini ``text``."""
    _: KW_ONLY
    citations: tuple[Citation, ...] | None = None
    """Source citations (Anthropic ``citations``, OpenAI ``annotations``); ``None``: none sent."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``cache_control``...), kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_citations(self)
        freeze_map(self, "extra")

    __repr__ = compact_repr


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ThinkingBlock:
    """The model's reasoning, with the provider's opaque signature kept exactly.

    A redacted block (Anthropic ``redacted_thinking``, encrypted reasoning) has
    ``redacted=True``, usually empty ``thinking``, and its encrypted payload in ``signature``.
    """

    kind: ClassVar[Literal["thinking"]] = "thinking"
    thinking: str
    """The reasoning text (may be a summary, or empty when the provider hides it)."""
    _: KW_ONLY
    signature: str | None = None
    """Opaque token to send back unchanged (Anthropic ``signature``/``data``, OpenAI
    ``encrypted_content``, Gemini ``thoughtSignature``)."""
    redacted: bool = False
    """True when the reasoning itself is hidden and only the encrypted payload is present."""
    provider: str | None = None
    """Which provider issued the signature; other providers cannot verify it."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model, kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")

    __repr__ = compact_repr


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolUseBlock(CallReads):
    """The model asks the caller to run a tool.

    >>> ToolUseBlock("toolu_1", "Bash", {"command": "ls"}).input["command"]
    'ls'
    """

    kind: ClassVar[Literal["tool_use"]] = "tool_use"
    id: str
    """Call id; the matching ToolResultBlock carries it as ``tool_use_id``
    (OpenAI ``call_id``/``tool_call_id``, Gemini ``functionCall.id``)."""
    name: str
    """Tool name."""
    input: Mapping[str, JsonValue] = EMPTY
    """Arguments, deep-frozen: hashable and read-only (OpenAI: parsed ``arguments``)."""
    _: KW_ONLY
    arguments: str | None = None
    """The arguments exactly as the source wrote them as a JSON string, valid or not."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``caller``, ``cache_control``...)."""

    def __post_init__(self) -> None:
        freeze_map(self, "input")
        freeze_map(self, "extra")

    __repr__ = compact_repr


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolResultBlock(OutputReads):
    """What a tool returned for one call.

    >>> ToolResultBlock("toolu_1", "done").text
    'done'
    """

    kind: ClassVar[Literal["tool_result"]] = "tool_result"
    tool_use_id: str
    """Id of the ToolUseBlock this answers."""
    content: str | tuple[Block, ...] = ""
    """The output: plain text, or blocks (text, images, ...)."""
    _: KW_ONLY
    is_error: bool | None = None
    """Whether the tool failed; ``None`` when the source did not say."""
    name: str | None = None
    """Tool name, where the source gives it (Gemini ``functionResponse.name``, Codex, ...)."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model, kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")

    __repr__ = compact_repr


class MediaReads:
    """What image, audio, document and video blocks share, written once.

    Building from bytes or a file, reading the bytes back, the best-known MIME type, and a
    repr that never dumps base64.

    A slotted mixin with no fields of its own (see :class:`messages.roles.ContentReads`).
    """

    __slots__ = ()

    data: str | None
    url: str | None
    file_id: str | None
    media_type: str | None
    extra: Mapping[str, JsonValue]

    @classmethod
    def from_bytes(cls, data: bytes, media_type: str | None = None) -> Self:
        """A block from raw bytes; the MIME type is sniffed when not given."""
        from .media import b64encode  # lazy: media helpers cost import time
        from .media import sniff_media_type  # lazy: media helpers cost import time

        media_type = media_type or sniff_media_type(data)
        return cls(data=b64encode(data), media_type=media_type)  # type: ignore[call-arg]

    @classmethod
    def from_file(cls, path: str | PathLike[str], media_type: str | None = None) -> Self:
        """Read a media file (the only way this library reads a file for you)."""
        with open(path, "rb") as fp:
            return cls.from_bytes(fp.read(), media_type)

    def to_bytes(self) -> bytes | None:
        """The decoded bytes of ``data`` or of a base64 ``data:`` URL; ``None`` otherwise."""
        from .media import b64decode
        from .media import parse_data_uri

        if self.data is not None:
            return b64decode(self.data, path="$.data")
        if self.url is not None:
            uri = parse_data_uri(self.url)
            if uri is not None and uri.is_base64:
                return b64decode(uri.data, path="$.url")
        return None

    @property
    def resolved_media_type(self) -> str | None:
        """``media_type``, else the type of a ``data:`` URL, else sniffed from the data."""
        from .media import b64decode
        from .media import parse_data_uri
        from .media import sniff_media_type

        if self.media_type is not None:
            return self.media_type
        if self.url is not None:
            uri = parse_data_uri(self.url)
            if uri is not None:
                return uri.media_type
        if self.data is not None:
            return sniff_media_type(b64decode(self.data[:24], path="$.data"))
        return None

    def __repr__(self) -> str:
        from .media import base64_size

        parts = []
        if self.media_type is not None:
            parts.append(f"media_type={self.media_type!r}")
        if self.data is not None:
            parts.append(f"data=<{base64_size(self.data)} bytes>")
        if self.url is not None:
            url = self.url if len(self.url) <= 80 else f"{self.url[:40]}...<{len(self.url)} chars>"
            parts.append(f"url={url!r}")
        if self.file_id is not None:
            parts.append(f"file_id={self.file_id!r}")
        if self.extra:
            parts.append(f"extra={self.extra!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ImageBlock(MediaReads):
    r"""An image: base64 data, a URL (``data:`` URIs included), or a provider file id.

    Build one from bytes with :meth:`from_bytes` (the MIME type is sniffed) or from a file
    with :meth:`from_file`; decoding data never reads files or fetches URLs.

    >>> ImageBlock.from_bytes(b"\x89PNG\r\n\x1a\n" + bytes(8))
    ImageBlock(media_type='image/png', data=<16 bytes>)
    """

    kind: ClassVar[Literal["image"]] = "image"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received (Anthropic ``source.data``, Gemini ``inlineData.data``)."""
    url: str | None = None
    """A URL, or a ``data:`` URI as OpenAI sends them; never fetched by this library."""
    file_id: str | None = None
    """A provider file id (Anthropic/OpenAI ``file_id``, Gemini ``fileData.fileUri``)."""
    media_type: str | None = None
    """MIME type as given (``image/png``); see :attr:`resolved_media_type` for a best guess."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``detail``, ``cache_control``...)."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class AudioBlock(MediaReads):
    """Audio: base64 data, a URL (``data:`` URIs included), or a provider file id.

    >>> AudioBlock.from_bytes(b"fLaC" + bytes(12)).media_type
    'audio/flac'
    """

    kind: ClassVar[Literal["audio"]] = "audio"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received (OpenAI ``input_audio.data``, Gemini ``inlineData``)."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched by this library."""
    file_id: str | None = None
    """A provider file id."""
    media_type: str | None = None
    """MIME type as given (``audio/wav``); OpenAI's ``format: "wav"`` maps to ``audio/wav``."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model, kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class DocumentBlock(MediaReads):
    r"""A document: a PDF or other file (base64, URL, file id) or a plain-text body.

    Exactly one source is usually set: ``data`` (base64 bytes, Anthropic ``base64`` source,
    OpenAI ``file_data``, Gemini ``inlineData``), ``text`` (Anthropic ``text`` source),
    ``content`` (Anthropic ``content`` source), ``url`` or ``file_id``. Build one from bytes
    with :meth:`from_bytes` (``%PDF`` is sniffed), from a file with :meth:`from_file`, or from
    a string with :meth:`from_text`.

    >>> DocumentBlock.from_bytes(b"%PDF-1.7\n", title="report.pdf")
    DocumentBlock(media_type='application/pdf', data=<9 bytes>, title='report.pdf')
    >>> DocumentBlock.from_text("Minutes of the meeting.").media_type
    'text/plain'
    """

    kind: ClassVar[Literal["document"]] = "document"
    _: KW_ONLY
    data: str | None = None
    """Base64 bytes exactly as received (Anthropic ``source.data`` of a ``base64`` source,
    OpenAI ``file_data`` without its ``data:`` prefix, Gemini ``inlineData.data``)."""
    text: str | None = None
    """A plain-text document body (Anthropic ``source.data`` of a ``text`` source)."""
    content: str | tuple[Block, ...] | None = None
    """A document made of content blocks (Anthropic ``source.content`` of a ``content``
    source): a string or blocks, kept as sent."""
    url: str | None = None
    """A URL (Anthropic ``url`` source, Responses ``file_url``), or a ``data:`` URL (OpenAI
    ``file_data`` as sent); never fetched by this library."""
    file_id: str | None = None
    """A provider file id (Anthropic ``file`` source, OpenAI ``file_id``, Gemini
    ``fileData.fileUri``)."""
    media_type: str | None = None
    """MIME type as given (``application/pdf``, ``text/plain``...)."""
    title: str | None = None
    """The document's title (Anthropic ``title``); OpenAI has ``filename`` instead."""
    filename: str | None = None
    """The file name (OpenAI ``filename``); Anthropic has ``title`` instead."""
    context: str | None = None
    """Text about the document the model may read but not cite (Anthropic ``context``)."""
    citations: bool | None = None
    """Whether the model may cite the document (Anthropic ``citations.enabled``); ``None``:
    not said."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``cache_control``...), kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "content")
        freeze_map(self, "extra")

    @classmethod
    def from_bytes(
        cls,
        data: bytes,
        media_type: str | None = None,
        *,
        title: str | None = None,
        filename: str | None = None,
    ) -> Self:
        """A document from raw bytes; the MIME type is sniffed (``%PDF``, UTF-8 text)."""
        from .media import b64encode  # lazy: media helpers cost import time
        from .media import sniff_document_type  # lazy: media helpers cost import time

        media_type = media_type or sniff_document_type(data)
        return cls(data=b64encode(data), media_type=media_type, title=title, filename=filename)

    @classmethod
    def from_text(
        cls, text: str, media_type: str = "text/plain", *, title: str | None = None
    ) -> Self:
        """A plain-text document (an Anthropic ``text`` source)."""
        return cls(text=text, media_type=media_type, title=title)

    @property
    def size(self) -> int | None:
        """Bytes of ``data`` or of a base64 ``data:`` URL, or characters of ``text``.

        ``None`` when the document is elsewhere (a URL, a file id) or made of blocks.
        """
        from .media import base64_size
        from .media import parse_data_uri

        if self.data is not None:
            return base64_size(self.data)
        if self.text is not None:
            return len(self.text)
        if self.url is not None:
            uri = parse_data_uri(self.url)
            if uri is not None:
                return base64_size(uri.data) if uri.is_base64 else len(uri.data)
        return None

    def __repr__(self) -> str:
        from .media import base64_size

        parts = []
        if self.media_type is not None:
            parts.append(f"media_type={self.media_type!r}")
        if self.data is not None:
            parts.append(f"data=<{base64_size(self.data)} bytes>")
        if self.text is not None:
            text = (
                self.text
                if len(self.text) <= 60
                else f"{self.text[:40]}...<{len(self.text)} chars>"
            )
            parts.append(f"text={text!r}")
        if self.content is not None:
            parts.append(f"content={self.content!r}")
        for name in ("url", "file_id", "title", "filename", "context", "citations"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        if self.extra:
            parts.append(f"extra={self.extra!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class VideoBlock(MediaReads):
    r"""A video: base64 data, a URL (``data:`` URIs included) or a provider file id.

    Gemini carries video as ``inlineData``/``fileData`` with a ``video/*`` MIME type, and may
    clip or sample it with ``videoMetadata``; the other providers take no video.

    >>> VideoBlock(file_id="https://generativelanguage.googleapis.com/v1beta/files/f1",
    ...            media_type="video/mp4", start_offset="10s", fps=2).fps
    2
    """

    kind: ClassVar[Literal["video"]] = "video"
    _: KW_ONLY
    data: str | None = None
    """Base64 text exactly as received (Gemini ``inlineData.data``)."""
    url: str | None = None
    """A URL or ``data:`` URI; never fetched by this library."""
    file_id: str | None = None
    """A provider file id (Gemini ``fileData.fileUri``, a YouTube URL included)."""
    media_type: str | None = None
    """MIME type as given (``video/mp4``)."""
    start_offset: str | None = None
    """Where the clip starts, as Gemini writes durations (``"1.5s"``; ``videoMetadata``)."""
    end_offset: str | None = None
    """Where the clip ends (Gemini ``videoMetadata.endOffset``)."""
    fps: int | float | None = None
    """Frames sampled per second (Gemini ``videoMetadata.fps``), the number as sent."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``mediaResolution``...), kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")

    def __repr__(self) -> str:
        shown = MediaReads.__repr__(self)
        clip = [
            f"{name}={getattr(self, name)!r}"
            for name in ("start_offset", "end_offset", "fps")
            if getattr(self, name) is not None
        ]
        if not clip:
            return shown
        head = shown[:-1]
        return f"{head}{', ' if not head.endswith('(') else ''}{', '.join(clip)})"


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class RawBlock(RawReads):
    """Anything this library does not model, kept verbatim (unknown kinds, MCP tool blocks...).

    >>> RawBlock({"type": "container_upload", "file_id": "file_1"}).type
    'container_upload'
    """

    kind: ClassVar[Literal["raw"]] = "raw"
    data: JsonValue
    """The original value, exactly as received (usually a JSON object with a ``type``)."""
    _: KW_ONLY
    provider: str | None = None
    """The provider API whose body held it, set only where the data alone cannot say whose
    it is (a Converse content member newer than this library): only that API's encoder
    writes it back as it is."""

    def __post_init__(self) -> None:
        freeze_json(self, "data")

    __repr__ = compact_repr


# ---------------------------------------------------------------------- server-side tools


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ServerToolUseBlock:
    """A tool the provider runs itself (web search, code execution...), as the model called it.

    Unlike a :class:`ToolUseBlock`, the caller does not answer it: the provider's own
    :class:`ServerToolResultBlock` follows in the same turn.

    >>> ServerToolUseBlock("srvtoolu_1", "web_search", {"query": "weather"}).input["query"]
    'weather'
    """

    kind: ClassVar[Literal["server_tool_use"]] = "server_tool_use"
    id: str
    """Call id; the matching ServerToolResultBlock carries it as ``tool_use_id`` (Anthropic
    ``srvtoolu_...``, Gemini ``executableCode.id`` or ``""``, OpenAI the item ``id``)."""
    name: str
    """Which server tool: ``web_search``, ``web_fetch``, ``code_execution``, ``file_search``..."""
    input: Mapping[str, JsonValue] = EMPTY
    """The call's arguments as the provider wrote them, deep-frozen (Anthropic ``input``;
    Gemini the ``executableCode`` object; OpenAI the call fields of the item)."""
    _: KW_ONLY
    provider: str | None = None
    """Which provider ran the tool; another provider may not accept it back."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``caller``, a Gemini part's signature...)."""

    def __post_init__(self) -> None:
        freeze_map(self, "input")
        freeze_map(self, "extra")

    __repr__ = compact_repr


class ServerResultReads:
    """What a server tool's result block and its flat message read from ``content``, written once.

    A slotted mixin with no fields of its own (see :class:`MediaReads`).
    """

    __slots__ = ()

    content: JsonValue

    @property
    def is_error(self) -> bool:
        """Whether the tool failed, read from the content the way each provider says it.

        Anthropic sends an object whose ``type`` ends in ``_error`` (with an ``error_code``);
        Gemini a ``codeExecutionResult`` whose ``outcome`` is not ``OUTCOME_OK``; OpenAI a
        ``status`` of ``failed`` or an ``error``.
        """
        return server_failed(self.content)


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ServerToolResultBlock(ServerResultReads):
    """What a server-side tool returned, kept exactly as the provider sent it.

    ``tool`` names the kind of result (Anthropic's ``web_search_tool_result`` is
    ``"web_search"``); ``content`` is the provider's own result value, unchanged, so it can be
    sent back verbatim (encrypted search results included).

    >>> error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    >>> ServerToolResultBlock("srvtoolu_1", "web_search", error).is_error
    True
    """

    kind: ClassVar[Literal["server_tool_result"]] = "server_tool_result"
    tool_use_id: str
    """Id of the ServerToolUseBlock this answers."""
    tool: str
    """The result kind: ``web_search``, ``web_fetch``, ``code_execution``, ``advisor``..."""
    content: JsonValue = None
    """The result exactly as the wire carried it (a list of search results, an execution
    result object, an error object...), deep-frozen."""
    _: KW_ONLY
    provider: str | None = None
    """Which provider ran the tool."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``caller``...), kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_json(self, "content")
        freeze_map(self, "extra")

    __repr__ = compact_repr


def freeze_citations(obj: Any) -> None:
    """Make a ``citations`` field a tuple of Citations, in place (``None`` stays).

    A wire citation object (a mapping) is read as its format spells it, so
    ``TextBlock("x", citations=[{"type": "url_citation", ...}])`` works too.
    """
    value = obj.citations
    if value is None or (type(value) is tuple and all(type(c) is Citation for c in value)):
        return
    from ._core.frozen import freeze
    from ._core.frozen import thaw
    from .errors import DecodeError

    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise DecodeError("expected a sequence of citations", path=".citations", value=value)
    out = []
    for i, item in enumerate(value):
        if type(item) is Citation:
            out.append(item)
        elif isinstance(item, Mapping):
            out.append(read_citation(thaw(freeze(item))))
        else:
            raise DecodeError("expected a citation", path=f".citations[{i}]", value=item)
    object.__setattr__(obj, "citations", tuple(out))


def server_failed(content: JsonValue) -> bool:
    """Whether a server tool's result says it failed (see ServerToolResultBlock.is_error)."""
    if not isinstance(content, FrozenDict):
        return False
    tag = content.get("type")
    outcome = content.get("outcome")
    return (
        (isinstance(tag, str) and tag.endswith("_error"))
        or (isinstance(outcome, str) and outcome != "OUTCOME_OK")
        or content.get("status") == "failed"
        or content.get("error") is not None
    )


Block: TypeAlias = (
    TextBlock
    | ThinkingBlock
    | ToolUseBlock
    | ToolResultBlock
    | ImageBlock
    | AudioBlock
    | RawBlock
    | DocumentBlock
    | VideoBlock
    | ServerToolUseBlock
    | ServerToolResultBlock
)
"""Any content block."""

BLOCK_TYPES: tuple[type[Block], ...] = (
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ImageBlock,
    AudioBlock,
    RawBlock,
    DocumentBlock,
    VideoBlock,
    ServerToolUseBlock,
    ServerToolResultBlock,
)
