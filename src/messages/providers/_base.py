"""What every provider codec shares: the unsupported-content policy and the accumulator."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Literal, Protocol, TypeAlias

from ..message import Message
from ..roles import AssistantMessage, RoleMessage, SystemMessage, ToolMessage, UserMessage

__all__ = ["Accumulator", "Provider", "Unsupported", "as_turns"]

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


def as_turns(messages: Iterable[Message]) -> list[RoleMessage]:
    """Role messages for a request: flat content messages are grouped back into turns.

    Role messages pass through. A run of consecutive flat content messages with the same
    role becomes one role message of that role (``developer`` and ``system`` stay apart),
    taking the context fields of the run's first message. Session messages (results,
    errors, init, stream events, invalid lines) are not conversation content and are left
    out, and so is a :class:`RawMessage` without a role: an unknown record of a log, not
    something anyone said (a raw message holding a whole request message of some role is
    kept apart by ``_policy.request_turns`` first). Anything that is not a message raises
    :class:`DecodeError`.
    """
    from ..convert import message_to_block
    from ..errors import DecodeError
    from ..flat import RawMessage
    from ..message import FLAT_TYPES, ROLE_TYPES, SESSION_TYPES

    turns: list[RoleMessage] = []
    run: list[Message] = []
    run_role: str | None = None

    def close() -> None:
        if not run:
            return
        first = run[0]
        blocks = tuple(message_to_block(m) for m in run)
        turn: RoleMessage
        if run_role == "assistant":
            turn = AssistantMessage(blocks)
        elif run_role == "tool":
            turn = ToolMessage(blocks)
        elif run_role == "system":
            turn = SystemMessage(blocks)
        elif run_role == "developer":
            turn = SystemMessage(blocks, role="developer")
        else:
            turn = UserMessage(blocks)
        turns.append(
            replace(
                turn,
                uuid=first.uuid,
                session_id=first.session_id,
                parent_tool_use_id=first.parent_tool_use_id,
                model=first.model,
                message_id=first.message_id,
                timestamp=first.timestamp,
            )
        )
        run.clear()

    for i, message in enumerate(messages):
        if isinstance(message, ROLE_TYPES):
            close()
            turns.append(message)
        elif isinstance(message, FLAT_TYPES):
            if isinstance(message, RawMessage) and message.role is None:
                continue
            role = message.role
            if run and role != run_role:
                close()
            run_role = role
            run.append(message)
        elif isinstance(message, SESSION_TYPES):
            continue
        else:
            raise DecodeError(f"expected a message, found {type(message).__name__}", path=f"$[{i}]")
    close()
    return turns
