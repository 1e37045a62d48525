"""``messages stats``: the inputs read (cached, in worker processes), and the report written.

The report is a table or JSON, with the notes that go with it on stderr.

The figures themselves come from :mod:`messages.stats` (the accumulator and its reports).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import struct
import sys
from collections.abc import Iterable
from collections.abc import Iterator
from typing import IO
from typing import TYPE_CHECKING
from typing import Any
from typing import Final

from ..stats import InputStats
from ..stats import Report
from ..stats import SessionStats
from ..stats import Stats
from ..stats import Tokens
from ..stats._prices import parted
from ..stats._prices import warm
from .commands import Outcome
from .commands import process
from .io import Input
from .io import Options
from .io import Progress
from .io import Reporter

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from ..stats._cache import StatsCache

__all__ = [
    "FileStats",
    "SessionStats",
    "Tokens",
    "collect",
    "hold_heap",
    "keep_heap",
    "notes",
    "release_heap",
    "render_json",
    "render_table",
    "sessions",
]

FileStats = InputStats
"""The collector of one input (the name the command's workers use)."""


def sessions(parts: Iterable[InputStats]) -> list[SessionStats]:
    """The sessions of all inputs in first-seen order, one session id merged across inputs."""
    return Stats.merge_all(Stats.of_input(part) for part in parts).sessions()


def render_json(report: Report, out: IO[str]) -> None:
    """The report as indented JSON (see :meth:`messages.stats.Report.to_json`)."""
    out.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    out.write("\n")


_FIGURES = (
    "turns",
    "tool calls",
    "tool errors",
    "errors",
    "input",
    "output",
    "cache read",
    "cache write",
    "reasoning",
    "cost",
    "cost from",
)
_TOKENS = ("input", "output", "cache_read", "cache_write", "reasoning")


def _figure(value: int | None) -> str:
    return "-" if value is None else str(value)


def _row(name: str, d: dict[str, Any], *, count: bool) -> list[str]:
    t = d["tokens"]
    cost = d["cost_usd"]
    return [
        name,
        *([str(d["sessions"])] if count else []),
        str(d["turns"]),
        str(sum(d["tool_calls"].values())),
        str(d["tool_errors"]),
        str(d["errors"]),
        *(_figure(t[k]) for k in _TOKENS),
        "-" if cost is None else f"${cost:.4f}",
        d["cost_source"] or "-",
    ]


def render_table(report: Report, out: IO[str]) -> None:
    """A table with one row per session (or day, month, model, project), and a total row.

    A figure no input reports is ``-``; the reasoning column is shown when any input reports
    reasoning tokens; ``cost from`` says whether the cost is the logs' own (``logged``),
    estimated from the token counts (``estimated``), or both (``mixed``). By session, the tool
    calls of each session follow, by name.
    """
    doc = report.to_json()
    by = report.by
    count = by != "session"
    if by == "session":
        items = doc["sessions"]
        names = [d["session_id"] or f"({', '.join(d['inputs'])})" for d in items]
    else:
        items = doc["rows"]
        names = ["-" if d[by] is None else str(d[by]) for d in items]
    head = f"{by} ({report.tz})" if by in ("day", "month") else by
    rows = [[head, *(["sessions"] if count else []), *_FIGURES]]
    rows += [_row(name, d, count=count) for name, d in zip(names, items, strict=True)]
    if len(items) > 1:
        rows.append(_row("total", doc["total"], count=count))
    if not any(d["tokens"]["reasoning"] is not None for d in items):
        reasoning = rows[0].index("reasoning")
        rows = [row[:reasoning] + row[reasoning + 1 :] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.write("  ".join(cells).rstrip() + "\n")
    calls = [(name, d["tool_calls"]) for name, d in zip(names, items, strict=True)]
    if by == "session" and any(tools for _, tools in calls):
        out.write("\ntool calls by name\n")
        for name, tools in calls:
            if tools:
                listed = ", ".join(f"{tool} {n}" for tool, n in tools.items())
                out.write(f"  {name}: {listed}\n")


def notes(report: Report, *, unpriced: bool = True) -> list[str]:
    """What the reader of a report should know about its cost (said once each, on stderr).

    ``unpriced``: also name the models the price table does not know, and those with
    counts it refuses to price.
    """
    found = []
    if report.needs_prices:
        found.append(
            "estimated cost needs the genai-prices package: pip install 'llm-messages[prices]'"
            " (shown as - until then)"
        )
    unknown, refused = parted(report.unpriced) if unpriced else ([], [])
    if unknown:
        found.append(
            f"no estimated cost for the usage of {', '.join(unknown)}:"
            " no price in the genai-prices table (shown as -)"
        )
    for model, why in refused:
        found.append(
            f"no estimated cost for some usage of {model}: the genai-prices table refuses"
            f" its counts ({why}) (shown as -)"
        )
    if report.rejected_costs:
        found.append(
            "ignored logged costs that are negative or not finite, in "
            + ", ".join(report.rejected_costs)
        )
    return found


def hold_heap() -> bool:
    """Hold the objects made so far out of the garbage collector's rounds; whether it did.

    They (the library, its modules and classes) stay out until :func:`release_heap`. They
    live to the end of a ``stats`` run, which makes millions of objects of its own (counts
    that live to the report, and the price table): each full collection would walk them
    all again, and a forked worker would copy their pages by touching them. Nothing is
    done when something else holds the heap already.
    """
    import gc

    if gc.get_freeze_count():
        return False
    gc.freeze()
    _heap.held = True
    return True


class _Heap:
    """Whether this process holds the heap (:func:`hold_heap`): :func:`keep_heap` adds to it."""

    held = False


_heap: Final = _Heap()


def keep_heap() -> None:
    """Add the objects made since to the heap :func:`hold_heap` holds (if this process does).

    An input's counts, once read, live to the report; held, they are not walked again by
    each full collection while the next inputs are read and the report is made (up to a
    tenth of a large archive's report time went to walking them). Freezing is a constant
    time step (the collector's lists are joined, nothing is visited).
    """
    if _heap.held:
        import gc

        gc.freeze()


def release_heap() -> None:
    """Give the objects :func:`hold_heap` held back to the garbage collector."""
    import gc

    _heap.held = False
    gc.unfreeze()


def read_one(inp: Input, opts: Options) -> tuple[str, Outcome]:
    """Read one input for ``stats`` (in a worker or here): what it reported, and its outcome."""
    reports = io.StringIO()
    outcome = process(inp, opts, io.StringIO(), Reporter(reports))
    return reports.getvalue(), outcome


def _cacheable(inp: Input) -> bool:
    return inp.example is None and not inp.is_stdin


def _pool(jobs: int) -> ProcessPoolExecutor:
    """``jobs`` worker processes, ready to read, where they cannot be forked directly.

    A fork server, which imports the library once for all of them, or fresh interpreters
    where there is none.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["messages.cli.stats"])  # imported once, not per worker
    return ProcessPoolExecutor(jobs, mp_context=context)


def _forking() -> bool:
    """Whether workers can be forked from this process as it is (Linux, no other thread).

    Forked, they start at once with what this process has imported and set up; forking is
    safe where no other thread could hold a lock at that moment.
    """
    import threading

    return sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1


def _size(inp: Input) -> int:
    try:
        return os.stat(inp.path).st_size
    except (OSError, TypeError, ValueError):
        return 0


AUTO_JOBS_BYTES: Final = 16 * 1024 * 1024
"""Below this much to read, ``stats`` reads in one process unless ``--jobs`` says otherwise."""

MAX_AUTO_JOBS: Final = 8
"""The most processes ``stats`` uses unless ``--jobs`` says otherwise."""


def _auto_jobs(inputs: list[Input]) -> int:
    """How many processes to read ``inputs`` with: one per core for a large read, else 1."""
    if sum(_size(inp) for inp in inputs) < AUTO_JOBS_BYTES:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_AUTO_JOBS))


def collect(
    inputs: list[Input],
    opts: Options,
    *,
    jobs: int | None,
    report: Reporter,
    progress: Progress | None,
    cache: StatsCache | None,
    modified_since: float | None = None,
) -> list[Outcome]:
    """Read every input for ``stats``; what each reported goes to ``report`` in input order.

    A file the ``cache`` holds (same path, size and modification time) is not read again:
    its part and its reports come from the cache. The others are read by ``jobs``
    processes (this one and ``jobs - 1`` workers; ``None``: one per core when they hold
    over :data:`AUTO_JOBS_BYTES`, else one); each is then cached. A file last modified
    before ``modified_since`` (seconds since 1970) cannot hold a record from then on, and
    is not read at all.
    ``--strict`` stops at the first input with a bad line, as when reading in order.
    """
    limits = _limits_key()
    option_key = (opts.source, opts.strict, opts.verbose, limits)
    done: list[tuple[str, Outcome] | None] = [None] * len(inputs)
    keys: dict[int, tuple[Any, ...]] = {}
    todo: list[int] = []
    for i, inp in enumerate(inputs):
        if modified_since is not None and _cacheable(inp) and inp.found:
            try:
                if os.stat(inp.path).st_mtime < modified_since:
                    done[i] = ("", Outcome())
                    continue
            except OSError:
                pass
        if cache is not None and _cacheable(inp):
            key = cache.key(inp.path, option_key)
            if key is not None:
                hit = cache.get(inp.path, key)
                if hit is not None:
                    done[i] = (hit.reports, Outcome(hit.failed, False, hit.lines, hit.stats))
                    continue
                keys[i] = key
        todo.append(i)
    parallel = [i for i in todo if not inputs[i].is_stdin]
    if jobs is None:
        jobs = _auto_jobs([inputs[i] for i in parallel])
    if jobs > 1 and len(parallel) > 1:
        # the largest first, so that no worker is left with a large file at the end
        _read_in_parallel(inputs, parallel, opts, jobs=jobs, done=done, progress=progress)
    outcomes: list[Outcome] = []
    for i, inp in enumerate(inputs):
        found = done[i]
        if found is None:  # read here, in its turn (standard input, or one job)
            found = read_one(inp, opts)
            keep_heap()
            if progress is not None:
                progress.add(found[1].lines, files=1)
        reports, outcome = found
        if cache is not None and i in keys and not outcome.stopped:
            from ..stats._cache import Cached

            cache.put(
                inp.path, keys[i], Cached(outcome.stats, reports, outcome.failed, outcome.lines)
            )
        if reports:
            if progress is not None:
                progress.clear()
            report.stream.write(reports)
            report.stream.flush()
        outcomes.append(outcome)
        if outcome.stopped:
            break
    return outcomes


def _read_in_parallel(
    inputs: list[Input],
    parallel: list[int],
    opts: Options,
    *,
    jobs: int,
    done: list[tuple[str, Outcome] | None],
    progress: Progress | None,
) -> None:
    """Read ``inputs[i]`` for each ``i`` in ``parallel`` into ``done[i]``: ``jobs`` at once.

    ``jobs - 1`` worker processes take the largest files first; this process loads the
    price table meanwhile, then reads the smallest files, from the end of the same queue,
    until it meets the workers: no process waits while another still has several files
    ahead of it, and the files read here are neither pickled nor sent. On Linux the
    workers are forked from this process (:func:`_read_forked`), elsewhere they are a
    process pool's.
    """
    sizes = {i: _size(inputs[i]) for i in parallel}
    order = sorted(parallel, key=lambda i: -sizes[i])
    jobs = min(jobs, len(order) + 1)  # no worker that could find nothing left to read
    if _forking():
        try:
            queue = _Queue(order)
        except OSError:  # no shared memory or file locks here: a process pool's workers
            pass
        else:
            _read_forked(inputs, order, queue, opts, jobs=jobs, done=done, progress=progress)
            return
    with _pool(jobs - 1) as pool:
        reading = {i: pool.submit(read_one, inputs[i], opts) for i in order}
        warm()  # the price table loads here while the workers read
        for i in reversed(order):
            if not reading[i].cancel():  # taken by a worker: so are all before it
                break
            done[i] = read_one(inputs[i], opts)
            keep_heap()
        for i in parallel:
            result = done[i]
            if result is None:
                result = done[i] = reading[i].result()
                keep_heap()
            if progress is not None:
                progress.add(result[1].lines, files=1)


def _memory_file(name: str) -> int:
    """A new file in memory (a descriptor) that forked processes share and nothing names.

    A temporary file where the system has no such files (or refuses to make one).
    """
    if hasattr(os, "memfd_create"):
        try:
            return os.memfd_create(name, os.MFD_CLOEXEC)
        except OSError:
            pass
    import tempfile

    with tempfile.TemporaryFile(prefix=name) as f:
        return os.dup(f.fileno())


class _Queue:
    """The files to read, shared by forked processes, taken from either end.

    Workers take from the front, the parent from the back. Both ends sit in a file in
    memory that every process maps; a lock on that file guards them. It is a POSIX record
    lock, which the system lets go of when its holder dies: a worker killed while taking a
    file leaves no process waiting. Beside the ends, the first input ``--strict`` stopped
    at: no input after it is handed out (reading in order would not reach it).
    """

    __slots__ = ("_ends", "_fd", "_order")

    def __init__(self, order: list[int]) -> None:
        import fcntl
        import mmap

        self._order = order
        self._fd = _memory_file("messages-stats-queue")
        try:
            os.ftruncate(self._fd, _ENDS.size)
            self._ends = mmap.mmap(self._fd, _ENDS.size)
            _ENDS.pack_into(self._ends, 0, 0, len(order), _NO_STOP)
            fcntl.lockf(self._fd, fcntl.LOCK_EX)  # (a system without such locks says so here)
            fcntl.lockf(self._fd, fcntl.LOCK_UN)
        except OSError:
            os.close(self._fd)
            raise

    @contextlib.contextmanager
    def _held(self) -> Iterator[None]:
        """Within the block, this process holds the lock on the shared ends."""
        import fcntl

        fcntl.lockf(self._fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def take(self, *, front: bool) -> int | None:
        """The next input to read from this end, or ``None`` when none is left."""
        first: int
        end: int
        stop: int
        order = self._order
        with self._held():
            first, end, stop = _ENDS.unpack_from(self._ends)
            found = None
            if front:
                while first < end and order[first] > stop:  # past the stop: never read
                    first += 1
                if first < end:
                    found = order[first]
                    first += 1
            else:
                while first < end and order[end - 1] > stop:
                    end -= 1
                if first < end:
                    end -= 1
                    found = order[end]
            _ENDS.pack_into(self._ends, 0, first, end, stop)
            return found

    def stop_at(self, i: int) -> None:
        """Input ``i`` stopped the run (``--strict``): hand out no input after it."""
        with self._held():
            first, end, stop = _ENDS.unpack_from(self._ends)
            _ENDS.pack_into(self._ends, 0, first, end, min(stop, i))

    def close(self) -> None:
        """Give back the shared memory."""
        self._ends.close()
        os.close(self._fd)


def _worker(
    queue: _Queue,
    inputs: list[Input],
    opts: Options,
    out: int,
    *,
    parent: int,
    signals: set[int | signal.Signals],
) -> None:
    """A forked worker's whole life; never returns.

    It reads from the front of ``queue`` and writes each outcome to ``out`` (its length,
    then its pickle), until nothing is left, or its ``parent`` is gone (killed with no
    chance to stop it: nobody would read the rest). It starts with the stopping signals
    held back (see :func:`_read_forked`) and takes them once it cannot leave this frame:
    ``signals`` is the mask to go back to.
    """
    code = 1
    try:
        import pickle

        signal.pthread_sigmask(signal.SIG_SETMASK, signals)

        while os.getppid() == parent and (i := queue.take(front=True)) is not None:
            result = read_one(inputs[i], opts)
            if result[1].stopped:
                queue.stop_at(i)
            record = pickle.dumps((i, result), pickle.HIGHEST_PROTOCOL)
            data = memoryview(_SIZE.pack(len(record)) + record)
            while data:
                data = data[os.write(out, data) :]
        code = 0
    finally:
        os._exit(code)  # nothing of the parent's (buffers, exit handlers) is run here


_ENDS: Final = struct.Struct("qqq")
"""The two ends of a :class:`_Queue` (the next place from the front, the end), and the
first input ``--strict`` stopped at."""
_NO_STOP: Final = 2**62
"""An input ``--strict`` never stops at (there are fewer)."""
_SIZE: Final = struct.Struct("q")
"""The length written before each outcome a forked worker sends."""


class _Outcomes:
    """What a forked worker has written so far, read back as it comes (see :func:`_worker`)."""

    __slots__ = ("fd", "read")

    def __init__(self) -> None:
        self.fd = _memory_file("messages-stats-outcomes")
        self.read = 0

    def take(self) -> list[tuple[int, tuple[str, Outcome]]]:
        """The outcomes written whole since the last call (one still being written waits)."""
        import pickle

        found: list[tuple[int, tuple[str, Outcome]]] = []
        while True:
            head = os.pread(self.fd, _SIZE.size, self.read)
            if len(head) < _SIZE.size:
                return found
            (size,) = _SIZE.unpack(head)
            record = os.pread(self.fd, size, self.read + _SIZE.size)
            if len(record) < size:
                return found
            found.append(pickle.loads(record))
            self.read += _SIZE.size + size


def _read_forked(
    inputs: list[Input],
    order: list[int],
    queue: _Queue,
    opts: Options,
    *,
    jobs: int,
    done: list[tuple[str, Outcome] | None],
    progress: Progress | None,
) -> None:
    """Read ``inputs[i]`` for each ``i`` of ``order`` (largest first), ``jobs`` at once.

    ``jobs - 1`` workers are forked from this process (no pool, no thread): they start at
    once, take their files from the front of a shared :class:`_Queue` and write each
    outcome to a memory file of their own, which this process reads back between its own
    files (from the back) and while it waits. A file a worker took but did not report
    (the worker died) is left to :func:`collect`, which reads it here in its turn.
    ``queue`` holds the places of ``order``; it is closed here.
    """
    import time

    stopping = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}  # (Linux: all three exist)
    outs: list[_Outcomes] = []
    workers: list[int] = []

    def collect(out: _Outcomes) -> None:
        for i, result in out.take():
            done[i] = result
            keep_heap()
            if progress is not None:
                progress.add(result[1].lines, files=1)

    try:
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        for _ in range(jobs - 1):
            try:
                out = _Outcomes()
            except OSError:  # no descriptor left for another (a very low limit)
                break
            # Ctrl-C between the fork and the worker's own frame would run this process's
            # code in the worker: the stopping signals wait until each side is ready
            held = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
            try:
                pid = os.fork()
            except OSError:  # no more processes to be had: read with those there are
                os.close(out.fd)
                break
            finally:
                if os.getpid() == parent:
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)
            if pid == 0:  # pragma: no cover - the worker (its coverage is not gathered)
                _worker(queue, inputs, opts, out.fd, parent=parent, signals=held)
            outs.append(out)
            workers.append(pid)
        warm()  # the price table loads here while the workers read
        while (i := queue.take(front=False)) is not None:
            result = done[i] = read_one(inputs[i], opts)
            keep_heap()
            if result[1].stopped:
                queue.stop_at(i)
            if progress is not None:
                progress.add(result[1].lines, files=1)
            for out in outs:
                collect(out)
        while workers:  # (a file a worker took and did not report is read in its turn)
            for pid in list(workers):
                try:
                    ended = os.waitpid(pid, os.WNOHANG)[0]
                except ChildProcessError:  # SIGCHLD ignored: the system reaped it itself
                    ended = pid
                if ended:
                    workers.remove(pid)  # reaped: its process id may be another's now
            for out in outs:
                collect(out)
            if workers:
                time.sleep(0.001)
    finally:
        for pid in workers:  # stopped early (an error here, Ctrl-C): so are they, at once
            try:
                os.kill(pid, signal.SIGKILL)  # (a handler of SIGTERM they inherit runs no more)
                os.waitpid(pid, 0)
            except OSError:
                pass
        for out in outs:
            os.close(out.fd)
        queue.close()


def _limits_key() -> str:
    from ..limits import current_limits

    return repr(current_limits())  # a frozen dataclass: its repr names every limit
