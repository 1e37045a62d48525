"""Encoding conversations as OpenAI Responses requests, and messages as responses.

Content parts, tool outputs and the reading of items are in :mod:`.parts`;
this module writes each turn as items (the model-side ones here: calls, reasoning,
assistant text), puts every ``function_call_output`` right after its call, and writes the
response object around the output.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import assert_never

from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import present
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...settings import RequestSettings
from ...usage import Usage
from .._carry import carried
from .._carry import each_turn
from .._carry import is_empty
from .._carry import non_null
from .._carry import raw_turn
from .._carry import refusal_text
from .._carry import start_request
from .._formats import RESPONSES as NAME
from .._formats import response_extra
from .._server_tools import ResponsesItems
from .._settings import write_settings
from . import parts as items
from .decoder import MESSAGE_KEYS
from .decoder import error_fields
from .decoder import is_instructions
from .decoder import plain_input
from .decoder import stop_fields
from .settings import SPELLING

__all__ = ["encode_request", "encode_response"]


def encode_request(
    conversation: Iterable[Message],
    *,
    unsupported: Unsupported = "raise",
    settings: RequestSettings | None = None,
) -> dict[str, Any]:
    """The ``instructions`` and ``input`` of a request for this conversation.

    A leading plain-text system message becomes ``instructions``; a conversation that is
    one plain-text user message is sent as a string ``input``. Assistant text is string
    content (one item a block) unless it came from a Responses message item, which is
    written back as it was; each ``function_call_output`` follows its call. Content
    Responses cannot carry follows ``unsupported``: raise
    :class:`UnsupportedContentError`, drop, or text.
    """
    policy, turns = start_request(conversation, unsupported, NAME, items.ours)
    body: dict[str, Any] = {}
    start = 0
    if turns and is_instructions(turns[0]):
        first = turns[0]
        assert isinstance(first, SystemMessage)
        # Text blocks joined by newlines; empty ones carry nothing and add no line.
        texts = [b.text for b in first.blocks if isinstance(b, TextBlock) and b.text]
        content = first.content
        body["instructions"] = content if isinstance(content, str) else "\n".join(texts)
        start = 1
    out: list[Any] = []
    for _, path, turn in each_turn(policy, turns, start):
        _encode_turn(turn, policy, path, out.append)
    rest = turns[start:]
    if len(rest) == 1 and isinstance(rest[0], UserMessage) and plain_input(rest[0]):
        body["input"] = rest[0].content
    else:
        body["input"] = _arrange(out)
    fresh: dict[str, Any] = thaw(body)  # a fresh copy the caller may change
    return write_settings(fresh, settings, policy, SPELLING)


_CALL_RUN = ("function_call", "function_call_output")


def _arrange(out: list[Any]) -> list[Any]:
    """Move each ``function_call_output`` up to just after its call.

    It goes past the calls made with its own (a parallel set) and the outputs already
    there, and before anything else: assistant text or reasoning written after the call in
    the same turn, or user input, comes after the answer, as the API requires every call
    to be answered before the conversation goes on.
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
        while position < len(placed) and placed[position].get("type") in _CALL_RUN:
            position += 1
        placed.insert(position, item)
    return placed


def _encode_turn(turn: Message, policy: Policy, path: str, emit: Any) -> None:
    match turn:
        case RawMessage():
            kept = raw_turn(turn, policy, path, "a {role} message is not an item")
            if isinstance(kept, dict):
                emit(kept)
            elif kept is not None:
                _encode_input((kept,), "user", {}, policy, path, emit=emit)
        case AssistantMessage():
            if isinstance(turn.content, str):
                emit({"role": "assistant", "content": turn.content})
            else:
                encode_model_blocks(turn.content, "request", policy, path + ".content", emit)
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


_PARTS = frozenset(("image", "audio", "document", "video"))
"""Block kinds an input message takes as parts (or the policy decides about, as parts)."""


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
    fields = carried(ex, policy, path, "message", protected=MESSAGE_KEYS, allow=allow)
    if fields.get("type", "message") != "message":
        del fields["type"]  # another format's discriminator, not an item type
    if isinstance(content, str):
        emit({**fields, "role": role, "content": content})
        return
    parts: list[Any] = []
    emitted = False  # a message item of this turn
    wrote = False  # any item of this turn
    dropped = policy.left_out

    def put(item: dict[str, Any]) -> None:
        nonlocal wrote
        wrote = True
        emit(item)

    def flush() -> None:
        nonlocal parts, emitted, fields
        if parts:
            put({**fields, "role": role, "content": parts})
            parts, emitted, fields = [], True, {}

    for i, block in enumerate(content):
        at = f"{path}.content[{i}]"
        if isinstance(block, RawBlock) and tool and items.ours(block):
            flush()
            put(dict(raw(block.data)))
        elif isinstance(block, ToolResultBlock) and block.tool_use_id in policy.lost:
            degraded = policy.degrade(block, at, items.LOST_REASON)
            if degraded is not None:
                parts.append(items.encode_part(degraded, "input_text", policy, at))
        elif isinstance(block, ToolResultBlock):
            flush()
            put(items.encode_fco(block, policy, at))
        elif isinstance(block, TextBlock | RawBlock) or block.kind in _PARTS:
            part = items.encode_part(block, "input_text", policy, at)
            if part is not None:
                parts.append(part)
        elif isinstance(block, ThinkingBlock) and not items.replayable(block):
            degraded = policy.degrade(block, at, items.REASONING_REASON)
            if degraded is not None:
                parts.append(items.encode_part(degraded, "input_text", policy, at))
        else:  # reasoning and tool calls are items of their own
            flush()
            encode_model_blocks((block,), "request", policy, path + ".content", put, offset=i)
    flush()
    if tool or emitted:
        return
    if not wrote and policy.left_out == dropped:
        # A turn that came empty is written as the empty message it was (exact replay). One
        # the policy emptied is left out, and so is the empty item after the outputs of a
        # turn of only tool results: the API takes no input message without content.
        put({**fields, "role": role, "content": []})
    elif fields:
        policy.refuse(
            "a turn of only tool results has no message item to carry its fields",
            f"{path}.extra",
            fields,
        )


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cached, written = usage.cache_read_tokens, usage.cache_write_tokens
    if usage.input_tokens is not None:
        out["input_tokens"] = usage.input_tokens + (cached or 0) + (written or 0)
    ex = raw(usage.extra)
    if cached is not None or written is not None:
        details = present(cached_tokens=cached, cache_write_tokens=written)
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
    out = present(id=message.message_id, created_at=message.timestamp, model=message.model)
    out.update(stop_fields(message.stop_reason))
    out.update(error_fields(message.error))
    output: list[Any] = []
    blocks = (TextBlock(message.content),) if isinstance(message.content, str) else message.content
    encode_model_blocks(blocks, "response", Policy("raise", NAME), "$.content", output.append)
    out["output"] = output
    if message.usage is not None:
        out["usage"] = _encode_usage(message.usage)
    out.update({k: v for k, v in response_extra(message.extra, NAME).items() if k != "output"})
    return thaw(out)  # type: ignore[no-any-return]


# ------------------------------------------------------------ model-side items


def encode_call(block: ToolUseBlock, policy: Policy, path: str) -> dict[str, Any]:
    """A ToolUseBlock as a ``function_call`` item; ``arguments`` kept exactly when present."""
    arguments = block.arguments
    if arguments is None:
        arguments = json.dumps(raw(block.input), ensure_ascii=False, separators=(",", ":"))
    ex = carried(
        block.extra, policy, path, "tool_use", protected=items.CALL_KEYS | items.CALLER_KEYS
    )
    out: dict[str, Any] = {"type": "function_call"}
    if "id" in ex:
        out["id"] = ex.pop("id")
    out.update(call_id=block.id, name=block.name, arguments=arguments)
    items.write_caller(block.extra, out)
    out.update(ex)
    return out


def encode_reasoning(block: ThinkingBlock, policy: Policy, path: str) -> dict[str, Any]:
    """An OpenAI ThinkingBlock as a ``reasoning`` item."""
    signed = block.signature is not None
    keep_out = (
        items.SIGNED_KEYS if signed else items.TYPE_KEYS | non_null(block.extra, items.SIGNED_KEYS)
    )
    ex = carried(block.extra, policy, path, "thinking", protected=keep_out)
    out: dict[str, Any] = {"type": "reasoning"}
    if "id" in ex:
        out["id"] = ex.pop("id")
    out["summary"] = ex.pop("summary") if "summary" in ex else items.summary_parts(block.thinking)
    if signed:
        out["encrypted_content"] = block.signature
    out.update(ex)  # a null encrypted_content of the wire comes back from extra
    return out


def _history_text(block: TextBlock, policy: Policy, path: str) -> dict[str, Any]:
    """Assistant text that came from elsewhere, as request history: string content.

    A message item of ``output_text`` parts needs the ``id`` and ``status`` of the response
    that produced it (the SDK's ``ResponseOutputMessageParam``), and the API takes no input
    parts from the assistant, so the text goes as a string: a refusal as its words. Part
    fields a string cannot hold (annotations, a cache breakpoint) follow the policy.
    """
    part = items.text_part(block, "output_text", policy, path)
    for key, value in part.items():
        if key not in ("type", "text", "refusal") and not is_empty(value):
            where = f"{path}.citations" if key == "annotations" else f"{path}.extra.{key}"
            policy.refuse(
                f"cannot carry {key!r} on assistant history written as string content",
                where,
                value,
            )
    text = part["refusal"] if part["type"] == "refusal" else part["text"]
    return {"role": "assistant", "content": text}


def encode_model_blocks(
    blocks: tuple[Block, ...],
    mode: items.Mode,
    policy: Policy,
    path: str,
    emit: Callable[[dict[str, Any]], None],
    *,
    offset: int = 0,
) -> None:
    """An assistant turn's blocks as items, in order; consecutive text shares a message item.

    ``offset`` is the index of ``blocks[0]`` in its message, for error paths.
    """
    parts: list[Any] | None = None
    server = ResponsesItems()

    def add_text(block: TextBlock, at: str) -> None:
        nonlocal parts
        record = items.item_record(block)
        if mode == "request" and record is None and parts is None:
            emit(_history_text(block, policy, at))
            return
        if record is not None or parts is None:
            item = dict(raw(record)) if record is not None else items.default_record(mode)
            item["role"] = "assistant"
            item["content"] = parts = []
            emit(item)
        parts.append(items.text_part(block, "output_text", policy, at))

    for i, block in enumerate(blocks):
        at = f"{path}[{offset + i}]"
        degraded: TextBlock | None
        if not isinstance(block, ServerToolUseBlock | ServerToolResultBlock):
            server.reset()
        match block:
            case TextBlock():
                add_text(block, at)
                continue
            case ThinkingBlock() if items.replayable(block):
                parts = None
                emit(encode_reasoning(block, policy, at))
                continue
            case ThinkingBlock():
                degraded = policy.degrade(block, at, items.REASONING_REASON)
            case ToolUseBlock():
                parts = None
                emit(encode_call(block, policy, at))
                continue
            case ToolResultBlock() if block.tool_use_id in policy.lost:
                degraded = policy.degrade(block, at, items.LOST_REASON)
            case ToolResultBlock():
                parts = None
                emit(items.encode_fco(block, policy, at))
                continue
            case RawBlock() if refusal_text(block) is not None:
                add_text(TextBlock(str(refusal_text(block)), extra={"type": "refusal"}), at)
                continue
            case RawBlock() if items.ours(block):
                parts = None
                emit(dict(raw(block.data)))
                continue
            case RawBlock():
                degraded = policy.degrade(
                    block, at, "this raw block is not an OpenAI Responses item"
                )
            case ImageBlock() | AudioBlock() | DocumentBlock() | VideoBlock():
                degraded = policy.degrade(
                    block, at, f"OpenAI Responses assistant messages cannot carry {block.kind}"
                )
            case ServerToolUseBlock() | ServerToolResultBlock():
                item = server.encode(block, policy, at)
                if not isinstance(item, TextBlock):
                    if item is not None:
                        parts = None
                        emit(item)
                    continue
                degraded = item
            case _:
                assert_never(block)
        if degraded is not None:
            add_text(degraded, at)
