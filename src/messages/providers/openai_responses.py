"""OpenAI Responses API (``POST /v1/responses``): requests, responses and stream reassembly.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse."), UserMessage("Weather in Paris?")])
{'instructions': 'Be terse.', 'input': 'Weather in Paris?'}

See ``docs/providers/openai_responses.md`` for the mapping table and every normalisation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Final

from .._core.frozen import raw, thaw
from .._core.make import wrap_owned
from .._core.wire import extra, fail, opt_int, opt_str
from ..blocks import Block, RawBlock, TextBlock, ThinkingBlock, ToolResultBlock
from ..errors import DecodeError
from ..flat import RawMessage
from ..message import Message
from ..policy import Policy, Unsupported
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ..usage import Usage
from . import _responses_items as items
from ._carry import carried, lost_calls, passthrough_role, request_turns
from ._common import keep_differences, owned_body, with_source
from ._formats import RESPONSES, response_extra, role_is_own
from ._protocols import Accumulator
from ._responses_stream import ResponsesAccumulator

__all__ = [
    "NAME",
    "accumulator",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
]

NAME: Final = RESPONSES
"""The format name used in errors and by the CLI."""

_STATUSES: Final = frozenset(
    ("completed", "failed", "in_progress", "cancelled", "queued", "incomplete")
)
_MESSAGE_KEYS: Final = frozenset(("role", "content"))


# --------------------------------------------------------------------------------- requests


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body: ``instructions`` and ``input``.

    ``instructions`` comes back as a leading :class:`SystemMessage`; a string ``input`` as
    one :class:`UserMessage`; ``function_call_output`` items as :class:`ToolMessage` s.
    """
    d = owned_body(body, NAME)
    try:
        out: list[Message] = []
        instructions = d.get("instructions")
        if instructions is not None:
            if type(instructions) is not str:
                raise fail("a string", instructions, "instructions")
            out.append(SystemMessage(instructions))
        value = d.get("input")
        if type(value) is str:
            out.append(UserMessage(value))
        elif type(value) is list:
            try:
                decoded = _decode_items(value)
            except DecodeError as exc:
                raise exc.within(".input") from None
            out.extend(_mark_ambiguous(decoded, instructions is not None))
        elif value is not None:
            raise fail("a string or an array", value, "input")
        return tuple(out)
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def _mark_ambiguous(messages: list[Message], has_instructions: bool) -> list[Message]:
    # A lone {"role": "user", "content": str} item would be written back as a plain string
    # input, and a leading system one as ``instructions``; the (wire-neutral) ``role`` in
    # extra keeps them as the items they were.
    if not messages:
        return messages
    first = messages[0]
    if isinstance(first, UserMessage) and len(messages) == 1 and _plain(first):
        messages[0] = UserMessage(first.content, extra={"role": "user"})
    elif isinstance(first, SystemMessage) and not has_instructions and _instructions(first):
        messages[0] = replace(first, extra={"role": "system"})
    return messages


def _plain(message: UserMessage | SystemMessage) -> bool:
    return isinstance(message.content, str) and not message.extra


def _instructions(message: Message) -> bool:
    """Whether a first message is written as ``instructions``.

    That is a system (not developer) message with no item fields whose content is a string
    or plain text blocks (several are joined with newlines).
    """
    if not isinstance(message, SystemMessage) or message.role != "system" or message.extra:
        return False
    return isinstance(message.content, str) or all(
        type(b) is TextBlock and b.citations is None and not b.extra for b in message.content
    )


def _decode_items(values: list[Any]) -> list[Message]:
    out: list[Message] = []
    side: str | None = None
    group: list[Block] = []

    def close() -> None:
        nonlocal side
        if side == "assistant":
            out.append(AssistantMessage(tuple(group)))
        elif side == "tool":
            out.append(ToolMessage(tuple(group)))
        group.clear()
        side = None

    def join(kind: str, blocks: list[Block]) -> None:
        nonlocal side
        if side != kind:
            close()
            side = kind
        group.extend(blocks)

    for i, item in enumerate(values):
        try:
            if type(item) is not dict:
                raise fail("an object", item)
            tag = item.get("type")
            role = item.get("role")
            if tag == "message" or (tag is None and "role" in item):
                if type(role) is not str:
                    raise fail("a string", role, "role")
                if role in ("user", "system", "developer"):
                    close()
                    out.append(_input_message(item, role))
                    continue
                plain = item.keys() == _MESSAGE_KEYS and type(item["content"]) is str
                if role == "assistant" and plain:
                    close()
                    out.append(AssistantMessage(item["content"]))
                    continue
            if tag == "function_call_output":
                join("tool", [items.decode_fco(item)])
            elif items.is_caller_item(tag):
                join("tool", [RawBlock(wrap_owned(item))])
            else:
                after_text = side == "assistant" and bool(group) and type(group[-1]) is TextBlock
                join("assistant", items.decode_model_item(item, "request", after_text))
        except DecodeError as exc:
            raise exc.within(f"[{i}]") from None
    close()
    return out


def _input_message(d: dict[str, Any], role: str) -> Message:
    content = items.decode_parts(d.get("content"), "input_text", "content")
    ex = extra(d, _MESSAGE_KEYS)
    if role == "user":
        return UserMessage(content, extra=ex)
    return SystemMessage(content, role="developer" if role == "developer" else "system", extra=ex)


def encode_request(
    conversation: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> dict[str, Any]:
    """The ``instructions`` and ``input`` of a request for this conversation.

    A leading plain-text system message becomes ``instructions``; a conversation that is
    one plain-text user message is sent as a string ``input``. Content Responses cannot
    carry follows ``unsupported``: raise :class:`UnsupportedContentError`, drop, or text.
    """
    policy = Policy(unsupported, NAME)
    turns = request_turns(conversation)
    policy.lost = lost_calls(turns, items.ours)
    body: dict[str, Any] = {}
    start = 0
    if turns and _instructions(turns[0]):
        body["instructions"] = turns[0].text  # type: ignore[union-attr]
        start = 1
    out: list[Any] = []
    for i in range(start, len(turns)):
        policy.turn(turns[i])
        _encode_turn(turns[i], policy, f"$[{i}]", out.append)
    rest = turns[start:]
    if len(rest) == 1 and isinstance(rest[0], UserMessage) and _plain(rest[0]):
        body["input"] = rest[0].content
    else:
        body["input"] = _arrange(out)
    return thaw(body)  # type: ignore[no-any-return]  # a fresh copy the caller may change


def _is_model_item(item: dict[str, Any]) -> bool:
    tag = item.get("type")
    if tag in (None, "message"):
        return item.get("role") == "assistant"
    return not items.is_caller_item(tag)


def _arrange(out: list[Any]) -> list[Any]:
    """Move each ``function_call_output`` right after the model items that made its call.

    Outputs that already follow their call's run of model-side items (reasoning, calls,
    assistant messages) stay where they are; one that arrives later, after user input, say,
    moves up to the end of that run, after the outputs already there.
    """
    placed: list[Any] = []
    for item in out:
        call_id = item.get("call_id") if item.get("type") == "function_call_output" else None
        home = None
        if isinstance(call_id, str):
            home = next(
                (
                    q
                    for q in range(len(placed) - 1, -1, -1)
                    if placed[q].get("type") == "function_call"
                    and placed[q].get("call_id") == call_id
                ),
                None,
            )
        if home is None:
            placed.append(item)
            continue
        position = home + 1
        while position < len(placed) and (
            _is_model_item(placed[position])
            or placed[position].get("type") == "function_call_output"
        ):
            position += 1
        placed.insert(position, item)
    return placed


def _encode_turn(turn: Message, policy: Policy, path: str, emit: Any) -> None:
    match turn:
        case RawMessage():
            role = str(passthrough_role(turn))
            if role_is_own(role, NAME):
                emit(thaw(turn.data))
                return
            degraded = policy.degrade(
                RawBlock(turn.data), path, f"a {role!r} message is not an item"
            )
            if degraded is not None:
                _encode_input((degraded,), "user", {}, policy, path, emit=emit)
        case AssistantMessage():
            if isinstance(turn.content, str):
                emit({"role": "assistant", "content": turn.content})
            else:
                items.encode_model_blocks(turn.content, "request", policy, path + ".content", emit)
        case UserMessage() | SystemMessage():
            role = "user" if isinstance(turn, UserMessage) else turn.role
            _encode_input(turn.content, role, turn.extra, policy, path, emit=emit)
        case ToolMessage():
            if isinstance(turn.content, str):
                degraded = policy.degrade(
                    ToolResultBlock("", turn.content),
                    path + ".content",
                    "a tool message needs ToolResultBlocks naming their calls",
                )
                if degraded is not None:
                    _encode_input((degraded,), "user", turn.extra, policy, path, emit=emit)
                return
            _encode_input(turn.content, "user", turn.extra, policy, path, emit=emit, tool=True)
        case _:  # request_turns yields role messages and whole raw messages only
            raise AssertionError(turn)


def _encode_input(
    content: str | tuple[Block, ...],
    role: str,
    ex: Mapping[str, Any],
    policy: Policy,
    path: str,
    *,
    emit: Any,
    tool: bool = False,
) -> None:
    # A message from a response or a log has no item fields of a request to give.
    allow: frozenset[str] | None = frozenset() if policy.context else None
    fields = carried(ex, policy, path, "message", protected=_MESSAGE_KEYS, allow=allow)
    if fields.get("type", "message") != "message":
        del fields["type"]  # another format's discriminator, not an item type
    if isinstance(content, str):
        emit({**fields, "role": role, "content": content})
        return
    parts: list[Any] = []
    emitted = False

    def flush(final: bool = False) -> None:
        nonlocal parts, emitted, fields
        if parts or (final and not emitted):
            emit({**fields, "role": role, "content": parts})
            parts, emitted, fields = [], True, {}

    for i, block in enumerate(content):
        at = f"{path}.content[{i}]"
        if isinstance(block, RawBlock) and tool and items.ours(block):
            flush()
            emit(dict(raw(block.data)))
        elif isinstance(block, ToolResultBlock) and block.tool_use_id in policy.lost:
            degraded = policy.degrade(block, at, items.LOST_REASON)
            if degraded is not None:
                parts.append(items.encode_part(degraded, "input_text", policy, at))
        elif isinstance(block, ToolResultBlock):
            flush()
            emit(items.encode_fco(block, policy, at))
        elif isinstance(block, TextBlock | RawBlock) or block.kind in ("image", "audio"):
            part = items.encode_part(block, "input_text", policy, at)
            if part is not None:
                parts.append(part)
        elif isinstance(block, ThinkingBlock) and not items.replayable(block):
            degraded = policy.degrade(block, at, items.REASONING_REASON)
            if degraded is not None:
                parts.append(items.encode_part(degraded, "input_text", policy, at))
        else:  # reasoning and tool calls are items of their own
            flush()
            items.encode_model_blocks(
                (block,), "request", policy, path + ".content", emit, offset=i
            )
    flush(final=not tool)


# -------------------------------------------------------------------------------- responses


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A response object as one assistant message: output items, usage, status, ids."""
    d = owned_body(body, NAME)
    try:
        output = d.get("output")
        if type(output) is not list:
            raise fail("an array", output, "output")
        blocks: list[Block] = []
        for i, item in enumerate(output):
            try:
                if type(item) is not dict:
                    raise fail("an object", item)
                after_text = bool(blocks) and type(blocks[-1]) is TextBlock
                blocks.extend(items.decode_model_item(item, "response", after_text))
            except DecodeError as exc:
                raise exc.within(f".output[{i}]") from None
        usage = d.get("usage")
        ex = {k: v for k, v in d.items() if k not in _MODELLED}
        if usage is None and "usage" in d:
            ex["usage"] = None
        stop_reason = _stop_reason(d)
        error = _error_code(d)
        keep_differences(d, _stop_fields(stop_reason) | _error_fields(error), _DERIVED, ex)
        for key in ("model", "id", "created_at"):
            if key in d and d[key] is None:
                ex[key] = None
        created = d.get("created_at")
        if created is not None and type(created) not in (int, float, str):
            raise fail("a number", created, "created_at")
        return AssistantMessage(
            tuple(blocks),
            usage=None if usage is None else _decode_usage(usage),
            stop_reason=stop_reason,
            error=error,
            model=opt_str(d, "model"),
            message_id=opt_str(d, "id"),
            timestamp=created,
            extra=ex,
        )
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


_DERIVED: Final = ("status", "incomplete_details", "error")
_MODELLED: Final = frozenset(("output", "usage", "model", "id", "created_at", *_DERIVED))


def _stop_reason(d: dict[str, Any]) -> str | None:
    status = opt_str(d, "status")
    details = d.get("incomplete_details")
    if status == "incomplete" and type(details) is dict and type(details.get("reason")) is str:
        return str(details["reason"])
    return status


def _stop_fields(stop_reason: str | None) -> dict[str, Any]:
    if stop_reason is None:
        return {}
    if stop_reason in _STATUSES:
        return {"status": stop_reason}
    return {"status": "incomplete", "incomplete_details": {"reason": stop_reason}}


def _error_code(d: dict[str, Any]) -> str | None:
    error = d.get("error")
    if type(error) is dict and type(error.get("code")) is str:
        return str(error["code"])
    return None


def _error_fields(error: str | None) -> dict[str, Any]:
    return {} if error is None else {"error": {"code": error}}


def _decode_usage(u: Any) -> Usage:
    if type(u) is not dict:
        raise fail("an object", u, "usage")
    try:
        ex = {k: v for k, v in u.items() if k not in ("input_tokens", "output_tokens")}
        for key in ("input_tokens", "output_tokens"):
            if key in u and u[key] is None:
                ex[key] = None
        cached, written = _details(u, "input_tokens_details", ex)
        reasoning, _ = _details(u, "output_tokens_details", ex)
        total_in = opt_int(u, "input_tokens")
        uncached = None if total_in is None else total_in - (cached or 0) - (written or 0)
        return Usage(
            uncached,
            opt_int(u, "output_tokens"),
            cached,
            written,
            reasoning_tokens=reasoning,
            extra=ex,
        )
    except DecodeError as exc:
        raise exc.within(".usage") from None


_DETAIL_KEYS: Final = {
    "input_tokens_details": ("cached_tokens", "cache_write_tokens"),
    "output_tokens_details": ("reasoning_tokens", ""),
}


def _details(u: dict[str, Any], key: str, ex: dict[str, Any]) -> tuple[int | None, int | None]:
    details = u.get(key)
    if type(details) is not dict:
        return None, None
    first, second = _DETAIL_KEYS[key]
    try:
        a = opt_int(details, first)
        b = opt_int(details, second) if second else None
    except DecodeError as exc:
        raise exc.within(f".{key}") from None
    if a is None and b is None:
        return None, None  # nothing modelled: the object stays verbatim in extra
    rest = {k: v for k, v in details.items() if not (k in (first, second) and v is not None)}
    if rest:
        ex[key] = rest
    else:
        del ex[key]
    return a, b


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cached, written = usage.cache_read_tokens, usage.cache_write_tokens
    if usage.input_tokens is not None:
        out["input_tokens"] = usage.input_tokens + (cached or 0) + (written or 0)
    ex = raw(usage.extra)
    if cached is not None or written is not None:
        details: dict[str, Any] = {}
        if cached is not None:
            details["cached_tokens"] = cached
        if written is not None:
            details["cache_write_tokens"] = written
        out["input_tokens_details"] = {**details, **_sub(ex, "input_tokens_details")}
    if usage.output_tokens is not None:
        out["output_tokens"] = usage.output_tokens
    if usage.reasoning_tokens is not None:
        reasoning = {"reasoning_tokens": usage.reasoning_tokens}
        out["output_tokens_details"] = {**reasoning, **_sub(ex, "output_tokens_details")}
    for k, v in response_extra(ex, NAME, usage=True).items():
        out.setdefault(k, v)
    return out


def _sub(ex: dict[str, Any], key: str) -> dict[str, Any]:
    v = ex.get(key)
    return v if type(v) is dict else {}


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A response object for an assistant message (exactly the body it was decoded from)."""
    out: dict[str, Any] = {}
    if message.message_id is not None:
        out["id"] = message.message_id
    if message.timestamp is not None:
        out["created_at"] = message.timestamp
    if message.model is not None:
        out["model"] = message.model
    out.update(_stop_fields(message.stop_reason))
    out.update(_error_fields(message.error))
    output: list[Any] = []
    blocks = (TextBlock(message.content),) if isinstance(message.content, str) else message.content
    items.encode_model_blocks(blocks, "response", Policy("raise", NAME), "$.content", output.append)
    out["output"] = output
    if message.usage is not None:
        out["usage"] = _encode_usage(message.usage)
    out.update({k: v for k, v in response_extra(message.extra, NAME).items() if k != "output"})
    return thaw(out)  # type: ignore[no-any-return]


def accumulator() -> Accumulator:
    """A fresh reassembler for one streamed response (``stream: true`` events, parsed)."""
    return ResponsesAccumulator(decode_response)
