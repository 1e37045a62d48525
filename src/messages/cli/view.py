"""``--format html`` of ``messages show`` and ``messages sessions``: pages written to files.

``show`` writes one self-contained page (to ``-o FILE``, else to standard output);
``sessions`` writes one page per session and an ``index.html`` into ``-o DIR``. Costs the
logs do not record are estimated with ``genai-prices`` when it is installed, as ``stats``
does.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO

from ..text.html import Price
from ..text.html import SessionLike
from ..text.html import session_page
from ..text.html import write_pages
from ..usage import Usage

__all__ = ["estimator", "write_index", "write_page"]


def estimator(started: object = None) -> Price | None:
    """A :data:`~messages.text.html.Price` from ``genai-prices`` at ``started``, if installed."""
    from .._core.frozen import raw
    from ..stats._engine import Tokens
    from ..stats._engine import epoch
    from ..stats._engine import price_context
    from ..stats._prices import available
    from ..stats._prices import estimate

    if not available():
        return None
    when = epoch(started)

    def price(model: str | None, usage: Usage) -> float | None:
        return estimate(model, when, Tokens.of(usage), price_context(raw(usage.extra)))

    return price


def write_page(session: SessionLike, output: str | None, out: IO[str]) -> None:
    """One session's page into the file ``output`` (``None`` or ``-``: ``out``)."""
    page = session_page(session, price=estimator(getattr(session, "started", None)))
    if output is None or output == "-":
        out.write(page)
        return
    Path(output).write_text(page, encoding="utf-8")


def write_index(sessions: Iterable[SessionLike], folder: str) -> Path:
    """One page per session and ``index.html`` into ``folder``; the index's path."""
    return write_pages(sessions, folder, price_for=lambda s: estimator(getattr(s, "started", None)))
