"""Reassembling a ``streamGenerateContent`` stream (private to ``gemini``).

Each chunk is a whole ``GenerateContentResponse`` whose candidates carry only the new parts.
Parts are appended per candidate; a text part joins the previous one when both are plain
text parts with the same ``thought`` flag and the previous one has no ``thoughtSignature``
(a signature closes a run: one arriving on the next fragment is attached to the run it
ends). Every other field is last-wins: ``finishReason`` and ``usageMetadata`` are
authoritative on the last chunk.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.slots import Slotted
from ..._core.wire import fail
from ...blocks import Block
from ...blocks import RawBlock
from ...errors import DecodeError
from ...roles import AssistantMessage
from .._common import owned_event
from .._common import with_source
from .._gemini_names import camel

__all__ = ["GeminiAccumulator"]

_SOURCE: Final = "gemini"
_TEXT_KEYS: Final = frozenset(("text", "thought", "thoughtSignature"))


def _joins(last: Any, part: Any) -> bool:
    return (
        type(last) is dict
        and type(part) is dict
        and type(last.get("text")) is str
        and type(part.get("text")) is str
        and last.keys() <= _TEXT_KEYS
        and part.keys() <= _TEXT_KEYS
        and "thoughtSignature" not in last
        and last.get("thought") == part.get("thought")
    )


class _Candidate(Slotted):
    __slots__ = ("content", "fields", "parts")

    def __init__(self) -> None:
        self.fields: dict[str, Any] = {}
        self.content: dict[str, Any] | None = None
        self.parts: list[Any] = []

    def take(self, cand: dict[str, Any]) -> None:
        for key, value in cand.items():
            if key != "content":
                self.fields[key] = value
                continue
            if type(value) is not dict:
                raise fail("an object", value, "content")
            content = camel(value)
            if self.content is None:
                self.content = {}
            parts = content.get("parts")
            for k, v in content.items():
                if k != "parts":
                    self.content[k] = v
            if parts is None:
                continue
            if type(parts) is not list:
                raise fail("an array", parts, "content.parts")
            for wire in parts:
                part = camel(wire) if type(wire) is dict else wire
                if self.parts and _joins(self.parts[-1], part):
                    last = self.parts[-1]
                    last["text"] += part["text"]
                    if "thoughtSignature" in part:
                        last["thoughtSignature"] = part["thoughtSignature"]
                else:
                    self.parts.append(part)

    def build(self) -> dict[str, Any]:
        out = dict(self.fields)
        if self.content is not None:
            content = dict(self.content)
            if self.parts:
                content["parts"] = list(self.parts)
            out["content"] = content
        return out


class GeminiAccumulator:
    """Feeds on parsed chunks; see :func:`messages.providers.gemini.accumulator`."""

    def __init__(self, decode: Callable[[Mapping[str, Any]], AssistantMessage]) -> None:
        self._decode = decode
        self._top: dict[str, Any] = {}
        self._candidates: dict[int, _Candidate] = {}
        self._error: Any = None
        self.events = 0
        """How many chunks were fed."""
        self.ignored = 0
        """How many of them carried nothing to reassemble (no candidates, no metadata)."""

    def feed(self, event: Any) -> None:
        """Take the next chunk, a parsed ``GenerateContentResponse`` (or an ``error`` object)."""
        try:
            chunk = camel(owned_event(event, _SOURCE))
            self.events += 1
            if not chunk:
                self.ignored += 1
                return
            if "error" in chunk and "candidates" not in chunk:
                self._error = chunk["error"]
                return
            candidates = chunk.get("candidates")
            if candidates is not None and type(candidates) is not list:
                raise fail("an array", candidates, "candidates")
            for key, value in chunk.items():
                if key != "candidates":
                    self._top[key] = value
            for i, wire in enumerate(candidates or ()):
                if type(wire) is not dict:
                    raise fail("an object", wire, f"candidates[{i}]")
                cand = camel(wire)
                index = cand.get("index", i)
                if type(index) is not int:
                    raise fail("an integer", index, f"candidates[{i}].index")
                try:
                    self._candidates.setdefault(index, _Candidate()).take(cand)
                except DecodeError as exc:
                    raise exc.within(f".candidates[{i}]") from None
        except DecodeError as exc:
            raise with_source(exc, _SOURCE) from None

    def _body(self) -> dict[str, Any]:
        body = dict(self._top)
        if self._candidates:
            body["candidates"] = [self._candidates[i].build() for i in sorted(self._candidates)]
        return body

    def _finished(self) -> bool:
        feedback = self._top.get("promptFeedback")
        if type(feedback) is dict and "blockReason" in feedback:
            return True
        return any("finishReason" in c.fields for c in self._candidates.values())

    def snapshot(self) -> AssistantMessage:
        """The message so far (never raises; a malformed part shows as a RawBlock)."""
        body = self._body()
        try:
            return self._decode(body)
        except DecodeError:
            blocks: list[Block] = []
            first = self._candidates.get(min(self._candidates)) if self._candidates else None
            for part in first.parts if first is not None else ():
                try:
                    single = {"candidates": [{"content": {"parts": [part]}}]}
                    blocks.extend(self._decode(single).blocks)
                except DecodeError:
                    blocks.append(RawBlock(part))
            return AssistantMessage(tuple(blocks))

    def message(self) -> AssistantMessage:
        """The whole reply, decoded as :func:`decode_response` decodes the unstreamed body.

        After an ``error`` chunk instead, the partial message with ``error`` set to the
        error's ``status`` (or ``code``). Raises :class:`DecodeError` if no chunk carried a
        ``finishReason`` (or a prompt ``blockReason``).
        """
        if self._error is not None and not self._finished():
            error = self._error
            status = error.get("status", error.get("code")) if type(error) is dict else None
            return replace(self.snapshot(), error=str(status) if status is not None else "error")
        if not self._finished():
            raise DecodeError(
                "the stream has not finished: no chunk carried a finishReason",
                source=_SOURCE,
            )
        return self._decode(self._body())
