"""What the value types share: the context base, aliases, field freezing, repr and equality."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from operator import attrgetter
from typing import Any
from typing import ClassVar
from typing import Final
from typing import Literal
from typing import TypeAlias
from typing import TypeVar

from ..errors import DecodeError
from .frozen import EMPTY
from .frozen import FrozenDict
from .frozen import JsonValue
from .frozen import freeze

__all__ = [
    "CONTEXT_FIELDS",
    "Context",
    "ROLES",
    "Role",
    "Timestamp",
    "compact_repr",
    "compared",
    "completeness",
    "freeze_json",
    "freeze_map",
    "freeze_objects",
    "freeze_opt_map",
    "freeze_tuple",
    "logged_cost",
    "num_of",
    "str_of",
]

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
_T = TypeVar("_T")


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


def freeze_opt_map(obj: object, name: str) -> None:
    """:func:`freeze_map` for a mapping field that may be ``None`` (``None`` stays)."""
    if getattr(obj, name) is not None:
        freeze_map(obj, name)


def str_of(data: Mapping[str, JsonValue] | None, key: str) -> str | None:
    """``data[key]`` when ``data`` is given and the value is a string; ``None`` otherwise."""
    value = None if data is None else data.get(key)
    return value if isinstance(value, str) else None


_UNREPORTED: Final = float("-inf")


def completeness(*counts: int | None) -> tuple[float, ...]:
    """Token counts as a rank: of two reports of one call, the higher is the more complete.

    A streamed response's usage grows report by report, so the caller lists the count that
    comes last first. A count not reported ranks below any reported one, a negative one
    included.

    >>> completeness(5, -1) > completeness(5, None)
    True
    >>> completeness(0, 9) > completeness(None, 9)
    True
    """
    return tuple(_UNREPORTED if v is None else v for v in counts)


def logged_cost(value: object) -> float | None:
    """A cost a log records, if it is one: a finite number of dollars, zero or more.

    ``None`` for anything else (absent, text, a boolean, negative, NaN or infinite): such a
    figure is not summed (the caller notes that it was rejected).

    >>> logged_cost(0.25), logged_cost(-1), logged_cost(True)
    (0.25, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    cost = float(value)
    return cost if math.isfinite(cost) and cost >= 0 else None


def num_of(data: Mapping[str, JsonValue] | None, key: str) -> int | float | None:
    """``data[key]`` when ``data`` is given and the value is a number (not a bool)."""
    value = None if data is None else data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


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


def compared(cls: type[_T]) -> type[_T]:
    """Give a frozen dataclass declared with ``eq=False`` the equality and hash of ``eq=True``.

    Two values are equal when they are of the same class and their fields, in order, are
    equal; the hash is that of the fields. That is what ``dataclass(eq=True, frozen=True)``
    generates, but it compiles two functions per class at import (about a quarter of the cost
    of defining a value class); these are two closures over one C field getter instead.

    For a class under :class:`Context` it first moves the inherited context fields back to
    where the class declared them before the base existed: last, or after the field its
    ``_context_after`` names.
    """
    if issubclass(cls, Context):
        table = cls.__dataclass_fields__
        own = [name for name in table if name not in _CONTEXT_NAMES]
        at = own.index(cls._context_after) + 1 if cls._context_after else len(own)
        order = [*own[:at], *_CONTEXT_NAMES, *own[at:]]
        by_name = dict(table)
        table.clear()
        table.update((name, by_name[name]) for name in order)
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    fields = attrgetter(*names) if len(names) > 1 else _single(names[0])

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return fields(self) == fields(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(fields(self))

    __eq__.__qualname__ = f"{cls.__qualname__}.__eq__"
    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    type.__setattr__(cls, "__eq__", __eq__)
    type.__setattr__(cls, "__hash__", __hash__)
    return cls


def _single(name: str) -> Any:
    """The one-field tuple getter (``attrgetter`` of one name gives the bare value)."""
    get = attrgetter(name)
    return lambda obj: (get(obj),)


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Context:
    """The context fields of a message, declared once: the one base a value class may have.

    Every message class derives from it; it is keyword-only, frozen and slotted, and each
    class under it stays ``@final``. Python's dataclasses list a base's fields first;
    :func:`compared` moves these back to where each class declared them before this base
    existed (last, or after the field named by the class's ``_context_after``), so
    ``dataclasses.fields``, the fast makers' positional order, the repr, the pickled state
    and the native format's key order are what they were. Positional construction and
    ``match`` patterns never see them (they are keyword-only).

    The base also gives its classes the compact repr and the freezing of ``extra`` (a class
    with more to freeze defines its own ``__post_init__``, which freezes ``extra`` too).
    """

    _: KW_ONLY
    uuid: str | None = None
    """Unique id of this record in its source stream."""
    session_id: str | None = None
    """Session, thread or conversation id."""
    parent_tool_use_id: str | None = None
    """Set when a sub-agent produced this on behalf of that tool call."""
    model: str | None = None
    """Model that produced it."""
    message_id: str | None = None
    """Provider message id (Anthropic ``msg_...``); several records may share one."""
    timestamp: Timestamp | None = None
    """When it was recorded, exactly as the source wrote it."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model, kept for exact replay."""

    _context_after: ClassVar[str | None] = None
    """The field the context fields follow in the field table; ``None``: they come last."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")

    __repr__ = compact_repr


# Context is never built on its own: each final class under it is frozen by its own generated
# __setattr__. Taking the base's away lets the fast makers store fields through a builder
# class that shares Context's layout (a frozen base would refuse those stores).
del Context.__setattr__
del Context.__delattr__


_CONTEXT_NAMES: Final = tuple(f.name for f in dataclasses.fields(Context))
