"""Encoding conversations as Anthropic Messages requests, and messages as responses.

Turns are written one by one (their blocks by :mod:`.parts`), then
:func:`arrange` groups the wire messages into runs of one role (the server merges them) and
puts every tool result in the user turn right after the assistant turn that made the call,
ahead of its other content.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Final

from ..._core.frozen import thaw
from ..._shapes.anthropic_blocks import usage_counts
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...settings import RequestSettings
from ...usage import StopReason
from ...usage import Usage
from .._carry import carried
from .._carry import each_turn
from .._carry import put_extra
from .._carry import raw_turn
from .._carry import start_request
from .._common import put_details
from .._common import spelled_stop
from .._formats import ANTHROPIC as NAME
from .._formats import response_extra
from .._settings import write_settings
from .parts import carries
from .parts import encode_blocks
from .parts import text_block
from .settings import SPELLING

__all__ = ["arrange", "encode_request", "encode_response"]

_STOP_REASONS: Final = frozenset(
    (
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
        "compaction",
    )
)
_STOP_FROM: Final = {
    StopReason.END_TURN: "end_turn",
    StopReason.MAX_TOKENS: "max_tokens",
    StopReason.STOP_SEQUENCE: "stop_sequence",
    StopReason.TOOL_USE: "tool_use",
    StopReason.PAUSE: "pause_turn",
    StopReason.REFUSAL: "refusal",
    StopReason.CONTEXT_EXCEEDED: "model_context_window_exceeded",
}


@dataclass
class Item:
    """One wire message being arranged, with what the arranging needs to know about it."""

    role: str
    content: str | list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)
    from_tool: bool = False
    """Came from a ToolMessage: always merged into the user turn it belongs to."""
    placeholder: bool = False
    """An empty user turn added after an assistant turn, to receive moved tool results."""
    raw: dict[str, Any] | None = None
    """A whole message kept verbatim (a role this library does not know)."""

    def dump(self) -> dict[str, Any]:
        if self.raw is not None:
            return self.raw
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


def _is_result(block: dict[str, Any]) -> bool:
    return block.get("type") == "tool_result"


def _results_first(run: list[Item]) -> bool:
    seen_other = False
    for item in run:
        if isinstance(item.content, str):
            seen_other = True
            continue
        for block in item.content:
            if _is_result(block):
                if seen_other:
                    return False
            else:
                seen_other = True
    return True


def _merge(run: list[Item], incoming: list[dict[str, Any]]) -> Item | None:
    results: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    extra_: dict[str, Any] = {}
    for item in run:
        for key, value in item.extra.items():
            extra_.setdefault(key, value)
        if isinstance(item.content, str):
            if item.content:
                others.append({"type": "text", "text": item.content})
            continue
        for block in item.content:
            (results if _is_result(block) else others).append(block)
    content = results + incoming + others
    if not content and all(item.placeholder or item.from_tool for item in run):
        return None
    return Item("user", content, extra_)


def arrange(items: list[Item]) -> list[Item]:
    """Group turns in runs of one role and put every tool result where the API wants it.

    A tool result belongs in the user turn right after the assistant turn that made the
    call, before any other content of that turn (the server merges consecutive turns of
    one role, so "turn" means a run of them). Runs that already obey this are left alone.
    """
    runs: list[list[Item]] = []
    for item in items:
        if runs and item.raw is None and runs[-1][0].raw is None and runs[-1][0].role == item.role:
            runs[-1].append(item)
        else:
            runs.append([item])
    spaced: list[list[Item]] = []
    for k, run in enumerate(runs):
        spaced.append(run)
        is_assistant = run[0].role == "assistant" and run[0].raw is None
        if is_assistant and (k + 1 == len(runs) or runs[k + 1][0].role != "user"):
            spaced.append([Item("user", [], placeholder=True)])
    runs = spaced
    calls: dict[str, list[int]] = {}
    for k, run in enumerate(runs):
        if run[0].role == "assistant" and run[0].raw is None:
            for item in run:
                for block in item.content if isinstance(item.content, list) else ():
                    if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                        calls.setdefault(block["id"], []).append(k)
    incoming: dict[int, list[dict[str, Any]]] = {}
    touched: set[int] = set()
    for k, run in enumerate(runs):
        if run[0].role != "user" or run[0].raw is not None:
            continue
        for item in run:
            if isinstance(item.content, str):
                continue
            kept = []
            for block in item.content:
                key = block.get("tool_use_id")
                callers = calls.get(key, ()) if _is_result(block) and type(key) is str else ()
                earlier = [a for a in callers if a < k]
                if earlier and earlier[-1] + 1 != k:
                    incoming.setdefault(earlier[-1] + 1, []).append(block)
                    touched.update((k, earlier[-1] + 1))
                else:
                    kept.append(block)
            item.content = kept
    out: list[Item] = []
    for k, run in enumerate(runs):
        if run[0].role != "user" or run[0].raw is not None:
            out.extend(run)
        elif k in touched or any(item.from_tool for item in run) or not _results_first(run):
            merged = _merge(run, incoming.get(k, []))
            if merged is not None:
                out.append(merged)
        else:
            out.extend(item for item in run if not item.placeholder)
    return out


def _content_out(
    message: UserMessage | AssistantMessage | SystemMessage | ToolMessage,
    where: str,
    policy: Policy,
    path: str,
) -> str | list[dict[str, Any]] | None:
    """The wire content of a turn; ``None`` when every block of it was dropped."""
    if isinstance(message.content, str):
        return message.content
    out = encode_blocks(message.content, where, policy, f"{path}.content")
    if message.content and not out:
        return None
    return out


def _message_extra(
    message: UserMessage | AssistantMessage | SystemMessage | ToolMessage,
    out: dict[str, Any],
    policy: Policy,
    path: str,
) -> dict[str, Any]:
    put_extra(out, message.extra, policy, path, "message", protected=("role",))
    return {k: v for k, v in out.items() if k not in ("role", "content")}


def _system(hoisted: list[tuple[int, SystemMessage]], policy: Policy) -> Any:
    if len(hoisted) == 1 and isinstance(hoisted[0][1].content, str):
        index, message = hoisted[0]
        _system_extra(message, policy, f"$[{index}]")
        return message.content
    blocks: list[dict[str, Any]] = []
    for index, message in hoisted:
        path = f"$[{index}]"
        _system_extra(message, policy, path)
        if isinstance(message.content, str):
            if message.content:  # the API takes no empty text block
                blocks.append({"type": "text", "text": message.content})
        else:
            blocks.extend(encode_blocks(message.content, "system", policy, f"{path}.content"))
    return blocks


def _system_extra(message: SystemMessage, policy: Policy, path: str) -> None:
    """The top-level system prompt has no place for message fields: the policy decides."""
    policy.turn(message)
    for key, value in carried(message.extra, policy, path, "message", protected=("role",)).items():
        policy.refuse(
            f"cannot carry the field {key!r} on the system prompt", f"{path}.extra.{key}", value
        )


def _in_place(message: SystemMessage, index: int) -> bool:
    """A system message decoded from inside ``messages`` goes back there.

    The decoder marks it with ``extra["role"]``; the first message of a conversation is the
    system prompt wherever it came from (OpenAI Responses marks a leading system item the
    same way), so it is always hoisted.
    """
    return index > 0 and message.extra.get("role") == "system"


def _split(
    role: str, content: str | list[dict[str, Any]], extra_: dict[str, Any], *, from_tool: bool
) -> list[Item]:
    """One turn's wire content as items, tool calls on the assistant side, results on the user's.

    A call found in a user turn becomes an assistant turn of its own, in place; results in
    an assistant turn become a user turn right after it (``arrange`` then puts every result
    where the API wants it). The turn's own fields stay on its first item.
    """
    if isinstance(content, str) or role not in ("user", "assistant"):
        return [Item(role, content, extra_, from_tool=from_tool)]
    moved = "tool_result" if role == "assistant" else "tool_use"
    other = "user" if role == "assistant" else "assistant"
    items: list[Item] = []
    for block in content:
        side = other if block.get("type") == moved else role
        if items and items[-1].role == side:
            assert isinstance(items[-1].content, list)
            items[-1].content.append(block)
        else:
            moved_here = side != role
            items.append(
                Item(side, [block], from_tool=from_tool or (moved_here and side == "user"))
            )
    for item in items:
        if item.role == role:
            item.extra = extra_
            break
    return items or [Item(role, [], extra_, from_tool=from_tool)]


def encode_request(
    conversation: Iterable[Message],
    *,
    unsupported: Unsupported = "raise",
    settings: RequestSettings | None = None,
) -> dict[str, Any]:
    """The ``system`` and ``messages`` of a request body for a conversation.

    Flat messages are grouped into turns first. System messages at any position become the
    top-level ``system`` (one string, or text blocks when there are several); a system
    message decoded from inside ``messages`` goes back there. Tool messages and tool
    results join the user turn right after the assistant turn that made the call, ahead of
    its other content. Content Anthropic cannot carry (audio, another provider's thinking,
    another format's blocks) follows ``unsupported``: ``"raise"`` an
    :class:`~messages.UnsupportedContentError` with its path (``$[turn].content[block]``),
    ``"drop"`` it, or replace it with a ``"text"`` describing it.

    >>> from messages import ToolMessage, ToolResultBlock, ToolUseBlock
    >>> body = encode_request([
    ...     AssistantMessage((ToolUseBlock("toolu_1", "get_time", {}),)),
    ...     ToolMessage((ToolResultBlock("toolu_1", "12:00"),)),
    ... ])
    >>> body["messages"][1]["content"]
    [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '12:00'}]
    """
    policy, turns = start_request(conversation, unsupported, NAME, carries)
    hoisted: list[tuple[int, SystemMessage]] = []
    items: list[Item] = []
    for i, path, turn in each_turn(policy, turns):
        if isinstance(turn, RawMessage):
            kept = raw_turn(turn, policy, path, "cannot carry a {role} message")
            if isinstance(kept, dict):
                items.append(Item(kept["role"], [], raw=kept))
            elif kept is not None:
                items.append(Item("user", [text_block(kept, policy, path)]))
            continue
        if isinstance(turn, SystemMessage) and not _in_place(turn, i):
            hoisted.append((i, turn))
            continue
        if isinstance(turn, ToolMessage):
            role = "user"
        elif isinstance(turn, SystemMessage):
            role = "system"
        else:
            role = turn.role
        before = policy.left_out
        content = _content_out(turn, role, policy, path)
        if content is None:
            continue
        extra_ = _message_extra(turn, {"role": role, "content": content}, policy, path)
        if content == [] and policy.left_out > before:
            continue  # the policy took everything it had (a Chat function_call, say)
        items.extend(_split(role, content, extra_, from_tool=isinstance(turn, ToolMessage)))
    out: dict[str, Any] = {}
    if hoisted:
        out["system"] = _system(hoisted, policy)
    out["messages"] = [item.dump() for item in arrange(items)]
    return write_settings(out, settings, policy, SPELLING)


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out = usage_counts(usage)
    put_details(
        out, usage.extra, "output_tokens_details", {"thinking_tokens": usage.reasoning_tokens}
    )
    for key, value in response_extra(usage.extra, NAME, usage=True).items():
        out.setdefault(key, thaw(value))
    return out


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A response ``Message`` body for an assistant message: the inverse of decode_response.

    Content Anthropic cannot carry raises :class:`~messages.UnsupportedContentError`; another
    provider's response fields in ``extra`` are left out, and its stop reason is mapped.
    """
    policy = Policy("raise", NAME)
    out: dict[str, Any] = {}
    if message.message_id is not None:
        out["id"] = message.message_id
    out["type"] = "message"
    out["role"] = "assistant"
    if message.model is not None:
        out["model"] = message.model
    if isinstance(message.content, str):
        out["content"] = [{"type": "text", "text": message.content}]
    else:
        out["content"] = encode_blocks(
            message.content, "assistant", policy, "$.content", keep_empty=True
        )
    if message.stop_reason is not None:
        out["stop_reason"] = spelled_stop(message.stop_reason, _STOP_REASONS, _STOP_FROM)
    if message.usage is not None:
        out["usage"] = _encode_usage(message.usage)
    for key, value in response_extra(message.extra, NAME).items():
        out.setdefault(key, thaw(value))
    return out
