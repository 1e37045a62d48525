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

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Unpack
from typing import assert_never
from typing import cast

from ._core.fields import CONTEXT_FIELDS
from ._core.frozen import EMPTY
from ._core.frozen import FrozenDict
from ._core.frozen import depth_limit
from ._core.frozen import thaw
from ._core.make import copy_json
from ._core.make import maker
from ._core.make import wrap_owned
from ._core.wire import type_name
from ._shapes import anthropic_blocks
from .blocks import AudioBlock
from .blocks import Block
from .blocks import DocumentBlock
from .blocks import ImageBlock
from .blocks import RawBlock
from .blocks import ServerToolResultBlock
from .blocks import ServerToolUseBlock
from .blocks import TextBlock
from .blocks import ThinkingBlock
from .blocks import ToolResultBlock
from .blocks import ToolUseBlock
from .blocks import VideoBlock
from .errors import DecodeError
from .flat import AudioMessage
from .flat import DocumentMessage
from .flat import FlatMessage
from .flat import ImageMessage
from .flat import RawMessage
from .flat import ServerToolResultMessage
from .flat import ServerToolUseMessage
from .flat import TextMessage
from .flat import ThinkingMessage
from .flat import ToolResultMessage
from .flat import ToolUseMessage
from .flat import VideoMessage
from .message import FLAT_TYPES
from .message import MESSAGE_TYPES
from .message import ROLE_TYPES
from .message import SESSION_TYPES
from .message import Context
from .message import Message
from .roles import AssistantMessage
from .roles import RoleMessage
from .roles import SystemMessage
from .roles import ToolMessage
from .roles import UserMessage

__all__ = [
    "block_to_message",
    "context_of",
    "dump_blocks",
    "flatten_assistant",
    "message_to_block",
    "messages_to_blocks",
    "messages_to_turn",
    "normalize_messages",
    "parse_blocks",
]

_NATIVE_TAG = "v"
_ROLE_SET: frozenset[type] = frozenset(ROLE_TYPES)
_PASSING_SET: frozenset[type] = frozenset(FLAT_TYPES + SESSION_TYPES)


def parse_blocks(raw: Any, *, provider: str | None = None) -> tuple[Block, ...]:
    """Decode a JSON list of content blocks (Anthropic / Claude Code shapes) into blocks.

    Known: ``text`` (its ``citations`` as :class:`~messages.Citation` s), ``thinking``,
    ``redacted_thinking``, ``tool_use``, ``tool_result`` (its content recursively), ``image``,
    ``audio`` and ``video`` with a ``base64``/``url``/``file`` source, ``document`` with a
    ``base64``/``text``/``content``/``url``/``file`` source, ``server_tool_use`` and the
    server tools' ``<tool>_tool_result`` blocks. Anything else (unknown types, elements that
    are not objects, a server tool block without its ids) becomes a
    :class:`RawBlock` holding the original value. A missing required string reads as
    ``""`` and a missing ``input`` as ``{}``. Input that is not a list, or a known block with a
    field of the wrong type, raises :class:`DecodeError` with the path to it.

    The input is copied first, so later changes to it cannot reach the blocks.

    >>> parse_blocks([{"type": "text", "text": "hi"}, {"type": "server_tool_use", "id": "s1"}])
    (TextBlock(text='hi'), RawBlock(data=FrozenDict({'type': 'server_tool_use', 'id': 's1'})))
    """
    if not isinstance(raw, (list, tuple)):
        raise DecodeError(f"expected an array of content blocks, found {type_name(raw)}", value=raw)
    owned = copy_json(raw, "$", 0, depth_limit())
    return anthropic_blocks.decode_blocks(owned, provider)


def dump_blocks(blocks: Iterable[Block]) -> list[Any]:
    """Encode blocks back to the JSON list :func:`parse_blocks` reads (a fresh copy).

    >>> dump_blocks(parse_blocks([{"type": "tool_use", "id": "t", "name": "n", "input": {}}]))
    [{'type': 'tool_use', 'id': 't', 'name': 'n', 'input': {}}]
    """
    return thaw(anthropic_blocks.encode_blocks(tuple(blocks)))  # type: ignore[no-any-return]


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


_new_text = maker(TextMessage)
_new_thinking = maker(ThinkingMessage)
_new_tool_use = maker(ToolUseMessage)
_new_tool_result = maker(ToolResultMessage)
_new_image = maker(ImageMessage)
_new_audio = maker(AudioMessage)
_new_raw = maker(RawMessage)
_new_server_use = maker(ServerToolUseMessage)
_new_server_result = maker(ServerToolResultMessage)


_Ctx = tuple[Any, Any, Any, Any, Any, Any, Any]
"""role, uuid, session_id, parent_tool_use_id, model, message_id, timestamp."""


def _flat(block: Block, ctx: _Ctx) -> Message:
    """The flat message for a block; a ``None`` role means the flat class's default role.

    The block's values are already frozen, so the message is built without re-checking them.
    """
    role, uuid, sid, parent, model, mid, ts = ctx
    match block:
        case TextBlock():
            return _new_text(
                block.text,
                block.citations,
                "assistant" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case ThinkingBlock():
            return _new_thinking(
                block.thinking,
                block.signature,
                block.redacted,
                block.provider,
                "assistant" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case ToolUseBlock():
            return _new_tool_use(
                block.id,
                block.name,
                block.input,
                block.arguments,
                "assistant" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case ToolResultBlock():
            return _new_tool_result(
                block.tool_use_id,
                block.content,
                block.is_error,
                block.name,
                "tool" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case ImageBlock() | AudioBlock():
            return (_new_image if type(block) is ImageBlock else _new_audio)(
                block.data,
                block.url,
                block.file_id,
                block.media_type,
                "user" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case DocumentBlock() | VideoBlock():
            return _flat_file(block, ctx)
        case RawBlock():
            wrapped = _native_message(block.data)
            if wrapped is not None:
                return wrapped
            return _new_raw(block.data, role, uuid, sid, parent, model, mid, ts, EMPTY)
        case ServerToolUseBlock():
            return _new_server_use(
                block.id,
                block.name,
                block.input,
                block.provider,
                "assistant" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case ServerToolResultBlock():
            return _new_server_result(
                block.tool_use_id,
                block.tool,
                block.content,
                block.provider,
                "assistant" if role is None else role,
                uuid,
                sid,
                parent,
                model,
                mid,
                ts,
                block.extra,
            )
        case _:
            assert_never(block)


def _flat_file(block: DocumentBlock | VideoBlock, ctx: _Ctx) -> Message:
    """The flat message of a document or video block (rarer kinds: built by keyword)."""
    role, uuid, sid, parent, model, mid, ts = ctx
    context = {
        "role": "user" if role is None else role,
        "uuid": uuid,
        "session_id": sid,
        "parent_tool_use_id": parent,
        "model": model,
        "message_id": mid,
        "timestamp": ts,
        "extra": block.extra,
    }
    if isinstance(block, DocumentBlock):
        return DocumentMessage(
            data=block.data,
            text=block.text,
            content=block.content,
            url=block.url,
            file_id=block.file_id,
            media_type=block.media_type,
            title=block.title,
            filename=block.filename,
            context=block.context,
            citations=block.citations,
            **context,
        )
    return VideoMessage(
        data=block.data,
        url=block.url,
        file_id=block.file_id,
        media_type=block.media_type,
        start_offset=block.start_offset,
        end_offset=block.end_offset,
        fps=block.fps,
        **context,
    )


def block_to_message(block: Block, **context: Unpack[Context]) -> Message:
    """The flat message for one block, with the given role and context fields.

    A RawBlock that wraps a whole message (see :func:`message_to_block`) gives that message
    back unchanged, and the context is not applied to it.

    >>> block_to_message(TextBlock("hi"), role="user", session_id="s1")
    TextMessage(text='hi', role='user', session_id='s1')
    """
    ctx = (
        context.get("role"),
        context.get("uuid"),
        context.get("session_id"),
        context.get("parent_tool_use_id"),
        context.get("model"),
        context.get("message_id"),
        context.get("timestamp"),
    )
    return _flat(block, ctx)


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
        case DocumentMessage():
            return DocumentBlock(
                data=message.data,
                text=message.text,
                content=message.content,
                url=message.url,
                file_id=message.file_id,
                media_type=message.media_type,
                title=message.title,
                filename=message.filename,
                context=message.context,
                citations=message.citations,
                extra=message.extra,
            )
        case VideoMessage():
            return VideoBlock(
                data=message.data,
                url=message.url,
                file_id=message.file_id,
                media_type=message.media_type,
                start_offset=message.start_offset,
                end_offset=message.end_offset,
                fps=message.fps,
                extra=message.extra,
            )
        case ServerToolUseMessage():
            return ServerToolUseBlock(
                message.id,
                message.name,
                message.input,
                provider=message.provider,
                extra=message.extra,
            )
        case ServerToolResultMessage():
            return ServerToolResultBlock(
                message.tool_use_id,
                message.tool,
                message.content,
                provider=message.provider,
                extra=message.extra,
            )
        case RawMessage() if not message.extra and _native_message(message.data) is None:
            return RawBlock(message.data)
        case _:
            from .serialize import to_dict

            return RawBlock(wrap_owned(to_dict(message)))


def context_of(message: Message) -> Context:
    """The role (for flat messages) and the context fields that are set on ``message``.

    ``block_to_message(message_to_block(m), **context_of(m)) == m`` for every flat message.
    """
    context: dict[str, Any] = {}
    role = getattr(message, "role", None)
    if role is not None:
        context["role"] = role
    for name in CONTEXT_FIELDS:
        value = getattr(message, name)
        if value is not None:
            context[name] = value
    return cast("Context", context)


def _children(message: Any) -> list[Message]:
    """One flat message per block of a role message with non-empty content."""
    content = message.content
    role = message.role
    uuid = message.uuid
    session_id = message.session_id
    parent = message.parent_tool_use_id
    model = message.model
    message_id = message.message_id
    timestamp = message.timestamp
    if type(content) is str:
        return [
            _new_text(
                content, None, role, uuid, session_id, parent, model, message_id, timestamp, EMPTY
            )
        ]
    ctx = (role, uuid, session_id, parent, model, message_id, timestamp)
    return [_flat(b, ctx) for b in content]


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
    return tuple(_children(message))


def messages_to_blocks(messages: Iterable[Message]) -> tuple[Block, ...]:
    """The block of each message, in order: the inverse of :func:`flatten_assistant`.

    ``messages_to_blocks(flatten_assistant(m)) == m.content`` for a role message with blocks.
    """
    return tuple([message_to_block(m) for m in messages])


def messages_to_turn(messages: Iterable[FlatMessage]) -> RoleMessage:
    """Flat content messages of one role as one role message, with the first one's context.

    The role is the first message's (``developer`` stays apart from ``system``); the
    context fields (uuid, session id, model...) are the first message's too, as flattening
    copied them from the parent. This is how request encoders and the interop bridges turn a
    flat run back into a turn.

    >>> from messages import AssistantMessage, TextBlock, ToolUseBlock
    >>> turn = AssistantMessage((TextBlock("Looking."), ToolUseBlock("t1", "ls", {})), uuid="u1")
    >>> messages_to_turn(flatten_assistant(turn)) == turn
    True
    """
    run = list(messages)
    if not run or not isinstance(run[0], FLAT_TYPES):
        found = type_name(run[0]) if run else "nothing"
        raise DecodeError(f"expected a flat content message, found {found}", path="$[0]")
    first = run[0]
    blocks = messages_to_blocks(run)
    role = first.role
    context: dict[str, Any] = {k: v for k, v in context_of(first).items() if k != "role"}
    turn: RoleMessage
    if role == "assistant":
        turn = AssistantMessage(blocks, **context)
    elif role == "tool":
        turn = ToolMessage(blocks, **context)
    elif role in ("system", "developer"):
        turn = SystemMessage(blocks, role=role, **context)
    else:
        turn = UserMessage(blocks, **context)
    return turn


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
    roles = _ROLE_SET
    passing = _PASSING_SET
    text, tool_use, tool_result, thinking = TextBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock
    new_text, new_tool_use, new_tool_result = _new_text, _new_tool_use, _new_tool_result
    new_thinking = _new_thinking
    for i, message in enumerate(messages):
        cls = type(message)
        if cls in passing:
            yield message
        elif cls in roles:
            content: Any = message.content  # type: ignore[union-attr]
            if not content:
                yield message
                continue
            if type(content) is str:
                yield from _children(message)
                continue
            m: Any = message
            role = m.role
            uuid = m.uuid
            sid = m.session_id
            parent = m.parent_tool_use_id
            model = m.model
            mid = m.message_id
            ts = m.timestamp
            # Unrolled on purpose (the duplicate report lists these branches): one positional
            # maker call per common kind, with the context held in locals, is the hot loop of
            # normalize_messages; a shared helper or *context unpacking costs a call or a
            # tuple per block (docs/performance.md). Rarer kinds take _flat below.
            for b in content:
                bcls = type(b)
                if bcls is text:
                    yield new_text(
                        b.text, b.citations, role, uuid, sid, parent, model, mid, ts, b.extra
                    )
                elif bcls is thinking:
                    yield new_thinking(
                        b.thinking,
                        b.signature,
                        b.redacted,
                        b.provider,
                        role,
                        uuid,
                        sid,
                        parent,
                        model,
                        mid,
                        ts,
                        b.extra,
                    )
                elif bcls is tool_use:
                    yield new_tool_use(
                        b.id,
                        b.name,
                        b.input,
                        b.arguments,
                        role,
                        uuid,
                        sid,
                        parent,
                        model,
                        mid,
                        ts,
                        b.extra,
                    )
                elif bcls is tool_result:
                    yield new_tool_result(
                        b.tool_use_id,
                        b.content,
                        b.is_error,
                        b.name,
                        role,
                        uuid,
                        sid,
                        parent,
                        model,
                        mid,
                        ts,
                        b.extra,
                    )
                else:
                    yield _flat(b, (role, uuid, sid, parent, model, mid, ts))
        elif isinstance(message, ROLE_TYPES):
            yield from flatten_assistant(message)
        elif isinstance(message, MESSAGE_TYPES):
            yield message
        else:
            raise DecodeError(
                f"expected a message, found {type_name(message)}", path=f"$[{i}]", value=message
            )
