"""Checked reads from decoded JSON: the one family every decoder uses.

Each reader takes the object, the key and, optionally, ``at``: the path of the object itself
(``"$.data"``), so the error names the full path of the bad value. Every failure is a
:class:`DecodeError` saying what was expected and what was found (``found nothing`` for an
absent key), never a ``KeyError`` or ``TypeError``. The names say what absence gives:

- ``need_*``: the key must be there (absent is an error);
- ``opt_*``: absent or ``null`` gives ``None``;
- ``*_or``/``*_or_empty``: absent gives a default.

:func:`rest` and :func:`extra` are the one rule for what a decoder keeps of the wire object
besides what it models; :func:`present` is the encoders' side of it: a ``None`` field is not
written; :func:`decode_each` gives each item of an array its path, and :func:`encode_each`
writes each item at its path.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from typing import Any
from typing import Final
from typing import TypeVar

from ..errors import DecodeError
from .frozen import EMPTY
from .frozen import FrozenDict
from .make import wrap_owned

T = TypeVar("T")
C = TypeVar("C")
R = TypeVar("R")


class _Missing:
    """The type of :data:`MISSING`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()
"""Stands for an absent key: ``d.get(key, MISSING)`` tells absent from ``null``."""

_TYPE_NAMES: Final = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    dict: "an object",
    list: "an array",
    type(None): "null",
    _Missing: "nothing",
}


def type_name(value: Any) -> str:
    """JSON-ish name of a value's type, for error messages (``"nothing"`` for MISSING)."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def fail(expected: str, value: Any, key: str | None = None, at: str = "$") -> DecodeError:
    """A DecodeError: ``expected ..., found ...`` at ``at`` (``at.key`` with a key)."""
    return DecodeError(
        f"expected {expected}, found {type_name(value)}",
        path=at if key is None else f"{at}.{key}",
        value=None if value is MISSING else value,
    )


def need_str(d: dict[str, Any], key: str, at: str = "$") -> str:
    """A string that must be there: absent, null or anything else is an error."""
    v = d.get(key, MISSING)
    if type(v) is str:
        return v
    raise fail("a string", v, key, at)


def str_or(d: dict[str, Any], key: str, default: str = "", at: str = "$") -> str:
    """A string, ``default`` when the key is absent; null or anything else is an error."""
    v = d.get(key, default)
    if type(v) is not str:
        raise fail("a string", v, key, at)
    return v


req_str: Final = str_or
"""The former name of :func:`str_or`, kept until providers/anthropic/stream.py uses the new one."""


def need_obj(d: dict[str, Any], key: str, at: str = "$") -> dict[str, Any]:
    """An object that must be there: absent, null or anything else is an error."""
    v = d.get(key, MISSING)
    if type(v) is dict:
        return v
    raise fail("an object", v, key, at)


def obj_or_empty(d: dict[str, Any], key: str, at: str = "$") -> dict[str, Any]:
    """An object, a new empty one when the key is absent; null or anything else is an error."""
    v = d.get(key, MISSING)
    if v is MISSING:
        return {}
    if type(v) is not dict:
        raise fail("an object", v, key, at)
    return v


def opt_str(d: dict[str, Any], key: str, at: str = "$") -> str | None:
    """An optional string: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is str:
        return v
    raise fail("a string", v, key, at)


def opt_bool(d: dict[str, Any], key: str, at: str = "$") -> bool | None:
    """An optional boolean: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is bool:
        return v
    raise fail("a boolean", v, key, at)


def opt_int(d: dict[str, Any], key: str, at: str = "$") -> int | None:
    """An optional integer (a boolean is not one): absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is int:
        return v
    raise fail("an integer", v, key, at)


def opt_num(d: dict[str, Any], key: str, at: str = "$") -> int | float | None:
    """An optional number kept as given (an integer stays an integer on the way back)."""
    v = d.get(key)
    if v is None or type(v) is int or type(v) is float:
        return v
    raise fail("a number", v, key, at)


def opt_obj(d: dict[str, Any], key: str, at: str = "$") -> dict[str, Any] | None:
    """An optional object: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is dict:
        return v
    raise fail("an object", v, key, at)


def opt_time(d: dict[str, Any], key: str = "timestamp", at: str = "$") -> str | int | float | None:
    """An optional timestamp exactly as written: ISO text or an epoch number."""
    v = d.get(key)
    if v is None or type(v) is str or type(v) is int or type(v) is float:
        return v
    raise fail("a string or a number", v, key, at)


def millis_text(millis: int) -> str | None:
    """Epoch milliseconds as ISO text in UTC (``...T12:00:00.250Z``); ``None`` out of range."""
    from datetime import UTC
    from datetime import datetime

    try:
        moment = datetime.fromtimestamp(millis / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z"


def rest(d: dict[str, Any], known: Collection[str]) -> dict[str, Any]:
    """The keys of ``d`` a decoder does not model, plus modelled keys whose value is null.

    A null optional field decodes as ``None`` (absent); keeping the null lets the encoder
    write it back exactly. The result is a new dict (empty when there is nothing to keep)
    whose values are shared with ``d``.
    """
    if type(known) is frozenset:
        if d.keys() <= known:
            if None not in d.values():
                return {}  # the common case, without building a dict item by item
        else:  # a copy and a few deletions, in C, beat a comprehension over every key
            out = dict(d)
            for k in known.intersection(d):
                if out[k] is not None:
                    del out[k]
            return out
    return {k: v for k, v in d.items() if k not in known or v is None}


def extra(d: dict[str, Any], known: Collection[str]) -> FrozenDict:
    """:func:`rest` of ``d`` as a value's ``extra`` (``EMPTY`` when there is nothing)."""
    kept = rest(d, known)
    return wrap_owned(kept) if kept else EMPTY


def present(**fields: Any) -> dict[str, Any]:
    """The fields whose value is not ``None``, in the order given: the encoders' write rule.

    A modelled field that is ``None`` is absent on the wire, so an encoder writes only the
    ones that are set: ``out.update(present(id=m.message_id, model=m.model))``.

    >>> present(id="msg_1", model=None, created=0)
    {'id': 'msg_1', 'created': 0}
    """
    return {key: value for key, value in fields.items() if value is not None}


def decode_each(values: Iterable[Any], decode: Callable[[Any], T], key: str = "") -> list[T]:
    """``decode`` of each value, in order; an error names the item (``key[i]``) in its path.

    ``key`` is the path of the array below the caller's (``".messages"``; ``""`` when the
    values are the caller's own items).
    """
    out = []
    for i, value in enumerate(values):
        try:
            out.append(decode(value))
        except DecodeError as exc:
            raise exc.within(f"{key}[{i}]") from None
    return out


def encode_each(
    indexed: Iterable[tuple[int, T]],
    encode: Callable[[T, C, str], R | None],
    context: C,
    path: str,
) -> list[R]:
    """``encode(item, context, f"{path}[i]")`` of each ``(i, item)``, less what it dropped.

    The encoders' side of :func:`decode_each`: ``i`` is the item's index in its array
    (``enumerate(items)``, or a selection of them), so a refusal names the item; ``context``
    is what ``encode`` writes with (the loss policy, usually: handed on, not wrapped in a
    closure per call). An encoder that hands an item to the policy gives ``None`` for one
    the policy drops, and a dropped item leaves no place in the list.
    """
    out = []
    for i, item in indexed:
        written = encode(item, context, f"{path}[{i}]")
        if written is not None:
            out.append(written)
    return out
