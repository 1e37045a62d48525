"""OpenAI Chat Completions (``POST /v1/chat/completions``): requests, responses and streams.

``decode_request`` reads the ``messages`` of a request body; ``encode_request`` writes them
for any conversation, one ``tool`` message per tool result right after the assistant
message that made the call; ``decode_response``/``encode_response`` handle a
``ChatCompletion``; :func:`accumulator` reassembles streamed chunks. See
``docs/providers/openai_chat.md`` for the mapping.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse.", role="developer"), UserMessage("Hi")])
{'messages': [{'role': 'developer', 'content': 'Be terse.'}, {'role': 'user', 'content': 'Hi'}]}
"""

from __future__ import annotations

from typing import Final

from .._formats import CHAT
from .._protocols import Accumulator
from .decoder import decode_request
from .decoder import decode_response
from .encoder import encode_request
from .encoder import encode_response
from .settings import decode_settings
from .stream import ChatAccumulator

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

NAME: Final = CHAT
"""The format name, as used in errors and on the command line."""


def accumulator() -> Accumulator:
    """A fresh accumulator for one streamed completion (parsed chunk objects, in order).

    Feed it each ``data:`` object (and, optionally, the final ``"[DONE]"``).

    >>> acc = accumulator()
    >>> for chunk in [
    ...     {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-x",
    ...      "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"},
    ...                   "finish_reason": None}]},
    ...     {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-x",
    ...      "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}]},
    ... ]:
    ...     acc.feed(chunk)
    >>> acc.message().text, acc.message().stop_reason
    ('Hello', 'stop')
    """
    return ChatAccumulator()
