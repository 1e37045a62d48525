"""Citations: the sources a text cites, in one shape for every provider.

A :class:`~messages.TextBlock` holds them in ``citations``. Codecs read each format's citation
objects into :class:`Citation` with :func:`read_citation` (here, beside the class, because
``TextBlock("x", citations=[{...}])`` reads a wire mapping too) and write them back exactly
with ``messages._shapes.citations.write_citation``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import Any
from typing import ClassVar
from typing import Final
from typing import Literal
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_map
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue
from ._core.make import maker
from ._core.make import wrap_owned

__all__ = ["Citation"]


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Citation:
    """A source a text cites, with the facts every provider names alike typed.

    ``type`` is the wire type (Anthropic ``char_location``, ``page_location``,
    ``content_block_location``, ``web_search_result_location``, ``search_result_location``;
    OpenAI ``url_citation``, ``file_citation``, ``container_file_citation``, ``file_path``;
    langchain ``citation``; any other kept as it came). Where the cited range lies in the
    *source* (characters, pages or blocks, as the type says) is ``start``/``end``; which part
    of *this text* it supports (OpenAI's indexes) is ``text_start``/``text_end``. Everything
    else of the wire object (``encrypted_index``, ``container_id``...) is in ``extra``.

    >>> Citation("url_citation", url="https://a.example", title="A", text_start=0, text_end=4)
    Citation(type='url_citation', url='https://a.example', title='A', text_start=0, text_end=4)
    """

    kind: ClassVar[Literal["citation"]] = "citation"
    type: str | None
    """The wire type tag; ``None`` when the object had none (or not a string: see extra)."""
    _: KW_ONLY
    cited_text: str | None = None
    """The quoted source text (Anthropic ``cited_text``)."""
    url: str | None = None
    """The cited page (Anthropic web search ``url``, OpenAI ``url``)."""
    title: str | None = None
    """The source's title (``title``, Anthropic ``document_title``, OpenAI ``filename``)."""
    file_id: str | None = None
    """A provider file id (Anthropic document ``file_id``, OpenAI ``file_id``)."""
    start: int | None = None
    """Start of the cited range in the source: character, page or block, as ``type`` says."""
    end: int | None = None
    """End of the cited range in the source (Anthropic's ends are exclusive)."""
    source_index: int | None = None
    """Which document or search result of the request (``document_index``,
    ``search_result_index``)."""
    text_start: int | None = None
    """Where the supported span of this text starts (OpenAI ``start_index``/``index``)."""
    text_end: int | None = None
    """Where it ends (OpenAI ``end_index``)."""
    nested: bool = False
    """Chat's spelling: the fields nested under ``url_citation``, not beside the type."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields this class does not model (``encrypted_index``...), kept for exact replay."""

    def __post_init__(self) -> None:
        freeze_map(self, "extra")

    __repr__ = compact_repr


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
WIRE_KEYS: Final[dict[str, dict[str, str]]] = {
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

FIELD_ORDER: Final = (
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
_SLOT: Final = {field: i for i, field in enumerate(FIELD_ORDER)}


def _reading(keys: dict[str, str]) -> dict[str, str]:
    """A type's wire keys, plus the field names it does not spell (read as themselves).

    The writer puts a field the type has no key for under the field's own name (``url`` on
    a ``char_location``, any field of an unknown type), so the reader takes it back there.
    """
    table = dict(keys)
    spelled = set(keys.values())
    for field in FIELD_ORDER:
        if field not in spelled:
            table.setdefault(field, field)
    return table


_new: Final = maker(Citation)
_READ: Final = {tag: _reading(keys) for tag, keys in WIRE_KEYS.items()}
_READ_ANY: Final = _reading({})


def _take(d: Mapping[str, Any], table: dict[str, str]) -> tuple[list[Any], dict[str, Any]]:
    """The typed field values ``d`` fills, and the keys left over (kept in ``extra``).

    A value of an unexpected JSON type, or a second key for a field already filled, is left
    over too, so nothing is lost and the writer gives the object back.
    """
    values: list[Any] = [None] * len(FIELD_ORDER)
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
