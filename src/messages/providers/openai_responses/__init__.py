"""OpenAI Responses API (``POST /v1/responses``): requests, responses and stream reassembly.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse."), UserMessage("Weather in Paris?")])
{'instructions': 'Be terse.', 'input': 'Weather in Paris?'}

See ``docs/providers/openai_responses.md`` for the mapping table and every normalisation.
"""

from __future__ import annotations

from typing import Final

from .._formats import RESPONSES
from .._protocols import Accumulator
from .decoder import decode_request
from .decoder import decode_response
from .encoder import encode_request
from .encoder import encode_response
from .settings import decode_settings
from .stream import ResponsesAccumulator

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

NAME: Final = RESPONSES
"""The format name used in errors and by the CLI."""


def accumulator() -> Accumulator:
    """A fresh reassembler for one streamed response (``stream: true`` events, parsed)."""
    return ResponsesAccumulator(decode_response)
