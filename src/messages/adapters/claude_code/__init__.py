"""Claude Code ``claude -p --output-format stream-json --verbose`` lines, and session transcripts.

One JSON object per line, dispatched on its ``type``:

- ``assistant`` -> :class:`AssistantMessage` (blocks through the Anthropic block codec, usage,
  stop reason, ``error``); ``user`` -> :class:`UserMessage`;
- ``result`` -> :class:`ResultMessage`; ``system``/``init`` -> :class:`InitMessage`;
- ``stream_event`` -> :class:`StreamEventMessage`;
- other ``system`` subtypes, ``rate_limit_event`` and ``conversation_reset`` -> the agent
  events of :mod:`messages.events.agent`; a transcript's ``progress``,
  ``file-history-snapshot``, ``summary`` and ``queue-operation`` lines -> the records of
  :mod:`messages.events.records`;
- every other line (``control_request``, ``control_response``, recorder lines, unknown
  types) -> :class:`RawMessage` holding the line verbatim, with its context fields filled in.

Session transcripts (``~/.claude/projects/*/*.jsonl``) use the same records with camelCase
context (``sessionId``, ``parentUuid``, ``isSidechain``...); they are recognised by their
``sessionId`` key, which stays in ``extra`` and is also read into ``session_id``.

The line's ``type`` always stays in ``extra``; so does everything not modelled (for role
messages the unmodelled keys of the nested ``message`` object live in ``extra["message"]``).
``decode`` takes over the object it is given (nested values are shared, not copied): pass it
a freshly parsed line and do not change that object afterwards. See docs/adapters/claude_code.md.

>>> import json
>>> line = '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"4"}]}}'
>>> m = decode(json.loads(line))
>>> m.text, m.message_id
('4', 'msg_1')
>>> encode(m) == json.loads(line)
True
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from .. import _base
from .._common import plain
from .._qwen_shape import is_qwen_record
from .._stream_json import cursor_shaped
from .decoder import decode
from .output import is_output

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

NAME: Final = "claude_code"
"""The format name used in errors and by the command line."""

_LINE_TYPES: Final = frozenset(
    (
        "rate_limit_event",
        "conversation_reset",
        "control_request",
        "control_response",
        "control_cancel_request",
        "keep_alive",
        "tool_progress",
        "auth_status",
    )
)


def detect(obj: Any) -> bool:
    """Whether a parsed line looks like Claude Code output (stream-json or transcript).

    Qwen Code's chat records share the transcript's keys (``uuid``, ``parentUuid``,
    ``sessionId``): one that holds Gemini parts or a key only Qwen Code writes is refused.
    The JSON array of ``--output-format json --verbose`` is claimed when each of its items
    would be, as a line.
    """
    if is_output(obj):
        return all(detect(item) for item in obj)
    if type(obj) is not dict or _base.is_native(obj) or is_qwen_record(obj):
        return False
    tag = obj.get("type")
    if type(tag) is str and cursor_shaped(obj, tag):  # Cursor CLI borrows these types
        return False
    if tag in ("assistant", "user"):
        return type(obj.get("message")) is dict
    if tag == "system":
        return "subtype" in obj
    if tag == "result":
        return "subtype" in obj or "is_error" in obj
    if tag == "stream_event":
        return "event" in obj
    if type(tag) is str and tag in _LINE_TYPES:  # a list or object type is unhashable
        return True
    if tag == "summary":
        return "leafUuid" in obj
    if tag == "progress":
        return type(obj.get("data")) is dict
    if tag == "file-history-snapshot":
        return "snapshot" in obj and "messageId" in obj
    if tag == "queue-operation":
        return "operation" in obj
    return type(tag) is str and "sessionId" in obj and "parentUuid" in obj


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode Claude Code lines lazily; bad lines become InvalidLineMessage unless ``strict``.

    The JSON array ``--output-format json --verbose`` writes gives its items, each marked with
    its index in ``extra["$output"]`` (``iter_encode`` writes them back as the array).
    """
    return _base.iter_decode(decode, lines, source=NAME, strict=strict)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join consecutive assistant records that share a ``message.id`` into one message."""
    return _base.merge_deltas(messages, is_delta=lambda m: False)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh Claude Code line object; ``encode(decode(x)) == x``.

    Messages from other sources become the closest line (see docs/adapters/claude_code.md);
    content Claude Code cannot carry raises :class:`UnsupportedContentError` unless
    ``unsupported`` is ``"drop"`` (the result may then be ``None``: nothing to write) or
    ``"text"``.
    """
    return plain(_encode_message(message, Policy(unsupported, NAME)))


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages to Claude Code lines (without line endings); dropped messages write nothing.

    The items of a JSON array read by :func:`iter_decode` are written back as that array.
    """
    return _encode_lines(messages, unsupported)


# The encoder (and json, for lines) loads on the first encode: a program that only decodes
# does not pay for it. Each name below starts as a loader that binds the real function into
# this module's globals, so later calls cost what a direct import would.


def _load_encode_message(message: Message, policy: Policy) -> Any:
    from .encoder import encode_message

    globals()["_encode_message"] = encode_message
    return encode_message(message, policy)


def _load_encode_lines(messages: Iterable[Message], unsupported: Unsupported) -> Iterator[str]:
    from .encoder import encode_lines

    globals()["_encode_lines"] = encode_lines
    return encode_lines(messages, unsupported)


_encode_message: Callable[[Message, Policy], Any] = _load_encode_message
_encode_lines: Callable[[Iterable[Message], Unsupported], Iterator[str]] = _load_encode_lines
