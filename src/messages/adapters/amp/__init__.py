"""Amp's thread files: ``~/.local/share/amp/threads/T-<uuid>.json``, one thread each.

A thread file is one JSON object: the thread's own fields and its ``messages``. Reading a
thread gives its header, then one message per entry (see ``docs/adapters/amp.md``):

- the header (the thread without its entries) -> :class:`InitMessage`: ``id`` as
  ``session_id``, ``created`` as ``timestamp``; ``title``, ``env``, ``usageLedger``... in
  ``extra``;
- a ``user`` entry -> :class:`UserMessage`; an ``assistant`` entry -> :class:`AssistantMessage`
  with ``usage`` (``inputTokens``, ``outputTokens``, ``cacheReadInputTokens``,
  ``cacheCreationInputTokens``), ``usage.model`` as ``model``, ``usage.timestamp`` as
  ``timestamp``, ``state.stopReason`` as ``stop_reason``;
- blocks: ``text``, ``thinking``, ``tool_use`` typed, Amp's ``tool_result`` (``toolUseID``,
  ``run.status``, ``run.result``) as a :class:`ToolResultBlock`; any other block is kept whole.

Every entry message carries the thread id as ``session_id`` and its ``messageId`` as
``message_id``. Writing the messages back gives the thread again (``iter_encode`` gathers the
entries that follow a header into its ``messages``). Amp's ``--stream-json`` output follows
Claude Code's stream-json and is read by the ``claude_code`` adapter.

>>> thread = {"v": 3, "id": "T-1", "created": 1767312000000, "title": "Hi", "messages": [
...     {"role": "user", "messageId": 0, "content": [{"type": "text", "text": "hi"}]},
...     {"role": "assistant", "messageId": 1, "content": [{"type": "text", "text": "Hello."}],
...      "usage": {"model": "claude-sonnet-4-5", "inputTokens": 9, "outputTokens": 3}}]}
>>> import json
>>> messages = list(iter_decode([json.dumps(thread)]))
>>> [(m.kind, m.session_id) for m in messages]
[('init', 'T-1'), ('user', 'T-1'), ('assistant', 'T-1')]
>>> messages[2].model, messages[2].usage.input_tokens
('claude-sonnet-4-5', 9)
>>> json.loads(next(iter_encode(messages))) == thread
True
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.jsontext import dump_compact
from ..._core.wire import fail
from ...convert import messages_to_turn
from ...errors import DecodeError
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _base
from .. import _events as ev
from .._base import whole_messages as merge
from .._common import refuse
from .._common import refuse_content
from .._common import refuse_record
from .thread import decode_entry
from .thread import decode_header
from .thread import encode_entry
from .thread import encode_header
from .thread import is_thread

__all__ = ["NAME", "READ_ONLY", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "amp"
"""The source name of this adapter."""

READ_ONLY: Final = True
"""``messages convert --to amp`` is refused: thread files are Amp's own store."""

_HEADER: Final = "messages"
"""A header read from a whole thread keeps ``messages: []``, where its entries go back."""


def _decode(obj: Any) -> Message:
    """A thread header, or an entry, to one message; a whole thread is kept whole."""
    if type(obj) is not dict:
        raise fail("an object", obj)
    if is_thread(obj):
        if type(obj.get("messages")) is list and obj["messages"]:
            return ev.raw_line(obj)  # iter_decode opens it
        return decode_header(obj)
    if "role" in obj:
        return decode_entry(obj)
    return ev.raw_line(obj)


def decode(obj: Any) -> Message:
    """One thread header or entry to one message (the value is copied first).

    A whole thread is many messages: :func:`iter_decode` reads it; here it is kept whole.
    """
    return ev.decoding(_decode, obj, NAME)


def _expand(obj: dict[str, Any]) -> list[Message]:
    """A whole thread as its header and one message per entry (a bad entry: DecodeError)."""
    header = {k: v for k, v in obj.items() if k != "messages"}
    header[_HEADER] = []
    head = decode_header(header)
    out: list[Message] = [head]
    for i, entry in enumerate(obj["messages"]):
        try:
            if type(entry) is not dict:
                raise fail("an object", entry)
            out.append(decode_entry(entry, head.session_id))
        except DecodeError as exc:
            exc.path = f"$.messages[{i}]" + exc.path.removeprefix("$")
            raise
    return out


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """A thread file's header and entries, lazily (the file is one JSON document)."""
    opened: dict[int, list[Message]] = {}

    def read(obj: Any) -> Message:
        if type(obj) is dict and is_thread(obj) and type(obj.get("messages")) is list:
            found = _expand(obj)
            marker = RawMessage(None)
            opened[id(marker)] = found
            return marker
        return _decode(obj)

    for message in _base.iter_decode(read, lines, source=NAME, strict=strict):
        found = opened.pop(id(message), None)
        if found is not None:
            yield from found
        else:
            yield message


def _is_header(m: Message) -> bool:
    return isinstance(m, InitMessage) and _HEADER in m.extra


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a thread header or entry (a fresh dict): ``encode(decode(x)) == x``."""
    return thaw(_encode(message, Policy(unsupported, NAME)))


def _encode(m: Message, policy: Policy) -> Any:
    if isinstance(m, InitMessage):
        if m.tools is not None or m.model is not None or m.cwd is not None:
            refuse(m, "an Amp thread header has no tools, model or cwd", policy, degrade=False)
        return encode_header(m)
    if isinstance(m, UserMessage | AssistantMessage):
        return encode_entry(m, policy)
    if isinstance(m, RawMessage) and m.role is None and isinstance(m.data, FrozenDict):
        return raw(m.data)
    if getattr(m, "role", None) is not None and not isinstance(m, RawMessage | InvalidLineMessage):
        turn = messages_to_turn([m])  # type: ignore[list-item]  # a flat message: one block
        left = policy.left_out
        if isinstance(turn, UserMessage | AssistantMessage):
            out = encode_entry(turn, policy)
            return None if policy.left_out > left and not out["content"] else out
        if isinstance(turn, ToolMessage):  # Amp gives tool results in the user's entry
            return encode_entry(UserMessage(turn.content, message_id=turn.message_id), policy)
        refuse(m, f"an Amp thread has no {turn.role} entries", policy, degrade=False)
        return None
    if isinstance(m, RawMessage) and m.role is not None:
        return refuse_content(m, "an Amp thread has no entry for raw content", policy, _encode)
    refuse_record(m, "an Amp thread has no entry", policy)
    return None


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages as thread lines: a header and the entries after it make one thread."""
    policy = Policy(unsupported, NAME)
    thread: dict[str, Any] | None = None
    for m in messages:
        if isinstance(m, InvalidLineMessage):
            if thread is not None:
                yield dump_compact(thread)
                thread = None
            yield m.text
            continue
        if _is_header(m):
            if thread is not None:
                yield dump_compact(thread)
            thread = thaw(_encode(m, policy))
            continue
        out = thaw(_encode(m, policy))
        if out is None:
            continue
        if thread is not None and isinstance(m, UserMessage | AssistantMessage):
            thread[_HEADER].append(out)
        else:
            if thread is not None:
                yield dump_compact(thread)
                thread = None
            yield dump_compact(out)
    if thread is not None:
        yield dump_compact(thread)


def detect(obj: Any) -> bool:
    """Whether a parsed value is an Amp thread (or its header): ``id`` ``T-...``."""
    return is_thread(obj)
