"""Reassembling a streamed OpenAI Responses reply (private to ``openai_responses``).

The rules follow the official SDK: output items are kept by ``output_index``, their parts by
``content_index`` / ``summary_index``; deltas are appended, ``*.done`` events and
``response.output_item.done`` replace, and the response object of the terminal event
(``response.completed``, ``.incomplete``, ``.failed``) is authoritative.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.wire import fail
from ..._core.wire import type_name
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...roles import AssistantMessage
from .._common import owned_event
from .._common import with_source
from .._partial import parse_partial

__all__ = ["ResponsesAccumulator"]

_SOURCE: Final = "openai_responses"
_LIFECYCLE: Final = frozenset(("response.created", "response.in_progress", "response.queued"))
_TERMINAL: Final = frozenset(("response.completed", "response.incomplete", "response.failed"))


def _int(ev: dict[str, Any], key: str) -> int:
    v = ev.get(key)
    if type(v) is not int or v < 0:
        raise fail("a non-negative integer", v, key)
    return v


def _str(ev: dict[str, Any], key: str) -> str:
    v = ev.get(key)
    if type(v) is not str:
        raise fail("a string", v, key)
    return v


def _obj(ev: dict[str, Any], key: str) -> dict[str, Any]:
    v = ev.get(key)
    if type(v) is not dict:
        raise fail("an object", v, key)
    return v


def _slot(seq: list[Any], index: int, value: Any, key: str) -> None:
    if index < len(seq):
        seq[index] = value
    elif index == len(seq):
        seq.append(value)
    else:
        raise DecodeError(f"index {index} skips past the {len(seq)} known so far", path=f"$.{key}")


def _list(item: dict[str, Any], key: str) -> list[Any]:
    seq = item.setdefault(key, [])
    if type(seq) is not list:
        raise DecodeError(f"the item's {key} is {type_name(seq)}, not an array", path="$.item_id")
    return seq


class ResponsesAccumulator:
    """Feeds on parsed stream events (see ``openai_responses.accumulator``)."""

    def __init__(self, decode: Callable[[Mapping[str, Any]], AssistantMessage]) -> None:
        self._decode = decode
        self._response: dict[str, Any] | None = None
        self._final: dict[str, Any] | None = None
        self._error: dict[str, Any] | None = None
        self._items: dict[int, dict[str, Any]] = {}
        self.events = 0
        """How many events were fed."""
        self.ignored = 0
        """How many of them carried nothing to reassemble (progress events, unknown types)."""

    # ------------------------------------------------------------------------------ feeding

    def feed(self, event: Any) -> None:
        """Take the next event, a parsed ``data:`` object (its ``type`` names the event)."""
        try:
            ev = owned_event(event, _SOURCE)
            self.events += 1
            tag = ev.get("type")
            handler = _HANDLERS.get(tag) if type(tag) is str else None
            if handler is None:
                self.ignored += 1
            else:
                handler(self, ev)
        except DecodeError as exc:
            raise with_source(exc, _SOURCE) from None

    def _item(self, ev: dict[str, Any]) -> dict[str, Any]:
        index = _int(ev, "output_index")
        item = self._items.get(index)
        if item is None:
            raise DecodeError(f"no output item at index {index} yet", path="$.output_index")
        return item

    def _part(self, ev: dict[str, Any], key: str, index_key: str, tag: str) -> dict[str, Any]:
        seq = _list(self._item(ev), key)
        index = _int(ev, index_key)
        if index == len(seq):  # a delta whose part.added event never came: start the part
            seq.append({"type": tag})
        elif index > len(seq):
            raise DecodeError(f"no part at index {index} yet", path=f"$.{index_key}")
        part = seq[index]
        if type(part) is not dict:
            raise DecodeError(f"the part at {index} is not an object", path=f"$.{index_key}")
        return part

    def _lifecycle(self, ev: dict[str, Any]) -> None:
        self._response = _obj(ev, "response")

    def _terminal(self, ev: dict[str, Any]) -> None:
        self._final = _obj(ev, "response")

    def _error_event(self, ev: dict[str, Any]) -> None:
        self._error = ev

    def _item_event(self, ev: dict[str, Any]) -> None:
        self._items[_int(ev, "output_index")] = _obj(ev, "item")

    def _content_part(self, ev: dict[str, Any]) -> None:
        seq = _list(self._item(ev), "content")
        _slot(seq, _int(ev, "content_index"), _obj(ev, "part"), "content_index")

    def _summary_part(self, ev: dict[str, Any]) -> None:
        seq = _list(self._item(ev), "summary")
        _slot(seq, _int(ev, "summary_index"), _obj(ev, "part"), "summary_index")

    def _annotation(self, ev: dict[str, Any]) -> None:
        part = self._part(ev, "content", "content_index", "output_text")
        notes = _list(part, "annotations")
        _slot(notes, _int(ev, "annotation_index"), _obj(ev, "annotation"), "annotation_index")

    def _append(self, ev: dict[str, Any], where: str, key: str, field: str, done: bool) -> None:
        if where == "item":
            target = self._item(ev)
        else:
            seq_key, index_key, tag = _WHERE[where]
            target = self._part(ev, seq_key, index_key, tag)
        value = _str(ev, field)
        if done:
            target[key] = value
        else:
            before = target.get(key, "")
            target[key] = (before if type(before) is str else "") + value

    # ----------------------------------------------------------------------------- results

    def _body(self) -> dict[str, Any]:
        base = dict(self._final if self._final is not None else self._response or {})
        if self._final is None or "output" not in base:
            base["output"] = [self._items[i] for i in sorted(self._items)]
        return base

    def snapshot(self) -> AssistantMessage:
        """The message so far; tool arguments parsed as far as they are valid JSON."""
        body = self._body()
        try:
            message = self._decode(body)
        except DecodeError:
            message = self._lenient(body)
        content = tuple(_partial_call(b) for b in message.blocks)
        return replace(message, content=content)

    def _lenient(self, body: dict[str, Any]) -> AssistantMessage:
        blocks: list[Block] = []
        for item in body.get("output", []):
            try:
                blocks.extend(self._decode({"output": [item]}).blocks)
            except DecodeError:
                blocks.append(RawBlock(item))
        return AssistantMessage(tuple(blocks))

    def message(self) -> AssistantMessage:
        """The whole reply: the terminal event's response, decoded.

        After an ``error`` event instead, the partial message with ``error`` set to the
        event's code and ``stop_reason="failed"``. Raises :class:`DecodeError` if the stream
        has neither.
        """
        if self._final is not None:
            return self._decode(self._body())
        if self._error is not None:
            code = self._error.get("code")
            return replace(
                self.snapshot(),
                error=code if type(code) is str else "error",
                stop_reason="failed",
            )
        raise DecodeError(
            "the stream has not finished: no response.completed, response.incomplete, "
            "response.failed or error event",
            source=_SOURCE,
        )


def _partial_call(block: Block) -> Block:
    if isinstance(block, ToolUseBlock) and block.arguments and not block.input:
        parsed = parse_partial(block.arguments)
        if isinstance(parsed, dict) and parsed:
            return replace(block, input=parsed)
    return block


_WHERE: Final = {
    "content": ("content", "content_index", "output_text"),
    "refusal": ("content", "content_index", "refusal"),
    "reasoning": ("content", "content_index", "reasoning_text"),
    "summary": ("summary", "summary_index", "summary_text"),
}

_Handler = Callable[[ResponsesAccumulator, dict[str, Any]], None]


def _appender(where: str, key: str, field: str, done: bool) -> _Handler:
    def handle(self: ResponsesAccumulator, ev: dict[str, Any]) -> None:
        self._append(ev, where, key, field, done)

    return handle


_HANDLERS: Final[dict[Any, _Handler]] = {
    **{name: ResponsesAccumulator._lifecycle for name in _LIFECYCLE},
    **{name: ResponsesAccumulator._terminal for name in _TERMINAL},
    "error": ResponsesAccumulator._error_event,
    "response.output_item.added": ResponsesAccumulator._item_event,
    "response.output_item.done": ResponsesAccumulator._item_event,
    "response.content_part.added": ResponsesAccumulator._content_part,
    "response.content_part.done": ResponsesAccumulator._content_part,
    "response.reasoning_summary_part.added": ResponsesAccumulator._summary_part,
    "response.reasoning_summary_part.done": ResponsesAccumulator._summary_part,
    "response.output_text.annotation.added": ResponsesAccumulator._annotation,
    "response.output_text.delta": _appender("content", "text", "delta", False),
    "response.output_text.done": _appender("content", "text", "text", True),
    "response.refusal.delta": _appender("refusal", "refusal", "delta", False),
    "response.refusal.done": _appender("refusal", "refusal", "refusal", True),
    "response.reasoning_text.delta": _appender("reasoning", "text", "delta", False),
    "response.reasoning_text.done": _appender("reasoning", "text", "text", True),
    "response.reasoning_summary_text.delta": _appender("summary", "text", "delta", False),
    "response.reasoning_summary_text.done": _appender("summary", "text", "text", True),
    "response.function_call_arguments.delta": _appender("item", "arguments", "delta", False),
    "response.function_call_arguments.done": _appender("item", "arguments", "arguments", True),
    "response.custom_tool_call_input.delta": _appender("item", "input", "delta", False),
    "response.custom_tool_call_input.done": _appender("item", "input", "input", True),
}
