"""Input side of the ``messages`` command: files, line reading, format detection, reports.

Files are read in binary, one line at a time, so memory stays bounded on any file size: a line
longer than the adapters accept is cut at that limit and the rest of it skipped, and the
adapter then reports it as too long. The format of each input is detected from its first
lines (see :func:`sniff`), unless ``--from`` names it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from itertools import chain
from typing import IO
from typing import Final

from ..adapters import detect as detect_format
from ..adapters import get
from ..adapters._base import load_line
from ..errors import DecodeError
from ..limits import current_limits
from ..message import Message
from ..session import InvalidLineMessage

__all__ = [
    "EXAMPLES",
    "Input",
    "LineCounter",
    "Options",
    "Progress",
    "Reporter",
    "decoded",
    "read_lines",
    "sniff",
]

EXAMPLES: Final = {"claude_code": "claude_code.jsonl", "native": "conversation.jsonl"}
"""The bundled examples, by format name, as files under ``messages/examples``."""

SNIFF_LINES: Final = 256
"""How many lines detection looks at before giving up."""
SNIFF_BYTES: Final = 16 * 1024 * 1024
"""How many bytes detection keeps in memory before giving up."""


@dataclass(frozen=True, slots=True)
class Options:
    """What a command does with each input (picklable: sent to worker processes)."""

    command: str
    """``normalize``, ``convert`` or ``stats``."""
    source: str | None = None
    """``--from``: the input format, or ``None`` to detect it per input."""
    target: str | None = None
    """``--to`` (convert): the output format."""
    format: str = "jsonl"
    """``--format`` (normalize): ``jsonl``, ``text`` or ``markdown``."""
    merge: bool = False
    """``--merge``: join deltas with the adapter's ``merge``."""
    strict: bool = False
    """``--strict``: stop at the first bad line."""
    lossy: str | None = None
    """``--lossy`` (convert): ``drop`` or ``text``; ``None`` makes unsupported content an error."""


@dataclass(frozen=True, slots=True)
class Input:
    """One input: a file path, ``-`` for standard input, or a bundled example."""

    path: str
    """The path as given (``-`` for standard input)."""
    example: str | None = None
    """The bundled example's format name, when this input is one."""

    @property
    def label(self) -> str:
        """How reports name this input."""
        if self.example is not None:
            return f"example:{self.example}"
        return "<stdin>" if self.path == "-" else self.path

    @property
    def is_stdin(self) -> bool:
        """Whether this input is standard input (read by the parent process only)."""
        return self.path == "-" and self.example is None

    @contextmanager
    def open(self) -> Iterator[IO[bytes]]:
        """The input as a binary file object (standard input is not closed afterwards)."""
        if self.example is not None:
            resource = resources.files("messages").joinpath("examples", EXAMPLES[self.example])
            with resource.open("rb") as fp:
                yield fp
        elif self.is_stdin:
            yield sys.stdin.buffer
        else:
            with open(self.path, "rb") as fp:
                yield fp


def read_lines(fp: IO[bytes], *, max_line: int | None = None) -> Iterator[bytes]:
    """The lines of a binary file, one at a time, none longer than ``max_line + 1`` bytes.

    A longer line is cut after ``max_line + 1`` bytes (so the adapter reports it as too long)
    and the rest of it is read in chunks and skipped.
    """
    if max_line is None:
        max_line = current_limits().max_line
    while True:
        line = fp.readline(max_line + 1)
        if not line:
            return
        if len(line) > max_line and not line.endswith(b"\n"):
            while True:
                rest = fp.readline(1 << 20)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line


class LineCounter:
    """Counts the lines an iterator hands out, and ticks a progress meter now and then."""

    __slots__ = ("count", "progress", "source")

    def __init__(self, lines: Iterable[bytes], progress: Progress | None = None) -> None:
        self.source: Iterator[bytes] = iter(lines)
        """The lines being counted (detection reads ahead from it and puts them back)."""
        self.count = 0
        """Lines handed out so far: the number of the line read last."""
        self.progress = progress

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        line = next(self.source)
        self.count += 1
        if self.progress is not None and not self.count & 1023:
            self.progress.add(1024)
        return line

    def finish(self) -> None:
        """Tell the progress meter about the lines not reported yet."""
        if self.progress is not None:
            self.progress.add(self.count & 1023)


def sniff(lines: Iterable[bytes]) -> tuple[str | None, Iterator[bytes], bool]:
    """Detect the format from the first line some adapter recognises.

    Returns the format name (``None`` when no line in the first :data:`SNIFF_LINES` lines, or
    :data:`SNIFF_BYTES` bytes, is recognised), an iterator over all the lines (the ones read
    ahead first), and whether any non-blank line was seen.
    """
    it = iter(lines)
    ahead: list[bytes] = []
    size = 0
    seen = False
    name = None
    for line in it:
        ahead.append(line)
        size += len(line)
        stripped = line.strip()
        if stripped:
            seen = True
            try:
                name = detect_format(load_line(stripped))
            except DecodeError:
                name = None
            if name is not None:
                break
        if len(ahead) >= SNIFF_LINES or size >= SNIFF_BYTES:
            break
    return name, chain(ahead, it), seen


class Reporter:
    """Writes ``messages: FILE:LINE: reason`` lines to a text stream and counts them."""

    __slots__ = ("count", "progress", "stream")

    def __init__(self, stream: IO[str], progress: Progress | None = None) -> None:
        self.stream = stream
        self.progress = progress
        self.count = 0
        """How many problems were reported."""

    def error(self, label: str, line: int | None, reason: str) -> None:
        """Report one problem in ``label`` (at ``line`` when known)."""
        self.count += 1
        if self.progress is not None:
            self.progress.clear()
        where = label if line is None else f"{label}:{line}"
        self.stream.write(f"messages: {where}: {reason}\n")
        self.stream.flush()


class Progress:
    """A line count on a terminal's stderr, rewritten at most every ``interval`` seconds."""

    __slots__ = ("_clock", "_last", "_shown", "files", "interval", "lines", "stream")

    def __init__(
        self,
        stream: IO[str],
        *,
        interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.interval = interval
        self._clock = clock
        self._last = clock()
        self._shown = 0
        self.lines = 0
        """Lines read so far, over all inputs."""
        self.files = 0
        """Inputs finished so far."""

    def add(self, lines: int, files: int = 0) -> None:
        """Count more lines (and finished inputs); redraw if ``interval`` has passed."""
        self.lines += lines
        self.files += files
        now = self._clock()
        if now - self._last >= self.interval:
            self._last = now
            text = f"messages: {self.lines:,} lines"
            if self.files:
                text += f", {self.files:,} files"
            self.stream.write("\r" + text.ljust(self._shown))
            self.stream.flush()
            self._shown = len(text)

    def clear(self) -> None:
        """Erase the meter (before a report, and at the end)."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0


def decoded(
    inp: Input, opts: Options, counter: LineCounter, report: Reporter
) -> tuple[str | None, Iterator[Message]]:
    """The format of an input and its good messages, lazily; bad lines go to ``report``.

    In strict mode the first bad line raises :class:`DecodeError` (with ``line`` set) out of
    the iterator. When the format cannot be detected the problem is reported once and the
    iterator is empty (an input with no non-blank line is simply empty).
    """
    name = opts.source
    if name is None:  # read ahead uncounted, so line numbers stay those of the adapter
        name, counter.source, seen = sniff(counter.source)
        if name is None:
            if seen:
                report.error(
                    inp.label,
                    None,
                    f"cannot tell the format (no line recognised in the first {SNIFF_LINES});"
                    " pass --from NAME",
                )
            return None, iter(())
    adapter = get(name)
    label = inp.label

    def good() -> Iterator[Message]:
        for message in adapter.iter_decode(counter, strict=opts.strict):
            if isinstance(message, InvalidLineMessage):
                report.error(label, message.line, message.reason)
                continue
            yield message

    return name, good()
