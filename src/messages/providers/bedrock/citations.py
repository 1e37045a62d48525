"""Converse citations, both ways (private to ``bedrock``).

A ``citationsContent`` block is the model's text with the sources it cites:
``{"content": [{"text"}], "citations": [{"title", "source", "sourceContent", "location"}]}``.
It reads as a :class:`~messages.TextBlock` whose ``citations`` are :class:`Citation` values;
a block with no citations reads with ``citations=()``, so a plain ``text`` block
(``citations=None``) and an uncited ``citationsContent`` block stay apart.

A Converse citation has no type tag: where it points is a ``location`` union of one member,
and that member's name is the Citation's ``type`` (``web``, ``documentChar``,
``documentPage``, ``documentChunk``, ``searchResultLocation``). Its fields fill the typed
ones (``url``; ``documentIndex``/``searchResultIndex`` -> ``source_index``; ``start``,
``end``), ``title`` is the title, and one ``sourceContent`` text is ``cited_text``. What
is left (``source``, a web location's ``domain`` under ``extra["location"]``, values of
an unexpected JSON type, several ``sourceContent`` entries) stays in ``extra``, so
:func:`write` gives the object back exactly.

A block this reading could not give back exactly is not read (the caller keeps it raw):
several ``content`` entries, other keys, or a citation whose location is missing or of a
member this module does not know.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ...blocks import TextBlock
from ...citations import Citation

__all__ = ["LOCATIONS", "decode", "encode", "read", "write"]

_INDEX: Final = {"start": "start", "end": "end"}
LOCATIONS: Final[dict[str, dict[str, str]]] = {
    "web": {"url": "url"},
    "documentChar": {"documentIndex": "source_index", **_INDEX},
    "documentPage": {"documentIndex": "source_index", **_INDEX},
    "documentChunk": {"documentIndex": "source_index", **_INDEX},
    "searchResultLocation": {"searchResultIndex": "source_index", **_INDEX},
}
"""Each ``location`` member: its keys and the Citation field each one fills."""
_STR: Final = frozenset(("url",))
"""The fields holding strings; the others hold integers."""
_WRITE: Final = {
    tag: {field: key for key, field in keys.items()} for tag, keys in LOCATIONS.items()
}
_new: Final = maker(Citation)
_new_text: Final = maker(TextBlock)


def _fits(field: str, value: Any) -> bool:
    return type(value) is str if field in _STR else type(value) is int


def read(d: Any) -> Citation | None:
    """An owned Converse citation object as a Citation; ``None``: not one this reads."""
    if type(d) is not dict:
        return None
    location = d.get("location")
    if type(location) is not dict or len(location) != 1:
        return None
    ((tag, where),) = location.items()
    table = LOCATIONS.get(tag)
    if table is None or type(where) is not dict:
        return None
    fields: dict[str, Any] = {}
    left: dict[str, Any] = {}
    for key, value in where.items():
        field = table.get(key)
        if field is not None and _fits(field, value):
            fields[field] = value
        else:
            left[key] = value
    rest = {k: v for k, v in d.items() if k != "location"}
    if left:
        rest["location"] = {tag: left}
    title = rest.get("title")
    if type(title) is str:
        fields["title"] = rest.pop("title")
    quoted = rest.get("sourceContent")
    if type(quoted) is list and len(quoted) == 1 and _one_text(quoted[0]):
        fields["cited_text"] = quoted[0]["text"]
        del rest["sourceContent"]
    return _new(
        tag,
        fields.get("cited_text"),
        fields.get("url"),
        fields.get("title"),
        None,
        fields.get("start"),
        fields.get("end"),
        fields.get("source_index"),
        None,
        None,
        False,
        wrap_owned(rest) if rest else EMPTY,
    )


def _one_text(d: Any) -> bool:
    return type(d) is dict and len(d) == 1 and type(d.get("text")) is str


def write(citation: Citation) -> dict[str, Any]:
    """A Citation of a Converse location type as the Converse citation object."""
    keys = _WRITE[citation.type] if citation.type is not None else {}
    rest = dict(raw(citation.extra))
    left = rest.pop("location", None)
    where: dict[str, Any] = {}
    for field, key in keys.items():
        value = getattr(citation, field)
        if value is not None:
            where[key] = value
    if isinstance(left, dict):
        where.update(left.get(citation.type) or {})
    out: dict[str, Any] = {}
    if citation.title is not None:
        out["title"] = citation.title
    if citation.cited_text is not None:
        out["sourceContent"] = [{"text": citation.cited_text}]
    out.update(rest)
    out["location"] = {citation.type: where}
    return out


def decode(value: Any) -> TextBlock | None:
    """An owned ``citationsContent`` member as a cited TextBlock; ``None``: keep it raw."""
    if type(value) is not dict or set(value) != {"content", "citations"}:
        return None
    content, cited = value["content"], value["citations"]
    if type(content) is not list or len(content) != 1 or not _one_text(content[0]):
        return None
    if type(cited) is not list:
        return None
    citations = []
    for d in cited:
        c = read(d)
        if c is None:
            return None
        citations.append(c)
    return _new_text(content[0]["text"], tuple(citations), EMPTY)


def encode(block: TextBlock) -> dict[str, Any]:
    """A TextBlock whose citations are all Converse's as a ``citationsContent`` block."""
    cited = [write(c) for c in block.citations or ()]
    return {"citationsContent": {"content": [{"text": block.text}], "citations": cited}}
