"""Decoding Anthropic Messages request and response bodies into messages.

The blocks themselves are read by :mod:`messages._shapes.anthropic_blocks`, which the Claude
Code adapter shares (its log lines hold the same blocks).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import decode_each
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import type_name
from ..._shapes import anthropic_blocks
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...errors import DecodeError
from ...flat import RawMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import copy_body
from .._common import decode_body
from .._formats import ANTHROPIC as NAME

__all__ = ["decode_request", "decode_response"]

_RESPONSE: Final = frozenset(("id", "type", "role", "model", "content", "stop_reason", "usage"))
_ROLE_CONTENT: Final = frozenset(("role", "content"))
_CONTENT: Final = frozenset(("content",))
_new_system: Final = maker(SystemMessage)
_new_user: Final = maker(UserMessage)
_new_assistant: Final = maker(AssistantMessage)
_USAGE: Final = frozenset(
    (
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "output_tokens_details",
    )
)


def _blocks(values: Any, key: str, *, request: bool = True) -> tuple[Block, ...]:
    if type(values) is not list:
        raise fail("an array of blocks", values, key)
    try:
        blocks = anthropic_blocks.decode_blocks(values, NAME)
    except DecodeError as exc:
        raise exc.within(f".{key}") from None
    if request:
        for b in blocks:  # (a non-empty text block, the usual one, is never marked)
            if (type(b) is not TextBlock or not b.text) and _mark_empty(b) is not b:
                return tuple([_mark_empty(b) for b in blocks])
    return blocks


def _mark_empty(block: Block) -> Block:
    """An empty text block keeps its ``type`` in extra (nested in results and documents too).

    The encoder leaves out empty text blocks, which the API rejects and which carry
    nothing; one marked so was in the request as it came and is written back.
    """
    if type(block) is TextBlock and not block.text:
        return replace(block, extra=wrap_owned({"type": "text", **raw(block.extra)}))
    if type(block) is ToolResultBlock and not isinstance(block.content, str):
        return replace(block, content=tuple(_mark_empty(b) for b in block.content))
    if type(block) is DocumentBlock and isinstance(block.content, tuple):
        return replace(block, content=tuple(_mark_empty(b) for b in block.content))
    return block


def _content(d: dict[str, Any]) -> str | tuple[Block, ...]:
    content = d.get("content")
    if type(content) is str:
        return content
    if type(content) is not list:
        raise fail("a string or an array of blocks", content, "content")
    return _blocks(content, "content")


def _message(d: Any) -> Message:
    if type(d) is not dict:
        raise fail("an object", d)
    role = need_str(d, "role")
    if role not in ("user", "assistant", "system"):
        return RawMessage(wrap_owned(d))
    content = _content(d)
    # Built by makers: the content is a string or a tuple of decoded blocks, the extra a
    # FrozenDict over the owned body: nothing left for the public constructor to freeze.
    if role == "user":
        return _new_user(
            content, None, None, None, None, None, None, _extra(d, _ROLE_CONTENT), None, None, None
        )
    if role == "assistant":
        return _new_assistant(
            content, None, None, None, None, None, None, None, None, None, _extra(d, _ROLE_CONTENT)
        )
    # A system message inside ``messages`` keeps its ``role`` in extra: that is how the
    # encoder tells it from the top-level system prompt and writes it back in place.
    return _new_system(content, "system", None, None, None, None, None, None, extra(d, _CONTENT))


def _extra(d: dict[str, Any], known: frozenset[str]) -> FrozenDict:
    """:func:`extra` with the usual two-key message (``role`` and ``content``) answered first."""
    return EMPTY if len(d) == 2 and known.issuperset(d) else extra(d, known)


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body: its ``system`` prompt, then its ``messages``.

    A top-level system prompt comes back as a leading :class:`SystemMessage`; user and
    assistant turns as :class:`UserMessage`/:class:`AssistantMessage` with string or block
    content exactly as sent; a message with a role this library does not know as a
    :class:`RawMessage` holding it. Other request fields (model, tools...) are not read.

    >>> decode_request({"system": "Be terse.", "messages": [{"role": "user", "content": "Hi"}]})
    (SystemMessage(content='Be terse.'), UserMessage(content='Hi'))
    """
    d = copy_body(body, NAME)
    out: list[Message] = []
    try:
        system = d.get("system")
        if type(system) is str:
            out.append(SystemMessage(system))
        elif type(system) is list:
            out.append(SystemMessage(_blocks(system, "system")))
        elif system is not None:
            raise fail("a string or an array of blocks", system, "system")
        messages = d.get("messages")
        if type(messages) is not list:
            raise fail("an array", messages, "messages")
        out.extend(decode_each(messages, _message, ".messages"))
    except DecodeError as exc:
        exc.source = NAME
        raise
    return tuple(out)


def _decode_usage(u: dict[str, Any]) -> Usage:
    details = opt_obj(u, "output_tokens_details")
    rest = dict(raw(extra(u, _USAGE)))
    reasoning = None
    if details is not None:
        try:
            reasoning = opt_int(details, "thinking_tokens")
        except DecodeError as exc:
            raise exc.within(".output_tokens_details") from None
        nested = raw(extra(details, frozenset(("thinking_tokens",))))
        if nested or reasoning is None:  # else the encoder rebuilds it from reasoning_tokens
            rest["output_tokens_details"] = nested
    return Usage(
        opt_int(u, "input_tokens"),
        opt_int(u, "output_tokens"),
        opt_int(u, "cache_read_input_tokens"),
        opt_int(u, "cache_creation_input_tokens"),
        reasoning_tokens=reasoning,
        extra=wrap_owned(rest) if rest else EMPTY,
    )


def _check_tag(d: dict[str, Any], key: str, expected: str) -> None:
    value = d.get(key)
    if value is not None and value != expected:
        raise DecodeError(
            f"expected {expected!r}, found {value!r}"
            if type(value) is str
            else f"expected {expected!r}, found {type_name(value)}",
            path=f"$.{key}",
            value=value,
        )


def _decode_response(d: dict[str, Any]) -> AssistantMessage:
    _check_tag(d, "type", "message")
    _check_tag(d, "role", "assistant")
    content = _blocks(d.get("content"), "content", request=False)
    usage = opt_obj(d, "usage")
    try:
        decoded_usage = None if usage is None else _decode_usage(usage)
    except DecodeError as exc:
        raise exc.within(".usage") from None
    return AssistantMessage(
        content,
        usage=decoded_usage,
        stop_reason=opt_str(d, "stop_reason"),
        model=opt_str(d, "model"),
        message_id=opt_str(d, "id"),
        extra=extra(d, _RESPONSE),
    )


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A response ``Message`` as an :class:`AssistantMessage`.

    ``id`` becomes ``message_id``; ``usage`` a :class:`Usage` (``cache_read_input_tokens``
    and ``cache_creation_input_tokens`` as cache reads and writes,
    ``output_tokens_details.thinking_tokens`` as reasoning); the raw ``stop_reason`` is
    kept. Other fields (``stop_sequence``, ``container``...) stay in ``extra``.

    >>> m = decode_response({"id": "msg_1", "type": "message", "role": "assistant",
    ...     "model": "claude-x", "content": [{"type": "text", "text": "Hi."}],
    ...     "stop_reason": "end_turn", "usage": {"input_tokens": 9, "output_tokens": 3}})
    >>> m.text, m.stop, m.usage.output_tokens
    ('Hi.', <StopReason.END_TURN: 'end_turn'>, 3)
    """
    return decode_body(body, NAME, _decode_response)
