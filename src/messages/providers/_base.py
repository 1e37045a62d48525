"""What every provider codec shares: the unsupported-content policy and the accumulator."""

from __future__ import annotations

from typing import Any, Literal, Protocol, TypeAlias

from ..roles import AssistantMessage

__all__ = ["Accumulator", "Unsupported"]

Unsupported: TypeAlias = Literal["raise", "drop", "text"]
"""What an encoder does with content the target cannot carry: raise
:class:`~messages.UnsupportedContentError` (the default), drop it, or degrade it to text."""


class Accumulator(Protocol):
    """Reassembles a provider's stream events into one message."""

    def feed(self, event: Any) -> None:
        """Take the next stream event (a parsed JSON object), in order."""
        ...

    def snapshot(self) -> AssistantMessage:
        """The message so far: text so far, tool calls with arguments parsed as far as valid."""
        ...

    def message(self) -> AssistantMessage:
        """The whole message; raises DecodeError if the stream has not finished."""
        ...
