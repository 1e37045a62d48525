"""The text of messages and streams, one-line summaries, and whole-conversation transcripts.

>>> from messages import AssistantMessage, TextBlock, ToolUseBlock, text
>>> turn = AssistantMessage((TextBlock("Listing."), ToolUseBlock("t1", "Bash", {"command": "ls"})))
>>> text.text_of(turn), text.summarize(turn)
('Listing.', 'Listing. [Tool: Bash]')
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Mapping

from ..events.run import ErrorMessage
from ..events.run import InitMessage
from ..events.run import InvalidLineMessage
from ..events.run import ResultMessage
from ..events.run import StreamEventMessage
from ..flat import TextMessage
from ..message import ROLE_TYPES
from ..message import Message
from ..message import check_messages
from ..message import role_of
from ..roles import UserMessage
from ._render import LABELS
from ._render import Format
from ._render import Part
from ._render import clip
from ._render import entries
from ._render import event_entry
from ._render import media_word
from ._render import parts_of
from ._render import raw_note
from ._render import write

__all__ = ["Format", "LABELS", "has_text", "stream_text", "summarize", "text_of", "transcript"]


def text_of(message: Message) -> str:
    """The text a message says: its text blocks joined by newlines, or a TextMessage's text.

    Thinking, tool calls, tool results and media are not text here (see :func:`summarize`
    and :func:`transcript` for those); session messages have no text. For a role message
    this is its ``.text``, so flattening it keeps the same text, piece by piece.

    >>> from messages import UserMessage, ToolResultMessage
    >>> text_of(UserMessage("hi")), text_of(ToolResultMessage("t1", "out"))
    ('hi', '')
    """
    if isinstance(message, ROLE_TYPES):
        return message.text
    if isinstance(message, TextMessage):
        return message.text
    return ""


def has_text(message: Message) -> bool:
    r"""Whether a message says anything: its :func:`text_of` is not empty or blank.

    >>> from messages import AssistantMessage, ToolUseBlock
    >>> has_text(AssistantMessage(" \n")), has_text(AssistantMessage((ToolUseBlock("t", "f"),)))
    (False, False)
    """
    return bool(text_of(message).strip())


def stream_text(
    messages: Iterable[Message],
    *,
    roles: str | Collection[str] | None = None,
    separator: str = "\n",
) -> str:
    r"""The text of a stream: the non-empty :func:`text_of` of each message, joined.

    ``roles`` keeps only messages with those roles (``"assistant"`` for what the agent
    said); ``separator`` goes between messages (use ``""`` for streamed text deltas).

    >>> from messages import UserMessage, AssistantMessage, TextMessage
    >>> stream = [UserMessage("2+2?"), AssistantMessage("4"), TextMessage("Done.")]
    >>> stream_text(stream, roles="assistant")
    '4\nDone.'
    """
    wanted = None if roles is None else {roles} if isinstance(roles, str) else set(roles)
    pieces = []
    for message in check_messages(messages):
        if wanted is not None and role_of(message) not in wanted:
            continue
        piece = text_of(message)
        if piece:
            pieces.append(piece)
    return separator.join(pieces)


def _short(part: Part) -> str:
    match part.kind:
        case "text":
            return part.text
        case "thinking":
            return "[Thinking]"
        case "tool_use":
            return f"[Tool: {part.attr('name')}]"
        case "tool_result":
            return f"[Tool {'error' if part.flag else 'result'}] {part.text}"
        case "media":
            word = media_word(part)
            media_type = part.attr("media_type")
            return f"[{word}: {media_type}]" if media_type else f"[{word}]"
        case "raw":
            return raw_note(part)
        case "server_tool_use":
            return f"[Server tool: {part.attr('name')}]"
        case "server_tool_result":
            return f"[Server tool {'error' if part.flag else 'result'}: {part.attr('tool')}]"


def _tag(message: Message) -> str | None:
    event = event_entry(message)
    if event is not None:
        details = ", ".join(value for _, value in event.attrs)
        return f"[{event.label}: {details}]" if details else f"[{event.label}]"
    if isinstance(message, UserMessage) and message.summary is not None:
        return f"[{message.summary.capitalize()} summary]"
    if isinstance(message, ResultMessage):
        return f"[Result: {message.subtype}]" if message.subtype else "[Result]"
    if isinstance(message, ErrorMessage):
        return f"[Error: {message.code}]" if message.code else "[Error]"
    if isinstance(message, InitMessage):
        return "[Init]"
    if isinstance(message, StreamEventMessage):
        return f"[Event: {message.type}]" if message.type else "[Event]"
    if isinstance(message, InvalidLineMessage):
        return f"[Invalid line {message.line}]" if message.line is not None else "[Invalid line]"
    return None


def summarize(message: Message, max_length: int | None = 80) -> str:
    r"""One line saying what a message holds, at most ``max_length`` characters.

    Text as is; ``[Thinking]``; tool calls as ``[Tool: name]``; results as
    ``[Tool result] text`` or ``[Tool error] text``; media as ``[Image: image/png]`` (never
    their data); session messages as ``[Result: success] text``, ``[Error: code] text``,
    ``[Init]``, ``[Event: type]``; agent events as ``[Task: task_started, t1]``,
    ``[Compacted: auto, 155000]``...; a compaction summary as ``[Compaction summary] text``.
    Whitespace runs become one space; a cut line ends with an ellipsis.
    ``max_length=None`` does not cut.

    >>> from messages import AssistantMessage, TextBlock, ToolUseBlock
    >>> summarize(AssistantMessage((TextBlock("Let me check the\nfiles."),
    ...                             ToolUseBlock("t1", "Bash", {"command": "ls"}))))
    'Let me check the files. [Tool: Bash]'
    >>> summarize(AssistantMessage("A rather long answer that goes on."), 20)
    'A rather long answe…'
    """
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must not be negative, found {max_length!r}")
    pieces = [_short(p) for p in parts_of(message)]
    tag = _tag(message)
    if tag is not None:
        pieces.insert(0, tag)
    return clip(" ".join(" ".join(pieces).split()), max_length)


def transcript(
    messages: Iterable[Message],
    *,
    format: Format = "text",
    labels: Mapping[str, str] | None = None,
    include_thinking: bool = True,
    include_events: bool = False,
    max_text_length: int | None = None,
) -> str:
    """A whole conversation as readable text: ``"text"``, ``"markdown"``, ``"xml"`` or ``"html"``.

    - ``text``: one ``Label: content`` entry per message (``User: hi``), pieces on their
      own lines, tool calls as ``[Tool: name] {"arg": ...}``, results as
      ``[Tool result: id] output``.
    - ``markdown``: a ``### Label`` heading per message; tool arguments and outputs in
      fenced code blocks (fences grow to stay longer than any backtick run inside),
      thinking as a block quote.
    - ``xml``: ``<user>hi</user>``; a message with more than text holds one child per
      piece (``<text>``, ``<thinking>``, ``<tool_use id name>``, ``<tool_result
      tool_use_id>``, ``<image .../>``...). Text and attributes are escaped.
    - ``html``: a self-contained page (inline style and script, nothing fetched): each turn
      with its time and usage, Markdown rendered (with the ``view`` extra), each tool call
      with its result folded below it, images inline, a search box. See
      :func:`messages.text.html.session_page`, which renders a whole session so.

    Images and audio are named by type, size, URL or file id and never written out as
    base64. Consecutive flat messages with the same role share one entry; session
    messages get their own (``Result (success): ...``), stream events and agent events
    (task, hook, status, rate limit) only with ``include_events``; a compaction boundary
    always shows, and a compaction summary is labelled ``User (compaction summary)``. ``labels`` renames roles in the text and Markdown styles (for
    example ``{"user": "Human", "assistant": "AI"}``); ``max_text_length`` cuts every long
    text, argument and output.

    >>> from messages import UserMessage, AssistantMessage, TextBlock, ToolUseBlock
    >>> from messages import ToolMessage, ToolResultBlock
    >>> chat = [UserMessage("What is here?"),
    ...         AssistantMessage((TextBlock("Looking."), ToolUseBlock("t1", "Bash", {"cmd": "ls"}))),
    ...         ToolMessage((ToolResultBlock("t1", "a.txt"),))]
    >>> print(transcript(chat))
    User: What is here?
    Assistant: Looking.
    [Tool: Bash] {"cmd": "ls"}
    Tool: [Tool result: t1] a.txt
    >>> print(transcript(chat[:1], format="xml"))
    <user>What is here?</user>
    """  # noqa: E501
    if max_text_length is not None and max_text_length < 0:
        raise ValueError(f"max_text_length must not be negative, found {max_text_length!r}")
    if format == "html":
        from .html import messages_page

        return messages_page(
            check_messages(messages),
            labels=labels,
            include_thinking=include_thinking,
            include_events=include_events,
            max_text_length=max_text_length,
        )
    items = entries(
        check_messages(messages),
        labels=labels,
        include_thinking=include_thinking,
        include_events=include_events,
        limit=max_text_length,
    )
    return write(items, format)
