"""Best-effort parsing of a JSON document that is still arriving (streamed tool arguments).

:func:`parse_partial` reads as much of the text as forms valid JSON and closes whatever is
still open: an unterminated string ends where the text ends, open arrays and objects are
closed, and a trailing fragment that cannot be a value yet (``tr``, ``-``, ``1e``, a key
without its value, half an escape) is left out. It never raises: text that is not JSON at
all gives ``None``, and anything after the first error is ignored.

>>> parse_partial('{"city": "Par')
{'city': 'Par'}
>>> parse_partial('{"a": [1, 2, {"b": tr')
{'a': [1, 2, {}]}
>>> parse_partial('{"a": 1} trailing') is not None
True
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

__all__ = [
    "MAX_DEPTH",
    "parse_partial",
]

MAX_DEPTH: Final = 128
"""Nesting beyond this depth is treated as the end of the usable text."""

_NUMBER: Final = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WS: Final = " \t\r\n"
_LITERALS: Final = {"true": True, "false": False, "null": None}
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


def _hex4(text: str, pos: int) -> int | None:
    digits = text[pos : pos + 4]
    if len(digits) < 4 or not all(c in "0123456789abcdefABCDEF" for c in digits):
        return None
    return int(digits, 16)


def _pair_may_follow(rest: str) -> bool:
    r"""Whether ``rest`` (the end of the text) could still grow into a ``\uXXXX`` escape."""
    if len(rest) >= 6:
        return False
    head = "\\u"[: len(rest)]
    return rest[:2] == head[:2] and all(c in "0123456789abcdefABCDEF" for c in rest[2:])


class _Stop(Exception):
    """The text ends (or breaks) here; carries the value parsed so far, if any."""

    def __init__(self, value: Any = None, *, has_value: bool = False) -> None:
        super().__init__()
        self.value = value
        self.has_value = has_value


class _Parser:
    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _WS:
            pos += 1
        self.pos = pos

    def value(self, depth: int) -> Any:
        self.skip()
        if self.pos >= len(self.text) or depth > MAX_DEPTH:
            raise _Stop
        ch = self.text[self.pos]
        if ch == "{":
            return self.obj(depth)
        if ch == "[":
            return self.array(depth)
        if ch == '"':
            return self.string()
        if ch in "-0123456789":
            return self.number()
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return literal
        raise _Stop

    def number(self) -> Any:
        match = _NUMBER.match(self.text, self.pos)
        if match is None:
            raise _Stop
        end = match.end()
        if end < len(self.text) and self.text[end] in ".eE":
            raise _Stop  # ``1.`` of ``1.5``, ``1e`` of ``1e5``: not a number yet
        self.pos = end
        return json.loads(match.group())

    def string(self) -> str:
        text = self.text
        pos = self.pos + 1
        out: list[str] = []
        while pos < len(text):
            ch = text[pos]
            if ch == '"':
                self.pos = pos + 1
                return "".join(out)
            if ch == "\\":
                if pos + 1 >= len(text):
                    break
                esc = text[pos + 1]
                if esc == "u":
                    code = _hex4(text, pos + 2)
                    if code is None:
                        break
                    pos += 6
                    if 0xD800 <= code < 0xDC00 and text.startswith("\\u", pos):
                        low = _hex4(text, pos + 2)
                        if low is None:
                            break  # the pair's second half is still to come
                        if 0xDC00 <= low < 0xE000:
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            pos += 6
                    elif 0xD800 <= code < 0xDC00 and _pair_may_follow(text[pos:]):
                        break  # maybe half of a pair: wait for the rest
                    out.append(chr(code))
                    continue
                if esc not in _ESCAPES:
                    break
                out.append(_ESCAPES[esc])
                pos += 2
                continue
            if ch < " ":
                break
            out.append(ch)
            pos += 1
        self.pos = len(text)
        raise _Stop("".join(out), has_value=True)

    def array(self, depth: int) -> list[Any]:
        self.pos += 1
        items: list[Any] = []
        while True:
            self.skip()
            if self.pos < len(self.text) and self.text[self.pos] == "]" and not items:
                self.pos += 1
                return items
            try:
                items.append(self.value(depth + 1))
            except _Stop as stop:
                if stop.has_value:
                    items.append(stop.value)
                raise _Stop(items, has_value=True) from None
            self.skip()
            if self.pos >= len(self.text):
                raise _Stop(items, has_value=True)
            ch = self.text[self.pos]
            self.pos += 1
            if ch == "]":
                return items
            if ch != ",":
                raise _Stop(items, has_value=True)

    def obj(self, depth: int) -> dict[str, Any]:
        self.pos += 1
        out: dict[str, Any] = {}
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise _Stop(out, has_value=True)
            ch = self.text[self.pos]
            if ch == "}" and not out:
                self.pos += 1
                return out
            if ch != '"':
                raise _Stop(out, has_value=True)
            try:
                key = self.string()
            except _Stop:
                raise _Stop(out, has_value=True) from None
            self.skip()
            if self.pos >= len(self.text) or self.text[self.pos] != ":":
                raise _Stop(out, has_value=True)
            self.pos += 1
            try:
                out[key] = self.value(depth + 1)
            except _Stop as stop:
                if stop.has_value:
                    out[key] = stop.value
                raise _Stop(out, has_value=True) from None
            self.skip()
            if self.pos >= len(self.text):
                raise _Stop(out, has_value=True)
            ch = self.text[self.pos]
            self.pos += 1
            if ch == "}":
                return out
            if ch != ",":
                raise _Stop(out, has_value=True)


def parse_partial(text: str) -> Any:
    """The JSON value that ``text`` starts with, closed where it is cut off; ``None`` if none.

    Arrays and objects come back as plain ``list`` and ``dict``. A JSON ``null`` and "no
    value" both give ``None``; callers that need an object check ``isinstance(v, dict)``.
    """
    parser = _Parser(text)
    try:
        return parser.value(0)
    except _Stop as stop:
        return stop.value if stop.has_value else None
