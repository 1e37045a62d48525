"""What the bridges share: checked reads of foreign objects, paths, the policy, turns.

Nothing here imports a foreign library. A bridge reads another library's object only
through :func:`attr` (and the typed readers built on it), so an object that is not the one
expected, or is half-built, raises :class:`~messages.DecodeError` with the path of the
value, never an ``AttributeError`` from deep inside.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from .._core.frozen import FrozenDict
from .._core.frozen import JsonValue
from .._core.frozen import freeze
from .._core.frozen import thaw
from ..errors import DecodeError
from ..errors import EncodeError
from ..errors import MessagesError
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import SESSION_TYPES
from ..message import Message
from ..policy import Policy
from ..policy import Unsupported
from ..policy import describe

__all__ = [
    "Policy",
    "Unsupported",
    "attr",
    "check_policy",
    "describe",
    "frozen",
    "frozen_object",
    "is_instance",
    "items",
    "merged",
    "opt_attr",
    "reraise",
    "stash",
    "turns",
    "wrong",
]


def _type_name(value: Any) -> str:
    return type(value).__name__


def wrong(
    what: str,
    value: Any,
    path: str,
    source: str,
    error: type[DecodeError] | type[EncodeError] = DecodeError,
) -> DecodeError | EncodeError:
    """The error for a value that is not what a bridge expects, to raise.

    Every bridge words it the same way: ``expected <what>, found <its Python type>``, with
    the path and the value. A :class:`~messages.DecodeError` unless ``error`` says otherwise.
    """
    return error(
        f"expected {what}, found {_type_name(value)}", path=path, source=source, value=value
    )


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
        raise wrong(wanted, value, where, source)
    return value


def opt_attr(obj: Any, name: str, path: str, source: str, *types: type) -> Any:
    """Like :func:`attr`, but ``None`` is always allowed."""
    return attr(obj, name, path, source, *types, type(None))


def is_instance(obj: Any, classes: tuple[type, ...], path: str, source: str, what: str) -> None:
    """Raise DecodeError at ``path`` unless ``obj`` is one of ``classes``."""
    if not isinstance(obj, classes):
        raise wrong(what, obj, path, source)


def items(value: Any, path: str, source: str) -> list[Any]:
    """A list or tuple, as a list; anything else raises DecodeError."""
    if isinstance(value, list | tuple):
        return list(value)
    raise wrong("a list", value, path, source)


def frozen(value: Any, path: str, source: str) -> JsonValue:
    """``value`` frozen as JSON; a value that is not JSON raises DecodeError at its path."""
    try:
        out: JsonValue = freeze(value)
    except DecodeError as exc:
        exc.path = path + exc.path[1:]
        exc.source = source
        raise
    return out


def frozen_object(value: Mapping[str, Any], path: str, source: str) -> FrozenDict:
    """A dict frozen as a JSON object (for ``extra``); see :func:`frozen`."""
    out = frozen(value, path, source)
    assert isinstance(out, FrozenDict)
    return out


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


def _turn(run: list[Any]) -> Message:
    """A run of flat content messages of one role as one role message (first one's context)."""
    from ..convert import messages_to_turn

    return messages_to_turn(run)


def turns(
    messages: Iterable[Message], source: str, *, keep_session: bool = False
) -> Iterator[tuple[str, Message]]:
    """Each role turn of a conversation, with the path of the message it starts at.

    Role messages pass through. A run of consecutive flat content messages of one role
    becomes one role turn with the run's first context, as every request encoder groups
    them. Session messages (results, errors, init, stream events, invalid lines) and raw
    messages without a role are records, not conversation content: they are left out, as
    every request encoder leaves them out, unless ``keep_session``. Anything that is not a
    message raises :class:`~messages.EncodeError` at its path.
    """
    from ..flat import RawMessage

    run: list[Any] = []
    start = 0
    for i, message in enumerate(messages):
        if isinstance(message, FLAT_TYPES):
            if isinstance(message, RawMessage) and message.role is None:
                continue
            if run and message.role != run[0].role:
                yield f"$[{start}]", _turn(run)
                run = []
            if not run:
                start = i
            run.append(message)
            continue
        if run:
            yield f"$[{start}]", _turn(run)
            run = []
        if isinstance(message, ROLE_TYPES):
            yield f"$[{i}]", message
        elif isinstance(message, SESSION_TYPES):
            if keep_session:
                yield f"$[{i}]", message
        else:
            raise wrong("a message", message, f"$[{i}]", source, EncodeError)
    if run:
        yield f"$[{start}]", _turn(run)


def check_policy(unsupported: Any, source: str) -> Policy:
    """The :class:`Policy` for one call; an unknown choice raises EncodeError."""
    return Policy(unsupported, source)


def reraise(exc: Exception, path: str, source: str, *, encoding: bool = False) -> MessagesError:
    """A foreign library's error (a pydantic ValidationError...) as ours, at ``path``.

    Only its first line is kept: pydantic's messages run to many lines.
    """
    reason = f"{_type_name(exc)}: {exc}".split("\n")[0][:300]
    cls = EncodeError if encoding else DecodeError
    return cls(reason, path=path, source=source)
