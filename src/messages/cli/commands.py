"""What the ``messages`` command does with one input: normalize, convert or collect stats.

:func:`process` runs one input to an output text stream and a :class:`Reporter`; the parent
process calls it directly, and :func:`work` runs it in a worker process, writing to temporary
files that the parent then streams out in input order.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO
from typing import Final

from ..adapters import get
from ..adapters import prepare
from ..adapters._crossing import strip_extra
from ..convert import normalize_messages
from ..errors import DecodeError
from ..errors import MessagesError
from ..message import Message
from ..policy import Unsupported
from ..stats import InputStats
from ..stats._reader import Seen
from .io import Input
from .io import LineCounter
from .io import Options
from .io import Progress
from .io import Reporter
from .io import decoded
from .io import read_lines

__all__ = ["Outcome", "process", "strip_extra", "work"]

_POLICIES: Final[dict[str | None, Unsupported]] = {None: "raise", "drop": "drop", "text": "text"}


@dataclass(slots=True)
class Outcome:
    """How one input went (picklable: sent back from worker processes)."""

    failed: bool = False
    """Whether any problem was reported (exit code 1)."""
    stopped: bool = False
    """Whether ``--strict`` stopped at a bad line: no later input should be read."""
    lines: int = 0
    """Lines read."""
    stats: InputStats | None = None
    """The sessions seen, for ``stats``."""
    read: bool = False
    """Whether the input was read as some format (not skipped, not refused)."""
    skipped: bool = False
    """Whether the input, found in a folder, was skipped as no agent log (said on stderr)."""


class _Feed:
    """Hands messages to an encoder and remembers the input line of the last one."""

    __slots__ = ("_counter", "_messages", "line")

    def __init__(self, messages: Iterable[Message], counter: LineCounter) -> None:
        self._messages = iter(messages)
        self._counter = counter
        self.line = 0

    def __iter__(self) -> Iterator[Message]:
        return self

    def __next__(self) -> Message:
        message = next(self._messages)
        self.line = self._counter.count
        return message


def _normalize(messages: Iterable[Message], opts: Options, out: IO[str], live: bool) -> None:
    flat = normalize_messages(messages)
    if opts.format == "jsonl":
        from ..serialize import dumps  # here: stats, the command run most, needs neither

        for m in flat:
            out.write(dumps(m) + "\n")
            if live:
                out.flush()
    elif opts.format == "text":
        from .render import one_line

        for m in flat:
            out.write(one_line(m) + "\n")
            if live:
                out.flush()
    else:
        from ..text._render import MarkdownWriter
        from ..text._render import Transcriber

        writer = MarkdownWriter(Transcriber(include_events=True))
        for m in flat:
            for paragraph in writer.render(m):
                out.write(paragraph + "\n\n")
            if live:
                out.flush()


def _convert(
    messages: Iterable[Message],
    *,
    source: str,
    opts: Options,
    out: IO[str],
    counter: LineCounter,
    report: Reporter,
    label: str,
    live: bool,
) -> bool:
    """Write the converted stream; returns whether ``--strict`` stopped it."""
    assert opts.target is not None
    target = get(opts.target)
    feed = _Feed(messages, counter)
    policy = _POLICIES[opts.lossy]
    while True:
        try:
            ready = prepare(feed, source=source, target=opts.target, unsupported=policy)
            for line in target.iter_encode(ready, unsupported=policy):
                out.write(line + "\n")
                if live:
                    out.flush()
            return False
        except DecodeError:
            raise
        except MessagesError as exc:
            reason = getattr(exc, "reason", str(exc))  # without the Python-level hint
            report.error(label, feed.line or None, f"{reason} (pass --lossy drop or --lossy text)")
            if opts.strict:
                return True


def process(
    inp: Input,
    opts: Options,
    out: IO[str],
    report: Reporter,
    *,
    progress: Progress | None = None,
    live: bool = False,
) -> Outcome:
    """Run the command on one input; bad lines and unsupported content go to ``report``."""
    before = report.count
    skipped = report.skipped
    outcome = Outcome()
    try:
        with inp.open() as fp:
            counter = LineCounter(read_lines(fp), progress)
            try:
                _run(
                    inp,
                    opts,
                    out=out,
                    report=report,
                    counter=counter,
                    live=live,
                    outcome=outcome,
                )
            except DecodeError as exc:  # --strict: the first bad line stops everything
                report.error(inp.label, exc.line, f"{exc.path}: {exc.reason}")
                outcome.stopped = True
            counter.finish()
            outcome.lines = counter.count
    except BrokenPipeError:
        raise
    except OSError as exc:
        report.error(inp.label, None, exc.strerror or str(exc))
    outcome.failed = report.count > before
    outcome.skipped = report.skipped > skipped
    return outcome


def _run(
    inp: Input,
    opts: Options,
    *,
    out: IO[str],
    report: Reporter,
    counter: LineCounter,
    live: bool,
    outcome: Outcome,
) -> None:
    if opts.command == "stats":  # stats has no --merge
        _stats(inp, opts, report=report, counter=counter, outcome=outcome)
        return
    name, messages = decoded(inp, opts, counter, report)
    if name is None:
        return
    outcome.read = True
    if opts.merge:
        messages = get(name).merge(messages)
    if opts.command == "normalize":
        _normalize(messages, opts, out, live)
    else:
        outcome.stopped = _convert(
            messages,
            source=name,
            opts=opts,
            out=out,
            counter=counter,
            report=report,
            label=inp.label,
            live=live,
        )


def _stats(
    inp: Input, opts: Options, *, report: Reporter, counter: LineCounter, outcome: Outcome
) -> None:
    """Collect one input's part of the stats, reading lightly what counts for little."""
    name, messages = decoded(inp, opts, counter, report, light=True)
    if name is None:
        return
    outcome.read = True
    path = None if inp.is_stdin or inp.example is not None else inp.path
    part = InputStats(inp.label, name, path=path)
    feed, seen = part.feed, part.seen
    for m in messages:
        if isinstance(m, Seen):  # a record read lightly (see messages.stats._reader)
            seen(m.session_id, m.timestamp, m.cwd)
        else:
            feed(m)
    part.finish()
    outcome.stats = part


def work(inp: Input, opts: Options, folder: str) -> tuple[str, str, Outcome]:
    """Worker-process entry: run one input into temporary files under ``folder``.

    Returns the paths of the output and of the reports, and the outcome.
    """
    out_fd, out_path = tempfile.mkstemp(dir=folder, suffix=".out")
    err_fd, err_path = tempfile.mkstemp(dir=folder, suffix=".err")
    with (
        os.fdopen(out_fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as out,
        os.fdopen(err_fd, "w", encoding="utf-8", errors="backslashreplace") as err,
    ):
        outcome = process(inp, opts, out, Reporter(err))
    return out_path, err_path, outcome
