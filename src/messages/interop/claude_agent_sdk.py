"""Bridge to ``claude-agent-sdk``: what ``async for message in query(...)`` yields.

The SDK parses each Claude Code ``stream-json`` line into a dataclass and keeps part of it.
:func:`to_messages` writes each SDK object back as the Claude Code line it came from, as
far as the SDK kept it, and decodes that line with :mod:`messages.adapters.claude_code`;
so for every line the SDK accepts, ``to_messages([sdk_message])`` equals
``claude_code.decode(line)`` on every field the SDK kept (docs/interop.md lists what the SDK
drops before we see it). ``SystemMessage`` and its task, hook and mirror-error subclasses
keep the whole line in ``data``, so they come through exactly.

:func:`from_messages` goes the other way: each message is encoded as a Claude Code line
(:func:`messages.adapters.claude_code.encoder`) and built into the SDK's public types the
way its parser would. What the SDK cannot hold (an image in a prompt, redacted thinking, a
line type it skips) follows ``unsupported``: for a block, ``"text"`` puts a text block
describing it in its place; a whole record the SDK skips is dropped under ``"text"`` too
(the SDK's stream has no text form for it).

Only public names of ``claude_agent_sdk`` are used, imported when a function here runs.
Tested against ``claude-agent-sdk`` 0.2.187.

>>> from claude_agent_sdk import AssistantMessage, TextBlock
>>> sdk = AssistantMessage(content=[TextBlock(text="4")], model="claude-sonnet-4-5")
>>> [m] = to_messages([sdk])
>>> m.text, m.model
('4', 'claude-sonnet-4-5')
>>> from_messages([m]) == [sdk]
True
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any
from typing import Final

from .._core.frozen import raw
from .._core.frozen import thaw
from ..blocks import Block
from ..blocks import TextBlock
from ..errors import DecodeError
from ..errors import EncodeError
from ..message import MESSAGE_TYPES
from ..message import Message
from ._common import Policy
from ._common import Unsupported
from ._common import attr
from ._common import check_policy
from ._common import frozen
from ._common import items
from ._common import opt_attr
from ._common import wrong

if TYPE_CHECKING:
    from claude_agent_sdk import Message as SdkMessage

__all__ = ["NAME", "VERSIONS", "from_messages", "to_line", "to_messages"]

NAME: Final = "claude_agent_sdk"
"""The name used in errors."""

VERSIONS: Final = "claude-agent-sdk 0.2.187"
"""The versions of ``claude-agent-sdk`` this bridge was tested against."""

_USER_BLOCKS: Final = frozenset(("text", "tool_use", "tool_result"))
"""Content block types the SDK keeps in a user message (its parser skips the others)."""
_ASSISTANT_BLOCKS: Final = frozenset(
    ("text", "thinking", "tool_use", "tool_result", "server_tool_use", "advisor_tool_result")
)
"""Content block types the SDK keeps in an assistant message."""
_RESULT_FIELDS: Final = (
    ("stop_reason", "stop_reason"),
    ("total_cost_usd", "total_cost_usd"),
    ("usage", "usage"),
    ("result", "result"),
    ("structured_output", "structured_output"),
    ("model_usage", "modelUsage"),
    ("permission_denials", "permission_denials"),
    ("errors", "errors"),
    ("api_error_status", "api_error_status"),
    ("uuid", "uuid"),
    ("terminal_reason", "terminal_reason"),
    ("origin", "origin"),
    ("user_message_uuid", "user_message_uuid"),
    ("user_message_uuids", "user_message_uuids"),
)
"""Optional ``ResultMessage`` attributes and their line keys, written when not ``None``."""
_RATE_LIMIT_FIELDS: Final = (
    ("status", "status"),
    ("resets_at", "resetsAt"),
    ("rate_limit_type", "rateLimitType"),
    ("utilization", "utilization"),
    ("overage_status", "overageStatus"),
    ("overage_resets_at", "overageResetsAt"),
    ("overage_disabled_reason", "overageDisabledReason"),
)
"""``RateLimitInfo`` attributes and their keys in a line's ``rate_limit_info``."""


def _sdk() -> Any:
    import claude_agent_sdk  # lazy: the optional dependency is loaded on first use

    return claude_agent_sdk


def _put(line: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        line[key] = value


# ------------------------------------------------------------------------------ to ours


def _block_line(block: Any, path: str) -> dict[str, Any]:
    """One SDK content block as its Claude Code line block."""
    sdk = _sdk()
    if isinstance(block, sdk.TextBlock):
        return {"type": "text", "text": attr(block, "text", path, NAME, str)}
    if isinstance(block, sdk.ThinkingBlock):
        return {
            "type": "thinking",
            "thinking": attr(block, "thinking", path, NAME, str),
            "signature": attr(block, "signature", path, NAME, str),
        }
    if isinstance(block, sdk.ToolUseBlock | sdk.ServerToolUseBlock):
        tag = "tool_use" if isinstance(block, sdk.ToolUseBlock) else "server_tool_use"
        return {
            "type": tag,
            "id": attr(block, "id", path, NAME, str),
            "name": attr(block, "name", path, NAME, str),
            "input": attr(block, "input", path, NAME),
        }
    if isinstance(block, sdk.ToolResultBlock):
        out: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": attr(block, "tool_use_id", path, NAME, str),
        }
        _put(out, "content", attr(block, "content", path, NAME))
        _put(out, "is_error", attr(block, "is_error", path, NAME))
        return out
    if isinstance(block, sdk.ServerToolResultBlock):
        return {
            "type": "advisor_tool_result",
            "tool_use_id": attr(block, "tool_use_id", path, NAME, str),
            "content": attr(block, "content", path, NAME),
        }
    raise wrong("a claude_agent_sdk content block", block, path, NAME)


def _content_line(obj: Any, path: str, *, text_ok: bool) -> Any:
    content = attr(obj, "content", path, NAME)
    if text_ok and isinstance(content, str):
        return content
    blocks = items(content, f"{path}.content", NAME)
    return [_block_line(b, f"{path}.content[{k}]") for k, b in enumerate(blocks)]


def to_line(obj: Any, *, path: str = "$") -> dict[str, Any]:
    """The Claude Code line an SDK message came from, as far as the SDK kept it.

    A ``SystemMessage`` (and its subclasses) gives back its ``data`` as it is. Anything
    that is not one of the SDK's messages, or has a field of the wrong type, raises
    :class:`~messages.DecodeError` at ``path``.
    """
    sdk = _sdk()
    line: dict[str, Any]
    if isinstance(obj, sdk.SystemMessage):
        data = attr(obj, "data", path, NAME, dict)
        return dict(data)
    if isinstance(obj, sdk.UserMessage):
        line = {
            "type": "user",
            "message": {"role": "user", "content": _content_line(obj, path, text_ok=True)},
            "parent_tool_use_id": opt_attr(obj, "parent_tool_use_id", path, NAME, str),
        }
        _put(line, "uuid", opt_attr(obj, "uuid", path, NAME, str))
        _put(line, "tool_use_result", attr(obj, "tool_use_result", path, NAME))
        _put(line, "origin", attr(obj, "origin", path, NAME))
        return line
    if isinstance(obj, sdk.AssistantMessage):
        message: dict[str, Any] = {"model": attr(obj, "model", path, NAME, str)}
        _put(message, "id", opt_attr(obj, "message_id", path, NAME, str))
        message["role"] = "assistant"
        message["content"] = _content_line(obj, path, text_ok=False)
        _put(message, "stop_reason", attr(obj, "stop_reason", path, NAME))
        _put(message, "usage", attr(obj, "usage", path, NAME))
        line = {
            "type": "assistant",
            "message": message,
            "parent_tool_use_id": opt_attr(obj, "parent_tool_use_id", path, NAME, str),
        }
        _put(line, "session_id", opt_attr(obj, "session_id", path, NAME, str))
        _put(line, "uuid", opt_attr(obj, "uuid", path, NAME, str))
        _put(line, "error", attr(obj, "error", path, NAME))
        _put(line, "user_message_uuid", opt_attr(obj, "user_message_uuid", path, NAME, str))
        _put(line, "user_message_uuids", attr(obj, "user_message_uuids", path, NAME))
        return line
    if isinstance(obj, sdk.ResultMessage):
        line = {"type": "result", "subtype": attr(obj, "subtype", path, NAME, str)}
        for key in ("duration_ms", "duration_api_ms", "is_error", "num_turns", "session_id"):
            line[key] = attr(obj, key, path, NAME)
        for name, key in _RESULT_FIELDS:
            _put(line, key, attr(obj, name, path, NAME))
        deferred = opt_attr(obj, "deferred_tool_use", path, NAME, sdk.DeferredToolUse)
        if deferred is not None:
            where = f"{path}.deferred_tool_use"
            line["deferred_tool_use"] = {
                "id": attr(deferred, "id", where, NAME, str),
                "name": attr(deferred, "name", where, NAME, str),
                "input": attr(deferred, "input", where, NAME),
            }
        return line
    if isinstance(obj, sdk.StreamEvent):
        line = {
            "type": "stream_event",
            "event": attr(obj, "event", path, NAME),
            "session_id": attr(obj, "session_id", path, NAME, str),
            "parent_tool_use_id": opt_attr(obj, "parent_tool_use_id", path, NAME, str),
            "uuid": attr(obj, "uuid", path, NAME, str),
        }
        _put(line, "user_message_uuid", opt_attr(obj, "user_message_uuid", path, NAME, str))
        _put(line, "user_message_uuids", attr(obj, "user_message_uuids", path, NAME))
        return line
    if isinstance(obj, sdk.RateLimitEvent):
        info = attr(obj, "rate_limit_info", path, NAME, sdk.RateLimitInfo)
        return {
            "type": "rate_limit_event",
            "rate_limit_info": dict(attr(info, "raw", f"{path}.rate_limit_info", NAME, dict)),
            "uuid": attr(obj, "uuid", path, NAME, str),
            "session_id": attr(obj, "session_id", path, NAME, str),
        }
    if isinstance(obj, sdk.ConversationResetMessage):
        return {
            "type": "conversation_reset",
            "new_conversation_id": attr(obj, "new_conversation_id", path, NAME, str),
            "uuid": attr(obj, "uuid", path, NAME, str),
            "session_id": attr(obj, "session_id", path, NAME, str),
        }
    raise wrong("a claude_agent_sdk message", obj, path, NAME)


def to_messages(objects: Iterable[Any]) -> list[Message]:
    """SDK messages (what ``query()`` yields) as messages of this library, in order.

    Each is written back as its Claude Code line (:func:`to_line`) and decoded with
    :func:`messages.adapters.claude_code.decoder`: user and assistant turns, results,
    ``init``, stream events, task and hook events, compaction boundaries, status changes,
    other system events, rate limits and conversation resets get their own classes (see
    docs/model.md for the mapping).
    """
    from ..adapters import claude_code

    out: list[Message] = []
    for i, obj in enumerate(objects):
        path = f"$[{i}]"
        # a checked deep copy: decode owns what it is given, and the SDK object is mutable
        line = thaw(frozen(to_line(obj, path=path), path, NAME))
        try:
            out.append(claude_code.decode(line))
        except DecodeError as exc:  # a value the SDK let through that is not valid JSON
            raise exc.within(f"[{i}]") from None
    return out


# ---------------------------------------------------------------------------- to theirs


def _sdk_block(data: dict[str, Any]) -> Any:
    sdk = _sdk()
    tag = data["type"]
    if tag == "text":
        return sdk.TextBlock(text=data["text"])
    if tag == "thinking":
        return sdk.ThinkingBlock(thinking=data["thinking"], signature=data.get("signature") or "")
    if tag == "tool_use":
        return sdk.ToolUseBlock(id=data["id"], name=data["name"], input=data["input"])
    if tag == "server_tool_use":
        return sdk.ServerToolUseBlock(id=data["id"], name=data["name"], input=data["input"])
    if tag == "tool_result":
        return sdk.ToolResultBlock(
            tool_use_id=data["tool_use_id"],
            content=data.get("content"),
            is_error=data.get("is_error"),
        )
    return sdk.ServerToolResultBlock(tool_use_id=data["tool_use_id"], content=data["content"])


def _kept(data: Any, keep: frozenset[str]) -> bool:
    """Whether the SDK keeps a line block: a known type with the fields its parser needs."""
    if not isinstance(data, dict) or data.get("type") not in keep:
        return False
    need = {
        "text": ("text",),
        "thinking": ("thinking",),
        "tool_use": ("id", "name", "input"),
        "server_tool_use": ("id", "name", "input"),
        "tool_result": ("tool_use_id",),
        "advisor_tool_result": ("tool_use_id", "content"),
    }[data["type"]]
    return all(key in data for key in need)


def _content(
    line: dict[str, Any], decoded: Message, policy: Policy, path: str, keep: frozenset[str]
) -> Any:
    content = line["message"].get("content")
    if isinstance(content, str):
        return content
    blocks: tuple[Block, ...] = getattr(decoded, "blocks", ())
    out: list[Any] = []
    for k, data in enumerate(content if isinstance(content, list) else []):
        if _kept(data, keep):
            out.append(_sdk_block(data))
            continue
        ours = blocks[k] if k < len(blocks) else TextBlock("")
        text = policy.degrade(ours, f"{path}.content[{k}]", "claude-agent-sdk keeps no such block")
        if text is not None:
            out.append(_sdk().TextBlock(text=text.text))
    return out


def _sdk_message(line: dict[str, Any], decoded: Message, policy: Policy, path: str) -> Any:
    """The SDK object for a Claude Code line, built as the SDK's parser builds it."""
    sdk = _sdk()
    tag = line.get("type")
    if tag == "user":
        return sdk.UserMessage(
            content=_content(line, decoded, policy, path, _USER_BLOCKS),
            uuid=line.get("uuid"),
            parent_tool_use_id=line.get("parent_tool_use_id"),
            tool_use_result=line.get("tool_use_result"),
            origin=line.get("origin"),
        )
    if tag == "assistant":
        message = line["message"]
        return sdk.AssistantMessage(
            content=_content(line, decoded, policy, path, _ASSISTANT_BLOCKS),
            model=message.get("model") or "",
            parent_tool_use_id=line.get("parent_tool_use_id"),
            error=line.get("error"),
            usage=message.get("usage"),
            message_id=message.get("id"),
            stop_reason=message.get("stop_reason"),
            session_id=line.get("session_id"),
            uuid=line.get("uuid"),
            user_message_uuid=line.get("user_message_uuid"),
            user_message_uuids=line.get("user_message_uuids"),
        )
    if tag == "system" and isinstance(line.get("subtype"), str):
        return _system(line)
    if tag == "result":
        deferred = line.get("deferred_tool_use")
        return sdk.ResultMessage(
            subtype=line.get("subtype") or "",
            duration_ms=line.get("duration_ms") or 0,
            duration_api_ms=line.get("duration_api_ms") or 0,
            is_error=bool(line.get("is_error")),
            num_turns=line.get("num_turns") or 0,
            session_id=line.get("session_id") or "",
            **{name: line.get(key) for name, key in _RESULT_FIELDS},
            deferred_tool_use=sdk.DeferredToolUse(
                id=deferred["id"], name=deferred["name"], input=deferred["input"]
            )
            if isinstance(deferred, dict)
            else None,
        )
    if tag == "stream_event":
        return sdk.StreamEvent(
            uuid=line.get("uuid") or "",
            session_id=line.get("session_id") or "",
            event=line["event"],
            parent_tool_use_id=line.get("parent_tool_use_id"),
            user_message_uuid=line.get("user_message_uuid"),
            user_message_uuids=line.get("user_message_uuids"),
        )
    if tag == "rate_limit_event" and isinstance(line.get("rate_limit_info"), dict):
        info = line["rate_limit_info"]
        return sdk.RateLimitEvent(
            rate_limit_info=sdk.RateLimitInfo(
                **{name: info.get(key) for name, key in _RATE_LIMIT_FIELDS}, raw=info
            ),
            uuid=line.get("uuid") or "",
            session_id=line.get("session_id") or "",
        )
    if tag == "conversation_reset":
        return sdk.ConversationResetMessage(
            new_conversation_id=line.get("new_conversation_id") or "",
            uuid=line.get("uuid") or "",
            session_id=line.get("session_id") or "",
        )
    return None


# The SDK's task messages, by subtype: its class, and each field it reads beyond the ones
# all of them share. A field the SDK requires is filled with its zero value (``str()``,
# ``dict()``) when the line lacks it or holds null, as the SDK's own parser does; an
# optional one (``None`` here) is passed as the line has it.
_TASKS: Final[dict[str, tuple[str, dict[str, Callable[[], Any] | None]]]] = {
    "task_started": (
        "TaskStartedMessage",
        {"description": str, "uuid": str, "tool_use_id": None, "task_type": None},
    ),
    "task_progress": (
        "TaskProgressMessage",
        {
            "description": str,
            "usage": dict,
            "uuid": str,
            "tool_use_id": None,
            "last_tool_name": None,
        },
    ),
    "task_notification": (
        "TaskNotificationMessage",
        {
            "status": str,
            "output_file": str,
            "summary": str,
            "uuid": str,
            "tool_use_id": None,
            "usage": None,
        },
    ),
}


def _system(line: dict[str, Any]) -> Any:
    """A ``system`` line as the SDK's class for its subtype (all keep the line in ``data``)."""
    sdk = _sdk()
    subtype = line["subtype"]
    get = line.get
    if subtype in ("hook_started", "hook_response"):
        name = get("hook_event") or get("hook_name") or get("hook_event_name") or ""
        return sdk.HookEventMessage(
            subtype=subtype,
            data=line,
            hook_event_name=name,
            session_id=get("session_id"),
            uuid=get("uuid"),
        )
    common = {
        "subtype": subtype,
        "data": line,
        "task_id": get("task_id") or "",
        "session_id": get("session_id") or "",
    }
    task = _TASKS.get(subtype)
    if task is not None:
        cls, fields = task
        given = {k: get(k) if zero is None else get(k) or zero() for k, zero in fields.items()}
        return getattr(sdk, cls)(**common, **given)
    if subtype == "task_updated":
        patch = get("patch")
        patch = patch if isinstance(patch, dict) else {}
        return sdk.TaskUpdatedMessage(
            subtype=subtype,
            data=line,
            task_id=get("task_id", ""),
            patch=patch,
            status=patch.get("status"),
            session_id=get("session_id"),
            uuid=get("uuid"),
        )
    if subtype == "mirror_error":
        return sdk.MirrorErrorMessage(
            subtype=subtype, data=line, key=get("key"), error=get("error", "")
        )
    return sdk.SystemMessage(subtype=subtype, data=line)


def from_messages(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> list[SdkMessage]:
    """Messages as the SDK's message objects, as its parser would have built them.

    Each message becomes its Claude Code line first (so messages from any source work, the
    way :func:`messages.adapters.claude_code.encoder` writes them); blocks the SDK does not
    keep, and records it skips (rate limits, control requests, transcript-only lines),
    follow ``unsupported``. A required SDK field the message lacks (a result's
    ``duration_ms``, an assistant's ``model``) is filled with the SDK's zero value.
    """
    from ..adapters import claude_code

    policy = check_policy(unsupported, NAME)
    out: list[Any] = []
    for i, message in enumerate(messages):
        path = f"$[{i}]"
        if not isinstance(message, MESSAGE_TYPES):
            raise wrong("a message", message, path, NAME, EncodeError)
        try:
            line = claude_code.encode(message, unsupported=unsupported)
        except EncodeError as exc:
            raise exc.within(f"[{i}]") from None
        if line is None:
            continue
        decoded = (
            claude_code.decode(raw(line)) if line.get("type") in ("user", "assistant") else message
        )
        built = _sdk_message(line, decoded, policy, path)
        if built is None:  # a record the SDK skips has no text form in its stream
            policy.refuse(f"claude-agent-sdk skips {line.get('type')!r} records", path, line)
            continue
        out.append(built)
    return out
