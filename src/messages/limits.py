"""Configurable limits on untrusted input: line length, nesting depth, base64 size.

The library reads model output and agent logs: untrusted, sometimes huge. Every decoder
checks the limits in force and raises :class:`~messages.DecodeError` (with a path, and a line
number in streams) when one is exceeded; nothing grows without bound and nothing recurses
until Python's stack gives out.

The limits in force are a context variable, so a block of code (or one thread, or one asyncio
task) can tighten or loosen them without touching anything else:

>>> from messages.limits import Limits, current_limits, limits
>>> current_limits().max_depth
256
>>> with limits(max_depth=8):
...     current_limits().max_depth
8
>>> from messages import DecodeError, freeze
>>> with limits(max_depth=3):
...     freeze({"a": [[["too deep"]]]})
Traceback (most recent call last):
...
messages.errors.DecodeError: $.a[0][0]: JSON nests deeper than 3 levels
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from dataclasses import replace
from typing import final

__all__ = ["Limits", "current_limits", "limits"]


@final
@dataclass(frozen=True, slots=True)
class Limits:
    """How much untrusted input the decoders accept.

    >>> Limits(max_line=1024).max_line
    1024
    """

    max_line: int = 64 * 1024 * 1024
    """Longest line (characters, or bytes when read as bytes) a stream reader decodes; a
    longer one is reported as an invalid line (or raises, in strict mode)."""
    max_depth: int = 256
    """Deepest JSON nesting accepted when copying or freezing values and reading the native
    format. Wire lines are also bounded by the JSON parser itself: deeper than the
    interpreter's recursion limit is a DecodeError, never a RecursionError."""
    max_block_depth: int = 64
    """Deepest nesting of content blocks inside tool results."""
    max_base64: int = 256 * 1024 * 1024
    """Most base64 characters decoded to bytes in one go (``ImageBlock.to_bytes()``...)."""

    def __post_init__(self) -> None:
        for name in ("max_line", "max_depth", "max_block_depth", "max_base64"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")


_CURRENT: ContextVar[Limits] = ContextVar("messages_limits", default=Limits())  # noqa: B039 - frozen


def current_limits() -> Limits:
    """The limits in force in this context."""
    return _CURRENT.get()


@contextmanager
def limits(
    *,
    max_line: int | None = None,
    max_depth: int | None = None,
    max_block_depth: int | None = None,
    max_base64: int | None = None,
) -> Iterator[Limits]:
    """Change some limits for the duration of a ``with`` block (this context only)."""
    changes = {
        name: value
        for name, value in (
            ("max_line", max_line),
            ("max_depth", max_depth),
            ("max_block_depth", max_block_depth),
            ("max_base64", max_base64),
        )
        if value is not None
    }
    new = replace(_CURRENT.get(), **changes)
    token = _CURRENT.set(new)
    try:
        yield new
    finally:
        _CURRENT.reset(token)
