"""OpenAI Codex: exec events, the app-server JSON-RPC stream, session rollout files.

``codex exec --json`` prints exec events, ``codex app-server`` speaks JSON-RPC, and Codex
keeps every session in a rollout file under ``~/.codex/sessions``. A
``{"timestamp", "type", "payload"}`` line of a rollout type is a rollout line (see
:mod:`._codex_rollout`); another line with a ``type`` is an exec event; a line without one is
app-server JSON-RPC (see :mod:`._codex_app`). Exec events:

- ``thread.started`` -> :class:`InitMessage` (``session_id`` = ``thread_id``);
- ``turn.completed`` -> :class:`ResultMessage` with ``usage`` (``is_error=False``);
  ``turn.failed`` -> :class:`ResultMessage` (``is_error=True``, ``result`` = error message);
- ``error`` -> :class:`ErrorMessage`;
- ``item.completed`` -> the item: agent text, reasoning, error items (see
  :mod:`._codex_items`); a tool item (command, file change, MCP call, web search) -> its
  :class:`ToolResultMessage` alone when the stream showed the call start, else an
  :class:`AssistantMessage` with the call and its result;
- ``item.started`` / ``item.updated`` -> a :class:`ToolUseMessage` the first time a tool call
  is seen; every other one only previews what ``item.completed`` holds whole, so it is a
  :class:`StreamEventMessage` (verbatim, ``message_id`` = item id);
- ``turn.started``, completed todo lists and anything unknown -> :class:`RawMessage`, verbatim.

Pairing a completed tool item with its start needs the stream: :func:`iter_decode` remembers
the calls it has seen start (and forgets them at ``thread.started``); a lone :func:`decode`
is told through ``started``. So a command that starts and completes reads, flat, as one
``tool_use`` and one ``tool_result``, and so does a file change that only completes.

Codex usage counts cached tokens inside ``input_tokens``; :class:`Usage` does not, so
``input_tokens`` is decoded as ``input_tokens - cached_input_tokens`` and added back on the
way out. ``decode`` takes over the object it is given (nested values are shared).
See docs/adapters/codex.md.

>>> m = decode({"type": "item.completed", "item": {"id": "item_3", "type": "agent_message",
...                                                "text": "Done."}})
>>> m.text, m.message_id
('Done.', 'item_3')
>>> encode(m)
{'type': 'item.completed', 'item': {'id': 'item_3', 'type': 'agent_message', 'text': 'Done.'}}
>>> done = {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution",
...         "command": "ls", "aggregated_output": "a.txt", "exit_code": 0}}
>>> [b.kind for b in decode(done).content]
['tool_use', 'tool_result']
>>> decode(done, started={"item_1"}).kind
'tool_result'
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Container
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.jsontext import dump_compact
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import opt_str
from ..._core.wire import rest
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...convert import block_to_message
from ...convert import context_of
from ...errors import DecodeError
from ...errors import EncodeError
from ...events.agent import CompactBoundaryMessage
from ...events.agent import ConversationResetMessage
from ...events.agent import HookEventMessage
from ...events.agent import RateLimitMessage
from ...events.agent import StatusMessage
from ...events.agent import SystemEventMessage
from ...events.agent import TaskEventMessage
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import QueueOperationMessage
from ...events.records import TitleMessage
from ...events.records import TurnContextMessage
from ...events.records import TurnEventMessage
from ...events.run import ErrorMessage
from ...events.run import InitMessage
from ...events.run import InvalidLineMessage
from ...events.run import ResultMessage
from ...events.run import StreamEventMessage
from ...flat import AudioMessage
from ...flat import DocumentMessage
from ...flat import ImageMessage
from ...flat import RawMessage
from ...flat import ServerToolResultMessage
from ...flat import ServerToolUseMessage
from ...flat import TextMessage
from ...flat import ThinkingMessage
from ...flat import ToolResultMessage
from ...flat import ToolUseMessage
from ...flat import VideoMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...roles import as_blocks
from .. import _base
from .._common import plain
from .._common import refuse
from .app import decode_app
from .app import encode_app
from .items import decode_item
from .items import decode_usage
from .items import encode_item
from .items import encode_tool_item
from .items import encode_usage
from .items import is_preview
from .items import item_id
from .rollout import TYPES as ROLLOUT_TYPES
from .rollout import Context
from .rollout import decode_rollout
from .rollout import encode_rollout
from .rollout import is_rollout

__all__ = ["NAME", "decode", "detect", "encode", "iter_decode", "iter_encode", "merge"]

_Calls = dict[str, ToolUseMessage] | None
"""Tool calls already written by ``iter_encode``, by id (``None``: not known)."""

NAME: Final = "codex"
"""The format name used in errors and by the command line."""

_EXEC_TYPES: Final = frozenset(
    (
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
    )
)
_ITEM: Final = frozenset(("item",))
_OWN_RECORDS: Final = frozenset(("error",))
"""Line types decoded from Codex that are neither exec events nor rollout envelopes."""
_ITEM_EVENTS: Final = {"item.started": False, "item.updated": False, "item.completed": True}
_APP_PREFIXES: Final = (
    "item/",
    "turn/",
    "thread/",
    "account/",
    "model/",
    "mcpServer/",
    "remoteControl/",
    "rawResponseItem/",
    "fuzzyFileSearch/",
    "windowsSandbox/",
)
_APP_METHODS: Final = frozenset(
    ("error", "warning", "configWarning", "deprecationNotice", "authStatusChange")
)


_new_raw: Final = maker(RawMessage)
_new_stream: Final = maker(StreamEventMessage)
_new_init: Final = maker(InitMessage)
_new_result: Final = maker(ResultMessage)
_THREAD_ID: Final = frozenset(("thread_id",))
_USAGE_KEY: Final = frozenset(("usage",))
_NO_RUN_DETAILS: Final = (None,) * 8
"""The result fields Claude Code reports and Codex does not (stop_reason... origin)."""


def _raw(obj: dict[str, Any]) -> RawMessage:
    return _new_raw(wrap_owned(obj), None, None, None, None, None, None, None, EMPTY)


def _exec(obj: dict[str, Any], tag: Any, started: Container[str]) -> Message:
    if tag in _ITEM_EVENTS:
        item = obj.get("item")
        if type(item) is not dict:
            return _raw(obj)
        completed = _ITEM_EVENTS[tag]
        if is_preview(item, completed=completed, seen=started):
            event = wrap_owned(obj)
            return _new_stream(event, None, None, None, None, item_id(item), None, EMPTY)
        skeleton = rest(obj, _ITEM)
        try:
            message = decode_item(
                item,
                completed=completed,
                camel=False,
                skeleton=skeleton,
                slot=skeleton,
                context={},
                seen=started,
            )
        except DecodeError as exc:
            raise exc.within(".item") from None
        return _raw(obj) if message is None else message
    if tag == "thread.started":
        sid = opt_str(obj, "thread_id")
        extra = wrap_owned(rest(obj, _THREAD_ID))
        return _new_init(None, None, None, sid, None, None, None, None, extra)
    if tag == "turn.completed":
        usage = obj.get("usage")
        if usage is not None and type(usage) is not dict:
            raise fail("an object", usage, "usage")
        try:
            decoded = None if usage is None else decode_usage(usage)
        except DecodeError as exc:
            raise exc.within(".usage") from None
        extra = wrap_owned(rest(obj, _USAGE_KEY))
        return _new_result(
            None,
            None,
            False,
            None,
            None,
            None,
            None,
            decoded,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            extra,
            *_NO_RUN_DETAILS,
        )
    if tag == "turn.failed":
        error = obj.get("error")
        if type(error) is not dict:
            return _raw(obj)
        try:
            text = opt_str(error, "message")
        except DecodeError as exc:
            raise exc.within(".error") from None
        skeleton = rest(obj, ("error",))
        skeleton["error"] = rest(error, ("message",))
        return ResultMessage(is_error=True, result=text, extra=wrap_owned(skeleton))
    if tag == "error" and type(obj.get("message")) is str:
        return ErrorMessage(obj["message"], extra=wrap_owned(rest(obj, ("message",))))
    return _raw(obj)


def _decode(obj: Any, started: Container[str], context: Context) -> Message:
    if type(obj) is not dict:
        return RawMessage(expose_owned(obj))
    try:
        if is_rollout(obj):
            return decode_rollout(obj, context)
        if "type" in obj:
            tag = obj["type"]
            return _exec(obj, tag, started) if type(tag) is str else _raw(obj)
        return decode_app(obj, started)
    except DecodeError as exc:
        if exc.source is None:
            exc.source = NAME
        raise


def decode(obj: Any, *, started: Container[str] = frozenset()) -> Message:
    """One parsed Codex line (exec event or app-server JSON-RPC) to one message.

    ``started`` holds the ids of tool calls whose start the caller has already decoded (a
    ToolUseMessage with that id): a later started or updated event of such a call decodes
    to a :class:`StreamEventMessage`, and its completed event to the
    :class:`ToolResultMessage` alone. Without it (the default) every tool event stands on
    its own: started or updated gives the call, completed the call with its result.
    :func:`iter_decode` keeps this set itself. Either way ``encode(decode(x))`` gives ``x``.

    A session rollout line (``{"timestamp", "type", "payload"}``) decodes on its own here: the
    stream context :func:`iter_decode` adds (the turn's model, a token count that only restates
    the one before it) needs the lines before it.

    Unknown events and shapes this module does not model become :class:`RawMessage`; a known
    field of the wrong type raises :class:`DecodeError` with its path.
    """
    return _decode(obj, started, Context())


def detect(obj: Any) -> bool:
    """Whether a parsed line is Codex's: an exec event, app-server JSON-RPC, a rollout line."""
    if type(obj) is not dict or _base.is_native(obj):
        return False
    if is_rollout(obj):
        return True
    tag = obj.get("type")
    if tag is not None:
        if type(tag) is not str:
            return False
        if tag in _EXEC_TYPES:
            return True
        return tag == "error" and obj.keys() == {"type", "message"}
    method = obj.get("method")
    return type(method) is str and (method.startswith(_APP_PREFIXES) or method in _APP_METHODS)


def _reader() -> Callable[[Any], Message]:
    """A decoder that remembers the tool calls it has seen start (see :func:`decode`)."""
    started: set[str] = set()
    context = Context()

    def read(obj: Any) -> Message:
        message = _decode(obj, started, context)
        if isinstance(message, ToolUseMessage):
            started.add(message.id)
        elif isinstance(message, AssistantMessage):  # a call seen only once it completed
            started.update(use.id for use in message.tool_uses)
        elif isinstance(message, InitMessage) and message.extra.get("type") == "thread.started":
            started.clear()  # a new exec run numbers its items from item_0 again
        return message

    return read


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode Codex lines lazily; bad lines become InvalidLineMessage unless ``strict``.

    The reader pairs each tool item's events: the call is decoded once, when it is first
    seen, and its completed event gives the result alone (see :func:`decode`).
    """
    return _base.iter_decode(_reader(), lines, source=NAME, strict=strict)


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Pass messages through: every Codex item is written whole when it completes.

    App-server text and reasoning deltas are previews of that item and decode to stream
    events, so there is nothing to join; consecutive assistant records of one message id
    are still combined, as everywhere.
    """
    return _base.merge_deltas(messages, is_delta=lambda m: False)


# -- encoding -------------------------------------------------------------------------------


def _own_exec(m: Message, ex: dict[str, Any]) -> dict[str, Any] | None:
    """A message decoded from an exec event back to it; ``None`` if ``m`` does not fit."""
    tag = ex.get("type")
    out: dict[str, Any] = {"type": tag}
    if tag in _ITEM_EVENTS:
        item_rest = ex.get("item")
        item = encode_item(m, item_rest if type(item_rest) is dict else None, False)
        if item is None:
            return None
        out.update(ex)
        out["item"] = item
        return out
    if tag == "thread.started" and isinstance(m, InitMessage):
        if m.session_id is not None:
            out["thread_id"] = m.session_id
    elif tag == "turn.completed" and isinstance(m, ResultMessage):
        if m.usage is not None:
            out["usage"] = encode_usage(m.usage)
    elif tag == "turn.failed" and isinstance(m, ResultMessage):
        error: dict[str, Any] = {} if m.result is None else {"message": m.result}
        error_rest = ex.get("error")
        if type(error_rest) is dict:
            error.update(error_rest)
        out.update(ex)
        out["error"] = error
        return out
    elif tag == "error" and isinstance(m, ErrorMessage):
        out["message"] = m.message
    else:
        return None
    out.update(ex)
    return out


def _item_event(tag: str, item: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if item is None else {"type": tag, "item": item}


def _foreign(m: Message, policy: Policy, calls: _Calls = None) -> Any:
    """A message from another source as the closest exec event.

    ``calls`` maps ids to the tool calls already written (by :func:`iter_encode`), so a
    completed item repeats its call's name and input, as Codex's own completed items do.
    """
    match m:
        case TextMessage() if m.role == "assistant":
            if m.citations is not None:  # an agent message has no place for them
                policy.refuse(f"{NAME} agent messages carry no citations", "$", m)
            return _item_event("item.completed", encode_item(m, None, False))
        case ThinkingMessage() if not m.redacted:
            return _item_event("item.completed", encode_item(m, None, False))
        case ToolUseMessage():
            return _item_event("item.started", encode_item(m, None, False))
        case ToolResultMessage():
            call = calls.get(m.tool_use_id) if calls is not None else None
            if call is None:
                use = ToolUseBlock(m.tool_use_id, m.name or "")
            else:
                use = ToolUseBlock(m.tool_use_id, call.name, call.input)
            result = ToolResultBlock(m.tool_use_id, m.content, is_error=m.is_error)
            return _item_event("item.completed", encode_tool_item(use, result, None, False))
        case ResultMessage():
            if m.is_error:
                error = {"message": m.result or ""}
                return {"type": "turn.failed", "error": error}
            out: dict[str, Any] = {"type": "turn.completed"}
            if m.usage is not None:
                out["usage"] = encode_usage(m.usage)
            return out
        case ErrorMessage():
            return {"type": "error", "message": m.message}
        case InitMessage():
            if m.session_id is None:
                return {"type": "thread.started"}
            return {"type": "thread.started", "thread_id": m.session_id}
        case RawMessage() if m.role is None:
            return raw(m.data)
        case StreamEventMessage() if detect(raw(m.event)):
            return raw(m.event)  # a preview this adapter decoded: the line itself
        case AssistantMessage() | UserMessage() | ToolMessage() | SystemMessage():
            return _foreign_role(m, policy)
        case (
            TextMessage()
            | ThinkingMessage()
            | ImageMessage()
            | AudioMessage()
            | DocumentMessage()
            | VideoMessage()
            | RawMessage()
            | StreamEventMessage()
            | InvalidLineMessage()
            | CompactBoundaryMessage()
            | HookEventMessage()
            | RateLimitMessage()
            | StatusMessage()
            | SystemEventMessage()
            | ConversationResetMessage()
            | FileSnapshotMessage()
            | ProgressMessage()
            | QueueOperationMessage()
            | TitleMessage()
            | TurnContextMessage()
            | TurnEventMessage()
            | TaskEventMessage()
            | ServerToolUseMessage()
            | ServerToolResultMessage()
        ):
            return _degrade(m, policy)
        case _:
            assert_never(m)


def _degrade(m: Message, policy: Policy) -> Any:
    """Content with no exec event: raise, drop, or (assistant content only) text."""
    role = getattr(m, "role", None)
    what = m.kind if role is None else f"{role} {m.kind}"
    alt = refuse(m, f"{NAME} cannot carry {what} messages", policy, degrade=role == "assistant")
    return None if alt is None else _foreign(alt, policy)


def _foreign_role(
    m: AssistantMessage | UserMessage | ToolMessage | SystemMessage, policy: Policy
) -> Any:
    if isinstance(m, SystemMessage):
        return _degrade(m, policy)
    blocks = as_blocks(m.content)
    if isinstance(m, AssistantMessage):
        pair = encode_item(m, None, False)
        if pair is not None:
            return _item_event("item.completed", pair)
    if not blocks:
        return None
    if len(blocks) > 1:
        raise EncodeError(
            f"a codex event carries one item, this {m.kind} message has {len(blocks)} blocks:"
            " use iter_encode, which writes one event per block",
            source=NAME,
            value=m,
        )
    return _foreign(block_to_message(blocks[0], **context_of(m)), policy)


def _encode(m: Message, policy: Policy, calls: _Calls = None) -> Any:
    ex = m.extra
    if ex and "kind" not in ex:
        plain_ex: dict[str, Any] = raw(ex)
        own = None
        if "method" in plain_ex:
            own = encode_app(m, plain_ex)
        elif type(plain_ex.get("payload")) is dict and plain_ex.get("type") in ROLLOUT_TYPES:
            own = encode_rollout(m, plain_ex)
        elif plain_ex.get("type") in _EXEC_TYPES or plain_ex.get("type") in _OWN_RECORDS:
            own = _own_exec(m, plain_ex)
        if own is not None:
            return own
    return _foreign(m, policy, calls)


def encode(message: Message, *, unsupported: Unsupported = "raise") -> Any:
    """One message to a fresh Codex line object; ``encode(decode(x)) == x``.

    Messages decoded from app-server lines go back to app-server lines; messages from other
    sources become the closest ``codex exec --json`` event (see docs/adapters/codex.md).
    Content exec events cannot carry raises :class:`UnsupportedContentError` unless
    ``unsupported`` is ``"drop"`` (the result is then ``None``) or ``"text"``. A role
    message with several blocks needs :func:`iter_encode` (one event per block).
    """
    return plain(_encode(message, Policy(unsupported, NAME)))


def _split(m: Message) -> Iterator[Message]:
    """Role messages from other sources, one message per block; everything else as is."""
    if isinstance(m, (AssistantMessage, UserMessage, ToolMessage, SystemMessage)):
        tag = m.extra.get("type")
        own = "method" in m.extra or tag in _EXEC_TYPES or tag in ROLLOUT_TYPES
        pair = isinstance(m, AssistantMessage) and encode_item(m, None, False) is not None
        if not own and not pair and not isinstance(m.content, str) and len(m.content) > 1:
            context = context_of(m)
            for block in m.content:
                yield block_to_message(block, **context)
            return
    yield m


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Messages to Codex lines (one event per block for role messages from other sources).

    A tool result from another source is written as a completed item that repeats the name
    and input of its call, when the call came earlier in ``messages``.
    """
    policy = Policy(unsupported, NAME)
    calls: dict[str, ToolUseMessage] = {}
    for message in messages:
        for part in _split(message):
            if isinstance(part, InvalidLineMessage):
                yield part.text
                continue
            if isinstance(part, ToolUseMessage):
                calls[part.id] = part
            obj = _encode(part, policy, calls)
            if obj is not None:
                yield dump_compact(obj)
