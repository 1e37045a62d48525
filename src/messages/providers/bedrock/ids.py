"""Tool-call ids and tool names as Converse takes them, and back (private to ``bedrock``).

Converse (and the Claude models behind it) takes a ``toolUseId`` of 1 to 64 characters of
``[a-zA-Z0-9_-]``, and a tool ``name`` of the same characters (botocore's model states the
name's pattern and length). Ids from elsewhere often are not: Kimi's ``functions.get_weather:0``,
ids with dots or colons, long ones. :func:`wire_id` maps any id to one Converse takes, and
:func:`original_id` undoes it, so a call and its result keep matching and a conversation
that went through Bedrock comes back with the ids (and names) it had:

- an id that fits, and that is not itself the spelling of a mapped id, is written as it is;
- any other id is spelled ``mx-`` followed by the id with every character outside
  ``[a-zA-Z0-9_]`` written as ``-`` and two hex digits per UTF-8 byte (``.`` is ``-2e``),
  when that fits in 64 characters: :func:`original_id` reads it back exactly;
- an id too long for that becomes ``mh-`` and 40 hex digits of its SHA-256: the same id
  always maps to the same wire id, so results still follow their calls, but that one
  mapping cannot be undone (decoding keeps the wire id).

>>> wire_id("toolu_01A"), wire_id("functions.get_weather:0")
('toolu_01A', 'mx-functions-2eget_weather-3a0')
>>> original_id("mx-functions-2eget_weather-3a0")
'functions.get_weather:0'
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

__all__ = ["MAX_ID", "original_id", "wire_id"]

MAX_ID: Final = 64
"""The longest ``toolUseId`` Converse takes."""
_FITS: Final = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_PLAIN: Final = re.compile(r"[a-zA-Z0-9_]")
_ESCAPE: Final = "mx-"
_DIGEST: Final = "mh-"
_ESCAPED: Final = re.compile(r"mx-(?:[a-zA-Z0-9_]|-[0-9a-f]{2})*")


def _escape(original: str) -> str:
    out = [_ESCAPE]
    for char in original:
        if _PLAIN.fullmatch(char):
            out.append(char)
        else:
            out.extend(f"-{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
    return "".join(out)


def _unescape(wire: str) -> str | None:
    """The id ``wire`` spells (see :func:`_escape`), or ``None`` when it spells none."""
    if not _ESCAPED.fullmatch(wire):
        return None
    data = bytearray()
    i = len(_ESCAPE)
    while i < len(wire):
        if wire[i] == "-":
            data.append(int(wire[i + 1 : i + 3], 16))
            i += 3
        else:
            data.extend(wire[i].encode())
            i += 1
    try:
        original = data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    return original if _needs_mapping(original) and _escape(original) == wire else None


def _needs_mapping(original: str) -> bool:
    return not _FITS.fullmatch(original) or _unescape(original) is not None


def wire_id(original: str) -> str:
    """The ``toolUseId`` Converse gets for a call id (itself, when it already fits)."""
    if not _needs_mapping(original):
        return original
    escaped = _escape(original)
    if len(escaped) <= MAX_ID:
        return escaped
    digest = hashlib.sha256(original.encode("utf-8", "surrogatepass")).hexdigest()
    return _DIGEST + digest[:40]


def original_id(wire: str) -> str:
    """The call id a ``toolUseId`` stands for: the inverse of :func:`wire_id`.

    A wire id that spells no mapped id (a Bedrock id, a digest) is its own original.
    """
    if not wire.startswith(_ESCAPE):
        return wire
    original = _unescape(wire)
    return wire if original is None else original
