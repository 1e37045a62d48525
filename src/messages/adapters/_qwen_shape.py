"""How to tell a Qwen Code chat record, in one place for ``qwen_code`` and ``claude_code``.

Qwen Code's records share Claude Code transcript keys (``uuid``, ``parentUuid``,
``sessionId``, ``type``, ``cwd``, ``version``), so both adapters ask this one test: Qwen
Code's adapter claims what it says yes to, and Claude Code's refuses it.
"""

from __future__ import annotations

from typing import Any
from typing import Final

__all__ = ["QWEN_TYPES", "is_qwen_record"]

QWEN_TYPES: Final = frozenset(("user", "assistant", "tool_result", "system"))
"""The record types Qwen Code writes."""
_QWEN_KEYS: Final = ("systemPayload", "usageMetadata", "toolCallResult")


def is_qwen_record(obj: Any) -> bool:
    """Whether a parsed line is a Qwen Code chat record (never raises).

    A Qwen record type with something only Qwen Code writes: a ``message`` of Gemini
    ``parts`` (Claude Code's has ``content``), ``systemPayload``, ``usageMetadata`` or
    ``toolCallResult``, or the ``tool_result`` type. Or a record with ``uuid``,
    ``sessionId`` and ``parentUuid`` from a 0.x version (Qwen Code's numbering) whose type
    Claude Code has no use for, or a ``system`` record without Claude Code's ``content``.
    """
    if type(obj) is not dict:
        return False
    tag = obj.get("type")
    if type(tag) is not str or any(
        k in obj and type(obj[k]) is not str for k in ("uuid", "sessionId")
    ):
        return False
    message = obj.get("message")
    if tag in QWEN_TYPES and (
        (type(message) is dict and type(message.get("parts")) is list and "content" not in message)
        or (tag == "tool_result" and "uuid" in obj)
        or any(k in obj for k in _QWEN_KEYS)
    ):
        return True
    version = obj.get("version")
    if (
        "parentUuid" not in obj
        or "uuid" not in obj
        or "sessionId" not in obj
        or type(version) is not str
        or not version.startswith("0.")
    ):
        return False
    if tag == "system":
        return "content" not in obj
    return tag not in ("user", "assistant", "summary")
