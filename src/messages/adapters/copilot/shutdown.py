"""``session.shutdown``: the per-model totals a Copilot CLI process writes when it exits.

The event's ``data.modelMetrics`` maps each model the process called to
``{"requests": {"count", "cost"}, "usage": {"inputTokens", "outputTokens", "cacheReadTokens",
"cacheWriteTokens", "reasoningTokens"?}}``. It decodes to a :class:`ResultMessage`:
``model_usage`` holds ``modelMetrics`` verbatim (written back as it was), ``usage`` their sum
as a :class:`Usage`, ``model`` the model when there is one, ``subtype`` the
``shutdownType``. The event's other fields stay in ``extra``.

``inputTokens`` counts the whole prompt, cache reads and writes included (the facts ccusage
20.0.24 reads the store by, and what its ``copilot`` report gives): the uncached input is
what is left once both are taken out. Each process writes its own totals, so a resumed
session's file holds one shutdown per process, each counted.

>>> event = {"type": "session.shutdown", "id": "e9", "data": {"shutdownType": "routine",
...          "modelMetrics": {"gpt-5": {"requests": {"count": 2, "cost": 1},
...          "usage": {"inputTokens": 900, "outputTokens": 40, "cacheReadTokens": 600,
...          "cacheWriteTokens": 100}}}}}
>>> m = result(event, event["data"])
>>> m.usage, m.model, m.subtype
(Usage(input_tokens=200, output_tokens=40, cache_read_tokens=600, cache_write_tokens=100), 'gpt-5', 'routine')
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from operator import add
from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...events.run import ResultMessage
from ...message import Message
from ...usage import Usage
from . import turn as ct

__all__ = ["KIND", "event_out", "is_shutdown", "model_usages", "result"]

KIND: Final = "session.shutdown"
"""The event's ``type``."""
_KNOWN: Final = frozenset(("modelMetrics", "shutdownType"))


def _text(obj: Mapping[str, Any], key: str) -> bool:
    """Whether ``key`` is absent or text (anything else keeps the event verbatim)."""
    return key not in obj or type(obj[key]) is str


def _count(usage: Mapping[str, Any], key: str) -> int | None:
    value = usage.get(key)
    return value if type(value) is int and value >= 0 else None


def _usage(usage: Mapping[str, Any]) -> Usage:
    whole = _count(usage, "inputTokens")
    read = _count(usage, "cacheReadTokens")
    write = _count(usage, "cacheWriteTokens")
    fresh = None if whole is None else max(whole - (read or 0) - (write or 0), 0)
    return Usage(
        fresh,
        _count(usage, "outputTokens"),
        read,
        write,
        reasoning_tokens=_count(usage, "reasoningTokens"),
    )


def _per_model(metrics: Any) -> list[tuple[str, Usage]] | None:
    """Each model's usage, or ``None`` when ``metrics`` is not a map of per-model totals."""
    if not isinstance(metrics, Mapping):
        return None
    found = []
    for name, entry in metrics.items():
        usage = entry.get("usage") if isinstance(entry, Mapping) else None
        if not isinstance(usage, Mapping):
            return None
        found.append((name, _usage(usage)))
    return found


def result(d: dict[str, Any], data: dict[str, Any]) -> Message | None:
    """The event as a result with its totals, or ``None`` when it holds no per-model totals."""
    metrics = data.get("modelMetrics")
    models = _per_model(metrics)
    if models is None or not (_text(d, "id") and _text(d, "timestamp")):
        return None
    if not _text(data, "shutdownType"):
        return None
    total = reduce(add, (u for _, u in models), Usage()) if models else None
    return ResultMessage(
        subtype=opt_str(data, "shutdownType", "$.data"),
        usage=total,
        model_usage=metrics,
        model=models[0][0] if len(models) == 1 else None,
        uuid=opt_str(d, "id"),
        timestamp=opt_time(d),
        extra=ct.mirror(d, rest(data, _KNOWN)),
    )


def is_shutdown(m: ResultMessage) -> bool:
    """Whether a result is a ``session.shutdown``: the only Copilot result with per-model totals."""
    return m.model_usage is not None and _per_model(m.model_usage) is not None


def model_usages(m: Message) -> list[tuple[str, Usage]]:
    """A shutdown's usage per model, as :func:`result` typed it (none for any other message)."""
    if not isinstance(m, ResultMessage) or m.model_usage is None:
        return []
    return _per_model(m.model_usage) or []


def event_out(m: ResultMessage) -> dict[str, Any]:
    """The event a shutdown result was read from (its ``extra`` is overlaid by the caller)."""
    data: dict[str, Any] = {}
    if m.subtype is not None:
        data["shutdownType"] = m.subtype
    data["modelMetrics"] = raw(m.model_usage)
    return ct.event_out(KIND, m, data)
