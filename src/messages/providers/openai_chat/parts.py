"""OpenAI Chat Completions content parts and ``tool_calls`` entries, both ways.

Decoders take owned JSON (fresh from a copy of the caller's body) and never mutate it.
Encoders return fresh plain values and apply the caller's :class:`Policy` to what Chat
cannot carry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import JsonValue
from ..._core.frozen import depth_limit
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.jsontext import parse_arguments
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import extra
from ..._shapes.citations import write_citation
from ..._shapes.openai_files import file_document
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...errors import DecodeError
from ...media import parse_data_uri
from ...media import to_data_uri
from ...policy import Policy
from .._carry import put_extra
from .._formats import CHAT
from .._formats import foreign_citations
from .._formats import raw_block_is_own
from .._openai_files import file_fields
from .reasoning import call_signature
from .reasoning import put_call_signature

__all__ = [
    "CONTENT_PART",
    "NAME",
    "annotations_out",
    "carries",
    "decode_part",
    "decode_tool_call",
    "encode_part",
    "encode_tool_call",
    "file_fields",
    "is_tool_call",
    "text_part",
]

NAME: Final = CHAT
_AUDIO_FORMATS: Final = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_FORMAT_OF: Final = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/vnd.wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/mpeg3": "mp3",
}
_TEXT: Final = frozenset(("type", "text"))

CONTENT_PART: Final = "content_part"
"""The record field marking a lone text that came as a one-part list (see the decoder)."""
_IMAGE: Final = frozenset(("type", "image_url"))
_AUDIO: Final = frozenset(("type", "input_audio"))
_CALL: Final = frozenset(("id", "type", "function"))
_FUNCTION: Final = frozenset(("name", "arguments"))
_new_text: Final = maker(TextBlock)
_new_tool_use: Final = maker(ToolUseBlock)
_FILE: Final = frozenset(("type", "file"))
_FILE_KEYS: Final = frozenset(("file_data", "file_id", "filename"))


# ---------------------------------------------------------------------------- decoding


def decode_part(p: Any) -> Block:
    """One owned content part: text, image_url, input_audio and file modelled, else raw."""
    if type(p) is not dict:
        return RawBlock(expose_owned(p))
    kind = p.get("type")
    if kind == "text" and type(p.get("text")) is str:
        return _new_text(p["text"], None, extra(p, _TEXT))
    if kind == "image_url":
        inner = p.get("image_url")
        if (
            type(inner) is dict
            and type(inner.get("url")) is str
            and inner.keys() <= {"url", "detail"}
            and "detail" not in p
        ):
            rest = dict(raw(extra(p, _IMAGE)))
            if "detail" in inner:
                rest["detail"] = inner["detail"]
            return ImageBlock(url=inner["url"], extra=wrap_owned(rest) if rest else EMPTY)
    if kind == "input_audio":
        inner = p.get("input_audio")
        if (
            type(inner) is dict
            and inner.keys() == {"data", "format"}
            and type(inner["data"]) is str
            and inner["format"] in _AUDIO_FORMATS
        ):
            media_type = _AUDIO_FORMATS[inner["format"]]
            return AudioBlock(data=inner["data"], media_type=media_type, extra=extra(p, _AUDIO))
    if kind == "file":
        return _file(p)
    return RawBlock(wrap_owned(p))


def _file(p: dict[str, Any]) -> Block:
    """A ``file`` part as a document; any other shape stays raw.

    ``file_data`` is a ``data:`` URL (kept in ``url``) or bare base64 (kept in ``data``).
    """
    inner = p.get("file")
    if (
        type(inner) is not dict
        or not inner.keys() <= _FILE_KEYS
        or not ("file_data" in inner or "file_id" in inner)
        or any(type(v) is not str for v in inner.values())
    ):
        return RawBlock(wrap_owned(p))
    return file_document(inner, extra(p, _FILE))


def decode_tool_call(tc: Any) -> Block:
    """One owned ``tool_calls`` entry: a standard function call, else kept raw."""
    if type(tc) is dict and tc.get("type") == "function" and type(tc.get("id")) is str:
        signature, call = call_signature(tc)  # ``tc`` itself stays whole, for the raw block
        fn = call.get("function")
        if (
            type(fn) is dict
            and fn.keys() <= _FUNCTION
            and type(fn.get("name")) is str
            and type(fn.get("arguments")) is str
        ):
            arguments = fn["arguments"]
            parsed = parse_arguments(arguments)
            args: Mapping[str, JsonValue] = EMPTY
            if parsed is not None:
                if arguments.count("{") + arguments.count("[") <= depth_limit():
                    # fewer brackets than the depth limit: nothing can nest too deeply, and
                    # the strict parse gave plain, finite JSON of its own: no copy needed
                    args = wrap_owned(parsed)
                else:
                    try:
                        args = FrozenDict(parsed)
                    except DecodeError:  # nested deeper than the limit
                        args = EMPTY
            rest = extra(call, _CALL)
            if signature is not None:  # Gemini's, kept as its own format spells it
                rest = FrozenDict({**rest, "thoughtSignature": signature})
            return _new_tool_use(call["id"], fn["name"], args, arguments, rest)
    return RawBlock(expose_owned(tc))


# ---------------------------------------------------------------------------- encoding


def _image_part(block: ImageBlock, policy: Policy, path: str) -> dict[str, Any] | TextBlock | None:
    url = block.url
    if url is None and block.data is not None:
        media_type = block.media_type or block.resolved_media_type
        if media_type is None:
            return policy.degrade(block, path, "cannot carry image data without a media type")
        url = to_data_uri(media_type, block.data)
    if url is None and block.file_id is not None and "://" in block.file_id:
        url = block.file_id  # a URI (a Gemini file) is a URL to OpenAI
    if url is None:
        what = "an image given by file id" if block.file_id else "an image without a source"
        return policy.degrade(block, path, f"cannot carry {what}")
    inner: dict[str, Any] = {"url": url}
    if "detail" in block.extra:
        inner["detail"] = thaw(block.extra["detail"])
    out: dict[str, Any] = {"type": "image_url", "image_url": inner}
    put_extra(out, block.extra, policy, path, "image", protected=("detail",))
    return out


def _audio_part(block: AudioBlock, policy: Policy, path: str) -> dict[str, Any] | TextBlock | None:
    data, media_type = block.data, block.media_type
    if data is None and block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None and uri.is_base64:
            data, media_type = uri.data, uri.media_type
    if data is None:
        return policy.degrade(block, path, "cannot carry audio that is not inline base64 data")
    if media_type is None:
        media_type = block.resolved_media_type
    audio_format = _FORMAT_OF.get((media_type or "").lower())
    if audio_format is None:
        reason = f"cannot carry audio in {media_type or 'an unknown format'}"
        return policy.degrade(block, path, reason)
    out: dict[str, Any] = {
        "type": "input_audio",
        "input_audio": {"data": data, "format": audio_format},
    }
    put_extra(out, block.extra, policy, path, "audio")
    return out


def _file_part(
    block: DocumentBlock, policy: Policy, path: str
) -> dict[str, Any] | TextBlock | None:
    if block.url is not None and parse_data_uri(block.url) is None and block.file_id is None:
        return policy.degrade(block, path, "cannot carry a document given by URL")
    inner = file_fields(block, policy, path)
    if inner is None:
        what = "a text document" if block.text is not None else "this document"
        return policy.degrade(block, path, f"cannot carry {what} (files only)")
    out: dict[str, Any] = {"type": "file", "file": inner}
    put_extra(out, block.extra, policy, path, "document")
    return out


def text_part(block: TextBlock, policy: Policy, path: str) -> dict[str, Any]:
    """A text part; citations have no place on a Chat part."""
    out: dict[str, Any] = {"type": "text", "text": block.text}
    if block.citations:
        policy.refuse("cannot carry citations on a content part", f"{path}.citations")
    put_extra(out, block.extra, policy, path, "text", protected=(CONTENT_PART,))
    return out


def carries(block: RawBlock) -> bool:
    """Whether a raw block is Chat's own: a content part or a ``tool_calls`` entry."""
    return is_tool_call(block) or raw_block_is_own(block, NAME)


def is_tool_call(block: Block) -> bool:
    """A raw block holding a ``tool_calls`` entry (custom tool call, odd function call)."""
    if not isinstance(block, RawBlock) or not isinstance(block.data, FrozenDict):
        return False
    return block.data.get("type") in ("function", "custom") or "function" in block.data


def encode_part(block: Block, where: str, policy: Policy, path: str) -> dict[str, Any] | None:
    """One block as a content part of a ``where`` message; ``None`` when dropped."""
    result: dict[str, Any] | TextBlock | None
    match block:
        case TextBlock():
            return text_part(block, policy, path)
        case ImageBlock():
            if where != "user":
                result = policy.degrade(block, path, f"cannot carry an image in a {where} message")
            else:
                result = _image_part(block, policy, path)
        case AudioBlock():
            if where != "user":
                result = policy.degrade(block, path, f"cannot carry audio in a {where} message")
            else:
                result = _audio_part(block, policy, path)
        case DocumentBlock():
            if where != "user":
                reason = f"cannot carry a document in a {where} message"
                result = policy.degrade(block, path, reason)
            else:
                result = _file_part(block, policy, path)
        case VideoBlock():
            result = policy.degrade(block, path, "cannot carry video")
        case RawBlock():
            data = block.data
            if raw_block_is_own(block, NAME) and not is_tool_call(block):
                return thaw(data)  # type: ignore[no-any-return]
            kind = data.get("type") if isinstance(data, FrozenDict) else None
            what = f"a {kind!r} block" if isinstance(kind, str) else "content without a type"
            result = policy.degrade(block, path, f"cannot carry {what}")
        case ThinkingBlock():
            result = policy.degrade(block, path, "cannot carry thinking")
        case ToolUseBlock():
            result = policy.degrade(block, path, f"cannot carry a tool call in a {where} message")
        case ToolResultBlock():
            result = policy.degrade(block, path, f"cannot carry a tool result in a {where} message")
        case ServerToolUseBlock() | ServerToolResultBlock():
            result = policy.degrade(block, path, "cannot carry a server tool's call or result")
        case _:
            assert_never(block)
    if isinstance(result, TextBlock):
        return text_part(result, policy, path)
    return result


def encode_tool_call(
    block: ToolUseBlock, policy: Policy, path: str, *, signed: bool = False
) -> dict[str, Any]:
    """A ``tool_calls`` entry; ``arguments`` is the block's raw string when it has one.

    A Gemini thought signature (``extra["thoughtSignature"]``) is written as
    ``extra_content.google.thought_signature`` when the call was read from a Chat body that
    had it there, or when ``signed`` (the ``gemini`` dialect); else it follows the policy.
    """
    arguments = block.arguments
    if arguments is None:
        arguments = json.dumps(thaw(block.input), ensure_ascii=False)
    out: dict[str, Any] = {
        "id": block.id,
        "type": "function",
        "function": {"name": block.name, "arguments": arguments},
    }
    signature = block.extra.get("thoughtSignature")
    if isinstance(signature, str) and (signed or "extra_content" in block.extra):
        put_extra(out, block.extra, policy, path, "tool_use", protected=("thoughtSignature",))
        put_call_signature(out, signature)
    else:
        put_extra(out, block.extra, policy, path, "tool_use")
    return out


def annotations_out(block: TextBlock, out: dict[str, Any], policy: Policy, path: str) -> None:
    """A string content's citations as ``annotations`` (another shape's: to the policy)."""
    if not block.citations:
        return  # none, or an empty list of another format's: nothing to carry
    if not foreign_citations(block.citations, NAME):
        out["annotations"] = [thaw(write_citation(c, nested=True)) for c in block.citations]
    else:
        policy.refuse("cannot carry citations in another provider's shape", f"{path}.citations")
