"""What one OpenTelemetry record of the Copilot CLI's file exporter says about a model call.

The exporter writes one JSON object per line: spans (``"type": "span"``, or a record with a
``name`` and span ids or times), log records (``hrTime``, ``body``) and metrics. A record that
reports tokens carries them in ``attributes`` under the GenAI semantic conventions
(``gen_ai.usage.input_tokens`` and so on). Four kinds report a model call, from the most to the
least direct: a ``chat`` span, a ``gen_ai.client.inference.operation.details`` log, a
``copilot_chat.agent.turn`` log, and an ``invoke_agent`` span (which sums its calls). Every
read of a record's fields is in this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from typing import Final
from typing import Literal

from ..._core.wire import millis_text

__all__ = [
    "Call",
    "MODEL_ATTRS",
    "SESSION_ATTRS",
    "Source",
    "call_of",
    "is_record",
    "trace_context",
]

Source = Literal["chat", "inference", "agent_turn", "agent_summary"]

MODEL_ATTRS: Final = ("gen_ai.response.model", "gen_ai.request.model")
"""The attributes that name the model, first found wins."""
SESSION_ATTRS: Final = (
    ("gen_ai.conversation.id", 3),
    ("copilot_chat.session_id", 3),
    ("copilot_chat.chat_session_id", 3),
    ("session.id", 3),
    ("github.copilot.interaction_id", 2),
    ("gen_ai.response.id", 1),
)
"""The attributes that name the session, with how much each is trusted."""


@dataclass(frozen=True, slots=True)
class Call:
    """The usage one record reports, and what tells it apart from the others."""

    source: Source
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int
    model: str | None
    session: str | None
    trace: str | None
    response: str | None
    key: str
    timestamp: str | None


def _text(value: Any) -> str | None:
    if type(value) is not str:
        return None
    value = value.strip()
    return value or None


def _count(value: Any) -> int | None:
    if type(value) is int:
        return value if value >= 0 else None
    if type(value) is float and value.is_integer() and value >= 0:
        return int(value)
    if type(value) is str and value.strip().isdigit():
        return int(value.strip())
    return None


def _attr_count(attrs: Mapping[str, Any], *keys: str) -> int:
    for key in keys:
        found = _count(attrs.get(key)) or 0
        if found:
            return found
    return 0


def _attr_text(attrs: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        found = _text(attrs.get(key))
        if found is not None:
            return found
    return None


def best_session(attrs: Mapping[str, Any]) -> tuple[str, int] | None:
    """The most trusted session id among the attributes, and its trust."""
    best: tuple[str, int] | None = None
    for key, rank in SESSION_ATTRS:
        found = _text(attrs.get(key))
        if found is not None and (best is None or rank > best[1]):
            best = (found, rank)
    return best


def _nested(record: Mapping[str, Any], key: str) -> str | None:
    found = _text(record.get(key))
    if found is None:
        context = record.get("spanContext")
        if isinstance(context, Mapping):
            found = _text(context.get(key))
    return found


def trace_id(record: Mapping[str, Any]) -> str | None:
    """The record's ``traceId`` (or its ``spanContext``'s)."""
    return _nested(record, "traceId")


def span_id(record: Mapping[str, Any]) -> str | None:
    """The record's ``spanId`` (or its ``spanContext``'s)."""
    return _nested(record, "spanId")


def attributes(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The record's ``attributes`` object."""
    found = record.get("attributes")
    return found if isinstance(found, Mapping) else None


def is_span(record: Mapping[str, Any]) -> bool:
    """A span: ``"type": "span"``, or (untyped) a ``name`` with span ids or times."""
    kind = record.get("type")
    if type(kind) is str:
        return kind == "span"
    if _text(record.get("name")) is None:
        return False
    return (
        _text(record.get("spanId")) is not None
        or _text(record.get("traceId")) is not None
        or any(k in record for k in ("startTime", "endTime", "duration", "kind"))
    )


def is_record(obj: Any) -> bool:
    """Whether a parsed line is an exporter record: a span, a log record or a metric."""
    if type(obj) is not dict:
        return False
    kind = obj.get("type")
    if kind in ("span", "metric", "log"):
        return "name" in obj or "attributes" in obj or "traceId" in obj or "spanContext" in obj
    if kind is not None:
        return False
    attrs = obj.get("attributes")
    if not isinstance(attrs, dict):
        return False
    if any(type(k) is str and k.startswith(("gen_ai.", "copilot_chat.")) for k in attrs):
        return True
    return any(k in obj for k in ("hrTime", "_hrTime", "spanContext", "traceId", "spanId"))


def _source(record: Mapping[str, Any], attrs: Mapping[str, Any]) -> Source | None:
    operation = _text(attrs.get("gen_ai.operation.name"))
    name = _text(record.get("name")) or ""
    event = _text(attrs.get("event.name"))
    body = _text(record.get("body")) or _text(record.get("_body")) or ""
    if is_span(record):
        if operation == "chat" or name.startswith("chat "):
            return "chat"
        if operation == "invoke_agent" or name.startswith("invoke_agent "):
            return "agent_summary"
        return None
    if event == "gen_ai.client.inference.operation.details" or body.startswith("GenAI inference:"):
        return "inference"
    if event == "copilot_chat.agent.turn" or body.startswith("copilot_chat.agent.turn"):
        return "agent_turn"
    return None


def _millis(record: Mapping[str, Any]) -> int | None:
    for key in ("endTime", "startTime", "hrTime", "_hrTime", "time"):
        parts = record.get(key)
        if isinstance(parts, list | tuple) and len(parts) >= 2:
            seconds, nanos = _count(parts[0]), _count(parts[1])
            if seconds is not None and nanos is not None:
                return seconds * 1000 + nanos // 1_000_000
    for key in ("timestamp", "observedTimestamp"):
        raw = _count(record.get(key))
        if raw is not None:
            if raw >= 10**20:
                return raw // 1_000_000
            if raw >= 10**17:
                return raw // 1_000
            if raw >= 10**14:
                return raw
            return raw * 1000
    raw = _count(record.get("timeUnixNano"))
    if raw:
        return raw // 1_000_000
    return None


def _iso(millis: int | None) -> str | None:
    return None if millis is None else millis_text(millis)


def trace_context(record: Mapping[str, Any]) -> tuple[str | None, str | None, int]:
    """The model and the best session id a record names, for its trace's other records."""
    attrs = attributes(record) or {}
    best = best_session(attrs)
    return _attr_text(attrs, MODEL_ATTRS), None if best is None else best[0], (best or ("", 0))[1]


def call_of(record: Mapping[str, Any], index: int) -> Call | None:
    """The model call a record reports (``None``: it reports none, or no tokens).

    The input count of the GenAI conventions includes cached tokens: the uncached part is
    the count less the cache reads. A record with only a total gives it as output.
    """
    attrs = attributes(record)
    if attrs is None:
        return None
    source = _source(record, attrs)
    if source is None:
        return None
    given = _attr_count(attrs, "gen_ai.usage.input_tokens")
    output = _attr_count(attrs, "gen_ai.usage.output_tokens")
    read = _attr_count(attrs, "gen_ai.usage.cache_read.input_tokens")
    write = _attr_count(
        attrs, "gen_ai.usage.cache_write.input_tokens", "gen_ai.usage.cache_creation.input_tokens"
    )
    reasoning = _attr_count(
        attrs, "gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.reasoning_tokens"
    )
    total = _attr_count(attrs, "gen_ai.usage.total_tokens", "gen_ai.usage.total.token_count")
    uncached = given - min(given, read)
    if uncached + output + read + write == 0 and reasoning == 0 and total:
        output = total
    if uncached + output + read + write + reasoning == 0:
        return None
    trace, span = trace_id(record), span_id(record)
    best = best_session(attrs)
    millis = _millis(record)
    if source in ("chat", "agent_summary"):
        key = f"{trace}:{span}" if trace and span else f"span:{index}"
    elif source == "inference":
        key = f"log:{trace}:{span}" if trace and span else f"log:{index}"
    else:
        turn = _count(attrs.get("turn.index"))
        if turn is None:
            turn = _count(attrs.get("copilot_chat.turn.index"))
        shown = f"idx-{index}" if turn is None else str(turn)
        key = f"agent-turn:{trace}:{shown}" if trace else f"agent-turn:{shown}:{index}"
    return Call(
        source,
        uncached,
        output,
        read,
        write,
        reasoning,
        _attr_text(attrs, MODEL_ATTRS),
        None if best is None else best[0],
        trace,
        _text(attrs.get("gen_ai.response.id")),
        key,
        _iso(millis),
    )
