"""What Gemini CLI's saved sessions and Qwen Code's chats share: Gemini parts and token counts.

Both agents keep the model's ``Content`` parts (``{"text": ...}``, ``{"functionCall": ...}``,
``{"functionResponse": ...}``, ``{"inlineData": ...}``) as the Gemini API writes them, and
both count tokens the Gemini way (the prompt *including* cached tokens, the candidates
*excluding* thoughts). This module turns a part into one block and back, exactly, and the
two token shapes (Gemini CLI's ``tokens`` summary, Qwen Code's ``usageMetadata``) into a
:class:`~messages.Usage` and back.

A part becomes:

- ``{"text"}`` -> :class:`TextBlock`; with ``"thought": true`` -> :class:`ThinkingBlock`
  (``thoughtSignature`` as ``signature``; the ``thought`` flag stays in the block's extra,
  which is how the encoder tells a thought part from a Gemini CLI ``thoughts[]`` entry);
- ``{"functionCall": {"id", "name", "args"}}`` -> :class:`ToolUseBlock` (typed only when the
  caller asks, see ``calls``);
- ``{"functionResponse": {"id", "name", "response"}}`` -> :class:`ToolResultBlock` with the
  response's ``output`` (or ``error``, then ``is_error``) as its text (typed likewise; one
  without a ``response`` stays raw);
- ``{"inlineData": {"mimeType": "image/...", "data"}}`` -> :class:`ImageBlock`;
- anything else (file data, executable code, an unknown part) -> :class:`RawBlock`, verbatim.

Every key a block does not model stays in its ``extra``, so :func:`encode_part` gives the
part back JSON-equal.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import TypeVar

from .._core.frozen import expose_owned
from .._core.frozen import raw
from .._core.make import wrap_owned
from .._core.wire import fail
from .._core.wire import rest
from ..blocks import Block
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..convert import message_to_block
from ..convert import messages_to_turn
from ..flat import FlatMessage
from ..message import Message
from ..policy import Policy
from ..usage import Usage
from . import _events as ev

__all__ = [
    "decode_part",
    "decode_parts",
    "encode_flat",
    "encode_part",
    "encode_parts",
    "metadata_of",
    "tokens_of",
    "usage_of_metadata",
    "usage_of_tokens",
]

_Out = TypeVar("_Out")

_TEXT: Final = frozenset(("text",))
_THOUGHT: Final = frozenset(("text", "thoughtSignature"))
_CALL: Final = frozenset(("id", "name", "args"))
_RESPONSE: Final = frozenset(("id", "name", "response"))
_INLINE: Final = frozenset(("mimeType", "data"))


def _image(part: dict[str, Any]) -> Block | None:
    inline = part.get("inlineData")
    if type(inline) is not dict:
        return None
    mime, data = inline.get("mimeType"), inline.get("data")
    if type(mime) is not str or not mime.startswith("image/") or type(data) is not str:
        return None
    mirror = rest(part, ("inlineData",))
    inner = rest(inline, _INLINE)
    if inner:
        mirror["inlineData"] = inner
    return ImageBlock(data=data, media_type=mime, extra=ev.frozen(mirror))


def _call(part: dict[str, Any]) -> Block | None:
    call = part.get("functionCall")
    if type(call) is not dict:
        return None
    call_id, name, args = call.get("id"), call.get("name"), call.get("args", {})
    if type(call_id) is not str or type(name) is not str or type(args) is not dict:
        return None
    mirror = rest(part, ("functionCall",))
    inner = rest(call, _CALL)
    if "args" not in call:
        inner["args"] = None  # no arguments on the wire: written back without them
    if inner:
        mirror["functionCall"] = inner
    return ToolUseBlock(call_id, name, wrap_owned(args), extra=ev.frozen(mirror))


def _response(part: dict[str, Any]) -> Block | None:
    reply = part.get("functionResponse")
    if type(reply) is not dict:
        return None
    call_id, name, response = reply.get("id"), reply.get("name"), reply.get("response")
    if type(call_id) is not str or (name is not None and type(name) is not str):
        return None
    if "response" not in reply:
        return None  # the encoder writes a response: without one, the part is kept whole
    mirror = rest(part, ("functionResponse",))
    inner = rest(reply, _RESPONSE)
    text = ""
    is_error = None
    if type(response) is dict and len(response) == 1:
        ((key, value),) = response.items()
        if key in ("output", "error") and type(value) is str:
            text = value
            is_error = key == "error"
        else:
            inner["response"] = response
    elif "response" in reply:
        inner["response"] = response
    if inner:
        mirror["functionResponse"] = inner
    return ToolResultBlock(call_id, text, is_error=is_error, name=name, extra=ev.frozen(mirror))


def decode_part(part: Any, *, calls: bool = True) -> Block:
    """One Gemini part as one block (see the module docstring); ``RawBlock`` if unknown.

    With ``calls=False``, function calls and responses stay raw (Gemini CLI records them
    in ``toolCalls`` and never in content, so a stray one is kept as it was).
    """
    if type(part) is not dict:
        return RawBlock(expose_owned(part))
    text = part.get("text")
    if type(text) is str:
        if part.get("thought") is True:
            signature = part.get("thoughtSignature")
            if signature is None or type(signature) is str:
                return ThinkingBlock(
                    text, signature=signature, extra=ev.frozen(rest(part, _THOUGHT))
                )
        elif part.keys() == _TEXT:
            return TextBlock(text)
        elif "thought" not in part:
            return TextBlock(text, extra=ev.frozen(rest(part, _TEXT)))
    found = _image(part)
    if found is None and calls:
        found = _call(part) or _response(part)
    return found if found is not None else RawBlock(wrap_owned(part))


def decode_parts(parts: list[Any], *, calls: bool = True) -> tuple[Block, ...]:
    """Each part of a list as one block, in order."""
    return tuple([decode_part(p, calls=calls) for p in parts])


def _text_part(block: TextBlock, policy: Policy, path: str) -> dict[str, Any]:
    if block.citations is not None:
        policy.refuse("Gemini parts carry no citations", path, block)
    return ev.overlay({"text": block.text}, block.extra)


def _result_part(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any]:
    from ._common import content_text

    text = content_text(block.content, policy, path + ".content")
    inner: dict[str, Any] = {"id": block.tool_use_id}
    if block.name is not None:
        inner["name"] = block.name
    inner["response"] = {"error" if block.is_error else "output": text}
    kept: Any = raw(block.extra) if block.extra else {}
    reply = kept.get("functionResponse") if type(kept) is dict else None
    if type(reply) is dict and "response" in reply:
        del inner["response"]  # a response of another shape, kept whole
    return ev.overlay({"functionResponse": inner}, kept)


def encode_part(block: Block, policy: Policy, path: str = "$") -> Any:
    """The Gemini part for a block (``None`` when the policy leaves it out)."""
    match block:
        case TextBlock():
            return _text_part(block, policy, path)
        case ThinkingBlock():
            out: dict[str, Any] = {"text": block.thinking, "thought": True}
            if block.signature is not None:
                out["thoughtSignature"] = block.signature
            return ev.overlay(out, block.extra)
        case ToolUseBlock():
            call: dict[str, Any] = {"id": block.id, "name": block.name, "args": raw(block.input)}
            part = ev.overlay({"functionCall": call}, block.extra)
            if part["functionCall"].get("args", 0) is None:
                del part["functionCall"]["args"]
            return part
        case ToolResultBlock():
            return _result_part(block, policy, path)
        case ImageBlock() if (
            block.data is not None
            and block.media_type is not None
            and block.url is None
            and block.file_id is None
        ):
            inline = {"mimeType": block.media_type, "data": block.data}
            return ev.overlay({"inlineData": inline}, block.extra)
        case RawBlock():
            return raw(block.data)
        case _:
            alt = policy.degrade(block, path, f"Gemini parts cannot carry {block.kind} blocks")
            return None if alt is None else _text_part(alt, policy, path)


def encode_flat(
    m: FlatMessage, policy: Policy, encode: Callable[[Message, Policy], _Out]
) -> _Out | None:
    """A flat message as the record of its one-block turn, written with ``encode``.

    ``None`` when the policy drops the one block (the message then has no record);
    ``"raise"`` raises. Gemini CLI sessions and Qwen Code chats write turns, not blocks.
    """
    if encode_part(message_to_block(m), policy) is None:
        return None
    return encode(messages_to_turn([m]), policy)


def encode_parts(blocks: tuple[Block, ...], policy: Policy, path: str = "$") -> list[Any]:
    """The parts for some blocks, in order, leaving out what the policy drops."""
    return policy.each(blocks, encode_part, path)


# -- token counts ------------------------------------------------------------------------------

_TOKENS: Final = frozenset(("input", "output", "cached", "thoughts", "tool"))
_METADATA: Final = frozenset(
    ("promptTokenCount", "candidatesTokenCount", "cachedContentTokenCount", "thoughtsTokenCount")
)


def _count(d: dict[str, Any], key: str, at: str) -> int:
    v = d.get(key)
    if v is None:
        return 0
    if type(v) is not int:
        raise fail("an integer", v, key, at)
    return v


def usage_of_tokens(tokens: dict[str, Any], at: str) -> Usage:
    """Gemini CLI's ``tokens`` summary as a Usage.

    ``input`` counts the prompt with its cached part and without the tool-use prompt
    (``tool``): input is ``input - cached + tool``, output ``output + thoughts``, cache
    reads ``cached``, reasoning ``thoughts``. ``total`` and unknown keys stay in ``extra``,
    with ``tool`` (needed to write ``input`` back).
    """
    inp, out, cached, thoughts, tool = (_count(tokens, k, at) for k in _KEYS)
    kept = rest(tokens, _TOKENS)
    for key in _KEYS:
        if key not in tokens:
            kept[key] = None  # absent on the wire: left out when written back
    if "tool" in tokens:
        kept["tool"] = tool
    return Usage(
        inp - cached + tool,
        out + thoughts,
        cached,
        reasoning_tokens=thoughts,
        extra=ev.frozen(kept),
    )


_KEYS: Final = ("input", "output", "cached", "thoughts", "tool")


def tokens_of(usage: Usage) -> dict[str, Any]:
    """The inverse of :func:`usage_of_tokens`."""
    kept: Mapping[str, Any] = raw(usage.extra) if usage.extra else {}
    found = kept.get("tool")
    tool: int = found if type(found) is int else 0
    cached = usage.cache_read_tokens or 0
    thoughts = usage.reasoning_tokens or 0
    out: dict[str, Any] = {
        "input": (usage.input_tokens or 0) + cached - tool,
        "output": (usage.output_tokens or 0) - thoughts,
        "cached": cached,
        "thoughts": thoughts,
        "tool": tool,
    }
    ev.overlay(out, kept)
    return {k: v for k, v in out.items() if v is not None}


def usage_of_metadata(meta: dict[str, Any], at: str) -> Usage:
    """Qwen Code's ``usageMetadata`` (the Gemini API's names) as a Usage, the same rule."""
    prompt, candidates, cached, thoughts = (meta.get(k) for k in _METADATA_ORDER)
    for key, v in zip(_METADATA_ORDER, (prompt, candidates, cached, thoughts), strict=True):
        if v is not None and type(v) is not int:
            raise fail("an integer", v, key, at)
    return Usage(
        None if prompt is None else prompt - (cached or 0),
        None if candidates is None else candidates + (thoughts or 0),
        cached,
        reasoning_tokens=thoughts,
        extra=ev.frozen(rest(meta, _METADATA)),
    )


_METADATA_ORDER: Final = (
    "promptTokenCount",
    "candidatesTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
)


def metadata_of(usage: Usage) -> dict[str, Any]:
    """The inverse of :func:`usage_of_metadata`."""
    out: dict[str, Any] = {}
    if usage.input_tokens is not None:
        out["promptTokenCount"] = usage.input_tokens + (usage.cache_read_tokens or 0)
    if usage.output_tokens is not None:
        out["candidatesTokenCount"] = usage.output_tokens - (usage.reasoning_tokens or 0)
    if usage.cache_read_tokens is not None:
        out["cachedContentTokenCount"] = usage.cache_read_tokens
    if usage.reasoning_tokens is not None:
        out["thoughtsTokenCount"] = usage.reasoning_tokens
    return ev.overlay(out, usage.extra)
