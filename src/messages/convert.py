"""Pure conversions between the block view and the flat view.

Nothing here performs I/O or mutates its inputs. See ``docs/convert.md`` for every rule.

>>> from messages import AssistantMessage, TextBlock, ToolUseBlock
>>> turn = AssistantMessage((TextBlock("Listing."), ToolUseBlock("t1", "Bash", {"command": "ls"})),
...                         session_id="s1")
>>> [m.kind for m in normalize_messages([turn])]
['text', 'tool_use']
>>> messages_to_blocks(flatten_assistant(turn)) == turn.content
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Unpack, assert_never

from . import _anthropic
from ._json import FrozenDict, _copy_value, depth_limit, thaw
from ._wire import type_name
from .blocks import (
    AudioBlock,
    Block,
    ImageBlock,
    RawBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from .errors import DecodeError
from .flat import (
    AudioMessage,
    ImageMessage,
    RawMessage,
    TextMessage,
    ThinkingMessage,
    ToolResultMessage,
    ToolUseMessage,
)
from .message import MESSAGE_TYPES, ROLE_TYPES, Context, Message
from .roles import as_blocks

__all__ = [
    "block_to_message",
    "context_of",
    "dump_blocks",
    "flatten_assistant",
    "message_to_block",
    "messages_to_blocks",
    "normalize_messages",
    "parse_blocks",
]

_NATIVE_TAG = "v"


def parse_blocks(raw: Any, *, provider: str | None = None) -> tuple[Block, ...]:
    """Decode a JSON list of content blocks (Anthropic / Claude Code shapes) into blocks.

    Known: ``text``, ``thinking``, ``redacted_thinking``, ``tool_use``, ``tool_result`` (its
    content recursively), ``image`` and ``audio`` with a ``base64``/``url``/``file`` source.
    Anything else (unknown types, documents, server tools, elements that are not objects)
    becomes a :class:`RawBlock` holding the original value. A missing required string reads as
    ``""`` and a missing ``input`` as ``{}``. Input that is not a list, or a known block with a
    field of the wrong type, raises :class:`DecodeError` with the path to it.

    The input is copied first, so later changes to it cannot reach the blocks.

    >>> parse_blocks([{"type": "text", "text": "hi"}, {"type": "server_tool_use", "id": "s1"}])
    (TextBlock(text='hi'), RawBlock(data=FrozenDict({'type': 'server_tool_use', 'id': 's1'})))
    """
    if not isinstance(raw, (list, tuple)):
        raise DecodeError(f"expected an array of content blocks, found {type_name(raw)}", value=raw)
    owned = _copy_value(raw, "$", 0, depth_limit())
    return _anthropic.decode_blocks(owned, provider)


def dump_blocks(blocks: Iterable[Block]) -> list[Any]:
    """Encode blocks back to the JSON list :func:`parse_blocks` reads (a fresh copy).

    >>> dump_blocks(parse_blocks([{"type": "tool_use", "id": "t", "name": "n", "input": {}}]))
    [{'type': 'tool_use', 'id': 't', 'name': 'n', 'input': {}}]
    """
    return thaw(_anthropic.encode_blocks(tuple(blocks)))  # type: ignore[no-any-return]


def _native_message(data: Any) -> Message | None:
    """The message a RawBlock wraps, when its data is a native message dict."""
    if type(data) is FrozenDict and _NATIVE_TAG in data and "kind" in data:
        from .serialize import from_dict

        try:
            value = from_dict(data)
        except DecodeError:
            return None
        if isinstance(value, MESSAGE_TYPES):
            return value
    return None


def block_to_message(block: Block, **context: Unpack[Context]) -> Message:
    """The flat message for one block, with the given role and context fields.

    A RawBlock that wraps a whole message (see :func:`message_to_block`) gives that message
    back unchanged, and the context is not applied to it.

    >>> block_to_message(TextBlock("hi"), role="user", session_id="s1")
    TextMessage(text='hi', role='user', session_id='s1')
    """
    match block:
        case TextBlock():
            return TextMessage(block.text, citations=block.citations, extra=block.extra, **context)
        case ThinkingBlock():
            return ThinkingMessage(
                block.thinking,
                signature=block.signature,
                redacted=block.redacted,
                provider=block.provider,
                extra=block.extra,
                **context,
            )
        case ToolUseBlock():
            return ToolUseMessage(
                block.id,
                block.name,
                block.input,
                arguments=block.arguments,
                extra=block.extra,
                **context,
            )
        case ToolResultBlock():
            return ToolResultMessage(
                block.tool_use_id,
                block.content,
                is_error=block.is_error,
                name=block.name,
                extra=block.extra,
                **context,
            )
        case ImageBlock():
            return ImageMessage(
                data=block.data,
                url=block.url,
                file_id=block.file_id,
                media_type=block.media_type,
                extra=block.extra,
                **context,
            )
        case AudioBlock():
            return AudioMessage(
                data=block.data,
                url=block.url,
                file_id=block.file_id,
                media_type=block.media_type,
                extra=block.extra,
                **context,
            )
        case RawBlock():
            wrapped = _native_message(block.data)
            if wrapped is not None:
                return wrapped
            return RawMessage(block.data, **context)
        case _:
            assert_never(block)


def message_to_block(message: Message) -> Block:
    """The block a flat message holds; any other message becomes a RawBlock wrapping it.

    The wrapping RawBlock holds the message's native dict (see :mod:`messages.serialize`), so
    :func:`block_to_message` gives back the same message, not a second wrapping.

    >>> message_to_block(ToolUseMessage("t1", "Bash", {"command": "ls"}, session_id="s1"))
    ToolUseBlock(id='t1', name='Bash', input=FrozenDict({'command': 'ls'}))
    """
    match message:
        case TextMessage():
            return TextBlock(message.text, citations=message.citations, extra=message.extra)
        case ThinkingMessage():
            return ThinkingBlock(
                message.thinking,
                signature=message.signature,
                redacted=message.redacted,
                provider=message.provider,
                extra=message.extra,
            )
        case ToolUseMessage():
            return ToolUseBlock(
                message.id,
                message.name,
                message.input,
                arguments=message.arguments,
                extra=message.extra,
            )
        case ToolResultMessage():
            return ToolResultBlock(
                message.tool_use_id,
                message.content,
                is_error=message.is_error,
                name=message.name,
                extra=message.extra,
            )
        case ImageMessage():
            return ImageBlock(
                data=message.data,
                url=message.url,
                file_id=message.file_id,
                media_type=message.media_type,
                extra=message.extra,
            )
        case AudioMessage():
            return AudioBlock(
                data=message.data,
                url=message.url,
                file_id=message.file_id,
                media_type=message.media_type,
                extra=message.extra,
            )
        case RawMessage() if not message.extra and _native_message(message.data) is None:
            return RawBlock(message.data)
        case _:
            from .serialize import to_dict

            return RawBlock(FrozenDict._own(to_dict(message)))


def context_of(message: Message) -> Context:
    """The role (for flat messages) and the context fields that are set on ``message``.

    ``block_to_message(message_to_block(m), **context_of(m)) == m`` for every flat message.
    """
    context: Context = {}
    role = getattr(message, "role", None)
    if role is not None:
        context["role"] = role
    if message.uuid is not None:
        context["uuid"] = message.uuid
    if message.session_id is not None:
        context["session_id"] = message.session_id
    if message.parent_tool_use_id is not None:
        context["parent_tool_use_id"] = message.parent_tool_use_id
    if message.model is not None:
        context["model"] = message.model
    if message.message_id is not None:
        context["message_id"] = message.message_id
    if message.timestamp is not None:
        context["timestamp"] = message.timestamp
    return context


def flatten_assistant(message: Message) -> tuple[Message, ...]:
    """Expand a block-carrying message into one flat message per block, in order.

    Works on every role message (system, user, assistant, tool). Each child gets the
    parent's role and context fields (uuid, session_id, parent_tool_use_id, model,
    message_id, timestamp). A role message with empty content (``()`` or ``""``), and any
    other message, comes back alone and unchanged. The parent's usage, stop reason, error
    and extra belong to the turn, not to a block, and are not copied.
    """
    if not isinstance(message, ROLE_TYPES) or not message.content:
        return (message,)
    context = context_of(message)
    return tuple([block_to_message(b, **context) for b in as_blocks(message.content)])


def messages_to_blocks(messages: Iterable[Message]) -> tuple[Block, ...]:
    """The block of each message, in order: the inverse of :func:`flatten_assistant`.

    ``messages_to_blocks(flatten_assistant(m)) == m.content`` for a role message with blocks.
    """
    return tuple([message_to_block(m) for m in messages])


def normalize_messages(messages: Iterable[Message]) -> Iterator[Message]:
    """Turn a stream from any source into the flat view, lazily and in order.

    Every role message with blocks is flattened (user messages that carry Claude Code tool
    results included); flat and session messages pass through. Idempotent. Anything that is
    not a message raises :class:`DecodeError` with its index.

    >>> from messages import UserMessage, ToolResultBlock, ResultMessage
    >>> stream = [UserMessage((ToolResultBlock("t1", "a.txt"),)), ResultMessage(subtype="success")]
    >>> [m.kind for m in normalize_messages(stream)]
    ['tool_result', 'result']
    """
    for i, message in enumerate(messages):
        if isinstance(message, ROLE_TYPES):
            yield from flatten_assistant(message)
        elif isinstance(message, MESSAGE_TYPES):
            yield message
        else:
            raise DecodeError(
                f"expected a message, found {type_name(message)}", path=f"$[{i}]", value=message
            )
