"""Hermes Agent's ``state.db``: which file it is, its sessions, and its rows in order.

Hermes Agent keeps its state in ``state.db`` in its home (``$HERMES_HOME``, else
``~/.hermes``): a ``sessions`` table (one row per session: ``id``, ``source``, ``model``,
``started_at`` in epoch seconds, ``cwd``, ``title``, and the session's token counts and cost)
and a ``messages`` table (``id``, ``session_id``, ``role``, ``content``, ``tool_calls`` as JSON
text, ``tool_call_id``, ``tool_name``, ``timestamp``, ``reasoning``...). A session's rows are
its ``sessions`` row, its messages in time order, then its ``session_model_usage`` rows.
"""

from __future__ import annotations

from typing import Final

from .._stores import Layout

__all__ = ["FILE", "STORE"]

FILE: Final = "state.db"
"""The database's file name."""
STORE: Final = Layout(
    "hermes",
    FILE,
    needs=frozenset(("sessions", "messages")),
    sources=(("sessions", "id", "started_at"), ("messages", "session_id", "timestamp")),
    tables=(
        ("sessions", "id", ()),
        ("messages", "session_id", ("timestamp", "id")),
        ("session_model_usage", "session_id", ()),
    ),
)
"""A ``state.db`` with ``sessions`` and ``messages`` tables; its session ids oldest first (a
message's session without a row of its own too)."""
