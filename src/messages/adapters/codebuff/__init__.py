"""Codebuff's saved chats: ``chat-messages.json``, one JSON array of chat messages per chat.

The Codebuff CLI keeps each chat in
``~/.config/manicode/projects/<project>/chats/<chat id>/chat-messages.json`` (see
``docs/adapters/codebuff.md``). The file is one document; :func:`iter_decode` gives each of its
chat messages as a message, in order:

- ``variant`` ``user`` (or ``role`` ``user``) -> :class:`TextMessage` (user), its ``content``
  (or ``text``);
- ``variant`` ``ai`` or ``agent`` (or ``role`` ``assistant``) -> :class:`AssistantMessage`: a
  :class:`TextBlock` of its ``content``, and the usage and model its ``metadata`` reports
  (see :mod:`.usage`);
- ``variant`` ``error`` -> :class:`ErrorMessage`;
- any other item -> :class:`RawMessage`.

Each message keeps its chat message whole in ``extra`` (with its place in the document under
``codebuff.at``), so :func:`iter_encode` writes the document back exactly. A lone
:func:`decode` of a document keeps it whole as a :class:`RawMessage`; of one chat message,
gives its message. Messages from elsewhere are refused: a chat file is read, not written.

>>> doc = '[{"id": "m1", "variant": "user", "content": "Hi", "timestamp": "2026-01-02T03:04:05Z"}]'
>>> [(m.kind, m.text) for m in iter_decode([doc])]
[('text', 'Hi')]
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from typing import Final

from ..._core.frozen import freeze
from ..._core.frozen import thaw
from ..._core.frozen import wrap_owned
from ..._core.jsontext import dump_compact
from ..._core.wire import fail
from ...blocks import TextBlock
from ...events.run import ErrorMessage
from ...events.run import InvalidLineMessage
from ...flat import RawMessage
from ...flat import TextMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...usage import Usage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .usage import counts_of
from .usage import is_reply

__all__ = ["AT", "NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "codebuff"
"""The source name of this adapter."""
AT: Final = "codebuff.at"
"""The ``extra`` key holding a message's place in its document: ``[index, count]``."""
_VARIANTS: Final = ("user", "ai", "agent", "error")


def _kind(item: Mapping[str, Any]) -> str | None:
    kind = item.get("variant")
    if kind is None:
        kind = item.get("role")
    return kind if type(kind) is str else None


def is_item(obj: Any) -> bool:
    """Whether a value is a Codebuff chat message (a ``variant``, or a reply's metadata)."""
    if type(obj) is not dict:
        return False
    if obj.get("variant") in _VARIANTS:
        return True
    metadata = obj.get("metadata")
    return (
        obj.get("role") in ("user", "assistant")
        and "content" not in obj
        and (isinstance(metadata, dict) or "text" in obj or "credits" in obj)
    )


def _stamp(item: Mapping[str, Any]) -> str | int | None:
    for value in (item.get("timestamp"), item.get("createdAt")):
        if type(value) is str and value:
            return value
        if type(value) is int and value > 0:
            return value * 1000 if value < 10_000_000_000 else value
    metadata = item.get("metadata")
    if isinstance(metadata, Mapping):
        value = metadata.get("timestamp")
        if type(value) is str and value:
            return value
    return None


def _item(item: dict[str, Any], at: tuple[int, int] | None) -> Message:
    extra = dict(item)
    if at is not None:
        extra[AT] = list(at)
    kept = wrap_owned(extra)
    ident = item.get("id") if type(item.get("id")) is str else None
    stamp = _stamp(item)
    text = item.get("content")
    if text is None:
        text = item.get("text")
    if text is not None and type(text) is not str:
        raise fail("a string", text, "content")
    kind = _kind(item)
    if is_reply(item):
        counts = counts_of(item)
        usage = None
        if counts.signal():
            usage = Usage(counts.input, counts.output, counts.cache_read, counts.cache_write)
        model = counts.model or ("codebuff-unknown" if usage is not None else None)
        blocks = (TextBlock(text),) if text else ()
        return AssistantMessage(
            blocks,
            usage=usage,
            uuid=ident,
            model=model,
            message_id=ident,
            timestamp=stamp,
            extra=kept,
        )
    if kind == "user":
        return TextMessage(text or "", role="user", uuid=ident, timestamp=stamp, extra=kept)
    if kind == "error":
        return ErrorMessage(text or "", uuid=ident, timestamp=stamp, extra=kept)
    return RawMessage(thaw(kept), uuid=ident, timestamp=stamp)


def _decode(obj: Any) -> Message:
    if type(obj) is dict and is_item(obj):
        return _item(obj, None)
    return ev.raw_line(obj) if type(obj) is dict else RawMessage(freeze(obj))


def _read(obj: Any) -> Message | tuple[Message, ...]:
    """The stream reader's decoder: a document gives its chat messages (a tuple)."""
    if type(obj) is list and obj and is_item(obj[0]) and all(type(x) is dict for x in obj):
        return tuple(_item(x, (i, len(obj))) for i, x in enumerate(obj))
    return _decode(obj)


def decode(obj: Any) -> Message:
    """One chat message to one message; a whole document is kept as a :class:`RawMessage`.

    >>> decode({"variant": "user", "content": 5})
    Traceback (most recent call last):
    ...
    messages.errors.DecodeError: codebuff: $.content: expected a string, found an integer
    """
    return ev.decoding(_decode, obj, NAME)


def _kept(message: Message) -> tuple[dict[str, Any], list[int] | None] | None:
    extra = getattr(message, "extra", None)
    if isinstance(message, RawMessage):
        data = thaw(message.data)
        if isinstance(data, dict) and AT in data:
            place = data.pop(AT)
            return data, place
        return None
    if (
        isinstance(extra, Mapping)
        and extra
        and is_item({k: v for k, v in thaw(extra).items() if k != AT})
    ):
        item = thaw(extra)
        place = item.pop(AT, None)
        return item, place
    return None


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """The chat message a message was read from; a raw value back as it was.

    >>> encode(TextMessage("hi"))
    Traceback (most recent call last):
    ...
    messages.errors.UnsupportedContentError: codebuff: $: a Codebuff chat file is read, not written (pass unsupported='drop' or 'text')
    """  # noqa: E501
    return _encode(message, Policy(unsupported, NAME))


def _encode(message: Message, policy: Policy) -> Any:
    found = _kept(message)
    if found is not None:
        return found[0]
    if isinstance(message, RawMessage) and message.role is None:
        return thaw(message.data)  # a whole document (an array) too
    policy.refuse("a Codebuff chat file is read, not written", "$", message)
    return None


def detect(obj: Any) -> bool:
    """Whether a parsed value is a Codebuff chat document (or one chat message of one)."""
    if type(obj) is list:
        return bool(obj) and is_item(obj[0])
    return not _base.is_native(obj) and is_item(obj)


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a chat file lazily: each document gives its chat messages, in order."""
    return _base.iter_decode(_read, lines, source=NAME, strict=strict)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Write messages back: the chat messages of one document as that one document."""
    policy = Policy(unsupported, NAME)
    pending: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, InvalidLineMessage):
            yield message.text
            continue
        found = _kept(message)
        if found is not None and found[1] is not None:
            item, (index, count) = found[0], found[1]
            pending.append(item)
            if index == count - 1:
                yield dump_compact(pending)
                pending = []
            continue
        out = _encode(message, policy)
        if out is not None:
            yield dump_compact(out)
    if pending:
        yield dump_compact(pending)
