"""Amazon Bedrock Converse (``Converse`` / ``ConverseStream``): requests, responses, streams.

``encode_request`` writes the ``system`` and ``messages`` of a request for any
conversation, applying Converse's rules (alternating roles, results right after their calls,
no blank text, tool ids Converse takes); ``decode_request``/``decode_response`` read bodies
as the HTTP API's JSON has them (bytes as base64); :func:`accumulator` reassembles
``ConverseStream`` events. See ``docs/providers/bedrock.md`` for the mapping.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse."), UserMessage("Hi")])
{'system': [{'text': 'Be terse.'}], 'messages': [{'role': 'user', 'content': [{'text': 'Hi'}]}]}
"""

from __future__ import annotations

from typing import Final

from .._formats import BEDROCK
from .._protocols import Accumulator
from .decoder import decode_request
from .decoder import decode_response
from .encoder import encode_request
from .encoder import encode_response
from .ids import original_id
from .ids import wire_id
from .settings import decode_settings
from .stream import BedrockAccumulator

# The same surface in every provider module, on purpose: see _protocols.Provider.
__all__ = [
    "NAME",
    "accumulator",
    "decode_request",
    "decode_response",
    "decode_settings",
    "encode_request",
    "encode_response",
    "original_id",
    "wire_id",
]

NAME: Final = BEDROCK
"""The format name, as used in errors and on the command line."""


def accumulator() -> Accumulator:
    """A fresh accumulator for one ``ConverseStream`` response (its events, in order).

    >>> acc = accumulator()
    >>> for event in [
    ...     {"messageStart": {"role": "assistant"}},
    ...     {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hel"}}},
    ...     {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "lo"}}},
    ...     {"contentBlockStop": {"contentBlockIndex": 0}},
    ...     {"messageStop": {"stopReason": "end_turn"}},
    ...     {"metadata": {"usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
    ...                   "metrics": {"latencyMs": 120}}},
    ... ]:
    ...     acc.feed(event)
    >>> acc.message().text, acc.message().usage.output_tokens
    ('Hello', 2)
    """
    return BedrockAccumulator(decode_response)
