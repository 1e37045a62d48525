"""Goose's ``sessions.db`` rows, both ways: a ``messages`` row and a ``sessions`` row.

A ``messages`` row holds one conversation message: ``role``, ``content_json`` (a list of
content items: ``text``, ``thinking``, ``toolRequest``, ``toolResponse``, ``image``...),
``created_timestamp`` (epoch seconds), ``message_id``, ``session_id``, and, by version,
``metadata_json``, ``tokens``, ``timestamp``. A ``sessions`` row holds the session's name,
working directory, provider, model configuration and its token totals
(``accumulated_input_tokens``... for the whole session, ``input_tokens``... for the last
call). Every column the decoder does not model is kept under ``extra["row"]``.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_time
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...events.run import ResultMessage
from ...message import Message
from ...policy import Policy
from ...policy import describe
from ...roles import AssistantMessage
from ...roles import UserMessage
from ...usage import Usage
from .. import _events as ev
from .._common import other_out
from .._common import text_in
from .._common import text_out

__all__ = ["ROW", "decode_row", "encode_row", "is_row", "model_of", "usage_of"]

ROW: Final = "row"
"""The ``extra`` key under which a row's other columns are kept."""

_MESSAGE_COLUMNS: Final = frozenset(
    ("message_id", "session_id", "role", "content_json", "created_timestamp")
)


def is_row(obj: Any) -> str | None:
    """Which Goose table ``obj`` is a row of (``sessions`` or ``messages``), or ``None``."""
    if type(obj) is not dict:
        return None
    table = obj.get("table")
    if (
        table == "messages"
        and type(obj.get("session_id", "")) is str
        and type(obj.get("role")) is str
        and "content_json" in obj
    ):
        return "messages"
    if table == "sessions" and type(obj.get("id")) is str and "model_config_json" in obj:
        return "sessions"
    return None


def _count(row: dict[str, Any], *names: str) -> int | None:
    """The first of ``names`` that holds a positive count (ccusage's order)."""
    for name in names:
        value = row.get(name)
        if type(value) is int and value > 0:
            return value
    return None


def usage_of(row: dict[str, Any]) -> Usage | None:
    """A session's token totals: the accumulated counts, else the last call's."""
    fresh = _count(row, "accumulated_input_tokens", "input_tokens")
    output = _count(row, "accumulated_output_tokens", "output_tokens")
    total = _count(row, "accumulated_total_tokens", "total_tokens")
    if fresh is None and output is None and total is None:
        return None
    return Usage(fresh, output, extra=ev.frozen({"total": total} if total is not None else {}))


def model_of(row: dict[str, Any]) -> str | None:
    """The model a session row names (``model_config_json.model_name``)."""
    config = row.get("model_config_json")
    if isinstance(config, dict):
        name = config.get("model_name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def _session(d: dict[str, Any]) -> Message:
    return ResultMessage(
        subtype="session",
        usage=usage_of(d),
        session_id=d["id"],
        model=model_of(d),
        timestamp=opt_time(d, "created_at"),
        extra=ev.frozen({ROW: {k: v for k, v in d.items() if k != "id"}}),
    )


def _item(b: Any, at: str) -> Block:
    """One content item as a block; what is not modelled stays on the block (or whole)."""
    found = text_in(b, at)  # text, thinking, or not an object
    if found is not None:
        return found
    tag = b.get("type")
    if tag == "toolRequest" and type(b.get("id")) is str:
        call = b.get("toolCall")
        value = call.get("value") if type(call) is dict else None
        if (
            type(call) is dict
            and call.get("status") == "success"
            and type(value) is dict
            and type(value.get("name")) is str
            and type(value.get("arguments", {})) is dict
        ):
            left = rest(b, frozenset(("type", "id", "toolCall")))
            call_left = rest(call, frozenset(("status", "value")))
            value_left = rest(value, frozenset(("name", "arguments")))
            if "arguments" not in value:
                value_left["arguments"] = None  # written without arguments: kept so
            if value_left:
                call_left["value"] = value_left
            if call_left:
                left["toolCall"] = call_left
            args = value.get("arguments") or {}
            return ToolUseBlock(b["id"], value["name"], wrap_owned(args), extra=ev.frozen(left))
    if tag == "toolResponse" and type(b.get("id")) is str:
        result = b.get("toolResult")
        if type(result) is dict and result.get("status") == "success":
            items = result.get("value")
            if type(items) is list:
                left = rest(b, frozenset(("type", "id", "toolResult")))
                result_left = rest(result, frozenset(("status", "value")))
                if result_left:
                    left["toolResult"] = result_left
                content = tuple(
                    _item(x, f"{at}.toolResult.value[{i}]") for i, x in enumerate(items)
                )
                return ToolResultBlock(b["id"], content, is_error=False, extra=ev.frozen(left))
        if (
            type(result) is dict
            and result.get("status") == "error"
            and type(result.get("error")) is str
        ):
            left = rest(b, frozenset(("type", "id", "toolResult")))
            result_left = rest(result, frozenset(("status", "error")))
            if result_left:
                left["toolResult"] = result_left
            return ToolResultBlock(b["id"], result["error"], is_error=True, extra=ev.frozen(left))
    return RawBlock(wrap_owned(b))


def _message(d: dict[str, Any]) -> Message:
    role = need_str(d, "role")
    content = d.get("content_json")
    if type(content) is not list:
        raise fail("a list of content items", content, "content_json")
    blocks = tuple(_item(b, f"$.content_json[{i}]") for i, b in enumerate(content))
    kept = {k: v for k, v in d.items() if k not in _MESSAGE_COLUMNS}
    ident = d.get("message_id")
    if "message_id" in d and type(ident) is not str:
        kept["message_id"] = ident  # a null or a number: kept as written
    stamp = opt_time(d, "created_timestamp")
    if "created_timestamp" in d and stamp is None:
        kept["created_timestamp"] = None
    context: dict[str, Any] = {
        "session_id": d.get("session_id"),
        "message_id": ident if type(ident) is str else None,
        "timestamp": stamp,
        "extra": ev.frozen({ROW: kept}),
    }
    if role == "user":
        return UserMessage(blocks, **context)
    if role == "assistant":
        return AssistantMessage(blocks, **context)
    raise DecodeError(f"expected 'user' or 'assistant', found {role!r}", path="$.role")


def decode_row(obj: dict[str, Any]) -> Message:
    """One row to one message (``is_row`` said which table it is from)."""
    if is_row(obj) == "sessions":
        return _session(obj)
    return _message(obj)


def _item_out(b: Block, policy: Policy, at: str) -> Any:
    match b:
        case TextBlock() | ThinkingBlock():
            out = text_out(b, policy, at, "Goose text items carry no citations")
        case ToolUseBlock():
            value = {"name": b.name, "arguments": raw(b.input)}
            out = {
                "type": "toolRequest",
                "id": b.id,
                "toolCall": {"status": "success", "value": value},
            }
            out = ev.overlay(out, b.extra)
            if out["toolCall"]["value"].get("arguments", {}) is None:
                del out["toolCall"]["value"]["arguments"]
            return out
        case ToolResultBlock():
            if b.is_error:
                text = b.content if isinstance(b.content, str) else describe(b)
                result: dict[str, Any] = {"status": "error", "error": text}
            elif isinstance(b.content, str):
                result = {"status": "success", "value": [{"type": "text", "text": b.content}]}
            else:
                items = [
                    _item_out(x, policy, f"{at}.content[{i}]") for i, x in enumerate(b.content)
                ]
                result = {"status": "success", "value": [x for x in items if x is not None]}
            out = {"type": "toolResponse", "id": b.tool_use_id, "toolResult": result}
        case _:  # raw, media, server tools
            return other_out(b, policy, at, "Goose has no content item")
    return ev.overlay(out, b.extra)


def encode_row(m: Message, policy: Policy) -> dict[str, Any] | None:
    """A message decoded from a row, back as that row."""
    row = m.extra.get(ROW)
    if isinstance(m, ResultMessage) and row is not None and m.session_id is not None:
        return {"id": m.session_id, **raw(row)}
    if isinstance(m, UserMessage | AssistantMessage):
        blocks = m.content if not isinstance(m.content, str) else (TextBlock(m.content),)
        left = policy.left_out
        items = [_item_out(b, policy, f"$.content[{i}]") for i, b in enumerate(blocks)]
        if blocks and policy.left_out > left and all(x is None for x in items):
            return None  # the policy left out all there was
        out: dict[str, Any] = {"table": "messages"}
        if m.message_id is not None:
            out["message_id"] = m.message_id
        if m.session_id is not None:
            out["session_id"] = m.session_id
        out["role"] = m.role
        out["content_json"] = [x for x in items if x is not None]
        if m.timestamp is not None:
            out["created_timestamp"] = m.timestamp
        if row is not None:
            out.update(raw(row))
        return out
    return None
