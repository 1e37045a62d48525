"""Reassembling a ``ConverseStream`` event stream (private to ``bedrock``).

Each event is an object with one member: ``messageStart``, ``contentBlockStart``,
``contentBlockDelta``, ``contentBlockStop``, ``messageStop``, ``metadata``, or an exception
(``throttlingException``, ``modelStreamErrorException``...). Text and reasoning deltas are
joined per ``contentBlockIndex`` (``citation`` deltas gather beside their block's text,
which then is a ``citationsContent`` block); tool input arrives as slices of a JSON text,
parsed once whole (and as far as valid for a snapshot); a delta of a kind not modelled
here is kept in its block whole, in order, which then decodes as a raw block.
``messageStop`` ends the message; ``metadata`` (usage, metrics) follows it.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.jsontext import load_strict
from ..._core.slots import Slotted
from ..._core.wire import fail
from ...errors import DecodeError
from ...roles import AssistantMessage
from .._common import owned_event
from .._common import with_source
from .._formats import BEDROCK
from .._partial import parse_partial

__all__ = ["BedrockAccumulator"]

_SOURCE: Final = BEDROCK
_EXCEPTIONS: Final = frozenset(
    (
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    )
)


class _Block(Slotted):
    __slots__ = ("cited", "kind", "other", "parts", "signature", "start")

    def __init__(self) -> None:
        self.kind: str | None = None
        self.start: dict[str, Any] = {}
        self.parts: list[str] = []
        self.signature: str | None = None
        self.other: list[Any] = []
        self.cited: list[Any] = []

    def delta(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if key == "text" and type(value) is str and self.kind in (None, "text"):
                self.kind = "text"
                self.parts.append(value)
            elif key == "toolUse" and type(value) is dict and type(value.get("input")) is str:
                self.kind = "toolUse"
                self.parts.append(value["input"])
            elif key == "reasoningContent" and type(value) is dict:
                self._reasoning(value)
            elif key == "citation" and type(value) is dict and self.kind in (None, "text"):
                self.kind = "text"  # each citation delta is one whole citation of the text
                self.cited.append(value)
            else:
                self.other.append({key: value})

    def _reasoning(self, value: dict[str, Any]) -> None:
        for key, inner in value.items():
            if key == "text" and type(inner) is str and self.kind in (None, "reasoningText"):
                self.kind = "reasoningText"
                self.parts.append(inner)
            elif key == "signature" and type(inner) is str:
                self.kind = self.kind or "reasoningText"
                self.signature = (self.signature or "") + inner
            elif (
                key == "redactedContent"
                and type(inner) is str
                and self.kind
                in (
                    None,
                    "redactedContent",
                )
            ):
                self.kind = "redactedContent"
                self.parts.append(inner)
            else:
                self.other.append({"reasoningContent": {key: inner}})

    def build(self, *, partial: bool) -> dict[str, Any]:
        if self.other:
            return {"contentBlockDeltas": {"start": self.start, "deltas": self.other}}
        joined = "".join(self.parts)
        if self.kind == "toolUse" or "toolUse" in self.start:
            use = dict(self.start.get("toolUse") or {})
            if partial:
                args = parse_partial(joined)
            else:
                try:
                    args = load_strict(joined) if joined.strip() else {}
                except DecodeError:
                    args = None
                if args is None or type(args) is not dict:
                    return {"toolUse": {**use, "input": joined}}  # kept as it came: a raw block
            use["input"] = args if type(args) is dict else {}
            return {"toolUse": use}
        if self.start:
            return {"contentBlockStart": self.start}
        if self.kind == "reasoningText":
            text: dict[str, Any] = {"text": joined}
            if self.signature is not None:
                text["signature"] = self.signature
            return {"reasoningContent": {"reasoningText": text}}
        if self.kind == "redactedContent":
            return {"reasoningContent": {"redactedContent": joined}}
        if self.cited:
            return {"citationsContent": {"content": [{"text": joined}], "citations": self.cited}}
        return {"text": joined}


class BedrockAccumulator:
    """Feeds on parsed ``ConverseStream`` events (see ``bedrock.accumulator``)."""

    def __init__(self, decode: Callable[[Mapping[str, Any]], AssistantMessage]) -> None:
        self._decode = decode
        self._role: Any = "assistant"
        self._blocks: dict[int, _Block] = {}
        self._top: dict[str, Any] = {}
        self._stopped = False
        self._error: str | None = None
        self.events = 0
        """How many events were fed."""

    def feed(self, event: Any) -> None:
        """Take the next event, a parsed object with one member (``contentBlockDelta``...)."""
        try:
            d = owned_event(event, _SOURCE)
            self.events += 1
            for key, value in d.items():
                self._take(key, value)
        except DecodeError as exc:
            raise with_source(exc, _SOURCE) from None

    def _block(self, value: dict[str, Any], key: str) -> _Block:
        index = value.get("contentBlockIndex", 0)
        if type(index) is not int or index < 0:
            raise fail("a non-negative integer", index, f"{key}.contentBlockIndex")
        return self._blocks.setdefault(index, _Block())

    def _take(self, key: str, value: Any) -> None:
        if key in _EXCEPTIONS:
            self._error = key
            return
        if type(value) is not dict:
            raise fail("an object", value, key)
        if key == "messageStart":
            self._role = value.get("role", "assistant")
        elif key == "contentBlockStart":
            start = value.get("start")
            if type(start) is not dict:
                raise fail("an object", start, f"{key}.start")
            self._block(value, key).start = start
        elif key == "contentBlockDelta":
            delta = value.get("delta")
            if type(delta) is not dict:
                raise fail("an object", delta, f"{key}.delta")
            self._block(value, key).delta(delta)
        elif key == "contentBlockStop":
            self._block(value, key)
        elif key == "messageStop":
            self._stopped = True
            for field, inner in value.items():
                self._top[field] = inner
        elif key == "metadata":
            for field, inner in value.items():
                self._top[field] = inner
        else:
            self._top.setdefault("streamEvents", []).append({key: value})

    def _body(self, *, partial: bool) -> dict[str, Any]:
        content = [self._blocks[i].build(partial=partial) for i in sorted(self._blocks)]
        body: dict[str, Any] = {"output": {"message": {"role": self._role, "content": content}}}
        body.update(self._top)
        return body

    def snapshot(self) -> AssistantMessage:
        """The message so far (never raises; tool input parsed as far as valid)."""
        try:
            return self._decode(self._body(partial=True))
        except DecodeError:
            return AssistantMessage(())

    def message(self) -> AssistantMessage:
        """The whole reply, as :func:`decode_response` gives the unstreamed response.

        After an exception event instead, the partial message with ``error`` set to the
        exception's name. Raises :class:`DecodeError` if no ``messageStop`` came.
        """
        if self._error is not None and not self._stopped:
            return replace(self.snapshot(), error=self._error)
        if not self._stopped:
            raise DecodeError("the stream has not finished: no messageStop event", source=_SOURCE)
        return self._decode(self._body(partial=False))
