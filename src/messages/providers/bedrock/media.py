"""Converse media blocks (image, video, audio, document): formats and sources, both ways.

Private to ``bedrock``. A ``format`` is a MIME type here (``png`` ↔ ``image/png``, ``mov`` ↔
``video/quicktime``...); a source is base64 ``bytes``, an ``s3Location`` (a ``s3://`` URL,
``bucketOwner`` in ``extra``), or for a document its ``text`` or ``content``.
"""

from __future__ import annotations

import re
from typing import Any
from typing import Final

from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import TextBlock
from ...blocks import VideoBlock
from ...media import parse_data_uri

__all__ = [
    "MEDIA",
    "decode_document",
    "decode_media",
    "document_name",
    "media_format",
    "media_source",
]

_IMAGE: Final = {f: f"image/{f}" for f in ("png", "jpeg", "gif", "webp")}
_VIDEO: Final = {
    "mkv": "video/x-matroska",
    "mov": "video/quicktime",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "flv": "video/x-flv",
    "mpeg": "video/mpeg",
    "mpg": "video/mpg",
    "wmv": "video/x-ms-wmv",
    "three_gp": "video/3gpp",
}
_AUDIO: Final = {
    f: f"audio/{f}"
    for f in (
        *("mp3", "opus", "wav", "aac", "flac", "mp4", "ogg", "mkv"),
        *("mka", "x-aac", "m4a", "mpeg", "mpga", "pcm", "webm"),
    )
}
_DOCUMENT: Final = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
_FORMATS: Final = {"image": _IMAGE, "video": _VIDEO, "audio": _AUDIO, "document": _DOCUMENT}
# Other spellings of the same types, read on the way out only (decoding gives the above).
_ALIASES: Final = {
    "image/jpg": "jpeg",
    "audio/mpeg": "mp3",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "text/x-markdown": "md",
}
_FROM_TYPE: Final = {
    kind: {media: fmt for fmt, media in table.items()} for kind, table in _FORMATS.items()
}
MEDIA: Final[dict[str, type[ImageBlock | VideoBlock | AudioBlock]]] = {
    "image": ImageBlock,
    "video": VideoBlock,
    "audio": AudioBlock,
}
_NAME_BAD: Final = re.compile(r"[^A-Za-z0-9\-()\[\] ]+")


def _source(source: Any, *, document: bool = False) -> dict[str, Any] | None:
    """The modelled fields of a media ``source``, or ``None`` when it is not one we model."""
    if type(source) is not dict or len(source) != 1:
        return None
    ((key, value),) = source.items()
    if key == "bytes" and type(value) is str:
        return {"data": value}
    if key == "s3Location" and type(value) is dict and type(value.get("uri")) is str:
        owner = value.get("bucketOwner")
        if set(value) - {"uri", "bucketOwner"} or (owner is not None and type(owner) is not str):
            return None
        out: dict[str, Any] = {"url": value["uri"]}
        if owner is not None:
            out["extra"] = {"bucketOwner": owner}
        return out
    if document and key == "text" and type(value) is str:
        return {"text": value}
    if document and key == "content" and type(value) is list and all(map(_text_part, value)):
        return {"content": tuple(TextBlock(p["text"]) for p in value)}
    return None


def _text_part(p: Any) -> bool:
    return type(p) is dict and p.keys() == {"text"} and type(p["text"]) is str


def decode_media(kind: str, value: Any) -> Block | None:
    """An image, video or audio block's wire object as a block; ``None``: kept raw."""
    if type(value) is not dict or type(value.get("format")) is not str:
        return None
    if set(value) - {"format", "source"}:
        return None
    media_type = _FORMATS[kind].get(value["format"])
    fields = _source(value.get("source"))
    if media_type is None or fields is None:
        return None
    block: Block = MEDIA[kind](media_type=media_type, **fields)
    return block


def decode_document(value: Any) -> Block | None:
    """A document block's wire object as a DocumentBlock; ``None``: kept raw."""
    if type(value) is not dict or type(value.get("name")) is not str:
        return None
    if set(value) - {"format", "name", "source", "context", "citations"}:
        return None
    fmt = value.get("format")
    media_type = None
    if fmt is not None:
        media_type = _DOCUMENT.get(fmt) if type(fmt) is str else None
        if media_type is None:
            return None
    fields = _source(value.get("source"), document=True)
    context = value.get("context")
    cite = value.get("citations")
    if fields is None or (context is not None and type(context) is not str):
        return None
    enabled = None
    if cite is not None:
        if (
            type(cite) is not dict
            or cite.keys() != {"enabled"}
            or type(cite["enabled"]) is not bool
        ):
            return None
        enabled = cite["enabled"]
    return DocumentBlock(
        media_type=media_type, title=value["name"], context=context, citations=enabled, **fields
    )


def media_format(
    kind: str, block: ImageBlock | AudioBlock | VideoBlock | DocumentBlock
) -> str | None:
    """The Converse ``format`` for a block's MIME type; ``None``: Converse has none."""
    media_type = block.media_type
    if media_type is None and block.url is not None:
        uri = parse_data_uri(block.url)
        media_type = uri.media_type if uri is not None else None
    if media_type is None:
        return None
    media_type = media_type.split(";")[0].strip().lower()
    return _FROM_TYPE[kind].get(media_type) or _ALIASES.get(media_type)


def media_source(
    block: ImageBlock | AudioBlock | VideoBlock | DocumentBlock,
) -> dict[str, Any] | None:
    """The Converse ``source`` of a block; ``None``: it has none Converse takes."""
    if block.data is not None:
        return {"bytes": block.data}
    if block.url is not None:
        if block.url.startswith("s3://"):
            location: dict[str, Any] = {"uri": block.url}
            owner = block.extra.get("bucketOwner")
            if isinstance(owner, str):
                location["bucketOwner"] = owner
            return {"s3Location": location}
        uri = parse_data_uri(block.url)
        if uri is not None and uri.is_base64:
            return {"bytes": uri.data}
    if isinstance(block, DocumentBlock):
        if block.text is not None:
            return {"text": block.text}
        if isinstance(block.content, str):
            return {"content": [{"text": block.content}]}
        if block.content is not None and all(isinstance(b, TextBlock) for b in block.content):
            return {
                "content": [{"text": b.text} for b in block.content if isinstance(b, TextBlock)]
            }
    return None


def document_name(block: DocumentBlock) -> str:
    """A document's ``name``: its title or file name, as Converse spells names."""
    name = block.title if block.title is not None else block.filename
    if name is None:
        return "document"
    cleaned = " ".join(_NAME_BAD.sub("-", name).split())[:200]
    return cleaned or "document"
