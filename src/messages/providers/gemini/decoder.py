"""Decoding Gemini ``generateContent`` request and response bodies into messages.

Parts are read by :mod:`.parts`; this module reads the contents around them, the
candidates of a response and its usage metadata.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.make import maker
from ..._core.wire import decode_each
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import opt_int
from ..._core.wire import opt_str
from ..._shapes import gemini_counts
from ...blocks import Block
from ...blocks import ToolResultBlock
from ...citations import Citation
from ...errors import DecodeError
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import owned_body
from .._common import with_source
from .._formats import GEMINI as NAME
from .._gemini_names import CallIds
from .._gemini_names import camel
from .parts import decode_part

__all__ = ["CONTENT_KEYS", "MODEL_KEYS", "citations", "decode_request", "decode_response"]

CONTENT_KEYS: Final = frozenset(("parts",))
"""The keys of a user-side content that the role message models."""
MODEL_KEYS: Final = frozenset(("parts", "role"))
"""The keys of a ``model`` content that the assistant message models."""
# Makers: the decoders hand over checked, frozen values only (see _core/make.py).
_new_system: Final = maker(SystemMessage)
_new_user: Final = maker(UserMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_tool: Final = maker(ToolMessage)
_MODELLED: Final = frozenset(
    ("candidates", "usageMetadata", "modelVersion", "responseId", "createTime")
)


def _parts(content: dict[str, Any], ids: CallIds) -> tuple[Block, ...]:
    parts = content.get("parts")
    if type(parts) is not list:
        raise fail("an array", parts, "parts")
    out = []
    for i, part in enumerate(parts):
        try:
            out.append(decode_part(part, ids))
        except DecodeError as exc:
            raise exc.within(f".parts[{i}]") from None
    return tuple(out)


def _content(c: Any, ids: CallIds) -> Message:
    if type(c) is not dict:
        raise fail("an object", c)
    c = camel(c)
    blocks = _parts(c, ids)
    # (``parts`` is an array here and a model's ``role`` a string: no modelled key is null,
    # so ``extra`` keeps exactly the other keys.)
    if c.get("role") == "model":
        ex = EMPTY if len(c) == 2 else extra(c, MODEL_KEYS)
        return _new_assistant(blocks, None, None, None, None, None, None, None, None, None, ex)
    ex = EMPTY if len(c) == 1 else extra(c, CONTENT_KEYS)
    for b in blocks:
        if type(b) is not ToolResultBlock:
            return _new_user(blocks, None, None, None, None, None, None, ex, None, None, None)
    if blocks:
        return _new_tool(blocks, None, None, None, None, None, None, ex)
    return _new_user(blocks, None, None, None, None, None, None, ex, None, None, None)


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body: ``systemInstruction`` and ``contents``.

    A ``user`` content made only of function responses comes back as a :class:`ToolMessage`,
    any other as a :class:`UserMessage`; ``model`` contents as :class:`AssistantMessage` s.
    Calls and responses without ``id`` get synthetic ids (``gemini_call_<n>``), matched by
    name and order.
    """
    d = camel(owned_body(body, NAME))
    try:
        out: list[Message] = []
        ids = CallIds()
        system = d.get("systemInstruction")
        if system is not None:
            if type(system) is not dict:
                raise fail("an object", system, "systemInstruction")
            system = camel(system)
            try:
                blocks = _parts(system, ids)
            except DecodeError as exc:
                raise exc.within(".systemInstruction") from None
            out.append(
                SystemMessage(
                    blocks, extra={k: v for k, v in system.items() if k not in CONTENT_KEYS}
                )
            )
        contents = d.get("contents")
        if contents is not None:
            if type(contents) is not list:
                raise fail("an array", contents, "contents")
            out.extend(decode_each(contents, lambda c: _content(c, ids), ".contents"))
        return tuple(out)
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A ``GenerateContentResponse`` as one assistant message (its first candidate).

    ``finishReason`` is kept raw in ``stop_reason``; the other candidates and every
    unmodelled field stay in ``extra``.
    """
    d = camel(owned_body(body, NAME))
    try:
        response_id = opt_str(d, "responseId")
        ex = {k: v for k, v in d.items() if k not in _MODELLED}
        for key in ("modelVersion", "responseId", "createTime", "usageMetadata"):
            if key in d and d[key] is None:
                ex[key] = None
        blocks: tuple[Block, ...] = ()
        stop_reason = None
        candidates = d.get("candidates")
        if candidates is not None:
            if type(candidates) is not list:
                raise fail("an array", candidates, "candidates")
            kept = list(candidates)
            if kept:
                try:
                    blocks, stop_reason, kept[0] = _candidate(kept[0], CallIds(_tag(response_id)))
                except DecodeError as exc:
                    raise exc.within(".candidates[0]") from None
            ex["candidates"] = kept
        elif "candidates" in d:
            ex["candidates"] = None
        usage = d.get("usageMetadata")
        created = d.get("createTime")
        if created is not None and type(created) not in (str, int, float):
            raise fail("a string", created, "createTime")
        return AssistantMessage(
            blocks,
            usage=None if usage is None else _decode_usage(usage),
            stop_reason=stop_reason,
            model=opt_str(d, "modelVersion"),
            message_id=response_id,
            timestamp=created,
            extra=ex,
        )
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def _tag(response_id: str | None) -> str:
    return "" if not response_id else f"{response_id}_"


def _candidate(c: Any, ids: CallIds) -> tuple[tuple[Block, ...], str | None, dict[str, Any]]:
    if type(c) is not dict:
        raise fail("an object", c)
    c = camel(c)
    rest = dict(c)
    stop_reason = opt_str(c, "finishReason")
    if stop_reason is not None:
        del rest["finishReason"]
    blocks: tuple[Block, ...] = ()
    content = c.get("content")
    if content is not None:
        if type(content) is not dict:
            raise fail("an object", content, "content")
        content = camel(content)
        parts = content.get("parts")
        if type(parts) is list and parts:
            try:
                blocks = _parts(content, ids)
            except DecodeError as exc:
                raise exc.within(".content") from None
            rest["content"] = {k: v for k, v in content.items() if k != "parts"}
        elif parts is not None and type(parts) is not list:
            raise fail("an array", parts, "content.parts")
    return blocks, stop_reason, rest


USAGE_KEYS: Final = (
    "promptTokenCount",
    "candidatesTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
)
"""Gemini's four counts, in the order :mod:`messages._shapes.gemini_counts` takes them."""


def _decode_usage(u: Any) -> Usage:
    if type(u) is not dict:
        raise fail("an object", u, "usageMetadata")
    u = camel(u)
    try:
        prompt, candidates, cached, thoughts = (opt_int(u, k) for k in USAGE_KEYS)
    except DecodeError as exc:
        raise exc.within(".usageMetadata") from None
    kept = {k: v for k, v in u.items() if k not in USAGE_KEYS or v is None}
    return gemini_counts.usage_of(prompt, candidates, cached, thoughts, kept)


def citations(message: Message) -> tuple[Citation, ...]:
    """The sources a decoded Gemini response cites, typed (a read-only view of ``extra``).

    Gemini cites per candidate, not per part, so the response's ``citationMetadata`` and
    ``groundingMetadata`` stay in the message's ``extra`` (and are written back from there);
    this reads them as Citations: each citation source (``citationSources``, Vertex's
    ``citations``) as ``type="citation_source"``, and each grounding chunk a grounding
    support names as ``type="grounding_chunk"`` (``source_index`` is the chunk's index,
    ``text_start``/``text_end`` the supported span of the candidate's text).
    """
    out: list[Citation] = []
    candidates = message.extra.get("candidates") if isinstance(message, AssistantMessage) else None
    for candidate in candidates if isinstance(candidates, tuple) else ():
        if not isinstance(candidate, Mapping):
            continue
        meta = candidate.get("citationMetadata")
        if isinstance(meta, Mapping):
            sources = meta.get("citationSources", meta.get("citations"))
            for source in sources if isinstance(sources, tuple) else ():
                if isinstance(source, Mapping):
                    out.append(_source(source))
        grounding = candidate.get("groundingMetadata")
        if isinstance(grounding, Mapping):
            out.extend(_grounding(grounding))
    return tuple(out)


def _int(value: Any) -> int | None:
    return value if type(value) is int else None


def _str(value: Any) -> str | None:
    return value if type(value) is str else None


def _source(source: Mapping[str, Any]) -> Citation:
    known = ("startIndex", "endIndex", "uri", "title")
    return Citation(
        "citation_source",
        url=_str(source.get("uri")),
        title=_str(source.get("title")),
        text_start=_int(source.get("startIndex")),
        text_end=_int(source.get("endIndex")),
        extra={k: v for k, v in source.items() if k not in known},
    )


def _grounding(grounding: Mapping[str, Any]) -> list[Citation]:
    chunks = grounding.get("groundingChunks")
    chunks = chunks if isinstance(chunks, tuple) else ()
    out = []
    supports = grounding.get("groundingSupports")
    for support in supports if isinstance(supports, tuple) else ():
        if not isinstance(support, Mapping):
            continue
        segment = support.get("segment")
        segment = segment if isinstance(segment, Mapping) else {}
        indices = support.get("groundingChunkIndices")
        for index in indices if isinstance(indices, tuple) else ():
            chunk = chunks[index] if type(index) is int and 0 <= index < len(chunks) else None
            web = None
            if isinstance(chunk, Mapping):
                web = next((v for v in chunk.values() if isinstance(v, Mapping)), None)
            out.append(
                Citation(
                    "grounding_chunk",
                    url=_str(web.get("uri")) if web is not None else None,
                    title=_str(web.get("title")) if web is not None else None,
                    source_index=_int(index),
                    text_start=_int(segment.get("startIndex")),
                    text_end=_int(segment.get("endIndex")),
                )
            )
    return out
