"""What the two OpenAI APIs share: a document's file fields.

Chat ``file`` parts and Responses ``input_file`` items write a document the same way (and
read it the same way: :mod:`messages._shapes.openai_files`).
"""

from __future__ import annotations

from typing import Any

from ..blocks import DocumentBlock
from ..media import parse_data_uri
from ..media import to_data_uri
from ..policy import Policy

__all__ = ["file_fields"]


def file_fields(
    block: DocumentBlock, policy: Policy, path: str, url_key: str | None = None
) -> dict[str, Any] | None:
    """The OpenAI file fields of a document (``file_data``, ``file_id``, ``filename``).

    Shared by Chat ``file`` parts and Responses ``input_file`` (which has ``url_key``,
    ``file_url``, for a URL); ``None``: not a file OpenAI takes (a text body, content
    blocks, a URL without a field for it).

    Fields only Anthropic has (``context``, ``citations``) follow the policy; the title
    stands in for a missing file name.
    """
    out: dict[str, Any] = {}
    links = []  # URLs, and file ids that are URIs (a Gemini file): OpenAI takes them as URLs
    if block.url is not None and parse_data_uri(block.url) is not None:
        out["file_data"] = block.url
    elif block.url is not None:
        links.append(("url", block.url))
    if block.data is not None and "file_data" not in out:
        media_type = block.media_type or block.resolved_media_type
        out["file_data"] = block.data if media_type is None else to_data_uri(media_type, block.data)
    elif block.data is not None:
        policy.refuse("cannot carry file data beside a data URL", f"{path}.data")
    if block.file_id is not None and "://" not in block.file_id:
        out["file_id"] = block.file_id
    elif block.file_id is not None:
        links.append(("file_id", block.file_id))
    for field, link in links:
        if url_key is not None and url_key not in out:
            out[url_key] = link
        elif out:  # the document goes by its other source; this one cannot come along
            policy.refuse("cannot carry a document's URL here", f"{path}.{field}", link)
    if not out:
        return None
    if block.filename is not None:
        out["filename"] = block.filename
    elif block.title is not None:
        out["filename"] = block.title
    if block.title is not None and block.filename not in (None, block.title):
        policy.refuse("cannot carry a title beside a file name", f"{path}.title", block.title)
    if block.context is not None:
        policy.refuse("cannot carry a document's context", f"{path}.context", block.context)
    if block.citations is not None:
        why = "cannot carry a document's citations setting"
        policy.refuse(why, f"{path}.citations", block.citations)
    return out
