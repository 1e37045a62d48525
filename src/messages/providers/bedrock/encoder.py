"""Encoding conversations as Converse requests, and messages as responses.

Converse enforces rules other APIs relax, and :func:`encode_request` applies them rather
than leaving them to the server: system messages go to the top-level ``system``; tool
calls sit on the assistant side and results on the user side; consecutive turns of one
role are merged (roles alternate); every result goes to the user turn right after the
assistant turn that made its call, ahead of that turn's other content, so parallel results
share one user turn; blank text blocks and emptied turns are left out; tool ids are mapped
to what Converse takes (:mod:`.ids`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ToolUseBlock
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...policy import describe
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...settings import RequestSettings
from ...usage import StopReason
from ...usage import Usage
from .._carry import carried
from .._carry import each_turn
from .._carry import start_request
from .._common import spelled_stop
from .._formats import BEDROCK as NAME
from .._formats import response_extra
from .._settings import write_settings
from .decoder import USAGE_KEYS
from .decoder import total_tokens
from .parts import SYSTEM_MEMBERS
from .parts import carries
from .parts import closed_fields
from .parts import encode_block
from .settings import SPELLING

__all__ = ["encode_request", "encode_response"]

STOP_REASONS: Final = frozenset(
    (
        "end_turn",
        "tool_use",
        "max_tokens",
        "stop_sequence",
        "guardrail_intervened",
        "content_filtered",
        "malformed_model_output",
        "malformed_tool_use",
        "model_context_window_exceeded",
    )
)
_STOP_FROM: Final = {
    StopReason.END_TURN: "end_turn",
    StopReason.MAX_TOKENS: "max_tokens",
    StopReason.STOP_SEQUENCE: "stop_sequence",
    StopReason.TOOL_USE: "tool_use",
    StopReason.REFUSAL: "content_filtered",
    StopReason.CONTEXT_EXCEEDED: "model_context_window_exceeded",
    StopReason.ERROR: "malformed_model_output",
}


@dataclass
class Turn:
    """One wire message being arranged."""

    role: str
    content: list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


def _side(block: dict[str, Any], role: str) -> str:
    if "toolUse" in block:
        return "assistant"
    if "toolResult" in block:
        return "user"
    return role


def _merged(turns: Iterable[Turn]) -> list[Turn]:
    """Consecutive turns of one role as one turn; empty turns left out."""
    out: list[Turn] = []
    for turn in turns:
        if not turn.content:
            continue
        if out and out[-1].role == turn.role:
            out[-1].content.extend(turn.content)
            for key, value in turn.extra.items():
                out[-1].extra.setdefault(key, value)
        else:
            out.append(Turn(turn.role, list(turn.content), dict(turn.extra)))
    return out


def _result_id(block: dict[str, Any]) -> Any:
    result = block.get("toolResult")
    return result.get("toolUseId") if isinstance(result, dict) else None


def arrange(turns: list[Turn]) -> list[Turn]:
    """Alternating turns, with every tool result in the user turn right after its call.

    Results come first in that turn (parallel results together), the turn's other content
    after them. A result whose call is not in the request stays where it is.
    """
    runs = _merged(turns)
    calls: dict[str, int] = {}
    for k, run in enumerate(runs):
        if run.role == "assistant":
            for block in run.content:
                use = block.get("toolUse")
                if isinstance(use, dict) and isinstance(use.get("toolUseId"), str):
                    calls[use["toolUseId"]] = k
    incoming: dict[int, list[dict[str, Any]]] = {}
    for j, run in enumerate(runs):
        if run.role != "user":
            continue
        kept = []
        for block in run.content:
            k = calls.get(_result_id(block), -1)
            if 0 <= k < j and k + 1 != j:
                incoming.setdefault(k + 1, []).append(block)
            else:
                kept.append(block)
        run.content = kept
    for j, run in enumerate(runs):
        if run.role == "user":
            results = [b for b in run.content if "toolResult" in b]
            others = [b for b in run.content if "toolResult" not in b]
            run.content = results + incoming.get(j, []) + others
    return _merged(runs)


def _system(turn: SystemMessage, policy: Policy, path: str) -> list[dict[str, Any]]:
    policy.turn(turn)
    for key, value in carried(turn.extra, policy, path, "message", protected=("role",)).items():
        policy.refuse(
            f"cannot carry the field {key!r} on the system prompt", f"{path}.extra.{key}", value
        )
    if isinstance(turn.content, str):
        return [{"text": turn.content}] if turn.content.strip() else []
    out: list[dict[str, Any]] = []
    for i, block in enumerate(turn.content):
        at = f"{path}.content[{i}]"
        point = None
        if isinstance(block, TextBlock):
            unmarked, point = cache_point(block)
            part = encode_block(unmarked, "system", policy, at)
        elif carries_system(block):
            assert isinstance(block, RawBlock)
            part = dict(thaw(block.data))
        else:
            said = policy.degrade(block, at, "a Converse system prompt carries text only")
            part = {"text": said.text} if said is not None and said.text else None
        if part is not None:
            out.append(part)
            if point is not None:
                out.append(point)
    return out


def cache_point(block: Block) -> tuple[Block, dict[str, Any] | None]:
    """An Anthropic ``cache_control`` marker as the ``cachePoint`` block to write after it.

    Converse marks the end of a cached prefix with a block of its own where Anthropic marks
    the last block of it; an ``ephemeral`` marker (with a ``ttl`` of ``5m`` or ``1h``) is
    that. The block comes back without the marker; any other marker stays for the policy.
    """
    extra = getattr(block, "extra", None)
    marker = extra.get("cache_control") if isinstance(extra, FrozenDict) else None
    if not (
        isinstance(marker, FrozenDict)
        and marker.get("type") == "ephemeral"
        and set(marker) <= {"type", "ttl"}
        and marker.get("ttl", "5m") in ("5m", "1h")
    ):
        return block, None
    assert isinstance(extra, FrozenDict)
    point: dict[str, Any] = {"type": "default"}
    if "ttl" in marker:
        point["ttl"] = marker["ttl"]
    rest = FrozenDict({k: v for k, v in extra.items() if k != "cache_control"})
    return replace(block, extra=rest), {"cachePoint": point}  # type: ignore[arg-type]


def carries_system(block: Block) -> bool:
    """Whether a raw block is a Converse system block (text, guard content, cache point)."""
    return (
        isinstance(block, RawBlock)
        and isinstance(block.data, FrozenDict)
        and len(block.data) == 1
        and (next(iter(block.data)) in SYSTEM_MEMBERS or block.provider == NAME)
    )


def encode_request(
    conversation: Iterable[Message],
    *,
    unsupported: Unsupported = "raise",
    settings: RequestSettings | None = None,
) -> dict[str, Any]:
    """The ``system`` and ``messages`` of a ``Converse`` request for a conversation.

    Flat messages are grouped into turns first. Every system message joins the top-level
    ``system`` blocks. Calls and results are arranged as Converse requires (see the module
    docstring); ids that Converse does not take are mapped reversibly
    (:func:`~messages.providers.bedrock.wire_id`). Content Converse cannot carry (a URL
    image, another provider's signed reasoning, server tools) follows ``unsupported``:
    ``"raise"`` an :class:`~messages.UnsupportedContentError` with its path, ``"drop"`` it,
    or replace it with a ``"text"`` describing it.

    >>> from messages import ToolMessage, ToolResultBlock, ToolUseBlock, UserMessage
    >>> body = encode_request([
    ...     UserMessage("Time?"),
    ...     AssistantMessage((ToolUseBlock("functions.now:0", "now", {}),)),
    ...     ToolMessage((ToolResultBlock("functions.now:0", "12:00"),)),
    ... ])
    >>> body["messages"][2]["content"]
    [{'toolResult': {'toolUseId': 'mx-functions-2enow-3a0', 'content': [{'text': '12:00'}]}}]
    """
    policy, turns = start_request(conversation, unsupported, NAME, carries)
    system: list[dict[str, Any]] = []
    hoisted = False
    wire: list[Turn] = []
    for _, path, turn in each_turn(policy, turns):
        if isinstance(turn, SystemMessage):
            hoisted = True
            system.extend(_system(turn, policy, path))
            continue
        if isinstance(turn, RawMessage):
            said = policy.degrade(RawBlock(turn.data), path, "Converse has no such role")
            if said is not None and said.text:
                wire.append(Turn("user", [{"text": said.text}]))
            continue
        role = "assistant" if isinstance(turn, AssistantMessage) else "user"
        blocks = (TextBlock(turn.content),) if isinstance(turn.content, str) else turn.content
        content = []
        told: list[dict[str, Any]] = []  # what would have opened the conversation, as text
        opened = any(t.role == "user" for t in wire)
        for j, given in enumerate(blocks):
            unmarked, point = cache_point(given)
            part = encode_block(unmarked, role, policy, f"{path}.content[{j}]")
            if part is not None and not opened and _side(part, role) == "assistant":
                told_part = _opening(given, policy, f"{path}.content[{j}]")
                if told_part is not None:
                    told.append(told_part)
                    opened = True
                continue
            if part is not None:
                opened = opened or _side(part, role) == "user"
                content.append(part)
                if point is not None:
                    content.append(point)
        if told:
            wire.append(Turn("user", told))
        extra = closed_fields(turn.extra, policy, path, "message", ("role", "content"))
        first = True
        for block in content:
            side = _side(block, role)
            if wire and wire[-1].role == side:
                wire[-1].content.append(block)
            else:
                wire.append(Turn(side, [block]))
            if first and side == role:
                wire[-1].extra.update(extra)
                first = False
    out: dict[str, Any] = {}
    if hoisted and system:
        out["system"] = system
    out["messages"] = [t.dump() for t in arrange(wire)]
    fresh: dict[str, Any] = thaw(out)
    return write_settings(fresh, settings, policy, SPELLING)


_FIRST: Final = "a Converse conversation starts with a user message"


def _opening(block: Block, policy: Policy, path: str) -> dict[str, Any] | None:
    """An assistant-side block that would open the conversation, as the policy says.

    Refused (``raise``), left out (``drop``; a call's result follows it), or told as user
    text (``text``: ``[assistant: ...]``, or the block described).
    """
    if policy.mode == "raise":
        raise policy.error(_FIRST, path, block)
    if isinstance(block, ToolUseBlock):
        policy.lost = policy.lost | {block.id}  # its result follows it
    policy.left_out += 1
    if policy.mode == "drop":
        return None
    text = f"[assistant: {block.text}]" if isinstance(block, TextBlock) else describe(block)
    return {"text": text}


def _encode_usage(usage: Usage) -> dict[str, Any]:
    counts = (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
    )
    out: dict[str, Any] = {
        "inputTokens": usage.input_tokens or 0,
        "outputTokens": usage.output_tokens or 0,
        "totalTokens": total_tokens(counts),
    }
    for key, count in zip(USAGE_KEYS[2:], counts[2:], strict=True):
        if count is not None:
            out[key] = count
    for key, value in response_extra(raw(usage.extra), NAME, usage=True).items():
        out[key] = thaw(value)
    return out


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A ``Converse`` response for an assistant message: the inverse of decode_response.

    Content Converse cannot carry raises :class:`~messages.UnsupportedContentError`;
    another format's response fields in ``extra`` are left out, and its stop reason mapped.
    """
    policy = Policy("raise", NAME)
    blocks = (TextBlock(message.content),) if isinstance(message.content, str) else message.content
    content = []
    for i, block in enumerate(blocks):
        if isinstance(block, TextBlock) and not block.text and block.citations is None:
            content.append({"text": ""})  # a response may hold one; it goes back as it came
            continue
        part = encode_block(block, "assistant", policy, f"$.content[{i}]")
        if part is not None:
            content.append(part)
    ex = response_extra(raw(message.extra), NAME)
    output = ex.pop("output", None)  # what a Bedrock response had beside the message
    output = dict(output) if isinstance(output, dict) else {}
    out: dict[str, Any] = {}
    kept = output.get("message", {})
    if kept is None and not content:
        out["output"] = output
    else:
        said = {"role": "assistant", **(kept if isinstance(kept, dict) else {})}
        said["content"] = content
        out["output"] = {**output, "message": said}
    if message.stop_reason is not None:
        out["stopReason"] = spelled_stop(message.stop_reason, STOP_REASONS, _STOP_FROM)
    if message.usage is not None:
        out["usage"] = _encode_usage(message.usage)
    for key, value in ex.items():
        out.setdefault(key, value)
    return thaw(out)  # type: ignore[no-any-return]
