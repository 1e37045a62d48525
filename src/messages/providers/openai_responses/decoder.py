"""Decoding OpenAI Responses request and response bodies into messages.

Items and content parts are read by :mod:`.parts`; this module groups the items
of a request into turns and reads the response object around its output (usage, status,
error). The few rules the encoder must mirror (which first message is ``instructions``,
how a stop reason is spelled) are defined here and imported by :mod:`.encoder`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import opt_int
from ..._core.wire import opt_str
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...errors import DecodeError
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import keep_differences
from .._common import owned_body
from .._common import with_source
from .._formats import RESPONSES as NAME
from . import parts as items

__all__ = [
    "MESSAGE_KEYS",
    "decode_request",
    "decode_response",
    "error_fields",
    "is_instructions",
    "plain_input",
    "stop_fields",
]

_STATUSES: Final = frozenset(
    ("completed", "failed", "in_progress", "cancelled", "queued", "incomplete")
)
MESSAGE_KEYS: Final = frozenset(("role", "content"))
"""The keys of a message item that the role message models."""
# Makers: the decoders hand over checked, frozen values only (see _core/make.py).
_new_system: Final = maker(SystemMessage)
_new_user: Final = maker(UserMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_tool: Final = maker(ToolMessage)


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
            out.append(
                _new_system(instructions, "system", None, None, None, None, None, None, EMPTY)
            )
        value = d.get("input")
        if type(value) is str:
            out.append(
                _new_user(value, None, None, None, None, None, None, EMPTY, None, None, None)
            )
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
    if isinstance(first, UserMessage) and len(messages) == 1 and plain_input(first):
        messages[0] = UserMessage(first.content, extra={"role": "user"})
    elif isinstance(first, SystemMessage) and not has_instructions and is_instructions(first):
        messages[0] = replace(first, extra={"role": "system"})
    return messages


def plain_input(message: UserMessage | SystemMessage) -> bool:
    """String content and no item fields: what a plain string ``input`` decodes to."""
    return isinstance(message.content, str) and not message.extra


def is_instructions(message: Message) -> bool:
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
            content = tuple(group)
            out.append(
                _new_assistant(content, None, None, None, None, None, None, None, None, None, EMPTY)
            )
        elif side == "tool":
            out.append(_new_tool(tuple(group), None, None, None, None, None, None, EMPTY))
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
                plain = item.keys() == MESSAGE_KEYS and type(item["content"]) is str
                if role == "assistant" and plain:
                    close()
                    text = item["content"]
                    out.append(
                        _new_assistant(
                            text, None, None, None, None, None, None, None, None, None, EMPTY
                        )
                    )
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
    ex = extra(d, MESSAGE_KEYS)
    if role == "user":
        return _new_user(content, None, None, None, None, None, None, ex, None, None, None)
    kind = "developer" if role == "developer" else "system"
    return _new_system(content, kind, None, None, None, None, None, None, ex)


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
        keep_differences(d, stop_fields(stop_reason) | error_fields(error), _DERIVED, ex)
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


def stop_fields(stop_reason: str | None) -> dict[str, Any]:
    """The ``status`` (and ``incomplete_details``) a stop reason is written as."""
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


def error_fields(error: str | None) -> dict[str, Any]:
    """The ``error`` object an error code is written as (none without a code)."""
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
