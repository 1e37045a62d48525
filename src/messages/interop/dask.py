"""Agent-log archives past one machine: the adapters over a sharded archive, on Dask.

The decoders are pure functions over lines, so an archive of many log files is an
embarrassingly parallel job for an existing engine. This module holds the few pieces such a
job needs, written once:

- :func:`decode_log`: one log's lines to its format and messages (the format is detected
  from the first records, the way ``messages`` does it, unless ``format`` names it);
- :func:`decode_partition` and :func:`stats_partition`: what one task does with the
  ``(line, path)`` pairs of ``dask.bag.read_text(..., include_path=True)`` (or of any
  engine's partition: Spark's ``mapPartitions`` and Ray Data's ``map_batches`` call them the
  same way, see docs/scale.md);
- :func:`decode_bag` and :func:`stats_bag`: the Dask recipe itself (the ``dask`` extra:
  ``pip install "llm-messages[dask]"``).

A log file is the unit of work: each one is read whole by one task (files are never split,
since a record may span lines and a stream reader keeps state from line to line). Many
small files can share a task (``files_per_partition``). Nothing here needs Dask except the
two ``*_bag`` functions, which import it on first use.

>>> from messages.interop.dask import decode_log
>>> name, messages = decode_log(['{"type":"thread.started","thread_id":"t1"}'])
>>> name, [m.kind for m in messages]
('codex', ['init'])
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Iterator
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING
from typing import Any
from typing import cast

from ..adapters import get
from ..cli.io import SNIFF_LINES
from ..cli.io import expand
from ..cli.io import sniff
from ..convert import normalize_messages
from ..events.run import InvalidLineMessage
from ..message import Message
from ..stats import Stats

if TYPE_CHECKING:
    import dask.bag

__all__ = ["Record", "decode_bag", "decode_log", "decode_partition", "stats_bag", "stats_partition"]


def _cannot_tell(lines: Iterator[str | bytes]) -> Iterator[Message]:
    """One record saying why a log was not read: its first non-blank line, with a reason."""
    for number, line in enumerate(lines, 1):
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        text = text.rstrip("\r\n")
        if text.strip():
            reason = (
                f"cannot tell the format: no record in the first {SNIFF_LINES} lines is one"
                " a known format writes; pass format=NAME if you know it"
            )
            yield InvalidLineMessage(text, reason=reason, line=number)
            return


def decode_log(
    lines: Iterable[str | bytes],
    *,
    format: str | None = None,
    strict: bool = False,
    merge: bool = False,
) -> tuple[str | None, Iterator[Message]]:
    """The format of one log and its messages, decoded lazily.

    The format is ``format`` when given, else the one the first records belong to (as the
    ``messages`` command detects it). A bad line is an :class:`~messages.InvalidLineMessage`
    in the stream (with ``strict``, a :class:`~messages.DecodeError` instead); a log whose
    format cannot be told gives ``None`` and one InvalidLineMessage for its first line, so
    nothing is dropped without a word. With ``merge`` the adapter joins the format's
    fragments (``adapter.merge``).

    >>> name, messages = decode_log(['{"type":"turn.started"}', "not json"], format="codex")
    >>> [type(m).__name__ for m in messages]
    ['RawMessage', 'InvalidLineMessage']
    >>> name, messages = decode_log(["not json", "[1, 2]"])
    >>> name, [(m.line, m.reason[:22]) for m in messages]
    (None, [(1, 'cannot tell the format')])
    """
    # sniff is typed for the command's byte lines; it reads str lines the same way
    survey, rest = sniff(cast("Iterable[bytes]", lines), expect=format)
    name = format or survey.first
    if name is None:
        return None, _cannot_tell(rest)
    adapter = get(name)
    messages = adapter.iter_decode(rest, strict=strict)
    return name, adapter.merge(messages) if merge else messages


Record = tuple[str, str]
"""One line and the path of the log it came from, as ``read_text(..., include_path=True)``
gives them."""


def _logs(records: Iterable[Record | str]) -> Iterator[tuple[str, list[str]]]:
    """The records of a partition, log by log (a bare line belongs to the log ``""``)."""
    pairs = ((r, "") if isinstance(r, str) else r for r in records)
    for path, group in groupby(pairs, key=itemgetter(1)):
        yield path, [line for line, _ in group]


def decode_partition(
    records: Iterable[Record | str],
    *,
    format: str | None = None,
    strict: bool = False,
    merge: bool = False,
    normalize: bool = False,
) -> list[Message]:
    """Decode one partition: ``(line, path)`` pairs, the lines of each log together.

    Each log is read with :func:`decode_log` (its own format, its own line numbers); bare
    lines (no path) are one log. With ``normalize`` each log's messages are put in the flat
    view (:func:`~messages.convert.normalize_messages`).

    >>> lines = ['{"type":"thread.started","thread_id":"t1"}', '{"type":"turn.started"}']
    >>> out = decode_partition([(line, "a.jsonl") for line in lines])
    >>> [m.kind for m in out]
    ['init', 'raw']
    """
    out: list[Message] = []
    for _, lines in _logs(records):
        _, messages = decode_log(lines, format=format, strict=strict, merge=merge)
        out.extend(normalize_messages(messages) if normalize else messages)
    return out


def _files(paths: str | list[str]) -> list[str]:
    """``paths`` with each local folder replaced by the logs under it.

    A folder is read as the command reads one: recursively, in sorted order, JSON Lines and
    JSON files, hidden ones left out.
    """
    out: list[str] = []
    for path in [paths] if isinstance(paths, str) else paths:
        out += [found.path for found in expand(path)] if os.path.isdir(path) else [path]
    return out


def _read_text(paths: str | list[str], files_per_partition: int | None, **options: Any) -> Any:
    """The ``(line, path)`` bag (typed ``Any``: Dask's bag methods carry no annotations)."""
    if "blocksize" in options:
        raise TypeError("blocksize cannot be set: each log is read whole by one task")
    import dask.bag  # lazy: the optional dependency is loaded on first use

    read_text: Any = dask.bag.read_text
    return read_text(
        _files(paths), include_path=True, files_per_partition=files_per_partition, **options
    )


def decode_bag(
    paths: str | list[str],
    *,
    format: str | None = None,
    strict: bool = False,
    merge: bool = False,
    normalize: bool = False,
    files_per_partition: int | None = None,
    **read_options: Any,
) -> dask.bag.Bag:
    """A Dask bag of the messages of every log in ``paths`` (the ``dask`` extra).

    ``paths`` is what ``dask.bag.read_text`` takes: a path, a glob (``archive/**/*.jsonl``)
    or a list, local or remote; a local folder stands for every log under it, as for the
    ``messages`` command (``~/.claude/projects``). ``read_options`` go to ``read_text`` too
    (``compression``, ``storage_options``...; not ``blocksize``: a log is read whole). Each
    partition holds one log, or ``files_per_partition`` logs; the other options are those of
    :func:`decode_partition`.
    """
    lines = _read_text(paths, files_per_partition, **read_options)
    bag = lines.map_partitions(
        decode_partition, format=format, strict=strict, merge=merge, normalize=normalize
    )
    return cast("dask.bag.Bag", bag)


def stats_partition(
    records: Iterable[Record | str], *, format: str | None = None, merge: bool = False
) -> Stats:
    """What ``messages stats`` counts in one partition, as one mergeable :class:`Stats`.

    Each log is one input (labelled by its path); bad lines are left out, as the command
    leaves them out (``decode_partition`` keeps them, to count or show), and a log whose
    format cannot be told counts nothing.
    """
    out = Stats.empty()
    for path, lines in _logs(records):
        name, messages = decode_log(lines, format=format, merge=merge)
        if name is not None:
            good = (m for m in messages if not isinstance(m, InvalidLineMessage))
            out = out.merge(Stats.of_messages(good, label=path, format=name))
    return out


def stats_bag(
    paths: str | list[str],
    *,
    format: str | None = None,
    merge: bool = False,
    files_per_partition: int | None = None,
    split_every: int | None = None,
    **read_options: Any,
) -> Any:
    """``messages stats`` over every log in ``paths``, as a Dask item (the ``dask`` extra).

    Its ``compute()`` gives one :class:`~messages.stats.Stats` for the whole archive, equal
    to what ``messages stats`` counts on the same files: each partition's stats are built
    where the partition is read, and merged in a tree (``split_every`` partitions' stats per
    task; :meth:`Stats.merge <messages.stats.Stats.merge>` is associative, so any tree gives
    the same). Ask it for a ``report(by=...)``. ``paths`` and ``read_options`` are those of
    :func:`decode_bag`.
    """
    lines = _read_text(paths, files_per_partition, **read_options)
    per = partial(stats_partition, format=format, merge=merge)
    return lines.reduction(per, Stats.merge_all, split_every=split_every)
