"""Counting tokens, and trimming a history to a token budget without splitting tool pairs."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Literal
from typing import TypeAlias
from typing import assert_never

from .._core.fields import ROLES
from .._core.frozen import raw
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..convert import message_to_block
from ..message import ROLE_TYPES
from ..message import Message
from ..message import check_messages
from ..message import role_of
from ..roles import as_blocks
from ._pairs import carries_results
from ._pairs import is_session
from ._pairs import is_system
from ._pairs import tool_events

__all__ = ["TokenCounter", "count_tokens_approximately", "per_message", "trim"]

TokenCounter: TypeAlias = Callable[[Sequence[Message]], int]
"""Counts the tokens of a sequence of messages, as :func:`trim` asks for them."""


class _Tally:
    """Characters, images and audio clips found while walking a message."""

    __slots__ = ("audio", "images", "texts")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.images = 0
        self.audio = 0

    def block(self, block: Block) -> None:
        match block:
            case TextBlock():
                self.texts.append(block.text)
            case ThinkingBlock():
                self.texts.append(block.thinking)
            case ToolUseBlock():
                self.texts.append(block.name)
                if block.arguments is not None:
                    self.texts.append(block.arguments)
                else:
                    self.texts.append(_json(raw(block.input)))
            case ToolResultBlock():
                if isinstance(block.content, str):
                    self.texts.append(block.content)
                else:
                    for inner in block.content:
                        self.block(inner)
            case ImageBlock():
                self.images += 1
            case AudioBlock() | VideoBlock():
                self.audio += 1
            case DocumentBlock():
                if block.text is not None:
                    self.texts.append(block.text)
                elif isinstance(block.content, str):
                    self.texts.append(block.content)
                elif block.content is not None:
                    for inner in block.content:
                        self.block(inner)
                else:  # file bytes, a URL or a file id: not measured by its size
                    self.images += 1
            case RawBlock():
                self.texts.append(_json(raw(block.data)))
            case _:
                assert_never(block)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def count_tokens_approximately(
    messages: Iterable[Message],
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: int = 3,
    tokens_per_image: int = 85,
    tokens_per_audio: int = 85,
    count_name: bool = True,
    text_counter: Callable[[str], int] | None = None,
) -> int:
    """A quick estimate of the tokens a model would read for these messages.

    Per message: the characters of its text, thinking, tool names and arguments (as JSON),
    tool result text and raw blocks, divided by ``chars_per_token`` and rounded up; plus
    ``extra_tokens_per_message`` (role and framing); plus ``tokens_per_image`` per image and
    ``tokens_per_audio`` per audio or video clip (media are never measured by their base64
    size). A document's text body counts as text; a document file (PDF bytes, a URL, a file
    id) costs ``tokens_per_image``.
    With ``count_name``, a participant name (``extra["name"]``) counts as text too. Session
    messages are never sent to a model and count 0.

    ``text_counter`` is the hook for an exact tokenizer: when given, it is called with the
    message's text pieces joined by newlines, and its result replaces the character
    estimate (the per-message, image and audio costs still apply).

    The count is additive: the total is the sum over the messages.

    >>> from messages import UserMessage
    >>> count_tokens_approximately([UserMessage("Hello there!")])  # 12 chars -> 3, plus 3
    6
    >>> count_tokens_approximately([UserMessage("Hello there!")], text_counter=lambda s: 2)
    5
    """
    if not chars_per_token > 0:
        raise ValueError(f"chars_per_token must be positive, found {chars_per_token!r}")
    total = 0
    for message in check_messages(messages):
        if is_session(message):
            continue
        tally = _Tally()
        if isinstance(message, ROLE_TYPES):
            for block in as_blocks(message.content):
                tally.block(block)
        else:
            tally.block(message_to_block(message))
        name = message.extra.get("name")
        if count_name and isinstance(name, str):
            tally.texts.append(name)
        if text_counter is not None:
            text_tokens = text_counter("\n".join(tally.texts))
        else:
            text_tokens = math.ceil(sum(len(t) for t in tally.texts) / chars_per_token)
        total += (
            text_tokens
            + extra_tokens_per_message
            + tally.images * tokens_per_image
            + tally.audio * tokens_per_audio
        )
    return total


def per_message(count: Callable[[Message], int], *, extra_tokens: int = 0) -> TokenCounter:
    """A :data:`TokenCounter` from a function that counts one message (an exact tokenizer).

    ``extra_tokens`` is added once per call, for a provider's fixed priming overhead.

    >>> from messages import UserMessage
    >>> counter = per_message(lambda m: len(m.text.split()), extra_tokens=1)
    >>> counter([UserMessage("one two"), UserMessage("three")])
    4
    """

    def counter(messages: Sequence[Message]) -> int:
        return extra_tokens + sum(count(m) for m in messages)

    return counter


def _allowed_cuts(messages: tuple[Message, ...]) -> list[bool]:
    """``allowed[c]``: cutting between ``messages[c-1]`` and ``messages[c]`` splits no pair.

    A result pairs with the latest call with its id before it; a cut strictly after the
    call and at or before the result would split them.
    """
    n = len(messages)
    depth = [0] * (n + 2)
    last_call: dict[str, int] = {}
    for k, message in enumerate(messages):
        for event in tool_events(message):
            if event.kind == "call":
                last_call[event.id] = k
            else:
                i = last_call.get(event.id)
                if i is not None and i < k:
                    depth[i + 1] += 1
                    depth[k + 1] -= 1
    allowed = []
    running = 0
    for c in range(n + 1):
        running += depth[c]
        allowed.append(running == 0)
    return allowed


def _role_set(value: str | Collection[str] | None, name: str) -> frozenset[str] | None:
    if value is None:
        return None
    roles = frozenset((value,)) if isinstance(value, str) else frozenset(value)
    for role in roles:
        if role not in ROLES:
            raise ValueError(
                f"{name}: unknown role {role!r}; expected one of {', '.join(sorted(ROLES))}"
            )
    return roles


def _first_fit(candidates: list[int], fits: Callable[[int], bool]) -> int | None:
    """The first candidate that fits, by bisection (fitting is monotone in the candidates)."""
    lo, hi = 0, len(candidates)
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(candidates[mid]):
            hi = mid
        else:
            lo = mid + 1
    return candidates[lo] if lo < len(candidates) else None


def trim(
    messages: Iterable[Message],
    max_tokens: int,
    *,
    strategy: Literal["last", "first"] = "last",
    token_counter: TokenCounter = count_tokens_approximately,
    include_system: bool = True,
    start_on: str | Collection[str] | None = None,
    end_on: str | Collection[str] | None = None,
) -> tuple[Message, ...]:
    """Keep as much of a history as fits in ``max_tokens``, never splitting a tool pair.

    ``strategy="last"`` keeps the most recent messages (what an agent loop wants), and with
    ``include_system`` the leading system prompt(s) too, counted against the budget.
    ``strategy="first"`` keeps the oldest messages.

    Guarantees, whatever the input:

    - ``token_counter(result) <= max_tokens`` (when nothing fits, the result is empty);
    - the result is the system prefix (``last`` with ``include_system``) followed by one
      contiguous stretch of the input, in order;
    - a cut never falls between a tool call and its result, so every pair in the input is
      kept whole or dropped whole;
    - with ``last``, the kept stretch never starts on a message carrying tool results
      (its calls would be gone), nor, with ``include_system``, on a system message; with
      ``start_on`` it starts on a message with one of those roles, and with ``end_on``
      (either strategy) it ends on one of those roles;
    - idempotent: trimming the result again with the same arguments changes nothing.

    Session messages are kept or dropped with the stretch they sit in; the default counter
    charges them nothing. A compaction summary (``UserMessage.summary``) is the user turn the
    model receives, so it is trimmed as one: a kept stretch may start on it.

    ``token_counter`` counts a sequence of messages; the default is
    :func:`count_tokens_approximately`. Use :func:`per_message` or
    ``functools.partial(count_tokens_approximately, text_counter=...)`` to plug in an
    exact tokenizer. The counter must not shrink when messages are added (the search
    bisects over cut points).

    >>> from messages import SystemMessage, UserMessage, AssistantMessage
    >>> history = [SystemMessage("Be brief."), UserMessage("one"), AssistantMessage("two"),
    ...            UserMessage("three")]
    >>> trim(history, 12)
    (SystemMessage(content='Be brief.'), UserMessage(content='three'))
    >>> trim(history, 12, strategy="first")
    (SystemMessage(content='Be brief.'), UserMessage(content='one'))
    """
    items = check_messages(messages)
    if max_tokens < 0:
        raise ValueError(f"max_tokens must not be negative, found {max_tokens!r}")
    if strategy not in ("last", "first"):
        raise ValueError(f"strategy must be 'last' or 'first', found {strategy!r}")
    starts = _role_set(start_on, "start_on")
    ends = _role_set(end_on, "end_on")
    if strategy == "first" and starts is not None:
        raise ValueError("start_on only applies to strategy='last'")
    n = len(items)
    allowed = _allowed_cuts(items)

    def ends_ok(e: int, floor: int) -> bool:
        return allowed[e] and (ends is None or e == floor or role_of(items[e - 1]) in ends)

    if strategy == "first":
        ends_at = [e for e in range(n + 1) if ends_ok(e, 0)]
        # the largest fitting prefix: bisect over the candidates from the longest down
        best = _first_fit(ends_at[::-1], lambda e: token_counter(items[:e]) <= max_tokens)
        return items[:best] if best is not None else ()

    head = 0
    if include_system:
        while head < n and is_system(items[head]):
            head += 1
    end = n
    if ends is not None:
        end = next((e for e in range(n, head, -1) if ends_ok(e, head)), head)
    system = items[:head]

    def starts_ok(c: int) -> bool:
        if c == end:
            return True
        message = items[c]
        return (
            allowed[c]
            and not carries_results(message)
            # a system message here would read as part of the system prompt next time
            and not (include_system and is_system(message))
            and (starts is None or role_of(message) in starts)
        )

    starts_at = [c for c in range(head, end + 1) if starts_ok(c)]
    best = _first_fit(starts_at, lambda c: token_counter(system + items[c:end]) <= max_tokens)
    return system + items[best:end] if best is not None else ()
