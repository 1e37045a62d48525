"""Turn message-likes into messages at a boundary: strings, pairs, OpenAI, Anthropic, native.

See :func:`coerce` for the accepted shapes and ``docs/history.md`` for examples.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import Literal
from typing import TypeAlias

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.jsontext import parse_arguments
from .._core.make import copy_json
from .._core.make import wrap_owned
from .._core.wire import decode_each
from .._core.wire import fail
from .._core.wire import type_name
from .._shapes import anthropic_blocks
from .._shapes.openai_files import file_document
from ..blocks import BLOCK_TYPES
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import ImageBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..errors import DecodeError
from ..media import parse_data_uri
from ..message import MESSAGE_TYPES
from ..message import Message
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage

__all__ = ["MessageLike", "ROLE_ALIASES", "coerce", "coerce_message"]

MessageLike: TypeAlias = Message | str | tuple[str, Any] | list[Any] | Mapping[str, Any]
"""What :func:`coerce` accepts for one message."""

_Role = Literal["system", "developer", "user", "assistant", "tool"]

ROLE_ALIASES: Final[Mapping[str, _Role]] = {
    "ai": "assistant",
    "assistant": "assistant",
    "developer": "developer",
    "function": "tool",
    "human": "user",
    "model": "assistant",
    "system": "system",
    "tool": "tool",
    "user": "user",
}
"""Every role name :func:`coerce` understands, and the role it becomes."""

_ROLE_LIST: Final = ", ".join(sorted(ROLE_ALIASES))

_AUDIO_FORMATS: Final = {"wav": "audio/wav", "mp3": "audio/mpeg", "flac": "audio/flac"}

# Keys of a message dict that coerce reads itself; every other key lands in ``extra``.
_CONSUMED: Final = {
    "assistant": frozenset(
        ("role", "content", "tool_calls", "function_call", "reasoning_content", "id", "model")
    ),
    "tool": frozenset(
        ("role", "content", "tool_call_id", "name", "is_error", "status", "id", "model")
    ),
    "other": frozenset(("role", "content", "id", "model")),
}


def coerce(items: Iterable[MessageLike]) -> tuple[Message, ...]:
    """Messages from a sequence of message-likes, checked at a boundary.

    Each item may be:

    - a message of this library (returned as is);
    - a string: a user message;
    - a ``(role, content)`` pair (tuple or two-element list); content is a string, a block,
      or a sequence of blocks, strings and block dicts;
    - an OpenAI-style dict (``role``, ``content`` as a string or a list of parts,
      ``tool_calls``, ``tool_call_id``, ``function_call``, ``name``); Anthropic-style dicts
      (``role`` and a list of content blocks) go through the same door, block by block;
    - a native dict from :func:`messages.to_dict` (it has a ``kind``);
    - a langchain ``{"type": role, "data": {...}}`` dict.

    Role names: ``human``/``user``; ``ai``/``assistant``/``model``; ``system``; ``developer``
    (kept: a SystemMessage with ``role="developer"``); ``tool``/``function``. Anything else
    raises :class:`~messages.DecodeError` whose path starts at the item (``$[2].role``) and
    whose message says what was expected and what was found.

    >>> coerce(["hi", ("ai", "Hello."), {"role": "developer", "content": "Be brief."}])
    (UserMessage(content='hi'), AssistantMessage(content='Hello.'), SystemMessage(content='Be brief.', role='developer'))
    """  # noqa: E501
    if isinstance(items, (str, bytes, Mapping, *MESSAGE_TYPES)):
        raise DecodeError(
            f"expected a sequence of message-likes, found {type_name(items)}"
            " (wrap a single message in a list, or use coerce_message)",
            value=items,
        )
    try:
        iterator = iter(items)
    except TypeError:
        raise fail("a sequence of message-likes", items) from None
    return tuple(decode_each(iterator, coerce_message))


def coerce_message(item: MessageLike) -> Message:
    """One message from one message-like (see :func:`coerce`); errors have paths from ``$``.

    >>> coerce_message(("user", [{"type": "text", "text": "look"}, {"type": "image_url",
    ...     "image_url": {"url": "https://example.com/cat.png"}}]))
    UserMessage(content=(TextBlock(text='look'), ImageBlock(url='https://example.com/cat.png')))
    """
    if isinstance(item, MESSAGE_TYPES):
        return item
    if isinstance(item, str):
        return UserMessage(item)
    if isinstance(item, (tuple, list)):
        if len(item) != 2:
            raise DecodeError(
                f"expected a (role, content) pair, found a {type(item).__name__}"
                f" of {len(item)} items",
                value=item,
            )
        role = _role(item[0], "$[0]")
        try:
            content = _content(item[1])
        except DecodeError as exc:
            raise exc.within("[1]") from None
        return _build(role, item[0], content, {}, pair=True)
    if isinstance(item, Mapping):
        return _from_dict(item)
    raise DecodeError(
        "expected a message, a string, a (role, content) pair or a message dict,"
        f" found {type_name(item)}",
        value=item,
    )


def _role(value: Any, path: str) -> _Role:
    if not isinstance(value, str):
        raise fail("a role string", value, at=path)
    role = ROLE_ALIASES.get(value)
    if role is None:
        raise DecodeError(
            f"unknown role {value!r}; expected one of {_ROLE_LIST}", path=path, value=value
        )
    return role


def _content(value: Any) -> str | tuple[Block, ...] | None:
    """Content from a pair or a dict: None, a string, a block, or a list of parts."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, BLOCK_TYPES):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(_part(part, f"$[{k}]") for k, part in enumerate(value))
    raise fail("a string, null or an array of content parts", value)


def _part(part: Any, path: str) -> Block:
    """One content part: a block, a string, an OpenAI part or an Anthropic block dict."""
    if isinstance(part, BLOCK_TYPES):
        return part
    if isinstance(part, str):
        return TextBlock(part)
    if not isinstance(part, Mapping):
        raise fail("a content part (a block, a string or an object)", part, at=path)
    owned: dict[str, Any] = copy_json(part, path, 0, 256)
    try:
        return _openai_part(owned) or anthropic_blocks.decode_block(owned)
    except DecodeError as exc:
        raise exc.within(path[1:]) from None


def _openai_part(d: dict[str, Any]) -> Block | None:
    """An OpenAI Chat Completions / Responses content part; None for any other shape."""
    kind = d.get("type")
    if kind in ("input_text", "output_text"):
        text = d.get("text")
        if not isinstance(text, str):
            raise fail("a string", text, at="$.text")
        return TextBlock(text, extra=_rest(d, ("text",)))
    if kind == "image_url":
        inner = d.get("image_url")
        if isinstance(inner, str):
            return ImageBlock(url=inner, extra=_rest(d, ("image_url",)))
        if not isinstance(inner, dict) or not isinstance(inner.get("url"), str):
            found = inner.get("url") if isinstance(inner, dict) else inner
            where = "$.image_url.url" if isinstance(inner, dict) else "$.image_url"
            raise fail("an image URL string", found, at=where)
        extra = _rest(inner, ("url",)) | _rest(d, ("image_url",))
        return ImageBlock(url=inner["url"], extra=extra)
    if kind == "input_image":
        url, file_id = d.get("image_url"), d.get("file_id")
        if isinstance(url, str) or isinstance(file_id, str):
            return ImageBlock(
                url=url if isinstance(url, str) else None,
                file_id=file_id if isinstance(file_id, str) else None,
                extra=_rest(d, ("image_url", "file_id")),
            )
        return None
    if kind == "input_audio":
        inner = d.get("input_audio")
        if not isinstance(inner, dict) or not isinstance(inner.get("data"), str):
            found = inner.get("data") if isinstance(inner, dict) else inner
            where = "$.input_audio.data" if isinstance(inner, dict) else "$.input_audio"
            raise fail("base64 audio data", found, at=where)
        fmt = inner.get("format")
        media_type = None
        if isinstance(fmt, str):
            media_type = _AUDIO_FORMATS.get(fmt, f"audio/{fmt}")
        extra = _rest(inner, ("data", "format")) | _rest(d, ("input_audio",))
        return AudioBlock(data=inner["data"], media_type=media_type, extra=extra)
    if kind in ("file", "input_file"):
        return _openai_file(d, kind)
    return None


_FILE_KEYS: Final = ("file_data", "file_id", "file_url", "filename")


def _openai_file(d: dict[str, Any], kind: str) -> Block | None:
    """A Chat ``file`` part or a Responses ``input_file`` part as a document.

    ``file_data`` is a ``data:`` URL (kept in ``url``) or bare base64 (kept in ``data``);
    a part whose fields are not strings is left to the Anthropic-shaped reader (raw).
    """
    inner = d.get("file") if kind == "file" else d
    if not isinstance(inner, dict):
        return None
    fields = {k: inner[k] for k in _FILE_KEYS if k in inner}
    if not fields or any(not isinstance(v, str) for v in fields.values()):
        return None
    data = fields.get("file_data")
    if data is not None and parse_data_uri(data) is not None and "file_url" in fields:
        return None
    if kind == "file":
        extra = _rest(inner, _FILE_KEYS) | _rest(d, ("file",))
    else:
        extra = _rest(d, _FILE_KEYS)
    return file_document(fields, extra)


def _rest(d: dict[str, Any], known: tuple[str, ...]) -> FrozenDict:
    """The keys of ``d`` other than ``type`` and ``known``."""
    out = {k: v for k, v in d.items() if k != "type" and k not in known}
    return wrap_owned(out) if out else EMPTY


def _frozen(value: dict[str, Any], path: str = "$") -> FrozenDict:
    """Freeze a dict whose keys sit at ``path``, so a bad value's error path is right."""
    return wrap_owned(copy_json(value, path, 0, 256)) if value else EMPTY


def _is_default(value: Any) -> bool:
    """A langchain field at its default (nothing to keep)."""
    if value is None or value is False:
        return True
    return isinstance(value, (dict, list, tuple, str)) and not value


def _from_dict(d: Mapping[str, Any]) -> Message:
    if isinstance(d, FrozenDict):
        d = d.thaw()
    if "kind" in d:
        from ..serialize import from_dict

        value = from_dict(d)
        if not isinstance(value, MESSAGE_TYPES):  # pragma: no cover - "kind" always is one
            raise DecodeError(f"expected a message, found {type(value).__name__}", value=d)
        return value
    if "role" in d:
        return _from_role_dict(_role(d["role"], "$.role"), d["role"], d)
    if isinstance(d.get("type"), str) and isinstance(d.get("data"), Mapping):
        # langchain message_to_dict: {"type": "human", "data": {"content": ..., ...}}
        role = _role(d["type"], "$.type")
        data = {
            k: v
            for k, v in d["data"].items()
            if k == "content" or (k != "type" and not _is_default(v))
        }
        try:
            return _from_role_dict(role, d["type"], data)
        except DecodeError as exc:
            raise exc.within(".data") from None
    keys = ", ".join(repr(k) for k in list(d)[:6]) or "none"
    raise DecodeError(
        f"expected a message dict with a 'role' (or a native 'kind'), found keys: {keys}",
        value=d,
    )


def _from_role_dict(role: _Role, alias: str, d: Mapping[str, Any]) -> Message:
    try:
        content = _content(d.get("content"))
    except DecodeError as exc:
        raise exc.within(".content") from None
    return _build(role, alias, content, d, pair=False)


def _build(
    role: _Role,
    alias: str,
    content: str | tuple[Block, ...] | None,
    d: Mapping[str, Any],
    *,
    pair: bool,
) -> Message:
    """The message for a resolved role; ``d`` is the message dict (empty for pairs)."""
    consumed = _CONSUMED.get(role, _CONSUMED["other"])
    extra = {k: v for k, v in d.items() if k not in consumed}
    context: dict[str, Any] = {}
    for key, field in (("id", "message_id"), ("model", "model")):
        value = d.get(key)
        if isinstance(value, str):
            context[field] = value
        elif value is not None or key in d:
            extra[key] = value
    if role == "assistant":
        return _assistant(content, d, extra, context)
    if role == "tool":
        return _tool(alias, content, d, extra, context, pair=pair)
    text = "" if content is None else content
    if role == "user":
        return UserMessage(text, extra=_frozen(extra), **context)
    return SystemMessage(text, role=role, extra=_frozen(extra), **context)


def _assistant(
    content: str | tuple[Block, ...] | None,
    d: Mapping[str, Any],
    extra: dict[str, Any],
    context: dict[str, Any],
) -> AssistantMessage:
    calls: list[Block] = []
    raw_calls = d.get("tool_calls")
    if raw_calls is not None:
        if not isinstance(raw_calls, (list, tuple)):
            raise fail("an array of tool calls", raw_calls, at="$.tool_calls")
        for k, call in enumerate(raw_calls):
            try:
                calls.append(_tool_call(call))
            except DecodeError as exc:
                raise exc.within(f".tool_calls[{k}]") from None
    elif "tool_calls" in d:
        extra["tool_calls"] = None
    legacy = d.get("function_call")
    if legacy is not None:
        try:
            calls.append(_function_call(legacy))
        except DecodeError as exc:
            raise exc.within(".function_call") from None
    elif "function_call" in d:
        extra["function_call"] = None
    head: list[Block] = []
    reasoning = d.get("reasoning_content")
    if isinstance(reasoning, str):
        head.append(ThinkingBlock(reasoning))
    elif "reasoning_content" in d:
        extra["reasoning_content"] = reasoning
    stop_reason = extra.pop("stop_reason", None)
    if stop_reason is not None and not isinstance(stop_reason, str):
        extra["stop_reason"] = stop_reason
        stop_reason = None
    body: str | tuple[Block, ...]
    if not calls and not head:
        body = () if content is None else content
    elif isinstance(content, str):
        body = (*head, *((TextBlock(content),) if content else ()), *calls)
    else:
        body = (*head, *(content or ()), *calls)
    return AssistantMessage(body, stop_reason=stop_reason, extra=_frozen(extra), **context)


def _tool_call(call: Any) -> ToolUseBlock:
    """An OpenAI ``{"id", "type", "function": {...}}`` or langchain ``{"id", "name", "args"}``."""
    if not isinstance(call, Mapping):
        raise fail("a tool call object", call)
    call_id = call.get("id")
    if not isinstance(call_id, str):
        raise fail("a tool call id string", call_id, "id")
    function = call.get("function")
    if isinstance(function, Mapping):
        name = _name(function.get("name"), "$.function.name")
        extra = {k: v for k, v in call.items() if k not in ("id", "function", "type")}
        if call.get("type", "function") != "function":
            extra["type"] = call.get("type")
        more = {k: v for k, v in function.items() if k not in ("name", "arguments")}
        if more:
            extra["function"] = more
        return _arguments(call_id, name, function.get("arguments"), extra, "$.function.arguments")
    if "name" in call:
        name = _name(call.get("name"), "$.name")
        extra = {k: v for k, v in call.items() if k not in ("id", "name", "args", "type")}
        return _arguments(call_id, name, call.get("args"), extra, "$.args")
    raise DecodeError(
        "expected an OpenAI tool call {'id', 'function': {'name', 'arguments'}}"
        " or a {'id', 'name', 'args'} one, found neither 'function' nor 'name'",
        value=call,
    )


def _name(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise fail("a tool name string", value, at=path)
    return value


def _function_call(call: Any) -> ToolUseBlock:
    """A legacy OpenAI ``function_call``: it has no id, so the function name serves as one."""
    if not isinstance(call, Mapping):
        raise fail("a function call object", call)
    name = _name(call.get("name"), "$.name")
    extra = {k: v for k, v in call.items() if k not in ("name", "arguments")}
    return _arguments(name, name, call.get("arguments"), extra, "$.arguments")


def _arguments(
    call_id: str, name: str, args: Any, extra: dict[str, Any], path: str
) -> ToolUseBlock:
    """A ToolUseBlock from arguments given as a JSON string, an object, or nothing.

    A string is kept exactly in ``arguments``; when it parses to an object that object is
    the ``input``, otherwise the input is empty and ``invalid_arguments`` says so.
    """
    frozen_extra = _frozen(extra)
    if args is None:
        return ToolUseBlock(call_id, name, extra=frozen_extra)
    if isinstance(args, str):
        parsed = parse_arguments(args)
        try:
            value = EMPTY if parsed is None else _frozen(parsed)
        except DecodeError:  # deeper than the limit in force
            value = EMPTY
        return ToolUseBlock(call_id, name, value, arguments=args, extra=frozen_extra)
    if isinstance(args, Mapping):
        return ToolUseBlock(call_id, name, _frozen(dict(args), path), extra=frozen_extra)
    raise fail("arguments as a JSON string or an object", args, at=path)


def _tool(
    alias: str,
    content: str | tuple[Block, ...] | None,
    d: Mapping[str, Any],
    extra: dict[str, Any],
    context: dict[str, Any],
    *,
    pair: bool,
) -> ToolMessage:
    if pair:  # only ready-made tool results can say which call they answer
        if isinstance(content, tuple) and any(isinstance(b, ToolResultBlock) for b in content):
            return ToolMessage(content)
        raise DecodeError(
            f"a {alias!r} pair cannot say which call it answers; pass ToolResultBlocks,"
            " or a dict {'role': 'tool', 'tool_call_id': ..., 'content': ...}"
        )
    name = d.get("name")
    if name is not None:
        name = _name(name, "$.name")
    call_id = d.get("tool_call_id")
    if call_id is None and alias == "function" and name is not None:
        call_id = name  # legacy function results have no call id: the name pairs them
    if not isinstance(call_id, str):
        raise fail("a tool_call_id string", call_id, "tool_call_id")
    is_error = d.get("is_error")
    if not isinstance(is_error, bool):
        if "is_error" in d:
            extra["is_error"] = is_error
        is_error = True if d.get("status") == "error" else None
    if "status" in d and d.get("status") != "error":
        extra["status"] = d.get("status")
    block = ToolResultBlock(
        call_id, "" if content is None else content, is_error=is_error, name=name
    )
    return ToolMessage((block,), extra=_frozen(extra), **context)
