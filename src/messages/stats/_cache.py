"""A cache of per-file stats, so that ``messages stats`` re-reads only the files that changed.

Each file's part (what :class:`~messages.stats.InputStats` collected, and what reading it
reported) is kept in one cache file, found by the file's path and valid while the file has
the same size and modification time, under the same library version, price data (the
installed ``genai-prices``, told by its files: :func:`~messages.stats._prices.stamp`) and
reading options. The folder is ``$XDG_CACHE_HOME/messages``
(``~/.cache/messages`` when unset).

Beside the entries, one file keeps the prices worked out for past reports (see
:func:`~messages.stats._prices.memoized`), under the same versions: a re-run whose files
are all in the cache then needs neither the files nor the price table.

Writes are atomic (a temporary file renamed over the old one), so two runs at once never
leave half a file; a cache file that cannot be read (cut short, from another version,
not ours) is ignored and written again. Entries are pickles, read only from a folder
and files the current user owns.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Final

from ._engine import InputStats
from ._prices import Memo

__all__ = ["Cached", "StatsCache", "default_folder"]

FORMAT: Final = 3
"""The layout of a cache entry; a change makes every older entry a miss."""

MAX_PRICES: Final = 4096
"""Memoized report prices kept at most (beyond, only the last run's)."""


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/messages/stats``, or ``~/.cache/messages/stats``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "messages" / "stats"


def _versions() -> tuple[str, ...]:
    from .. import __version__
    from ._prices import stamp

    return (str(FORMAT), __version__, stamp() or "-", sys.version.split()[0])


@dataclass(frozen=True, slots=True)
class Cached:
    """One file's part as it was read: its stats and what reading it reported."""

    stats: InputStats | None
    """What the file holds (``None`` when its format could not be told)."""
    reports: str
    """The lines reading it wrote to stderr, replayed on a hit."""
    failed: bool
    """Whether a problem was reported."""
    lines: int
    """Lines read."""


class StatsCache:
    """The per-file stats cache in ``folder`` (see the module's docstring)."""

    __slots__ = ("folder", "hits", "misses", "versions")

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = default_folder() if folder is None else folder
        self.versions = _versions()
        self.hits = 0
        self.misses = 0

    def _entry(self, path: str) -> Path:
        digest = hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape"))
        return self.folder / f"{digest.hexdigest()[:40]}.pickle"

    def key(self, path: str, options: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """What an entry for ``path`` must match: ``None`` when the file cannot be looked at."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        return (os.path.abspath(path), st.st_size, st.st_mtime_ns, self.versions, options)

    def get(self, path: str, key: tuple[Any, ...]) -> Cached | None:
        """The entry for ``path`` made under ``key``, else ``None`` (a miss)."""
        entry = self._entry(path)
        try:
            with open(entry, "rb") as fp:
                if os.fstat(fp.fileno()).st_uid != os.getuid():
                    raise PermissionError("not ours")
                found = pickle.load(fp)
        except Exception:
            self.misses += 1
            return None
        if (
            not isinstance(found, tuple)
            or len(found) != 2
            or found[0] != key
            or not isinstance(found[1], Cached)
        ):
            self.misses += 1
            return None
        self.hits += 1
        return found[1]

    def put(self, path: str, key: tuple[Any, ...], value: Cached) -> None:
        """Keep ``value`` for ``path`` (atomically; a failure to write is not an error)."""
        self._write(self._entry(path), (key, value))

    def _write(self, target: Path, value: object) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, temp = tempfile.mkstemp(dir=self.folder, prefix=".part-", suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fp:
                pickle.dump(value, fp, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, target)
        except Exception:
            with contextlib.suppress(OSError):
                os.unlink(temp)

    def _prices_entry(self) -> Path:
        return self.folder / "prices.memo"

    def prices(self) -> Memo:
        """The prices past runs worked out under the same versions (empty when none)."""
        try:
            with open(self._prices_entry(), "rb") as fp:
                if os.fstat(fp.fileno()).st_uid != os.getuid():
                    raise PermissionError("not ours")
                found = pickle.load(fp)
        except Exception:
            return {}
        if not isinstance(found, tuple) or len(found) != 2 or found[0] != self.versions:
            return {}
        memo = found[1]
        return memo if isinstance(memo, dict) else {}

    def keep_prices(self, memo: Memo, used: set[str], *, before: int) -> None:
        """Keep ``memo`` when it gained prices (``before``: its size when read).

        Past :data:`MAX_PRICES` entries, only the ``used`` ones (this run's) are kept.
        """
        if len(memo) == before:
            return
        if len(memo) > MAX_PRICES:
            memo = {digest: memo[digest] for digest in used if digest in memo}
        self._write(self._prices_entry(), (self.versions, memo))
