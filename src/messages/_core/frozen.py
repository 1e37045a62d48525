"""Read-only JSON values: :class:`FrozenDict`, :func:`freeze` and :func:`thaw`.

A ``FrozenDict`` keeps its data as a private plain ``dict`` in JSON shape (objects are
dicts, arrays are lists) that is never handed out. Reading a nested object gives another
``FrozenDict``; reading a nested array gives a tuple. Wrapping is O(1), so a decoder that
owns the output of ``json.loads`` can hand it over without copying. Equality is exact JSON
equality (``1``, ``1.0`` and ``true`` differ), and equal values hash equal.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import Union
from typing import final
from typing import overload

from ..errors import DecodeError

if TYPE_CHECKING:
    from ..limits import Limits

__all__ = ["EMPTY", "FrozenDict", "JsonValue", "freeze", "thaw"]

JsonValue = Union[None, bool, int, float, str, tuple["JsonValue", ...], "FrozenDict"]
"""A JSON value as this library hands it out: arrays are tuples, objects FrozenDicts."""


def depth_limit() -> int:
    """The JSON nesting limit in force (:attr:`messages.limits.Limits.max_depth`)."""
    limit: int = _current_limits().max_depth
    return limit


def limits_in_force() -> Limits:
    """:func:`messages.limits.current_limits`, for modules that must not import it eagerly.

    Importing :mod:`messages.limits` costs import time (a dataclass, contextvars); the
    codecs read the limits when they decode, not when they are imported.
    """
    found: Limits = _current_limits()
    return found


def _current_limits() -> Any:
    """:func:`messages.limits.current_limits`, imported on first use (then called directly)."""
    from ..limits import current_limits

    globals()["_current_limits"] = current_limits
    return current_limits()


def _canon(d: dict[str, Any]) -> str:
    """Canonical JSON text of a stored object: the key of equality and hashing.

    The encoder is built on first use, so importing the vocabulary does not import ``json``.
    """
    import json

    encode = json.JSONEncoder(
        ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    ).encode
    globals()["_canon"] = encode  # every later call goes straight to the encoder
    return encode(d)


_set = object.__setattr__


def expose_owned(value: Any) -> JsonValue:
    """Turn one stored (plain JSON) value into its read-only public form."""
    cls = type(value)
    if cls is dict:
        return wrap_owned(value)
    if cls is list:
        return tuple([expose_owned(item) for item in value])
    return value  # type: ignore[no-any-return]


@final
class FrozenDict(Mapping[str, JsonValue]):
    """A read-only, hashable JSON object.

    Build one from any mapping of JSON values; nested dicts and lists are copied and frozen:

    >>> d = FrozenDict({"cmd": "ls", "args": ["-l"]})
    >>> d["args"]
    ('-l',)
    >>> d == {"cmd": "ls", "args": ["-l"]}
    True
    >>> d.thaw()
    {'cmd': 'ls', 'args': ['-l']}
    """

    __slots__ = ("_d", "_h")

    _d: dict[str, Any]
    _h: int | None

    def __init__(self, data: Mapping[str, Any] | None = None, /) -> None:
        if data is None:
            d: dict[str, Any] = {}
        elif type(data) is FrozenDict:
            d = data._d
        else:
            d = _copy_top(data)
        _set(self, "_d", d)
        _set(self, "_h", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"FrozenDict is read-only (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"FrozenDict is read-only (cannot delete {name!r})")

    def __getitem__(self, key: str) -> JsonValue:
        return expose_owned(self._d[key])

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._d:
            return expose_owned(self._d[key])
        return default

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __bool__(self) -> bool:
        return bool(self._d)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is FrozenDict:
            if self._d is other._d:
                return True
            if len(self._d) != len(other._d):
                return False
            if self._h is not None and other._h is not None and self._h != other._h:
                return False
            return _canon(self._d) == _canon(other._d)
        if isinstance(other, Mapping):
            try:
                return _canon(self._d) == _canon(_copy_top(other))
            except DecodeError:
                return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        h = self._h
        if h is None:
            h = hash(_canon(self._d))
            _set(self, "_h", h)
        return h

    def __repr__(self) -> str:
        return f"FrozenDict({self._d!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (self._d,))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self

    def __or__(self, other: Mapping[str, Any]) -> FrozenDict:
        merged = dict(self._d)
        merged.update(FrozenDict(other)._d)
        return wrap_owned(merged)

    def thaw(self) -> dict[str, Any]:
        """Return a fresh, mutable deep copy as plain ``dict`` and ``list`` values."""
        return _thaw_object(self._d)


# A class with FrozenDict's exact layout (same base, same slots) but ordinary attribute
# stores: a new FrozenDict is built as one of these, then its class is switched. That is a
# third faster than object.__setattr__ per slot, and wrapping is on every decoder's hot path.
_Builder: Any = type(
    "_FrozenDictBuilder",
    (Mapping,),
    {"__slots__": ("_d", "_h"), "__getitem__": None, "__iter__": None, "__len__": None},
)


def wrap_owned(data: dict[str, Any], _builder: Any = _Builder) -> FrozenDict:
    """Wrap a plain JSON dict the caller gives up, without copying ."""
    self = _builder()
    self._d = data
    self._h = None
    self.__class__ = FrozenDict
    return self  # type: ignore[no-any-return]


EMPTY: Final = FrozenDict()
"""The empty FrozenDict, the default for every ``extra`` field."""


def _check_number(value: float, path: str) -> None:
    if not math.isfinite(value):
        raise DecodeError(f"expected a finite number, found {value!r}", path=path, value=value)


class _Unusual(Exception):
    """Raised by the fast copy on anything but plain, finite JSON within the depth limit."""


def _plain_copy(value: Any, depth: int, limit: int) -> Any:
    """Copy plain JSON (dicts with string keys, lists, tuples, scalars) without building paths.

    Anything else (another mapping type, a non-string key, a non-finite float, too deep)
    raises :class:`_Unusual`, and the checked copy runs again from the top to name the path.
    """
    cls = type(value)
    if cls is str or cls is int or cls is bool or value is None:
        return value
    if cls is dict:
        if depth >= limit:
            raise _Unusual
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            c = type(item)
            out[key] = (
                item
                if c is str or c is int or c is bool or item is None
                else _plain_copy(item, depth + 1, limit)
            )
        return out
    if cls is list or cls is tuple:
        if depth >= limit:
            raise _Unusual
        return [
            item
            if type(item) is str or item is None or type(item) is int or type(item) is bool
            else _plain_copy(item, depth + 1, limit)
            for item in value
        ]
    if cls is float:
        if not _isfinite(value):
            raise _Unusual
        return value
    if cls is FrozenDict:
        return value._d  # immutable: safe to share
    raise _Unusual


_isfinite = math.isfinite


def _too_deep(path: str) -> DecodeError:
    return DecodeError("JSON nests too deeply for the interpreter's stack", path=path)


def copy_json(value: Any, path: str, depth: int, limit: int) -> Any:
    """A checked deep copy of a JSON value into its stored plain form (errors name the path).

    A depth limit set above what the interpreter's stack can recurse through still gives a
    :class:`DecodeError`, never a ``RecursionError``.
    """
    try:
        try:
            return _plain_copy(value, depth, limit)
        except _Unusual:
            return _checked_copy(value, path, depth, limit)
    except RecursionError:
        raise _too_deep(path) from None


def _copy_top(value: Mapping[Any, Any]) -> dict[str, Any]:
    """The stored copy of a mapping given to FrozenDict: it is level 1 of the depth limit."""
    try:
        return _copy_object(value, "$", 1, depth_limit())
    except RecursionError:
        raise _too_deep("$") from None


def _checked_copy(value: Any, path: str, depth: int, limit: int) -> Any:
    cls = type(value)
    if cls is str or cls is int or cls is bool or value is None:
        return value
    if cls is float:
        _check_number(value, path)
        return value
    if cls is FrozenDict:
        return value._d  # immutable: safe to share
    is_mapping = isinstance(value, Mapping)
    if is_mapping or cls is list or cls is tuple:
        if depth >= limit:  # only containers count: a leaf is never too deep
            raise DecodeError(f"JSON nests deeper than {limit} levels", path=path)
        if is_mapping:
            return _copy_object(value, path, depth + 1, limit)
        return [
            _checked_copy(item, f"{path}[{i}]", depth + 1, limit) for i, item in enumerate(value)
        ]
    # Subclasses (IntEnum, StrEnum...): store the plain base value, read by the base class's
    # own conversion so that an overridden __str__ cannot change it. (bool has no subclasses.)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        number = float.__float__(value)
        _check_number(number, path)
        return number
    raise DecodeError(
        f"expected a JSON value, found {type(value).__name__}", path=path, value=value
    )


def _copy_object(value: Mapping[Any, Any], path: str, depth: int, limit: int) -> dict[str, Any]:
    if type(value) is dict:
        try:  # the object itself is at depth - 1: its items are at depth
            return _plain_copy(value, depth - 1, limit)  # type: ignore[no-any-return]
        except _Unusual:
            pass
    out: dict[str, Any] = {}
    for key, item in value.items():
        if type(key) is not str:
            raise DecodeError(
                f"expected a string key, found {type(key).__name__}", path=path, value=key
            )
        out[key] = _checked_copy(item, f"{path}.{key}", depth, limit)
    return out


def _thaw_object(d: dict[str, Any]) -> dict[str, Any]:
    return {k: _thaw_value(v) for k, v in d.items()}


def _thaw_value(v: Any) -> Any:
    cls = type(v)
    if cls is dict:
        return _thaw_object(v)
    if cls is list:
        return [_thaw_value(item) for item in v]
    return v


@overload
def freeze(value: Mapping[str, Any], *, max_depth: int | None = ...) -> FrozenDict: ...
@overload
def freeze(value: Any, *, max_depth: int | None = ...) -> JsonValue: ...
def freeze(value: Any, *, max_depth: int | None = None) -> JsonValue:
    """Deep-copy a JSON-shaped Python value into its read-only form.

    Dicts become :class:`FrozenDict`, lists and tuples become tuples. Anything that is not
    JSON (a set, bytes, NaN, a non-string key, nesting deeper than ``max_depth``, by default
    the limit in force from :mod:`messages.limits`) raises
    :class:`~messages.DecodeError` with the path to it.

    >>> freeze({"a": [1, {"b": None}]})["a"]
    (1, FrozenDict({'b': None}))
    """
    limit = depth_limit() if max_depth is None else max_depth
    return expose_owned(copy_json(value, "$", 0, limit))


def thaw(value: Any) -> Any:
    """Turn a frozen JSON value back into plain, mutable ``dict``/``list`` values (a copy).

    >>> thaw(freeze({"a": (1, 2)}))
    {'a': [1, 2]}
    """
    cls = type(value)
    if cls is FrozenDict:
        return _thaw_object(value._d)
    if cls is tuple or cls is list:
        return [thaw(item) for item in value]
    if cls is dict:
        return {k: thaw(v) for k, v in value.items()}
    return value


def raw(value: Any) -> Any:
    """The stored plain form of a frozen value, shared, for codecs that only read it.

    Never mutate what this returns; use :func:`thaw` to get a copy you may change.
    """
    cls = type(value)
    if cls is FrozenDict:
        return value._d
    if cls is tuple:
        return [raw(item) for item in value]
    return value
