"""Reading OTel GenAI messages into messages (private to ``otel``).

:func:`to_messages` reads a list of messages, :func:`from_attributes` a span's three attributes.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from collections.abc import Iterable
from collections.abc import Mapping
from enum import Enum
from typing import Any

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import freeze
from ..._core.jsontext import load_strict
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .spec import INPUT
from .spec import MEDIA_TYPES
from .spec import MODALITY
from .spec import NAME
from .spec import OUTPUT
from .spec import SYSTEM

__all__ = ["from_attributes", "to_messages"]


def _plain(obj: Any, path: str) -> Any:
    """An OTel object as plain JSON: dicts as they are, the package's dataclasses by field."""
    if isinstance(obj, Mapping):
        return {str(k): _plain(v, f"{path}.{k}") for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v, f"{path}[{i}]") for i, v in enumerate(obj)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name), path) for f in dataclasses.fields(obj)}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, bytes):
        return base64.b64encode(obj).decode("ascii")
    if obj is None or isinstance(obj, str | int | float | bool):
        return obj
    raise DecodeError(f"expected JSON, found {type(obj).__name__}", path=path, source=NAME)


def _str(d: dict[str, Any], key: str, path: str, *, required: bool = True) -> Any:
    value = d.get(key)
    if value is None and not required:
        return None
    if type(value) is not str:
        found = "nothing" if key not in d else type(value).__name__
        raise DecodeError(f"expected a string, found {found}", path=f"{path}.{key}", source=NAME)
    return value


def _rest(d: dict[str, Any], known: Iterable[str]) -> FrozenDict:
    rest = {k: v for k, v in d.items() if k not in known}
    return freeze(rest) if rest else EMPTY


def _media(d: dict[str, Any], kind: str, path: str) -> Block:
    modality = d.get("modality")
    media_type = _str(d, "mime_type", path, required=False)
    known = {"type", "modality", "mime_type"}
    source: dict[str, Any]
    if kind == "blob":
        source, known = {"data": _str(d, "content", path)}, known | {"content"}
    elif kind == "uri":
        source, known = {"url": _str(d, "uri", path)}, known | {"uri"}
    else:
        source, known = {"file_id": _str(d, "file_id", path)}, known | {"file_id"}
    rest = _rest(d, known)
    if modality in MODALITY:
        block: Block = MODALITY[modality](media_type=media_type, extra=rest, **source)
        return block
    if modality == "document":
        return DocumentBlock(media_type=media_type, extra=rest, **source)
    return RawBlock(freeze(d))


def _arguments(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, dict):
        return value, None
    if isinstance(value, str):
        try:
            parsed = load_strict(value)
        except DecodeError:
            parsed = None
        return (parsed, value) if isinstance(parsed, dict) else ({}, value)
    return {}, json.dumps(value, ensure_ascii=False)


class _Ids:
    """Ids for id-less calls (``otel_call_<n>``), and the calls still waiting for a response."""

    __slots__ = ("count", "pending")

    def __init__(self) -> None:
        self.count = 0
        self.pending: list[str] = []

    def call(self) -> str:
        ident = f"otel_call_{self.count}"
        self.count += 1
        self.pending.append(ident)
        return ident

    def response(self) -> str:
        """An id-less response answers the earliest id-less call not yet answered."""
        return self.pending.pop(0) if self.pending else ""


def _part(d: Any, path: str, calls: _Ids) -> Block:
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        return RawBlock(freeze(d))
    kind = d["type"]
    if kind == "text":
        return TextBlock(_str(d, "content", path), extra=_rest(d, ("type", "content")))
    if kind == "reasoning":
        return ThinkingBlock(_str(d, "content", path), extra=_rest(d, ("type", "content")))
    if kind == "tool_call":
        ident = _str(d, "id", path, required=False)
        if ident is None:
            ident = calls.call()
        args, text = _arguments(d.get("arguments"))
        rest = _rest(d, ("type", "id", "name", "arguments"))
        if d.get("id") is None:  # no id (or a null one): marked, so none is written back
            rest = freeze({**rest, "id": None})
        return ToolUseBlock(ident, _str(d, "name", path), args, arguments=text, extra=rest)
    if kind == "tool_call_response":
        response = d.get("response")
        ident = _str(d, "id", path, required=False)
        rest = _rest(d, ("type", "id", "response"))
        if not isinstance(response, str):
            rest = freeze({**rest, "response": response})
        if ident is None:  # marked, so none is written back
            ident, rest = calls.response(), freeze({**rest, "id": None})
        content = (
            response if isinstance(response, str) else json.dumps(response, ensure_ascii=False)
        )
        return ToolResultBlock(ident, content, extra=rest)
    if kind == "server_tool_call":
        ident = _str(d, "id", path, required=False) or ""
        call = d.get("server_tool_call")
        return ServerToolUseBlock(
            ident,
            _str(d, "name", path),
            call if isinstance(call, dict) else {},
            extra=_rest(d, ("type", "id", "name", "server_tool_call")),
        )
    if kind == "server_tool_call_response":
        ident = _str(d, "id", path, required=False) or ""
        return ServerToolResultBlock(
            ident,
            "server_tool",
            d.get("server_tool_call_response"),
            extra=_rest(d, ("type", "id", "server_tool_call_response")),
        )
    if kind in MEDIA_TYPES:
        return _media(d, kind, path)
    return RawBlock(freeze(d))  # compaction, and generic parts of any other type


def _message(m: Any, path: str, calls: _Ids) -> Message:
    if not isinstance(m, dict):
        raise DecodeError(f"expected an object, found {type(m).__name__}", path=path, source=NAME)
    role = _str(m, "role", path)
    parts = m.get("parts")
    if not isinstance(parts, list):
        raise DecodeError("expected an array of parts", path=f"{path}.parts", source=NAME)
    blocks = tuple(_part(p, f"{path}.parts[{i}]", calls) for i, p in enumerate(parts))
    extra = _rest(m, ("role", "parts", "finish_reason", *(() if m.get("name") else ("name",))))
    if role == "system":
        return SystemMessage(blocks, extra=extra)
    if role == "assistant":
        finish = _str(m, "finish_reason", path, required=False)
        return AssistantMessage(blocks, stop_reason=finish, extra=extra)
    if role == "tool" or (
        role == "user" and blocks and all(isinstance(b, ToolResultBlock) for b in blocks)
    ):
        return ToolMessage(
            blocks, extra=extra if role == "tool" else freeze({**extra, "role": role})
        )
    if role == "user":
        return UserMessage(blocks, extra=extra)
    raise DecodeError(
        f"expected a role of system, user, assistant or tool, found {role!r}",
        path=f"{path}.role",
        source=NAME,
    )


def to_messages(objects: Iterable[Any]) -> list[Message]:
    """OTel messages as messages of this library.

    The messages are parsed JSON, or ``opentelemetry-util-genai``'s ``InputMessage`` and
    ``OutputMessage`` objects (read by their fields).

    ``system`` → :class:`SystemMessage`; ``user`` → :class:`UserMessage` (a
    :class:`ToolMessage` when it holds only tool call responses); ``assistant`` →
    :class:`AssistantMessage` (``finish_reason`` the raw ``stop_reason``); ``tool`` →
    :class:`ToolMessage`. A ``tool_call`` without ``id`` gets ``otel_call_<n>``. A part of
    a type this bridge does not model (``compaction``, a generic part) is a
    :class:`RawBlock`; fields it does not model (``name``...) stay in ``extra``.
    """
    plain = _plain(list(objects), "$")
    calls = _Ids()
    return [_message(m, f"$[{i}]", calls) for i, m in enumerate(plain)]


def from_attributes(attributes: Mapping[str, Any]) -> list[Message]:
    """A span's three GenAI attributes (JSON text or parsed) as one conversation.

    The system instructions come first (one :class:`SystemMessage`), then the input
    messages, then the output messages.
    """
    out: list[Message] = []

    def value(key: str) -> Any:
        raw = attributes.get(key)
        if isinstance(raw, str):
            try:
                return load_strict(raw)
            except DecodeError:
                raise DecodeError("expected JSON text", path=f"$.{key}", source=NAME) from None
        return raw

    system = value(SYSTEM)
    if system is not None:
        (message,) = to_messages([{"role": "system", "parts": _plain(system, f"$.{SYSTEM}")}])
        out.append(message)
    for key in (INPUT, OUTPUT):
        found = value(key)
        if found is not None:
            out.extend(to_messages(_plain(found, f"$.{key}")))
    return out
