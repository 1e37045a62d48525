"""ZCode's ``db.sqlite``: which file it is, its sessions, and its rows in order.

ZCode keeps its command-line history in ``cli/db/db.sqlite`` under its home (``$ZCODE_HOME``,
else ``~/.zcode``): a ``session`` table (one row per session: ``id``, ``directory``, and in
newer releases ``version``) and a ``model_usage`` table (one row per model call: ``id``,
``session_id``, ``started_at`` in epoch milliseconds, ``model_id``, ``provider_id``,
``status``, ``input_tokens`` with the cache included, ``output_tokens``,
``cache_creation_input_tokens``, ``cache_read_input_tokens``, ``computed_total_tokens``). A
session's rows are its ``session`` row, then its ``model_usage`` rows in time order.
"""

from __future__ import annotations

from typing import Final

from .._stores import Layout

__all__ = ["FILE", "STORE"]

FILE: Final = "db.sqlite"
"""The database's file name."""
STORE: Final = Layout(
    "zcode",
    FILE,
    needs=frozenset(("session", "model_usage")),
    sources=(("session", "id", "rowid"), ("model_usage", "session_id", "started_at")),
    tables=(("session", "id", ()), ("model_usage", "session_id", ("started_at", "id"))),
)
"""A ``db.sqlite`` with ``session`` and ``model_usage`` tables; its session ids in table order
(a usage row's session without a row of its own too)."""
