"""The library's errors: one small tree under :class:`MessagesError`.

Every decoder raises :class:`DecodeError` (a ``ValueError``) with a JSONPath-like
``path`` to the bad value, the ``source`` format it was reading and the ``value`` itself.
"""

from __future__ import annotations

from typing import Any
from typing import Final

__all__ = ["DecodeError", "EncodeError", "HINT", "MessagesError", "UnsupportedContentError"]


class MessagesError(Exception):
    """Base class of every error this library raises on purpose."""


class _PathError(MessagesError, ValueError):
    """Shared shape of DecodeError and EncodeError: a reason, a path, a source, a value."""

    def __init__(
        self,
        reason: str,
        *,
        path: str = "$",
        source: str | None = None,
        value: Any = None,
        line: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        """What was expected and what was found, without the location."""
        self.path = path
        """Where the bad value is, from the root ``$``: ``$.message.content[2].text``."""
        self.source = source
        """The format being read or written (``"claude_code"``, ``"anthropic"``...), if known."""
        self.value = value
        """The offending value (may be ``None`` when the problem is a missing key)."""
        self.line = line
        """1-based line number, when the value came from a line-oriented stream."""

    def within(self, segment: str) -> _PathError:
        """Prefix the path with a parent segment (``.key`` or ``[i]``) and return self."""
        self.path = "$" + segment + self.path[1:]
        return self

    def __str__(self) -> str:
        where = self.path if self.line is None else f"line {self.line}: {self.path}"
        prefix = f"{self.source}: " if self.source else ""
        return f"{prefix}{where}: {self.reason}"


class DecodeError(_PathError):
    """Input could not be decoded: says what was expected, what was found, and where.

    >>> str(DecodeError("expected a string, found int", path="$.content[0].text"))
    '$.content[0].text: expected a string, found int'
    """


class EncodeError(_PathError):
    """A value could not be written in the requested format."""


class UnsupportedContentError(EncodeError):
    """The target format has no way to carry this content (for example audio to Anthropic).

    Codecs raise it under the default policy; pass ``unsupported="drop"`` or
    ``unsupported="text"`` to choose another outcome explicitly. Its message ends with
    that hint, :data:`HINT` (``reason`` holds the message without it).

    >>> str(UnsupportedContentError("cannot carry audio", path="$[0]", source="anthropic"))
    "anthropic: $[0]: cannot carry audio (pass unsupported='drop' or 'text')"
    """

    def __str__(self) -> str:
        return f"{super().__str__()} {HINT}"


HINT: Final = "(pass unsupported='drop' or 'text')"
"""The hint every :class:`UnsupportedContentError` message ends with."""
