"""What the bridges share: checked reads of foreign objects, paths, the policy, turns.

Nothing here imports a foreign library. A bridge reads another library's object only
through :func:`attr` (and the typed readers built on it), so an object that is not the one
expected, or is half-built, raises :class:`~messages.DecodeError` with the path of the
value, never an ``AttributeError`` from deep inside.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, TypeVar

from .._json import EMPTY, FrozenDict, JsonValue, freeze, thaw
from ..errors import DecodeError, EncodeError, MessagesError
from ..message import FLAT_TYPES, ROLE_TYPES, SESSION_TYPES, Message
from ..providers._base import Unsupported, as_turns
from ..providers._policy import Policy, describe
from ..roles import RoleMessage

__all__ = [
    "MISSING",
    "Policy",
    "Unsupported",
    "attr",
    "describe",
    "encode_error",
    "frozen",
    "is_instance",
    "items",
    "opt_attr",
    "plain",
    "stash",
    "turns",
]

T = TypeVar("T")

MISSING: Final = object()
"""Marks an attribute an object does not have."""


def _type_name(value: Any) -> str:
    return type(value).__name__


def attr(obj: Any, name: str, path: str, source: str, *types: type) -> Any:
    """``obj.name``, checked to be one of ``types`` (any type when none are given).

    A missing attribute or one of another type raises DecodeError at ``path.name``.
    """
    where = f"{path}.{name}"
    try:
        value = getattr(obj, name)
    except AttributeError:
        raise DecodeError(
            f"expected a field {name!r} on {_type_name(obj)}", path=where, source=source
        ) from None
    except Exception as exc:  # a property of a foreign object failing on odd input
        raise DecodeError(
            f"could not read {name!r} of {_type_name(obj)}: {exc}", path=where, source=source
        ) from None
    if types and not isinstance(value, types):
        wanted = " or ".join("None" if t is type(None) else t.__name__ for t in types)
        raise DecodeError(
            f"expected {wanted}, found {_type_name(value)}", path=where, source=source, value=value
        )
    return value


def opt_attr(obj: Any, name: str, path: str, source: str, *types: type) -> Any:
    """Like :func:`attr`, but ``None`` is always allowed."""
    return attr(obj, name, path, source, *types, type(None))


def is_instance(obj: Any, classes: tuple[type, ...], path: str, source: str, what: str) -> None:
    """Raise DecodeError at ``path`` unless ``obj`` is one of ``classes``."""
    if not isinstance(obj, classes):
        raise DecodeError(
            f"expected {what}, found {_type_name(obj)}", path=path, source=source, value=obj
        )


def items(value: Any, path: str, source: str) -> list[Any]:
    """A list or tuple, as a list; anything else raises DecodeError."""
    if isinstance(value, list | tuple):
        return list(value)
    raise DecodeError(
        f"expected a list, found {_type_name(value)}", path=path, source=source, value=value
    )


def frozen(value: Any, path: str, source: str) -> JsonValue:
    """``value`` frozen as JSON; a value that is not JSON raises DecodeError at its path."""
    try:
        return freeze(value)
    except DecodeError as exc:
        exc.path = path + exc.path[1:]
        exc.source = source
        raise


def plain(value: Any) -> Any:
    """A fresh, mutable copy of a frozen JSON value (the thing a foreign library gets)."""
    return thaw(value)


def encode_error(reason: str, path: str, source: str, value: Any = None) -> EncodeError:
    """The error for a value of ours that cannot be written at all (not a policy matter)."""
    return EncodeError(reason, path=path, source=source, value=value)


def stash(taken: bool, rest: Mapping[str, Any]) -> bool:
    """Whether to keep what is left of a foreign dict some of whose keys became fields.

    A foreign dict (langchain ``extras``, pydantic-ai ``provider_details``...) may give a
    few of its keys to our modelled fields; what is left is kept in ``extra`` when it is
    not empty, or when it was empty to begin with (so an empty dict comes back as one),
    and dropped when the taken keys were all it had (writing the fields brings them back).
    """
    return bool(rest) or not taken


def merged(base: Mapping[str, Any], extra: Mapping[str, JsonValue]) -> dict[str, Any]:
    """``base`` with the keys of a frozen ``extra`` added (fresh plain copies)."""
    out = dict(base)
    for key, value in extra.items():
        out[key] = thaw(value)
    return out


def turns(
    messages: Iterable[Message], source: str, *, keep_session: bool = False
) -> Iterator[tuple[str, Message]]:
    """Each role turn of a conversation with the path of where it came from.

    Role messages pass through; a run of flat content messages becomes one role turn (the
    rule of :func:`messages.providers._base.as_turns`); session messages are not
    conversation content and are left out, as every request encoder does, unless
    ``keep_session``. Anything that is not a message raises :class:`EncodeError`.
    """
    run: list[Message] = []
    start = 0

    def close() -> Iterator[tuple[str, Message]]:
        for turn in as_turns(run):
            yield f"$[{start}]", turn
        run.clear()

    for i, message in enumerate(messages):
        if isinstance(message, FLAT_TYPES):
            if not run:
                start = i
            run.append(message)
            continue
        yield from close()
        if isinstance(message, ROLE_TYPES):
            yield f"$[{i}]", message
        elif isinstance(message, SESSION_TYPES):
            if keep_session:
                yield f"$[{i}]", message
        else:
            raise EncodeError(
                f"expected a message, found {_type_name(message)}",
                path=f"$[{i}]",
                source=source,
                value=message,
            )
    yield from close()


def check_policy(unsupported: Any, source: str) -> Policy:
    """The :class:`Policy` for one call; an unknown choice raises EncodeError."""
    return Policy(unsupported, source)


def role_of(message: RoleMessage) -> str:
    """The role name of a role message (``developer`` for an OpenAI developer message)."""
    return message.role


def reraise(exc: Exception, path: str, source: str) -> MessagesError:
    """A foreign library's validation error as our DecodeError at ``path``."""
    return DecodeError(f"{_type_name(exc)}: {exc}".split("\n")[0][:300], path=path, source=source)


__all__ += ["EMPTY", "FrozenDict", "check_policy", "merged", "reraise", "role_of"]
