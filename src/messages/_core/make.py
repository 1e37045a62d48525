"""The one home of unchecked construction: the fast paths that skip validation.

Everything here builds values *without* checking or copying them. Only a decoder that
already holds valid, owned data may call these; everyone else uses the public constructors
(``FrozenDict(...)``, ``TextBlock(...)``), which check and freeze. Each name says what it
skips:

- :func:`wrap_owned`: a plain JSON ``dict`` the caller gives up becomes a
  :class:`~messages.FrozenDict` without a copy (O(1), against O(size) for ``FrozenDict(d)``);
- :func:`expose_owned`: a plain JSON value fresh from ``json.loads`` becomes its read-only
  public form (objects wrapped, arrays turned into tuples) without a copy;
- :func:`copy_json`: the checked deep copy into stored form, with a path-free fast pass
  (errors name the path: it is the one place plain values are copied in);
- :func:`maker`: a positional constructor for a slotted value class that runs no
  ``__post_init__``.

These buy most of the decoders' speed: wrapping instead of copying a decoded object, and a
maker instead of the dataclass ``__init__``, are each worth about a third of the per-line cost
of a Claude Code line (see docs/performance.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import FunctionType
from typing import Any
from typing import TypeVar

from .frozen import copy_json
from .frozen import expose_owned
from .frozen import wrap_owned

__all__ = ["copy_json", "expose_owned", "maker", "wrap_owned"]

T = TypeVar("T")

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
    inherited = [name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())]
    if slots is None or sorted((*slots, *inherited)) != sorted(names):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass with its fields as slots")
    # Derived from the real bases (the fields.Context base, whose slots hold the context
    # fields, and slotted mixins such as roles.ContentReads) so that the layouts match and the
    # class switch below is allowed.
    builder = type(f"_{cls.__name__}Builder", cls.__bases__, {"__slots__": slots})
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
