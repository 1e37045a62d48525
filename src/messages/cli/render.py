"""Readable transcripts of the flat view: one line per message, or Markdown.

Images and audio are named with their type and size, never dumped as base64; raw records
are shown as short compact JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Final

from .._core.frozen import thaw
from ..blocks import AudioBlock, Block, ImageBlock, TextBlock, ThinkingBlock, ToolUseBlock
from ..flat import (
    AudioMessage,
    ImageMessage,
    RawMessage,
    TextMessage,
    ThinkingMessage,
    ToolResultMessage,
    ToolUseMessage,
)
from ..media import parse_data_uri
from ..message import Message
from ..session import ErrorMessage, InitMessage, ResultMessage, StreamEventMessage

__all__ = ["MarkdownWriter", "describe_media", "one_line", "summary"]

RAW_WIDTH: Final = 160
"""Longest compact JSON shown for a raw record in a transcript."""


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.1f} MiB"


def _b64_size(text: str) -> int:
    body = "".join(text.split())
    return max(0, len(body) * 3 // 4 - (len(body) - len(body.rstrip("="))))


def describe_media(block: ImageBlock | AudioBlock) -> str:
    """``image/png, 1.2 KiB`` for data, the URL for a link, ``file ID`` for a file id."""
    media = block.resolved_media_type
    if block.data is not None:
        return f"{media or block.kind}, {_size(_b64_size(block.data))}"
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is None:
            return f"{media + ' ' if media else ''}{block.url}"
        size = _b64_size(uri.data) if uri.is_base64 else len(uri.data)
        return f"{uri.media_type}, {_size(size)}"
    if block.file_id is not None:
        return f"{media + ', ' if media else ''}file {block.file_id}"
    return media or "no data"


def _media_block(m: ImageMessage | AudioMessage) -> ImageBlock | AudioBlock:
    cls = ImageBlock if isinstance(m, ImageMessage) else AudioBlock
    return cls(data=m.data, url=m.url, file_id=m.file_id, media_type=m.media_type)


def _json(value: Any, *, indent: int | None = None) -> str:
    separators = None if indent is not None else (", ", ": ")
    return json.dumps(thaw(value), ensure_ascii=False, indent=indent, separators=separators)


def _short(value: Any) -> str:
    text = json.dumps(thaw(value), ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= RAW_WIDTH else text[: RAW_WIDTH - 1] + "…"


def _block_text(block: Block) -> str:
    match block:
        case TextBlock():
            return block.text
        case ThinkingBlock():
            return block.thinking
        case ImageBlock() | AudioBlock():
            return f"[{block.kind}: {describe_media(block)}]"
        case ToolUseBlock():
            return f"[tool_use: {block.name} {_json(block.input)}]"
        case _:
            return f"[{block.kind}]"


def _result_text(m: ToolResultMessage) -> str:
    if isinstance(m.content, str):
        return m.content
    return "\n".join(_block_text(b) for b in m.content)


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
        case ImageMessage() | AudioMessage():
            return describe_media(_media_block(m))
        case RawMessage():
            return _short(m.data)
        case _:
            return summary(m) or str(getattr(m, "text", ""))


def one_line(m: Message) -> str:
    r"""``[kind/role] body`` on one line (newlines in the body written as ``\n``).

    >>> one_line(ToolUseMessage("t1", "Bash", {"command": "ls"}))
    '[tool_use/assistant] Bash {"command": "ls"}'
    """
    body = _body(m).replace("\r", "").replace("\n", "\\n")
    return f"{_head(m)} {body}".rstrip()


_FENCE = re.compile(r"`{3,}")


def _fenced(text: str, lang: str = "") -> str:
    longest = max((len(run) for run in _FENCE.findall(text)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip(chr(10))}\n{fence}"


class MarkdownWriter:
    """Markdown for a flat stream, written message by message.

    A heading each time the speaker changes, fenced code for tool input and output, session
    messages as italic notes.
    """

    __slots__ = ("_role",)

    def __init__(self) -> None:
        self._role: str | None = None

    def render(self, m: Message) -> Iterator[str]:
        """The Markdown paragraphs for one message (each without a trailing blank line)."""
        role = getattr(m, "role", None)
        if role is not None and role != self._role and not isinstance(m, RawMessage):
            self._role = role
            yield f"## {role}"
        match m:
            case TextMessage():
                yield m.text
            case ThinkingMessage():
                text = "[redacted]" if m.redacted and not m.thinking else m.thinking
                yield "\n".join(f"> {line}".rstrip() for line in f"*thinking:* {text}".split("\n"))
            case ToolUseMessage():
                yield f"**Tool call** `{m.name}` (`{m.id}`)"
                yield _fenced(_json(m.input, indent=2), "json")
            case ToolResultMessage():
                flag = ", error" if m.is_error else ""
                yield f"**Tool result** (`{m.tool_use_id}`{flag})"
                yield _fenced(_result_text(m))
            case ImageMessage() | AudioMessage():
                yield f"*[{m.kind}: {describe_media(_media_block(m))}]*"
            case RawMessage():
                text = _short(m.data)
                yield f"*raw:* `` {text} ``" if "`" in text else f"*raw:* `{text}`"
            case _:
                text = summary(m, answer=False).replace("\n", " ")
                yield f"*{m.kind}: {text}*" if text else f"*{m.kind}*"
