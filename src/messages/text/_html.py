"""Messages as HTML turns: tool calls with their results below, subagents, events.

A conversation becomes items (turns, events, runs of records); :class:`_Writer` writes them,
placing each tool result under its call. The pieces (escaping, Markdown, media, tool inputs)
are in ``_markup``; the page around them in :mod:`messages.text.html`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Final

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
from ..events.run import ErrorMessage
from ..events.run import InitMessage
from ..events.run import InvalidLineMessage
from ..events.run import ResultMessage
from ..flat import RawMessage
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import Message
from ..message import role_of
from ..policy import server_output
from ..roles import AssistantMessage
from ..roles import UserMessage
from ..roles import as_blocks
from ..usage import Usage
from ._markup import cut
from ._markup import esc
from ._markup import json_text
from ._markup import markdown
from ._markup import media
from ._markup import number
from ._markup import time_tag
from ._markup import tool_input
from ._markup import usage_words
from ._render import LABELS
from ._render import Entry
from ._render import Transcriber
from ._render import clip

__all__ = ["Options", "render_messages"]


# -- the renderer --------------------------------------------------------------------------


@dataclass(slots=True)
class Options:
    """What to show, and the hooks a session page uses to nest subagents and branches."""

    labels: Mapping[str, str] = field(default_factory=lambda: dict(LABELS))
    include_thinking: bool = True
    include_events: bool = False
    limit: int | None = None
    nested: Callable[[str], str] | None = None
    """HTML to place under the tool call with this id (a subagent's conversation)."""
    after: Callable[[str], str] | None = None
    """HTML to place after the message with this uuid (the branches forking there)."""
    usage_of: Mapping[int, Usage] | None = None
    """Usage logged apart from its response (Codex's token counts), by ``id()`` of the
    response's last message."""


@dataclass(slots=True)
class _Turn:
    role: str
    label: str
    blocks: list[Block]
    first: Message
    flat: bool
    usage: Usage | None = None
    message_id: str | None = None
    uuids: list[str] = field(default_factory=list)
    summary: str | None = None


@dataclass(slots=True)
class _Event:
    message: Message


@dataclass(slots=True)
class _Raw:
    types: dict[str, int]


_Item = _Turn | _Event | _Raw


def _items(messages: Iterable[Message], opts: Options) -> list[_Item]:
    items: list[_Item] = []
    quiet = Transcriber(include_events=opts.include_events)
    for m in messages:
        last = items[-1] if items else None
        uuid = getattr(m, "uuid", None)
        if isinstance(m, RawMessage):
            kind = m.type or "record"
            if isinstance(last, _Raw):
                last.types[kind] = last.types.get(kind, 0) + 1
            else:
                items.append(_Raw({kind: 1}))
            continue
        role = role_of(m)
        if isinstance(m, ROLE_TYPES) or isinstance(m, FLAT_TYPES):  # noqa: SIM101 (narrowing)
            assert role is not None
            flat = isinstance(m, FLAT_TYPES)
            blocks = (
                list(as_blocks(m.content)) if isinstance(m, ROLE_TYPES) else [message_to_block(m)]
            )
            mid = m.message_id
            if (
                isinstance(last, _Turn)
                and last.role == role
                and last.summary is None
                and (
                    (flat and last.flat and (mid is None or last.message_id in (None, mid)))
                    or (role == "assistant" and mid is not None and last.message_id == mid)
                    or (  # one response told in pieces with no ids (Codex): open until usage
                        role == "assistant"
                        and mid is None
                        and last.message_id is None
                        and last.usage is None
                    )
                )
            ):
                last.blocks += blocks
                if isinstance(m, AssistantMessage) and m.usage is not None:
                    last.usage = m.usage  # the lines of one response repeat its usage
                elif opts.usage_of and last.usage is None:
                    last.usage = opts.usage_of.get(id(m))
                if uuid:
                    last.uuids.append(uuid)
                continue
            turn = _Turn(role, opts.labels.get(role, role.capitalize()), blocks, m, flat)
            turn.message_id = mid
            turn.usage = m.usage if isinstance(m, AssistantMessage) else None
            if turn.usage is None and opts.usage_of:
                turn.usage = opts.usage_of.get(id(m))
            if isinstance(m, UserMessage) and m.summary is not None:
                turn.summary = m.summary
                turn.label = f"{m.summary.capitalize()} summary"
            if uuid:
                turn.uuids.append(uuid)
            items.append(turn)
            continue
        if (
            isinstance(m, ResultMessage)
            and m.usage is not None
            and m.result is None
            and isinstance(last, _Turn)
            and last.role == "assistant"
            and last.usage is None
        ):
            last.usage = m.usage  # a per-call token count (Codex) is the call's usage
            continue
        if quiet.add(m) is not None:
            items.append(_Event(m))
    return items


class _Writer:
    __slots__ = ("_calls", "_opts", "_out", "_placed", "_results", "_seq")

    def __init__(self, opts: Options, items: list[_Item], seq: list[int]) -> None:
        self._opts = opts
        self._out: list[str] = []
        self._seq = seq
        self._results: dict[str, ToolResultBlock | ServerToolResultBlock] = {}
        self._calls: set[str] = set()
        self._placed: set[str] = set()
        for item in items:
            if isinstance(item, _Turn):
                for b in item.blocks:
                    if isinstance(b, ToolUseBlock | ServerToolUseBlock):
                        self._calls.add(b.id)
                    elif isinstance(b, ToolResultBlock | ServerToolResultBlock):
                        self._results.setdefault(b.tool_use_id, b)

    def _paired(self, block: Block) -> bool:
        return (
            isinstance(block, ToolResultBlock | ServerToolResultBlock)
            and block.tool_use_id in self._calls
            and self._results.get(block.tool_use_id) is block
        )

    def write(self, items: list[_Item]) -> str:
        for item in items:
            if isinstance(item, _Turn):
                self._turn(item)
            elif isinstance(item, _Raw):
                self._raw(item)
            else:
                self._event(item.message)
        return "".join(self._out)

    def _anchor(self) -> str:
        self._seq[0] += 1
        return f"m{self._seq[0]}"

    def _turn(self, turn: _Turn) -> None:
        blocks = [
            b
            for b in turn.blocks
            if not self._paired(b)
            and (self._opts.include_thinking or not isinstance(b, ThinkingBlock))
        ]
        if not blocks and turn.summary is None:
            self._after(turn.uuids)
            return
        anchor = self._anchor()
        cls = f"turn {turn.role}" + (" summary" if turn.summary else "")
        head = [f'<span class="role">{esc(turn.label)}</span>']
        first = turn.first
        head.append(time_tag(getattr(first, "timestamp", None)))
        model = getattr(first, "model", None)
        if turn.role == "assistant" and isinstance(model, str):
            head.append(f'<span class="model">{esc(model)}</span>')
        words = usage_words(turn.usage)
        if words:
            head.append(f'<span class="usage">{esc(words)}</span>')
        head.append(f'<a class="anchor" href="#{anchor}">#</a>')
        out = self._out
        out.append(f'<section class="{cls}" id="{anchor}" data-role="{esc(turn.role)}">')
        out.append(f'<div class="head">{"".join(head)}</div>')
        if turn.summary is not None:
            text = "\n".join(b.text for b in blocks if isinstance(b, TextBlock))
            out.append(f"<details><summary>Show the summary</summary>{markdown(text)}</details>")
        elif turn.role in ("system", "developer"):  # instructions: long, rarely read
            size = sum(len(b.text) for b in blocks if isinstance(b, TextBlock))
            out.append(f"<details><summary>Instructions · {number(size)} characters</summary>")
            for block in blocks:
                self._block(block, turn.role)
            out.append("</details>")
        else:
            for block in _joined(blocks) if turn.flat else blocks:
                self._block(block, turn.role)
        out.append("</section>")
        self._after(turn.uuids)

    def _after(self, uuids: list[str]) -> None:
        if self._opts.after is not None:
            for uuid in uuids:
                self._out.append(self._opts.after(uuid))

    def _text(self, text: str, role: str) -> str:
        text = clip(text, self._opts.limit)
        if role == "user":
            return f'<div class="plain">{cut(text, "prompt")}</div>'  # long pastes fold
        return markdown(text)

    def _block(self, block: Block, role: str) -> None:
        out = self._out
        match block:
            case TextBlock():
                out.append(self._text(block.text, role))
            case ThinkingBlock():
                if block.redacted and not block.thinking:
                    out.append('<div class="event">Thinking (redacted)</div>')
                else:
                    text = esc(clip(block.thinking, self._opts.limit))
                    out.append(
                        f'<details class="thinking"><summary>Thinking</summary><div>{text}</div>'
                        "</details>"
                    )
            case ToolUseBlock():
                self._call(block)
            case ToolResultBlock():
                out.append(self._result(block))
            case ServerToolUseBlock():
                body = cut(json_text(raw(block.input)), "json") if block.input else ""
                result = self._results.get(block.id)
                out.append(
                    f'<div class="call server" data-call="{esc(block.id)}"><div><span class="name">'
                    f"{esc(block.name)}</span>"
                    f' <span class="meta">server tool</span></div>{body}'
                )
                if isinstance(result, ServerToolResultBlock):
                    self._placed.add(block.id)
                    out.append(self._server_result(result))
                out.append("</div>")
            case ServerToolResultBlock():
                out.append(self._server_result(block))
            case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
                out.append(media(block))
            case RawBlock():
                kind = block.type or "block"
                body = cut(json_text(raw(block.data)), "json")
                out.append(f"<details><summary>Raw {esc(kind)}</summary>{body}</details>")

    def _call(self, block: ToolUseBlock) -> None:
        out = self._out
        out.append(
            f'<div class="call" data-call="{esc(block.id)}"><div><span class="name">'
            f"{esc(block.name)}</span></div>{tool_input(block)}"
        )
        if self._opts.nested is not None:
            out.append(self._opts.nested(block.id))
        result = self._results.get(block.id)
        if isinstance(result, ToolResultBlock):
            out.append(self._result(result))
        out.append("</div>")

    def _result(self, block: ToolResultBlock) -> str:
        error = bool(block.is_error)
        text = clip(block.text, self._opts.limit)
        lines = text.count("\n") + 1 if text else 0
        word = "Error" if error else "Result"
        size = f" · {number(lines)} line{'s' if lines != 1 else ''}" if text else " · empty"
        inner = [cut(text)] if text else []
        if not isinstance(block.content, str):
            inner += [media(b) for b in block.content if not isinstance(b, TextBlock)]
            size += "".join(
                f" · {b.kind}" for b in block.content if not isinstance(b, TextBlock | RawBlock)
            )
        cls = "result error" if error else "result"
        return f'<details class="{cls}"><summary>{word}{size}</summary>{"".join(inner)}</details>'

    def _server_result(self, block: ServerToolResultBlock) -> str:
        text = server_output(block.content) or json_text(raw(block.content))
        cls = "result error" if block.is_error else "result"
        word = "Error" if block.is_error else "Result"
        return (
            f'<details class="{cls}"><summary>{word} · {esc(block.tool)}</summary>{cut(text)}'
            "</details>"
        )

    def _raw(self, item: _Raw) -> None:
        if not self._opts.include_events:
            return
        total = sum(item.types.values())
        kinds = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in item.types.items())
        plural = "s" if total != 1 else ""
        self._out.append(f'<div class="event raw">{total} other record{plural}: {esc(kinds)}</div>')

    def _event(self, m: Message) -> None:
        out = self._out
        when = time_tag(getattr(m, "timestamp", None))
        if isinstance(m, CompactBoundaryMessage):
            bits = ["Context compacted"]
            if m.trigger:
                bits.append(m.trigger)
            if m.pre_tokens is not None:
                bits.append(f"{number(m.pre_tokens)} tokens before")
            out.append(f'<div class="compact">{esc(" · ".join(bits))} {when}</div>')
        elif isinstance(m, ConversationResetMessage):
            out.append(f'<div class="compact">Conversation reset {when}</div>')
        elif isinstance(m, ResultMessage):
            bits = ["Result"] + ([m.subtype] if m.subtype else [])
            if m.is_error:
                bits.append("error")
            if m.num_turns is not None:
                bits.append(f"{m.num_turns} turns")
            if m.duration_ms is not None:
                bits.append(f"{m.duration_ms / 1000:.1f} s")
            if m.total_cost_usd is not None:
                bits.append(f"${m.total_cost_usd:.4f}")
            words = usage_words(m.usage)
            bits += [words] if words else []
            cls = "event error" if m.is_error else "event"
            body = (
                f"<details><summary>Result text</summary>{markdown(m.result)}</details>"
                if m.result
                else ""
            )
            out.append(f'<div class="{cls}">{esc(" · ".join(bits))} {when}{body}</div>')
        elif isinstance(m, ErrorMessage | InvalidLineMessage):
            head = "Invalid line" if isinstance(m, InvalidLineMessage) else "Error"
            text = m.text if isinstance(m, InvalidLineMessage) else m.message
            out.append(f'<div class="event error">{head} {when}{cut(text)}</div>')
        elif isinstance(m, InitMessage):
            bits = ["Session start"]
            for value in (m.model, m.cwd):
                if value:
                    bits.append(value)
            if m.tools is not None:
                bits.append(f"{len(m.tools)} tools")
            out.append(f'<div class="event">{esc(" · ".join(bits))} {when}</div>')
        else:
            out.append(f'<div class="event">{esc(_event_words(m))} {when}</div>')
        uuid = getattr(m, "uuid", None)
        if isinstance(uuid, str):
            self._after([uuid])


_CHUNK: Final = 400
"""Pieces shorter than this, four or more in a row, are a stream's chunks (ACP): joined as is."""


def _joined(blocks: list[Block]) -> list[Block]:
    """Runs of plain text or thinking pieces in a flat turn, each run as one block.

    Streamed chunks (many short pieces) join with nothing between them; whole messages
    join as paragraphs.
    """
    out: list[Block] = []
    run: list[Block] = []

    def flush() -> None:
        if len(run) == 1:
            out.append(run[0])
        elif run:
            pieces = [b.text if isinstance(b, TextBlock) else b.thinking for b in run]  # type: ignore[union-attr]
            chunks = len(pieces) >= 4 and all(len(p) < _CHUNK for p in pieces)
            text = ("" if chunks else "\n\n").join(pieces)
            out.append(TextBlock(text) if isinstance(run[0], TextBlock) else ThinkingBlock(text))
        run.clear()

    for block in blocks:
        plain = (isinstance(block, TextBlock) and not block.citations) or (
            isinstance(block, ThinkingBlock) and not block.redacted
        )
        if not plain or (run and type(run[0]) is not type(block)):
            flush()
        if plain:
            run.append(block)
        else:
            out.append(block)
    flush()
    return out


def _event_words(m: Message) -> str:
    from ._render import event_entry

    entry: Entry | None = event_entry(m)
    if entry is None:
        return str(getattr(m, "type", None) or m.kind)
    details = ", ".join(value for _, value in entry.attrs)
    return f"{entry.label}: {details}" if details else entry.label


def render_messages(messages: Iterable[Message], opts: Options, seq: list[int]) -> str:
    """The turns of a conversation as HTML (no page around them).

    ``seq`` numbers the turns' anchors across calls (one counter per page).
    """
    items = _items(messages, opts)
    return _Writer(opts, items, seq).write(items)
