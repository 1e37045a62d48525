"""Claude Code lines: encoding (private half of :mod:`.claude_code`).

Messages decoded from Claude Code carry the line's ``type`` and unmodelled keys in ``extra``
and are written back exactly. Messages from other sources become the closest line: role and
flat content as ``assistant``/``user`` lines, results, init and stream events as their lines,
errors as the synthetic assistant error lines Claude Code itself writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.jsontext import dump_compact
from ..._core.jsontext import dump_unchecked
from ..._core.wire import present
from ..._shapes import anthropic_blocks
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import VideoBlock
from ...convert import message_to_block
from ...events.agent import EVENT_TYPES
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
from ...flat import FlatMessage
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
from ...policy import describe
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import foreign
from .events import line_type
from .events import put_result_details
from .events import put_user_details
from .events import system_line
from .output import OUTPUT
from .output import unmarked
from .records import LINE_TYPES
from .records import RECORD_KINDS
from .records import record_line
from .records import unlinked

__all__ = ["encode_lines", "encode_message"]

NAME: Final = "claude_code"
_SYNTHETIC_MODEL: Final = "<synthetic>"
_EVENT_KINDS: Final = frozenset(EVENT_TYPES)
"""The agent events, each written as its ``system`` (or own) line by :func:`_event_line`."""


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out = anthropic_blocks.usage_counts(usage)  # Claude Code spells usage as the API does
    if usage.extra is not EMPTY and usage.extra:
        out.update(raw(usage.extra))
    return out


def _carry(content: str | tuple[Block, ...], policy: Policy) -> str | tuple[Block, ...]:
    """Content from another source, with blocks Claude cannot take rejected, dropped or texted.

    Audio and video have no Anthropic block; a thinking signature issued by another provider
    would be refused by the API, so such a block is not carried either.
    """
    if isinstance(content, str):
        return content
    out: list[Block] = []
    changed = False
    for i, block in enumerate(content):
        if isinstance(block, AudioBlock | VideoBlock) or (
            isinstance(block, ThinkingBlock)
            and block.signature is not None
            and block.provider not in (None, "anthropic")
        ):
            what = (
                block.kind if not isinstance(block, ThinkingBlock) else f"{block.provider} thinking"
            )
            alt = policy.degrade(block, f"$.content[{i}]", f"{NAME} cannot carry {what} blocks")
            changed = True
            if alt is not None:
                out.append(alt)
            continue
        out.append(block)
    return tuple(out) if changed else content


def _own(extra: Any, tag: str) -> dict[str, Any]:
    """The plain form of ``extra`` when it belongs to a Claude Code ``tag`` line, else ``{}``."""
    if type(extra) is FrozenDict:  # the usual case, read inline: what foreign() decides
        d: dict[str, Any] = extra._d
        if not d:
            return d
        found = d.get("type")
        if (found is None or found == tag) and "method" not in d and "jsonrpc" not in d:
            return d if OUTPUT not in d else unmarked(d)
        return {}
    if foreign(extra, tag):
        return {}
    return unmarked(raw(extra))


def _put_context(out: dict[str, Any], m: Message, extra: dict[str, Any]) -> None:
    if m.session_id is not None and "sessionId" not in extra:
        out["session_id"] = m.session_id
    if m.parent_tool_use_id is not None:
        out["parent_tool_use_id"] = m.parent_tool_use_id
    if m.uuid is not None:
        out["uuid"] = m.uuid
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp


def _role_line(
    m: AssistantMessage | UserMessage, tag: str, policy: Policy
) -> dict[str, Any] | None:
    """The line of a role message; ``None`` when the policy left none of its blocks."""
    ex = _own(m.extra, tag)
    inner_ex = ex.get("message")
    inner: dict[str, Any] = {}
    if type(inner_ex) is not dict:
        inner_ex = None
        content = _carry(m.content, policy)
        if m.content and not content:
            return None
    else:
        content = m.content
    assistant = type(m) is AssistantMessage
    if assistant:
        if m.model is not None:
            inner["model"] = m.model
        if m.message_id is not None:
            inner["id"] = m.message_id
        if inner_ex is None:
            inner["type"] = "message"
    if inner_ex is None:
        inner["role"] = tag
    inner["content"] = (
        content if isinstance(content, str) else anthropic_blocks.encode_blocks(content)
    )
    if assistant:
        assert isinstance(m, AssistantMessage)
        if m.stop_reason is not None:
            inner["stop_reason"] = m.stop_reason
        if m.usage is not None:
            inner["usage"] = _encode_usage(m.usage)
    if inner_ex:
        inner.update(inner_ex)
    out: dict[str, Any] = {"type": tag}
    if m.session_id is not None and "sessionId" not in ex:  # _put_context, inline
        out["session_id"] = m.session_id
    if m.parent_tool_use_id is not None:
        out["parent_tool_use_id"] = m.parent_tool_use_id
    elif not assistant and "session_id" in out and not ex:
        # a stream-json line as Claude Code writes one (top-level: null); it also keeps a
        # user line from another source apart from Cursor's, which borrows the shape
        out["parent_tool_use_id"] = None
    if m.uuid is not None:
        out["uuid"] = m.uuid
    if m.timestamp is not None:
        out["timestamp"] = m.timestamp
    if assistant and m.error is not None:  # type: ignore[union-attr]
        out["error"] = m.error  # type: ignore[union-attr]
    elif not assistant:
        put_user_details(out, m)  # type: ignore[arg-type]
    out.update(ex)
    out["message"] = inner
    return out


def _flat(m: FlatMessage, policy: Policy) -> Any:
    """A flat message as a one-block assistant or user line."""
    if isinstance(m, RawMessage):
        block: Block = RawBlock(m.data)
    else:
        block = message_to_block(m)
        if foreign(m.extra, ()) and not isinstance(block, RawBlock):
            block = replace(block, extra=EMPTY)
    context: dict[str, Any] = {
        "uuid": m.uuid,
        "session_id": m.session_id,
        "parent_tool_use_id": m.parent_tool_use_id,
        "model": m.model,
        "message_id": m.message_id,
        "timestamp": m.timestamp,
    }
    if m.role == "assistant":
        return _role_line(AssistantMessage((block,), **context), "assistant", policy)
    if m.role in ("system", "developer"):
        return _system_prompt(m.role, (block,), context, policy)
    return _role_line(UserMessage((block,), **context), "user", policy)


def _system_prompt(
    role: str, content: str | tuple[Block, ...], context: dict[str, Any], policy: Policy
) -> Any:
    """Claude Code writes no system prompt lines: reject, drop, or send the text as a user line."""
    policy.refuse(f"{NAME} cannot carry {role} messages", "$", content)
    if policy.mode == "drop":
        return None
    text = content if isinstance(content, str) else "\n".join(describe(b) for b in content)
    return _role_line(UserMessage(text, **context), "user", policy)


def _result_line(m: ResultMessage) -> dict[str, Any]:
    ex = _own(m.extra, "result")
    out: dict[str, Any] = {"type": "result"}
    if m.subtype is not None:
        out["subtype"] = m.subtype
    elif m.is_error is None and not ex:  # from elsewhere, with no outcome: as Gemini CLI reads it
        out["subtype"] = "success"
    out.update(
        present(
            is_error=m.is_error,
            duration_ms=m.duration_ms,
            duration_api_ms=m.duration_api_ms,
            num_turns=m.num_turns,
            result=m.result,
            total_cost_usd=m.total_cost_usd,
            usage=None if m.usage is None else _encode_usage(m.usage),
            structured_output=raw(m.structured_output),
        )
    )
    put_result_details(out, m)
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _init_line(m: InitMessage) -> dict[str, Any]:
    ex = _own(m.extra, "system")
    out: dict[str, Any] = {"type": "system", "subtype": "init"}
    out.update(present(cwd=m.cwd, tools=raw(m.tools), model=m.model))
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _stream_line(m: StreamEventMessage) -> dict[str, Any]:
    ex = _own(m.extra, "stream_event")
    out: dict[str, Any] = {"type": "stream_event", "event": raw(m.event)}
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _event_line(m: Message) -> dict[str, Any]:
    """An agent event as its ``system`` (or ``rate_limit_event``) line."""
    ex = _own(m.extra, line_type(m))
    out = system_line(m, ex)
    _put_context(out, m, ex)
    out.update(ex)
    return out


def _record_line(m: Message, policy: Policy) -> dict[str, Any] | None:
    """A transcript record as its line; a sub-agent's message inside it as its own line.

    A title without the leaf it names, or a snapshot without the record it was taken for
    (another agent's, say), has no Claude Code line unless it came from one: refused, or
    left out, under the policy.
    """
    tag = LINE_TYPES[type(m)]
    ex = _own(m.extra, tag)
    if not ex:
        missing = unlinked(m)
        if missing is not None:
            policy.refuse(f"{NAME} has no {tag} line without {missing}", "$", m)
            return None
    out = record_line(m, lambda inner: encode_message(inner, policy))
    _put_context(out, m, ex)
    out.update(ex)
    return out


def encode_message(m: Message, policy: Policy) -> Any:
    """A message to its wire object (sharing nested values with it); ``None`` when dropped."""
    cls = type(m)  # the usual kinds first, without the match's isinstance chain
    if cls is AssistantMessage:
        return _role_line(m, "assistant", policy)  # type: ignore[arg-type]
    if cls is StreamEventMessage:
        return _stream_line(m)  # type: ignore[arg-type]
    if cls is UserMessage:
        return _role_line(m, "user", policy)  # type: ignore[arg-type]
    if cls in _EVENT_KINDS:  # past the match's dozen isinstance checks
        return _event_line(m)
    if cls in RECORD_KINDS:
        return _record_line(m, policy)
    if cls is ResultMessage:
        return _result_line(m)  # type: ignore[arg-type]
    if cls is InitMessage:
        return _init_line(m)  # type: ignore[arg-type]
    match m:
        case AssistantMessage():
            return _role_line(m, "assistant", policy)
        case UserMessage():
            return _role_line(m, "user", policy)
        case ToolMessage():
            context: dict[str, Any] = {
                "uuid": m.uuid,
                "session_id": m.session_id,
                "parent_tool_use_id": m.parent_tool_use_id,
                "timestamp": m.timestamp,
            }
            return _role_line(UserMessage(m.content, **context), "user", policy)
        case SystemMessage():
            context = {
                "uuid": m.uuid,
                "session_id": m.session_id,
                "parent_tool_use_id": m.parent_tool_use_id,
                "timestamp": m.timestamp,
            }
            return _system_prompt(m.role, m.content, context, policy)
        case RawMessage() if m.role is None:
            return raw(m.data)
        case (
            TextMessage()
            | ThinkingMessage()
            | ToolUseMessage()
            | ToolResultMessage()
            | ImageMessage()
            | AudioMessage()
            | RawMessage()
            | DocumentMessage()
            | VideoMessage()
            | ServerToolUseMessage()
            | ServerToolResultMessage()
        ):
            return _flat(m, policy)
        case ResultMessage():
            return _result_line(m)
        case InitMessage():
            return _init_line(m)
        case StreamEventMessage():
            return _stream_line(m)
        case (
            TaskEventMessage()
            | HookEventMessage()
            | CompactBoundaryMessage()
            | StatusMessage()
            | RateLimitMessage()
            | SystemEventMessage()
            | ConversationResetMessage()
        ):
            return _event_line(m)
        case ProgressMessage() | FileSnapshotMessage() | TitleMessage() | QueueOperationMessage():
            return _record_line(m, policy)
        case TurnContextMessage() | TurnEventMessage():
            policy.refuse(f"{NAME} has no line for {m.kind} messages", "$", m)
            return None
        case ErrorMessage():
            line = AssistantMessage(
                (TextBlock(m.message),),
                error=m.code or "unknown",
                model=m.model or _SYNTHETIC_MODEL,
                uuid=m.uuid,
                session_id=m.session_id,
                parent_tool_use_id=m.parent_tool_use_id,
                message_id=m.message_id,
                timestamp=m.timestamp,
            )
            return _role_line(line, "assistant", policy)
        case InvalidLineMessage():
            why = f"{NAME} cannot carry invalid lines (iter_encode writes their text)"
            policy.refuse(why, "$", m)
            return None
        case _:
            assert_never(m)


def encode_lines(messages: Iterable[Message], unsupported: Unsupported) -> Iterator[str]:
    """Messages to compact JSON lines; invalid lines write their text, dropped ones nothing.

    The items of a run's JSON array (marked ``extra["$output"]``, see :mod:`.output`) are
    written back as one array: item 0 opens it, the next indexes join it; an item whose array
    was not opened here is written as its own line.
    """
    policy = Policy(unsupported, NAME)
    items: list[Any] | None = None  # the array being put back together
    for message in messages:
        ex = message.extra
        if type(ex) is FrozenDict and OUTPUT in ex._d:  # an item of a run's JSON array
            index = ex._d[OUTPUT]
            if items is not None and index == 0:
                yield _dump(items)
                items = None
            obj = encode_message(message, policy)
            if obj is None:
                continue
            if index == 0:
                items = [obj]
            elif items is not None:
                items.append(obj)
            else:
                yield _dump(obj)
            continue
        if items is not None:
            yield _dump(items)
            items = None
        cls = type(message)
        if cls is AssistantMessage:  # the usual kinds first, as in encode_message
            obj = _role_line(message, "assistant", policy)  # type: ignore[arg-type]
        elif cls is UserMessage:
            obj = _role_line(message, "user", policy)  # type: ignore[arg-type]
        elif isinstance(message, InvalidLineMessage):
            yield message.text
            continue
        else:
            obj = encode_message(message, policy)
        if obj is not None:
            try:
                line = dump_unchecked(obj)
            except (ValueError, TypeError, RecursionError):
                line = dump_compact(obj)  # raises the EncodeError that explains it
            yield line
    if items is not None:
        yield _dump(items)


def _dump(obj: Any) -> str:
    try:
        return dump_unchecked(obj)
    except (ValueError, TypeError, RecursionError):
        return dump_compact(obj)  # raises the EncodeError that explains it
