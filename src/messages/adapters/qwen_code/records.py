"""One Qwen Code chat record to one message and back (private half).

A record (``~/.qwen/projects/<cwd>/chats/<session>.jsonl``, one per line) is
``{"uuid", "parentUuid", "sessionId", "timestamp", "type", "cwd", "version", "gitBranch",
...}`` and, by ``type``:

- ``user`` -> :class:`UserMessage`, ``assistant`` -> :class:`AssistantMessage` (``model``,
  ``usageMetadata`` as usage), ``tool_result`` -> :class:`ToolMessage`: the blocks are the
  Gemini parts of ``message`` (``{"role", "parts"}``), read by
  :mod:`messages.adapters._gemini_parts` (thought parts, function calls and responses typed);
  ``toolCallResult`` (the UI's copy: status, display) stays in ``extra``;
- ``system`` with a ``subtype`` -> :class:`SystemEventMessage` (``systemPayload`` as ``data``);
- anything else -> :class:`RawMessage`, verbatim.

``uuid`` and ``sessionId`` become the message's ``uuid`` and ``session_id``; ``parentUuid``
and every other field stay in ``extra``. A record written without ``message`` is marked
``"$message": "none"`` in ``extra`` (never a Qwen Code key).
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import TextBlock
from ...events.agent import SystemEventMessage
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from .. import _events as ev
from .. import _gemini_parts as gp

__all__ = ["NO_MESSAGE", "NO_PAYLOAD", "ROLES", "decode_record", "encode_record", "head"]

ROLES: Final = {"user": "user", "assistant": "model", "tool_result": "user"}
"""The ``message.role`` Qwen Code writes for each record type."""
NO_PAYLOAD: Final = "$systemPayload"
"""The ``extra`` key of a ``system`` record written without ``systemPayload``."""
NO_MESSAGE: Final = "$message"
"""The ``extra`` key of a record written without ``message``."""

_KNOWN: Final = frozenset(("uuid", "sessionId", "timestamp", "type", "message", "model"))
_SYSTEM: Final = frozenset(("uuid", "sessionId", "timestamp", "type", "subtype"))


def _blocks(d: dict[str, Any], mirror: dict[str, Any]) -> tuple[Block, ...]:
    message = d.get("message")
    if message is None:
        if "message" not in d:
            mirror[NO_MESSAGE] = "none"
        return ()
    if type(message) is not dict:
        raise fail("an object", message, "message")
    parts = message.get("parts")
    if type(parts) is not list:
        mirror[NO_MESSAGE] = "kept"  # no parts to read: kept as it was
        mirror["message"] = message
        return ()
    kept = rest(message, ("parts",))
    if "role" not in message:
        kept["role"] = None  # written back without one
    if kept != {"role": ROLES[d["type"]]}:
        mirror["message"] = kept
    return gp.decode_parts(parts)


def decode_record(d: dict[str, Any]) -> Message:
    """One record (an owned, parsed object) to one message."""
    tag = d.get("type")
    uuid = opt_str(d, "uuid")
    session = opt_str(d, "sessionId")
    timestamp = opt_time(d)
    if tag == "system":
        subtype = d.get("subtype")
        if type(subtype) is not str:
            return ev.raw_line(d)
        payload = d.get("systemPayload")
        mirror = rest(d, _SYSTEM)
        data: Any = FrozenDict()
        if type(payload) is dict and payload:
            del mirror["systemPayload"]
            data = wrap_owned(payload)
        elif "systemPayload" not in d:
            mirror[NO_PAYLOAD] = "none"
        return SystemEventMessage(
            subtype,
            data,
            uuid=uuid,
            session_id=session,
            timestamp=timestamp,
            extra=ev.frozen(mirror),
        )
    if type(tag) is not str or tag not in ROLES:
        return ev.raw_line(d)
    mirror = rest(d, _KNOWN)
    blocks = _blocks(d, mirror)
    model = opt_str(d, "model")
    context: dict[str, Any] = {"uuid": uuid, "session_id": session, "timestamp": timestamp}
    if tag == "assistant":
        meta = d.get("usageMetadata")
        usage = None
        if type(meta) is dict:
            usage = gp.usage_of_metadata(meta, "$.usageMetadata")
            del mirror["usageMetadata"]
        elif meta is not None:
            raise fail("an object", meta, "usageMetadata")
        return AssistantMessage(
            blocks, usage=usage, model=model, extra=ev.frozen(mirror), **context
        )
    if tag == "tool_result":
        return ToolMessage(blocks, model=model, extra=ev.frozen(mirror), **context)
    return UserMessage(blocks, model=model, extra=ev.frozen(mirror), **context)


def head(tag: str, m: Message) -> dict[str, Any]:
    """What a record begins with: ``uuid``, ``sessionId``, ``timestamp`` when known, ``type``."""
    out = present(uuid=m.uuid, sessionId=m.session_id, timestamp=m.timestamp)
    out["type"] = tag
    return out


def encode_record(
    tag: str, m: UserMessage | AssistantMessage | ToolMessage, policy: Policy
) -> dict[str, Any]:
    """A role message as a Qwen Code record of type ``tag``."""
    out = head(tag, m)
    extra: dict[str, Any] = raw(m.extra) if m.extra else {}
    if extra.pop(NO_MESSAGE, None) is None:
        blocks = (TextBlock(m.content),) if isinstance(m.content, str) else m.content
        parts = gp.encode_parts(blocks, policy, "$.message.parts")
        out["message"] = {"role": ROLES[tag], "parts": parts}
    if m.model is not None:
        out["model"] = m.model
    if isinstance(m, AssistantMessage) and m.usage is not None:
        out["usageMetadata"] = gp.metadata_of(m.usage)
    ev.finish(out, extra)
    message = out.get("message")
    if type(message) is dict and "role" in message and message["role"] is None:
        del message["role"]
    return out
