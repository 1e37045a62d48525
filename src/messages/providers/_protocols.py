"""The protocols every provider codec module and its stream accumulator satisfy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..message import Message
from ..policy import Unsupported
from ..roles import AssistantMessage

__all__ = ["Accumulator", "Provider"]


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


class Provider(Protocol):
    """The surface of every provider codec module (a module satisfies it structurally)."""

    NAME: str

    def encode_request(
        self, conversation: Iterable[Message], *, unsupported: Unsupported = "raise"
    ) -> dict[str, Any]:
        """The message-carrying part of a request body for any conversation."""
        ...

    def decode_request(self, body: Mapping[str, Any]) -> tuple[Message, ...]:
        """The conversation in a request body."""
        ...

    def decode_response(self, body: Mapping[str, Any]) -> AssistantMessage:
        """A response body as one assistant message."""
        ...

    def encode_response(self, message: AssistantMessage) -> dict[str, Any]:
        """The inverse of :meth:`decode_response`."""
        ...

    def accumulator(self) -> Accumulator:
        """A fresh reassembler for one streamed response."""
        ...
