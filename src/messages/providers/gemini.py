"""Google Gemini ``generateContent``: requests, responses and stream reassembly.

>>> from messages import SystemMessage, UserMessage
>>> body = encode_request([SystemMessage("Be terse."), UserMessage("Weather in Paris?")])
>>> body["systemInstruction"], body["contents"]
({'parts': [{'text': 'Be terse.'}]}, [{'parts': [{'text': 'Weather in Paris?'}]}])

See ``docs/providers/gemini.md`` for the mapping table and every normalisation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from .._core.frozen import raw, thaw
from .._core.wire import fail, opt_int, opt_str
from ..blocks import Block, RawBlock, TextBlock, ToolResultBlock
from ..errors import DecodeError
from ..flat import RawMessage
from ..message import Message
from ..policy import Policy, Unsupported
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ..usage import Usage
from ._carry import carried, lost_calls, passthrough_role, request_turns
from ._common import owned_body, with_source
from ._formats import GEMINI, raw_is_own, response_extra, role_is_own
from ._gemini_parts import SYNTHETIC_ID_PREFIX, CallIds, camel, decode_part, encode_part
from ._gemini_stream import GeminiAccumulator
from ._protocols import Accumulator

__all__ = [
    "NAME",
    "SYNTHETIC_ID_PREFIX",
    "accumulator",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
]

NAME: Final = GEMINI
"""The format name used in errors and by the CLI."""

_PARTS: Final = frozenset(("parts",))
_MODEL: Final = frozenset(("parts", "role"))
_MODELLED: Final = frozenset(
    ("candidates", "usageMetadata", "modelVersion", "responseId", "createTime")
)


# --------------------------------------------------------------------------------- requests


def _parts(content: dict[str, Any], ids: CallIds) -> tuple[Block, ...]:
    parts = content.get("parts")
    if type(parts) is not list:
        raise fail("an array", parts, "parts")
    out = []
    for i, part in enumerate(parts):
        try:
            out.append(decode_part(part, ids))
        except DecodeError as exc:
            raise exc.within(f".parts[{i}]") from None
    return tuple(out)


def _content(c: Any, ids: CallIds) -> Message:
    if type(c) is not dict:
        raise fail("an object", c)
    c = camel(c)
    blocks = _parts(c, ids)
    if c.get("role") == "model":
        return AssistantMessage(blocks, extra={k: v for k, v in c.items() if k not in _MODEL})
    ex = {k: v for k, v in c.items() if k not in _PARTS}
    if blocks and all(isinstance(b, ToolResultBlock) for b in blocks):
        return ToolMessage(blocks, extra=ex)
    return UserMessage(blocks, extra=ex)


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body: ``systemInstruction`` and ``contents``.

    A ``user`` content made only of function responses comes back as a :class:`ToolMessage`,
    any other as a :class:`UserMessage`; ``model`` contents as :class:`AssistantMessage` s.
    Calls and responses without ``id`` get synthetic ids (``gemini_call_<n>``), matched by
    name and order.
    """
    d = camel(owned_body(body, NAME))
    try:
        out: list[Message] = []
        ids = CallIds()
        system = d.get("systemInstruction")
        if system is not None:
            if type(system) is not dict:
                raise fail("an object", system, "systemInstruction")
            system = camel(system)
            try:
                blocks = _parts(system, ids)
            except DecodeError as exc:
                raise exc.within(".systemInstruction") from None
            out.append(
                SystemMessage(blocks, extra={k: v for k, v in system.items() if k not in _PARTS})
            )
        contents = d.get("contents")
        if contents is not None:
            if type(contents) is not list:
                raise fail("an array", contents, "contents")
            for i, c in enumerate(contents):
                try:
                    out.append(_content(c, ids))
                except DecodeError as exc:
                    raise exc.within(f".contents[{i}]") from None
        return tuple(out)
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def _encode_blocks(
    content: str | tuple[Block, ...], names: dict[str, str], policy: Policy, path: str
) -> list[Any]:
    blocks = (TextBlock(content),) if isinstance(content, str) else content
    out = []
    for i, block in enumerate(blocks):
        part = encode_part(block, names, policy, f"{path}.content[{i}]")
        if part is not None:
            out.append(part)
    return out


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


def encode_request(
    conversation: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> dict[str, Any]:
    """The ``systemInstruction`` and ``contents`` of a request for this conversation.

    Leading system messages become ``systemInstruction``; consecutive turns that land on
    the same role are merged into one content, as Gemini requires. Content Gemini cannot
    carry follows ``unsupported``: raise :class:`UnsupportedContentError`, drop, or text.
    """
    policy = Policy(unsupported, NAME)
    turns = request_turns(conversation)
    policy.lost = lost_calls(turns, _carries)
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
            system = carried(turn.extra, policy, f"$[{start}]", "message", protected=_PARTS)
            system["parts"] = parts
        else:
            system["parts"].extend(parts)
        start += 1
    if system is not None and system["parts"]:
        body["systemInstruction"] = system
    contents: list[dict[str, Any]] = []
    for i in range(start, len(turns)):
        turn = turns[i]
        path = f"$[{i}]"
        policy.turn(turn)
        if isinstance(turn, RawMessage):
            role = str(passthrough_role(turn))
            if role_is_own(role, NAME) and _is_content(turn.data):
                _add(contents, {"role": role}, list(thaw(turn.data)["parts"]))
                continue
            degraded = policy.degrade(
                RawBlock(turn.data), path, f"a {role!r} message is not a content"
            )
            if degraded is not None:
                _add(contents, {}, [{"text": degraded.text}])
            continue
        if isinstance(turn, SystemMessage):
            degraded = policy.degrade(
                TextBlock(turn.text), path, "Gemini takes system instructions only at the start"
            )
            if degraded is not None:
                _add(contents, {}, [{"text": f"[system: {degraded.text}]"}])
            continue
        if isinstance(turn, AssistantMessage):
            fields = carried(turn.extra, policy, path, "message", protected=_MODEL)
            fields["role"] = "model"
        else:
            fields = carried(turn.extra, policy, path, "message", protected=_PARTS)
            if fields.get("role", "user") not in ("user", "function"):
                del fields["role"]  # not a role a user-side Gemini content can have
        _add(contents, fields, _encode_blocks(turn.content, names, policy, path))
    body["contents"] = contents
    return thaw(body)  # type: ignore[no-any-return]


def _carries(block: RawBlock) -> bool:
    return raw_is_own(block.data, NAME)


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


# -------------------------------------------------------------------------------- responses


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A ``GenerateContentResponse`` as one assistant message (its first candidate).

    ``finishReason`` is kept raw in ``stop_reason``; the other candidates and every
    unmodelled field stay in ``extra``.
    """
    d = camel(owned_body(body, NAME))
    try:
        response_id = opt_str(d, "responseId")
        ex = {k: v for k, v in d.items() if k not in _MODELLED}
        for key in ("modelVersion", "responseId", "createTime", "usageMetadata"):
            if key in d and d[key] is None:
                ex[key] = None
        blocks: tuple[Block, ...] = ()
        stop_reason = None
        candidates = d.get("candidates")
        if candidates is not None:
            if type(candidates) is not list:
                raise fail("an array", candidates, "candidates")
            kept = list(candidates)
            if kept:
                try:
                    blocks, stop_reason, kept[0] = _candidate(kept[0], CallIds(_tag(response_id)))
                except DecodeError as exc:
                    raise exc.within(".candidates[0]") from None
            ex["candidates"] = kept
        elif "candidates" in d:
            ex["candidates"] = None
        usage = d.get("usageMetadata")
        created = d.get("createTime")
        if created is not None and type(created) not in (str, int, float):
            raise fail("a string", created, "createTime")
        return AssistantMessage(
            blocks,
            usage=None if usage is None else _decode_usage(usage),
            stop_reason=stop_reason,
            model=opt_str(d, "modelVersion"),
            message_id=response_id,
            timestamp=created,
            extra=ex,
        )
    except DecodeError as exc:
        raise with_source(exc, NAME) from None


def _tag(response_id: str | None) -> str:
    return "" if not response_id else f"{response_id}_"


def _candidate(c: Any, ids: CallIds) -> tuple[tuple[Block, ...], str | None, dict[str, Any]]:
    if type(c) is not dict:
        raise fail("an object", c)
    c = camel(c)
    rest = dict(c)
    stop_reason = opt_str(c, "finishReason")
    if stop_reason is not None:
        del rest["finishReason"]
    blocks: tuple[Block, ...] = ()
    content = c.get("content")
    if content is not None:
        if type(content) is not dict:
            raise fail("an object", content, "content")
        content = camel(content)
        parts = content.get("parts")
        if type(parts) is list and parts:
            try:
                blocks = _parts(content, ids)
            except DecodeError as exc:
                raise exc.within(".content") from None
            rest["content"] = {k: v for k, v in content.items() if k != "parts"}
        elif parts is not None and type(parts) is not list:
            raise fail("an array", parts, "content.parts")
    return blocks, stop_reason, rest


_USAGE: Final = (
    "promptTokenCount",
    "candidatesTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
)


def _decode_usage(u: Any) -> Usage:
    if type(u) is not dict:
        raise fail("an object", u, "usageMetadata")
    u = camel(u)
    try:
        prompt, candidates, cached, thoughts = (opt_int(u, k) for k in _USAGE)
    except DecodeError as exc:
        raise exc.within(".usageMetadata") from None
    return Usage(
        None if prompt is None else prompt - (cached or 0),
        None if candidates is None else candidates + (thoughts or 0),
        cached,
        reasoning_tokens=thoughts,
        extra={k: v for k, v in u.items() if k not in _USAGE or v is None},
    )


def _encode_usage(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if usage.input_tokens is not None:
        out["promptTokenCount"] = usage.input_tokens + (usage.cache_read_tokens or 0)
    if usage.output_tokens is not None:
        out["candidatesTokenCount"] = usage.output_tokens - (usage.reasoning_tokens or 0)
    if usage.cache_read_tokens is not None:
        out["cachedContentTokenCount"] = usage.cache_read_tokens
    if usage.reasoning_tokens is not None:
        out["thoughtsTokenCount"] = usage.reasoning_tokens
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
    if message.model is not None:
        out["modelVersion"] = message.model
    if message.message_id is not None:
        out["responseId"] = message.message_id
    if message.timestamp is not None:
        out["createTime"] = message.timestamp
    out.update(ex)
    return thaw(out)  # type: ignore[no-any-return]


def accumulator() -> Accumulator:
    """A fresh reassembler for one ``streamGenerateContent`` stream (parsed chunks)."""
    return GeminiAccumulator(decode_response)
