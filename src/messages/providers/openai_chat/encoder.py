"""Encoding conversations as OpenAI Chat Completions requests, and messages as responses.

Content parts and ``tool_calls`` entries are written by :mod:`._chat_parts`.
:func:`encode_turn` writes one turn as wire messages: a system/developer, user or assistant
message, one ``tool`` message per tool result, and an assistant message for tool calls
found outside an assistant turn. :func:`arrange` then moves every tool message right after
the assistant message whose ``tool_calls`` hold its id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import thaw
from ..._core.wire import encode_each
from ..._core.wire import present
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import content_text
from ...settings import RequestSettings
from ...usage import StopReason
from ...usage import Usage
from .._carry import carried
from .._carry import each_turn
from .._carry import failed_output
from .._carry import put_extra
from .._carry import raw_turn
from .._carry import refusal_text
from .._carry import start_request
from .._common import put_details
from .._common import spelled_stop
from .._formats import response_extra
from .._settings import write_settings
from .decoder import ENVELOPE
from .parts import CONTENT_PART
from .parts import NAME
from .parts import annotations_out
from .parts import carries
from .parts import encode_part
from .parts import encode_tool_call
from .parts import is_tool_call
from .parts import text_part
from .reasoning import Dialect
from .reasoning import check_dialect
from .reasoning import encode_reasoning
from .reasoning import fields_for
from .settings import SPELLING
from .settings import limit_key

__all__ = ["encode_request", "encode_response", "encode_usage"]

_FINISH_REASONS: Final = frozenset(
    ("stop", "length", "tool_calls", "content_filter", "function_call")
)
_FINISH_FROM: Final = {
    StopReason.END_TURN: "stop",
    StopReason.STOP_SEQUENCE: "stop",
    StopReason.MAX_TOKENS: "length",
    StopReason.TOOL_USE: "tool_calls",
    StopReason.REFUSAL: "content_filter",
}
_REQUEST_FIELDS: Final = frozenset(("name", "refusal", "function_call"))
"""The message fields a request knows, written for messages decoded from responses or logs."""

Wire = tuple[dict[str, Any], str | None]
"""A wire message and, for a tool message, the id of the call it answers."""


def _field_refusal(block: Block) -> str | None:
    """The text of a ``RawBlock({"refusal": ...})``: the message's ``refusal`` field."""
    data = block.data if isinstance(block, RawBlock) else None
    if isinstance(data, FrozenDict) and data.keys() == {"refusal"}:
        text = data["refusal"]
        return text if isinstance(text, str) else None
    return None


def _plain(block: TextBlock, policy: Policy) -> bool:
    """A text that can be the string content: no field a part would carry, not a one-part list."""
    quiet = Policy("drop", NAME)
    quiet.context = policy.context
    listed = block.extra.get(CONTENT_PART) is True  # see the decoder
    return not listed and not carried(block.extra, quiet, "$", "text")


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
    allow = None
    if response:
        policy = Policy("drop", NAME)  # the inverse of decode_response: every own field back
    elif policy.context:
        allow = _REQUEST_FIELDS if isinstance(message, AssistantMessage) else frozenset(("name",))
    put_extra(
        out, message.extra, policy, path, "message", protected=("role", ENVELOPE), allow=allow
    )


def _empty_content(message: Any) -> Any:
    """The wire content of a message with no content: a kept null (or []), else []."""
    if "content" in message.extra:
        return thaw(message.extra["content"])
    return []


def _parts(
    blocks: tuple[tuple[int, Block], ...], where: str, policy: Policy, path: str
) -> list[dict[str, Any]]:
    at = f"{path}.content"
    return encode_each(blocks, lambda b, p, item_at: encode_part(b, where, p, item_at), policy, at)


def encode_assistant(
    message: AssistantMessage,
    policy: Policy,
    path: str,
    *,
    response: bool = False,
    results: list[Wire] | None = None,
    dialect: Dialect = "openai",
) -> dict[str, Any]:
    """An assistant message; tool results in it become tool messages in ``results``.

    Without ``results`` (a response), a tool result follows the policy. Thinking goes where
    ``dialect`` reads it (see :mod:`.reasoning`), or to the policy.
    """
    out: dict[str, Any] = {"role": "assistant"}
    if isinstance(message.content, str):
        out["content"] = message.content
        _message_extra(message, out, policy, path, response=response)
        return out
    parts: list[tuple[int, TextBlock | dict[str, Any]]] = []
    calls: list[dict[str, Any]] = []
    audio: dict[str, Any] | None = None
    refusal: str | None = None
    thinking: list[tuple[ThinkingBlock, tuple[str, ...]]] = []
    reasoned = False  # the message has reasoning in a field: its one text stays a string
    for j, block in enumerate(message.content):
        where = f"{path}.content[{j}]"
        refused = _field_refusal(block)
        fields = fields_for(block, dialect) if isinstance(block, ThinkingBlock) else ()
        reasoned = reasoned or bool(fields)
        if fields and dialect == "openai" and policy.context and not response:
            # Read from a response or log: not a plain OpenAI request field (a dialect's).
            continue
        if fields:
            assert isinstance(block, ThinkingBlock)
            thinking.append((block, fields))
        elif isinstance(block, ToolUseBlock):
            calls.append(encode_tool_call(block, policy, where, signed=dialect == "gemini"))
        elif isinstance(block, ToolResultBlock) and results is not None:
            answer = _tool_message(block, policy, where)
            if isinstance(answer, TextBlock):
                parts.append((j, answer))
            elif answer is not None:
                results.append((answer, block.tool_use_id))
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
            put_extra(audio, block.extra, policy, where, "audio")
        elif isinstance(block, TextBlock) and refusal_text(block) is not None:
            parts.append((j, {"type": "refusal", "refusal": block.text}))  # a Responses refusal
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
            replacement = policy.degrade(block, where, f"cannot carry {what}")
            if replacement is not None:
                parts.append((j, replacement))
    single = len(parts) == 1 and isinstance(parts[0][1], TextBlock) and _plain(parts[0][1], policy)
    if not parts:
        if "content" in message.extra or calls or audio or refusal is not None or response:
            # A kept null or [] is written back below. With tool calls, audio or a refusal
            # the content may be left out, and a response message need not have it: one
            # decoded without a ``content`` key goes back without one.
            pass
        else:
            out["content"] = ""
    elif single and (
        calls or audio or refusal is not None or response or reasoned or _cited(parts[0][1])
    ):
        j, text = parts[0]
        assert isinstance(text, TextBlock)
        out["content"] = text.text
        annotations_out(text, out, policy, f"{path}.content[{j}]")
    elif response and all(
        isinstance(b, TextBlock) and _plain(b, policy) and not _cited(b) for _, b in parts
    ):
        # A completion's content is one string (the SDK's ChatCompletionMessage): several
        # plain texts, an Anthropic turn's blocks say, are joined the way the message's own
        # ``text`` joins them.
        out["content"] = content_text(tuple(b for _, b in parts if isinstance(b, TextBlock)))
    else:
        out["content"] = [
            text_part(b, policy, f"{path}.content[{j}]") if isinstance(b, TextBlock) else b
            for j, b in parts
        ]
    if refusal is not None:
        out["refusal"] = refusal
    encode_reasoning(thinking, out)
    if dialect == "deepseek" and calls and "reasoning_content" not in out:
        out["reasoning_content"] = ""  # DeepSeek rejects a tool-call turn without one
    if calls:
        out["tool_calls"] = calls
    if audio is not None:
        out["audio"] = audio
    _message_extra(message, out, policy, path, response=response)
    return out


def _tool_message(
    block: ToolResultBlock, policy: Policy, path: str
) -> dict[str, Any] | TextBlock | None:
    """A tool message; what the policy gave instead when the call it answers is lost."""
    if block.tool_use_id in policy.lost:
        return policy.degrade(block, path, "cannot carry a result for a call it cannot carry")
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
                reason = f"cannot carry {inner.kind} content in a tool result"
                replacement = policy.degrade(inner, where, reason)
                if replacement is not None:
                    content.append(text_part(replacement, policy, where))
    if block.is_error:
        policy.refuse("cannot carry is_error on a tool result", f"{path}.is_error", True)
        if policy.mode == "text":
            content = failed_output(block.tool_use_id, content, "text")
    out["content"] = content
    put_extra(out, block.extra, policy, path, "tool_result")
    return out


def encode_turn(turn: Any, policy: Policy, path: str, dialect: Dialect = "openai") -> list[Wire]:
    """One turn as wire messages, in order; tool messages are placed by :func:`arrange`."""
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
        results: list[Wire] = []
        before = policy.left_out
        message = encode_assistant(turn, policy, path, results=results, dialect=dialect)
        if policy.left_out > before and _says_nothing(message):
            return results  # the policy took all it had (reasoning only): no empty message
        return [(message, None), *results]
    if isinstance(turn, UserMessage) and isinstance(turn.content, str):
        out = {"role": "user", "content": turn.content}
        _message_extra(turn, out, policy, path)
        return [(out, None)]
    if isinstance(turn, UserMessage) and not turn.content:
        out = {"role": "user", "content": _empty_content(turn)}
        _message_extra(turn, out, policy, path)
        return [(out, None)]
    return _user_side(turn, policy, path)


def _says_nothing(message: dict[str, Any]) -> bool:
    """An assistant message with no content, refusal, tool calls, audio or function call.

    The API rejects one; a turn the policy emptied is left out rather than written so (a
    turn that came empty is written as it came).
    """
    keys = ("content", "refusal", "tool_calls", "audio", "function_call")
    return all(message.get(k) in (None, "", []) for k in keys)


def _user_side(turn: UserMessage | ToolMessage, policy: Policy, path: str) -> list[Wire]:
    """A user or tool turn: tool messages, calls as an assistant message, the rest as user.

    The user content is one message after the tool messages (a call found in the turn
    splits it, so what came before the call stays before it). The turn's own fields go on
    the first user message, or on each tool message of a tool turn.
    """
    wires: list[Wire] = []
    rest: list[tuple[int, Block]] = []
    first = True
    blocks = (TextBlock(turn.content),) if isinstance(turn.content, str) else turn.content

    def flush() -> None:
        nonlocal first
        if not rest:
            return
        content = _parts(tuple(rest), "user", policy, path)
        rest.clear()
        if not content:
            return  # everything in it was dropped
        out = {"role": "user", "content": content}
        if first and isinstance(turn, UserMessage):
            _message_extra(turn, out, policy, path)
            first = False
        wires.append((out, None))

    calls: list[dict[str, Any]] = []
    for j, block in enumerate(blocks):
        where = f"{path}.content[{j}]"
        if isinstance(block, ToolUseBlock):
            flush()
            calls.append(encode_tool_call(block, policy, where))
            continue
        if calls:
            wires.append(({"role": "assistant", "tool_calls": calls}, None))
            calls = []
        if isinstance(block, ToolResultBlock):
            tool = _tool_message(block, policy, where)
            if isinstance(tool, TextBlock):
                rest.append((j, tool))
            elif tool is not None:
                if isinstance(turn, ToolMessage):
                    _message_extra(turn, tool, policy, path)
                wires.append((tool, block.tool_use_id))
        elif isinstance(turn, ToolMessage):
            replacement = policy.degrade(block, where, "cannot carry content outside a tool result")
            if replacement is not None:
                rest.append((j, replacement))
        else:
            rest.append((j, block))
    if calls:
        wires.append(({"role": "assistant", "tool_calls": calls}, None))
    flush()
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


def encode_usage(usage: Usage) -> dict[str, Any]:
    """The inverse of :func:`decode_usage` (another provider's usage fields are left out)."""
    # Chat's prompt tokens count the cached ones (read and written) too.
    cached = (usage.cache_read_tokens or 0) + (usage.cache_write_tokens or 0)
    prompt = None if usage.input_tokens is None else usage.input_tokens + cached
    out = present(prompt_tokens=prompt, completion_tokens=usage.output_tokens)
    cache = {"cached_tokens": usage.cache_read_tokens}
    cache["cache_write_tokens"] = usage.cache_write_tokens
    put_details(out, usage.extra, "prompt_tokens_details", cache)
    reasoning = {"reasoning_tokens": usage.reasoning_tokens}
    put_details(out, usage.extra, "completion_tokens_details", reasoning)
    for key, value in response_extra(usage.extra, NAME, usage=True).items():
        out.setdefault(key, thaw(value))
    return out


def encode_request(
    conversation: Iterable[Message],
    *,
    unsupported: Unsupported = "raise",
    dialect: Dialect = "openai",
    settings: RequestSettings | None = None,
) -> dict[str, Any]:
    """The ``messages`` of a request body for a conversation.

    Flat messages are grouped into turns first. ``system``/``developer`` roles are kept.
    Every tool result (a :class:`ToolMessage`, or a :class:`ToolResultBlock` in a user turn)
    becomes one ``tool`` message, placed right after the assistant message whose
    ``tool_calls`` hold its id. Tool calls keep their raw ``arguments`` string when they
    have one. Content Chat cannot carry (thinking, images in tool results, ``is_error``,
    another format's blocks) follows ``unsupported``: ``"raise"`` an
    :class:`~messages.UnsupportedContentError` with its path, ``"drop"`` it, or replace it
    with a ``"text"`` describing it.

    ``dialect`` names the OpenAI-compatible API the request is for, and so where thinking
    goes (``reasoning_content``, ``reasoning_details``...; see :mod:`.reasoning` and
    ``docs/providers/openai_chat.md``); the default, ``"openai"``, has no place for it. A
    signature is sent only to the API that issued it: others are dropped. It also names
    the key of the token limit of ``settings`` read from elsewhere (:func:`.limit_key`).

    >>> from messages import ToolResultBlock, ToolUseBlock
    >>> body = encode_request([
    ...     AssistantMessage((ToolUseBlock("call_1", "get_time", {}, arguments="{}"),)),
    ...     UserMessage((ToolResultBlock("call_1", "12:00"),)),
    ... ])
    >>> body["messages"][1]
    {'role': 'tool', 'tool_call_id': 'call_1', 'content': '12:00'}
    """
    check_dialect(dialect)
    policy, turns = start_request(conversation, unsupported, NAME, carries)
    wires: list[Wire] = []
    for _, path, turn in each_turn(policy, turns):
        if isinstance(turn, RawMessage):
            kept = raw_turn(turn, policy, path, "cannot carry a {role} message")
            if isinstance(kept, dict):
                wires.append((kept, None))
            elif kept is not None:
                wires.append(({"role": "user", "content": kept.text}, None))
            continue
        wires.extend(encode_turn(turn, policy, path, dialect))
    body = {"messages": arrange(wires)}
    return write_settings(body, settings, policy, SPELLING, limit_key(dialect))


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A ``ChatCompletion`` body for an assistant message: the inverse of decode_response.

    Content Chat cannot carry raises :class:`~messages.UnsupportedContentError`. A message
    from another provider gets ``object``, one choice and a mapped ``finish_reason``; its
    response fields in ``extra`` are left out.
    """
    policy = Policy("raise", NAME)
    envelope_value = message.extra.get(ENVELOPE)
    envelope = thaw(envelope_value) if isinstance(envelope_value, FrozenDict) else None
    out = present(id=message.message_id)
    if envelope is None:
        out["object"] = "chat.completion"
    out.update(present(created=message.timestamp, model=message.model))
    choices = envelope.pop("choices", None) if envelope is not None else None
    if type(choices) is list and choices and type(choices[0]) is dict:
        choice, others = choices[0], choices[1:]
    else:
        choice, others = {"index": 0}, []
    choice["message"] = encode_assistant(message, policy, "$", response=True)
    if message.stop_reason is not None:
        choice["finish_reason"] = spelled_stop(message.stop_reason, _FINISH_REASONS, _FINISH_FROM)
    out["choices"] = [choice, *others]
    if message.usage is not None:
        out["usage"] = encode_usage(message.usage)
    if envelope is not None:
        for key, value in envelope.items():
            out.setdefault(key, value)
    return out
