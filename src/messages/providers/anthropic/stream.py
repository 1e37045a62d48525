"""Reassembling an Anthropic Messages server-sent event stream into one AssistantMessage.

The accumulator rebuilds the ``Message`` body the stream describes and decodes it with
:func:`messages.providers.anthropic.decode_response`, so a finished stream gives exactly
what the non-streamed response would. Rules (from the API reference):

- ``message_start`` gives the message with empty content and the input usage;
- blocks are kept by ``index``: ``text_delta``/``thinking_delta`` append text,
  ``signature_delta`` sets the signature, ``citations_delta`` appends one citation,
  ``input_json_delta`` appends to a string buffer parsed at ``content_block_stop`` (an empty
  buffer is ``{}``); a delta of a type not listed here appends each string field to the
  field of the same name;
- ``message_delta`` sets the stop fields and overwrites usage counts (they are totals);
- ``message_stop`` ends the stream; ``error`` ends it too and sets ``error`` on the
  message; ``ping`` and event types this library does not know are ignored.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

from ..._core.jsontext import parse_arguments
from ..._core.slots import Slotted
from ..._core.wire import fail
from ..._core.wire import opt_obj
from ..._core.wire import req_str
from ..._core.wire import type_name
from ..._shapes import anthropic_blocks
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...roles import AssistantMessage
from ...roles import as_blocks
from .._common import owned_event
from .._formats import ANTHROPIC as NAME
from .._partial import parse_partial
from .decoder import decode_response

__all__ = ["AnthropicAccumulator"]


class AnthropicAccumulator(Slotted):
    """Feed it the parsed ``data`` object of each event, in order (see :func:`accumulator`)."""

    __slots__ = ("_bad", "_blocks", "_done", "_error", "_json", "_last", "_message")

    def __init__(self) -> None:
        self._message: dict[str, Any] = {}
        self._blocks: dict[int, dict[str, Any]] = {}
        self._json: dict[int, str] = {}
        """Tool input text of blocks still open."""
        self._bad: dict[int, str] = {}
        """Tool input text of closed blocks that is not a JSON object, kept as arguments."""
        self._done = False
        self._error: dict[str, Any] | None = None
        self._last = AssistantMessage()

    def feed(self, event: Any) -> None:
        """Take the next event; a malformed one raises DecodeError (path within the event)."""
        try:
            self._apply(owned_event(event, NAME, "an event object"))
        except DecodeError as exc:
            exc.source = NAME
            raise

    def _index(self, event: dict[str, Any], *, new: bool = False) -> int:
        index = event.get("index")
        if type(index) is not int:
            raise fail("an integer", index, "index")
        if not new and index not in self._blocks:
            raise DecodeError(
                f"expected a started content block, found none at index {index}",
                path="$.index",
                value=index,
            )
        return index

    def _apply(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "ping":
            return
        if self._done:
            raise DecodeError(
                f"expected no event after the end of the stream, found {kind!r}", path="$.type"
            )
        if kind == "message_start":
            message = event.get("message")
            if type(message) is not dict:
                raise fail("an object", message, "message")
            content = message.get("content")
            for i, block in enumerate(content if type(content) is list else ()):
                self._start(i, block, f".message.content[{i}]")
            self._message = {**message, "content": []}
        elif kind == "content_block_start":
            self._start(self._index(event, new=True), event.get("content_block"), ".content_block")
        elif kind == "content_block_delta":
            index = self._index(event)
            delta = event.get("delta")
            if type(delta) is not dict:
                raise fail("an object", delta, "delta")
            try:
                self._delta(self._blocks[index], index, delta)
            except DecodeError as exc:
                raise exc.within(".delta") from None
        elif kind == "content_block_stop":
            self._close(self._index(event))
        elif kind == "message_delta":
            self._message.update(opt_obj(event, "delta") or {})
            usage = opt_obj(event, "usage")
            if usage is not None:
                base = self._message.get("usage")
                self._message["usage"] = {**(base if type(base) is dict else {}), **usage}
        elif kind == "message_stop":
            self._finish()
        elif kind == "error":
            error = event.get("error")
            self._error = error if type(error) is dict else {"message": error}
            self._finish()

    def _start(self, index: int, block: Any, where: str) -> None:
        if type(block) is not dict:
            raise fail("an object", block, where[1:])
        try:
            anthropic_blocks.decode_block(block, NAME)
        except DecodeError as exc:
            raise exc.within(where) from None
        self._blocks[index] = block

    def _delta(self, block: dict[str, Any], index: int, delta: dict[str, Any]) -> None:
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = _text(block, "text") + req_str(delta, "text")
        elif kind == "thinking_delta":
            block["thinking"] = _text(block, "thinking") + req_str(delta, "thinking")
        elif kind == "signature_delta":
            block["signature"] = req_str(delta, "signature")
        elif kind == "input_json_delta":
            self._json[index] = self._json.get(index, "") + req_str(delta, "partial_json")
        elif kind == "citations_delta":
            citation = delta.get("citation")
            if type(citation) is not dict:
                raise fail("an object", citation, "citation")
            citations = block.get("citations")
            block["citations"] = [*(citations if type(citations) is list else ()), citation]
        else:
            for key, value in delta.items():
                if key == "type":
                    continue
                current = block.get(key)
                if type(value) is str and type(current) is str:
                    block[key] = current + value
                elif current is None:
                    block[key] = value
                else:
                    raise DecodeError(
                        f"expected {key!r} to be text to append to, found {type_name(current)}",
                        path=f"$.{key}",
                        value=value,
                    )

    def _close(self, index: int) -> None:
        text = self._json.pop(index, None)
        if text is None:
            return
        if not text.strip():
            self._blocks[index]["input"] = {}
            return
        parsed = parse_arguments(text)
        if parsed is None:
            self._bad[index] = text
            partial = parse_partial(text)
            parsed = partial if type(partial) is dict else {}
        self._blocks[index]["input"] = parsed

    def _finish(self) -> None:
        for index in list(self._json):
            self._close(index)
        self._done = True

    def _build(self) -> AssistantMessage:
        body = dict(self._message)
        content = []
        for index in sorted(self._blocks):
            block = self._blocks[index]
            if index in self._json:
                partial = parse_partial(self._json[index])
                block = {**block, "input": partial if type(partial) is dict else {}}
            content.append(block)
        body["content"] = content
        if self._error is not None:
            body["error"] = self._error
        message = decode_response(body)
        blocks = list(as_blocks(message.content))
        for position, index in enumerate(sorted(self._blocks)):
            text = self._json.get(index, self._bad.get(index))
            decoded = blocks[position]
            if text is not None and isinstance(decoded, ToolUseBlock):
                blocks[position] = replace(decoded, arguments=text)
        error = None
        if self._error is not None:
            code = self._error.get("type")
            error = code if type(code) is str else "error"
        return replace(message, content=tuple(blocks), error=error)

    def snapshot(self) -> AssistantMessage:
        """The message so far; tool inputs still arriving are parsed as far as they go.

        A tool call still streaming also carries the text received so far in ``arguments``.
        Never raises: if the events so far cannot be decoded, the last good snapshot is given.
        """
        with suppress(DecodeError):
            self._last = self._build()
        return self._last

    def message(self) -> AssistantMessage:
        """The whole message, equal to ``decode_response`` of the non-streamed body.

        Raises DecodeError when no ``message_stop`` (or ``error``) event has arrived yet.
        """
        if not self._done:
            raise DecodeError(
                "expected a message_stop event, found the stream still open", source=NAME
            )
        return self._build()


def _text(block: dict[str, Any], key: str) -> str:
    value = block.get(key)
    return value if type(value) is str else ""
