"""OpenTelemetry GenAI messages, both ways: the three span attributes of a conversation.

``gen_ai.input.messages``, ``gen_ai.output.messages`` and ``gen_ai.system_instructions``.

Observability tools (Langfuse, Phoenix, Logfire, Datadog) record conversations in the shape
the OpenTelemetry GenAI semantic conventions give: a message is ``{"role", "parts",
"name"?, "finish_reason"?}`` and a part one of ``text``, ``reasoning``, ``tool_call``,
``tool_call_response``, ``server_tool_call``, ``server_tool_call_response``, ``blob``,
``uri``, ``file``, ``compaction`` or any other ``type`` (a generic part). This bridge reads
and writes that JSON (parsed, or as the attribute's JSON text), and the message classes of
``opentelemetry-util-genai`` (``InputMessage``, ``OutputMessage`` and their parts), which it
reads by their fields without importing the package.

- :func:`to_messages` / :func:`from_messages`: a list of OTel messages and back, with the
  loss policy for what the conventions have no place for (signatures, ``is_error``...);
- :func:`from_attributes` / :func:`to_attributes`: the three span attributes at once (the
  system instructions are a list of parts, not messages).

Nothing here imports OpenTelemetry. Tested against ``opentelemetry-util-genai`` 1.3b0: every
message written is built as that package's ``InputMessage``/``OutputMessage`` in the tests.

>>> from messages import SystemMessage, UserMessage
>>> from_messages([UserMessage("Hi")])
[{'role': 'user', 'parts': [{'type': 'text', 'content': 'Hi'}]}]
>>> to_messages([{"role": "assistant", "parts": [{"type": "text", "content": "Hello"}],
...               "finish_reason": "stop"}])
[AssistantMessage(content=(TextBlock(text='Hello'),), stop_reason='stop')]
"""

from __future__ import annotations

import base64
import dataclasses
import json
from collections.abc import Iterable
from collections.abc import Mapping
from enum import Enum
from typing import Any
from typing import Final

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import freeze
from .._core.frozen import thaw
from .._core.jsontext import load_strict
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import ServerToolResultBlock
from ..blocks import ServerToolUseBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..errors import DecodeError
from ..message import Message
from ..policy import Unsupported
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ..usage import StopReason
from ..usage import classify_stop_reason
from ._common import Policy
from ._common import check_policy
from ._common import turns

__all__ = [
    "INPUT",
    "NAME",
    "OUTPUT",
    "SYSTEM",
    "VERSIONS",
    "from_attributes",
    "from_messages",
    "to_attributes",
    "to_messages",
]

NAME: Final = "otel"
"""The name used in errors."""
VERSIONS: Final = "opentelemetry-util-genai 1.3b0 (GenAI semantic conventions, messages)"
"""The message types this bridge was tested against."""
INPUT: Final = "gen_ai.input.messages"
"""The span attribute of the messages sent to the model."""
OUTPUT: Final = "gen_ai.output.messages"
"""The span attribute of the messages the model returned."""
SYSTEM: Final = "gen_ai.system_instructions"
"""The span attribute of the system instructions: a list of parts."""

_MODALITY: Final[dict[str, type[ImageBlock | AudioBlock | VideoBlock]]] = {
    "image": ImageBlock,
    "audio": AudioBlock,
    "video": VideoBlock,
}
_FINISH: Final = {
    StopReason.END_TURN: "stop",
    StopReason.STOP_SEQUENCE: "stop",
    StopReason.MAX_TOKENS: "length",
    StopReason.TOOL_USE: "tool_call",
    StopReason.REFUSAL: "content_filter",
    StopReason.ERROR: "error",
}
_OWN: Final = frozenset(
    [
        "text",
        "reasoning",
        "tool_call",
        "tool_call_response",
        "server_tool_call",
        "server_tool_call_response",
        "blob",
        "uri",
        "file",
    ]
)
_MEDIA_TYPES: Final = frozenset(("blob", "uri", "file"))


# ---------------------------------------------------------------------------------- reading


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
    if modality in _MODALITY:
        block: Block = _MODALITY[modality](media_type=media_type, extra=rest, **source)
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
    if kind in _MEDIA_TYPES:
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


# ---------------------------------------------------------------------------------- writing


def _media_out(
    block: ImageBlock | AudioBlock | VideoBlock | DocumentBlock, policy: Policy, path: str
) -> dict[str, Any] | None:
    modality = block.kind
    base: dict[str, Any]
    if block.data is not None:
        base = {"type": "blob", "content": block.data}
    elif block.url is not None:
        base = {"type": "uri", "uri": block.url}
    elif block.file_id is not None:
        base = {"type": "file", "file_id": block.file_id}
    else:
        return _degrade(block, policy, path, "an OTel part holds media as data, a URI or a file id")
    out = {"type": base.pop("type"), "modality": modality, "mime_type": block.media_type, **base}
    _extra(block.extra, out, policy, path)
    return out


def _extra(extra: Any, out: dict[str, Any], policy: Policy, path: str) -> None:
    """Fields in ``extra`` go to the policy.

    The conventions define none beyond a part's own: a field of another format, or one no
    version of the conventions had, has no place.
    """
    for key, value in extra.items():
        if key not in out:
            policy.refuse(f"an OTel part has no field {key!r}", f"{path}.extra.{key}", value)


def _degrade(block: Block, policy: Policy, path: str, reason: str) -> dict[str, Any] | None:
    said = policy.degrade(block, path, reason)
    return None if said is None else {"type": "text", "content": said.text}


def _tool_result(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any] | None:
    if block.is_error:
        policy.refuse("an OTel tool call response has no error flag", f"{path}.is_error", True)
    response: Any
    if "response" in block.extra:
        response = thaw(block.extra["response"])
    elif isinstance(block.content, str):
        response = block.content
    else:
        texts = []
        for i, inner in enumerate(block.content):
            if isinstance(inner, TextBlock):
                texts.append(inner.text)
            else:
                said = policy.degrade(
                    inner, f"{path}.content[{i}]", "an OTel tool call response is text or JSON"
                )
                if said is not None:
                    texts.append(said.text)
        response = "\n".join(texts)
    if block.is_error and policy.mode == "text" and isinstance(response, str):
        response = f"[error] {response}"
    out: dict[str, Any] = {
        "type": "tool_call_response",
        "id": block.tool_use_id,
        "response": response,
    }
    if block.extra.get("id", "") is None:
        del out["id"]  # read without one
    rest = {k: v for k, v in block.extra.items() if k not in ("response", "id")}
    _extra(rest, out, policy, path)
    return out


def _part_out(block: Block, policy: Policy, path: str) -> dict[str, Any] | None:
    match block:
        case TextBlock():
            if block.citations:
                policy.refuse(
                    "an OTel text part has no citations", f"{path}.citations", block.citations
                )
            out: dict[str, Any] = {"type": "text", "content": block.text}
            _extra(block.extra, out, policy, path)
            return out
        case ThinkingBlock():
            if block.redacted:
                return _degrade(block, policy, path, "an OTel reasoning part holds text only")
            if block.signature is not None:
                policy.refuse(
                    "an OTel reasoning part has no signature", f"{path}.signature", block.signature
                )
            out = {"type": "reasoning", "content": block.thinking}
            _extra(block.extra, out, policy, path)
            return out
        case ToolUseBlock():
            # The arguments as the model wrote them when known (a JSON text), else the object.
            arguments: Any = block.arguments if block.arguments is not None else thaw(block.input)
            out = {"type": "tool_call", "id": block.id, "name": block.name, "arguments": arguments}
            if block.extra.get("id", "") is None and block.id.startswith("otel_call_"):
                del out["id"]
            _extra({k: v for k, v in block.extra.items() if k != "id"}, out, policy, path)
            return out
        case ToolResultBlock():
            return _tool_result(block, policy, path)
        case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
            if (
                isinstance(block, DocumentBlock)
                and block.data is None
                and block.url is None
                and block.file_id is None
            ):
                return _degrade(
                    block, policy, path, "an OTel part holds media as data, a URI or a file id"
                )
            return _media_out(block, policy, path)
        case ServerToolUseBlock():
            out = {
                "type": "server_tool_call",
                "id": block.id,
                "name": block.name,
                "server_tool_call": thaw(block.input),
            }
            _extra(block.extra, out, policy, path)
            return out
        case ServerToolResultBlock():
            out = {
                "type": "server_tool_call_response",
                "id": block.tool_use_id,
                "server_tool_call_response": thaw(block.content),
            }
            _extra(block.extra, out, policy, path)
            return out
        case RawBlock():
            data = thaw(block.data)
            if (
                isinstance(data, dict)
                and isinstance(data.get("type"), str)
                and data["type"] not in _OWN
            ):
                return data  # a generic part (compaction, or a type of the future)
            return _degrade(block, policy, path, "this raw block is not an OTel part")
    raise AssertionError(block)  # pragma: no cover - every block kind is matched above


def _finish(raw: str) -> str:
    if raw in ("content_filter", "error", "length", "stop", "tool_call", "compaction"):
        return raw
    reason = classify_stop_reason(raw)
    return _FINISH.get(reason, raw) if reason is not None else raw


def from_messages(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> list[dict[str, Any]]:
    """Messages of this library as OTel messages (plain JSON, ready for an attribute).

    An assistant message with a stop reason carries it as ``finish_reason`` (mapped:
    ``end_turn`` → ``stop``, ``tool_use`` → ``tool_call``...). What the conventions have no
    place for follows ``unsupported``: signatures, redacted reasoning, ``is_error``,
    citations, documents with no data, fields they do not define. Session messages are
    left out.
    """
    policy = check_policy(unsupported, NAME)
    out: list[dict[str, Any]] = []
    for path, turn in turns(messages, NAME):
        assert isinstance(turn, SystemMessage | UserMessage | AssistantMessage | ToolMessage)
        policy.turn(turn)
        if isinstance(turn, ToolMessage):
            role = str(turn.extra.get("role", "tool"))
        else:
            role = "system" if isinstance(turn, SystemMessage) else str(turn.role)
        blocks = (TextBlock(turn.content),) if isinstance(turn.content, str) else turn.content
        parts = []
        for i, block in enumerate(blocks):
            part = _part_out(block, policy, f"{path}.content[{i}]")
            if part is not None:
                parts.append(part)
        message: dict[str, Any] = {"role": role, "parts": parts}
        for key, value in turn.extra.items():
            if key == "name" and isinstance(value, str):
                message["name"] = value
            elif not (key == "role" and isinstance(turn, ToolMessage)):
                policy.refuse(f"an OTel message has no field {key!r}", f"{path}.extra.{key}", value)
        if isinstance(turn, AssistantMessage) and turn.stop_reason is not None:
            message["finish_reason"] = _finish(turn.stop_reason)
        out.append(message)
    return out


def to_attributes(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> dict[str, str]:
    """The three span attributes (JSON text) for a conversation that ends with the reply.

    Leading system messages become ``gen_ai.system_instructions`` (their parts), the
    trailing assistant messages ``gen_ai.output.messages``, the rest
    ``gen_ai.input.messages``.
    """
    written = from_messages(messages, unsupported=unsupported)
    start = 0
    system: list[Any] = []
    while start < len(written) and written[start]["role"] == "system":
        system.extend(written[start]["parts"])
        start += 1
    end = len(written)
    while end > start and written[end - 1]["role"] == "assistant":
        end -= 1
    out: dict[str, str] = {}
    if system:
        out[SYSTEM] = json.dumps(system, ensure_ascii=False, separators=(",", ":"))
    out[INPUT] = json.dumps(written[start:end], ensure_ascii=False, separators=(",", ":"))
    if end < len(written):
        out[OUTPUT] = json.dumps(written[end:], ensure_ascii=False, separators=(",", ":"))
    return out
