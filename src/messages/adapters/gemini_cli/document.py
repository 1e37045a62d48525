"""Gemini CLI ``--output-format json``: the whole run as ONE JSON object (private half).

``gemini -p PROMPT --output-format json`` writes, when the run ends, one object (usually
pretty-printed over many lines; the stream reader joins them, see
:func:`messages.adapters._base.gather`)::

    {"session_id": ..., "response": "the final answer",
     "stats": {"models": {"<model>": {"api": {...}, "tokens": {...}}},
               "tools": {"totalCalls": ..., "byName": {"<tool>": {"count": ..., ...}}},
               "files": {...}},
     "error": {"type": ..., "message": ...}}

It has no per-turn events. The stream reader gives its *parts*, each a message of its own
(:func:`decode_parts`):

- ``response`` -> :class:`TextMessage` (assistant): the final answer;
- each ``stats.models.<name>`` -> :class:`ResultMessage` for that model: ``model``, ``usage``
  (``prompt`` less ``cached`` as input, ``candidates`` plus ``thoughts`` as output,
  ``cached`` as cache reads, ``thoughts`` as reasoning; ``total``, ``tool`` and the rest in
  ``usage.extra``), ``api.totalRequests`` as ``num_turns`` (one request, one model
  response), ``api.totalLatencyMs`` as ``duration_api_ms``;
- ``error`` -> :class:`ErrorMessage` (``type`` as ``code``);
- last, the run itself -> :class:`ResultMessage` (``session_id``; ``is_error`` and ``model``,
  the first model named, are read-only views) keeping every other key (``stats.tools``,
  ``stats.files``, unknown keys) in ``extra``. :func:`tool_counts` reads its per-tool calls.

Every part carries ``session_id`` and marks, in ``extra["document"]``, which part it is (and
the keys of that part it does not model); :func:`encode_parts` puts the object back together,
JSON-equal. A lone ``decode`` of the object gives :func:`decode_whole`: one ResultMessage
with the answer as ``result`` and everything else in ``extra``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.make import wrap_owned
from ..._core.wire import opt_int
from ..._core.wire import opt_num
from ..._core.wire import opt_str
from ..._core.wire import present
from ..._core.wire import rest
from ..._shapes import gemini_counts
from ...events.run import ErrorMessage
from ...events.run import ResultMessage
from ...flat import TextMessage
from ...message import Message
from ...usage import Usage
from .. import _events as ev

__all__ = [
    "KEY",
    "decode_parts",
    "decode_whole",
    "encode_parts",
    "is_document",
    "part_of",
    "tool_counts",
]

KEY: Final = "document"
"""The ``extra`` key that marks a message as a part of a JSON document (and names the part)."""

_TOP: Final = frozenset(("session_id", "response"))
_API: Final = frozenset(("totalRequests", "totalLatencyMs"))
_TOKEN_KEYS: Final = ("prompt", "candidates", "cached", "thoughts")
_TOKENS: Final = frozenset(_TOKEN_KEYS)
_ERROR: Final = frozenset(("type", "message"))
_PARTS: Final = frozenset(("whole", "response", "model", "error", "run"))
_OTHER_FORMATS: Final = ("type", "jsonrpc", "method", "v")


def is_document(obj: Any) -> bool:
    """Whether a parsed value is a Gemini CLI JSON document (never raises).

    An object without the keys every line-oriented format has (``type``, JSON-RPC's
    ``jsonrpc``/``method``, native ``v``) whose ``response`` is a string or whose ``stats``
    is an object.
    """
    if type(obj) is not dict or any(k in obj for k in _OTHER_FORMATS):
        return False
    return type(obj.get("response")) is str or type(obj.get("stats")) is dict


def _mark(part: str, mirror: dict[str, Any] | None) -> FrozenDict:
    return wrap_owned({KEY: {part: mirror or {}}})


def part_of(m: Message) -> tuple[str, dict[str, Any]] | None:
    """Which part of a document ``m`` is, and the part's kept keys; ``None`` if it is none."""
    mark = m.extra.get(KEY) if m.extra else None
    if not isinstance(mark, FrozenDict) or len(mark) != 1:
        return None
    ((part, mirror),) = mark.items()
    if part not in _PARTS or not isinstance(mirror, FrozenDict):
        return None
    kept: dict[str, Any] = thaw(mirror)
    return part, kept


def _first_model(d: dict[str, Any]) -> str | None:
    stats = d.get("stats")
    models = stats.get("models") if type(stats) is dict else None
    if type(models) is dict:
        for name in models:
            return str(name)
    return None


def decode_whole(d: dict[str, Any]) -> ResultMessage:
    """A document as one message: the answer as ``result``, every other key in ``extra``.

    What the stream reader gives instead is :func:`decode_parts`; this is the value a lone
    ``decode`` returns, and :func:`encode_parts` writes it back.
    """
    decode_parts(d)  # the same checks, so decode and the stream reader fail alike
    error = d.get("error")
    return ResultMessage(
        result=opt_str(d, "response"),
        is_error=type(error) is dict,
        session_id=opt_str(d, "session_id"),
        model=_first_model(d),
        extra=_mark("whole", rest(d, _TOP)),
    )


def _usage(tokens: dict[str, Any], at: str) -> Usage:
    prompt, candidates, cached, thoughts = (opt_int(tokens, k, at) for k in _TOKEN_KEYS)
    return gemini_counts.usage_of(
        prompt, candidates, cached, thoughts, ev.frozen(rest(tokens, _TOKENS))
    )


def _model(name: str, entry: dict[str, Any], context: dict[str, Any]) -> ResultMessage:
    at = f"$.stats.models[{name!r}]"
    mirror = rest(entry, ("api", "tokens"))
    requests = latency = None
    api = entry.get("api")
    if type(api) is dict:
        requests = opt_int(api, "totalRequests", at + ".api")
        latency = opt_num(api, "totalLatencyMs", at + ".api")
        api_rest = rest(api, _API)
        if api_rest or (requests is None and latency is None):
            mirror["api"] = api_rest
    elif "api" in entry:
        mirror["api"] = api
    usage = None
    tokens = entry.get("tokens")
    if type(tokens) is dict:
        usage = _usage(tokens, at + ".tokens")
        if not tokens.keys() - rest(tokens, _TOKENS).keys():  # nothing modelled: {} and such
            mirror["tokens"] = rest(tokens, _TOKENS)
            usage = None
    elif "tokens" in entry:
        mirror["tokens"] = tokens
    return ResultMessage(
        num_turns=requests,
        duration_api_ms=latency,
        usage=usage,
        model=name,
        extra=_mark("model", mirror),
        **context,
    )


def decode_parts(d: dict[str, Any]) -> tuple[Message, ...]:
    """A document as its parts: answer, one result per model, error, then the run."""
    session = opt_str(d, "session_id")
    response = opt_str(d, "response")
    first = _first_model(d)
    context: dict[str, Any] = {"session_id": session}
    parts: list[Message] = []
    run = rest(d, _TOP)
    if response is not None:
        answer = _mark("response", None)
        parts.append(TextMessage(response, model=first, extra=answer, **context))
    stats = d.get("stats")
    models = stats.get("models") if type(stats) is dict else None
    if type(models) is dict:
        kept = {}
        for name, entry in models.items():
            if type(entry) is dict:
                parts.append(_model(name, entry, context))
            else:
                kept[name] = entry
        run["stats"] = {k: v for k, v in stats.items() if k != "models"}  # type: ignore[union-attr]
        if kept or not models:
            run["stats"]["models"] = kept
    error = d.get("error")
    if type(error) is dict and type(error.get("message")) is str:  # else it stays in the run
        code = error.get("type")
        mirror = rest(error, _ERROR)
        if code is not None and type(code) is not str:
            mirror["type"] = code
            code = None
        parts.append(
            ErrorMessage(error["message"], code=code, extra=_mark("error", mirror), **context)
        )
        del run["error"]
    parts.append(
        ResultMessage(is_error=type(error) is dict, model=first, extra=_mark("run", run), **context)
    )
    return tuple(parts)


def _tokens(u: Usage) -> dict[str, Any]:
    return ev.overlay(gemini_counts.counts_of(u, _TOKEN_KEYS), u.extra)


def _model_out(m: ResultMessage, mirror: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    api = present(totalRequests=m.num_turns, totalLatencyMs=m.duration_api_ms)
    if api:
        out["api"] = api
    if m.usage is not None:
        out["tokens"] = _tokens(m.usage)
    return ev.overlay(out, mirror)


def encode_parts(parts: Iterable[Message]) -> dict[str, Any]:
    """Document parts (or a whole one, see :func:`decode_whole`) back into one object."""
    out: dict[str, Any] = {}
    models: dict[str, Any] = {}
    tail: dict[str, Any] = {}
    for m in parts:
        found = part_of(m)
        if found is None:
            continue
        part, mirror = found
        if m.session_id is not None:
            out["session_id"] = m.session_id
        if part == "response" and isinstance(m, TextMessage):
            out["response"] = m.text
        elif part == "whole" and isinstance(m, ResultMessage):
            if m.result is not None:
                out["response"] = m.result
            ev.overlay(tail, mirror)
        elif part == "model" and isinstance(m, ResultMessage) and m.model is not None:
            models[m.model] = _model_out(m, mirror)
        elif part == "error" and isinstance(m, ErrorMessage):
            error: dict[str, Any] = {}
            if m.code is not None:
                error["type"] = m.code
            error["message"] = m.message
            tail["error"] = ev.overlay(error, mirror)
        elif part == "run":
            ev.overlay(tail, mirror)
    if models:
        stats = tail.setdefault("stats", {})
        stats["models"] = {**models, **(stats.get("models") or {})}
    return ev.overlay(out, tail)


def tool_counts(m: Message) -> dict[str, tuple[int, int]] | None:
    """The calls and failures per tool that a document's run reports, or ``None``.

    ``stats.tools.byName.<tool>.count`` and ``.fail`` (absent or not a number: 0).
    """
    found = part_of(m)
    if found is None or found[0] not in ("run", "whole"):
        return None
    stats = found[1].get("stats")
    tools = stats.get("tools") if type(stats) is dict else None
    by_name = tools.get("byName") if type(tools) is dict else None
    if type(by_name) is not dict:
        return None
    out = {}
    for name, entry in by_name.items():
        if type(entry) is not dict:
            continue
        count, failed = entry.get("count"), entry.get("fail")
        out[name] = (
            count if type(count) is int else 0,
            failed if type(failed) is int else 0,
        )
    return out
