"""Gemini's token-counting rule, in one place for the Gemini provider and the Gemini CLI.

Gemini counts the prompt *including* cached tokens and the candidates *excluding* thoughts;
:class:`~messages.Usage` counts input without the cache reads and output with the
reasoning (as Anthropic and OpenAI do). The API (``promptTokenCount``...) and the CLI's
``--output-format json`` (``prompt``...) spell the four counts differently; the rule is the
same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..usage import Usage

__all__ = ["counts_of", "usage_of"]


def usage_of(
    prompt: int | None,
    candidates: int | None,
    cached: int | None,
    thoughts: int | None,
    extra: Mapping[str, Any],
) -> Usage:
    """A Usage from Gemini's four counts (``None`` where not reported) and the other keys."""
    return Usage(
        None if prompt is None else prompt - (cached or 0),
        None if candidates is None else candidates + (thoughts or 0),
        cached,
        reasoning_tokens=thoughts,
        extra=extra,
    )


def counts_of(usage: Usage, names: tuple[str, str, str, str]) -> dict[str, Any]:
    """The inverse of :func:`usage_of`: the counts that are set, under ``names``.

    ``names`` spells prompt, candidates, cached and thoughts, in that order.
    """
    prompt, candidates, cached, thoughts = names
    out: dict[str, Any] = {}
    if usage.input_tokens is not None:
        out[prompt] = usage.input_tokens + (usage.cache_read_tokens or 0)
    if usage.output_tokens is not None:
        out[candidates] = usage.output_tokens - (usage.reasoning_tokens or 0)
    if usage.cache_read_tokens is not None:
        out[cached] = usage.cache_read_tokens
    if usage.reasoning_tokens is not None:
        out[thoughts] = usage.reasoning_tokens
    return out
