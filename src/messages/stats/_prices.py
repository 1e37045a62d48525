"""Estimated cost from the ``genai-prices`` package (the ``prices`` extra), when installed.

The package keeps a maintained table of prices per provider and model, with the dates prices
changed; each message is priced at its own time. Input, output, cache read and cache write
tokens are priced separately (``genai-prices`` counts input tokens with the cached ones, so
they are added back here: :class:`~messages.usage.Usage` counts input without them).
"""

from __future__ import annotations

from datetime import UTC
from datetime import datetime
from functools import cache
from typing import Any

from ._engine import Tokens

__all__ = ["available", "estimate"]


@cache
def _module() -> Any:
    try:
        import genai_prices
    except ImportError:
        return None
    return genai_prices


def available() -> bool:
    """Whether ``genai-prices`` is installed (``pip install 'llm-messages[prices]'``)."""
    return _module() is not None


@cache
def _price(model: str, when: float | None, counts: tuple[int, int, int, int]) -> float | None:
    prices = _module()
    fresh, cache_read, cache_write, output = counts
    usage = prices.Usage(
        input_tokens=fresh + cache_read + cache_write,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        output_tokens=output,
    )
    at = None if when is None else datetime.fromtimestamp(when, UTC)
    try:
        found = prices.calc_price(usage, model, genai_request_timestamp=at)
    except LookupError:  # a model the table does not know
        return None
    return float(found.total_price)


def estimate(model: str | None, when: float | None, tokens: Tokens) -> float | None:
    """The price in US dollars of ``tokens`` on ``model`` at ``when`` (seconds, UTC).

    ``None`` when the model is not named or not in the table, when no token figure is known,
    or when ``genai-prices`` is not installed. Unknown figures count as zero tokens.
    """
    if not model or not tokens.reported() or _module() is None:
        return None
    counts = (
        tokens.input or 0,
        tokens.cache_read or 0,
        tokens.cache_write or 0,
        (tokens.output or 0),
    )
    return _price(model, when, counts)
