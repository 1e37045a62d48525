"""What a response reports: its token usage and cost, and why the model stopped.

``Usage`` is one value that adds; ``StopReason`` is one enum across providers, and the raw
value is always kept.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import Final
from typing import TypeVar
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_map
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue
from ._core.frozen import raw

__all__ = ["StopReason", "Usage", "classify_stop_reason"]


N = TypeVar("N", int, float)


def _add(a: N | None, b: N | None) -> N | None:
    """A sum where ``None`` means "not reported": it adds nothing, and two give ``None``."""
    if a is None:
        return b
    if b is None:
        return a
    return a + b


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Usage:
    """Tokens used by one call (or a sum of calls), and its cost when known.

    ``None`` means "not reported", which is not the same as zero; adding treats it as
    absent, so a sum is ``None`` only where no part reported the figure.

    >>> Usage(10, 5) + Usage(3, 1, cost_usd=0.25)
    Usage(input_tokens=13, output_tokens=6, cost_usd=0.25)
    """

    input_tokens: int | None = None
    """Uncached input tokens (Anthropic ``input_tokens``, OpenAI ``prompt_tokens`` less cached,
    Gemini ``promptTokenCount``)."""
    output_tokens: int | None = None
    """Generated tokens (OpenAI ``completion_tokens``, Gemini ``candidatesTokenCount``)."""
    cache_read_tokens: int | None = None
    """Input tokens served from the prompt cache (``cache_read_input_tokens``, ``cached``)."""
    cache_write_tokens: int | None = None
    """Input tokens written to the prompt cache (``cache_creation_input_tokens``)."""
    _: KW_ONLY
    reasoning_tokens: int | None = None
    """Output tokens spent on reasoning, where reported separately."""
    cost_usd: float | None = None
    """Cost in US dollars, where the source reports it."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``service_tier``...). Not carried by ``+``."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")

    __repr__ = compact_repr

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            _add(self.input_tokens, other.input_tokens),
            _add(self.output_tokens, other.output_tokens),
            _add(self.cache_read_tokens, other.cache_read_tokens),
            _add(self.cache_write_tokens, other.cache_write_tokens),
            reasoning_tokens=_add(self.reasoning_tokens, other.reasoning_tokens),
            cost_usd=_add(self.cost_usd, other.cost_usd),
        )

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # lets sum() start from its default 0
            return self.__add__(Usage())
        return NotImplemented

    @property
    def cache_write_1h_tokens(self) -> int | None:
        """Of :attr:`cache_write_tokens`, those written with a one-hour lifetime.

        Read from what the source reports and ``extra`` keeps: Anthropic's (and Claude
        Code's) ``cache_creation.ephemeral_1h_input_tokens``, LangChain's
        ``input_token_details.ephemeral_1h_input_tokens``. A one-hour write is priced
        higher than a five-minute one. ``None`` when the source does not split its writes.

        >>> u = Usage(3, 9, 0, 500, extra={"cache_creation": {
        ...     "ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 400}})
        >>> u.cache_write_1h_tokens, u.cache_write_5m_tokens
        (400, 100)
        """
        return _split_count(self.extra, "ephemeral_1h_input_tokens")

    @property
    def cache_write_5m_tokens(self) -> int | None:
        """Of :attr:`cache_write_tokens`, those written with the five-minute lifetime.

        What the source reports (``ephemeral_5m_input_tokens``), else the writes that are not
        one-hour writes; ``None`` when the source does not split its writes.
        """
        found = _split_count(self.extra, "ephemeral_5m_input_tokens")
        if found is not None:
            return found
        long = self.cache_write_1h_tokens
        if long is None or self.cache_write_tokens is None:
            return None
        return max(self.cache_write_tokens - long, 0)

    @property
    def total_input_tokens(self) -> int:
        """All input tokens: uncached plus cache reads plus cache writes (missing counts 0)."""
        return (
            (self.input_tokens or 0)
            + (self.cache_read_tokens or 0)
            + (self.cache_write_tokens or 0)
        )

    @property
    def total_tokens(self) -> int:
        """All input tokens plus output tokens (missing counts as 0)."""
        return self.total_input_tokens + (self.output_tokens or 0)

    @staticmethod
    def sum(usages: Iterable[Usage | None]) -> Usage:
        """Add up usages, skipping ``None``: ``Usage.sum(m.usage for m in stream)``."""
        total = Usage()
        for usage in usages:
            if usage is not None:
                total = total + usage
        return total


_SPLIT_HOMES: Final = ("cache_creation", "input_token_details")
"""Where sources report the split of cache writes by lifetime (Anthropic, LangChain)."""


def _split_count(extra: Mapping[str, JsonValue], key: str) -> int | None:
    plain = raw(extra)  # read only: the stored values, none wrapped on the way out
    for home in _SPLIT_HOMES:
        inner = plain.get(home)
        if isinstance(inner, Mapping):
            value = inner.get(key)
            if type(value) is int and value >= 0:
                return value
    return None


class StopReason(enum.StrEnum):
    """Why generation stopped, normalised across providers.

    >>> classify_stop_reason("tool_calls")
    <StopReason.TOOL_USE: 'tool_use'>
    """

    END_TURN = "end_turn"
    """The model finished its answer (Anthropic ``end_turn``, OpenAI ``stop``, Gemini ``STOP``)."""
    MAX_TOKENS = "max_tokens"
    """The output token limit was hit (``max_tokens``, ``length``, ``MAX_TOKENS``)."""
    STOP_SEQUENCE = "stop_sequence"
    """A caller-given stop sequence was generated."""
    TOOL_USE = "tool_use"
    """The model wants tools run (``tool_use``, ``tool_calls``, ``function_call``)."""
    PAUSE = "pause"
    """A long server-side turn was paused and may be continued (Anthropic ``pause_turn``)."""
    REFUSAL = "refusal"
    """Declined or filtered (``refusal``, ``content_filter``, ``SAFETY``, ``RECITATION``...)."""
    CONTEXT_EXCEEDED = "context_exceeded"
    """The context window was full (``model_context_window_exceeded``)."""
    ERROR = "error"
    """The provider reports a failure (``failed``, ``MALFORMED_FUNCTION_CALL``...)."""
    OTHER = "other"
    """A value this library does not know; the raw value says what it was."""


_TABLE: Final[dict[str, StopReason]] = {
    "end_turn": StopReason.END_TURN,
    "stop": StopReason.END_TURN,
    "completed": StopReason.END_TURN,
    "STOP": StopReason.END_TURN,
    "FINISH_REASON_STOP": StopReason.END_TURN,
    "max_tokens": StopReason.MAX_TOKENS,
    "length": StopReason.MAX_TOKENS,
    "max_output_tokens": StopReason.MAX_TOKENS,
    "MAX_TOKENS": StopReason.MAX_TOKENS,
    "incomplete": StopReason.MAX_TOKENS,
    "stop_sequence": StopReason.STOP_SEQUENCE,
    "tool_use": StopReason.TOOL_USE,
    "tool_calls": StopReason.TOOL_USE,
    "function_call": StopReason.TOOL_USE,
    "tool_call": StopReason.TOOL_USE,
    "pause_turn": StopReason.PAUSE,
    "refusal": StopReason.REFUSAL,
    "content_filter": StopReason.REFUSAL,
    "SAFETY": StopReason.REFUSAL,
    "RECITATION": StopReason.REFUSAL,
    "BLOCKLIST": StopReason.REFUSAL,
    "PROHIBITED_CONTENT": StopReason.REFUSAL,
    "SPII": StopReason.REFUSAL,
    "IMAGE_SAFETY": StopReason.REFUSAL,
    "LANGUAGE": StopReason.REFUSAL,
    "model_context_window_exceeded": StopReason.CONTEXT_EXCEEDED,
    "failed": StopReason.ERROR,
    "MALFORMED_FUNCTION_CALL": StopReason.ERROR,
    "UNEXPECTED_TOOL_CALL": StopReason.ERROR,
    "guardrail_intervened": StopReason.REFUSAL,
    "content_filtered": StopReason.REFUSAL,
    "malformed_model_output": StopReason.ERROR,
    "malformed_tool_use": StopReason.ERROR,
    "error": StopReason.ERROR,
}


def classify_stop_reason(raw: str | None) -> StopReason | None:
    """The normalised reason for a provider's raw stop value; ``None`` for ``None``.

    >>> classify_stop_reason("MAX_TOKENS"), classify_stop_reason("something_new")
    (<StopReason.MAX_TOKENS: 'max_tokens'>, <StopReason.OTHER: 'other'>)
    """
    if raw is None:
        return None
    return _TABLE.get(raw, StopReason.OTHER)
