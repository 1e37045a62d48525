"""Encoding role messages for OpenAI Chat Completions requests and responses.

:func:`encode_turn` writes one turn as wire messages: a system/developer, user or assistant
message, and one ``tool`` message per tool result. :func:`arrange` then moves every tool
message right after the assistant message whose ``tool_calls`` hold its id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .._json import FrozenDict, JsonValue, thaw
from ..blocks import AudioBlock, Block, RawBlock, TextBlock, ToolResultBlock, ToolUseBlock
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ._chat_parts import (
    FOREIGN_BLOCK_KEYS,
    NAME,
    encode_part,
    encode_tool_call,
    is_tool_call,
    text_part,
)
from ._formats import (
    ANTHROPIC_MESSAGE_KEYS,
    GEMINI_MESSAGE_KEYS,
    OPENAI_CITATIONS,
    RESPONSES_MESSAGE_KEYS,
)
from ._policy import Policy, has_context, is_empty, put_extra

__all__ = ["ENVELOPE", "Wire", "arrange", "encode_assistant", "encode_turn"]

ENVELOPE: Final = "completion"
"""The ``extra`` key under which decode_response keeps the ChatCompletion around the message."""
_FOREIGN_MESSAGE_KEYS: Final = (
    ANTHROPIC_MESSAGE_KEYS | RESPONSES_MESSAGE_KEYS | GEMINI_MESSAGE_KEYS | {ENVELOPE}
)
"""Message fields of the other formats (and this codec's response envelope)."""
_REQUEST_FIELDS: Final = frozenset(("name", "refusal", "function_call"))
"""The message fields a request knows, written for messages decoded from responses or logs."""


def _field_refusal(block: Block) -> str | None:
    """The text of a ``RawBlock({"refusal": ...})``: the message's ``refusal`` field."""
    data = block.data if isinstance(block, RawBlock) else None
    if isinstance(data, FrozenDict) and data.keys() == {"refusal"}:
        text = data["refusal"]
        return text if isinstance(text, str) else None
    return None


def _plain(block: TextBlock) -> bool:
    """A text with no field a part would carry (another format's empty fields do not count)."""
    return all(k in FOREIGN_BLOCK_KEYS and is_empty(v) for k, v in block.extra.items())


def _cited(part: TextBlock | dict[str, Any]) -> bool:
    """A text with citations: only the string form of content carries them (annotations)."""
    return isinstance(part, TextBlock) and part.citations is not None


def _message_extra(
    message: Any,
    out: dict[str, Any],
    policy: Policy,
    path: str,
    *,
    response: bool = False,
) -> None:
    fields: Mapping[str, JsonValue] = {k: v for k, v in message.extra.items() if k != ENVELOPE}
    if response:
        policy = Policy("drop", NAME)  # another provider's response fields are left out
    elif has_context(message):
        known = _REQUEST_FIELDS if isinstance(message, AssistantMessage) else {"name"}
        fields = {k: v for k, v in fields.items() if k in known}
    put_extra(out, fields, policy, path, _FOREIGN_MESSAGE_KEYS)


def _empty_content(message: Any) -> Any:
    """The wire content of a message with no content: a kept null (or []), else []."""
    if "content" in message.extra:
        return thaw(message.extra["content"])
    return []


def _parts(
    blocks: tuple[tuple[int, Block], ...], where: str, policy: Policy, path: str
) -> list[dict[str, Any]]:
    out = []
    for j, block in blocks:
        part = encode_part(block, where, policy, f"{path}.content[{j}]")
        if part is not None:
            out.append(part)
    return out


def encode_assistant(
    message: AssistantMessage, policy: Policy, path: str, *, response: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant"}
    if isinstance(message.content, str):
        out["content"] = message.content
        _message_extra(message, out, policy, path, response=response)
        return out
    parts: list[tuple[int, TextBlock | dict[str, Any]]] = []
    calls: list[dict[str, Any]] = []
    audio: dict[str, Any] | None = None
    refusal: str | None = None
    for j, block in enumerate(message.content):
        where = f"{path}.content[{j}]"
        refused = _field_refusal(block)
        if isinstance(block, ToolUseBlock):
            calls.append(encode_tool_call(block, policy, where))
        elif is_tool_call(block):
            calls.append(thaw(block.data))  # type: ignore[union-attr]
        elif refused is not None:
            if refusal is None:
                refusal = refused
            else:
                parts.append((j, {"type": "refusal", "refusal": refused}))
        elif isinstance(block, AudioBlock) and block.file_id is not None and audio is None:
            audio = {"id": block.file_id}
            if block.data is not None:
                audio["data"] = block.data
            put_extra(audio, block.extra, policy, where, FOREIGN_BLOCK_KEYS)
        elif isinstance(block, TextBlock):
            parts.append((j, block))
        elif isinstance(block, RawBlock):
            part = encode_part(block, "assistant", policy, where)
            if part is not None:
                parts.append((j, part))
        else:
            what = f"{block.kind} content in an assistant message"
            if isinstance(block, AudioBlock):
                what = "assistant audio without an id (or a second one)"
            replacement = policy.degrade(block, what, where)
            if replacement is not None:
                parts.append((j, replacement))
    single = len(parts) == 1 and isinstance(parts[0][1], TextBlock) and _plain(parts[0][1])
    if not parts:
        if "content" in message.extra or calls or audio:
            pass  # a kept null or [] is written back below; with tool calls it may be left out
        else:
            out["content"] = None if refusal is not None else ""
    elif single and (calls or audio or refusal is not None or response or _cited(parts[0][1])):
        j, text = parts[0]
        assert isinstance(text, TextBlock)
        out["content"] = text.text
        _annotations(text, out, policy, f"{path}.content[{j}]")
    else:
        out["content"] = [
            text_part(b, policy, f"{path}.content[{j}]") if isinstance(b, TextBlock) else b
            for j, b in parts
        ]
    if refusal is not None:
        out["refusal"] = refusal
    if calls:
        out["tool_calls"] = calls
    if audio is not None:
        out["audio"] = audio
    _message_extra(message, out, policy, path, response=response)
    return out


def _annotations(block: TextBlock, out: dict[str, Any], policy: Policy, path: str) -> None:
    if block.citations is None:
        return
    if all(c.get("type") in OPENAI_CITATIONS for c in block.citations):
        out["annotations"] = [thaw(c) for c in block.citations]
    else:
        policy.refuse("citations in another provider's shape", f"{path}.citations")


def _tool_message(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "tool", "tool_call_id": block.tool_use_id}
    content: Any
    if isinstance(block.content, str):
        content = block.content
    elif not block.content and "content" in block.extra:
        content = thaw(block.extra["content"])
    else:
        content = []
        for k, inner in enumerate(block.content):
            where = f"{path}.content[{k}]"
            if isinstance(inner, TextBlock):
                content.append(text_part(inner, policy, where))
            else:
                replacement = policy.degrade(inner, f"{inner.kind} content in a tool result", where)
                if replacement is not None:
                    content.append(text_part(replacement, policy, where))
    if block.is_error:
        policy.refuse("is_error on a tool result", f"{path}.is_error", True)
        if policy.mode == "text":
            if isinstance(content, str):
                content = f"[error] {content}"
            else:
                content = [{"type": "text", "text": "[error]"}, *(content or [])]
    out["content"] = content
    put_extra(out, block.extra, policy, path, FOREIGN_BLOCK_KEYS)
    return out


Wire = tuple[dict[str, Any], str | None]
"""A wire message and, for a tool message, the id of the call it answers."""


def encode_turn(turn: Any, policy: Policy, path: str) -> list[Wire]:
    content: Any
    if isinstance(turn, SystemMessage):
        if isinstance(turn.content, str):
            content = turn.content
        elif not turn.content:
            content = _empty_content(turn)
        else:
            content = _parts(tuple(enumerate(turn.content)), "system", policy, path)
            if not content:
                return []  # everything in it was dropped
        out: dict[str, Any] = {"role": turn.role, "content": content}
        _message_extra(turn, out, policy, path)
        return [(out, None)]
    if isinstance(turn, AssistantMessage):
        return [(encode_assistant(turn, policy, path), None)]
    wires: list[Wire] = []
    rest: list[tuple[int, Block]] = []
    blocks = (TextBlock(turn.content),) if isinstance(turn.content, str) else turn.content
    for j, block in enumerate(blocks):
        where = f"{path}.content[{j}]"
        if isinstance(block, ToolResultBlock):
            tool = _tool_message(block, policy, where)
            if isinstance(turn, ToolMessage):
                _message_extra(turn, tool, policy, path)
            wires.append((tool, block.tool_use_id))
        elif isinstance(turn, ToolMessage):
            replacement = policy.degrade(block, "content outside a tool result", where)
            if replacement is not None:
                rest.append((j, replacement))
        else:
            rest.append((j, block))
    if isinstance(turn, UserMessage) and isinstance(turn.content, str):
        content = turn.content
    elif isinstance(turn, UserMessage) and not turn.content:
        content = _empty_content(turn)
    elif rest:
        content = _parts(tuple(rest), "user", policy, path)
        if not content:
            return wires  # everything else in it was dropped
    else:
        return wires
    out = {"role": "user", "content": content}
    if isinstance(turn, UserMessage):
        _message_extra(turn, out, policy, path)
    wires.append((out, None))
    return wires


def _call_ids(message: dict[str, Any]) -> set[str]:
    calls = message.get("tool_calls")
    if message.get("role") != "assistant" or type(calls) is not list:
        return set()
    return {c["id"] for c in calls if type(c) is dict and type(c.get("id")) is str}


def arrange(wires: list[Wire]) -> list[dict[str, Any]]:
    """Move each tool message right after the latest assistant message that made its call."""
    out: list[Wire] = []
    for message, call_id in wires:
        if call_id is not None:
            home = next(
                (q for q in range(len(out) - 1, -1, -1) if call_id in _call_ids(out[q][0])),
                None,
            )
            if home is not None:
                position = home + 1
                while position < len(out) and out[position][1] is not None:
                    position += 1
                out.insert(position, (message, call_id))
                continue
        out.append((message, call_id))
    return [message for message, _ in out]
