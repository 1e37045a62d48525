"""Gemini media parts, both ways (private to ``gemini``).

``inlineData`` and ``fileData`` parts are image, audio, video or document blocks. The
MIME type decides: ``image/*``, ``audio/*`` and ``video/*`` are what they say, any other
type (``application/pdf``, ``text/plain``...) is a :class:`DocumentBlock`. A video part's
``videoMetadata`` (``startOffset``, ``endOffset``, ``fps``) is typed on the
:class:`VideoBlock`; keys inside the data object that a block does not model (such as
``displayName``) go to ``extra[<data field>]``, as for every Gemini part.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...media import b64encode
from ...media import parse_data_uri
from ...policy import Policy
from .._carry import carried
from .._formats import Place
from .._gemini_names import camel

__all__ = ["Media", "decode_media", "degrade", "encode_media", "part", "split"]

Media = ImageBlock | AudioBlock | VideoBlock | DocumentBlock
"""The blocks a Gemini ``inlineData``/``fileData`` part decodes to."""

_BY_SUFFIX: Final = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "heic": "image/heic",
    "heif": "image/heif",
    "wav": "audio/wav",
    "mp3": "audio/mp3",
    "aiff": "audio/aiff",
    "aac": "audio/aac",
    "ogg": "audio/ogg",
    "flac": "audio/flac",
    "mp4": "video/mp4",
    "mpeg": "video/mpeg",
    "mov": "video/mov",
    "webm": "video/webm",
    "pdf": "application/pdf",
    "txt": "text/plain",
}
_BLOB: Final = frozenset(("mimeType", "data"))
_FILE: Final = frozenset(("mimeType", "fileUri"))
_CLIP: Final = (("startOffset", "start_offset"), ("endOffset", "end_offset"), ("fps", "fps"))


def split(d: dict[str, Any], key: str, inner: dict[str, Any], known: frozenset[str]) -> Any:
    """Part-level extra plus ``{key: inner extra}`` when the data object has unmodelled keys."""
    outer = {k: v for k, v in d.items() if k != key}
    rest = {k: v for k, v in inner.items() if k not in known or v is None}
    if rest:
        outer[key] = rest
    return wrap_owned(outer) if outer else EMPTY


def _kind(mime: str) -> str:
    """The block kind a MIME type decodes to."""
    head = mime.split("/", 1)[0].lower()
    return head if head in ("image", "audio", "video") else "document"


def _clip(d: dict[str, Any]) -> dict[str, Any] | None:
    """The typed fields of a well-formed ``videoMetadata``; ``None`` keeps it in extra."""
    meta = d.get("videoMetadata")
    if type(meta) is not dict or not meta.keys() <= {k for k, _ in _CLIP}:
        return None
    for key, value in meta.items():
        ok = type(value) in (int, float) if key == "fps" else type(value) is str
        if not ok:
            return None
    return {name: meta[key] for key, name in _CLIP if key in meta}


def decode_media(d: dict[str, Any], key: str) -> Block:
    """An ``inlineData`` or ``fileData`` part (camelCase, owned) as a block."""
    inner = d[key]
    if type(inner) is not dict:
        raise fail("an object", inner, key)
    inner = camel(inner)
    mime = inner.get("mimeType")
    ref = inner.get("data" if key == "inlineData" else "fileUri")
    if type(mime) is not str or type(ref) is not str:
        return RawBlock(wrap_owned({**d, key: inner}))
    source: dict[str, Any] = {"data": ref} if key == "inlineData" else {"file_id": ref}
    kind = _kind(mime)
    clip = _clip(d) if kind == "video" else None
    outer = {k: v for k, v in d.items() if k != "videoMetadata"} if clip is not None else d
    ex = split(outer, key, inner, _BLOB if key == "inlineData" else _FILE)
    if kind == "image":
        return ImageBlock(**source, media_type=mime, extra=ex)
    if kind == "audio":
        return AudioBlock(**source, media_type=mime, extra=ex)
    if kind == "video":
        return VideoBlock(**source, media_type=mime, **(clip or {}), extra=ex)
    return DocumentBlock(**source, media_type=mime, extra=ex)


# ---------------------------------------------------------------------------------- encoding


def _inner(block_extra: Any, key: str) -> dict[str, Any]:
    v = block_extra.get(key)
    return dict(raw(v)) if isinstance(v, FrozenDict) else {}


def part(
    data_key: str,
    inner: dict[str, Any],
    block: Media | ToolUseBlock | ToolResultBlock,
    policy: Policy,
    path: str,
    *,
    beside: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A part with one data object: what the block models, then its extra inside and out.

    ``beside`` holds part-level fields the block models too (a video's ``videoMetadata``).
    """
    place: Place = block.kind
    out: dict[str, Any] = {data_key: {**inner, **_inner(block.extra, data_key)}}
    if beside:
        out.update(beside)
    written = beside or None
    out.update(carried(block.extra, policy, path, place, written=written, protected=(data_key,)))
    return out


def degrade(policy: Policy, block: Block, path: str, reason: str) -> dict[str, Any] | None:
    """The policy's answer for a block Gemini cannot carry, as a text part (or ``None``)."""
    degraded = policy.degrade(block, path, reason)
    return None if degraded is None else {"text": degraded.text}


def _beside(block: Media, policy: Policy, path: str) -> dict[str, Any] | None:
    """The part-level fields of a video's clip; a document's fields Gemini lacks: the policy."""
    if isinstance(block, VideoBlock):
        meta = {
            key: getattr(block, name) for key, name in _CLIP if getattr(block, name) is not None
        }
        return {"videoMetadata": meta} if meta else None
    if isinstance(block, DocumentBlock):
        for name in ("title", "filename", "context", "citations"):
            value = getattr(block, name)
            if value is not None:
                policy.refuse(f"Gemini parts carry no document {name}", f"{path}.{name}", value)
    return None


def encode_media(block: Media, policy: Policy, path: str) -> dict[str, Any] | None:
    """An image, audio, video or document block as an ``inlineData``/``fileData`` part."""
    mime = block.media_type
    data = block.data
    if isinstance(block, DocumentBlock) and data is None and block.text is not None:
        data, mime = b64encode(block.text.encode("utf-8")), mime or "text/plain"
    elif isinstance(block, DocumentBlock) and data is None and block.content is not None:
        return degrade(policy, block, path, "Gemini has no document made of content blocks")
    if data is not None:
        mime = mime or block.resolved_media_type
        if mime is None:
            return degrade(policy, block, path, "Gemini inline data needs a MIME type")
        beside = _beside(block, policy, path)
        inline = {"mimeType": mime, "data": data}
        return part("inlineData", inline, block, policy, path, beside=beside)
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None:
            if not uri.is_base64:
                return degrade(policy, block, path, "Gemini takes base64 data, not a text data URL")
            inline = {"mimeType": mime or uri.media_type, "data": uri.data}
            beside = _beside(block, policy, path)
            return part("inlineData", inline, block, policy, path, beside=beside)
        ref = block.url
    elif block.file_id is not None and "://" in block.file_id:
        ref = block.file_id
    elif block.file_id is not None:
        return degrade(
            policy, block, path, "a file id of another provider is not a Gemini file URI"
        )
    else:
        return degrade(policy, block, path, f"this {block.kind} has no data, URL or file")
    if mime is None:  # a guess from the name (``.png``), so the part decodes as this kind
        suffix = ref.split("?", 1)[0].rsplit("/", 1)[-1].rpartition(".")[2].lower()
        guess = _BY_SUFFIX.get(suffix)
        mime = guess if guess is not None and _kind(guess) == block.kind else None
    inner = {"fileUri": ref} if mime is None else {"mimeType": mime, "fileUri": ref}
    return part("fileData", inner, block, policy, path, beside=_beside(block, policy, path))
