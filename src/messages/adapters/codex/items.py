"""Codex thread items in both spellings: exec (snake_case) and app-server (camelCase).

An item becomes one message; what the message does not model stays in an *item skeleton*
(the item's other keys, plus known keys whose value was null) that the caller stores in
``extra``. Encoding writes the modelled values and puts the skeleton back on top.

- agent message -> TextMessage (``message_id`` = item id);
- reasoning -> ThinkingMessage (exec ``text``; app-server ``summary``/``content`` lists stay in
  the skeleton and ``thinking`` is their text joined, a read-only view);
- user message (app-server) -> UserMessage with the content blocks;
- command execution, file change, MCP tool call, web search (*tool items*) -> ToolUseMessage
  the first time the call is seen (started or updated); when completed, a ToolResultMessage
  alone if the caller saw the call start (its id is in ``seen``), else an AssistantMessage
  with the ToolUseBlock and its ToolResultBlock (``is_error`` from status, exit code or
  error: a read-only view);
- error item -> ErrorMessage. Anything else (todo lists, plans, sub-agent activity...) is
  left to the caller, which keeps the whole event as a RawMessage.

A started or updated event of any other item, or of a tool item already seen, only previews
what the item's completed event holds whole (:func:`is_preview`); the caller keeps it as a
StreamEventMessage so the flat view says each thing once.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Container
from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_str
from ..._core.wire import present
from ..._core.wire import rest
from ..._shapes import anthropic_blocks
from ...blocks import Block
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...events.run import ErrorMessage
from ...events.run import StreamEventMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import decode_content
from .._common import tool_pair

__all__ = [
    "KINDS",
    "decode_item",
    "decode_item_event",
    "decode_usage",
    "encode_item",
    "encode_tool_item",
    "encode_usage",
    "is_error_of",
    "is_preview",
    "item_id",
    "result_text",
]

_ID: Final = frozenset(("id",))
_ID_TEXT: Final = frozenset(("id", "text"))
_ID_CONTENT: Final = frozenset(("id", "content"))
_CONTENT: Final = frozenset(("content",))
_ID_MESSAGE: Final = frozenset(("id", "message"))
_new_text: Final = maker(TextMessage)
_new_thinking: Final = maker(ThinkingMessage)
_new_tool_use: Final = maker(ToolUseMessage)
_new_tool_result: Final = maker(ToolResultMessage)
_new_user: Final = maker(UserMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_error: Final = maker(ErrorMessage)
_new_use_block: Final = maker(ToolUseBlock)
_new_usage: Final = maker(Usage)
_new_result_block: Final = maker(ToolResultBlock)
_new_stream: Final = maker(StreamEventMessage)

KINDS: Final = {
    "agent_message": "text",
    "agentMessage": "text",
    "reasoning": "reasoning",
    "userMessage": "user",
    "command_execution": "command",
    "commandExecution": "command",
    "file_change": "files",
    "fileChange": "files",
    "mcp_tool_call": "mcp",
    "mcpToolCall": "mcp",
    "web_search": "search",
    "webSearch": "search",
    "error": "error",
}
"""Item ``type`` (either spelling) -> what it maps to."""

_REQUIRED: Final = {
    "text": frozenset(("text",)),
    "user": frozenset(("content",)),
    "command": frozenset(("id", "command")),
    "files": frozenset(("id", "changes")),
    "mcp": frozenset(("id", "tool", "arguments")),
    "search": frozenset(("id", "query")),
    "error": frozenset(("message",)),
}
_ARG_KEY: Final = {"command": "command", "files": "changes", "search": "query"}
_FAILED: Final = frozenset(("failed", "declined", "error"))
_TOOL_KINDS: Final = frozenset(("command", "files", "search", "mcp"))


def is_error_of(item: dict[str, Any], exit_key: str) -> bool | None:
    """Whether a finished tool item failed: its status, exit code or error says so."""
    status = item.get("status")
    code = item.get(exit_key)
    if (type(status) is str and status in _FAILED) or item.get("error") is not None:
        return True
    if type(code) is int:
        return code != 0
    if status == "completed":
        return False
    return None


def result_text(content: str | tuple[Block, ...]) -> str:
    """Tool output as one string: text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    return "\n".join(b.text for b in content if isinstance(b, TextBlock))


def _reasoning_text(item: dict[str, Any]) -> str:
    for key in ("summary", "content"):
        parts = item.get(key)
        if type(parts) is list:
            texts = [p for p in parts if type(p) is str]
            if texts:
                return "\n\n".join(texts)
    return ""


def item_id(item: dict[str, Any]) -> str | None:
    """The item's id when it is a string (a read that never raises)."""
    v = item.get("id")
    return v if type(v) is str else None


def is_preview(item: dict[str, Any], *, completed: bool, seen: Container[str]) -> bool:
    """Whether an item event only previews what a later event of the same item holds whole.

    Every Codex item ends with a completed event that carries it whole, so a started or
    updated event is a preview unless it is the first sighting of a tool call (that one
    announces the call, as a ToolUseMessage).
    """
    if completed:
        return False
    tag = item.get("type")
    kind = KINDS.get(tag) if type(tag) is str else None
    if kind not in _TOOL_KINDS:
        return True
    tool_id = item_id(item)
    return tool_id is not None and tool_id in seen


def decode_item_event(
    line: dict[str, Any],
    holder: dict[str, Any],
    *,
    completed: bool,
    seen: Container[str],
    raw: Callable[[dict[str, Any]], Message],
) -> Message:
    """An item event of ``codex exec --json`` or of the app server, as one message.

    ``holder`` is the line itself (exec) or its ``params`` (the app server: camelCase, the
    thread id beside the item). A line whose item is not an object, or is one
    :func:`decode_item` leaves, is kept whole by ``raw``; one that only previews its item
    is a stream event holding it.
    """
    item = holder.get("item")
    if type(item) is not dict:
        return raw(line)
    camel = holder is not line
    sid = opt_str(holder, "threadId") if camel else None
    if is_preview(item, completed=completed, seen=seen):
        return _new_stream(wrap_owned(line), None, sid, None, None, item_id(item), None, EMPTY)
    if camel:
        skeleton = rest(line, ("params",))
        slot = skeleton["params"] = rest(holder, ("item", "threadId"))
    else:
        skeleton = slot = rest(line, ("item",))
    try:
        message = decode_item(
            item,
            completed=completed,
            camel=camel,
            skeleton=skeleton,
            slot=slot,
            context={"session_id": sid},
            seen=seen,
        )
    except DecodeError as exc:
        raise exc.within(".item") from None
    return raw(line) if message is None else message


def decode_item(
    item: dict[str, Any],
    *,
    completed: bool,
    camel: bool,
    skeleton: dict[str, Any],
    slot: dict[str, Any],
    context: dict[str, Any],
    seen: Container[str] = frozenset(),
) -> Message | None:
    """One item to a message, or ``None`` when the caller should keep the event raw.

    ``slot`` is the dict inside ``skeleton`` where the item's rest goes (under ``"item"``).
    ``seen`` holds the ids of tool calls whose start the caller has already decoded: a
    completed tool item with such an id becomes its ToolResultMessage alone.
    """
    tag = item.get("type")
    kind = KINDS.get(tag) if type(tag) is str else None
    if kind is None:
        return None
    need = _REQUIRED.get(kind)
    if need is not None and not item.keys() >= need:
        return None
    item_id = opt_str(item, "id")
    extra = wrap_owned(skeleton)
    sid = context.get("session_id")  # the only context a caller gives (app-server threads)
    # Makers: every value below is checked (strings) or frozen (wrap_owned, tuples).
    if kind == "text":
        slot["item"] = rest(item, _ID_TEXT)
        text = need_str(item, "text")
        return _new_text(text, None, "assistant", None, sid, None, None, item_id, None, extra)
    if kind == "reasoning":
        if "text" not in item and "summary" not in item and "content" not in item:
            return None  # no text to read: kept raw (it would be written back with one)
        if not camel and "text" in item:
            slot["item"] = rest(item, _ID_TEXT)
            text = need_str(item, "text")
        else:
            slot["item"] = rest(item, _ID)
            text = _reasoning_text(item)
        return _new_thinking(
            text, None, False, None, "assistant", None, sid, None, None, item_id, None, extra
        )
    if kind == "user":
        blocks = _blocks(item["content"], "content")
        slot["item"] = rest(item, _ID_CONTENT)
        return _new_user(blocks, None, sid, None, None, item_id, None, extra, None, None, None)
    if kind == "error":
        slot["item"] = rest(item, _ID_MESSAGE)
        text = need_str(item, "message")
        return _new_error(text, None, None, None, sid, None, None, item_id, None, extra)
    return _tool(
        item,
        kind,
        completed=completed,
        camel=camel,
        slot=slot,
        extra=extra,
        context=context,
        seen=seen,
    )


def _blocks(value: Any, key: str) -> tuple[Block, ...]:
    """An item's array of Anthropic-shaped blocks (at ``key``: ``content``, ``result.content``)."""
    if type(value) is not list:
        raise fail("an array of blocks", value, key)
    try:
        return decode_content(value)
    except DecodeError as exc:
        raise exc.within("." + key) from None


def _tool(
    item: dict[str, Any],
    kind: str,
    *,
    completed: bool,
    camel: bool,
    slot: dict[str, Any],
    extra: FrozenDict,
    context: dict[str, Any],
    seen: Container[str],
) -> Message | None:
    tool_id = need_str(item, "id")
    known = ["id"]
    # a result whose call was already decoded keeps the call's input in the skeleton
    alone = completed and tool_id in seen
    if kind == "mcp":
        name = need_str(item, "tool")
        known.append("tool")
        args = item["arguments"]
        if type(args) is dict and not alone:
            known.append("arguments")
            tool_input = wrap_owned(args)
        else:
            tool_input = EMPTY
    else:
        name = item["type"]
        key = _ARG_KEY[kind]
        if not alone:
            known.append(key)
        tool_input = wrap_owned({key: item[key]})
    output_key = "aggregatedOutput" if camel else "aggregated_output"
    sid = context.get("session_id")
    if not completed:
        slot["item"] = rest(item, frozenset(known))
        return _new_tool_use(
            tool_id, name, tool_input, None, "assistant", None, sid, None, None, None, None, extra
        )
    item_rest: dict[str, Any]
    content: str | tuple[Block, ...] = ""
    if kind == "command":
        if output_key not in item:
            return None
        output = item[output_key]
        if output is not None and type(output) is not str:
            raise fail("a string", output, output_key)
        content = output or ""
        known.append(output_key)
        item_rest = rest(item, frozenset(known))
    elif kind == "mcp" and type(item.get("result")) is dict and "content" in item["result"]:
        result = item["result"]
        content = _blocks(result["content"], "result.content")
        item_rest = rest(item, frozenset(known))
        item_rest["result"] = rest(result, _CONTENT)
    else:
        item_rest = rest(item, frozenset(known))
    slot["item"] = item_rest
    failed = is_error_of(item, "exitCode" if camel else "exit_code")
    if alone:
        return _new_tool_result(
            tool_id, content, failed, name, "tool", None, sid, None, None, None, None, extra
        )
    blocks = (
        _new_use_block(tool_id, name, tool_input, None, EMPTY),
        _new_result_block(tool_id, content, failed, name, EMPTY),
    )
    return _new_assistant(blocks, None, None, None, None, sid, None, None, None, None, extra)


def _blocks_of(content: str | tuple[Block, ...]) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return anthropic_blocks.encode_blocks(content)


def encode_tool_item(
    use: ToolUseBlock | ToolUseMessage,
    result: ToolResultBlock | None,
    item_rest: dict[str, Any] | None,
    camel: bool,
) -> dict[str, Any]:
    """A tool call (and its result, when finished) as a Codex item.

    With ``item_rest`` (the call came from Codex) the item type and every unmodelled key come
    from it; otherwise the call is written as an exec ``mcp_tool_call`` unless its name is
    one of Codex's own tool item types and its input is exactly that item's
    (``{"command": ...}``, ``{"changes": ...}``, ``{"query": ...}``).
    """
    own = item_rest is not None
    tag = item_rest.get("type") if item_rest is not None else use.name
    kind = KINDS.get(tag) if isinstance(tag, str) else None
    if kind not in _TOOL_KINDS or (
        # a foreign call named like a Codex item must have exactly that item's input
        not own and kind != "mcp" and use.input.keys() != {_ARG_KEY[kind]}
    ):
        kind, tag = "mcp", "mcp_tool_call"
    out: dict[str, Any] = {"id": use.id, "type": tag}
    if kind == "mcp":
        if not own:
            out["server"] = ""
        out["tool"] = use.name
        out["arguments"] = raw(use.input)
    else:
        key = _ARG_KEY[kind]
        if key in use.input:
            out[key] = raw(use.input[key])
    if result is not None and kind == "command":
        out["aggregatedOutput" if camel else "aggregated_output"] = result_text(result.content)
    if item_rest is not None:
        out.update(item_rest)
        base = item_rest.get("result")
        if result is not None and type(base) is dict and not isinstance(result.content, str):
            out["result"] = {"content": anthropic_blocks.encode_blocks(result.content), **base}
        return out
    if kind == "mcp":
        if result is None:
            out["result"] = out["error"] = None
        else:
            out["result"] = {"content": _blocks_of(result.content), "structured_content": None}
            failed = {"message": result_text(result.content)} if result.is_error else None
            out["error"] = failed
    if result is None:
        out["status"] = "in_progress"
    else:
        out["status"] = "failed" if result.is_error else "completed"
    return out


def encode_item(m: Message, item_rest: dict[str, Any] | None, camel: bool) -> dict[str, Any] | None:
    """A message as a Codex item (``None`` when it is not one an item can hold).

    ``item_rest`` is the item skeleton kept by the decoder, or ``None`` for a message from
    another source (then the exec spelling is used unless ``camel``).
    """
    out: dict[str, Any]
    if isinstance(m, TextMessage):
        out = {"type": "agentMessage" if camel else "agent_message", "text": m.text}
    elif isinstance(m, ThinkingMessage):
        out = {"type": "reasoning"}
        if item_rest is None or not ("summary" in item_rest or "content" in item_rest):
            out["text"] = m.thinking
    elif isinstance(m, UserMessage) and camel:
        content = m.content
        blocks = (
            [{"type": "text", "text": content}]
            if isinstance(content, str)
            else anthropic_blocks.encode_blocks(content)
        )
        out = {"type": "userMessage", "content": blocks}
    elif isinstance(m, ErrorMessage):
        out = {"type": "error", "message": m.message}
    elif isinstance(m, ToolUseMessage):
        return encode_tool_item(m, None, item_rest, camel)
    elif isinstance(m, ToolResultMessage):
        if item_rest is None:
            return None  # the call's input is unknown here: the caller decides
        # the call's input stays in the skeleton, which is written on top
        use = ToolUseBlock(m.tool_use_id, m.name or "")
        result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
        return encode_tool_item(use, result, item_rest, camel)
    elif isinstance(m, AssistantMessage):
        pair = tool_pair(m)
        if pair is None:
            return None
        return encode_tool_item(pair[0], pair[1], item_rest, camel)
    else:
        return None
    if m.message_id is not None:
        out = {"id": m.message_id, **out}
    if item_rest is not None:
        out.update(item_rest)
    return out


_USAGE: Final = frozenset(
    ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")
)


def decode_usage(d: dict[str, Any]) -> Usage:
    """Codex token counts to Usage (input without the cached tokens).

    Codex counts cached tokens inside ``input_tokens``, Usage does not, so input is
    ``input_tokens - cached_input_tokens``.
    """
    total = opt_int(d, "input_tokens")
    cached = opt_int(d, "cached_input_tokens")
    output = opt_int(d, "output_tokens")
    reasoning = opt_int(d, "reasoning_output_tokens")
    inp = total - cached if total is not None and cached is not None else total
    return _new_usage(inp, output, cached, None, reasoning, None, wrap_owned(rest(d, _USAGE)))


def encode_usage(usage: Usage) -> dict[str, Any]:
    """Usage back to Codex token counts (cached tokens added back into ``input_tokens``)."""
    total = usage.input_tokens
    if total is not None:
        total += (usage.cache_read_tokens or 0) + (usage.cache_write_tokens or 0)
    out = present(
        input_tokens=total,
        cached_input_tokens=usage.cache_read_tokens,
        output_tokens=usage.output_tokens,
        reasoning_output_tokens=usage.reasoning_tokens,
    )
    if usage.extra:
        out.update(raw(usage.extra))
    return out
