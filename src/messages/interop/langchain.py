"""Bridge to ``langchain-core`` messages (``BaseMessage`` and its v1 ``content_blocks``).

``HumanMessage`` <-> :class:`UserMessage`, ``AIMessage`` <-> :class:`AssistantMessage`,
``SystemMessage`` <-> :class:`SystemMessage`, ``ToolMessage`` <-> :class:`ToolMessage`
holding one :class:`ToolResultBlock`. Content is written as langchain's standard v1
content blocks (an ``AIMessage`` with list content gets ``response_metadata
["output_version"] = "v1"``, as langchain's own v1 output does), and read through
``content_blocks``, so provider-shaped content langchain knows how to translate comes in
typed:

- ``text`` <-> :class:`TextBlock` (``annotations`` <-> ``citations``; a citation that is
  not langchain's own ``citation`` travels as a ``non_standard_annotation``);
- ``reasoning`` <-> :class:`ThinkingBlock` (``extras.signature``, langchain's place for
  it; ``extras.redacted`` and ``extras.provider`` for the rest);
- ``tool_call`` <-> :class:`ToolUseBlock` (and ``AIMessage.tool_calls``); a call whose
  raw arguments are not a JSON object is an ``invalid_tool_call`` (and
  ``invalid_tool_calls``);
- ``image``/``audio`` <-> :class:`ImageBlock`/:class:`AudioBlock` (``base64``, ``url``,
  ``file_id``, ``mime_type``);
- ``server_tool_call`` <-> :class:`ServerToolUseBlock` (``args`` <-> ``input``,
  ``extras.provider``); ``server_tool_result`` <-> :class:`ServerToolResultBlock`
  (``output`` <-> ``content``, ``status`` from :attr:`~ServerToolResultBlock.is_error`,
  ``extras.tool`` for the result kind langchain has no field for; a result without it
  stays raw);
- every other block (``video``, ``file``, ``text-plain``) <-> :class:`RawBlock` holding
  it; a raw block of ours travels as ``non_standard``.

A block's keys that this library does not model (``id``, ``index``, ``extras``...) stay in
its ``extra`` and are written back. ``usage_metadata`` <-> :class:`Usage` (langchain's
``input_tokens`` counts cached tokens too), ``id`` <-> ``message_id``, ``response_metadata``
``model_name``/``stop_reason`` <-> ``model``/``stop_reason``. The context langchain has no
field for (``uuid``, ``session_id``, ``parent_tool_use_id``, ``timestamp``, an assistant's
``error``) travels in ``response_metadata`` under those names, never sent to a model.
What langchain cannot carry follows ``unsupported``. Tested against ``langchain-core`` 1.7.2.

>>> from langchain_core.messages import AIMessage, HumanMessage
>>> history = [HumanMessage("What is 2 + 2?"), AIMessage("4", id="msg_1")]
>>> ours = to_messages(history)
>>> ours[1].text, ours[1].message_id
('4', 'msg_1')
>>> from_messages(ours) == history
True
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import Final

from .._core.frozen import FrozenDict
from .._core.frozen import JsonValue
from .._core.frozen import thaw
from .._core.wire import present
from .._shapes.citations import read_citation
from .._shapes.citations import write_citation
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import MediaReads
from ..blocks import RawBlock
from ..blocks import ServerToolResultBlock
from ..blocks import ServerToolUseBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..citations import Citation
from ..errors import DecodeError
from ..message import Message
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ..usage import Usage
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
    from langchain_core.messages import BaseMessage

__all__ = ["NAME", "VERSIONS", "from_messages", "to_messages"]

NAME: Final = "langchain"
"""The name used in errors."""

VERSIONS: Final = "langchain-core 1.7.2"
"""The versions of ``langchain-core`` this bridge was tested against."""

_CONTEXT: Final = ("uuid", "session_id", "parent_tool_use_id", "timestamp")
"""Our context fields that travel in ``response_metadata``."""
_DEVELOPER: Final = "__openai_role__"
"""The ``additional_kwargs`` key langchain-openai reads for a developer message."""
_STANDARD: Final = frozenset(
    (
        "text",
        "reasoning",
        "tool_call",
        "tool_call_chunk",
        "invalid_tool_call",
        "server_tool_call",
        "server_tool_call_chunk",
        "server_tool_result",
        "image",
        "video",
        "audio",
        "text-plain",
        "file",
    )
)
"""langchain's v1 standard block types (``non_standard`` aside)."""
_MEDIA_KEYS: Final = (("data", "base64"), ("url", "url"), ("file_id", "file_id"))
_MEDIA_CLASSES: Final[dict[str, type[ImageBlock | AudioBlock | VideoBlock | DocumentBlock]]] = {
    "image": ImageBlock,
    "audio": AudioBlock,
    "video": VideoBlock,
    "file": DocumentBlock,
}
"""langchain's media block types: a ``file`` block is a document."""


def _lc() -> Any:
    import langchain_core.messages  # lazy: the optional dependency is loaded on first use

    return langchain_core.messages


# ------------------------------------------------------------------------- blocks: ours


def _wrapper(data: Any) -> bool:
    """Whether a v1 block is a ``non_standard`` wrapper around a block of another library."""
    if not isinstance(data, Mapping) or data.get("type") != "non_standard":
        return False
    if set(data) != {"type", "value"}:
        return False
    value = data["value"]
    return not (isinstance(value, Mapping) and value.get("type") in _STANDARD)


def _rest(data: Mapping[str, Any], known: Iterable[str], path: str) -> FrozenDict:
    skip = set(known)
    return frozen_object({k: v for k, v in data.items() if k not in skip}, path, NAME)


def _opt(data: Mapping[str, Any], key: str, path: str, *types: type) -> Any:
    value = data.get(key)
    if value is None or isinstance(value, types):
        return value
    wanted = " or ".join(t.__name__ for t in types)
    raise wrong(f"{wanted}", value, f"{path}.{key}", NAME)


def _extras(data: Mapping[str, Any], take: Iterable[str], path: str) -> tuple[dict[str, Any], Any]:
    """The keys of ``extras`` named in ``take``, and what is left of it (``None``: drop it).

    What is left is kept when not empty, or when ``extras`` was empty to begin with.
    """
    extras = data.get("extras")
    if extras is None:
        return {}, None
    if not isinstance(extras, Mapping):
        raise wrong("an object", extras, f"{path}.extras", NAME)
    taken = {k: extras[k] for k in take if k in extras}
    rest = {k: v for k, v in extras.items() if k not in taken}
    return taken, (rest if rest or not taken else None)


def _with_extras(data: Mapping[str, Any], rest: Any, path: str, known: Iterable[str]) -> FrozenDict:
    extra = dict(data)
    for key in known:
        extra.pop(key, None)
    extra.pop("extras", None)
    if rest is not None:
        extra["extras"] = rest
    return _rest(extra, (), path)


def _citation(value: Any) -> Any:
    wrapped = isinstance(value, Mapping) and value.get("type") == "non_standard_annotation"
    if wrapped and set(value) == {"type", "value"}:
        return value["value"]
    return value


def _read_note(note: Any, path: str) -> Citation:
    value = thaw(frozen(_citation(note), path, NAME))
    if not isinstance(value, dict):
        raise wrong("an object", value, path, NAME)
    return read_citation(value)


def _block(data: Any, path: str) -> Block:
    """One v1 content block as a block of this library."""
    if isinstance(data, str):
        return TextBlock(data)
    if not isinstance(data, Mapping):
        raise wrong("a content block", data, path, NAME)
    tag = data.get("type")
    if tag == "text" and isinstance(data.get("text"), str):
        notes = data.get("annotations")
        citations = None
        if notes is not None:
            listed = items(notes, f"{path}.annotations", NAME)
            citations = tuple(
                _read_note(n, f"{path}.annotations[{i}]") for i, n in enumerate(listed)
            )
        return TextBlock(
            data["text"],
            citations=citations,
            extra=_rest(data, ("type", "text", "annotations"), path),
        )
    if tag == "reasoning":
        taken, rest = _extras(data, ("signature", "redacted", "provider"), path)
        thinking = _opt(data, "reasoning", path, str) or ""
        return ThinkingBlock(
            thinking,
            signature=taken.get("signature") if isinstance(taken.get("signature"), str) else None,
            redacted=taken.get("redacted") is True,
            provider=taken.get("provider") if isinstance(taken.get("provider"), str) else None,
            extra=_with_extras(data, rest, path, ("type", "reasoning")),
        )
    if tag in ("tool_call", "invalid_tool_call"):
        return _call(data, tag, path)
    if tag in ("image", "audio", "video", "file") and "source_type" not in data:
        fields = {ours: _opt(data, theirs, path, str) for ours, theirs in _MEDIA_KEYS}
        media = _opt(data, "mime_type", path, str)
        extra = _rest(data, ("type", "base64", "url", "file_id", "mime_type"), path)
        cls = _MEDIA_CLASSES[tag]
        return cls(**fields, media_type=media, extra=extra)
    if tag in ("server_tool_call", "server_tool_result"):
        server = _server(data, tag, path)
        if server is not None:
            return server
    if tag == "text-plain":
        text = _opt(data, "text", path, str)
        named = {key: _opt(data, key, path, str) for key in ("title", "context")}
        media = _opt(data, "mime_type", path, str)
        extra = _rest(data, ("type", "text", "title", "context", "mime_type"), path)
        return DocumentBlock(text=text or "", media_type=media, **named, extra=extra)
    if _wrapper(data):
        return RawBlock(frozen(data["value"], f"{path}.value", NAME))
    return RawBlock(frozen(data, path, NAME))


def _server(
    data: Mapping[str, Any], tag: str, path: str
) -> ServerToolUseBlock | ServerToolResultBlock | None:
    """A v1 server tool call or result; ``None`` (kept raw) when ours would not give it back.

    A result needs our ``extras.tool`` (langchain has no result kind) and a ``status`` that
    agrees with the output; an ``extras.provider`` must be a string.
    """
    taken, rest = _extras(data, ("provider", "tool"), path)
    provider, tool = taken.get("provider"), taken.get("tool")
    if "provider" in taken and not isinstance(provider, str):
        return None
    if tag == "server_tool_call":
        ident, name, args = data.get("id"), data.get("name"), data.get("args")
        if not (isinstance(ident, str) and isinstance(name, str) and isinstance(args, Mapping)):
            return None
        if "tool" in taken:
            return None
        return ServerToolUseBlock(
            ident,
            name,
            frozen(args, f"{path}.args", NAME),  # type: ignore[arg-type]
            provider=provider,
            extra=_with_extras(data, rest, path, _RESERVED[tag]),
        )
    call_id, status = data.get("tool_call_id"), data.get("status")
    if not (isinstance(call_id, str) and isinstance(tool, str) and "output" in data):
        return None
    block = ServerToolResultBlock(
        call_id,
        tool,
        frozen(data["output"], f"{path}.output", NAME),
        provider=provider,
        extra=_with_extras(data, rest, path, _RESERVED[tag]),
    )
    return block if status == ("error" if block.is_error else "success") else None


def _call(data: Mapping[str, Any], tag: str, path: str) -> ToolUseBlock:
    ident = _opt(data, "id", path, str)
    name = _opt(data, "name", path, str)
    known = ["type", "id", "name", "args"]
    nulls = {k: None for k in ("id", "name") if k in data and data[k] is None}
    if tag == "tool_call":
        args = data.get("args")
        if not isinstance(args, Mapping):
            raise wrong("an object", args, f"{path}.args", NAME)
        taken, rest = _extras(data, ("arguments",), path)
        arguments = taken.get("arguments")
        arguments = arguments if isinstance(arguments, str) else None
        arguments_in: Any = args
    else:
        raw_args = _opt(data, "args", path, str)
        taken, rest = _extras(data, ("input",), path)
        arguments_in = taken.get("input") if isinstance(taken.get("input"), Mapping) else {}
        arguments = raw_args
        if raw_args is None and "args" in data:
            nulls["args"] = None
        known.append("error")
        if data.get("error") is not None:
            nulls["error"] = data["error"]
    extra = dict(_with_extras(data, rest, path, known))
    extra.update(nulls)
    return ToolUseBlock(
        ident or "",
        name or "",
        frozen(arguments_in, f"{path}.args", NAME),  # type: ignore[arg-type]
        arguments=arguments,
        extra=_rest(extra, (), path),
    )


# ----------------------------------------------------------------------- blocks: theirs


_RESERVED: Final = {
    "text": frozenset(("type", "text", "annotations")),
    "reasoning": frozenset(("type", "reasoning")),
    "tool_call": frozenset(("type", "id", "name", "args")),
    "invalid_tool_call": frozenset(("type", "id", "name", "args", "error")),
    "image": frozenset(("type", "base64", "url", "file_id", "mime_type")),
    "audio": frozenset(("type", "base64", "url", "file_id", "mime_type")),
    "video": frozenset(("type", "base64", "url", "file_id", "mime_type")),
    "file": frozenset(("type", "base64", "url", "file_id", "mime_type")),
    "text-plain": frozenset(("type", "text", "title", "context", "mime_type")),
    "server_tool_call": frozenset(("type", "id", "name", "args")),
    "server_tool_result": frozenset(("type", "tool_call_id", "status", "output")),
}
"""The keys of each v1 block type that carry a field of ours: never taken from ``extra``."""


def _put_extra(
    out: dict[str, Any], extra: Mapping[str, JsonValue], policy: Policy, path: str
) -> None:
    """Write a block's ``extra`` beside the keys already in ``out``; a clash is refused."""
    reserved = _RESERVED[out["type"]]
    for key, value in extra.items():
        if key in reserved:
            policy.refuse(f"langchain has its own {key!r} here", f"{path}.extra.{key}", value)
        elif key == "extras":
            if not isinstance(value, Mapping):
                policy.refuse("langchain extras must be an object", f"{path}.extra.extras", value)
                continue
            mine = out.get("extras", {})
            clash = set(mine) & set(value)
            if clash:
                policy.refuse(
                    f"langchain extras already hold {sorted(clash)}", f"{path}.extra.extras", value
                )
            out["extras"] = {**thaw(value), **mine}
        else:
            out[key] = thaw(value)


def _wrap(value: JsonValue) -> dict[str, Any]:
    data = thaw(value)
    if isinstance(data, dict) and data.get("type") in _STANDARD:
        return data
    if isinstance(data, dict) and data.get("type") == "non_standard" and not _wrapper(data):
        return data
    return {"type": "non_standard", "value": data}


def _media_out(tag: str, block: MediaReads) -> dict[str, Any]:
    out: dict[str, Any] = {"type": tag}
    for ours, theirs in _MEDIA_KEYS:
        value = getattr(block, ours)
        if value is not None:
            out[theirs] = value
    if block.media_type is not None:
        out["mime_type"] = block.media_type
    return out


def _v1(block: Block, policy: Policy, path: str) -> dict[str, Any] | None:
    """One block as a v1 content block, or ``None`` when the policy drops it."""
    out: dict[str, Any]
    match block:
        case TextBlock():
            out = {"type": "text", "text": block.text}
            if block.citations is not None:
                out["annotations"] = [
                    write_citation(c)
                    if c.type == "citation"
                    else {"type": "non_standard_annotation", "value": write_citation(c)}
                    for c in block.citations
                ]
        case ThinkingBlock():
            out = {"type": "reasoning", "reasoning": block.thinking}
            extras: dict[str, Any] = {}
            if block.signature is not None:
                extras["signature"] = block.signature
            if block.redacted:
                extras["redacted"] = True
            if block.provider is not None:
                extras["provider"] = block.provider
            if extras:
                out["extras"] = extras
        case ToolUseBlock():
            extra = dict(block.extra)
            null_args = "args" in extra and extra["args"] is None and block.arguments is None
            if block.invalid_arguments or null_args:
                out = {"type": "invalid_tool_call", "id": block.id, "name": block.name}
                out["args"] = block.arguments
                out["error"] = thaw(extra.pop("error", None))
                if null_args:
                    del extra["args"]
                if block.input:
                    out["extras"] = {"input": thaw(block.input)}
            else:
                out = {"type": "tool_call", "id": block.id, "name": block.name}
                out["args"] = thaw(block.input)
                if block.arguments is not None:
                    out["extras"] = {"arguments": block.arguments}
            for key in ("id", "name"):  # langchain allows a null id or name: back as null
                if key in extra and extra[key] is None and out[key] == "":
                    out[key] = extra.pop(key)
            _put_extra(out, FrozenDict(extra), policy, path)
            return out
        case ImageBlock() | AudioBlock():
            out = _media_out(block.kind, block)
        case VideoBlock():
            out = _media_out("video", block)
            for name in ("start_offset", "end_offset", "fps"):
                if getattr(block, name) is not None:
                    policy.refuse(f"langchain video has no {name}", f"{path}.{name}")
        case DocumentBlock():
            if block.content is not None:
                text = policy.degrade(block, path, "langchain has no document of content blocks")
                return None if text is None else {"type": "text", "text": text.text}
            if block.text is not None:
                out = {"type": "text-plain", "text": block.text}
                if block.media_type is not None:
                    out["mime_type"] = block.media_type
                keep: tuple[str, ...] = ("title", "context")
            else:
                out = _media_out("file", block)
                keep = ()
            for name in ("title", "filename", "context", "citations"):
                value = getattr(block, name)
                if name in keep and value is not None:
                    out[name] = value
                elif value is not None:
                    policy.refuse(
                        f"langchain {out['type']} blocks have no {name}", f"{path}.{name}"
                    )
        case RawBlock():
            if not isinstance(block.data, Mapping):
                text = policy.degrade(block, path, "langchain keeps only objects as non-standard")
                return None if text is None else {"type": "text", "text": text.text}
            return _wrap(block.data)
        case ToolResultBlock():
            text = policy.degrade(block, path, "langchain carries a tool result as a ToolMessage")
            return None if text is None else {"type": "text", "text": text.text}
        case ServerToolUseBlock():
            out = {"type": "server_tool_call", "id": block.id, "name": block.name}
            out["args"] = thaw(block.input)
            if block.provider is not None:
                out["extras"] = {"provider": block.provider}
        case ServerToolResultBlock():
            status = "error" if block.is_error else "success"
            out = {"type": "server_tool_result", "tool_call_id": block.tool_use_id}
            out |= {"status": status, "output": thaw(block.content)}
            out["extras"] = {"tool": block.tool}
            if block.provider is not None:
                out["extras"]["provider"] = block.provider
    _put_extra(out, block.extra, policy, path)
    return out


def _v1_content(
    content: str | tuple[Block, ...], policy: Policy, path: str
) -> str | list[dict[str, Any]]:
    return content if isinstance(content, str) else policy.each(content, _v1, f"{path}.content")


# ------------------------------------------------------------------------------- usage


def _usage_out(usage: Usage, policy: Policy, path: str) -> dict[str, Any]:
    cached = (usage.cache_read_tokens or 0) + (usage.cache_write_tokens or 0)
    total_in = (usage.input_tokens or 0) + cached
    out: dict[str, Any] = {
        "input_tokens": total_in,
        "output_tokens": usage.output_tokens or 0,
        "total_tokens": total_in + (usage.output_tokens or 0),
    }
    details = present(cache_read=usage.cache_read_tokens, cache_creation=usage.cache_write_tokens)
    if details:
        out["input_token_details"] = details
    if usage.reasoning_tokens is not None:
        out["output_token_details"] = {"reasoning": usage.reasoning_tokens}
    unreported = [k for k in ("input_tokens", "output_tokens") if getattr(usage, k) is None]
    if unreported:
        out["unreported"] = unreported
    if usage.cost_usd is not None:
        out["cost_usd"] = usage.cost_usd
    for key, value in usage.extra.items():
        if key in ("input_token_details", "output_token_details") and isinstance(value, Mapping):
            mine = out.setdefault(key, {})
            if set(mine) & set(value):
                policy.refuse(f"langchain {key} clash", f"{path}.usage.extra.{key}", value)
            out[key] = {**thaw(value), **mine}
        elif key in out and key != "total_tokens":
            policy.refuse(f"langchain has its own {key!r} here", f"{path}.usage.extra.{key}", value)
        else:
            out[key] = thaw(value)
    return out


def _int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _usage_in(data: Any, path: str) -> Usage:
    if not isinstance(data, Mapping):
        raise wrong("an object", data, path, NAME)
    rest = dict(data)
    total_in = _int(rest, "input_tokens")
    output = _int(rest, "output_tokens")
    if total_in is None or output is None:
        raise DecodeError("expected input_tokens and output_tokens", path=path, source=NAME)
    del rest["input_tokens"], rest["output_tokens"]

    def detail(group: str, key: str) -> int | None:
        inner = rest.get(group)
        if not isinstance(inner, Mapping) or _int(inner, key) is None:
            return None
        value = inner[key]
        left = {k: v for k, v in inner.items() if k != key}
        if left:
            rest[group] = left
        else:
            del rest[group]
        return int(value)

    cache_read = detail("input_token_details", "cache_read")
    cache_write = detail("input_token_details", "cache_creation")
    reasoning = detail("output_token_details", "reasoning")
    uncached = total_in - (cache_read or 0) - (cache_write or 0)
    unreported = rest.get("unreported")
    gone: set[str] = set()
    if isinstance(unreported, list) and set(unreported) <= {"input_tokens", "output_tokens"}:
        gone = set(unreported)
        del rest["unreported"]
    cost = rest.get("cost_usd")
    if isinstance(cost, float):
        del rest["cost_usd"]
    else:
        cost = None
    if rest.get("total_tokens") == total_in + output:
        del rest["total_tokens"]
    extra = frozen_object(rest, path, NAME)
    return Usage(
        None if "input_tokens" in gone else uncached,
        None if "output_tokens" in gone else output,
        cache_read,
        cache_write,
        reasoning_tokens=reasoning,
        cost_usd=cost,
        extra=extra,
    )


# ---------------------------------------------------------------------------- to ours


def _context(meta: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """Take our context fields out of ``response_metadata`` where their types fit."""
    out: dict[str, Any] = {}
    for name in names:
        value = meta.get(name)
        fits = isinstance(value, str) or (
            name == "timestamp" and isinstance(value, int | float) and not isinstance(value, bool)
        )
        if fits:
            out[name] = meta.pop(name)
    return out


def _message(obj: Any, path: str) -> list[Message]:
    lc = _lc()
    if not isinstance(obj, lc.BaseMessage):
        raise wrong("a langchain message", obj, path, NAME)
    meta = dict(attr(obj, "response_metadata", path, NAME, dict))
    kwargs = dict(attr(obj, "additional_kwargs", path, NAME, dict))
    content = attr(obj, "content", path, NAME, str, list)
    ident = attr(obj, "id", path, NAME, str, type(None))
    name = attr(obj, "name", path, NAME, str, type(None))
    is_ai = isinstance(obj, lc.AIMessage)
    context = _context(meta, (*_CONTEXT, "error") if is_ai else _CONTEXT)
    extra: dict[str, Any] = {}
    stashed = meta.pop("extra", None)
    if isinstance(stashed, dict):
        extra.update(stashed)
    elif stashed is not None:
        meta["extra"] = stashed
    fields: dict[str, Any] = {"message_id": ident, **context}
    if isinstance(meta.get("model_name"), str):
        fields["model"] = meta.pop("model_name")
    blocks: str | tuple[Block, ...]
    if is_ai:
        calls = attr(obj, "tool_calls", path, NAME, list)
        bad_calls = attr(obj, "invalid_tool_calls", path, NAME, list)
        if isinstance(content, list) and meta.get("output_version") == "v1":
            del meta["output_version"]
        if isinstance(content, str) and not calls and not bad_calls:
            blocks = content
        else:
            listed = attr(obj, "content_blocks", path, NAME, list)
            blocks = tuple(_block(b, f"{path}.content[{k}]") for k, b in enumerate(listed))
        stop = meta.get("stop_reason")
        if isinstance(stop, str):
            fields["stop_reason"] = meta.pop("stop_reason")
        usage = attr(obj, "usage_metadata", path, NAME)
        if usage is not None:
            fields["usage"] = _usage_in(usage, f"{path}.usage_metadata")
    elif isinstance(content, str):
        blocks = content
    else:
        listed = attr(obj, "content_blocks", path, NAME, list)
        blocks = tuple(_block(b, f"{path}.content[{k}]") for k, b in enumerate(listed))
    if meta:
        extra["response_metadata"] = meta
    role = kwargs.pop(_DEVELOPER, None) if isinstance(obj, lc.SystemMessage) else None
    if role not in (None, "developer"):
        kwargs[_DEVELOPER] = role
    if kwargs:
        extra["additional_kwargs"] = kwargs
    if isinstance(obj, lc.ToolMessage):
        return [_tool(obj, blocks, fields, extra, path)]
    if name is not None:
        extra["name"] = name
    frozen_extra = frozen_object(extra, path, NAME)
    if is_ai:
        return [AssistantMessage(blocks, **fields, extra=frozen_extra)]
    if isinstance(obj, lc.HumanMessage):
        return [UserMessage(blocks, **fields, extra=frozen_extra)]
    if isinstance(obj, lc.SystemMessage):
        if role == "developer":
            return [SystemMessage(blocks, role="developer", **fields, extra=frozen_extra)]
        return [SystemMessage(blocks, **fields, extra=frozen_extra)]
    raise wrong("a human, AI, system or tool message", obj, path, NAME)


def _tool(
    obj: Any,
    blocks: str | tuple[Block, ...],
    fields: dict[str, Any],
    extra: dict[str, Any],
    path: str,
) -> ToolMessage:
    status = attr(obj, "status", path, NAME, str)
    is_error = status == "error" if "status" in obj.model_fields_set else None
    block_extra: dict[str, Any] = {}
    artifact = attr(obj, "artifact", path, NAME)
    if artifact is not None:
        block_extra["artifact"] = artifact
    if status not in ("success", "error"):
        block_extra["status"] = status
    result = ToolResultBlock(
        attr(obj, "tool_call_id", path, NAME, str),
        blocks,
        is_error=is_error,
        name=attr(obj, "name", path, NAME, str, type(None)),
        extra=frozen_object(block_extra, f"{path}.artifact", NAME),
    )
    return ToolMessage((result,), **fields, extra=frozen_object(extra, path, NAME))


def to_messages(objects: Iterable[Any]) -> list[Message]:
    """Langchain messages as messages of this library, one for one.

    ``HumanMessage``, ``AIMessage``, ``SystemMessage``, ``ToolMessage`` and their chunks;
    content is read through ``content_blocks``. Anything else raises DecodeError.
    """
    out: list[Message] = []
    for i, obj in enumerate(objects):
        out.extend(_message(obj, f"$[{i}]"))
    return out


# ------------------------------------------------------------------------- to theirs


def _common(message: Any, policy: Policy, path: str, *, ai: bool) -> dict[str, Any]:
    """The keyword arguments every langchain message takes, from a message's context."""
    meta: dict[str, Any] = {}
    kwargs: dict[str, Any] = {}
    out: dict[str, Any] = {}
    for name in (*_CONTEXT, "error") if ai else _CONTEXT:
        value = getattr(message, name, None)
        if value is not None:
            meta[name] = value
    if message.model is not None:
        meta["model_name"] = message.model
    if ai and message.stop_reason is not None:
        meta["stop_reason"] = message.stop_reason
    if message.message_id is not None:
        out["id"] = message.message_id
    if getattr(message, "role", None) == "developer":
        kwargs[_DEVELOPER] = "developer"
    stash: dict[str, Any] = {}
    for key, value in message.extra.items():
        if key == "response_metadata" and isinstance(value, Mapping):
            clash = set(meta) & set(value)
            if clash:
                policy.refuse(
                    f"response_metadata clash {sorted(clash)}", f"{path}.extra.{key}", value
                )
            meta = {**thaw(value), **meta}
        elif key == "additional_kwargs" and isinstance(value, Mapping):
            kwargs = {**thaw(value), **kwargs}
        elif key == "name" and isinstance(value, str):
            out["name"] = value
        else:
            stash[key] = thaw(value)
    if stash:
        if "extra" in meta:
            policy.refuse("response_metadata already has 'extra'", f"{path}.extra", stash)
        else:
            meta["extra"] = stash
    out["response_metadata"] = meta
    out["additional_kwargs"] = kwargs
    return out


def _tool_message(
    result: ToolResultBlock, common: dict[str, Any], policy: Policy, path: str
) -> Any:
    lc = _lc()
    kwargs = dict(common)
    kwargs.pop("name", None)
    content = _v1_content(result.content, policy, path)
    if result.is_error is not None:
        kwargs["status"] = "error" if result.is_error else "success"
    if result.name is not None:
        kwargs["name"] = result.name
    for key, value in result.extra.items():
        if key == "artifact":
            kwargs["artifact"] = thaw(value)
        elif key == "status" and result.is_error is None:
            kwargs["status"] = value
        else:
            policy.refuse(f"a langchain ToolMessage has no {key!r}", f"{path}.extra.{key}", value)
    return lc.ToolMessage(content=content, tool_call_id=result.tool_use_id, **kwargs)


def _split(turn: UserMessage | ToolMessage, policy: Policy, path: str) -> list[Any]:
    """A user or tool turn: each tool result as a ToolMessage, other content as human turns."""
    lc = _lc()
    common = _common(turn, policy, path, ai=False)
    content = turn.content
    if isinstance(content, str):
        if isinstance(turn, ToolMessage):  # a tool message with bare text answers no call id
            content = (ToolResultBlock("", content),)
        else:
            return [lc.HumanMessage(content=content, **common)]
    if not content:
        return [lc.HumanMessage(content=[], **common)]
    out: list[Any] = []
    run: list[dict[str, Any]] = []
    for k, block in enumerate(content):
        where = f"{path}.content[{k}]"
        if isinstance(block, ToolResultBlock):
            if run:
                out.append(lc.HumanMessage(content=run, **common))
                run = []
            out.append(_tool_message(block, common, policy, where))
            continue
        data = _v1(block, policy, where)
        if data is not None:
            run.append(data)
    if run:
        out.append(lc.HumanMessage(content=run, **common))
    return out


def from_messages(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> list[BaseMessage]:
    """Messages as langchain messages with v1 content blocks.

    A user or tool turn's tool results each become a ``ToolMessage`` (langchain has no
    other place for them), its other content a ``HumanMessage``; flat messages are grouped
    into turns and session messages are left out, as every request encoder does. Content
    langchain cannot carry (a tool result inside an assistant turn, a block ``extra`` key
    that clashes with one of langchain's own) follows ``unsupported``.
    """
    lc = _lc()
    policy = check_policy(unsupported, NAME)
    out: list[Any] = []
    for path, turn in turns(messages, NAME):
        if isinstance(turn, UserMessage | ToolMessage):
            out.extend(_split(turn, policy, path))
            continue
        if isinstance(turn, SystemMessage):
            common = _common(turn, policy, path, ai=False)
            content = _v1_content(turn.content, policy, path)
            out.append(lc.SystemMessage(content=content, **common))
            continue
        assert isinstance(turn, AssistantMessage)
        common = _common(turn, policy, path, ai=True)
        content = _v1_content(turn.content, policy, path)
        if isinstance(content, list):
            common["response_metadata"]["output_version"] = "v1"
        calls = [
            {"type": "tool_call", "id": b["id"], "name": b["name"], "args": b["args"]}
            for b in (content if isinstance(content, list) else [])
            if b.get("type") == "tool_call"
        ]
        bad = [
            {k: b.get(k) for k in ("type", "id", "name", "args", "error")}
            for b in (content if isinstance(content, list) else [])
            if b.get("type") == "invalid_tool_call"
        ]
        usage = None if turn.usage is None else _usage_out(turn.usage, policy, path)
        try:
            out.append(
                lc.AIMessage(
                    content=content,
                    tool_calls=calls,
                    invalid_tool_calls=bad,
                    usage_metadata=usage,
                    **common,
                )
            )
        except Exception as exc:  # pydantic refused a value: say where
            raise reraise(exc, path, NAME, encoding=True) from None
    return out
