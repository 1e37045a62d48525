"""Rendering messages as readable text: the pieces of a message, and three transcript styles.

A message is first turned into :class:`Part` values (text, thinking, a tool call, a tool
result, a named medium, a raw block); each style then writes the parts its way.
Media are always named (type, size, URL or file id) and never written out as base64.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Final
from typing import Literal
from typing import assert_never

from .._core.frozen import raw
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
from ..convert import message_to_block
from ..events.agent import CompactBoundaryMessage
from ..events.agent import ConversationResetMessage
from ..events.agent import HookEventMessage
from ..events.agent import RateLimitMessage
from ..events.agent import StatusMessage
from ..events.agent import SystemEventMessage
from ..events.agent import TaskEventMessage
from ..events.records import FileSnapshotMessage
from ..events.records import ProgressMessage
from ..events.records import QueueOperationMessage
from ..events.records import TitleMessage
from ..events.records import TurnContextMessage
from ..events.records import TurnEventMessage
from ..events.run import ErrorMessage
from ..events.run import InitMessage
from ..events.run import InvalidLineMessage
from ..events.run import ResultMessage
from ..events.run import StreamEventMessage
from ..flat import RawMessage
from ..media import describe_media
from ..media import media_facts
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import Message
from ..message import role_of
from ..policy import server_output
from ..roles import UserMessage
from ..roles import as_blocks

__all__ = [
    "event_entry",
    "Entry",
    "LABELS",
    "MarkdownWriter",
    "Part",
    "Transcriber",
    "clip",
    "code_span",
    "entries",
    "fence",
    "media_word",
    "parts_of",
    "raw_note",
    "write",
]

Format = Literal["text", "markdown", "xml", "html"]

LABELS: Final[Mapping[str, str]] = {
    "system": "System",
    "developer": "Developer",
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool",
}
"""Default labels for each role in the text and Markdown transcripts."""


@dataclass(frozen=True, slots=True)
class Part:
    """One readable piece of a message."""

    kind: Literal[
        "text",
        "thinking",
        "tool_use",
        "tool_result",
        "media",
        "raw",
        "server_tool_use",
        "server_tool_result",
    ]
    text: str = ""
    """The text, thinking, arguments (JSON), result text or media description."""
    attrs: tuple[tuple[str, str], ...] = ()
    """Named details (``id``, ``name``, ``media_type``...), in order."""
    children: tuple[Part, ...] = ()
    """The non-text parts of a tool result with block content."""
    flag: bool = False
    """Redacted thinking, an error result (client or server tool), or an image (vs audio)."""
    medium: str = ""
    """For a media part, what it is: ``image``, ``audio``, ``video`` or ``document``."""

    def attr(self, name: str) -> str:
        """The detail called ``name``, ``""`` when the part has none: every style reads them so."""
        for key, value in self.attrs:
            if key == name:
                return value
        return ""


@dataclass(slots=True)
class Entry:
    """One speaker's turn in a transcript: a label, a tag, attributes and parts."""

    label: str
    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    flat_role: str | None = None
    """The role of the flat messages gathered here (consecutive ones share an entry)."""


_URL_WIDTH: Final = 80
"""Longest URL a text or Markdown transcript shows for an image or audio link."""


def clip(text: str, limit: int | None) -> str:
    """``text`` cut to ``limit`` characters, the last being an ellipsis when cut."""
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "\u2026" if limit > 0 else ""


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _block(block: Block, limit: int | None) -> Part:
    match block:
        case TextBlock():
            return Part("text", clip(block.text, limit))
        case ThinkingBlock():
            return Part("thinking", clip(block.thinking, limit), flag=block.redacted)
        case ToolUseBlock():
            args = block.arguments if block.invalid_arguments else _json(raw(block.input))
            return Part(
                "tool_use", clip(args or "", limit), (("id", block.id), ("name", block.name))
            )
        case ToolResultBlock():
            attrs = [("tool_use_id", block.tool_use_id)]
            if block.name is not None:
                attrs.append(("name", block.name))
            children: tuple[Part, ...] = ()
            if not isinstance(block.content, str):
                children = tuple(
                    _block(b, limit) for b in block.content if not isinstance(b, TextBlock)
                )
            return Part(
                "tool_result",
                clip(block.text, limit),
                tuple(attrs),
                children,
                flag=bool(block.is_error),
            )
        case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
            text = describe_media(block, url_width=_URL_WIDTH)
            flag = isinstance(block, ImageBlock)
            return Part("media", text, media_facts(block), flag=flag, medium=block.kind)
        case RawBlock():
            return Part("raw", block.type or "", (("type", block.type),) if block.type else ())
        case ServerToolUseBlock():
            attrs = [("id", block.id), ("name", block.name)]
            return Part("server_tool_use", clip(_json(raw(block.input)), limit), tuple(attrs))
        case ServerToolResultBlock():
            attrs = [("tool_use_id", block.tool_use_id), ("tool", block.tool)]
            text = clip(server_output(block.content), limit)
            return Part("server_tool_result", text, tuple(attrs), flag=block.is_error)
        case _:
            assert_never(block)


def parts_of(message: Message, limit: int | None = None) -> list[Part]:
    """The readable pieces of any message, each text clipped to ``limit`` characters."""
    if isinstance(message, ROLE_TYPES):
        return [_block(b, limit) for b in as_blocks(message.content)]
    if isinstance(message, RawMessage):
        kind = message.type
        return [Part("raw", kind or "", (("type", kind),) if kind else ())]
    if isinstance(message, FLAT_TYPES):
        return [_block(message_to_block(message), limit)]
    if isinstance(message, ResultMessage):
        return [Part("text", clip(message.result, limit))] if message.result else []
    if isinstance(message, ErrorMessage):
        return [Part("text", clip(message.message, limit))]
    if isinstance(message, InvalidLineMessage):
        return [Part("text", clip(message.text, limit))]
    if isinstance(message, TaskEventMessage):
        words = message.summary or message.description
        return [Part("text", clip(words, limit))] if words else []
    if isinstance(message, ProgressMessage):  # a sub-agent's turn, as its own message reads
        return [] if message.message is None else parts_of(message.message, limit)
    if isinstance(message, TitleMessage):
        return [Part("text", clip(message.title, limit))] if message.title else []
    if isinstance(message, QueueOperationMessage):
        return [Part("text", clip(message.content, limit))] if message.content else []
    if isinstance(message, TurnEventMessage):
        words = message.last_message
        return [Part("text", clip(words, limit))] if words else []
    return []  # init, stream and other events: their entry's attributes say it all


def event_entry(message: Message) -> Entry | None:
    """The entry of an agent event (task, hook, compaction...); ``None`` for anything else."""
    attrs: list[tuple[str, str]] = []
    if isinstance(message, TaskEventMessage):
        attrs.append(("subtype", message.subtype))
        if message.task_id is not None:
            attrs.append(("task", message.task_id))
        if message.state is not None:
            attrs.append(("status", message.state))
        return Entry("Task", "task_event", attrs)
    if isinstance(message, HookEventMessage):
        attrs.append(("subtype", message.subtype))
        if message.event_name:
            attrs.append(("type", message.event_name))
        if message.outcome is not None:
            attrs.append(("outcome", message.outcome))
        return Entry("Hook", "hook_event", attrs)
    if isinstance(message, CompactBoundaryMessage):
        if message.trigger is not None:
            attrs.append(("trigger", message.trigger))
        if message.pre_tokens is not None:
            attrs.append(("pre_tokens", str(message.pre_tokens)))
        return Entry("Compacted", "compact_boundary", attrs)
    if isinstance(message, StatusMessage):
        attrs.append(("type", message.status or "idle"))
        return Entry("Status", "status", attrs)
    if isinstance(message, RateLimitMessage):
        for key, value in (("type", message.status), ("window", message.rate_limit_type)):
            if value is not None:
                attrs.append((key, value))
        return Entry("Rate limit", "rate_limit", attrs)
    if isinstance(message, SystemEventMessage):
        return Entry("System event", "system_event", [("subtype", message.subtype)])
    if isinstance(message, ConversationResetMessage):
        if message.new_conversation_id is not None:
            attrs.append(("conversation", message.new_conversation_id))
        return Entry("Conversation reset", "conversation_reset", attrs)
    return _record_entry(message)


def _put(attrs: list[tuple[str, str]], key: str, value: object) -> None:
    if value is not None:
        attrs.append((key, str(value)))


def _record_entry(message: Message) -> Entry | None:
    """The entry of a session-file record (progress, snapshot, title...); else ``None``."""
    attrs: list[tuple[str, str]] = []
    if isinstance(message, ProgressMessage):
        _put(attrs, "subtype", message.subtype)
        _put(attrs, "tool_use_id", message.tool_use_id)
        _put(attrs, "agent", message.agent_id)
        return Entry("Progress", "progress", attrs)
    if isinstance(message, FileSnapshotMessage):
        attrs.append(("files", str(len(message.tracked_files))))
        if message.is_update:
            attrs.append(("update", "true"))
        return Entry("File snapshot", "file_snapshot", attrs)
    if isinstance(message, TitleMessage):  # the branch's leaf is an id: not for reading
        return Entry("Title", "title", attrs)
    if isinstance(message, QueueOperationMessage):
        _put(attrs, "type", message.operation)
        return Entry("Queue", "queue_operation", attrs)
    if isinstance(message, TurnContextMessage):
        for key in ("model", "cwd", "effort"):
            _put(attrs, key, getattr(message, key))
        return Entry("Turn context", "turn_context", attrs)
    if isinstance(message, TurnEventMessage):
        attrs.append(("subtype", message.subtype))
        _put(attrs, "turn", message.turn_id)
        _put(attrs, "reason", message.reason)
        return Entry("Turn", "turn_event", attrs)
    return None


def _session_entry(message: Message) -> Entry:
    event = event_entry(message)
    if event is not None:
        return event
    attrs: list[tuple[str, str]] = []
    if isinstance(message, ResultMessage):
        if message.subtype is not None:
            attrs.append(("subtype", message.subtype))
        if message.is_error is not None:
            attrs.append(("is_error", "true" if message.is_error else "false"))
        return Entry("Result", "result", attrs)
    if isinstance(message, ErrorMessage):
        if message.code is not None:
            attrs.append(("code", message.code))
        return Entry("Error", "error", attrs)
    if isinstance(message, InitMessage):
        for key in ("session_id", "model", "cwd"):
            value = getattr(message, key)
            if value is not None:
                attrs.append((key, value))
        return Entry("Init", "init", attrs)
    if isinstance(message, InvalidLineMessage):
        if message.line is not None:
            attrs.append(("line", str(message.line)))
        if message.reason:
            attrs.append(("reason", message.reason))
        return Entry("Invalid line", "invalid_line", attrs)
    assert isinstance(message, StreamEventMessage)
    if message.type is not None:
        attrs.append(("type", message.type))
    return Entry("Event", "event", attrs)


_QUIET: Final = (
    StreamEventMessage,
    TaskEventMessage,
    HookEventMessage,
    StatusMessage,
    RateLimitMessage,
    SystemEventMessage,
    ProgressMessage,
    FileSnapshotMessage,
    QueueOperationMessage,
    TurnContextMessage,
    TurnEventMessage,
)
"""Messages a transcript shows only with ``include_events``: the harness's running notes.

A compaction boundary and a conversation reset are always shown: they say that earlier
history was replaced; so is a title.
"""


class Transcriber:
    """Builds transcript entries one message at a time (the one grouping rule).

    Consecutive flat messages of one role share an entry; a role message gets its own, and
    so does a session message (stream events only with ``include_events``).
    """

    __slots__ = ("_include_events", "_include_thinking", "_last", "_limit", "_names")

    def __init__(
        self,
        *,
        labels: Mapping[str, str] | None = None,
        include_thinking: bool = True,
        include_events: bool = False,
        limit: int | None = None,
    ) -> None:
        self._names = {**LABELS, **(labels or {})}
        self._include_thinking = include_thinking
        self._include_events = include_events
        self._limit = limit
        self._last: Entry | None = None

    def add(self, message: Message) -> tuple[Entry, list[Part], bool] | None:
        """Place ``message``: its entry, the parts it added, and whether the entry is new.

        ``None`` for a message left out (a stream event without ``include_events``).
        """
        if isinstance(message, _QUIET) and not self._include_events:
            return None
        parts = [
            p
            for p in parts_of(message, self._limit)
            if self._include_thinking or p.kind != "thinking"
        ]
        role = role_of(message)
        if isinstance(message, FLAT_TYPES):
            key = role or "raw"
            last = self._last
            if last is not None and last.flat_role == key:
                last.parts.extend(parts)
                return last, parts, False
            entry = Entry(self._names.get(key, key.capitalize()), key, flat_role=key)
        elif role is not None:
            label = self._names.get(role, role.capitalize())
            entry = Entry(label, role)
            if isinstance(message, UserMessage) and message.summary is not None:
                entry.label = f"{label} ({message.summary} summary)"  # written by the harness
                entry.attrs.append(("summary", message.summary))
        else:
            entry = _session_entry(message)
        entry.parts.extend(parts)
        self._last = entry
        return entry, parts, True


def entries(
    messages: Iterable[Message],
    *,
    labels: Mapping[str, str] | None,
    include_thinking: bool,
    include_events: bool,
    limit: int | None,
) -> list[Entry]:
    """Transcript entries; consecutive flat messages of one role share an entry."""
    builder = Transcriber(
        labels=labels,
        include_thinking=include_thinking,
        include_events=include_events,
        limit=limit,
    )
    out: list[Entry] = []
    for message in messages:
        placed = builder.add(message)
        if placed is not None and placed[2]:
            out.append(placed[0])
    return out


# -- plain text ---------------------------------------------------------------------------


def _text_part(part: Part) -> str:
    match part.kind:
        case "text":
            return part.text
        case "thinking":
            return "[Thinking: redacted]" if part.flag else f"[Thinking] {part.text}"
        case "tool_use":
            return f"[Tool: {part.attr('name')}] {part.text}".rstrip()
        case "tool_result":
            head = "Tool error" if part.flag else "Tool result"
            lines = [f"[{head}: {part.attr('tool_use_id')}] {part.text}".rstrip()]
            lines += [_text_part(child) for child in part.children]
            return "\n".join(lines)
        case "media":
            return _media_note(part)
        case "raw":
            return raw_note(part)
        case "server_tool_use":
            return f"[Server tool: {part.attr('name')}] {part.text}".rstrip()
        case "server_tool_result":
            head = "Server tool error" if part.flag else "Server tool result"
            return f"[{head}: {part.attr('tool')}] {part.text}".rstrip()
        case _:
            assert_never(part.kind)


def raw_note(part: Part) -> str:
    """The note for a raw part, in every style: ``[Raw: <what it is>]``, or ``[Raw]``."""
    return f"[Raw: {part.text}]" if part.text else "[Raw]"


def media_word(part: Part) -> str:
    """The capitalised name of a media part's medium (``Image``, ``Document``...)."""
    return (part.medium or ("image" if part.flag else "audio")).capitalize()


def _media_note(part: Part) -> str:
    word = media_word(part)
    return f"[{word}: {part.text}]" if part.text else f"[{word}]"


def _heading(entry: Entry) -> str:
    """The entry's label, with a session message's details: ``Result (success, error)``."""
    if entry.flat_role is not None or entry.tag in LABELS:
        return entry.label
    bits = []
    for key, value in entry.attrs:
        if key == "is_error":
            if value == "true":
                bits.append("error")
        elif key in ("subtype", "code", "type", "reason"):
            bits.append(value)
        else:
            bits.append(f"{key} {value}")
    return f"{entry.label} ({', '.join(bits)})" if bits else entry.label


def _write_text(items: list[Entry]) -> str:
    out = []
    for entry in items:
        body = "\n".join(_text_part(p) for p in entry.parts)
        out.append(f"{_heading(entry)}: {body}" if entry.parts else _heading(entry))
    return "\n".join(out)


# -- Markdown -----------------------------------------------------------------------------


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


_BACKTICKS: Final = re.compile(r"`+")


def fence(text: str, info: str = "") -> str:
    """``text`` as a fenced Markdown code block, the fence longer than any backtick run in it.

    >>> print(fence("a ``` b", "md"))
    ````md
    a ``` b
    ````
    """
    ticks = "`" * max(3, _longest_backticks(text) + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def code_span(text: str) -> str:
    """``text`` as inline Markdown code that no backtick inside it can close early."""
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _md_part(part: Part) -> str:
    match part.kind:
        case "text":
            return part.text
        case "thinking":
            if part.flag:
                return "> *Thinking (redacted)*"
            lines = f"**Thinking:** {part.text}".split("\n")
            return "\n".join(f"> {line}".rstrip() for line in lines)
        case "tool_use":
            head = f"**Tool call:** {code_span(part.attr('name'))} ({code_span(part.attr('id'))})"
            return f"{head}\n\n{fence(part.text, 'json')}"
        case "tool_result":
            word = "Tool error" if part.flag else "Tool result"
            chunks = [f"**{word}** ({code_span(part.attr('tool_use_id'))}):"]
            if part.text or not part.children:
                chunks.append(fence(part.text))
            chunks += [_md_part(child) for child in part.children]
            return "\n\n".join(chunks)
        case "media":
            return f"*{_media_note(part)}*"
        case "raw":
            return f"*{raw_note(part)}*"
        case "server_tool_use":
            name, call_id = code_span(part.attr("name")), code_span(part.attr("id"))
            return f"**Server tool call:** {name} ({call_id})\n\n{fence(part.text, 'json')}"
        case "server_tool_result":
            word = "Server tool error" if part.flag else "Server tool result"
            tool, call_id = code_span(part.attr("tool")), code_span(part.attr("tool_use_id"))
            return f"**{word}** ({tool}, {call_id}):\n\n{fence(part.text)}"
        case _:
            assert_never(part.kind)


def _write_markdown(items: list[Entry]) -> str:
    out = []
    for entry in items:
        out.append(f"### {_heading(entry)}")
        out += [_md_part(p) for p in entry.parts]
    return "\n\n".join(out)


class MarkdownWriter:
    """The Markdown transcript written message by message, for a stream of any length.

    The same paragraphs as ``transcript(format="markdown")``, given as they become known:
    ``### Label`` when a new entry starts, then one paragraph per part. Join them with a
    blank line. ``builder`` says what to show (by default what ``transcript`` shows).
    """

    __slots__ = ("_builder",)

    def __init__(self, builder: Transcriber | None = None) -> None:
        self._builder = builder or Transcriber()

    def render(self, message: Message) -> Iterator[str]:
        """The Markdown paragraphs ``message`` adds (none for a message left out)."""
        placed = self._builder.add(message)
        if placed is None:
            return
        entry, parts, new = placed
        if new:
            yield f"### {_heading(entry)}"
        for part in parts:
            yield _md_part(part)


# -- XML-ish tags -------------------------------------------------------------------------


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attrs(attrs: Iterable[tuple[str, str]]) -> str:
    return "".join(f' {k}="{_escape(v).replace(chr(34), "&quot;")}"' for k, v in attrs)


def _xml_part(part: Part) -> str:
    match part.kind:
        case "text":
            return f"<text>{_escape(part.text)}</text>"
        case "thinking":
            if part.flag:
                return '<thinking redacted="true"/>'
            return f"<thinking>{_escape(part.text)}</thinking>"
        case "tool_use":
            return f"<tool_use{_attrs(part.attrs)}>{_escape(part.text)}</tool_use>"
        case "tool_result":
            attrs = list(part.attrs) + ([("is_error", "true")] if part.flag else [])
            inner = _escape(part.text)
            if part.children:
                inner += "".join(_xml_part(child) for child in part.children)
            return f"<tool_result{_attrs(attrs)}>{inner}</tool_result>"
        case "media":
            tag = media_word(part).lower()
            attrs_ = [(k, clip(v, 200) if k == "url" else v) for k, v in part.attrs]
            return f"<{tag}{_attrs(attrs_)}/>"
        case "raw":
            return f"<raw{_attrs(part.attrs)}/>"
        case "server_tool_use":
            return f"<server_tool_use{_attrs(part.attrs)}>{_escape(part.text)}</server_tool_use>"
        case "server_tool_result":
            attrs = list(part.attrs) + ([("is_error", "true")] if part.flag else [])
            inner = _escape(part.text)
            return f"<server_tool_result{_attrs(attrs)}>{inner}</server_tool_result>"
        case _:
            assert_never(part.kind)


def _write_xml(items: list[Entry]) -> str:
    out = []
    for entry in items:
        tag, attrs = entry.tag, _attrs(entry.attrs)
        if not entry.parts:
            out.append(f"<{tag}{attrs}/>")
        elif all(p.kind == "text" for p in entry.parts):
            body = _escape("\n".join(p.text for p in entry.parts))
            out.append(f"<{tag}{attrs}>{body}</{tag}>")
        else:
            inner = "\n".join(_xml_part(p) for p in entry.parts)
            out.append(f"<{tag}{attrs}>\n{inner}\n</{tag}>")
    return "\n".join(out)


def write(items: list[Entry], fmt: Format) -> str:
    """Write transcript entries in one of the three styles."""
    if fmt == "text":
        return _write_text(items)
    if fmt == "markdown":
        return _write_markdown(items)
    if fmt == "xml":
        return _write_xml(items)
    raise ValueError(f"format must be 'text', 'markdown', 'xml' or 'html', found {fmt!r}")
