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
  ``__post_init__``;
- :func:`transfer`: the same, taking the fields it shares with another value class from
  such a value (a flat message from its block, and back).

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

__all__ = ["copy_json", "expose_owned", "maker", "transfer", "wrap_owned"]

T = TypeVar("T")

_MAKERS: dict[Any, Callable[..., Any]] = {}
"""The stubs handed out, by what they build: a class (maker) or (class, source, params)."""


def _first_call(*args: Any, _key: Any = object, **named: Any) -> Any:
    """The body of a maker until its first call: generate the real code, take it over."""
    stub = _MAKERS[_key]
    real = _generate(_key)
    stub.__code__ = real.__code__
    stub.__defaults__ = real.__defaults__
    stub.__kwdefaults__ = None
    return real(*args, **named)


def _stub(key: Any, name: str) -> Callable[..., Any]:
    """The maker for ``key``, made once: a stub that generates its code when first called."""
    made = _MAKERS.get(key)
    if made is None:
        stub = FunctionType(_first_call.__code__, _first_call.__globals__, name)
        stub.__kwdefaults__ = {"_key": key}
        made = _MAKERS[key] = stub
    return made


def _generate(key: Any) -> Callable[..., Any]:
    cls, source, params = key if isinstance(key, tuple) else (key, None, ())
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    slots = cls.__dict__.get("__slots__")
    inherited = [name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())]
    if slots is None or sorted((*slots, *inherited)) != sorted(names):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass with its fields as slots")
    # Derived from the real bases (the fields.Context base, whose slots hold the context
    # fields, and slotted mixins such as roles.ContentReads) so that the layouts match and the
    # class switch below is allowed.
    builder = type(f"_{cls.__name__}Builder", cls.__bases__, {"__slots__": slots})
    namespace: dict[str, Any] = {"_builder": builder, "_cls": cls}
    given: dict[str, Any] = {}  # the fields' defaults, read once where the code is defined
    if source is None:
        name, args, values = f"make_{cls.__name__}", _with_defaults(fields, given), names
    else:
        name, args = f"make_{cls.__name__}_from_{source.__name__}", ["_src", *params]
        held = {f.name for f in dataclasses.fields(source)}
        values = [_value(f, held, params, namespace) for f in fields]
    body = "".join(f"    self.{f} = {value}\n" for f, value in zip(names, values, strict=True))
    # The stub takes this code over but keeps its own globals: everything the code uses
    # beyond its arguments comes in as a default (the builder, the class, field defaults).
    defaults = "".join(f", {n}={n}" for n in namespace)
    code = (
        f"def {name}({', '.join(args)}{defaults}):\n"
        f"    self = _builder()\n{body}    self.__class__ = _cls\n    return self\n"
    )
    namespace.update(given)
    exec(code, namespace)
    return namespace[name]  # type: ignore[no-any-return]


def _with_defaults(fields: tuple[dataclasses.Field[Any], ...], ns: dict[str, Any]) -> list[str]:
    """A maker's parameters: the fields in order, the trailing ones that have a default with it.

    So a call may leave out the fields after its last set one, or name the few it sets.
    """
    params = [f.name for f in fields]
    for i in range(len(fields) - 1, -1, -1):
        default = fields[i].default
        if default is dataclasses.MISSING:
            break
        ns[f"_default_{params[i]}"] = default
        params[i] = f"{params[i]}=_default_{params[i]}"
    return params


def _value(field: dataclasses.Field[Any], held: set[str], params: tuple[str, ...], ns: Any) -> str:
    """The expression a transfer maker stores in ``field`` (see :func:`transfer`)."""
    name, default = field.name, field.default
    if name in params:
        if default is None or default is dataclasses.MISSING:
            return name
        ns[f"_default_{name}"] = default
        return f"_default_{name} if {name} is None else {name}"
    if name in held:
        return f"_src.{name}"
    if default is dataclasses.MISSING:
        raise TypeError(f"{field.name} has no default and the source class has no such field")
    ns[f"_default_{name}"] = default
    return f"_default_{name}"


def maker(cls: type[T]) -> Callable[..., T]:
    """A fast constructor for a slotted value type: every field positionally, in field order.

    The trailing fields that have a default may be left out, or the ones set among them
    given by name (a rare path's call then names what it sets instead of a run of ``None``).

    It runs no ``__post_init__``, so it checks and freezes nothing: only decoders that already
    hold valid, frozen values (FrozenDicts, tuples, checked scalars) may use it. The instance
    it returns is an ordinary instance of ``cls``, equal to the one the public constructor
    builds from the same values.

    Each field is stored by a plain attribute store on a layout-identical builder class (the
    frozen class's ``__setattr__`` forbids that), and the object then becomes a ``cls``.
    The code is generated on the first call, so importing a module that asks for makers
    costs nothing.
    """
    return _stub(cls, f"make_{cls.__name__}")


def transfer(cls: type[T], source: type, params: tuple[str, ...] = ()) -> Callable[..., T]:
    """A fast constructor of ``cls`` from a value of ``source`` that holds its fields by name.

    The constructor takes the source value, then one argument per name in ``params``. Each
    field of ``cls`` named in ``params`` takes that argument (``None`` standing for the
    field's default); every other field takes the source's attribute of the same name, or
    its default where ``source`` has no such field. So a flat message is made from its block
    and the context in one call, and a block from its flat message, without naming the
    fields the two classes share.

    Like :func:`maker`, it runs no ``__post_init__``: the source's values must already be
    frozen (they are, in any value built by its public constructor), and the arguments valid.
    """
    return _stub((cls, source, params), f"make_{cls.__name__}_from_{source.__name__}")
