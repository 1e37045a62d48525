"""Decoding Converse request and response bodies into messages (private to ``bedrock``).

Blocks are read by :mod:`.parts`; this module reads the ``system`` prompt and ``messages``
of a request, and the ``output``, ``stopReason`` and ``usage`` of a response.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.make import expose_owned
from ..._core.make import wrap_owned
from ..._core.wire import decode_each
from ..._core.wire import fail
from ..._core.wire import opt_int
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...errors import DecodeError
from ...flat import RawMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import decode_body
from .._common import owned_body
from .._common import with_source
from .._formats import BEDROCK as NAME
from .parts import SYSTEM_MEMBERS
from .parts import decode_block

__all__ = ["USAGE_KEYS", "decode_request", "decode_response", "decode_usage", "total_tokens"]

USAGE_KEYS: Final = (
    "inputTokens",
    "outputTokens",
    "cacheReadInputTokens",
    "cacheWriteInputTokens",
)
"""The four counts of a ``TokenUsage``, in the order :class:`Usage` takes them."""
_MODELLED: Final = frozenset(("output", "stopReason", "usage"))


def _blocks(content: Any, key: str) -> tuple[Block, ...]:
    if type(content) is not list:
        raise fail("an array of content blocks", content, key)
    return tuple(decode_each(content, decode_block, f".{key}"))


def _message(d: Any) -> Message:
    if type(d) is not dict:
        raise fail("an object", d)
    role = d.get("role")
    if role not in ("user", "assistant"):
        if type(role) is not str:
            raise fail("a string", role, "role")
        return RawMessage(wrap_owned(d))
    blocks = _blocks(d.get("content"), "content")
    rest = {k: v for k, v in d.items() if k not in ("role", "content")}
    ex = wrap_owned(rest) if rest else EMPTY
    if role == "assistant":
        return AssistantMessage(blocks, extra=ex)
    if blocks and all(type(b) is ToolResultBlock for b in blocks):
        return ToolMessage(blocks, extra=ex)
    return UserMessage(blocks, extra=ex)


def _system(value: Any) -> SystemMessage:
    if type(value) is not list:
        raise fail("an array of system content blocks", value, "system")
    blocks: list[Block] = []
    for i, d in enumerate(value):
        if type(d) is dict and d.keys() == {"text"}:
            if type(d["text"]) is not str:
                raise fail("a string", d["text"], f"system[{i}].text")
            blocks.append(TextBlock(d["text"]))
        elif type(d) is dict and len(d) == 1 and next(iter(d)) not in SYSTEM_MEMBERS:
            # a member newer than this code: marked as Converse's (see parts.decode_block)
            blocks.append(RawBlock(expose_owned(d), provider=NAME))
        else:  # guardContent, cachePoint, or what no version of the API had
            blocks.append(RawBlock(expose_owned(d)))
    return SystemMessage(tuple(blocks))


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a ``Converse`` request: its ``system`` blocks, then its ``messages``.

    The system blocks come back as one leading :class:`SystemMessage`; a user message made
    only of tool results as a :class:`ToolMessage`; tool ids mapped on the way in (see
    :func:`~messages.providers.bedrock.wire_id`) as the ids they stand for. Other request
    fields (``modelId``, ``toolConfig``, ``inferenceConfig``...) are not read.

    >>> decode_request({"system": [{"text": "Be terse."}],
    ...                 "messages": [{"role": "user", "content": [{"text": "Hi"}]}]})
    (SystemMessage(content=(TextBlock(text='Be terse.'),)), UserMessage(content=(TextBlock(text='Hi'),)))
    """  # noqa: E501
    d = owned_body(body, NAME)
    try:
        out: list[Message] = []
        if d.get("system") is not None:
            out.append(_system(d["system"]))
        messages = d.get("messages")
        if messages is not None:
            if type(messages) is not list:
                raise fail("an array", messages, "messages")
            out.extend(decode_each(messages, _message, ".messages"))
        return tuple(out)
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def total_tokens(counts: tuple[int | None, ...]) -> int:
    """``totalTokens`` as Converse counts it: input, output and both cache counts."""
    return sum(c or 0 for c in counts)


def decode_usage(u: Any) -> Usage:
    """A ``TokenUsage`` object as a :class:`Usage` (``totalTokens`` kept when it differs)."""
    if type(u) is not dict:
        raise fail("an object", u, "usage")
    try:
        counts = tuple(opt_int(u, k) for k in USAGE_KEYS)
    except DecodeError as exc:
        raise exc.within(".usage") from None
    kept = {k: v for k, v in u.items() if k not in USAGE_KEYS or v is None}
    if kept.get("totalTokens") == total_tokens(counts) and type(kept["totalTokens"]) is int:
        del kept["totalTokens"]
    return Usage(*counts, extra=wrap_owned(kept) if kept else EMPTY)


def _decode_response(d: dict[str, Any]) -> AssistantMessage:
    ex = {k: v for k, v in d.items() if k not in _MODELLED}
    blocks: tuple[Block, ...] = ()
    output = opt_obj(d, "output")
    if output is None and "output" in d:
        ex["output"] = None
    if output is not None:
        message = output.get("message")
        out_rest = {k: v for k, v in output.items() if k != "message"}
        if message is not None:
            if type(message) is not dict:
                raise fail("an object", message, "output.message")
            try:
                blocks = _blocks(message.get("content"), "content")
            except DecodeError as exc:
                raise exc.within(".output.message") from None
            rest = {k: v for k, v in message.items() if k != "content"}
            if rest.get("role") == "assistant":
                del rest["role"]
            if rest:
                out_rest["message"] = rest
        else:
            out_rest["message"] = None
        if out_rest:
            ex["output"] = out_rest
    stop = opt_str(d, "stopReason")  # (a null one, never valid, is not kept)
    usage = d.get("usage")
    return AssistantMessage(
        blocks,
        usage=None if usage is None else decode_usage(usage),
        stop_reason=stop,
        extra=ex,
    )


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A ``Converse`` response as one assistant message.

    ``output.message.content`` becomes the blocks; ``stopReason`` is kept raw in
    ``stop_reason``; ``usage`` becomes a :class:`Usage` (``inputTokens`` the uncached input,
    ``cacheReadInputTokens`` and ``cacheWriteInputTokens`` the cache counts). ``metrics``,
    ``additionalModelResponseFields``, ``trace`` and every other field stay in ``extra``.

    >>> m = decode_response({"output": {"message": {"role": "assistant",
    ...     "content": [{"text": "Hi."}]}}, "stopReason": "end_turn",
    ...     "usage": {"inputTokens": 9, "outputTokens": 3, "totalTokens": 12}})
    >>> m.text, m.stop, m.usage.output_tokens
    ('Hi.', <StopReason.END_TURN: 'end_turn'>, 3)
    """
    return decode_body(body, NAME, _decode_response)
