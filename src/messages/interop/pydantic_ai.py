"""Bridge to ``pydantic-ai`` message history (``ModelRequest`` / ``ModelResponse``).

The bridge reads and writes pydantic-ai's own JSON form of its messages, through its
public ``ModelMessagesTypeAdapter``: :func:`to_messages` dumps each message with it, and
:func:`from_messages` builds that form and validates it with it, so everything
:func:`from_messages` returns is what ``ModelMessagesTypeAdapter`` accepts.

A ``ModelRequest`` becomes one message per part: ``SystemPromptPart`` ->
:class:`SystemMessage`, ``UserPromptPart`` -> :class:`UserMessage` (text, image and audio
URLs and binary content as blocks; documents, videos, uploaded files and cache points as
:class:`RawBlock`), ``ToolReturnPart`` -> :class:`ToolMessage` with one
:class:`ToolResultBlock` (``outcome`` ``failed``/``denied``/... -> ``is_error``), any
other part -> a :class:`UserMessage` holding it as a :class:`RawBlock`. Consecutive
messages with the same request context go back into one ``ModelRequest``.

A ``ModelResponse`` becomes one :class:`AssistantMessage`: ``TextPart`` ->
:class:`TextBlock`, ``ThinkingPart`` -> :class:`ThinkingBlock` (pydantic-ai's
``id="redacted_thinking"`` is a redacted one), ``ToolCallPart`` -> :class:`ToolUseBlock`
(string ``args`` kept as ``arguments``), builtin tool calls and returns, files and every
other part -> :class:`RawBlock` holding the part. ``usage``, ``model_name``,
``provider_response_id``, ``conversation_id``, ``timestamp`` and the raw finish reason
(``provider_details["finish_reason"]``, else ``finish_reason``) map to our fields.

Fields that differ from pydantic-ai's defaults and that this library does not model go to
``extra`` under their names (a request's under ``extra["request"]``) and come back. What
pydantic-ai cannot carry follows ``unsupported``. pydantic-ai stamps the time on every
part and response it builds: a message without a ``timestamp`` comes back with the time
:func:`from_messages` ran. Tested against ``pydantic-ai-slim`` 2.68.0.

>>> from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart
>>> history = [
...     ModelRequest(parts=[UserPromptPart("What is 2 + 2?", timestamp=WHEN)], timestamp=WHEN),
...     ModelResponse(parts=[TextPart("4")], model_name="gpt-5", timestamp=WHEN),
... ]
>>> ours = to_messages(history)
>>> ours[1].text, ours[1].model
('4', 'gpt-5')
>>> from_messages(ours) == history
True
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from collections.abc import Mapping
from datetime import UTC
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING
from typing import Any
from typing import Final

from .._core.frozen import FrozenDict
from .._core.frozen import thaw
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..errors import DecodeError
from ..message import Message
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ..usage import Usage
from ._common import Policy
from ._common import Unsupported
from ._common import check_policy
from ._common import frozen
from ._common import frozen_object
from ._common import reraise
from ._common import turns
from ._common import wrong

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

__all__ = ["NAME", "VERSIONS", "WHEN", "from_messages", "to_messages"]

NAME: Final = "pydantic_ai"
"""The name used in errors."""

VERSIONS: Final = "pydantic-ai-slim 2.68.0"
"""The versions of ``pydantic-ai`` this bridge was tested against."""

WHEN: Final = datetime(2026, 1, 1, tzinfo=UTC)
"""A fixed time for examples and tests (pydantic-ai stamps the current time otherwise)."""

_REDACTED: Final = "redacted_thinking"
_DERIVED: Final = ("media_type", "identifier")
"""Keys pydantic-ai computes for a media item when they are not given."""
_FINISH: Final = {
    "end_turn": "stop",
    "stop": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "length": "length",
    "tool_use": "tool_call",
    "tool_calls": "tool_call",
    "tool_call": "tool_call",
    "content_filter": "content_filter",
    "refusal": "content_filter",
    "error": "error",
}
"""Provider finish reasons and pydantic-ai's name for each."""


def _pai() -> Any:
    import pydantic_ai.messages  # lazy: the optional dependency is loaded on first use

    return pydantic_ai.messages


@cache
def _adapter(name: str) -> Any:
    """A TypeAdapter for one of pydantic-ai's public message unions."""
    import pydantic

    if name == "messages":
        return _pai().ModelMessagesTypeAdapter
    return pydantic.TypeAdapter(getattr(_pai(), name))


@cache
def _defaults(kind: str) -> dict[str, Any]:
    """The JSON of a minimal message or part of a kind: the values its defaults dump to."""
    pai = _pai()
    minimal = {
        "request": lambda: pai.ModelRequest(parts=[]),
        "response": lambda: pai.ModelResponse(parts=[]),
        "system-prompt": lambda: pai.SystemPromptPart(""),
        "user-prompt": lambda: pai.UserPromptPart(""),
        "tool-return": lambda: pai.ToolReturnPart("t", ""),
        "text": lambda: pai.TextPart(""),
        "thinking": lambda: pai.ThinkingPart(""),
        "tool-call": lambda: pai.ToolCallPart("t"),
    }[kind]()
    if kind in ("request", "response"):
        dumped: dict[str, Any] = _adapter("messages").dump_python([minimal], mode="json")[0]
    else:
        union = (
            "ModelResponsePart" if kind in ("text", "thinking", "tool-call") else "ModelRequestPart"
        )
        dumped = _adapter(union).dump_python(minimal, mode="json")
    dumped.pop("timestamp", None)
    return dumped


def _rest(data: Mapping[str, Any], kind: str, known: Iterable[str]) -> dict[str, Any]:
    """The keys of ``data`` not in ``known`` whose values differ from the kind's defaults."""
    defaults = _defaults(kind)
    skip = {*known, "part_kind", "kind"}
    return {
        k: v for k, v in data.items() if k not in skip and (k not in defaults or v != defaults[k])
    }


def _fields(kind: str) -> frozenset[str]:
    """The keys pydantic-ai reads for a message or part of a kind."""
    return frozenset(_defaults(kind)) | {"timestamp", "part_kind", "kind"}


def _checked(
    data: dict[str, Any], extra: Mapping[str, Any], kind: str, policy: Policy, path: str
) -> dict[str, Any]:
    """``data`` with the ``extra`` keys a kind of part or message has; others are refused.

    pydantic-ai would silently ignore a key it does not know, so each one is refused here.
    """
    return _item_checked(data, extra, _fields(kind), policy, path)


def _validate(adapter: str, data: Any, path: str) -> Any:
    try:
        return _adapter(adapter).validate_python(data)
    except Exception as exc:  # pydantic.ValidationError: the value does not fit pydantic-ai
        raise reraise(exc, path, NAME, encoding=True) from None


# ------------------------------------------------------------------------------- to ours


def _media_rest(data: dict[str, Any], path: str) -> dict[str, Any]:
    """A media item's JSON without the keys pydantic-ai would derive the same way again."""
    out = dict(data)
    adapter = _adapter("UserContent")
    for key in _DERIVED:
        if key not in out:
            continue
        trial = {k: v for k, v in out.items() if k != key}
        try:
            again = adapter.dump_python(adapter.validate_python(trial), mode="json")
        except Exception:  # nothing to derive it from (a URL of unknown type): keep it
            continue
        if again.get(key) == data[key]:
            del out[key]
    return out


def _user_item(item: Any, path: str) -> Block:
    if isinstance(item, str):
        return TextBlock(item)
    if not isinstance(item, dict):
        raise DecodeError("expected user content", path=path, source=NAME, value=item)
    kind = item.get("kind")
    if kind == "text-content":
        rest = {k: v for k, v in item.items() if k not in ("content", "kind")}
        return TextBlock(item["content"], extra=frozen_object(rest, path, NAME))
    if kind in _URL_KINDS:
        data = _media_rest(item, path)
        url, media = data.pop("url"), data.pop("media_type", None)
        data.pop("kind")
        data = {k: v for k, v in data.items() if not (k == "force_download" and v is False)}
        data = {k: v for k, v in data.items() if not (k == "vendor_metadata" and v is None)}
        cls = _URL_KINDS[kind]
        return cls(url=url, media_type=media, extra=frozen_object(data, path, NAME))
    media = item.get("media_type")
    if kind == "binary" and isinstance(media, str):
        data = _media_rest(item, path)
        body = data.pop("data")
        if isinstance(body, str):  # pydantic-ai writes bytes in the URL-safe alphabet
            body = body.replace("-", "+").replace("_", "/")
        data.pop("media_type", None)
        data.pop("kind")
        if data.get("vendor_metadata", 0) is None:
            del data["vendor_metadata"]
        cls = _URL_KINDS.get(media.split("/")[0] + "-url", DocumentBlock)
        return cls(data=body, media_type=media, extra=frozen_object(data, path, NAME))
    return RawBlock(frozen(item, path, NAME))


def _tool_return(part: dict[str, Any], path: str) -> ToolResultBlock:
    content = part.get("content")
    known = ("tool_name", "content", "tool_call_id", "outcome", "timestamp")
    extra = _rest(part, "tool-return", known)
    extra.pop("content_file_digests", None)
    blocks: str | tuple[Block, ...]
    if isinstance(content, str):
        blocks = content
    elif isinstance(content, list) and all(
        isinstance(c, str)
        or (isinstance(c, dict) and c.get("kind") in ("image-url", "audio-url", "binary"))
        for c in content
    ):
        blocks = tuple(_user_item(c, f"{path}.content[{k}]") for k, c in enumerate(content))
    else:
        blocks = json.dumps(content, ensure_ascii=False)
        extra["content_kind"] = "json"
    outcome = part.get("outcome", "success")
    if outcome not in ("success", "failed"):
        extra["outcome"] = outcome
    return ToolResultBlock(
        part["tool_call_id"],
        blocks,
        is_error=outcome != "success",
        name=part["tool_name"] or None,
        extra=frozen_object(extra, path, NAME),
    )


def _request(data: dict[str, Any], path: str) -> list[Message]:
    when = data.get("timestamp")
    request = _rest(data, "request", ("parts", "timestamp", "conversation_id"))
    context: dict[str, Any] = {"timestamp": when, "session_id": data.get("conversation_id")}
    out: list[Message] = []
    for k, part in enumerate(data.get("parts", [])):
        where = f"{path}.parts[{k}]"
        kind = part.get("part_kind")
        if kind in ("system-prompt", "user-prompt"):
            extra = _rest(part, kind, ("content", "timestamp"))
        else:
            extra = {}
        if part.get("timestamp") not in (None, when):
            extra["timestamp"] = part["timestamp"]
        if request:
            extra["request"] = request
        frozen_extra = frozen_object(extra, where, NAME)
        if kind == "system-prompt":
            out.append(SystemMessage(part["content"], **context, extra=frozen_extra))
        elif kind == "user-prompt":
            content = part["content"]
            blocks: str | tuple[Block, ...] = (
                content
                if isinstance(content, str)
                else tuple(_user_item(c, f"{where}.content[{i}]") for i, c in enumerate(content))
            )
            out.append(UserMessage(blocks, **context, extra=frozen_extra))
        elif kind == "tool-return":
            result = _tool_return(part, where)
            out.append(ToolMessage((result,), **context, extra=frozen_extra))
        else:
            raw = RawBlock(frozen(part, where, NAME))
            out.append(
                UserMessage(
                    (raw,),
                    **context,
                    extra=frozen_object({"request": request} if request else {}, where, NAME),
                )
            )
    return out


def _response_part(part: dict[str, Any], path: str) -> Block:
    kind = part.get("part_kind")
    if kind == "text":
        extra = _rest(part, kind, ("content",))
        return TextBlock(part["content"], extra=frozen_object(extra, path, NAME))
    if kind == "thinking":
        extra = _rest(part, kind, ("content", "signature", "provider_name"))
        redacted = extra.get("id") == _REDACTED and part["content"] == ""
        if redacted:
            del extra["id"]
        return ThinkingBlock(
            part["content"],
            signature=part.get("signature"),
            redacted=redacted,
            provider=part.get("provider_name"),
            extra=frozen_object(extra, path, NAME),
        )
    if kind == "tool-call":
        extra = _rest(part, kind, ("tool_name", "args", "tool_call_id"))
        args = part.get("args")
        arguments = args if isinstance(args, str) else None
        inputs: Any = args if isinstance(args, dict) else {}
        if isinstance(args, str):
            try:
                parsed = json.loads(args)
            except ValueError:
                parsed = None
            inputs = parsed if isinstance(parsed, dict) else {}
        if args is None:
            extra["args"] = None
        return ToolUseBlock(
            part["tool_call_id"],
            part["tool_name"],
            frozen_object(inputs, f"{path}.args", NAME),
            arguments=arguments,
            extra=frozen_object(extra, path, NAME),
        )
    return RawBlock(frozen(part, path, NAME))


def _usage(data: dict[str, Any], path: str) -> Usage | None:
    if data == _defaults("response")["usage"]:
        return None
    rest = dict(data)
    total = rest.pop("input_tokens")
    read = rest.pop("cache_read_tokens")
    write = rest.pop("cache_write_tokens")
    output = rest.pop("output_tokens")
    reasoning = rest.pop("output_reasoning_tokens")
    defaults = _defaults("response")["usage"]
    extra = {k: v for k, v in rest.items() if v != defaults.get(k)}
    return Usage(
        total - read - write,
        output,
        read or None,
        write or None,
        reasoning_tokens=reasoning or None,
        extra=frozen_object(extra, path, NAME),
    )


def _response(data: dict[str, Any], path: str) -> AssistantMessage:
    parts = data.get("parts", [])
    blocks = tuple(_response_part(p, f"{path}.parts[{k}]") for k, p in enumerate(parts))
    known = (
        "parts",
        "usage",
        "model_name",
        "timestamp",
        "provider_response_id",
        "conversation_id",
        "finish_reason",
    )
    extra = _rest(data, "response", known)
    finish = data.get("finish_reason")
    details = extra.get("provider_details")
    stop = finish
    if isinstance(details, dict) and isinstance(details.get("finish_reason"), str):
        stop = details["finish_reason"]
        details = {k: v for k, v in details.items() if k != "finish_reason"}
        if details:
            extra["provider_details"] = details
        else:
            del extra["provider_details"]
        if finish != _FINISH.get(stop):
            extra["finish_reason"] = finish
    return AssistantMessage(
        blocks,
        usage=_usage(data["usage"], f"{path}.usage"),
        stop_reason=stop,
        model=data.get("model_name"),
        message_id=data.get("provider_response_id"),
        session_id=data.get("conversation_id"),
        timestamp=data.get("timestamp"),
        extra=frozen_object(extra, path, NAME),
    )


def to_messages(objects: Iterable[Any]) -> list[Message]:
    """pydantic-ai messages (``ModelRequest``/``ModelResponse``) as messages of this library."""
    pai = _pai()
    out: list[Message] = []
    for i, obj in enumerate(objects):
        path = f"$[{i}]"
        if not isinstance(obj, pai.ModelRequest | pai.ModelResponse):
            raise wrong("a ModelRequest or ModelResponse", obj, path, NAME)
        try:
            data = _adapter("messages").dump_python([obj], mode="json")[0]
        except Exception as exc:  # a half-built object pydantic cannot dump
            raise reraise(exc, path, NAME) from None
        if data["kind"] == "request":
            out.extend(_request(data, path))
        else:
            out.append(_response(data, path))
    return out


# ----------------------------------------------------------------------------- to theirs


def _stamp(when: Any, policy: Policy, path: str) -> str | None:
    """A timestamp of ours as pydantic-ai's ISO text, if it comes back the same."""
    if when is None:
        return None
    if isinstance(when, str):
        try:
            parsed = _adapter("messages").validate_python(
                [{"kind": "request", "parts": [], "timestamp": when}]
            )
            again = _adapter("messages").dump_python(parsed, mode="json")[0]["timestamp"]
        except Exception:
            again = None
        if again == when:
            return when
    policy.refuse(
        "pydantic-ai keeps a timestamp only as ISO 8601 text it writes back the same",
        f"{path}.timestamp",
        when,
    )
    return None


def _refuse_context(message: Any, names: Iterable[str], policy: Policy, path: str) -> None:
    for name in names:
        value = getattr(message, name, None)
        if value is not None:
            policy.refuse(f"pydantic-ai has no place for {name!r} here", f"{path}.{name}", value)


Media = ImageBlock | AudioBlock | VideoBlock | DocumentBlock
_URL_KINDS: Final[dict[str, type[Media]]] = {
    "image-url": ImageBlock,
    "audio-url": AudioBlock,
    "video-url": VideoBlock,
    "document-url": DocumentBlock,
}
"""pydantic-ai's URL content kinds; ``binary`` content goes by its MIME type the same way
(a type that is not image, audio or video is a document)."""

_ITEM_KEYS: Final = {
    "binary": frozenset(("kind", "data", "media_type", "vendor_metadata", "identifier")),
    "url": frozenset(
        ("kind", "url", "media_type", "force_download", "vendor_metadata", "identifier")
    ),
    "text-content": frozenset(("kind", "content", "metadata")),
}
"""The keys pydantic-ai reads for a user content item of each kind."""


def _item_checked(
    data: dict[str, Any], extra: Mapping[str, Any], keys: frozenset[str], policy: Policy, path: str
) -> dict[str, Any]:
    """``data`` with those ``extra`` keys that are in ``keys``; each other one is refused."""
    for key, value in extra.items():
        if key in keys and key not in data:
            data[key] = thaw(value)
        else:
            policy.refuse(f"pydantic-ai has no {key!r} here", f"{path}.extra.{key}", value)
    return data


def _media_item(block: Media, policy: Policy, path: str) -> Any:
    if isinstance(block, DocumentBlock) and (block.text is not None or block.content is not None):
        return _degrade(block, policy, path, "pydantic-ai documents are files or URLs")
    for name in ("title", "filename", "context", "citations", "start_offset", "end_offset", "fps"):
        value = getattr(block, name, None)
        if value is not None:
            policy.refuse(f"pydantic-ai {block.kind} content has no {name}", f"{path}.{name}")
    if block.data is not None:
        media = block.media_type or block.resolved_media_type
        if media is None:
            return _degrade(block, policy, path, "pydantic-ai binary content needs a MIME type")
        try:
            base64.b64decode(block.data, validate=True)
        except ValueError:
            return _degrade(block, policy, path, "pydantic-ai binary content must be base64")
        item = {"kind": "binary", "data": block.data, "media_type": media}
        return _item_checked(item, block.extra, _ITEM_KEYS["binary"], policy, path)
    if block.url is not None:
        item = {"kind": f"{block.kind}-url", "url": block.url}
        if block.media_type is not None:
            item["media_type"] = block.media_type
        return _item_checked(item, block.extra, _ITEM_KEYS["url"], policy, path)
    return _degrade(block, policy, path, "pydantic-ai needs the provider of an uploaded file")


def _degrade(block: Block, policy: Policy, path: str, reason: str) -> str | None:
    """A block pydantic-ai cannot hold: raise, drop (``None``) or the text describing it."""
    text = policy.degrade(block, path, reason)
    return None if text is None else text.text


def _user_content(block: Block, policy: Policy, path: str) -> Any:
    match block:
        case TextBlock():
            if block.citations is not None:
                policy.refuse("pydantic-ai user text has no citations", f"{path}.citations")
            if block.extra:
                item = {"kind": "text-content", "content": block.text}
                return _item_checked(item, block.extra, _ITEM_KEYS["text-content"], policy, path)
            return block.text
        case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
            return _media_item(block, policy, path)
        case RawBlock():
            data = thaw(block.data)
            if isinstance(data, dict) and isinstance(data.get("kind"), str):
                return data
    return _degrade(block, policy, path, f"pydantic-ai user content cannot be {block.kind}")


def _request_parts(turn: Any, when: str | None, policy: Policy, path: str) -> list[Any]:
    """A system, user or tool turn as request parts (the request's own keys aside)."""
    extra = {k: v for k, v in turn.extra.items() if k != "request"}
    stamp = thaw(extra.pop("timestamp", when))

    def part(kind: str, **fields: Any) -> dict[str, Any]:
        data = {"part_kind": kind, **fields}
        if stamp is not None:
            data["timestamp"] = stamp
        return _checked(data, extra, kind, policy, path)

    if isinstance(turn, SystemMessage):
        if turn.role == "developer":
            policy.refuse("pydantic-ai has no developer role", f"{path}.role", turn.role)
        if not isinstance(turn.content, str):
            plain = all(isinstance(b, TextBlock) and not b.extra for b in turn.content)
            if not plain or len(turn.content) != 1:
                policy.refuse("a pydantic-ai system prompt is one plain text", f"{path}.content")
        return [part("system-prompt", content=turn.text)]
    content = turn.content
    if isinstance(turn, ToolMessage) and isinstance(content, str):
        content = (ToolResultBlock("", content),)
    if isinstance(content, str):
        return [part("user-prompt", content=content)]
    if len(content) == 1 and isinstance(content[0], RawBlock):
        data = thaw(content[0].data)
        if isinstance(data, dict) and isinstance(data.get("part_kind"), str):
            return [data]  # a request part this library does not model, kept whole
    parts: list[Any] = []
    run: list[Any] = []
    for k, block in enumerate(content):
        where = f"{path}.content[{k}]"
        if isinstance(block, ToolResultBlock):
            if run:
                parts.append(part("user-prompt", content=list(run)))
                run = []
            parts.append(_tool_part(block, stamp, policy, where))
        else:
            item = _user_content(block, policy, where)
            if item is not None:
                run.append(item)
    if run or not content:
        parts.append(part("user-prompt", content=run))
    return parts


def _tool_part(block: ToolResultBlock, stamp: Any, policy: Policy, path: str) -> Any:
    extra = dict(block.extra)
    kind = extra.pop("content_kind", None)
    content: Any
    if kind == "json" and isinstance(block.content, str):
        try:
            content = json.loads(block.content)
        except ValueError:
            content = block.content
    elif isinstance(block.content, str):
        content = block.content
    else:
        content = policy.each(block.content, _user_content, f"{path}.content")
    outcome = thaw(extra.pop("outcome", "failed" if block.is_error else "success"))
    data = {
        "part_kind": "tool-return",
        "tool_name": block.name or "",
        "tool_call_id": block.tool_use_id,
        "content": content,
        "outcome": outcome,
    }
    if stamp is not None:
        data["timestamp"] = stamp
    return _checked(data, extra, "tool-return", policy, path)


def _response_block(block: Block, policy: Policy, path: str) -> Any:
    match block:
        case TextBlock():
            if block.citations is not None:
                policy.refuse("pydantic-ai citations are its own objects", f"{path}.citations")
            data = {"part_kind": "text", "content": block.text}
            return _checked(data, block.extra, "text", policy, path)
        case ThinkingBlock():
            data = {"part_kind": "thinking", "content": block.thinking}
            if block.signature is not None:
                data["signature"] = block.signature
            if block.provider is not None:
                data["provider_name"] = block.provider
            if block.redacted:
                data["id"] = _REDACTED
            return _checked(data, block.extra, "thinking", policy, path)
        case ToolUseBlock():
            args: Any = block.arguments if block.arguments is not None else thaw(block.input)
            if block.arguments is not None and block.input:
                try:
                    parsed = json.loads(block.arguments)
                except ValueError:
                    parsed = None
                if parsed != thaw(block.input):
                    policy.refuse(
                        "pydantic-ai keeps either the raw arguments or the parsed input",
                        f"{path}.input",
                        block.input,
                    )
            extra = dict(block.extra)
            if extra.get("args", 0) is None and args == {}:
                args = extra.pop("args")
            data = {
                "part_kind": "tool-call",
                "tool_name": block.name,
                "tool_call_id": block.id,
                "args": args,
            }
            return _checked(data, extra, "tool-call", policy, path)
        case RawBlock():
            raw = thaw(block.data)
            if isinstance(raw, dict) and isinstance(raw.get("part_kind"), str):
                return raw
    text = _degrade(block, policy, path, f"a pydantic-ai response cannot hold {block.kind}")
    return None if text is None else {"part_kind": "text", "content": text}


def _response_out(turn: AssistantMessage, policy: Policy, path: str) -> dict[str, Any]:
    _refuse_context(turn, ("uuid", "parent_tool_use_id", "error"), policy, path)
    parts = policy.each(turn.blocks, _response_block, f"{path}.content")
    data: dict[str, Any] = {"kind": "response", "parts": parts}
    when = _stamp(turn.timestamp, policy, path)
    if when is not None:
        data["timestamp"] = when
    for key, value in (
        ("model_name", turn.model),
        ("provider_response_id", turn.message_id),
        ("conversation_id", turn.session_id),
    ):
        if value is not None:
            data[key] = value
    extra = dict(turn.extra)
    if turn.stop_reason is not None:
        details = dict(thaw(extra.pop("provider_details", None)) or {})
        details["finish_reason"] = turn.stop_reason
        data["provider_details"] = details
        data["finish_reason"] = thaw(extra.pop("finish_reason", _FINISH.get(turn.stop_reason)))
    if turn.usage is not None:
        data["usage"] = _usage_out(turn.usage, policy, path)
    return _checked(data, extra, "response", policy, path)


def _usage_out(usage: Usage, policy: Policy, path: str) -> dict[str, Any]:
    if usage.cost_usd is not None:
        policy.refuse("pydantic-ai computes cost itself", f"{path}.usage.cost_usd", usage.cost_usd)
    read, write = usage.cache_read_tokens or 0, usage.cache_write_tokens or 0
    data = {
        "input_tokens": (usage.input_tokens or 0) + read + write,
        "cache_read_tokens": read,
        "cache_write_tokens": write,
        "output_tokens": usage.output_tokens or 0,
        "output_reasoning_tokens": usage.reasoning_tokens or 0,
    }
    keys = frozenset(_defaults("response")["usage"])
    return _item_checked(data, usage.extra, keys, policy, f"{path}.usage")


def from_messages(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> list[ModelMessage]:
    """Messages as pydantic-ai's ``ModelRequest``/``ModelResponse`` history.

    Consecutive system, user and tool turns with the same session, timestamp and request
    fields share one ``ModelRequest``; each assistant turn is one ``ModelResponse``. Flat
    messages are grouped into turns and session messages are left out, as every request
    encoder does. The result is validated by ``ModelMessagesTypeAdapter``.
    """
    policy = check_policy(unsupported, NAME)
    out: list[dict[str, Any]] = []
    key: Any = None
    for path, turn in turns(messages, NAME):
        if isinstance(turn, AssistantMessage):
            out.append(_response_out(turn, policy, path))
            key = None
            continue
        assert isinstance(turn, SystemMessage | UserMessage | ToolMessage)
        _refuse_context(turn, ("uuid", "parent_tool_use_id", "model", "message_id"), policy, path)
        when = _stamp(turn.timestamp, policy, path)
        request = turn.extra.get("request", FrozenDict())
        this = (when, turn.session_id, request)
        parts = _request_parts(turn, when, policy, path)
        if key == this and out:
            out[-1]["parts"].extend(parts)
            continue
        data: dict[str, Any] = {"kind": "request", "parts": parts}
        if when is not None:
            data["timestamp"] = when
        if turn.session_id is not None:
            data["conversation_id"] = turn.session_id
        if not isinstance(request, Mapping):
            policy.refuse("a request's fields are an object", f"{path}.extra.request", request)
            request = FrozenDict()
        out.append(_checked(data, request, "request", policy, path))
        key = this
    result: list[ModelMessage] = _validate("messages", out, "$")
    return result
