"""OpenAI file fields read as a document: Chat ``file`` parts and Responses ``input_file``.

Shared by the two OpenAI providers and by ``coerce``, which reads either part leniently; the
providers write the fields back with ``providers/_openai_files.file_fields``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core.frozen import JsonValue
from ..blocks import DocumentBlock
from ..media import parse_data_uri

__all__ = ["file_document"]


def file_document(fields: Mapping[str, Any], extra: Mapping[str, JsonValue]) -> DocumentBlock:
    """The document of checked OpenAI file fields (string values only).

    ``file_data`` is a ``data:`` URL (kept in ``url``) or bare base64 (kept in ``data``);
    a Responses ``file_url`` is the URL when ``file_data`` is not one.
    """
    file_data = fields.get("file_data")
    is_uri = file_data is not None and parse_data_uri(file_data) is not None
    return DocumentBlock(
        data=None if is_uri else file_data,
        url=file_data if is_uri else fields.get("file_url"),
        file_id=fields.get("file_id"),
        filename=fields.get("filename"),
        extra=extra,
    )
