"""Citation objects on the wire, both ways: one reader for every format, one writer.

Every citation type is spelled by one format only (Anthropic's ``*_location``, OpenAI's
``*_citation`` and ``file_path``, langchain's ``citation``), so reading needs no format:
the type says which keys mean what. OpenAI Chat and Responses share ``url_citation``; Chat
nests its fields under ``url_citation``, and the writer is told which spelling to use.
Keys a type does not model, and values of an unexpected JSON type, stay in ``extra``, so
``write_citation(read_citation(x)) == x``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ..citations import Citation
from .frozen import EMPTY
from .frozen import raw
from .make import wrap_owned

__all__ = ["NESTED", "read_citation", "write_citation"]

NESTED: Final = "url_citation"
"""The type Chat writes nested (``{"type": "url_citation", "url_citation": {...}}``)."""

_STR: Final = frozenset(("cited_text", "url", "title", "file_id"))
"""The fields holding strings; the others hold integers."""

_DOCUMENT: Final = {
    "cited_text": "cited_text",
    "document_index": "source_index",
    "document_title": "title",
    "file_id": "file_id",
}
_KEYS: Final[dict[str, dict[str, str]]] = {
    "char_location": {**_DOCUMENT, "start_char_index": "start", "end_char_index": "end"},
    "page_location": {**_DOCUMENT, "start_page_number": "start", "end_page_number": "end"},
    "content_block_location": {
        **_DOCUMENT,
        "start_block_index": "start",
        "end_block_index": "end",
    },
    "web_search_result_location": {"cited_text": "cited_text", "url": "url", "title": "title"},
    "search_result_location": {
        "cited_text": "cited_text",
        "search_result_index": "source_index",
        "title": "title",
        "start_block_index": "start",
        "end_block_index": "end",
    },
    "url_citation": {
        "url": "url",
        "title": "title",
        "start_index": "text_start",
        "end_index": "text_end",
    },
    "file_citation": {"file_id": "file_id", "filename": "title", "index": "text_start"},
    "container_file_citation": {
        "file_id": "file_id",
        "filename": "title",
        "start_index": "text_start",
        "end_index": "text_end",
    },
    "file_path": {"file_id": "file_id", "index": "text_start"},
    "citation": {
        "url": "url",
        "title": "title",
        "cited_text": "cited_text",
        "start_index": "text_start",
        "end_index": "text_end",
    },
}
"""For each citation type: its wire keys and the Citation field each one fills."""

_FIELDS: Final = ("cited_text", "url", "title", "file_id", "start", "end", "source_index")
_FIELDS_ALL: Final = (*_FIELDS, "text_start", "text_end")


def _fits(field: str, value: Any) -> bool:
    if field in _STR:
        return type(value) is str
    return type(value) is int


def _take(d: Mapping[str, Any], keys: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields ``d`` fills, and the keys left over (unmodelled, taken, or of an odd type).

    A key the type does not spell but that is a field's own name (``url`` on a
    ``char_location``, any field of an unknown type) fills that field, as the writer puts a
    field the type has no key for under the field's own name.
    """
    fields: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    spelled = frozenset(keys.values())
    for key, value in d.items():
        field = keys.get(key)
        if field is None and key in _GENERIC and key not in spelled:
            field = key
        if field is not None and field not in fields and _fits(field, value):
            fields[field] = value
        else:
            rest[key] = value
    return fields, rest


_GENERIC: Final = frozenset(_FIELDS_ALL)


def read_citation(d: dict[str, Any]) -> Citation:
    """An owned citation object (of any format) as a Citation; ``type`` need not be known.

    An object without a string ``type`` reads as ``type=None`` (an odd value stays in
    ``extra``).
    """
    tag = d.get("type")
    if type(tag) is not str:
        fields, rest = _take(d, {})
        return Citation(None, **fields, extra=wrap_owned(rest) if rest else EMPTY)
    keys = _KEYS.get(tag, {})
    inner = d.get(NESTED)
    if tag == NESTED and type(inner) is dict:  # Chat's spelling
        fields, inner_rest = _take(inner, keys)
        rest = {k: v for k, v in d.items() if k not in ("type", NESTED)}
        if inner_rest:
            rest[NESTED] = inner_rest
        return Citation(tag, nested=True, **fields, extra=wrap_owned(rest) if rest else EMPTY)
    fields, rest = _take(d, keys)
    del rest["type"]
    return Citation(tag, **fields, extra=wrap_owned(rest) if rest else EMPTY)


def write_citation(citation: Citation, *, nested: bool | None = None) -> dict[str, Any]:
    """A Citation as the wire object of its type.

    ``nested`` chooses the spelling of a ``url_citation``: Chat's (``True``), Responses'
    (``False``), or the one it was read in (``None``).
    """
    spelled = _KEYS.get(citation.type, {}) if citation.type is not None else {}
    keys = {field: key for key, field in spelled.items()}
    out: dict[str, Any] = {}
    if citation.type is not None:
        out["type"] = citation.type
    fields = {}
    for field in _FIELDS_ALL:
        value = getattr(citation, field)
        if value is not None:
            fields[keys.get(field, field)] = value
    extra = dict(raw(citation.extra))
    if citation.nested:
        inner = extra.pop(NESTED, None)  # the nested object's own unmodelled keys
        fields.update(raw(inner) if isinstance(inner, Mapping) else {})
    if nested is None:
        nested = citation.nested
    if nested and citation.type == NESTED:
        out[NESTED] = fields
    else:
        out.update(fields)
    out.update(extra)
    return out
