"""Repairing tool call / result pairing in a history, reporting every change made."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import Final
from typing import Literal
from typing import TypeAlias
from typing import final

from .._core.fields import Role
from ..blocks import Block
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..flat import ToolResultMessage
from ..flat import ToolUseMessage
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import Message
from ..message import check_messages
from ..message import role_of
from ..roles import AssistantMessage
from ..roles import SystemMessage
from ..roles import ToolMessage
from ..roles import UserMessage
from ..roles import as_blocks
from ._pairs import carries_calls
from ._pairs import carries_results
from ._pairs import is_session
from ._pairs import tool_events

__all__ = ["Change", "ChangeKind", "SYNTHETIC_TEXT", "is_synthetic", "repair"]

SYNTHETIC_TEXT: Final = "[synthetic] no result was recorded for this tool call"
"""The text of every result :func:`repair` makes up for a call that has none.

A made-up result is an error result whose content is exactly this text: the mark travels in
the content itself, so it survives every codec and no provider sees an unknown wire field.
"""

ChangeKind: TypeAlias = Literal[
    "dropped_orphan_result",
    "dropped_duplicate_result",
    "added_synthetic_result",
    "moved_results_first",
]
"""What :func:`repair` did."""

_RANK: Final = {
    "dropped_orphan_result": 0,
    "dropped_duplicate_result": 1,
    "moved_results_first": 2,
    "added_synthetic_result": 3,
}

_SAYS: Final = {
    "dropped_orphan_result": "dropped an orphaned tool result",
    "dropped_duplicate_result": "dropped a duplicate tool result",
    "added_synthetic_result": "added a synthetic error result for a dangling tool call",
    "moved_results_first": "moved tool results before the other content",
}


@final
@dataclass(frozen=True, slots=True)
class Change:
    """One change :func:`repair` made, for logging.

    >>> str(Change("added_synthetic_result", 1, "t1"))
    'message 1: added a synthetic error result for a dangling tool call (t1)'
    """

    kind: ChangeKind
    """What was done."""
    index: int
    """Index in the *input* of the message concerned: the one holding the dropped or moved
    result, or, for an added result, the one holding the call."""
    tool_use_id: str | None = None
    """The call id concerned; ``None`` when a message's blocks were reordered."""

    def __str__(self) -> str:
        what = f"message {self.index}: {_SAYS[self.kind]}"
        return what if self.tool_use_id is None else f"{what} ({self.tool_use_id})"


def is_synthetic(item: Message | Block) -> bool:
    """Whether ``item`` is, or carries, a tool result that :func:`repair` made up.

    True for a ToolResultBlock or ToolResultMessage with ``is_error=True`` whose content is
    exactly :data:`SYNTHETIC_TEXT`, and for a role message holding at least one such block.
    """
    if isinstance(item, (ToolResultBlock, ToolResultMessage)):
        return item.is_error is True and item.content == SYNTHETIC_TEXT
    if isinstance(item, ROLE_TYPES):
        return any(is_synthetic(b) for b in as_blocks(item.content))
    return False


@dataclass(slots=True)
class _Result:
    index: int
    position: int
    id: str
    synthetic: bool


@dataclass(slots=True)
class _Call:
    index: int
    batch: int
    id: str
    name: str
    results: list[_Result] = field(default_factory=list)
    superseded: bool = False


_Inserted: TypeAlias = tuple[Literal["user", "tool", "flat"], _Call]


def _batches(items: tuple[Message, ...]) -> list[int]:
    """The batch of each message: its own index, or for consecutive flat calls the first's."""
    batch = list(range(len(items)))
    for k in range(1, len(items)):
        if isinstance(items[k], ToolUseMessage) and isinstance(items[k - 1], ToolUseMessage):
            batch[k] = batch[k - 1]
    return batch


def _match(items: tuple[Message, ...], batch: list[int]) -> tuple[list[_Call], list[_Result]]:
    """Pair results with calls: a result answers the latest open call with its id."""
    calls: list[_Call] = []
    orphans: list[_Result] = []
    open_: dict[str, _Call] = {}
    answered: dict[str, _Call] = {}
    for k, message in enumerate(items):
        for event in tool_events(message):
            if event.kind == "call":
                assert isinstance(event.item, (ToolUseBlock, ToolUseMessage))
                earlier = open_.get(event.id)
                if earlier is not None and earlier.batch == batch[k]:
                    earlier.superseded = True  # one result will answer both: same id, same turn
                call = _Call(k, batch[k], event.id, event.item.name)
                calls.append(call)
                open_[event.id] = call
                answered.pop(event.id, None)
                continue
            assert isinstance(event.item, (ToolResultBlock, ToolResultMessage))
            result = _Result(k, event.position, event.id, is_synthetic(event.item))
            call_ = open_.pop(event.id, None)
            if call_ is not None:
                answered[event.id] = call_
                call_.results.append(result)
            elif event.id in answered:
                answered[event.id].results.append(result)
            else:
                orphans.append(result)
    return calls, orphans


def repair(
    messages: Iterable[Message], *, close_pending: bool = True
) -> tuple[tuple[Message, ...], tuple[Change, ...]]:
    """Make tool calls and results pair up, and say what was changed.

    Works in both views (blocks in role messages, flat ToolUse/ToolResult messages, or a
    mix). A result answers the latest earlier call with its id that is still open. Then:

    - an **orphaned** result (no earlier call has its id) is dropped;
    - a **duplicate** result (its call already has one) is dropped: a real result is kept
      over a synthetic one, otherwise the first is kept;
    - a **dangling** call (no result) gets a synthetic error result, clearly marked:
      ``is_error=True``, the text :data:`SYNTHETIC_TEXT`
      (see :func:`is_synthetic`). It goes into the user message that holds the call's other
      results, or into a new message right after them (a ToolMessage when the history
      uses them, else a UserMessage; a flat ToolResultMessage for a flat call). With
      ``close_pending=False``, calls in the last turn (nothing but assistant and session
      messages after them) are left open for the caller to answer;
    - in user and tool messages, and in runs of flat user/tool messages, tool results are
      **moved first**, keeping their order (providers require it).

    A message left with no content is removed. Session messages pass through untouched.
    Idempotent: repairing the result again changes nothing and reports nothing.

    Returns the repaired messages and the :class:`Change` records, sorted by input index.

    >>> from messages import AssistantMessage, UserMessage, ToolUseBlock, ToolResultBlock
    >>> history = [AssistantMessage((ToolUseBlock("t1", "Bash"), ToolUseBlock("t2", "Read"))),
    ...            UserMessage((ToolResultBlock("t1", "ok"), ToolResultBlock("t9", "?")))]
    >>> fixed, changes = repair(history)
    >>> [str(c) for c in changes]
    ['message 0: added a synthetic error result for a dangling tool call (t2)', 'message 1: dropped an orphaned tool result (t9)']
    >>> fixed[1].tool_results[1].text, fixed[1].tool_results[1].is_error
    ('[synthetic] no result was recorded for this tool call', True)
    """  # noqa: E501
    items = check_messages(messages)
    n = len(items)
    batch = _batches(items)
    calls, orphans = _match(items, batch)
    changes: list[Change] = []
    drop: dict[int, set[int]] = {}
    for result in orphans:
        drop.setdefault(result.index, set()).add(result.position)
        changes.append(Change("dropped_orphan_result", result.index, result.id))
    dangling: list[_Call] = []
    for call in calls:
        if call.results:
            keep = next((r for r in call.results if not r.synthetic), call.results[0])
            for result in call.results:
                if result is not keep:
                    drop.setdefault(result.index, set()).add(result.position)
                    changes.append(Change("dropped_duplicate_result", result.index, result.id))
        elif not call.superseded:
            dangling.append(call)
    if not close_pending:
        moved_on = [False] * (n + 1)  # moved_on[k]: a non-assistant turn comes after k
        for k in range(n - 1, -1, -1):
            role = role_of(items[k])
            moved_on[k] = moved_on[k + 1] or (role is not None and role != "assistant")
        dangling = [c for c in dangling if moved_on[c.index + 1]]

    into: dict[int, list[_Call]] = {}
    after: dict[int, list[_Inserted]] = {}
    last_of_batch = {b: k for k, b in enumerate(batch)}
    block_style: Literal["user", "tool"] = (
        "tool" if any(isinstance(m, ToolMessage) for m in items) else "user"
    )
    for call in dangling:
        start = last_of_batch[call.batch]
        last_result = None
        j = start + 1
        while j < n and (
            is_session(items[j]) or (carries_results(items[j]) and not carries_calls(items[j]))
        ):
            if not is_session(items[j]):
                last_result = j
            j += 1
        if last_result is None:
            style = "flat" if isinstance(items[call.index], ToolUseMessage) else block_style
            after.setdefault(start, []).append((style, call))
        elif isinstance(items[last_result], UserMessage):
            into.setdefault(last_result, []).append(call)
        elif isinstance(items[last_result], ToolMessage):
            after.setdefault(last_result, []).append(("tool", call))
        elif isinstance(items[last_result], ToolResultMessage):
            after.setdefault(last_result, []).append(("flat", call))
        else:  # results held by a system or assistant message: a new message after them
            style = "flat" if isinstance(items[call.index], ToolUseMessage) else block_style
            after.setdefault(last_result, []).append((style, call))
        changes.append(Change("added_synthetic_result", call.index, call.id))

    flat_role: Role = next((m.role for m in items if isinstance(m, ToolResultMessage)), "tool")
    out: list[Message] = []
    origin: list[int | None] = []
    for k, message in enumerate(items):
        rebuilt = _rebuild(message, drop.get(k, set()), into.get(k, ()))
        if rebuilt is not None:
            if _needs_reorder(rebuilt):
                rebuilt = _results_first(rebuilt)
                changes.append(Change("moved_results_first", k))
            out.append(rebuilt)
            origin.append(k)
        for inserted in _synthetic(items, after.get(k, ()), flat_role):
            out.append(inserted)
            origin.append(None)
    changes.extend(_reorder_flat(out, origin))
    changes.sort(key=lambda c: (c.index, _RANK[c.kind]))
    return tuple(out), tuple(changes)


def _synthetic_block(call: _Call) -> ToolResultBlock:
    return ToolResultBlock(call.id, SYNTHETIC_TEXT, is_error=True, name=call.name)


def _rebuild(message: Message, dropped: set[int], added: Iterable[_Call]) -> Message | None:
    """The message without its dropped results and with synthetic ones added; None if empty."""
    added = tuple(added)
    if not dropped and not added:
        return message
    if isinstance(message, ToolResultMessage):
        return None
    assert isinstance(message, (SystemMessage, UserMessage, AssistantMessage, ToolMessage))
    blocks = [b for pos, b in enumerate(as_blocks(message.content)) if pos not in dropped]
    if added:
        last = max((i for i, b in enumerate(blocks) if isinstance(b, ToolResultBlock)), default=-1)
        blocks[last + 1 : last + 1] = [_synthetic_block(c) for c in added]
    if not blocks:
        return None
    return dataclasses.replace(message, content=tuple(blocks))


def _synthetic(
    items: tuple[Message, ...], inserted: Iterable[_Inserted], flat_role: Role
) -> list[Message]:
    """New messages holding synthetic results; user-style ones share one UserMessage."""
    out: list[Message] = []
    for style, call in inserted:
        source = items[call.index]
        session_id, parent = source.session_id, source.parent_tool_use_id
        block = _synthetic_block(call)
        if style == "flat":
            out.append(
                ToolResultMessage(
                    call.id,
                    SYNTHETIC_TEXT,
                    is_error=True,
                    name=call.name,
                    role=flat_role,
                    session_id=session_id,
                    parent_tool_use_id=parent,
                )
            )
        elif style == "tool":
            out.append(ToolMessage((block,), session_id=session_id, parent_tool_use_id=parent))
        elif out and isinstance(out[-1], UserMessage):
            out[-1] = dataclasses.replace(out[-1], content=(*as_blocks(out[-1].content), block))
        else:
            out.append(UserMessage((block,), session_id=session_id, parent_tool_use_id=parent))
    return out


def _needs_reorder(message: Message) -> bool:
    """A user or tool message (holding no calls) where a result follows other content."""
    if not isinstance(message, (UserMessage, ToolMessage)) or isinstance(message.content, str):
        return False
    if any(isinstance(b, ToolUseBlock) for b in message.content):
        return False
    seen_other = False
    for block in message.content:
        if not isinstance(block, ToolResultBlock):
            seen_other = True
        elif seen_other:
            return True
    return False


def _results_first(message: Message) -> Message:
    assert isinstance(message, (UserMessage, ToolMessage))
    blocks = as_blocks(message.content)
    results = tuple(b for b in blocks if isinstance(b, ToolResultBlock))
    others = tuple(b for b in blocks if not isinstance(b, ToolResultBlock))
    return dataclasses.replace(message, content=results + others)


def _in_flat_run(message: Message) -> bool:
    return (
        isinstance(message, FLAT_TYPES)
        and not isinstance(message, ToolUseMessage)
        and message.role in ("user", "tool")
    )


def _reorder_flat(out: list[Message], origin: list[int | None]) -> list[Change]:
    """In each run of flat user/tool messages, move the tool results first (in place)."""
    changes: list[Change] = []
    k = 0
    while k < len(out):
        if not _in_flat_run(out[k]):
            k += 1
            continue
        end = k
        while end < len(out) and _in_flat_run(out[end]):
            end += 1
        run = list(range(k, end))
        first_other = next((i for i in run if not isinstance(out[i], ToolResultMessage)), end)
        late = [i for i in run if i > first_other and isinstance(out[i], ToolResultMessage)]
        if late:
            order = [i for i in run if isinstance(out[i], ToolResultMessage)]
            order += [i for i in run if not isinstance(out[i], ToolResultMessage)]
            for i in late:
                index, result = origin[i], out[i]
                if index is not None and isinstance(result, ToolResultMessage):
                    changes.append(Change("moved_results_first", index, result.tool_use_id))
            out[k:end] = [out[i] for i in order]
            origin[k:end] = [origin[i] for i in order]
        k = end
    return changes
