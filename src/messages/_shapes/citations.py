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

from .._core.frozen import EMPTY
from .._core.frozen import raw
from .._core.make import maker
from .._core.make import wrap_owned
from ..citations import Citation

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

_ORDER: Final = (
    "cited_text",
    "url",
    "title",
    "file_id",
    "start",
    "end",
    "source_index",
    "text_start",
    "text_end",
)
"""The typed fields, in the order the Citation class declares them (after ``type``)."""
_SLOT: Final = {field: i for i, field in enumerate(_ORDER)}


def _reading(keys: dict[str, str]) -> dict[str, str]:
    """A type's wire keys, plus the field names it does not spell (read as themselves).

    The writer puts a field the type has no key for under the field's own name (``url`` on
    a ``char_location``, any field of an unknown type), so the reader takes it back there.
    """
    table = dict(keys)
    spelled = set(keys.values())
    for field in _ORDER:
        if field not in spelled:
            table.setdefault(field, field)
    return table


_READ: Final = {tag: _reading(keys) for tag, keys in _KEYS.items()}
_READ_ANY: Final = _reading({})
_WRITE: Final = {tag: {field: key for key, field in keys.items()} for tag, keys in _KEYS.items()}
_new: Final = maker(Citation)


def _take(d: Mapping[str, Any], table: dict[str, str]) -> tuple[list[Any], dict[str, Any]]:
    """The typed field values ``d`` fills, and the keys left over (kept in ``extra``).

    A value of an unexpected JSON type, or a second key for a field already filled, is left
    over too, so nothing is lost and the writer gives the object back.
    """
    values: list[Any] = [None] * len(_ORDER)
    rest: dict[str, Any] = {}
    for key, value in d.items():
        field = table.get(key)
        if field is not None:
            i = _SLOT[field]
            fits = type(value) is str if field in _STR else type(value) is int
            if fits and values[i] is None:
                values[i] = value
                continue
        rest[key] = value
    return values, rest


def read_citation(d: dict[str, Any]) -> Citation:
    """An owned citation object (of any format) as a Citation; ``type`` need not be known.

    An object without a string ``type`` reads as ``type=None`` (an odd value stays in
    ``extra``). Built without re-checking (``maker``): every value is owned, plain JSON.
    """
    tag = d.get("type")
    if type(tag) is not str:
        values, rest = _take(d, _READ_ANY)
        return _new(None, *values, False, wrap_owned(rest) if rest else EMPTY)
    table = _READ.get(tag, _READ_ANY)
    inner = d.get(NESTED)
    if tag == NESTED and type(inner) is dict:  # Chat's spelling
        values, inner_rest = _take(inner, table)
        rest = {k: v for k, v in d.items() if k not in ("type", NESTED)}
        if inner_rest:
            rest[NESTED] = inner_rest
        return _new(tag, *values, True, wrap_owned(rest) if rest else EMPTY)
    values, rest = _take(d, table)
    del rest["type"]
    return _new(tag, *values, False, wrap_owned(rest) if rest else EMPTY)


def write_citation(citation: Citation, *, nested: bool | None = None) -> dict[str, Any]:
    """A Citation as the wire object of its type.

    ``nested`` chooses the spelling of a ``url_citation``: Chat's (``True``), Responses'
    (``False``), or the one it was read in (``None``).
    """
    keys = _WRITE.get(citation.type, {}) if citation.type is not None else {}
    out: dict[str, Any] = {}
    if citation.type is not None:
        out["type"] = citation.type
    fields = {}
    for field in _ORDER:
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
