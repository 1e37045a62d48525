"""Merging runs of same-role messages, and filtering a history by kind, role, name and id."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from collections.abc import Iterable
from typing import Any
from typing import Final

from .._core.fields import ROLES
from ..blocks import Block
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..flat import TextMessage
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..message import MESSAGE_TYPES
from ..message import Message
from ..message import check_messages
from ..message import role_of
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ..roles import as_blocks
from ._pairs import tool_events

__all__ = ["filter_messages", "merge_runs"]

_KINDS: Final = frozenset(cls.kind for cls in MESSAGE_TYPES)
_CONTEXT: Final = ("uuid", "model", "message_id", "timestamp")


def _same_speaker(a: Message, b: Message) -> bool:
    """Whether two adjacent messages may merge: same class, role, conversation and name."""
    if type(a) is not type(b) or not isinstance(
        a, (SystemMessage, UserMessage, AssistantMessage, TextMessage)
    ):
        return False
    return (
        role_of(a) == role_of(b)
        and a.session_id == b.session_id
        and a.parent_tool_use_id == b.parent_tool_use_id
        and a.extra.get("name") == b.extra.get("name")
    )


def _blocks(content: str | tuple[Block, ...]) -> tuple[Block, ...]:
    """Content as blocks; an empty string holds none."""
    return () if content == "" else as_blocks(content)


def _merge(a: Any, b: Any, separator: str) -> Any:
    """Merge ``b`` into ``a`` (same class, already checked by :func:`_same_speaker`)."""
    context = {f: getattr(a, f) if getattr(a, f) is not None else getattr(b, f) for f in _CONTEXT}
    extra = a.extra | b.extra if b.extra else a.extra
    if isinstance(a, TextMessage):
        citations = None
        if a.citations is not None or b.citations is not None:
            citations = (a.citations or ()) + (b.citations or ())
        return dataclasses.replace(
            a, text=a.text + separator + b.text, citations=citations, extra=extra, **context
        )
    content = _blocks(a.content) + _blocks(b.content) or a.content
    if not isinstance(a, AssistantMessage):
        return dataclasses.replace(a, content=content, extra=extra, **context)
    if a.message_id is not None and a.message_id == b.message_id:
        # fragments of one API message each repeat its usage: the later record is the final one
        usage = b.usage if b.usage is not None else a.usage
    elif a.usage is not None and b.usage is not None:
        usage = a.usage + b.usage
    else:
        usage = a.usage if a.usage is not None else b.usage
    return dataclasses.replace(
        a,
        content=content,
        usage=usage,
        stop_reason=b.stop_reason if b.stop_reason is not None else a.stop_reason,
        error=b.error if b.error is not None else a.error,
        extra=extra,
        **context,
    )


def merge_runs(messages: Iterable[Message], *, separator: str = "\n") -> tuple[Message, ...]:
    """Merge each run of consecutive messages from the same speaker into one message.

    Two adjacent messages merge when they are of the same class among SystemMessage (system
    and developer stay apart), UserMessage, AssistantMessage and flat TextMessage, with the
    same role, session_id, parent_tool_use_id and participant name (``extra["name"]``).

    - Role messages: the blocks are concatenated, in order (string content reads as one
      TextBlock, so nothing is joined or lost and ``.text`` still joins with newlines;
      an empty string adds no block).
    - Flat TextMessages: the texts are joined with ``separator``.
    - Tool results are never merged across calls: ToolMessages (one per call) and flat tool
      calls, results, thinking and media stay as they are.
    - The merged message keeps the first message's context fields (the later ones fill in
      any that are ``None``), ``extra`` is the union (later keys win), ``stop_reason`` and
      ``error`` come from the last that has one. Usage is added up, except between records
      sharing a ``message_id`` (fragments of one API message, which repeat its usage): there
      the later record's usage is the total.

    Session messages are never merged and they end a run. Idempotent.

    >>> from messages import UserMessage, AssistantMessage
    >>> merge_runs([UserMessage("a"), UserMessage("b"), AssistantMessage("c")])
    (UserMessage(content=(TextBlock(text='a'), TextBlock(text='b'))), AssistantMessage(content='c'))
    """
    out: list[Message] = []
    for message in check_messages(messages):
        if out and _same_speaker(out[-1], message):
            out[-1] = _merge(out[-1], message, separator)
        else:
            out.append(message)
    return tuple(out)


KindLike = str | type[Any]


def _as_set(values: str | Collection[Any] | None) -> frozenset[Any] | None:
    if values is None:
        return None
    if isinstance(values, str):
        return frozenset((values,))
    return frozenset(values)


def _kinds(values: KindLike | Collection[KindLike] | None, name: str) -> frozenset[str] | None:
    if isinstance(values, type):
        values = (values,)
    chosen = _as_set(values)
    if chosen is None:
        return None
    out = set()
    for value in chosen:
        if isinstance(value, type):
            kind = value.kind if value in MESSAGE_TYPES else None
        else:
            kind = value
        if kind not in _KINDS:
            known = ", ".join(sorted(_KINDS))
            raise ValueError(f"{name}: unknown message kind {value!r}; expected one of {known}")
        out.add(kind)
    return frozenset(out)


def _roles(values: str | Collection[str] | None, name: str) -> frozenset[str] | None:
    chosen = _as_set(values)
    if chosen is not None:
        for value in chosen:
            if value not in ROLES:
                known = ", ".join(sorted(ROLES))
                raise ValueError(f"{name}: unknown role {value!r}; expected one of {known}")
    return chosen


def _name_of(message: Message) -> str | None:
    """The participant name (``extra["name"]``), or for a flat tool call/result the tool's."""
    name = message.extra.get("name")
    if isinstance(name, str):
        return name
    if isinstance(message, (ToolUseMessage, ToolResultMessage)):
        return message.name
    return None


def _drop_calls(messages: tuple[Message, ...], ids: frozenset[str] | None) -> list[Message]:
    """Remove tool calls (all, or those with the given ids) together with their results."""

    def dropped(call_id: str) -> bool:
        return ids is None or call_id in ids

    out: list[Message] = []
    for message in messages:
        events = tool_events(message)
        if not any(dropped(e.id) for e in events):
            out.append(message)
            continue
        if isinstance(message, (ToolUseMessage, ToolResultMessage)):
            continue
        assert isinstance(message, (SystemMessage, UserMessage, AssistantMessage, ToolMessage))
        kept = tuple(
            b
            for b in as_blocks(message.content)
            if not (isinstance(b, ToolUseBlock) and dropped(b.id))
            and not (isinstance(b, ToolResultBlock) and dropped(b.tool_use_id))
        )
        if kept:
            out.append(dataclasses.replace(message, content=kept))
    return out


def filter_messages(
    messages: Iterable[Message],
    *,
    include_kinds: KindLike | Collection[KindLike] | None = None,
    exclude_kinds: KindLike | Collection[KindLike] | None = None,
    include_roles: str | Collection[str] | None = None,
    exclude_roles: str | Collection[str] | None = None,
    include_names: str | Collection[str] | None = None,
    exclude_names: str | Collection[str] | None = None,
    include_ids: str | Collection[str] | None = None,
    exclude_ids: str | Collection[str] | None = None,
    exclude_tool_calls: bool | Collection[str] = False,
) -> tuple[Message, ...]:
    """Keep the messages that pass every given filter, in order. Also ``history.filter``.

    - ``kinds``: the message's ``kind`` (``"assistant"``, ``"tool_use"``, ``"result"``...) or
      its class (``AssistantMessage``).
    - ``roles``: ``system``, ``developer``, ``user``, ``assistant``, ``tool``. Session
      messages have no role, so ``include_roles`` leaves them out.
    - ``names``: the participant name (``extra["name"]``, where OpenAI and langchain keep
      it) or, for a flat tool call or result, the tool's name.
    - ``ids``: the message's ``uuid`` or ``message_id``.

    A single string counts as a one-element collection. A message is kept when it matches
    every ``include_*`` filter given and no ``exclude_*`` filter. Unknown kinds and roles
    raise ``ValueError`` (a typo would otherwise silently keep or drop everything).

    ``exclude_tool_calls=True`` removes every tool call and every tool result;
    a collection of call ids removes those calls. A call always goes together with its
    results, never one without the other: blocks are taken out of role messages, flat
    messages are dropped, and a message left with no content is dropped. Kind and role
    filters work on whole messages and can separate a call from its result (excluding
    ``tool_use`` in the flat view, say); use ``exclude_tool_calls`` for that, or
    :func:`repair` afterwards.

    >>> from messages import UserMessage, AssistantMessage, ToolMessage, ToolResultBlock
    >>> from messages import TextBlock, ToolUseBlock
    >>> history = [UserMessage("list files"),
    ...            AssistantMessage((TextBlock("Listing."), ToolUseBlock("t1", "Bash"))),
    ...            ToolMessage((ToolResultBlock("t1", "a.txt"),))]
    >>> filter_messages(history, exclude_tool_calls=True)
    (UserMessage(content='list files'), AssistantMessage(content=(TextBlock(text='Listing.'),)))
    >>> [m.kind for m in filter_messages(history, include_roles="assistant")]
    ['assistant']
    """
    items = check_messages(messages)
    in_kinds = _kinds(include_kinds, "include_kinds")
    out_kinds = _kinds(exclude_kinds, "exclude_kinds")
    in_roles = _roles(include_roles, "include_roles")
    out_roles = _roles(exclude_roles, "exclude_roles")
    in_names, out_names = _as_set(include_names), _as_set(exclude_names)
    in_ids, out_ids = _as_set(include_ids), _as_set(exclude_ids)
    kept: Iterable[Message] = items
    if exclude_tool_calls is True:
        kept = _drop_calls(items, None)
    elif exclude_tool_calls is not False:
        kept = _drop_calls(items, frozenset(_as_set(exclude_tool_calls) or ()))
    out = []
    for message in kept:
        kind, role, name = message.kind, role_of(message), _name_of(message)
        ids = {message.uuid, message.message_id} - {None}
        if (
            (in_kinds is not None and kind not in in_kinds)
            or (out_kinds is not None and kind in out_kinds)
            or (in_roles is not None and role not in in_roles)
            or (out_roles is not None and role in out_roles)
            or (in_names is not None and name not in in_names)
            or (out_names is not None and name in out_names)
            or (in_ids is not None and not ids & in_ids)
            or (out_ids is not None and ids & out_ids)
        ):
            continue
        out.append(message)
    return tuple(out)
