"""Citation objects on the wire, both ways: one reader for every format, one writer.

Every citation type is spelled by one format only (Anthropic's ``*_location``, OpenAI's
``*_citation`` and ``file_path``, langchain's ``citation``), so reading needs no format:
the type says which keys mean what. OpenAI Chat and Responses share ``url_citation``; Chat
nests its fields under ``url_citation``, and the writer is told which spelling to use.
Keys a type does not model, and values of an unexpected JSON type, stay in ``extra``, so
``write_citation(read_citation(x)) == x``.

The reader and the key tables live with :class:`~messages.Citation` in the vocabulary
(``messages.citations``), because ``TextBlock(citations=[{...}])`` reads a wire mapping too
and the vocabulary imports nothing above it; this module re-exports the reader beside the
writer, so a codec imports both from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from .._core.frozen import raw
from ..citations import FIELD_ORDER
from ..citations import NESTED
from ..citations import WIRE_KEYS
from ..citations import Citation
from ..citations import read_citation

__all__ = ["NESTED", "read_citation", "write_citation"]

_WRITE: Final = {
    tag: {field: key for key, field in keys.items()} for tag, keys in WIRE_KEYS.items()
}
"""For each citation type: the wire key each Citation field is written under."""


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
    for field in FIELD_ORDER:
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
