"""The ``messages`` command: scripts over agent logs, from the shell.

``messages normalize`` writes the flat view of any agent CLI's output (as native JSON Lines, a
one-line-per-message transcript or Markdown), ``messages convert`` rewrites a stream from one
format to another, and ``messages stats`` counts turns, tool calls, errors, tokens and cost per
session; ``messages sessions`` lists sessions assembled from their files and ``messages show``
prints one as a conversation. Every input's format is detected from its first lines unless
``--from`` names it. See ``docs/cli.md``.

Exit codes: 0 ok, 1 data error (a bad line, content the target cannot carry, an unreadable
file: every good line is still written), 2 usage error. A closed pipe ends the run quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import os
import shutil
import sys
from collections import deque
from collections.abc import Callable
from collections.abc import Sequence
from typing import IO
from typing import TYPE_CHECKING
from typing import Final
from typing import NoReturn

from ..adapters import NAMES
from ..adapters import get
from ..stats import Stats
from ..stats._prices import memoized
from ..stats._report import VIEWS
from .commands import Outcome
from .commands import process
from .commands import work
from .io import EXAMPLES
from .io import Input
from .io import Options
from .io import Progress
from .io import Reporter
from .io import default_folders
from .io import expand
from .sessions import add_parsers as add_session_parsers
from .sessions import run as run_sessions
from .stats import collect
from .stats import hold_heap
from .stats import keep_heap
from .stats import notes
from .stats import release_heap
from .stats import render_json
from .stats import render_table

if TYPE_CHECKING:
    from concurrent.futures import Future
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["EXIT_DATA", "EXIT_OK", "EXIT_USAGE", "build_parser", "main", "run"]

EXIT_OK: Final = 0
"""Everything was read and written."""
EXIT_DATA: Final = 1
"""Some input was bad (each problem is reported on stderr); every good line was written."""
EXIT_USAGE: Final = 2
"""The command line itself was wrong."""


def _common(p: argparse.ArgumentParser, *, merge: bool, jobs: str | None = None) -> None:
    """The inputs and reading flags every command has (and ``--merge`` where it applies).

    ``jobs``: the help of a ``--jobs`` whose default is chosen per run (``None``: 1).
    """
    p.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="input files, or folders to read every agent log under ('-' or none: standard"
        " input; stats with none on a terminal: the agents' own log folders)",
    )
    if merge:
        p.add_argument("--merge", action="store_true", help="join streamed deltas first")
    p.add_argument(
        "--from",
        dest="source",
        choices=NAMES,
        metavar="NAME",
        help=f"input format (default: detected per input); one of: {', '.join(NAMES)}",
    )
    p.add_argument(
        "--example",
        nargs="?",
        const="claude_code",
        choices=sorted(EXAMPLES),
        help="read a bundled example instead of files (default: claude_code)",
    )
    p.add_argument("--strict", action="store_true", help="stop at the first bad line")
    p.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="say on stderr which format each input is read as",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=_positive,
        default=1 if jobs is None else None,
        metavar="N",
        help=jobs
        or "read up to N inputs at once in worker processes (output keeps the input order)",
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, found {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``messages`` command (every subcommand and flag)."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="messages",
        description="Normalize, convert and summarise coding-agent logs (JSON Lines).",
        epilog="exit codes: 0 ok, 1 bad data (reported on stderr), 2 usage error",
    )
    parser.add_argument("--version", action="version", version=f"messages {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    norm = sub.add_parser(
        "normalize",
        help="write the flat view of a stream",
        description="Write the flat view (one message per content kind) of each input.",
    )
    _common(norm, merge=True)
    norm.add_argument(
        "--format",
        choices=("jsonl", "text", "markdown"),
        default="jsonl",
        help="native JSON Lines (default), one line per message, or Markdown",
    )

    conv = sub.add_parser(
        "convert",
        help="rewrite a stream in another format",
        description="Decode each input and write it again in the --to format, line by line.",
    )
    _common(conv, merge=True)
    conv.add_argument("--to", dest="target", required=True, choices=NAMES, metavar="NAME")
    conv.add_argument(
        "--lossy",
        choices=("drop", "text"),
        help="content the target cannot carry: drop it, or write it as text (default: error)",
    )

    stats = sub.add_parser(
        "stats",
        help="turns, tool calls, errors, tokens and cost per session",
        description="Count turns, tool calls, errors, tokens and cost for each session.",
    )
    _common(
        stats,
        merge=False,
        jobs="read up to N inputs at once: this process and N-1 worker processes (default:"
        " one per core when the files to read hold over 16 MB, else 1)",
    )
    stats.add_argument("--json", action="store_true", help="write JSON instead of a table")
    stats.add_argument(
        "--by",
        choices=VIEWS,
        default="session",
        help="one row per session (default), day, ISO week, month, model, project, agent"
        " (the CLI that wrote the log), block (5-hour billing window) or subagent",
    )
    stats.add_argument(
        "--cost",
        choices=("auto", "logged", "estimated"),
        default="auto",
        help="the logs' own cost, an estimate from token counts (needs genai-prices), or"
        " logged where a session has it, else estimated (default)",
    )
    stats.add_argument(
        "--tz",
        type=_zone,
        default=None,
        metavar="ZONE",
        help="IANA time zone for days, months and --since/--until (default: the local zone)",
    )
    stats.add_argument(
        "--since", type=_date, metavar="DAY", help="from this day on (YYYY-MM-DD, inclusive)"
    )
    stats.add_argument(
        "--until", type=_date, metavar="DAY", help="up to this day (YYYY-MM-DD, inclusive)"
    )
    add_session_parsers(sub)
    stats.add_argument(
        "--no-cache",
        action="store_true",
        help="read every file again, without the per-file cache ($XDG_CACHE_HOME/messages)",
    )
    return parser


def _day_start(day: dt.date | None, tz: dt.tzinfo | None) -> float | None:
    """When ``day`` starts in ``tz`` (the local zone if ``None``), less a day of margin.

    A file last modified before then holds no record of ``day`` or later (the margin
    covers clocks and zones that disagree), so ``stats --since`` need not read it.
    """
    if day is None:
        return None
    start = dt.datetime.combine(day, dt.time(0), tzinfo=tz)
    if tz is None:
        start = start.astimezone()
    return start.timestamp() - 86400


def _zone(text: str) -> dt.tzinfo:
    from zoneinfo import ZoneInfo
    from zoneinfo import ZoneInfoNotFoundError

    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise argparse.ArgumentTypeError(
            f"unknown time zone {text!r} (an IANA name such as Europe/Paris or UTC)"
        ) from None


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.replace("/", "-") if len(text) == 10 else text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a day as YYYY-MM-DD, found {text!r}") from None


def _inputs(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Input]:
    if args.example is not None:
        if args.files:
            parser.error("give either --example or files, not both")
        return [Input("-", example=args.example)]
    if not args.files and args.command == "stats" and _stdin_is_terminal():
        folders = default_folders()
        if not folders:
            parser.error(
                "no FILE given, and no agent log folder found"
                " ($CLAUDE_CONFIG_DIR/projects, ~/.claude/projects, ~/.codex/sessions,"
                " ~/.gemini/tmp, ~/.qwen/projects, ~/.local/share/opencode and the other"
                " agents' folders)"
            )
        return [inp for folder in folders for inp in expand(folder)]
    inputs = []
    for path in args.files or ["-"]:
        found = expand(path)
        if not found:
            parser.error(f"no agent log (*.jsonl, *.ndjson, *.json) under {path}")
        inputs += found
    return inputs


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _options(args: argparse.Namespace) -> Options:
    return Options(
        command=args.command,
        source=args.source,
        target=getattr(args, "target", None),
        format=getattr(args, "format", "jsonl"),
        merge=getattr(args, "merge", False),
        strict=args.strict,
        lossy=getattr(args, "lossy", None),
        verbose=args.verbose,
    )


def _utf8_stdout() -> io.TextIOWrapper | None:
    """Standard output as UTF-8 text, or ``None`` when it has no binary buffer to wrap.

    Lone surrogates (from escapes such as a lone high surrogate in the input) are written back
    as JSON escapes.
    """
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return None
    sys.stdout.flush()
    return io.TextIOWrapper(
        buffer,
        encoding="utf-8",
        errors="backslashreplace",
        newline="\n",
        line_buffering=sys.stdout.isatty(),
    )


def _live(inputs: list[Input]) -> bool:
    """Whether to flush after every message: standard input is a pipe or a terminal."""
    if not any(inp.is_stdin for inp in inputs):
        return False
    try:
        import stat

        return not stat.S_ISREG(os.fstat(sys.stdin.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def _sequential(
    inputs: list[Input],
    opts: Options,
    *,
    out: IO[str],
    report: Reporter,
    progress: Progress | None,
    live: bool,
) -> list[Outcome]:
    outcomes = []
    for inp in inputs:
        outcome = process(inp, opts, out, report, progress=progress, live=live)
        outcomes.append(outcome)
        if progress is not None:
            progress.add(0, files=1)
        if outcome.stopped:
            break
    return outcomes


def _copy(path: str, out: IO[str]) -> None:
    with open(path, encoding="utf-8") as fp:
        shutil.copyfileobj(fp, out, 1 << 20)


def _parallel(
    inputs: list[Input],
    opts: Options,
    *,
    jobs: int,
    out: IO[str],
    report: Reporter,
    progress: Progress | None,
    live: bool,
) -> list[Outcome]:
    """Inputs in worker processes, at most ``2 * jobs`` in flight, written in input order."""
    import multiprocessing
    import tempfile
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    folder = tempfile.mkdtemp(prefix="messages-")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    pending: deque[tuple[Input, Future[tuple[str, str, Outcome]] | None]] = deque()
    todo = iter(inputs)
    outcomes: list[Outcome] = []
    done = False
    try:
        while True:
            while len(pending) < 2 * jobs:
                inp = next(todo, None)
                if inp is None:
                    break
                job = None if inp.is_stdin else pool.submit(work, inp, opts, folder)
                pending.append((inp, job))
            if not pending:
                break
            inp, job = pending.popleft()
            if job is None:  # standard input is read here, in its turn
                outcome = process(inp, opts, out, report, progress=progress, live=live)
            else:
                out_path, err_path, outcome = job.result()
                _copy(out_path, out)
                out.flush()
                if progress is not None:
                    progress.clear()
                _copy(err_path, report.stream)
                report.stream.flush()
                os.unlink(out_path)
                os.unlink(err_path)
            outcomes.append(outcome)
            if progress is not None:
                progress.add(0 if job is None else outcome.lines, files=1)
            if outcome.stopped:
                break
        done = not pending
    finally:
        if not done:  # stopped early (--strict, a closed pipe...): running work is not wanted
            _terminate(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(folder, ignore_errors=True)
    return outcomes


def _terminate(pool: ProcessPoolExecutor) -> None:
    """End a pool's worker processes now, instead of waiting for the inputs they are on."""
    processes = getattr(pool, "_processes", None) or {}
    for worker in list(processes.values()):
        worker.terminate()


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at devnull so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 data error, 2 usage error).

    >>> main(["normalize", "--example", "--format", "text"])  # doctest: +ELLIPSIS
    [init] session 3b1f6a52-..., model claude-sonnet-4-5-20250929, cwd /home/ana/inventory-service, 9 tools
    [text/user] Which TODO comments are still left in src/? Group them by file.
    ...
    0
    """  # noqa: E501
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command in ("sessions", "show"):
        return _run_sessions(args)
    target = getattr(args, "target", None)
    if target is not None and getattr(get(target), "READ_ONLY", False):
        parser.print_usage(sys.stderr)
        sys.stderr.write(
            f"messages convert: error: --to {target}: {target} is an agent's own store"
            " (files and a database the agent writes); messages reads it but does not"
            " write it\n"
        )
        return EXIT_USAGE
    inputs = _inputs_or_exit(parser, args)
    if isinstance(inputs, int):
        return inputs
    opts = _options(args)
    progress = Progress(sys.stderr) if sys.stderr.isatty() else None
    report = Reporter(sys.stderr, progress)
    return _on_stdout(
        lambda out: _run_inputs(args, opts, inputs, out=out, report=report, progress=progress)
    )


def _run_inputs(
    args: argparse.Namespace,
    opts: Options,
    inputs: list[Input],
    *,
    out: IO[str],
    report: Reporter,
    progress: Progress | None,
) -> int:
    """The commands that read inputs (``normalize``, ``convert``, ``stats``...), on ``out``."""
    live = _live(inputs)
    held = opts.command == "stats" and hold_heap()
    try:
        cache = None
        if opts.command == "stats" and not args.no_cache:
            from ..stats._cache import StatsCache

            cache = StatsCache()
        if opts.command == "stats":
            outcomes = collect(
                inputs,
                opts,
                jobs=args.jobs,
                report=report,
                progress=progress,
                cache=cache,
                modified_since=_day_start(args.since, args.tz),
            )
        elif args.jobs > 1 and len(inputs) > 1:
            outcomes = _parallel(
                inputs,
                opts,
                jobs=args.jobs,
                out=out,
                report=report,
                progress=progress,
                live=live,
            )
        else:
            outcomes = _sequential(
                inputs, opts, out=out, report=report, progress=progress, live=live
            )
        if opts.command == "stats":
            keep_heap()  # what was read lives to the report: no collection walks it again
            parts = (Stats.of_input(o.stats) for o in outcomes if o.stats is not None)
            memo = None if cache is None else cache.prices()
            size = 0 if memo is None else len(memo)
            with memoized(memo) as used:
                summary = Stats.merge_all(parts).report(
                    args.by, cost=args.cost, tz=args.tz, since=args.since, until=args.until
                )
            if cache is not None and memo is not None:
                cache.keep_prices(memo, used, before=size)
            (render_json if args.json else render_table)(summary, out)
            out.flush()
            for note in notes(summary):
                report.note("stats", None, note)
        out.flush()
    finally:
        if held:
            release_heap()
        if progress is not None:
            progress.clear()
    if _read_nothing(outcomes, report):
        return EXIT_DATA
    return EXIT_DATA if any(o.failed for o in outcomes) else EXIT_OK


def run() -> NoReturn:
    """The ``messages`` command itself: :func:`main` on ``sys.argv``, then an immediate exit.

    Once every output is written and flushed the process ends without tearing down its
    objects one by one: a ``stats`` run ends holding millions of them (its counts and the
    price table), and freeing them at interpreter exit would add several percent to its
    time for nothing (mypy ends the same way). Code that calls :func:`main` itself, as the
    tests do, gets the exit code back instead.

    Started with standard error closed (``2>&-``), what it would say there is dropped; with
    standard output closed (``>&-``), it says so and ends with :data:`EXIT_USAGE`, reading
    nothing.
    """
    if sys.stderr is None:  # closed when the process started: nowhere to say anything
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives to exit)
    if sys.stdout is None:
        print("messages: standard output is closed: nowhere to write", file=sys.stderr)
        sys.stderr.flush()
        os._exit(EXIT_USAGE)
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to write there
            stream.flush()
    os._exit(code)


def _read_nothing(outcomes: list[Outcome], report: Reporter) -> bool:
    """Whether no input was read although some were there to read (then said on stderr).

    Files found in a folder and skipped as no agent log, with none read: the run did nothing
    a user asked for, whatever the command printed. Empty inputs alone are empty streams.
    """
    if any(o.read for o in outcomes) or not any(o.skipped for o in outcomes):
        return False  # a refused input is reported as an error already
    report.error(
        "nothing read",
        None,
        f"none of the {len(outcomes)} files found is an agent log in a known format",
    )
    return True


def _run_sessions(args: argparse.Namespace) -> int:
    """``messages sessions`` and ``messages show`` (see :mod:`messages.cli.sessions`)."""
    return _on_stdout(lambda out: run_sessions(args, out, sys.stderr))


def _on_stdout(command: Callable[[IO[str]], int]) -> int:
    """The exit code of ``command`` writing to standard output as UTF-8 text.

    A closed pipe (``messages ... | head``) ends the run quietly with 0, Ctrl-C with 130; the
    UTF-8 wrapper is flushed and detached at the end, leaving ``sys.stdout``'s buffer open.
    """
    wrapper = _utf8_stdout()
    try:
        return command(sys.stdout if wrapper is None else wrapper)
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    finally:
        if wrapper is not None:
            try:
                wrapper.flush()
            except BrokenPipeError:
                _quiet_stdout()
            wrapper.detach()  # leave sys.stdout's buffer open


def _inputs_or_exit(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Input] | int:
    try:
        return _inputs(parser, args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
