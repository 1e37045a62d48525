"""Encoding conversations as Gemini ``generateContent`` requests, and messages as responses.

Parts are written by :mod:`.parts`; this module writes the leading system messages
as ``systemInstruction``, merges consecutive turns of one role into one content (as Gemini
requires, with function calls on the model side and responses on the user side), and
writes the response around the first candidate.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import Literal
from typing import TypeAlias

from ..._core.frozen import raw
from ..._core.frozen import thaw
from ..._core.wire import encode_each
from ..._core.wire import present
from ..._shapes import gemini_counts
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...errors import EncodeError
from ...flat import RawMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...settings import RequestSettings
from ...usage import Usage
from .._carry import carried
from .._carry import each_turn
from .._carry import raw_turn
from .._carry import start_request
from .._formats import GEMINI as NAME
from .._formats import raw_block_is_own
from .._formats import response_extra
from .._settings import write_settings
from .decoder import CONTENT_KEYS
from .decoder import MODEL_KEYS
from .decoder import USAGE_KEYS
from .parts import encode_part
from .settings import SPELLING

__all__ = ["SKIP_SIGNATURE", "UnsignedCalls", "encode_request", "encode_response"]


def _encode_blocks(
    content: str | tuple[Block, ...], names: dict[str, str], policy: Policy, path: str
) -> list[Any]:
    blocks = (TextBlock(content),) if isinstance(content, str) else content
    return encode_each(
        enumerate(blocks), lambda b, p, at: encode_part(b, names, p, at), policy, f"{path}.content"
    )


def _system_parts(content: str | tuple[Block, ...], policy: Policy, path: str) -> list[Any]:
    blocks = (TextBlock(content),) if isinstance(content, str) else content
    out = []
    for i, block in enumerate(blocks):
        at = f"{path}.content[{i}]"
        text = block if isinstance(block, TextBlock) else None
        if text is None:
            text = policy.degrade(block, at, "a Gemini system instruction carries text only")
        if text is not None:
            part = encode_part(text, {}, policy, at)
            assert part is not None
            out.append(part)
    return out


SKIP_SIGNATURE: Final = "skip_thought_signature_validator"
"""The ``thoughtSignature`` Google documents for a function call with no real signature:
Gemini 3 models reject a call of the current turn that has none."""

UnsignedCalls: TypeAlias = Literal["leave", "sentinel"]
"""What :func:`encode_request` does with function calls that have no thought signature."""


def encode_request(
    conversation: Iterable[Message],
    *,
    unsupported: Unsupported = "raise",
    unsigned_calls: UnsignedCalls = "leave",
    settings: RequestSettings | None = None,
) -> dict[str, Any]:
    """The ``systemInstruction`` and ``contents`` of a request for this conversation.

    Leading system messages become ``systemInstruction``; consecutive turns that land on
    the same role are merged into one content, as Gemini requires. Content Gemini cannot
    carry follows ``unsupported``: raise :class:`UnsupportedContentError`, drop, or text.

    Gemini 3 models reject a function call of the current turn without a
    ``thoughtSignature``, which calls from any other source lack. With
    ``unsigned_calls="sentinel"`` the first call of each model content (a parallel set:
    only its first call is signed) gets :data:`SKIP_SIGNATURE` when it has no signature of
    its own; a real signature is never replaced. The default, ``"leave"``, writes only the
    signatures the conversation has (Gemini 2.5 and earlier need none).
    """
    if unsigned_calls not in ("leave", "sentinel"):
        raise EncodeError(
            f"expected unsigned_calls='leave' or 'sentinel', found {unsigned_calls!r}",
            source=NAME,
            value=unsigned_calls,
        )
    policy, turns = start_request(conversation, unsupported, NAME, _carries)
    names: dict[str, str] = {}
    body: dict[str, Any] = {}
    start = 0
    system: dict[str, Any] | None = None
    while start < len(turns):
        turn = turns[start]
        if not isinstance(turn, SystemMessage):
            break
        policy.turn(turn)
        parts = _system_parts(turn.content, policy, f"$[{start}]")
        if system is None:
            system = carried(turn.extra, policy, f"$[{start}]", "message", protected=CONTENT_KEYS)
            system["parts"] = parts
        else:
            system["parts"].extend(parts)
        start += 1
    if system is not None and system["parts"]:
        body["systemInstruction"] = system
    contents: list[dict[str, Any]] = []
    for _, path, turn in each_turn(policy, turns, start):
        if isinstance(turn, RawMessage):
            kept = raw_turn(turn, policy, path, "a {role} message is not a content", _is_content)
            if isinstance(kept, dict):
                _add(contents, {"role": kept["role"]}, list(kept["parts"]))
            elif kept is not None:
                _add(contents, {}, [{"text": kept.text}])
            continue
        if isinstance(turn, SystemMessage):
            degraded = policy.degrade(
                TextBlock(turn.text), path, "Gemini takes system instructions only at the start"
            )
            if degraded is not None:
                _add(contents, {}, [{"text": f"[system: {degraded.text}]"}])
            continue
        if isinstance(turn, AssistantMessage):
            fields = carried(turn.extra, policy, path, "message", protected=MODEL_KEYS)
            fields["role"] = "model"
        else:
            fields = carried(turn.extra, policy, path, "message", protected=CONTENT_KEYS)
            if fields.get("role", "user") not in ("user", "function"):
                del fields["role"]  # not a role a user-side Gemini content can have
        _add(contents, fields, _encode_blocks(turn.content, names, policy, path))
    if unsigned_calls == "sentinel":
        _sign_first_calls(contents)
    body["contents"] = contents
    fresh: dict[str, Any] = thaw(body)
    return write_settings(fresh, settings, policy, SPELLING)


def _sign_first_calls(contents: list[dict[str, Any]]) -> None:
    """Give the first function call of each model content the sentinel, where unsigned."""
    for content in contents:
        if _role(content) != "model":
            continue
        first = next((p for p in content["parts"] if "functionCall" in p), None)
        if first is not None and "thoughtSignature" not in first:
            first["thoughtSignature"] = SKIP_SIGNATURE


def _carries(block: RawBlock) -> bool:
    return raw_block_is_own(block, NAME)


def _is_content(data: Any) -> bool:
    """A whole raw message that is a Gemini content: a role and a non-empty list of parts."""
    parts = data.get("parts") if isinstance(data, Mapping) else None
    return isinstance(parts, tuple | list) and len(parts) > 0 and set(data) <= {"role", "parts"}


def _role(content: dict[str, Any]) -> Any:
    role = content.get("role")
    return role if type(role) is str else "user"


def _add(contents: list[dict[str, Any]], fields: dict[str, Any], parts: list[Any]) -> None:
    """Append one turn's parts, merging into the previous content when the role is the same.

    A function call always sits in a model content and a function response in a user one,
    whatever message carried them; the turn's own fields go on its first content.
    """
    own = _role(fields)
    for part in parts:
        role = own
        if "functionCall" in part:
            role = "model"
        elif "functionResponse" in part and own == "model":
            role = "user"
        last = contents[-1] if contents else None
        if last is not None and _role(last) == role:
            last["parts"].append(part)
            continue
        head = fields if role == own else ({"role": "model"} if role == "model" else {})
        contents.append({**head, "parts": [part]})
        if role == own:
            fields = {"role": "model"} if own == "model" else {}


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out = gemini_counts.counts_of(usage, USAGE_KEYS)
    for k, v in response_extra(raw(usage.extra), NAME, usage=True).items():
        out[k] = v
    return out


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A ``GenerateContentResponse`` for an assistant message (exact for decoded ones)."""
    policy = Policy("raise", NAME)
    parts = _encode_blocks(message.content, {}, policy, "$")
    ex = response_extra(raw(message.extra), NAME)
    out: dict[str, Any] = {}
    candidates = ex.pop("candidates", [])
    if type(candidates) is list:
        candidates = list(candidates)
        first = dict(candidates[0]) if candidates and type(candidates[0]) is dict else None
        if first is None and (parts or message.stop_reason is not None):
            first = {"content": {"role": "model"}}
            candidates.insert(0, first)
        if first is not None:
            if parts:
                content = first.get("content")
                first["content"] = {**(content if type(content) is dict else {}), "parts": parts}
            if message.stop_reason is not None:
                first["finishReason"] = message.stop_reason
            candidates[0] = first
        if candidates or "candidates" in message.extra:
            out["candidates"] = candidates
    else:  # a null or odd value, kept as it came
        out["candidates"] = candidates
    if message.usage is not None:
        out["usageMetadata"] = _encode_usage(message.usage)
    out.update(
        present(
            modelVersion=message.model,
            responseId=message.message_id,
            createTime=message.timestamp,
        )
    )
    out.update(ex)
    return thaw(out)  # type: ignore[no-any-return]
