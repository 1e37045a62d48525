"""What one Codebuff chat message says about its model call: its tokens and model.

A Codebuff assistant message (``variant`` ``ai`` or ``agent``, or ``role`` ``assistant``)
reports its usage in ``metadata.usage``, else ``metadata.codebuff.usage``, else in the
provider options of the assistant entries of ``metadata.runState``'s main agent history (the
newest first); each count is taken from the first place that gives it. The key names vary
(``inputTokens``, ``input_tokens``, ``promptTokens``, ``prompt_tokens``...); a usage with only a
total gives it as output. Every read of a message's fields is in this module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import Final

__all__ = ["Counts", "counts_of", "is_reply"]

_INPUT: Final = ("inputTokens", "input_tokens", "promptTokens", "prompt_tokens")
_OUTPUT: Final = ("outputTokens", "output_tokens", "completionTokens", "completion_tokens")
_READ: Final = ("cacheReadInputTokens", "cache_read_input_tokens")
_WRITE: Final = (
    "cacheCreationInputTokens",
    "cache_creation_input_tokens",
    "cacheCreationTokens",
    "cache_creation_tokens",
    "cachedTokensCreated",
    "cached_tokens_created",
)
_TOTAL: Final = ("totalTokens", "total_tokens", "total")


@dataclass(frozen=True, slots=True)
class Counts:
    """A reply's token counts, credits and model."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    extra: int = 0
    credits: float = 0.0
    model: str | None = None

    def signal(self) -> bool:
        """Whether anything was counted."""
        return (
            bool(self.input or self.output or self.cache_read or self.cache_write or self.extra)
            or self.credits > 0
        )

    def fill(self, other: Counts) -> Counts:
        """These counts, each missing one taken from ``other``."""
        return Counts(
            self.input or other.input,
            self.output or other.output,
            self.cache_read or other.cache_read,
            self.cache_write or other.cache_write,
            self.extra or other.extra,
            self.credits if self.credits > 0 else other.credits,
            self.model if self.model is not None else other.model,
        )


def _obj(d: Any, key: str) -> Mapping[str, Any] | None:
    value = d.get(key) if isinstance(d, Mapping) else None
    return value if isinstance(value, Mapping) else None


def _text(d: Mapping[str, Any], key: str) -> str | None:
    value = d.get(key)
    if type(value) is not str or not value.strip():
        return None
    return value.strip()


def _number(d: Mapping[str, Any], key: str) -> float:
    value = d.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number) and number > 0:
            return number
    return 0.0


def _pick(d: Mapping[str, Any], keys: tuple[str, ...]) -> int:
    for key in keys:
        value = d.get(key)
        if type(value) is int and value > 0:
            return value
    return 0


def _parse(value: Any) -> Counts:
    if not isinstance(value, Mapping):
        return Counts()
    read = max(
        _pick(value, _READ),
        _pick(_obj(value, "promptTokensDetails") or {}, ("cachedTokens",)),
        _pick(_obj(value, "prompt_tokens_details") or {}, ("cached_tokens",)),
    )
    counts = Counts(
        _pick(value, _INPUT),
        _pick(value, _OUTPUT),
        read,
        _pick(value, _WRITE),
        0,
        _number(value, "credits"),
        _text(value, "model"),
    )
    total = _pick(value, _TOTAL)
    if total and not (counts.input or counts.output or counts.cache_read or counts.cache_write):
        counts = replace(counts, output=total)
    return counts


def _run_state(metadata: Mapping[str, Any]) -> Counts | None:
    state = _obj(_obj(_obj(metadata, "runState"), "sessionState"), "mainAgentState")
    history = state.get("messageHistory") if state is not None else None
    if not isinstance(history, list):
        return None
    found = False
    counts = Counts()
    for entry in reversed(history):
        if not isinstance(entry, Mapping) or entry.get("role") != "assistant":
            continue
        options = _obj(entry, "providerOptions")
        if options is None:
            continue
        one = _parse(options.get("usage"))
        codebuff = _obj(options, "codebuff")
        if codebuff is not None:
            one = one.fill(_parse(codebuff.get("usage")))
            model = _text(codebuff, "model")
            if model is not None:
                one = replace(one, model=model)
        if one.signal() or one.model is not None:
            found = True
        counts = counts.fill(one)
    return counts if found else None


def is_reply(item: Mapping[str, Any]) -> bool:
    """Whether a chat message is the model's: ``variant`` (else ``role``) ai, agent, assistant."""
    kind = _text(item, "variant") or _text(item, "role")
    return kind in ("ai", "agent", "assistant")


def counts_of(item: Mapping[str, Any]) -> Counts:
    """What a reply counts (all zero when it reports nothing)."""
    counts = Counts()
    metadata = _obj(item, "metadata")
    if metadata is not None:
        counts = replace(counts, model=_text(metadata, "model"))
        counts = counts.fill(_parse(metadata.get("usage")))
        counts = counts.fill(_parse((_obj(metadata, "codebuff") or {}).get("usage")))
        state = _run_state(metadata)
        if state is not None:
            counts = counts.fill(state)
    credits = _number(item, "credits")
    if credits > 0 and counts.credits <= 0:
        counts = replace(counts, credits=credits)
    return counts
