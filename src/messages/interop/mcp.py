"""Bridge to the ``mcp`` package (Model Context Protocol): tool results and sampling messages.

A tool result from an MCP server (``CallToolResult``) becomes a :class:`ToolResultBlock`
with typed content and comes back out exactly:

- ``TextContent`` -> :class:`TextBlock`, ``ImageContent`` -> :class:`ImageBlock`,
  ``AudioContent`` -> :class:`AudioBlock` (base64 ``data`` and ``mimeType`` kept as sent);
- ``EmbeddedResource`` and ``ResourceLink`` -> :class:`RawBlock` holding their JSON
  (``type`` ``"resource"``/``"resource_link"``): this library has no resource block;
- ``isError`` -> ``is_error``; ``structuredContent``, ``_meta`` and any other field set to
  something other than its default -> ``extra`` under their wire names (``annotations`` and
  ``_meta`` of a content item go to that block's ``extra``).

:func:`to_messages` reads MCP's conversation objects (``SamplingMessage``,
``PromptMessage``, ``CreateMessageResult``, ``CreateMessageResultWithTools``);
:func:`from_messages` writes ``SamplingMessage`` values. What MCP cannot carry follows the
policy (``unsupported="raise"|"drop"|"text"``). ``mcp`` is imported only when a function
here runs. Tested against ``mcp`` 2.3.0 (``mcp.types``, the same objects as ``mcp_types``).

>>> import mcp.types as types
>>> result = types.CallToolResult(
...     content=[types.TextContent(text="42")], structured_content={"answer": 42}
... )
>>> block = to_block(result, "call_1")
>>> block.content, block.extra["structuredContent"]["answer"]
((TextBlock(text='42'),), 42)
>>> from_block(block) == result
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import Literal

from .._core.frozen import FrozenDict
from .._core.frozen import thaw
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..errors import DecodeError
from ..message import Message
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ._common import Policy
from ._common import Unsupported
from ._common import attr
from ._common import check_policy
from ._common import frozen
from ._common import frozen_object
from ._common import items
from ._common import reraise
from ._common import turns
from ._common import wrong

if TYPE_CHECKING:
    from mcp.types import CallToolResult
    from mcp.types import SamplingMessage

__all__ = ["NAME", "VERSIONS", "from_block", "from_messages", "to_block", "to_messages"]

NAME: Final = "mcp"
"""The name used in errors."""

VERSIONS: Final = "mcp 2.3.0"
"""The versions of ``mcp`` this bridge was tested against."""

_RESOURCE_KINDS: Final = ("resource", "resource_link")


def _types() -> Any:
    import mcp.types  # lazy: the optional dependency is loaded on first use

    return mcp.types


def _dump(obj: Any, path: str) -> dict[str, Any]:
    """An MCP model as its wire JSON, leaving out every field still at its default."""
    try:
        out: dict[str, Any] = obj.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    except Exception as exc:  # a model_construct()ed object missing a field, say
        raise reraise(exc, path, NAME) from None
    return out


def _keys(cls: Any) -> frozenset[str]:
    """The wire names of a model's fields (its aliases), plus ``type``."""
    fields = cls.model_fields
    return frozenset({"type", *(f.alias or name for name, f in fields.items())})


def _validate(cls: Any, data: dict[str, Any], path: str) -> Any:
    try:
        return cls.model_validate(data)
    except Exception as exc:  # pydantic.ValidationError: the value does not fit MCP's model
        raise reraise(exc, path, NAME, encoding=True) from None


def _build(cls: Any, base: dict[str, Any], extra: dict[str, Any], policy: Policy, path: str) -> Any:
    """An MCP model from our fields and the ``extra`` fields it has.

    ``extra`` values MCP rejects (an ``annotations`` that is not an object, say) go to the
    policy, and the model is built without them.
    """
    if extra:
        try:
            return cls.model_validate({**extra, **base})
        except Exception as exc:  # pydantic.ValidationError on a value from extra
            reason = f"MCP rejects these extra fields: {str(exc).splitlines()[0]}"
            policy.refuse(reason, f"{path}.extra", extra)
    return _validate(cls, base, path)


# ------------------------------------------------------------------------------ to ours


def _content_block(item: Any, path: str) -> Block:
    """One MCP content item (of a tool result or a message) as a block."""
    t = _types()
    if isinstance(item, t.TextContent | t.ImageContent | t.AudioContent):
        data = _dump(item, path)
        data.pop("type", None)
        if isinstance(item, t.TextContent):
            data.pop("text", None)
            return TextBlock(
                attr(item, "text", path, NAME, str), extra=frozen_object(data, path, NAME)
            )
        body = attr(item, "data", path, NAME, str)
        media = attr(item, "mime_type", path, NAME, str)
        data.pop("data", None)
        data.pop("mimeType", None)
        extra = frozen_object(data, path, NAME)
        if isinstance(item, t.ImageContent):
            return ImageBlock(data=body, media_type=media, extra=extra)
        return AudioBlock(data=body, media_type=media, extra=extra)
    if isinstance(item, t.EmbeddedResource | t.ResourceLink):
        data = _dump(item, path)
        data["type"] = attr(item, "type", path, NAME, str)
        return RawBlock(frozen(data, path, NAME))
    if isinstance(item, t.ToolUseContent):
        data = _dump(item, path)
        for key in ("type", "id", "name", "input"):
            data.pop(key, None)
        arguments = attr(item, "input", path, NAME, dict)
        return ToolUseBlock(
            attr(item, "id", path, NAME, str),
            attr(item, "name", path, NAME, str),
            frozen(arguments, f"{path}.input", NAME),  # type: ignore[arg-type]
            extra=frozen_object(data, path, NAME),
        )
    if isinstance(item, t.ToolResultContent):
        return _result(item, attr(item, "tool_use_id", path, NAME, str), None, path)
    raise wrong("an MCP content block", item, path, NAME)


def _result(obj: Any, tool_use_id: str, name: str | None, path: str) -> ToolResultBlock:
    content = items(attr(obj, "content", path, NAME), f"{path}.content", NAME)
    blocks = tuple(_content_block(c, f"{path}.content[{i}]") for i, c in enumerate(content))
    data = _dump(obj, path)
    for key in ("type", "toolUseId", "content", "isError"):
        data.pop(key, None)
    is_error = attr(obj, "is_error", path, NAME, bool, type(None))
    return ToolResultBlock(
        tool_use_id, blocks, is_error=is_error, name=name, extra=frozen_object(data, path, NAME)
    )


def to_block(
    result: CallToolResult, tool_use_id: str = "", *, name: str | None = None
) -> ToolResultBlock:
    """An MCP ``CallToolResult`` as the :class:`ToolResultBlock` answering ``tool_use_id``.

    ``name`` is the tool's name, when the caller wants it recorded. A value that is not a
    ``CallToolResult`` (or one with a field of the wrong type) raises DecodeError.
    """
    t = _types()
    if not isinstance(result, t.CallToolResult):
        raise wrong("a CallToolResult", result, "$", NAME)
    return _result(result, tool_use_id, name, "$")


def to_messages(objects: Iterable[Any]) -> list[Message]:
    """MCP messages (sampling, prompt, or a sampling result) as messages of this library.

    ``SamplingMessage``/``PromptMessage`` become a user or assistant message with their
    content as blocks; ``CreateMessageResult`` (with or without tools) also sets ``model``
    and ``stop_reason``. Fields left (``_meta``...) go to the message's ``extra``.
    """
    t = _types()
    out: list[Message] = []
    for i, obj in enumerate(objects):
        path = f"$[{i}]"
        kinds = (
            t.SamplingMessage,
            t.PromptMessage,
            t.CreateMessageResult,
            t.CreateMessageResultWithTools,
        )
        if not isinstance(obj, kinds):
            what = "a SamplingMessage, PromptMessage or CreateMessageResult"
            raise wrong(what, obj, path, NAME)
        role = attr(obj, "role", path, NAME, str)
        content = attr(obj, "content", path, NAME)
        listed = isinstance(content, list)
        pieces = content if listed else [content]
        blocks = tuple(
            _content_block(c, f"{path}.content[{k}]" if listed else f"{path}.content")
            for k, c in enumerate(pieces)
        )
        data = _dump(obj, path)
        for key in ("role", "content", "model", "stopReason"):
            data.pop(key, None)
        extra = frozen_object(data, path, NAME)
        assert isinstance(extra, FrozenDict)
        model = getattr(obj, "model", None)
        stop = getattr(obj, "stop_reason", None)
        if role == "assistant":
            out.append(
                AssistantMessage(
                    blocks,
                    model=model if isinstance(model, str) else None,
                    stop_reason=stop if isinstance(stop, str) else None,
                    extra=extra,
                )
            )
        elif role == "user":
            if isinstance(stop, str):
                extra = FrozenDict({**extra, "stopReason": stop})
            out.append(
                UserMessage(blocks, model=model if isinstance(model, str) else None, extra=extra)
            )
        else:
            raise DecodeError(
                f"expected role 'user' or 'assistant', found {role!r}",
                path=f"{path}.role",
                source=NAME,
                value=role,
            )
    return out


# ---------------------------------------------------------------------------- to theirs


def _checked_extra(
    cls: Any, extra: Any, policy: Policy, path: str, skip: Iterable[str] = ()
) -> dict[str, Any]:
    """The ``extra`` fields that ``cls`` has, as plain values; the rest go to the policy."""
    allowed = _keys(cls) - set(skip)
    out: dict[str, Any] = {}
    for key, value in extra.items():
        if key in allowed:
            out[key] = thaw(value)
        else:
            policy.refuse(f"MCP cannot carry the field {key!r} here", f"{path}.extra.{key}", value)
    return out


def _item(block: Block, policy: Policy, path: str, *, sampling: bool) -> Any:
    """One block as an MCP content item, or ``None`` when the policy drops it."""
    t = _types()
    match block:
        case TextBlock():
            if block.citations is not None:
                policy.refuse("MCP cannot carry citations", f"{path}.citations", block.citations)
            data = _checked_extra(t.TextContent, block.extra, policy, path, ("text",))
            return _build(t.TextContent, {"type": "text", "text": block.text}, data, policy, path)
        case ImageBlock() | AudioBlock():
            cls = t.ImageContent if isinstance(block, ImageBlock) else t.AudioContent
            media = block.media_type
            if media is None and block.data is not None:
                media = block.resolved_media_type
            if block.data is None or media is None:
                return _degrade(block, policy, path, "MCP media needs base64 data and a MIME type")
            data = _checked_extra(cls, block.extra, policy, path, ("data", "mimeType"))
            base = {"type": block.kind, "data": block.data, "mimeType": media}
            return _build(cls, base, data, policy, path)
        case RawBlock():
            kind = block.type
            if not sampling and kind in _RESOURCE_KINDS:
                cls = t.EmbeddedResource if kind == "resource" else t.ResourceLink
                data = thaw(block.data)
                if not set(data) - _keys(cls):
                    try:
                        return cls.model_validate(data)
                    except Exception:  # not a valid resource: the policy decides below
                        pass
            return _degrade(block, policy, path, f"MCP cannot carry a {kind or 'raw'} block here")
        case ToolUseBlock():
            if not sampling:
                return _degrade(block, policy, path, "MCP cannot carry a tool call here")
            if block.arguments is not None:
                policy.refuse(
                    "MCP cannot carry the raw argument string", f"{path}.arguments", block.arguments
                )
            data = _checked_extra(t.ToolUseContent, block.extra, policy, path, ("id", "name"))
            base = {"type": "tool_use", "id": block.id, "name": block.name}
            base["input"] = thaw(block.input)
            return _build(t.ToolUseContent, base, data, policy, path)
        case ToolResultBlock():
            if not sampling:
                return _degrade(block, policy, path, "MCP cannot carry a tool result here")
            data, content = _result_fields(t.ToolResultContent, block, policy, path)
            fields: dict[str, Any] = {"type": "tool_result", "toolUseId": block.tool_use_id}
            fields["content"] = content
            if block.is_error is not None:
                fields["isError"] = block.is_error
            return _build(t.ToolResultContent, fields, data, policy, path)
        case ThinkingBlock():
            return _degrade(block, policy, path, "MCP cannot carry thinking")
    return _degrade(block, policy, path, "MCP cannot carry this block")


def _degrade(block: Block, policy: Policy, path: str, reason: str) -> Any:
    text = policy.degrade(block, path, reason)
    if text is None:
        return None
    return _types().TextContent(text=text.text)


def _result_fields(
    cls: Any, block: ToolResultBlock, policy: Policy, path: str
) -> tuple[dict[str, Any], list[Any]]:
    """A result's ``extra`` fields that ``cls`` has, and its content as MCP items."""
    skip = ("content", "isError", "toolUseId")
    data = _checked_extra(cls, block.extra, policy, path, skip)
    if block.name is not None:
        policy.refuse("MCP cannot carry the tool name in a result", f"{path}.name", block.name)
    content: list[Any] = []
    if isinstance(block.content, str):
        if block.content:
            content.append(_types().TextContent(text=block.content))
    else:
        content = policy.each(block.content, partial(_item, sampling=False), f"{path}.content")
    return data, content


def from_block(block: ToolResultBlock, *, unsupported: Unsupported = "raise") -> CallToolResult:
    """A :class:`ToolResultBlock` as an MCP ``CallToolResult``; inverse of :func:`to_block`.

    String content becomes one ``TextContent`` (none when empty); ``is_error=None`` is
    written as ``False`` (MCP's default). Content MCP cannot carry (thinking, tool calls,
    media without base64 data, other raw blocks) and ``extra`` fields ``CallToolResult``
    does not have follow ``unsupported``.
    """
    policy = check_policy(unsupported, NAME)
    if not isinstance(block, ToolResultBlock):
        raise policy.error(
            f"expected a ToolResultBlock, found {type(block).__name__}", "$", block
        ) from None
    t = _types()
    data, content = _result_fields(t.CallToolResult, block, policy, "$")
    base = {"content": content, "isError": bool(block.is_error)}
    result: CallToolResult = _build(t.CallToolResult, base, data, policy, "$")
    return result


def from_messages(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> list[SamplingMessage]:
    """Messages as MCP ``SamplingMessage`` values (content always a list).

    A system prompt has no place in a sampling message (it is a request parameter): it
    follows ``unsupported`` (``"text"`` makes it a user message of its text). Tool results
    become ``ToolResultContent`` in a user message; session messages are left out.
    """
    policy = check_policy(unsupported, NAME)
    t = _types()
    out: list[SamplingMessage] = []
    for path, turn in turns(messages, NAME):
        role: Literal["user", "assistant"] = "assistant" if turn.kind == "assistant" else "user"
        if isinstance(turn, SystemMessage):
            text = policy.degrade(TextBlock(turn.text), path, "MCP sampling has no system message")
            if text is not None:
                out.append(t.SamplingMessage(role="user", content=[t.TextContent(text=text.text)]))
            continue
        assert isinstance(turn, UserMessage | AssistantMessage | ToolMessage)
        content = policy.each(turn.blocks, partial(_item, sampling=True), f"{path}.content")
        data = _checked_extra(t.SamplingMessage, turn.extra, policy, path, ("role", "content"))
        base = {"role": role, "content": content}
        out.append(_build(t.SamplingMessage, base, data, policy, path))
    return out
