"""Anthropic Messages API (``POST /v1/messages``): requests, responses and streams.

``decode_request`` reads the ``system`` and ``messages`` of a request body;
``encode_request`` writes them for any conversation, in the order the API requires;
``decode_response``/``encode_response`` handle a ``Message``; :func:`accumulator`
reassembles a server-sent event stream. See ``docs/providers/anthropic.md`` for the mapping.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse."), UserMessage("Hi")])
{'system': 'Be terse.', 'messages': [{'role': 'user', 'content': 'Hi'}]}
"""

from __future__ import annotations

from typing import Final

from .._formats import ANTHROPIC
from .._protocols import Accumulator
from .decoder import decode_request
from .decoder import decode_response
from .encoder import encode_request
from .encoder import encode_response
from .settings import decode_settings
from .stream import AnthropicAccumulator

# The same surface in every provider module, on purpose: see _protocols.Provider.
__all__ = [
    "NAME",
    "accumulator",
    "decode_request",
    "decode_response",
    "decode_settings",
    "encode_request",
    "encode_response",
]

NAME: Final = ANTHROPIC
"""The format name, as used in errors and on the command line."""


def accumulator() -> Accumulator:
    """A fresh accumulator for one streamed response (server-sent event objects, in order).

    >>> acc = accumulator()
    >>> text = {"type": "text", "text": ""}
    >>> for event in [
    ...     {"type": "message_start", "message": {"id": "msg_1", "type": "message",
    ...      "role": "assistant", "model": "claude-x", "content": [], "stop_reason": None,
    ...      "usage": {"input_tokens": 5, "output_tokens": 1}}},
    ...     {"type": "content_block_start", "index": 0, "content_block": text},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "text_delta", "text": "Hel"}},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "text_delta", "text": "lo"}},
    ...     {"type": "content_block_stop", "index": 0},
    ...     {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
    ...      "usage": {"output_tokens": 4}},
    ...     {"type": "message_stop"},
    ... ]:
    ...     acc.feed(event)
    >>> acc.message().text, acc.message().usage.output_tokens
    ('Hello', 4)
    """
    return AnthropicAccumulator()
