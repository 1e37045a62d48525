"""The ``--format text`` view of a flat stream: one line per message.

Content a line cannot show whole is worded as everywhere else: images and audio with
:func:`messages.media.describe_media` (type and size, never the base64), the blocks of a
tool result with :func:`messages.policy.describe`; raw records are short compact JSON.
The Markdown view is :class:`messages.text._render.MarkdownWriter`, the transcript's own.
"""

from __future__ import annotations

import json
from typing import Any
from typing import Final

from .._core.frozen import thaw
from ..events.agent import EVENT_TYPES
from ..events.records import RECORD_TYPES
from ..events.run import ErrorMessage
from ..events.run import InitMessage
from ..events.run import ResultMessage
from ..events.run import StreamEventMessage
from ..flat import AudioMessage
from ..flat import DocumentMessage
from ..flat import ImageMessage
from ..flat import RawMessage
from ..flat import ServerToolResultMessage
from ..flat import ServerToolUseMessage
from ..flat import TextMessage
from ..flat import ThinkingMessage
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..flat import VideoMessage
from ..media import describe_media
from ..message import Message
from ..policy import describe
from ..policy import server_output
from ..text import summarize

__all__ = ["one_line", "summary"]

RAW_WIDTH: Final = 160
"""Longest compact JSON shown for a raw record in a transcript."""
_EVENTS_AND_RECORDS: Final = (*EVENT_TYPES, *RECORD_TYPES)
"""The agent events and session records: :func:`summary` words them as ``summarize`` does."""


def _json(value: Any) -> str:
    return json.dumps(thaw(value), ensure_ascii=False)


def _short(value: Any) -> str:
    text = json.dumps(thaw(value), ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= RAW_WIDTH else text[: RAW_WIDTH - 1] + "…"


def _result_text(m: ToolResultMessage) -> str:
    if isinstance(m.content, str):
        return m.content
    return "\n".join(describe(b) for b in m.content)


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def summary(m: Message, *, answer: bool = True) -> str:
    """A one-line description of a session message (init, result, error, stream event).

    A result ends with its answer text unless ``answer`` is false.
    """
    parts: list[str] = []
    match m:
        case InitMessage():
            if m.session_id:
                parts.append(f"session {m.session_id}")
            if m.model:
                parts.append(f"model {m.model}")
            if m.cwd:
                parts.append(f"cwd {m.cwd}")
            if m.tools is not None:
                parts.append(f"{len(m.tools)} tools")
        case ResultMessage():
            if m.subtype:
                parts.append(m.subtype)
            if m.is_error:
                parts.append("error")
            if m.num_turns is not None:
                parts.append(f"{m.num_turns} turns")
            if m.duration_ms is not None:
                parts.append(f"{m.duration_ms / 1000:g} s")
            if m.total_cost_usd is not None:
                parts.append(f"${_number(m.total_cost_usd)}")
            if m.usage is not None:
                u = m.usage
                parts.append(f"{u.total_input_tokens} in / {u.output_tokens or 0} out tokens")
            if m.result and answer:
                return ", ".join(parts) + ": " + m.result
        case ErrorMessage():
            return f"{m.code}: {m.message}" if m.code else m.message
        case StreamEventMessage():
            return m.type or _short(m.event)
        case _ if isinstance(m, _EVENTS_AND_RECORDS):
            return summarize(m, None)
        case _:
            return ""
    return ", ".join(parts)


def _head(m: Message) -> str:
    role = getattr(m, "role", None)
    return f"[{m.kind}/{role}]" if role else f"[{m.kind}]"


def _body(m: Message) -> str:
    match m:
        case TextMessage():
            return m.text
        case ThinkingMessage():
            return "[redacted]" if m.redacted and not m.thinking else m.thinking
        case ToolUseMessage():
            return f"{m.name} {_json(m.input)}"
        case ToolResultMessage():
            flag = " (error)" if m.is_error else ""
            return f"{m.tool_use_id}{flag}: {_result_text(m)}"
        case ImageMessage() | AudioMessage() | DocumentMessage() | VideoMessage():
            return describe_media(m)
        case RawMessage():
            return _short(m.data)
        case ServerToolUseMessage():
            return f"{m.name} {_json(m.input)}"
        case ServerToolResultMessage():
            flag = " (error)" if m.is_error else ""
            return (
                f"{m.tool} {m.tool_use_id}{flag}: {server_output(m.content) or _short(m.content)}"
            )
        case _:
            return summary(m) or str(getattr(m, "text", ""))


def one_line(m: Message) -> str:
    r"""``[kind/role] body`` on one line (newlines in the body written as ``\n``).

    >>> one_line(ToolUseMessage("t1", "Bash", {"command": "ls"}))
    '[tool_use/assistant] Bash {"command": "ls"}'
    """
    body = _body(m).replace("\r", "").replace("\n", "\\n")
    return f"{_head(m)} {body}".rstrip()
