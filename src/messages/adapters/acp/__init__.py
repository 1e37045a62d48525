"""Agent Client Protocol (ACP): JSON-RPC 2.0 between an editor and a coding agent.

``opencode acp``, ``gemini --experimental-acp`` and ``copilot --acp`` speak it. A recorded
session interleaves the client's requests, the agent's responses and the agent's
``session/update`` notifications. The mapping (see ``docs/adapters/acp.md`` for the table):

- ``agent_message_chunk`` / ``user_message_chunk`` -> :class:`TextMessage` (or
  :class:`ImageMessage`, :class:`AudioMessage`) of role assistant / user;
  ``agent_thought_chunk`` -> :class:`ThinkingMessage`; ``messageId`` -> ``message_id``.
  :func:`merge` joins consecutive chunks of one message;
- ``tool_call`` -> :class:`ToolUseMessage` (``toolCallId``, ``title`` as name, ``rawInput``);
- ``tool_call_update`` with status ``completed`` / ``failed`` -> :class:`ToolResultMessage`
  (``content`` items as blocks: text and images modelled, diffs and terminals kept as
  :class:`RawBlock`); any other update -> another :class:`ToolUseMessage` for the same id,
  because agents fill in the input there (``merge`` folds such runs into one call);
- the ``session/prompt`` request -> :class:`UserMessage` with the prompt's blocks; its
  response (``stopReason``, ``usage``) -> :class:`ResultMessage`; an error response ->
  :class:`ErrorMessage`;
- ``plan``, ``available_commands_update``, ``current_mode_update``, ``usage_update``..., and
  every other request or response -> :class:`StreamEventMessage`, verbatim;
- unknown update kinds, and lines that are not JSON-RPC 2.0 -> :class:`RawMessage`.

>>> m = decode({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s1",
...     "update": {"sessionUpdate": "agent_message_chunk",
...                "content": {"type": "text", "text": "Hi"}}}})
>>> m.text, m.role, m.session_id
('Hi', 'assistant', 's1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.fields import Role
from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_obj
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...events.agent import CompactBoundaryMessage
from ...events.agent import ConversationResetMessage
from ...events.agent import HookEventMessage
from ...events.agent import RateLimitMessage
from ...events.agent import StatusMessage
from ...events.agent import SystemEventMessage
from ...events.agent import TaskEventMessage
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import QueueOperationMessage
from ...events.records import TitleMessage
from ...events.records import TurnContextMessage
from ...events.records import TurnEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import DocumentMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import ServerToolResultMessage
from ...flat import ServerToolUseMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...flat import VideoMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._common import refuse
from . import content as cb

# Built positionally from values checked and frozen here (see messages._core.make.maker).
_new_text: Final = maker(TextMessage)
_new_thinking: Final = maker(ThinkingMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_raw: Final = maker(RawMessage)

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

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
_USAGE: Final = frozenset(
    ("inputTokens", "outputTokens", "cachedReadTokens", "cachedWriteTokens", "thoughtTokens")
)
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
        at = "$.result.usage"
        usage = Usage(
            opt_int(found, "inputTokens", at),
            opt_int(found, "outputTokens", at),
            opt_int(found, "cachedReadTokens", at),
            opt_int(found, "cachedWriteTokens", at),
            reasoning_tokens=opt_int(found, "thoughtTokens", at),
            extra=ev.frozen(rest(found, _USAGE)),
        )
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


def _rpc(method: str, m: Message, params: dict[str, Any]) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    if m.session_id is not None:
        inner["sessionId"] = m.session_id
    inner.update(params)
    return {"jsonrpc": "2.0", "method": method, "params": inner}


def _update_out(m: Message, update: dict[str, Any]) -> dict[str, Any]:
    return _rpc("session/update", m, {"update": update})


def _chunk_out(kind: str, m: Message, content: Any) -> dict[str, Any]:
    update: dict[str, Any] = {"sessionUpdate": kind}
    if m.message_id is not None:
        update["messageId"] = m.message_id
    update["content"] = content
    return _update_out(m, update)


def _usage_out(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (
        ("inputTokens", u.input_tokens),
        ("outputTokens", u.output_tokens),
        ("thoughtTokens", u.reasoning_tokens),
        ("cachedReadTokens", u.cache_read_tokens),
        ("cachedWriteTokens", u.cache_write_tokens),
    ):
        if value is not None:
            out[key] = value
    return ev.overlay(out, u.extra)


def _chunked(m: TextMessage | ImageMessage | AudioMessage | RawMessage) -> bool:
    """Content a chunk of its role carries (not a RawMessage holding a whole JSON-RPC line)."""
    if isinstance(m, RawMessage) and isinstance(m.data, FrozenDict) and "jsonrpc" in m.data:
        return False
    return m.role in _CHUNK_OF


def _encode(m: Message, policy: Policy) -> dict[str, Any] | None:
    out: dict[str, Any]
    match m:
        case TextMessage() | ImageMessage() | AudioMessage() | RawMessage() if _chunked(m):
            if isinstance(m, TextMessage):
                if m.citations is not None:
                    why = "ACP text blocks carry no citations"
                    refuse(m, why, policy, degrade=False)
                content = cb.block_out(TextBlock(m.text))
            elif isinstance(m, RawMessage):
                content = raw(m.data)
            else:
                if m.file_id is not None:
                    alt = refuse(m, cb.NO_FILE_ID, policy)
                    return None if alt is None else _encode(alt, policy)
                block = (ImageBlock if isinstance(m, ImageMessage) else AudioBlock)(
                    data=m.data, url=m.url, media_type=m.media_type
                )
                content = cb.block_out(block)
            out = _chunk_out(_CHUNK_OF[m.role or "assistant"], m, content)
        case RawMessage() if isinstance(m.data, FrozenDict) and (
            m.role is None or "jsonrpc" in m.data
        ):
            return raw(m.data)  # type: ignore[no-any-return]
        case DocumentMessage() | VideoMessage():
            alt = refuse(m, f"ACP content has no {m.kind} block", policy)
            return None if alt is None else _encode(alt, policy)
        case ThinkingMessage():
            out = _chunk_out("agent_thought_chunk", m, {"type": "text", "text": m.thinking})
        case ToolUseMessage():
            update: dict[str, Any] = {"sessionUpdate": "tool_call", "toolCallId": m.id}
            if m.name:
                update["title"] = m.name
            if m.input:
                update["rawInput"] = raw(m.input)
            out = _update_out(m, update)
        case ToolResultMessage():
            update = {
                "sessionUpdate": "tool_call_update",
                "toolCallId": m.tool_use_id,
                "status": "failed" if m.is_error else "completed",
            }
            items = cb.result_items(m, policy)
            if items is not None:
                update["content"] = items
            out = _update_out(m, update)
        case UserMessage() if all(cb.prompt_block(b) for b in as_blocks(m.content)):
            prompt = [cb.block_out(b) for b in as_blocks(m.content)]
            out = _rpc("session/prompt", m, {"prompt": prompt})
        case ResultMessage():
            result: dict[str, Any] = {"stopReason": m.subtype or "end_turn"}
            if m.usage is not None:
                result["usage"] = _usage_out(m.usage)
            out = {"jsonrpc": "2.0", "result": result}
        case ErrorMessage():
            out = {"jsonrpc": "2.0", "error": {"message": m.message}}
        case StreamEventMessage() if raw(m.event).get("jsonrpc") == "2.0":
            return raw(m.event)  # type: ignore[no-any-return]
        case TextMessage() | ImageMessage() | AudioMessage() | RawMessage():
            why = f"ACP has no {m.kind} chunk for the {m.role} role"
            refuse(m, why, policy, degrade=False)
            return None
        case ServerToolUseMessage() | ServerToolResultMessage():
            alt = refuse(m, f"ACP has no update for {m.kind} content", policy)
            return None if alt is None else _encode(alt, policy)
        case (
            StreamEventMessage()
            | InvalidLineMessage()
            | InitMessage()
            | CompactBoundaryMessage()
            | HookEventMessage()
            | RateLimitMessage()
            | StatusMessage()
            | SystemEventMessage()
            | ConversationResetMessage()
            | FileSnapshotMessage()
            | ProgressMessage()
            | QueueOperationMessage()
            | TitleMessage()
            | TurnContextMessage()
            | TurnEventMessage()
            | TaskEventMessage()
        ):
            why = f"ACP has no message for a {m.kind} message"
            refuse(m, why, policy, degrade=False)
            return None
        case SystemMessage() | UserMessage() | AssistantMessage() | ToolMessage():
            return _encode(ev.single(m, NAME), policy)
        case _:
            assert_never(m)
    return ev.finish(out, m.extra, ("jsonrpc", "method"))


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one ACP JSON-RPC message (a fresh dict): ``encode(decode(x)) == x``.

    From other sources: text, images and audio become chunks of their role, thinking an
    ``agent_thought_chunk``, tool calls ``tool_call``, tool results a final
    ``tool_call_update``, a user turn the ``session/prompt`` request, a result the prompt's
    response, an error a JSON-RPC error (without id or code). Raw blocks are written as
    content verbatim. Init, system text and foreign stream events raise
    :class:`UnsupportedContentError` unless ``unsupported`` is ``"drop"`` or ``"text"``.

    >>> encode(ThinkingMessage("hm", session_id="s1"))["params"]["update"]
    {'sessionUpdate': 'agent_thought_chunk', 'content': {'type': 'text', 'text': 'hm'}}
    """
    return thaw(_encode(message, Policy(unsupported, NAME)))


def detect(obj: Any) -> bool:
    """Whether a parsed line is an ACP message.

    JSON-RPC 2.0 with an ACP method (``session/*``, ``fs/*``, ``terminal/*``, ``initialize``
    with a ``protocolVersion``), a response only ACP gives (``stopReason``,
    ``agentCapabilities``, ``sessionId``), or an error response (no other format here speaks
    JSON-RPC 2.0: Codex app-server requests use other methods and its responses carry no
    ``jsonrpc``).
    """
    if type(obj) is not dict or obj.get("jsonrpc") != "2.0":
        return False
    method = obj.get("method")
    if type(method) is str:
        if method == "initialize":
            params = obj.get("params")
            return type(params) is dict and type(params.get("protocolVersion")) is int
        return method.startswith(_METHOD_PREFIXES) or method == "authenticate"
    if type(obj.get("error")) is dict:  # an error response: ACP is the JSON-RPC 2.0 format here
        return "result" not in obj
    result = obj.get("result")
    return type(result) is dict and bool(
        {"stopReason", "agentCapabilities", "sessionId"} & result.keys()
    )


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a recorded session lazily; lines that are not JSON become InvalidLineMessage."""
    return _base.iter_decode(_decode, lines, source=NAME, strict=strict)


def _native(m: Message) -> bool:
    if isinstance(m, UserMessage):
        return all(cb.prompt_block(b) for b in as_blocks(m.content))
    return not isinstance(m, (SystemMessage, AssistantMessage, ToolMessage))


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as JSON-RPC lines.

    A user turn of content blocks becomes the ``session/prompt`` request; other role
    messages are split into one message per block.
    """
    policy = Policy(unsupported, NAME)

    def one(m: Message) -> Any:
        return thaw(_encode(m, policy))

    return ev.lines(messages, one, native=_native)


def _is_delta(m: Message) -> bool:
    return isinstance(m, (TextMessage, ThinkingMessage))


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive chunks of one message, and fold a tool call with its progress updates.

    Chunks of the same kind, role, ``messageId`` and session become one message. A
    ``tool_call`` followed by in-progress updates for the same id (with only session
    messages, such as a permission request, in between) becomes one ToolUseMessage with the
    first non-empty name and the last non-empty input, written before those session
    messages. The updates' status, locations and progress output are not carried over:
    merging is a view, not a lossless step.
    """
    return ev.fold_calls(_base.merge_deltas(messages, is_delta=_is_delta))
