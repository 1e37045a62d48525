"""What every agent CLI adapter shares: reading lines leniently or strictly.

A line is decoded strictly (:mod:`messages._core.jsontext`), then handed, owned, to the
adapter's decoder. Blank lines are skipped. In lenient mode (the default) a line that is not
JSON, or that the adapter rejects, becomes an :class:`InvalidLineMessage` carrying the line,
the reason and the line number, and reading goes on; in strict mode it raises
:class:`DecodeError` with ``line`` set.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from .._core.jsontext import load_strict
from .._core.jsontext import scan_strict
from ..errors import DecodeError
from ..limits import current_limits
from ..message import Message
from ..session import InvalidLineMessage

__all__ = ["is_native", "iter_decode", "load_line", "merge_deltas"]


def is_native(obj: Any) -> bool:
    """Whether a parsed line is this library's own JSON: ``"v": 1`` and a string ``"kind"``.

    The one test for native lines: :func:`messages.adapters.detect` and the ``native``
    adapter claim them, and no agent CLI adapter does.
    """
    return type(obj) is dict and obj.get("v") == 1 and type(obj.get("kind")) is str


def load_line(line: str | bytes, *, max_line: int | None = None) -> Any:
    """Parse one line of JSON strictly; every failure is a :class:`DecodeError`.

    The common case (a whole, valid UTF-8 object) goes straight to the C scanner; anything
    else (surrounding whitespace, other encodings, errors) takes the ``json.loads`` path.
    """
    if max_line is None:
        max_line = current_limits().max_line
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


def iter_decode(
    decode: Callable[[Any], Message],
    lines: Iterable[str | bytes],
    *,
    source: str,
    strict: bool = False,
    max_line: int | None = None,
) -> Iterator[Message]:
    """Decode lines with ``decode``; bad lines become InvalidLineMessage (or raise if strict).

    ``max_line`` defaults to the limit in force (:mod:`messages.limits`).
    """
    if max_line is None:
        max_line = current_limits().max_line
    scan = scan_strict
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        obj: Any = None
        parsed = False
        if len(stripped) <= max_line:  # load_line's fast path, inlined: this loop is hot
            try:
                text = stripped if type(stripped) is str else stripped.decode("utf-8")  # type: ignore[union-attr]
                obj, end = scan(text, 0)
                parsed = end == len(text)
            except (StopIteration, ValueError, RecursionError):
                pass
        try:
            if not parsed:
                obj = load_line(stripped, max_line=max_line)
            message = decode(obj)
        except DecodeError as exc:
            exc.line = number
            if exc.source is None:
                exc.source = source
            if strict:
                raise
            yield InvalidLineMessage(
                _text_of(line).rstrip("\r\n"), reason=f"{exc.path}: {exc.reason}", line=number
            )
            continue
        yield message


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

    from ..flat import TextMessage
    from ..flat import ThinkingMessage
    from ..roles import AssistantMessage
    from ..roles import as_blocks
    from ..session import StreamEventMessage

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
