"""The protocols every provider codec module and its stream accumulator satisfy.

Both are public as :class:`messages.providers.Provider` and
:class:`messages.providers.Accumulator`; a module satisfies :class:`Provider` structurally
(mypy checks the four codecs in ``tests/typing/check_providers.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import Protocol

from ..message import Message
from ..policy import Unsupported
from ..roles import AssistantMessage
from ..settings import RequestSettings

__all__ = ["Accumulator", "Provider"]


class Accumulator(Protocol):
    """Reassembles a provider's stream events into one message.

    Feed it every event of one streamed response, in order; ask for a :meth:`snapshot`
    at any time and for the :meth:`message` once the stream has ended. A finished stream
    gives what ``decode_response`` gives for the same response sent whole.

    >>> from messages.providers import get
    >>> acc = get("openai_chat").accumulator()
    >>> acc.feed({"choices": [{"index": 0, "delta": {"content": "Hi"}}]})
    >>> acc.snapshot().text
    'Hi'
    """

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
    """The surface of every provider codec module (a module satisfies it structurally).

    :func:`messages.providers.get` returns one by name, so code written against this
    protocol works for every provider API.

    >>> from messages import UserMessage
    >>> from messages.providers import NAMES, get
    >>> [get(name).decode_request(get(name).encode_request([UserMessage("Hi")]))[0].text
    ...  for name in NAMES]
    ['Hi', 'Hi', 'Hi', 'Hi', 'Hi']
    >>> from messages import RequestSettings
    >>> [get(name).decode_settings(get(name).encode_request(
    ...     [], settings=RequestSettings(max_tokens=64))).max_tokens for name in NAMES]
    [64, 64, 64, 64, 64]
    """

    NAME: str

    def encode_request(
        self,
        conversation: Iterable[Message],
        *,
        unsupported: Unsupported = "raise",
        settings: RequestSettings | None = None,
    ) -> dict[str, Any]:
        """A request body for any conversation, with ``settings`` around it when given."""
        ...

    def decode_request(self, body: Mapping[str, Any]) -> tuple[Message, ...]:
        """The conversation in a request body."""
        ...

    def decode_settings(self, body: Mapping[str, Any]) -> RequestSettings:
        """Everything else in a request body: model, limits, sampling, tools, the rest."""
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
