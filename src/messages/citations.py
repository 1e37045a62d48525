"""Citations: the sources a text cites, in one shape for every provider.

A :class:`~messages.TextBlock` holds them in ``citations``. Codecs read each format's citation
objects into :class:`Citation` and write them back exactly (``messages._core.citations``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import ClassVar
from typing import Literal
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_map
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue

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
