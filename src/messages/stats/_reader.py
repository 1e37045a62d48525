"""A reading of agent logs for ``messages stats`` only: lines that count for little, read lightly.

Most lines of a Claude Code transcript are ``progress`` records (reports on a hook, a
running command, a wait: 70% of the lines of the shared 2.1 session). For the figures of
``messages stats`` such a record counts only for its session, its time and its working
folder (see :meth:`~messages.stats.InputStats.seen`), so building its typed message is
wasted work. :func:`reader` gives, for a format that has such lines, a line reader that
yields a :class:`Seen` for each of them, and the adapter's own message for every other line:
the same line loop, the same parsing, the same errors and line numbers.

A line is read lightly only when the adapter's own decoder would make of it a record that
counts for nothing else (the checks are the decoder's own:
what the adapter registers with ``_base.register_light``); any
other line, a bad one included, takes the adapter's path. ``tests/test_stats_reader.py``
holds the two readings equal, figure for figure and report for report.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Final

from ..adapters import _base
from ..adapters import claude_code
from ..message import Message
from ._engine import RESTATING

__all__ = ["LIGHT", "Seen", "reader"]


class Seen:
    """A record that counts for its session, time and working folder only."""

    __slots__ = ("cwd", "session_id", "timestamp")

    def __init__(self, session_id: str, timestamp: str, cwd: object) -> None:
        self.session_id = session_id
        self.timestamp = timestamp
        self.cwd = cwd


_decode_owned: Final = _base.owned(claude_code.decode)
_progress_fields: Final = _base.light(claude_code.decode) or (lambda obj: None)
"""The adapter's own test of a line that counts for little (without one: none does)."""


def _claude_code(obj: Any) -> Message | Seen:
    """One parsed (owned) Claude Code line: a :class:`Seen`, or the decoder's message."""
    found = _progress_fields(obj)
    if found is not None and RESTATING[0] not in obj and RESTATING[1] not in obj:
        return Seen(*found)
    return _decode_owned(obj)  # type: ignore[no-any-return]


def _claude_code_lines(
    lines: Iterable[str | bytes], *, strict: bool = False
) -> Iterator[Message | Seen]:
    # the adapter's own loop (claude_code.iter_decode), with the decoder above
    return _base.iter_decode(_claude_code, lines, source="claude_code", strict=strict)  # type: ignore[arg-type]


LIGHT: Final[dict[str, Callable[..., Iterator[Message | Seen]]]] = {
    "claude_code": _claude_code_lines,
}
"""The light reader of each format that has one, by adapter name."""


def reader(name: str) -> Callable[..., Iterator[Message | Seen]] | None:
    """The light line reader for the format ``name``, or ``None`` when it has none."""
    return LIGHT.get(name)
