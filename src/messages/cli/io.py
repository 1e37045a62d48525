"""Input side of the ``messages`` command: files, line reading, format detection, reports.

Files are read in binary, one line at a time, so memory stays bounded on any file size: a line
longer than the adapters accept is cut at that limit and the rest of it skipped, and the
adapter then reports it as too long. The format of each input is detected from its first
lines (see :func:`sniff`), unless ``--from`` names it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from itertools import chain
from typing import IO
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import overload

from .._core.frozen import FrozenDict
from .._core.frozen import raw
from ..adapters import detect as detect_format
from ..adapters import get
from ..adapters._base import iter_decode
from ..adapters._base import load_line
from ..adapters._sessions import is_archived
from ..errors import DecodeError
from ..events.run import InvalidLineMessage
from ..events.run import StreamEventMessage
from ..flat import RawMessage
from ..limits import current_limits
from ..message import Message

if TYPE_CHECKING:
    from ..stats._reader import Seen

__all__ = [
    "EXAMPLES",
    "Input",
    "LineCounter",
    "Options",
    "Progress",
    "Reporter",
    "Survey",
    "decoded",
    "default_folders",
    "expand",
    "foreign_line",
    "read_lines",
    "sniff",
    "stored",
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
    verbose: bool = False
    """``--verbose``: say on stderr which format each input is read as."""


@dataclass(frozen=True, slots=True)
class Input:
    """One input: a file path, ``-`` for standard input, or a bundled example."""

    path: str
    """The path as given (``-`` for standard input)."""
    example: str | None = None
    """The bundled example's format name, when this input is one."""
    found: bool = False
    """Whether the file was found in a folder (one not in a known format is then skipped)."""

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
            from importlib import resources  # here: pathlib and its imports, for examples only

            resource = resources.files("messages").joinpath("examples", EXAMPLES[self.example])
            with resource.open("rb") as fp:
                yield fp
        elif self.is_stdin:
            yield sys.stdin.buffer
        else:
            from ..adapters._stores import open_rows

            rows = open_rows(self.path)  # a database: its rows, as JSON lines
            if rows is not None:
                yield rows
                return
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


class _Recorder:
    """Hands out lines and keeps each one, so that detection can put them all back."""

    __slots__ = ("kept", "lines", "size")

    def __init__(self, lines: Iterator[bytes]) -> None:
        self.lines = lines
        self.kept: list[bytes] = []
        self.size = 0

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        line = next(self.lines)
        self.kept.append(line)
        self.size += len(line)
        return line


def _probe(obj: Any) -> RawMessage:
    """What detection makes of one record: the name of the format that claims it."""
    return RawMessage(detect_format(obj))


@dataclass(slots=True)
class Survey:
    """What :func:`sniff` saw in the first records of an input."""

    first: str | None = None
    """The format of the first record some format claims (``None``: none claimed)."""
    counts: Counter[str] = field(default_factory=Counter)
    """How many of the records read each format claims."""
    records: int = 0
    """Records read that are JSON (a line, or a document over several lines)."""
    seen: bool = False
    """Whether any non-blank line was read."""

    def rival(self, name: str) -> str | None:
        """The format these records look like when it is not ``name`` (none, or most, are it)."""
        if not self.counts:
            return None
        best, count = self.counts.most_common(1)[0]
        if best != name and count > self.counts.get(name, 0):
            return best
        return None


def sniff(lines: Iterable[bytes], *, expect: str | None = None) -> tuple[Survey, Iterator[bytes]]:
    """Look at the first records of an input to tell its format.

    Records are lines, or JSON documents written over several lines. Detection stops at the
    first record some format claims, unless ``expect`` names another format: then it reads on
    (up to :data:`SNIFF_LINES` records, or :data:`SNIFF_BYTES` bytes) to see which format
    most records belong to. Returns the survey and an iterator over all the lines (the ones
    read ahead first).
    """
    it = iter(lines)
    recorder = _Recorder(it)
    survey = Survey()
    for message in iter_decode(_probe, recorder, source="sniff"):
        survey.seen = True
        if isinstance(message, RawMessage):
            survey.records += 1
            name = message.data
            if isinstance(name, str):
                survey.counts[name] += 1
                if survey.first is None:
                    survey.first = name
                if expect is None or survey.first == expect:
                    break
        if len(recorder.kept) >= SNIFF_LINES or recorder.size >= SNIFF_BYTES:
            break
    return survey, chain(recorder.kept, it)


class Reporter:
    """Writes ``messages: FILE:LINE: reason`` lines to a text stream and counts them."""

    __slots__ = ("count", "progress", "skipped", "stream")

    def __init__(self, stream: IO[str], progress: Progress | None = None) -> None:
        self.stream = stream
        self.progress = progress
        self.count = 0
        """How many problems were reported."""
        self.skipped = 0
        """How many inputs were skipped (see :meth:`skip`)."""

    def skip(self, label: str, reason: str) -> None:
        """Say that an input found in a folder was left unread, and why: not a problem."""
        self.skipped += 1
        self.note(label, None, f"skipped: {reason}")

    def error(self, label: str, line: int | None, reason: str) -> None:
        """Report one problem in ``label`` (at ``line`` when known)."""
        self.count += 1
        self.note(label, line, reason)

    def note(self, label: str, line: int | None, text: str) -> None:
        """Say something about ``label`` that is not a problem (``--verbose``): not counted."""
        if self.progress is not None:
            self.progress.clear()
        where = label if line is None else f"{label}:{line}"
        self.stream.write(f"messages: {where}: {text}\n")
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


MAX_SWITCH_REPORTS: Final = 5
"""How many places where an input changes format are reported one by one."""


def foreign_line(message: Message, name: str) -> str | None:
    """The known format other than ``name`` that a record kept whole belongs to, if any.

    Records kept whole are role-less raw lines, stream events and bad lines: what an adapter
    makes of another format's lines.
    """
    if name == "native" and not isinstance(message, InvalidLineMessage):
        return None  # a native record holds any value as a record of its own
    if isinstance(message, RawMessage) and message.role is None:
        data: Any = message.data
    elif isinstance(message, StreamEventMessage):
        data = message.event
    elif isinstance(message, InvalidLineMessage):
        try:
            data = load_line(message.text)
        except DecodeError:
            return None
    else:
        return None
    if isinstance(data, FrozenDict):
        data = raw(data)
    found = detect_format(data)
    return found if found is not None and found != name else None


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _cannot_tell(survey: Survey) -> str:
    if not survey.records:
        return f"cannot tell the format: no JSON in the first {SNIFF_LINES} lines"
    return (
        f"cannot tell the format: no record in the first {SNIFF_LINES} is one a known format"
        " writes; pass --from NAME if you know it"
    )


def _skip_reason(survey: Survey) -> str:
    if not survey.seen:
        return "empty"
    if not survey.records:
        return f"not an agent log (no JSON in the first {SNIFF_LINES} lines)"
    return f"not an agent log (no record in the first {SNIFF_LINES} is one a known format writes)"


@overload
def decoded(
    inp: Input, opts: Options, counter: LineCounter, report: Reporter
) -> tuple[str | None, Iterator[Message]]: ...


@overload
def decoded(
    inp: Input, opts: Options, counter: LineCounter, report: Reporter, *, light: bool
) -> tuple[str | None, Iterator[Message | Seen]]: ...


def decoded(
    inp: Input, opts: Options, counter: LineCounter, report: Reporter, *, light: bool = False
) -> tuple[str | None, Iterator[Any]]:
    """The format of an input and its good messages, lazily; bad lines go to ``report``.

    ``light``: for ``stats``, a record that counts only for its session, time and place
    comes as a :class:`~messages.stats._reader.Seen` where the format has a light reader.

    In strict mode the first bad line raises :class:`DecodeError` (with ``line`` set) out of
    the iterator. When the format cannot be detected, or the input is not in the ``--from``
    format (none or most of its first records belong to another), the problem is reported
    once and the iterator is empty (an input with no non-blank line is simply empty). Records
    of another format further on (the input changes format) are reported where they start.
    """
    name = opts.source
    label = inp.label
    store = stored(inp)
    if store is not None and name in (None, store[0]):  # a database: rows, not lines
        if opts.verbose:
            report.note(label, None, f"read as {store[0]} (a database)")
        return store
    # read ahead uncounted, so line numbers stay those of the adapter
    survey, counter.source = sniff(counter.source, expect=name)
    if name is None:
        name = survey.first
        if name is None:
            if survey.seen and not inp.found:
                report.error(label, None, _cannot_tell(survey))
            elif inp.found:
                report.skip(label, _skip_reason(survey))
            return None, iter(())
        how = "detected"
    else:
        rival = survey.rival(name)
        if rival is not None and rival == getattr(get(name), "RECORDS", None):
            rival = None  # the format's records are that format's shape (Kilo's are OpenCode's)
        if rival is not None:
            share = f"{survey.counts[rival]} of the first {survey.records} records"
            report.error(
                label,
                None,
                f"not {name}: {share} are {rival} lines, {survey.counts.get(name, 0)} are {name}"
                f" (pass --from {rival}, or leave --from out to detect the format)",
            )
            return None, iter(())
        how = "--from"
    if opts.verbose:
        report.note(label, None, f"read as {name} ({how})")
    adapter = get(name)
    read_as = name
    lines: Callable[..., Iterator[Any]] = adapter.iter_decode
    seen: type | None = None  # what a light reader gives for a record it read lightly
    if light:
        from ..stats._reader import Seen
        from ..stats._reader import reader

        found = reader(name)
        if found is not None:
            lines, seen = found, Seen

    def good() -> Iterator[Any]:
        switches = 0
        current: str | None = None
        foreign: Counter[str] = Counter()
        for message in lines(counter, strict=opts.strict):
            if type(message) is seen:  # a record of this format, read lightly
                current = None
                yield message
                continue
            other = foreign_line(message, read_as)
            if other is not None:
                foreign[other] += 1
                if other != current and switches < MAX_SWITCH_REPORTS:
                    switches += 1
                    line = getattr(message, "line", None) or counter.count
                    report.error(
                        label, line, f"{_a(other)} line in {read_as} input: the format changes here"
                    )
            current = other
            if isinstance(message, InvalidLineMessage):
                if other is None:
                    report.error(label, message.line, message.reason)
                continue
            yield message
        for other, count in foreign.items():
            report.error(label, None, f"{count} records are {other} lines, not {read_as}")

    return name, good()


LOG_SUFFIXES: Final = (".jsonl", ".ndjson", ".json", ".db", ".sqlite")
"""The files a folder argument reads: JSON Lines, JSON documents (Gemini CLI's output, its
saved sessions, prompt logs and checkpoints, OpenCode's record files), and databases
(OpenCode's and Kilo's, read by their adapters; Hermes's ``state.db`` and ZCode's
``db.sqlite``, see :mod:`messages.adapters._stores`)."""


def _log_name(name: str) -> bool:
    if name.startswith("."):
        return False
    return name.endswith(LOG_SUFFIXES) or is_archived(name)


def stored(inp: Input) -> tuple[str, Iterator[Message]] | None:
    """The format and messages of an input that is an agent's database, else ``None``.

    A file is asked about only when it starts with SQLite's header; each adapter with
    ``is_database`` and ``read_database`` (OpenCode's store) is asked in turn.
    """
    if inp.is_stdin or inp.example is not None or not inp.path.endswith(".db"):
        return None
    from ..adapters import CLI_NAMES

    for name in CLI_NAMES:
        adapter: Any = get(name)
        if getattr(adapter, "is_database", None) is not None and adapter.is_database(inp.path):
            return name, adapter.read_database(inp.path)
    return None


def expand(path: str) -> list[Input]:
    """The inputs a command-line argument names: a file, or every log under a folder.

    A folder is read recursively, in sorted order, for the files :data:`LOG_SUFFIXES` name
    (and archived session files, see :func:`~messages.adapters._sessions.is_archived`); hidden
    entries below it are left out. Files found this way whose format cannot be told (a
    configuration file, say) are skipped without a report.
    """
    if path == "-" or not os.path.isdir(path):
        return [Input(path)]
    found = []
    for folder, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [os.path.join(folder, name) for name in sorted(files) if _log_name(name)]
    return [Input(p, found=True) for p in found]


def default_folders(env: dict[str, str] | None = None) -> list[str]:
    """Where the agents keep their logs, the folders that exist: read when no file is given.

    Each agent's session hook knows its own folders (see :func:`messages.sessions.roots`):
    Claude Code's transcripts are in ``$CLAUDE_CONFIG_DIR/projects`` (a comma-separated list
    of folders is allowed), else ``~/.claude/projects``; Codex's sessions are in
    ``$CODEX_HOME/sessions``, else ``~/.codex/sessions``. Gemini CLI keeps its sessions,
    prompt logs and checkpoints under ``.gemini/tmp`` in ``$GEMINI_CLI_HOME`` (the home
    folder it uses in place of yours), else in ``~``; Qwen Code its chats under
    ``$QWEN_HOME/projects`` (its whole ``~/.qwen`` moved), else ``~/.qwen/projects``, and
    older versions' prompt logs under ``tmp`` beside it; then pi's and Cline's (and Roo
    Code's, Kilo Code's) folders; OpenCode's store in ``$OPENCODE_DATA_DIR``, else
    ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``; each agent's own override
    variables honoured.
    """
    from ..sessions import roots

    return roots(env)
