"""Token usage and cost totals over a stream, per session, without double counting."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping

from ..events.run import ResultMessage
from ..message import Message
from ..message import check_messages
from ..roles import AssistantMessage
from ..usage import Usage

__all__ = ["total_usage", "usage_by_session"]


class _Session:
    """Running totals for one session: closed runs, and the turns of the open run."""

    __slots__ = ("total", "turns")

    def __init__(self) -> None:
        self.total = Usage()
        self.turns: dict[object, Usage] = {}

    def turn(self, message: AssistantMessage, index: int) -> None:
        if message.usage is not None:
            # records sharing a message_id are fragments of one API call: the last one counts
            key: object = ("id", message.message_id) if message.message_id else ("at", index)
            self.turns[key] = message.usage

    def close(self, result: ResultMessage | None) -> None:
        turns = Usage.sum(self.turns.values())
        self.turns = {}
        if result is None:
            self.total = self.total + turns
            return
        run = _plain(result.usage) if result.usage is not None else turns
        cost = result.total_cost_usd
        if cost is None and result.usage is not None:
            cost = result.usage.cost_usd
        if cost is None:
            cost = turns.cost_usd
        self.total = self.total + Usage(
            run.input_tokens,
            run.output_tokens,
            run.cache_read_tokens,
            run.cache_write_tokens,
            reasoning_tokens=run.reasoning_tokens,
            cost_usd=cost,
        )


def _plain(usage: Usage) -> Usage:
    """The figures of a usage without its ``extra`` (sums never carry it)."""
    return usage + Usage()


def usage_by_session(messages: Iterable[Message]) -> Mapping[str | None, Usage]:
    """Token usage and cost per ``session_id`` (``None`` for messages without one).

    A session is cut into runs, each ending at a :class:`~messages.ResultMessage`:

    - a run that ends with a result counts the result's totals: its ``usage`` when given
      (otherwise the run's turns), and the cost from ``total_cost_usd``, else
      ``usage.cost_usd``, else the turns' costs. The per-turn usage inside that run is
      **not** added again;
    - a run with no result yet (a stream cut short, or no result at all) counts the sum of
      its turns' usage (:class:`~messages.AssistantMessage` ``.usage``). Records that share
      a ``message_id`` are fragments of one API call that repeat its usage: only the last
      of them counts.

    Every session seen (on any message) is in the mapping, in order of first appearance;
    one with nothing reported has an empty ``Usage()``. Cost is ``None`` when no part of
    the session reported one; when only some parts did, it is the sum of those.

    >>> from messages import AssistantMessage, ResultMessage, Usage
    >>> stream = [AssistantMessage("a", usage=Usage(10, 2), session_id="s1"),
    ...           ResultMessage(usage=Usage(10, 2), total_cost_usd=0.5, session_id="s1"),
    ...           AssistantMessage("b", usage=Usage(4, 1), session_id="s2")]
    >>> usage_by_session(stream)
    {'s1': Usage(input_tokens=10, output_tokens=2, cost_usd=0.5), 's2': Usage(input_tokens=4, output_tokens=1)}
    """  # noqa: E501
    sessions: dict[str | None, _Session] = {}
    for index, message in enumerate(check_messages(messages)):
        state = sessions.get(message.session_id)
        if state is None:
            state = sessions[message.session_id] = _Session()
        if isinstance(message, AssistantMessage):
            state.turn(message, index)
        elif isinstance(message, ResultMessage):
            state.close(message)
    out: dict[str | None, Usage] = {}
    for session_id, state in sessions.items():
        state.close(None)
        out[session_id] = state.total
    return out


def total_usage(messages: Iterable[Message]) -> Usage:
    """All token usage and cost in a stream: the sum of :func:`usage_by_session`.

    >>> from messages import AssistantMessage, Usage
    >>> total_usage([AssistantMessage("a", usage=Usage(3, 1, cost_usd=0.01)),
    ...              AssistantMessage("b", usage=Usage(5, 2))])
    Usage(input_tokens=8, output_tokens=3, cost_usd=0.01)
    """
    return Usage.sum(usage_by_session(messages).values())
