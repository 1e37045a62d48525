"""Google Gemini ``generateContent``: requests, responses and stream reassembly.

>>> from messages import SystemMessage, UserMessage
>>> body = encode_request([SystemMessage("Be terse."), UserMessage("Weather in Paris?")])
>>> body["systemInstruction"], body["contents"]
({'parts': [{'text': 'Be terse.'}]}, [{'parts': [{'text': 'Weather in Paris?'}]}])

See ``docs/providers/gemini.md`` for the mapping table and every normalisation.
"""

from __future__ import annotations

from typing import Final

from .._formats import GEMINI
from .._gemini_names import SYNTHETIC_ID_PREFIX
from .._protocols import Accumulator
from .decoder import citations
from .decoder import decode_request
from .decoder import decode_response
from .encoder import SKIP_SIGNATURE
from .encoder import UnsignedCalls
from .encoder import encode_request
from .encoder import encode_response
from .settings import decode_settings
from .stream import GeminiAccumulator

# The same surface in every provider module, on purpose: see _protocols.Provider.
__all__ = [
    "NAME",
    "SKIP_SIGNATURE",
    "SYNTHETIC_ID_PREFIX",
    "UnsignedCalls",
    "accumulator",
    "citations",
    "decode_request",
    "decode_response",
    "decode_settings",
    "encode_request",
    "encode_response",
]

NAME: Final = GEMINI
"""The format name used in errors and by the CLI."""


def accumulator() -> Accumulator:
    """A fresh reassembler for one ``streamGenerateContent`` stream (parsed chunks)."""
    return GeminiAccumulator(decode_response)
