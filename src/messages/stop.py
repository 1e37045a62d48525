"""One enum for why a model stopped, across providers; the raw value is always kept."""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["StopReason", "classify_stop_reason"]


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
}


def classify_stop_reason(raw: str | None) -> StopReason | None:
    """The normalised reason for a provider's raw stop value; ``None`` for ``None``.

    >>> classify_stop_reason("MAX_TOKENS"), classify_stop_reason("something_new")
    (<StopReason.MAX_TOKENS: 'max_tokens'>, <StopReason.OTHER: 'other'>)
    """
    if raw is None:
        return None
    return _TABLE.get(raw, StopReason.OTHER)
