"""Cline, Roo Code and Kilo Code tasks: a task is one session, kept as JSON documents.

Two generations (see ``docs/adapters/cline.md``):

- newer Cline builds (the CLI and JetBrains plugin under ``~/.cline/data/sessions/<id>/``,
  the VS Code extension in its task folder) write ``<id>.messages.json``: a header
  (``version``, ``sessionId``, ``agent``, ``updated_at``) read as an :class:`InitMessage`,
  and ``messages``, each a :class:`UserMessage` or :class:`AssistantMessage` (``id`` as
  ``uuid``, ``ts`` as ``timestamp``, ``modelInfo.id`` as ``model``, ``metrics`` as
  ``usage`` with its cost);
- older Cline builds, Roo Code and Kilo Code keep, in ``globalStorage/<extension>/tasks/<id>/``,
  ``api_conversation_history.json`` (an array of the same kind of entries, Anthropic-shaped),
  ``ui_messages.json`` (the UI's ``ask``/``say`` log, whose ``api_req_started`` items carry
  each request's tokens and cost: a :class:`ResultMessage` each; see :mod:`.ui`) and
  ``task_metadata.json`` (a :class:`SystemEventMessage`).

The stream reader (:func:`iter_decode`) gives a document's parts, and :func:`iter_encode`
writes them back as the same document, JSON-equal. A lone :func:`decode` of a whole array or
transcript keeps it whole (a :class:`RawMessage`); given one entry or UI item, it gives
that message.

>>> entry = {"role": "assistant", "id": "m2", "ts": 1745343731456,
...          "modelInfo": {"id": "claude-sonnet-4-6", "provider": "anthropic"},
...          "metrics": {"inputTokens": 21, "outputTokens": 8, "cost": 0.13},
...          "content": [{"type": "text", "text": "Done."}]}
>>> m = decode(entry)
>>> m.text, m.model, m.usage.input_tokens, m.usage.cost_usd
('Done.', 'claude-sonnet-4-6', 21, 0.13)
>>> encode(m) == entry
True
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import expose_owned
from ..._core.frozen import thaw
from ..._core.jsontext import dump_compact
from ..._core.wire import fail
from ...events.run import InvalidLineMessage
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from .. import _base
from .. import _events as ev
from .documents import decode_parts
from .documents import is_document
from .documents import is_metadata
from .documents import is_transcript
from .documents import join
from .documents import place
from .turns import decode_turn
from .turns import is_turn
from .ui import decode_item
from .ui import is_item
from .writer import encode_entry
from .writer import foreign_entries

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "cline"
"""The format name used in errors and by the command line."""

_CLINE_KEYS: Final = ("ts", "metrics", "modelInfo", "conversationHistoryIndex")


def _decode(obj: Any) -> Message:
    if type(obj) is list:
        return RawMessage(expose_owned(obj))  # a whole document: the stream reader gives its parts
    if type(obj) is not dict:
        raise fail("an object or an array", obj)
    if is_item(obj):
        return decode_item(obj)
    if is_turn(obj):
        return decode_turn(obj)
    if is_metadata(obj) and not is_transcript(obj):
        return decode_parts(obj)[0]
    return ev.raw_line(obj)


def _read(obj: Any) -> Message | tuple[Message, ...]:
    """The stream reader's decoder: a document gives its parts (a tuple)."""
    if is_document(obj):
        return decode_parts(obj)
    return _decode(obj)


def decode(obj: Any) -> Message:
    """One Cline value to one message (the value is copied first).

    A conversation entry gives its role message, a UI item its message; a whole document
    (an array, a transcript) is kept whole, as a :class:`RawMessage`.

    >>> decode({"role": "user", "content": 5})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: cline: $.content: expected a string or an array, found an integer
    """
    return ev.decoding(_decode, obj, NAME)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to one Cline value (a fresh object): ``encode(decode(x)) == x``.

    A role message or a flat content message gives a conversation entry; a message read
    from a UI log gives its item. Run results, errors and harness events from other sources
    have no place in a task's files and follow ``unsupported``.
    """
    policy = Policy(unsupported, NAME)
    if place(message) is not None:
        return thaw(encode_entry(message, policy))
    entries = foreign_entries(message, policy)
    if entries is None:
        return thaw(encode_entry(message, policy))
    return thaw(entries[0]) if entries else None


def detect(obj: Any) -> bool:
    """Whether a parsed value is a Cline task document (or one entry or UI item of one)."""
    if type(obj) is list:
        return is_document(obj)
    if type(obj) is not dict or _base.is_native(obj):
        return False
    if is_transcript(obj) or is_item(obj):
        return True
    if is_turn(obj):
        return any(k in obj for k in _CLINE_KEYS)
    return is_metadata(obj) and "type" not in obj


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a task file lazily: each document gives its parts, in order."""
    return _base.iter_decode(_read, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write messages back as documents: the parts of one document as that one document.

    Messages from other sources are written as one conversation array
    (``api_conversation_history.json``'s shape) per run of them.
    """
    policy = Policy(unsupported, NAME)
    kind: str | None = None
    last = -2
    entries: list[Any] = []
    header: dict[str, Any] | None = None

    def document() -> Iterator[str]:
        if kind is not None and (entries or header is not None):
            yield dump_compact(join(kind, entries, header))

    for m in messages:
        where = place(m)
        if isinstance(m, InvalidLineMessage) or (
            where is None and foreign_entries(m, policy, check=True) is None
        ):
            yield from document()
            kind, last, entries, header = None, -2, [], None
            if isinstance(m, InvalidLineMessage):
                yield m.text
                continue
            obj = encode_entry(m, policy)
            if obj is not None:
                yield dump_compact(obj)
            continue
        if where is None:
            if kind != "foreign":
                yield from document()
                kind, last, entries, header = "foreign", -2, [], None
            entries.extend(foreign_entries(m, policy) or ())
            continue
        new_kind, index = where
        if kind != new_kind or index <= last:
            yield from document()
            kind, entries, header = new_kind, [], None
        last = index
        if index == -1:
            header = dict(encode_entry(m, policy) or {})
        else:
            entries.append(encode_entry(m, policy))
    yield from document()


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Give the messages back lazily, in order: Cline writes whole messages, nothing to join."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)
