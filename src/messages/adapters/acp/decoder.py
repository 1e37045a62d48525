"""Agent Client Protocol JSON-RPC messages to messages: session updates, prompts, responses."""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.fields import Role
from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...events.run import ErrorMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import UserMessage
from .. import _events as ev
from . import content as cb

__all__ = ["NAME", "USAGE", "decode"]


# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_text: Final = maker(TextMessage)
_new_thinking: Final = maker(ThinkingMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_raw: Final = maker(RawMessage)


NAME: Final = "acp"
"""The source name of this adapter."""

_RPC: Final = frozenset(("jsonrpc", "method", "params"))
_PARAMS: Final = frozenset(("sessionId", "update"))
_PROMPT: Final = frozenset(("sessionId", "prompt"))
_CHUNK: Final = frozenset(("sessionUpdate", "messageId", "content"))
_TEXT_ONLY: Final = frozenset(("type", "text"))
_CALL: Final = frozenset(("sessionUpdate", "toolCallId", "title", "rawInput"))
_DONE: Final = frozenset(("sessionUpdate", "toolCallId", "status", "content"))
_RESULT: Final = frozenset(("stopReason", "usage"))
USAGE: Final = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "thoughtTokens": "reasoning_tokens",
    "cachedReadTokens": "cache_read_tokens",
    "cachedWriteTokens": "cache_write_tokens",
}
"""A prompt response's ``usage`` keys, and the :class:`Usage` field each one is."""
_USAGE: Final = frozenset(USAGE)
_ROLES: Final = {
    "user_message_chunk": "user",
    "agent_message_chunk": "assistant",
    "agent_thought_chunk": "assistant",
}
_CHUNK_OF: Final = {"user": "user_message_chunk", "assistant": "agent_message_chunk"}
_EVENTS: Final = frozenset(
    (
        "plan",
        "available_commands_update",
        "current_mode_update",
        "usage_update",
        "config_option_update",
        "session_info_update",
    )
)
_FINAL: Final = {"completed": False, "failed": True}
_METHOD_PREFIXES: Final = ("session/", "fs/", "terminal/")


def _mirror(
    d: dict[str, Any], params: dict[str, Any], known: frozenset[str], update: Any = None
) -> FrozenDict:
    if (  # the usual envelope, nothing of it to keep: the same as the general path below
        d.keys() <= _RPC
        and params.keys() <= known
        and None not in d.values()
        and None not in params.values()
    ):
        return wrap_owned({"params": {"update": update}}) if update else EMPTY
    params_rest = rest(params, known)
    if update:
        params_rest["update"] = update
    return ev.mirror(d, _RPC, "params", params_rest)


def _chunk(d: dict[str, Any], params: dict[str, Any], update: dict[str, Any], kind: str) -> Message:
    at = "$.params.update"
    session = opt_str(params, "sessionId", "$.params")
    message_id = opt_str(update, "messageId", at)
    role: Role = "user" if kind == "user_message_chunk" else "assistant"
    content = need_obj(update, "content", at)
    thought = kind == "agent_thought_chunk"
    if (  # the common case, kept fast: a plain text chunk with nothing else to keep
        content.keys() == _TEXT_ONLY
        and type(content["text"]) is str
        and content["type"] == "text"
        and d.keys() == _RPC
        and params.keys() == _PARAMS
        and session is not None
        and update.keys() <= _CHUNK
        and None not in update.values()
    ):
        text = content["text"]
        if thought:
            return _new_thinking(
                text,
                None,
                False,
                None,
                "assistant",
                None,
                session,
                None,
                None,
                message_id,
                None,
                EMPTY,
            )
        return _new_text(text, None, role, None, session, None, None, message_id, None, EMPTY)
    block = cb.block(content, at + ".content")
    if isinstance(block, RawBlock) or (thought and not isinstance(block, TextBlock)):
        return RawMessage(wrap_owned(d), role=role, session_id=session, message_id=message_id)
    update_rest = rest(update, _CHUNK)
    if block.extra:
        update_rest = update_rest or {}
        update_rest["content"] = raw(block.extra)
    extra = _mirror(d, params, _PARAMS, update_rest)
    if isinstance(block, TextBlock):
        if thought:
            return ThinkingMessage(
                block.text, session_id=session, message_id=message_id, extra=extra
            )
        return TextMessage(
            block.text, role=role, session_id=session, message_id=message_id, extra=extra
        )
    cls = ImageMessage if isinstance(block, ImageBlock) else AudioMessage
    return cls(
        data=block.data,
        url=block.url,
        media_type=block.media_type,
        role=role,
        session_id=session,
        message_id=message_id,
        extra=extra,
    )


def _call(d: dict[str, Any], params: dict[str, Any], update: dict[str, Any], kind: str) -> Message:
    at = "$.params.update"
    call = need_str(update, "toolCallId", at)
    title = opt_str(update, "title", at)
    update_rest = rest(update, _CALL) or {}
    if kind != "tool_call":  # an update in progress: the encoder writes tool_call by default
        update_rest["sessionUpdate"] = kind
    if title == "":
        update_rest["title"] = ""
    args = update.get("rawInput")
    value = EMPTY
    if type(args) is dict and args:
        value = wrap_owned(args)
    elif args is not None:  # rawInput may be any JSON value; {} is written back from here
        update_rest["rawInput"] = args
    session = opt_str(params, "sessionId", "$.params")
    extra = _mirror(d, params, _PARAMS, update_rest)
    return _new_tool_use(
        call, title or "", value, None, "assistant", None, session, None, None, None, None, extra
    )


def _done(d: dict[str, Any], params: dict[str, Any], update: dict[str, Any]) -> Message:
    at = "$.params.update"
    call = need_str(update, "toolCallId", at)
    items = update.get("content")
    content: str | tuple[Block, ...] = ""
    if type(items) is list:
        content = tuple([cb.item(x, f"{at}.content[{i}]") for i, x in enumerate(items)])
    elif items is not None:
        raise fail("an array", items, "content", at)
    is_error = _FINAL[update["status"]]
    session = opt_str(params, "sessionId", "$.params")
    extra = _mirror(d, params, _PARAMS, rest(update, _DONE))
    return _new_tool_result(
        call, content, is_error, None, "tool", None, session, None, None, None, None, extra
    )


def _update(d: dict[str, Any]) -> Message:
    params = need_obj(d, "params")
    update = need_obj(params, "update", "$.params")
    kind = update.get("sessionUpdate")
    if type(kind) is str:
        if kind in _ROLES:
            return _chunk(d, params, update, kind)
        if kind == "tool_call_update" and update.get("status") in _FINAL:
            return _done(d, params, update)
        if kind in ("tool_call", "tool_call_update"):
            return _call(d, params, update, kind)
    session = opt_str(params, "sessionId", "$.params")
    if kind in _EVENTS:
        return _new_stream(wrap_owned(d), None, session, None, None, None, None, EMPTY)
    return _new_raw(wrap_owned(d), None, None, session, None, None, None, None, EMPTY)


def _prompt(d: dict[str, Any]) -> Message:
    params = need_obj(d, "params")
    prompt = params.get("prompt", MISSING)
    if type(prompt) is not list:
        raise fail("an array", prompt, at="$.params.prompt")
    blocks = tuple([cb.block(b, f"$.params.prompt[{i}]") for i, b in enumerate(prompt)])
    return UserMessage(
        blocks,
        session_id=opt_str(params, "sessionId", "$.params"),
        extra=_mirror(d, params, _PROMPT),
    )


def _response(d: dict[str, Any], result: dict[str, Any]) -> Message:
    usage = None
    found = opt_obj(result, "usage", "$.result")
    if found is not None:
        usage = ev.usage_in(found, USAGE, "$.result.usage", _USAGE)
    top = rest(d, frozenset(("jsonrpc", "result")))
    result_rest = rest(result, _RESULT)
    if result_rest:
        top = top or {}
        top["result"] = result_rest
    return ResultMessage(
        subtype=opt_str(result, "stopReason", "$.result"), usage=usage, extra=ev.frozen(top)
    )


def _error(d: dict[str, Any]) -> Message:
    err = need_obj(d, "error")
    message = need_str(err, "message", "$.error")
    code = err.get("code")
    top = rest(d, frozenset(("jsonrpc", "error"))) or {}
    err_rest = rest(err, frozenset(("message",)))
    if err_rest:
        top["error"] = err_rest
    return ErrorMessage(
        message,
        code=str(code) if type(code) is int or type(code) is str else None,
        extra=ev.frozen(top),
    )


def _sid(obj: Any) -> str | None:
    sid = obj.get("sessionId") if type(obj) is dict else None
    return sid if type(sid) is str else None


def _decode(obj: Any) -> Message:
    if type(obj) is not dict:
        raise fail("an object", obj)
    if obj.get("jsonrpc") != "2.0":
        return ev.raw_line(obj)
    method = obj.get("method", MISSING)
    if method == "session/update":
        return _update(obj)
    if method == "session/prompt":
        return _prompt(obj)
    if method is not MISSING:
        return StreamEventMessage(wrap_owned(obj), session_id=_sid(obj.get("params")))
    result = obj.get("result", MISSING)
    if type(result) is dict and "stopReason" in result:
        return _response(obj, result)
    if result is not MISSING:
        return StreamEventMessage(wrap_owned(obj), session_id=_sid(result))
    if "error" in obj:
        return _error(obj)
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One ACP JSON-RPC message to one message (the value is copied first).

    >>> decode({"jsonrpc": "2.0", "id": 4, "error": {"code": -32601, "message": "no"}}).code
    '-32601'
    """
    return ev.decoding(_decode, obj, NAME)
