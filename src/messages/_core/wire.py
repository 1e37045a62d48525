"""Checked reads from decoded JSON, shared by every decoder.

Each helper raises :class:`DecodeError` naming what was expected, what was found and the key,
so decoders stay short and never leak ``KeyError`` or ``TypeError``.
"""

from __future__ import annotations

from typing import Any, Final

from ..errors import DecodeError
from .frozen import EMPTY, FrozenDict
from .make import wrap_owned

_TYPE_NAMES: Final = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    dict: "an object",
    list: "an array",
    type(None): "null",
}


def type_name(value: Any) -> str:
    """JSON-ish name of a value's type, for error messages."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def fail(expected: str, value: Any, key: str | None = None) -> DecodeError:
    """A DecodeError for ``value`` at ``key`` (relative path ``$.key``)."""
    path = "$" if key is None else f"$.{key}"
    return DecodeError(f"expected {expected}, found {type_name(value)}", path=path, value=value)


def req_str(d: dict[str, Any], key: str, default: str = "") -> str:
    """A required string; absent gives ``default``, anything but a string is an error."""
    v = d.get(key, default)
    if type(v) is not str:
        raise fail("a string", v, key)
    return v


def opt_str(d: dict[str, Any], key: str) -> str | None:
    """An optional string: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is str:
        return v
    raise fail("a string", v, key)


def opt_bool(d: dict[str, Any], key: str) -> bool | None:
    """An optional boolean: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is bool:
        return v
    raise fail("a boolean", v, key)


def opt_int(d: dict[str, Any], key: str) -> int | None:
    """An optional integer: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is int:
        return v
    raise fail("an integer", v, key)


def opt_num(d: dict[str, Any], key: str) -> int | float | None:
    """An optional number: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is int or type(v) is float:
        return v
    raise fail("a number", v, key)


def opt_float(d: dict[str, Any], key: str) -> float | None:
    """An optional number kept as given (an integer stays an integer on the way back)."""
    v = d.get(key)
    if v is None or type(v) is float or type(v) is int:
        return v
    raise fail("a number", v, key)


def obj(d: dict[str, Any], key: str) -> dict[str, Any]:
    """A required object; absent gives an empty one."""
    v = d.get(key)
    if v is None and key not in d:
        return {}
    if type(v) is not dict:
        raise fail("an object", v, key)
    return v


def opt_obj(d: dict[str, Any], key: str) -> dict[str, Any] | None:
    """An optional object: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is dict:
        return v
    raise fail("an object", v, key)


def extra(d: dict[str, Any], known: frozenset[str]) -> FrozenDict:
    """The keys of ``d`` a class does not model, plus known keys whose value is null.

    A null optional field decodes as ``None`` (absent); keeping the null here lets the
    encoder write it back exactly.
    """
    out = None
    for k, v in d.items():
        if k not in known or v is None:
            if out is None:
                out = {}
            out[k] = v
    return EMPTY if out is None else wrap_owned(out)
