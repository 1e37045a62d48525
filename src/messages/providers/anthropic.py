"""Anthropic Messages API (``POST /v1/messages``): requests, responses and streams.

``decode_request`` reads the ``system`` and ``messages`` of a request body;
``encode_request`` writes them for any conversation, in the order the API requires;
``decode_response``/``encode_response`` handle a ``Message``; :func:`accumulator`
reassembles a server-sent event stream. See ``docs/providers/anthropic.md`` for the mapping.

>>> from messages import UserMessage
>>> encode_request([SystemMessage("Be terse."), UserMessage("Hi")])
{'system': 'Be terse.', 'messages': [{'role': 'user', 'content': 'Hi'}]}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from .._core import anthropic_blocks
from .._core.frozen import EMPTY, FrozenDict, raw, thaw
from .._core.make import copy_json, wrap_owned
from .._core.wire import extra, fail, opt_int, opt_obj, opt_str, type_name
from ..blocks import Block, RawBlock
from ..errors import DecodeError
from ..flat import RawMessage
from ..message import Message
from ..policy import Policy, Unsupported
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ..stop import StopReason, classify_stop_reason
from ..usage import Usage
from ._anthropic_encode import Item, arrange, carries, encode_blocks, text_block
from ._carry import carried, lost_calls, passthrough_role, put_extra, request_turns
from ._formats import ANTHROPIC, response_extra, role_is_own

if TYPE_CHECKING:
    from ._protocols import Accumulator

__all__ = [
    "NAME",
    "accumulator",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
]

NAME: Final = ANTHROPIC
"""The format name, as used in errors and on the command line."""

_RESPONSE: Final = frozenset(("id", "type", "role", "model", "content", "stop_reason", "usage"))
_USAGE: Final = frozenset(
    (
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "output_tokens_details",
    )
)
_STOP_REASONS: Final = frozenset(
    (
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
        "compaction",
    )
)
_STOP_FROM: Final = {
    StopReason.END_TURN: "end_turn",
    StopReason.MAX_TOKENS: "max_tokens",
    StopReason.STOP_SEQUENCE: "stop_sequence",
    StopReason.TOOL_USE: "tool_use",
    StopReason.PAUSE: "pause_turn",
    StopReason.REFUSAL: "refusal",
    StopReason.CONTEXT_EXCEEDED: "model_context_window_exceeded",
}


# ---------------------------------------------------------------------------- decoding


def _own(body: Any) -> dict[str, Any]:
    if not isinstance(body, Mapping):
        raise DecodeError(f"expected an object, found {type_name(body)}", value=body, source=NAME)
    try:
        owned: dict[str, Any] = copy_json(body, "$", 0, 256)
    except DecodeError as exc:
        exc.source = NAME
        raise
    return owned


def _blocks(values: Any, key: str) -> tuple[Block, ...]:
    if type(values) is not list:
        raise fail("an array of blocks", values, key)
    try:
        return anthropic_blocks.decode_blocks(values, NAME)
    except DecodeError as exc:
        raise exc.within(f".{key}") from None


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
    role = d.get("role")
    if type(role) is not str:
        raise fail("a string", role, "role")
    if role not in ("user", "assistant", "system"):
        return RawMessage(wrap_owned(d))
    content = _content(d)
    if role == "user":
        return UserMessage(content, extra=extra(d, frozenset(("role", "content"))))
    if role == "assistant":
        return AssistantMessage(content, extra=extra(d, frozenset(("role", "content"))))
    # A system message inside ``messages`` keeps its ``role`` in extra: that is how the
    # encoder tells it from the top-level system prompt and writes it back in place.
    return SystemMessage(content, extra=extra(d, frozenset(("content",))))


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body: its ``system`` prompt, then its ``messages``.

    A top-level system prompt comes back as a leading :class:`SystemMessage`; user and
    assistant turns as :class:`UserMessage`/:class:`AssistantMessage` with string or block
    content exactly as sent; a message with a role this library does not know as a
    :class:`RawMessage` holding it. Other request fields (model, tools...) are not read.

    >>> decode_request({"system": "Be terse.", "messages": [{"role": "user", "content": "Hi"}]})
    (SystemMessage(content='Be terse.'), UserMessage(content='Hi'))
    """
    d = _own(body)
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
        for i, message in enumerate(messages):
            try:
                out.append(_message(message))
            except DecodeError as exc:
                raise exc.within(f".messages[{i}]") from None
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
    content = _blocks(d.get("content"), "content")
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
    d = _own(body)
    try:
        return _decode_response(d)
    except DecodeError as exc:
        exc.source = NAME
        raise


# ---------------------------------------------------------------------------- encoding


def _content_out(
    message: UserMessage | AssistantMessage | SystemMessage | ToolMessage,
    where: str,
    policy: Policy,
    path: str,
) -> str | list[dict[str, Any]] | None:
    """The wire content of a turn; ``None`` when every block of it was dropped."""
    if isinstance(message.content, str):
        return message.content
    out = encode_blocks(message.content, where, policy, f"{path}.content")
    if message.content and not out:
        return None
    return out


def _message_extra(
    message: UserMessage | AssistantMessage | SystemMessage | ToolMessage,
    out: dict[str, Any],
    policy: Policy,
    path: str,
) -> dict[str, Any]:
    put_extra(out, message.extra, policy, path, "message", protected=("role",))
    return {k: v for k, v in out.items() if k not in ("role", "content")}


def _system(hoisted: list[tuple[int, SystemMessage]], policy: Policy) -> Any:
    if len(hoisted) == 1 and isinstance(hoisted[0][1].content, str):
        index, message = hoisted[0]
        _system_extra(message, policy, f"$[{index}]")
        return message.content
    blocks: list[dict[str, Any]] = []
    for index, message in hoisted:
        path = f"$[{index}]"
        _system_extra(message, policy, path)
        if isinstance(message.content, str):
            blocks.append({"type": "text", "text": message.content})
        else:
            blocks.extend(encode_blocks(message.content, "system", policy, f"{path}.content"))
    return blocks


def _system_extra(message: SystemMessage, policy: Policy, path: str) -> None:
    """The top-level system prompt has no place for message fields: the policy decides."""
    policy.turn(message)
    for key, value in carried(message.extra, policy, path, "message", protected=("role",)).items():
        policy.refuse(
            f"cannot carry the field {key!r} on the system prompt", f"{path}.extra.{key}", value
        )


def _in_place(message: SystemMessage, index: int) -> bool:
    """A system message decoded from inside ``messages`` goes back there.

    The decoder marks it with ``extra["role"]``; the first message of a conversation is the
    system prompt wherever it came from (OpenAI Responses marks a leading system item the
    same way), so it is always hoisted.
    """
    return index > 0 and message.extra.get("role") == "system"


def _split(
    role: str, content: str | list[dict[str, Any]], extra_: dict[str, Any], *, from_tool: bool
) -> list[Item]:
    """One turn's wire content as items, tool calls on the assistant side, results on the user's.

    A call found in a user turn becomes an assistant turn of its own, in place; results in
    an assistant turn become a user turn right after it (``arrange`` then puts every result
    where the API wants it). The turn's own fields stay on its first item.
    """
    if isinstance(content, str) or role not in ("user", "assistant"):
        return [Item(role, content, extra_, from_tool=from_tool)]
    moved = "tool_result" if role == "assistant" else "tool_use"
    other = "user" if role == "assistant" else "assistant"
    items: list[Item] = []
    for block in content:
        side = other if block.get("type") == moved else role
        if items and items[-1].role == side:
            assert isinstance(items[-1].content, list)
            items[-1].content.append(block)
        else:
            moved_here = side != role
            items.append(
                Item(side, [block], from_tool=from_tool or (moved_here and side == "user"))
            )
    for item in items:
        if item.role == role:
            item.extra = extra_
            break
    return items or [Item(role, [], extra_, from_tool=from_tool)]


def encode_request(
    conversation: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> dict[str, Any]:
    """The ``system`` and ``messages`` of a request body for a conversation.

    Flat messages are grouped into turns first. System messages at any position become the
    top-level ``system`` (one string, or text blocks when there are several); a system
    message decoded from inside ``messages`` goes back there. Tool messages and tool
    results join the user turn right after the assistant turn that made the call, ahead of
    its other content. Content Anthropic cannot carry (audio, another provider's thinking,
    another format's blocks) follows ``unsupported``: ``"raise"`` an
    :class:`~messages.UnsupportedContentError` with its path (``$[turn].content[block]``),
    ``"drop"`` it, or replace it with a ``"text"`` describing it.

    >>> from messages import ToolMessage, ToolResultBlock, ToolUseBlock
    >>> body = encode_request([
    ...     AssistantMessage((ToolUseBlock("toolu_1", "get_time", {}),)),
    ...     ToolMessage((ToolResultBlock("toolu_1", "12:00"),)),
    ... ])
    >>> body["messages"][1]["content"]
    [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '12:00'}]
    """
    policy = Policy(unsupported, NAME)
    hoisted: list[tuple[int, SystemMessage]] = []
    items: list[Item] = []
    turns = request_turns(conversation)
    policy.lost = lost_calls(turns, carries)
    for i, turn in enumerate(turns):
        path = f"$[{i}]"
        policy.turn(turn)
        if isinstance(turn, RawMessage):
            role = str(passthrough_role(turn))
            if role_is_own(role, NAME):
                items.append(Item(role, [], raw=thaw(turn.data)))
            else:
                reason = f"cannot carry a {role!r} message"
                text = policy.degrade(RawBlock(turn.data), path, reason)
                if text is not None:
                    items.append(Item("user", [text_block(text, policy, path)]))
            continue
        if isinstance(turn, SystemMessage) and not _in_place(turn, i):
            hoisted.append((i, turn))
            continue
        if isinstance(turn, ToolMessage):
            role = "user"
        elif isinstance(turn, SystemMessage):
            role = "system"
        else:
            role = turn.role
        before = policy.left_out
        content = _content_out(turn, role, policy, path)
        if content is None:
            continue
        extra_ = _message_extra(turn, {"role": role, "content": content}, policy, path)
        if content == [] and policy.left_out > before:
            continue  # the policy took everything it had (a Chat function_call, say)
        items.extend(_split(role, content, extra_, from_tool=isinstance(turn, ToolMessage)))
    out: dict[str, Any] = {}
    if hoisted:
        out["system"] = _system(hoisted, policy)
    out["messages"] = [item.dump() for item in arrange(items)]
    return out


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if usage.input_tokens is not None:
        out["input_tokens"] = usage.input_tokens
    if usage.cache_write_tokens is not None:
        out["cache_creation_input_tokens"] = usage.cache_write_tokens
    if usage.cache_read_tokens is not None:
        out["cache_read_input_tokens"] = usage.cache_read_tokens
    if usage.output_tokens is not None:
        out["output_tokens"] = usage.output_tokens
    details = usage.extra.get("output_tokens_details")
    if isinstance(details, FrozenDict) or usage.reasoning_tokens is not None:
        out_details = thaw(details) if isinstance(details, FrozenDict) else {}
        if usage.reasoning_tokens is not None:
            out_details["thinking_tokens"] = usage.reasoning_tokens
        out["output_tokens_details"] = out_details
    for key, value in response_extra(usage.extra, NAME, usage=True).items():
        out.setdefault(key, thaw(value))
    return out


def _stop_reason(raw: str) -> str:
    if raw in _STOP_REASONS:
        return raw
    reason = classify_stop_reason(raw)
    return _STOP_FROM.get(reason, raw) if reason is not None else raw


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A response ``Message`` body for an assistant message: the inverse of decode_response.

    Content Anthropic cannot carry raises :class:`~messages.UnsupportedContentError`; another
    provider's response fields in ``extra`` are left out, and its stop reason is mapped.
    """
    policy = Policy("raise", NAME)
    out: dict[str, Any] = {}
    if message.message_id is not None:
        out["id"] = message.message_id
    out["type"] = "message"
    out["role"] = "assistant"
    if message.model is not None:
        out["model"] = message.model
    if isinstance(message.content, str):
        out["content"] = [{"type": "text", "text": message.content}]
    else:
        out["content"] = encode_blocks(message.content, "assistant", policy, "$.content")
    if message.stop_reason is not None:
        out["stop_reason"] = _stop_reason(message.stop_reason)
    if message.usage is not None:
        out["usage"] = _encode_usage(message.usage)
    for key, value in response_extra(message.extra, NAME).items():
        out.setdefault(key, thaw(value))
    return out


def accumulator() -> Accumulator:
    """A fresh accumulator for one streamed response (server-sent event objects, in order).

    >>> acc = accumulator()
    >>> text = {"type": "text", "text": ""}
    >>> for event in [
    ...     {"type": "message_start", "message": {"id": "msg_1", "type": "message",
    ...      "role": "assistant", "model": "claude-x", "content": [], "stop_reason": None,
    ...      "usage": {"input_tokens": 5, "output_tokens": 1}}},
    ...     {"type": "content_block_start", "index": 0, "content_block": text},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "text_delta", "text": "Hel"}},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "text_delta", "text": "lo"}},
    ...     {"type": "content_block_stop", "index": 0},
    ...     {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
    ...      "usage": {"output_tokens": 4}},
    ...     {"type": "message_stop"},
    ... ]:
    ...     acc.feed(event)
    >>> acc.message().text, acc.message().usage.output_tokens
    ('Hello', 4)
    """
    from ._anthropic_stream import AnthropicAccumulator

    return AnthropicAccumulator()
