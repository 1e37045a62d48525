"""Parse a prefix of a JSON text as far as it is valid: what a stream has sent so far.

Streaming providers send tool arguments as arbitrary slices of a JSON text. To show a tool
call while it is still arriving, :func:`parse_partial` reads the longest valid prefix and
closes whatever is still open: an unterminated string ends where the text ends, open arrays
and objects are closed, and a member whose value has not started (or is a half-written
``tru``) is left out. On a complete JSON text it gives what :func:`json.loads` gives; on
text that is not a prefix of any JSON text it stops at the first bad character and keeps
what came before. It never raises.

>>> parse_partial('{"city": "Pa')
{'city': 'Pa'}
>>> parse_partial('{"cities": ["Paris", "Ly')
{'cities': ['Paris', 'Ly']}
>>> parse_partial('{"n": 12, "ok": tr')
{'n': 12}
>>> parse_partial("") is None
True
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

__all__ = ["loads_object", "parse_partial"]

MAX_DEPTH: Final = 200
"""Nesting deeper than this is treated as the end of the valid prefix."""

_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WHITESPACE: Final = " \t\n\r"
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


class _Parser:
    """Recursive descent over one text; ``stopped`` is set at the end or at a bad character."""

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
        if char == "-" or char.isdigit():
            return self.number()
        return self.literal()

    def object(self, depth: int) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        while True:
            self.skip()
            if self.i >= len(self.text):
                self.stopped = True
                return out
            char = self.text[self.i]
            if char == "}":
                self.i += 1
                return out
            if char == ",":
                self.i += 1
                continue
            if char != '"':
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
            if self.stopped:
                return out

    def array(self, depth: int) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        while True:
            self.skip()
            if self.i >= len(self.text):
                self.stopped = True
                return out
            char = self.text[self.i]
            if char == "]":
                self.i += 1
                return out
            if char == ",":
                self.i += 1
                continue
            item = self.value(depth + 1)
            if item is not _MISSING:
                out.append(item)
            if self.stopped:
                return out

    def string(self) -> str:
        text = self.text
        i = self.i + 1
        parts: list[str] = []
        while i < len(text):
            char = text[i]
            if char == '"':
                self.i = i + 1
                return _join_surrogates("".join(parts))
            if char == "\\":
                if i + 1 >= len(text):
                    break
                code = text[i + 1]
                if code == "u":
                    digits = text[i + 2 : i + 6]
                    if len(digits) < 4 or not _is_hex(digits):
                        if len(digits) < 4 and _is_hex(digits):
                            break  # the escape is cut off by the end of the text
                        self.stopped = True
                        self.i = i
                        return "".join(parts)
                    parts.append(chr(int(digits, 16)))
                    i += 6
                    continue
                if code not in _ESCAPES:
                    self.stopped = True
                    self.i = i
                    return "".join(parts)
                parts.append(_ESCAPES[code])
                i += 2
                continue
            if char < " ":
                self.stopped = True
                self.i = i
                return "".join(parts)
            parts.append(char)
            i += 1
        self.stopped = True
        self.i = len(text)
        return _join_surrogates("".join(parts))

    def number(self) -> Any:
        match = _NUMBER.match(self.text, self.i)
        if match is None:
            self.stopped = True
            return _MISSING
        token = match.group()
        self.i = match.end()
        if self.i >= len(self.text):
            self.stopped = True
        if "." in token or "e" in token or "E" in token:
            value = float(token)
            return value if math.isfinite(value) else _MISSING
        return int(token)

    def literal(self) -> Any:
        rest = self.text[self.i : self.i + 5]
        for word, value in _LITERALS:
            if rest.startswith(word):
                self.i += len(word)
                return value
        self.stopped = True
        return _MISSING


def _is_hex(digits: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in digits)


def _join_surrogates(text: str) -> str:
    """Combine UTF-16 surrogate pairs written as two escapes, as ``json.loads`` does."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


def parse_partial(text: str) -> Any:
    """The JSON value a (possibly cut-off) JSON text holds so far; ``None`` if it holds none.

    Never raises: a complete text gives the same value as ``json.loads``; a cut-off one
    gives the value with every open string, array and object closed.
    """
    try:
        return json.loads(text, parse_constant=_reject, parse_float=_finite)
    except (ValueError, RecursionError):
        pass
    parser = _Parser(text)
    value = parser.value(0)
    return None if value is _MISSING else value


def _reject(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a float")
    return value


def loads_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object, or ``None`` when it is not exactly one valid object."""
    try:
        value = json.loads(text, parse_constant=_reject, parse_float=_finite)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None
