"""JSON text in and out, with one rule for every reader and writer in the library.

Reading is strict: ``NaN``, ``Infinity``, ``-Infinity`` and numbers outside the range of a
float (``1e999``, which Python would read as infinity) are not JSON, and every failure is a
:class:`~messages.DecodeError` whose message names the character position, never Python's
``line 1 column 5`` (the caller knows the line). Writing is compact UTF-8 JSON, and a value
that JSON cannot hold is an :class:`~messages.EncodeError`, never a bare ``ValueError``.

Every codec goes through here: the agent-log line reader, the native format, the provider
codecs (tool arguments, partial JSON), ``coerce`` and ``ToolUseBlock.invalid_arguments``.

With the ``fast`` extra installed (``msgspec``), the agent-log line reader parses a line with
``msgspec`` first (:data:`fast_load`) and gives any line it refuses to the standard library,
so the outcome is the same either way (a property test compares the two): ``msgspec``
refuses ``NaN``, ``Infinity`` and out-of-range floats as the strict path does and keeps
large integers whole; a line it refuses for another reason (a lone surrogate escape, which
Python's ``json`` accepts) is read by the standard library. ``MESSAGES_JSON=stdlib`` in the
environment turns the fast path off. (``orjson`` is not used: it reads integers beyond 64
bits as floats.)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from typing import Any
from typing import Final

from ..errors import DecodeError
from ..errors import EncodeError

__all__ = [
    "dump_compact",
    "dump_unchecked",
    "fast_load",
    "load_strict",
    "parse_arguments",
    "same_json",
    "scan_strict",
]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity, which JSON cannot hold
        raise ValueError(f"number {text[:24]} is out of range")
    return value


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)

_decode: Final[Callable[[str], Any]] = _DECODER.decode

scan_strict: Final[Callable[[str, int], tuple[Any, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]
"""The C scanner with the strict rules: ``(value, end)`` for the JSON value at an index.

It raises ``StopIteration`` or ``ValueError`` on bad input; line readers call it directly on
their hot path (no per-call decoder, no whitespace handling) and fall back to
:func:`load_strict` for the error message.
"""


def _fast_loader() -> Callable[[str | bytes], Any] | None:
    if os.environ.get("MESSAGES_JSON") == "stdlib":
        return None
    try:
        import msgspec
    except ImportError:
        return None
    return msgspec.json.Decoder().decode


fast_load: Final[Callable[[str | bytes], Any] | None] = _fast_loader()
"""``msgspec``'s JSON reader when the ``fast`` extra is installed (else ``None``).

It gives what the strict standard-library path gives for every text it accepts, and
raises (any exception) where the caller must ask the standard library instead, which then
decides: a value, or the strict path's own error.
"""


def load_strict(text: str | bytes, *, first_line: int | None = None) -> Any:
    r"""Parse one JSON text strictly; every failure is a :class:`~messages.DecodeError`.

    The error names the character position in ``text``; for a text read from several lines
    of a file, ``first_line`` (the file line ``text`` starts on) makes it name the file line
    and column instead (``at line 12, column 5``).

    >>> load_strict('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> load_strict('{"a": 1e999}')
    Traceback (most recent call last):
      ...
    messages.errors.DecodeError: $: invalid JSON (number 1e999 is out of range)
    >>> load_strict('{"a": }')
    Traceback (most recent call last):
      ...
    messages.errors.DecodeError: $: invalid JSON (expecting value at character 6)
    >>> load_strict('{\n  "a": }', first_line=7)
    Traceback (most recent call last):
      ...
    messages.errors.DecodeError: $: invalid JSON (expecting value at line 8, column 8)
    """
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise DecodeError("JSON nests too deeply", value=text[:40]) from None
    except UnicodeDecodeError as exc:
        raise DecodeError(f"invalid UTF-8 ({exc.reason})", value=text[:40]) from None
    except json.JSONDecodeError as exc:
        if first_line is None:
            where = f"character {exc.pos}"
        else:
            where = f"line {first_line + exc.lineno - 1}, column {exc.colno}"
        reason = f"{exc.msg[:1].lower()}{exc.msg[1:]} at {where}"
        raise DecodeError(f"invalid JSON ({reason})", value=text[:40]) from None
    except ValueError as exc:
        raise DecodeError(f"invalid JSON ({exc})", value=text[:40]) from None


def parse_arguments(text: str) -> dict[str, Any] | None:
    """Tool-call arguments written as JSON text: the object they hold, else ``None``.

    Never raises: text that is not strict JSON, or JSON that is not an object, gives
    ``None`` (decoders then keep the text as it came and mark the call's arguments
    invalid).

    >>> parse_arguments('{"path": "a.txt"}')
    {'path': 'a.txt'}
    >>> parse_arguments('{"n": NaN}') is None, parse_arguments("[1]") is None
    (True, True)
    """
    if type(text) is not str:  # what json.loads would reject or decode first (bytes)
        try:
            value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        except (ValueError, TypeError, RecursionError):
            return None
        return value if type(value) is dict else None
    try:  # the module's decoder: json.loads with options would build a new one per call
        value = _decode(text)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def _make_dump() -> Callable[[Any], str]:
    """One compact encoder for every call (``json.dumps`` with options builds one per call).

    Where the C encoder exists it is built once and called directly: no Python frames per
    call and no cycle check (the values written are trees).
    """
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    from json import encoder as json_encoder

    make = getattr(json_encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython always has the C encoder
        return encoder.encode
    scan = make(
        None, encoder.default, json_encoder.encode_basestring, None, ":", ",", False, False, False
    )
    join = "".join

    def dump(obj: Any) -> str:
        if type(obj) is not dict:
            return encoder.encode(obj)
        return join(scan(obj, 0))

    return dump


_dump: Final = _make_dump()

dump_unchecked: Final = _dump
""":func:`dump_compact` without its error translation, for loops that catch ``ValueError``,
``TypeError`` and ``RecursionError`` themselves and call :func:`dump_compact` to report them."""


def dump_compact(value: Any) -> str:
    """A JSON value as compact UTF-8 text; what JSON cannot hold is an EncodeError.

    >>> dump_compact({"a": [1, "é"]})
    '{"a":[1,"é"]}'
    >>> dump_compact({"a": float("inf")})
    Traceback (most recent call last):
      ...
    messages.errors.EncodeError: $: cannot write inf as JSON
    """
    try:
        return _dump(value)
    except ValueError as exc:
        found = _non_finite(value)
        reason = f"cannot write {found!r} as JSON" if found is not None else f"not JSON ({exc})"
        raise EncodeError(reason, value=found) from None
    except TypeError as exc:
        raise EncodeError(f"not JSON ({exc})") from None
    except RecursionError:
        raise EncodeError("JSON nests too deeply") from None


def _non_finite(value: Any) -> float | None:
    """The first non-finite float inside a plain JSON value, if any (for the error)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is float and not math.isfinite(item):
            return item
        if type(item) is dict:
            stack.extend(item.values())
        elif type(item) is list or type(item) is tuple:
            stack.extend(item)
    return None


def same_json(a: Any, b: Any) -> bool:
    """Exact equality of two plain JSON values, at any depth.

    Like ``==``, but ``1``, ``1.0`` and ``True`` differ, as they do on the wire.

    >>> same_json({"n": 1}, {"n": 1.0}), same_json([True], [True])
    (False, True)
    """
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
