"""Copilot session-event envelopes, and the assistant turn (``assistant.message``).

An ``assistant.message`` holds the model's reasoning (``reasoningText`` and the opaque
``reasoningOpaque``), its text (``content``) and its tool calls (``toolRequests``, whose
``arguments`` are an object or a JSON string). It decodes to one :class:`AssistantMessage`
with a :class:`ThinkingBlock`, a :class:`TextBlock` and a :class:`ToolUseBlock` per request.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...message import Message
from ...roles import AssistantMessage
from ...roles import as_blocks
from ...usage import Usage
from .. import _base
from .. import _events as ev

__all__ = [
    "assistant",
    "assistant_out",
    "carried",
    "event_out",
    "mirror",
    "request",
    "without_calls",
]

# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_assistant: Final = maker(AssistantMessage)
_new_usage: Final = maker(Usage)
_new_text: Final = maker(TextBlock)
_new_thinking: Final = maker(ThinkingBlock)
_new_use_block: Final = maker(ToolUseBlock)

_EVENT: Final = frozenset(("type", "data", "id", "timestamp"))
_ASSISTANT: Final = frozenset(
    (
        "messageId",
        "model",
        "content",
        "toolRequests",
        "reasoningText",
        "reasoningOpaque",
        "outputTokens",
    )
)
_REQUEST: Final = frozenset(("toolCallId", "name", "arguments"))


def mirror(d: dict[str, Any], data_rest: dict[str, Any] | None) -> FrozenDict:
    """The ``extra`` of an event: envelope keys not modelled, and ``data`` keys under ``data``."""
    return ev.mirror(d, _EVENT, "data", data_rest)


def _arguments(text: str) -> FrozenDict:
    try:
        value = _base.load_line(text)
        return wrap_owned(ev.owned(value)) if type(value) is dict else EMPTY
    except DecodeError:
        return EMPTY


def request(
    r: Any, at: str, *, name_key: str = "name", known: frozenset[str] = _REQUEST
) -> ToolUseBlock:
    """A tool call, from a ``toolRequests`` entry or a ``tool.execution_start``'s ``data``.

    The execution event names the tool ``toolName`` (``name_key``); ``arguments`` is an object
    or JSON text.
    """
    if type(r) is not dict:
        raise fail("an object", r, at=at)
    call = need_str(r, "toolCallId", at)
    name = need_str(r, name_key, at)
    extra = rest(r, known)
    args = r.get("arguments", MISSING)
    text = None
    value = EMPTY
    if type(args) is dict:
        if args:
            value = wrap_owned(args)
        else:  # written back only from the mirror
            extra = extra or {}
            extra["arguments"] = {}
    elif type(args) is str:
        text = args
        value = _arguments(args)
    elif args is not MISSING and args is not None:
        raise fail("an object or a string", args, "arguments", at)
    return _new_use_block(call, name, value, text, ev.frozen(extra))


def assistant(d: dict[str, Any], data: dict[str, Any]) -> Message:
    """An ``assistant.message`` event as one assistant turn."""
    at = "$.data"
    data_rest = rest(data, _ASSISTANT) or {}
    blocks: list[Block] = []
    signature = opt_str(data, "reasoningOpaque", at)
    reasoning = opt_str(data, "reasoningText", at)
    if reasoning is not None or signature is not None:
        redacted = reasoning is None
        blocks.append(_new_thinking(reasoning or "", signature, redacted, None, EMPTY))
    content = opt_str(data, "content", at)
    if content:
        blocks.append(_new_text(content, None, EMPTY))
    elif content == "":
        data_rest["content"] = ""
    requests = data.get("toolRequests")
    if type(requests) is list:
        if not requests:
            data_rest["toolRequests"] = []
        for i, r in enumerate(requests):
            blocks.append(request(r, f"{at}.toolRequests[{i}]"))
    elif requests is not None:
        raise fail("an array", requests, "toolRequests", at)
    output = opt_int(data, "outputTokens", at)
    usage = None if output is None else _new_usage(None, output, None, None, None, None, EMPTY)
    model = opt_str(data, "model", at)
    message_id = opt_str(data, "messageId", at)
    uuid = opt_str(d, "id")
    timestamp = opt_time(d)
    extra = mirror(d, data_rest)
    return _new_assistant(
        tuple(blocks), usage, None, None, uuid, None, None, model, message_id, timestamp, extra
    )


def event_out(kind: str, m: Message, data: dict[str, Any]) -> dict[str, Any]:
    """An event envelope: ``type``, ``data``, then ``id`` and ``timestamp`` when known."""
    return {"type": kind, "data": data, **present(id=m.uuid, timestamp=m.timestamp)}


def _request_out(b: ToolUseBlock) -> dict[str, Any]:
    r: dict[str, Any] = {"toolCallId": b.id, "name": b.name}
    if b.arguments is not None:
        r["arguments"] = b.arguments
    elif b.input:
        r["arguments"] = raw(b.input)
    return ev.overlay(r, b.extra)


def carried(m: AssistantMessage) -> bool:
    """Whether one ``assistant.message`` can hold the turn (text, thinking, tool calls)."""
    return all(
        isinstance(b, (TextBlock, ThinkingBlock, ToolUseBlock)) for b in as_blocks(m.content)
    )


def assistant_out(m: AssistantMessage) -> dict[str, Any]:
    """An assistant turn as an ``assistant.message`` (texts and reasonings joined by newlines)."""
    blocks = as_blocks(m.content)
    data: dict[str, Any] = {}
    if m.message_id is not None:
        data["messageId"] = m.message_id
    if m.model is not None:
        data["model"] = m.model
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    if texts:
        data["content"] = "\n".join(texts)
    uses = [_request_out(b) for b in blocks if isinstance(b, ToolUseBlock)]
    if uses:
        data["toolRequests"] = uses
    thinking = [b for b in blocks if isinstance(b, ThinkingBlock)]
    if thinking:
        shown = [b.thinking for b in thinking if not b.redacted]
        if shown:
            data["reasoningText"] = "\n".join(shown)
        signatures = [b.signature for b in thinking if b.signature is not None]
        if signatures:
            data["reasoningOpaque"] = signatures[-1]
    if m.usage is not None and m.usage.output_tokens is not None:
        data["outputTokens"] = m.usage.output_tokens
    return event_out("assistant.message", m, data)


def without_calls(
    m: AssistantMessage, announced: Collection[str], requests: list[Any]
) -> AssistantMessage:
    """The turn without the tool calls already announced (by a ``tool.execution_start``).

    The wire's ``toolRequests`` list is kept whole in ``extra``, so the event is written back
    as it came.
    """
    blocks = as_blocks(m.content)
    kept = tuple(b for b in blocks if not (isinstance(b, ToolUseBlock) and b.id in announced))
    mirror_: dict[str, Any] = thaw(m.extra)
    mirror_.setdefault("data", {})["toolRequests"] = requests
    return replace(m, content=kept, extra=wrap_owned(mirror_))
