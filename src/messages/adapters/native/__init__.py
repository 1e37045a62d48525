"""The library's own JSON Lines (see :mod:`messages.serialize`), with the adapter surface.

It lets the command line and scripts treat native files like any agent CLI's output: a line
is one message as :func:`messages.serialize.to_dict` writes it (``"v": 2`` and ``"kind"``).
Every message kind can be written, so nothing is ever unsupported here.

>>> from messages import TextMessage
>>> line = next(iter_encode([TextMessage("hi", role="user")]))
>>> line
'{"v":2,"kind":"text","text":"hi","role":"user"}'
>>> [m.text for m in iter_decode([line])]
['hi']
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.wire import type_name
from ...errors import DecodeError
from ...events.run import InvalidLineMessage
from ...message import MESSAGE_TYPES
from ...message import Message
from ...policy import Unsupported
from ...policy import check_mode
from ...serialize import dumps
from ...serialize import from_dict
from ...serialize import to_dict
from .. import _base

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "native"
"""The format name used in errors and by the command line."""


def decode(obj: Any) -> Message:
    """One parsed native line to its message; a block, usage or bad value is a DecodeError."""
    try:
        value = from_dict(obj)
    except DecodeError as exc:
        if exc.source is None:
            exc.source = NAME
        raise
    if not isinstance(value, MESSAGE_TYPES):
        raise DecodeError(f"expected a message, found {type_name(value)}", source=NAME, value=obj)
    return value


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh native dict.

    ``unsupported`` is accepted for the shared surface (and checked): every message can be
    written natively.
    """
    check_mode(unsupported, NAME)
    return to_dict(message)


def detect(obj: Any) -> bool:
    """Whether a parsed line is native: an object with ``"v"`` (1 or 2) and a ``"kind"``."""
    return _base.is_native(obj)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode native lines lazily; bad lines become InvalidLineMessage unless ``strict``."""
    return _base.iter_decode(decode, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages to native lines; an :class:`InvalidLineMessage` gives back its text."""
    check_mode(unsupported, NAME)
    for message in messages:
        yield message.text if isinstance(message, InvalidLineMessage) else dumps(message)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive assistant records that share a message id (native text has no deltas)."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)
