"""Token usage and cost, as one value that adds."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import TypeVar
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_map
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue

__all__ = ["Usage"]


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
