"""One record of a Gemini CLI saved session, to one message and back (private half).

Records (see the package docstring for where they live):

- the session's metadata (``sessionId``, ``projectHash``, ``startTime``, ``lastUpdated``,
  ``kind``, ``summary``, ``directories``...) -> :class:`InitMessage`;
- a message record (``id``, ``timestamp``, ``type``, ``content``): ``user`` ->
  :class:`UserMessage`; ``gemini`` -> :class:`AssistantMessage` (thoughts, content, each tool
  call with its result, ``tokens`` as usage, ``model``); ``error`` with text ->
  :class:`ErrorMessage`; ``info``, ``warning`` -> :class:`SystemEventMessage`; any other type
  -> :class:`RawMessage`;
- ``{"$rewindTo": id}`` and ``{"$set": {...}}`` (the JSON Lines form's edits) ->
  :class:`SystemEventMessage` with that key as ``subtype`` and the record as ``data``.

Markers kept in ``extra`` (never Gemini CLI keys): ``$content`` says how ``content`` was
written when it was not one string (``parts``: a list, ``part``: one object, ``none``:
absent); ``$result`` holds a tool result of another shape than one ``functionResponse``
answering its call; ``$document`` marks a message that came out of a whole-file document
(see ``files.py``).
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import MISSING
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...events.agent import SystemEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import _events as ev
from .. import _gemini_parts as gp

__all__ = [
    "CALL",
    "CONTENT",
    "DOCUMENT",
    "EDITS",
    "MESSAGE_TYPES",
    "content_of",
    "decode_record",
    "encode_content",
    "encode_gemini",
    "head",
    "is_metadata",
    "is_record",
]

DOCUMENT: Final = "$document"
"""The ``extra`` key marking a message that came out of a whole-file document."""
CONTENT: Final = "$content"
"""The ``extra`` key saying how ``content`` was written when it was not one string."""
RESULT: Final = "$result"
"""The ``extra`` key of a tool result kept whole (not one ``functionResponse``)."""
CALL: Final = "toolCall"
"""The ``extra`` key of a tool call block holding the call record's other fields (``status``,
``displayName``, ``resultDisplay``...): kept apart, so that no other format reads them as its
own (a Responses ``status``)."""
NO_ARGS: Final = "$noArgs"
"""The ``extra`` key of a tool call written without ``args``."""
NO_STATUS: Final = "$noStatus"
"""The ``extra`` key of a tool call with a ``result`` but no ``status`` (the encoder would
write one from the result)."""
EDITS: Final = ("$rewindTo", "$set")
"""The JSON Lines form's edit records, by their one key."""
MESSAGE_TYPES: Final = frozenset(("user", "gemini", "info", "error", "warning"))
"""The ``type`` of a message record, as Gemini CLI writes them."""

_MESSAGE: Final = frozenset(("id", "timestamp", "type", "content"))
_GEMINI: Final = frozenset((*_MESSAGE, "thoughts", "tokens", "model", "toolCalls"))
_CALL: Final = frozenset(("id", "name", "args", "result"))
_METADATA: Final = frozenset(("sessionId", "startTime"))
_THOUGHT: Final = frozenset(("description",))


def is_metadata(obj: dict[str, Any]) -> bool:
    """Whether a record is a session's metadata (the whole legacy document is one too)."""
    return (
        type(obj.get("sessionId")) is str
        and type(obj.get("projectHash")) is str
        and "type" not in obj
        and "id" not in obj
    )


_FOREIGN: Final = ("message", "role", "data", "part", "payload", "item", "delta", "severity")


def is_record(obj: dict[str, Any]) -> bool:
    """Whether an object is a Gemini CLI message record.

    A known ``type``, ``content``, a string ``id`` if any, and none of the keys other
    formats' events carry.
    """
    tag = obj.get("type")
    return (
        type(tag) is str
        and tag in MESSAGE_TYPES
        and "content" in obj
        and ("id" not in obj or type(obj["id"]) is str)
        and not any(k in obj for k in _FOREIGN)
    )


def content_of(d: dict[str, Any], mirror: dict[str, Any]) -> tuple[Block, ...]:
    """The blocks of a record's ``content`` (a PartListUnion).

    How it was written goes to ``mirror`` (see the module docstring).
    """
    content = d.get("content", MISSING)
    if type(content) is str:
        return (TextBlock(content),) if content else ()
    if type(content) is list:
        mirror[CONTENT] = "parts"
        return gp.decode_parts(content, calls=False)
    if type(content) is dict:
        mirror[CONTENT] = "part"
        return (gp.decode_part(content, calls=False),)
    if content is MISSING:
        mirror[CONTENT] = "none"
    else:
        mirror["content"] = content  # null or another value: written back as it was
    return ()


def encode_content(out: dict[str, Any], blocks: list[Block], extra: Any, policy: Policy) -> None:
    """Write ``content`` from its blocks the way the record had it (see :func:`content_of`)."""
    form = extra.get(CONTENT) if extra else None
    if form == "none" and not blocks:
        return
    if form is None:
        if not blocks:
            out["content"] = ""
            return
        if len(blocks) == 1 and type(blocks[0]) is TextBlock and not blocks[0].extra:
            if blocks[0].citations is not None:
                policy.refuse("Gemini CLI records carry no citations", "$.content", blocks[0])
            out["content"] = blocks[0].text
            return
    parts = gp.encode_parts(tuple(blocks), policy, "$.content")
    out["content"] = parts[0] if form == "part" and len(parts) == 1 else parts


def _thought(entry: Any, at: str) -> ThinkingBlock:
    if type(entry) is not dict:
        raise fail("an object", entry, None, at)
    text = need_str(entry, "description", at)
    return ThinkingBlock(text, extra=ev.frozen(rest(entry, _THOUGHT)))


def _tool_call(entry: Any, at: str) -> tuple[Block, ...]:
    if type(entry) is not dict:
        raise fail("an object", entry, None, at)
    call_id = need_str(entry, "id", at)
    name = need_str(entry, "name", at)
    args = entry.get("args", MISSING)
    mirror = rest(entry, _CALL)
    if "result" in entry and "status" not in entry:
        mirror[NO_STATUS] = True
    if args is MISSING:
        mirror[NO_ARGS] = True
        args = {}
    elif type(args) is not dict:
        raise fail("an object", args, "args", at)
    extra = wrap_owned({CALL: mirror}) if mirror else ev.frozen(None)
    use = ToolUseBlock(call_id, name, wrap_owned(args), extra=extra)
    if "result" not in entry:
        return (use,)
    result = entry["result"]
    block = None
    if type(result) is list and len(result) == 1:
        found = gp.decode_part(result[0])
        if isinstance(found, ToolResultBlock) and found.tool_use_id == call_id:
            block = found
    if block is None:
        block = ToolResultBlock(call_id, "", extra=wrap_owned({RESULT: result}))
    return use, block


def _blocks(d: dict[str, Any], mirror: dict[str, Any]) -> tuple[Block, ...]:
    blocks: list[Block] = []
    thoughts = d.get("thoughts")
    if type(thoughts) is list:
        blocks += [_thought(t, f"$.thoughts[{i}]") for i, t in enumerate(thoughts)]
        if not thoughts:
            mirror["thoughts"] = []
    elif thoughts is not None:
        raise fail("an array", thoughts, "thoughts")
    blocks += content_of(d, mirror)
    calls = d.get("toolCalls")
    if type(calls) is list:
        for i, entry in enumerate(calls):
            blocks += _tool_call(entry, f"$.toolCalls[{i}]")
        if not calls:
            mirror["toolCalls"] = []
    elif calls is not None:
        raise fail("an array", calls, "toolCalls")
    return tuple(blocks)


def _gemini(d: dict[str, Any]) -> Message:
    mirror = rest(d, _GEMINI)
    blocks = _blocks(d, mirror)
    tokens = d.get("tokens")
    usage = None
    if type(tokens) is dict:
        usage = gp.usage_of_tokens(tokens, "$.tokens")
    elif tokens is not None:
        raise fail("an object", tokens, "tokens")
    return AssistantMessage(
        blocks,
        usage=usage,
        uuid=opt_str(d, "id"),
        model=opt_str(d, "model"),
        timestamp=opt_time(d),
        extra=ev.frozen(mirror),
    )


def decode_record(d: dict[str, Any]) -> Message:
    """One record (an owned, parsed object) to one message; unknown shapes stay raw."""
    if is_metadata(d):
        return InitMessage(
            session_id=d["sessionId"],
            timestamp=opt_time(d, "startTime"),
            extra=ev.frozen(rest(d, _METADATA)),
        )
    if len(d) == 1 and next(iter(d)) in EDITS:
        return SystemEventMessage(next(iter(d)), wrap_owned(d))
    if not is_record(d):
        return ev.raw_line(d)
    tag = d["type"]
    uuid = opt_str(d, "id")
    timestamp = opt_time(d)
    if tag == "gemini":
        return _gemini(d)
    mirror = rest(d, _MESSAGE)
    if tag == "user":
        blocks = content_of(d, mirror)
        return UserMessage(blocks, uuid=uuid, timestamp=timestamp, extra=ev.frozen(mirror))
    content = d.get("content")
    if tag == "error" and type(content) is str:
        return ErrorMessage(content, uuid=uuid, timestamp=timestamp, extra=ev.frozen(mirror))
    mirror = rest(d, ("id", "timestamp", "type"))
    return SystemEventMessage(
        tag, FrozenDict(), uuid=uuid, timestamp=timestamp, extra=ev.frozen(mirror)
    )


def head(kind: str, m: Message) -> dict[str, Any]:
    """What a session record begins with: ``id`` and ``timestamp`` (when known), ``type``."""
    out = present(id=m.uuid, timestamp=m.timestamp)
    out["type"] = kind
    return out


def _call_entry(block: ToolUseBlock) -> dict[str, Any]:
    entry = {"id": block.id, "name": block.name, "args": raw(block.input)}
    kept = block.extra.get(CALL) if block.extra else None
    if isinstance(kept, FrozenDict):
        ev.overlay(entry, kept)
    if entry.pop(NO_ARGS, None) is not None:
        del entry["args"]
    return entry


def _result_of(block: ToolResultBlock, policy: Policy) -> Any:
    if block.extra and RESULT in block.extra:
        return raw(block.extra[RESULT])
    return [gp.encode_part(block, policy, "$.toolCalls.result")]


def encode_gemini(m: AssistantMessage, policy: Policy, kind: str = "gemini") -> dict[str, Any]:
    """A model turn as a ``gemini`` record: thoughts, content, tool calls with their results."""
    out = head(kind, m)
    thoughts: list[Any] = []
    calls: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    quiet: set[str] = set()
    content: list[Block] = []
    blocks = (TextBlock(m.content),) if isinstance(m.content, str) else m.content
    for block in blocks:
        if isinstance(block, ThinkingBlock) and "thought" not in block.extra:
            thoughts.append(ev.overlay({"description": block.thinking}, block.extra))
        elif isinstance(block, ToolUseBlock):
            entry = _call_entry(block)
            if entry.pop(NO_STATUS, None) is not None:
                quiet.add(block.id)  # its result was read without a status: none written
            calls.append(entry)
            by_id[block.id] = entry
        elif isinstance(block, ToolResultBlock):
            found = by_id.get(block.tool_use_id)
            if found is not None:
                entry = found
            else:  # a result without its call (from another source)
                entry = {"id": block.tool_use_id, "name": block.name or "", "args": {}}
                calls.append(entry)
            entry["result"] = _result_of(block, policy)
            said = "status" in entry or block.tool_use_id in quiet  # as it was read
            if block.is_error is not None and not said:
                entry["status"] = "error" if block.is_error else "success"
        else:
            content.append(block)
    if thoughts:
        out["thoughts"] = thoughts
    encode_content(out, content, m.extra, policy)
    if calls:
        out["toolCalls"] = calls
    if m.usage is not None:
        out["tokens"] = gp.tokens_of(m.usage)
    if m.model is not None:
        out["model"] = m.model
    extra = {k: v for k, v in m.extra.items() if k not in (CONTENT, DOCUMENT)}
    return ev.finish(out, extra)
