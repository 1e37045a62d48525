"""Reasoning in OpenAI-compatible Chat APIs, both ways (private to ``openai_chat``).

OpenAI's own Chat API sends no reasoning back, but the APIs that copy its shape do, each in
its own field of the assistant message:

- ``reasoning_content`` (a string): DeepSeek, Qwen and vLLM servers, Moonshot/Kimi, xAI;
  vLLM's newer servers send the same text as ``reasoning`` too;
- ``reasoning`` (a string) and ``reasoning_details`` (a list of entries): OpenRouter. An
  entry is ``reasoning.text`` (``text``, ``signature``?), ``reasoning.summary``
  (``summary``) or ``reasoning.encrypted`` (``data``), with ``id``, ``format`` and
  ``index``;
- Gemini's OpenAI-compatible endpoint signs a tool call instead:
  ``extra_content.google.thought_signature`` (see :func:`call_signature`).

:func:`decode_reasoning` reads them as :class:`ThinkingBlock` s, marked with where they
came from (``extra["reasoning_fields"]``, and ``extra["reasoning_detail"]`` for the rest of
an OpenRouter entry), so a body goes back exactly. :func:`encode_reasoning` writes thinking
where a dialect expects it. A signature is written only back to the API that issued it
(OpenRouter's entries); every other signature, and redacted reasoning with it, is dropped:
no API here can verify another's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from typing import Final
from typing import Literal
from typing import TypeAlias

from ..._core.frozen import FrozenDict
from ..._core.frozen import freeze
from ..._core.frozen import thaw
from ...blocks import ThinkingBlock
from ...errors import EncodeError

__all__ = [
    "DIALECTS",
    "Dialect",
    "call_signature",
    "check_dialect",
    "decode_reasoning",
    "encode_reasoning",
    "fields_for",
    "merge_details",
    "put_call_signature",
]

Dialect: TypeAlias = Literal[
    "openai", "deepseek", "qwen", "vllm", "moonshot", "xai", "openrouter", "gemini"
]
"""Which OpenAI-compatible API a Chat request is for (see ``docs/providers/openai_chat.md``)."""
DIALECTS: Final = ("openai", "deepseek", "qwen", "vllm", "moonshot", "xai", "openrouter", "gemini")
"""Every dialect ``encode_request`` takes."""
_OPENROUTER: Final = "openrouter"
"""The ``provider`` of a ThinkingBlock whose signature came in an OpenRouter entry."""

_CONTENT_DIALECTS: Final = frozenset(("deepseek", "qwen", "vllm", "moonshot", "xai"))
_STRING_FIELDS: Final = ("reasoning_content", "reasoning")
_DETAILS: Final = "reasoning_details"
_ENTRY_TEXT: Final = {"reasoning.text": "text", "reasoning.summary": "summary"}


# ---------------------------------------------------------------------------------- decoding


def _entry(entry: Any) -> ThinkingBlock | None:
    if type(entry) is not dict:
        return None
    kind = entry.get("type")
    if kind in _ENTRY_TEXT:
        key = _ENTRY_TEXT[kind]
        text = entry.get(key)
        signature = entry.get("signature") if kind == "reasoning.text" else None
        if type(text) is not str or (signature is not None and type(signature) is not str):
            return None
        rest = {k: v for k, v in entry.items() if k != key and not (k == "signature" and signature)}
        provider = _OPENROUTER if signature is not None else None
        return ThinkingBlock(
            text,
            signature=signature,
            provider=provider,
            extra=freeze({"reasoning_fields": [_DETAILS], "reasoning_detail": rest}),
        )
    if kind == "reasoning.encrypted" and type(entry.get("data")) is str:
        rest = {k: v for k, v in entry.items() if k != "data"}
        return ThinkingBlock(
            "",
            signature=entry["data"],
            redacted=True,
            provider=_OPENROUTER,
            extra=freeze({"reasoning_fields": [_DETAILS], "reasoning_detail": rest}),
        )
    return None


def decode_reasoning(d: dict[str, Any], known: set[str]) -> list[ThinkingBlock]:
    """The reasoning of an assistant message (owned), as thinking blocks.

    The fields read go into ``known``; a field that is null, or not of the shape above, is
    left for ``extra``.
    """
    out: list[ThinkingBlock] = []
    details = d.get(_DETAILS)
    if type(details) is list and details:
        blocks = [_entry(e) for e in details]
        if all(b is not None for b in blocks):
            entries = [b for b in blocks if b is not None]
            known.add(_DETAILS)
            joined = "".join(b.thinking for b in entries)
            if d.get("reasoning") == joined and joined:
                known.add("reasoning")  # the entries' text again: written back from them
                first = entries[0]
                fields = [_DETAILS, "reasoning"]
                entries[0] = ThinkingBlock(
                    first.thinking,
                    signature=first.signature,
                    redacted=first.redacted,
                    provider=first.provider,
                    extra=freeze({**first.extra, "reasoning_fields": fields}),
                )
            out.extend(entries)
    strings = [f for f in _STRING_FIELDS if f not in known and type(d.get(f)) is str]
    if len(strings) == 2 and d[strings[0]] == d[strings[1]]:
        strings = [",".join(strings)]  # vLLM: the same text under both names, one block
    for names in strings:
        fields = names.split(",")
        known.update(fields)
        out.append(ThinkingBlock(d[fields[0]], extra=freeze({"reasoning_fields": fields})))
    return out


def call_signature(call: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Gemini's ``extra_content.google.thought_signature`` of a tool call (owned).

    Also the call without it (an emptied ``google`` object stays, to be written back).
    """
    content = call.get("extra_content")
    google = content.get("google") if type(content) is dict else None
    signature = google.get("thought_signature") if type(google) is dict else None
    if type(signature) is not str or not isinstance(content, dict) or google is None:
        return None, call
    rest = {k: v for k, v in google.items() if k != "thought_signature"}
    return signature, {**call, "extra_content": {**content, "google": rest}}


# ---------------------------------------------------------------------------------- encoding


def check_dialect(dialect: object) -> None:
    """An unknown dialect is an EncodeError naming the ones there are."""
    if dialect not in DIALECTS:
        raise EncodeError(
            f"expected dialect to be one of {', '.join(DIALECTS)}, found {dialect!r}",
            source="openai_chat",
            value=dialect,
        )


def fields_for(block: ThinkingBlock, dialect: Dialect) -> tuple[str, ...]:
    """The message fields a thinking block is written to; none: the loss policy decides.

    A block read from a Chat body goes back to the fields it came from under the default
    dialect; a dialect names the field its API reads.
    """
    marked = block.extra.get("reasoning_fields")
    own: tuple[str, ...] = ()
    if isinstance(marked, tuple) and all(f in (*_STRING_FIELDS, _DETAILS) for f in marked):
        own = tuple(str(f) for f in marked)
    if dialect in _CONTENT_DIALECTS:
        return own if own and own[0] == "reasoning_content" else ("reasoning_content",)
    if dialect == _OPENROUTER:
        return own if own and own[0] == _DETAILS else (_DETAILS,)
    if dialect == "openai":
        return own
    return ()


def _detail(block: ThinkingBlock) -> dict[str, Any] | None:
    kept = block.extra.get("reasoning_detail")
    entry: dict[str, Any] = dict(thaw(kept)) if isinstance(kept, FrozenDict) else {}
    if block.redacted:
        if block.provider != _OPENROUTER or block.signature is None:
            return None  # another provider's encrypted reasoning: nothing it can verify
        entry.setdefault("type", "reasoning.encrypted")
        entry["data"] = block.signature
        return entry
    kind = entry.get("type")
    if kind not in _ENTRY_TEXT:
        kind = entry["type"] = "reasoning.text"
    entry[_ENTRY_TEXT[kind]] = block.thinking
    if kind == "reasoning.text" and block.signature is not None and block.provider == _OPENROUTER:
        entry["signature"] = block.signature
    return entry


def encode_reasoning(
    placed: Iterable[tuple[ThinkingBlock, tuple[str, ...]]], out: dict[str, Any]
) -> None:
    """Write thinking blocks into an assistant message ``out`` at the fields given for each.

    String fields get the blocks' text (joined, in order; signatures are never written
    there, and redacted reasoning has no text to give); ``reasoning_details`` gets one
    entry per block.
    """
    texts: dict[str, list[str]] = {}
    details: list[dict[str, Any]] = []
    for block, fields in placed:
        for field in fields:
            if field == _DETAILS:
                entry = _detail(block)
                if entry is not None:
                    details.append(entry)
            elif not block.redacted:
                texts.setdefault(field, []).append(block.thinking)
    if details:
        out[_DETAILS] = details
    for field, said in texts.items():
        out[field] = "\n".join(said)


def put_call_signature(call: dict[str, Any], signature: str) -> None:
    """Write Gemini's thought signature on a tool call (``extra_content.google``)."""
    content = call.get("extra_content")
    content = dict(content) if isinstance(content, dict) else {}
    google = content.get("google")
    google = dict(google) if isinstance(google, dict) else {}
    google["thought_signature"] = signature
    content["google"] = google
    call["extra_content"] = content


def merge_details(current: list[Any], incoming: list[Any]) -> list[Any]:
    """Streamed ``reasoning_details`` fragments, joined.

    A fragment of the same ``type`` and ``index`` as the last entry extends its text,
    summary, data and signature.
    """
    out = list(current)
    for fragment in incoming:
        last = out[-1] if out else None
        if (
            type(fragment) is dict
            and type(last) is dict
            and fragment.get("type") == last.get("type")
            and fragment.get("index", 0) == last.get("index", 0)
        ):
            merged = dict(last)
            for key, value in fragment.items():
                before = merged.get(key)
                if key in ("text", "summary", "data", "signature") and type(value) is str:
                    merged[key] = (before if type(before) is str else "") + value
                elif value is not None or key not in merged:
                    merged[key] = value
            out[-1] = merged
        else:
            out.append(fragment)
    return out
