"""What the event-stream adapters (Gemini CLI, OpenCode, Copilot, ACP) share.

Reading: checked reads that name the full path of a bad value, and :func:`rest`, the part of
a wire object a decoder does not model. A decoded message keeps that rest in ``extra`` as a
*mirror* of the wire tree (``{"part": {"time": ...}}`` for a key nested under ``part``), and
encoders build what they model and then :func:`overlay` the mirror on top, merging nested
objects. So ``encode(decode(x)) == x`` without the encoder knowing every key.

Two conventions keep absent and empty values apart without markers:

- a modelled optional key whose value is ``null`` decodes to ``None`` and the null stays in
  the mirror (as in the core's ``_wire.extra``);
- a string, array or object that the encoder writes only when it is non-empty (``""``,
  ``[]``, ``{}``) is kept in the mirror when the wire has it empty.

Writing: :func:`refuse` applies the caller's policy for content a format cannot carry, and
:func:`as_text` is what ``unsupported="text"`` degrades such content to.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final

from .._core.frozen import EMPTY, FrozenDict, depth_limit, raw
from .._core.make import copy_json, wrap_owned
from .._core.wire import type_name
from ..blocks import (
    AudioBlock,
    Block,
    ImageBlock,
    RawBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from ..convert import block_to_message, context_of
from ..errors import DecodeError, EncodeError, UnsupportedContentError
from ..flat import AudioMessage, ImageMessage, RawMessage, TextMessage, ThinkingMessage
from ..message import ROLE_TYPES, Message
from ..policy import Unsupported
from ..roles import as_blocks
from ..session import InvalidLineMessage
from ._base import encode_line

__all__ = [
    "MISSING",
    "as_text",
    "bad",
    "children",
    "content_text",
    "decoding",
    "finish",
    "found",
    "frozen",
    "lines",
    "opt_bool",
    "opt_int",
    "opt_num",
    "opt_obj",
    "opt_str",
    "opt_time",
    "overlay",
    "owned",
    "refuse",
    "req_obj",
    "req_str",
    "rest",
    "single",
]

MISSING: Final = object()
"""Stands for an absent key in the checked reads below."""


def _json_text(value: Any) -> str:
    return json.dumps(raw(value), ensure_ascii=False, separators=(",", ":"))


def found(value: Any) -> str:
    """How an error message names a value's type: ``"nothing"`` when it is absent."""
    return "nothing" if value is MISSING else type_name(value)


def bad(expected: str, value: Any, path: str) -> DecodeError:
    """A DecodeError: ``expected ..., found ...`` at ``path`` (``found nothing`` if absent)."""
    return DecodeError(
        f"expected {expected}, found {found(value)}",
        path=path,
        value=None if value is MISSING else value,
    )


def req_str(d: dict[str, Any], key: str, at: str = "$") -> str:
    """A required string."""
    v = d.get(key, MISSING)
    if type(v) is str:
        return v
    raise bad("a string", v, f"{at}.{key}")


def req_obj(d: dict[str, Any], key: str, at: str = "$") -> dict[str, Any]:
    """A required object."""
    v = d.get(key, MISSING)
    if type(v) is dict:
        return v
    raise bad("an object", v, f"{at}.{key}")


def opt_str(d: dict[str, Any], key: str, at: str = "$") -> str | None:
    """An optional string: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is str:
        return v
    raise bad("a string", v, f"{at}.{key}")


def opt_obj(d: dict[str, Any], key: str, at: str = "$") -> dict[str, Any] | None:
    """An optional object: absent or null gives ``None``."""
    v = d.get(key)
    if v is None or type(v) is dict:
        return v
    raise bad("an object", v, f"{at}.{key}")


def opt_int(d: dict[str, Any], key: str, at: str = "$") -> int | None:
    """An optional integer (not a boolean)."""
    v = d.get(key)
    if v is None or type(v) is int:
        return v
    raise bad("an integer", v, f"{at}.{key}")


def opt_num(d: dict[str, Any], key: str, at: str = "$") -> int | float | None:
    """An optional number, kept as given (an integer stays an integer)."""
    v = d.get(key)
    if v is None or type(v) is int or type(v) is float:
        return v
    raise bad("a number", v, f"{at}.{key}")


def opt_bool(d: dict[str, Any], key: str, at: str = "$") -> bool | None:
    """An optional boolean."""
    v = d.get(key)
    if v is None or type(v) is bool:
        return v
    raise bad("a boolean", v, f"{at}.{key}")


def opt_time(d: dict[str, Any], key: str = "timestamp", at: str = "$") -> str | int | float | None:
    """An optional timestamp: ISO text or epoch number, exactly as written."""
    v = d.get(key)
    if v is None or type(v) is str or type(v) is int or type(v) is float:
        return v
    raise bad("a string or a number", v, f"{at}.{key}")


def rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any] | None:
    """The keys of ``d`` not in ``known``, plus known keys whose value is null; ``None`` if none.

    The values are shared, not copied: ``d`` is owned by the decoder.
    """
    if d.keys() <= known and None not in d.values():
        return None
    return {k: v for k, v in d.items() if k not in known or v is None}


def frozen(mirror: dict[str, Any] | None) -> FrozenDict:
    """A mirror dict as a message's ``extra`` (``EMPTY`` when there is nothing to keep)."""
    return wrap_owned(mirror) if mirror else EMPTY


def overlay(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Write a kept mirror over what an encoder built, merging nested objects; returns ``out``.

    Nested objects that both sides have are copied before merging, so values shared with
    frozen messages are never changed.
    """
    if not extra:
        return out
    for k, v in raw(extra).items():
        cur = out.get(k)
        if type(v) is dict and type(cur) is dict:
            out[k] = overlay(dict(cur), v)
        else:
            out[k] = v
    return out


def finish(
    out: dict[str, Any], extra: Mapping[str, Any], keys: tuple[str, ...] = ("type",)
) -> dict[str, Any]:
    """:func:`overlay` the mirror, then write the discriminating keys back; returns ``out``.

    A decoder never keeps an event's ``type`` in its mirror, so only an ``extra`` from
    another source (a tool call's ``"type": "function"``...) can hold one, and it must not
    change what the event is.
    """
    fixed = {k: out[k] for k in keys if k in out}
    overlay(out, extra)
    out.update(fixed)
    return out


def owned(obj: Any) -> Any:
    """A private deep copy of a caller's JSON value, checked (``DecodeError`` if not JSON)."""
    return copy_json(obj, "$", 0, depth_limit())


def decoding(decoder: Callable[[Any], Message], obj: Any, source: str) -> Message:
    """Run ``decoder`` on a private copy of a caller's value, naming ``source`` on errors.

    The public ``decode`` of each adapter goes through here; stream readers hand the decoder
    the fresh output of ``json.loads`` directly, without a copy.
    """
    try:
        return decoder(owned(obj))
    except DecodeError as exc:
        if exc.source is None:
            exc.source = source
        raise


def content_text(content: str | tuple[Block, ...], source: str, policy: Unsupported) -> str:
    """The text of tool-result content for a format that only carries a string.

    Text blocks are joined with newlines; any other block is refused or, under the
    ``"text"`` policy, described in place (``"drop"`` leaves it out).
    """
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for i, block in enumerate(content):
        if isinstance(block, TextBlock):
            parts.append(block.text)
            continue
        if policy == "raise":
            raise UnsupportedContentError(
                f"cannot carry {block.kind} blocks in tool results",
                path=f"$.content[{i}]",
                source=source,
                value=block,
            )
        if policy == "text":
            parts.append(_describe_block(block))
    return "\n".join(parts)


def _media(kind: str, media_type: str | None, url: str | None, file_id: str | None) -> str:
    where = url if url is not None and not url.startswith("data:") else file_id
    return "[" + " ".join(p for p in (kind, media_type, where) if p) + "]"


def _describe_block(block: Block) -> str:
    match block:
        case TextBlock():
            return block.text
        case ThinkingBlock():
            return block.thinking
        case ToolUseBlock():
            return f"[tool_use {block.name} {_json_text(block.input)}]"
        case ToolResultBlock():
            return content_text(block.content, "", "text")
        case ImageBlock() | AudioBlock():
            return _media(block.kind, block.media_type, block.url, block.file_id)
        case RawBlock():
            return _json_text(block.data)


def as_text(message: Message) -> TextMessage | None:
    """What ``unsupported="text"`` turns a message into: a TextMessage with its context.

    Thinking gives its text, media a short ``[image image/png URL]`` note, raw data its JSON;
    session messages (stream events, invalid lines, init...) have no text and give ``None``.
    """
    role: Any
    match message:
        case ThinkingMessage():
            text, role = message.thinking, message.role
        case ImageMessage() | AudioMessage():
            text = _media(message.kind, message.media_type, message.url, message.file_id)
            role = message.role
        case RawMessage():
            text, role = _json_text(message.data), message.role or "assistant"
        case TextMessage():
            return message
        case _:
            return None
    ctx = context_of(message)
    ctx["role"] = role
    return TextMessage(text, **ctx)


def refuse(
    message: Message, why: str, source: str, policy: Unsupported, *, degrade: bool = True
) -> TextMessage | None:
    """Apply the unsupported-content policy to a message a format cannot carry.

    ``"raise"`` raises :class:`UnsupportedContentError`; ``"drop"`` gives ``None``;
    ``"text"`` gives :func:`as_text` of it (``None`` when ``degrade`` is false or the message
    has no text), for the caller to encode instead.
    """
    if policy == "raise":
        raise UnsupportedContentError(why, source=source, value=message)
    if policy == "text" and degrade:
        return as_text(message)
    return None


def single(message: Message, source: str) -> Message:
    """The one flat message a role message holds, for formats that write one event per block.

    A role message with several (or no) blocks needs several events: :func:`encode` refuses
    it with an EncodeError and ``iter_encode`` writes one event per block instead.
    """
    if not isinstance(message, ROLE_TYPES):
        return message
    blocks = as_blocks(message.content)
    if len(blocks) != 1:
        raise EncodeError(
            f"a {message.kind} message with {len(blocks)} blocks needs {len(blocks)} events;"
            " use iter_encode, which writes one per block",
            source=source,
            value=message,
        )
    return children(message)[0]


def children(message: Message) -> tuple[Message, ...]:
    """One flat message per block of a role message, with its role and context."""
    if not isinstance(message, ROLE_TYPES):
        return (message,)
    ctx = context_of(message)
    return tuple([block_to_message(b, **ctx) for b in as_blocks(message.content)])


def lines(
    messages: Iterable[Message],
    encode: Callable[[Message], Any],
    native: Callable[[Message], bool],
) -> Iterator[str]:
    """Wire lines for a stream, written with ``encode`` one message at a time.

    Role messages that ``native`` says the format cannot write as one event are split into
    one event per block; messages the policy drops (``encode`` gives ``None``) are skipped;
    an :class:`InvalidLineMessage` gives back its text.
    """
    for message in messages:
        if isinstance(message, InvalidLineMessage):
            yield message.text
            continue
        parts = (message,) if native(message) else children(message)
        for part in parts:
            obj = encode(part)
            if obj is not None:
                yield encode_line(_const(obj), part)


def _const(obj: Any) -> Callable[[Message], Any]:
    return lambda _: obj
