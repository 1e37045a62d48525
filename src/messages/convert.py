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

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from operator import attrgetter
from typing import Any
from typing import Final
from typing import Unpack
from typing import cast

from ._core.fields import CONTEXT_FIELDS
from ._core.frozen import EMPTY
from ._core.frozen import FrozenDict
from ._core.frozen import depth_limit
from ._core.frozen import thaw
from ._core.make import copy_json
from ._core.make import maker
from ._core.make import transfer
from ._core.make import wrap_owned
from ._core.wire import type_name
from ._shapes import anthropic_blocks
from .blocks import BLOCK_TYPES
from .blocks import Block
from .blocks import RawBlock
from .errors import DecodeError
from .flat import FlatMessage
from .flat import RawMessage
from .flat import TextMessage
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

_Ctx = tuple[Any, Any, Any, Any, Any, Any, Any]
"""role, uuid, session_id, parent_tool_use_id, model, message_id, timestamp."""

_FLAT_CLASS: Final = {cls.kind: cls for cls in FLAT_TYPES}
"""Each flat class by its kind, which is its block's kind."""

# A flat message holds its block's fields under the same names, so one generated transfer
# maker per kind builds it from the block and the context (a ``None`` role taking the flat
# class's default role), and another the block back from the message. The hot loop of
# normalize_messages is then one table look-up and one call per block, with the context
# held in locals (docs/performance.md); the values are the block's, already frozen.
_FLAT_OF: Final[dict[type, Callable[..., Message]]] = {
    block: transfer(_FLAT_CLASS[block.kind], block, ("role", *CONTEXT_FIELDS))
    for block in BLOCK_TYPES
}
"""The flat message of a block: ``_FLAT_OF[type(block)](block, *ctx)`` (see ``_Ctx``)."""
_BLOCK_OF: Final[dict[type, Callable[..., Block]]] = {
    _FLAT_CLASS[block.kind]: transfer(block, _FLAT_CLASS[block.kind])
    for block in BLOCK_TYPES
    if block is not RawBlock
}
"""The block a flat message holds (RawMessage apart: it may wrap a whole message)."""
_raw_message: Final = _FLAT_OF[RawBlock]


def _flat_raw(block: RawBlock, *ctx: Any) -> Message:
    """A RawBlock's message: the message it wraps (see :func:`message_to_block`), or raw."""
    wrapped = _native_message(block.data)
    return wrapped if wrapped is not None else _raw_message(block, *ctx)


_FLAT_OF[RawBlock] = _flat_raw


def _not_a_block_error(block: Any, *ctx: Any) -> Message:
    raise AssertionError(f"Expected code to be unreachable, but got: {block!r}")


_not_a_block: Final[Callable[..., Message]] = _not_a_block_error
"""What ``_FLAT_OF`` gives for anything that is not a block: a programming error."""


def _flat(block: Block, ctx: _Ctx) -> Message:
    """The flat message for a block; a ``None`` role means the flat class's default role.

    The block's values are already frozen, so the message is built without re-checking them.
    """
    return _FLAT_OF.get(type(block), _not_a_block)(block, *ctx)


def block_to_message(block: Block, **context: Unpack[Context]) -> Message:
    """The flat message for one block, with the given role and context fields.

    A RawBlock that wraps a whole message (see :func:`message_to_block`) gives that message
    back unchanged, and the context is not applied to it.

    >>> from messages import TextBlock
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

    >>> from messages import ToolUseMessage
    >>> message_to_block(ToolUseMessage("t1", "Bash", {"command": "ls"}, session_id="s1"))
    ToolUseBlock(id='t1', name='Bash', input=FrozenDict({'command': 'ls'}))
    """
    make = _BLOCK_OF.get(type(message))
    if make is not None:
        return make(message)
    if type(message) is RawMessage and not message.extra and _native_message(message.data) is None:
        return RawBlock(message.data)
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


_context: Final = attrgetter("role", *CONTEXT_FIELDS)
"""The role and the context fields of a role message, as one tuple (see ``_Ctx``)."""


def _children(message: Any) -> list[Message]:
    """One flat message per block of a role message with non-empty content."""
    content = message.content
    ctx = _context(message)
    if type(content) is str:
        return [_new_text(content, None, *ctx, EMPTY)]
    flat_of = _FLAT_OF.get
    return [flat_of(type(b), _not_a_block)(b, *ctx) for b in content]


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
    flat_of, not_block = _FLAT_OF.get, _not_a_block
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
            # The hot loop: the context fields are read in place (specialised slot reads); the
            # _context attrgetter measured a few per cent slower here (docs/performance.md).
            m: Any = message
            role = m.role
            uuid = m.uuid
            sid = m.session_id
            parent = m.parent_tool_use_id
            model = m.model
            mid = m.message_id
            ts = m.timestamp
            for b in content:
                yield flat_of(type(b), not_block)(b, role, uuid, sid, parent, model, mid, ts)
        elif isinstance(message, ROLE_TYPES):
            yield from flatten_assistant(message)
        elif isinstance(message, MESSAGE_TYPES):
            yield message
        else:
            raise DecodeError(
                f"expected a message, found {type_name(message)}", path=f"$[{i}]", value=message
            )
