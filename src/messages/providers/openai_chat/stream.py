"""Reassembling OpenAI Chat Completions chunks into one AssistantMessage.

The accumulator rebuilds the ``ChatCompletion`` the chunks describe and decodes it with
:func:`messages.providers.openai_chat.decode_response`, so a finished stream gives what the
non-streamed response would. Rules (from the API reference and the SDK's own merging):

- top-level fields (``id``, ``created``, ``model``, ``system_fingerprint``...) keep their
  last non-null value; ``object`` becomes ``chat.completion``; ``obfuscation`` padding and
  Azure's content-filter chunks (``object: ""``) are skipped;
- per choice ``index``, delta strings are concatenated (``content``, ``refusal``, unknown
  fields such as ``reasoning_content``), ``role`` is set, ``finish_reason`` keeps the last
  non-null value, ``logprobs`` lists are joined;
- tool call fragments are merged per ``(choice, tool_call.index)``: ``id`` and ``type`` from
  the first fragment that has them, ``function.name`` and ``function.arguments`` joined;
- audio ``data`` pieces are decoded from base64 and their bytes joined (each piece is padded
  on its own), ``transcript`` is joined, ``id`` and ``expires_at`` are set;
- the chunk with ``choices: []`` and a ``usage`` gives the usage; ``"[DONE]"`` and an
  ``{"error": ...}`` chunk end the stream.

A finished message has ``content`` and ``refusal`` null where the stream sent none, as the
non-streamed message has.
"""

from __future__ import annotations

import base64
import binascii
from contextlib import suppress
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.slots import Slotted
from ..._core.wire import fail
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...roles import AssistantMessage
from ...roles import as_blocks
from .._common import owned_event
from .._formats import CHAT as NAME
from .._partial import parse_partial
from .decoder import decode_response
from .reasoning import merge_details

__all__ = ["ChatAccumulator"]

_SET: Final = frozenset(("role", "id", "type", "index", "expires_at"))
"""Fields that a later fragment sets rather than extends."""
_SKIPPED: Final = frozenset(("choices", "usage", "object", "obfuscation"))


def _merge(target: dict[str, Any], key: str, value: Any) -> None:
    current = target.get(key)
    if value is None:
        target.setdefault(key, None)
    elif key in _SET:
        if not current:
            target[key] = value
    elif type(value) is str and type(current) is str:
        target[key] = current + value
    elif type(value) is list and type(current) is list:
        target[key] = [*current, *value]
    elif type(value) is dict and type(current) is dict:
        for inner_key, inner in value.items():
            _merge(current, inner_key, inner)
    else:
        target[key] = value


class ChatAccumulator(Slotted):
    """Feed it each parsed chunk, in order (see :func:`accumulator`)."""

    __slots__ = ("_audio", "_calls", "_choices", "_done", "_error", "_last", "_top", "_usage")

    def __init__(self) -> None:
        self._top: dict[str, Any] = {}
        self._choices: dict[int, dict[str, Any]] = {}
        self._calls: dict[int, dict[int, dict[str, Any]]] = {}
        self._audio: dict[int, bytearray] = {}
        self._usage: dict[str, Any] | None = None
        self._done = False
        self._error: dict[str, Any] | None = None
        self._last = AssistantMessage()

    def feed(self, chunk: Any) -> None:
        """Take the next chunk (or ``"[DONE]"``); a malformed one raises DecodeError."""
        if isinstance(chunk, str) and chunk.strip() == "[DONE]":
            self._done = True
            return
        try:
            self._apply(owned_event(chunk, NAME, "a chunk object"))
        except DecodeError as exc:
            exc.source = NAME
            raise

    def _apply(self, chunk: dict[str, Any]) -> None:
        if "error" in chunk and "choices" not in chunk:
            error = chunk["error"]
            self._error = error if type(error) is dict else {"message": error}
            self._done = True
            return
        if chunk.get("object") == "":
            return  # Azure's asynchronous content-filter annotations
        for key, value in chunk.items():
            if key not in _SKIPPED and (value is not None or key not in self._top):
                self._top[key] = value
        usage = chunk.get("usage")
        if type(usage) is dict:
            self._usage = usage
        elif usage is not None:
            raise fail("an object", usage, "usage")
        choices = chunk.get("choices", [])
        if type(choices) is not list:
            raise fail("an array", choices, "choices")
        for k, choice in enumerate(choices):
            try:
                self._choice(choice)
            except DecodeError as exc:
                raise exc.within(f".choices[{k}]") from None

    def _choice(self, choice: Any) -> None:
        if type(choice) is not dict:
            raise fail("an object", choice)
        index = choice.get("index", 0)
        if type(index) is not int:
            raise fail("an integer", index, "index")
        state = self._choices.setdefault(index, {"index": index, "message": {}})
        for key, value in choice.items():
            if key in ("index", "delta", "message"):
                continue
            if key == "logprobs" and type(value) is dict and type(state.get(key)) is dict:
                _merge(state, key, value)
            elif value is not None or key not in state:
                state[key] = value
        delta = choice.get("delta")
        if delta is None:
            return
        if type(delta) is not dict:
            raise fail("an object", delta, "delta")
        try:
            for key, value in delta.items():
                if key == "tool_calls":
                    self._tool_calls(index, value)
                elif key == "audio":
                    self._audio_piece(index, state["message"], value)
                elif key == "reasoning_details" and type(value) is list:
                    said = state["message"].get(key)
                    state["message"][key] = merge_details(said if type(said) is list else [], value)
                else:
                    _merge(state["message"], key, value)
        except DecodeError as exc:
            raise exc.within(".delta") from None

    def _tool_calls(self, index: int, fragments: Any) -> None:
        if fragments is None:
            return
        if type(fragments) is not list:
            raise fail("an array", fragments, "tool_calls")
        calls = self._calls.setdefault(index, {})
        for k, fragment in enumerate(fragments):
            if type(fragment) is not dict:
                raise fail("an object", fragment, f"tool_calls[{k}]")
            position = fragment.get("index", k)
            if type(position) is not int:
                raise fail("an integer", position, f"tool_calls[{k}].index")
            call = calls.setdefault(position, {})
            for key, value in fragment.items():
                if key != "index":
                    _merge(call, key, value)

    def _audio_piece(self, index: int, message: dict[str, Any], piece: Any) -> None:
        if piece is None:
            return
        if type(piece) is not dict:
            raise fail("an object", piece, "audio")
        audio = message.setdefault("audio", {})
        for key, value in piece.items():
            if key == "data" and type(value) is str:
                try:
                    data = base64.b64decode(value, validate=True)
                except (binascii.Error, ValueError):
                    raise DecodeError(
                        "expected base64 audio data", path="$.audio.data", value=value[:40]
                    ) from None
                self._audio.setdefault(index, bytearray()).extend(data)
            else:
                _merge(audio, key, value)

    def _body(self) -> dict[str, Any]:
        body = dict(self._top)
        body["object"] = "chat.completion"
        choices = []
        for index in sorted(self._choices):
            state = self._choices[index]
            message = {"role": "assistant", "content": None, "refusal": None, **state["message"]}
            calls = self._calls.get(index)
            if calls:
                message["tool_calls"] = [calls[k] for k in sorted(calls)]
            if index in self._audio:
                audio = dict(message.get("audio") or {})
                audio["data"] = base64.b64encode(bytes(self._audio[index])).decode("ascii")
                message["audio"] = audio
            choice = {k: v for k, v in state.items() if k != "message"}
            choice.setdefault("finish_reason", None)
            choice["message"] = message
            choices.append(choice)
        body["choices"] = choices
        if self._usage is not None:
            body["usage"] = self._usage
        return body

    def _error_code(self) -> str | None:
        if self._error is None:
            return None
        code = self._error.get("code") or self._error.get("type")
        return code if type(code) is str else "error"

    def _build(self, *, partial: bool) -> AssistantMessage:
        message = decode_response(self._body()) if self._choices else AssistantMessage()
        if partial:
            blocks = list(as_blocks(message.content))
            for k, block in enumerate(blocks):
                if isinstance(block, ToolUseBlock) and block.invalid_arguments:
                    parsed = parse_partial(block.arguments or "")
                    if type(parsed) is dict:
                        with suppress(DecodeError):  # a number too large for a float
                            blocks[k] = replace(block, input=FrozenDict(parsed))
            if any(b is not o for b, o in zip(blocks, as_blocks(message.content), strict=True)):
                message = replace(message, content=tuple(blocks))
        error = self._error_code()
        return message if error is None else replace(message, error=error)

    def snapshot(self) -> AssistantMessage:
        """The message so far; tool arguments still arriving are parsed as far as they go.

        Never raises: if the chunks so far cannot be decoded, the last good snapshot is given.
        """
        with suppress(DecodeError):
            self._last = self._build(partial=True)
        return self._last

    def message(self) -> AssistantMessage:
        """The whole message, equal to ``decode_response`` of the non-streamed completion.

        Raises DecodeError while no choice has a ``finish_reason`` (and no ``"[DONE]"`` or
        error chunk has arrived).
        """
        finished = bool(self._choices) and all(
            state.get("finish_reason") is not None for state in self._choices.values()
        )
        if not (finished or self._done):
            raise DecodeError("expected a finish_reason, found the stream still open", source=NAME)
        if not self._choices and self._error is None:
            raise DecodeError("expected at least one choice, found none", source=NAME)
        return self._build(partial=False)
