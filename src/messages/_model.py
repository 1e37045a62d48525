"""Helpers shared by the value types: freezing fields on the way in, a compact repr."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import FunctionType
from typing import Any, Literal, TypeAlias, TypeVar

from ._json import EMPTY, FrozenDict, freeze
from .errors import DecodeError

Role: TypeAlias = Literal["system", "developer", "user", "assistant", "tool"]
"""Who speaks: ``developer`` is kept apart from ``system`` (OpenAI's distinction)."""

ROLES: frozenset[str] = frozenset(("system", "developer", "user", "assistant", "tool"))

Timestamp: TypeAlias = str | int | float
"""A timestamp exactly as the source wrote it: ISO-8601 text or epoch seconds/milliseconds."""

CONTEXT_FIELDS: tuple[str, ...] = (
    "uuid",
    "session_id",
    "parent_tool_use_id",
    "model",
    "message_id",
    "timestamp",
)
"""The context fields every message carries and that flattening copies onto children."""

_set = object.__setattr__

T = TypeVar("T")


def freeze_map(obj: object, name: str) -> None:
    """Replace a mapping field with its FrozenDict form, in place, during ``__post_init__``."""
    value = getattr(obj, name)
    if type(value) is FrozenDict:
        return
    if value is None and name == "extra":
        _set(obj, name, EMPTY)
        return
    if not isinstance(value, Mapping):
        raise DecodeError(
            f"expected a JSON object, found {type(value).__name__}", path=f"$.{name}", value=value
        )
    _set(obj, name, freeze(value))


def freeze_json(obj: object, name: str) -> None:
    """Replace any JSON-valued field with its frozen form, in place."""
    value = getattr(obj, name)
    cls = type(value)
    if cls is FrozenDict or cls is str or cls is int or cls is bool or value is None:
        return
    try:
        _set(obj, name, freeze(value))
    except DecodeError as exc:
        raise exc.within(f".{name}") from None


def freeze_tuple(obj: object, name: str) -> None:
    """Turn a list field into a tuple, in place (``None`` and ``str`` are left alone)."""
    value = getattr(obj, name)
    if type(value) is list:
        _set(obj, name, tuple(value))


def freeze_objects(obj: object, name: str) -> None:
    """Turn a sequence of JSON objects into a tuple of FrozenDicts, in place."""
    value = getattr(obj, name)
    if value is None:
        return
    if type(value) is tuple and all(type(item) is FrozenDict for item in value):
        return
    _set(obj, name, tuple(FrozenDict(item) for item in value))


def compact_repr(self: Any) -> str:
    """``Cls(a=1)``: only the fields that differ from their defaults."""
    parts = []
    for f in dataclasses.fields(self):
        value = getattr(self, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        parts.append(f"{f.name}={value!r}")
    return f"{type(self).__name__}({', '.join(parts)})"


_MAKERS: dict[type, Callable[..., Any]] = {}


def _first_call(*args: Any, _cls: type = object) -> Any:
    """The body of a maker until its first call: generate the real code, take it over."""
    stub = _MAKERS[_cls]
    real = _generate(_cls)
    stub.__code__ = real.__code__
    stub.__defaults__ = real.__defaults__
    stub.__kwdefaults__ = None
    return real(*args)


def _generate(cls: type) -> Callable[..., Any]:
    names = [f.name for f in dataclasses.fields(cls)]
    slots = cls.__dict__.get("__slots__")
    if tuple(names) != slots:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass with its fields as slots")
    builder = type(f"_{cls.__name__}Builder", (), {"__slots__": slots})
    params = ", ".join(names)
    body = "".join(f"    self.{name} = {name}\n" for name in names)
    source = (
        f"def make_{cls.__name__}({params}, _builder=_builder, _cls=_cls):\n"
        f"    self = _builder()\n{body}    self.__class__ = _cls\n    return self\n"
    )
    namespace: dict[str, Any] = {"_builder": builder, "_cls": cls}
    exec(source, namespace)
    return namespace[f"make_{cls.__name__}"]  # type: ignore[no-any-return]


def maker(cls: type[T]) -> Callable[..., T]:
    """A fast constructor for a slotted value type: every field positionally, in field order.

    It runs no ``__post_init__``, so it checks and freezes nothing: only decoders that already
    hold valid, frozen values (FrozenDicts, tuples, checked scalars) may use it. The instance
    it returns is an ordinary instance of ``cls``, equal to the one the public constructor
    builds from the same values.

    Each field is stored by a plain attribute store on a layout-identical builder class (the
    frozen class's ``__setattr__`` forbids that), and the object then becomes a ``cls``.
    The code is generated on the first call, so importing a module that asks for makers
    costs nothing.
    """
    made = _MAKERS.get(cls)
    if made is None:
        stub = FunctionType(_first_call.__code__, _first_call.__globals__, f"make_{cls.__name__}")
        stub.__kwdefaults__ = {"_cls": cls}
        made = _MAKERS[cls] = stub
    return made
