"""Media helpers: MIME sniffing, data URIs, strict base64, and the one media describer.

:func:`describe_media` gives the words every renderer and codec uses for an image or audio
value; :func:`base64_size` is the one count of the bytes base64 text stands for.

Pure functions; nothing here touches the filesystem or the network.
"""

from __future__ import annotations

import base64
import binascii
from typing import NamedTuple
from typing import Protocol

from .errors import DecodeError

__all__ = [
    "DataURI",
    "Medium",
    "b64decode",
    "b64encode",
    "base64_size",
    "describe_media",
    "is_document_type",
    "is_text_type",
    "media_facts",
    "parse_data_uri",
    "sniff_document_type",
    "sniff_media_type",
    "to_data_uri",
]


def sniff_media_type(data: bytes) -> str | None:
    r"""Guess a MIME type from the first bytes of an image, audio, video or PDF file.

    Knows PNG, JPEG, GIF, WEBP, MP3, OGG, FLAC, WAV, MP4, WebM and PDF; returns ``None``
    otherwise.

    >>> sniff_media_type(b"\x89PNG\r\n\x1a\n....")
    'image/png'
    >>> sniff_media_type(b"RIFF\x00\x00\x00\x00WAVEfmt ")
    'audio/wav'
    >>> sniff_media_type(b"%PDF-1.7"), sniff_media_type(b"\x00\x00\x00\x18ftypmp42")
    ('application/pdf', 'video/mp4')
    """
    head = data[:16]
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    if head[4:8] == b"ftyp" and head[8:12] in _MP4_BRANDS:
        return "video/mp4"
    if head.startswith(b"\x1aE\xdf\xa3"):
        return "video/webm"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image/webp"
    if head.startswith(b"RIFF") and head[8:12] == b"WAVE":
        return "audio/wav"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"ID3") or (len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "audio/mpeg"
    return None


_MP4_BRANDS = frozenset((b"isom", b"iso2", b"mp41", b"mp42", b"avc1", b"dash", b"M4V "))
"""ISO media brands of MP4 video (``M4A``, ``heic`` and others are not video)."""

_TEXT_TYPES = frozenset(
    (
        "application/json",
        "application/xml",
        "application/javascript",
        "application/x-javascript",
        "application/x-python",
        "application/rtf",
    )
)


def is_document_type(media_type: str | None) -> bool:
    """Whether a MIME type names a document: PDF, text, or anything not image/audio/video.

    The parameters after ``;`` are ignored; ``None`` is not a document type.

    >>> is_document_type("application/pdf"), is_document_type("text/plain; charset=utf-8")
    (True, True)
    >>> is_document_type("image/png"), is_document_type("video/mp4"), is_document_type(None)
    (False, False, False)
    """
    if not media_type:
        return False
    base = media_type.split(";", 1)[0].strip().lower()
    return not base.startswith(("image/", "audio/", "video/"))


def is_text_type(media_type: str | None) -> bool:
    """Whether a MIME type is text a model reads as such (``text/*``, JSON, XML, code)."""
    if not media_type:
        return False
    base = media_type.split(";", 1)[0].strip().lower()
    return base.startswith("text/") or base in _TEXT_TYPES


def sniff_document_type(data: bytes) -> str | None:
    r"""Guess a document's MIME type from its bytes.

    ``application/pdf`` for ``%PDF``, ``text/plain`` for UTF-8 text without NUL bytes, else
    what :func:`sniff_media_type` finds (or ``None``).

    >>> sniff_document_type(b"%PDF-1.4\n"), sniff_document_type("Grüße".encode())
    ('application/pdf', 'text/plain')
    >>> sniff_document_type(b"\x00\x01\x02") is None
    True
    """
    found = sniff_media_type(data)
    if found is not None:
        return found
    if b"\x00" in data:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "text/plain"


def b64encode(data: bytes) -> str:
    """Standard base64 text of ``data`` (no line breaks)."""
    return base64.b64encode(data).decode("ascii")


def b64decode(text: str, *, path: str = "$") -> bytes:
    """Decode standard or URL-safe base64, strictly; bad input raises :class:`DecodeError`.

    Text longer than :attr:`Limits.max_base64 <messages.limits.Limits.max_base64>` is refused
    before any work is done.

    >>> b64decode("aGk=")
    b'hi'
    """
    from .limits import current_limits

    limit = current_limits().max_base64
    if len(text) > limit:
        raise DecodeError(f"base64 data is longer than {limit} characters ({len(text)})", path=path)
    try:
        cleaned = "".join(text.split())
        if "-" in cleaned or "_" in cleaned:
            cleaned = cleaned.replace("-", "+").replace("_", "/")
        if len(cleaned) % 4:
            cleaned += "=" * (-len(cleaned) % 4)
        return base64.b64decode(cleaned, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise DecodeError(f"invalid base64 data ({exc})", path=path, value=text[:40]) from None


class DataURI(NamedTuple):
    """The parts of a ``data:`` URI."""

    media_type: str
    """The MIME type (``text/plain;charset=US-ASCII`` when the URI names none)."""
    data: str
    """The payload exactly as written: base64 text when ``is_base64``, else percent-encoded."""
    is_base64: bool
    """Whether the URI said ``;base64``."""


def parse_data_uri(uri: str) -> DataURI | None:
    """Split a ``data:`` URI into media type and payload; ``None`` if ``uri`` is not one.

    >>> parse_data_uri("data:image/png;base64,iVBORw0KGgo=")
    DataURI(media_type='image/png', data='iVBORw0KGgo=', is_base64=True)
    """
    if uri[:5].lower() != "data:":
        return None
    header, sep, payload = uri[5:].partition(",")
    if not sep:
        return None
    params = header.split(";")
    is_base64 = params[-1].strip().lower() == "base64"
    if is_base64:
        params = params[:-1]
    media_type = ";".join(params).strip() or "text/plain;charset=US-ASCII"
    return DataURI(media_type, payload, is_base64)


def to_data_uri(media_type: str, data: str) -> str:
    """Build a base64 ``data:`` URI from a MIME type and base64 text.

    >>> to_data_uri("image/png", "iVBORw0KGgo=")
    'data:image/png;base64,iVBORw0KGgo='
    """
    return f"data:{media_type};base64,{data}"


def base64_size(text: str) -> int:
    """How many bytes base64 ``text`` stands for, counted without decoding it.

    Whitespace is ignored and trailing ``=`` padding is taken off; text that is not valid
    base64 still gets an estimate (never negative).

    >>> base64_size("iVBORw0KGgo="), base64_size("aGk"), base64_size("")
    (8, 2, 0)
    """
    body = "".join(text.split())
    padding = len(body) - len(body.rstrip("="))
    return max(0, len(body) * 3 // 4 - padding)


class Medium(Protocol):
    """What :func:`describe_media` reads: a media block or its flat message.

    Image, audio, video or document; a document's ``title``, ``filename``, ``text`` and
    ``content`` are read too when present.
    """

    @property
    def data(self) -> str | None:
        """Base64 text, if the medium is carried inline."""
        ...

    @property
    def url(self) -> str | None:
        """A URL or ``data:`` URI."""
        ...

    @property
    def file_id(self) -> str | None:
        """A provider file id."""
        ...

    @property
    def media_type(self) -> str | None:
        """The MIME type as given."""
        ...


def _sniffed(data: str) -> str | None:
    try:
        return sniff_media_type(b64decode(data[:24], path="$.data"))
    except DecodeError:
        return None


def media_facts(medium: Medium) -> tuple[tuple[str, str], ...]:
    """What can be said of a media value without showing its data, in order.

    A document's ``("title", ...)`` (its title, else its file name) first, then
    ``("media_type", ...)`` (as given, else from a ``data:`` URI, else sniffed from the
    data), then where it is (``("url", ...)`` or ``("file_id", ...)``), then its size
    (``("bytes", ...)`` for base64, ``("characters", ...)`` for a percent-encoded ``data:``
    URI or a document's text, ``("blocks", ...)`` for a document made of content blocks).
    Only what is known is listed.

    >>> from messages import ImageBlock
    >>> media_facts(ImageBlock(data="iVBORw0KGgo="))
    (('media_type', 'image/png'), ('bytes', '8'))
    """
    media_type = medium.media_type
    where: tuple[str, str] | None = None
    size: tuple[str, str] | None = None
    if medium.data is not None:
        media_type = media_type or _sniffed(medium.data)
        size = ("bytes", str(base64_size(medium.data)))
    elif medium.url is not None:
        uri = parse_data_uri(medium.url)
        if uri is None:
            where = ("url", medium.url)
        else:
            media_type = media_type or uri.media_type
            if uri.is_base64:
                size = ("bytes", str(base64_size(uri.data)))
            else:
                size = ("characters", str(len(uri.data)))
    elif medium.file_id is not None:
        where = ("file_id", medium.file_id)
    text, content = getattr(medium, "text", None), getattr(medium, "content", None)
    if isinstance(text, str):  # a document's text body
        size = ("characters", str(len(text)))
    elif content is not None:  # a document made of content blocks
        size = ("blocks", str(1 if isinstance(content, str) else len(content)))
    name = getattr(medium, "title", None) or getattr(medium, "filename", None)
    facts = [] if not isinstance(name, str) else [("title", name)]
    facts += [] if media_type is None else [("media_type", media_type)]
    return tuple(facts + [fact for fact in (where, size) if fact is not None])


def describe_media(medium: Medium, *, url_width: int | None = None) -> str:
    """The words for a media value (image, audio, video, document): never its data.

    They are its :func:`media_facts`.

    Every renderer and every codec's ``unsupported="text"`` uses these words; ``""`` when
    nothing is known. ``url_width`` cuts a long URL (the last character an ellipsis).

    >>> from messages import AudioMessage, ImageBlock
    >>> describe_media(ImageBlock(data="iVBORw0KGgo="))
    'image/png, 8 bytes'
    >>> describe_media(AudioMessage(url="https://x/a.wav", media_type="audio/wav"))
    'audio/wav, https://x/a.wav'
    >>> describe_media(ImageBlock(file_id="file_1"))
    'file file_1'
    """
    words = []
    for key, value in media_facts(medium):
        if key == "url":
            cut = url_width is not None and len(value) > url_width
            words.append(value[: max(0, (url_width or 0) - 1)] + "\u2026" if cut else value)
        elif key == "file_id":
            words.append(f"file {value}")
        elif key in ("bytes", "characters", "blocks"):
            words.append(f"{value} {key}")
        elif key == "title":
            words.append(repr(value))
        else:
            words.append(value)
    return ", ".join(words)
