"""Codex session rollout files: the ``rollout-*.jsonl`` Codex writes under ``~/.codex/sessions``.

Each line is an envelope ``{"timestamp": ISO, "type": T, "payload": {...}}``; the envelope's
``timestamp`` becomes the message's ``timestamp`` and what a message does not model stays in
its ``extra`` as a skeleton of the line, so encoding rebuilds the line exactly. By ``T``:

- ``session_meta`` -> :class:`InitMessage` (``session_id`` = ``payload.id``, ``cwd``);
- ``turn_context`` -> :class:`TurnContextMessage` (the turn's model, folder, policies);
- ``response_item`` -> the Responses-API item: a ``message`` -> a role message by its role
  (``user``, ``assistant``, ``developer``/``system``) with text blocks for ``input_text`` /
  ``output_text`` parts and raw blocks for the others; ``reasoning`` -> :class:`ThinkingMessage`
  (``signature`` = ``encrypted_content``); ``function_call``, ``custom_tool_call``,
  ``local_shell_call`` -> :class:`ToolUseMessage`; their outputs -> :class:`ToolResultMessage`;
  ``web_search_call`` -> an :class:`AssistantMessage` with the server tool call and its
  result; ``compaction`` -> :class:`CompactBoundaryMessage` (see :mod:`.records`); other
  items -> :class:`RawMessage`;
- ``event_msg``: ``token_count`` -> :class:`ResultMessage` (``subtype="token_count"``,
  ``usage`` = ``last_token_usage``); ``error`` -> :class:`ErrorMessage`; the echoes of response
  items (``user_message``, ``agent_message``, ``agent_reasoning``...) ->
  :class:`StreamEventMessage`; turn boundaries, tool reports, ``context_compacted`` and a
  ``token_count`` of rate limits only -> the records of :mod:`.records`; any other event ->
  :class:`RawMessage`;
- ``compacted`` -> :class:`UserMessage` with ``summary="compaction"``.

A token_count that restates the totals of the one before it (Codex writes it again when only
the rate limits changed) reports no new model call: in a stream it is a
:class:`StreamEventMessage`, so usage is counted once per model call. The stream context
(the model of the last ``turn_context``, the last totals) lives in a :class:`Context`.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.jsontext import dump_compact
from ..._core.jsontext import parse_arguments
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...errors import DecodeError
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import RawMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import UserMessage
from .items import decode_usage
from .items import encode_usage
from .records import decode_record_event
from .records import decode_record_item
from .records import decode_turn_context
from .records import encode_record_event
from .records import encode_record_item
from .records import encode_turn_context
from .records import tag_of

__all__ = ["Context", "TYPES", "decode_rollout", "encode_rollout", "is_rollout"]

TYPES: Final = frozenset(
    ("session_meta", "turn_context", "response_item", "event_msg", "compacted")
)
"""The ``type`` of a rollout line's envelope."""

ECHOES: Final = frozenset(
    ("user_message", "agent_message", "agent_reasoning", "agent_reasoning_raw_content")
)
"""``event_msg`` types that repeat what a ``response_item`` holds whole."""

_TEXT_PARTS: Final = frozenset(("input_text", "output_text"))
_ROLES: Final = {
    "user": UserMessage,
    "assistant": AssistantMessage,
    "developer": SystemMessage,
    "system": SystemMessage,
}
_CALLS: Final = {"function_call": "arguments", "custom_tool_call": "input"}
_OUTPUTS: Final = frozenset(("function_call_output", "custom_tool_call_output"))
_ORDER: Final = {
    "session_meta": (
        "id",
        "forked_from_id",
        "timestamp",
        "cwd",
        "originator",
        "cli_version",
        "instructions",
        "source",
        "model_provider",
        "git",
    ),
    "message": ("type", "id", "role", "content"),
    "reasoning": ("type", "id", "summary", "content", "encrypted_content"),
    "function_call": ("type", "id", "name", "arguments", "call_id"),
    "custom_tool_call": ("type", "id", "status", "call_id", "name", "input"),
    "local_shell_call": ("type", "id", "call_id", "status", "action"),
    "function_call_output": ("type", "call_id", "output"),
    "custom_tool_call_output": ("type", "call_id", "output"),
    "token_count": ("type", "info", "rate_limits"),
    "info": ("total_token_usage", "last_token_usage", "model_context_window"),
    "error": ("type", "message"),
    "compacted": ("message", "replacement_history"),
}
"""The order Codex writes each payload's fields in: modelled fields go back in place."""


class Context:
    """What a rollout stream has said so far: the turn's model and the last token totals."""

    __slots__ = ("model", "totals")

    def __init__(self) -> None:
        self.model: str | None = None
        """The model of the last ``turn_context``."""
        self.totals: Any = None
        """The ``total_token_usage`` of the last ``token_count`` that had one."""


def is_rollout(obj: dict[str, Any]) -> bool:
    """Whether a parsed line is a rollout envelope (a known ``type`` and an object payload)."""
    tag = obj.get("type")
    return type(tag) is str and tag in TYPES and type(obj.get("payload")) is dict


# -- decoding ---------------------------------------------------------------------------------


def _parts(parts: list[Any], at: str) -> tuple[tuple[Block, ...], list[Any]]:
    """Content parts to blocks, and each part's skeleton (``None`` for a part kept raw)."""
    blocks: list[Block] = []
    skeleton: list[Any] = []
    for i, part in enumerate(parts):
        if type(part) is dict and tag_of(part) in _TEXT_PARTS and "text" in part:
            blocks.append(TextBlock(need_str(part, "text", f"{at}[{i}]")))
            skeleton.append(rest(part, ("text",)))
        else:
            blocks.append(RawBlock(part))
            skeleton.append(None)
    return tuple(blocks), skeleton


def _reasoning_text(payload: dict[str, Any]) -> str:
    """The reasoning's text: its summary parts joined, else its content parts."""
    for key in ("summary", "content"):
        parts = payload.get(key)
        if type(parts) is list:
            texts = [p["text"] for p in parts if type(p) is dict and type(p.get("text")) is str]
            if texts:
                return "\n\n".join(texts)
    return ""


def _item(p: dict[str, Any], sk: dict[str, Any], ctx: Context, ts: Any) -> Message | None:
    """A response item to its message; ``None`` when it is kept raw.

    ``sk`` is the line's skeleton, whose ``payload`` this fills in.
    """
    tag = tag_of(p)
    model = ctx.model
    if tag == "message":
        role = p.get("role")
        cls = _ROLES.get(role) if type(role) is str else None
        content = p.get("content")
        if cls is None or type(content) is not list:
            return None
        blocks, parts = _parts(content, "$.payload.content")
        sk["payload"] = {**p, "content": parts}
        extra = wrap_owned(sk)
        if cls is SystemMessage and role == "developer":
            return SystemMessage(blocks, role="developer", timestamp=ts, extra=extra)
        if cls is SystemMessage:
            return SystemMessage(blocks, timestamp=ts, extra=extra)
        if cls is UserMessage:
            return UserMessage(blocks, timestamp=ts, extra=extra)
        return AssistantMessage(blocks, model=model, timestamp=ts, extra=extra)
    if tag == "reasoning":
        signature = opt_str(p, "encrypted_content", "$.payload")
        sk["payload"] = rest(p, ("encrypted_content",)) if signature is not None else p
        return ThinkingMessage(
            _reasoning_text(p),
            signature=signature,
            provider="openai",
            model=model,
            timestamp=ts,
            extra=wrap_owned(sk),
        )
    if tag in _CALLS:
        key = _CALLS[tag]
        if "call_id" not in p or "name" not in p or key not in p:
            return None
        text = need_str(p, key, "$.payload")
        call_id = need_str(p, "call_id", "$.payload")
        name = need_str(p, "name", "$.payload")
        sk["payload"] = rest(p, ("call_id", "name", key))
        if key == "arguments":
            parsed = parse_arguments(text)
            args = wrap_owned({} if parsed is None else parsed)
            return ToolUseMessage(
                call_id, name, args, arguments=text, model=model, timestamp=ts, extra=wrap_owned(sk)
            )
        return ToolUseMessage(
            call_id, name, {"input": text}, model=model, timestamp=ts, extra=wrap_owned(sk)
        )
    if tag == "local_shell_call":
        action = p.get("action")
        shell_id = opt_str(p, "call_id", "$.payload")
        if shell_id is None or type(action) is not dict:
            return None
        sk["payload"] = rest(p, ("call_id", "action"))
        extra = wrap_owned(sk)
        return ToolUseMessage(
            shell_id, "local_shell", wrap_owned(action), model=model, timestamp=ts, extra=extra
        )
    if tag in _OUTPUTS:
        if "call_id" not in p or "output" not in p:
            return None
        call_id = need_str(p, "call_id", "$.payload")
        output = p["output"]
        sk["payload"] = rest(p, ("call_id", "output"))
        if type(output) is list:
            blocks, parts = _parts(output, "$.payload.output")
            sk["payload"] = {**p, "output": parts}
            del sk["payload"]["call_id"]
            return ToolResultMessage(call_id, blocks, timestamp=ts, extra=wrap_owned(sk))
        if type(output) is not str:
            raise fail("a string or an array", output, "output", "$.payload")
        return ToolResultMessage(call_id, output, timestamp=ts, extra=wrap_owned(sk))
    return decode_record_item(p, sk, ts, model)


def _event(
    p: dict[str, Any], sk: dict[str, Any], obj: dict[str, Any], ctx: Context, ts: Any
) -> Message | None:
    tag = tag_of(p)
    if tag in ECHOES:
        return StreamEventMessage(wrap_owned(obj), timestamp=ts)
    if tag == "error" and "message" in p:
        message = need_str(p, "message", "$.payload")
        sk["payload"] = rest(p, ("message",))
        return ErrorMessage(message, timestamp=ts, extra=wrap_owned(sk))
    if tag != "token_count":
        return decode_record_event(p, sk, ts, ctx.model)
    info = p.get("info")
    if info is None:
        return decode_record_event(p, sk, ts, ctx.model)  # rate limits only
    if type(info) is not dict:
        raise fail("an object", info, "info", "$.payload")
    totals = info.get("total_token_usage")
    if totals is not None and totals == ctx.totals:
        return StreamEventMessage(wrap_owned(obj), model=ctx.model, timestamp=ts)
    if totals is not None:
        ctx.totals = totals
    last = info.get("last_token_usage")
    if type(last) is not dict:
        if last is not None:
            raise fail("an object", last, "last_token_usage", "$.payload.info")
        return None
    try:
        usage = decode_usage(last)
    except DecodeError as exc:
        raise exc.within(".payload.info.last_token_usage") from None
    sk["payload"] = {**p, "info": rest(info, ("last_token_usage",))}
    return ResultMessage(
        subtype="token_count", usage=usage, model=ctx.model, timestamp=ts, extra=wrap_owned(sk)
    )


def decode_rollout(obj: dict[str, Any], ctx: Context) -> Message:
    """One rollout line (:func:`is_rollout` holds) to one message; ``ctx`` is updated."""
    p: dict[str, Any] = obj["payload"]
    tag = obj["type"]
    ts = obj.get("timestamp")
    if type(ts) is not str:
        ts = None
    sk = rest(obj, ("timestamp",)) if ts is not None else dict(obj)
    message: Message | None = None
    if tag == "response_item":
        message = _item(p, sk, ctx, ts)
    elif tag == "event_msg":
        message = _event(p, sk, obj, ctx, ts)
    elif tag == "turn_context":
        context = decode_turn_context(p, sk, ts)
        if context.model is not None:
            ctx.model = context.model
        return context
    elif tag == "session_meta":
        session_id = opt_str(p, "id", "$.payload")
        cwd = opt_str(p, "cwd", "$.payload")
        ctx.model, ctx.totals = None, None  # a new session
        sk["payload"] = rest(p, ("id", "cwd"))
        return InitMessage(session_id=session_id, cwd=cwd, timestamp=ts, extra=wrap_owned(sk))
    elif tag == "compacted" and type(p.get("message")) is str:
        sk["payload"] = rest(p, ("message",))
        return UserMessage(p["message"], summary="compaction", timestamp=ts, extra=wrap_owned(sk))
    return RawMessage(wrap_owned(obj), timestamp=ts) if message is None else message


# -- encoding ---------------------------------------------------------------------------------


def _text_part(sk: Any, text: str, default: str) -> dict[str, Any]:
    skeleton: dict[str, Any] = sk if type(sk) is dict else {"type": default}
    return _in_place({**skeleton, "text": text}, skeleton, ("type", "text"))


def _encode_parts(blocks: tuple[Block, ...], sk: Any, default: str) -> list[Any] | None:
    """Blocks back to content parts, each over its skeleton; ``None`` if one has no part."""
    skeleton = sk if type(sk) is list and len(sk) == len(blocks) else [None] * len(blocks)
    out: list[Any] = []
    for block, part in zip(blocks, skeleton, strict=True):
        if isinstance(block, TextBlock) and block.citations is None:
            out.append(_text_part(part, block.text, default))
        elif isinstance(block, RawBlock):
            out.append(raw(block.data))
        else:
            return None
    return out


def _in_place(
    built: dict[str, Any], skeleton: dict[str, Any], order: tuple[str, ...]
) -> dict[str, Any]:
    """``built`` with the keys the skeleton lacks put back where Codex writes them.

    Each such key goes right after the nearest key that Codex writes before it (else before
    the first it writes after it); keys Codex does not name keep the places they had.
    """
    new = [k for k in built if k not in skeleton]
    if not new:
        return built
    rank = {k: i for i, k in enumerate(order)}
    keys = list(skeleton)
    for k in sorted(new, key=lambda k: rank.get(k, len(order))):
        r = rank.get(k)
        if r is None:
            keys.append(k)
            continue
        after = [i for i, key in enumerate(keys) if rank.get(key, r) < r]
        if after:
            keys.insert(after[-1] + 1, k)
        else:
            later = [i for i, key in enumerate(keys) if rank.get(key, r) > r]
            keys.insert(later[0] if later else len(keys), k)
    return {k: built[k] for k in keys}


def _payload(m: Message, p: dict[str, Any], tag: Any) -> dict[str, Any] | None:
    """The payload of a response item or event for ``m`` over its skeleton ``p``."""
    kind = tag_of(p)
    if tag == "response_item":
        if kind == "message" and isinstance(m, UserMessage | AssistantMessage | SystemMessage):
            blocks = (TextBlock(m.content),) if isinstance(m.content, str) else m.content
            default = "output_text" if isinstance(m, AssistantMessage) else "input_text"
            parts = _encode_parts(blocks, p.get("content"), default)
            return None if parts is None else {**p, "content": parts}
        if kind == "reasoning" and isinstance(m, ThinkingMessage):
            out = dict(p)
            if m.thinking != _reasoning_text(p):
                out["summary"] = (
                    [{"type": "summary_text", "text": m.thinking}] if m.thinking else []
                )
            if m.signature is not None:
                out["encrypted_content"] = m.signature
            return out
        if kind in _CALLS and isinstance(m, ToolUseMessage):
            if kind == "custom_tool_call":
                text = m.input.get("input")
                if type(text) is not str:
                    return None
            else:
                text = m.arguments if m.arguments is not None else dump_compact(raw(m.input))
            return {**p, "name": m.name, _CALLS[kind]: text, "call_id": m.id}
        if kind == "local_shell_call" and isinstance(m, ToolUseMessage):
            return {**p, "call_id": m.id, "action": raw(m.input)}
        if kind in _OUTPUTS and isinstance(m, ToolResultMessage):
            if isinstance(m.content, str):
                output: Any = m.content
            else:
                output = _encode_parts(m.content, p.get("output"), "input_text")
                if output is None:
                    return None
            return {**p, "call_id": m.tool_use_id, "output": output}
        return encode_record_item(m, p, _in_place)
    if tag == "event_msg":
        if kind == "error" and isinstance(m, ErrorMessage):
            return {**p, "message": m.message}
        if kind == "token_count" and isinstance(m, ResultMessage) and m.usage is not None:
            info = p.get("info")
            info = dict(info) if type(info) is dict else {}
            usage = {**info, "last_token_usage": encode_usage(m.usage)}
            return {**p, "info": _in_place(usage, info, _ORDER["info"])}
        return encode_record_event(m, p, _in_place)
    if tag == "turn_context":
        return encode_turn_context(m, p, _in_place)
    if tag == "session_meta" and isinstance(m, InitMessage):
        out = {} if m.session_id is None else {"id": m.session_id}
        out.update(p)
        if m.cwd is not None:
            out["cwd"] = m.cwd
        return out
    if tag == "compacted" and isinstance(m, UserMessage) and isinstance(m.content, str):
        return {"message": m.content, **p}
    return None


def encode_rollout(m: Message, ex: dict[str, Any]) -> dict[str, Any] | None:
    """A message decoded from a rollout line (``ex`` is its skeleton) back to the line.

    ``None`` if ``m`` no longer fits the line (the caller then writes it as a foreign one).
    """
    payload = ex.get("payload")
    if type(payload) is not dict:
        return None
    tag = ex.get("type")
    built = _payload(m, payload, tag)
    if built is None:
        return None
    order = _ORDER.get(tag if tag in ("session_meta", "compacted") else tag_of(payload) or "")
    if order is not None:
        built = _in_place(built, payload, order)
    out: dict[str, Any] = {}
    if m.timestamp is not None and "timestamp" not in ex:
        out["timestamp"] = m.timestamp
    out.update(ex)
    out["payload"] = built
    return out
