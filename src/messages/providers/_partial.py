"""Parse a prefix of a JSON text as far as it is valid: what a stream has sent so far.

Streaming providers send tool arguments as arbitrary slices of a JSON text. To show a tool
call while it is still arriving, :func:`parse_partial` reads the longest valid prefix and
closes whatever is still open: an unterminated string ends where the text ends, open arrays
and objects are closed, and a trailing fragment that cannot be a value yet (``tr``, ``-``,
``1.`` of ``1.5``, ``1e`` of ``1e5``, a key without its value, half an escape) is left out.
On a complete JSON text it gives what :func:`json.loads` gives; on text that is not a prefix
of any JSON text it stops at the first bad character and keeps what came before. It never
raises. Every accumulator here uses it, so all four providers show partial arguments alike.

>>> parse_partial('{"city": "Pa')
{'city': 'Pa'}
>>> parse_partial('{"cities": ["Paris", "Ly')
{'cities': ['Paris', 'Ly']}
>>> parse_partial('{"a": [1, 2, {"b": tr')
{'a': [1, 2, {}]}
>>> parse_partial('{"n": 12, "x": 1.')
{'n': 12}
>>> parse_partial("") is None
True
"""

from __future__ import annotations

import math
import re
from typing import Any
from typing import Final

from .._core.jsontext import load_strict
from .._core.slots import Slotted
from ..errors import DecodeError

__all__ = ["MAX_DEPTH", "parse_partial"]

MAX_DEPTH: Final = 200
"""Nesting deeper than this is treated as the end of the valid prefix."""

_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WHITESPACE: Final = " \t\n\r"
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_ESCAPES: Final = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_LITERALS: Final = (("true", True), ("false", False), ("null", None))
_MISSING: Final = object()


def _hex4(text: str, pos: int) -> int | None:
    digits = text[pos : pos + 4]
    if len(digits) < 4 or not all(c in _HEX for c in digits):
        return None
    return int(digits, 16)


def _may_become_escape(rest: str) -> bool:
    r"""Whether ``rest``, the end of the text, could still grow into a ``\uXXXX`` escape."""
    return len(rest) < 6 and rest[:2] == "\\u"[: len(rest[:2])] and all(c in _HEX for c in rest[2:])


class _Parser(Slotted):
    """Recursive descent over one text; ``stopped`` is set at the end or at a bad character.

    Every method returns what it read so far; once ``stopped`` is set, callers close what
    they hold and return at once.
    """

    __slots__ = ("i", "stopped", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.stopped = False

    def skip(self) -> None:
        text, i = self.text, self.i
        while i < len(text) and text[i] in _WHITESPACE:
            i += 1
        self.i = i

    def value(self, depth: int) -> Any:
        self.skip()
        if self.i >= len(self.text) or depth > MAX_DEPTH:
            self.stopped = True
            return _MISSING
        char = self.text[self.i]
        if char == "{":
            return self.object(depth)
        if char == "[":
            return self.array(depth)
        if char == '"':
            return self.string()
        if char == "-" or "0" <= char <= "9":
            return self.number()
        return self.literal()

    def after_item(self, close: str) -> bool:
        """Past the separator after an item: ``True`` when ``close`` ended the container."""
        self.skip()
        if self.i >= len(self.text):
            self.stopped = True
            return False
        char = self.text[self.i]
        self.i += 1
        if char == close:
            return True
        if char != ",":
            self.stopped = True
        return False

    def object(self, depth: int) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        self.skip()
        if self.i < len(self.text) and self.text[self.i] == "}":
            self.i += 1
            return out
        while True:
            self.skip()
            if self.i >= len(self.text) or self.text[self.i] != '"':
                self.stopped = True
                return out
            key = self.string()
            if self.stopped:
                return out
            self.skip()
            if self.i >= len(self.text) or self.text[self.i] != ":":
                self.stopped = True
                return out
            self.i += 1
            item = self.value(depth + 1)
            if item is not _MISSING:
                out[key] = item
            if self.stopped or self.after_item("}"):
                return out

    def array(self, depth: int) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        self.skip()
        if self.i < len(self.text) and self.text[self.i] == "]":
            self.i += 1
            return out
        while True:
            item = self.value(depth + 1)
            if item is not _MISSING:
                out.append(item)
            if self.stopped or self.after_item("]"):
                return out

    def string(self) -> str:
        text = self.text
        i = self.i + 1
        parts: list[str] = []
        while i < len(text):
            char = text[i]
            if char == '"':
                self.i = i + 1
                return "".join(parts)
            if char == "\\":
                code = text[i + 1 : i + 2]
                if code == "u":
                    point = _hex4(text, i + 2)
                    if point is None:
                        break  # cut off, or not an escape: the string ends here either way
                    i += 6
                    if 0xD800 <= point < 0xDC00:
                        low = _hex4(text, i + 2) if text.startswith("\\u", i) else None
                        if low is not None and 0xDC00 <= low < 0xE000:
                            point = 0x10000 + ((point - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        elif low is None and _may_become_escape(text[i:]):
                            break  # half of a pair whose other half is still to come
                    parts.append(chr(point))
                    continue
                if code not in _ESCAPES:
                    break
                parts.append(_ESCAPES[code])
                i += 2
                continue
            if char < " ":
                break
            parts.append(char)
            i += 1
        self.stopped = True
        self.i = len(text)
        return "".join(parts)

    def number(self) -> Any:
        match = _NUMBER.match(self.text, self.i)
        end = match.end() if match is not None else self.i
        if match is None or (end < len(self.text) and self.text[end] in ".eE"):
            self.stopped = True  # ``-``, or ``1.`` of ``1.5``: not a number yet
            return _MISSING
        token = match.group()
        self.i = end
        if end >= len(self.text):
            self.stopped = True
        if "." in token or "e" in token or "E" in token:
            value = float(token)
            if not math.isfinite(value):
                self.stopped = True
                return _MISSING
            return value
        return int(token)

    def literal(self) -> Any:
        for word, value in _LITERALS:
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return value
        self.stopped = True
        return _MISSING


def parse_partial(text: str) -> Any:
    """The JSON value a (possibly cut-off) JSON text holds so far; ``None`` if it holds none.

    Never raises: a complete text gives the same value as ``json.loads``; a cut-off one
    gives the value with every open string, array and object closed. Arrays and objects
    come back as plain ``list`` and ``dict``; a JSON ``null`` and "no value yet" both give
    ``None``, so callers that need an object check ``isinstance(value, dict)``.
    """
    try:
        return load_strict(text)  # the one strict rule (see _core/jsontext)
    except DecodeError:
        pass
    value = _Parser(text).value(0)
    return None if value is _MISSING else value
