"""Estimated cost from the ``genai-prices`` package (the ``prices`` extra), when installed.

The package keeps a maintained table of prices per provider and model, with the dates prices
changed; each message is priced at its own time, on its own (a long-context price tier is
decided per request). Input, output, cache read and cache write tokens are priced separately
(``genai-prices`` counts input tokens with the cached ones, so they are added back here:
:class:`~messages.usage.Usage` counts input without them), and so are the further counts a
log reports (one-hour cache writes, web searches, audio tokens: :class:`Tokens` ``more``)
and how the request was served (fast mode, batch, flex or priority tier).

A model the table does not know under its own name is looked up under its documented
aliases (a ``provider/`` prefix, a Bedrock or Vertex spelling, a ``[1m]`` context tag); a
model still unknown has no estimate (``None``), never a price of zero.
"""

from __future__ import annotations

import re
from datetime import UTC
from datetime import datetime
from functools import cache
from typing import Any
from typing import Final

from ._engine import Tokens

__all__ = ["aliases", "available", "estimate", "version"]


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


def version() -> str | None:
    """The installed ``genai-prices`` version (its price data), or ``None``."""
    prices = _module()
    if prices is None:
        return None
    return str(getattr(prices, "__version__", None) or "unknown")


_PROVIDERS: Final = frozenset(
    ("anthropic", "openai", "google", "google-vertex", "gemini", "vertex_ai", "bedrock")
)
_BEDROCK: Final = re.compile(
    r"^(?:(?:us|eu|apac|global|jp|au)\.)?anthropic\.(.+?)(?:-v\d+(?::\d+)?)?$"
)
_VERTEX: Final = re.compile(r"^(claude-.+?)@\d{8}$")
_CONTEXT_TAG: Final = re.compile(r"\[[^\]]*\]$")


def aliases(model: str) -> list[str]:
    """The names a model is looked up under, its own first.

    Date suffixes and ``-latest`` are resolved by ``genai-prices`` itself; this adds what it
    does not: a ``[1m]`` context tag (Claude Code), a routing prefix (``anthropic/``,
    ``openrouter/anthropic/``), a Bedrock spelling (``us.anthropic.claude-...-v1:0``) and a
    Vertex one (``claude-...@20250929``).

    >>> aliases("openrouter/anthropic/claude-sonnet-4-5")
    ['openrouter/anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5']
    >>> aliases("us.anthropic.claude-opus-4-6-v1:0")
    ['us.anthropic.claude-opus-4-6-v1:0', 'claude-opus-4-6']
    """
    found = [model]

    def add(name: str) -> None:
        if name and name not in found:
            found.append(name)

    name = _CONTEXT_TAG.sub("", model).strip()
    add(name)
    while "/" in name:
        name = name.split("/", 1)[1]
        add(name)
    bedrock = _BEDROCK.match(name)
    if bedrock:
        add(bedrock.group(1))
    vertex = _VERTEX.match(name)
    if vertex:
        add(vertex.group(1))
    return found


_Counts = tuple[int, int, int, int, tuple[tuple[str, int], ...]]


@cache
def _price(
    model: str, when: float | None, counts: _Counts, context: tuple[tuple[str, str], ...]
) -> float | None:
    prices = _module()
    fresh, cache_read, cache_write, output, more = counts
    fields = dict(more)
    long = fields.pop("cache_write_1h_tokens", None)
    if long is not None:  # the table wants both parts beside their sum
        long = min(long, cache_write)
        fields["cache_write_1h_tokens"] = long
        fields["cache_write_5m_tokens"] = cache_write - long
    fields.pop("web_fetches", None)  # reported, but not a priced unit of the table
    usage = prices.Usage(
        input_tokens=fresh + cache_read + cache_write,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        output_tokens=output,
        **fields,
    )
    at = None if when is None else datetime.fromtimestamp(when, UTC)
    for name in aliases(model):
        try:
            found = prices.calc_price(
                usage, name, genai_request_timestamp=at, price_context=dict(context) or None
            )
        except LookupError:  # a name the table does not know
            continue
        return float(found.total_price)
    return None


def estimate(
    model: str | None,
    when: float | None,
    tokens: Tokens,
    context: tuple[tuple[str, str], ...] = (),
) -> float | None:
    """The price in US dollars of ``tokens`` on ``model`` at ``when`` (seconds, UTC).

    ``context`` says how the request was served (see :func:`~messages.stats.price_context`).
    ``None`` when the model is not named or not in the table (under any of its
    :func:`aliases`), when no token figure is known, or when ``genai-prices`` is not
    installed. Unknown figures count as zero tokens.
    """
    if not model or not tokens.reported() or _module() is None:
        return None
    counts = (
        tokens.input or 0,
        tokens.cache_read or 0,
        tokens.cache_write or 0,
        (tokens.output or 0),
        tuple(sorted((tokens.more or {}).items())),
    )
    return _price(model, when, counts, context)
