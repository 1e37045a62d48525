"""Writing messages as OTel GenAI messages (private to ``otel``).

:func:`from_messages` writes a list of messages, :func:`to_attributes` a span's three attributes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..._core.frozen import thaw
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...message import Message
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import classify_stop_reason
from .._common import Policy
from .._common import check_policy
from .._common import turns
from .spec import FINISH
from .spec import INPUT
from .spec import NAME
from .spec import OUTPUT
from .spec import OWN
from .spec import SYSTEM

__all__ = ["from_messages", "to_attributes"]


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
                and data["type"] not in OWN
            ):
                return data  # a generic part (compaction, or a type of the future)
            return _degrade(block, policy, path, "this raw block is not an OTel part")
    raise AssertionError(block)  # pragma: no cover - every block kind is matched above


def _finish(raw: str) -> str:
    if raw in ("content_filter", "error", "length", "stop", "tool_call", "compaction"):
        return raw
    reason = classify_stop_reason(raw)
    return FINISH.get(reason, raw) if reason is not None else raw


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
        parts = policy.each(turn.blocks, _part_out, f"{path}.content")
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
