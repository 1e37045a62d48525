""":class:`Stats`: the mergeable, picklable accumulator behind ``messages stats``."""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import reduce
from typing import TYPE_CHECKING

from .._core.slots import Slotted
from ..message import Message
from ._engine import InputStats
from ._engine import Key
from ._engine import SessionStats
from ._engine import resolve

if TYPE_CHECKING:
    from datetime import date
    from datetime import tzinfo

    from ._report import CostMode
    from ._report import Report
    from ._report import View

__all__ = ["Stats"]


@dataclass(slots=True)
class Stats(Slotted):
    """What a set of agent logs did: sessions, turns, tool calls, errors, tokens and cost.

    Build one per input (:meth:`of_messages`, :meth:`of_file`, :meth:`of_input`), combine them
    with :meth:`merge` in any grouping, and ask for a :meth:`report`. The parts are kept as the
    records behind each figure, by key, so merging is exact: a record two inputs both hold
    counts once, and of two usages of one message the final one is kept, whichever input is
    merged first.

    Laws (property-tested): ``Stats.empty()`` is the identity of :meth:`merge`, and
    :meth:`merge` is associative, so any split of a list of inputs, each part merged and the
    parts merged, equals the whole; the value pickles, so parts can be built in worker
    processes (or on a Dask, Spark or Ray cluster) and merged where they meet.

    >>> import pickle
    >>> from messages import AssistantMessage, Usage
    >>> first = AssistantMessage("Hi", usage=Usage(10, 1), message_id="m1", session_id="s")
    >>> final = AssistantMessage("Hi", usage=Usage(10, 5), message_id="m1", session_id="s")
    >>> a = Stats.of_messages([first], label="a.jsonl")
    >>> b = Stats.of_messages([final], label="b.jsonl")
    >>> (session,) = b.merge(a).sessions()
    >>> session.tokens.output, session.inputs  # m1 counted once, with its final usage
    (5, ['b.jsonl', 'a.jsonl'])
    >>> whole = Stats.empty().merge(a).merge(b)
    >>> pickle.loads(pickle.dumps(whole)) == whole == a.merge(b.merge(Stats.empty()))
    True
    """

    parts: dict[Key, SessionStats] = field(default_factory=dict)
    """Each input's part of each session, by ``("session", id)`` or ``("input", label)``."""

    @classmethod
    def empty(cls) -> Stats:
        """No input at all: the identity of :meth:`merge`."""
        return cls()

    @classmethod
    def of_input(cls, collected: InputStats) -> Stats:
        """The stats of one input whose messages were fed to an :class:`InputStats`."""
        collected.finish()
        return cls(dict(collected.sessions))

    @classmethod
    def of_messages(
        cls,
        messages: Iterable[Message],
        *,
        label: str,
        format: str | None = None,
        path: str | None = None,
    ) -> Stats:
        """The stats of one input's decoded messages, in order.

        ``label`` names the input (a file path: its folder is the fallback project); two
        inputs must have different labels. ``format`` is the adapter's name, if known;
        ``path`` the file's, where its agent tells a session from it (see ``InputStats``).
        """
        collected = InputStats(label, format, path=path)
        for m in messages:
            collected.feed(m)
        return cls.of_input(collected)

    @classmethod
    def of_file(cls, path: str, *, format: str | None = None, strict: bool = False) -> Stats:
        """The stats of one agent log file, read the way ``messages stats FILE`` reads it.

        The format is detected unless ``format`` names it; bad lines are skipped (with
        ``strict``, the first one raises :class:`~messages.errors.DecodeError`). A file whose
        format cannot be told adds nothing.
        """
        from ..cli.io import Input
        from ..cli.io import LineCounter
        from ..cli.io import Options
        from ..cli.io import Reporter
        from ..cli.io import decoded
        from ..cli.io import read_lines

        inp = Input(path)
        opts = Options("stats", source=format, strict=strict)
        with inp.open() as fp:
            counter = LineCounter(read_lines(fp))
            name, messages = decoded(inp, opts, counter, Reporter(io.StringIO()))
            if name is None:
                return cls()
            return cls.of_messages(messages, label=inp.label, format=name, path=path)

    def merge(self, other: Stats) -> Stats:
        """Both sets of inputs together (neither operand changes)."""
        if not other.parts:
            return self
        if not self.parts:
            return other
        out = dict(self.parts)
        for key, part in other.parts.items():
            had = out.get(key)
            if had is None:
                out[key] = part
            else:
                both = had.copy()
                both.absorb(part)
                out[key] = both
        return Stats(out)

    @classmethod
    def merge_all(cls, parts: Iterable[Stats]) -> Stats:
        """All of ``parts`` merged, left to right."""
        return reduce(cls.merge, parts, cls())

    def sessions(self) -> list[SessionStats]:
        """Every session, in first-seen order, with each input's part joined in."""
        return resolve(self.parts)

    def report(
        self,
        by: View = "session",
        *,
        cost: CostMode = "auto",
        tz: tzinfo | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> Report:
        """The figures in rows, one per session, day, month, model or project.

        ``cost``: ``"logged"`` (what the logs say), ``"estimated"`` (from token counts and
        ``genai-prices``) or ``"auto"`` (logged where a session's log has it, else
        estimated). ``tz`` is the zone days and months are told in (default: the local
        zone); ``since`` and ``until`` keep what happened between those days, inclusive.
        """
        from ._report import build

        return build(self.sessions(), by=by, cost=cost, tz=tz, since=since, until=until)
