"""Claude Code ``--output-format json`` with ``--verbose``: the whole run as ONE JSON array.

``claude -p PROMPT --output-format json`` writes one ``result`` object; with ``--verbose``
(or the ``verbose`` view mode set in the user's settings) it writes, when the run ends, one
array holding every message the stream-json output would have given, one per item (hook
responses, ``system``/``init``, ``assistant`` and ``user`` turns, ..., the ``result`` last).
Qwen Code's ``--output-format json`` writes the same array. The line reader gives its items,
each decoded as the line it would have been and marked with its index in
``extra["$output"]``; the line writer puts each run of marked items back together as one
array, JSON-equal. A lone ``decode`` of the array keeps it whole as a
:class:`~messages.RawMessage`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ...message import Message

__all__ = ["OUTPUT", "is_output", "marked", "unmarked"]

OUTPUT: Final = "$output"
"""The ``extra`` key of a message read from the JSON array: the item's index in it."""


def is_output(obj: Any) -> bool:
    """Whether a parsed record is read as the JSON array of a run: objects, one or more."""
    return type(obj) is list and bool(obj) and all(type(item) is dict for item in obj)


def marked(messages: Iterable[Message]) -> tuple[Message, ...]:
    """The messages of one array's items, each with its index in ``extra["$output"]``."""
    return tuple(
        replace(m, extra=wrap_owned({**raw(m.extra), OUTPUT: i})) for i, m in enumerate(messages)
    )


def unmarked(extra: dict[str, Any]) -> dict[str, Any]:
    """A marked message's extra without its mark (what its line is written with)."""
    return {k: v for k, v in extra.items() if k != OUTPUT}
