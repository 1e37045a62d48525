"""What every agent CLI adapter shares: reading lines leniently or strictly.

A line is decoded strictly (:mod:`messages._core.jsontext`), then handed, owned, to the
adapter's decoder. Blank lines are skipped. A JSON document written over several lines (a
pretty-printed object) is read as one record, numbered by its first line (:func:`gather`).
In lenient mode (the default) a line that is not
JSON, or that the adapter rejects, becomes an :class:`InvalidLineMessage` carrying the line,
the reason and the line number, and reading goes on; in strict mode it raises
:class:`DecodeError` with ``line`` set.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from itertools import chain
from typing import Any
from typing import Final

from .._core.frozen import limits_in_force
from ..errors import DecodeError
from ..events.run import InvalidLineMessage
from ..message import Message

__all__ = [
    "MAX_DOCUMENT_LINES",
    "Document",
    "gather",
    "is_native",
    "line_type",
    "iter_decode",
    "load_line",
    "light",
    "owned",
    "register_light",
    "register_owned",
    "merge_deltas",
    "opens_document",
    "whole_messages",
]

_BLANKS: Final = " \t\n\r\x0b\x0c"
"""What ``bytes.strip()`` removes: the blanks around a line, for str and bytes lines alike."""


def scan_strict(text: str, index: int) -> tuple[Any, int]:
    """:func:`messages._core.jsontext.scan_strict`, bound here on first use.

    Importing the JSON readers imports ``json``; an adapter module is imported long before
    its first line is read, so the binding waits for that line.
    """
    from .._core.jsontext import scan_strict as scan

    globals()["scan_strict"] = scan
    return scan(text, index)


def load_strict(text: str | bytes, *, first_line: int | None = None) -> Any:
    """:func:`messages._core.jsontext.load_strict`, bound here on first use."""
    from .._core.jsontext import load_strict as load

    globals()["load_strict"] = load
    return load(text, first_line=first_line)


def is_native(obj: Any) -> bool:
    """Whether a parsed line is this library's own JSON: ``"v"`` (1 or 2) and a string ``"kind"``.

    The one test for native lines: :func:`messages.adapters.detect` and the ``native``
    adapter claim them, and no agent CLI adapter does.
    """
    if type(obj) is not dict or type(obj.get("kind")) is not str:
        return False
    from ..serialize import READ_VERSIONS  # lazy: serialize (and json) cost import time

    return obj.get("v") in READ_VERSIONS


def line_type(obj: Any) -> str | None:
    """The ``type`` of a parsed line an agent format may claim, or ``None``.

    A string, on an object that is not this library's own line (:func:`is_native`); a list
    or object ``type`` is not hashable, so a detector could not look it up.
    """
    if type(obj) is not dict or is_native(obj):
        return None
    tag = obj.get("type")
    return tag if type(tag) is str else None


def load_line(line: str | bytes, *, max_line: int | None = None) -> Any:
    """Parse one line of JSON strictly; every failure is a :class:`DecodeError`.

    The common case (a whole, valid UTF-8 object) goes straight to the C scanner; anything
    else (surrounding whitespace, other encodings, errors) takes the ``json.loads`` path.
    """
    if max_line is None:
        max_line = limits_in_force().max_line
    if len(line) > max_line:
        raise DecodeError(f"line is longer than {max_line} characters", value=line[:40])
    try:
        text = line if type(line) is str else line.decode("utf-8")  # type: ignore[union-attr]
        value, end = scan_strict(text, 0)
        if end == len(text):
            return value
    except (StopIteration, ValueError, RecursionError):
        pass
    return load_strict(line)


def _text_of(line: str | bytes) -> str:
    if isinstance(line, bytes):
        return line.decode("utf-8", errors="replace")
    return line


_TOKENS: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[][{}]|"')
"""Strings, brackets, and a lone quote (a string that does not end on its line)."""
_SHIFT: Final = {"{": 1, "[": 1, "}": -1, "]": -1}
MAX_DOCUMENT_LINES: Final = 1_000_000
"""Most lines one multi-line JSON document may span (it is also held to ``max_line``)."""


def _shift(text: str) -> int | None:
    """How much a line of JSON text opens (or closes) brackets; ``None`` for a broken string.

    JSON strings never span lines, so a line of a pretty-printed document starts outside
    any string: counting the brackets outside strings is enough to find the document's end.
    """
    depth = 0
    shift = _SHIFT
    for token in _TOKENS.findall(text):
        step = shift.get(token)
        if step is not None:
            depth += step
        elif token == '"':
            return None
    return depth


def _standalone(text: str) -> bool:
    """Whether an unindented line holds a whole JSON object by itself (a new JSONL record)."""
    if not text.startswith("{"):
        return False
    try:
        value, end = scan_strict(text, 0)
    except (StopIteration, ValueError, RecursionError):
        return False
    return end == len(text) and type(value) is dict


class Document:
    """What :func:`gather` found after a line that opens a JSON document but does not end it.

    ``text`` is the document's lines joined (``None`` when the lines after the first are not
    the rest of one: the first line is then bad on its own); ``lines`` the lines read ahead
    (to give back when ``text`` is ``None``); ``value`` the parsed document, or ``error``
    why it is not JSON although its brackets balance (one error for the whole document).
    """

    __slots__ = ("error", "lines", "text", "value")

    def __init__(self) -> None:
        self.text: str | None = None
        self.lines: list[str | bytes] = []
        self.value: Any = None
        self.error: DecodeError | None = None


def opens_document(first: str) -> bool:
    """Whether a line that is not JSON by itself may start a multi-line document."""
    if not first.startswith(("{", "[")):
        return False
    shift = _shift(first)
    return shift is not None and shift > 0


def gather(first: str, rest: Iterator[str | bytes], number: int, max_size: int) -> Document:
    """Read ahead from ``rest`` for the end of a JSON document that ``first`` opens.

    ``first`` (stripped, on file line ``number``) must satisfy :func:`opens_document`. Lines
    are taken until the brackets balance; the joined text is then parsed strictly (an error
    names the file line and column). Reading ahead stops, giving the lines back, at a line
    that cannot belong to a document (a broken string, more closing than opening brackets, an
    unindented line that is a whole JSON object by itself), or past ``max_size`` characters or
    :data:`MAX_DOCUMENT_LINES` lines. When the input ends first, after lines that all fit, the
    document was cut short (a file still being written): ``text`` holds its lines and
    ``error`` says so, so it is one bad record, not one per line.
    """
    found = Document()
    texts = [first]
    depth = _shift(first) or 0
    size = len(first)
    for line in rest:
        found.lines.append(line)
        try:
            text = line if type(line) is str else line.decode("utf-8")  # type: ignore[union-attr]
        except UnicodeDecodeError:
            return found
        text = text.rstrip("\r\n")
        size += len(text) + 1
        shift = _shift(text)
        if shift is None and size <= max_size:  # a broken string: the input's cut last line?
            ahead = next(rest, None)
            if ahead is None:
                texts.append(text)
                break
            found.lines.append(ahead)
            return found
        if (
            shift is None
            or size > max_size
            or len(texts) >= MAX_DOCUMENT_LINES
            or _standalone(text)
        ):
            return found
        texts.append(text)
        depth += shift
        if depth < 0:
            return found
        if depth == 0:
            found.text = "\n".join(texts)
            try:
                found.value = load_strict(found.text, first_line=number)
            except DecodeError as exc:
                found.error = exc
            return found
    if len(texts) > 1:  # every line fitted, and the input ended first: a document cut short
        found.text = "\n".join(texts)
        found.error = DecodeError(
            f"the JSON document that starts here ends {depth} bracket(s) short"
            " (cut off, or still being written)",
            value=first[:40],
        )
    return found


_OWNED: Final[dict[Any, Any]] = {}
"""A decoder's variant for objects nobody else holds (see :func:`register_owned`)."""


def register_owned(decode: Callable[[Any], Any], owned: Callable[[Any], Any]) -> None:
    """Have :func:`iter_decode` call ``owned`` in place of ``decode``.

    ``owned`` must give what ``decode`` gives; it may take over the object it is given
    (change it, keep it), since :func:`iter_decode` parses each line itself and drops the
    object once decoded.
    """
    _OWNED[decode] = owned


_LIGHT: Final[dict[Any, Any]] = {}
"""A decoder's reading of its lines that count for little (see :func:`register_light`)."""


def register_light(decode: Callable[[Any], Any], fields: Callable[[Any], Any]) -> None:
    """Have :func:`light` give ``fields`` for ``decode``.

    ``fields(obj)`` is ``(session_id, timestamp, cwd)`` for a parsed line that ``decode``
    makes a record of that counts only for its session, time and working folder (Claude
    Code's usual ``progress`` line), and ``None`` for any other line; it must not change
    ``obj``. ``messages stats`` reads such lines with it instead of decoding them.
    """
    _LIGHT[decode] = fields


def light(decode: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, Any, Any] | None] | None:
    """What :func:`register_light` registered for ``decode``, or ``None``."""
    found: Callable[[Any], tuple[Any, Any, Any] | None] | None = _LIGHT.get(decode)
    return found


def owned(decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The variant of ``decode`` that :func:`iter_decode` calls (see :func:`register_owned`).

    For a reader that parses lines itself and gives each parsed object up to the decoder.
    """
    found: Callable[[Any], Any] = _OWNED.get(decode, decode)
    return found


def iter_decode(
    decode: Callable[[Any], Message | tuple[Message, ...]],
    lines: Iterable[str | bytes],
    *,
    source: str,
    strict: bool = False,
    max_line: int | None = None,
) -> Iterator[Message]:
    """Decode lines with ``decode``; bad lines become InvalidLineMessage (or raise if strict).

    A JSON document written over several lines (pretty-printed, as Gemini CLI's
    ``--output-format json`` and some recorders write) is read as one record, numbered by
    its first line (see :func:`gather`). ``decode`` may give a tuple of messages for a record
    that holds several (Gemini CLI's JSON document); they are given in order. ``max_line``
    (default: the limit in force, see :mod:`messages.limits`) bounds a line and a document
    alike.
    """
    if max_line is None:
        max_line = limits_in_force().max_line
    from .._core.jsontext import fast_load as fast
    from .._core.jsontext import scan_strict as scan

    decode = _OWNED.get(decode, decode)  # the lines below are parsed here: owned

    remaining: Iterator[str | bytes] = iter(lines)
    number = 0
    message: Message | tuple[Message, ...]
    while True:
        for line in remaining:
            number += 1
            # the ASCII blanks bytes.strip() takes, for str lines too (str.strip() would also
            # take control characters such as \x1f, which the bytes path reports as bad JSON)
            stripped = line.strip(_BLANKS) if isinstance(line, str) else line.strip()
            obj: Any = None
            if len(stripped) <= max_line and (fast is not None or type(stripped) is str):
                # The usual line, as few steps as possible: this loop is the hot one.
                end = -1
                if fast is not None:
                    try:  # the fast extra; what it refuses, the standard library decides
                        obj = fast(stripped)
                        end = len(stripped)
                    except Exception:
                        pass
                if end < 0 and type(stripped) is str:
                    try:
                        obj, end = scan(stripped, 0)
                    except (StopIteration, ValueError, RecursionError):
                        end = -1
                if end == len(stripped):
                    try:
                        message = decode(obj)
                    except DecodeError as exc:
                        message = _invalid(exc, number, line, source, strict)
                    if type(message) is tuple:  # a record that holds several messages
                        yield from message
                    else:
                        yield message  # type: ignore[misc]
                    continue
            if not stripped:
                continue
            parsed = False
            if len(stripped) <= max_line:  # load_line's fast path, inlined
                try:
                    text = stripped if type(stripped) is str else stripped.decode("utf-8")  # type: ignore[union-attr]
                    obj, end = scan(text, 0)
                    parsed = end == len(text)
                except (StopIteration, ValueError, RecursionError):
                    pass
            first = number
            shown = line
            doc = None if parsed else _document(stripped, remaining, number, max_line)
            try:
                if doc is not None and doc.text is not None:  # a multi-line document
                    number += len(doc.lines)
                    shown = doc.text
                    if doc.error is not None:
                        raise doc.error
                    obj = doc.value
                elif not parsed:
                    obj = load_line(stripped, max_line=max_line)
                message = decode(obj)
            except DecodeError as exc:
                message = _invalid(exc, first, shown, source, strict)
            if isinstance(message, tuple):  # a record that holds several messages (see decode)
                yield from message
            else:
                yield message
            if doc is not None and doc.text is None and doc.lines:
                # no document after all: read the lines taken ahead again, one by one
                remaining = chain(doc.lines, remaining)
                break
        else:
            return


def _invalid(
    exc: DecodeError, line: int, shown: str | bytes, source: str, strict: bool
) -> InvalidLineMessage:
    """The InvalidLineMessage for a record ``decode`` refused (raised again when ``strict``)."""
    exc.line = line
    if exc.source is None:
        exc.source = source
    if strict:
        raise exc
    return InvalidLineMessage(
        _text_of(shown).rstrip("\r\n"), reason=f"{exc.path}: {exc.reason}", line=line
    )


def _document(
    stripped: str | bytes, lines: Iterator[str | bytes], number: int, max_line: int
) -> Document | None:
    """The document a line that is not JSON by itself opens, or ``None`` if it opens none."""
    if len(stripped) > max_line:
        return None
    try:
        text = stripped if isinstance(stripped, str) else stripped.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not opens_document(text):
        return None
    return gather(text, lines, number, max_line)


def whole_messages(messages: Iterable[Message]) -> Iterator[Message]:
    """The messages as they are, lazily: each record is a whole message, nothing to join.

    The ``merge`` of every format that writes whole messages and no fragments (each module
    imports it under that name).
    """
    return iter(messages)


def _same_stream(a: Message, b: Message) -> bool:
    return (
        getattr(a, "role", None) == getattr(b, "role", None)
        and a.message_id == b.message_id
        and a.session_id == b.session_id
        and a.parent_tool_use_id == b.parent_tool_use_id
    )


def merge_deltas(
    messages: Iterable[Message], *, is_delta: Callable[[Message], bool]
) -> Iterator[Message]:
    """Join runs of fragments into whole messages, lazily, keeping everything else in order.

    - Consecutive :class:`TextMessage` (or :class:`ThinkingMessage`) fragments for which
      ``is_delta`` is true, with the same role, message_id, session_id and
      parent_tool_use_id, become one message whose text is their concatenation (context and
      extra from the first fragment; a thinking signature from the last that has one).
    - Consecutive :class:`AssistantMessage` records that share a non-``None`` message_id
      (Claude Code writes one line per block) become one message with all their blocks;
      usage, stop reason and error come from the last record that has them. Stream events
      between two such records (Claude Code's ``--include-partial-messages`` previews the
      next block before its line) do not keep them apart: they are given right after the
      joined message, in their order.
    """
    from dataclasses import replace

    from ..events.run import StreamEventMessage
    from ..flat import TextMessage
    from ..flat import ThinkingMessage
    from ..roles import AssistantMessage
    from ..roles import as_blocks

    pending: Message | None = None
    parts: list[str] = []
    signature: str | None = None
    held: list[Message] = []  # stream events after a pending assistant record

    def flush() -> Message | None:
        if pending is None:
            return None
        if isinstance(pending, TextMessage) and len(parts) > 1:
            return replace(pending, text="".join(parts))
        if isinstance(pending, ThinkingMessage) and (len(parts) > 1 or signature):
            return replace(pending, thinking="".join(parts), signature=signature)
        return pending

    for message in messages:
        if (
            isinstance(message, StreamEventMessage)
            and isinstance(pending, AssistantMessage)
            and pending.message_id is not None
        ):
            held.append(message)
            continue
        if pending is not None:
            if (
                isinstance(message, (TextMessage, ThinkingMessage))
                and type(message) is type(pending)
                and is_delta(message)
                and is_delta(pending)
                and _same_stream(pending, message)
            ):
                parts.append(message.text if isinstance(message, TextMessage) else message.thinking)
                if isinstance(message, ThinkingMessage) and message.signature:
                    signature = message.signature
                continue
            if (
                isinstance(message, AssistantMessage)
                and isinstance(pending, AssistantMessage)
                and message.message_id is not None
                and message.message_id == pending.message_id
                and message.session_id == pending.session_id
            ):
                pending = replace(
                    pending,
                    content=as_blocks(pending.content) + as_blocks(message.content),
                    usage=message.usage if message.usage is not None else pending.usage,
                    stop_reason=message.stop_reason or pending.stop_reason,
                    error=message.error or pending.error,
                )
                continue
            done = flush()
            if done is not None:
                yield done
            yield from held
            held = []
        pending = message
        parts = []
        signature = None
        if isinstance(message, TextMessage):
            parts = [message.text]
        elif isinstance(message, ThinkingMessage):
            parts = [message.thinking]
            signature = message.signature
    done = flush()
    if done is not None:
        yield done
    yield from held
