"""Media helpers: MIME sniffing from magic bytes, data URIs, strict base64.

Pure functions; nothing here touches the filesystem or the network.
"""

from __future__ import annotations

import base64
import binascii
from typing import NamedTuple

from .errors import DecodeError

__all__ = [
    "DataURI",
    "b64decode",
    "b64encode",
    "parse_data_uri",
    "sniff_media_type",
    "to_data_uri",
]


def sniff_media_type(data: bytes) -> str | None:
    r"""Guess a MIME type from the first bytes of an image or audio file.

    Knows PNG, JPEG, GIF, WEBP, MP3, OGG, FLAC and WAV; returns ``None`` otherwise.

    >>> sniff_media_type(b"\x89PNG\r\n\x1a\n....")
    'image/png'
    >>> sniff_media_type(b"RIFF\x00\x00\x00\x00WAVEfmt ")
    'audio/wav'
    """
    head = data[:16]
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
